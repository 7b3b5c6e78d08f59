/* Varying-normal-load cases (shaking-table vertical, sliding-blocks slope-drop, coupled-masses
 * vertical) against their references (tests/support/pf_ref_varying.c), with the metrics of
 * pf-report's "Varying normal load" section (pf_metrics_compare, scenes/pf_metrics.h): RMS
 * position error relative to the reference's range, worst stick/slip timing error, energy drift.
 *
 * ADAPTER coupling runs in every build. SOLVER coupling needs the patched ODE: the solver tests
 * are registered only when pf_ode_solver_coupling_available() is 1; otherwise main() says so on
 * stdout and the suite has test_solver_refused in their place (which checks the refusal). */
#include "pf_metrics.h"
#include "pf_ref_varying.h"
#include "scene_compare.h"
#include "pf_test_support.h"

#include "pf_ref_quad.h"

/* Figures measured with the default build (ODE 0.16.2 unpatched, ADAPTER coupling, the scenes'
 * default dt and duration; printed by this test and by pf-report):
 *                            RMS (coordinate)  worst timing   energy drift
 *   shaking-table vertical   0.0130 % (y)      -              0.049 %
 *   slope-drop               36.6 % (theta)    74 ms          14.4 %
 *   coupled-masses vertical  0.113 % (x2)      5 ms (63/63)   0.226 %
 * Each tolerance is the measured figure times the margin stated with it. */

/* shaking-table vertical. The excitation-1 scene test allows 1 % RMS for the fixed load; with the
 * load swinging between 0.36 and 1.64 N_0 the adapter's one-step lag (omega_z dt = 0.04 rad)
 * costs little at dt = 5e-5. Margin 4x for dt-level effects and platform rounding. */
#define TV_RMS_TOL 5e-4
#define TV_ENERGY_TOL 2e-3

/* slope-drop. The adapter lags at the impact: the landing step uses the first-contact estimate
 * N0 = m v_n / dt (right), but the step after it bounds friction with the impact's normal force
 * (about 30x the weight) once more: a second friction impulse of about mu m v_n, the block loses
 * another third of its speed and spin (0.21 -> 0.14 m/s, 16 -> 12 rad/s at t = 34 ms) and stops
 * 74 ms early. These tolerances bound that known defect (1.25x the measured figures), so a
 * regression beyond it fails; the solver coupling's fix is asserted by the solver tests. */
#define SD_RMS_TOL 0.46
#define SD_TIMING_TOL 0.093 /* [s] */
#define SD_ENERGY_TOL 0.18
#define SD_LANDING_TOL                                                                             \
    1.001e-3 /* [s]: one step (the contact acts from the step after the gap                        \
                closes; the scene interpolates the crossing linearly) */

/* coupled-masses vertical: 63 stick/slip transitions in 5 s. The stick case's tests allow 1 % RMS
 * and 5 ms on the first stick. Timing: the scene's stick column is |z_dot| < 1e-4 sampled every
 * 1 ms against exact events, so each transition is late by up to a step plus the time z_dot takes
 * to cross the threshold (measured worst 5 ms): 12 ms (2.4x). RMS and energy: 4.4x. */
#define CV_RMS_TOL 5e-3
#define CV_TIMING_TOL 0.012 /* [s] */
#define CV_ENERGY_TOL 1e-2

/* SOLVER vs ADAPTER: at least as accurate on every metric up to a rounding margin (relative, plus
 * one step for timings), and clearly (SOLVER_GAIN times) more accurate on every metric of the
 * impact case, where the adapter's lag is a whole friction impulse. On the two vibrating cases the
 * lag is one step of a smooth load (omega dt = 0.04 and 0.06) and both couplings are first order
 * in dt, so which one lands closer at one vibration frequency depends on how the lag's error and
 * the step's other first-order errors happen to combine: at the default 60 rad/s of the coupled
 * pair the adapter is 10 % closer (RMS 0.113 % vs 0.125 %, and stock ODE, whose dContactApprox1
 * bound uses the same step's normal impulse like the solver, gives 0.125 % too), at 40, 80 and
 * 120 rad/s the solver is closer (0.105 vs 0.210, 0.145 vs 0.279, 0.145 vs 0.153 %). So the
 * vibrating cases are compared over a sweep of vibration frequencies (VIB_OMEGAS times the
 * default, A_z omega_z^2 = 0.6 g kept): the mean of each metric over the sweep must not be worse
 * than the adapter's (SOLVER_MARGIN), and every frequency's figures are printed. */
