/* The report's section on parameter sweeps: pf-sweep and pf-inverse as subprocesses
 * (like the rest of pf-report), their CSVs read back, heat maps, cuts, trajectories and
 * histograms drawn with gnuplot. See pf_report_sweeps.h. */
#define _POSIX_C_SOURCE 200809L

#include "pf_report_sweeps.h"
#include "report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PF_SWEEPS_DIR /* the shipped specs (set by CMake to the source tree's tools/sweeps) */
#define PF_SWEEPS_DIR "tools/sweeps"
#endif

/// Inverse search target [m] (Pade, t = 1 s). Off the map's diagonal the ball ends near
/// (1.339, 0.302), on it near (1.331, 0.370); a few rad/s off the diagonal it reaches a curve
/// through about (1.359, 0.30 - 0.33) (the ridge cut): the target lies on it, 12 mm from the
/// nearest point of the maps.
static const double TARGET[2] = {1.3595, 0.315};
/// The paper's measured breakaway forces [mN] (Kardan et al.) at h = 5 and 10 mm.
static const double PAPER_MN[2] = {36.5, 27.6};

#define PATHLEN 4096

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void show_tail(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    static char buf[8192];
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0, SEEK_SET);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    fprintf(stderr, "%s\n", buf);
}

/* A program run through the report's one process runner (report/jobs.c); 0 on success, else
 * the command and the end of its log on stderr and -1. */
