/* sliding-blocks scene (docs/physics.md §6) against the GSL reference
 * (tests/support/pf_ref_scenes.c) and closed forms. Patch modes (exact, pade) must track the
 * reference within 1 % RMS of the motion amplitude at dt = 1 ms; stock mode's errors are printed as
 * figures only. */
#include "scene_compare.h"
#include "pf_test_closed_forms.h"
#include "pf_test_support.h"

#define DT 1e-3
/* Named tolerances. */
#define TRACK_REL_TOL 0.01       /* RMS position error / motion amplitude, patch modes */
#define NOSLIP_DISP_TOL 1e-6     /* [m] the no-slip circle never moves */
#define BREAKAWAY_REL_TOL 0.01   /* eccentric push, vs reference */
#define REF_CLOSED_FORM_TOL 1e-6 /* reference breakaway vs closed form P10-P12 (relative) */
#define STOP_TIME_REL_TOL 0.01   /* free slide: stop times vs reference */
#define STOP_SYNC_TOL 2e-3       /* [s] translation and rotation stop together (patch, ref) */
#define OVERLAY_POS_TOL 1e-12    /* [m] overlay points vs their closed-form positions */

static const pfOdeMode MODES[3] = {PF_ODE_MODE_EXACT, PF_ODE_MODE_PADE, PF_ODE_MODE_STOCK};

static void reference(const char *cs, const pfSceneParam *kv, int n, double T, pfRefResult *r)
{
    pfRefSliding p;
    ck_assert_int_eq(pf_ref_sliding_default(cs, &p), 0);
    char msg[200];
    for (int i = 0; i < n; ++i)
        ck_assert_msg(pf_ref_sliding_set(&p, kv[i].key, kv[i].value, msg, 200) == 0, "%s", msg);
    ck_assert_int_eq(pf_ref_sliding_run(&p, T, DT, r), 0);
}

/* Track the reference's (x, y) (and theta where it rotates) over T. */
static void track_case(const char *cs, double T, const pfSceneParam *kv, int nkv)
{
    pfRefResult ref;
    reference(cs, kv, nkv, T, &ref);
    static const char *const xy[] = {"x", "y"};
    static const char *const th[] = {"theta"};
    for (int m = 0; m < 3; ++m) {
        SceneRun s;
        scene_run(&s, "sliding-blocks", cs, MODES[m], kv, nkv, T, DT);
        Cmp c = scene_compare(&s, &ref, xy, 2);
        Cmp ct = scene_compare(&s, &ref, th, 1);
        printf("sliding %-16s %-5s: xy RMS %.3e m / amplitude %.4e m = %.2f %%  (max %.2e m);"
               " theta RMS/amp %s%.2f %%  stops %g (ref %g)\n",
               cs, mode_name(MODES[m]), c.rms, c.amp, 100 * c.rel, c.maxe,
               ct.amp > 1e-3 ? "" : "(no rotation) ", ct.amp > 1e-3 ? 100 * ct.rel : 0.0,
               scene_metric(&s, "stops"), pf_ref_metric(&ref, "stops"));
        if (MODES[m] != PF_ODE_MODE_STOCK) {
            ck_assert_msg(c.rel < TRACK_REL_TOL, "%s %s: xy RMS %.3f %% of amplitude", cs,
                          mode_name(MODES[m]), 100 * c.rel);
            if (ct.amp > 1e-3)
                ck_assert_msg(ct.rel < TRACK_REL_TOL, "%s %s: theta RMS %.3f %% of amplitude", cs,
                              mode_name(MODES[m]), 100 * ct.rel);
        }
        scene_run_free(&s);
    }
    pf_ref_result_free(&ref);
}

