/* pinch scene (scenes/pf_scene_pinch.c): the soft-finger grasp limit (docs/physics.md P40-P42).
 *
 * Independent reference: the limit curve of one Hertz disk, F(c) = mu N T(c) and
 * M(c) = mu N a M_s(c) for an incipient rotation about a point at distance c from the disk
 * centre, by adaptive cubature (libcubature hcubature) of P3/P4 with the Hertz pressure
 * sigma = 3/(2 pi) sqrt(1 - r^2), and a 1-D root solve (GSL Brent) for T(c) = m g/(2 mu N); the
 * largest holding offset is then d* = a M_s(c)/T(c), a from P33 with the materials' E*. Nothing
 * here calls the plugin's core.
 *
 * Asserted:
 *  - the reference itself: M_s(0) = 3 pi/16 (P9), T(c) -> 1 far away, and d* below the estimate
 *    that ignores the weight share (torsion alone at the pure-spin capacity);
 *  - the scene's closed form (offset_limit, from the core's Hertz wrench) equals the reference;
 *  - a held grasp: both normal forces are the grip, and the adapter's Hertz radius is P33's;
 *  - the largest holding offset measured with the LIMIT criterion is within 1 % of d* for the
 *    combinations listed in test_limit_holds, and the bar holds on a grid of offsets below it;
 *  - with the CA criterion it is within 1 % of the torsion-only estimate instead (dWorldStep);
 *  - the tcase `open` asserts the spec where it is not met yet (QuickStep except 2 N at 1 ms,
 *    dWorldStep at 10 N ramped at 1 ms, kinematic fingers); ctest leaves it out
 *    (tests/CMakeLists.txt lists the figures);
 *  - bad keys are refused, naming the key. */
#include "pf_scene.h"

#include <check.h>
#include <ode/ode.h>
#include <cubature.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The scene's data (scenes/pf_scene_pinch.c header comment). */
#define G 9.81
#define BAR_M 0.1
#define TIP_R 0.015
#define TIP_E 1e6
#define TIP_NU 0.45
#define BAR_E 2.1e11
#define BAR_NU 0.3
#define MU 1.0

#define TOL_REF 1e-8   /* relative accuracy of the cubature reference */
#define TOL_LIMIT 0.01 /* the spec's tolerance on the largest holding offset */

/* ------------------------------------------------------------------------------------------ */
/* reference                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Integrands over the upper half disk (the lower half is its mirror image) in the coordinates
 * r = sin(phi), theta: sigma dA = (3/(2 pi)) cos^2(phi) sin(phi) dphi dtheta, smooth up to the
 * rim. The ICR is at (c, 0): the sliding direction at (u, v) is perpendicular to (u - c, v), so
 * the force density along the load is (c - u)/rho and the moment density about the centre
 * (u (u - c) + v^2)/rho, rho = |(u, v) - (c, 0)|. Both are bounded; the ICR, where they jump, is a
 * corner of the sub-domains. */
static int icr_integrand(unsigned ndim, const double *x, void *data, unsigned fdim, double *f)
{
    (void)ndim;
    (void)fdim;
    double c = *(const double *)data, r = sin(x[0]), cp = cos(x[0]);
    double u = r * cos(x[1]), v = r * sin(x[1]), rho = hypot(u - c, v);
    double w = 2.0 * (3.0 / (2.0 * M_PI)) * cp * cp * r;
    if (rho == 0.0) {
        f[0] = f[1] = 0.0;
        return 0;
    }
    f[0] = w * (c - u) / rho;
    f[1] = w * (u * (u - c) + v * v) / rho;
    return 0;
}

/* T(c), M_s(c) (unit disk, unit mu N). */
static void ref_icr(double c, double *T, double *Ms)
{
    double cuts[3] = {0.0, c < 1.0 ? asin(c) : M_PI / 2, M_PI / 2};
    *T = *Ms = 0.0;
    for (int i = 0; i < 2; ++i) {
        if (!(cuts[i + 1] > cuts[i])) continue;
        double lo[2] = {cuts[i], 0.0}, hi[2] = {cuts[i + 1], M_PI}, val[2], errv[2];
        ck_assert_int_eq(hcubature(2, icr_integrand, &c, 2, lo, hi, 0, 1e-14, TOL_REF,
                                   ERROR_INDIVIDUAL, val, errv),
                         0);
        *T += val[0];
        *Ms += val[1];
    }
}

