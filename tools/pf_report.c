/* pf-report: the comparison report (issue 4, the project's main job).
 *
 * Runs every scene case of pf-demo in the stock, exact and pade friction modes and the
 * independent reference (pf-reference), reads the CSVs and JSON metrics back, and writes
 * OUT/README.md with the summary table (RMS error of each mode against the reference, relative to
 * the motion's amplitude; breakaway forces; synchronisation and stop times), the CSVs and the
 * gnuplot PNGs: trajectories, phase portraits, stick/slip timelines, the eccentric push under the
 * CA and limit-surface stick criteria, the friction-rig loops and cycles, the wire pendulum's
 * decay envelope and (through pf-limit-surfaces) the limit surfaces of the patch models. The
 * varying-normal-load cases are also run with `--set coupling=adapter` and (when pf-demo accepts
 * it: the patched ODE) `coupling=solver`, in their own section (also under --quick).
 *
 * Everything goes through the pf-demo command-line contract (architecture.md), as subprocesses,
 * so the report covers whatever scenes pf-demo lists. A failed run stops the report: the message
 * names the command and shows the end of its stderr, the exit status is 1 and no README.md is
 * left behind.
 *
 * Usage: pf-report --demo PF-DEMO [--reference PF-REFERENCE] [--limit-surfaces PF-LIMIT-SURFACES]
 *                  [--sweep PF-SWEEP] [--out DIR] [--quick] [--jobs N] [--timeout S]
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pf_report_sweeps.h"

#define MAX_ARGS 48
#define MAX_SCENES 16
#define MAX_CASES 32
#define MAX_KEYS 96
#define PATHLEN 1024

static const char *const MODES[3] = {"stock", "exact", "pade"};
#define NMODES 3
#define REF 3 /* index of the reference in the per-case run arrays */
static const char *const MODE_COLOR[4] = {"#d62728", "#1f5fbf", "#2ca02c", "#000000"};
/* exact and pade coincide where the Pade model does not apply (rectangles): pade is drawn
 * dashed over a wider exact line, the reference dashed in black on top, so all stay visible */
static const char *const MODE_LW[4] = {"1.5", "3", "1.5", "2"};
static const char *const MODE_DT[4] = {"dt 1", "dt 1", "dt (6,4)", "dt (2,3)"};

/* ------------------------------------------------------------------------------------------ */
/* small utilities                                                                             */
/* ------------------------------------------------------------------------------------------ */

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pf-report: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* pf-report is a one-shot program: what it allocates lives until exit. Every block stays
 * reachable from this registry, so LeakSanitizer (the sanitize preset runs the smoke test)
 * reports only real leaks, of which there are then none. */
static void **g_blocks;
static size_t g_nblocks, g_capblocks;

static void *track(void *p)
{
    if (g_nblocks == g_capblocks) {
        size_t cap = g_capblocks ? 2 * g_capblocks : 1024;
        void **b = realloc(g_blocks, cap * sizeof *b);
        if (!b) die("out of memory");
        g_blocks = b;
        g_capblocks = cap;
    }
    g_blocks[g_nblocks++] = p;
    return p;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) die("out of memory");
    return track(p);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) die("out of memory");
    for (size_t i = g_nblocks; i-- > 0;)
        if (g_blocks[i] == p) {
            g_blocks[i] = q;
            return q;
        }
    return track(q);
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

static char *fmt_str(const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) die("internal: bad format '%s'", fmt);
    char *s = xmalloc((size_t)n + 1);
    if ((size_t)n < sizeof small) {
        memcpy(s, small, (size_t)n + 1);
        return s;
    }
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0775) != 0 && errno != EEXIST)
        die("cannot create directory '%s': %s", path, strerror(errno));
}

static FILE *open_w(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) die("cannot write '%s': %s", path, strerror(errno));
    return f;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *s = xmalloc(cap);
    size_t k;
    while ((k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n < 2) s = xrealloc(s, cap *= 2);
    }
    fclose(f);
    s[n] = '\0';
    return s;
}

/* Last non-empty line of s (modified in place), or NULL. */
static char *last_line(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
        s[--n] = '\0';
    if (!n) return NULL;
    char *p = strrchr(s, '\n');
    return p ? p + 1 : s;
}

/* File-name-safe copy: anything but [A-Za-z0-9.-] becomes '_'. */
static char *slug(const char *s)
{
    char *d = xstrdup(s);
    for (char *p = d; *p; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '.'))
            *p = '_';
    return d;
}

/* ------------------------------------------------------------------------------------------ */
/* flat JSON objects (what pf-demo writes: strings, numbers, null, arrays of numbers)           */
/* ------------------------------------------------------------------------------------------ */

typedef enum { JV_NULL = 0, JV_NUM, JV_STR, JV_ARR } JsonKind;

typedef struct {
    char *key;
    JsonKind kind;
    double num;
    char *str;
    double *arr;
    long narr;
} JsonVal;

typedef struct {
    JsonVal v[MAX_KEYS];
    int n;
} Json;

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        ++p;
    return p;
}

static const char *parse_jstr(const char *p, char **out)
{
    if (*p != '"') return NULL;
    ++p;
    size_t cap = 32, n = 0;
    char *s = xmalloc(cap);
    while (*p && *p != '"') {
        char c = *p++;
        if (c == '\\' && *p) {
            c = *p++;
            if (c == 'n') c = '\n';
            if (c == 't') c = '\t';
        }
        if (n + 2 > cap) s = xrealloc(s, cap *= 2);
        s[n++] = c;
    }
    if (*p != '"') {
        free(s);
        return NULL;
    }
    s[n] = '\0';
    *out = s;
    return p + 1;
}

static const char *parse_jnum(const char *p, double *out)
{
    if (!strncmp(p, "null", 4)) {
        *out = NAN;
        return p + 4;
    }
    char *end;
    *out = strtod(p, &end);
    return end == p ? NULL : end;
}

/* Returns 0, or -1 if text is not a flat JSON object. */
static int json_parse(const char *text, Json *j)
{
    memset(j, 0, sizeof *j);
    const char *p = skip_ws(text);
    if (*p++ != '{') return -1;
    for (;;) {
        p = skip_ws(p);
        if (*p == '}') return 0;
        if (j->n >= MAX_KEYS) return 0;
        JsonVal *v = &j->v[j->n];
        if (!(p = parse_jstr(p, &v->key))) return -1;
        p = skip_ws(p);
        if (*p++ != ':') return -1;
        p = skip_ws(p);
        if (*p == '"') {
            v->kind = JV_STR;
            if (!(p = parse_jstr(p, &v->str))) return -1;
        } else if (*p == '[') {
            v->kind = JV_ARR;
            long cap = 16;
            v->arr = xmalloc((size_t)cap * sizeof *v->arr);
            p = skip_ws(p + 1);
            while (*p != ']') {
                double x;
                if (!(p = parse_jnum(p, &x))) return -1;
                if (v->narr == cap) v->arr = xrealloc(v->arr, (size_t)(cap *= 2) * sizeof *v->arr);
                v->arr[v->narr++] = x;
                p = skip_ws(p);
                if (*p == ',')
                    p = skip_ws(p + 1);
                else if (*p != ']')
                    return -1;
            }
            ++p;
        } else if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
            v->kind = JV_NUM;
            v->num = *p == 't';
            p += *p == 't' ? 4 : 5;
        } else {
            if (!(p = parse_jnum(p, &v->num))) return -1;
            v->kind = isnan(v->num) ? JV_NULL : JV_NUM;
        }
        j->n++;
        p = skip_ws(p);
        if (*p == ',')
            ++p;
        else if (*p != '}')
            return -1;
    }
}

static const JsonVal *json_get(const Json *j, const char *key)
{
    for (int i = 0; i < j->n; ++i)
        if (!strcmp(j->v[i].key, key)) return &j->v[i];
    return NULL;
}

static double json_num(const Json *j, const char *key)
{
    const JsonVal *v = json_get(j, key);
    return v && v->kind == JV_NUM ? v->num : NAN;
}

/* ------------------------------------------------------------------------------------------ */
/* CSV tables (header row, numeric cells; first column t)                                     */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    int ncol;
    char **names;
    long nrow;
    double *d; /* row-major nrow x ncol */
} Table;

static int table_read(const char *path, Table *tb)
{
    memset(tb, 0, sizeof *tb);
    char *text = read_file(path);
    if (!text) return -1;
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    if (!line) {
        free(text);
        return -1;
    }
    /* header */
    tb->names = xmalloc(sizeof *tb->names * 64);
    for (char *c = line;;) {
        char *comma = strchr(c, ',');
        if (comma) *comma = '\0';
        size_t L = strlen(c);
        while (L && (c[L - 1] == '\r' || c[L - 1] == ' '))
            c[--L] = '\0';
        if (tb->ncol < 64) tb->names[tb->ncol++] = xstrdup(c);
        if (!comma) break;
        c = comma + 1;
    }
    long cap = 1024;
    tb->d = xmalloc((size_t)cap * (size_t)tb->ncol * sizeof *tb->d);
    while ((line = strtok_r(NULL, "\n", &save))) {
        if (*line == '\r' || *line == '\0') continue;
        if (tb->nrow == cap) {
            cap *= 2;
            tb->d = xrealloc(tb->d, (size_t)cap * (size_t)tb->ncol * sizeof *tb->d);
        }
        double *row = tb->d + tb->nrow * tb->ncol;
        char *c = line;
        for (int k = 0; k < tb->ncol; ++k) {
            char *end;
            row[k] = c ? strtod(c, &end) : NAN;
            if (c && end == c) row[k] = NAN;
            c = c ? strchr(c, ',') : NULL;
            if (c) ++c;
        }
        tb->nrow++;
    }
    free(text);
    return 0;
}

static int table_col(const Table *tb, const char *name)
{
    for (int k = 0; k < tb->ncol; ++k)
        if (!strcmp(tb->names[k], name)) return k;
    return -1;
}

static double tv(const Table *tb, long r, int c)
{
    return tb->d[r * tb->ncol + c];
}

/* Column roles, from the names the scenes write. Positions are what the error is measured on. */
static int is_velocity_name(const char *n)
{
    return n[0] == 'v' || n[0] == 'w' || !strncmp(n, "omega", 5) || !strcmp(n, "rate") ||
           strstr(n, "dot") != NULL || !strncmp(n, "dx", 2) || !strncmp(n, "dtheta", 6);
}

static int is_state_name(const char *n)
{
    return strstr(n, "state") || strstr(n, "stick") || !strcmp(n, "slip") || !strcmp(n, "mode");
}

static int is_position_name(const char *n)
{
    static const char *const pos[] = {"x",  "y",  "z",     "theta", "angle", "phi",   "psi", "yaw",
                                      "X",  "Y",  "x1",    "x2",    "y1",    "y2",    "z1",  "z2",
                                      "px", "py", "pos_x", "pos_y", "rel",   "x_rel", "s"};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; ++i)
        if (!strcmp(n, pos[i])) return 1;
    return 0;
}

/* The velocity column belonging to position column `pos`, or -1. */
static int velocity_of(const Table *tb, const char *pos)
{
    char cand[8][64];
    int nc = 0;
    if (!strcmp(pos, "theta") || !strcmp(pos, "angle") || !strcmp(pos, "yaw") ||
        !strcmp(pos, "phi") || !strcmp(pos, "psi")) {
        snprintf(cand[nc++], 64, "omega");
        snprintf(cand[nc++], 64, "w");
        snprintf(cand[nc++], 64, "wz");
        snprintf(cand[nc++], 64, "rate");
        snprintf(cand[nc++], 64, "omega_z");
    } else if (!strcmp(pos, "x") || !strcmp(pos, "X")) {
        snprintf(cand[nc++], 64, "vx");
        snprintf(cand[nc++], 64, "v");
    } else {
        snprintf(cand[nc++], 64, "v%s", pos);
        snprintf(cand[nc++], 64, "v%s", pos + 1);
        snprintf(cand[nc++], 64, "v_%s", pos);
    }
    snprintf(cand[nc++], 64, "%sdot", pos);
    snprintf(cand[nc++], 64, "%s_dot", pos);
    for (int i = 0; i < nc; ++i) {
        int c = table_col(tb, cand[i]);
        if (c > 0) return c;
    }
    return -1;
}

static const char *unit_of(const char *n)
{
    if (is_state_name(n)) return "-";
    if (!strcmp(n, "theta") || !strcmp(n, "angle") || !strcmp(n, "yaw") || !strcmp(n, "phi") ||
        !strcmp(n, "psi"))
        return "rad";
    if (!strncmp(n, "omega", 5) || n[0] == 'w' || !strcmp(n, "rate")) return "rad/s";
    if (is_velocity_name(n)) return "m/s";
    if (is_position_name(n)) return "m";
    return "SI";
}

