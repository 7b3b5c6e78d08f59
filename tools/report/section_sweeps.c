/* Parameter sweeps on MPI: pf-sweep and pf-inverse on the shipped specs (tools/sweeps): the
 * shaking table's control map, the cut across its ridge, the inverse search on them, the Monte
 * Carlo breakaway of the eccentric push and the scaling benchmark. CSVs in OUT/data/sweeps/,
 * plots OUT/plots/sweep_*.
 *
 * Its runs are a job list of their own, run one at a time after the other sections' runs: each
 * sweep takes every core through its MPI ranks (mpiexec -np --jobs), and the inverse search reads
 * the two maps written before it. A sweep is a batch of runs, so --timeout (the longest single
 * run) does not apply to it. --quick: the CI-sized map, the breakaway and the benchmark. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
static const int H_MM[2] = {5, 10};
static const char *const BREAKAWAY_SPEC[2] = {"breakaway-h5.sweep", "breakaway-h10.sweep"};
static const char *const BREAKAWAY_CSV[2] = {"breakaway_h5.csv", "breakaway_h10.csv"};

static pfrJobList g_jobs;
static pfrJob *g_map, *g_ridge, *g_inverse, *g_breakaway[2], *g_bench;
static const char *g_dir; ///< OUT/data/sweeps
static const char *g_map_spec, *g_duration;
static int g_ranks;
static double g_seconds;

/* the control map: runs, friction modes, and per mode the distance and direction off the diagonal
 * (min, max) and their means on it */
static long g_map_runs;
static int g_nmodes;
static const char *g_mode[3];
static double g_map_dist[3][2], g_map_dir[3][2], g_diag_dist[3], g_diag_dir[3];
static json_t *g_inv;         ///< pf-inverse's result
static double g_break[2][6];  ///< n, mean, sd, p5, p50, p95 [mN]
static json_t *g_bench_lines; ///< pf-sweep --bench's JSON lines (an array)

/* ------------------------------------------------------------------------------------------ */
/* jobs                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* pf-sweep SPEC --out DATA/CSV --restart (bench: --bench, stdout DATA/bench.out), under mpiexec
 * with g_ranks ranks when pf-sweep has MPI. */
static pfrJob *plan_sweep(const pfrReport *r, const char *spec, const char *csv, int bench)
{
    const char *stem = pfr_fmt("%s/%s", g_dir, csv);
    pfrJob *j = pfr_job_new(&g_jobs, pfr_fmt("sweep %s%s", spec, bench ? " --bench" : ""),
                            pfr_fmt("%s.out", stem), pfr_fmt("%s.log", stem));
#ifdef PF_MPIEXEC
    if (g_ranks > 1) {
        pfr_job_arg(j, PF_MPIEXEC);
#ifdef PF_MPIEXEC_OPENMPI
        pfr_job_arg(j, "--allow-run-as-root");
        pfr_job_arg(j, "--oversubscribe");
#endif
        pfr_job_arg(j, "-np");
        pfr_job_arg(j, pfr_fmt("%d", g_ranks));
    }
#endif
    pfr_job_arg(j, r->sweep);
    pfr_job_arg(j, pfr_fmt("%s/%s", PF_SWEEPS_DIR, spec));
    if (bench) {
        pfr_job_arg(j, "--bench");
    } else {
        j->csv = pfr_strdup(stem);
        pfr_job_arg(j, "--out");
        pfr_job_arg(j, j->csv);
        pfr_job_arg(j, "--restart");
    }
    return j;
}

/* pf-inverse (next to pf-sweep) on both maps: its JSON on stdout (DATA/inverse.json), its
 * evaluations and the two trajectories in DATA. */
static pfrJob *plan_inverse(const pfrReport *r)
{
    const char *slash = strrchr(r->sweep, '/');
    const char *prog =
        slash ? pfr_fmt("%.*s/pf-inverse", (int)(slash - r->sweep), r->sweep) : "pf-inverse";
    pfrJob *j = pfr_job_new(&g_jobs, "inverse search (pf-inverse)",
                            pfr_fmt("%s/inverse.json", g_dir), pfr_fmt("%s/inverse.log", g_dir));
    const char *args[] = {prog,
                          "--spec",
                          pfr_fmt("%s/control-map-report.sweep", PF_SWEEPS_DIR),
                          "--map",
                          g_map->csv,
                          "--map",
                          g_ridge->csv,
                          "--friction",
                          "pade",
                          "--target",
                          pfr_fmt("%.6g,%.6g", TARGET[0], TARGET[1]),
                          "--step",
                          "2",
                          "--max-evals",
                          "80",
                          "--out",
                          g_dir};
    for (size_t i = 0; i < sizeof args / sizeof args[0]; ++i)
        pfr_job_arg(j, args[i]);
    return j;
}

