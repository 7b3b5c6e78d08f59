/* Varying normal load: the cases whose normal force changes during the run, compared under the
 * two couplings of the adapter (pfOdeConfig.coupling): stock, exact with coupling=adapter, exact
 * with coupling=solver (when pf-demo accepts it: the patched ODE; else, when given, the pf-demo
 * built against the patched ODE, --demo-patched), each against its reference. Its plan also
 * decides r->solver_ok and r->patched_ok for the other sections. */
#include "report.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
static const char *const TAG[4] = {"stock", "adapter", "solver", "reference"};
static const char *const COLOR[4] = {"#d62728", "#1f5fbf", "#ff7f0e", "#000000"};
static const char *const LW[4] = {"1.5", "2.5", "1.5", "2"};
static const char *const DT[4] = {"dt 1", "dt 1", "dt (6,4)", "dt (2,3)"};

static int g_have[NVARYING], g_any;
static char g_solver_why[512];
static pfrCase g_cr[NVARYING];
static pfMetricsCompare g_m[NVARYING][3]; /* timing and energy; the RMS is the case's error */

/* Is the in-solver coupling there? One short run of pf-demo with coupling=solver, which an ODE
 * without the patch series refuses (exit 1, the adapter's message on stderr). */
static int solver_probe(pfrReport *r, const char *demo, const char *stem, char *why, size_t nwhy,
                        const char *scene, const char *cas)
{
    char *po = pfr_fmt("%s/%s.json", r->runs, stem), *pe = pfr_fmt("%s/%s.log", r->runs, stem);
    char *argv[] = {(char *)demo,
                    (char *)scene,
                    (char *)"--case",
                    (char *)cas,
                    (char *)"--headless",
                    (char *)"--duration",
                    (char *)"0.001",
                    (char *)"--set",
                    (char *)"coupling=solver",
                    (char *)"--json",
                    NULL};
    int status = pfr_run_wait(NULL, argv, po, pe);
    char *out = pfr_read_file(po), *ll = out ? pfr_last_line(out) : NULL;
    json_t *js = ll ? json_loads(ll, 0, NULL) : NULL;
    const char *coupling = json_string_value(json_object_get(js, "coupling"));
    int ok =
        WIFEXITED(status) && WEXITSTATUS(status) == 0 && coupling && !strcmp(coupling, "solver");
    json_decref(js);
    if (!ok) {
        char *e = pfr_read_file(pe), *el = e ? pfr_last_line(e) : NULL;
        snprintf(why, nwhy, "%s", el ? el : "(no message)");
    }
    return ok;
}

/* The pf-demo against the patched ODE (--demo-patched), when pf-demo itself has no in-solver
 * coupling: usable if the report target recorded "ok" for its build and it runs
 * coupling=solver; else r->patched_why says why not. */
static void probe_patched(pfrReport *r, const char *scene, const char *cas)
{
    fprintf(stderr, "pf-report: in-solver coupling %s\n",
            r->solver_ok ? "available in pf-demo" : "not in pf-demo (Debian's ODE)");
    if (r->solver_ok) return;
    if (!r->demo_patched) {
        snprintf(r->patched_why, sizeof r->patched_why,
                 "pf-report was given no pf-demo built against the patched ODE (--demo-patched)");
        return;
    }
    char *status = r->demo_patched_status ? pfr_read_file(r->demo_patched_status) : NULL;
    if (r->demo_patched_status && (!status || strncmp(status, "ok", 2) != 0)) {
        char *line = status ? pfr_last_line(status) : NULL;
        snprintf(r->patched_why, sizeof r->patched_why,
                 "the report target did not build the patched ODE's pf-demo: %s",
                 line ? line : "no status file");
        return;
    }
    if (access(r->demo_patched, X_OK) != 0) {
        snprintf(r->patched_why, sizeof r->patched_why, "%s is not there", r->demo_patched);
        return;
    }
    char why[384];
    r->patched_ok =
        solver_probe(r, r->demo_patched, "solver_probe_patched", why, sizeof why, scene, cas);
    if (!r->patched_ok)
        snprintf(r->patched_why, sizeof r->patched_why, "%.100s refuses coupling=solver: %.380s",
                 r->demo_patched, why);
    fprintf(stderr, "pf-report: in-solver coupling from %s: %s\n", r->demo_patched,
            r->patched_ok ? "yes" : r->patched_why);
}

