/* The gnuplot writer: scripts from the templates in gnuplot/ (fields @KEY@), plot lists, and
 * gnuplot itself, run in the report directory so that `cd report && gnuplot plots/NAME.gp`
 * redraws a plot. */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *pfr_out = ".";

const char *pfr_rel(const char *p)
{
    size_t n = strlen(pfr_out);
    return !strncmp(p, pfr_out, n) && p[n] == '/' ? p + n + 1 : p;
}

void pfr_gp(FILE *gp, const char *name, const char *const *kv)
{
    const char *t = NULL;
    for (size_t i = 0; i < pfr_gp_ntemplates && !t; ++i)
        if (!strcmp(pfr_gp_templates[i].name, name)) t = pfr_gp_templates[i].text;
    if (!t) pfr_die("internal: no gnuplot template '%s'", name);
    for (const char *p = t; *p;) {
        const char *at = strchr(p, '@');
        const char *end = at ? strchr(at + 1, '@') : NULL;
        size_t klen = end ? (size_t)(end - at - 1) : 0;
        if (!end || !klen || strspn(at + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != klen) {
            size_t n = at ? (size_t)(at - p) + 1 : strlen(p);
            fwrite(p, 1, n, gp);
            p += n;
            continue;
        }
        fwrite(p, 1, (size_t)(at - p), gp);
        const char *val = NULL;
        for (int i = 0; kv[i] && !val; i += 2)
            if (strlen(kv[i]) == klen && !strncmp(kv[i], at + 1, klen)) val = kv[i + 1];
        if (!val) pfr_die("internal: gnuplot template '%s' needs @%.*s@", name, (int)klen, at + 1);
        fputs(val, gp);
        p = end + 1;
    }
}

void pfr_gp_png(FILE *gp, const char *png, int w, int h)
{
    const char *kv[] = {"WIDTH",  pfr_fmt("%d", w), "HEIGHT", pfr_fmt("%d", h),
                        "OUTPUT", pfr_rel(png),     NULL};
    pfr_gp(gp, "png", kv);
}

void pfr_gp_header(FILE *gp, const char *png, int w, int h)
{
    pfr_gp_png(gp, png, w, h);
    const char *kv[] = {NULL};
    pfr_gp(gp, "header", kv);
}

void pfr_gp_panel(FILE *gp, const char *title, const char *xlabel, const char *ylabel,
                  const char *plots)
{
    const char *kv[] = {"TITLE", title, "XLABEL", xlabel, "YLABEL", ylabel, "PLOTS", plots, NULL};
    pfr_gp(gp, "panel", kv);
}

void pfr_plot_begin(pfrPlot *p, const char *sep)
{
    memset(p, 0, sizeof *p);
    p->sep = sep;
}

void pfr_plot_add(pfrPlot *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    size_t need = p->n + strlen(p->sep) + (size_t)n + 1;
    if (need > p->cap) p->s = pfr_realloc(p->s, p->cap = 2 * need);
    if (p->n) p->n += (size_t)sprintf(p->s + p->n, "%s", p->sep);
    va_start(ap, fmt);
    vsnprintf(p->s + p->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    p->n += (size_t)n;
}

const char *pfr_plot_end(pfrPlot *p, const char *empty)
{
    return p->n ? p->s : empty;
}

void pfr_gp_timeline(FILE *gp, const pfrCase *cr, const char *col, const char *title,
                     const char *const labels[4], const char *const colors[4])
{
    pfrPlot pl;
    pfr_plot_begin(&pl, ", \\\n     ");
    for (int m = 0; m < 4; ++m) {
        int c = pfr_case_col(cr, m, col);
        if (c >= 0)
            pfr_plot_add(&pl,
                         "'%s' every ::1 using 1:(%d + 0.8*($%d != 0 ? 1 : 0)) with steps lw 2 "
                         "lc rgb '%s'",
                         pfr_rel(cr->job[m]->csv), m, c + 1, colors[m]);
    }
    const char *kv[] = {"TITLE", title,     "L0", labels[0], "L1",    labels[1],
                        "L2",    labels[2], "L3", labels[3], "PLOTS", pfr_plot_end(&pl, "NaN"),
                        NULL};
    pfr_gp(gp, "stickslip", kv);
}

void pfr_gp_data_plot(const pfrReport *r, const char *stem, const char *tmpl, int w, int h)
{
    char *script = pfr_fmt("%s/%s.gp", r->plots, stem);
    FILE *gp = pfr_open_w(script);
    pfr_gp_header(gp, pfr_fmt("%s/%s.png", r->plots, stem), w, h);
    const char *kv[] = {"DATA", pfr_rel(r->data), NULL};
    pfr_gp(gp, tmpl, kv);
    fclose(gp);
    pfr_gp_run(script);
}

void pfr_gp_run(const char *script)
{
    char *argv[3] = {(char *)"/usr/bin/gnuplot", (char *)pfr_rel(script), NULL};
    if (access(argv[0], X_OK) != 0) argv[0] = (char *)"/usr/local/bin/gnuplot";
    char *err = pfr_fmt("%s.log", script), *out = pfr_fmt("%s.out", script);
    int status = pfr_run_wait(pfr_out, argv, pfr_rel(out), pfr_rel(err));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char *log = pfr_read_file(err);
        fprintf(stderr, "pf-report: FAILED: gnuplot %s\n%s\n", script, log ? log : "");
        fprintf(stderr, "pf-report: the report is incomplete; no README.md written\n");
        exit(1);
    }
    unlink(out);
}
