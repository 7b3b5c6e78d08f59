/* Adapter physics on a block resting on a plane, for dWorldStep and dWorldQuickStep at
 * dt = 1e-4, 1e-3 and 5e-3 s. Every expected value is a closed form computed here or in
 * pf_test_closed_forms.c. */
#include "pf_ode_test_scene.h"
#include "pf_test_closed_forms.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <stdio.h>

/* Named tolerances (what the adapter promises: no creep while stuck, exact sliding and breakaway).
 */
#define CREEP_TOL 1e-9            /* [m] in 10 s */
#define ACCEL_REL_TOL 5e-3        /* sliding acceleration */
#define BREAKAWAY_SPREAD_TOL 1e-3 /* (max - min) / mean over 0..90 deg */
#define SPIN_STOP_REL_TOL 1e-2    /* stop time of a spinning box */
#define ECCENTRIC_REL_TOL 1e-2    /* breakaway force of the eccentric push */

/* Block of the translation tests. */
#define BL 0.10
#define BW 0.06
#define BH 0.04
#define BM 0.5
#define MU_S 0.5
#define MU_K 0.4

START_TEST(test_push_below_static_does_not_creep)
{
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_K);
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            pfOdeTestScene s;
            pf_ode_test_box(&s, BL, BW, BH, BM, &m, quick, PF_ODE_TEST_DTS[k], 0.0);
            const dReal *p0 = dBodyGetPosition(s.body);
            double x0 = p0[0], y0 = p0[1];
            double F = 0.9 * MU_S * BM * PF_ODE_TEST_G;
            int steps = (int)lround(10.0 / PF_ODE_TEST_DTS[k]);
            for (int i = 0; i < steps; ++i) {
                dBodyAddForce(s.body, F, 0, 0);
                pf_ode_test_step(&s);
            }
            double d = pf_ode_test_planar_dist(&s, x0, y0);
            printf("creep %s dt=%g: %.3e m\n", pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k],
                   d);
            ck_assert_msg(d < CREEP_TOL, "%s dt=%g: crept %.3e m", pf_ode_test_stepper_name(quick),
                          PF_ODE_TEST_DTS[k], d);
            pf_ode_test_free(&s);
        }
}
END_TEST

/* A box on a kinematic slab, the pair handed to pf_ode_collide slab first: the adapter takes the
 * dynamic body as body 1 (its stick test models body 1), so a push below mu_s m g is held as on
 * a static plane. Before, the patch stayed in slip (0 of 1000 steps stuck) and the box crept
 * 4e-6 m in 1 s. */
START_TEST(test_kinematic_first_geom_sticks)
{
    dInitODE2(0); /* this test builds its world without pf_ode_test_box */
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_K);
    for (int quick = 0; quick < 2; ++quick) {
        dWorldID w = dWorldCreate();
        dWorldSetGravity(w, 0, 0, -PF_ODE_TEST_G);
        dJointGroupID grp = dJointGroupCreate(0);
        pfOdeContext *pf = NULL;
        ck_assert_int_eq(pf_ode_create(w, NULL, &pf, NULL), PF_OK);
        dBodyID slab = dBodyCreate(w), box = dBodyCreate(w);
        dBodySetKinematic(slab);
        dBodySetPosition(slab, 0, 0, -0.05);
        dGeomID gs = dCreateBox(0, 1.0, 1.0, 0.1), gb = dCreateBox(0, BL, BW, BH);
        dGeomSetBody(gs, slab);
        dGeomSetBody(gb, box);
        dMass mass;
        dMassSetBoxTotal(&mass, BM, BL, BW, BH);
        dBodySetMass(box, &mass);
        dBodySetPosition(box, 0, 0, 0.5 * BH - 1e-6);
        ck_assert_int_eq(pf_ode_set_material(pf, gs, &m, NULL), PF_OK);
        ck_assert_int_eq(pf_ode_set_material(pf, gb, &m, NULL), PF_OK);
        const double dt = 1e-3, F = 0.9 * MU_S * BM * PF_ODE_TEST_G;
        double x0 = 0.0;
        long stuck = 0, steps = 0;
        for (int i = 0; i < 2000; ++i) {
            if (i == 500) x0 = dBodyGetPosition(box)[0];
            if (i >= 500) dBodyAddForce(box, F, 0, 0);
            ck_assert_int_ge(pf_ode_collide(pf, gs, gb, grp), 0);
            ck_assert_int_eq(pf_ode_before_step(pf, dt), PF_OK);
            if (quick)
                dWorldQuickStep(w, dt);
            else
                dWorldStep(w, dt);
            ck_assert_int_eq(pf_ode_after_step(pf), PF_OK);
            pfOdePatchInfo info;
            if (i >= 500 && pf_ode_find_patch(pf, gs, gb, &info) == PF_OK) {
                ++steps;
                stuck += info.state == PF_ODE_STATE_STICK;
            }
            dJointGroupEmpty(grp);
        }
        double d = fabs(dBodyGetPosition(box)[0] - x0);
        printf("kinematic slab first, %s: stuck %ld of %ld steps, moved %.3e m\n",
               pf_ode_test_stepper_name(quick), stuck, steps, d);
        ck_assert_int_eq(steps, 1500);
        ck_assert_int_eq(stuck, steps);
        ck_assert_double_lt(d, CREEP_TOL);
        pf_ode_destroy(pf);
        dGeomDestroy(gs);
        dGeomDestroy(gb);
        dJointGroupDestroy(grp);
        dWorldDestroy(w);
    }
}
END_TEST

