/* Stock mode diagnostics: a block sliding with ODE's own friction reports the friction wrench
 * it actually received, so the viewer and the report can show stock and patch runs alike.
 * Expected values are closed forms: a block sliding along a pyramid axis of dContactApprox1
 * receives mu N against the motion (each contact's row saturates at mu N_i), and no moment
 * about the normal when it slides without spin. A STOCK contact on a patched body takes its last
 * step's normal force as its friction bound under dWorldStep only (pf_ode_normal_contacts). */
#include "pf_ode_test_scene.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <stdio.h>

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

/* A STOCK ball (radius 20 mm, 0.1 kg) dropped from 1 mm onto a box (100 mm, 1 kg) on the ground,
 * 300 steps of 1 ms. Returns the pair-steps whose friction was bounded by the last step's normal
 * force (pfOdeCounters.stock_lagged); *contact and *lag get the step of the ball's first contact
 * (its pair's first STOCK step) and of the first lagged one (-1: none). */
static long long ball_on_box(pfOdeStepper stepper, int quick, int box_stock, int *contact, int *lag)
{
    pfOdeMaterial m = pf_ode_default_material(), ball = m;
    if (box_stock) m.mode = PF_ODE_MODE_STOCK;
    ball.mode = PF_ODE_MODE_STOCK;
    pfOdeTestScene s;
    pf_ode_test_box(&s, 0.1, 0.1, 0.1, 1.0, &m, quick, 1e-3, 0.0);
    pf_ode_destroy(s.pf); /* the same world, with the stepper declared */
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = PF_ODE_COUPLING_ADAPTER;
    cfg.stepper = stepper;
    ck_assert_int_eq(pf_ode_create(s.world, &cfg, &s.pf, NULL), PF_OK);
    ck_assert_int_eq(pf_ode_set_material(s.pf, s.geom, &m, NULL), PF_OK);
    ck_assert_int_eq(pf_ode_set_material(s.pf, s.plane, &m, NULL), PF_OK);
    dBodyID b = dBodyCreate(s.world);
    dMass mb;
    dMassSetSphereTotal(&mb, 0.1, 0.02);
    dBodySetMass(b, &mb);
    dBodySetPosition(b, 0.01, 0.0, 0.1 + 0.02 + 1e-3);
    dGeomID g = dCreateSphere(s.space, 0.02);
    dGeomSetBody(g, b);
    ck_assert_int_eq(pf_ode_set_material(s.pf, g, &ball, NULL), PF_OK);
    *contact = *lag = -1;
    long long stock0 = pf_ode_get_counters(s.pf).stock_steps;
    for (int i = 0; i < 300; ++i) {
        pf_ode_test_step(&s);
        const pfOdeCounters c = pf_ode_get_counters(s.pf);
        if (*contact < 0 && !box_stock && c.stock_steps > stock0) *contact = i;
        if (*lag < 0 && c.stock_lagged > 0) *lag = i;
    }
    const long long n = pf_ode_get_counters(s.pf).stock_lagged;
    const dReal *p = dBodyGetPosition(b);
    ck_assert_msg(fabs(p[2] - 0.12) < 1e-3, "the ball at z = %g, not on the box", p[2]);
    dGeomDestroy(g);
    pf_ode_test_free(&s);
    return n;
}

START_TEST(stock_contact_on_patch_lags_under_world_only)
{
    int contact, lag;
    long long n = ball_on_box(PF_ODE_STEPPER_WORLD, 0, 0, &contact, &lag);
    printf("STOCK ball on a patched box, dWorldStep: contact from step %d, lagged bound from step "
           "%d, %lld lagged steps\n",
           contact, lag, n);
    ck_assert_int_ge(contact, 0);
    /* two steps on ODE's rule first (the impact and the next), then the ball at rest */
    ck_assert_int_ge(lag - contact, 2);
    ck_assert_int_ge(n, 250);
    ck_assert_int_eq(ball_on_box(PF_ODE_STEPPER_UNSPECIFIED, 0, 0, &contact, &lag), 0);
    ck_assert_int_eq(ball_on_box(PF_ODE_STEPPER_QUICK, 1, 0, &contact, &lag), 0);
    /* no patch in the world: ODE's own friction */
    ck_assert_int_eq(ball_on_box(PF_ODE_STEPPER_WORLD, 0, 1, &contact, &lag), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ode_stock");
    TCase *tc = tcase_create("stock");
    tcase_add_test(tc, stock_slide_reports_wrench);
    tcase_add_test(tc, stock_contact_on_patch_lags_under_world_only);
    suite_add_tcase(s, tc);
    return pf_test_run_suite(s);
}
