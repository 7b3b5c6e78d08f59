/* One-shot memory, strings and files of pf-report. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void pfr_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pf-report: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* Every block stays reachable from this registry until exit. */
static void **g_blocks;
static size_t g_nblocks, g_capblocks;

static void *track(void *p)
{
    if (g_nblocks == g_capblocks) {
        size_t cap = g_capblocks ? 2 * g_capblocks : 1024;
        void **b = realloc(g_blocks, cap * sizeof *b);
        if (!b) pfr_die("out of memory");
        g_blocks = b;
        g_capblocks = cap;
    }
    g_blocks[g_nblocks++] = p;
    return p;
}

void *pfr_alloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) pfr_die("out of memory");
    return track(p);
}

void *pfr_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) pfr_die("out of memory");
    for (size_t i = g_nblocks; i-- > 0;)
        if (g_blocks[i] == p) {
            g_blocks[i] = q;
            return q;
        }
    return track(q);
}

char *pfr_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = pfr_alloc(n);
    memcpy(d, s, n);
    return d;
}

char *pfr_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) pfr_die("internal: bad format '%s'", fmt);
    char *s = pfr_alloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

double pfr_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void pfr_make_dir(const char *path)
{
    if (mkdir(path, 0775) != 0 && errno != EEXIST)
        pfr_die("cannot create directory '%s': %s", path, strerror(errno));
}

FILE *pfr_open_w(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) pfr_die("cannot write '%s': %s", path, strerror(errno));
    return f;
}

char *pfr_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0, k;
    char *s = pfr_alloc(cap);
    while ((k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n < 2) s = pfr_realloc(s, cap *= 2);
    }
    fclose(f);
    s[n] = '\0';
    return s;
}

char *pfr_last_line(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
        s[--n] = '\0';
    if (!n) return NULL;
    char *p = strrchr(s, '\n');
    return p ? p + 1 : s;
}

char *pfr_slug(const char *s)
{
    char *d = pfr_strdup(s);
    for (char *p = d; *p; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '.'))
            *p = '_';
    return d;
}

void pfr_md_row(FILE *md, const char *first, const double *v, int n)
{
    fprintf(md, "| %s |", first);
    for (int i = 0; i < n; ++i) {
        char b[32];
        fprintf(md, " %s |", pfr_fmt_num(b, sizeof b, v[i]));
    }
    fprintf(md, "\n");
}

const char *pfr_fmt_num(char *buf, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(buf, n, "—");
    else
        snprintf(buf, n, "%.4g", v);
    return buf;
}
