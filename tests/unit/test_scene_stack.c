/* stack scene (scenes/pf_scene_stack.c): multi-body rest under both steppers at ODE's defaults.
 *
 * Asserted here is what patch friction achieves today against the targets of
 * docs/architecture.md "Stick and slip in multi-body scenes" (creep over 20 s at rest after 0.5 s
 * of settling: at most 1e-6 m and 1e-5 rad), and, where it does not reach them yet, that it is no
 * worse than stock friction in the same run. Every figure is printed, met or not:
 *  - dWorldStep, on Debian's ODE and the patched one: a box on a box and a body on two feet
 *    hold to the targets at 1 ms (feet also at 5 ms), without any ODE message (stock: none
 *    either); ten cubes placed with offsets at 1 and 5 ms with either coupling, without any ODE
 *    message; the box on a box, the aligned tower and the pyramid at 1 and 5 ms over 20 s (ctest
 *    test_scene_stack_piles, labelled long);
 *  - QuickStep (20 iterations): a box on a box, a body on two feet and the aligned tower at 1 ms,
 *    the feet at 5 ms and a box on a box pushed at 0.3 mu_s m g at 1 ms hold to the targets with
 *    either coupling;
 *    in the aligned tower the rotation about the vertical of a stuck stack stays within 1e-5 rad
 *    (stock: 1e-3 rad) and the creep, which is the stack's tilt from QuickStep's unconverged
 *    normal rows, is no larger than stock's; the pyramid at 5 ms creeps less than with stock
 *    friction in each of six row orders, with either coupling;
 *  - a box face resting on a plane or on a box face is a patch (no point fallback in the aligned
 *    tower and the pyramid);
 *  - a box on a box pushed at 0.3 and 0.9 mu_s m g holds under dWorldStep (1 and 5 ms) to 1e-6 m,
 *    the pushed box and the lower one, without any ODE message; under QuickStep at 0.3 the lower
 *    box moves less than with stock friction;
 *  - pushed at 1.2 mu_s m g under dWorldStep (1 and 5 ms) the top box slides at the closed-form
 *    acceleration (1e-3 relative) and the lower box stays put, with the adapter coupling and, on
 *    the patched ODE, the in-solver one. */
#include "pf_scene.h"

#include <check.h>
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The targets (docs/architecture.md). */
#define CREEP_M 1e-6
#define CREEP_RAD 1e-5
#define T_REST 20.5 /* 0.5 s settling + 20 s */
#define T_PUSH 10.5 /* 0.5 s settling + 10 s pushed */

typedef struct Run {
    double creep, creep_rot, creep_yaw, messages, point_fraction, fastest_after_1s;
    double push_travel, push_accel, push_closed;
} Run;

static double metric(const pfSceneMetric *m, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (!strcmp(m[i].name, name)) return m[i].value;
    ck_abort_msg("metric %s missing", name);
    return NAN;
}

/* One run; coupling (NULL: the default) goes to the scene's coupling key, ode_seed (NULL: the
 * scene's default, its seed) to the seed of ODE's generator, which orders QuickStep's rows. */
static Run run_params(const char *cs, pfOdeMode mode, const char *stepper, double dt, double T,
                      const char *push, const char *coupling, const char *ode_seed)
{
    pfSceneParam kv[4] = {{"stepper", stepper}};
    int nkv = 1;
    if (push) kv[nkv++] = (pfSceneParam){"push", push};
    if (coupling) kv[nkv++] = (pfSceneParam){"coupling", coupling};
    if (ode_seed) kv[nkv++] = (pfSceneParam){"ode_seed", ode_seed};
    pfScene *s = NULL;
    pfError err;
    int rc = pf_scene_create("stack", cs, mode, kv, nkv, &s, &err);
    ck_assert_msg(rc == PF_OK, "%s", err.message);
    while (pf_scene_time(s) < T - 0.5 * dt)
        ck_assert_int_eq(pf_scene_step(s, dt, &err), PF_OK);
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int n = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
    Run r = {metric(m, n, "creep"),
             metric(m, n, "creep_rot"),
             metric(m, n, "creep_yaw"),
             metric(m, n, "ode_messages"),
             metric(m, n, "point_fallback_fraction"),
             metric(m, n, "fastest_after_1s"),
             metric(m, n, "push_travel"),
             metric(m, n, "push_accel"),
             metric(m, n, "push_accel_closed_form")};
    printf("stack %-8s %-5s %-5s %s dt=%g%s%s%s%s: creep %.3g m, rotation %.3g rad (about z %.3g), "
           "%g ODE messages, point fallbacks %.3g, fastest after 1 s %.3g m/s\n",
           cs, pf_scene_mode_name(mode), stepper, coupling ? coupling : "", dt,
           push ? " push=" : "", push ? push : "", ode_seed ? " ode_seed=" : "",
           ode_seed ? ode_seed : "", r.creep, r.creep_rot, r.creep_yaw, r.messages,
           r.point_fraction, r.fastest_after_1s);
    if (push)
        printf(
            "      pushed box: largest travel %.3g m, acceleration %.7g m/s^2 (closed form %.7g)\n",
            r.push_travel, r.push_accel, r.push_closed);
    pf_scene_destroy(s);
    return r;
}