#define SOLVER_MARGIN 0.05
#define SOLVER_GAIN 2.0
static const double VIB_OMEGAS[4] = {2.0 / 3.0, 1.0, 4.0 / 3.0, 2.0};

typedef struct Case {
    const char *scene, *cas;
    double T, dt;
} Case;

static const Case TV = {"shaking-table", "vertical", 1.0, 5e-5};
static const Case SD = {"sliding-blocks", "slope-drop", 0.6, 1e-3};
static const Case CV = {"coupled-masses", "vertical", 5.0, 1e-3};

static void reference(const Case *c, pfRefResult *r)
{
    if (!strcmp(c->cas, "slope-drop")) {
        pfRefSlopeDrop p;
        pf_ref_slope_drop_default(&p);
        ck_assert_int_eq(pf_ref_slope_drop_run(&p, c->T, c->dt, r), 0);
    } else if (!strcmp(c->scene, "coupled-masses")) {
        pfRefCoupledVertical p;
        pf_ref_coupled_vertical_default(&p);
        ck_assert_int_eq(pf_ref_coupled_vertical_run(&p, c->T, c->dt, r), 0);
    } else {
        pfRefTableVertical p;
        pf_ref_table_vertical_default(&p);
        ck_assert_int_eq(pf_ref_table_vertical_run(&p, c->T, c->dt, r), 0);
    }
}

static pfMetricsCompare run_compare(const Case *c, const pfRefResult *ref, pfOdeMode mode,
                                    const char *coupling, SceneRun *out)
{
    pfSceneParam kv[1] = {{"coupling", coupling}};
    scene_run(out, c->scene, c->cas, mode, kv, coupling ? 1 : 0, c->T, c->dt);
    pfTrajectory tr = {out->ncol, out->cols, out->n, out->rows};
    pfTrajectory rt = {ref->ncol, ref->cols, ref->n, ref->rows};
    pfMetricsCompare m = pf_metrics_compare(&tr, &rt, PF_METRICS_MIN_PHASE);
    printf("%s %-10s %-5s %-7s: RMS %.4f %% (%s), timing %.4g s (%d vs %d transitions), energy "
           "drift %.4f %% (final %+.4f %%)\n",
           c->scene, c->cas, mode_name(mode), coupling ? coupling : "auto", 100 * m.rms,
           m.rms_col >= 0 ? ref->cols[m.rms_col] : "-", m.timing, m.trans, m.trans_ref,
           100 * m.energy_drift, 100 * m.energy_final);
    return m;
}

static void figures_and_adapter(const Case *c, double rms_tol, double timing_tol, double e_tol)
{
    pfRefResult ref;
    reference(c, &ref);
    SceneRun s;
    run_compare(c, &ref, PF_ODE_MODE_STOCK, NULL, &s); /* figure only */
    scene_run_free(&s);
    pfMetricsCompare a = run_compare(c, &ref, PF_ODE_MODE_EXACT, "adapter", &s);
    ck_assert_msg(a.rms < rms_tol, "%s: RMS %g >= %g", c->cas, a.rms, rms_tol);
    if (timing_tol > 0)
        ck_assert_msg(a.timing < timing_tol, "%s: timing %g s >= %g", c->cas, a.timing, timing_tol);
    ck_assert_msg(a.energy_drift < e_tol, "%s: energy drift %g >= %g", c->cas, a.energy_drift,
                  e_tol);
    if (!strcmp(c->cas, "slope-drop")) {
        double tl = scene_metric(&s, "landing_time"), tr = pf_ref_metric(&ref, "landing_time");
        ck_assert_msg(fabs(tl - tr) < SD_LANDING_TOL, "landing %g vs %g", tl, tr);
    }
    scene_run_free(&s);
    pf_ref_result_free(&ref);
}

START_TEST(test_table_vertical_adapter)
{
    figures_and_adapter(&TV, TV_RMS_TOL, 0.0, TV_ENERGY_TOL);
}
END_TEST

START_TEST(test_slope_drop_adapter)
{
    figures_and_adapter(&SD, SD_RMS_TOL, SD_TIMING_TOL, SD_ENERGY_TOL);
}
END_TEST

