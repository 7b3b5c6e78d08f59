/* The comparison: every case of the comparison scenes in the stock, exact and pade friction
 * modes against the reference; the summary table, and (section "scenes") each case's metrics
 * and plots: trajectories, phase portraits, stick/slip timeline. */
#include "report.h"

#include <math.h>
#include <string.h>

static const char *const MODE_COLOR[4] = {"#d62728", "#1f5fbf", "#2ca02c", "#000000"};
/* exact and pade coincide where the Pade model does not apply (rectangles): pade is drawn
 * dashed over a wider exact line, the reference dashed in black on top, so all stay visible */
static const char *const MODE_LW[4] = {"1.5", "3", "1.5", "2"};
static const char *const MODE_DT[4] = {"dt 1", "dt 1", "dt (6,4)", "dt (2,3)"};
#define QUICK_DURATION 1.0 /* --quick: seconds per comparison run */

static const char *mode_title(int m)
{
    return m == PFR_REF ? "reference" : PFR_MODES[m];
}

/* Scenes without friction modes (the dynamic laws): their own sections. */
static int is_law_scene(const char *s)
{
    return !strcmp(s, "friction-rig") || !strcmp(s, "pendulum");
}

/* Multi-body scenes (stack, ...) have no pf-reference counterpart: they are compared with stock
 * friction and with their closed forms in their own section, not in the literature table. The
 * conveyor (surface motion) has none either: its closed forms are held by test_scene_conveyor;
 * skid-steer has its own section (section_skid.c). */
/* The corner (several patches per pair) has none either: test_scene_corner holds its closed
 * form (docs/physics.md P52). */
static int is_patches_scene(const char *s)
{
    return !strcmp(s, "corner");
}

/* The push scene has its own section (section_push.c): its reference gives metrics, not a
 * trajectory. */
static int is_own_section_scene(const char *s)
{
    return !strcmp(s, "push");
}

static int is_multibody_scene(const char *s)
{
    return !strcmp(s, "stack") || !strcmp(s, "bin") || !strcmp(s, "pinch") ||
           !strcmp(s, "conveyor") || !strcmp(s, "skid-steer") || is_patches_scene(s) ||
           is_own_section_scene(s);
}

static void plan(pfrReport *r)
{
    r->cases = pfr_alloc(sizeof *r->cases * PFR_MAX_SCENES * PFR_MAX_CASES);
    double dur = r->quick ? QUICK_DURATION : 0.0;
    for (int i = 0; i < r->nscenes; ++i) {
        const pfrScene *sc = &r->scenes[i];
        if (is_law_scene(sc->name) || is_multibody_scene(sc->name)) continue;
        if (sc->ncases == 0) {
            pfr_note(r, "- scene **%s**: %s lists no cases (not implemented yet); skipped.\n",
                     sc->name, r->how);
            continue;
        }
        int nc = r->quick ? 1 : sc->ncases;
        for (int c = 0; c < nc; ++c) {
            pfrCase *cr = &r->cases[r->ncases++];
            cr->scene = sc->name;
            cr->cas = sc->cases[c];
            for (int m = 0; m < PFR_NMODES; ++m)
                cr->job[m] =
                    pfr_plan_run(r, cr->scene, cr->cas, PFR_MODES[m], PFR_MODES[m], dur, NULL, 0);
            if (!r->have_ref) continue;
            cr->job[PFR_REF] = pfr_plan_run(r, cr->scene, cr->cas, NULL, "reference", dur, NULL, 0);
            if (r->ref_takes_friction && !strcmp(cr->scene, "shaking-table")) {
                cr->ref_pade =
                    pfr_plan_run(r, cr->scene, cr->cas, NULL, "reference-pade", dur, NULL, 0);
                pfr_job_arg(cr->ref_pade, "--friction");
                pfr_job_arg(cr->ref_pade, "pade");
            }
        }
    }
}

