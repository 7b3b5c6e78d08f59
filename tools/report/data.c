/* The data of the runs: the report's one CSV reader (a run's CSV as a pfTrajectory, pf-sweep's
 * CSVs as text cells), each run's JSON line (jansson), and the error of a case against its
 * reference. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

pfrJob *pfr_plan_run(pfrReport *r, const char *scene, const char *cas, const char *mode,
                     const char *tag, double duration, const char *const *sets, int nsets)
{
    return pfr_plan_run_with(r, r->demo, scene, cas, mode, tag, duration, sets, nsets);
}

pfrJob *pfr_plan_run_with(pfrReport *r, const char *demo, const char *scene, const char *cas,
                          const char *mode, const char *tag, double duration,
                          const char *const *sets, int nsets)
{
    char *b = pfr_slug(pfr_fmt("%s__%s__%s", scene, cas, tag));
    pfrJob *j = pfr_job_new(&r->jobs_list, pfr_fmt("%s %s %s", scene, cas, tag),
                            pfr_fmt("%s/%s.json", r->runs, b), pfr_fmt("%s/%s.log", r->runs, b));
    j->csv = pfr_fmt("%s/%s.csv", r->runs, b);
    pfr_job_arg(j, mode ? demo : r->reference);
    pfr_job_arg(j, scene);
    pfr_job_arg(j, "--case");
    pfr_job_arg(j, cas);
    if (mode) {
        pfr_job_arg(j, "--headless");
        pfr_job_arg(j, "--friction");
        pfr_job_arg(j, mode);
    }
    pfr_job_arg(j, "--csv");
    pfr_job_arg(j, j->csv);
    pfr_job_arg(j, "--json");
    if (duration > 0.0 && (mode || r->ref_takes_duration)) {
        pfr_job_arg(j, "--duration");
        pfr_job_arg(j, pfr_fmt("%g", duration));
    }
    for (int i = 0; i < nsets; ++i) {
        pfr_job_arg(j, "--set");
        pfr_job_arg(j, sets[i]);
    }
    return j;
}

int pfr_csv_read(const char *path, pfrCsv *c)
{
    memset(c, 0, sizeof *c);
    char *text = pfr_read_file(path);
    if (!text) return -1;
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    if (!line) return -1;
    int cap = 16;
    c->cols = pfr_alloc(sizeof *c->cols * (size_t)cap);
    for (char *p = line;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        size_t L = strlen(p);
        while (L && (p[L - 1] == '\r' || p[L - 1] == ' '))
            p[--L] = '\0';
        if (c->ncol == cap) c->cols = pfr_realloc(c->cols, sizeof *c->cols * (size_t)(cap *= 2));
        c->cols[c->ncol++] = p;
        if (!comma) break;
        p = comma + 1;
    }
    long rcap = 1024;
    c->cells = pfr_alloc((size_t)rcap * (size_t)c->ncol * sizeof *c->cells);
    while ((line = strtok_r(NULL, "\n", &save))) {
        if (*line == '\r' || *line == '\0') continue;
        if (c->nrow == rcap) {
            rcap *= 2;
            c->cells = pfr_realloc(c->cells, (size_t)rcap * (size_t)c->ncol * sizeof *c->cells);
        }
        char **row = c->cells + c->nrow * c->ncol;
        char *p = line;
        for (int k = 0; k < c->ncol; ++k) {
            row[k] = p ? p : (char *)"";
            char *comma = p ? strchr(p, ',') : NULL;
            if (comma) *comma = '\0';
            p = comma ? comma + 1 : NULL;
        }
        c->nrow++;
    }
    return 0;
}

int pfr_csv_col(const pfrCsv *c, const char *name)
{
    for (int i = 0; i < c->ncol; ++i)
        if (!strcmp(c->cols[i], name)) return i;
    return -1;
}

double pfr_csv_num(const pfrCsv *c, long r, int col)
{
    const char *s = pfr_csv_str(c, r, col);
    char *end;
    double v = strtod(s, &end);
    return end == s ? NAN : v;
}

/* A run's CSV as a trajectory: the CSV's cells as numbers. */
static int read_trajectory(const char *path, pfTrajectory *tb)
{
    memset(tb, 0, sizeof *tb);
    pfrCsv c;
    if (pfr_csv_read(path, &c) != 0) return -1;
    double *d = pfr_alloc((size_t)(c.nrow ? c.nrow : 1) * (size_t)c.ncol * sizeof *d);
    for (long r = 0; r < c.nrow; ++r)
        for (int k = 0; k < c.ncol; ++k)
            d[r * c.ncol + k] = pfr_csv_num(&c, r, k);
    tb->ncol = c.ncol;
    tb->cols = (const char *const *)c.cols;
    tb->nrow = c.nrow;
    tb->rows = d;
    return 0;
}