static double ref_t_minus(double c, void *data)
{
    double T, Ms;
    ref_icr(c, &T, &Ms);
    return T - *(const double *)data;
}

static double ref_hertz_radius(double grip)
{
    double estar = 1.0 / ((1.0 - TIP_NU * TIP_NU) / TIP_E + (1.0 - BAR_NU * BAR_NU) / BAR_E);
    return cbrt(3.0 * grip * TIP_R / (4.0 * estar)); /* P33, R* = R (a flat face) */
}

typedef struct Limit {
    double a, c, d_star, d_ca;
} Limit;

/* The largest holding offset: the load ray (m g/2)(1, d) meets the limit curve where
 * T(c) = m g/(2 mu N); d* = a M_s(c)/T(c). d_ca: the torsion m g d/2 at (3 pi/16) mu N a. */
static Limit ref_limit(double grip)
{
    Limit L;
    L.a = ref_hertz_radius(grip);
    double target = 0.5 * BAR_M * G / (MU * grip), hi = 1.0;
    while (ref_t_minus(hi, &target) < 0.0)
        hi *= 2.0;
    gsl_function fn = {ref_t_minus, &target};
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    gsl_root_fsolver_set(s, &fn, 0.0, hi);
    for (int i = 0; i < 200; ++i) {
        gsl_root_fsolver_iterate(s);
        if (gsl_root_test_interval(gsl_root_fsolver_x_lower(s), gsl_root_fsolver_x_upper(s), 1e-13,
                                   1e-11) == GSL_SUCCESS)
            break;
    }
    L.c = gsl_root_fsolver_root(s);
    gsl_root_fsolver_free(s);
    double T, Ms;
    ref_icr(L.c, &T, &Ms);
    L.d_star = L.a * Ms / T;
    L.d_ca = (3.0 * M_PI / 16.0) * MU * grip * L.a / (0.5 * BAR_M * G);
    return L;
}

/* ------------------------------------------------------------------------------------------ */
/* scene runs                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static double metric(const pfSceneMetric *m, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (!strcmp(m[i].name, name)) return m[i].value;
    ck_abort_msg("metric %s missing", name);
    return NAN;
}

/* Runs case cs of pinch (one step for `limit`, to T for `hold`) and copies its metrics to m
 * (PF_SCENE_MAX_METRICS); returns their number. */
static int run_metrics(const char *cs, pfOdeMode mode, double dt, double T, const pfSceneParam *kv,
                       int n, pfSceneMetric *m)
{
    pfScene *s = NULL;
    pfError err;
    int rc = pf_scene_create("pinch", cs, mode, kv, n, &s, &err);
    ck_assert_msg(rc == PF_OK, "%s", err.message);
    do
        ck_assert_msg(pf_scene_step(s, dt, &err) == PF_OK, "%s", err.message);
    while (pf_scene_time(s) < T - 0.5 * dt);
    int nm = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
    pf_scene_destroy(s);
    return nm;
}

/* Runs case cs of pinch (one step for `limit`, to T for `hold`) and returns metric `want`. */
static double run(const char *cs, pfOdeMode mode, double dt, double T, const pfSceneParam *kv,
                  int n, const char *want, double *other, const char *other_name)
{
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int nm = run_metrics(cs, mode, dt, T, kv, n, m);
    if (other) *other = metric(m, nm, other_name);
    return metric(m, nm, want);
}

/* ------------------------------------------------------------------------------------------ */
/* tests                                                                                       */
/* ------------------------------------------------------------------------------------------ */

START_TEST(test_reference_limits)
{
    double T, Ms;
    ref_icr(0.0, &T, &Ms);
    ck_assert_double_eq_tol(T, 0.0, 1e-9);
    ck_assert_double_eq_tol(Ms, 3.0 * M_PI / 16.0, 1e-8);
    ref_icr(1e4, &T, &Ms);
    ck_assert_double_eq_tol(T, 1.0, 1e-6);
    ck_assert_double_eq_tol(Ms, 0.0, 1e-4);
    const double grips[3] = {2.0, 5.0, 10.0};
    for (int i = 0; i < 3; ++i) {
        Limit L = ref_limit(grips[i]);
        printf("pinch N=%g N: a = %.6g m, ICR at c = %.6g a, d* = %.6g m, torsion-only estimate "
               "%.6g m (d*/estimate %.5f)\n",
               grips[i], L.a, L.c, L.d_star, L.d_ca, L.d_star / L.d_ca);
        ck_assert_double_lt(L.d_star, L.d_ca);
    }
}
END_TEST