START_TEST(test_coupled_vertical_adapter)
{
    figures_and_adapter(&CV, CV_RMS_TOL, CV_TIMING_TOL, CV_ENERGY_TOL);
}
END_TEST

/* SOLVER at least as accurate as ADAPTER on every metric; clearly better on the impact case.
 * Registered only when the patched solver is available. */
static void assert_not_worse(const char *what, double solver, double adapter, double slack)
{
    if (!isfinite(solver) && !isfinite(adapter)) return;
    ck_assert_msg(solver <= adapter * (1 + SOLVER_MARGIN) + slack, "%s: solver %g, adapter %g",
                  what, solver, adapter);
}

static void solver_vs_adapter(const Case *c)
{
    pfRefResult ref;
    reference(c, &ref);
    SceneRun s;
    pfMetricsCompare a = run_compare(c, &ref, PF_ODE_MODE_EXACT, "adapter", &s);
    scene_run_free(&s);
    pfMetricsCompare v = run_compare(c, &ref, PF_ODE_MODE_EXACT, "solver", &s);
    scene_run_free(&s);
    assert_not_worse("RMS", v.rms, a.rms, 0.0);
    assert_not_worse("timing", v.timing, a.timing, c->dt);
    assert_not_worse("energy drift", v.energy_drift, a.energy_drift, 0.0);
    ck_assert_msg(v.rms * SOLVER_GAIN <= a.rms, "slope-drop RMS: solver %g, adapter %g", v.rms,
                  a.rms);
    ck_assert_msg(v.timing * SOLVER_GAIN <= a.timing, "slope-drop timing: solver %g, adapter %g",
                  v.timing, a.timing);
    ck_assert_msg(v.energy_drift * SOLVER_GAIN <= a.energy_drift,
                  "slope-drop energy drift: solver %g, adapter %g", v.energy_drift, a.energy_drift);
    pf_ref_result_free(&ref);
}

/* The vibrating cases over the frequency sweep (see SOLVER_MARGIN): per frequency the reference
 * and both couplings, then the sweep means. */
static void solver_vs_adapter_sweep(const Case *c)
{
    const int table = !strcmp(c->scene, "shaking-table");
    double sum_a[3] = {0, 0, 0}, sum_v[3] = {0, 0, 0};
    int nt = 0;
    for (int i = 0; i < 4; ++i) {
        pfRefResult ref;
        double wz, az;
        char ws[32], as[32];
        if (table) {
            pfRefTableVertical p;
            pf_ref_table_vertical_default(&p);
            wz = p.wz * VIB_OMEGAS[i];
            az = p.az * p.wz * p.wz / (wz * wz);
            p.wz = wz;
            p.az = az;
            ck_assert_int_eq(pf_ref_table_vertical_run(&p, c->T, c->dt, &ref), 0);
        } else {
            pfRefCoupledVertical p;
            pf_ref_coupled_vertical_default(&p);
            wz = p.wz * VIB_OMEGAS[i];
            az = p.az * p.wz * p.wz / (wz * wz);
            p.wz = wz;
            p.az = az;
            ck_assert_int_eq(pf_ref_coupled_vertical_run(&p, c->T, c->dt, &ref), 0);
        }
        snprintf(ws, sizeof ws, "%.17g", wz);
        snprintf(as, sizeof as, "%.17g", az);
        pfMetricsCompare m[2];
        for (int k = 0; k < 2; ++k) {
            pfSceneParam kv[3] = {
                {"coupling", k ? "solver" : "adapter"}, {"omega_z", ws}, {"A_z", as}};
            SceneRun s;
            scene_run(&s, c->scene, c->cas, PF_ODE_MODE_EXACT, kv, 3, c->T, c->dt);
            pfTrajectory tr = {s.ncol, s.cols, s.n, s.rows};
            pfTrajectory rt = {ref.ncol, ref.cols, ref.n, ref.rows};
            m[k] = pf_metrics_compare(&tr, &rt, PF_METRICS_MIN_PHASE);
            scene_run_free(&s);
        }
        printf("%s %s omega_z %.1f rad/s: RMS adapter %.4f %% solver %.4f %%, timing adapter %.4g "
               "s solver %.4g s, energy drift adapter %.4f %% solver %.4f %%\n",
               c->scene, c->cas, wz, 100 * m[0].rms, 100 * m[1].rms, m[0].timing, m[1].timing,
               100 * m[0].energy_drift, 100 * m[1].energy_drift);
        sum_a[0] += m[0].rms;
        sum_v[0] += m[1].rms;
        if (isfinite(m[0].timing) && isfinite(m[1].timing)) {
            sum_a[1] += m[0].timing;
            sum_v[1] += m[1].timing;
            ++nt;
        }
        sum_a[2] += m[0].energy_drift;
        sum_v[2] += m[1].energy_drift;
        pf_ref_result_free(&ref);
    }
    printf("%s %s sweep means: RMS adapter %.4f %% solver %.4f %%, timing adapter %.4g s solver "
           "%.4g s (%d frequencies), energy drift adapter %.4f %% solver %.4f %%\n",
           c->scene, c->cas, 25 * sum_a[0], 25 * sum_v[0], nt ? sum_a[1] / nt : NAN,
           nt ? sum_v[1] / nt : NAN, nt, 25 * sum_a[2], 25 * sum_v[2]);
    if (table) {
        /* The ball's position error is not smaller with the solver (sweep mean 0.0123 % vs
         * 0.0117 %, worst at 533 rad/s: 0.0110 % vs 0.0090 %): the error is mostly a difference
         * between the ODE ball and the reference's model that neither coupling touches, and it
         * does not shrink with dt (excitation-1 at fixed load, final x below the reference:
         * adapter 9.3e-5 / 1.24e-4 m, solver 6.2e-5 / 1.16e-4 m at dt = 1e-4 / 2.5e-5); what
         * remains differs by first-order terms. Asserted: the solver's sweep mean meets the
         * adapter's bound (TV_RMS_TOL, above); its energy drift is not worse (below). */
        ck_assert_msg(sum_v[0] / 4 < TV_RMS_TOL, "sweep mean RMS: solver %g", sum_v[0] / 4);
    } else {
        assert_not_worse("sweep mean RMS", sum_v[0] / 4, sum_a[0] / 4, 0.0);
    }
    if (nt) assert_not_worse("sweep mean timing", sum_v[1] / nt, sum_a[1] / nt, c->dt);
    assert_not_worse("sweep mean energy drift", sum_v[2] / 4, sum_a[2] / 4, 0.0);
}

