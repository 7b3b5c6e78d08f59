/* Generalised holding-wrench stick test (docs/physics.md P31) for bodies under other joints and for
 * patches between two dynamic bodies, for dWorldStep and dWorldQuickStep at dt = 1e-4, 1e-3 and
 * 5e-3 s. Every expected value is a closed form computed here or in
 * pf_test_closed_forms.c. */
#include "pf_ode_test_scene.h"
#include "pf_test_closed_forms.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Named tolerances (what the adapter promises). */
#define CREEP_TOL 1e-9               /* [m] in 10 s */
#define ACCEL_REL_TOL 5e-3           /* sliding acceleration */
#define HINGE_BREAKAWAY_REL_TOL 2e-3 /* breakaway torque about the hinge (ramp: 5e-4 per step) */
#define CA_TOL 1e-6                  /* [m] centre of zero acceleration vs the hinge axis */
#define FORCE_REL_TOL 1e-6           /* measured normal force vs weight */

/* Block of the joint tests (the block tests' block). */
#define BL 0.10
#define BW 0.06
#define BH 0.04
#define BM 0.5
#define MU_S 0.5
#define MU_K 0.4

static int patch_state(const pfOdeTestScene *s)
{
    pfOdePatchInfo info;
    if (pf_ode_find_patch(s->pf, s->geom, s->plane, &info) != PF_OK) return -1;
    return (int)info.state;
}

/* Slider (axis x) to the static world. Along y the slider holds any load: pushed along y the
 * patch must stay stuck without creep even beyond mu_s N (the frictionless acceleration given
 * the slider is zero). (A slider to the world also holds the body vertically, so it shares the
 * weight with the contacts in a ratio the solver picks: N, and with it anything along the free
 * axis, is undefined for it. The free axis is tested with the rail below.) */
START_TEST(test_slider_holds_cross_load_without_creep)
{
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_K);
    const double fs = MU_S * BM * PF_ODE_TEST_G;
    const double loads[2][2] = {{0.0, 3.0}, {0.0, 0.9}}; /* (Fx, Fy) / (mu_s m g) */
    for (int c = 0; c < 2; ++c)
        for (int quick = 0; quick < 2; ++quick)
            for (int k = 0; k < 3; ++k) {
                pfOdeTestScene s;
                pf_ode_test_box(&s, BL, BW, BH, BM, &m, quick, PF_ODE_TEST_DTS[k], 0.0);
                dJointID sl = dJointCreateSlider(s.world, 0);
                dJointAttach(sl, s.body, 0);
                dJointSetSliderAxis(sl, 1, 0, 0);
                const dReal *p0 = dBodyGetPosition(s.body);
                double x0 = p0[0], y0 = p0[1];
                int steps = (int)lround(10.0 / PF_ODE_TEST_DTS[k]), slipped = 0;
                for (int i = 0; i < steps; ++i) {
                    dBodyAddForce(s.body, loads[c][0] * fs, loads[c][1] * fs, 0);
                    pf_ode_test_step(&s);
                    if (patch_state(&s) != PF_ODE_STATE_STICK) slipped++;
                }
                double d = pf_ode_test_planar_dist(&s, x0, y0);
                printf("slider F=(%.1f,%.1f) mu_s N %s dt=%g: creep %.3e m, non-stick steps %d\n",
                       loads[c][0], loads[c][1], pf_ode_test_stepper_name(quick),
                       PF_ODE_TEST_DTS[k], d, slipped);
                ck_assert_msg(d < CREEP_TOL, "%s dt=%g: crept %.3e m",
                              pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], d);
                ck_assert_int_eq(slipped, 0);
                dJointDestroy(sl);
                pf_ode_test_free(&s);
            }
}
END_TEST

/* A rail along x that leaves the block free vertically: a linear motor on y and an angular
 * motor on z (user mode), both to the world with Vel 0 and FMax well above the loads. The
 * motors keep the world CFM: with CFM 0 their rows and the stick rows (also CFM 0) hold the same
 * direction and dWorldStep's LCP is singular ("LCP internal error"). */