START_TEST(test_push_above_static_accelerates)
{
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_K);
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            pfOdeTestScene s;
            pf_ode_test_box(&s, BL, BW, BH, BM, &m, quick, PF_ODE_TEST_DTS[k], 0.0);
            double F = 1.5 * MU_S * BM * PF_ODE_TEST_G;
            double expect = (F - MU_K * BM * PF_ODE_TEST_G) / BM;
            double v1 = 0, t1 = 0;
            int steps = (int)lround(1.0 / PF_ODE_TEST_DTS[k]);
            for (int i = 0; i < steps; ++i) {
                dBodyAddForce(s.body, F, 0, 0);
                pf_ode_test_step(&s);
                if (i == steps / 4) {
                    v1 = dBodyGetLinearVel(s.body)[0];
                    t1 = s.time;
                }
            }
            double a = (dBodyGetLinearVel(s.body)[0] - v1) / (s.time - t1);
            double rel = fabs(a - expect) / expect;
            printf("accel %s dt=%g: %.6f expected %.6f (rel %.2e)\n",
                   pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], a, expect, rel);
            ck_assert_msg(rel < ACCEL_REL_TOL, "%s dt=%g: a = %g, expected %g",
                          pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], a, expect);
            pf_ode_test_free(&s);
        }
}
END_TEST

/* Ramp a force along angle ang (block frame) from lo to hi times mu_s m g over ramp_time;
 * breakaway = force at the first step the adapter reports SLIP (patch mode) or the block has
 * moved more than 1e-4 m (stock mode, which has no state). */
static double breakaway(const pfOdeMaterial *m, int quick, double dt, double ang, double lo,
                        double hi, double ramp_time, int stock)
{
    pfOdeTestScene s;
    pf_ode_test_box(&s, BL, BW, BH, BM, m, quick, dt, 0.0);
    double fs = MU_S * BM * PF_ODE_TEST_G;
    int steps = (int)lround(ramp_time / dt);
    double found = NAN;
    for (int i = 0; i < steps && isnan(found); ++i) {
        double F = fs * (lo + (hi - lo) * (double)i / steps);
        dBodyAddForce(s.body, F * cos(ang), F * sin(ang), 0);
        pf_ode_test_step(&s);
        if (stock) {
            if (pf_ode_test_planar_dist(&s, 0, 0) > 1e-4) found = F;
        } else {
            pfOdePatchInfo info;
            if (pf_ode_find_patch(s.pf, s.geom, s.plane, &info) == PF_OK &&
                info.state == PF_ODE_STATE_SLIP)
                found = F;
        }
    }
    pf_ode_test_free(&s);
    return found;
}