static Run run_coupled(const char *cs, pfOdeMode mode, const char *stepper, double dt, double T,
                       const char *push, const char *coupling)
{
    return run_params(cs, mode, stepper, dt, T, push, coupling, NULL);
}

static Run run(const char *cs, pfOdeMode mode, const char *stepper, double dt, double T,
               const char *push)
{
    return run_coupled(cs, mode, stepper, dt, T, push, NULL);
}

START_TEST(test_world_rest_holds)
{
    struct {
        const char *cs;
        double dt;
    } cases[] = {{"two-box", 1e-3}, {"feet", 1e-3}, {"feet", 5e-3}};
    for (int i = 0; i < 3; ++i) {
        Run p = run(cases[i].cs, PF_ODE_MODE_EXACT, "world", cases[i].dt, T_REST, NULL);
        Run st = run(cases[i].cs, PF_ODE_MODE_STOCK, "world", cases[i].dt, T_REST, NULL);
        ck_assert_double_le(p.creep, CREEP_M);
        ck_assert_double_le(p.creep_rot, CREEP_RAD);
        ck_assert_double_le(p.messages, st.messages);
        ck_assert_double_eq(p.point_fraction, 0.0);
    }
}
END_TEST

/* Ten cubes placed with +-2 mm and +-2 degree offsets rest under dWorldStep at 1 and 5 ms, with
 * either coupling. They did not while a face's normal rows sat at ODE's contact points: those
 * exist only where the faces interpenetrate, so each edge that came down sank in and the ERP
 * correction pushed it out again (creep 0.8-4.6 mm at 1 ms, 2 cm at 5 ms, still 0.06-0.2 m/s
 * after 1 s); rows at the patch's vertices that ODE's points miss, speculative where the faces
 * are apart (pf_ode_patch.c, face_contacts), let it settle. */
START_TEST(test_world_offset_tower_rests)
{
    const char *couplings[] = {"adapter", "solver"};
    const int nc = dCheckConfiguration("ODE_EXT_patch_friction") ? 2 : 1;
    const double dts[] = {1e-3, 5e-3};
    for (int c = 0; c < nc; ++c)
        for (int i = 0; i < 2; ++i) {
            Run p = run_coupled("tower-offset", PF_ODE_MODE_EXACT, "world", dts[i], T_PUSH, NULL,
                                couplings[c]);
            ck_assert_double_le(p.creep, CREEP_M);
            ck_assert_double_le(p.creep_rot, CREEP_RAD);
            ck_assert_double_eq(p.messages, 0.0);
        }
}
END_TEST

/* The resting stacks and piles under dWorldStep at 1 and 5 ms, with either coupling: every box
 * within the creep targets over 20 s and no ODE message. Debian's Dantzig solver gave up on zero
 * steps while the tower and the pyramid settled (7 and 14 "LCP internal error" at 1 ms, the
 * pyramid creeping 0.3 mm) until the adapter's normal rows got their allowed approach under
 * dWorldStep (pf_ode_patch.c, normal_row_dither); the patched ODE takes such steps
 * (patches/0004). The in-solver pyramid toppled at 1 ms (2e-2 m, 0.09 rad in 5 s) while the patch
 * joint's friction rows took the world's absolute CFM: a box on two boxes closes a chain of stuck
 * rows, whose holding wrench lambda*, the one the stick test reads, was then set by rounding
 * (spin moments of 1e6 N m on 1 kg cubes); the rows now get the adapter's relative CFM. */
START_TEST(test_world_piles_rest)
{
    const char *couplings[] = {"adapter", "solver"};
    const int nc = dCheckConfiguration("ODE_EXT_patch_friction") ? 2 : 1;
    const char *cs[] = {"two-box", "tower", "pyramid"};
    const double dts[] = {1e-3, 5e-3};
    for (int c = 0; c < nc; ++c)
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 2; ++i) {
                Run p = run_coupled(cs[k], PF_ODE_MODE_EXACT, "world", dts[i], T_REST, NULL,
                                    couplings[c]);
                ck_assert_double_le(p.creep, CREEP_M);
                ck_assert_double_le(p.creep_rot, CREEP_RAD);
                ck_assert_double_eq(p.messages, 0.0);
            }
}
END_TEST