static int run(const char *dir, char *const argv[], const char *out_path, const char *log_path)
{
    int status = pfr_run_wait(dir, argv, out_path, log_path);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    fprintf(stderr, "pf-report: FAILED (sweeps):");
    for (int i = 0; argv[i]; ++i)
        fprintf(stderr, " %s", argv[i]);
    fprintf(stderr, "\n");
    show_tail(log_path);
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* CSV                                                                                         */
/* ------------------------------------------------------------------------------------------ */

typedef struct Csv {
    int ncol;
    char *name[64];
    long nrow;
    char **cell; ///< nrow * ncol strings
    char *text;
} Csv;

static int csv_read(const char *path, Csv *c)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    c->text = malloc((size_t)size + 1);
    if (!c->text || fread(c->text, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        return -1;
    }
    fclose(f);
    c->text[size] = 0;
    long lines = 0;
    for (char *p = c->text; *p; ++p)
        lines += *p == '\n';
    char *save = NULL, *line = strtok_r(c->text, "\n", &save);
    if (!line) return -1;
    for (char *p = line; c->ncol < 64;) {
        c->name[c->ncol++] = p;
        char *comma = strchr(p, ',');
        if (!comma) break;
        *comma = 0;
        p = comma + 1;
    }
    c->cell = calloc((size_t)(lines + 1) * (size_t)c->ncol, sizeof *c->cell);
    if (!c->cell) return -1;
    while ((line = strtok_r(NULL, "\n", &save))) {
        char **row = c->cell + c->nrow * c->ncol;
        int k = 0;
        for (char *p = line; k < c->ncol;) {
            row[k++] = p;
            char *comma = strchr(p, ',');
            if (!comma) break;
            *comma = 0;
            p = comma + 1;
        }
        if (k == c->ncol) c->nrow++;
    }
    return 0;
}

static int csv_col(const Csv *c, const char *name)
{
    for (int i = 0; i < c->ncol; ++i)
        if (!strcmp(c->name[i], name)) return i;
    return -1;
}

static const char *csv_str(const Csv *c, long r, int col)
{
    return c->cell[r * c->ncol + col];
}

static double csv_num(const Csv *c, long r, int col)
{
    return strtod(csv_str(c, r, col), NULL);
}

static void csv_free(Csv *c)
{
    free(c->cell);
    free(c->text);
}

/* ------------------------------------------------------------------------------------------ */
/* helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef struct Ctx {
    const char *out, *sweep;
    char inverse[1024];
    char data[1024]; ///< OUT/data/sweeps
    int ranks;
} Ctx;

/* pf-sweep SPEC --out CSV (under mpiexec with ranks ranks when built with MPI). */
static int sweep(const Ctx *cx, const char *spec, const char *csv, const char *extra)
{
    char specpath[PATHLEN], log[PATHLEN], np[16], outp[PATHLEN];
    snprintf(specpath, sizeof specpath, "%s/%s", PF_SWEEPS_DIR, spec);
    snprintf(outp, sizeof outp, "%s/%s", cx->data, csv);
    snprintf(log, sizeof log, "%s/%s.log", cx->data, csv);
    snprintf(np, sizeof np, "%d", cx->ranks);
    char *argv[16];
    int n = 0;
#ifdef PF_MPIEXEC
    if (cx->ranks > 1) {
        argv[n++] = (char *)PF_MPIEXEC;
#ifdef PF_MPIEXEC_OPENMPI
        argv[n++] = (char *)"--allow-run-as-root";
        argv[n++] = (char *)"--oversubscribe";
#endif
        argv[n++] = (char *)"-np";
        argv[n++] = np;
    }
#endif
    argv[n++] = (char *)cx->sweep;
    argv[n++] = specpath;
    if (extra) {
        argv[n++] = (char *)extra;
    } else {
        argv[n++] = (char *)"--out";
        argv[n++] = outp;
        argv[n++] = (char *)"--restart";
    }
    argv[n] = NULL;
    char stdout_path[PATHLEN];
    snprintf(stdout_path, sizeof stdout_path, "%s/%s.out", cx->data, csv);
    double t = now_s();
    int rc = run(NULL, argv, stdout_path, log);
    if (rc == 0) fprintf(stderr, "pf-report: sweep %s done (%.1f s)\n", spec, now_s() - t);
    return rc;
}

static int gnuplot(const Ctx *cx, const char *script_rel)
{
    char log[PATHLEN], outp[PATHLEN];
    snprintf(log, sizeof log, "%s/%s.log", cx->out, script_rel);
    snprintf(outp, sizeof outp, "%s/%s.out", cx->out, script_rel);
    char *argv[3] = {(char *)"gnuplot", (char *)script_rel, NULL};
    /* paths inside the scripts are relative to OUT, as in the rest of the report */
    char logrel[PATHLEN], outrel[PATHLEN];
    snprintf(logrel, sizeof logrel, "%s.log", script_rel);
    snprintf(outrel, sizeof outrel, "%s.out", script_rel);
    if (run(cx->out, argv, outrel, logrel)) return -1;
    unlink(outp);
    return 0;
}

static FILE *open_script(const Ctx *cx, const char *name, char *rel, size_t n)
{
    snprintf(rel, n, "plots/%s.gp", name);
    char path[PATHLEN];
    snprintf(path, sizeof path, "%s/%s", cx->out, rel);
    FILE *gp = fopen(path, "w");
    if (!gp) fprintf(stderr, "pf-report: cannot write %s: %s\n", path, strerror(errno));
    return gp;
}

/* Friction modes in order of first appearance in column col. */
static int modes_of(const Csv *c, int col, const char *mode[3])
{
    int n = 0;
    for (long r = 0; r < c->nrow; ++r) {
        const char *m = csv_str(c, r, col);
        int seen = 0;
        for (int k = 0; k < n; ++k)
            seen |= !strcmp(mode[k], m);
        if (!seen && n < 3) mode[n++] = m;
    }
    return n;
}

static double json_num(const char *text, const char *key)
{
    char pat[96];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(text, pat);
    return p ? strtod(p + strlen(pat), NULL) : NAN;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ------------------------------------------------------------------------------------------ */
/* the control map                                                                             */
/* ------------------------------------------------------------------------------------------ */

static int control_map(FILE *md, const Ctx *cx, const char *spec, int quick)
{
    if (sweep(cx, spec, "control_map.csv", NULL)) return -1;
    char path[PATHLEN], rel[PATHLEN];
    snprintf(path, sizeof path, "%s/control_map.csv", cx->data);
    Csv c;
    if (csv_read(path, &c)) return -1;
    int cf = csv_col(&c, "friction"), ca = csv_col(&c, "omega_a"), cb = csv_col(&c, "omega_b"),
        cd = csv_col(&c, "distance"), cr = csv_col(&c, "direction"), cx_ = csv_col(&c, "final_x"),
        cy = csv_col(&c, "final_y");
    if (cf < 0 || ca < 0 || cb < 0 || cd < 0 || cr < 0 || cx_ < 0 || cy < 0) {
        fprintf(stderr, "pf-report: %s lacks a column of the control map\n", path);
        csv_free(&c);
        return -1;
    }
    const char *mode[3];
    int nm = modes_of(&c, cf, mode);
    fprintf(md, "### Control map: where the ball is after %s\n\n", quick ? "0.05 s" : "1 s");
    fprintf(md,
            "`pf-sweep tools/sweeps/%s` (%ld runs on %d rank%s): the ball of `shaking-table "
            "--case excitation-1` (tilt 20 degrees, launched across the slope at 0.4 m/s) on a "
            "table vibrating with velocity amplitudes A_x = A_y = 1 m/s at frequencies "
            "(omega_a, omega_b), phi_y = 0. Distance and direction (degrees from down-slope +x "
            "towards +y) of its displacement at the end.%s\n\n",
            spec, c.nrow, cx->ranks, cx->ranks > 1 ? "s" : "",
            quick ? " **--quick**: the CI-sized map (4 x 4, 0.05 s)." : "");
    fprintf(md, "| friction | off the diagonal: distance [m] (min - max) | direction [deg] "
                "(min - max) | on the diagonal omega_a = omega_b: distance [m] | direction [deg] "
                "|\n|---|---|---|---|---|\n");
    for (int m = 0; m < nm; ++m) {
        snprintf(path, sizeof path, "%s/control_map_%s.dat", cx->data, mode[m]);
        FILE *f = fopen(path, "w");
        if (!f) {
            csv_free(&c);
            return -1;
        }
        fprintf(f, "# omega_a omega_b distance direction final_x final_y\n");
        double prev = NAN, od[2] = {HUGE_VAL, -HUGE_VAL}, orr[2] = {HUGE_VAL, -HUGE_VAL};
        double dsum = 0, rsum = 0;
        long nd = 0;
        for (long r = 0; r < c.nrow; ++r) {
            if (strcmp(csv_str(&c, r, cf), mode[m])) continue;
            double a = csv_num(&c, r, ca), b = csv_num(&c, r, cb), d = csv_num(&c, r, cd),
                   dir = csv_num(&c, r, cr);
            if (!isnan(prev) && a != prev) fprintf(f, "\n");
            prev = a;
            fprintf(f, "%.10g %.10g %.10g %.10g %.10g %.10g\n", a, b, d, dir, csv_num(&c, r, cx_),
                    csv_num(&c, r, cy));
            if (a == b) {
                dsum += d;
                rsum += dir;
                nd++;
            } else {
                od[0] = fmin(od[0], d);
                od[1] = fmax(od[1], d);
                orr[0] = fmin(orr[0], dir);
                orr[1] = fmax(orr[1], dir);
            }
        }
        fclose(f);
        fprintf(md, "| %s | %.4f - %.4f | %.2f - %.2f | %.4f | %.2f |\n", mode[m], od[0], od[1],
                orr[0], orr[1], nd ? dsum / (double)nd : NAN, nd ? rsum / (double)nd : NAN);
    }
    csv_free(&c);
    FILE *gp = open_script(cx, "sweep_control_map", rel, sizeof rel);
    if (!gp) return -1;
    fprintf(gp,
            "reset\nset terminal pngcairo size %d,720 font ',10' noenhanced\n"
            "set output 'plots/sweep_control_map.png'\n"
            "set multiplot layout 2,%d title 'Shaking table: displacement after %s over the "
            "vibration frequencies (A_x = A_y = 1 m/s)'\n"
            "set xlabel 'omega_a [rad/s]'\nset ylabel 'omega_b [rad/s]'\nset size ratio -1\n"
            "set xtics 600\nset ytics 600\nset format cb '%%.6g'\nset autoscale xfix\nset "
            "autoscale yfix\n"
            "set palette rgbformulae 33,13,10\n",
            420 * nm, nm, quick ? "0.05 s" : "1 s");
    for (int row = 0; row < 2; ++row)
        for (int m = 0; m < nm; ++m) {
            fprintf(gp,
                    "set title '%s: %s'\nplot 'data/sweeps/control_map_%s.dat' using 1:2:%d with "
                    "image notitle\n",
                    mode[m], row == 0 ? "distance [m]" : "direction [deg]", mode[m], 3 + row);
        }
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    if (gnuplot(cx, rel)) return -1;
    fprintf(md,
            "\n![control map](plots/sweep_control_map.png)\n\nData: "
            "[data/sweeps/control_map.csv](data/sweeps/control_map.csv) (one row per run, as "
            "pf-sweep writes it). Off the diagonal the drift hardly depends on the frequencies: "
            "the table's motion is a Lissajous figure and the friction averages over all "
            "directions. On the diagonal (in-phase components: a straight-line vibration along "
            "(1, 1)) the ball drifts further across the slope. Stock friction (ODE's pyramid: "
            "independent bounds along two fixed axes) makes x depend on omega_a only and y on "
            "omega_b only, so its map is a product of two 1-D functions and lacks the diagonal "
            "ridge of the patch models' isotropic friction.\n\n");
    return 0;
}

static int ridge_cut(FILE *md, const Ctx *cx)
{
    if (sweep(cx, "ridge-cut.sweep", "ridge_cut.csv", NULL)) return -1;
    char path[PATHLEN], rel[PATHLEN];
    snprintf(path, sizeof path, "%s/ridge_cut.csv", cx->data);
    Csv c;
    if (csv_read(path, &c)) return -1;
    int cf = csv_col(&c, "friction"), ca = csv_col(&c, "omega_a"), cb = csv_col(&c, "omega_b"),
        cd = csv_col(&c, "distance"), cr = csv_col(&c, "direction");
    const char *mode[3];
    int nm = cf >= 0 ? modes_of(&c, cf, mode) : 0;
    if (ca < 0 || cb < 0 || cd < 0 || cr < 0 || nm == 0) {
        csv_free(&c);
        return -1;
    }
    static const char *const COLOR[3] = {"#2ca02c", "#1f5fbf", "#d62728"};
    FILE *gp = open_script(cx, "sweep_ridge_cut", rel, sizeof rel);
    if (!gp) {
        csv_free(&c);
        return -1;
    }
    fprintf(gp, "reset\nset terminal pngcairo size 1100,420 font ',10' noenhanced\n"
                "set output 'plots/sweep_ridge_cut.png'\nset datafile separator ','\nset grid\n"
                "set multiplot layout 1,2 title 'Across the ridge: omega_a = 1100 rad/s, omega_b "
                "from 1080 to 1120 rad/s (1 s)'\nset xlabel 'omega_b - omega_a [rad/s]'\n");
    for (int p = 0; p < 2; ++p) {
        fprintf(gp, "set ylabel '%s'\nplot ", p == 0 ? "distance [m]" : "direction [deg]");
        for (int m = 0; m < nm; ++m)
            fprintf(gp,
                    "%s'data/sweeps/ridge_cut.csv' every ::1 using (strcol(%d) eq '%s' ? $%d - $%d "
                    ": NaN):%d with linespoints pt 7 ps %s lw %s lc rgb '%s' title '%s'",
                    m ? ", " : "", cf + 1, mode[m], cb + 1, ca + 1, (p == 0 ? cd : cr) + 1,
                    strcmp(mode[m], "pade") ? "0.5" : "1.2", strcmp(mode[m], "pade") ? "1.5" : "5",
                    COLOR[m % 3], mode[m]); /* Pade wide and under: it overlays exact here */
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    csv_free(&c);
    if (gnuplot(cx, rel)) return -1;
    fprintf(md, "### Across the ridge\n\n`pf-sweep tools/sweeps/ridge-cut.sweep`: the map's "
                "diagonal ridge spans about omega_b - omega_a = +-10 rad/s, with structure on the "
                "scale of 1 rad/s: finer than the spacing of any practical grid over [200, 2000]^2 "
                "(100 x 100: 18 rad/s; the 1000 x 1000 map of the issue: 1.8 rad/s). Within it "
                "the drift depends strongly on omega_b - omega_a: over the 1 s run the "
                "straight-line vibration turns by (omega_b - omega_a) x 1 s radians. Pade and "
                "exact coincide (the ball hardly spins in this case); stock friction has no "
                "ridge.\n\n"
                "![ridge cut](plots/sweep_ridge_cut.png)\n\nData: "
                "[data/sweeps/ridge_cut.csv](data/sweeps/ridge_cut.csv).\n\n");
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* the inverse search                                                                          */
/* ------------------------------------------------------------------------------------------ */

static int inverse(FILE *md, const Ctx *cx)
{
    char spec[PATHLEN], map1[PATHLEN], map2[PATHLEN], target[64], outp[PATHLEN], log[PATHLEN];
    snprintf(spec, sizeof spec, "%s/control-map-report.sweep", PF_SWEEPS_DIR);
    snprintf(map1, sizeof map1, "%s/control_map.csv", cx->data);
    snprintf(map2, sizeof map2, "%s/ridge_cut.csv", cx->data);
    snprintf(target, sizeof target, "%.6g,%.6g", TARGET[0], TARGET[1]);
    snprintf(outp, sizeof outp, "%s/inverse.json", cx->data);
    snprintf(log, sizeof log, "%s/inverse.log", cx->data);
    char *argv[] = {(char *)cx->inverse,
                    (char *)"--spec",
                    spec,
                    (char *)"--map",
                    map1,
                    (char *)"--map",
                    map2,
                    (char *)"--friction",
                    (char *)"pade",
                    (char *)"--target",
                    target,
                    (char *)"--step",
                    (char *)"2",
                    (char *)"--max-evals",
                    (char *)"80",
                    (char *)"--out",
                    (char *)cx->data,
                    NULL};
    double t = now_s();
    if (run(NULL, argv, outp, log)) return -1;
    fprintf(stderr, "pf-report: inverse search done (%.1f s)\n", now_s() - t);
    const char *js = slurp(outp);
    if (!js) return -1;
    double sa = json_num(js, "start_omega_a"), sb = json_num(js, "start_omega_b"),
           sm = json_num(js, "start_miss"), wa = json_num(js, "omega_a"),
           wb = json_num(js, "omega_b"), fx = json_num(js, "final_x"), fy = json_num(js, "final_y"),
           miss = json_num(js, "miss"), evals = json_num(js, "evals"), sx = json_num(js, "start_x"),
           sy = json_num(js, "start_y");
    char rel[PATHLEN];
    FILE *gp = open_script(cx, "sweep_inverse", rel, sizeof rel);
    if (!gp) return -1;
    /* full paths, the last 2 cm around the target, and the miss per evaluation */
    fprintf(gp,
            "reset\nset terminal pngcairo size 1500,440 font ',10' noenhanced\n"
            "set output 'plots/sweep_inverse.png'\nset datafile separator ','\nset grid\n"
            "set multiplot layout 1,3 title 'Inverse search (Pade): vibration that brings the "
            "ball to (%.4f, %.3f) m at t = 1 s'\n"
            "set xlabel 'x (down-slope) [m]'\nset ylabel 'y [m]'\nset key left top\n",
            TARGET[0], TARGET[1]);
    for (int zoom = 0; zoom < 2; ++zoom) {
        if (zoom)
            fprintf(gp,
                    "set title 'near the end'\nset xrange [%.6g:%.6g]\nset yrange [%.6g:%.6g]\n",
                    TARGET[0] - 0.02, TARGET[0] + 0.005, TARGET[1] - 0.015, TARGET[1] + 0.015);
        else
            fprintf(gp, "set title 'paths over 1 s'\n");
        fprintf(gp,
                "plot 'data/sweeps/inverse_start_trajectory.csv' every ::1 using 2:3 with lines lw "
                "1.5 lc rgb '#999999' title sprintf('map start (%%.1f, %%.1f) rad/s', %.10g, "
                "%.10g), \\\n     'data/sweeps/inverse_trajectory.csv' every ::1 using 2:3 with "
                "lines lw 2 lc rgb '#1f5fbf' title sprintf('refined (%%.2f, %%.2f) rad/s', %.10g, "
                "%.10g), \\\n     '-' using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb '#d62728' "
                "title 'target'\n%.10g,%.10g\ne\n",
                sa, sb, wa, wb, TARGET[0], TARGET[1]);
    }
    fprintf(gp, "set autoscale\nset title 'refinement'\nset xlabel 'evaluation'\n"
                "set ylabel 'miss [m]'\nset logscale y\nset key right top\n"
                "plot 'data/sweeps/inverse_evals.csv' every ::1 using 1:6 with linespoints pt 7 "
                "ps 0.6 lc rgb '#1f5fbf' title 'Nelder-Mead (GSL nmsimplex2)'\nunset multiplot\n");
    fclose(gp);
    if (gnuplot(cx, rel)) return -1;
    fprintf(md,
            "### Inverse search: which vibration brings the ball to a target?\n\n"
            "Target (Pade, t = 1 s): (x, y) = (%.4f, %.3f) m, between the drift off the diagonal "
            "and on it. `pf-inverse --spec tools/sweeps/control-map-report.sweep --map "
            "control_map.csv --map ridge_cut.csv --friction pade --target %s --step 2`: the "
            "nearest point of the two maps, then GSL's Nelder-Mead simplex (nmsimplex2) on the "
            "miss distance, each evaluation a full 1 s run, bounded to [200, 2000]^2.\n\n"
            "| | omega_a [rad/s] | omega_b [rad/s] | final (x, y) [m] | miss [m] |\n"
            "|---|---|---|---|---|\n"
            "| map's nearest point | %.2f | %.2f | (%.5f, %.5f) | %.3g |\n"
            "| refined (%.0f runs) | %.4f | %.4f | (%.6f, %.6f) | %.3g |\n\n"
            "![inverse search](plots/sweep_inverse.png)\n\n"
            "The answer is not unique: the drift depends mostly on omega_b - omega_a near the "
            "diagonal, so a line of frequency pairs reaches the target about as well. Data: "
            "[data/sweeps/inverse_evals.csv](data/sweeps/inverse_evals.csv), "
            "[data/sweeps/inverse_trajectory.csv](data/sweeps/inverse_trajectory.csv).\n\n",
            TARGET[0], TARGET[1], target, sa, sb, sx, sy, sm, evals, wa, wb, fx, fy, miss);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Monte Carlo breakaway                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int breakaway(FILE *md, const Ctx *cx)
{
    static const char *const SPEC[2] = {"breakaway-h5.sweep", "breakaway-h10.sweep"};
    static const char *const CSV[2] = {"breakaway_h5.csv", "breakaway_h10.csv"};
    int fcol[2] = {0, 0}, scol[2] = {0, 0};
    double st[2][6]; /* n, mean, sd, p5, p50, p95 [mN] */
    for (int k = 0; k < 2; ++k) {
        if (sweep(cx, SPEC[k], CSV[k], NULL)) return -1;
        char path[PATHLEN];
        snprintf(path, sizeof path, "%s/%s", cx->data, CSV[k]);
        Csv c;
        if (csv_read(path, &c)) return -1;
        fcol[k] = csv_col(&c, "breakaway_force");
        scol[k] = csv_col(&c, "status");
        if (fcol[k] < 0 || scol[k] < 0) {
            csv_free(&c);
            return -1;
        }
        double *v = malloc(sizeof *v * (size_t)(c.nrow + 1));
        long n = 0;
        double s = 0, ss = 0;
        for (long r = 0; r < c.nrow; ++r) {
            double f = 1e3 * csv_num(&c, r, fcol[k]);
            if (strcmp(csv_str(&c, r, scol[k]), "ok") || !isfinite(f)) continue;
            v[n++] = f;
            s += f;
        }
        double mean = n ? s / (double)n : NAN;
        for (long i = 0; i < n; ++i)
            ss += (v[i] - mean) * (v[i] - mean);
        qsort(v, (size_t)n, sizeof *v, cmp_double);
        st[k][0] = (double)n;
        st[k][1] = mean;
        st[k][2] = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
        st[k][3] = n ? v[(long)(0.05 * (double)(n - 1))] : NAN;
        st[k][4] = n ? v[(long)(0.50 * (double)(n - 1))] : NAN;
        st[k][5] = n ? v[(long)(0.95 * (double)(n - 1))] : NAN;
        free(v);
        csv_free(&c);
    }
    char rel[PATHLEN];
    FILE *gp = open_script(cx, "sweep_breakaway", rel, sizeof rel);
    if (!gp) return -1;
    fprintf(gp, "reset\nset terminal pngcairo size 1100,480 font ',10' noenhanced\n"
                "set output 'plots/sweep_breakaway.png'\nset datafile separator ','\nset grid\n"
                "set multiplot layout 1,2 title 'Eccentric push, Monte Carlo breakaway (exact, CA "
                "criterion): mu_s, h and mass uncertain'\nw = 0.5\nbin(x) = w * floor(x / w) + w "
                "/ 2\nset style fill solid 0.5\nunset xlabel\n"
                "set ylabel 'runs per 0.5 mN'\nset key below\n");
    for (int k = 0; k < 2; ++k)
        fprintf(
            gp,
            "set title 'h = %d mm: breakaway force [mN]'\nunset arrow\n"
            "set arrow 1 from %.4f, graph 0 to %.4f, graph 1 nohead front lw 2.5 lc rgb '#d62728'\n"
            "set arrow 2 from %.4f, graph 0 to %.4f, graph 1 nohead front lw 1.5 dt 2 lc rgb "
            "'#000000'\nplot 'data/sweeps/%s' every ::1 using (strcol(%d) eq 'ok' ? "
            "bin(1000 * $%d) : NaN):(1.0) smooth frequency with boxes lc rgb '#1f5fbf' title "
            "sprintf('%.0f runs', %.0f), NaN with lines lw 2.5 lc rgb '#d62728' title "
            "'measured (paper) %.1f mN', NaN with lines lw 1.5 dt 2 lc rgb '#000000' title "
            "'mean %.2f mN'\n",
            k == 0 ? 5 : 10, PAPER_MN[k], PAPER_MN[k], st[k][1], st[k][1], CSV[k], scol[k] + 1,
            fcol[k] + 1, st[k][0], st[k][0], PAPER_MN[k], st[k][1]);
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    if (gnuplot(cx, rel)) return -1;
    fprintf(md, "### Monte Carlo breakaway of the eccentric push\n\n"
                "`pf-sweep tools/sweeps/breakaway-h5.sweep` and `breakaway-h10.sweep`: exact "
                "patch friction, CA criterion, force ramp 0.05 N/s, each run ending at "
                "breakaway. Stated uncertainties (one standard deviation, normal): mu_s 0.55 "
                "+- 5 %% (mu_k = 0.52/0.55 mu_s), h +- 0.5 mm, mass 8.1 g +- 2 %%.\n\n"
                "| h | runs | mean [mN] | sd [mN] | 5 %% - 50 %% - 95 %% [mN] | measured (paper) "
                "[mN] | (measured - mean) / sd |\n|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < 2; ++k)
        fprintf(md, "| %d mm | %.0f | %.2f | %.2f | %.2f - %.2f - %.2f | %.1f | %+.2f |\n",
                k == 0 ? 5 : 10, st[k][0], st[k][1], st[k][2], st[k][3], st[k][4], st[k][5],
                PAPER_MN[k], (PAPER_MN[k] - st[k][1]) / st[k][2]);
    fprintf(md, "\n![breakaway histograms](plots/sweep_breakaway.png)\n\nData: "
                "[data/sweeps/breakaway_h5.csv](data/sweeps/breakaway_h5.csv), "
                "[data/sweeps/breakaway_h10.csv](data/sweeps/breakaway_h10.csv) (every draw and "
                "its force).\n\n");
    return 0;
}

/* ------------------------------------------------------------------------------------------ */

static int scaling(FILE *md, const Ctx *cx, const char *spec)
{
    if (sweep(cx, spec, "bench", "--bench")) return -1;
    char path[PATHLEN];
    snprintf(path, sizeof path, "%s/bench.out", cx->data);
    const char *out = slurp(path);
    if (!out) return -1;
    const char *two = strstr(out, "\"ranks\": 2");
    fprintf(md,
            "### Scaling\n\n`mpiexec -np %d pf-sweep tools/sweeps/%s --bench` (the same 24 "
            "points on rank 0 alone, then on all ranks, in one run; on a machine busy with "
            "other work the efficiency reflects the load): ",
            cx->ranks, spec);
    double r1 = json_num(out, "runs_per_s");
    if (two) {
        double r2 = json_num(two, "runs_per_s"), eff = json_num(out, "efficiency");
        fprintf(md,
                "%.2f runs/s on 1 rank, %.2f on 2, parallel efficiency %.2f. Rank 0's CPU time "
                "per run: %.4f s alone, %.4f s with 2 ranks (wall time per run %.4f s and %.4f "
                "s): where the two CPU figures agree, any loss of efficiency is other programs "
                "taking the cores, not pf-sweep.\n\n",
                r1, r2, eff, json_num(out, "rank0_cpu_s_per_run"),
                json_num(two, "rank0_cpu_s_per_run"), json_num(out, "rank0_wall_s_per_run"),
                json_num(two, "rank0_wall_s_per_run"));
    } else {
        fprintf(md, "%.2f runs/s on 1 rank (pf-sweep without MPI: no 2-rank figure).\n\n", r1);
    }
    return 0;
}

int pf_report_sweeps(FILE *md, const char *out, const char *pf_sweep, int quick, int ranks)
{
    Ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.out = out;
    cx.sweep = pf_sweep;
    cx.ranks = ranks < 1 ? 1 : ranks;
    snprintf(cx.inverse, sizeof cx.inverse, "%s", pf_sweep);
    char *slash = strrchr(cx.inverse, '/');
    snprintf(slash ? slash + 1 : cx.inverse,
             sizeof cx.inverse - (size_t)(slash ? slash + 1 - cx.inverse : 0), "pf-inverse");
    snprintf(cx.data, sizeof cx.data, "%s/data", out);
    mkdir(cx.data, 0775);
    snprintf(cx.data, sizeof cx.data, "%s/data/sweeps", out);
    if (mkdir(cx.data, 0775) != 0 && errno != EEXIST) {
        fprintf(stderr, "pf-report: cannot create %s: %s\n", cx.data, strerror(errno));
        return -1;
    }
    double t0 = now_s();
    fprintf(md, "## Parameter sweeps on MPI\n\n"
                "`pf-sweep` runs a scene over a grid or random design, in process through the "
                "scene API, on MPI ranks with dynamic scheduling (or one process), checkpointing "
                "as it goes; its CSV is the same for any number of ranks. How to run it on a "
                "cluster and what the full map costs: `docs/sweeps.md`.\n\n");
    if (control_map(md, &cx, quick ? "ci-small.sweep" : "control-map-report.sweep", quick))
        return -1;
    if (!quick) {
        if (ridge_cut(md, &cx) || inverse(md, &cx)) return -1;
    }
    if (breakaway(md, &cx)) return -1;
    if (scaling(md, &cx, quick ? "ci-small.sweep" : "control-map-report.sweep")) return -1;
    fprintf(md, "Sweeps section: %.0f s.\n\n", now_s() - t0);
    return 0;
}