START_TEST(test_table_vertical_solver)
{
    solver_vs_adapter_sweep(&TV);
}
END_TEST

START_TEST(test_slope_drop_solver)
{
    solver_vs_adapter(&SD);
}
END_TEST

START_TEST(test_coupled_vertical_solver)
{
    solver_vs_adapter_sweep(&CV);
}
END_TEST

/* On an ODE without the patch series, coupling=solver is refused with the adapter's message,
 * which names the field `coupling`; the default coupling resolves to the adapter. */
START_TEST(test_solver_refused)
{
    ck_assert_int_eq(pf_ode_solver_coupling_available(), 0);
    static const char *const scenes[3][2] = {{"shaking-table", "vertical"},
                                             {"sliding-blocks", "slope-drop"},
                                             {"coupled-masses", "vertical"}};
    for (int i = 0; i < 3; ++i) {
        pfError err;
        memset(&err, 0, sizeof err);
        pfSceneParam kv[1] = {{"coupling", "solver"}};
        pfScene *s = NULL;
        ck_assert_int_ne(
            pf_scene_create(scenes[i][0], scenes[i][1], PF_ODE_MODE_EXACT, kv, 1, &s, &err), PF_OK);
        ck_assert_ptr_null(s);
        ck_assert_msg(strstr(err.message, "coupling") != NULL, "message: %s", err.message);
        ck_assert_int_ne(err.status, PF_OK);
        ck_assert_int_eq(
            pf_scene_create(scenes[i][0], scenes[i][1], PF_ODE_MODE_EXACT, NULL, 0, &s, &err),
            PF_OK);
        ck_assert_ptr_nonnull(s);
        ck_assert_int_eq(pf_scene_coupling(s), PF_ODE_COUPLING_ADAPTER);
        pf_scene_destroy(s);
    }
    pfError err;
    pfSceneParam bad[1] = {{"coupling", "magic"}};
    ck_assert_int_ne(pf_scene_create("coupled-masses", NULL, PF_ODE_MODE_EXACT, bad, 1,
                                     &(pfScene *){NULL}, &err),
                     PF_OK);
    ck_assert_ptr_nonnull(strstr(err.message, "coupling=magic"));
}
END_TEST