/* ------------------------------------------------------------------------------------------ */
/* subprocesses                                                                                */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    char *argv[MAX_ARGS + 1];
    int argc;
    char *label;    /* progress text, e.g. "sliding-blocks general-motion exact" */
    char *out_path; /* stdout */
    char *err_path; /* stderr */
    pid_t pid;
    double t0, elapsed, next_note;
    int done, timed_out;
    char *json_line; /* last stdout line after the run */
} Job;

typedef struct {
    Job **v;
    int n, cap;
} JobList;

static Job *job_new(JobList *jl, const char *label, const char *out_path, const char *err_path)
{
    Job *j = xmalloc(sizeof *j);
    memset(j, 0, sizeof *j);
    j->label = xstrdup(label);
    j->out_path = xstrdup(out_path);
    j->err_path = xstrdup(err_path);
    if (jl->n == jl->cap)
        jl->v = xrealloc(jl->v, sizeof *jl->v * (size_t)(jl->cap = jl->cap * 2 + 16));
    jl->v[jl->n++] = j;
    return j;
}

static void job_arg(Job *j, const char *a)
{
    if (j->argc >= MAX_ARGS) die("internal: too many arguments for '%s'", j->label);
    j->argv[j->argc++] = xstrdup(a);
    j->argv[j->argc] = NULL;
}

static char *job_cmdline(const Job *j)
{
    size_t n = 1;
    for (int i = 0; i < j->argc; ++i)
        n += strlen(j->argv[i]) + 3;
    char *s = xmalloc(n);
    s[0] = '\0';
    for (int i = 0; i < j->argc; ++i) {
        if (i) strcat(s, " ");
        strcat(s, j->argv[i]);
    }
    return s;
}

/* Report directory; gnuplot runs there and its scripts name files relative to it, so that
 * `cd report && gnuplot plots/NAME.gp` redraws a plot. */
static const char *g_out = ".";

static const char *rel(const char *p)
{
    size_t n = strlen(g_out);
    return !strncmp(p, g_out, n) && p[n] == '/' ? p + n + 1 : p;
}

static pid_t spawn_in(const char *cwd, char *const argv[], const char *out_path,
                      const char *err_path)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) die("fork failed: %s", strerror(errno));
    if (pid == 0) {
        if (cwd && chdir(cwd) != 0) _exit(125);
        int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0664);
        int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0664);
        if (fo < 0 || fe < 0) _exit(126);
        dup2(fo, 1);
        dup2(fe, 2);
        close(fo);
        close(fe);
        execv(argv[0], argv);
        fprintf(stderr, "cannot execute %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

static pid_t spawn(char *const argv[], const char *out_path, const char *err_path)
{
    return spawn_in(NULL, argv, out_path, err_path);
}

static void fail_job(const Job *j, int status, double timeout)
{
    char *cmd = job_cmdline(j);
    if (j->timed_out)
        fprintf(stderr, "\npf-report: FAILED (timed out after %.0f s, killed): %s\n", timeout, cmd);
    else
        fprintf(stderr, "\npf-report: FAILED (%s %d): %s\n",
                WIFEXITED(status) ? "exit status" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), cmd);
    char *err = read_file(j->err_path);
    if (err) {
        size_t n = strlen(err);
        fprintf(stderr, "pf-report: end of its stderr (%s):\n%s\n", j->err_path,
                n > 1500 ? err + n - 1500 : err);
        free(err);
    }
    fprintf(stderr, "pf-report: the report is incomplete; no README.md written\n");
    exit(1);
}

/* Run jobs with at most `par` at a time; progress on stderr as each one ends (and a note every
 * 30 s while one runs long). A failure, or a run longer than `timeout` seconds (killed), stops
 * the report after the other running jobs end. */
static void run_jobs(JobList *jl, int par, double timeout, int *counter, int total)
{
    int next = 0, running = 0;
    while (next < jl->n || running > 0) {
        while (running < par && next < jl->n) {
            Job *j = jl->v[next++];
            j->t0 = now_s();
            j->next_note = j->t0 + 30.0;
            j->pid = spawn(j->argv, j->out_path, j->err_path);
            running++;
        }
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid < 0) {
            if (errno == EINTR) continue;
            die("waitpid: %s", strerror(errno));
        }
        if (pid == 0) { /* nothing ended yet: watch the clocks */
            double t = now_s();
            for (int i = 0; i < next; ++i) {
                Job *j = jl->v[i];
                if (j->done || j->timed_out) continue;
                if (t - j->t0 > timeout) {
                    j->timed_out = 1;
                    kill(j->pid, SIGKILL);
                } else if (t > j->next_note) {
                    fprintf(stderr, "       ... %s still running (%.0f s)\n", j->label, t - j->t0);
                    j->next_note += 30.0;
                }
            }
            struct timespec ts = {0, 20000000};
            nanosleep(&ts, NULL);
            continue;
        }
        Job *j = NULL;
        for (int i = 0; i < next; ++i)
            if (jl->v[i]->pid == pid && !jl->v[i]->done) j = jl->v[i];
        if (!j) continue;
        running--;
        j->done = 1;
        j->elapsed = now_s() - j->t0;
        ++*counter;
        fprintf(stderr, "[%d/%d] %s ... %.1f s\n", *counter, total, j->label, j->elapsed);
        if (j->timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            while (running-- > 0)
                wait(NULL);
            fail_job(j, status, timeout);
        }
        char *out = read_file(j->out_path);
        char *ll = out ? last_line(out) : NULL;
        j->json_line = ll ? xstrdup(ll) : NULL;
        free(out);
    }
}

/* Run a program and capture its stdout (for --help / --list probes). NULL if it fails. */
static char *capture(const char *tmpdir, char *const argv[])
{
    char out[PATHLEN], err[PATHLEN];
    snprintf(out, sizeof out, "%s/probe.out", tmpdir);
    snprintf(err, sizeof err, "%s/probe.err", tmpdir);
    pid_t pid = spawn(argv, out, err);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return NULL;
    char *s = read_file(out);
    unlink(out);
    unlink(err);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

/* ------------------------------------------------------------------------------------------ */
/* what to run                                                                                 */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    char *name;
    char *cases[MAX_CASES];
    int ncases;
    int listed; /* the help text gives a case list (possibly "none") */
} Scene;

/* The comparison scenes the issue names, with their cases, for when pf-demo lists none. */
static const struct {
    const char *name;
    const char *cases[8];
} KNOWN[] = {
    {"sliding-blocks",
     {"no-slip-circle", "zero-stop-circle", "multi-stop", "general-motion", "eccentric-push",
      "free-slide", NULL}},
    {"coupled-masses", {"stick", "slip", NULL}},
    {"shaking-table", {NULL}},
};
#define NKNOWN (sizeof KNOWN / sizeof KNOWN[0])

/* Scenes pf-demo does not compare (they have no friction modes): handled separately. */
static int is_law_scene(const char *s)
{
    return !strcmp(s, "friction-rig") || !strcmp(s, "pendulum");
}

static void scene_add_case(Scene *sc, const char *c, size_t len)
{
    if (sc->ncases >= MAX_CASES || !len) return;
    char *s = xmalloc(len + 1);
    memcpy(s, c, len);
    s[len] = '\0';
    for (int i = 0; i < sc->ncases; ++i)
        if (!strcmp(sc->cases[i], s)) {
            free(s);
            return;
        }
    sc->cases[sc->ncases++] = s;
}

/* Cases from a "--case a|b|c" or "cases: a b c" / "cases: a, b" fragment of one help line. */
static void parse_cases(Scene *sc, const char *line)
{
    const char *p = strstr(line, "--case ");
    if (p)
        p += 7;
    else if ((p = strstr(line, "cases:")))
        p += 6;
    else
        return;
    sc->listed = 1;
    for (;;) {
        p += strspn(p, " \t|,");
        size_t n = strcspn(p, " \t|,\n()");
        if (!n || !strncmp(p, "--", 2) || memchr(p, '=', n)) break;
        if (n != 4 || strncmp(p, "none", 4)) /* "cases: none": a scene not implemented yet */
            scene_add_case(sc, p, n);
        p += n;
    }
}

/* Scenes and cases from `pf-demo --list` (lines "SCENE CASE1 CASE2 ..." or "SCENE: a, b") or,
 * failing that, from the "scenes:" section of `pf-demo --help`. */
static int discover(const char *demo, const char *tmpdir, Scene *sc, char *how, size_t hown)
{
    char *argv[3] = {(char *)demo, (char *)"--list", NULL};
    char *text = capture(tmpdir, argv);
    int n = 0;
    if (text) {
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line && n < MAX_SCENES;
             line = strtok_r(NULL, "\n", &save)) {
            line += strspn(line, " \t");
            size_t L = strcspn(line, " \t:");
            if (!L) continue;
            memset(&sc[n], 0, sizeof sc[n]);
            sc[n].name = xmalloc(L + 1);
            memcpy(sc[n].name, line, L);
            sc[n].name[L] = '\0';
            const char *p = line + L;
            while (*p) {
                p += strspn(p, " \t:,|");
                size_t k = strcspn(p, " \t,|");
                if (!strncmp(p, "--", 2)) break;
                scene_add_case(&sc[n], p, k);
                p += k;
            }
            n++;
        }
        free(text);
        if (n) {
            snprintf(how, hown, "`pf-demo --list`");
            return n;
        }
    }
    argv[1] = (char *)"--help";
    text = capture(tmpdir, argv);
    if (!text) die("'%s --help' failed: is pf-demo built?", demo);
    char *save = NULL;
    int in_scenes = 0;
    /* Scene sections: a line at column 0 naming "scenes" ("scenes:", "literature scenes
     * (...):") opens one; indented lines list scenes (indent <= 3) with continuation lines
     * (deeper indent) that may give the cases; any other line at column 0 closes it. */
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] != ' ') {
            in_scenes = strstr(line, "scenes") != NULL && strchr(line, ':') != NULL;
            continue;
        }
        if (!in_scenes) continue;
        const char *p = line + strspn(line, " ");
        if (p - line > 3) {
            if (n) parse_cases(&sc[n - 1], p);
            continue;
        }
        size_t L = strcspn(p, " \t:");
        if (!L || n >= MAX_SCENES) continue;
        int dup = 0;
        for (int i = 0; i < n; ++i)
            dup |= strlen(sc[i].name) == L && !strncmp(sc[i].name, p, L);
        if (dup) continue;
        memset(&sc[n], 0, sizeof sc[n]);
        sc[n].name = xmalloc(L + 1);
        memcpy(sc[n].name, p, L);
        sc[n].name[L] = '\0';
        parse_cases(&sc[n], p + L);
        n++;
    }
    free(text);
    snprintf(how, hown, "`pf-demo --help`");
    /* Fill in the cases the help text does not list from the table. */
    for (int i = 0; i < n; ++i)
        for (size_t k = 0; k < NKNOWN; ++k)
            if (!strcmp(sc[i].name, KNOWN[k].name) && sc[i].ncases == 0 && !sc[i].listed)
                for (int c = 0; KNOWN[k].cases[c]; ++c)
                    scene_add_case(&sc[i], KNOWN[k].cases[c], strlen(KNOWN[k].cases[c]));
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* the report                                                                                  */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    const char *scene, *cas;
    Job *job[4]; /* stock, exact, pade, reference (NULL: not run) */
    Table tab[4];
    Json js[4];
    int have[4];
    /* error vs the reference */
    int npos;
    int pos_col[8]; /* in the reference table */
    double err_rel[NMODES][8], err_abs[NMODES][8];
    double err[NMODES]; /* largest relative error over the coordinates (NAN: none) */
    int err_is_abs;     /* every coordinate of the reference at rest: err holds absolute RMS */
    int err_coord[NMODES];
    /* shaking-table: the reference also solved with the Pade model (pf-reference --friction
     * pade), so the pade mode is also measured against the solution of its own model */
    Job *ref_pade;
    char *ref_pade_csv;
    double err_pade_own;
    int err_pade_own_ok;
    char err_pade_own_txt[96];
} CaseRun;

typedef struct {
    const char *demo, *reference, *limits, *out;
    int quick, jobs, have_ref, ref_takes_duration, ref_takes_friction;
    double timeout; /* per run [s] */
    char runs[PATHLEN], plots[PATHLEN], data[PATHLEN];
} Ctx;

static void add_common(Job *j, const Ctx *cx, const char *prog, const char *scene, const char *cas,
                       const char *mode, const char *csv)
{
    job_arg(j, prog);
    job_arg(j, scene);
    if (cas) {
        job_arg(j, "--case");
        job_arg(j, cas);
    }
    if (mode) {
        job_arg(j, "--headless");
        job_arg(j, "--friction");
        job_arg(j, mode);
    }
    if (csv) {
        job_arg(j, "--csv");
        job_arg(j, csv);
    }
    job_arg(j, "--json");
    (void)cx;
}