/* One panel: column yn against column xn of each run that has them. */
static void panel(FILE *gp, const pfrCase *cr, const char *xn, const char *yn, const char *title)
{
    pfrPlot pl;
    pfr_plot_begin(&pl, ", \\\n     ");
    for (int m = 0; m < 4; ++m) {
        if (!cr->have[m]) continue;
        int xc = pf_trajectory_column(&cr->tab[m], xn), yc = pf_trajectory_column(&cr->tab[m], yn);
        if (xc < 0 || yc < 0) continue;
        pfr_plot_add(&pl, "'%s' every ::1 using %d:%d with lines lw %s lc rgb '%s' %s title '%s'",
                     pfr_rel(cr->job[m]->csv), xc + 1, yc + 1, MODE_LW[m], MODE_COLOR[m],
                     MODE_DT[m], mode_title(m));
    }
    const char *xlabel =
        !strcmp(xn, "t") ? "time t [s]" : pfr_fmt("%s [%s]", xn, pf_metrics_unit(xn));
    pfr_gp_panel(gp, title, xlabel, pfr_fmt("%s [%s]", yn, pf_metrics_unit(yn)),
                 pfr_plot_end(&pl, "NaN notitle"));
}

static void multiplot(FILE *gp, const char *png, int panels, int maxcols, int w, int h,
                      const char *title)
{
    int cols = panels > maxcols ? maxcols : panels, rows = (panels + cols - 1) / cols;
    pfr_gp_header(gp, png, w * cols, 60 + h * rows);
    const char *kv[] = {"ROWS", pfr_fmt("%d", rows), "COLS", pfr_fmt("%d", cols), "TITLE", title,
                        NULL};
    pfr_gp(gp, "multiplot", kv);
}

/* Trajectories: each position coordinate against time, and the x-y path if there is one. */
static void plot_trajectories(FILE *gp, pfrReport *r, pfrCase *cr, const char *stem)
{
    const pfTrajectory *ref = &cr->tab[PFR_REF];
    int xc = pf_trajectory_column(ref, "x"), yc = pf_trajectory_column(ref, "y");
    int has_xy = xc > 0 && yc > 0;
    int panels = cr->npos + has_xy;
    if (panels == 0) return;
    multiplot(
        gp, pfr_fmt("%s/%s_trajectory.png", r->plots, stem), panels, 2, 650, 400,
        pfr_fmt("%s / %s: trajectories (stock, exact, pade vs reference)", cr->scene, cr->cas));
    for (int k = 0; k < cr->npos; ++k) {
        const char *n = ref->cols[cr->pos_col[k]];
        panel(gp, cr, "t", n, pfr_fmt("%s(t)", n));
    }
    if (has_xy) {
        /* equal scales unless the path is long and thin (then they would squash it) */
        double rx = pf_metrics_range(ref, xc), ry = pf_metrics_range(ref, yc);
        if (rx > 0 && ry > 0 && rx < 3 * ry && ry < 3 * rx)
            fprintf(gp, "set size ratio -1\nset xtics rotate by -30\n");
        panel(gp, cr, "x", "y", "path of the mass centre (x, y)");
        fprintf(gp, "set size noratio\n");
    }
    fprintf(gp, "unset multiplot\n");
    cr->plots |= 1;
}

/* Phase portraits: each coordinate against its velocity, and for an inertial pair (x1, x2,
 * z_dot) the relative motion z = x1 - x2, the slip. */