/* The references: the coupled-masses vertical one's energy never increases; slope-drop lands at
 * sqrt(2 drop / (g cos slope)) and its energy never increases; its rectangle wrench agrees with
 * the adaptive cubature of P3 (pf_ref_quad). (The vertical references at A_z = 0 are the
 * fixed-load ones by construction: pf_ref_scenes.c integrates both, so no check compares them.) */
START_TEST(test_references)
{
    pfRefResult a;
    pfRefCoupledVertical cv;
    /* with vibration: the energy P21 defines never increases (dE/dt = -b(t) |z_dot|) */
    pf_ref_coupled_vertical_default(&cv);
    ck_assert_int_eq(pf_ref_coupled_vertical_run(&cv, 5.0, 1e-3, &a), 0);
    ck_assert_double_le(pf_ref_metric(&a, "max_energy_increase"), 1e-15);
    ck_assert_int_gt(a.switches, 10);
    pf_ref_result_free(&a);

    pfRefSlopeDrop sd;
    pf_ref_slope_drop_default(&sd);
    ck_assert_int_eq(pf_ref_slope_drop_run(&sd, 0.6, 1e-3, &a), 0);
    ck_assert_double_eq_tol(pf_ref_metric(&a, "landing_time"),
                            sqrt(2 * sd.drop / (sd.g * cos(sd.slope))), 1e-15);
    int ec = pf_ref_column(&a, "energy");
    for (long i = 1; i < a.n; ++i)
        ck_assert_double_le(a.rows[i * a.ncol + ec], a.rows[(i - 1) * a.ncol + ec] + 1e-15);
    ck_assert(isfinite(pf_ref_metric(&a, "stop_time_translation")));
    pf_ref_result_free(&a);

    pfRefRegion reg = pf_ref_rect_region(sd.L, sd.W);
    static const double tw[][3] = {{0.1, 0.05, 3.0}, {0.0, 0.0, -2.0}, {0.3, -0.2, 0.0},
                                   {0.2, 0.1, 0.01}, {0.0, 0.3, 1e-4}, {-0.05, 0.02, 40.0}};
    for (size_t i = 0; i < sizeof tw / sizeof tw[0]; ++i) {
        double mine[3];
        pfWrench cub;
        pf_ref_rect_wrench(sd.L, sd.W, 0.4, 0.2, tw[i][0], tw[i][1], tw[i][2], mine);
        ck_assert_int_eq(
            pf_ref_wrench(&reg, 0.4, 0.2, (pfTwist){tw[i][0], tw[i][1], tw[i][2]}, &cub), 0);
        double size = pf_ref_region_size(&reg);
        ck_assert_double_eq_tol(mine[0], cub.fx, 1e-11 * 0.08);
        ck_assert_double_eq_tol(mine[1], cub.fy, 1e-11 * 0.08);
        ck_assert_double_eq_tol(mine[2], cub.mz, 1e-11 * 0.08 * size);
    }
}
END_TEST

static Suite *suite(int solver)
{
    Suite *s = suite_create("scene_varying_load");
    TCase *tc = tcase_create("adapter");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_references);
    tcase_add_test(tc, test_table_vertical_adapter);
    tcase_add_test(tc, test_slope_drop_adapter);
    tcase_add_test(tc, test_coupled_vertical_adapter);
    suite_add_tcase(s, tc);
    TCase *ts = tcase_create("solver");
    tcase_set_timeout(ts, 600);
    if (solver) {
        tcase_add_test(ts, test_table_vertical_solver);
        tcase_add_test(ts, test_slope_drop_solver);
        tcase_add_test(ts, test_coupled_vertical_solver);
    } else {
        tcase_add_test(ts, test_solver_refused);
    }
    suite_add_tcase(s, ts);
    return s;
}

int main(void)
{
    int solver = pf_ode_solver_coupling_available();
    if (!solver)
        printf("scene_varying_load: NOTE: this ODE has no patchfriction solver coupling "
               "(pf_ode_solver_coupling_available() = 0): the SOLVER-vs-ADAPTER tests are NOT "
               "registered and did not run; build with `cmake --preset patched` to run them\n");
    return pf_test_run_suite(suite(solver));
}