START_TEST(test_no_slip_circle_never_moves)
{
    pfRefResult ref;
    reference("no-slip-circle", NULL, 0, 1.3, &ref);
    ck_assert_double_eq_tol(pf_ref_metric(&ref, "max_displacement"), 0.0, 1e-12);
    for (int m = 0; m < 3; ++m) {
        SceneRun s;
        scene_run(&s, "sliding-blocks", "no-slip-circle", MODES[m], NULL, 0, 1.3, DT);
        double d = scene_metric(&s, "max_displacement");
        printf("sliding no-slip-circle   %-5s: max displacement %.3e m\n", mode_name(MODES[m]), d);
        if (MODES[m] != PF_ODE_MODE_STOCK)
            ck_assert_msg(d < NOSLIP_DISP_TOL, "%s moved %.3e m", mode_name(MODES[m]), d);
        scene_run_free(&s);
    }
    pf_ref_result_free(&ref);
}
END_TEST

START_TEST(test_zero_stop_circle)
{
    track_case("zero-stop-circle", 1.3, NULL, 0);
}
END_TEST

START_TEST(test_multi_stop)
{
    track_case("multi-stop", 2.5, NULL, 0);
}
END_TEST

START_TEST(test_general_motion)
{
    track_case("general-motion", 2.5, NULL, 0);
}
END_TEST

START_TEST(test_general_motion_yaw_invariant)
{
    /* rotating the whole set-up about the vertical changes nothing in the set-up frame */
    pfSceneParam kv[1] = {{"yaw", "0.7"}};
    track_case("general-motion", 1.0, kv, 1);
}
END_TEST

START_TEST(test_eccentric_push_breakaway)
{
    const char *hs[2] = {"0.005", "0.01"};
    for (int ih = 0; ih < 2; ++ih) {
        pfSceneParam kv[2] = {{"h", hs[ih]}, {"yaw", "0.3"}};
        double h = atof(hs[ih]);
        /* closed form: P10 CA = (-J/(m h), 0); P12 F (h - x_CA) = mu_s N <|r - CA|> */
        const double L = 0.03, W = 0.01, m = 2700.0 * L * W * 0.01, J = m * (L * L + W * W) / 12;
        double xca = -J / (m * h);
        double closed = 0.55 * m * 9.81 * pf_test_rect_mean_dist(L, W, xca, 0.0) / (h - xca);
        pfRefResult ref;
        double T = 1.2 * closed / 0.05;
        reference("eccentric-push", kv, 2, T, &ref);
        double fr = pf_ref_metric(&ref, "breakaway_force");
        printf("eccentric h=%s: closed form %.7f N, reference %.7f N\n", hs[ih], closed, fr);
        ck_assert_double_eq_tol(fr / closed, 1.0, REF_CLOSED_FORM_TOL);
        for (int k = 0; k < 3; ++k) {
            SceneRun s;
            scene_run(&s, "sliding-blocks", "eccentric-push", MODES[k], kv, 2, T, DT);
            double f = scene_metric(&s, "breakaway_force");
            printf("eccentric h=%s %-5s: breakaway %.6f N (reference %.6f, %+.2f %%)\n", hs[ih],
                   mode_name(MODES[k]), f, fr, 100 * (f / fr - 1));
            if (MODES[k] != PF_ODE_MODE_STOCK)
                ck_assert_msg(fabs(f / fr - 1) < BREAKAWAY_REL_TOL, "%s h=%s: %g vs %g",
                              mode_name(MODES[k]), hs[ih], f, fr);
            scene_run_free(&s);
        }
        pf_ref_result_free(&ref);
    }
}
END_TEST

