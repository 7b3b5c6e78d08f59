/* corner scene (scenes/pf_scene_corner.c): a 1 kg box in the concave corner of one trimesh (floor
 * and wall in one geom), pressed into the wall with P = 2.5 N and pushed along it, mu_s = 0.6,
 * mu_k = 0.5, under dWorldStep and dWorldQuickStep (20 iterations) at dt = 1 ms:
 *  - the box-corner pair has two patches, a floor patch of normal +z and a wall patch of normal +x
 *    (exact to rounding), and the floor patch keeps its slot at every step;
 *  - it slides along the wall at the closed-form acceleration (F - mu_k (m g + P)) / m within 1 %
 *    (measured after the ramp: 1.23500008 vs 1.235 m/s^2 under both steppers; pushed at once
 *    with 1.05 mu_s (m g + P) = 7.755 N: 1.5943 vs 1.6003, -0.4 %), touching the wall, not
 *    turning;
 *  - ramped at 5 N/s it holds to mu_s (m g + P) = 7.386 N within 1 % under both steppers
 *    (measured 7.385 N, -0.01 %); one averaged patch slid at 4-6 N;
 *  - pushed at once with 0.99 mu_s (m g + P) it holds (travel <= 1e-6 m), with 1.01 it slides,
 *    under both steppers;
 *  - stock friction's figures are printed for comparison.
 * docs/physics.md §8.3 (P51a, P52) and docs/architecture.md (held groups) say how. */
#include "pf_scene.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT 1e-3
#define G 9.81
#define MASS 1.0
#define PRESS 2.5
#define MU_S 0.6
#define ACCEL_TOL 0.01  /* relative, against the closed form */
#define HOLD_TOL 0.01   /* relative, against the closed form */
#define NORMAL_TOL 1e-6 /* [rad] */
#define GAP_TOL 1e-6    /* [m] the box leaves the wall by at most this */
#define TILT_TOL 1e-4   /* [rad] */

static double metric(const pfSceneMetric *m, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (!strcmp(m[i].name, name)) return m[i].value;
    ck_abort_msg("metric %s missing", name);
    return NAN;
}

static int run(const char *cs, pfOdeMode mode, const char *stepper, const char *ratio,
               pfSceneMetric *m)
{
    /* the adapter coupling's figures (on the patched ODE too): the in-solver coupling has no
     * sibling row rule yet (P51a; tests/CMakeLists.txt) */
    pfSceneParam kv[3] = {{"coupling", "adapter"}, {"stepper", stepper}, {"ratio", ratio}};
    pfScene *s = NULL;
    pfError err;
    int rc = pf_scene_create("corner", cs, mode, kv, ratio ? 3 : 2, &s, &err);
    ck_assert_msg(rc == PF_OK, "%s", err.message);
    const double t_end = pf_scene_default_duration(s);
    while (pf_scene_time(s) < t_end - 0.5 * DT)
        ck_assert_int_eq(pf_scene_step(s, DT, &err), PF_OK);
    int n = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
    pf_scene_destroy(s);
    return n;
}

static const char *const steppers[2] = {"quick", "world"};

START_TEST(two_patches_slide_at_closed_form)
{
    for (int q = 0; q < 2; ++q) {
        pfSceneMetric m[PF_SCENE_MAX_METRICS];
        int n = run("ramp", PF_ODE_MODE_EXACT, steppers[q], NULL, m);
        const double hold = metric(m, n, "hold_max"), hold0 = metric(m, n, "hold_closed_form");
        const double a = metric(m, n, "accel"), a0 = metric(m, n, "accel_closed_form");
        printf("corner ramp %-5s exact: holds to %.4g N (closed form %.4g N, %+.1f %%), slides"
               " under %.4g N at %.9g m/s^2 (closed form %.9g), patches %g..%g, normal errors"
               " %.2g / %.2g rad, slot changes %g, wall gap %.2g m, tilt %.2g rad\n",
               steppers[q], hold, hold0, 100.0 * (hold / hold0 - 1.0), metric(m, n, "push"), a, a0,
               metric(m, n, "pair_patches_min"), metric(m, n, "pair_patches_max"),
               metric(m, n, "floor_normal_error"), metric(m, n, "wall_normal_error"),
               metric(m, n, "slot_changes"), metric(m, n, "wall_gap"), metric(m, n, "tilt"));
        ck_assert_double_eq(metric(m, n, "pair_patches_min"), 2.0);
        ck_assert_double_eq(metric(m, n, "pair_patches_max"), 2.0);
        ck_assert_double_le(metric(m, n, "floor_normal_error"), NORMAL_TOL);
        ck_assert_double_le(metric(m, n, "wall_normal_error"), NORMAL_TOL);
        ck_assert_double_eq(metric(m, n, "slot_changes"), 0.0);
        ck_assert_double_eq(metric(m, n, "sliding"), 1.0);
        ck_assert_double_eq_tol(a, a0, ACCEL_TOL * fabs(a0));
        ck_assert_double_le(metric(m, n, "wall_gap"), GAP_TOL);
        ck_assert_double_le(metric(m, n, "tilt"), TILT_TOL);
        /* the wall carries the press and adds its friction: the closed form */
        ck_assert_msg(fabs(hold - hold0) <= HOLD_TOL * hold0, "%s: held to %g N, closed form %g N",
                      steppers[q], hold, hold0);
    }
}
END_TEST