static void plan(pfrReport *r)
{
    if (!r->sweep) return;
    g_ranks = r->jobs < 1 ? 1 : r->jobs;
    g_dir = pfr_fmt("%s/sweeps", r->data);
    pfr_make_dir(g_dir);
    g_map_spec = r->quick ? "ci-small.sweep" : "control-map-report.sweep";
    g_duration = r->quick ? "0.05 s" : "1 s";
    g_map = plan_sweep(r, g_map_spec, "control_map.csv", 0);
    if (!r->quick) {
        g_ridge = plan_sweep(r, "ridge-cut.sweep", "ridge_cut.csv", 0);
        g_inverse = plan_inverse(r);
    }
    for (int k = 0; k < 2; ++k)
        g_breakaway[k] = plan_sweep(r, BREAKAWAY_SPEC[k], BREAKAWAY_CSV[k], 0);
    g_bench = plan_sweep(r, g_map_spec, "bench", 1);
}

/* ------------------------------------------------------------------------------------------ */
/* data and plots                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void read_csv(const pfrJob *j, pfrCsv *c)
{
    if (pfr_csv_read(j->csv, c) != 0)
        pfr_die("cannot read the CSV %s written by: %s", j->csv, pfr_job_cmdline(j));
}

/* Column name of c (read from file), or the report stops. */
static int column(const pfrCsv *c, const char *name, const char *file)
{
    int k = pfr_csv_col(c, name);
    if (k < 0) pfr_die("%s lacks the column '%s'", file, name);
    return k;
}

/* Friction modes in order of first appearance in column col (at most 3). */
static int modes_of(const pfrCsv *c, int col, const char *mode[3])
{
    int n = 0;
    for (long r = 0; r < c->nrow; ++r) {
        const char *m = pfr_csv_str(c, r, col);
        int seen = 0;
        for (int k = 0; k < n; ++k)
            seen |= !strcmp(mode[k], m);
        if (!seen && n < 3) mode[n++] = m;
    }
    return n;
}

/* plots/STEM.gp: png.gp for plots/STEM.png (w x h), then template tmpl with its fields kv; the
 * caller adds panels, closes it and runs it (pfr_gp_run). */
static FILE *open_plot(const pfrReport *r, const char *stem, int w, int h, const char *tmpl,
                       const char *const *kv, char **script)
{
    *script = pfr_fmt("%s/%s.gp", r->plots, stem);
    FILE *gp = pfr_open_w(*script);
    pfr_gp_png(gp, pfr_fmt("%s/%s.png", r->plots, stem), w, h);
    pfr_gp(gp, tmpl, kv);
    return gp;
}

/* The control map: one gnuplot-ready block file per friction mode (DATA/control_map_MODE.dat,
 * blank lines between omega_a rows), the table's ranges and the heat maps. */
