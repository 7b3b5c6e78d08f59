/* conveyor scene (scenes/pf_scene_conveyor.c): surface motion (docs/physics.md P45) in the
 * demo's scene, under both steppers at 1 ms with the adapter coupling:
 *  - belt: the cube catches up with the belt at speed / (mu g) (within two steps) and then rides
 *    it: creep and sideways drift relative to the belt over 2 s below 1e-8 m (measured 4e-11 m
 *    QuickStep, 5e-14 m dWorldStep; without the anchors riding with the surface, 2e-4 m);
 *  - tracked: the vehicle reaches the tracks' speed at speed / (mu g) and drives along its
 *    heading with no creep and no turning over 2 s (measured: 8e-11 m, 5e-10 rad QuickStep;
 *    4e-14 m, 2e-16 rad dWorldStep); its start-up, while the tracks slip, turns it a little
 *    (measured 1.4e-3 rad QuickStep, 1.8e-4 rad dWorldStep, 7.6e-5 there before the slip rows'
 *    implicit prediction, docs/physics.md P37a; stock friction turns it by 1e-20 rad; the cause,
 *    some asymmetry between the two patches' slip phases, is not investigated): below 5e-3 rad;
 *  - stock friction (ODE's dContactMotion1/2) carries the cube at the belt's speed too;
 *  - coupling=solver is refused, never ignored (on Debian's ODE: no patch series). */
#include "pf_scene.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DT 1e-3
#define T_END 3.0
#define CREEP_TOL 1e-8       /* [m] and [rad] over the 2 s window */
#define HEADING_TOL 5e-3     /* [rad] the start-up's turn */
#define STOCK_SPEED_TOL 1e-6 /* relative */

static double metric(const pfSceneMetric *m, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (!strcmp(m[i].name, name)) return m[i].value;
    ck_abort_msg("metric %s missing", name);
    return NAN;
}

static int run(const char *cs, pfOdeMode mode, const char *stepper, pfSceneMetric *m)
{
    pfSceneParam kv[1] = {{"stepper", stepper}};
    pfScene *s = NULL;
    pfError err;
    int rc = pf_scene_create("conveyor", cs, mode, kv, 1, &s, &err);
    ck_assert_msg(rc == PF_OK, "%s", err.message);
    while (pf_scene_time(s) < T_END - 0.5 * DT)
        ck_assert_int_eq(pf_scene_step(s, DT, &err), PF_OK);
    int n = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
    pf_scene_destroy(s);
    return n;
}

START_TEST(surface_carries_without_creep)
{
    static const char *const cases[2] = {"belt", "tracked"};
    static const char *const steppers[2] = {"quick", "world"};
    for (int c = 0; c < 2; ++c)
        for (int q = 0; q < 2; ++q) {
            pfSceneMetric m[PF_SCENE_MAX_METRICS];
            int n = run(cases[c], PF_ODE_MODE_EXACT, steppers[q], m);
            const double v = metric(m, n, "speed"), v0 = metric(m, n, "speed_closed_form");
            const double tc = metric(m, n, "catch_up"), tc0 = metric(m, n, "catch_up_closed_form");
            const double creep = metric(m, n, "creep"), drift = metric(m, n, "drift");
            const double yaw = metric(m, n, "yaw_creep"), head = metric(m, n, "heading_error");
            printf("conveyor %-7s %-5s: speed %.9g (surface %g), catch-up %g s (closed form %.6g),"
                   " creep %.3g m, drift %.3g m, yaw creep %.3g rad, heading error %.3g rad\n",
                   cases[c], steppers[q], v, v0, tc, tc0, creep, drift, yaw, head);
            ck_assert_double_eq_tol(v, v0, 1e-6 * v0);
            ck_assert_double_eq_tol(tc, tc0, 2.0 * DT);
            ck_assert_msg(creep < CREEP_TOL && drift < CREEP_TOL && yaw < CREEP_TOL,
                          "%s %s: creep %g m, drift %g m, yaw %g rad", cases[c], steppers[q], creep,
                          drift, yaw);
            ck_assert_msg(fabs(head) < HEADING_TOL, "%s %s: start-up turned it %g rad", cases[c],
                          steppers[q], head);
        }
}
END_TEST

START_TEST(stock_friction_carries_too)
{
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int n = run("belt", PF_ODE_MODE_STOCK, "quick", m);
    const double v = metric(m, n, "speed"), v0 = metric(m, n, "speed_closed_form");
    printf("conveyor belt stock quick: speed %.9g (surface %g), creep %.3g m\n", v, v0,
           metric(m, n, "creep"));
    ck_assert_double_eq_tol(v, v0, STOCK_SPEED_TOL * v0);
}
END_TEST

START_TEST(solver_coupling_refused)
{
    pfSceneParam kv[1] = {{"coupling", "solver"}};
    pfScene *s = NULL;
    pfError err;
    int rc = pf_scene_create("conveyor", "belt", PF_ODE_MODE_EXACT, kv, 1, &s, &err);
    /* without the patch series pf_ode_create refuses SOLVER; with it, the belt's material is
     * refused naming surface.velocity: either way the scene is not built */
    ck_assert_int_ne(rc, PF_OK);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(err.message, "coupling") || strstr(err.message, "surface.velocity"), "%s",
                  err.message);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("scene_conveyor");
    TCase *tc = tcase_create("conveyor");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, surface_carries_without_creep);
    tcase_add_test(tc, stock_friction_carries_too);
    tcase_add_test(tc, solver_coupling_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