START_TEST(test_scene_closed_form_is_reference)
{
    const char *grips[3] = {"2", "5", "10"};
    for (int i = 0; i < 3; ++i) {
        pfSceneParam kv[1] = {{"grip", grips[i]}};
        double ca;
        double d = run("hold", PF_ODE_MODE_EXACT, 1e-3, 1e-3, kv, 1, "offset_limit", &ca,
                       "offset_limit_ca");
        Limit L = ref_limit(atof(grips[i]));
        ck_assert_double_eq_tol(d, L.d_star, 1e-6 * L.d_star);
        ck_assert_double_eq_tol(ca, L.d_ca, 1e-9 * L.d_ca);
    }
}
END_TEST

/* The viewer's overlay (pf_scene_overlay) marks the reference d* on the bar, beside the grip. At
 * t = 0 the bar lies at the origin along x, so its frame is the world's. */
START_TEST(test_overlay_marks_reference_limit)
{
    pfSceneParam kv[2] = {{"grip", "5"}, {"offset", "0.012"}};
    pfScene *s = NULL;
    pfError err;
    ck_assert_int_eq(pf_scene_create("pinch", "hold", PF_ODE_MODE_EXACT, kv, 2, &s, &err), PF_OK);
    pfSceneOverlay o[PF_SCENE_MAX_OVERLAY];
    int n = pf_scene_overlay(s, o, PF_SCENE_MAX_OVERLAY), posts = 0, grips = 0;
    Limit L = ref_limit(5.0);
    for (int i = 0; i < n; ++i) {
        if (!strncmp(o[i].label, "d*", 2)) { /* the dashed post at +d* */
            ck_assert_int_eq(o[i].kind, PF_SCENE_OVERLAY_LINE);
            ck_assert_int_eq(o[i].dashed, 1);
            ck_assert_double_eq_tol(o[i].p[0], L.d_star, 1e-6 * L.d_star);
            ck_assert_double_eq_tol(o[i].q[0], L.d_star, 1e-6 * L.d_star);
            posts++;
        }
        if (o[i].kind == PF_SCENE_OVERLAY_POINT) { /* the grip point: the fingertips' x */
            ck_assert_double_eq_tol(o[i].p[0], 0.012, 1e-12);
            grips++;
        }
    }
    ck_assert_int_eq(posts, 1);
    ck_assert_int_eq(grips, 1);
    pf_scene_destroy(s);
    /* the limit case has no bar, so no overlay */
    ck_assert_int_eq(pf_scene_create("pinch", "limit", PF_ODE_MODE_EXACT, NULL, 0, &s, &err),
                     PF_OK);
    ck_assert_int_eq(pf_scene_overlay(s, o, PF_SCENE_MAX_OVERLAY), 0);
    pf_scene_destroy(s);
}
END_TEST

START_TEST(test_hold_grip_and_radius)
{
    pfSceneParam kv[2] = {{"grip", "10"}, {"stepper", "world"}};
    double n2, a;
    double n1 = run("hold", PF_ODE_MODE_EXACT, 1e-3, 1.0, kv, 2, "normal_1", &n2, "normal_2");
    run("hold", PF_ODE_MODE_EXACT, 1e-3, 1.0, kv, 2, "hertz_radius", &a, "hertz_radius");
    ck_assert_double_eq_tol(n1, 10.0, 0.01 * 10.0);
    ck_assert_double_eq_tol(n2, 10.0, 0.01 * 10.0);
    ck_assert_double_eq_tol(a, ref_hertz_radius(10.0), 0.01 * ref_hertz_radius(10.0));
}
END_TEST

/* A bar that falls out of the grasp leaves the fingertips closing on nothing: they stop at their
 * travel (TIP_TRAVEL in the scene) instead of meeting. Two fingertips on motored sliders pressed
 * into each other are a singular set for dWorldStep's Dantzig solver: with ODE's own contacts it
 * logged "LCP internal error" every step at any mu (8 messages in these runs before the stop).
 * Patch friction at 1.08 of the limit (the adapter's coupling, on either ODE: the in-solver
 * coupling of the patched ODE lets the bar swing down but keeps it), and stock friction with a
 * slippery grip, drop the bar. */
