/* coupled-masses scene (docs/physics.md §4, P21) against the GSL reference with the stick condition
 * on the acceleration: first synchronisation time, energy never increasing (up to the integrator's
 * own energy error, bounded below in closed form), and the x1 trajectory. The interfaces: the ODE
 * patch contact (exact, pade), stock ODE friction (figures only) and the 1-D Coulomb law through
 * pf_law_solve_1d. */
#include "scene_compare.h"
#include "pf_test_support.h"

#define DT 1e-3
/* Named tolerances. */
#define FIRST_STICK_TOL 5e-3 /* [s] first synchronisation vs reference (5 steps) */
#define TRACK_REL_TOL 0.01   /* RMS x1 error / amplitude */

typedef struct Iface {
    const char *name;
    pfOdeMode mode;
    const char *law; /* NULL: ODE patch contact */
    int figure_only;
} Iface;

static const Iface IFACES[4] = {{"exact", PF_ODE_MODE_EXACT, NULL, 0},
                                {"pade", PF_ODE_MODE_PADE, NULL, 0},
                                {"stock", PF_ODE_MODE_STOCK, NULL, 1},
                                {"law=coulomb", PF_ODE_MODE_EXACT, "coulomb", 0}};

static void coupled_case(const char *cs, double T)
{
    pfRefCoupled p;
    ck_assert_int_eq(pf_ref_coupled_default(cs, &p), 0);
    pfRefResult ref;
    ck_assert_int_eq(pf_ref_coupled_run(&p, T, DT, &ref), 0);
    double t_ref = pf_ref_metric(&ref, "first_stick_time");
    double e0 = 0.5 * p.a2 * p.x1 * p.x1 + 0.5 * p.m1 * p.v1 * p.v1;
    /* symplectic Euler (ODE's integrator for the explicit spring force) keeps a modified energy;
     * the true energy oscillates about it by at most ~ omega dt E0, omega = sqrt(a2 / m1) the
     * fastest mode (body 1 alone). */
    double rise_tol = sqrt(p.a2 / p.m1) * DT * e0;
    printf("coupled %-5s reference: first stick %.4f s, max energy increase %.2e J, %ld "
           "switches\n",
           cs, t_ref, pf_ref_metric(&ref, "max_energy_increase"), ref.switches);
    ck_assert(isfinite(t_ref));
    ck_assert_double_le(pf_ref_metric(&ref, "max_energy_increase"), 1e-12 * e0 + 1e-15);
    static const char *const x1[] = {"x1"};
    for (int k = 0; k < 4; ++k) {
        SceneRun s;
        pfSceneParam kv[1] = {{"law", IFACES[k].law}};
        scene_run(&s, "coupled-masses", cs, IFACES[k].mode, kv, IFACES[k].law ? 1 : 0, T, DT);
        double ts = scene_metric(&s, "first_stick_time"),
               rise = scene_metric(&s, "max_energy_increase");
        Cmp c = scene_compare(&s, &ref, x1, 1);
        printf("coupled %-5s %-11s: first stick %.4f s (%+.4f), max energy increase %.2e J "
               "(bound %.2e), x1 RMS %.2f %% of %.4f m\n",
               cs, IFACES[k].name, ts, ts - t_ref, rise, rise_tol, 100 * c.rel, c.amp);
        if (!IFACES[k].figure_only) {
            ck_assert_msg(fabs(ts - t_ref) < FIRST_STICK_TOL, "%s: first stick %g vs %g",
                          IFACES[k].name, ts, t_ref);
            ck_assert_msg(rise < rise_tol, "%s: energy rose by %g J", IFACES[k].name, rise);
            ck_assert_msg(c.rel < TRACK_REL_TOL, "%s: x1 RMS %.3f %%", IFACES[k].name, 100 * c.rel);
        }
        scene_run_free(&s);
    }
    pf_ref_result_free(&ref);
}

START_TEST(test_stick_case)
{
    coupled_case("stick", 1.0);
}
END_TEST

START_TEST(test_slip_case)
{
    coupled_case("slip", 5.0);
}
END_TEST

START_TEST(test_bad_input_named)
{
    pfError err;
    pfSceneParam kv[1] = {{"law", "magic"}};
    ck_assert_int_ne(
        pf_scene_create("coupled-masses", NULL, PF_ODE_MODE_EXACT, kv, 1, &(pfScene *){NULL}, &err),
        PF_OK);
    ck_assert_ptr_nonnull(strstr(err.message, "law=magic"));
    pfSceneParam kv2[1] = {{"m2", "0"}};
    ck_assert_int_ne(pf_scene_create("coupled-masses", NULL, PF_ODE_MODE_EXACT, kv2, 1,
                                     &(pfScene *){NULL}, &err),
                     PF_OK);
    ck_assert_ptr_nonnull(strstr(err.message, "m2=0"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("scene_coupled");
    TCase *tc = tcase_create("coupled");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_stick_case);
    tcase_add_test(tc, test_slip_case);
    tcase_add_test(tc, test_bad_input_named);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
