/* Adapter: a driving spin moment (Hertz disk with rolling shift d > 0, Padé mode) is applied,
 * for dWorldStep and dWorldQuickStep at dt = 1e-4 and 1e-3 s.
 *
 * A ball (radius R) moves along x at v0 and spins about x at wx0, so its contact point slides
 * sideways, v_s = (v0, R wx0), while it rolls along x, v_r = (v0, 0). With w_z = 0, P17's spin
 * moment is its w-independent part only,
 *     M_s = (-c_010 v_sx + c_100 v_sy) / sqrt(|v_s|^2 + eps_t^2),  c_010 = d_s/5, c_100 = d_c/5
 * (P16, lengths and velocities in units of a, (d_c, d_s) = d v_r / sqrt(|v_r|^2 + eps_r^2)),
 * and Mz = -a mu N M_s (docs/physics.md §3) is nonzero although the spin is zero: it drives the
 * spin instead of opposing it. A target-0 spin row can only hold w_z at 0, so the adapter must
 * apply it explicitly. Expected: dw_z/dt = Mz / I, I = (2/5) m R^2 (the other friction rows act at
 * the contact point below the centre and have no moment about z; a sphere has no gyroscopic term).
 * The total reported wrench must satisfy P2. Every expected value is computed here.
 *
 * The same ball on a box that rests on the ground: the joints' feedback on the box, which the
 * box's own pair reads as its loads (pf_ode_load_sum), must hold the whole wrench of the ball's
 * patch, its explicit part too. The reference is the ball's momentum balance over the step. On
 * the patched ODE also with the in-solver coupling, whose explicit part is the rolling moment
 * (P18) of a ball launched with backspin as well. */
#include "pf_ode_internal.h"
#include "pf_ode_test_scene.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Named tolerances. */
#define SPIN_ACCEL_REL_TOL 0.01 /* dw_z/dt vs Mz / I (the acceptance figure) */
#define WRENCH_MZ_REL_TOL 0.01  /* reported Mz (rows + explicit part) vs P17 */
#define FORCE_BOUND_REL 1e-9    /* |F| <= mu N (w = 0: P17's force is v_s/sqrt(|v_s|^2+eps^2)) */
#define LOAD_REL_TOL 1e-9       /* feedback on the box vs the ball's momentum balance (rounding) */

static const double DTS[2] = {1e-4, 1e-3}; /* step sizes [s] */

#define BR 0.05   /* ball radius [m] */
#define BM 0.2    /* ball mass [kg] */
#define A_H 0.003 /* Hertz contact radius, given [m] */
#define MU 0.2    /* mu_s = mu_k */
#define D 1.0     /* rolling shift d (P14) */
#define EPS 0.01  /* eps_t = eps_r [1/s] */
#define V0 0.5    /* centre velocity along x [m/s] */
#define WX0 10.0  /* spin about x [rad/s]: contact slides along +y at R wx0 */
#define STEPS 3   /* steps checked after the launch */
#define SETTLE 10 /* resting steps before the launch (N measured = m g) */

/* The ball's material: Padé Hertz patch of given radius, rolling shift D. */
static pfOdeMaterial drive_material(void)
{
    pfOdeMaterial mat = pf_ode_default_material();
    mat.mu_s = mat.mu_k = MU;
    mat.mode = PF_ODE_MODE_PADE;
    mat.hertz_radius = A_H;
    mat.rolling_d = D;
    mat.eps_t = EPS;
    mat.eps_r = EPS;
    return mat;
}

static void ball_scene(pfOdeTestScene *s, int quick, double dt)
{
    pfOdeMaterial mat = drive_material();
    pf_ode_test_sphere(s, BR, BM, &mat, &mat, quick, dt);
}

/* P17's spin moment Mz [N m] for the ball's present state (contact point on z = 0 below the
 * centre), world frame z = patch normal. */