static void add_rail(pfOdeTestScene *s, double fmax, dJointID *lm, dJointID *am)
{
    *lm = dJointCreateLMotor(s->world, 0);
    dJointAttach(*lm, s->body, 0);
    dJointSetLMotorNumAxes(*lm, 1);
    dJointSetLMotorAxis(*lm, 0, 0, 0, 1, 0);
    dJointSetLMotorParam(*lm, dParamVel, 0.0);
    dJointSetLMotorParam(*lm, dParamFMax, fmax);
    *am = dJointCreateAMotor(s->world, 0);
    dJointAttach(*am, s->body, 0);
    dJointSetAMotorMode(*am, dAMotorUser);
    dJointSetAMotorNumAxes(*am, 1);
    dJointSetAMotorAxis(*am, 0, 0, 0, 0, 1);
    dJointSetAMotorParam(*am, dParamVel, 0.0);
    dJointSetAMotorParam(*am, dParamFMax, fmax);
}

/* On the rail, a push along x below mu_s N plus a cross load the rail carries: stuck, no creep
 * (as a free block it would break away: |F| = 1.03 mu_s N); along x beyond mu_s N: slides at (F -
 * mu_k N)/m whatever the cross load. */
START_TEST(test_rail_stick_and_slide)
{
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_K);
    const double fs = MU_S * BM * PF_ODE_TEST_G;
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            pfOdeTestScene s;
            pf_ode_test_box(&s, BL, BW, BH, BM, &m, quick, PF_ODE_TEST_DTS[k], 0.0);
            dJointID lm, am;
            add_rail(&s, 10.0 * fs, &lm, &am);
            const dReal *p0 = dBodyGetPosition(s.body);
            double x0 = p0[0], y0 = p0[1];
            int steps = (int)lround(10.0 / PF_ODE_TEST_DTS[k]), slipped = 0;
            for (int i = 0; i < steps; ++i) {
                dBodyAddForceAtPos(s.body, 0.9 * fs, 0.5 * fs, 0, p0[0] + 0.02, p0[1], p0[2]);
                pf_ode_test_step(&s);
                if (patch_state(&s) != PF_ODE_STATE_STICK) slipped++;
            }
            double d = pf_ode_test_planar_dist(&s, x0, y0);
            /* then slide along the free axis */
            double F = 1.5 * fs, expect = (F - MU_K * BM * PF_ODE_TEST_G) / BM, v1 = 0, t1 = 0;
            int n2 = (int)lround(1.0 / PF_ODE_TEST_DTS[k]);
            for (int i = 0; i < n2; ++i) {
                dBodyAddForce(s.body, F, 0.5 * fs, 0);
                pf_ode_test_step(&s);
                if (i == n2 / 4) {
                    v1 = dBodyGetLinearVel(s.body)[0];
                    t1 = s.time;
                }
            }
            double a = (dBodyGetLinearVel(s.body)[0] - v1) / (s.time - t1);
            double rel = fabs(a - expect) / expect;
            printf("rail %s dt=%g: creep %.3e m, non-stick steps %d of %d; slide a %.6f expected "
                   "%.6f (rel %.2e)\n",
                   pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], d, slipped, steps, a,
                   expect, rel);
            ck_assert_msg(d < CREEP_TOL, "%s dt=%g: crept %.3e m", pf_ode_test_stepper_name(quick),
                          PF_ODE_TEST_DTS[k], d);
            ck_assert_int_eq(slipped, 0);
            ck_assert_msg(rel < ACCEL_REL_TOL, "%s dt=%g: a = %g, expected %g",
                          pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], a, expect);
            dJointDestroy(lm);
            dJointDestroy(am);
            pf_ode_test_free(&s);
        }
}
END_TEST

/* Block on a vertical axis through H, off centre. The only motion is a rotation about H, so
 * the generalised criterion reduces to: stick iff the applied torque about H is at most P11's
 * M_max about H = mu_s N <|r - H|>. The axis is a piston joint (a hinge that also lets the body
 * move along its axis): a plain hinge also holds the body vertically, and the weight would then
 * be shared between the hinge and the contacts in a ratio the solver chooses, leaving N (and so
 * the capacity) undefined. A force F is applied at P, perpendicular to P - H, ramped from 0.9 to
 * 1.1 times the predicted breakaway force M_max / |P - H|. */
