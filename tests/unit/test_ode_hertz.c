/* Adapter with Hertzian patches: the contact radius computed from E and nu, and the Padé mode
 * (P17) against the exact integrals (P15), for dWorldStep and dWorldQuickStep at dt = 1e-4, 1e-3
 * and 5e-3 s. Every expected value is a closed form computed here. */
#include "pf_ode_test_scene.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Named tolerances. */
#define HERTZ_RADIUS_REL_TOL 1e-6 /* a from the measured N (N = m g within FORCE_REL_TOL) */
#define FORCE_REL_TOL 1e-6        /* measured normal force vs weight */
#define SPIN_BOUND_REL_TOL 1e-6   /* stick spin capacity (3 pi / 16) mu_s N a (P9) */
#define DECEL_REL_TOL 1e-6        /* sliding deceleration vs mu_k g */
#define PADE_EXACT_REL_TOL 1e-6   /* Padé vs exact: centre displacement and velocity change */

/* Resting sphere: the patch radius is Hertz's a = (3 N R / (4 E*))^(1/3) with
 * 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2 and N = m g, and the stick spin capacity is P9's
 * (3 pi / 16) mu_s N a. Two different materials, so the combination is exercised. */
START_TEST(test_hertz_radius_from_moduli)
{
    const double R = 0.05, m = 0.2, N = m * PF_ODE_TEST_G;
    pfOdeMaterial ball = pf_ode_default_material(), ground = pf_ode_default_material();
    ball.youngs_modulus = 2e7;
    ball.poisson_ratio = 0.45;
    ball.mu_s = ball.mu_k = 0.6;
    ground.youngs_modulus = 1e8;
    ground.poisson_ratio = 0.3;
    ground.mu_s = ground.mu_k = 0.6;
    const double estar = 1.0 / ((1.0 - 0.45 * 0.45) / 2e7 + (1.0 - 0.3 * 0.3) / 1e8);
    const double a = cbrt(3.0 * N * R / (4.0 * estar));
    const double mspin = 3.0 * M_PI / 16.0 * 0.6 * N * a;
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            pfOdeTestScene s;
            pf_ode_test_sphere(&s, R, m, &ball, &ground, quick, PF_ODE_TEST_DTS[k]);
            int steps = (int)lround(0.2 / PF_ODE_TEST_DTS[k]);
            for (int i = 0; i < steps; ++i)
                pf_ode_test_step(&s);
            pfOdePatchInfo info;
            ck_assert_int_eq(pf_ode_find_patch(s.pf, s.geom, s.plane, &info), PF_OK);
            printf("hertz %s dt=%g: a %.9e m expected %.9e (rel %.2e), N %.9f expected %.9f, "
                   "spin bound %.6e expected %.6e\n",
                   pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], info.radius, a,
                   fabs(info.radius - a) / a, info.normal_force, N, info.bounds.mz, mspin);
            ck_assert_int_eq(info.shape, PF_PATCH_HERTZ_DISK);
            ck_assert_int_eq(info.state, PF_ODE_STATE_STICK);
            ck_assert_double_eq_tol(info.normal_force, N, FORCE_REL_TOL * N);
            ck_assert_double_eq_tol(info.radius, a, HERTZ_RADIUS_REL_TOL * a);
            ck_assert_double_eq_tol(info.bounds.mz, mspin, SPIN_BOUND_REL_TOL * mspin);
            pf_ode_test_free(&s);
        }
}
END_TEST

/* Ball launched with v0 along x, backspin w_y < 0 and a drilling spin w_z. While the contact
 * point slides (slip u = v - R w_y > 0), friction is mu_k N against the slip (the drilling
 * spin's Contensou coupling is of order (w_z a / u)^2 ~ 1e-7 here), so the centre decelerates
 * at exactly mu_k g and the slip falls at (7/2) mu_k g: sliding ends at t_s = 2 u0 / (7 mu_k g).
 * Padé and exact mode must give the same motion. */
typedef struct ballrun {
    double decel; /* measured over [0.2, 0.8] t_s */
    double x, v;  /* centre x and v_x at 0.8 t_s */
    double wz;    /* drilling spin at 0.8 t_s */
} ballrun;

static ballrun launch(pfOdeMode mode, int quick, double dt, double R, double m, double mu_k,
                      double v0, double wy0, double wz0, double ts)
{
    pfOdeMaterial mat = pf_ode_default_material();
    mat.mu_s = mat.mu_k = mu_k;
    mat.mode = mode;
    pfOdeTestScene s;
    pf_ode_test_sphere(&s, R, m, &mat, &mat, quick, dt);
    /* settle, then launch */
    for (int i = 0; i < 10; ++i)
        pf_ode_test_step(&s);
    dBodySetLinearVel(s.body, v0, 0, 0);
    dBodySetAngularVel(s.body, 0, wy0, wz0);
    double x0 = dBodyGetPosition(s.body)[0];
    int n1 = (int)lround(0.2 * ts / dt), n2 = (int)lround(0.8 * ts / dt);
    double v1 = 0, t1 = 0, t = 0;
    ballrun r = {0, 0, 0, 0};
    for (int i = 1; i <= n2; ++i) {
        pf_ode_test_step(&s);
        t += dt;
        if (i == n1) {
            v1 = dBodyGetLinearVel(s.body)[0];
            t1 = t;
        }
    }
    r.v = dBodyGetLinearVel(s.body)[0];
    r.decel = -(r.v - v1) / (t - t1);
    r.x = dBodyGetPosition(s.body)[0] - x0;
    r.wz = dBodyGetAngularVel(s.body)[2];
    pf_ode_test_free(&s);
    return r;
}

START_TEST(test_pade_and_exact_sliding_ball)
{
    const double R = 0.05, m = 0.2, mu_k = 0.3, v0 = 1.0, wy0 = -10.0, wz0 = 5.0;
    const double u0 = v0 - R * wy0, ts = 2.0 * u0 / (7.0 * mu_k * PF_ODE_TEST_G);
    const double expect = mu_k * PF_ODE_TEST_G;
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            ballrun e =
                launch(PF_ODE_MODE_EXACT, quick, PF_ODE_TEST_DTS[k], R, m, mu_k, v0, wy0, wz0, ts);
            ballrun p =
                launch(PF_ODE_MODE_PADE, quick, PF_ODE_TEST_DTS[k], R, m, mu_k, v0, wy0, wz0, ts);
            printf("ball %s dt=%g: decel exact %.9f pade %.9f expected %.9f (rel %.2e, %.2e); "
                   "x diff %.2e m, v diff %.2e m/s, w_z exact %.6f pade %.6f\n",
                   pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], e.decel, p.decel, expect,
                   fabs(e.decel - expect) / expect, fabs(p.decel - expect) / expect,
                   fabs(e.x - p.x), fabs(e.v - p.v), e.wz, p.wz);
            ck_assert_double_eq_tol(e.decel, expect, DECEL_REL_TOL * expect);
            ck_assert_double_eq_tol(p.decel, expect, DECEL_REL_TOL * expect);
            ck_assert_double_eq_tol(e.x, p.x, PADE_EXACT_REL_TOL * e.x);
            ck_assert_double_eq_tol(e.v, p.v, PADE_EXACT_REL_TOL * (v0 - e.v));
        }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_hertz");
    TCase *tc = tcase_create("hertz");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_hertz_radius_from_moduli);
    tcase_add_test(tc, test_pade_and_exact_sliding_ball);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    return pf_test_run_suite(suite());
}