static Job *plan_run(JobList *jl, const Ctx *cx, const char *scene, const char *cas,
                     const char *mode /* NULL: reference */, const char *tag, double duration,
                     const char *const *sets, int nsets, char **csv_out)
{
    char *base = fmt_str("%s__%s__%s", scene, cas ? cas : "default", tag);
    char *b = slug(base);
    char *csv = fmt_str("%s/%s.csv", cx->runs, b);
    char *out = fmt_str("%s/%s.json", cx->runs, b);
    char *err = fmt_str("%s/%s.log", cx->runs, b);
    char *label = fmt_str("%s %s %s", scene, cas ? cas : "", tag);
    Job *j = job_new(jl, label, out, err);
    add_common(j, cx, mode ? cx->demo : cx->reference, scene, cas, mode, csv);
    if (duration > 0.0 && (mode || cx->ref_takes_duration)) {
        char d[32];
        snprintf(d, sizeof d, "%g", duration);
        job_arg(j, "--duration");
        job_arg(j, d);
    }
    for (int i = 0; i < nsets; ++i) {
        job_arg(j, "--set");
        job_arg(j, sets[i]);
    }
    if (csv_out)
        *csv_out = csv;
    else
        free(csv);
    free(base);
    free(b);
    free(out);
    free(err);
    free(label);
    return j;
}

static void load_run(const Job *j, const char *csv, Table *tb, Json *js)
{
    if (!j->json_line || json_parse(j->json_line, js) != 0) {
        char *cmd = job_cmdline(j);
        die("no JSON object on the last stdout line of: %s (see %s)", cmd, j->out_path);
    }
    if (tb && csv && table_read(csv, tb) != 0) {
        char *cmd = job_cmdline(j);
        die("cannot read the CSV %s written by: %s", csv, cmd);
    }
    if (tb && tb->nrow < 2) {
        char *cmd = job_cmdline(j);
        die("the CSV %s written by '%s' has fewer than two rows", csv, cmd);
    }
}

/* Linear interpolation of column c of tb at time t (column 0), with a moving cursor. */
static double interp(const Table *tb, int c, double t, long *cur, int *ok)
{
    long i = *cur;
    if (t < tv(tb, 0, 0) - 1e-12 || t > tv(tb, tb->nrow - 1, 0) + 1e-12) {
        *ok = 0;
        return NAN;
    }
    while (i + 2 < tb->nrow && tv(tb, i + 1, 0) < t)
        ++i;
    while (i > 0 && tv(tb, i, 0) > t)
        --i;
    *cur = i;
    *ok = 1;
    double t0 = tv(tb, i, 0), t1 = tv(tb, i + 1, 0);
    double a = t1 > t0 ? (t - t0) / (t1 - t0) : 0.0;
    if (a < 0.0) a = 0.0;
    if (a > 1.0) a = 1.0;
    return (1.0 - a) * tv(tb, i, c) + a * tv(tb, i + 1, c);
}

/* Error definition (README): for each position coordinate q of the reference's CSV, the mode's
 * q is interpolated linearly onto the reference's times (over the overlap of the two runs),
 * e_abs = sqrt(mean((q_mode - q_ref)^2)) and e_rel = e_abs / (max q_ref - min q_ref). A case's
 * error is the largest e_rel over its coordinates; coordinates whose reference range is below
 * 1e-6 (at rest) are left out, and if all are, the absolute RMS is reported instead. */
static const double REST_RANGE = 1e-6;

static void compute_errors(CaseRun *cr)
{
    const Table *ref = &cr->tab[REF];
    cr->npos = 0;
    for (int c = 1; c < ref->ncol && cr->npos < 8; ++c)
        if (is_position_name(ref->names[c])) cr->pos_col[cr->npos++] = c;
    if (cr->npos == 0) /* unknown naming: take every column that is not a velocity or state */
        for (int c = 1; c < ref->ncol && cr->npos < 3; ++c)
            if (!is_velocity_name(ref->names[c]) && !is_state_name(ref->names[c]))
                cr->pos_col[cr->npos++] = c;
    int all_rest = 1;
    double range[8];
    for (int k = 0; k < cr->npos; ++k) {
        double lo = INFINITY, hi = -INFINITY;
        for (long r = 0; r < ref->nrow; ++r) {
            double v = tv(ref, r, cr->pos_col[k]);
            if (isfinite(v)) lo = fmin(lo, v), hi = fmax(hi, v);
        }
        range[k] = hi - lo;
        if (range[k] >= REST_RANGE) all_rest = 0;
    }
    cr->err_is_abs = all_rest;
    for (int m = 0; m < NMODES; ++m) {
        cr->err[m] = NAN;
        cr->err_coord[m] = -1;
        if (!cr->have[m]) continue;
        const Table *tb = &cr->tab[m];
        for (int k = 0; k < cr->npos; ++k) {
            int mc = table_col(tb, ref->names[cr->pos_col[k]]);
            cr->err_abs[m][k] = cr->err_rel[m][k] = NAN;
            if (mc < 0) continue;
            long cur = 0, cnt = 0;
            double s = 0.0;
            for (long r = 0; r < ref->nrow; ++r) {
                int ok;
                double q = interp(tb, mc, tv(ref, r, 0), &cur, &ok);
                double d = q - tv(ref, r, cr->pos_col[k]);
                if (!ok || !isfinite(d)) continue;
                s += d * d;
                cnt++;
            }
            if (!cnt) continue;
            cr->err_abs[m][k] = sqrt(s / (double)cnt);
            cr->err_rel[m][k] = range[k] >= REST_RANGE ? cr->err_abs[m][k] / range[k] : NAN;
            double e = all_rest ? cr->err_abs[m][k] : cr->err_rel[m][k];
            if (isfinite(e) && (!isfinite(cr->err[m]) || e > cr->err[m])) {
                cr->err[m] = e;
                cr->err_coord[m] = k;
            }
        }
    }
}

/* ---------------------------------- gnuplot ---------------------------------------------- */

static void gp_header(FILE *gp, const char *png, int w, int h)
{
    fprintf(gp,
            "reset\nset terminal pngcairo size %d,%d font ',10' noenhanced\nset output '%s'\n"
            "set datafile separator ','\nset grid\nset key outside right top vertical\n"
            "set xtics rotate by -25\n",
            w, h, rel(png));
}

static const char *mode_title(int m)
{
    return m == REF ? "reference" : MODES[m];
}

/* One panel: column y against column x (names) of each run that has them. */
static void gp_panel(FILE *gp, const CaseRun *cr, const char *csv[4], const char *xn,
                     const char *yn, const char *title)
{
    fprintf(gp, "set title '%s'\nset xlabel '%s [%s]'\nset ylabel '%s [%s]'\nplot ", title,
            !strcmp(xn, "t") ? "time t" : xn, !strcmp(xn, "t") ? "s" : unit_of(xn), yn,
            unit_of(yn));
    int first = 1;
    for (int m = 0; m < 4; ++m) {
        if (!cr->have[m]) continue;
        int xc = table_col(&cr->tab[m], xn), yc = table_col(&cr->tab[m], yn);
        if (xc < 0 || yc < 0) continue;
        fprintf(gp, "%s'%s' every ::1 using %d:%d with lines lw %s lc rgb '%s' %s title '%s'",
                first ? "" : ", \\\n     ", rel(csv[m]), xc + 1, yc + 1, MODE_LW[m], MODE_COLOR[m],
                MODE_DT[m], mode_title(m));
        first = 0;
    }
    if (first) fprintf(gp, "NaN notitle");
    fprintf(gp, "\n");
}

static int run_gnuplot(const char *script)
{
    char *argv[3] = {(char *)"/usr/bin/gnuplot", (char *)rel(script), NULL};
    if (access(argv[0], X_OK) != 0) argv[0] = (char *)"/usr/local/bin/gnuplot";
    char *err = fmt_str("%s.log", script), *out = fmt_str("%s.out", script);
    char *err_rel = xstrdup(rel(err)), *out_rel = xstrdup(rel(out));
    pid_t pid = spawn_in(g_out, argv, out_rel, err_rel);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) die("waitpid: %s", strerror(errno));
    free(err_rel);
    free(out_rel);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char *log = read_file(err);
        fprintf(stderr, "pf-report: FAILED: gnuplot %s\n%s\n", script, log ? log : "");
        fprintf(stderr, "pf-report: the report is incomplete; no README.md written\n");
        exit(1);
    }
    unlink(out);
    free(err);
    free(out);
    return 0;
}

/* Trajectory, path, phase and stick/slip plots of one case. Returns flags of the PNGs written:
 * 1 trajectories, 2 phase portraits, 4 stick/slip timeline. */
static int plot_case(const Ctx *cx, CaseRun *cr, const char *csv[4], const char *stem)
{
    const Table *ref = &cr->tab[REF];
    int flags = 0;
    char *script = fmt_str("%s/%s.gp", cx->plots, stem);
    FILE *gp = open_w(script);
    /* trajectories: each position coordinate against time, and the x-y path if there is one */
    int has_xy = table_col(ref, "x") > 0 && table_col(ref, "y") > 0;
    int panels = cr->npos + has_xy;
    if (panels > 0) {
        int cols = panels > 2 ? 2 : panels, rows = (panels + cols - 1) / cols;
        gp_header(gp, fmt_str("%s/%s_trajectory.png", cx->plots, stem), 650 * cols,
                  60 + 400 * rows);
        fprintf(gp,
                "set multiplot layout %d,%d title '%s / %s: trajectories (stock, exact, "
                "pade vs reference)'\n",
                rows, cols, cr->scene, cr->cas);
        for (int k = 0; k < cr->npos; ++k) {
            const char *n = ref->names[cr->pos_col[k]];
            char *title = fmt_str("%s(t)", n);
            gp_panel(gp, cr, csv, "t", n, title);
            free(title);
        }
        if (has_xy) {
            /* equal scales unless the path is long and thin (then they would squash it) */
            int xc = table_col(ref, "x"), yc = table_col(ref, "y");
            double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
            for (long r = 0; r < ref->nrow; ++r)
                for (int a = 0; a < 2; ++a) {
                    double v = tv(ref, r, a ? yc : xc);
                    if (isfinite(v)) lo[a] = fmin(lo[a], v), hi[a] = fmax(hi[a], v);
                }
            double rx = hi[0] - lo[0], ry = hi[1] - lo[1];
            if (rx > 0 && ry > 0 && rx < 3 * ry && ry < 3 * rx)
                fprintf(gp, "set size ratio -1\nset xtics rotate by -30\n");
            gp_panel(gp, cr, csv, "x", "y", "path of the mass centre (x, y)");
            fprintf(gp, "set size noratio\n");
        }
        fprintf(gp, "unset multiplot\n");
        flags |= 1;
    }
    /* phase portraits: each coordinate against its velocity */
    int ph[8], nph = 0;
    for (int k = 0; k < cr->npos; ++k)
        if (velocity_of(ref, ref->names[cr->pos_col[k]]) > 0) ph[nph++] = k;
    /* an inertial pair (x1, x2, z_dot): also the relative motion z = x1 - x2, the slip */
    int rel_pair =
        table_col(ref, "x1") > 0 && table_col(ref, "x2") > 0 && table_col(ref, "z_dot") > 0;
    if (nph > 0) {
        int np = nph + rel_pair;
        int cols = np > 3 ? 3 : np, rows = (np + cols - 1) / cols;
        gp_header(gp, fmt_str("%s/%s_phase.png", cx->plots, stem), 520 * cols, 60 + 420 * rows);
        fprintf(gp, "set multiplot layout %d,%d title '%s / %s: phase portraits'\n", rows, cols,
                cr->scene, cr->cas);
        for (int i = 0; i < nph; ++i) {
            const char *n = ref->names[cr->pos_col[ph[i]]];
            const char *vn = ref->names[velocity_of(ref, n)];
            char *title = fmt_str("%s vs %s", vn, n);
            gp_panel(gp, cr, csv, n, vn, title);
            free(title);
        }
        if (rel_pair) {
            fprintf(gp, "set title 'relative motion: z_dot vs z = x1 - x2'\nset xlabel 'z = x1 - "
                        "x2 [m]'\nset ylabel 'z_dot [m/s]'\nplot ");
            int first = 1;
            for (int m = 0; m < 4; ++m) {
                if (!cr->have[m]) continue;
                const Table *tb = &cr->tab[m];
                int a = table_col(tb, "x1"), b = table_col(tb, "x2"), c = table_col(tb, "z_dot");
                if (a < 0 || b < 0 || c < 0) continue;
                fprintf(gp,
                        "%s'%s' every ::1 using ($%d-$%d):%d with lines lw %s lc rgb '%s' %s "
                        "title '%s'",
                        first ? "" : ", \\\n     ", rel(csv[m]), a + 1, b + 1, c + 1, MODE_LW[m],
                        MODE_COLOR[m], MODE_DT[m], mode_title(m));
                first = 0;
            }
            fprintf(gp, "%s\n", first ? "NaN notitle" : "");
        }
        fprintf(gp, "unset multiplot\n");
        flags |= 2;
    }
    /* stick/slip timeline: one band per run, high while the state column says stick (1) */
    int sc = -1;
    for (int c = 1; c < ref->ncol; ++c)
        if (is_state_name(ref->names[c])) {
            sc = c;
            break;
        }
    if (sc > 0) {
        const char *sn = ref->names[sc];
        gp_header(gp, fmt_str("%s/%s_stickslip.png", cx->plots, stem), 1100, 380);
        fprintf(gp,
                "set title '%s / %s: stick/slip timeline (column %s; high = %s = 1, low = 0)'\n"
                "set xlabel 'time t [s]'\nset ylabel ''\nset yrange [-0.5:4.3]\n"
                "set ytics ('stock' 0.4, 'exact' 1.4, 'pade' 2.4, 'reference' 3.4)\n"
                "unset key\nplot ",
                cr->scene, cr->cas, sn, sn);
        int first = 1;
        for (int m = 0; m < 4; ++m) {
            int c = cr->have[m] ? table_col(&cr->tab[m], sn) : -1;
            if (c < 0) continue;
            fprintf(gp,
                    "%s'%s' every ::1 using 1:(%d + 0.8*($%d != 0 ? 1 : 0)) with steps lw 2 "
                    "lc rgb '%s'",
                    first ? "" : ", \\\n     ", rel(csv[m]), m == REF ? 3 : m, c + 1,
                    MODE_COLOR[m]);
            first = 0;
        }
        if (first) fprintf(gp, "NaN");
        fprintf(gp, "\n");
        flags |= 4;
    }
    fclose(gp);
    run_gnuplot(script);
    free(script);
    return flags;
}