static void plan(pfrReport *r)
{
    for (size_t v = 0; v < NVARYING; ++v)
        g_any |= g_have[v] = pfr_has_case(r, VARYING[v].scene, VARYING[v].cas);
    if (!g_any) return;
    size_t v0 = 0;
    while (!g_have[v0])
        ++v0;
    r->solver_ok = solver_probe(r, r->demo, "solver_probe", g_solver_why, sizeof g_solver_why,
                                VARYING[v0].scene, VARYING[v0].cas);
    probe_patched(r, VARYING[v0].scene, VARYING[v0].cas);
    static const char *const SETS[3] = {NULL, "coupling=adapter", "coupling=solver"};
    for (size_t v = 0; v < NVARYING; ++v) {
        if (!g_have[v]) continue;
        pfrCase *cr = &g_cr[v];
        cr->scene = VARYING[v].scene;
        cr->cas = VARYING[v].cas;
        for (int m = 0; m < 3; ++m)
            if (m < 2 || pfr_solver_demo(r))
                cr->job[m] = pfr_plan_run_with(r, m == 2 ? pfr_solver_demo(r) : r->demo, cr->scene,
                                               cr->cas, m ? "exact" : "stock",
                                               pfr_fmt("vl-%s", TAG[m]), 0.0, &SETS[m], m ? 1 : 0);
        if (r->have_ref)
            cr->job[PFR_REF] =
                pfr_plan_run(r, cr->scene, cr->cas, NULL, "vl-reference", 0.0, NULL, 0);
    }
}

/* The difference of coordinate qn from the reference, on the reference's times, per run. */
static void write_difference(const pfrCase *cr, const char *qn, int qc, const char *path)
{
    const pfTrajectory *ref = &cr->tab[PFR_REF];
    FILE *f = pfr_open_w(path);
    fprintf(f, "t,stock,adapter,solver\n");
    long cur[3] = {0, 0, 0};
    for (long r = 0; r < ref->nrow; ++r) {
        double t = pf_trajectory_at(ref, r, 0), q = pf_trajectory_at(ref, r, qc), v;
        fprintf(f, "%.9g", t);
        for (int m = 0; m < 3; ++m) {
            int c = pfr_case_col(cr, m, qn);
            if (c > 0 && pf_trajectory_interp(&cr->tab[m], c, t, &cur[m], &v) && isfinite(v))
                fprintf(f, ",%.9g", v - q);
            else
                fprintf(f, ",NaN");
        }
        fprintf(f, "\n");
    }
    fclose(f);
}

/* Plot of one case: its position coordinates and energy, the difference from the reference of
 * the worst coordinate and the stick/slip timeline, for stock, adapter, solver, reference. */
