/* shaking-table scene (docs/physics.md §3) against the GSL integration of P19/P20 with the same
 * Hertz model (exact P15 or Padé P17). Patch modes must track the reference's (x, y) within
 * 1 % RMS of the motion amplitude at the scene's default dt (5e-5 s: >= 100 steps per period of
 * the fastest published excitation). Stock mode's error is printed as a figure. */
#include "scene_compare.h"
#include "pf_test_support.h"

#define TRACK_REL_TOL 0.01 /* RMS position error / motion amplitude, patch modes */
#define DURATION 0.2       /* [s] */

static void table_case(const char *cs)
{
    static const pfOdeMode modes[3] = {PF_ODE_MODE_EXACT, PF_ODE_MODE_PADE, PF_ODE_MODE_STOCK};
    static const char *const xy[] = {"x", "y"};
    pfScene *probe = NULL;
    ck_assert_int_eq(pf_scene_create("shaking-table", cs, PF_ODE_MODE_EXACT, NULL, 0, &probe, NULL),
                     PF_OK);
    ck_assert_ptr_nonnull(probe);
    double dt = pf_scene_default_dt(probe);
    pf_scene_destroy(probe);
    pfRefResult ref[2];
    for (int pade = 0; pade < 2; ++pade) {
        pfRefTable p;
        ck_assert_int_eq(pf_ref_table_default(cs, &p), 0);
        p.pade = pade;
        ck_assert_int_eq(pf_ref_table_run(&p, DURATION, dt, &ref[pade]), 0);
    }
    Cmp between = scene_compare(
        &(SceneRun){ref[1].ncol, ref[1].cols, ref[1].n, ref[1].rows, 0, {{0}}, 0}, &ref[0], xy, 2);
    printf("table %-12s reference: exact vs pade RMS %.3e m (%.3f %% of %.4f m), final wz exact "
           "%.4f pade %.4f rad/s\n",
           cs, between.rms, 100 * between.rel, between.amp, pf_ref_metric(&ref[0], "final_wz"),
           pf_ref_metric(&ref[1], "final_wz"));
    for (int m = 0; m < 3; ++m) {
        SceneRun s;
        scene_run(&s, "shaking-table", cs, modes[m], NULL, 0, DURATION, dt);
        const pfRefResult *r = &ref[modes[m] == PF_ODE_MODE_PADE];
        Cmp c = scene_compare(&s, r, xy, 2);
        printf("table %-12s %-5s: xy RMS %.3e m / amplitude %.4e m = %.3f %% (max %.2e m); final "
               "wz %.4f rad/s (reference %.4f)\n",
               cs, mode_name(modes[m]), c.rms, c.amp, 100 * c.rel, c.maxe,
               scene_metric(&s, "final_wz"), pf_ref_metric(r, "final_wz"));
        if (modes[m] != PF_ODE_MODE_STOCK)
            ck_assert_msg(c.rel < TRACK_REL_TOL, "%s %s: %.3f %%", cs, mode_name(modes[m]),
                          100 * c.rel);
        scene_run_free(&s);
    }
    pf_ref_result_free(&ref[0]);
    pf_ref_result_free(&ref[1]);
}

START_TEST(test_excitation_1)
{
    table_case("excitation-1");
}
END_TEST

START_TEST(test_excitation_2)
{
    table_case("excitation-2");
}
END_TEST

START_TEST(test_spinning)
{
    table_case("spinning");
}
END_TEST

START_TEST(test_bad_input_named)
{
    pfError err;
    pfSceneParam kv[1] = {{"d", "2"}};
    pfScene *s = (pfScene *)kv; /* must be reset to NULL on failure */
    ck_assert_int_eq(pf_scene_create("shaking-table", NULL, PF_ODE_MODE_EXACT, kv, 1, &s, &err),
                     PF_ERR_RANGE);
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(strstr(err.message, "d=2"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("scene_table");
    TCase *tc = tcase_create("table");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_excitation_1);
    tcase_add_test(tc, test_excitation_2);
    tcase_add_test(tc, test_spinning);
    tcase_add_test(tc, test_bad_input_named);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