/* ---------------------------------- formatting ------------------------------------------- */

static const char *fmt_num(char *buf, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(buf, n, "—");
    else
        snprintf(buf, n, "%.4g", v);
    return buf;
}

static const char *fmt_err(char *buf, size_t n, const CaseRun *cr, int m)
{
    if (!cr->have[REF])
        snprintf(buf, n, "no reference");
    else if (!cr->have[m])
        snprintf(buf, n, "—");
    else if (!isfinite(cr->err[m]))
        snprintf(buf, n, "n/a");
    else if (cr->err_is_abs)
        snprintf(buf, n, "%.2g %s (%s, abs.)", cr->err[m],
                 unit_of(cr->tab[REF].names[cr->pos_col[cr->err_coord[m]]]),
                 cr->tab[REF].names[cr->pos_col[cr->err_coord[m]]]);
    else
        snprintf(buf, n, "%.3g %% (%s)", 100.0 * cr->err[m],
                 cr->tab[REF].names[cr->pos_col[cr->err_coord[m]]]);
    return buf;
}

/* Metric keys the summary table picks out (substring match on the JSON key). */
static int is_breakaway_key(const char *k)
{
    return strstr(k, "breakaway") != NULL;
}
static int is_sync_key(const char *k)
{
    return strstr(k, "stick_time") || strstr(k, "sync") || strstr(k, "stop_time") ||
           strstr(k, "first_stop") || strstr(k, "stop_count") || strstr(k, "stops");
}
static int is_bookkeeping(const char *k)
{
    return !strcmp(k, "scene") || !strcmp(k, "case") || !strcmp(k, "friction") ||
           !strcmp(k, "steps") || !strcmp(k, "sim_time") || !strcmp(k, "dt");
}

/* "ref / stock / exact / pade" cell for the keys matching pick(). */
static void metric_cell(FILE *md, const CaseRun *cr, int (*pick)(const char *))
{
    const Json *base = cr->have[REF] ? &cr->js[REF] : &cr->js[1];
    int any = 0;
    for (int i = 0; i < base->n; ++i) {
        const char *k = base->v[i].key;
        if (!pick(k) || base->v[i].kind == JV_STR) continue;
        fprintf(md, "%s%s: ", any ? "<br>" : "", k);
        for (int m = 0; m < 4; ++m) {
            int mm = m == 0 ? REF : m - 1;
            char b[32];
            const JsonVal *v = cr->have[mm] ? json_get(&cr->js[mm], k) : NULL;
            if (v && v->kind == JV_ARR) {
                snprintf(b, sizeof b, "%ld", v->narr);
                fprintf(md, "%s%s", m ? " / " : "", v->narr ? b : "none");
            } else
                fprintf(md, "%s%s", m ? " / " : "", fmt_num(b, sizeof b, v ? v->num : NAN));
        }
        any = 1;
    }
    if (!any) fprintf(md, "—");
}

/* ---------------------------------- varying normal load ---------------------------------- */

/* The cases whose normal force varies during the run, compared under the two couplings of the
 * adapter (pfOdeConfig.coupling) in their own section. */
static const struct {
    const char *scene, *cas, *what;
} VARYING[] = {
    {"shaking-table", "vertical",
     "excitation-1 on a table also shaking along its normal, z = A_z sin(omega_z t), A_z = 9.2 "
     "um, omega_z = 800 rad/s (A_z omega_z^2 = 0.6 g): N = m (g cos 20 deg + z'') swings "
     "0.36..1.64 N_0 and the Hertz radius follows it, a = 3 mm (N/N_0)^(1/3); dt = 50 us, 1 s"},
    {"sliding-blocks", "slope-drop",
     "Kardan's block (30 x 10 mm, 23.4 g, mu 0.4) released flat 5 mm above a 15 deg incline "
     "with (0.2, 0.4) m/s and 20 rad/s: lands at 32.5 ms (perfectly inelastic), slides, spins "
     "and stops; dt = 1 ms, 0.6 s"},
    {"coupled-masses", "vertical",
     "the stick case (b = 0.5 N static, x1(0) = 6 mm) on a rig shaking vertically, z = A_z "
     "sin(omega_z t), A_z = 1.635 mm, omega_z = 60 rad/s: b(t) = mu m2 (g + z'') swings "
     "0.2..0.8 N; dt = 1 ms, 5 s"},
};
#define NVARYING (sizeof VARYING / sizeof VARYING[0])
#define VL_MIN_PHASE 5e-3 /* [s] debounce of the stick column (PF_REF_MIN_PHASE of the tests) */
static const char *const VL_TAG[4] = {"stock", "adapter", "solver", "reference"};
static const char *const VL_COLOR[4] = {"#d62728", "#1f5fbf", "#ff7f0e", "#000000"};

/* Debounced stick/slip transitions of column c: a state counts once it lasts VL_MIN_PHASE (or to
 * the end); the first such state is the initial one. Returns the count; times in t, direction in
 * dir (+1: slip -> stick). Same definition as pf_ref_compare (tests/support/pf_ref_varying.c). */
static int vl_transitions(const Table *tb, int c, double *t, int *dir, int max)
{
    int n = 0, state = -1;
    for (long i = 0; i < tb->nrow; ++i) {
        int v = tv(tb, i, c) > 0.5;
        if (v == state) continue;
        double ti = tv(tb, i, 0);
        long j = i;
        while (j < tb->nrow && (tv(tb, j, c) > 0.5) == v && tv(tb, j, 0) - ti < VL_MIN_PHASE)
            ++j;
        if (j < tb->nrow && (tv(tb, j, c) > 0.5) != v) continue; /* a glitch */
        if (state >= 0 && n < max) {
            t[n] = ti;
            dir[n] = v ? 1 : -1;
            n++;
        }
        state = v;
    }
    return n;
}

static double vl_directed(const double *ta, const int *da, int na, const double *tb, const int *db,
                          int nb)
{
    double worst = 0.0;
    for (int i = 0; i < na; ++i) {
        double best = INFINITY;
        for (int j = 0; j < nb; ++j)
            if (db[j] == da[i]) best = fmin(best, fabs(ta[i] - tb[j]));
        worst = fmax(worst, best);
    }
    return worst;
}

typedef struct {
    double timing; /* worst transition timing error [s]; NAN none, INFINITY unmatched */
    int trans, trans_ref;
    double drift, fin; /* energy: RMS(E - E_ref) / range(E_ref), final difference / range */
} VlMetrics;

#define VL_MAX_TRANS 4096

static VlMetrics vl_metrics(const Table *run, const Table *ref)
{
    VlMetrics m = {NAN, 0, 0, NAN, NAN};
    int sr = table_col(ref, "stick"), sm = table_col(run, "stick");
    if (sr > 0 && sm > 0) {
        static double ta[VL_MAX_TRANS], tb[VL_MAX_TRANS];
        static int da[VL_MAX_TRANS], db[VL_MAX_TRANS];
        m.trans_ref = vl_transitions(ref, sr, ta, da, VL_MAX_TRANS);
        m.trans = vl_transitions(run, sm, tb, db, VL_MAX_TRANS);
        if (m.trans || m.trans_ref)
            m.timing = fmax(vl_directed(ta, da, m.trans_ref, tb, db, m.trans),
                            vl_directed(tb, db, m.trans, ta, da, m.trans_ref));
    }
    int er = table_col(ref, "energy"), em = table_col(run, "energy");
    if (er > 0 && em > 0) {
        double lo = INFINITY, hi = -INFINITY, s = 0.0, last = NAN;
        long cnt = 0, cur = 0;
        for (long r = 0; r < ref->nrow; ++r) {
            double e = tv(ref, r, er);
            lo = fmin(lo, e);
            hi = fmax(hi, e);
            int ok;
            double v = interp(run, em, tv(ref, r, 0), &cur, &ok);
            if (!ok || !isfinite(v)) continue;
            s += (v - e) * (v - e);
            last = v - e;
            cnt++;
        }
        if (cnt && hi > lo) {
            m.drift = sqrt(s / (double)cnt) / (hi - lo);
            m.fin = last / (hi - lo);
        }
    }
    return m;
}

/* One table cell: RMS error, worst timing error, energy drift. */
static void vl_cell(FILE *md, const CaseRun *cr, int m, const VlMetrics *vm)
{
    char b[96];
    fprintf(md, "RMS %s", fmt_err(b, sizeof b, cr, m));
    if (isnan(vm->timing))
        fprintf(md, "<br>stick/slip: none");
    else if (isinf(vm->timing))
        fprintf(md, "<br>stick/slip: **unmatched** (%d vs %d transitions)", vm->trans,
                vm->trans_ref);
    else
        fprintf(md, "<br>stick/slip: worst %.1f ms (%d vs %d)", 1e3 * vm->timing, vm->trans,
                vm->trans_ref);
    if (isfinite(vm->drift))
        fprintf(md, "<br>energy drift %.3g %% (final %+.3g %%)", 100 * vm->drift, 100 * vm->fin);
    else
        fprintf(md, "<br>energy: —");
}

/* Plot of one varying-load case: its position coordinates, the difference from the reference of
 * the worst one, the energy and the stick/slip timeline, for stock, adapter, solver, reference. */
