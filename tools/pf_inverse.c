/* pf-inverse: which vibration brings the ball to a target point at the end of the run?
 *
 * Usage: pf-inverse --spec SPEC --map MAP.csv [--map MAP2.csv]... --friction MODE --target X,Y
 *                   [--out DIR] [--max-evals N] [--step S]
 *
 * SPEC is the control-map sweep (tools/sweeps/control-map*.sweep): its two grid parameters are
 * the search variables and their ranges the bounds; MAP.csv is pf-sweep's output for it, and any
 * further maps are other sweeps over the same two parameters (e.g. a finer cut across the
 * ridge of the map, tools/sweeps/ridge-cut.sweep). Step 1, the search over the maps: the point of
 * MODE whose (final_x, final_y) lies nearest the target. Step 2, the local refinement: GSL's
 * Nelder-Mead simplex (gsl_multimin_fminimizer_ nmsimplex2) on the miss distance |(final_x,
 * final_y) - target|, in coordinates scaled to the bounds ([lo, hi] -> [0, 1]), started at that
 * point with one grid spacing as the initial step; every evaluation is a full run in process
 * through the scene API (--step S: an initial step of S in the parameters' units instead). A point
 * outside the bounds costs its clamped miss plus 10 m per unit of scaled distance outside, so the
 * search stays in. It stops when the simplex is below 1e-6 (scaled), the miss below 1 um, or after
 * N evaluations.
 *
 * Writes DIR/inverse_evals.csv (every evaluation), DIR/inverse_trajectory.csv (t, x, y of the
 * refined parameters) and DIR/inverse_start_trajectory.csv (of the map's nearest point), and
 * prints one JSON line with the result.
 */
#define _POSIX_C_SOURCE 200809L

#include "pf_sweep.h"

#include <gsl/gsl_multimin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Search {
    pfSweepSpec sp; ///< the map's spec, metrics replaced by final_x final_y
    pfOdeMode mode;
    int p[2];      ///< indices of the two grid parameters in sp.param
    double tx, ty; ///< target [m]
    long evals, max_evals;
    FILE *log;
    double best_f, best_x[2], best_final[2];
} Search;

static double to_value(const Search *S, int k, double u)
{
    const pfSweepParam *q = &S->sp.param[S->p[k]];
    return q->a + (q->b - q->a) * u;
}

/* Run at parameter values (v0, v1); final position into fin. */
static int run_at(Search *S, double v0, double v1, double fin[2])
{
    char s0[32], s1[32];
    snprintf(s0, sizeof s0, "%.15g", v0);
    snprintf(s1, sizeof s1, "%.15g", v1);
    pfSceneParam kv[2] = {{S->sp.param[S->p[0]].name, s0}, {S->sp.param[S->p[1]].name, s1}};
    pfError err;
    double m[2];
    if (pf_sweep_run(&S->sp, S->mode, kv, 2, m, NULL, &err) != PF_OK) {
        fprintf(stderr, "pf-inverse: run at %s=%s %s=%s failed: %s\n", kv[0].key, s0, kv[1].key, s1,
                err.message);
        return -1;
    }
    fin[0] = m[0];
    fin[1] = m[1];
    return 0;
}

static void traj_step(void *ctx, const pfScene *s)
{
    FILE *f = ctx;
    if (pf_scene_steps(s) % 20) return;
    double row[PF_SCENE_MAX_COLUMNS];
    pf_scene_csv_row(s, row, PF_SCENE_MAX_COLUMNS);
    fprintf(f, "%.6g,%.9g,%.9g\n", row[0], row[1], row[2]); /* t, x, y of the scene's CSV */
}

static int write_trajectory(Search *S, double v0, double v1, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "pf-inverse: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "t,x,y\n0,0,0\n");
    char s0[32], s1[32];
    snprintf(s0, sizeof s0, "%.15g", v0);
    snprintf(s1, sizeof s1, "%.15g", v1);
    pfSceneParam kv[2] = {{S->sp.param[S->p[0]].name, s0}, {S->sp.param[S->p[1]].name, s1}};
    pfSweepHooks hooks = {NULL, traj_step, f, NULL};
    double m[2];
    pfError err;
    int rc = pf_sweep_run(&S->sp, S->mode, kv, 2, m, &hooks, &err);
    fclose(f);
    if (rc != PF_OK) fprintf(stderr, "pf-inverse: trajectory run failed: %s\n", err.message);
    return rc == PF_OK ? 0 : -1;
}

