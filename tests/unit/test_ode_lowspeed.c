/* Adapter slip rows at low speed, where the load turns the sliding direction by tens of degrees
 * per step, for dWorldStep and dWorldQuickStep at dt = 1e-4, 1e-3 and 5e-3 s.
 *
 * Closed form (docs/physics.md P37): for a translating block (mass m, isotropic Coulomb friction
 * mu N, N = m g) under a load F, backward-Euler friction gives, with u = v0 + dt F/m,
 *     v1 = u (1 - dt mu g / |u|)   if |u| > dt mu g,   else v1 = 0,                          (BE)
 * i.e. v1 is parallel to the frictionless predicted velocity u. The adapter's slip rows must land
 * on (BE): never leave part of the load unresisted (a "kick" along the old direction's
 * perpendicular) and never push the velocity past zero. Every expected value is (BE) iterated
 * here.
 *
 * The in-solver coupling (patched ODE, plugin/ode/pf_ode_solver.c) takes the friction of a sliding
 * patch at the midpoint twist instead, v_m = (v0 + v1)/2 (second order while sliding):
 *     v_m = w (1 - (dt/2) mu g / |w|),  w = v0 + (dt/2) F/m,   v1 = 2 v_m - v0,               (MID)
 * and falls back to (BE) when (MID) would stick (|w| <= (dt/2) mu g) or turn v1 against v0, or
 * when the block is at rest at the start (|v0| below the adapter's stick_velocity_tol, 1e-4 m/s):
 * a patch that stops within the step ends at rest. With that coupling the expected velocities are
 * (MID) iterated here. */
#include "pf_ode_test_scene.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <stdio.h>

/* Named tolerances. */
/* [m/s] a step that (BE) ends at rest: QuickStep leaves ~1e-9, a kick is 0.9 mu g dt >= 3.5e-4 */
#define STOP_SPEED_TOL 1e-7
#define BE_SPEED_TOL 1e-6  /* [m/s] velocity vs (BE), any step (speeds here ~ 1e-3..1e-1) */
#define BE_POS_TOL 1e-6    /* [m] position vs (BE) integrated the same way (x += dt v1) */
#define REST_DISP_TOL 1e-9 /* [m] creep after the stop, under a load below mu_s m g */

#define BL 0.10
#define BW 0.06
#define BH 0.04
#define BM 0.5
#define MU 0.4

static void setup(pfOdeTestScene *s, int quick, double dt)
{
    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = m.mu_k = MU;
    pf_ode_test_box(s, BL, BW, BH, BM, &m, quick, dt, 0.0);
}

/* One step of (BE) from v under the load F (per unit mass a = F/m). */
static void be_step(const double *v, const double *a, double dt, double *v1)
{
    double u[2] = {v[0] + dt * a[0], v[1] + dt * a[1]}, s = hypot(u[0], u[1]);
    double d = dt * MU * PF_ODE_TEST_G;
    double k = s > d ? 1.0 - d / s : 0.0;
    v1[0] = k * u[0];
    v1[1] = k * u[1];
}

/* One step of the in-solver coupling's scheme (MID, falling back to BE). */
static void solver_step(const double *v, const double *a, double dt, double *v1)
{
    double w[2] = {v[0] + 0.5 * dt * a[0], v[1] + 0.5 * dt * a[1]}, s = hypot(w[0], w[1]);
    double d = 0.5 * dt * MU * PF_ODE_TEST_G;
    if (hypot(v[0], v[1]) >= pf_ode_default_config().stick_velocity_tol && s > d) {
        double k = 1.0 - d / s;
        double x[2] = {2.0 * k * w[0] - v[0], 2.0 * k * w[1] - v[1]};
        if (x[0] * v[0] + x[1] * v[1] > 0.0) {
            v1[0] = x[0];
            v1[1] = x[1];
            return;
        }
    }
    be_step(v, a, dt, v1);
}

/* The scheme of the coupling in use: AUTO is the solver's when the ODE has the patch series. */
static void scheme_step(const double *v, const double *a, double dt, double *v1)
{
    if (pf_ode_solver_coupling_available())
        solver_step(v, a, dt, v1);
    else
        be_step(v, a, dt, v1);
}

/* A block sliding slowly along +x is loaded along +y at 0.9 mu m g: (BE) stops it within the
 * step (|v0 + dt a| < dt mu g) and it then stays at rest. Taking the direction from the
 * start-of-step velocity leaves the +y load unresisted for the step (vy = 0.9 mu g dt). */