START_TEST(test_quick_rest_no_spin_creep)
{
    const char *cases[] = {"two-box", "tower"};
    for (int i = 0; i < 2; ++i) {
        Run p = run(cases[i], PF_ODE_MODE_EXACT, "quick", 1e-3, T_REST, NULL);
        Run st = run(cases[i], PF_ODE_MODE_STOCK, "quick", 1e-3, T_REST, NULL);
        ck_assert_double_le(p.creep_yaw, CREEP_RAD);
        ck_assert_double_le(p.creep, st.creep);
        ck_assert_double_le(p.creep_rot, st.creep_rot);
        ck_assert_double_eq(p.point_fraction, 0.0);
    }
}
END_TEST

/* Under QuickStep at its 20 iterations, the scenes that now hold to the targets: a box on a box
 * and a body on two feet at 1 ms, the feet at 5 ms, and a box on a box pushed at 0.3 mu_s m g at
 * 1 ms (the pushed box and the lower one). They did not while a stuck face's pair vanished for a
 * step whenever QuickStep lifted the face clear (ODE reports no contact for faces apart, and its
 * space skips the pair): creep 2.4e-5 m (two boxes), 4e-5 m (feet, 1 ms), 1.8e-4 m (feet, 5 ms)
 * and 3.1e-5 m of push travel. Measured with the carried support (pf_ode_patch.c): 7.2e-7 m and
 * 6.4e-6 rad, 9.3e-8 m, 5.7e-8 m, and 8.2e-7 m. With either coupling: the in-solver one carries
 * the support under QuickStep since its stuck patches take the adapter's rows there
 * (pf_ode_step.c, solver_stuck_rows); before, its box on a box crept 1.5e-5 m in 5.5 s.
 * The aligned ten-box tower at 1 ms holds too since the face rows start the iterations from the
 * measured normal forces (the preload, docs/physics.md P36d): it crept 8.9e-5 m before (stock
 * 2.4e-3 m), 3.0e-7 m with it (2.1e-7 to 7.7e-7 m over ode_seed 1-6). The towers, aligned and
 * offset, and the pyramid at 1 and 5 ms hold since every row of their faces starts from a solve
 * of the step (the face presolve, P36e): before it, with the preload alone, they crept 1.3e-4,
 * 3.5e-6, 5.5e-4, 6.4e-7 and 2.6e-5 m in 5.5 s (tower 5 ms, offset tower 1 and 5 ms, pyramid 1
 * and 5 ms; seed 1); with it 2e-11 to 3e-9 m over 20 s, with either coupling. */
START_TEST(test_quick_rest_holds)
{
    struct {
        const char *cs;
        double dt;
    } cases[] = {{"two-box", 1e-3},      {"feet", 1e-3},    {"feet", 5e-3},
                 {"tower", 1e-3},        {"tower", 5e-3},   {"tower-offset", 1e-3},
                 {"tower-offset", 5e-3}, {"pyramid", 1e-3}, {"pyramid", 5e-3}};
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    const char *couplings[] = {"adapter", "solver"};
    const int nc = dCheckConfiguration("ODE_EXT_patch_friction") ? 2 : 1;
    for (int c = 0; c < nc; ++c) {
        for (int i = 0; i < ncases; ++i) {
            Run p = run_coupled(cases[i].cs, PF_ODE_MODE_EXACT, "quick", cases[i].dt, T_REST, NULL,
                                couplings[c]);
            ck_assert_double_le(p.creep, CREEP_M);
            ck_assert_double_le(p.creep_rot, CREEP_RAD);
        }
        Run w =
            run_coupled("pushed", PF_ODE_MODE_EXACT, "quick", 1e-3, T_PUSH, "0.3", couplings[c]);
        ck_assert_double_le(w.push_travel, CREEP_M);
        ck_assert_double_le(w.creep, CREEP_M);
        ck_assert_double_le(w.creep_rot, CREEP_RAD);
    }
}
END_TEST

