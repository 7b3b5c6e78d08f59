/* Stock mode diagnostics: a block sliding with ODE's own friction reports the friction wrench
 * it actually received, so the viewer and the report can show stock and patch runs alike.
 * Expected values are closed forms: a block sliding along a pyramid axis of dContactApprox1
 * receives mu N against the motion (each contact's row saturates at mu N_i), and no moment
 * about the normal when it slides without spin. */
#include "pf_ode_test_scene.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>

#define WRENCH_REL_TOL 1e-6 /* saturated rows: exact up to the solver's convergence */

START_TEST(stock_slide_reports_wrench)
{
    for (int quick = 0; quick < 2; ++quick) {
        pfOdeMaterial m = pf_ode_default_material();
        m.mode = PF_ODE_MODE_STOCK;
        m.mu_s = m.mu_k = 0.4;
        const double mass = 0.5;
        pfOdeTestScene s;
        pf_ode_test_box(&s, 0.1, 0.06, 0.04, mass, &m, quick, 1e-3, 0.0);
        for (int i = 0; i < 20; ++i) /* settle */
            pf_ode_test_step(&s);
        dBodySetLinearVel(s.body, 1.0, 0.0, 0.0);
        for (int i = 0; i < 20; ++i)
            pf_ode_test_step(&s);
        ck_assert_int_eq(pf_ode_patch_count(s.pf), 1);
        pfOdePatchInfo info;
        ck_assert_int_eq(pf_ode_get_patch(s.pf, 0, &info), PF_OK);
        ck_assert_int_eq(info.state, PF_ODE_STATE_STOCK);
        double N = mass * PF_ODE_TEST_G;
        ck_assert_double_eq_tol(info.normal_force, N, 1e-6 * N);
        /* Force in world coordinates from the reported patch frame. */
        double y[3] = {info.normal[1] * info.xaxis[2] - info.normal[2] * info.xaxis[1],
                       info.normal[2] * info.xaxis[0] - info.normal[0] * info.xaxis[2],
                       info.normal[0] * info.xaxis[1] - info.normal[1] * info.xaxis[0]};
        double fx_world = info.wrench.fx * info.xaxis[0] + info.wrench.fy * y[0];
        double fy_world = info.wrench.fx * info.xaxis[1] + info.wrench.fy * y[1];
        ck_assert_double_eq_tol(fx_world, -0.4 * N, WRENCH_REL_TOL * N);
        ck_assert_double_eq_tol(fy_world, 0.0, WRENCH_REL_TOL * N);
        ck_assert_double_eq_tol(info.wrench.mz, 0.0, WRENCH_REL_TOL * N * 0.1);
        pf_ode_test_free(&s);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ode_stock");
    TCase *tc = tcase_create("stock");
    tcase_add_test(tc, stock_slide_reports_wrench);
    suite_add_tcase(s, tc);
    return pf_test_run_suite(s);
}