static double p17_spin_moment(dBodyID b, double N)
{
    const dReal *G = dBodyGetPosition(b), *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    double r[3] = {0.0, 0.0, -G[2]}; /* c - G */
    double vc[3] = {v[0] + w[1] * r[2] - w[2] * r[1], v[1] + w[2] * r[0] - w[0] * r[2]};
    double vsx = vc[0] / A_H, vsy = vc[1] / A_H, ws = w[2]; /* P15 units */
    double vrx = v[0] / A_H, vry = v[1] / A_H;
    double den_r = sqrt(vrx * vrx + vry * vry + EPS * EPS);
    double dc = D * vrx / den_r, ds = D * vry / den_r;
    double c010 = ds / 5.0, c100 = dc / 5.0, c00m1 = 3.0 * M_PI / 16.0; /* P16 */
    const double bM = 0.419, mM = 3.073;                                /* published defaults */
    double vs = hypot(vsx, vsy);
    double den = sqrt(pow(pow(bM, mM) * pow(fabs(ws), mM) + pow(vs, mM), 2.0 / mM) + EPS * EPS);
    double Ms = (bM * c00m1 * ws - c010 * vsx + c100 * vsy) / den; /* P17 */
    return -A_H * MU * N * Ms;
}

START_TEST(test_driving_spin_moment_is_applied)
{
    const double N = BM * PF_ODE_TEST_G, I = 0.4 * BM * BR * BR;
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 2; ++k) {
            const double dt = DTS[k];
            pfOdeTestScene s;
            ball_scene(&s, quick, dt);
            for (int i = 0; i < SETTLE; ++i)
                pf_ode_test_step(&s);
            dBodySetLinearVel(s.body, V0, 0, 0);
            dBodySetAngularVel(s.body, WX0, 0, 0);
            for (int i = 0; i < STEPS; ++i) {
                double w0 = dBodyGetAngularVel(s.body)[2];
                double mz = p17_spin_moment(s.body, N);
                pf_ode_test_step(&s);
                double alpha = (dBodyGetAngularVel(s.body)[2] - w0) / dt;
                pfOdePatchInfo info;
                ck_assert_int_eq(pf_ode_find_patch(s.pf, s.geom, s.plane, &info), PF_OK);
                const pfWrench *W = &info.wrench;
                const pfTwist *t = &info.twist;
                double power = W->fx * t->vx + W->fy * t->vy + W->mz * t->w;
                double fmag = hypot(W->fx, W->fy);
                printf("spin drive %s dt=%g step %d: dwz/dt %.9e expected %.9e (rel %.2e), "
                       "Mz %.9e, power %.3e W, |F|/(mu N) %.9f\n",
                       pf_ode_test_stepper_name(quick), dt, i + 1, alpha, mz / I,
                       fabs(alpha - mz / I) / fabs(mz / I), W->mz, power,
                       fmag / (MU * info.normal_force));
                ck_assert_int_eq(info.state, PF_ODE_STATE_SLIP);
                ck_assert(fabs(mz) > 0.0);
                ck_assert_double_eq_tol(alpha, mz / I, SPIN_ACCEL_REL_TOL * fabs(mz / I));
                ck_assert_double_eq_tol(W->mz, mz, WRENCH_MZ_REL_TOL * fabs(mz));
                ck_assert(power < 0.0); /* P2 for the total (rows + explicit) wrench */
                ck_assert(fmag <= MU * info.normal_force * (1.0 + FORCE_BOUND_REL));
            }
            pf_ode_test_free(&s);
        }
}
END_TEST

/* Box of the ball-on-a-box scene [m], [kg]. */
#define BOX_L 0.4
#define BOX_H 0.1
#define BOX_M 2.0

static void ball_on_box_near(void *data, dGeomID a, dGeomID b)
{
    pfOdeTestScene *s = data;
    pf_ode_collide(s->pf, a, b, s->group);
}

/* Sum of the feedback of the joints that join body b to body other (ODE's f1/t1 for the first
 * body, f2/t2 for the second; torques about each body's position at the step's start). */