START_TEST(test_vertical_axis_breakaway_torque)
{
    pfOdeMaterial m = pf_ode_test_material(MU_S, MU_K);
    const double hx = 0.03, hy = 0.015;  /* axis, block frame [m] */
    const double px = -0.04, py = -0.02; /* force point, block frame [m] */
    const double N = BM * PF_ODE_TEST_G;
    const double arm = hypot(px - hx, py - hy);
    const double mmax = MU_S * N * pf_test_rect_mean_dist(BL, BW, hx, hy);
    const double expect = mmax / arm;
    const double ramp = 2.0;
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 3; ++k) {
            pfOdeTestScene s;
            pf_ode_test_box(&s, BL, BW, BH, BM, &m, quick, PF_ODE_TEST_DTS[k], 0.0);
            const dReal *g = dBodyGetPosition(s.body);
            double z = g[2];
            dJointID pj = dJointCreatePiston(s.world, 0);
            dJointAttach(pj, s.body, 0);
            dJointSetPistonAnchor(pj, hx, hy, z);
            dJointSetPistonAxis(pj, 0, 0, 1);
            /* tangential direction: z x (P - H), normalised */
            double dx = -(py - hy) / arm, dy = (px - hx) / arm;
            /* hold at 0.9 of the breakaway torque for 10 s: no creep at the block's corner
             * farthest from the axis (|rotation| * 0.092 m) */
            const double reach = hypot(0.5 * BL + hx, 0.5 * BW + hy);
            for (int i = 0; i < (int)lround(10.0 / PF_ODE_TEST_DTS[k]); ++i) {
                dBodyAddForceAtPos(s.body, 0.9 * expect * dx, 0.9 * expect * dy, 0, px, py, z);
                pf_ode_test_step(&s);
            }
            const dReal *q = dBodyGetQuaternion(s.body);
            double creep = 2.0 * fabs(q[3]) * reach; /* rotation about z (small angle) */
            int steps = (int)lround(ramp / PF_ODE_TEST_DTS[k]);
            double found = NAN, ca_err = NAN;
            for (int i = 0; i < steps && isnan(found); ++i) {
                double F = expect * (0.9 + 0.2 * (double)i / steps);
                dBodyAddForceAtPos(s.body, F * dx, F * dy, 0, px, py, z);
                pf_ode_test_step(&s);
                pfOdePatchInfo info;
                ck_assert_int_eq(pf_ode_find_patch(s.pf, s.geom, s.plane, &info), PF_OK);
                if (info.state == PF_ODE_STATE_SLIP) {
                    found = F;
                    /* CA of the breakaway step, world, vs the axis */
                    if (info.has_ca) {
                        double ey[3];
                        const double *n = info.normal, *x = info.xaxis;
                        ey[0] = n[1] * x[2] - n[2] * x[1];
                        ey[1] = n[2] * x[0] - n[0] * x[2];
                        ey[2] = n[0] * x[1] - n[1] * x[0];
                        double cx = info.centre[0] + info.ca[0] * x[0] + info.ca[1] * ey[0];
                        double cy = info.centre[1] + info.ca[0] * x[1] + info.ca[1] * ey[1];
                        ca_err = hypot(cx - hx, cy - hy);
                    }
                }
            }
            double rel = fabs(found - expect) / expect;
            printf("vertical axis %s dt=%g: breakaway %.6f N expected %.6f (rel %.2e), "
                   "CA-axis %.2e m, creep at 0.9 M_max in 10 s %.2e m\n",
                   pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], found, expect, rel, ca_err,
                   creep);
            ck_assert_msg(rel < HINGE_BREAKAWAY_REL_TOL, "%s dt=%g: breakaway %g, expected %g",
                          pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], found, expect);
            ck_assert_msg(ca_err < CA_TOL, "CA %g m from the axis", ca_err);
            ck_assert_msg(creep < CREEP_TOL, "crept %g m at 0.9 M_max", creep);
            /* after breakaway the block turns about the axis in the sense of the torque */
            for (int i = 0; i < (int)lround(0.05 / PF_ODE_TEST_DTS[k]); ++i) {
                dBodyAddForceAtPos(s.body, 1.2 * expect * dx, 1.2 * expect * dy, 0, px, py, z);
                pf_ode_test_step(&s);
            }
            const dReal *w = dBodyGetAngularVel(s.body);
            ck_assert_msg(w[2] > 0.0, "block does not turn (w = %g)", w[2]);
            dJointDestroy(pj);
            pf_ode_test_free(&s);
        }
}
END_TEST