static void vl_plot(const Ctx *cx, const CaseRun *cr, char *const csv[4], const char *stem)
{
    const Table *ref = &cr->tab[REF];
    /* difference of the worst coordinate from the reference, on the reference's times */
    int wc = -1;
    for (int m = 0; m < 3; ++m)
        if (cr->have[m] && cr->err_coord[m] >= 0) wc = cr->err_coord[m];
    if (wc < 0 && cr->npos > 0) wc = 0;
    char *diff = fmt_str("%s/%s_difference.csv", cx->data, stem);
    if (wc >= 0) {
        const char *qn = ref->names[cr->pos_col[wc]];
        FILE *f = open_w(diff);
        fprintf(f, "t,stock,adapter,solver\n");
        long cur[3] = {0, 0, 0};
        for (long r = 0; r < ref->nrow; ++r) {
            double t = tv(ref, r, 0), q = tv(ref, r, cr->pos_col[wc]);
            fprintf(f, "%.9g", t);
            for (int m = 0; m < 3; ++m) {
                int c = cr->have[m] ? table_col(&cr->tab[m], qn) : -1, ok = 0;
                double v = c > 0 ? interp(&cr->tab[m], c, t, &cur[m], &ok) : NAN;
                if (ok && isfinite(v))
                    fprintf(f, ",%.9g", v - q);
                else
                    fprintf(f, ",NaN");
            }
            fprintf(f, "\n");
        }
        fclose(f);
    }
    int has_stick = table_col(ref, "stick") > 0, has_e = table_col(ref, "energy") > 0;
    int panels = cr->npos + (wc >= 0) + has_e + has_stick;
    int cols = panels > 1 ? 2 : 1, rows = (panels + cols - 1) / cols;
    char *script = fmt_str("%s/%s.gp", cx->plots, stem);
    FILE *gp = open_w(script);
    gp_header(gp, fmt_str("%s/%s.png", cx->plots, stem), 700 * cols, 60 + 360 * rows);
    fprintf(gp,
            "set multiplot layout %d,%d title '%s / %s: stock, exact with adapter coupling, "
            "exact with solver coupling, reference (dashed)'\n",
            rows, cols, cr->scene, cr->cas);
    static const char *const LW[4] = {"1.5", "2.5", "1.5", "2"};
    static const char *const DT[4] = {"dt 1", "dt 1", "dt (6,4)", "dt (2,3)"};
    for (int k = 0; k < cr->npos + has_e; ++k) {
        const char *n = k < cr->npos ? ref->names[cr->pos_col[k]] : "energy";
        fprintf(gp, "set title '%s(t)'\nset xlabel 'time t [s]'\nset ylabel '%s [%s]'\nplot ", n, n,
                k < cr->npos ? unit_of(n) : "J");
        int first = 1;
        for (int m = 0; m < 4; ++m) {
            int c = cr->have[m] ? table_col(&cr->tab[m], n) : -1;
            if (c < 0) continue;
            fprintf(gp, "%s'%s' every ::1 using 1:%d with lines lw %s lc rgb '%s' %s title '%s'",
                    first ? "" : ", \\\n     ", rel(csv[m]), c + 1, LW[m], VL_COLOR[m], DT[m],
                    VL_TAG[m]);
            first = 0;
        }
        fprintf(gp, "%s\n", first ? "NaN notitle" : "");
    }
    if (wc >= 0) {
        const char *qn = ref->names[cr->pos_col[wc]];
        fprintf(gp,
                "set title 'difference from the reference: %s - %s_ref'\nset xlabel 'time t "
                "[s]'\nset ylabel 'difference [%s]'\nplot ",
                qn, qn, unit_of(qn));
        int first = 1;
        for (int m = 0; m < 3; ++m) {
            if (!cr->have[m]) continue;
            fprintf(gp, "%s'%s' every ::1 using 1:%d with lines lw %s lc rgb '%s' title '%s'",
                    first ? "" : ", \\\n     ", rel(diff), m + 2, LW[m], VL_COLOR[m], VL_TAG[m]);
            first = 0;
        }
        fprintf(gp, "%s\n", first ? "NaN notitle" : "");
    }
    if (has_stick) {
        fprintf(gp, "set title 'stick/slip timeline (high = stick)'\nset xlabel 'time t [s]'\n"
                    "set ylabel ''\nset yrange [-0.5:4.3]\nset ytics ('stock' 0.4, 'adapter' "
                    "1.4, 'solver' 2.4, 'reference' 3.4)\nunset key\nplot ");
        int first = 1;
        for (int m = 0; m < 4; ++m) {
            int c = cr->have[m] ? table_col(&cr->tab[m], "stick") : -1;
            if (c < 0) continue;
            fprintf(gp,
                    "%s'%s' every ::1 using 1:(%d + 0.8*($%d != 0 ? 1 : 0)) with steps lw 2 lc "
                    "rgb '%s'",
                    first ? "" : ", \\\n     ", rel(csv[m]), m, c + 1, VL_COLOR[m]);
            first = 0;
        }
        fprintf(gp, "%s\nset key\nset yrange [*:*]\nset ytics auto\n", first ? "NaN" : "");
    }
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    run_gnuplot(script);
}

/* ------------------------------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fputs("usage: pf-report --demo PF-DEMO [--reference PF-REFERENCE]\n"
          "                 [--limit-surfaces PF-LIMIT-SURFACES] [--sweep PF-SWEEP] [--out DIR]\n"
          "                 [--quick] [--jobs N]\n"
          "                 [--timeout S]\n"
          "Runs every pf-demo scene case in stock, exact and pade friction and the reference,\n"
          "and writes DIR/README.md (default DIR: report) with CSVs and gnuplot PNGs.\n"
          "  --quick   short runs and fewer cases (the CTest smoke test)\n"
          "  --jobs N  runs at a time (default 2)\n"
          "  --timeout S  longest run [s] before it is killed and the report fails (300)\n",
          f);
}

int main(int argc, char **argv)
{
    Ctx cx = {0};
    const char *sweep = NULL;
    cx.out = "report";
    cx.jobs = 2;
    cx.timeout = 300.0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--demo") && has)
            cx.demo = argv[++i];
        else if (!strcmp(a, "--reference") && has)
            cx.reference = argv[++i];
        else if (!strcmp(a, "--limit-surfaces") && has)
            cx.limits = argv[++i];
        else if (!strcmp(a, "--sweep") && has) /* issue 15: the sweeps section */
            sweep = argv[++i];
        else if (!strcmp(a, "--out") && has)
            cx.out = argv[++i];
        else if (!strcmp(a, "--jobs") && has)
            cx.jobs = atoi(argv[++i]);
        else if (!strcmp(a, "--timeout") && has)
            cx.timeout = atof(argv[++i]);
        else if (!strcmp(a, "--quick"))
            cx.quick = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "pf-report: unknown or incomplete argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!cx.demo) {
        usage(stderr);
        return 2;
    }
    if (cx.jobs < 1) cx.jobs = 1;
    if (access(cx.demo, X_OK) != 0) die("pf-demo not found at '%s'", cx.demo);
    double t_start = now_s();
    g_out = cx.out;

    make_dir(cx.out);
    char readme[PATHLEN];
    snprintf(readme, sizeof readme, "%s/README.md", cx.out);
    unlink(readme); /* a failed run must not leave the previous README looking current */
    snprintf(cx.runs, sizeof cx.runs, "%s/runs", cx.out);
    snprintf(cx.plots, sizeof cx.plots, "%s/plots", cx.out);
    snprintf(cx.data, sizeof cx.data, "%s/data", cx.out);
    make_dir(cx.runs);
    make_dir(cx.plots);
    make_dir(cx.data);

    /* ---- what exists ---- */
    Scene scenes[MAX_SCENES];
    char how[64];
    int nsc = discover(cx.demo, cx.runs, scenes, how, sizeof how);
    cx.have_ref = cx.reference && access(cx.reference, X_OK) == 0;
    char *ref_help = NULL;
    if (cx.have_ref) {
        char *hargv[3] = {(char *)cx.reference, (char *)"--help", NULL};
        ref_help = capture(cx.runs, hargv);
        cx.ref_takes_duration = ref_help && strstr(ref_help, "--duration") != NULL;
        cx.ref_takes_friction = ref_help && strstr(ref_help, "--friction") != NULL;
    }
    char notes[4096] = "";
    size_t nl = 0;