START_TEST(test_breakaway_isotropic)
{
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_K);
    double fs = MU_S * BM * PF_ODE_TEST_G;
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            double lo = INFINITY, hi = -INFINITY, sum = 0;
            int n = 0;
            for (int a = 0; a <= 90; a += 15) {
                double f =
                    breakaway(&m, quick, PF_ODE_TEST_DTS[k], a * M_PI / 180.0, 0.99, 1.01, 1.0, 0);
                ck_assert_msg(isfinite(f), "%s dt=%g angle %d: no breakaway",
                              pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], a);
                /* at mu_s N, within one step of the ramp (0.02 mu_s N per second) */
                ck_assert_msg(f >= fs * (1.0 - 1e-9) &&
                                  f <= fs * (1.0 + 0.02 * PF_ODE_TEST_DTS[k] + 1e-6),
                              "%s dt=%g angle %d: breakaway %g vs mu_s N %g",
                              pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], a, f, fs);
                lo = fmin(lo, f);
                hi = fmax(hi, f);
                sum += f;
                ++n;
            }
            double spread = (hi - lo) / (sum / n);
            printf("breakaway spread %s dt=%g: %.3e (mu_s N = %.6f, min %.6f max %.6f)\n",
                   pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], spread, fs, lo, hi);
            ck_assert_msg(spread < BREAKAWAY_SPREAD_TOL, "%s dt=%g: spread %g",
                          pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], spread);
        }
}
END_TEST

/* Stock mode: the spread is printed as a figure for comparison (not a failure). */
START_TEST(test_breakaway_stock_spread_figure)
{
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_S);
    m.mode = PF_ODE_MODE_STOCK;
    for (int quick = 0; quick < 2; ++quick) {
        double dt = 1e-3, lo = INFINITY, hi = -INFINITY, sum = 0;
        int n = 0;
        for (int a = 0; a <= 90; a += 15) {
            double f = breakaway(&m, quick, dt, a * M_PI / 180.0, 0.5, 1.6, 4.0, 1);
            ck_assert(isfinite(f));
            printf("stock %s angle %2d: breakaway %.5f (x mu_s N: %.4f)\n",
                   pf_ode_test_stepper_name(quick), a, f, f / (MU_S * BM * PF_ODE_TEST_G));
            lo = fmin(lo, f);
            hi = fmax(hi, f);
            sum += f;
            ++n;
        }
        printf("STOCK breakaway spread %s dt=%g: %.4f\n", pf_ode_test_stepper_name(quick), dt,
               (hi - lo) / (sum / n));
    }
}
END_TEST

START_TEST(test_incline)
{
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_K);
    double phi = atan(MU_S);
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            /* 0.9 x friction angle: no creep in 10 s */
            pfOdeTestScene s;
            pf_ode_test_box(&s, BL, BW, BH, BM, &m, quick, PF_ODE_TEST_DTS[k], 0.9 * phi);
            int steps = (int)lround(10.0 / PF_ODE_TEST_DTS[k]);
            for (int i = 0; i < steps; ++i)
                pf_ode_test_step(&s);
            double d = pf_ode_test_planar_dist(&s, 0, 0);
            printf("incline creep %s dt=%g: %.3e m\n", pf_ode_test_stepper_name(quick),
                   PF_ODE_TEST_DTS[k], d);
            ck_assert_msg(d < CREEP_TOL, "%s dt=%g: crept %.3e m", pf_ode_test_stepper_name(quick),
                          PF_ODE_TEST_DTS[k], d);
            pf_ode_test_free(&s);
            /* 1.1 x: slides with a = g (sin - mu_k cos) */
            double th = 1.1 * phi;
            double expect = PF_ODE_TEST_G * (sin(th) - MU_K * cos(th));
            pf_ode_test_box(&s, BL, BW, BH, BM, &m, quick, PF_ODE_TEST_DTS[k], th);
            steps = (int)lround(1.0 / PF_ODE_TEST_DTS[k]);
            double v1 = 0, t1 = 0;
            for (int i = 0; i < steps; ++i) {
                pf_ode_test_step(&s);
                if (i == steps / 4) {
                    v1 = dBodyGetLinearVel(s.body)[0];
                    t1 = s.time;
                }
            }
            double a = (dBodyGetLinearVel(s.body)[0] - v1) / (s.time - t1);
            double rel = fabs(a - expect) / expect;
            printf("incline slide %s dt=%g: a %.6f expected %.6f (rel %.2e)\n",
                   pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], a, expect, rel);
            ck_assert_msg(rel < ACCEL_REL_TOL, "%s dt=%g: a = %g, expected %g",
                          pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], a, expect);
            pf_ode_test_free(&s);
        }
}
END_TEST