/* Top box (m, dimensions TL x TW x TH) resting on the centre of the scene's box. */
#define TL 0.06
#define TW 0.04
#define TH 0.04

static dBodyID add_top_box(pfOdeTestScene *s, double m, double bottom_h, const pfOdeMaterial *mat,
                           dGeomID *geom)
{
    dBodyID top = dBodyCreate(s->world);
    dMass mm;
    dMassSetBoxTotal(&mm, m, TL, TW, TH);
    dBodySetMass(top, &mm);
    dBodySetPosition(top, 0, 0, bottom_h - 1e-5 + 0.5 * TH - 1e-5);
    *geom = dCreateBox(s->space, TL, TW, TH);
    dGeomSetBody(*geom, top);
    pf_ode_set_material(s->pf, *geom, mat, NULL);
    return top;
}

START_TEST(test_box_on_box_slides_at_kinetic_rate)
{
    /* Top box (m) on a heavy bottom box (M) on the ground: pushing the top box with
     * 1.5 mu_s m g, the top accelerates at (F - mu_k m g)/m while the bottom box, dragged by
     * mu_k m g < mu_s (M + m) g, stays stuck on the ground without creep. */
    const double m = 0.2, M = 5.0, mu_s = 0.5, mu_k = 0.4, hb = 0.1;
    pfOdeMaterial mat = pf_ode_test_material(mu_s, mu_k);
    /* dt = 5e-3 is left out: there the contacts' normal compliance lets the 2 m bottom box rock
     * (1.6e-4 rad) as the top box's weight moves, a corner lifts off at step 13 (4 -> 3 contact
     * points) and the patch becomes a triangle centred 0.33 m away: a collision artifact, not a
     * stick decision. */
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 2; ++k) {
            pfOdeTestScene s;
            pf_ode_test_box(&s, 2.0, 2.0, hb, M, &mat, quick, PF_ODE_TEST_DTS[k], 0.0);
            dGeomID tg;
            dBodyID top = add_top_box(&s, m, hb, &mat, &tg);
            double F = 1.5 * mu_s * m * PF_ODE_TEST_G, v1 = 0, t1 = 0;
            /* creep of the bottom box where it touches the ground (its mass centre also moves
             * by the tilt the top box's moving weight gives it through the contacts' normal
             * compliance: 4e-8 m at 0.05 m height, which is not sliding) */
            dVector3 base;
            dBodyGetPosRelPoint(s.body, 0, 0, 0, base);
            int steps = (int)lround(0.5 / PF_ODE_TEST_DTS[k]), loose = 0;
            for (int i = 0; i < steps; ++i) {
                dBodyAddForce(top, F, 0, 0);
                pf_ode_test_step(&s);
                if (i == steps / 5) {
                    v1 = dBodyGetLinearVel(top)[0];
                    t1 = s.time;
                }
                if (patch_state(&s) != PF_ODE_STATE_STICK) loose++;
            }
            double a = (dBodyGetLinearVel(top)[0] - v1) / (s.time - t1);
            double expect = (F - mu_k * m * PF_ODE_TEST_G) / m;
            dVector3 now;
            dBodyGetRelPointPos(s.body, base[0], base[1], base[2], now);
            double d = hypot(now[0], now[1]);
            printf("box on box %s dt=%g: top a %.6f expected %.6f (rel %.2e), bottom creep %.3e "
                   "m, bottom non-stick steps %d\n",
                   pf_ode_test_stepper_name(quick), PF_ODE_TEST_DTS[k], a, expect,
                   fabs(a - expect) / expect, d, loose);
            ck_assert_msg(fabs(a - expect) < ACCEL_REL_TOL * expect, "a = %g expected %g", a,
                          expect);
            ck_assert_int_eq(loose, 0);
            ck_assert_msg(d < CREEP_TOL, "bottom crept %.3e m", d);
            /* the ground carries both boxes */
            pfOdePatchInfo info;
            ck_assert_int_eq(pf_ode_find_patch(s.pf, s.geom, s.plane, &info), PF_OK);
            ck_assert_double_eq_tol(info.normal_force_measured, (M + m) * PF_ODE_TEST_G,
                                    FORCE_REL_TOL * (M + m) * PF_ODE_TEST_G);
            pf_ode_test_free(&s);
        }
}
END_TEST