static void plot(pfrReport *r, const pfrCase *cr, const char *stem)
{
    const pfTrajectory *ref = &cr->tab[PFR_REF];
    int wc = -1;
    for (int m = 0; m < 3; ++m)
        if (cr->have[m] && cr->err_coord[m] >= 0) wc = cr->err_coord[m];
    if (wc < 0 && cr->npos > 0) wc = 0;
    char *diff = pfr_fmt("%s/%s_difference.csv", r->data, stem);
    if (wc >= 0) write_difference(cr, ref->cols[cr->pos_col[wc]], cr->pos_col[wc], diff);
    int has_stick = pf_trajectory_column(ref, "stick") > 0;
    int has_e = pf_trajectory_column(ref, "energy") > 0;
    int panels = cr->npos + (wc >= 0) + has_e + has_stick;
    int cols = panels > 1 ? 2 : 1, rows = (panels + cols - 1) / cols;
    char *script = pfr_fmt("%s/%s.gp", r->plots, stem);
    FILE *gp = pfr_open_w(script);
    pfr_gp_header(gp, pfr_fmt("%s/%s.png", r->plots, stem), 700 * cols, 60 + 360 * rows);
    const char *mkv[] = {"ROWS",
                         pfr_fmt("%d", rows),
                         "COLS",
                         pfr_fmt("%d", cols),
                         "TITLE",
                         pfr_fmt("%s / %s: stock, exact with adapter coupling, exact with solver "
                                 "coupling, reference (dashed)",
                                 cr->scene, cr->cas),
                         NULL};
    pfr_gp(gp, "multiplot", mkv);
    for (int k = 0; k < cr->npos + has_e; ++k) {
        const char *n = k < cr->npos ? ref->cols[cr->pos_col[k]] : "energy";
        pfrPlot pl;
        pfr_plot_begin(&pl, ", \\\n     ");
        for (int m = 0; m < 4; ++m) {
            int c = pfr_case_col(cr, m, n);
            if (c < 0) continue;
            pfr_plot_add(&pl,
                         "'%s' every ::1 using 1:%d with lines lw %s lc rgb '%s' %s title '%s'",
                         pfr_rel(cr->job[m]->csv), c + 1, LW[m], COLOR[m], DT[m], TAG[m]);
        }
        pfr_gp_panel(gp, pfr_fmt("%s(t)", n), "time t [s]",
                     pfr_fmt("%s [%s]", n, k < cr->npos ? pf_metrics_unit(n) : "J"),
                     pfr_plot_end(&pl, "NaN notitle"));
    }
    if (wc >= 0) {
        const char *qn = ref->cols[cr->pos_col[wc]];
        pfrPlot pl;
        pfr_plot_begin(&pl, ", \\\n     ");
        for (int m = 0; m < 3; ++m)
            if (cr->have[m])
                pfr_plot_add(&pl,
                             "'%s' every ::1 using 1:%d with lines lw %s lc rgb '%s' title '%s'",
                             pfr_rel(diff), m + 2, LW[m], COLOR[m], TAG[m]);
        pfr_gp_panel(gp, pfr_fmt("difference from the reference: %s - %s_ref", qn, qn),
                     "time t [s]", pfr_fmt("difference [%s]", pf_metrics_unit(qn)),
                     pfr_plot_end(&pl, "NaN notitle"));
    }
    if (has_stick) {
        pfr_gp_timeline(gp, cr, "stick", "stick/slip timeline (high = stick)", TAG, COLOR);
        fprintf(gp, "set key\nset yrange [*:*]\nset ytics auto\n");
    }
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    pfr_gp_run(script);
}

static void analyse(pfrReport *r)
{
    for (size_t v = 0; v < NVARYING; ++v) {
        if (!g_have[v]) continue;
        pfrCase *cr = &g_cr[v];
        for (int m = 0; m < 4; ++m) {
            if (!cr->job[m]) continue;
            pfr_load_run(cr->job[m], &cr->tab[m], &cr->js[m]);
            cr->have[m] = 1;
        }
        if (cr->have[PFR_REF]) {
            pfr_case_errors(cr);
            for (int m = 0; m < 3; ++m) {
                if (!cr->have[m]) continue;
                pfMetricsCompare *q = &g_m[v][m];
                q->timing = pf_metrics_stick_timing(&cr->tab[m], &cr->tab[PFR_REF],
                                                    PF_METRICS_MIN_PHASE, &q->trans, &q->trans_ref);
                pf_metrics_energy(&cr->tab[m], &cr->tab[PFR_REF], &q->energy_drift,
                                  &q->energy_final);
            }
        } else {
            cr->tab[PFR_REF] = cr->tab[1];
            cr->npos = pf_metrics_positions(&cr->tab[1], cr->pos_col, 8);
            for (int m = 0; m < 3; ++m)
                cr->err_coord[m] = -1;
        }
        plot(r, cr, pfr_slug(pfr_fmt("varying__%s__%s", cr->scene, cr->cas)));
    }
    if (!g_any) return;
    FILE *f = pfr_open_w(pfr_fmt("%s/varying_load.csv", r->data));
    fprintf(f, "scene,case,run,rms_rel,rms_coordinate,worst_timing_s,transitions,"
               "transitions_reference,energy_drift,energy_final\n");
    for (size_t v = 0; v < NVARYING; ++v)
        for (int m = 0; m < 3; ++m) {
            const pfrCase *cr = &g_cr[v];
            if (!g_have[v] || !cr->have[m] || !cr->have[PFR_REF]) continue;
            const pfMetricsCompare *q = &g_m[v][m];
            fprintf(f, "%s,%s,%s,%.6g,%s,%.6g,%d,%d,%.6g,%.6g\n", cr->scene, cr->cas, TAG[m],
                    cr->err[m],
                    cr->err_coord[m] >= 0 ? cr->tab[PFR_REF].cols[cr->pos_col[cr->err_coord[m]]]
                                          : "",
                    q->timing, q->trans, q->trans_ref, q->energy_drift, q->energy_final);
        }
    fclose(f);
}

