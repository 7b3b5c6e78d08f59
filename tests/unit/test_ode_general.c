/* Generalised holding-wrench stick test (physics.md §2) for bodies under other joints and for
 * patches between two dynamic bodies. */
#include "pf_ode_test_scene.h"

#include <check.h>
#include <math.h>

START_TEST(test_box_on_box_slides_at_kinetic_rate)
{
    /* Top box (m) on a heavy bottom box (M) on a frictionless-ish ground: pushing the top box
     * with 1.5 mu_s m g, the top accelerates at (F - mu_k m g)/m relative to the world while the
     * bottom is dragged by mu_k m g (bottom held by its own stick patch with the ground). */
    const double m = 0.2, M = 5.0, mu_s = 0.5, mu_k = 0.4;
    pfOdeMaterial mat = pf_ode_default_material();
    mat.mu_s = mu_s;
    mat.mu_k = mu_k;
    for (int quick = 0; quick < 2; ++quick) {
        pfOdeTestScene s;
        pf_ode_test_box(&s, 2.0, 2.0, 0.1, M, &mat, quick, 1e-3, 0.0);
        dBodyID top = dBodyCreate(s.world);
        dMass mm;
        dMassSetBoxTotal(&mm, m, 0.1, 0.06, 0.04);
        dBodySetMass(top, &mm);
        dBodySetPosition(top, 0, 0, 0.1 - 1e-5 + 0.02 - 1e-5);
        dGeomID tg = dCreateBox(s.space, 0.1, 0.06, 0.04);
        dGeomSetBody(tg, top);
        pf_ode_set_material(s.pf, tg, &mat, NULL);
        double F = 1.5 * mu_s * m * PF_ODE_TEST_G, v1 = 0, t1 = 0;
        for (int i = 0; i < 500; ++i) {
            dBodyAddForce(top, F, 0, 0);
            pf_ode_test_step(&s);
            if (i == 100) {
                v1 = dBodyGetLinearVel(top)[0];
                t1 = s.time;
            }
        }
        double a = (dBodyGetLinearVel(top)[0] - v1) / (s.time - t1);
        double expect = (F - mu_k * m * PF_ODE_TEST_G) / m;
        ck_assert_msg(fabs(a - expect) < 5e-3 * expect, "a = %g expected %g", a, expect);
        /* the ground carries both boxes */
        pfOdePatchInfo info;
        ck_assert_int_eq(pf_ode_find_patch(s.pf, s.geom, s.plane, &info), PF_OK);
        ck_assert_double_eq_tol(info.normal_force_measured, (M + m) * PF_ODE_TEST_G,
                                1e-6 * (M + m) * PF_ODE_TEST_G);
        pf_ode_test_free(&s);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_general");
    TCase *tc = tcase_create("general");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_box_on_box_slides_at_kinetic_rate);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