START_TEST(test_free_slide_stops_together)
{
    const pfSceneParam box[1] = {{"shape", "box"}}, disk[1] = {{"shape", "disk"}};
    const pfSceneParam *kvs[2] = {box, disk};
    for (int sh = 0; sh < 2; ++sh) {
        pfRefResult ref;
        reference("free-slide", kvs[sh], 1, 0.3, &ref);
        double tr = pf_ref_metric(&ref, "stop_time_translation"),
               rr = pf_ref_metric(&ref, "stop_time_rotation");
        printf("free-slide %s reference: stop translation %.5f s, rotation %.5f s\n",
               kvs[sh][0].value, tr, rr);
        ck_assert(isfinite(tr) && isfinite(rr));
        ck_assert_double_eq_tol(tr, rr, STOP_SYNC_TOL);
        static const char *const xy[] = {"x", "y"};
        for (int m = 0; m < 3; ++m) {
            SceneRun s;
            scene_run(&s, "sliding-blocks", "free-slide", MODES[m], kvs[sh], 1, 0.3, DT);
            double ts = scene_metric(&s, "stop_time_translation"),
                   rs = scene_metric(&s, "stop_time_rotation");
            Cmp c = scene_compare(&s, &ref, xy, 2);
            printf("free-slide %s %-5s: stop translation %.5f s (%+.2f %%), rotation %.5f s "
                   "(%+.2f %%); xy RMS %.2f %% of %.4f m\n",
                   kvs[sh][0].value, mode_name(MODES[m]), ts, 100 * (ts / tr - 1), rs,
                   100 * (rs / rr - 1), 100 * c.rel, c.amp);
            if (MODES[m] != PF_ODE_MODE_STOCK) {
                ck_assert_msg(fabs(ts / tr - 1) < STOP_TIME_REL_TOL, "%s: %g vs %g",
                              mode_name(MODES[m]), ts, tr);
                ck_assert_msg(fabs(rs / rr - 1) < STOP_TIME_REL_TOL, "%s: %g vs %g",
                              mode_name(MODES[m]), rs, rr);
                ck_assert_msg(fabs(ts - rs) < STOP_SYNC_TOL, "%s: %g vs %g", mode_name(MODES[m]),
                              ts, rs);
                ck_assert_msg(c.rel < TRACK_REL_TOL, "%s: xy RMS %.3f %%", mode_name(MODES[m]),
                              100 * c.rel);
            }
            scene_run_free(&s);
        }
        pf_ref_result_free(&ref);
    }
}
END_TEST

START_TEST(test_bad_input_named)
{
    pfError err;
    pfSceneParam kv[1] = {{"mass", "-1"}};
    ck_assert_int_ne(pf_scene_create("sliding-blocks", "multi-stop", PF_ODE_MODE_EXACT, kv, 1,
                                     &(pfScene *){NULL}, &err),
                     PF_OK);
    ck_assert_ptr_nonnull(strstr(err.message, "mass=-1"));
    ck_assert_int_ne(pf_scene_create("sliding-blocks", "nope", PF_ODE_MODE_EXACT, NULL, 0,
                                     &(pfScene *){NULL}, &err),
                     PF_OK);
    ck_assert_ptr_nonnull(strstr(err.message, "nope"));
    pfSceneParam kv2[1] = {{"criterion", "maybe"}};
    ck_assert_int_ne(pf_scene_create("sliding-blocks", NULL, PF_ODE_MODE_EXACT, kv2, 1,
                                     &(pfScene *){NULL}, &err),
                     PF_OK);
    ck_assert_ptr_nonnull(strstr(err.message, "criterion=maybe"));
    pfSceneParam kv3[1] = {{"h", "0.005"}}; /* h applies to eccentric-push only */
    ck_assert_int_ne(pf_scene_create("sliding-blocks", "multi-stop", PF_ODE_MODE_EXACT, kv3, 1,
                                     &(pfScene *){NULL}, &err),
                     PF_OK);
    ck_assert_ptr_nonnull(strstr(err.message, "'h'"));
    pfSceneParam kv4[1] = {{"criterion", "limit"}};
    pfScene *s = NULL;
    ck_assert_int_eq(pf_scene_create("sliding-blocks", NULL, PF_ODE_MODE_EXACT, kv4, 1, &s, &err),
                     PF_OK);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(pf_scene_step(s, 1e-3, &err), PF_OK);
    ck_assert_int_eq(pf_scene_reset(s, &err), PF_OK);
    ck_assert_double_eq(pf_scene_time(s), 0.0);
    pf_scene_destroy(s);
}
END_TEST