void pfr_load_run(const pfrJob *j, pfTrajectory *tb, json_t **js)
{
    json_error_t e;
    *js = j->json_line ? json_loads(j->json_line, JSON_DECODE_INT_AS_REAL, &e) : NULL;
    if (!json_is_object(*js))
        pfr_die("no JSON object on the last stdout line of: %s (see %s)", pfr_job_cmdline(j),
                j->out_path);
    if (!tb) return;
    if (read_trajectory(j->csv, tb) != 0)
        pfr_die("cannot read the CSV %s written by: %s", j->csv, pfr_job_cmdline(j));
    if (tb->nrow < 2)
        pfr_die("the CSV %s written by '%s' has fewer than two rows", j->csv, pfr_job_cmdline(j));
}

double pfr_json_num(const json_t *v)
{
    if (json_is_number(v)) return json_number_value(v);
    if (json_is_boolean(v)) return json_is_true(v);
    return NAN;
}

double pfr_json_get(const json_t *o, const char *key)
{
    return pfr_json_num(json_object_get(o, key));
}

int pfr_is_bookkeeping(const char *k)
{
    return !strcmp(k, "scene") || !strcmp(k, "case") || !strcmp(k, "friction") ||
           !strcmp(k, "steps") || !strcmp(k, "sim_time") || !strcmp(k, "dt");
}

void pfr_case_errors(pfrCase *cr)
{
    const pfTrajectory *ref = &cr->tab[PFR_REF];
    cr->npos = pf_metrics_positions(ref, cr->pos_col, 8);
    double range[8];
    int all_rest = 1;
    for (int k = 0; k < cr->npos; ++k) {
        range[k] = pf_metrics_range(ref, cr->pos_col[k]);
        if (range[k] >= PF_METRICS_REST_RANGE) all_rest = 0;
    }
    cr->err_is_abs = all_rest;
    for (int m = 0; m < PFR_NMODES; ++m) {
        cr->err[m] = NAN;
        cr->err_coord[m] = -1;
        if (!cr->have[m]) continue;
        for (int k = 0; k < cr->npos; ++k) {
            double a, rg;
            pf_metrics_rms(&cr->tab[m], ref, cr->pos_col[k], &a, &rg);
            cr->err_abs[m][k] = a;
            cr->err_rel[m][k] = range[k] >= PF_METRICS_REST_RANGE ? a / range[k] : NAN;
            double e = all_rest ? a : cr->err_rel[m][k];
            if (isfinite(e) && (!isfinite(cr->err[m]) || e > cr->err[m])) {
                cr->err[m] = e;
                cr->err_coord[m] = k;
            }
        }
    }
}

int pfr_case_col(const pfrCase *cr, int m, const char *name)
{
    return cr->have[m] ? pf_trajectory_column(&cr->tab[m], name) : -1;
}

const char *pfr_fmt_err(char *buf, size_t n, const pfrCase *cr, int m)
{
    if (!cr->have[PFR_REF]) {
        snprintf(buf, n, "no reference");
    } else if (!cr->have[m]) {
        snprintf(buf, n, "—");
    } else if (!isfinite(cr->err[m])) {
        snprintf(buf, n, "n/a");
    } else {
        const char *coord = cr->tab[PFR_REF].cols[cr->pos_col[cr->err_coord[m]]];
        if (cr->err_is_abs)
            snprintf(buf, n, "%.2g %s (%s, abs.)", cr->err[m], pf_metrics_unit(coord), coord);
        else
            snprintf(buf, n, "%.3g %% (%s)", 100.0 * cr->err[m], coord);
    }
    return buf;
}