START_TEST(test_fallen_bar_leaves_fingers_apart)
{
    const struct {
        pfOdeMode mode;
        const char *mu;
    } runs[2] = {{PF_ODE_MODE_EXACT, "1"}, {PF_ODE_MODE_STOCK, "0.001"}};
    for (int i = 0; i < 2; ++i) {
        pfSceneParam kv[5] = {{"grip", "2"},
                              {"offset", "0.0065"},
                              {"stepper", "world"},
                              {"mu", runs[i].mu},
                              {"coupling", "adapter"}};
        double lcp;
        double slip = run("hold", runs[i].mode, 5e-3, 2.0, kv, 5, "slip", &lcp, "lcp_messages");
        ck_assert_msg(slip > 0.5, "run %d: the bar did not fall out (slip %g m)", i, slip);
        ck_assert_msg(lcp == 0.0, "run %d: %g LCP messages", i, lcp);
    }
}
END_TEST

/* The limit case has no context of its own: it reports the coupling its trial runs used (the
 * one asked for), and none before a trial ran (it said none after the trials too, once). */
START_TEST(test_limit_reports_trial_coupling)
{
    const char *names[2] = {"adapter", "solver"};
    const pfOdeCoupling want[2] = {PF_ODE_COUPLING_ADAPTER, PF_ODE_COUPLING_SOLVER};
    for (int i = 0; i < 2; ++i) {
        if (i == 1 && !pf_ode_solver_coupling_available()) continue;
        pfSceneParam kv[3] = {{"coupling", names[i]}, {"tol", "0.5"}, {"stepper", "world"}};
        pfScene *s = NULL;
        pfError err;
        ck_assert_int_eq(pf_scene_create("pinch", "limit", PF_ODE_MODE_EXACT, kv, 3, &s, &err),
                         PF_OK);
        ck_assert_int_eq(pf_scene_coupling(s), PF_ODE_COUPLING_AUTO);
        ck_assert_msg(pf_scene_step(s, 5e-3, &err) == PF_OK, "%s", err.message);
        ck_assert_int_eq(pf_scene_coupling(s), want[i]);
        ck_assert_str_eq(pf_scene_coupling_name(pf_scene_coupling(s)), names[i]);
        pf_scene_destroy(s);
    }
}
END_TEST

/* Largest holding offset over its closed form: stepper, load, grip, criterion at dt. */
/* largest holding offset / d*; coupling NULL: the scene's default (AUTO); *messages (if not
 * NULL): ODE's messages over the bisection's trials */
static double limit_ratio_coupled(const char *stepper, const char *load, const char *grip,
                                  const char *criterion, double dt, pfOdeMode mode,
                                  const char *coupling, double *messages)
{
    pfSceneParam kv[5] = {{"stepper", stepper},
                          {"load", load},
                          {"grip", grip},
                          {"criterion", criterion},
                          {"coupling", coupling}};
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int nm = run_metrics("limit", mode, dt, dt, kv, coupling ? 5 : 4, m);
    double d = metric(m, nm, "offset_max"), trials = metric(m, nm, "trials");
    double msgs = metric(m, nm, "lcp_messages") + metric(m, nm, "ode_messages");
    if (messages) *messages = msgs;
    Limit L = ref_limit(atof(grip));
    printf("pinch limit %-5s %-6s N=%-2s %-5s %-5s %s dt=%g: largest holding offset %.6g m = %.4f "
           "d* (%g trials, %g ODE messages)\n",
           pf_scene_mode_name(mode), stepper, grip, load, criterion, coupling ? coupling : "", dt,
           d, d / L.d_star, trials, msgs);
    return d / L.d_star;
}

static double limit_ratio(const char *stepper, const char *load, const char *grip,
                          const char *criterion, double dt, pfOdeMode mode)
{
    return limit_ratio_coupled(stepper, load, grip, criterion, dt, mode, NULL, NULL);
}