static void plot_phase(FILE *gp, pfrReport *r, pfrCase *cr, const char *stem)
{
    const pfTrajectory *ref = &cr->tab[PFR_REF];
    int ph[8], nph = 0;
    for (int k = 0; k < cr->npos; ++k)
        if (pf_metrics_velocity_of(ref, ref->cols[cr->pos_col[k]]) > 0) ph[nph++] = k;
    int rel_pair = pf_trajectory_column(ref, "x1") > 0 && pf_trajectory_column(ref, "x2") > 0 &&
                   pf_trajectory_column(ref, "z_dot") > 0;
    if (nph == 0) return;
    multiplot(gp, pfr_fmt("%s/%s_phase.png", r->plots, stem), nph + rel_pair, 3, 520, 420,
              pfr_fmt("%s / %s: phase portraits", cr->scene, cr->cas));
    for (int i = 0; i < nph; ++i) {
        const char *n = ref->cols[cr->pos_col[ph[i]]];
        const char *vn = ref->cols[pf_metrics_velocity_of(ref, n)];
        panel(gp, cr, n, vn, pfr_fmt("%s vs %s", vn, n));
    }
    if (rel_pair) {
        pfrPlot pl;
        pfr_plot_begin(&pl, ", \\\n     ");
        for (int m = 0; m < 4; ++m) {
            if (!cr->have[m]) continue;
            const pfTrajectory *tb = &cr->tab[m];
            int a = pf_trajectory_column(tb, "x1"), b = pf_trajectory_column(tb, "x2"),
                c = pf_trajectory_column(tb, "z_dot");
            if (a < 0 || b < 0 || c < 0) continue;
            pfr_plot_add(&pl,
                         "'%s' every ::1 using ($%d-$%d):%d with lines lw %s lc rgb '%s' %s "
                         "title '%s'",
                         pfr_rel(cr->job[m]->csv), a + 1, b + 1, c + 1, MODE_LW[m], MODE_COLOR[m],
                         MODE_DT[m], mode_title(m));
        }
        pfr_gp_panel(gp, "relative motion: z_dot vs z = x1 - x2", "z = x1 - x2 [m]", "z_dot [m/s]",
                     pfr_plot_end(&pl, "NaN notitle"));
    }
    fprintf(gp, "unset multiplot\n");
    cr->plots |= 2;
}

/* Stick/slip timeline: one band per run, high while the state column says stick (1). */
static void plot_stickslip(FILE *gp, pfrReport *r, pfrCase *cr, const char *stem)
{
    const pfTrajectory *ref = &cr->tab[PFR_REF];
    int sc = -1;
    for (int c = 1; c < ref->ncol && sc < 0; ++c)
        if (pf_metrics_is_state(ref->cols[c])) sc = c;
    if (sc < 0) return;
    const char *sn = ref->cols[sc];
    pfr_gp_header(gp, pfr_fmt("%s/%s_stickslip.png", r->plots, stem), 1100, 380);
    static const char *const LABEL[4] = {"stock", "exact", "pade", "reference"};
    pfr_gp_timeline(gp, cr, sn,
                    pfr_fmt("%s / %s: stick/slip timeline (column %s; high = %s = 1, low = 0)",
                            cr->scene, cr->cas, sn, sn),
                    LABEL, MODE_COLOR);
    cr->plots |= 4;
}