/* The pyramid under QuickStep at 5 ms creeps less than with stock friction, in each of six row
 * orders (ode_seed 1-6; 20 s at rest). QuickStep's 20 iterations let a stuck patch of the resting
 * pyramid drift by more than stick_velocity_tol dt a step, always the same way, and with its
 * anchor correction clamped to stick_velocity_tol the pyramid walked along its rows: 2.3e-3 to
 * 5.4e-3 m against stock's 1.6e-3 to 3.3e-3 m. The correction now also cancels the measured bias
 * of that leakage (pf_ode_step.c, leak_bias; docs/physics.md P36a): 1.5e-4 to 2.9e-4 m.
 * With the in-solver coupling (patched ODE) too: 1.7e-4 to 4.2e-4 m (stock 1.6e-3 to 3.3e-3 m)
 * since its stuck patches take the adapter's stuck rows under QuickStep (pf_ode_step.c,
 * solver_stuck_rows); their patch joints' rows had held the solver's iterates unbounded and
 * without the leakage correction (5.5 s, seeds 1-8: median 7.0e-4 m, now 2.0e-4 m). */
START_TEST(test_quick_pyramid_creep)
{
    const char *seeds[] = {"1", "2", "3", "4", "5", "6"};
    const char *couplings[] = {"adapter", "solver"};
    const int nc = dCheckConfiguration("ODE_EXT_patch_friction") ? 2 : 1;
    for (int i = 0; i < 6; ++i) {
        Run st = run_params("pyramid", PF_ODE_MODE_STOCK, "quick", 5e-3, T_REST, NULL, "adapter",
                            seeds[i]);
        for (int c = 0; c < nc; ++c) {
            Run p = run_params("pyramid", PF_ODE_MODE_EXACT, "quick", 5e-3, T_REST, NULL,
                               couplings[c], seeds[i]);
            ck_assert_double_le(p.creep, st.creep);
            ck_assert_double_le(p.creep_rot, st.creep_rot);
        }
    }
}
END_TEST

START_TEST(test_faces_are_patches)
{
    const char *cases[] = {"tower", "pyramid"};
    for (int i = 0; i < 2; ++i) {
        Run p = run(cases[i], PF_ODE_MODE_EXACT, "quick", 1e-3, 2.0, NULL);
        ck_assert_double_eq(p.point_fraction, 0.0);
    }
}
END_TEST

START_TEST(test_pushed_holds)
{
    const char *push[] = {"0.3", "0.9"};
    const double dts[] = {1e-3, 5e-3};
    for (int i = 0; i < 2; ++i)
        for (int d = 0; d < 2; ++d) {
            Run w = run("pushed", PF_ODE_MODE_EXACT, "world", dts[d], T_PUSH, push[i]);
            ck_assert_double_le(w.push_travel, CREEP_M);
            ck_assert_double_le(w.creep, CREEP_M);
            ck_assert_double_eq(w.messages, 0.0);
        }
    /* QuickStep at 0.9 mu_s m g is not asserted: in one seed in six of ODE's row order the top
     * box moves 3.6 cm (docs/architecture.md, what is still open) */
    Run q = run("pushed", PF_ODE_MODE_EXACT, "quick", 1e-3, T_PUSH, "0.3");
    Run qs = run("pushed", PF_ODE_MODE_STOCK, "quick", 1e-3, T_PUSH, "0.3");
    ck_assert_double_le(q.creep, qs.creep);
    ck_assert_double_le(q.push_travel, qs.push_travel);
}
END_TEST

/* Pushed with 1.2 mu_s m g the top box slides at a = (1.2 mu_s - mu_k) g while the lower box
 * stays put, until the pair tips after 1 cm (the scene's header derives where): dWorldStep at
 * 1 ms and 5 ms with both couplings, acceleration to 1e-3 relative and the lower box to the
 * creep targets, on every ODE (on the patched one with the in-solver coupling as well,
 * ODE_EXT_patch_friction). The in-solver coupling failed here while its stick test took the
 * adapter's demand (the lower box free with its last contact forces as loads: half the push):
 * the unbounded rows held the whole push for the breakaway step and the pair tipped (lower box
 * 1.1e-5 m at 1 ms; 2.9e-4 m and an acceleration 1.05 of the closed form at 5 ms). On Debian's
 * ODE the Dantzig solver gave up on some step of the slide ("LCP internal error, s <= 0": a
 * rounding-level negative w on one of the four coplanar normal rows) until the adapter's normal
 * rows got their allowed approach under dWorldStep (normal_row_dither): acceleration 0.73 of the
 * closed form and the lower box rocking 6.5e-4 m at 1 ms; 1.0005 and 1.5e-6 m at 5 ms. */
static void assert_slides(const Run *w)
{
    ck_assert(isfinite(w->push_accel));
    ck_assert_double_eq_tol(w->push_accel / w->push_closed, 1.0, 1e-3);
    ck_assert_double_le(w->creep, CREEP_M);
    ck_assert_double_le(w->creep_rot, CREEP_RAD);
    ck_assert_double_eq(w->messages, 0.0);
}