#define NOTE(...)                                                                                  \
    (nl += (size_t)snprintf(notes + nl, nl < sizeof notes ? sizeof notes - nl : 0, __VA_ARGS__))
    if (!cx.have_ref)
        NOTE("- **pf-reference is not built** (%s): no errors against the reference; the modes "
             "are shown against each other only.\n",
             cx.reference ? cx.reference : "no --reference given");
    for (size_t k = 0; k < NKNOWN; ++k) {
        int found = 0;
        for (int i = 0; i < nsc; ++i)
            found |= !strcmp(scenes[i].name, KNOWN[k].name);
        if (!found)
            NOTE("- scene **%s** is not in pf-demo yet (%s does not list it): skipped.\n",
                 KNOWN[k].name, how);
    }
    int has_rig = 0, has_pend = 0;
    for (int i = 0; i < nsc; ++i) {
        has_rig |= !strcmp(scenes[i].name, "friction-rig");
        has_pend |= !strcmp(scenes[i].name, "pendulum");
    }

    /* ---- plan ---- */
    JobList jl = {0};
    CaseRun *cases = xmalloc(sizeof *cases * MAX_SCENES * MAX_CASES);
    int ncr = 0;
    char *csvs[MAX_SCENES * MAX_CASES][4];
    memset(csvs, 0, sizeof csvs);
    const double qdur = 1.0; /* --quick: seconds per comparison run */
    for (int i = 0; i < nsc; ++i) {
        if (is_law_scene(scenes[i].name)) continue;
        int nc = scenes[i].ncases;
        if (nc == 0) {
            NOTE("- scene **%s**: %s lists no cases (not implemented yet); skipped.\n",
                 scenes[i].name, how);
            continue;
        }
        if (cx.quick && nc > 1) nc = 1;
        for (int c = 0; c < nc; ++c) {
            CaseRun *cr = &cases[ncr];
            memset(cr, 0, sizeof *cr);
            cr->scene = scenes[i].name;
            cr->cas = scenes[i].cases[c];
            for (int m = 0; m < NMODES; ++m)
                cr->job[m] = plan_run(&jl, &cx, cr->scene, cr->cas, MODES[m], MODES[m],
                                      cx.quick ? qdur : 0.0, NULL, 0, &csvs[ncr][m]);
            if (cx.have_ref)
                cr->job[REF] = plan_run(&jl, &cx, cr->scene, cr->cas, NULL, "reference",
                                        cx.quick ? qdur : 0.0, NULL, 0, &csvs[ncr][REF]);
            if (cx.have_ref && cx.ref_takes_friction && !strcmp(cr->scene, "shaking-table")) {
                cr->ref_pade = plan_run(&jl, &cx, cr->scene, cr->cas, NULL, "reference-pade",
                                        cx.quick ? qdur : 0.0, NULL, 0, &cr->ref_pade_csv);
                job_arg(cr->ref_pade, "--friction");
                job_arg(cr->ref_pade, "pade");
            }
            ncr++;
        }
    }

    /* issue 7: eccentric push under the two stick criteria, and general motion under both */
    int has_ecc = 0, has_gm = 0;
    for (int i = 0; i < ncr; ++i) {
        has_ecc |=
            !strcmp(cases[i].scene, "sliding-blocks") && !strcmp(cases[i].cas, "eccentric-push");
        has_gm |=
            !strcmp(cases[i].scene, "sliding-blocks") && !strcmp(cases[i].cas, "general-motion");
    }
    for (int i = 0; i < nsc; ++i)
        if (!strcmp(scenes[i].name, "sliding-blocks")) {
            for (int c = 0; c < scenes[i].ncases; ++c) {
                has_ecc |= !strcmp(scenes[i].cases[c], "eccentric-push");
                has_gm |= !strcmp(scenes[i].cases[c], "general-motion");
            }
        }
    static const double H_MM[] = {0.0, 2.5, 5.0, 7.5, 10.0};
    int nh = cx.quick ? 2 : 5;
    const double *hs = H_MM;
    static const double H_QUICK[] = {0.0, 10.0};
    if (cx.quick) hs = H_QUICK;
    Job *ecc[5][4] = {{0}}; /* ca, limit, stock, reference */
    static const char *const ECC_TAG[4] = {"ca", "limit", "stock", "reference"};
    if (has_ecc)
        for (int k = 0; k < nh; ++k)
            for (int v = 0; v < 4; ++v) {
                if (v == 3 && !cx.have_ref) continue;
                char hset[64], crit[64], tag[64];
                snprintf(hset, sizeof hset, "h=%g", hs[k] * 1e-3);
                snprintf(crit, sizeof crit, "criterion=%s", ECC_TAG[v]);
                snprintf(tag, sizeof tag, "h%gmm_%s", hs[k], ECC_TAG[v]);
                const char *sets[2] = {hset, crit};
                ecc[k][v] = plan_run(&jl, &cx, "sliding-blocks", "eccentric-push",
                                     v == 3 ? NULL : (v == 2 ? "stock" : "exact"), tag,
                                     cx.quick ? qdur : 0.0, sets, v < 2 ? 2 : 1, NULL);
            }
    Job *gm_crit[2] = {NULL, NULL};
    char *gm_csv[2] = {NULL, NULL};
    if (has_gm)
        for (int v = 0; v < 2; ++v) {
            char crit[64], tag[64];
            snprintf(crit, sizeof crit, "criterion=%s", ECC_TAG[v]);
            snprintf(tag, sizeof tag, "exact_%s", ECC_TAG[v]);
            const char *sets[1] = {crit};
            gm_crit[v] = plan_run(&jl, &cx, "sliding-blocks", "general-motion", "exact", tag,
                                  cx.quick ? qdur : 0.0, sets, 1, &gm_csv[v]);
        }

    /* varying normal load: stock, exact with coupling=adapter and =solver, reference */
    int vl_have[NVARYING] = {0}, vl_any = 0, solver_ok = 0;
    char solver_why[512] = "";
    Job *vl_job[NVARYING][4];
    char *vl_csv[NVARYING][4];
    memset(vl_job, 0, sizeof vl_job);
    memset(vl_csv, 0, sizeof vl_csv);
    for (size_t v = 0; v < NVARYING; ++v)
        for (int i = 0; i < nsc; ++i)
            if (!strcmp(scenes[i].name, VARYING[v].scene))
                for (int c = 0; c < scenes[i].ncases; ++c)
                    if (!strcmp(scenes[i].cases[c], VARYING[v].cas)) vl_have[v] = vl_any = 1;
    if (vl_any) {
        /* is the in-solver coupling there? ask pf-demo: one short run with coupling=solver, which
         * an ODE without the patch series refuses (exit 1, the adapter's message on stderr) */
        size_t v0 = 0;
        while (!vl_have[v0])
            ++v0;
        char *po = fmt_str("%s/solver_probe.json", cx.runs),
             *pe = fmt_str("%s/solver_probe.log", cx.runs);
        char *pargv[] = {(char *)cx.demo,
                         (char *)VARYING[v0].scene,
                         (char *)"--case",
                         (char *)VARYING[v0].cas,
                         (char *)"--headless",
                         (char *)"--duration",
                         (char *)"0.001",
                         (char *)"--set",
                         (char *)"coupling=solver",
                         (char *)"--json",
                         NULL};
        pid_t pid = spawn(pargv, po, pe);
        int status;
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR) die("waitpid: %s", strerror(errno));
        char *out = read_file(po), *ll = out ? last_line(out) : NULL;
        Json pj;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && ll && json_parse(ll, &pj) == 0) {
            const JsonVal *cv = json_get(&pj, "coupling");
            solver_ok = cv && cv->kind == JV_STR && !strcmp(cv->str, "solver");
        }
        if (!solver_ok) {
            char *e = read_file(pe), *el = e ? last_line(e) : NULL;
            snprintf(solver_why, sizeof solver_why, "%s", el ? el : "(no message)");
        }
        fprintf(stderr, "pf-report: in-solver coupling %s\n",
                solver_ok ? "available" : "not available (default ODE): solver column n/a");
    }
    for (size_t v = 0; v < NVARYING; ++v) {
        if (!vl_have[v]) continue;
        static const char *const SETS[3] = {NULL, "coupling=adapter", "coupling=solver"};
        for (int m = 0; m < 3; ++m) {
            if (m == 2 && !solver_ok) continue;
            char tag[32];
            snprintf(tag, sizeof tag, "vl-%s", VL_TAG[m]);
            vl_job[v][m] =
                plan_run(&jl, &cx, VARYING[v].scene, VARYING[v].cas, m ? "exact" : "stock", tag,
                         0.0, &SETS[m], m ? 1 : 0, &vl_csv[v][m]);
        }
        if (cx.have_ref)
            vl_job[v][REF] = plan_run(&jl, &cx, VARYING[v].scene, VARYING[v].cas, NULL,
                                      "vl-reference", 0.0, NULL, 0, &vl_csv[v][REF]);
    }

    /* issue 5: friction rigs and the wire pendulum */
    static const char *const LAWS[5] = {"dahl", "lugre", "bristle", "sawtooth", "hybrid"};
    int nlaw = cx.quick ? 1 : 5;
    Job *rig[5][2] = {{0}};
    char *rig_csv[5][2] = {{0}};
    static const char *const RIG_CASE[2] = {"wall", "pull"};
    if (has_rig)
        for (int l = 0; l < nlaw; ++l)
            for (int r = 0; r < 2; ++r) {
                char law[64];
                snprintf(law, sizeof law, "law=%s", LAWS[l]);
                const char *sets[1] = {law};
                rig[l][r] = plan_run(&jl, &cx, "friction-rig", RIG_CASE[r], "exact", LAWS[l],
                                     cx.quick ? 20.0 : 0.0, sets, 1, &rig_csv[l][r]);
            }
    Job *pend = NULL;
    char *pend_csv = NULL;
    if (has_pend) {
        const char *sets[1] = {"law=dahl"};
        pend = plan_run(&jl, &cx, "pendulum", "wire", "exact", "dahl", cx.quick ? 10.0 : 0.0, sets,
                        1, &pend_csv);
    }
    Job *lim = NULL;
    if (cx.limits) {
        char *o = fmt_str("%s/limit-surfaces.out", cx.runs),
             *e = fmt_str("%s/limit-surfaces.log", cx.runs);
        lim = job_new(&jl, "limit surfaces (pf-limit-surfaces)", o, e);
        job_arg(lim, cx.limits);
        job_arg(lim, "--out");
        job_arg(lim, cx.out);
        if (cx.quick) job_arg(lim, "--quick");
    }

    /* ---- run ---- */
    fprintf(stderr, "pf-report: %d runs into %s/ (%d at a time)\n", jl.n, cx.out, cx.jobs);
    FILE *cmds = open_w(fmt_str("%s/commands.txt", cx.out));
    for (int i = 0; i < jl.n; ++i) {
        char *c = job_cmdline(jl.v[i]);
        fprintf(cmds, "%s\n", c);
        free(c);
    }
    fclose(cmds);
    int counter = 0;
    double t_runs = now_s();
    run_jobs(&jl, cx.jobs, cx.timeout, &counter, jl.n);
    t_runs = now_s() - t_runs;

    /* ---- analyse the comparison cases ---- */
    fprintf(stderr, "pf-report: reading the results and plotting\n");
    FILE *sum = open_w(fmt_str("%s/summary.csv", cx.out));
    fprintf(sum, "scene,case,mode,coordinate,rms_abs,rms_rel,wall_time_s\n");
    FILE *met = open_w(fmt_str("%s/metrics.csv", cx.out));
    fprintf(met, "scene,case,run,metric,value\n");
    int plotflags[MAX_SCENES * MAX_CASES];
    for (int i = 0; i < ncr; ++i) {
        CaseRun *cr = &cases[i];
        for (int m = 0; m < 4; ++m) {
            if (!cr->job[m]) continue;
            load_run(cr->job[m], csvs[i][m], &cr->tab[m], &cr->js[m]);
            cr->have[m] = 1;
            for (int k = 0; k < cr->js[m].n; ++k) {
                const JsonVal *v = &cr->js[m].v[k];
                if (v->kind == JV_NUM || v->kind == JV_NULL)
                    fprintf(met, "%s,%s,%s,%s,%.9g\n", cr->scene, cr->cas, mode_title(m), v->key,
                            v->kind == JV_NUM ? v->num : NAN);
            }
        }
        if (!cr->have[REF]) { /* no reference: compare against exact, for the plots */
            cr->npos = 0;
        }
        if (cr->have[REF] && cr->ref_pade) {
            CaseRun tmpc;
            memset(&tmpc, 0, sizeof tmpc);
            tmpc.scene = cr->scene;
            tmpc.cas = cr->cas;
            Json js;
            load_run(cr->ref_pade, cr->ref_pade_csv, &tmpc.tab[REF], &js);
            tmpc.tab[2] = cr->tab[2];
            tmpc.have[2] = tmpc.have[REF] = 1;
            compute_errors(&tmpc);
            cr->err_pade_own = tmpc.err[2];
            cr->err_pade_own_ok = 1;
            fmt_err(cr->err_pade_own_txt, sizeof cr->err_pade_own_txt, &tmpc, 2);
        }
        if (cr->have[REF]) {
            compute_errors(cr);
            for (int m = 0; m < NMODES; ++m)
                for (int k = 0; k < cr->npos; ++k)
                    fprintf(sum, "%s,%s,%s,%s,%.6g,%.6g,%.3f\n", cr->scene, cr->cas, MODES[m],
                            cr->tab[REF].names[cr->pos_col[k]], cr->err_abs[m][k],
                            cr->err_rel[m][k], cr->job[m]->elapsed);
        } else {
            /* positions from the exact run's columns, so the plots still show the modes */
            cr->tab[REF] = cr->tab[1];
            cr->have[REF] = 0;
            for (int c = 1; c < cr->tab[1].ncol && cr->npos < 8; ++c)
                if (is_position_name(cr->tab[1].names[c])) cr->pos_col[cr->npos++] = c;
        }
        char *stem = slug(fmt_str("%s__%s", cr->scene, cr->cas));
        const char *cs[4] = {csvs[i][0], csvs[i][1], csvs[i][2], csvs[i][3]};
        /* paths in the gnuplot scripts relative to the report directory's parent would break
         * when run from elsewhere: the scripts use the paths as given (absolute from CMake) */
        plotflags[i] = plot_case(&cx, cr, cs, stem);
        free(stem);
    }
    fclose(sum);

    /* ---- criterion comparison ---- */
    double ecc_f[5][4];
    if (has_ecc) {
        FILE *f = open_w(fmt_str("%s/eccentric_push_criteria.csv", cx.data));
        fprintf(f, "h_mm,breakaway_ca,breakaway_limit,breakaway_stock,breakaway_reference\n");
        for (int k = 0; k < nh; ++k) {
            fprintf(f, "%g", hs[k]);
            for (int v = 0; v < 4; ++v) {
                ecc_f[k][v] = NAN;
                if (ecc[k][v]) {
                    Json js;
                    load_run(ecc[k][v], NULL, NULL, &js);
                    ecc_f[k][v] = json_num(&js, "breakaway_force");
                }
                fprintf(f, ",%.9g", ecc_f[k][v]);
            }
            fprintf(f, "\n");
        }
        fclose(f);
        char *script = fmt_str("%s/eccentric_push_criteria.gp", cx.plots);
        FILE *gp = open_w(script);
        gp_header(gp, fmt_str("%s/eccentric_push_criteria.png", cx.plots), 900, 560);
        fprintf(gp,
                "set title 'Eccentric push: breakaway force vs offset h of the push (exact patch "
                "friction under two stick criteria, stock ODE friction, reference)'\nset xlabel "
                "'offset h of the push from the mass centre [mm]'\n"
                "set ylabel 'breakaway force [N]'\nset key bottom left\nset offsets 0.5,0.5,0,0\n"
                "set yrange [0:*]\nplot ");
        static const char *const TT[4] = {"exact, CA criterion", "exact, limit-surface criterion",
                                          "stock ODE friction", "reference"};
        static const char *const CC[4] = {"#1f5fbf", "#ff7f0e", "#d62728", "#000000"};
        for (int v = 0; v < 4; ++v)
            fprintf(gp,
                    "%s'%s/eccentric_push_criteria.csv' every ::1 using 1:%d with linespoints "
                    "lw 2 pt %d ps 1.3 lc rgb '%s' %s title '%s'",
                    v ? ", \\\n     " : "", rel(cx.data), v + 2, 5 + 2 * v, CC[v],
                    v == 3 ? "dt 2" : "", TT[v]);
        fprintf(gp, "\n");
        fclose(gp);
        run_gnuplot(script);
    }
    Table gmt[2];
    Json gmj[2];
    if (has_gm) {
        for (int v = 0; v < 2; ++v)
            load_run(gm_crit[v], gm_csv[v], &gmt[v], &gmj[v]);
        char *script = fmt_str("%s/general_motion_criteria.gp", cx.plots);
        FILE *gp = open_w(script);
        gp_header(gp, fmt_str("%s/general_motion_criteria.png", cx.plots), 1300, 480);
        fprintf(gp, "set multiplot layout 1,3 title 'General motion: CA vs limit-surface stick "
                    "criterion (exact patch friction)'\n");
        const CaseRun *ref = NULL;
        for (int i = 0; i < ncr; ++i)
            if (!strcmp(cases[i].scene, "sliding-blocks") &&
                !strcmp(cases[i].cas, "general-motion") && cases[i].have[REF])
                ref = &cases[i];
        static const char *const Q[3] = {"x", "y", "theta"};
        for (int q = 0; q < 3; ++q) {
            int c0 = table_col(&gmt[0], Q[q]), c1 = table_col(&gmt[1], Q[q]);
            if (c0 < 0 || c1 < 0) continue;
            fprintf(gp,
                    "set title '%s(t)'\nset xlabel 'time t [s]'\nset ylabel '%s [%s]'\n"
                    "plot '%s' every ::1 using 1:%d with lines lw 2 lc rgb '#1f5fbf' title "
                    "'CA', '%s' every ::1 using 1:%d with lines lw 1.5 lc rgb '#ff7f0e' title "
                    "'limit surface'",
                    Q[q], Q[q], unit_of(Q[q]), rel(gm_csv[0]), c0 + 1, rel(gm_csv[1]), c1 + 1);
            int rc = ref ? table_col(&ref->tab[REF], Q[q]) : -1;
            if (rc >= 0)
                fprintf(gp,
                        ", '%s' every ::1 using 1:%d with lines lw 2.5 dt 2 lc rgb '#000000' "
                        "title 'reference'",
                        rel(csvs[ref - cases][REF]), rc + 1);
            fprintf(gp, "\n");
        }
        fprintf(gp, "unset multiplot\n");
        fclose(gp);
        run_gnuplot(script);
    }

    /* ---- varying normal load ---- */
    CaseRun vl_cr[NVARYING];
    VlMetrics vl_m[NVARYING][3];
    memset(vl_cr, 0, sizeof vl_cr);
    for (size_t v = 0; v < NVARYING; ++v) {
        if (!vl_have[v]) continue;
        CaseRun *cr = &vl_cr[v];
        cr->scene = VARYING[v].scene;
        cr->cas = VARYING[v].cas;
        for (int m = 0; m < 4; ++m) {
            if (!vl_job[v][m]) continue;
            load_run(vl_job[v][m], vl_csv[v][m], &cr->tab[m], &cr->js[m]);
            cr->have[m] = 1;
            cr->job[m] = vl_job[v][m];
        }
        if (cr->have[REF]) {
            compute_errors(cr);
            for (int m = 0; m < 3; ++m)
                if (cr->have[m]) vl_m[v][m] = vl_metrics(&cr->tab[m], &cr->tab[REF]);
        } else {
            cr->tab[REF] = cr->tab[1];
            for (int c = 1; c < cr->tab[1].ncol && cr->npos < 8; ++c)
                if (is_position_name(cr->tab[1].names[c])) cr->pos_col[cr->npos++] = c;
            for (int m = 0; m < 3; ++m)
                cr->err_coord[m] = -1;
        }
        char *stem = slug(fmt_str("varying__%s__%s", cr->scene, cr->cas));
        vl_plot(&cx, cr, vl_csv[v], stem);
    }
    if (vl_any) {
        FILE *f = open_w(fmt_str("%s/varying_load.csv", cx.data));
        fprintf(f, "scene,case,run,rms_rel,rms_coordinate,worst_timing_s,transitions,"
                   "transitions_reference,energy_drift,energy_final\n");
        for (size_t v = 0; v < NVARYING; ++v)
            for (int m = 0; m < 3; ++m) {
                const CaseRun *cr = &vl_cr[v];
                if (!vl_have[v] || !cr->have[m] || !cr->have[REF]) continue;
                const VlMetrics *q = &vl_m[v][m];
                fprintf(f, "%s,%s,%s,%.6g,%s,%.6g,%d,%d,%.6g,%.6g\n", cr->scene, cr->cas, VL_TAG[m],
                        cr->err[m],
                        cr->err_coord[m] >= 0 ? cr->tab[REF].names[cr->pos_col[cr->err_coord[m]]]
                                              : "",
                        q->timing, q->trans, q->trans_ref, q->drift, q->fin);
            }
        fclose(f);
    }

    /* ---- rigs and pendulum ---- */
    double rig_e[5] = {0}, rig_p[5] = {0}, rig_a[5] = {0};
    if (has_rig) {
        for (int r = 0; r < 2; ++r) {
            char *script = fmt_str("%s/friction_rig_%s.gp", cx.plots, RIG_CASE[r]);
            FILE *gp = open_w(script);
            int cols = nlaw > 2 ? 3 : nlaw, rows = (nlaw + cols - 1) / cols;
            gp_header(gp, fmt_str("%s/friction_rig_%s.png", cx.plots, RIG_CASE[r]), 480 * cols,
                      60 + 400 * rows);
            fprintf(gp, "set multiplot layout %d,%d title '%s'\nunset key\n", rows, cols,
                    r == 0 ? "Rig (a): mass-spring to a wall driven by u = U sin(wt): "
                             "hysteresis loops (input u vs position x)"
                           : "Rig (b): mass pulled through a spring at v_p: stick-slip limit "
                             "cycles (spring length vs velocity)");
            for (int l = 0; l < nlaw; ++l) {
                Table tb;
                Json js;
                load_run(rig[l][r], rig_csv[l][r], &tb, &js);
                int cx_ = table_col(&tb, r == 0 ? "x" : "spring_length");
                int cy_ = table_col(&tb, r == 0 ? "input" : "v");
                if (cx_ < 0 || cy_ < 0)
                    die("friction-rig CSV %s lacks the columns %s", rig_csv[l][r],
                        r == 0 ? "x, input" : "spring_length, v");
                if (r == 0)
                    rig_e[l] = json_num(&js, "energy_per_cycle");
                else
                    rig_p[l] = json_num(&js, "period"), rig_a[l] = json_num(&js, "amplitude");
                /* rig (a): last two input cycles (the loop, not the start-up transient);
                 * rig (b): second half of the run (the limit cycle) */
                double T = tv(&tb, tb.nrow - 1, 0);
                double from = r == 0 ? T * 0.33 : T * 0.5;
                fprintf(gp,
                        "set format x '%%.3g'\nset format y '%%.3g'\nset xtics rotate by -35\n");
                if (r == 0)
                    fprintf(gp,
                            "set title 'law = %s  (loop area %.4g J)'\nset xlabel 'position x "
                            "[m]'\nset ylabel 'input u [N]'\n",
                            LAWS[l], rig_e[l]);
                else
                    fprintf(gp,
                            "set title 'law = %s  (period %.4g s)'\nset xlabel 'spring length "
                            "v_p t - x [m]'\nset ylabel 'velocity v [m/s]'\n",
                            LAWS[l], rig_p[l]);
                fprintf(gp,
                        "plot '%s' every ::1 using ($1 >= %g ? $%d : NaN):%d with lines lw 1.5 "
                        "lc rgb '#1f5fbf'\n",
                        rel(rig_csv[l][r]), from, cx_ + 1, cy_ + 1);
            }
            fprintf(gp, "unset multiplot\n");
            fclose(gp);
            run_gnuplot(script);
        }
    }
    Json pj;
    if (pend) {
        load_run(pend, NULL, NULL, &pj);
        const JsonVal *u = json_get(&pj, "ubar");
        if (!u || u->kind != JV_ARR) die("pendulum JSON lacks the array 'ubar'");
        /* P24a per region, anchored at the region's first cycle: Coulomb u decreases by a
         * constant per cycle, viscous u shrinks by a constant ratio, structural 1/u grows by a
         * constant per cycle (the per-cycle constants are in the JSON). */
        double dc = json_num(&pj, "coulomb_p24a_decrement");
        double rv = json_num(&pj, "viscous_p24a_ratio");
        double is = json_num(&pj, "structural_p24a_inv_increment");
        FILE *f = open_w(fmt_str("%s/pendulum_envelope.csv", cx.data));
        fprintf(f, "cycle,ubar,p24a_coulomb,p24a_viscous,p24a_structural\n");
        long anchor[3] = {-1, -1, -1};
        for (long k = 0; k < u->narr; ++k) {
            int reg = u->arr[k] >= 4.0 ? 0 : u->arr[k] >= 0.7 ? 1 : 2;
            if (anchor[reg] < 0) anchor[reg] = k;
            double mdl[3] = {NAN, NAN, NAN};
            for (int g = 0; g < 3; ++g) {
                long a = anchor[g];
                if (a < 0 || reg < g) continue;
                /* draw each model over its region and one cycle past it */
                if (reg > g && (k == 0 || (u->arr[k - 1] >= 4.0   ? 0
                                           : u->arr[k - 1] >= 0.7 ? 1
                                                                  : 2) != g))
                    continue;
                double ua = u->arr[a], N = (double)(k - a);
                mdl[g] = g == 0   ? ua + dc * N
                         : g == 1 ? ua * pow(rv, N)
                                  : 1.0 / (1.0 / ua + is * N);
            }
            fprintf(f, "%ld,%.9g,%.9g,%.9g,%.9g\n", k + 1, u->arr[k], mdl[0], mdl[1], mdl[2]);
        }
        fclose(f);
        char *script = fmt_str("%s/pendulum_envelope.gp", cx.plots);
        FILE *gp = open_w(script);
        gp_header(gp, fmt_str("%s/pendulum_envelope.png", cx.plots), 900, 560);
        fprintf(gp,
                "set title \"Dahl wire pendulum: decay envelope (per-cycle amplitude, units of "
                "x_c) vs P24a\"\nset xlabel 'cycle N'\nset ylabel 'amplitude u = theta_max / x_c "
                "[-]'\nset logscale y\nset key bottom left\n"
                "set arrow from graph 0, first 4 to graph 1, first 4 nohead dt 3 lc rgb '#888888'\n"
                "set arrow from graph 0, first 0.7 to graph 1, first 0.7 nohead dt 3 lc rgb "
                "'#888888'\n"
                "set label 'Coulomb region (linear)' at graph 0.7, first 5.5\n"
                "set label 'viscous region (exponential)' at graph 0.7, first 1.6\n"
                "set label 'structural region (hyperbolic)' at graph 0.7, first 0.5\n"
                "plot '%s/pendulum_envelope.csv' every ::1 using 1:2 with points pt 7 ps 1 "
                "lc rgb '#1f5fbf' title 'pf-demo pendulum, law = dahl', \\\n"
                "  '' every ::1 using 1:3 with lines lw 2 dt 2 lc rgb '#d62728' title 'P24a "
                "Coulomb', \\\n"
                "  '' every ::1 using 1:4 with lines lw 2 dt 2 lc rgb '#2ca02c' title 'P24a "
                "viscous', \\\n"
                "  '' every ::1 using 1:5 with lines lw 2 dt 2 lc rgb '#000000' title 'P24a "
                "structural'\n",
                rel(cx.data));
        fclose(gp);
        run_gnuplot(script);
    }

    /* ---- README ---- */
    double t_total = now_s() - t_start;
    char *tmp = fmt_str("%s.tmp", readme);
    FILE *md = open_w(tmp);
    fprintf(md, "# patchfriction comparison report\n\n");
    fprintf(md,
            "Written by `pf-report`%s (the `report` target: `cmake --build --preset default "
            "--target report`). %d runs, %.0f s of runs (%d at a time), %.0f s in all. Scenes "
            "from %s. The exact command lines are in [commands.txt](commands.txt).\n\n",
            cx.quick ? " **--quick** (short runs, first case of each scene only: a smoke test, "
                       "not the report)"
                     : "",
            jl.n, t_runs, cx.jobs, t_total, how);
    if (nl) fprintf(md, "## Not covered in this run\n\n%s\n", notes);

    fprintf(md, "## Summary: stock, exact and pade friction against the reference\n\n");
    fprintf(md, "Coupling of the exact and pade runs: %s (the default, `AUTO`).\n\n",
            solver_ok ? "**solver** (in-solver: this build's ODE has the patch series)"
                      : "**adapter** (this ODE has no patch series)");
    fprintf(md,
            ""
            "**Error** = RMS over the run of the difference between the mode's position and "
            "the reference's, relative to the amplitude of the motion. For each position "
            "coordinate q (x, y, theta, x1, x2, ... as the scene's CSV names them) the mode's "
            "q(t) is interpolated linearly onto the reference's sample times (over the time both "
            "runs cover); e_q = sqrt(mean((q_mode - q_ref)^2)) / (max q_ref - min q_ref). The "
            "table shows the largest e_q over the coordinates and names it. Coordinates the "
            "reference keeps at rest (range < 1e-6) are left out; when all are, the absolute "
            "RMS (m or rad) is shown, marked (abs.). Per-coordinate values: "
            "[summary.csv](summary.csv). The reference is `pf-reference`: the same scene solved "
            "independently of ODE (GSL, adaptive steps, stick/slip switches located as events), "
            "with the exact patch model; for the shaking table the pade cell also gives the "
            "error against the reference solved with the Padé model itself (`--friction "
            "pade`), which separates the approximation's error from the engine's.\n\n"
            "Metric cells read **reference / stock / exact / pade** (— : not reached or not "
            "reported; arrays give their length). All metrics of every run: "
            "[metrics.csv](metrics.csv).\n\n");
    fprintf(md, "| scene | case | stock | exact | pade | breakaway force [N] | stick, "
                "synchronisation and stop times [s] |\n|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < ncr; ++i) {
        CaseRun *cr = &cases[i];
        char b0[96], b1[96], b2[96];
        fprintf(md, "| %s | %s | %s | %s | %s%s%s | ", cr->scene, cr->cas,
                fmt_err(b0, sizeof b0, cr, 0), fmt_err(b1, sizeof b1, cr, 1),
                fmt_err(b2, sizeof b2, cr, 2),
                cr->err_pade_own_ok ? "<br>vs the Padé reference: " : "",
                cr->err_pade_own_ok ? cr->err_pade_own_txt : "");
        metric_cell(md, cr, is_breakaway_key);
        fprintf(md, " | ");
        metric_cell(md, cr, is_sync_key);
        fprintf(md, " |\n");
    }
    if (ncr == 0) fprintf(md, "| (no comparison scenes built) | | | | | | |\n");
    fprintf(md, "\n");

    if (vl_any) {
        fprintf(md,
                "## Varying normal load: adapter vs in-solver coupling\n\n"
                "Cases whose normal force changes during the run, where it matters how friction "
                "is coupled to it (`--set coupling=`, pfOdeConfig.coupling): **adapter** bounds "
                "the step's friction with the previous step's normal force and a per-step "
                "linearisation (any ODE); **solver** couples them inside the solver (needs the "
                "ODE built with our patches). Columns: stock ODE friction | exact patch friction "
                "with `coupling=adapter` | exact with `coupling=solver`, each against the "
                "case's reference (`pf-reference`, GSL).\n\n"
                "- **RMS**: the summary's error (largest over the position coordinates of the "
                "RMS difference from the reference, relative to the reference's range).\n"
                "- **stick/slip**: the `stick` column's transitions (slip -> stick and stick -> "
                "slip), debounced: a state counts once it lasts %.0f ms, the first such state "
                "being the initial one. Every transition of either run is matched with the "
                "nearest transition of the same direction in the other; the cell gives the worst "
                "distance (and the counts, run vs reference); **unmatched** when one run has a "
                "kind of transition the other lacks; none: neither run sticks.\n"
                "- **energy drift**: RMS over the run of E - E_ref divided by the reference's "
                "energy range (max - min over the run); final: E - E_ref at the end, same scale. "
                "E is the `energy` column: shaking table, the ball's in-plane energy in the "
                "ground frame m (vx^2 + vy^2)/2 + B |w|^2/2 - m g sin(tilt) x (the prescribed "
                "normal motion left out); slope drop, the block's m |v|^2/2 + J w^2/2 - m g "
                "sin(slope) x + m g cos(slope) z; coupled masses, P21's a2 x1^2/2 + m1 v1^2/2 + "
                "m2 v2^2/2 (horizontal motion).\n\n",
                1e3 * VL_MIN_PHASE);
        fprintf(md, "| case | stock | exact / adapter | exact / solver |\n|---|---|---|---|\n");
        for (size_t v = 0; v < NVARYING; ++v) {
            const CaseRun *cr = &vl_cr[v];
            if (!vl_have[v]) {
                fprintf(md, "| %s %s | not in pf-demo | | |\n", VARYING[v].scene, VARYING[v].cas);
                continue;
            }
            fprintf(md, "| %s `--case %s` | ", cr->scene, cr->cas);
            for (int m = 0; m < 3; ++m) {
                if (!cr->have[REF])
                    fprintf(md, "no reference");
                else if (m == 2 && !solver_ok)
                    fprintf(md, "n/a — build with `cmake --preset patched`");
                else if (cr->have[m])
                    vl_cell(md, cr, m, &vl_m[v][m]);
                fprintf(md, " | ");
            }
            fprintf(md, "\n");
        }
        if (!solver_ok)
            fprintf(md,
                    "\nThe solver column is empty because this ODE has no in-solver coupling: "
                    "`pf-demo ... --set coupling=solver` was refused with: `%s`\n",
                    solver_why);
        fprintf(md, "\nData: [data/varying_load.csv](data/varying_load.csv). The cases:\n\n");
        for (size_t v = 0; v < NVARYING; ++v)
            if (vl_have[v])
                fprintf(md, "- `pf-demo %s --case %s`: %s.\n", VARYING[v].scene, VARYING[v].cas,
                        VARYING[v].what);
        fprintf(md, "\n");
        for (size_t v = 0; v < NVARYING; ++v)
            if (vl_have[v]) {
                char *stem = slug(fmt_str("varying__%s__%s", vl_cr[v].scene, vl_cr[v].cas));
                fprintf(md, "![%s %s, varying load](plots/%s.png)\n\n", vl_cr[v].scene,
                        vl_cr[v].cas, stem);
            }
    }

    if (has_ecc || has_gm) {
        fprintf(md, "## Stick criteria: CA vs limit surface (issue 7)\n\n");
        if (has_ecc) {
            fprintf(md,
                    "Eccentric push: breakaway force for a push at offset h from the mass centre "
                    "(`--set h=...` in metres), exact patch friction under `--set criterion=ca` "
                    "and `--set criterion=limit`, stock ODE friction and the reference. Data: "
                    "[data/eccentric_push_criteria.csv](data/eccentric_push_criteria.csv).\n\n"
                    "| h [mm] | CA [N] | limit surface [N] | stock [N] | reference [N] |\n"
                    "|---|---|---|---|---|\n");
            for (int k = 0; k < nh; ++k) {
                char b[4][32];
                fprintf(md, "| %g | %s | %s | %s | %s |\n", hs[k], fmt_num(b[0], 32, ecc_f[k][0]),
                        fmt_num(b[1], 32, ecc_f[k][1]), fmt_num(b[2], 32, ecc_f[k][2]),
                        fmt_num(b[3], 32, ecc_f[k][3]));
            }
            fprintf(md, "\n![eccentric push](plots/eccentric_push_criteria.png)\n\n");
        }
        if (has_gm) {
            fprintf(md, "General motion under both criteria (exact patch friction):\n\n"
                        "| metric | CA | limit surface |\n|---|---|---|\n");
            const CaseRun *gref = NULL;
            for (int i = 0; i < ncr; ++i)
                if (!strcmp(cases[i].scene, "sliding-blocks") &&
                    !strcmp(cases[i].cas, "general-motion") && cases[i].have[REF])
                    gref = &cases[i];
            if (gref) { /* the two criteria against the reference, same error definition */
                CaseRun tmpc;
                memset(&tmpc, 0, sizeof tmpc);
                tmpc.scene = gref->scene;
                tmpc.cas = gref->cas;
                tmpc.tab[0] = gmt[0];
                tmpc.tab[1] = gmt[1];
                tmpc.tab[REF] = gref->tab[REF];
                tmpc.have[0] = tmpc.have[1] = tmpc.have[REF] = 1;
                compute_errors(&tmpc);
                char b[2][96];
                fprintf(md, "| RMS error vs reference (largest coordinate) | %s | %s |\n",
                        fmt_err(b[0], sizeof b[0], &tmpc, 0), fmt_err(b[1], sizeof b[1], &tmpc, 1));
            }
            for (int k = 0; k < gmj[0].n; ++k) {
                const JsonVal *v = &gmj[0].v[k];
                if (v->kind == JV_STR || v->kind == JV_ARR || is_bookkeeping(v->key)) continue;
                char b[2][32];
                fprintf(md, "| %s | %s | %s |\n", v->key, fmt_num(b[0], 32, v->num),
                        fmt_num(b[1], 32, json_num(&gmj[1], v->key)));
            }
            fprintf(md, "\n![general motion, criteria](plots/general_motion_criteria.png)\n\n");
        }
    }

    /* per-scene sections */
    for (int i = 0; i < ncr; ++i) {
        CaseRun *cr = &cases[i];
        if (i == 0 || strcmp(cr->scene, cases[i - 1].scene))
            fprintf(md, "## Scene %s\n\n", cr->scene);
        fprintf(md, "### %s / %s\n\n", cr->scene, cr->cas);
        char *stem = slug(fmt_str("%s__%s", cr->scene, cr->cas));
        fprintf(md, "| metric | reference | stock | exact | pade |\n|---|---|---|---|---|\n");
        const Json *base = cr->have[REF] ? &cr->js[REF] : &cr->js[1];
        for (int k = 0; k < base->n; ++k) {
            const JsonVal *v = &base->v[k];
            if (v->kind == JV_STR || is_bookkeeping(v->key)) continue;
            fprintf(md, "| %s |", v->key);
            for (int m = 0; m < 4; ++m) {
                int mm = m == 0 ? REF : m - 1;
                const JsonVal *w = cr->have[mm] ? json_get(&cr->js[mm], v->key) : NULL;
                char b[32];
                if (w && w->kind == JV_ARR) {
                    fprintf(md, " [");
                    for (long a = 0; a < w->narr && a < 6; ++a)
                        fprintf(md, "%s%.4g", a ? ", " : "", w->arr[a]);
                    fprintf(md, "%s] |", w->narr > 6 ? ", ..." : "");
                } else
                    fprintf(md, " %s |", fmt_num(b, 32, w ? w->num : NAN));
            }
            fprintf(md, "\n");
        }
        fprintf(md, "| RMS error (largest coordinate) | — |");
        for (int m = 0; m < NMODES; ++m) {
            char b[96];
            fprintf(md, " %s |", fmt_err(b, sizeof b, cr, m));
        }
        if (cr->err_pade_own_ok)
            fprintf(md,
                    "\n| RMS error vs the reference solved with the Padé model (P17) | — | — "
                    "| — | %s |",
                    cr->err_pade_own_txt);
        fprintf(md, "\n| wall time [s] | %s |",
                cr->job[REF] ? fmt_str("%.1f", cr->job[REF]->elapsed) : "—");
        for (int m = 0; m < NMODES; ++m)
            fprintf(md, " %.1f |", cr->job[m]->elapsed);
        fprintf(md, "\n\n");
        if (plotflags[i] & 1) fprintf(md, "![trajectories](plots/%s_trajectory.png)\n\n", stem);
        if (plotflags[i] & 2) fprintf(md, "![phase portraits](plots/%s_phase.png)\n\n", stem);
        if (plotflags[i] & 4) fprintf(md, "![stick/slip](plots/%s_stickslip.png)\n\n", stem);
        fprintf(md, "CSVs: `runs/%s__{stock,exact,pade,reference}.csv`.\n\n", stem);
        free(stem);
    }

    if (has_rig) {
        fprintf(md,
                "## Dynamic friction laws: the friction rigs (issue 5)\n\n"
                "`pf-demo friction-rig --case wall|pull --set law=...` (physics.md §5). Rig (a) "
                "shows the loop after the start-up transient (its area is the energy lost per "
                "cycle), rig (b) the second half of the run (the limit cycle).\n\n"
                "| law | rig (a) energy per cycle [J] | rig (b) period [s] | rig (b) amplitude "
                "[m] |\n|---|---|---|---|\n");
        for (int l = 0; l < nlaw; ++l) {
            char b[3][32];
            fprintf(md, "| %s | %s | %s | %s |\n", LAWS[l], fmt_num(b[0], 32, rig_e[l]),
                    fmt_num(b[1], 32, rig_p[l]), fmt_num(b[2], 32, rig_a[l]));
        }
        fprintf(
            md,
            "\nReading the table: Dahl's law has no static/kinetic difference, so in rig (b) "
            "the mass never sticks; its 'period' is the undamped spring oscillation "
            "2 pi sqrt(m/K) riding on steady sliding (marginally stable, tested against a GSL "
            "reference), not a stick-slip cycle. The bristle row's rig (b) has a damper c = 0.1 "
            "N s/m beside the spring: without damping its release map preserves phase-space "
            "area and no limit cycle can exist. The hybrid law follows P30 as written "
            "(F = sigma kappa theta cos^2 theta / h), whose steady friction kappa g/h is far "
            "above the published U = 2 N, so its rig (a) loop is almost elastic; the reading "
            "F = kappa theta cos^2 theta / h is `--set kappa=0.01` (loop 0.25 J).\n");
        fprintf(md, "\n![rig a](plots/friction_rig_wall.png)\n\n"
                    "![rig b](plots/friction_rig_pull.png)\n\n");
    }
    if (pend) {
        fprintf(md, "## Dahl wire pendulum: decay envelope (issue 5)\n\n"
                    "`pf-demo pendulum --set law=dahl`: per-cycle amplitude in units of x_c, with "
                    "the P24a regions. Mean per-cycle change over the cycles in each region, "
                    "measured vs P24a:\n\n"
                    "| region | measured | P24a | cycles |\n|---|---|---|---|\n");
        char b[2][32];
        fprintf(md, "| Coulomb: d(u)/cycle | %s | %s | %.0f |\n",
                fmt_num(b[0], 32, json_num(&pj, "coulomb_mean_decrement")),
                fmt_num(b[1], 32, json_num(&pj, "coulomb_p24a_decrement")),
                json_num(&pj, "coulomb_cycles"));
        fprintf(md, "| viscous: u ratio/cycle | %s | %s | %.0f |\n",
                fmt_num(b[0], 32, json_num(&pj, "viscous_mean_ratio")),
                fmt_num(b[1], 32, json_num(&pj, "viscous_p24a_ratio")),
                json_num(&pj, "viscous_cycles"));
        fprintf(md, "| structural: d(1/u)/cycle | %s | %s | %.0f |\n\n",
                fmt_num(b[0], 32, json_num(&pj, "structural_mean_inv_increment")),
                fmt_num(b[1], 32, json_num(&pj, "structural_p24a_inv_increment")),
                json_num(&pj, "structural_cycles"));
        fprintf(md, "![pendulum envelope](plots/pendulum_envelope.png)\n\n");
    }
    if (lim) {
        fprintf(md, "## Friction limit surfaces of the patch models\n\n"
                    "From `pf-limit-surfaces` (details: [limit_surfaces.md](limit_surfaces.md)). "
                    "Wrenches normalised with mu N and the pressure radius of gyration; ODE's "
                    "point friction would be a box |f_x|, |f_y| <= 1 with no spin moment.\n\n"
                    "![limit sections](limit_sections.png)\n\n"
                    "![limit surfaces](limit_surfaces.png)\n\n");
    }
    if (sweep && pf_report_sweeps(md, cx.out, sweep, cx.quick, cx.jobs))
        die("the sweeps section failed (see above)");
    fprintf(md, "## Files\n\n"
                "- `runs/`: every run's CSV, stdout (`.json`, last line = the metrics) and "
                "stderr (`.log`)\n"
                "- `plots/`: the PNGs and the gnuplot scripts that draw them\n"
                "- `data/`: derived tables (criterion comparison, pendulum envelope, varying "
                "load)\n"
                "- `summary.csv`, `metrics.csv`, `commands.txt`\n");
    fclose(md);
    if (rename(tmp, readme) != 0) die("cannot rename %s to %s: %s", tmp, readme, strerror(errno));
    fprintf(stderr, "pf-report: wrote %s (%.0f s)\n", readme, now_s() - t_start);
    return 0;
}