START_TEST(test_spin_stop_time)
{
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_K);
    const double w0 = 200.0;
    /* P9 for the rectangle: M = mu_k N <|r|>, J = m (L^2 + W^2) / 12 */
    double J = BM * (BL * BL + BW * BW) / 12.0;
    double M = MU_K * BM * PF_ODE_TEST_G * pf_test_rect_mean_dist(BL, BW, 0, 0);
    double expect = w0 * J / M;
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            pfOdeTestScene s;
            pf_ode_test_box(&s, BL, BW, BH, BM, &m, quick, PF_ODE_TEST_DTS[k], 0.0);
            dBodySetAngularVel(s.body, 0, 0, w0);
            double wprev = w0, tstop = NAN;
            int steps = (int)lround(2.0 * expect / PF_ODE_TEST_DTS[k]);
            for (int i = 0; i < steps && isnan(tstop); ++i) {
                double t0 = s.time;
                pf_ode_test_step(&s);
                double w = dBodyGetAngularVel(s.body)[2];
                if (w <= 1e-9 * w0) /* stopped within this step: interpolate the zero */
                    tstop = t0 + PF_ODE_TEST_DTS[k] * wprev / (wprev - w);
                wprev = w;
            }
            double rel = fabs(tstop - expect) / expect;
            printf("spin stop %s dt=%g: %.5f s expected %.5f (rel %.2e)\n",
                   pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], tstop, expect, rel);
            ck_assert_msg(rel < SPIN_STOP_REL_TOL, "%s dt=%g: stop %g expected %g",
                          pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], tstop, expect);
            pf_ode_test_free(&s);
        }
}
END_TEST

START_TEST(test_eccentric_push_breakaway)
{
    /* docs/physics.md §6: aluminium block 30 x 10 x 10 mm on steel, mu_s 0.55, mu_k 0.52 */
    const double L = 0.03, W = 0.01, H = 0.01, m = 2700.0 * L * W * H;
    const double J = m * (L * L + W * W) / 12.0, N = m * PF_ODE_TEST_G;
    pfOdeMaterial mat = pf_ode_test_material(0.55, 0.52);
    const double hs[2] = {0.005, 0.010};
    for (int ih = 0; ih < 2; ++ih) {
        double h = hs[ih];
        /* P10: push F along y at (h, 0): ay = F/m, alpha = F h / J, CA = (-J/(m h), 0).
         * P12: F (h + J/(m h)) = mu_s N <|r - CA|>. */
        double xca = -J / (m * h);
        double expect = 0.55 * N * pf_test_rect_mean_dist(L, W, xca, 0.0) / (h - xca);
        for (int quick = 0; quick < 2; ++quick)
            for (int k = 0; k < 3; ++k) {
                pfOdeTestScene s;
                pf_ode_test_box(&s, L, W, H, m, &mat, quick, PF_ODE_TEST_DTS[k], 0.0);
                int steps = (int)lround(1.0 / PF_ODE_TEST_DTS[k]);
                double found = NAN;
                for (int i = 0; i < steps && isnan(found); ++i) {
                    double F = expect * (0.95 + 0.1 * (double)i / steps);
                    dBodyAddForceAtRelPos(s.body, 0, F, 0, h, 0, 0);
                    pf_ode_test_step(&s);
                    pfOdePatchInfo info;
                    if (pf_ode_find_patch(s.pf, s.geom, s.plane, &info) == PF_OK &&
                        info.state == PF_ODE_STATE_SLIP)
                        found = F;
                }
                double rel = fabs(found - expect) / expect;
                printf("eccentric h=%g %s dt=%g: %.6f N expected %.6f (rel %.2e)\n", h,
                       pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], found, expect, rel);
                ck_assert_msg(rel < ECCENTRIC_REL_TOL, "h=%g %s dt=%g: %g vs %g", h,
                              pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], found, expect);
                pf_ode_test_free(&s);
            }
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_block");
    TCase *tc = tcase_create("physics");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_push_below_static_does_not_creep);
    tcase_add_test(tc, test_kinematic_first_geom_sticks);
    tcase_add_test(tc, test_push_above_static_accelerates);
    tcase_add_test(tc, test_breakaway_isotropic);
    tcase_add_test(tc, test_breakaway_stock_spread_figure);
    tcase_add_test(tc, test_incline);
    tcase_add_test(tc, test_spin_stop_time);
    tcase_add_test(tc, test_eccentric_push_breakaway);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
