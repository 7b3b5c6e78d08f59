/* A stuck face keeps its support for a step when ODE reports no contact (pf_ode_patch.c,
 * pf_ode_carry_support), and lets go when the faces really part.
 *
 * ODE reports contacts only where faces interpenetrate, and its spaces skip pairs whose bounding
 * boxes are apart (an axis-aligned ground plane's box ends at its surface). QuickStep lifts a
 * resting face to a gap of about 1e-7 m every few steps; the pair then vanished for a step and
 * the box fell freely for it (g dt). These tests use ODE's defaults (no contact surface layer),
 * where that happens. */
#include "pf_ode_test_scene.h"
#include "pf_scene.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static double metric(const pfSceneMetric *m, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (!strcmp(m[i].name, name)) return m[i].value;
    ck_abort_msg("metric %s missing", name);
    return NAN;
}

/* Stacks under QuickStep at 1 ms (the stack scene, ODE's defaults): after the first second no
 * body moves at the free-fall speed of one step, g dt = 9.8 mm/s. Before the support was carried
 * the bottom box's ground pair of the box on a box vanished every few hundred steps and both
 * boxes fell for a step (fastest after 1 s: 9.85 mm/s; with it 0.74 mm/s). The box on a box now
 * rests on face rows, which hold its faces flat: no pair lifts, nothing is carried. The pyramid's
 * boxes, each on two others, lifted until the face presolve (docs/physics.md P36e) and the support
 * was carried there (without it the pyramid's fastest body after 1 s moved at 10.2 mm/s, with it
 * 1.2 mm/s); with the presolve they rest to 1e-16 m and nothing lifts after the first steps (a
 * support carried once or twice while the pyramid settles, none on the patched ODE). The carried
 * path is checked where a face really parts (test_destroyed_geom_lets_go: carried, then let go). */
START_TEST(test_quick_stack_never_falls_a_step)
{
    const double dt = 1e-3, g = 9.81;
    const char *cases[] = {"two-box", "pyramid"};
    for (int i = 0; i < 2; ++i) {
        pfSceneParam kv[] = {{"stepper", "quick"}, {"coupling", "adapter"}};
        pfScene *s = NULL;
        pfError err;
        ck_assert_int_eq(pf_scene_create("stack", cases[i], PF_ODE_MODE_EXACT, kv, 2, &s, &err),
                         PF_OK);
        while (pf_scene_time(s) < 5.5 - 0.5 * dt)
            ck_assert_int_eq(pf_scene_step(s, dt, &err), PF_OK);
        pfSceneMetric m[PF_SCENE_MAX_METRICS];
        int n = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
        pfOdeCounters c = pf_ode_get_counters(pf_scene_ode_context(s));
        double fastest = metric(m, n, "fastest_after_1s");
        printf("%s QuickStep 1 ms: fastest after 1 s %.3g m/s (g dt = %.3g), %lld supports "
               "carried, %lld face patch-steps, creep %.3g m, %.3g rad\n",
               cases[i], fastest, g * dt, c.supports_carried, c.face_patches, metric(m, n, "creep"),
               metric(m, n, "creep_rot"));
        ck_assert_double_lt(fastest, 0.5 * g * dt);
        pf_scene_destroy(s);
    }
}
END_TEST

/* Rest a box on the plane (no surface layer: ODE's default), then lift it with 2 m g: the pair is
 * released within a few steps of lift-off, as without the carried support. */
START_TEST(test_lifted_box_lets_go)
{
    for (int quick = 0; quick < 2; ++quick) {
        pfOdeMaterial mat = pf_ode_test_material(0.5, 0.5);
        pfOdeTestScene s;
        pf_ode_test_box(&s, 0.2, 0.1, 0.05, 1.0, &mat, quick, 1e-3, 0.0);
        dWorldSetContactSurfaceLayer(s.world, 0.0);
        while (s.time < 0.5)
            pf_ode_test_step(&s);
        ck_assert_int_eq(pf_ode_patch_count(s.pf), 1);
        int steps = 0;
        while (pf_ode_patch_count(s.pf) > 0 && steps < 100) {
            dBodyAddForce(s.body, 0, 0, 2.0 * PF_ODE_TEST_G);
            pf_ode_test_step(&s);
            ++steps;
        }
        const dReal *pos = dBodyGetPosition(s.body);
        printf("%s: lifted box released after %d steps, at z = %.3g m\n",
               pf_ode_test_stepper_name(quick), steps, (double)pos[2] - 0.025);
        ck_assert_int_le(steps, 10);
        for (int i = 0; i < 20; ++i) {
            dBodyAddForce(s.body, 0, 0, 2.0 * PF_ODE_TEST_G);
            pf_ode_test_step(&s);
        }
        /* it rises at g: 0.5 g t^2 from lift-off */
        ck_assert_double_gt(dBodyGetPosition(s.body)[2] - 0.025, 1e-3);
        pf_ode_test_free(&s);
    }
}
END_TEST

/* A geom destroyed between steps without pf_ode_forget_geom while its body lives on: the carried
 * support may keep the body up for at most a few steps, then it falls through the plane as in
 * plain ODE. (A second box rests beside it, so that the step still collides a pair: a support is
 * carried only in a step that passed a contact group.) */
START_TEST(test_destroyed_geom_lets_go)
{
    for (int quick = 0; quick < 2; ++quick) {
        pfOdeMaterial mat = pf_ode_test_material(0.5, 0.5);
        pfOdeTestScene s;
        pf_ode_test_box(&s, 0.2, 0.1, 0.05, 1.0, &mat, quick, 1e-3, 0.0);
        dWorldSetContactSurfaceLayer(s.world, 0.0);
        dBodyID other = dBodyCreate(s.world);
        dMass om;
        dMassSetBoxTotal(&om, 1.0, 0.2, 0.1, 0.05);
        dBodySetMass(other, &om);
        dBodySetPosition(other, 1.0, 0.0, 0.025 - 1e-5);
        dGeomID og = dCreateBox(s.space, 0.2, 0.1, 0.05);
        dGeomSetBody(og, other);
        while (s.time < 0.5)
            pf_ode_test_step(&s);
        dGeomDestroy(s.geom);
        s.geom = 0;
        ck_assert_int_eq(pf_ode_patch_count(s.pf), 2);
        long long carried0 = pf_ode_get_counters(s.pf).supports_carried;
        int steps = 0;
        while (pf_ode_patch_count(s.pf) > 1 && steps < 100) {
            pf_ode_test_step(&s);
            ++steps;
        }
        long long carried = pf_ode_get_counters(s.pf).supports_carried - carried0;
        printf("%s: a destroyed geom's pair released after %d steps (%lld supports carried)\n",
               pf_ode_test_stepper_name(quick), steps, carried);
        ck_assert_int_le(steps, 10);
        ck_assert_int_gt(carried, 0); /* the carried path ran, and let go */
        for (int i = 0; i < 100; ++i)
            pf_ode_test_step(&s);
        ck_assert_double_lt(dBodyGetPosition(s.body)[2], 0.0);
        pf_ode_test_free(&s);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("ode_support");
    /* the adapter's rows (the in-solver coupling has no carried support) */
    pf_ode_test_coupling = PF_ODE_COUPLING_ADAPTER;
    TCase *tc = tcase_create("support");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_quick_stack_never_falls_a_step);
    tcase_add_test(tc, test_lifted_box_lets_go);
    tcase_add_test(tc, test_destroyed_geom_lets_go);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