static void feedback_between(dBodyID b, dBodyID other, double f[3], double t[3])
{
    f[0] = f[1] = f[2] = t[0] = t[1] = t[2] = 0.0;
    for (int i = 0; i < dBodyGetNumJoints(b); ++i) {
        dJointID j = dBodyGetJoint(b, i);
        dBodyID b0 = dJointGetBody(j, 0), b1 = dJointGetBody(j, 1);
        if (!((b0 == b && b1 == other) || (b0 == other && b1 == b))) continue;
        dJointFeedback *fb = dJointGetFeedback(j);
        if (!fb) continue;
        const int first = b0 == b;
        for (int k = 0; k < 3; ++k) {
            f[k] += first ? fb->f1[k] : fb->f2[k];
            t[k] += first ? fb->t1[k] : fb->t2[k];
        }
    }
}

/* The same sum over the joints of pair p that other pairs read as loads, on body b: with the
 * in-solver coupling the patch joint is parked (detached) at the end of pf_ode_after_step, so
 * after the step its feedback is read from the pair: the patch joint, the angular rows, the
 * friction joint and the off-plane contacts, each where the pair had it this step. */
static void pair_feedback(const pfOdePair *p, dBodyID b, double f[3], double t[3])
{
    f[0] = f[1] = f[2] = t[0] = t[1] = t[2] = 0.0;
    const dJointFeedback *fb[3 + PF_ODE_MAX_CONTACTS];
    int n = 0;
    if (p->step.solver_joint) fb[n++] = &p->step.fb_patch;
    if (p->step.has_spin) fb[n++] = &p->step.fb_spin;
    if (p->step.has_fric) fb[n++] = &p->step.fb_fric;
    for (int i = 0; i < p->step.noff; ++i)
        fb[n++] = &p->step.fb_off[i];
    ck_assert_int_eq(p->step.held, 0); /* (the angular rows act on both bodies) */
    const int first = p->step.b1 == b; /* the joints are attached (b1, b2) */
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            f[k] += first ? fb[i]->f1[k] : fb[i]->f2[k];
            t[k] += first ? fb[i]->t1[k] : fb[i]->t2[k];
        }
}