/* held = 1 at offset f d* (stepper, load, grip, criterion at dt; coupling NULL: the default). */
static int held_at_coupled(const char *stepper, const char *load, const char *grip,
                           const char *criterion, double dt, double f, const char *coupling)
{
    char off[40];
    snprintf(off, sizeof off, "%.17g", f * ref_limit(atof(grip)).d_star);
    pfSceneParam kv[6] = {{"stepper", stepper},     {"load", load},  {"grip", grip},
                          {"criterion", criterion}, {"offset", off}, {"coupling", coupling}};
    return (int)run("hold", PF_ODE_MODE_EXACT, dt, 2.0, kv, coupling ? 6 : 5, "held", NULL, NULL);
}

/* The combinations that hold to the spec: dWorldStep with the LIMIT criterion, sudden and ramped
 * loads, 1 and 5 ms, 2, 5 and 10 N; and QuickStep at 20 iterations at 1 ms for 2, 5 and 10 N and
 * at 5 ms for 2 and 5 N, both loads (the adapter's group test and its spin rows on the held bar,
 * docs/architecture.md), with the adapter's coupling and, on the patched ODE, the in-solver
 * coupling (whose held members on the fingertips' sliders take the adapter's stuck rows). The
 * bisection's answer is within 1 % of d*, and so that it is not a lucky path through a
 * non-monotonic verdict, the bar also holds at every offset of a grid up to 0.99 d* and lets go at
 * 1.01 d*. */
static void check_limit_holds(const char *stepper, double dt, const char *load, const char *grip,
                              const char *coupling)
{
    static const double grid[] = {0.1, 0.3, 0.5, 0.7, 0.9, 0.99};
    double msgs;
    double r =
        limit_ratio_coupled(stepper, load, grip, "limit", dt, PF_ODE_MODE_EXACT, coupling, &msgs);
    ck_assert_double_eq_tol(r, 1.0, TOL_LIMIT);
    ck_assert_msg(msgs == 0.0, "%g ODE messages in the bisection (%s, %s, N = %s, dt = %g)", msgs,
                  stepper, load, grip, dt);
    for (size_t g = 0; g < sizeof grid / sizeof *grid; ++g)
        ck_assert_msg(held_at_coupled(stepper, load, grip, "limit", dt, grid[g], coupling),
                      "dropped at %g d* (%s, %s, N = %s, dt = %g, coupling %s)", grid[g], stepper,
                      load, grip, dt, coupling ? coupling : "default");
    ck_assert(!held_at_coupled(stepper, load, grip, "limit", dt, 1.0 + TOL_LIMIT, coupling));
}

START_TEST(test_limit_holds)
{
    /* coupling NULL: the default (the in-solver coupling on the patched ODE); the QuickStep
     * cells name each coupling */
    static const struct {
        const char *stepper;
        double dt;
        const char *load, *grip, *coupling;
    } ok[] = {{"world", 1e-3, "ramp", "2", NULL},       {"world", 1e-3, "ramp", "5", NULL},
              {"world", 1e-3, "ramp", "10", NULL},      {"world", 1e-3, "sudden", "2", NULL},
              {"world", 1e-3, "sudden", "5", NULL},     {"world", 1e-3, "sudden", "10", NULL},
              {"world", 5e-3, "ramp", "2", NULL},       {"world", 5e-3, "ramp", "5", NULL},
              {"world", 5e-3, "ramp", "10", NULL},      {"world", 5e-3, "sudden", "2", NULL},
              {"world", 5e-3, "sudden", "5", NULL},     {"world", 5e-3, "sudden", "10", NULL},
              {"quick", 1e-3, "ramp", "2", "adapter"},  {"quick", 1e-3, "sudden", "2", "adapter"},
              {"quick", 1e-3, "ramp", "5", "adapter"},  {"quick", 1e-3, "sudden", "5", "adapter"},
              {"quick", 1e-3, "ramp", "10", "adapter"}, {"quick", 1e-3, "sudden", "10", "adapter"},
              {"quick", 5e-3, "ramp", "2", "adapter"},  {"quick", 5e-3, "sudden", "2", "adapter"},
              {"quick", 5e-3, "ramp", "5", "adapter"},  {"quick", 5e-3, "sudden", "5", "adapter"}};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; ++i) {
        check_limit_holds(ok[i].stepper, ok[i].dt, ok[i].load, ok[i].grip, ok[i].coupling);
        if (ok[i].coupling && dCheckConfiguration("ODE_EXT_patch_friction"))
            check_limit_holds(ok[i].stepper, ok[i].dt, ok[i].load, ok[i].grip, "solver");
    }
}
END_TEST