/* Top box stuck on the bottom box (high friction between them), bottom on a slippery ground;
 * the top is pushed with a ramp. The bottom's frictionless load is the top pair's stick force,
 * so the ground patch must break away at F = mu_s,g (M + m) g (pair coefficients combine as
 * sqrt(mu_a mu_b)), before which nothing moves; then both slide together at
 * (F - mu_k,g (M + m) g) / (M + m).
 *
 * "Moved": the bottom box's point at the ground centre, the step before breakaway. At dt = 5e-3
 * QuickStep's 20 iterations do not converge this stack: the rows' residual rocks the 4 cm box by
 * ~1e-8 rad per step (the tilt anchor undoes it the next step, so it does not accumulate), and
 * the last sample depends on ODE's random row order (dRandInt). Measured over seeds 0..8: the
 * adapter coupling on Debian's ODE 0.2-8.1e-9 m (8 of 9 above CREEP_TOL; the single run this test
 * made before happened to give 2.5e-10), the in-solver coupling 0.05-1.5e-9 m (1 of 9 above).
 * So at dt = 5e-3 the test runs seeds 0..8 and bounds the worst by STACK_NOISE_TOL (no creep
 * grows: stock ODE creeps 646 um under 0.9 mu m g); with the solver coupling it also asks the
 * median for CREEP_TOL. At dt <= 1e-3 CREEP_TOL holds for one run (measured <= 2e-11 m). */
#define STACK_NOISE_TOL 1e-8 /* [m] */
#define STACK_SEEDS 9

typedef struct StackRun {
    double found, moved, a, aexp, vrel, expect;
} StackRun;

static StackRun stack_run(double dt)
{
    /* (equal masses make dWorldStep's LCP fail with the adapter's rows, see the report) */
    const double m = 0.5, M = 4.5, hb = 0.04;
    pfOdeMaterial hi = pf_ode_test_material(1.0, 0.9), lo = pf_ode_test_material(0.0025, 0.002);
    const double mu_sg = sqrt(1.0 * 0.0025), mu_kg = sqrt(0.9 * 0.002);
    const double W = (M + m) * PF_ODE_TEST_G, expect = mu_sg * W;
    const double ramp = 2.0;
    StackRun r = {NAN, 0.0, 0.0, 0.0, 0.0, expect};
    pfOdeTestScene s;
    pf_ode_test_box(&s, BL, BW, hb, M, &hi, 1, dt, 0.0);
    pf_ode_set_material(s.pf, s.plane, &lo, NULL);
    dGeomID tg;
    dBodyID top = add_top_box(&s, m, hb, &hi, &tg);
    /* settle */
    for (int i = 0; i < (int)lround(0.1 / dt); ++i)
        pf_ode_test_step(&s);
    dVector3 base, now;
    dBodyGetPosRelPoint(s.body, 0, 0, 0, base); /* bottom's point on the ground */
    int steps = (int)lround(ramp / dt);
    for (int i = 0; i < steps && isnan(r.found); ++i) {
        double F = expect * (0.9 + 0.2 * (double)i / steps);
        dBodyAddForce(top, F, 0, 0);
        pf_ode_test_step(&s);
        if (patch_state(&s) == PF_ODE_STATE_SLIP)
            r.found = F;
        else {
            dBodyGetRelPointPos(s.body, base[0], base[1], base[2], now);
            r.moved = hypot(now[0], now[1]);
        }
    }
    /* then both slide together at a constant force */
    double F = 1.2 * expect, v1 = 0, t1 = 0;
    int n2 = (int)lround(0.5 / dt);
    for (int i = 0; i < n2; ++i) {
        dBodyAddForce(top, F, 0, 0);
        pf_ode_test_step(&s);
        if (i == n2 / 5) {
            v1 = dBodyGetLinearVel(s.body)[0];
            t1 = s.time;
        }
    }
    r.a = (dBodyGetLinearVel(s.body)[0] - v1) / (s.time - t1);
    r.aexp = (F - mu_kg * W) / (M + m);
    r.vrel = dBodyGetLinearVel(top)[0] - dBodyGetLinearVel(s.body)[0];
    pf_ode_test_free(&s);
    return r;
}