START_TEST(test_drive_reaches_the_other_pairs_loads)
{
    const pfOdeCoupling saved = pf_ode_test_coupling;
    const double I = 0.4 * BM * BR * BR;
    /* the adapter's coupling, and on the patched ODE the in-solver one, whose drive is the
     * rolling rows' explicit part */
    const int couplings = pf_ode_solver_coupling_available() ? 2 : 1;
    for (int cp = 0; cp < couplings; ++cp)
        for (int quick = 0; quick < 2; ++quick)
            for (int k = 0; k < 2; ++k) {
                pf_ode_test_coupling = cp ? PF_ODE_COUPLING_SOLVER : PF_ODE_COUPLING_ADAPTER;
                const double dt = DTS[k];
                pfOdeMaterial mat = drive_material();
                pfOdeTestScene s;
                pf_ode_test_box(&s, BOX_L, BOX_L, BOX_H, BOX_M, &mat, quick, dt, 0.0);
                dBodyID ball = dBodyCreate(s.world);
                dMass m;
                dMassSetSphereTotal(&m, BM, BR);
                dBodySetMass(ball, &m);
                dBodySetPosition(ball, -0.05, 0,
                                 BOX_H - 1e-5 + BR - 1e-6); /* 1 um into the box top */
                dGeomID gball = dCreateSphere(s.space, BR);
                dGeomSetBody(gball, ball);
                ck_assert_int_eq(pf_ode_set_material(s.pf, gball, &mat, NULL), PF_OK);
                int drives = 0;
                for (int i = 0; i < SETTLE + STEPS; ++i) {
                    if (i == SETTLE) {
                        dBodySetLinearVel(ball, V0, 0, 0);
                        /* in-solver: with backspin as well, so that the rolling moment (P18)
                         * acts along the relative rolling spin (a row could only oppose it) and
                         * is applied explicitly, that coupling's drive */
                        dBodySetAngularVel(ball, WX0, cp ? -V0 / BR : 0.0, 0);
                    }
                    double v0[3], w0[3], Gb[3], Gx[3];
                    for (int c = 0; c < 3; ++c) {
                        v0[c] = dBodyGetLinearVel(ball)[c];
                        w0[c] = dBodyGetAngularVel(ball)[c];
                        Gb[c] = dBodyGetPosition(ball)[c];
                        Gx[c] = dBodyGetPosition(s.body)[c];
                    }
                    dSpaceCollide(s.space, &s, ball_on_box_near);
                    ck_assert_int_eq(pf_ode_before_step(s.pf, dt), PF_OK);
                    if (quick)
                        dWorldQuickStep(s.world, dt);
                    else
                        dWorldStep(s.world, dt);
                    ck_assert_int_eq(pf_ode_after_step(s.pf), PF_OK);
                    if (i >= SETTLE) {
                        int idx = pf_ode_pair_lookup(s.pf, gball, s.geom, 0);
                        ck_assert_int_ge(idx, 0);
                        drives += pf_ode_pair_at(s.pf, idx)->step.has_drive;
                        /* the ball's contact wrench (about its centre) from its momentum change */
                        double Fb[3], Tb[3], g[3] = {0, 0, -PF_ODE_TEST_G};
                        for (int c = 0; c < 3; ++c) {
                            Fb[c] = BM * ((dBodyGetLinearVel(ball)[c] - v0[c]) / dt - g[c]);
                            Tb[c] = I * (dBodyGetAngularVel(ball)[c] - w0[c]) / dt;
                        }
                        /* its opposite on the box, about the box's centre: -Tb + (Gb - Gx) x (-Fb)
                         */
                        double r[3] = {Gb[0] - Gx[0], Gb[1] - Gx[1], Gb[2] - Gx[2]};
                        double fe[3] = {-Fb[0], -Fb[1], -Fb[2]};
                        double te[3] = {-Tb[0] + r[1] * fe[2] - r[2] * fe[1],
                                        -Tb[1] + r[2] * fe[0] - r[0] * fe[2],
                                        -Tb[2] + r[0] * fe[1] - r[1] * fe[0]};
                        double f[3], t[3];
                        if (cp)
                            pair_feedback(pf_ode_pair_at(s.pf, idx), s.body, f, t);
                        else
                            feedback_between(s.body, ball, f, t);
                        double fs = sqrt(fe[0] * fe[0] + fe[1] * fe[1] + fe[2] * fe[2]);
                        double ts = sqrt(te[0] * te[0] + te[1] * te[1] + te[2] * te[2]);
                        printf("drive into loads %s %s dt=%g step %d: box's feedback from the ball "
                               "f (%.6e %.6e %.6e) t (%.6e %.6e %.6e), momentum balance f (%.6e "
                               "%.6e %.6e) t (%.6e %.6e %.6e), drive %d\n",
                               cp ? "solver" : "adapter", pf_ode_test_stepper_name(quick), dt,
                               i - SETTLE + 1, f[0], f[1], f[2], t[0], t[1], t[2], fe[0], fe[1],
                               fe[2], te[0], te[1], te[2],
                               pf_ode_pair_at(s.pf, idx)->step.has_drive);
                        for (int c = 0; c < 3; ++c) {
                            ck_assert_double_eq_tol(f[c], fe[c], LOAD_REL_TOL * fs);
                            ck_assert_double_eq_tol(t[c], te[c], LOAD_REL_TOL * (ts + BR * fs));
                        }
                    }
                    dJointGroupEmpty(s.group);
                }
                ck_assert_msg(drives > 0, "%s coupling, %s, dt = %g: no step with a drive",
                              cp ? "in-solver" : "adapter", pf_ode_test_stepper_name(quick), dt);
                pf_ode_test_free(&s);
            }
    pf_ode_test_coupling = saved;
}
END_TEST

static Suite *suite(void)
{
    Suite *su = suite_create("ode_spin_drive");
    TCase *tc = tcase_create("drive");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_driving_spin_moment_is_applied);
    tcase_add_test(tc, test_drive_reaches_the_other_pairs_loads);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    return pf_test_run_suite(suite());
}