/* The viewer's overlay of the eccentric push: the CA of P10, (-J/(m h), 0) from the mass centre in
 * the block's frame, on the patch plane; left where the motion started after breakaway; none for
 * h = 0 (a translation) and none in the other cases. */
START_TEST(test_eccentric_push_overlay)
{
    const double L = 0.03, W = 0.01, yaw = 0.3, h = 0.005;
    pfSceneParam kv[2] = {{"h", "0.005"}, {"yaw", "0.3"}};
    pfScene *s = NULL;
    pfError err;
    ck_assert_int_eq(
        pf_scene_create("sliding-blocks", "eccentric-push", PF_ODE_MODE_EXACT, kv, 2, &s, &err),
        PF_OK);
    pfSceneOverlay o[PF_SCENE_MAX_OVERLAY];
    ck_assert_int_eq(pf_scene_overlay(s, o, PF_SCENE_MAX_OVERLAY), 2);
    ck_assert_int_eq(o[1].kind, PF_SCENE_OVERLAY_POINT);
    double xca = -(L * L + W * W) / 12.0 / h; /* J/m of the box about the normal */
    ck_assert_double_eq_tol(o[1].p[0], cos(yaw) * xca, OVERLAY_POS_TOL);
    ck_assert_double_eq_tol(o[1].p[1], sin(yaw) * xca, OVERLAY_POS_TOL);
    ck_assert_double_eq_tol(o[1].p[2], -1e-5, OVERLAY_POS_TOL); /* the block sinks 10 um */
    /* past breakaway (about 0.69 s) the block turns away, the point stays */
    while (pf_scene_time(s) < 0.85)
        ck_assert_int_eq(pf_scene_step(s, DT, &err), PF_OK);
    pfSceneOverlay o2[PF_SCENE_MAX_OVERLAY];
    ck_assert_int_eq(pf_scene_overlay(s, o2, PF_SCENE_MAX_OVERLAY), 2);
    double moved = hypot(o2[1].p[0] - o[1].p[0], o2[1].p[1] - o[1].p[1]);
    ck_assert_double_lt(moved, 1e-4); /* it moves only while the block creeps before breakaway */
    double push_moved = hypot(o2[0].q[0] - o[0].q[0], o2[0].q[1] - o[0].q[1]);
    ck_assert_double_gt(push_moved, 1e-3); /* the push point moves with the block */
    pf_scene_destroy(s);
    pfSceneParam kv0[1] = {{"h", "0"}};
    ck_assert_int_eq(
        pf_scene_create("sliding-blocks", "eccentric-push", PF_ODE_MODE_EXACT, kv0, 1, &s, &err),
        PF_OK);
    ck_assert_int_eq(pf_scene_overlay(s, o, PF_SCENE_MAX_OVERLAY), 1);
    pf_scene_destroy(s);
    ck_assert_int_eq(
        pf_scene_create("sliding-blocks", "multi-stop", PF_ODE_MODE_EXACT, NULL, 0, &s, &err),
        PF_OK);
    ck_assert_int_eq(pf_scene_overlay(s, o, PF_SCENE_MAX_OVERLAY), 0);
    pf_scene_destroy(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("scene_sliding");
    TCase *tc = tcase_create("sliding");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_no_slip_circle_never_moves);
    tcase_add_test(tc, test_zero_stop_circle);
    tcase_add_test(tc, test_multi_stop);
    tcase_add_test(tc, test_general_motion);
    tcase_add_test(tc, test_general_motion_yaw_invariant);
    tcase_add_test(tc, test_eccentric_push_breakaway);
    tcase_add_test(tc, test_eccentric_push_overlay);
    tcase_add_test(tc, test_free_slide_stops_together);
    tcase_add_test(tc, test_bad_input_named);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