START_TEST(test_perpendicular_load_stops_without_kick)
{
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            const double dt = PF_ODE_TEST_DTS[k], g = MU * PF_ODE_TEST_G;
            /* v0 above the stick tolerance (1e-4 m/s) at every dt, below dt mu g (1 - 0.9^2)^0.5
             * = 0.436 dt mu g, so that (BE) stops it */
            const double v0 = 0.35 * dt * g;
            const double a[2] = {0.0, 0.9 * g}, vs[2] = {v0, 0.0};
            double ve[2];
            be_step(vs, a, dt, ve);
            ck_assert_double_eq(hypot(ve[0], ve[1]), 0.0); /* (BE): at rest */
            pfOdeTestScene s;
            setup(&s, quick, dt);
            /* let the first-contact estimate settle at rest, then launch */
            for (int i = 0; i < 3; ++i)
                pf_ode_test_step(&s);
            dBodySetLinearVel(s.body, v0, 0.0, 0.0);
            dBodySetAngularVel(s.body, 0.0, 0.0, 0.0);
            const dReal *p0 = dBodyGetPosition(s.body);
            double x0 = p0[0], y0 = p0[1];
            dBodyAddForce(s.body, 0.0, BM * a[1], 0.0);
            pf_ode_test_step(&s);
            const dReal *v = dBodyGetLinearVel(s.body);
            double sp = hypot(v[0], v[1]);
            printf("lowspeed stop %s dt=%g: v0 %.3e m/s, after one step %.3e m/s (BE 0)\n",
                   pf_ode_test_stepper_name(quick), dt, v0, sp);
            ck_assert_msg(sp < STOP_SPEED_TOL, "%s dt=%g: speed %.3e after the stopping step",
                          pf_ode_test_stepper_name(quick), dt, sp);
            const dReal *p1 = dBodyGetPosition(s.body);
            double x1 = p1[0], y1 = p1[1];
            int n = (int)lround(0.5 / dt);
            for (int i = 0; i < n; ++i) {
                dBodyAddForce(s.body, 0.0, BM * a[1], 0.0);
                pf_ode_test_step(&s);
            }
            double creep = pf_ode_test_planar_dist(&s, x1, y1);
            printf("lowspeed stop %s dt=%g: step displacement %.3e m, then creep %.3e m in 0.5 s\n",
                   pf_ode_test_stepper_name(quick), dt, hypot(x1 - x0, y1 - y0), creep);
            ck_assert_msg(creep < REST_DISP_TOL, "%s dt=%g: creep %.3e m",
                          pf_ode_test_stepper_name(quick), dt, creep);
            pf_ode_test_free(&s);
        }
}
END_TEST

/* From rest, a load of 1.05 mu m g rotating at 10 rad/s: the block chases it at a few mm/s to
 * cm/s, its direction turning every step, and stops whenever (BE) says so. The velocity must
 * follow (BE) step by step. */
START_TEST(test_rotating_load_follows_backward_euler)
{
    const double F0 = 1.05 * MU * BM * PF_ODE_TEST_G, W = 10.0, T = 1.0;
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            const double dt = PF_ODE_TEST_DTS[k];
            pfOdeTestScene s;
            setup(&s, quick, dt);
            for (int i = 0; i < 3; ++i)
                pf_ode_test_step(&s);
            dBodySetLinearVel(s.body, 0.0, 0.0, 0.0);
            dBodySetAngularVel(s.body, 0.0, 0.0, 0.0);
            const dReal *p0 = dBodyGetPosition(s.body);
            double pe[2] = {p0[0], p0[1]}, ve[2] = {0.0, 0.0};
            double max_dv = 0.0, max_v = 0.0, t = 0.0;
            int n = (int)lround(T / dt);
            for (int i = 0; i < n; ++i, t += dt) {
                double a[2] = {F0 * cos(W * t) / BM, F0 * sin(W * t) / BM};
                dBodyAddForce(s.body, BM * a[0], BM * a[1], 0.0);
                pf_ode_test_step(&s);
                scheme_step(ve, a, dt, ve);
                pe[0] += dt * ve[0];
                pe[1] += dt * ve[1];
                const dReal *v = dBodyGetLinearVel(s.body);
                max_dv = fmax(max_dv, hypot(v[0] - ve[0], v[1] - ve[1]));
                max_v = fmax(max_v, hypot(ve[0], ve[1]));
            }
            const dReal *p = dBodyGetPosition(s.body);
            double dp = hypot(p[0] - pe[0], p[1] - pe[1]);
            printf("lowspeed rotating %s dt=%g: max |v - v_scheme| %.3e m/s (max speed %.3e m/s), "
                   "final position error %.3e m\n",
                   pf_ode_test_stepper_name(quick), dt, max_dv, max_v, dp);
            ck_assert_msg(max_dv < BE_SPEED_TOL, "%s dt=%g: |v - v_BE| %.3e m/s",
                          pf_ode_test_stepper_name(quick), dt, max_dv);
            ck_assert_msg(dp < BE_POS_TOL, "%s dt=%g: position error %.3e m",
                          pf_ode_test_stepper_name(quick), dt, dp);
            pf_ode_test_free(&s);
        }
}
END_TEST

static Suite *suite(void)
{
    Suite *su = suite_create("ode_lowspeed");
    TCase *tc = tcase_create("lowspeed");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_perpendicular_load_stops_without_kick);
    tcase_add_test(tc, test_rotating_load_follows_backward_euler);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