/* One table cell: RMS error, worst timing error, energy drift. */
static void cell(FILE *md, const pfrCase *cr, int m, const pfMetricsCompare *q)
{
    char b[96];
    fprintf(md, "RMS %s", pfr_fmt_err(b, sizeof b, cr, m));
    if (isnan(q->timing))
        fprintf(md, "<br>stick/slip: none");
    else if (isinf(q->timing))
        fprintf(md, "<br>stick/slip: **unmatched** (%d vs %d transitions)", q->trans, q->trans_ref);
    else
        fprintf(md, "<br>stick/slip: worst %.1f ms (%d vs %d)", 1e3 * q->timing, q->trans,
                q->trans_ref);
    if (isfinite(q->energy_drift))
        fprintf(md, "<br>energy drift %.3g %% (final %+.3g %%)", 100 * q->energy_drift,
                100 * q->energy_final);
    else
        fprintf(md, "<br>energy: —");
}

static void write_section(pfrReport *r, FILE *md)
{
    if (!g_any) return;
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
            1e3 * PF_METRICS_MIN_PHASE);
    fprintf(md, "| case | stock | exact / adapter | exact / solver |\n|---|---|---|---|\n");
    for (size_t v = 0; v < NVARYING; ++v) {
        const pfrCase *cr = &g_cr[v];
        if (!g_have[v]) {
            fprintf(md, "| %s %s | not in pf-demo | | |\n", VARYING[v].scene, VARYING[v].cas);
            continue;
        }
        fprintf(md, "| %s `--case %s` | ", cr->scene, cr->cas);
        for (int m = 0; m < 3; ++m) {
            if (!cr->have[PFR_REF])
                fprintf(md, "no reference");
            else if (m == 2 && !r->solver_ok && !r->patched_ok)
                fprintf(md, "n/a — build with `cmake --preset patched`");
            else if (cr->have[m])
                cell(md, cr, m, &g_m[v][m]);
            fprintf(md, " | ");
        }
        fprintf(md, "\n");
    }
    if (!r->solver_ok && r->patched_ok)
        fprintf(md,
                "\nThe stock and adapter columns ran on Debian's ODE; the solver column on the "
                "patched ODE (`%s`, built by the report target).\n",
                r->demo_patched);
    else if (!r->solver_ok)
        fprintf(md,
                "\nThe solver column is empty because this ODE has no in-solver coupling: "
                "`pf-demo ... --set coupling=solver` was refused with: `%s`; and %s.\n",
                g_solver_why, r->patched_why);
    fprintf(md, "\nData: [data/varying_load.csv](data/varying_load.csv). The cases:\n\n");
    for (size_t v = 0; v < NVARYING; ++v)
        if (g_have[v])
            fprintf(md, "- `pf-demo %s --case %s`: %s.\n", VARYING[v].scene, VARYING[v].cas,
                    VARYING[v].what);
    fprintf(md, "\n");
    for (size_t v = 0; v < NVARYING; ++v)
        if (g_have[v])
            fprintf(md, "![%s %s, varying load](plots/%s.png)\n\n", g_cr[v].scene, g_cr[v].cas,
                    pfr_slug(pfr_fmt("varying__%s__%s", g_cr[v].scene, g_cr[v].cas)));
}

const pfrSection pfr_section_varying = {"varying normal load", plan, analyse, write_section};