START_TEST(sudden_push_slides_at_closed_form)
{
    for (int q = 0; q < 2; ++q) {
        pfSceneMetric m[PF_SCENE_MAX_METRICS];
        int n = run("sudden", PF_ODE_MODE_EXACT, steppers[q], "1.05", m);
        const double a = metric(m, n, "accel"), a0 = metric(m, n, "accel_closed_form");
        printf("corner sudden 1.05 %-5s exact: pushed with %.6g N, slides at %.9g m/s^2 (closed"
               " form %.9g), patches %g..%g\n",
               steppers[q], metric(m, n, "push"), a, a0, metric(m, n, "pair_patches_min"),
               metric(m, n, "pair_patches_max"));
        ck_assert_double_eq(metric(m, n, "sliding"), 1.0);
        ck_assert_double_eq_tol(a, a0, ACCEL_TOL * fabs(a0));
        ck_assert_double_eq(metric(m, n, "pair_patches_max"), 2.0);
        ck_assert_double_le(metric(m, n, "wall_gap"), GAP_TOL);
    }
}
END_TEST

START_TEST(stock_friction_for_comparison)
{
    for (int q = 0; q < 2; ++q) {
        pfSceneMetric m[PF_SCENE_MAX_METRICS];
        int n = run("ramp", PF_ODE_MODE_STOCK, steppers[q], NULL, m);
        const double hold = metric(m, n, "hold_max"), hold0 = metric(m, n, "hold_closed_form");
        printf("corner ramp %-5s stock: holds to %.4g N (closed form %.4g N, %+.1f %%), then"
               " moves %.3g m at %.3g m/s^2 (closed form %.3g)\n",
               steppers[q], hold, hold0, 100.0 * (hold / hold0 - 1.0), metric(m, n, "travel"),
               metric(m, n, "accel"), metric(m, n, "accel_closed_form"));
        /* one patch per pair in stock mode: ODE's own contacts, not grouped */
        ck_assert_double_eq(metric(m, n, "pair_patches_max"), 1.0);
    }
}
END_TEST

START_TEST(sudden_push_below_the_limit_holds)
{
    for (int q = 0; q < 2; ++q) {
        pfSceneMetric m[PF_SCENE_MAX_METRICS];
        int n = run("sudden", PF_ODE_MODE_EXACT, steppers[q], "0.99", m);
        printf("corner sudden 0.99 %-5s exact: travel %.3g m\n", steppers[q],
               metric(m, n, "travel"));
        ck_assert_msg(metric(m, n, "travel") <= 1e-6, "%s: 0.99 of the limit moved it %g m",
                      steppers[q], metric(m, n, "travel"));
        ck_assert_double_eq(metric(m, n, "sliding"), 0.0);
        /* and just above the limit it slides */
        n = run("sudden", PF_ODE_MODE_EXACT, steppers[q], "1.01", m);
        ck_assert_msg(metric(m, n, "sliding") == 1.0, "%s: 1.01 of the limit held", steppers[q]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("scene_corner");
    TCase *tc = tcase_create("corner");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, two_patches_slide_at_closed_form);
    tcase_add_test(tc, sudden_push_slides_at_closed_form);
    tcase_add_test(tc, sudden_push_below_the_limit_holds);
    tcase_add_test(tc, stock_friction_for_comparison);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