/* The CA criterion, with the rows' separate bounds, holds up to the torsion-only estimate d_CA,
 * past d* (by 4.6 % at 2 N): it ignores the weight share. dWorldStep, where the adapter meets
 * the limit; 2 and 5 N; the adapter's coupling. The in-solver coupling's figure is printed, not
 * asserted: it holds the bar to the widest offset tried, 2 d_CA (an open defect: with CA the
 * solver's callback falls back to the limit-set projection when the adapter's CA test fails). */
START_TEST(test_ca_holds_to_torsion_only)
{
    const char *grips[2] = {"2", "5"};
    const double dts[2] = {1e-3, 5e-3};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            Limit L = ref_limit(atof(grips[i]));
            double r = limit_ratio_coupled("world", "sudden", grips[i], "ca", dts[j],
                                           PF_ODE_MODE_EXACT, "adapter", NULL);
            ck_assert_double_eq_tol(r * L.d_star / L.d_ca, 1.0, TOL_LIMIT);
            if (dCheckConfiguration("ODE_EXT_patch_friction"))
                limit_ratio_coupled("world", "sudden", grips[i], "ca", dts[j], PF_ODE_MODE_EXACT,
                                    "solver", NULL);
        }
}
END_TEST

/* What does not meet the spec yet (tests/CMakeLists.txt lists the figures); run with
 * CK_RUN_CASE=open build/tests/test_scene_pinch. */
START_TEST(test_open_quick_limit)
{
    const char *loads[2] = {"ramp", "sudden"};
    int bad = 0;
    for (int l = 0; l < 2; ++l) {
        double r = limit_ratio("quick", loads[l], "10", "limit", 5e-3, PF_ODE_MODE_EXACT);
        bad += fabs(r - 1.0) > TOL_LIMIT;
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_open_kinematic_fingers)
{
    pfSceneParam kv[3] = {{"fingers", "kinematic"}, {"stepper", "world"}, {"grip", "5"}};
    double trials;
    double d = run("limit", PF_ODE_MODE_EXACT, 1e-3, 1e-3, kv, 3, "offset_max", &trials, "trials");
    printf("pinch limit kinematic fingers world N=5 sudden limit dt=0.001: largest holding offset "
           "%.6g m = %.4f d*\n",
           d, d / ref_limit(5.0).d_star);
    ck_assert_double_eq_tol(d / ref_limit(5.0).d_star, 1.0, TOL_LIMIT);
}
END_TEST

START_TEST(test_bad_keys_are_refused)
{
    const pfSceneParam bad[5][1] = {{{"fingers", "glued"}},
                                    {{"load", "slow"}},
                                    {{"criterion", "energy"}},
                                    {{"grip", "-1"}},
                                    {{"seed", "1.5"}}};
    const char *names[5] = {"fingers=glued", "load=slow", "criterion=energy", "grip=-1",
                            "seed=1.5"};
    for (int i = 0; i < 5; ++i) {
        pfScene *s = NULL;
        pfError err;
        ck_assert_int_eq(pf_scene_create("pinch", "hold", PF_ODE_MODE_EXACT, bad[i], 1, &s, &err),
                         PF_ERR_RANGE);
        ck_assert_ptr_null(s);
        ck_assert_ptr_nonnull(strstr(err.message, names[i]));
    }
}
END_TEST

int main(void)
{
    gsl_set_error_handler_off();
    Suite *su = suite_create("scene_pinch");
    TCase *tc = tcase_create("pinch");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, test_bad_keys_are_refused);
    tcase_add_test(tc, test_reference_limits);
    tcase_add_test(tc, test_scene_closed_form_is_reference);
    tcase_add_test(tc, test_overlay_marks_reference_limit);
    tcase_add_test(tc, test_hold_grip_and_radius);
    tcase_add_test(tc, test_limit_reports_trial_coupling);
    tcase_add_test(tc, test_fallen_bar_leaves_fingers_apart);
    tcase_add_test(tc, test_limit_holds);
    tcase_add_test(tc, test_ca_holds_to_torsion_only);
    suite_add_tcase(su, tc);
    TCase *open = tcase_create("open");
    tcase_set_timeout(open, 600);
    tcase_add_test(open, test_open_quick_limit);
    tcase_add_test(open, test_open_kinematic_fingers);
    suite_add_tcase(su, open);
    SRunner *sr = srunner_create(su);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