static double miss(const gsl_vector *x, void *params)
{
    Search *S = params;
    double u[2], out = 0.0;
    for (int k = 0; k < 2; ++k) {
        double v = gsl_vector_get(x, (size_t)k);
        u[k] = fmin(1.0, fmax(0.0, v));
        out += fabs(v - u[k]);
    }
    double v0 = to_value(S, 0, u[0]), v1 = to_value(S, 1, u[1]), fin[2];
    if (run_at(S, v0, v1, fin)) return GSL_NAN;
    double f = hypot(fin[0] - S->tx, fin[1] - S->ty) + 10.0 * out;
    S->evals++;
    if (S->log)
        fprintf(S->log, "%ld,%.15g,%.15g,%.12g,%.12g,%.12g\n", S->evals, v0, v1, fin[0], fin[1], f);
    if (f < S->best_f) {
        S->best_f = f;
        S->best_x[0] = v0;
        S->best_x[1] = v1;
        S->best_final[0] = fin[0];
        S->best_final[1] = fin[1];
    }
    return f;
}

/* Read MAP.csv: the rows of friction MODE; nearest (final_x, final_y) to the target. */
static int map_nearest(const Search *S, const char *path, double v[2], double fin[2], long *nrows)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "pf-inverse: cannot read the map %s\n", path);
        return -1;
    }
    char line[PF_SWEEP_ROW];
    int col[5] = {-1, -1, -1, -1, -1}; /* friction, p0, p1, final_x, final_y */
    const char *want[5] = {"friction", S->sp.param[S->p[0]].name, S->sp.param[S->p[1]].name,
                           "final_x", "final_y"};
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return -1;
    }
    int c = 0;
    for (char *t = strtok(line, ",\n"); t; t = strtok(NULL, ",\n"), ++c)
        for (int k = 0; k < 5; ++k)
            if (!strcmp(t, want[k])) col[k] = c;
    for (int k = 0; k < 5; ++k)
        if (col[k] < 0) {
            fprintf(stderr, "pf-inverse: the map %s has no column '%s'\n", path, want[k]);
            fclose(f);
            return -1;
        }
    double best = HUGE_VAL;
    *nrows = 0;
    const char *mode = pf_scene_mode_name(S->mode);
    while (fgets(line, sizeof line, f)) {
        char *cell[64];
        int n = 0;
        for (char *t = strtok(line, ",\n"); t && n < 64; t = strtok(NULL, ",\n"))
            cell[n++] = t;
        if (n <= col[0] || n <= col[1] || n <= col[2] || n <= col[3] || n <= col[4]) continue;
        if (strcmp(cell[col[0]], mode)) continue;
        double x = strtod(cell[col[3]], NULL), y = strtod(cell[col[4]], NULL);
        if (!isfinite(x) || !isfinite(y)) continue;
        (*nrows)++;
        double d = hypot(x - S->tx, y - S->ty);
        if (d < best) {
            best = d;
            v[0] = strtod(cell[col[1]], NULL);
            v[1] = strtod(cell[col[2]], NULL);
            fin[0] = x;
            fin[1] = y;
        }
    }
    fclose(f);
    if (*nrows == 0) {
        fprintf(stderr, "pf-inverse: the map %s has no finished rows for friction %s\n", path,
                mode);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *spec = NULL, *map[8], *friction = "pade", *target = NULL, *out = ".";
    int nmap = 0;
    long max_evals = 80;
    double step_rad = 0.0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--spec") && has)
            spec = argv[++i];
        else if (!strcmp(a, "--map") && has && nmap < 8)
            map[nmap++] = argv[++i];
        else if (!strcmp(a, "--step") && has)
            step_rad = strtod(argv[++i], NULL);
        else if (!strcmp(a, "--friction") && has)
            friction = argv[++i];
        else if (!strcmp(a, "--target") && has)
            target = argv[++i];
        else if (!strcmp(a, "--out") && has)
            out = argv[++i];
        else if (!strcmp(a, "--max-evals") && has)
            max_evals = strtol(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: pf-inverse --spec SPEC --map MAP.csv [--map MAP2.csv]... "
                            "--friction MODE --target X,Y [--out DIR] [--max-evals N] "
                            "[--step S]\n");
            return 2;
        }
    }
    Search S;
    memset(&S, 0, sizeof S);
    double tx, ty;
    char tail;
    if (!spec || !nmap || !target || sscanf(target, "%lf,%lf%c", &tx, &ty, &tail) != 2 ||
        !isfinite(tx) || !isfinite(ty) || max_evals < 3 || !(step_rad >= 0.0)) {
        fprintf(stderr, "pf-inverse: need --spec, --map and --target X,Y (finite numbers, in m), "
                        "--max-evals >= 3 and --step >= 0\n");
        return 2;
    }
    S.tx = tx;
    S.ty = ty;
    S.max_evals = max_evals;
    if (pf_scene_mode_from_name(friction, &S.mode)) {
        fprintf(stderr, "pf-inverse: --friction %s: expected stock, exact or pade\n", friction);
        return 2;
    }
    FILE *f = fopen(spec, "r");
    if (!f) {
        fprintf(stderr, "pf-inverse: cannot read %s\n", spec);
        return 2;
    }
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    char msg[2048];
    if (pf_sweep_parse(text, &S.sp, msg, sizeof msg)) {
        fprintf(stderr, "pf-inverse: %s: %s\n", spec, msg);
        return 2;
    }
    int ng = 0;
    for (int i = 0; i < S.sp.nparam; ++i)
        if (S.sp.param[i].kind == PF_SWEEP_GRID && ng < 2) S.p[ng++] = i;
    if (ng != 2 || S.sp.nparam != 2) {
        fprintf(stderr,
                "pf-inverse: %s: expected exactly two grid parameters (the search "
                "variables)\n",
                spec);
        return 2;
    }
    S.sp.nmetric = 2;
    snprintf(S.sp.metric[0], PF_SWEEP_NAME, "final_x");
    snprintf(S.sp.metric[1], PF_SWEEP_NAME, "final_y");
    S.sp.nuntil = 0;
    if (pf_sweep_check(&S.sp, msg, sizeof msg)) {
        fprintf(stderr, "pf-inverse: %s: %s\n", spec, msg);
        return 2;
    }

    /* 1. the search over the map */
    double v[2], fin[2], start_miss = HUGE_VAL;
    long nrows = 0;
    for (int i = 0; i < nmap; ++i) {
        double vi[2], fi[2];
        long ni;
        if (map_nearest(&S, map[i], vi, fi, &ni)) return 1;
        nrows += ni;
        if (hypot(fi[0] - tx, fi[1] - ty) < start_miss) {
            start_miss = hypot(fi[0] - tx, fi[1] - ty);
            memcpy(v, vi, sizeof v);
            memcpy(fin, fi, sizeof fin);
        }
    }

    /* 2. local refinement: Nelder-Mead in scaled coordinates */
    char path[4096];
    snprintf(path, sizeof path, "%s/inverse_evals.csv", out);
    S.log = fopen(path, "w");
    if (!S.log) {
        fprintf(stderr, "pf-inverse: cannot write %s\n", path);
        return 1;
    }
    fprintf(S.log, "eval,%s,%s,final_x,final_y,miss\n", S.sp.param[S.p[0]].name,
            S.sp.param[S.p[1]].name);
    S.best_f = HUGE_VAL;
    gsl_vector *x = gsl_vector_alloc(2), *step = gsl_vector_alloc(2);
    for (int k = 0; k < 2; ++k) {
        const pfSweepParam *q = &S.sp.param[S.p[k]];
        gsl_vector_set(x, (size_t)k, q->b > q->a ? (v[k] - q->a) / (q->b - q->a) : 0.0);
        if (step_rad > 0.0) /* --step: in the parameters' units */
            gsl_vector_set(step, (size_t)k, step_rad / (q->b - q->a));
        else
            gsl_vector_set(step, (size_t)k, q->count > 1 ? 1.0 / (q->count - 1) : 0.1);
    }
    gsl_multimin_function fn = {miss, 2, &S};
    gsl_multimin_fminimizer *mz =
        gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, 2);
    gsl_multimin_fminimizer_set(mz, &fn, x, step);
    int status = GSL_CONTINUE;
    long iter = 0;
    while (status == GSL_CONTINUE && S.evals < S.max_evals && S.best_f > 1e-6) {
        ++iter;
        if (gsl_multimin_fminimizer_iterate(mz)) break;
        status = gsl_multimin_test_size(gsl_multimin_fminimizer_size(mz), 1e-6);
    }
    gsl_multimin_fminimizer_free(mz);
    gsl_vector_free(x);
    gsl_vector_free(step);
    fclose(S.log);
    if (!isfinite(S.best_f)) {
        fprintf(stderr, "pf-inverse: no evaluation succeeded\n");
        return 1;
    }
    snprintf(path, sizeof path, "%s/inverse_trajectory.csv", out);
    if (write_trajectory(&S, S.best_x[0], S.best_x[1], path)) return 1;
    snprintf(path, sizeof path, "%s/inverse_start_trajectory.csv", out);
    if (write_trajectory(&S, v[0], v[1], path)) return 1;
    const char *n0 = S.sp.param[S.p[0]].name, *n1 = S.sp.param[S.p[1]].name;
    printf("{\"friction\": \"%s\", \"target_x\": %.9g, \"target_y\": %.9g, \"map_points\": %ld, "
           "\"start_%s\": %.9g, \"start_%s\": %.9g, \"start_x\": %.9g, \"start_y\": %.9g, "
           "\"start_miss\": %.9g, \"%s\": %.9g, \"%s\": %.9g, \"final_x\": %.9g, "
           "\"final_y\": %.9g, \"miss\": %.9g, \"evals\": %ld, \"iterations\": %ld, "
           "\"converged\": %s}\n",
           friction, tx, ty, nrows, n0, v[0], n1, v[1], fin[0], fin[1], start_miss, n0, S.best_x[0],
           n1, S.best_x[1], S.best_final[0], S.best_final[1], S.best_f, S.evals, iter,
           status == GSL_SUCCESS || S.best_f <= 1e-6 ? "true" : "false");
    return 0;
}