static void stack_check(const StackRun *r, double dt)
{
    printf("stacked QuickStep dt=%g: ground breakaway %.6f N expected %.6f (rel %.2e), moved "
           "before %.2e m; together a %.6f expected %.6f, top-bottom slip %.2e m/s\n",
           dt, r->found, r->expect, fabs(r->found - r->expect) / r->expect, r->moved, r->a, r->aexp,
           r->vrel);
    ck_assert_msg(fabs(r->found - r->expect) < HINGE_BREAKAWAY_REL_TOL * r->expect,
                  "breakaway %g expected %g", r->found, r->expect);
    ck_assert_msg(fabs(r->a - r->aexp) < ACCEL_REL_TOL * r->aexp, "a = %g expected %g", r->a,
                  r->aexp);
    ck_assert_msg(fabs(r->vrel) < 1e-6, "top slips on the bottom at %g m/s", r->vrel);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

START_TEST(test_box_on_box_other_pair_load)
{
    /* QuickStep only: with this stack dWorldStep's Dantzig LCP fails from the first step
     * ("LCP internal error, s <= 0", every normal force 0), with the previous adapter too */
    for (int k = 0; k < 2; ++k) {
        dRandSetSeed(0);
        StackRun r = stack_run(PF_ODE_TEST_DTS[k]);
        stack_check(&r, PF_ODE_TEST_DTS[k]);
        ck_assert_msg(r.moved < CREEP_TOL, "dt=%g: bottom moved %g m before breakaway",
                      PF_ODE_TEST_DTS[k], r.moved);
    }
    const double dt = PF_ODE_TEST_DTS[2];
    double moved[STACK_SEEDS];
    for (int seed = 0; seed < STACK_SEEDS; ++seed) {
        dRandSetSeed((unsigned long)seed);
        StackRun r = stack_run(dt);
        stack_check(&r, dt);
        moved[seed] = r.moved;
        ck_assert_msg(r.moved < STACK_NOISE_TOL, "dt=%g seed %d: bottom moved %g m", dt, seed,
                      r.moved);
    }
    qsort(moved, STACK_SEEDS, sizeof moved[0], cmp_double);
    printf("stacked QuickStep dt=%g over %d seeds: moved before breakaway median %.2e m, worst "
           "%.2e m\n",
           dt, STACK_SEEDS, moved[STACK_SEEDS / 2], moved[STACK_SEEDS - 1]);
    if (pf_ode_solver_coupling_available())
        ck_assert_msg(moved[STACK_SEEDS / 2] < CREEP_TOL, "in-solver coupling: median %g m",
                      moved[STACK_SEEDS / 2]);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_general");
    TCase *tc = tcase_create("general");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_slider_holds_cross_load_without_creep);
    tcase_add_test(tc, test_rail_stick_and_slide);
    tcase_add_test(tc, test_vertical_axis_breakaway_torque);
    tcase_add_test(tc, test_box_on_box_slides_at_kinetic_rate);
    tcase_add_test(tc, test_box_on_box_other_pair_load);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    return pf_test_run_suite(suite());
}