START_TEST(test_pushed_slides)
{
    const int solver = dCheckConfiguration("ODE_EXT_patch_friction");
    const double dts[] = {1e-3, 5e-3};
    for (int i = 0; i < 2; ++i) {
        Run w = run_coupled("pushed", PF_ODE_MODE_EXACT, "world", dts[i], 1.0, "1.2", "adapter");
        assert_slides(&w);
        if (!solver) continue;
        Run s = run_coupled("pushed", PF_ODE_MODE_EXACT, "world", dts[i], 1.0, "1.2", "solver");
        assert_slides(&s);
    }
}
END_TEST

/* ode_seed seeds ODE's generator alone: by default it is seed (the same run bit for bit), and
 * another value changes QuickStep's row order and so the run, the placement kept; seed changes
 * the offset tower's placement. A value that is not a whole number is refused, naming it. */
START_TEST(test_ode_seed_key)
{
    const double dt = 1e-3, T = 0.7;
    Run a = run_params("tower-offset", PF_ODE_MODE_EXACT, "quick", dt, T, NULL, NULL, NULL);
    Run b = run_params("tower-offset", PF_ODE_MODE_EXACT, "quick", dt, T, NULL, NULL, "1");
    Run c = run_params("tower-offset", PF_ODE_MODE_EXACT, "quick", dt, T, NULL, NULL, "2");
    ck_assert_double_eq(a.creep, b.creep);
    ck_assert_double_eq(a.creep_rot, b.creep_rot);
    ck_assert_double_eq(a.fastest_after_1s, b.fastest_after_1s);
    ck_assert_double_ne(a.creep, c.creep);
    /* under dWorldStep the generator orders nothing: ode_seed leaves the run as it was */
    Run w1 = run_params("tower-offset", PF_ODE_MODE_EXACT, "world", dt, T, NULL, NULL, "1");
    Run w2 = run_params("tower-offset", PF_ODE_MODE_EXACT, "world", dt, T, NULL, NULL, "2");
    ck_assert_double_eq(w1.creep, w2.creep);
    pfSceneParam kv[2] = {{"stepper", "quick"}, {"seed", "2"}};
    pfScene *s = NULL;
    pfError err;
    ck_assert_int_eq(pf_scene_create("stack", "tower-offset", PF_ODE_MODE_EXACT, kv, 2, &s, &err),
                     PF_OK);
    while (pf_scene_time(s) < T - 0.5 * dt)
        ck_assert_int_eq(pf_scene_step(s, dt, &err), PF_OK);
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int n = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
    ck_assert_double_ne(metric(m, n, "creep"), c.creep); /* seed=2 moves the cubes too */
    pf_scene_destroy(s);
    pfSceneParam bad[1] = {{"ode_seed", "1.5"}};
    s = NULL;
    ck_assert_int_eq(pf_scene_create("stack", "tower", PF_ODE_MODE_EXACT, bad, 1, &s, &err),
                     PF_ERR_RANGE);
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(strstr(err.message, "ode_seed=1.5"));
}
END_TEST

START_TEST(test_bad_stepper_is_refused)
{
    pfSceneParam kv[1] = {{"stepper", "fast"}};
    pfScene *s = NULL;
    pfError err;
    ck_assert_int_eq(pf_scene_create("stack", "tower", PF_ODE_MODE_EXACT, kv, 1, &s, &err),
                     PF_ERR_RANGE);
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(strstr(err.message, "stepper=fast"));
}
END_TEST

int main(void)
{
    Suite *su = suite_create("scene_stack");
    TCase *tc = tcase_create("stack");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_bad_stepper_is_refused);
    tcase_add_test(tc, test_ode_seed_key);
    tcase_add_test(tc, test_faces_are_patches);
    tcase_add_test(tc, test_world_rest_holds);
    tcase_add_test(tc, test_world_offset_tower_rests);
    tcase_add_test(tc, test_quick_rest_no_spin_creep);
    tcase_add_test(tc, test_quick_rest_holds);
    tcase_add_test(tc, test_quick_pyramid_creep);
    tcase_add_test(tc, test_pushed_holds);
    tcase_add_test(tc, test_pushed_slides);
    suite_add_tcase(su, tc);
    /* the piles over 20 s, both dt and couplings: about 4 minutes (ctest test_scene_stack_piles) */
    TCase *piles = tcase_create("piles");
    tcase_set_timeout(piles, 1200);
    tcase_add_test(piles, test_world_piles_rest);
    suite_add_tcase(su, piles);
    SRunner *sr = srunner_create(su);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