static void control_map(const pfrReport *r)
{
    pfrCsv c;
    read_csv(g_map, &c);
    const char *f = g_map->csv;
    int cf = column(&c, "friction", f), ca = column(&c, "omega_a", f),
        cb = column(&c, "omega_b", f), cd = column(&c, "distance", f),
        cr = column(&c, "direction", f), cx = column(&c, "final_x", f),
        cy = column(&c, "final_y", f);
    g_map_runs = c.nrow;
    g_nmodes = modes_of(&c, cf, g_mode);
    for (int m = 0; m < g_nmodes; ++m) {
        FILE *dat = pfr_open_w(pfr_fmt("%s/control_map_%s.dat", g_dir, g_mode[m]));
        fprintf(dat, "# omega_a omega_b distance direction final_x final_y\n");
        double prev = NAN, dsum = 0, rsum = 0;
        double *od = g_map_dist[m], *orr = g_map_dir[m];
        od[0] = orr[0] = HUGE_VAL;
        od[1] = orr[1] = -HUGE_VAL;
        long nd = 0;
        for (long i = 0; i < c.nrow; ++i) {
            if (strcmp(pfr_csv_str(&c, i, cf), g_mode[m])) continue;
            double a = pfr_csv_num(&c, i, ca), b = pfr_csv_num(&c, i, cb),
                   d = pfr_csv_num(&c, i, cd), dir = pfr_csv_num(&c, i, cr);
            if (!isnan(prev) && a != prev) fprintf(dat, "\n");
            prev = a;
            fprintf(dat, "%.10g %.10g %.10g %.10g %.10g %.10g\n", a, b, d, dir,
                    pfr_csv_num(&c, i, cx), pfr_csv_num(&c, i, cy));
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
        fclose(dat);
        g_diag_dist[m] = nd ? dsum / (double)nd : NAN;
        g_diag_dir[m] = nd ? rsum / (double)nd : NAN;
    }
    char *script;
    const char *kv[] = {"COLS", pfr_fmt("%d", g_nmodes), "DURATION", g_duration, NULL};
    FILE *gp =
        open_plot(r, "sweep_control_map", 420 * g_nmodes, 720, "sweep_control_map", kv, &script);
    for (int row = 0; row < 2; ++row)
        for (int m = 0; m < g_nmodes; ++m) {
            const char *pk[] = {"MODE", g_mode[m],
                                "WHAT", row == 0 ? "distance [m]" : "direction [deg]",
                                "DAT",  pfr_rel(pfr_fmt("%s/control_map_%s.dat", g_dir, g_mode[m])),
                                "COL",  pfr_fmt("%d", 3 + row),
                                NULL};
            pfr_gp(gp, "sweep_map_panel", pk);
        }
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    pfr_gp_run(script);
}

/* The ridge cut: distance and direction against omega_b - omega_a, one curve per mode (Pade
 * wide and under: it overlays exact here). */
static void ridge_cut(const pfrReport *r)
{
    static const char *const COLOR[3] = {"#2ca02c", "#1f5fbf", "#d62728"};
    pfrCsv c;
    read_csv(g_ridge, &c);
    const char *f = g_ridge->csv;
    int cf = column(&c, "friction", f), ca = column(&c, "omega_a", f),
        cb = column(&c, "omega_b", f),
        col[2] = {column(&c, "distance", f), column(&c, "direction", f)};
    const char *mode[3];
    int nm = modes_of(&c, cf, mode);
    if (nm == 0) pfr_die("%s has no rows", f);
    pfrPlot pl[2];
    for (int p = 0; p < 2; ++p) {
        pfr_plot_begin(&pl[p], ", ");
        for (int m = 0; m < nm; ++m) {
            int pade = !strcmp(mode[m], "pade");
            pfr_plot_add(&pl[p],
                         "'%s' every ::1 using (strcol(%d) eq '%s' ? $%d - $%d : NaN):%d with "
                         "linespoints pt 7 ps %s lw %s lc rgb '%s' title '%s'",
                         pfr_rel(f), cf + 1, mode[m], cb + 1, ca + 1, col[p] + 1,
                         pade ? "1.2" : "0.5", pade ? "5" : "1.5", COLOR[m % 3], mode[m]);
        }
    }
    char *script;
    const char *kv[] = {"DISTANCE", pfr_plot_end(&pl[0], "NaN"), "DIRECTION",
                        pfr_plot_end(&pl[1], "NaN"), NULL};
    fclose(open_plot(r, "sweep_ridge_cut", 1100, 420, "sweep_ridge_cut", kv, &script));
    pfr_gp_run(script);
}

/* The inverse search: the paths from the map's start and the refined point (whole, and the
 * last 2 cm around the target), and the miss per evaluation. */
static void inverse(const pfrReport *r)
{
    pfr_load_run(g_inverse, NULL, &g_inv);
    char *script;
    const char *kv[] = {"TARGET_X", pfr_fmt("%.4f", TARGET[0]), "TARGET_Y",
                        pfr_fmt("%.3f", TARGET[1]), NULL};
    FILE *gp = open_plot(r, "sweep_inverse", 1500, 440, "sweep_inverse", kv, &script);
    for (int zoom = 0; zoom < 2; ++zoom) {
        const char *pk[] = {
            "TITLE",     zoom ? "near the end" : "paths over 1 s",
            "XRANGE",    zoom ? pfr_fmt("%.6g:%.6g", TARGET[0] - 0.02, TARGET[0] + 0.005) : "*:*",
            "YRANGE",    zoom ? pfr_fmt("%.6g:%.6g", TARGET[1] - 0.015, TARGET[1] + 0.015) : "*:*",
            "START_CSV", pfr_rel(pfr_fmt("%s/inverse_start_trajectory.csv", g_dir)),
            "START_A",   pfr_fmt("%.10g", pfr_json_get(g_inv, "start_omega_a")),
            "START_B",   pfr_fmt("%.10g", pfr_json_get(g_inv, "start_omega_b")),
            "BEST_CSV",  pfr_rel(pfr_fmt("%s/inverse_trajectory.csv", g_dir)),
            "BEST_A",    pfr_fmt("%.10g", pfr_json_get(g_inv, "omega_a")),
            "BEST_B",    pfr_fmt("%.10g", pfr_json_get(g_inv, "omega_b")),
            "TARGET",    pfr_fmt("%.10g,%.10g", TARGET[0], TARGET[1]),
            NULL};
        pfr_gp(gp, "sweep_inverse_paths", pk);
    }
    const char *ek[] = {"EVALS_CSV", pfr_rel(pfr_fmt("%s/inverse_evals.csv", g_dir)), NULL};
    pfr_gp(gp, "sweep_inverse_evals", ek);
    fclose(gp);
    pfr_gp_run(script);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The Monte Carlo breakaway: statistics of the forces of the runs that ended well [mN], and the
 * histograms with the paper's force and the mean marked. */
static void breakaway(const pfrReport *r)
{
    int fcol[2], scol[2];
    for (int k = 0; k < 2; ++k) {
        pfrCsv c;
        read_csv(g_breakaway[k], &c);
        fcol[k] = column(&c, "breakaway_force", g_breakaway[k]->csv);
        scol[k] = column(&c, "status", g_breakaway[k]->csv);
        double *v = pfr_alloc(sizeof *v * (size_t)(c.nrow + 1)), s = 0, ss = 0;
        long n = 0;
        for (long i = 0; i < c.nrow; ++i) {
            double F = 1e3 * pfr_csv_num(&c, i, fcol[k]);
            if (strcmp(pfr_csv_str(&c, i, scol[k]), "ok") || !isfinite(F)) continue;
            v[n++] = F;
            s += F;
        }
        double mean = n ? s / (double)n : NAN, *st = g_break[k];
        for (long i = 0; i < n; ++i)
            ss += (v[i] - mean) * (v[i] - mean);
        qsort(v, (size_t)n, sizeof *v, cmp_double);
        st[0] = (double)n;
        st[1] = mean;
        st[2] = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
        st[3] = n ? v[(long)(0.05 * (double)(n - 1))] : NAN;
        st[4] = n ? v[(long)(0.50 * (double)(n - 1))] : NAN;
        st[5] = n ? v[(long)(0.95 * (double)(n - 1))] : NAN;
    }
    char *script;
    const char *kv[] = {NULL};
    FILE *gp = open_plot(r, "sweep_breakaway", 1100, 480, "sweep_breakaway", kv, &script);
    for (int k = 0; k < 2; ++k) {
        const char *pk[] = {
            "H",          pfr_fmt("%d", H_MM[k]),         "PAPER",     pfr_fmt("%.4f", PAPER_MN[k]),
            "MEAN",       pfr_fmt("%.4f", g_break[k][1]), "CSV",       pfr_rel(g_breakaway[k]->csv),
            "STATUS_COL", pfr_fmt("%d", scol[k] + 1),     "FORCE_COL", pfr_fmt("%d", fcol[k] + 1),
            "RUNS",       pfr_fmt("%.0f", g_break[k][0]), "PAPER_MN",  pfr_fmt("%.1f", PAPER_MN[k]),
            "MEAN_MN",    pfr_fmt("%.2f", g_break[k][1]), NULL};
        pfr_gp(gp, "sweep_breakaway_panel", pk);
    }
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    pfr_gp_run(script);
}

/* pf-sweep --bench's stdout: one JSON object a line. */
static void read_bench(void)
{
    char *text = pfr_read_file(g_bench->out_path);
    if (!text) pfr_die("cannot read %s", g_bench->out_path);
    g_bench_lines = json_array();
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_t *js = json_loads(line, JSON_DECODE_INT_AS_REAL, NULL);
        if (json_is_object(js))
            json_array_append_new(g_bench_lines, js);
        else
            json_decref(js);
    }
}

/* The benchmark's line called name, on one rank (one = 1) or on several (one = 0), or NULL. */
static const json_t *bench_line(const char *name, int one)
{
    size_t i;
    json_t *js;
    json_array_foreach(g_bench_lines, i, js)
    {
        const char *n = json_string_value(json_object_get(js, "name"));
        if (n && !strcmp(n, name) && (pfr_json_get(js, "ranks") == 1.0) == one) return js;
    }
    return NULL;
}

static void analyse(pfrReport *r)
{
    if (!g_map) return;
    double t0 = pfr_now();
    fprintf(stderr, "pf-report: %d sweep runs, one at a time (%d rank%s each)\n", g_jobs.n, g_ranks,
            g_ranks > 1 ? "s" : "");
    FILE *cmds = fopen(pfr_fmt("%s/commands.txt", r->out), "a");
    if (!cmds) pfr_die("cannot append to %s/commands.txt", r->out);
    for (int i = 0; i < g_jobs.n; ++i)
        fprintf(cmds, "%s\n", pfr_job_cmdline(g_jobs.v[i]));
    fclose(cmds);
    pfr_jobs_run(&g_jobs, 1, INFINITY);
    control_map(r);
    if (g_ridge) ridge_cut(r);
    if (g_inverse) inverse(r);
    breakaway(r);
    read_bench();
    g_seconds = pfr_now() - t0;
}

/* ------------------------------------------------------------------------------------------ */
/* the README part                                                                             */
/* ------------------------------------------------------------------------------------------ */

static void write_map(const pfrReport *r, FILE *md)
{
    fprintf(md, "### Control map: where the ball is after %s\n\n", g_duration);
    fprintf(md,
            "`pf-sweep tools/sweeps/%s` (%ld runs on %d rank%s): the ball of `shaking-table "
            "--case excitation-1` (tilt 20 degrees, launched across the slope at 0.4 m/s) on a "
            "table vibrating with velocity amplitudes A_x = A_y = 1 m/s at frequencies "
            "(omega_a, omega_b), phi_y = 0. Distance and direction (degrees from down-slope +x "
            "towards +y) of its displacement at the end.%s\n\n",
            g_map_spec, g_map_runs, g_ranks, g_ranks > 1 ? "s" : "",
            r->quick ? " **--quick**: the CI-sized map (4 x 4, 0.05 s)." : "");
    fprintf(md, "| friction | off the diagonal: distance [m] (min - max) | direction [deg] "
                "(min - max) | on the diagonal omega_a = omega_b: distance [m] | direction [deg] "
                "|\n|---|---|---|---|---|\n");
    for (int m = 0; m < g_nmodes; ++m)
        fprintf(md, "| %s | %.4f - %.4f | %.2f - %.2f | %.4f | %.2f |\n", g_mode[m],
                g_map_dist[m][0], g_map_dist[m][1], g_map_dir[m][0], g_map_dir[m][1],
                g_diag_dist[m], g_diag_dir[m]);
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
}

static void write_ridge(FILE *md)
{
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
}

static void write_inverse(FILE *md)
{
    const json_t *js = g_inv;
    fprintf(md,
            "### Inverse search: which vibration brings the ball to a target?\n\n"
            "Target (Pade, t = 1 s): (x, y) = (%.4f, %.3f) m, between the drift off the diagonal "
            "and on it. `pf-inverse --spec tools/sweeps/control-map-report.sweep --map "
            "control_map.csv --map ridge_cut.csv --friction pade --target %.6g,%.6g --step 2`: "
            "the nearest point of the two maps, then GSL's Nelder-Mead simplex (nmsimplex2) on "
            "the miss distance, each evaluation a full 1 s run, bounded to [200, 2000]^2.\n\n"
            "| | omega_a [rad/s] | omega_b [rad/s] | final (x, y) [m] | miss [m] |\n"
            "|---|---|---|---|---|\n"
            "| map's nearest point | %.2f | %.2f | (%.5f, %.5f) | %.3g |\n"
            "| refined (%.0f runs) | %.4f | %.4f | (%.6f, %.6f) | %.3g |\n\n"
            "![inverse search](plots/sweep_inverse.png)\n\n"
            "The answer is not unique: the drift depends mostly on omega_b - omega_a near the "
            "diagonal, so a line of frequency pairs reaches the target about as well. Data: "
            "[data/sweeps/inverse_evals.csv](data/sweeps/inverse_evals.csv), "
            "[data/sweeps/inverse_trajectory.csv](data/sweeps/inverse_trajectory.csv).\n\n",
            TARGET[0], TARGET[1], TARGET[0], TARGET[1], pfr_json_get(js, "start_omega_a"),
            pfr_json_get(js, "start_omega_b"), pfr_json_get(js, "start_x"),
            pfr_json_get(js, "start_y"), pfr_json_get(js, "start_miss"), pfr_json_get(js, "evals"),
            pfr_json_get(js, "omega_a"), pfr_json_get(js, "omega_b"), pfr_json_get(js, "final_x"),
            pfr_json_get(js, "final_y"), pfr_json_get(js, "miss"));
}

static void write_breakaway(FILE *md)
{
    fprintf(md, "### Monte Carlo breakaway of the eccentric push\n\n"
                "`pf-sweep tools/sweeps/breakaway-h5.sweep` and `breakaway-h10.sweep`: exact "
                "patch friction, CA criterion, force ramp 0.05 N/s, each run ending at "
                "breakaway. Stated uncertainties (one standard deviation, normal): mu_s 0.55 "
                "+- 5 %% (mu_k = 0.52/0.55 mu_s), h +- 0.5 mm, mass 8.1 g +- 2 %%.\n\n"
                "| h | runs | mean [mN] | sd [mN] | 5 %% - 50 %% - 95 %% [mN] | measured (paper) "
                "[mN] | (measured - mean) / sd |\n|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < 2; ++k) {
        const double *st = g_break[k];
        fprintf(md, "| %d mm | %.0f | %.2f | %.2f | %.2f - %.2f - %.2f | %.1f | %+.2f |\n", H_MM[k],
                st[0], st[1], st[2], st[3], st[4], st[5], PAPER_MN[k],
                (PAPER_MN[k] - st[1]) / st[2]);
    }
    fprintf(md, "\n![breakaway histograms](plots/sweep_breakaway.png)\n\nData: "
                "[data/sweeps/breakaway_h5.csv](data/sweeps/breakaway_h5.csv), "
                "[data/sweeps/breakaway_h10.csv](data/sweeps/breakaway_h10.csv) (every draw and "
                "its force).\n\n");
}

static void write_scaling(FILE *md)
{
    const json_t *one = bench_line("sweep_ranks", 1), *all = bench_line("sweep_ranks", 0),
                 *scaling = bench_line("sweep_scaling", 0);
    fprintf(md,
            "### Scaling\n\n`mpiexec -np %d pf-sweep tools/sweeps/%s --bench` (the same 24 "
            "points on rank 0 alone, then on all ranks, in one run; on a machine busy with "
            "other work the efficiency reflects the load): ",
            g_ranks, g_map_spec);
    double r1 = pfr_json_get(one, "runs_per_s");
    if (all) {
        int n = (int)pfr_json_get(all, "ranks");
        fprintf(md,
                "%.2f runs/s on 1 rank, %.2f on %d, parallel efficiency %.2f. Rank 0's CPU time "
                "per run: %.4f s alone, %.4f s with %d ranks (wall time per run %.4f s and %.4f "
                "s): where the two CPU figures agree, any loss of efficiency is other programs "
                "taking the cores, not pf-sweep.\n\n",
                r1, pfr_json_get(all, "runs_per_s"), n, pfr_json_get(scaling, "efficiency"),
                pfr_json_get(one, "rank0_cpu_s_per_run"), pfr_json_get(all, "rank0_cpu_s_per_run"),
                n, pfr_json_get(one, "rank0_wall_s_per_run"),
                pfr_json_get(all, "rank0_wall_s_per_run"));
    } else {
        fprintf(md, "%.2f runs/s on 1 rank (pf-sweep without MPI: no 2-rank figure).\n\n", r1);
    }
}

static void write_section(pfrReport *r, FILE *md)
{
    if (!g_map) return;
    fprintf(md, "## Parameter sweeps on MPI\n\n"
                "`pf-sweep` runs a scene over a grid or random design, in process through the "
                "scene API, on MPI ranks with dynamic scheduling (or one process), checkpointing "
                "as it goes; its CSV is the same for any number of ranks. How to run it on a "
                "cluster and what the full map costs: `docs/sweeps.md`.\n\n");
    write_map(r, md);
    if (g_ridge) write_ridge(md);
    if (g_inverse) write_inverse(md);
    write_breakaway(md);
    write_scaling(md);
    fprintf(md, "Sweeps section: %.0f s.\n\n", g_seconds);
}

const pfrSection pfr_section_sweeps = {"parameter sweeps", plan, analyse, write_section};