static void analyse(pfrReport *r)
{
    FILE *sum = pfr_open_w(pfr_fmt("%s/summary.csv", r->out));
    fprintf(sum, "scene,case,mode,coordinate,rms_abs,rms_rel,wall_time_s\n");
    FILE *met = pfr_open_w(pfr_fmt("%s/metrics.csv", r->out));
    fprintf(met, "scene,case,run,metric,value\n");
    for (int i = 0; i < r->ncases; ++i) {
        pfrCase *cr = &r->cases[i];
        for (int m = 0; m < 4; ++m) {
            if (!cr->job[m]) continue;
            pfr_load_run(cr->job[m], &cr->tab[m], &cr->js[m]);
            cr->have[m] = 1;
            const char *key;
            json_t *v;
            json_object_foreach(cr->js[m], key, v)
            {
                if (json_is_number(v) || json_is_boolean(v) || json_is_null(v))
                    fprintf(met, "%s,%s,%s,%s,%.9g\n", cr->scene, cr->cas, mode_title(m), key,
                            pfr_json_num(v));
            }
        }
        if (cr->have[PFR_REF] && cr->ref_pade) {
            pfrCase own = {.scene = cr->scene, .cas = cr->cas};
            json_t *js;
            pfr_load_run(cr->ref_pade, &own.tab[PFR_REF], &js);
            json_decref(js);
            own.tab[2] = cr->tab[2];
            own.have[2] = own.have[PFR_REF] = 1;
            pfr_case_errors(&own);
            cr->err_pade_own_ok = 1;
            pfr_fmt_err(cr->err_pade_own_txt, sizeof cr->err_pade_own_txt, &own, 2);
        }
        if (cr->have[PFR_REF]) {
            pfr_case_errors(cr);
            for (int m = 0; m < PFR_NMODES; ++m)
                for (int k = 0; k < cr->npos; ++k)
                    fprintf(sum, "%s,%s,%s,%s,%.6g,%.6g,%.3f\n", cr->scene, cr->cas, PFR_MODES[m],
                            cr->tab[PFR_REF].cols[cr->pos_col[k]], cr->err_abs[m][k],
                            cr->err_rel[m][k], cr->job[m]->elapsed);
        } else {
            /* positions from the exact run's columns, so the plots still show the modes */
            cr->tab[PFR_REF] = cr->tab[1];
            cr->npos = pf_metrics_positions(&cr->tab[1], cr->pos_col, 8);
        }
        char *stem = pfr_slug(pfr_fmt("%s__%s", cr->scene, cr->cas));
        char *script = pfr_fmt("%s/%s.gp", r->plots, stem);
        FILE *gp = pfr_open_w(script);
        plot_trajectories(gp, r, cr, stem);
        plot_phase(gp, r, cr, stem);
        plot_stickslip(gp, r, cr, stem);
        fclose(gp);
        pfr_gp_run(script);
    }
    fclose(sum);
    fclose(met);
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

/* The JSON of run m = 0..3 in the order reference, stock, exact, pade (NULL: not run). */
static const json_t *run_json(const pfrCase *cr, int m)
{
    int mm = m == 0 ? PFR_REF : m - 1;
    return cr->have[mm] ? cr->js[mm] : NULL;
}

/* "ref / stock / exact / pade" cell for the keys matching pick(). */
static void metric_cell(FILE *md, const pfrCase *cr, int (*pick)(const char *))
{
    const json_t *base = cr->have[PFR_REF] ? cr->js[PFR_REF] : cr->js[1];
    int any = 0;
    const char *k;
    const json_t *bv;
    json_object_foreach((json_t *)base, k, bv)
    {
        if (!pick(k) || json_is_string(bv)) continue;
        fprintf(md, "%s%s: ", any ? "<br>" : "", k);
        for (int m = 0; m < 4; ++m) {
            const json_t *v = run_json(cr, m) ? json_object_get(run_json(cr, m), k) : NULL;
            char b[32];
            if (json_is_array(v)) {
                snprintf(b, sizeof b, "%zu", json_array_size(v));
                fprintf(md, "%s%s", m ? " / " : "", json_array_size(v) ? b : "none");
            } else
                fprintf(md, "%s%s", m ? " / " : "", pfr_fmt_num(b, sizeof b, pfr_json_num(v)));
        }
        any = 1;
    }
    if (!any) fprintf(md, "—");
}

static void write_summary(pfrReport *r, FILE *md)
{
    fprintf(md, "## Summary: stock, exact and pade friction against the reference\n\n");
    fprintf(md, "Coupling of the exact and pade runs: %s (the default, `AUTO`).\n\n",
            r->solver_ok ? "**solver** (in-solver: this build's ODE has the patch series)"
                         : "**adapter** (this ODE has no patch series)");
    fprintf(md,
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
    for (int i = 0; i < r->ncases; ++i) {
        const pfrCase *cr = &r->cases[i];
        char b0[96], b1[96], b2[96];
        fprintf(md, "| %s | %s | %s | %s | %s%s%s | ", cr->scene, cr->cas,
                pfr_fmt_err(b0, sizeof b0, cr, 0), pfr_fmt_err(b1, sizeof b1, cr, 1),
                pfr_fmt_err(b2, sizeof b2, cr, 2),
                cr->err_pade_own_ok ? "<br>vs the Padé reference: " : "",
                cr->err_pade_own_ok ? cr->err_pade_own_txt : "");
        metric_cell(md, cr, is_breakaway_key);
        fprintf(md, " | ");
        metric_cell(md, cr, is_sync_key);
        fprintf(md, " |\n");
    }
    if (r->ncases == 0) fprintf(md, "| (no comparison scenes built) | | | | | | |\n");
    fprintf(md, "\n");
}

const pfrSection pfr_section_summary = {"summary", plan, analyse, write_summary};

/* Per case: every metric of every run, the errors, the wall times and the plots. */
static void write_scenes(pfrReport *r, FILE *md)
{
    for (int i = 0; i < r->ncases; ++i) {
        const pfrCase *cr = &r->cases[i];
        if (i == 0 || strcmp(cr->scene, r->cases[i - 1].scene))
            fprintf(md, "## Scene %s\n\n", cr->scene);
        fprintf(md, "### %s / %s\n\n", cr->scene, cr->cas);
        char *stem = pfr_slug(pfr_fmt("%s__%s", cr->scene, cr->cas));
        fprintf(md, "| metric | reference | stock | exact | pade |\n|---|---|---|---|---|\n");
        const json_t *base = cr->have[PFR_REF] ? cr->js[PFR_REF] : cr->js[1];
        const char *k;
        const json_t *bv;
        json_object_foreach((json_t *)base, k, bv)
        {
            if (json_is_string(bv) || pfr_is_bookkeeping(k)) continue;
            fprintf(md, "| %s |", k);
            for (int m = 0; m < 4; ++m) {
                const json_t *w = run_json(cr, m) ? json_object_get(run_json(cr, m), k) : NULL;
                char b[32];
                if (json_is_array(w)) {
                    size_t n = json_array_size(w);
                    fprintf(md, " [");
                    for (size_t a = 0; a < n && a < 6; ++a)
                        fprintf(md, "%s%.4g", a ? ", " : "", pfr_json_num(json_array_get(w, a)));
                    fprintf(md, "%s] |", n > 6 ? ", ..." : "");
                } else
                    fprintf(md, " %s |", pfr_fmt_num(b, 32, pfr_json_num(w)));
            }
            fprintf(md, "\n");
        }
        fprintf(md, "| RMS error (largest coordinate) | — |");
        for (int m = 0; m < PFR_NMODES; ++m) {
            char b[96];
            fprintf(md, " %s |", pfr_fmt_err(b, sizeof b, cr, m));
        }
        if (cr->err_pade_own_ok)
            fprintf(md,
                    "\n| RMS error vs the reference solved with the Padé model (P17) | — | — "
                    "| — | %s |",
                    cr->err_pade_own_txt);
        fprintf(md, "\n| wall time [s] | %s |",
                cr->job[PFR_REF] ? pfr_fmt("%.1f", cr->job[PFR_REF]->elapsed) : "—");
        for (int m = 0; m < PFR_NMODES; ++m)
            fprintf(md, " %.1f |", cr->job[m]->elapsed);
        fprintf(md, "\n\n");
        if (cr->plots & 1) fprintf(md, "![trajectories](plots/%s_trajectory.png)\n\n", stem);
        if (cr->plots & 2) fprintf(md, "![phase portraits](plots/%s_phase.png)\n\n", stem);
        if (cr->plots & 4) fprintf(md, "![stick/slip](plots/%s_stickslip.png)\n\n", stem);
        fprintf(md, "CSVs: `runs/%s__{stock,exact,pade,reference}.csv`.\n\n", stem);
    }
}

const pfrSection pfr_section_scenes = {"scenes", NULL, NULL, write_scenes};
