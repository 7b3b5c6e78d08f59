/* ODE adapter: the per-patch stick/slip state machine and the friction rows (before the step),
 * and the normal-force / diagnostics read-back (after the step).
 *
 * Rows of a patch (docs/architecture.md, "The adapter's step"; the approximations and their
 * equations: docs/physics.md §8, P35-P37):
 *  - normal support: one normal-only contact joint per contact point (pf_ode_patch.c);
 *  - friction: one more contact joint at the patch centre whose normal row is made inert (its
 *    target normal velocity is a large approach speed, so its lambda >= 0 is always clamped at 0)
 *    and whose friction rows t1, t2 carry absolute bounds from the core with target velocities:
 *      SLIP:  t1 along the core's friction force for the predicted frictionless twist
 *             xi0 + dt a_free (implicit direction, see slip_rows), bound |F|,
 *             target 0; the spin row
 *             (dContactRolling | dContactAxisDep, rhoN = |Mz|) also with target 0.
 *             The solver may apply less than the bound but never more, and only to drive the row
 *             velocity to its target: friction is implicit and cannot push a velocity past zero.
 *             A component that drives its row's velocity instead (W_i u_i > 0, or u_i = 0) is
 *             applied explicitly and its row dropped (drive_components).
 *      STICK: t1, t2 along the patch axes with bounds mu_s N, targets = anchored drift correction;
 *             spin through a one-axis angular motor (FMax = static spin capacity, Vel = angular
 *             drift correction) because ODE 0.16.2's rolling rows have no target velocity.
 *  - the normal force N for the bounds is last step's sum of the normal joints' feedback; on a
 *    pair's first step it is estimated from the frictionless loads and the approach speed. */
#include "pf_core_internal.h" /* the screened stick tests (pf_stick_*_args) */
#include "pf_ode_model.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Target normal velocity of the friction joint's own normal row [m/s]: an approach speed no
 * contact reaches, so that row's lambda is always clamped at its lower bound 0 (inert). */
#define PF_ODE_INERT_NORMAL_VEL 1e4
/* a face rows' tilt row at this fraction of its bound is at it (face_at_edge) */
#define PF_ODE_FACE_EDGE 0.999
/* Relative gap between a friction joint's two bounds where they would be equal (create_rows). */
#define PF_ODE_BOUND_SPLIT 1e-6
/* Largest relative reduction of a pair's own row bounds (pair_bound_scale); below
 * PF_ODE_BOUND_SPLIT, so no pair's t1 bound meets another's t2 bound. */
#define PF_ODE_PAIR_BOUND_SPLIT 0.5e-6
/* Smallest computed Hertz radius [m] (a -> 0 as N -> 0). */
#define PF_ODE_MIN_HERTZ_RADIUS PF_ODE_HERTZ_RADIUS_MIN

/* a patch's rows for one step (pf_ode_internal.h) */
typedef pfOdeRows rowset;

static void body_frame_point(dBodyID b, const double *local, double *world)
{
    dVector3 w;
    dBodyGetRelPointPos(b, local[0], local[1], local[2], w);
    pf_ode_to3(w, world);
}

static void body_frame_vec(dBodyID b, const double *local, double *world)
{
    dVector3 w;
    dBodyVectorToWorld(b, local[0], local[1], local[2], w);
    pf_ode_to3(w, world);
}

static void to_body_point(dBodyID b, const double *world, double *local)
{
    dVector3 l;
    dBodyGetPosRelPoint(b, world[0], world[1], world[2], l);
    pf_ode_to3(l, local);
}

/* Frictionless loads of a body (world): user accumulators, gravity and, for bodies under other
 * joints, last step's estimate of those joints' forces. */
static void body_loads(const pfOdeContext *ctx, dBodyID b, double mass, int use_other,
                       const double *of, const double *ot, double *f, double *t)
{
    const dReal *uf = dBodyGetForce(b);
    const dReal *ut = dBodyGetTorque(b);
    dVector3 g = {0, 0, 0, 0};
    if (dBodyGetGravityMode(b)) dWorldGetGravity(ctx->world, g);
    for (int k = 0; k < 3; ++k) {
        f[k] = uf[k] + mass * g[k] + (use_other ? of[k] : 0.0);
        t[k] = ut[k] + (use_other ? ot[k] : 0.0);
    }
}

static double clampd(double v, double lim)
{
    return v > lim ? lim : (v < -lim ? -lim : v);
}

/* Driving components of the slip wrench (applied explicitly, not as rows).
 *
 * A row with target velocity 0 and bound B applies lambda in [-B, B] only to bring its row
 * velocity u toward 0: it can oppose u, never push along it, and at u = 0 it holds. The model's
 * component W_i along a row is normally dissipative (W_i u_i < 0, P2), but not always: the
 * Hertz disk with d != 0 has a spin moment with a part independent of w (P16/P17: -c_010 v_sx
 * + c_100 v_sy) that spins the ball up from w = 0, P17's force numerators carry b_T c_011 w, and
 * the rolling moment P18 follows the rolling velocity, not the relative spin its row sees.
 * Rule, per row: if W_i u_i > 0, or u_i = 0 with W_i != 0, W_i is applied explicitly this step
 * (force at c / moment on body 1, the opposite on body 2) and the row is dropped; otherwise the
 * implicit row stays. u_i is the velocity the wrench was evaluated at: the predicted twist xi
 * for t1 and the spin, the present relative spin about t1 / t2 for the rolling rows.
 *
 * Stability: the explicit part is the model's own wrench (bounded by it). A component that
 * depends on its own row velocity (force, spin) could still carry that velocity past the point
 * where the component vanishes within one step (explicit Euler on a stiff relaxation, e.g. the
 * spin equilibrium w* of P17 at small |v_s|). Guard: the end-of-step twist is predicted with the
 * Delassus block, xi_e = xi + dt A W_e; if a component has changed sign there, it is scaled to
 * the secant root W_i / (W_i - W_i(xi_e)) in (0, 1), which lands on the equilibrium (the
 * implicit answer to first order) instead of oscillating about it. Outputs: the explicit force
 * (world, at c) and moment (world) in p->step.drive_f / drive_t; the rows dropped in rs. */
/* The rolling-moment part of the rule above (P18 rows about t1 / t2), added to p->step.drive_t;
 * sets p->step.has_drive from the whole explicit part. mroll NULL: no rolling moment. */
static void drive_rolling(pfOdePair *p, const double *mroll, const double *wrel, rowset *rs)
{
    if (mroll) {
        const double *t[2] = {rs->t1, rs->t2};
        double *b[2] = {&rs->broll1, &rs->broll2};
        for (int i = 0; i < 2; ++i) {
            double ci = pf_ode_dot(mroll, t[i]), ui = pf_ode_dot(wrel, t[i]);
            if (!(*b[i] > 0.0) || ci == 0.0 || ci * ui < 0.0) continue;
            for (int k = 0; k < 3; ++k)
                p->step.drive_t[k] += ci * t[i][k];
            *b[i] = 0.0;
        }
    }
    const double *f = p->step.drive_f, *t = p->step.drive_t;
    p->step.has_drive =
        pf_ode_finite3(f) && pf_ode_finite3(t) &&
        (f[0] != 0.0 || f[1] != 0.0 || f[2] != 0.0 || t[0] != 0.0 || t[1] != 0.0 || t[2] != 0.0);
}

static void drive_components(const pfOdeContext *ctx, pfOdePair *p, double dt, int dyn1, int dyn2,
                             double mu_k, double N, pfTwist xi, pfTwist roll, const pfWrench *W,
                             const double *mroll, const double *wrel, rowset *rs)
{
    const double *x = p->step.x, *y = p->step.y, *n = p->step.n;
    double fm = hypot(W->fx, W->fy);
    double u1 = fm > 0.0 ? (xi.vx * W->fx + xi.vy * W->fy) / fm : 0.0;
    int ex_f = fm > 0.0 && u1 >= 0.0;
    int ex_s = W->mz != 0.0 && W->mz * xi.w >= 0.0;
    double sf = 1.0, ss = 1.0;
    if (ex_f || ex_s) {
        double we[3] = {ex_f ? W->fx : 0.0, ex_f ? W->fy : 0.0, ex_s ? W->mz : 0.0}, A[9];
        pf_ode_patch_delassus(ctx, p, dyn1, dyn2, A);
        pfTwist xe = {xi.vx + dt * (A[0] * we[0] + A[1] * we[1] + A[2] * we[2]),
                      xi.vy + dt * (A[3] * we[0] + A[4] * we[1] + A[5] * we[2]),
                      xi.w + dt * (A[6] * we[0] + A[7] * we[1] + A[8] * we[2])};
        pfWrench We = {0, 0, 0};
        if (isfinite(xe.vx) && isfinite(xe.vy) && isfinite(xe.w) &&
            pf_patch_friction(&p->step.def, mu_k, N, xe, roll, &We, NULL) == PF_OK &&
            isfinite(We.fx) && isfinite(We.fy) && isfinite(We.mz)) {
            double c1 = (We.fx * W->fx + We.fy * W->fy) / (fm > 0.0 ? fm : 1.0);
            if (ex_f && c1 < 0.0) sf = fm / (fm - c1);
            if (ex_s && We.mz * W->mz < 0.0) ss = W->mz / (W->mz - We.mz);
        }
    }
    double fx = ex_f ? sf * W->fx : 0.0, fy = ex_f ? sf * W->fy : 0.0;
    double mz = ex_s ? ss * W->mz : 0.0;
    if (ex_f) rs->b1 = 0.0;
    if (ex_s) rs->bspin = 0.0;
    for (int k = 0; k < 3; ++k) {
        p->step.drive_f[k] = fx * x[k] + fy * y[k];
        p->step.drive_t[k] = mz * n[k];
    }
    drive_rolling(p, mroll, wrel, rs);
}

/* Relative twist of body 1 w.r.t. body 2 at the patch centre, patch frame (P1); optionally the
 * normal velocity, body 2's point velocity at c and the relative angular velocity (world). */
static pfTwist patch_twist(const pfOdePair *p, double *vn, double pv2_out[3], double wrel_out[3])
{
    const double *c = p->step.c;
    dVector3 pv1, pv2 = {0, 0, 0, 0};
    dBodyGetPointVel(p->step.b1, c[0], c[1], c[2], pv1);
    if (p->step.b2) dBodyGetPointVel(p->step.b2, c[0], c[1], c[2], pv2);
    const dReal *w1 = dBodyGetAngularVel(p->step.b1);
    double wrel[3] = {w1[0], w1[1], w1[2]};
    if (p->step.b2) {
        const dReal *w2 = dBodyGetAngularVel(p->step.b2);
        for (int k = 0; k < 3; ++k)
            wrel[k] -= w2[k];
    }
    double vrel[3] = {pv1[0] - pv2[0], pv1[1] - pv2[1], pv1[2] - pv2[2]};
    if (vn) *vn = pf_ode_dot(vrel, p->step.n);
    for (int k = 0; k < 3; ++k) {
        if (pv2_out) pv2_out[k] = pv2[k];
        if (wrel_out) wrel_out[k] = wrel[k];
    }
    pfTwist t = {pf_ode_dot(vrel, p->step.x), pf_ode_dot(vrel, p->step.y),
                 pf_ode_dot(wrel, p->step.n)};
    return t;
}

/* Rolling-resistance moment of a Hertz patch with d > 0 (P18) in world coordinates (mw) and the
 * bounds of its rows about rs->t1 / rs->t2; 1 if there is one. */
static int rolling_rows(const pfOdePair *p, double a_hertz, double N, rowset *rs, double mw[3])
{
    if (!(p->step.kind == PF_ODE_KIND_HERTZ && p->step.def.rolling_d > 0.0)) return 0;
    pfVec2 mr =
        pf_hertz_rolling_moment(a_hertz, N, p->step.def.rolling_d, p->step.roll, p->step.def.eps_r);
    for (int k = 0; k < 3; ++k)
        mw[k] = mr.x * p->step.x[k] + mr.y * p->step.y[k];
    rs->broll1 = fabs(pf_ode_dot(mw, rs->t1));
    rs->broll2 = fabs(pf_ode_dot(mw, rs->t2));
    if (isfinite(rs->broll1) && isfinite(rs->broll2)) return 1;
    rs->broll1 = rs->broll2 = 0.0;
    return 0;
}

/* Demands below this fraction of the loads' size (|f1| + |f2| + mu_s N) are rounding. */
#define PF_ODE_ROUNDING_DEMAND 1e-9

static double norm3(const double *v)
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* The generalised stick test (CA P31, or the limit set P32 with limit) of patch p on the block A
 * and the frictionless acceleration af (araw: before regularisation), both regularised here. The
 * CA test is screened (pf_stick_general_args): *screened = 1 when a lower bound of the capacity
 * decided stick, and res->capacity, res->margin are then that bound's; screened NULL asks for the
 * full CA test (the limit set's test is never screened). */
static int general_test(const pfOdePair *p, double *A, double *af, double *araw, double mu,
                        double N, int limit, pfStickResult *res, int *screened)
{
    pfWrench reac[3];
    int nreac = 0;
    if (screened) *screened = 0;
    pf_ode_regularise_block(A, af, araw, p->step.rho_g, reac, &nreac);
    pfTwist a_free = {af[0], af[1], af[2]};
    if (!limit) return pf_stick_general_args(&p->step.def, mu, N, A, a_free, res, screened, NULL);
    pfGeneralStickInput in = {&p->step.def, mu, N, A, a_free, reac, nreac};
    return pf_stick_general_limit(&in, res, NULL);
}

/* The loads test of a patch at rest (P10-P13 for a free body on the static world, the
 * generalised holding-wrench form otherwise; CA or, with limit, the limit-set test). stop, if
 * not NULL, is added to the frictionless relative acceleration: the acceleration that stops the
 * patch's present twist within the step (xi0 / dt), so the test asks whether friction of
 * coefficient mu can stop it and hold it. The CA test is screened (general_test's *screened).
 * Returns the core's status. */
static int stick_test(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                      const dMass *m1, const double *f1, const double *t1v, const double *f2,
                      const double *t2v, double N, double mu, const pfTwist *stop, int limit,
                      pfStickResult *res, int *screened)
{
    *screened = 0;
    const double *c = p->step.c, *n = p->step.n, *x = p->step.x, *y = p->step.y;
    if (!dyn1) return PF_ERR_STATE;
    int planar = 0; /* (with two dynamic bodies the models are read by the block below) */
    if (!dyn2) {
        pfOdeBodyModel bm1;
        pf_ode_body_model(ctx, p, p->step.b1, &bm1);
        planar = bm1.world_rows == 0;
    }
    if (planar) {
        /* a body on the static world with no joint restricting it: P10-P13 as written */
        const dReal *gp = dBodyGetPosition(p->step.b1);
        double G1[3] = {gp[0] - c[0], gp[1] - c[1], gp[2] - c[2]};
        double j1 = pf_ode_axial_inertia(p->step.b1, m1, n);
        double gx = pf_ode_dot(G1, x), gy = pf_ode_dot(G1, y);
        pfPlanarBody body = {m1->mass, j1, gx, gy};
        double lfx = pf_ode_dot(f1, x), lfy = pf_ode_dot(f1, y), lmz = pf_ode_dot(t1v, n);
        if (stop) {
            /* the twist's stopping acceleration as loads: m a_G and J alpha, with
             * a_G = a_c + alpha z x (G - c) */
            lfx += m1->mass * (stop->vx - stop->w * gy);
            lfy += m1->mass * (stop->vy + stop->w * gx);
            lmz += j1 * stop->w;
        }
        if (!limit)
            return pf_stick_planar_args(&p->step.def, mu, N, &body, lfx, lfy, lmz, res, screened,
                                        NULL);
        pfPlanarStickInput in = {&p->step.def, mu, N, body, lfx, lfy, lmz};
        return pf_stick_planar_limit(&in, res, NULL);
    }
    /* generalised form: A and a_free given the other constraints (pf_ode_model.h; kept for the
     * patch's other tests and its slip prediction under the same loads) */
    double A[9], af[3], araw[3];
    pf_ode_patch_block_loads(ctx, p, dyn1, dyn2, f1, t1v, f2, t2v, A, af, araw);
    if (stop) {
        af[0] += stop->vx;
        af[1] += stop->vy;
        af[2] += stop->w;
        araw[0] += stop->vx;
        araw[1] += stop->vy;
        araw[2] += stop->w;
    }
    return general_test(p, A, af, araw, mu, N, limit, res, screened);
}

/* Cheap screen before the stopping test: can friction mu N change the patch's twist by as much
 * as it has within one step? Translation: dt mu N (1/m1 + 1/m2) against |v|; spin: the same
 * with the radius of gyration, against |w| rho_g (a factor 2 of margin for the lever arms).
 * floor_v: a speed that always counts as stoppable. */
static int stoppable(int dyn1, int dyn2, const dMass *m1, const dMass *m2, pfTwist tw, double mu,
                     double N, double dt, double rho_g, double floor_v)
{
    double im = (dyn1 ? 1.0 / m1->mass : 0.0) + (dyn2 && m2 ? 1.0 / m2->mass : 0.0);
    double dv = fmax(2.0 * dt * mu * N * im, floor_v);
    return hypot(tw.vx, tw.vy) <= dv && fabs(tw.w) * rho_g <= 2.0 * dv;
}

/* A held patch moving at up to this many times stick_velocity_tol is never released for its
 * speed: the anchor's own correction drives it at up to stick_velocity_tol, and a patch the
 * solver left unloaded (N ~ 0) could otherwise stop nothing. */
#define PF_ODE_HELD_SPEED 2.0

/* A point patch at rest keeps its first axis while its friction stays within this cosine of it
 * (8.1 degrees; P49a): the rows' box along that axis holds mu N / cos(alpha) along a load alpha
 * off it, at most 1 % more than the circle. Following every step's direction instead turned the
 * axes with QuickStep's noise: a tripod on three corners then moved at 2 % below mu_s m g (and a
 * load turned by 60 degrees met the lagging box, 4.9 % above). */
#define PF_ODE_POINT_DIR_COS 0.99

/* Normals closer than this to parallel (|n_p . n_q|) count as parallel in twist_split, whose
 * split takes the members' wrenches in one tangent plane. */
#define PF_ODE_GROUP_PARALLEL 0.9999
/* A member's normal widens the group's span of normals if its part out of the span so far is
 * longer than this (about 1 degree) */
#define PF_ODE_GROUP_SPAN 0.0175

/* The split of a held group's load by the body's incipient twist (group_test, LIMIT): the body
 * starts to move as its loads w (force w_f, moment w_m about p's centre c; the group's friction
 * taken out) would accelerate it in the patches' plane: a = w_f / m and alpha = I^-1 w_m(G)
 * (world inertia), of w_f its part in the tangent plane, of w_m(G) and alpha their parts along
 * the normal (the rest is the normal rows'), and each member j then slides with the twist this body
 * motion gives at its centre, so its friction is W_j, its wrench at that twist with capacity mu_s
 * N_j (P3/P4). The sum of the W_j scaled by the kappa that fits it to the load best (in the metric
 * of P32, lengths by rho_g), plus the residual split in proportion to the capacities, is a split of
 * the load: share_p = kappa W_p + frac_p (load - kappa sum W_j), N_j the normal forces measured in
 * the last step (as for the capacities of group_share). Where sum W_j is parallel to the load (a
 * body on two tracks turned in place: every patch rotates about the body centre) it is the split at
 * incipient sliding, and the group holds exactly while kappa <= 1; the split in proportion to the
 * capacities charges each track with a spin about its own centre and holds half as much. Members:
 * the pairs alive this step that were in a held group on b in the last step, with parallel normals.
 * Writes the share as hold (patch p's frame, on body 1); returns 0 if there is no usable split. */
static int twist_split(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, const double *w_f,
                       const double *w_m, double mu_s, double hold[3])
{
    const double *c = p->step.c, *n = p->step.n;
    const dReal *G = dBodyGetPosition(b), *R = dBodyGetRotation(b);
    dMass ms;
    dBodyGetMass(b, &ms);
    if (!(ms.mass > 0.0)) return 0;
    /* the body's acceleration: a = w_f / m; alpha from the moment about G in the body frame,
     * I alpha_b = R^T M_G, solved by Cramer's rule */
    double cg[3] = {c[0] - G[0], c[1] - G[1], c[2] - G[2]}, mg[3], mb[3], ab[3], alpha[3], v[3];
    pf_ode_cross(cg, w_f, mg);
    /* planar: the friction sees the moment about the normal and the force in the tangent plane
     * (the rest, the unsupported part of the weight, is the normal rows') */
    const double mn = pf_ode_dot(w_m, n) + pf_ode_dot(mg, n), fn = pf_ode_dot(w_f, n);
    for (int k = 0; k < 3; ++k)
        mg[k] = mn * n[k];
    for (int i = 0; i < 3; ++i)
        mb[i] = R[i] * mg[0] + R[4 + i] * mg[1] + R[8 + i] * mg[2];
    const dReal *I = ms.I;
    const double det = I[0] * (I[5] * I[10] - I[6] * I[9]) - I[1] * (I[4] * I[10] - I[6] * I[8]) +
                       I[2] * (I[4] * I[9] - I[5] * I[8]);
    if (!(fabs(det) > 0.0)) return 0;
    ab[0] = (mb[0] * (I[5] * I[10] - I[6] * I[9]) - I[1] * (mb[1] * I[10] - I[6] * mb[2]) +
             I[2] * (mb[1] * I[9] - I[5] * mb[2])) /
            det;
    ab[1] = (I[0] * (mb[1] * I[10] - I[6] * mb[2]) - mb[0] * (I[4] * I[10] - I[6] * I[8]) +
             I[2] * (I[4] * mb[2] - mb[1] * I[8])) /
            det;
    ab[2] = (I[0] * (I[5] * mb[2] - mb[1] * I[9]) - I[1] * (I[4] * mb[2] - mb[1] * I[8]) +
             mb[0] * (I[4] * I[9] - I[5] * I[8])) /
            det;
    for (int i = 0; i < 3; ++i)
        alpha[i] = R[4 * i] * ab[0] + R[4 * i + 1] * ab[1] + R[4 * i + 2] * ab[2];
    const double an = pf_ode_dot(alpha, n);
    for (int i = 0; i < 3; ++i) {
        alpha[i] = an * n[i];
        v[i] = (w_f[i] - fn * n[i]) / ms.mass;
    }
    /* sum of the members' friction on b (force, moment about c) at that motion */
    double sf[3] = {0, 0, 0}, sm[3] = {0, 0, 0}, pf[3] = {0, 0, 0}, pm[3] = {0, 0, 0};
    double total = 0.0, cap_p = mu_s * p->persist.n_meas;
    int members = 0;
    for (int a = -1; a < ctx->alive_count; ++a) {
        const pfOdePair *q = a < 0 ? p : pf_ode_pair_at(ctx, ctx->alive[a]);
        if (a >= 0 && (q == p || !q->in_use || !q->persist.has_group ||
                       (q->persist.group_side > 0.0 ? q->step.b1 : q->step.b2) != b ||
                       fabs(pf_ode_dot(q->step.n, n)) < PF_ODE_GROUP_PARALLEL))
            continue;
        const double sq = q->step.b1 == b ? 1.0 : -1.0, Nq = q->persist.n_meas;
        const double *cq = q->step.c;
        double rq[3] = {cq[0] - G[0], cq[1] - G[1], cq[2] - G[2]}, vq[3];
        pf_ode_cross(alpha, rq, vq);
        for (int k = 0; k < 3; ++k)
            vq[k] += v[k];
        /* body 1's twist relative to body 2 (the holder does not move) */
        pfTwist tw = {sq * pf_ode_dot(vq, q->step.x), sq * pf_ode_dot(vq, q->step.y),
                      sq * pf_ode_dot(alpha, q->step.n)};
        pfWrench W = {0, 0, 0};
        const pfTwist roll = {0, 0, 0};
        if (!(Nq > 0.0) || pf_patch_friction(&q->step.def, mu_s, Nq, tw, roll, &W, NULL) != PF_OK)
            return 0;
        double f[3], m[3], d[3] = {cq[0] - c[0], cq[1] - c[1], cq[2] - c[2]}, dm[3];
        for (int k = 0; k < 3; ++k) {
            f[k] = sq * (W.fx * q->step.x[k] + W.fy * q->step.y[k]);
            m[k] = sq * W.mz * q->step.n[k];
        }
        pf_ode_cross(d, f, dm);
        for (int k = 0; k < 3; ++k) {
            sf[k] += f[k];
            sm[k] += m[k] + dm[k];
            if (a < 0) {
                pf[k] = f[k];
                pm[k] = m[k];
            }
        }
        total += mu_s * Nq;
        members++;
    }
    if (members < 2 || !(total > 0.0) || !pf_ode_finite3(sf) || !pf_ode_finite3(sm)) return 0;
    /* the group must supply -w: fit kappa (sf, sm) to it in p's tangent plane and normal */
    const double rr = p->step.rho_g > 0.0 ? p->step.rho_g * p->step.rho_g : 1.0;
    const double *x = p->step.x, *y = p->step.y;
    const double req[3] = {-pf_ode_dot(w_f, x), -pf_ode_dot(w_f, y), -pf_ode_dot(w_m, n)};
    const double got[3] = {pf_ode_dot(sf, x), pf_ode_dot(sf, y), pf_ode_dot(sm, n)};
    const double gg = got[0] * got[0] + got[1] * got[1] + got[2] * got[2] / rr;
    const double kappa = (req[0] * got[0] + req[1] * got[1] + req[2] * got[2] / rr) / gg;
    if (!(gg > 0.0) || !(kappa > 0.0) || !isfinite(kappa)) return 0;
    const double own[3] = {pf_ode_dot(pf, x), pf_ode_dot(pf, y), pf_ode_dot(pm, n)};
    const double frac = cap_p / total, side = p->step.b1 == b ? 1.0 : -1.0;
    for (int i = 0; i < 3; ++i)
        hold[i] = side * (kappa * own[i] + frac * (req[i] - kappa * got[i]));
    return pf_ode_finite3(hold);
}

/* The stick test of a held patch of a group (docs/architecture.md, "Stick and slip in multi-body
 * scenes"): a body held at rest by several stuck patches against holders that do not move (the
 * bar between two fingertips, a body on its feet, a box against a floor and a wall). The per-patch
 * loads test charges each patch with the body's loads minus the other patches' friction of the
 * last step, in whatever split the solver picked: a load that changes within a step falls whole
 * on every patch of the group, and QuickStep's unconverged split is noise. What one patch carries
 * is statically indeterminate; what the group carries is not: at rest, the body's own loads
 * (the group's friction taken out, group_share). The group holds if its friction can be split so
 * that each share lies in its patch's limit set (the load lies in the Minkowski sum of the limit
 * sets); this test takes the split in proportion to the capacities mu_s N_i, which exhibits one
 * (sufficient), and is exact for equal patches placed symmetrically (the pinch, P41: both patches
 * carry (m g / 2)(1, d)). The patch's share, as its holding wrench on body 1, goes to the
 * criterion's test (CA P31, or the limit set P32) at the capacity N. Loads: bl_f / bl_t, the
 * group's body's loads (force, torque about its mass centre G) as gather read them. The CA test
 * is screened (general_test's *screened). Returns the core's status. */
static int group_test(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, const double *bl_f,
                      const double *bl_t, double mu_s, double N, int limit, pfStickResult *res,
                      int *screened)
{
    *screened = 0;
    const double *c = p->step.c, *x = p->step.x, *y = p->step.y, *n = p->step.n;
    const dReal *gp = dBodyGetPosition(b);
    double gc[3] = {gp[0] - c[0], gp[1] - c[1], gp[2] - c[2]}, m[3], w[3], wm[3];
    pf_ode_cross(gc, bl_f, m);
    /* the body's loads without the group's friction, about c; the group must supply minus that,
     * this patch its share, on body 1 */
    const double s = -p->persist.group_side * p->persist.group_frac;
    for (int k = 0; k < 3; ++k) {
        w[k] = s * (bl_f[k] - p->persist.group_f[k]);
        wm[k] = s * (bl_t[k] + m[k] - p->persist.group_m[k]);
    }
    /* the members' normal rows carry the force's part along their normals and, through their
     * pressure distributions, every moment about an axis in a member's plane: members with
     * non-parallel normals leave the friction the force along the line no normal spans and no
     * moment (for parallel members this is the tangent plane and the moment about n, as
     * before) */
    const double *P = p->persist.group_proj;
    double wf[3];
    for (int i = 0; i < 3; ++i)
        wf[i] = P[3 * i] * w[0] + P[3 * i + 1] * w[1] + P[3 * i + 2] * w[2];
    const double hold[3] = {pf_ode_dot(wf, x), pf_ode_dot(wf, y),
                            p->persist.group_span > 1 ? 0.0 : pf_ode_dot(wm, n)};
    if (!pf_ode_finite3(hold)) return PF_ERR_RANGE;
    /* the share as the generalised test's input (P31 / P32): the holder does not move, so A is
     * the held body's block alone and the frictionless acceleration the share would stop is
     * a_free = -A w*; the CA test then sees the share's incipient twist, the limit test its
     * wrench */
    pfOdeBodyModel bm;
    const double zero[3] = {0, 0, 0};
    double A[9] = {0}, af[3] = {0, 0, 0}, araw[3] = {0, 0, 0};
    pf_ode_body_model(ctx, p, b, &bm);
    pf_ode_model_patch_block(&bm, p, zero, zero, 1.0, A, af, araw);
    double A0[9];
    memcpy(A0, A, sizeof A0);
    for (int i = 0; i < 3; ++i)
        af[i] = araw[i] = -(A[3 * i] * hold[0] + A[3 * i + 1] * hold[1] + A[3 * i + 2] * hold[2]);
    int st = general_test(p, A, af, araw, mu_s, N, limit, res, screened);
    /* LIMIT: the split in proportion to the capacities is one split; where it does not fit, the
     * split by the body's incipient twist may (twist_split). Either proves that the group holds.
     * (CA tests the share's incipient twist through the held body's block, which already sees
     * the body's motion.) */
    double hold2[3], w_b[3], wm_b[3];
    for (int k = 0; k < 3; ++k) {
        w_b[k] = bl_f[k] - p->persist.group_f[k];
        wm_b[k] = bl_t[k] + m[k] - p->persist.group_m[k];
    }
    pfStickResult res2;
    if (limit && st == PF_OK && !res->sticks && twist_split(ctx, p, b, w_b, wm_b, mu_s, hold2)) {
        memcpy(A, A0, sizeof A0);
        for (int i = 0; i < 3; ++i)
            af[i] = araw[i] =
                -(A[3 * i] * hold2[0] + A[3 * i + 1] * hold2[1] + A[3 * i + 2] * hold2[2]);
        if (general_test(p, A, af, araw, mu_s, N, limit, &res2, NULL) == PF_OK && res2.sticks)
            *res = res2;
    }
    return st;
}

/* ---- evaluate: one patch's step, in phases ----------------------------------------------------
 *
 *   begin      reset the step's report and scratch
 *   gather     patch, masses, loads, pre-step snapshot, twist, normal force, Hertz radius
 *   stick test the stick/slip decision (stick_decide)
 *   rows       stick_rows (anchor, drift targets, static bounds) or slip_rows (kinetic wrench,
 *              explicit driving part), or point_rows for a degenerate patch
 *   commit     set_state: the patch's state and the state counters, in one place
 *
 * The phases share the step's inputs (stepinputs) and the decision (stickdecision). */

/* What gather reads of the bodies and the patch for this step. */
typedef struct stepinputs {
    double dt;
    int dyn1, dyn2;                      /* the bodies are dynamic */
    dMass m1, m2;                        /* m2 only if dyn2 */
    double f1[3], t1v[3], f2[3], t2v[3]; /* frictionless loads (world) */
    pfTwist tw;                          /* relative twist at the patch centre, patch frame (P1) */
    double vt;                           /* |(tw.vx, tw.vy)| */
    double wrel[3];                      /* relative angular velocity (world) */
    double N;                            /* normal force for the bounds [N] */
    double a_hertz;                      /* Hertz radius [m] (Hertz patches) */
    int point;                           /* degenerate patch: point friction */
    double rho_g;                        /* radius of gyration [m] (0 for a point) */
    int small;                           /* at rest: below stick_velocity_tol */
} stepinputs;

/* The stick test's outcome. */
typedef struct stickdecision {
    pfOdePatchState prev; /* the state the patch enters the step in */
    pfOdePatchState next; /* STICK or SLIP */
    pfTwist xi;           /* twist the slip wrench is taken at (the present one by default) */
    int xi_from_test;     /* 1: xi is the stick test's incipient twist (breakaway) */
} stickdecision;

/* The state a patch enters this step in (a fresh pair has none). */
static pfOdePatchState previous_state(const pfOdePair *p)
{
    return p->fresh ? PF_ODE_STATE_NONE : p->persist.state;
}

/* Commit: the one place that sets a patch's state, with its report and the state counters
 * (entering STICK from SLIP is a stick transition, SLIP from STICK a breakaway). Called once per
 * patch and step, after its rows are built. */
static void set_state(pfOdeContext *ctx, pfOdePair *p, pfOdePatchState next)
{
    const pfOdePatchState prev = previous_state(p);
    pfOdeCounters *cnt = &ctx->counters;
    switch (next) {
    case PF_ODE_STATE_STICK:
        cnt->stick_steps++;
        if (prev == PF_ODE_STATE_SLIP) cnt->stick_transitions++;
        break;
    case PF_ODE_STATE_SLIP:
        cnt->slip_steps++;
        if (prev == PF_ODE_STATE_STICK) cnt->breakaways++;
        break;
    case PF_ODE_STATE_POINT:
        if (p->step.point_dir_ok)
            cnt->point_patches++;
        else
            cnt->point_fallbacks++;
        break;
    case PF_ODE_STATE_STOCK:
        cnt->stock_steps++;
        break;
    case PF_ODE_STATE_NONE:
        /* dropped for this step (a non-finite input): only the report says so; the state and
         * its anchor carry over to the next step */
        p->step.info.state = next;
        return;
    }
    if (next != PF_ODE_STATE_STICK) p->persist.face_edge = 0;
    p->persist.state = next;
    p->step.info.state = next;
}

/* Begin: clear the step's report, rows and explicit part; note the bodies' positions (the
 * feedback torques after the step are about them). */
static void begin(pfOdePair *p, rowset *rs)
{
    p->step.point_dir_ok = p->step.point_slide = 0;
    p->step.face = 0;
    p->step.preload = 0.0;
    p->step.has_ps = p->step.has_w = 0;
    pfOdePatchInfo *info = &p->step.info;
    memset(rs, 0, sizeof *rs);
    memset(info, 0, sizeof *info);
    info->geom1 = p->g1;
    info->geom2 = p->g2;
    info->slot = p->slot;
    info->contact_count = p->step.ncontacts;
    info->combined_mu_s = p->persist.mat.mu_s;
    info->combined_mu_k = p->persist.mat.mu_k;
    p->step.has_drive = 0;
    p->step.held = 0;
    p->step.st_valid = 0;
    p->step.margin_lazy = 0;
    pf_ode_to3(dBodyGetPosition(p->step.b1), p->step.pre_G1);
    if (p->step.b2) pf_ode_to3(dBodyGetPosition(p->step.b2), p->step.pre_G2);
}

/* Stock mode: only the report (ODE's own friction rows were created at collide). */
static void stock_report(pfOdePair *p)
{
    pfOdePatchInfo *info = &p->step.info;
    double c0[3] = {0, 0, 0};
    for (int i = 0; i < p->step.ncontacts; ++i)
        for (int k = 0; k < 3; ++k)
            c0[k] += p->step.contacts[i].pos[k] / p->step.ncontacts;
    memcpy(info->centre, c0, sizeof c0);
    for (int k = 0; k < 3; ++k)
        info->normal[k] = p->step.contacts[0].normal[k];
    /* A tangent frame for the diagnostics (stock rows use ODE's own directions). */
    dVector3 nn = {info->normal[0], info->normal[1], info->normal[2], 0}, tx, ty;
    dPlaneSpace(nn, tx, ty);
    for (int k = 0; k < 3; ++k)
        info->xaxis[k] = tx[k];
    info->normal_force = p->persist.n_meas;
}

/* Gather: build the patch and read everything the decision and the rows need. Returns 0 if an
 * input is not finite (the patch is dropped for this step). */
static int gather(pfOdeContext *ctx, pfOdePair *p, double dt, stepinputs *in)
{
    const pfOdeConfig *cfg = &ctx->cfg;
    pfOdePatchInfo *info = &p->step.info;
    dBodyID b1 = p->step.b1, b2 = p->step.b2;
    memset(in, 0, sizeof *in);
    in->dt = dt;

    /* (the patch was built at pf_ode_collide, pf_ode_build_patch) */
    const double *c = p->step.c, *n = p->step.n, *x = p->step.x, *y = p->step.y;

    /* masses and loads */
    dBodyGetMass(b1, &in->m1);
    in->dyn1 = pf_ode_is_dynamic(b1);
    in->dyn2 = pf_ode_is_dynamic(b2);
    body_loads(ctx, b1, in->m1.mass, p->persist.has_other, p->persist.other_f1, p->persist.other_t1,
               in->f1, in->t1v);
    if (in->dyn2) {
        dBodyGetMass(b2, &in->m2);
        body_loads(ctx, b2, in->m2.mass, p->persist.has_other, p->persist.other_f2,
                   p->persist.other_t2, in->f2, in->t2v);
    }
    /* store pre-step state for the other-joint estimate (after_step) */
    {
        const dReal *v = dBodyGetLinearVel(b1), *w = dBodyGetAngularVel(b1);
        const dReal *uf = dBodyGetForce(b1), *ut = dBodyGetTorque(b1);
        for (int k = 0; k < 3; ++k) {
            p->step.pre_v1[k] = v[k];
            p->step.pre_w1[k] = w[k];
            p->step.pre_f1[k] = uf[k];
            p->step.pre_t1[k] = ut[k];
        }
        if (in->dyn2) {
            v = dBodyGetLinearVel(b2);
            w = dBodyGetAngularVel(b2);
            uf = dBodyGetForce(b2);
            ut = dBodyGetTorque(b2);
            for (int k = 0; k < 3; ++k) {
                p->step.pre_v2[k] = v[k];
                p->step.pre_w2[k] = w[k];
                p->step.pre_f2[k] = uf[k];
                p->step.pre_t2[k] = ut[k];
            }
        }
    }

    double vn, pv2[3];
    pfTwist tw0 = patch_twist(p, &vn, pv2, in->wrel);
    /* moving surfaces (pf_ode_surface.c): friction sees the slip relative to them, the body
     * twist less s = u2 - u1, the relative velocity at which the surfaces move together */
    pf_ode_surface_motion(p);
    const double *s_surf = p->step.surf_s;
    tw0.vx -= pf_ode_dot(s_surf, x);
    tw0.vy -= pf_ode_dot(s_surf, y);
    const pfTwist tw = tw0;
    in->tw = tw;
    {
        /* rolling velocity: body 1's mass centre relative to body 2's surface at c (Hertz
         * shift d) */
        const dReal *lv1 = dBodyGetLinearVel(b1);
        double vg[3] = {lv1[0] - pv2[0] - s_surf[0], lv1[1] - pv2[1] - s_surf[1],
                        lv1[2] - pv2[2] - s_surf[2]};
        p->step.roll.vx = pf_ode_dot(vg, x);
        p->step.roll.vy = pf_ode_dot(vg, y);
        p->step.roll.w = 0.0;
    }

    /* normal force: last step's feedback, or the first-contact estimate
     *   N0 = m1 * max(0, -a1.n) + m_red * max(0, -v_n) / dt
     * (the frictionless load pressing body 1 onto a supported body 2, plus the impulse that
     * stops the approach within one step), m_red the reduced mass of the pair. */
    double N;
    if (p->persist.has_n) {
        N = p->persist.n_meas;
    } else {
        /* body 2 is taken as supported (a box landing on a resting box must not see the two
         * free-fall accelerations cancel): the static part uses body 1's loads only */
        double a1n = pf_ode_dot(in->f1, n) / in->m1.mass;
        double inv_m = 1.0 / in->m1.mass;
        if (in->dyn2) inv_m += 1.0 / in->m2.mass;
        double mred = 1.0 / inv_m;
        N = in->m1.mass * fmax(0.0, -a1n) + mred * fmax(0.0, -vn) / dt;
        ctx->counters.first_contact_estimates++;
    }
    if (!(N >= 0.0)) N = 0.0;
    in->N = N;
    if (!isfinite(N) || !isfinite(tw.vx) || !isfinite(tw.vy) || !isfinite(tw.w) ||
        !pf_ode_finite3(in->f1) || !pf_ode_finite3(in->t1v) || !pf_ode_finite3(in->f2) ||
        !pf_ode_finite3(in->t2v) || !pf_ode_finite3(c) || !pf_ode_finite3(n))
        return 0;

    double a_hertz = 0.0;
    if (p->step.kind == PF_ODE_KIND_HERTZ) {
        a_hertz = p->step.def.radius > 0.0
                      ? p->step.def.radius
                      : cbrt(3.0 * N * p->step.hertz_rstar / (4.0 * p->persist.mat.e_star));
        if (!(a_hertz >= PF_ODE_MIN_HERTZ_RADIUS)) a_hertz = PF_ODE_MIN_HERTZ_RADIUS;
        p->step.def.radius = a_hertz;
    }
    in->a_hertz = a_hertz;
    if (p->step.kind == PF_ODE_KIND_LINE) { /* strip width from this step's N (P46) */
        ctx->counters.line_patches++;
        p->step.def.width = 2.0 * pf_line_half_width(N, p->step.hertz_rstar, p->step.def.length,
                                                     p->persist.mat.e_star);
    }
    int point = p->step.kind == PF_ODE_KIND_POINT;
    double rho_g = 0.0;
    if (!point && pf_patch_gyration_radius(&p->step.def, &rho_g, NULL) != PF_OK) {
        point = 1; /* geometry the core rejects: fall back to point friction */
        rho_g = 0.0;
    }
    p->step.rho_g = rho_g;
    in->point = point;
    in->rho_g = rho_g;

    const double tol = cfg->stick_velocity_tol;
    in->vt = hypot(tw.vx, tw.vy);
    in->small = in->vt < tol && fabs(tw.w) * rho_g < tol;
    p->step.solver_at_rest = in->small;

    info->twist = tw;
    info->normal_force = N;
    memcpy(info->centre, c, sizeof info->centre);
    memcpy(info->normal, n, sizeof info->normal);
    memcpy(info->xaxis, x, sizeof info->xaxis);
    if (tw.w != 0.0 && rho_g > 0.0 && fabs(tw.w) * rho_g > 1e-300) {
        info->has_cr = 1;
        info->cr[0] = -tw.vy / tw.w; /* P5 */
        info->cr[1] = tw.vx / tw.w;
    }
    if (point) {
        info->shape = PF_PATCH_NONE;
    } else {
        info->shape = p->step.def.shape;
        if (p->step.def.shape == PF_PATCH_DISK || p->step.def.shape == PF_PATCH_HERTZ_DISK)
            info->radius = p->step.def.radius;
        if (p->step.def.shape == PF_PATCH_RECT) {
            info->length = p->step.def.length;
            info->width = p->step.def.width;
        }
    }
    return 1;
}

/* Whether kinetic friction stops a sliding point patch within the step: the force that brings
 * its frictionless end-of-step slip xi_p = xi0 + dt a_free to rest, (dt A)^-1 xi_p with A the
 * translational 2 x 2 block of the patch's Delassus matrix, is within mu_k N (P49b). Backward
 * Euler's Coulomb law then ends the step at rest, as a sliding patch's stick test decides. */
static int point_stops(const pfOdePair *p, const stepinputs *in, const double xi[3],
                       const double A[9])
{
    const double dt = in->dt;
    const double a = dt * A[0], b = dt * A[1], c = dt * A[3], d = dt * A[4];
    const double det = a * d - b * c;
    if (!(det > 0.0) || !isfinite(det)) return 0;
    const double fx = -(d * xi[0] - b * xi[1]) / det, fy = -(-c * xi[0] + a * xi[1]) / det;
    return hypot(fx, fy) <= p->persist.mat.mu_k * in->N;
}

/* Most points of one body pair that point_group_stops shares a stop among */
#define PF_ODE_POINT_GROUP_MAX 16

/* Whether the point patches between p's two bodies stop them together within the step (P49c):
 * a body on several points (a tripod, a box on its corners), each too weak alone to stop the
 * body's slip (point_stops), can stop it together. The planar wrench at p's centre that brings
 * the bodies' frictionless end-of-step twist there to rest, W = -(dt A)^-1 (xi0 + dt a_free) with
 * A p's 3 x 3 Delassus block, is shared among the points (the pairs alive this step with the
 * same two bodies, a point patch each, with a measured normal force and a normal parallel to
 * p's) by the least squares split weighted by their capacities c_j = mu_k N_j:
 * F_j = c_j^2 J_j^T (sum_k c_k^2 J_k J_k^T)^-1 W, J_j = [I; r_j x] with r_j the point's offset
 * from p's centre. If every |F_j| <= c_j, kinetic friction stops the bodies (a sufficient test:
 * the split need not be the best one). Without it, each point slid with one row along its slip
 * and none across, and under QuickStep a tripod pushed sideways below mu_s m g could stay
 * sliding in a two-step cycle (in 16 of 40 row orders). */
static int point_group_stops(pfOdeContext *ctx, const pfOdePair *p, const stepinputs *in,
                             const double xi[3], const double A[9])
{
    const dBodyID b1 = p->step.b1, b2 = p->step.b2;
    const double *c = p->step.c, *n = p->step.n, *x = p->step.x, *y = p->step.y;
    double r[PF_ODE_POINT_GROUP_MAX][2], cap[PF_ODE_POINT_GROUP_MAX];
    int m = 0;
    for (int a = 0; a < ctx->alive_count; ++a) {
        const pfOdePair *q = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (!((q->step.b1 == b1 && q->step.b2 == b2) || (q->step.b1 == b2 && q->step.b2 == b1)))
            continue;
        if (q->persist.mat.mode == PF_ODE_MODE_STOCK || q->step.kind != PF_ODE_KIND_POINT) continue;
        if (q->step.ncontacts == 0) continue;
        if (fabs(pf_ode_dot(q->step.n, n)) < PF_ODE_GROUP_PARALLEL) continue;
        const double N = q == p ? in->N : (q->persist.has_n ? q->persist.n_meas : 0.0);
        if (!(N > 0.0) || !isfinite(N)) continue;
        if (m == PF_ODE_POINT_GROUP_MAX) return 0;
        const double d[3] = {q->step.c[0] - c[0], q->step.c[1] - c[1], q->step.c[2] - c[2]};
        r[m][0] = pf_ode_dot(d, x);
        r[m][1] = pf_ode_dot(d, y);
        cap[m] = q->persist.mat.mu_k * N;
        ++m;
    }
    if (m < 2) return 0;
    const double dt = in->dt;
    double W[3];
    if (!pf_ode_spd_solve3(A, xi, W)) return 0;
    for (int k = 0; k < 3; ++k)
        W[k] /= -dt;
    /* S = sum c_j^2 J_j J_j^T, J_j J_j^T = [1 0 -ry; 0 1 rx; -ry rx rx^2+ry^2] */
    double S[9] = {0};
    for (int j = 0; j < m; ++j) {
        const double w = cap[j] * cap[j], rx = r[j][0], ry = r[j][1];
        S[0] += w, S[2] -= w * ry, S[4] += w, S[5] += w * rx;
        S[8] += w * (rx * rx + ry * ry);
    }
    S[6] = S[2], S[7] = S[5];
    double lam[3];
    if (!pf_ode_spd_solve3(S, W, lam)) return 0;
    for (int j = 0; j < m; ++j) {
        const double w = cap[j] * cap[j];
        const double fx = w * (lam[0] - r[j][1] * lam[2]), fy = w * (lam[1] + r[j][0] * lam[2]);
        if (!(hypot(fx, fy) <= cap[j])) return 0;
    }
    ctx->counters.point_group_stops++;
    return 1;
}

/* Friction of a degenerate patch (an edge shorter than PF_ODE_LINE_MIN_SPAN of the smaller geom,
 * a single point): the point's Coulomb law, |F| <= mu_s N at rest and F = -mu_k N v / |v|
 * sliding, the limit of the patch laws as the patch shrinks to a point (docs/physics.md P49a; no
 * spin resistance). Its rows are the contacts' ODE joints (pf_ode_normal_contacts), bounded by
 * this step's normal force inside the solver (dContactApprox1), with the first axis along the
 * friction's direction and, sliding, no row across it: a circle where ODE's pyramid along
 * dPlaneSpace's axes holds up to sqrt(2) mu N along a diagonal. The direction: sliding, each
 * contact's own slip (pf_ode_normal_contacts; the patch's here); at rest, the friction force's
 * direction of the last step, kept within PF_ODE_POINT_DIR_COS (a load turning slowly is
 * followed, a load applied at once along a diagonal meets the box for one step); without either
 * (a new point patch at rest), dPlaneSpace's axes: then it is a point fallback. A slip above the
 * velocity tolerance that this step's kinetic friction stops (point_stops, P49b) is at rest for
 * this law: QuickStep leaves mm/s at the points of a resting pile, and taken as sliding each such
 * point had one row along that noise's direction and none across it for the step. */
static void point_rows(pfOdeContext *ctx, pfOdePair *p, const stepinputs *in, rowset *rs)
{
    const double *n = p->step.n, *x = p->step.x, *y = p->step.y;
    const pfTwist tw = in->tw;
    const double N = in->N;
    p->step.point_dir_ok = p->step.point_slide = 0;
    /* a slip that kinetic friction stops within the step ends it at rest: the rest rows */
    int stops = 0;
    if (!in->small && in->vt > 0.0) {
        /* the frictionless end-of-step twist and the Delassus block, read once for both tests */
        const double dt = in->dt;
        double af[3], A[9];
        pf_ode_patch_free_accel(ctx, p, in->dyn1, in->dyn2, in->f1, in->t1v, in->f2, in->t2v, af);
        pf_ode_patch_delassus(ctx, p, in->dyn1, in->dyn2, A);
        const double xi[3] = {in->tw.vx + dt * af[0], in->tw.vy + dt * af[1],
                              in->tw.w + dt * af[2]};
        stops = point_stops(p, in, xi, A) || point_group_stops(ctx, p, in, xi, A);
    }
    if (stops) p->step.solver_at_rest = 1;
    if (in->small || !(in->vt > 0.0) || stops) { /* (vt = 0 at rest: no direction to slide along) */
        memcpy(rs->t1, x, sizeof rs->t1);
        if (p->persist.has_point_dir) {
            const double *d = p->persist.point_dir, dn = pf_ode_dot(d, n);
            double t[3] = {d[0] - dn * n[0], d[1] - dn * n[1], d[2] - dn * n[2]};
            const double l = sqrt(pf_ode_dot(t, t));
            if (l > 0.5) { /* (within 60 degrees of the plane: the patch turned little) */
                for (int k = 0; k < 3; ++k)
                    rs->t1[k] = t[k] / l;
                p->step.point_dir_ok = 1;
            }
        }
        pf_ode_cross(n, rs->t1, rs->t2);
        if (!p->step.point_dir_ok) memcpy(rs->t2, y, sizeof rs->t2);
        rs->b1 = rs->b2 = p->persist.mat.mu_s * N;
    } else {
        for (int k = 0; k < 3; ++k)
            rs->t1[k] = -(tw.vx * x[k] + tw.vy * y[k]) / in->vt;
        pf_ode_cross(n, rs->t1, rs->t2);
        rs->b1 = p->persist.mat.mu_k * N;
        rs->b2 = 0.0;
        p->step.point_dir_ok = p->step.point_slide = 1;
    }
    memcpy(p->step.point_dir, rs->t1, sizeof p->step.point_dir);
}

/* Stick test (P10-P13 for a free body, generalised holding-wrench form otherwise): the CA
 * criterion, or with criterion = LIMIT the exact limit-set test (pf_core_limit.c) on the same
 * loads, which also gives the incipient twist a breakaway starts along. Records the test for the
 * in-solver coupling (st_*) and the report (margin, CA). */
static void stick_decide(pfOdeContext *ctx, pfOdePair *p, const stepinputs *in, stickdecision *dec)
{
    pfOdePatchInfo *info = &p->step.info;
    const int dyn1 = in->dyn1, dyn2 = in->dyn2;
    const dMass *m1 = &in->m1, *m2 = dyn2 ? &in->m2 : NULL;
    const double *f1 = in->f1, *t1v = in->t1v, *f2 = in->f2, *t2v = in->t2v;
    const pfTwist tw = in->tw;
    const double N = in->N, dt = in->dt, rho_g = in->rho_g;
    const double tol = ctx->cfg.stick_velocity_tol;
    const double mu_s = p->persist.mat.mu_s, mu_k = p->persist.mat.mu_k;
    const int limit = p->persist.mat.criterion == PF_ODE_CRITERION_LIMIT;
    const pfOdePatchState prev = previous_state(p);
    dec->prev = prev;
    dec->next = PF_ODE_STATE_SLIP;
    dec->xi = tw;
    dec->xi_from_test = 0;
    /* Stick decisions (docs/architecture.md, "Stick and slip in multi-body scenes"):
     *  - at rest (below the velocity tolerance): the loads test, as in the papers;
     *  - a stuck patch stays stuck while it moves no faster than static friction could stop
     *    within the step and the loads test holds: the solver's residual velocity (QuickStep
     *    leaves mm/s at a stuck patch of a rocking stack) is drift, which the anchor corrects,
     *    not motion; a launch or an impact releases it;
     *  - a sliding patch sticks when kinetic friction can stop it within this step (the loads
     *    test with the stopping acceleration xi0 / dt added, mu_k) and the loads are then held
     *    (mu_s): backward Euler's answer, so solver noise above the velocity tolerance cannot
     *    keep a patch sliding. */
    const int held = prev == PF_ODE_STATE_STICK;
    /* A held patch's capacity takes the largest normal force of the last PF_ODE_N_RECENT steps:
     * QuickStep's normal forces in a stack swing by +-50 % from step to step around the weight
     * they carry (the bodies rock), and a capacity that follows each dip released a box pushed
     * at 0.9 mu_s m g (the stack scene's pushed case) and let it slide off. */
    double Nh = N;
    if (held)
        for (int k = 0; k < PF_ODE_N_RECENT; ++k)
            Nh = fmax(Nh, p->persist.n_recent[k]);
    pfStickResult res;
    /* screened: the verdict came from a lower bound of the capacity (general_test), at the
     * normal force Ntest; the margin is then evaluated only when the report is read */
    int st = PF_ERR_STATE, tested = 0, screened = 0, scr_stop = 0, regroup = 0;
    double Ntest = Nh;
    if (in->small) {
        st = stick_test(ctx, p, dyn1, dyn2, m1, f1, t1v, f2, t2v, Nh, mu_s, NULL, limit, &res,
                        &screened);
        tested = 1;
    } else if (held) {
        /* held: the loads test decides, unless the patch is moving faster than static friction
         * could stop within the step (a kinematic screen: QuickStep leaves mm/s of oscillating
         * noise at a stuck patch of a rocking stack, which the anchor absorbs; a release on the
         * anchor's drift instead toppled a 10-box tower at 5 ms, whose rocking moves the patch
         * centres by more than any drift bound that still catches sliding early) */
        if (stoppable(dyn1, dyn2, m1, m2, tw, mu_s, Nh, dt, rho_g, PF_ODE_HELD_SPEED * tol)) {
            st = stick_test(ctx, p, dyn1, dyn2, m1, f1, t1v, f2, t2v, Nh, mu_s, NULL, limit, &res,
                            &screened);
            tested = 1;
        }
    } else if (prev == PF_ODE_STATE_SLIP &&
               stoppable(dyn1, dyn2, m1, m2, tw, mu_k, N, dt, rho_g, 0.0)) {
        /* a sliding member of a group whose normals are parallel re-sticks only if the group
         * holds the body (below) */
        regroup = p->persist.has_group && p->persist.group_span == 1;
        pfTwist stop = {tw.vx / dt, tw.vy / dt, tw.w / dt};
        pfStickResult rs_stop;
        if (stick_test(ctx, p, dyn1, dyn2, m1, f1, t1v, f2, t2v, N, mu_k, &stop, limit, &rs_stop,
                       &scr_stop) == PF_OK &&
            rs_stop.sticks) {
            st = stick_test(ctx, p, dyn1, dyn2, m1, f1, t1v, f2, t2v, N, mu_s, NULL, limit, &res,
                            &screened);
            Ntest = N;
            /* a sliding patch whose loads break it at once is reversing: it keeps sliding */
            tested = st == PF_OK && res.sticks;
        }
    }
    if ((tested || regroup) && p->persist.has_group) {
        /* a member of a held group: the group's share replaces the per-patch loads */
        const int side1 = p->persist.group_side > 0.0;
        pfStickResult gres;
        int gscreened = 0;
        if (group_test(ctx, p, side1 ? p->step.b1 : p->step.b2, side1 ? f1 : f2, side1 ? t1v : t2v,
                       mu_s, Nh, limit, &gres, &gscreened) == PF_OK) {
            res = gres;
            st = PF_OK;
            tested = 1;
            screened = gscreened;
            Ntest = Nh;
        }
    }
    if (tested && st == PF_OK && !res.sticks && held &&
        res.demand <= PF_ODE_ROUNDING_DEMAND * (norm3(f1) + norm3(f2) + mu_s * N)) {
        /* a demand at the rounding level of the loads (a contact that carried no load last
         * step has N = 0 and capacity 0) does not release the anchor */
        res.sticks = 1;
        res.margin = 0.0;
    }
    if (tested && st == PF_OK) {
        p->step.st_valid = 1;
        p->step.st_demand = res.demand;
        p->step.st_incipient = res.incipient;
        info->stick_margin = res.margin;
        p->step.margin_lazy = screened;
        if (screened) {
            /* the full test's margin, for the report (pf_ode_context.c): the capacity at the same
             * unit incipient twist, less the same demand */
            pf_ode_def_copy(&p->step.margin_def, &p->step.def);
            p->step.margin_mu = mu_s;
            p->step.margin_n = Ntest;
            p->step.margin_demand = res.demand;
            p->step.margin_incipient = res.incipient;
        }
        if (!res.pure_translation) {
            info->has_ca = 1;
            info->ca[0] = res.ca_x;
            info->ca[1] = res.ca_y;
        }
        if (res.sticks) {
            dec->next = PF_ODE_STATE_STICK;
        } else {
            dec->next = PF_ODE_STATE_SLIP;
            /* breakaway: rotation about CA (P10) or translation; with LIMIT the minimising
             * twist (the limit surface's normal where the loads leave the limit set) */
            dec->xi = res.incipient;
            dec->xi_from_test = 1;
        }
    }
}

/* The established bias of QuickStep's leakage at a stuck patch (world), for the drift
 * correction's limits (stick_rows, P36a); used only where the user declared QuickStep (adapter
 * coupling). dWorldStep solves the rows: a stuck patch moves at the correction it was given, and
 * its anchor drift d stays within tol dt / drift_gain. QuickStep's 20 iterations leave each row
 * a residual, and at a resting pile that residual is biased (the same sign step after step), so
 * a correction clamped to tol never catches up and the pile creeps. The leakage of a step is
 * what the rows let through beyond the correction they were given, e = (d - d_prev) / dt -
 * c_prev; its mean since the patch stuck is the bias, less its standard error (only the part of
 * the mean that its scatter does not explain; none from fewer than two steps). The scatter is
 * the whole vector's, the normal rows' part included. So a patch whose leakage only scatters
 * keeps tol, and a patch whose leakage keeps one sign is given what cancels it. */
static void leak_bias(pfOdePair *p, const stickdecision *dec, const double *d, double dt,
                      double *bias)
{
    pfOdePairPersist *ps = &p->persist;
    bias[0] = bias[1] = bias[2] = 0.0;
    if (dec->prev != PF_ODE_STATE_STICK) {
        memset(ps->leak_sum, 0, sizeof ps->leak_sum);
        memset(ps->corr_prev, 0, sizeof ps->corr_prev);
        ps->leak_sq = 0.0;
        ps->leak_n = 0;
    } else {
        double e[3];
        for (int k = 0; k < 3; ++k) {
            e[k] = (d[k] - ps->drift_prev[k]) / dt - ps->corr_prev[k];
            ps->leak_sum[k] += e[k];
        }
        ps->leak_sq += pf_ode_dot(e, e);
        ps->leak_n++;
    }
    memcpy(ps->drift_prev, d, sizeof ps->drift_prev);
    const double n = ps->leak_n;
    if (n < 2) return;
    double mean[3] = {ps->leak_sum[0] / n, ps->leak_sum[1] / n, ps->leak_sum[2] / n};
    const double m2 = pf_ode_dot(mean, mean), var = fmax(0.0, (ps->leak_sq - n * m2) / (n - 1));
    const double mag = sqrt(m2), se = sqrt(var / n);
    if (!(mag > se) || !isfinite(mag) || !isfinite(se)) return;
    for (int k = 0; k < 3; ++k)
        bias[k] = mean[k] * (1.0 - se / mag);
}

/* A stuck row's drift correction: -g d clamped to tol, widened against the established bias b of
 * its leakage along the row (leak_bias; 0 but under QuickStep, which is then clampd), up to
 * vmax: within [-tol - b, tol] for b > 0, [-tol, tol - b] for b < 0 (P36a). */
static double drift_correction(double v, double tol, double b, double vmax)
{
    const double lo = -tol - fmin(vmax, fmax(b, 0.0)), hi = tol + fmin(vmax, fmax(-b, 0.0));
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Stick rows: on entering STICK, anchor the patch where it stuck (persistent); then rows along
 * the patch axes with bounds mu_s N and targets that pull the patch back to its anchor (P36), a
 * spin motor with the static spin capacity, and the rolling rows' largest moment (P18). */
static void stick_rows(pfOdeContext *ctx, pfOdePair *p, const stepinputs *in,
                       const stickdecision *dec, rowset *rs)
{
    const double *c = p->step.c, *n = p->step.n, *x = p->step.x, *y = p->step.y;
    dBodyID b1 = p->step.b1, b2 = p->step.b2;
    const double N = in->N, dt = in->dt, tol = ctx->cfg.stick_velocity_tol;
    const double mu_s = p->persist.mat.mu_s;
    /* A round contact (a Hertz disk, a line, a point) travels over its bodies as they roll: the
     * material points that touched when it stuck part without any slip, by the distance rolled,
     * and a correction toward them dragged a rolling ball back to where it first touched (at
     * stick_velocity_tol under dWorldStep; under QuickStep, where the correction follows the
     * drift's steady growth as leakage, at 8e-3 m/s, stopping it early). Its drift is therefore
     * the slip itself, integrated at the contact (P36b): the twist before this step is the
     * relative velocity at the patch centre with which the bodies moved through the last step.
     * While the contact travels faster than stick_velocity_tol (rolling), it has no place on its
     * bodies to return to, and the slip counts from where it comes to rest: ODE applies a body's
     * damping after the solver, so a damped ball slipped by w R times the damping per step while
     * it rolled (8 mm over 2 s in a user's scene), which the correction then pulled back after it
     * stopped. A face's patch stays on both faces while stuck, and keeps its anchor points, which
     * carry no integration error. */
    const int rolls = p->step.kind != PF_ODE_KIND_PATCH;
    if (dec->prev != PF_ODE_STATE_STICK) {
        memset(p->persist.roll_drift, 0, sizeof p->persist.roll_drift);
        p->persist.roll_spin = 0.0;
    } else if (rolls) {
        /* the contact's speed over body 1: its relative turning in the patch plane times its
         * distance from body 1's mass centre */
        double wt[3], r[3], gp[3];
        const double wn = pf_ode_dot(in->wrel, n);
        pf_ode_to3(dBodyGetPosition(b1), gp);
        for (int k = 0; k < 3; ++k) {
            wt[k] = in->wrel[k] - wn * n[k];
            r[k] = c[k] - gp[k];
        }
        const double travel = sqrt(pf_ode_dot(wt, wt) * pf_ode_dot(r, r));
        const double h = p->persist.surf_dt > 0.0 ? p->persist.surf_dt : dt;
        if (!(travel <= tol)) {
            memset(p->persist.roll_drift, 0, sizeof p->persist.roll_drift);
        } else {
            for (int k = 0; k < 3; ++k)
                p->persist.roll_drift[k] += h * (in->tw.vx * x[k] + in->tw.vy * y[k]);
        }
        p->persist.roll_spin += h * in->tw.w;
    }
    if (dec->prev != PF_ODE_STATE_STICK) {
        /* anchor the patch where it stuck */
        to_body_point(b1, c, p->persist.anchor1);
        pf_ode_to_body_vec(b1, x, p->persist.axis1);
        pf_ode_to_body_vec(b1, n, p->persist.nrm1);
        if (b2) {
            to_body_point(b2, c, p->persist.anchor2);
            pf_ode_to_body_vec(b2, x, p->persist.axis2);
            pf_ode_to_body_vec(b2, n, p->persist.nrm2);
        } else {
            memcpy(p->persist.nrm2, n, sizeof p->persist.nrm2);
            memcpy(p->persist.anchor2, c, sizeof p->persist.anchor2);
            memcpy(p->persist.axis2, x, sizeof p->persist.axis2);
        }
    } else {
        /* held on moving surfaces: each anchor rides with its surface */
        pf_ode_surface_advance_anchors(p);
    }
    p->persist.surf_dt = dt;
    /* drift of the anchored patch since it stuck, corrected through the targets; the rows'
     * targets are the surfaces' relative velocity s plus the correction */
    double pa1[3], pa2[3], u1[3], u2[3];
    body_frame_point(b1, p->persist.anchor1, pa1);
    body_frame_vec(b1, p->persist.axis1, u1);
    if (b2) {
        body_frame_point(b2, p->persist.anchor2, pa2);
        body_frame_vec(b2, p->persist.axis2, u2);
    } else {
        memcpy(pa2, p->persist.anchor2, sizeof pa2);
        memcpy(u2, p->persist.axis2, sizeof u2);
    }
    double d[3] = {pa1[0] - pa2[0], pa1[1] - pa2[1], pa1[2] - pa2[2]};
    double u21[3];
    pf_ode_cross(u2, u1, u21);
    double theta = atan2(pf_ode_dot(u21, n), pf_ode_dot(u2, u1));
    if (rolls) {
        memcpy(d, p->persist.roll_drift, sizeof d);
        theta = p->persist.roll_spin;
    }
    double dxp = pf_ode_dot(d, x), dyp = pf_ode_dot(d, y);
    p->step.info.drift = hypot(dxp, dyp);
    double g = ctx->cfg.drift_gain / dt;
    memcpy(rs->t1, x, sizeof rs->t1);
    memcpy(rs->t2, y, sizeof rs->t2);
    rs->b1 = rs->b2 = mu_s * N;
    /* under QuickStep (either coupling: solver_stuck_rows), the correction may exceed tol against
     * the measured bias of the rows' leakage (leak_bias), never beyond the speed change their bound
     * can give the pair within the step, dt mu_s N (1/m1 + 1/m2) */
    const int quick = ctx->cfg.stepper == PF_ODE_STEPPER_QUICK;
    double bias[3] = {0.0, 0.0, 0.0}, vmax = tol;
    if (quick) {
        leak_bias(p, dec, d, dt, bias);
        const double im =
            (in->dyn1 ? 1.0 / in->m1.mass : 0.0) + (in->dyn2 ? 1.0 / in->m2.mass : 0.0);
        vmax = dt * mu_s * N * im;
        if (!isfinite(vmax)) vmax = 0.0;
    }
    double c1 = drift_correction(-g * dxp, tol, pf_ode_dot(bias, x), vmax);
    double c2 = drift_correction(-g * dyp, tol, pf_ode_dot(bias, y), vmax);
    rs->m1 = c1 + pf_ode_dot(p->step.surf_s, x);
    rs->m2 = c2 + pf_ode_dot(p->step.surf_s, y);
    if (p->step.has_sib) {
        /* A sibling patch of the pair (the wall beside this floor) pushes body 1 along sib, in
         * this patch's plane. Whatever this patch's friction would carry along +sib the
         * sibling's normal force can carry instead, and that only raises the sibling's capacity
         * and lowers this one's (P51a): so a held pair never needs this patch's friction along
         * sib. Left to the solver, the stuck rows took the load (the anchor pulled the box off
         * the wall, whose normal force fell to 0, and the floor alone held the push, to
         * sqrt((mu m g)^2 - P^2) in place of mu (m g + P)); a row along sib that only yielded
         * (a CFM 1e3 times its own) still took 0.8 N of the corner's 2.5 N press under QuickStep
         * at 20 iterations, and the wall's capacity with it. So the held patch has no row along
         * sib (bound 0): a push along it goes to the sibling's normal rows; a pull off the
         * sibling separates the pair's contacts there, and the next step's patch, without a
         * sibling, has both rows again. */
        const double *sb = p->step.sib;
        memcpy(rs->t1, sb, sizeof rs->t1);
        pf_ode_cross(n, sb, rs->t2);
        const double dt2 = pf_ode_dot(d, rs->t2);
        rs->b1 = 0.0;
        rs->m1 = 0.0;
        c2 = drift_correction(-g * dt2, tol, pf_ode_dot(bias, rs->t2), vmax);
        c1 = 0.0;
        rs->m2 = c2 + pf_ode_dot(p->step.surf_s, rs->t2);
        /* the spin about n, when n lies in the sibling's plane, is a moment the sibling's normal
         * pressure can carry too (the wall's, as the box's pitch under a push at its mass
         * centre): it yields likewise, so that it does not take the sibling's part */
        rs->yield_spin = p->step.sib_perp;
    }
    if (quick)
        for (int k = 0; k < 3; ++k)
            p->persist.corr_prev[k] = c1 * rs->t1[k] + c2 * rs->t2[k];
    double dspin = 0.0;
    pfTwist unit_spin = {0.0, 0.0, 1.0};
    if (pf_patch_dissipation(&p->step.def, mu_s, N, unit_spin, &dspin, NULL) != PF_OK) dspin = 0.0;
    rs->spin_motor = dspin > 0.0;
    rs->bspin = dspin;
    rs->spin_vel = clampd(-g * theta, tol / fmax(in->rho_g, 1e-12));
    if (p->step.kind == PF_ODE_KIND_HERTZ && p->step.def.rolling_d > 0.0)
        rs->broll1 = rs->broll2 =
            in->a_hertz * N * p->step.def.rolling_d / 5.0; /* |M_r| max, P18 */
    p->step.info.bounds.fx = rs->b1;
    p->step.info.bounds.fy = rs->b2;
    p->step.info.bounds.mz = rs->bspin;
    /* a member of a held group: its holder does not move under the patch's friction, and under
     * QuickStep the angular rows may act on the held body alone (held_rows) */
    if (dec->prev == PF_ODE_STATE_STICK && p->persist.has_group)
        rs->held = p->persist.group_side > 0.0 ? 1 : 2;
}

/* The kinetic wrench W(xi) of the patch (0 at a zero twist or where the model fails); 0 if it
 * is not finite. */
static int slip_wrench(const pfOdePair *p, double mu_k, double N, pfTwist xi, pfTwist roll,
                       pfWrench *W)
{
    W->fx = W->fy = W->mz = 0.0;
    if (xi.vx == 0.0 && xi.vy == 0.0 && xi.w == 0.0) return 1;
    if (pf_patch_friction(&p->step.def, mu_k, N, xi, roll, W, NULL) != PF_OK) {
        W->fx = W->fy = W->mz = 0.0;
        return 1;
    }
    return isfinite(W->fx) && isfinite(W->fy) && isfinite(W->mz);
}

/* Whether the bodies' frictionless loads hold other constraints' forces of the last step (LOAD
 * joints: other pairs' contacts, joints to other dynamic bodies; pf_ode_model.c), the loads that
 * can balance this patch's friction. Without them the loads are the user's and gravity, which
 * last through the step, and the frictionless prediction is P37's. 0 on a pair's first step
 * (nothing measured yet). */
static int lagged_constraint_forces(const pfOdePair *p, int dyn1, int dyn2)
{
    if (!p->persist.has_other) return 0;
    const double *v[4] = {p->persist.other_f1, p->persist.other_t1, p->persist.other_f2,
                          p->persist.other_t2};
    for (int i = dyn1 ? 0 : 2; i < (dyn2 ? 4 : 2); ++i)
        if (v[i][0] != 0.0 || v[i][1] != 0.0 || v[i][2] != 0.0) return 1;
    return 0;
}

/* Whether the other constraints forbid a patch motion: an eigenvalue of the Delassus block, in
 * coordinates (vx, vy, rho w), below PF_ODE_NULL_EIGEN of the largest (as in the stick test's
 * pf_ode_regularise_block). The fixed point of implicit_prediction is then not defined on all
 * twists. */
static int forbids_motion(const double *A, double rho)
{
    const double S[3] = {1.0, 1.0, rho > 0.0 ? rho : 1.0};
    double As[9], l[3], V[9];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            As[3 * i + k] = A[3 * i + k] * S[i] * S[k];
    pf_ode_jacobi3(As, l, V);
    const double lmax = fmax(fmax(l[0], l[1]), l[2]);
    return !(lmax > 0.0) || !(fmin(fmin(l[0], l[1]), l[2]) > PF_ODE_NULL_EIGEN * lmax);
}

/* The implicit slip prediction: slip_rows' fixed point (P37)
 *     xi = xi_p + dt A W(xi),    xi_p = xi0 + dt a_free,
 * solved exactly. a_free counts the other contacts' forces of the last step as loads; where one
 * of them balances this patch's friction (a finger pushing a block at constant speed, P59) the
 * frictionless prediction xi_p adds dt A (-W) ~ mu g dt to a twist that does not change, and
 * at a push speed comparable to mu g dt, W(xi_p) is the wrench of another twist: the block
 * settled where that wrong wrench balanced (the turning rate 59 % high at 5 mm/s and 1 ms). The
 * fixed point counts the patch's own friction of this step against those forces, so a balanced
 * twist predicts itself; for a free translating patch it is xi_p's direction, as before. It is
 * the maximum-dissipation projection of the in-solver coupling with lambda* = -(dt A)^-1 xi_p
 * (pf_patch_project: xi = A' (W(xi) - lambda*), A' = dt A), warm-started at the last step's
 * answer. The caller solves it only where the loads hold other constraints' forces
 * (lagged_constraint_forces): without them xi_p is P37's answer and costs one evaluation, and on
 * a pair's first step (none measured yet) the fixed point would count this patch's friction and
 * not the others' that act with it (two tracks under one body: each alone would spin it). A patch
 * the projection stops (lambda* in the limit set: the step's friction could hold it) keeps xi_p
 * (its rows stop it), as does a projection that fails or does not converge. In: *xi = xi_p; out, if
 * it returns 1: the prediction and its wrench in (*xi, *W) (0: unchanged, the caller takes W at
 * xi_p). */
static int implicit_prediction(pfOdeContext *ctx, pfOdePair *p, int dyn1, int dyn2, double dt,
                               double mu_k, double N, pfTwist roll, pfTwist *xi, pfWrench *W)
{
    double A[9], xv[3] = {xi->vx, xi->vy, xi->w}, ls[3];
    pf_ode_patch_delassus(ctx, p, dyn1, dyn2, A);
    for (int k = 0; k < 9; ++k)
        A[k] *= dt;
    if (forbids_motion(A, p->step.rho_g) || !pf_ode_spd_solve3(A, xv, ls)) return 0;
    const pfWrench free_w = {-ls[0], -ls[1], -ls[2]};
    pfTwist *g = &p->persist.slip_guess;
    const int warm = !p->fresh && p->persist.state == PF_ODE_STATE_SLIP &&
                     (g->vx != 0.0 || g->vy != 0.0 || g->w != 0.0);
    pfProjectResult pr;
    if (pf_patch_project(&(pfProjectInput){&p->step.def, mu_k, N, A, free_w, roll, warm ? g : NULL},
                         &pr, NULL) != PF_OK)
        return 0;
    *g = pr.sticks ? (pfTwist){0.0, 0.0, 0.0} : pr.velocity;
    if (pr.sticks || !pr.converged) return 0;
    *xi = pr.velocity;
    *W = pr.wrench;
    return 1;
}

/* Slip rows: with the in-solver coupling only the rolling rows (the friction block is the
 * solver's); otherwise one row along the kinetic wrench at the predicted twist (P37) bounded by
 * |F|, a spin row bounded by |Mz|, the rolling rows, and the driving components set aside to be
 * applied explicitly (drive_components). */
static void slip_rows(pfOdeContext *ctx, pfOdePair *p, const stepinputs *in,
                      const stickdecision *dec, rowset *rs)
{
    const double *n = p->step.n, *x = p->step.x, *y = p->step.y;
    const int dyn1 = in->dyn1, dyn2 = in->dyn2;
    const double N = in->N, dt = in->dt, mu_k = p->persist.mat.mu_k;
    const pfTwist tw = in->tw;
    pfOdePatchInfo *info = &p->step.info;
    if (ctx->solver) {
        /* in-solver coupling: the friction block is the solver's (pf_ode_solver.c); only
         * the rolling-resistance rows (P18) and their driving part stay here */
        memcpy(rs->t1, x, sizeof rs->t1);
        memcpy(rs->t2, y, sizeof rs->t2);
        memset(p->step.drive_f, 0, sizeof p->step.drive_f);
        memset(p->step.drive_t, 0, sizeof p->step.drive_t);
        double mw[3];
        int has_roll = rolling_rows(p, in->a_hertz, N, rs, mw);
        drive_rolling(p, has_roll ? mw : NULL, in->wrel, rs);
        return;
    }
    /* Slip direction, implicit (backward Euler): the wrench is taken at the predicted
     * end-of-step twist, not at xi0. Backward-Euler Coulomb with the other constraints' forces
     * lagged (loads of the mobility model) is the fixed point
     *     xi = xi0 + dt a_free + dt A W(xi)                                              (P37)
     * (A the patch's Delassus block, W degree-0 homogeneous). For a translating patch with
     * isotropic friction W(xi) = -mu N xi/|xi|, so xi is parallel to xi0 + dt a_free exactly:
     * with t1 along that direction, the full bound on t1 and none on t2, the step lands on the
     * implicit solution (or at rest if the bound suffices, never past it). At speeds >> dt
     * |a_free| it is xi0 (the explicit choice), while at low speed, where the explicit
     * direction swings by tens of degrees per step, it stops the load from going unresisted
     * for a step. A breakaway keeps the stick test's incipient twist (rotation about CA, or
     * the limit-set minimiser). Where the loads hold other constraints' forces the fixed
     * point is solved exactly (implicit_prediction); otherwise xi0 + dt a_free is its answer. */
    pfTwist xi = dec->xi;
    int predicted = 0;
    if (!dec->xi_from_test && (dyn1 || dyn2)) {
        double af[3];
        pf_ode_patch_free_accel(ctx, p, dyn1, dyn2, in->f1, in->t1v, in->f2, in->t2v, af);
        pfTwist pred = {tw.vx + dt * af[0], tw.vy + dt * af[1], tw.w + dt * af[2]};
        if (isfinite(pred.vx) && isfinite(pred.vy) && isfinite(pred.w)) {
            xi = pred;
            predicted = 1;
        }
    }
    /* kinetic wrench of the patch for the twist (or the incipient twist) */
    pfWrench W = {0, 0, 0};
    const pfTwist roll = p->step.roll;
    if (!(predicted && lagged_constraint_forces(p, dyn1, dyn2) &&
          implicit_prediction(ctx, p, dyn1, dyn2, dt, mu_k, N, roll, &xi, &W)) &&
        !slip_wrench(p, mu_k, N, xi, roll, &W)) {
        ctx->counters.dropped_nonfinite++;
        W.fx = W.fy = W.mz = 0.0;
    }
    double fm = hypot(W.fx, W.fy);
    if (fm > 0.0) {
        for (int k = 0; k < 3; ++k)
            rs->t1[k] = (W.fx * x[k] + W.fy * y[k]) / fm;
    } else {
        memcpy(rs->t1, x, sizeof rs->t1);
    }
    pf_ode_cross(n, rs->t1, rs->t2);
    rs->b1 = fm;
    rs->b2 = 0.0;
    /* the row opposes the slip relative to the moving surfaces: its target is their s */
    rs->m1 = pf_ode_dot(p->step.surf_s, rs->t1);
    rs->m2 = pf_ode_dot(p->step.surf_s, rs->t2);
    rs->bspin = fabs(W.mz);
    double mw[3];
    int has_roll = rolling_rows(p, in->a_hertz, N, rs, mw);
    /* bounds report the model's magnitudes; driving components leave their rows below */
    info->bounds.fx = rs->b1;
    info->bounds.fy = rs->b2;
    info->bounds.mz = rs->bspin;
    drive_components(ctx, p, dt, dyn1, dyn2, mu_k, N, xi, roll, &W, has_roll ? mw : NULL, in->wrel,
                     rs);
}

/* One patch's step: gather -> stick test -> stick / slip rows -> commit. Returns 1 if rs holds
 * rows to create, 0 if not (stock mode, or a patch dropped for non-finite inputs). */
static int evaluate(pfOdeContext *ctx, pfOdePair *p, double dt, rowset *rs)
{
    begin(p, rs);
    if (p->persist.mat.mode == PF_ODE_MODE_STOCK) {
        stock_report(p);
        set_state(ctx, p, PF_ODE_STATE_STOCK);
        return 0;
    }
    stepinputs in;
    if (!gather(ctx, p, dt, &in)) {
        ctx->counters.dropped_nonfinite++;
        /* the step's scratch says "no patch": nothing of an earlier step is left in it */
        p->step.kind = PF_ODE_KIND_POINT;
        pf_ode_def_reset(&p->step.def);
        p->step.rho_g = 0.0;
        set_state(ctx, p, PF_ODE_STATE_NONE);
        return 0;
    }
    rs->fric = 1;
    if (in.point) {
        point_rows(ctx, p, &in, rs);
        p->step.info.bounds.fx = rs->b1;
        p->step.info.bounds.fy = rs->b2;
        set_state(ctx, p, PF_ODE_STATE_POINT);
        return 1;
    }
    stickdecision dec;
    stick_decide(ctx, p, &in, &dec);
    if (dec.next == PF_ODE_STATE_STICK)
        stick_rows(ctx, p, &in, &dec, rs);
    else
        slip_rows(ctx, p, &in, &dec, rs);
    set_state(ctx, p, dec.next);
    return 1;
}

/* Largest row bound handed to ODE [N or N m]: keeps huge materials finite (never dInfinity,
 * which ODE would treat as an unbounded row). */
#define PF_ODE_MAX_BOUND 1e30

static double finite_bound(double b)
{
    return (b > 0.0) ? (b < PF_ODE_MAX_BOUND ? b : PF_ODE_MAX_BOUND) : 0.0;
}

/* 1 if a stuck member of a held group (rs->held, set by stick_rows) takes its angular rows
 * (spin, rolling) on the held body alone, under QuickStep. Its holder does not move under the
 * patch's friction (holder_immobile: static, kinematic, or held by its joints, as a fingertip on
 * a slider along the normal), so the rows give the same answer without it. With the holder in
 * the rows, QuickStep's sweeps pass the stuck spin rows' impulses through the holder's own joint
 * rows, which do not settle in 20 iterations: a bar held between two fingertips on sliders
 * swung in spin by up to 0.1 rad/s from step to step and turned out of the grasp at 0.46 of the
 * soft-finger limit (10 N, 1 ms), 0.97 at 5 N. The friction rows stay on the pair: with them on
 * the held body too, the 10 N grasp held to 0.94 of the limit, with the spin rows alone 0.9999.
 * Not under dWorldStep, which solves the holder's rows exactly and where Debian's Dantzig solver
 * met "LCP internal error" with rows on the held body alone; not where an angular row of the held
 * body alone would be applied explicitly (pf_ode_angular_rows). */
static int held_rows(const pfOdeContext *ctx, const pfOdePair *p, const rowset *rs,
                     const pfOdeMobility *mb1, const pfOdeMobility *mb2)
{
    if (!rs->held || ctx->cfg.stepper != PF_ODE_STEPPER_QUICK) return 0;
    const pfOdeMobility *mh = rs->held == 1 ? mb1 : mb2;
    if (!(mh->im > 0.0)) return 0;
    const double *e[3] = {p->step.n, rs->t1, rs->t2};
    const double bound[3] = {rs->bspin, rs->broll1, rs->broll2};
    for (int k = 0; k < 3; ++k)
        if (bound[k] > 0.0 && !pf_ode_angular_row_implicit(mh, &pf_ode_no_mobility, e[k])) return 0;
    return 1;
}

/* 1 if, with the in-solver coupling, a patch takes the adapter's normal joints and rows for this
 * step instead of a patch joint: under a declared QuickStep, every patch that is stuck or at rest
 * (a breakaway's first step included). The patch joint's projection is exact only at the
 * solution, and QuickStep ends on an iterate of it:
 *  - held rows that carry an iterate of the holding wrench unbounded let an iterate demand more
 *    than static friction can give (a pyramid's top box, stuck under N = 14.5 N, carried 20.3 N
 *    once the leakage correction P36a was on), while bounding the iterate in the patch joint
 *    failed where the iterates overshoot on their way to a wrench inside the limit set (a turned
 *    pair resting as one patch came apart; a tracked vehicle broke away at half its torque);
 *  - the patch block carries both bodies' mobility, and a fingertip on a slider turns 70 times as
 *    easily as the bar it holds, which 20 sweeps do not take out again (the pinch let go at 0.43
 *    of the soft-finger limit);
 *  - at a breakaway the projection tests the limit set at mu_s, and caught the releases of the
 *    CA criterion (the tracked vehicle under CA broke away at 1.04 of its moment).
 * The adapter's stuck rows are bounded per axis by mu_s N and the static spin capacity, carry the
 * leakage correction (P36a) and a held group's angular rows on the held body alone (held_rows);
 * its breakaway rows follow the criterion's incipient twist. The stick test is the same in both
 * couplings. The patch joint keeps the patches that slide, whose exact wrench at the solver's own
 * N is what the coupling is for, and every patch under dWorldStep, whose solution it is exact at.
 * With it the in-solver QuickStep towers lean less than stock's (5 ms, seeds 1-8, 5.5 s: median
 * 6.7e-3 m against 1.05e-2 m; before, 1.8e-2 m). */
static int solver_stuck_rows(const pfOdeContext *ctx, const pfOdePair *p)
{
    return pf_ode_adapter_holds_stuck(ctx) &&
           (p->persist.state == PF_ODE_STATE_STICK || p->step.solver_at_rest);
}

/* 1 if the pair's rows this step are the in-solver coupling's patch joint (a patch the adapter
 * does not hold, solver_stuck_rows). */
static int solver_rows(const pfOdeContext *ctx, const pfOdePair *p)
{
    return ctx->solver && p->persist.state != PF_ODE_STATE_POINT && !solver_stuck_rows(ctx, p);
}

/* The factor on the row bounds of the pair at pool index idx: 1 - PF_ODE_PAIR_BOUND_SPLIT
 * frac((idx + 1) phi), phi the golden ratio, which differs for every idx (a Weyl sequence). Two
 * patches that hold one body with equal bounds (a symmetric grasp: the same mu_s N on both
 * fingertips) take both their rows along one axis to their bounds in one pivot of Dantzig's
 * solver, and its next pivot is a zero step (on the grasp at 0.999 of its limit: the two t1 rows
 * at +10 N, one back in N with w = 0 exactly). */
static double pair_bound_scale(int idx)
{
    const double phi = 1.6180339887498949;
    double f = (idx + 1) * phi;
    return 1.0 - PF_ODE_PAIR_BOUND_SPLIT * (f - floor(f));
}

static void create_rows(pfOdeContext *ctx, pfOdePair *p, int idx, const rowset *in)
{
    rowset r = *in;
    const rowset *rs = &r;
    r.b1 = finite_bound(r.b1);
    r.b2 = finite_bound(r.b2);
    r.bspin = finite_bound(r.bspin);
    r.broll1 = finite_bound(r.broll1);
    r.broll2 = finite_bound(r.broll2);
    /* equal bounds let one pivot of the Dantzig solver (dWorldStep) take two rows to their bounds
     * together, and its next pivot is then a zero step, on which Debian's solver gives up ("LCP
     * internal error, s <= 0"). Within the pair, a load along the diagonal of a stuck patch's
     * mu_s N on t1 and t2: t2's bound is the smaller by PF_ODE_BOUND_SPLIT; between pairs, every
     * bound of the pair takes its own factor (pair_bound_scale). Not under QuickStep, which has no
     * pivots, nor on an ODE whose Dantzig takes zero steps (ODE_EXT_lcp_zero_step). */
    if (ctx->cfg.stepper != PF_ODE_STEPPER_QUICK && !ctx->lcp_zero_step) {
        if (r.b2 > 0.0 && r.b2 == r.b1) r.b2 *= 1.0 - PF_ODE_BOUND_SPLIT;
        const double f = pair_bound_scale(idx);
        r.b1 *= f;
        r.b2 *= f;
        r.bspin *= f;
        r.broll1 *= f;
        r.broll2 *= f;
    }
    if (!isfinite(r.m1) || !isfinite(r.m2) || !isfinite(r.spin_vel) || !pf_ode_finite3(r.t1) ||
        !pf_ode_finite3(r.t2)) {
        ctx->counters.dropped_nonfinite++;
        p->step.has_fric = p->step.has_spin = 0;
        return;
    }
    const pfOdeMobility *mb1, *mb2;
    pf_ode_pair_mobility(ctx, p, &mb1, &mb2);
    dContact cj;
    memset(&cj, 0, sizeof cj);
    for (int k = 0; k < 3; ++k) {
        cj.geom.pos[k] = p->step.c[k];
        cj.geom.normal[k] = p->step.n[k];
        cj.fdir1[k] = rs->t1[k];
        p->step.t1[k] = rs->t1[k];
        p->step.t2[k] = rs->t2[k];
    }
    cj.geom.depth = 0.0;
    cj.geom.g1 = p->g1;
    cj.geom.g2 = p->g2;
    /* slip1 = slip2 = 0: the friction rows get no CFM, so a held row has no compliance creep
     * (with the world CFM a row holding force f slips at cfm * f m/s) */
    cj.surface.mode = dContactFDir1 | dContactMu2 | dContactAxisDep | dContactMotion1 |
                      dContactMotion2 | dContactMotionN | dContactSlip1 | dContactSlip2;
    cj.surface.slip1 =
        pf_ode_row_cfm(pf_ode_point_row_mobility(mb1, mb2, p->step.c, rs->t1), p->step.dt);
    cj.surface.slip2 =
        pf_ode_row_cfm(pf_ode_point_row_mobility(mb1, mb2, p->step.c, rs->t2), p->step.dt);
    cj.surface.mu = rs->b1 > 0.0 ? rs->b1 : 0.0;
    cj.surface.mu2 = rs->b2 > 0.0 ? rs->b2 : 0.0;
    cj.surface.motion1 = rs->m1;
    cj.surface.motion2 = rs->m2;
    cj.surface.motionN = -PF_ODE_INERT_NORMAL_VEL;
    /* the inert normal row is the same constraint as the patch's normal rows: it too gets the
     * relative CFM (pf_ode_rows.c), or a pivot on it is singular */
    double ncfm =
        pf_ode_row_cfm(pf_ode_point_row_mobility(mb1, mb2, p->step.c, p->step.n), p->step.dt);
    if (ncfm > 0.0) {
        cj.surface.mode |= dContactSoftCFM;
        cj.surface.soft_cfm = ncfm;
    }
    p->step.has_fric = 0;
    p->step.has_spin = 0;
    if (cj.surface.mu > 0.0 || cj.surface.mu2 > 0.0) {
        dJointID j = dJointCreateContact(ctx->world, p->step.group, &cj);
        dJointAttach(j, p->step.b1, p->step.b2);
        memset(&p->step.fb_fric, 0, sizeof p->step.fb_fric);
        dJointSetFeedback(j, &p->step.fb_fric);
        dJointSetData(j, ctx);
        p->step.has_fric = 1;
    }
    /* the angular rows in one angular motor (pf_ode_angular_rows): the spin motor while stuck,
     * the spin row (target 0) while sliding, the rolling rows (P18) */
    const double *n = p->step.n;
    const double bound[3] = {rs->bspin, rs->broll1, rs->broll2};
    double vel[3] = {rs->spin_motor ? rs->spin_vel : 0.0, rs->roll_vel1, rs->roll_vel2};
    /* the rows' bodies: the pair, or the held body alone (held_rows): (w1 - w2).e = vel becomes
     * w_held.(sg e) = vel + (w_holder.sg e), with the holder's present angular velocity, which
     * the step does not change */
    dBodyID a1 = p->step.b1, a2 = p->step.b2;
    double sg = 1.0; /* +1: the rows' body 1 is the pair's body 1; -1: the pair's body 2 */
    p->step.held = held_rows(ctx, p, rs, mb1, mb2) ? rs->held : 0;
    if (p->step.held) {
        sg = p->step.held == 1 ? 1.0 : -1.0;
        a1 = p->step.held == 1 ? p->step.b1 : p->step.b2;
        a2 = 0;
        mb1 = p->step.held == 1 ? mb1 : mb2;
        mb2 = &pf_ode_no_mobility;
    }
    const double axis[3][3] = {{sg * n[0], sg * n[1], sg * n[2]},
                               {sg * rs->t1[0], sg * rs->t1[1], sg * rs->t1[2]},
                               {sg * rs->t2[0], sg * rs->t2[1], sg * rs->t2[2]}};
    dBodyID holder = p->step.held == 1 ? p->step.b2 : (p->step.held == 2 ? p->step.b1 : 0);
    if (holder) {
        const dReal *w = dBodyGetAngularVel(holder);
        double wh[3] = {w[0], w[1], w[2]};
        for (int k = 0; k < 3; ++k)
            vel[k] += pf_ode_dot(wh, axis[k]);
    }
    p->step.spin_yield = rs->yield_spin;
    dJointID j = pf_ode_angular_rows(ctx, p, a1, a2, mb1, mb2, axis, bound, vel, 3);
    if (j) {
        memset(&p->step.fb_spin, 0, sizeof p->step.fb_spin);
        dJointSetFeedback(j, &p->step.fb_spin);
        dJointSetData(j, ctx);
        p->step.has_spin = 1;
    }
}

/* Whether a patch's normal support goes as face rows (docs/physics.md P36c; docs/architecture.md,
 * "Face rows"): under a declared QuickStep, a stuck rectangle or convex polygon
 * (pf_ode_face_extent) whose contact points all touch (to PF_ODE_CARRY_GAP of its size), with a
 * normal force measured in an earlier step, on a contact that is neither
 * soft (its points are springs in parallel, whose tilt under a moment is physics) nor bouncy, and
 * with no sibling patch (whose rows turn t1, t2 off the rectangle's axes). A face's coplanar
 * points carry three independent constraints, and a row per point makes them redundant:
 * QuickStep's sweeps then converge slowly along the redundant directions (a box on a box crept
 * 2.1e-5 m in 5 s at 5 ms). Not under dWorldStep, whose Dantzig solver pivots through the
 * redundant point rows (stacks rest to 1e-9 m with them) and met a pivot it does not take with
 * the face rows: on the patched ODE, whose solver takes zero steps and where the normal rows
 * therefore allow no approach (normal_row_dither), the pyramid's second step logged "LCP
 * internal error" and the pyramid slid 4.5e-4 m. Not on a pair's first steps or at an impact:
 * the tilt rows' bounds come from the measured N, which is not known yet there (an offset
 * tower's upper boxes, landing, slid 1.4e-4 m under tilt rows bounded by the N = 0 of the step
 * before). */
static int face_eligible(const pfOdeContext *ctx, const pfOdePair *p)
{
    if (ctx->cfg.stepper != PF_ODE_STEPPER_QUICK) return 0;
    const pfOdePairMaterial *m = &p->persist.mat;
    double L, W;
    if (p->persist.state != PF_ODE_STATE_STICK || !pf_ode_face_extent(p, &L, &W) ||
        p->step.has_sib || p->step.ncontacts < 3 || m->soft_cfm > 0.0 || m->bounce > 0.0)
        return 0;
    if (p->fresh || !p->persist.has_n || !(p->persist.n_meas > 0.0)) return 0;
    const double N = p->step.info.normal_force;
    if (!(N > 0.0) || !isfinite(N)) return 0;
    /* a polygon's tilt rows allow only a box inside it: once they keep ending at its edge, the
     * point rows carry the face (exactly, at its vertices) */
    if (p->persist.face_edge >= PF_ODE_N_RECENT) return 0;
    /* a corner apart by a gap below PF_ODE_CARRY_GAP of the face's size still touches, as a
     * carried support does (pf_ode_carry_support): QuickStep's unconverged rows open such gaps
     * of 1e-8 to 1e-5 m at rest, and each took the face back to its point rows for a step */
    const double gap = PF_ODE_CARRY_GAP * 0.5 * hypot(W, L);
    for (int i = 0; i < p->step.ncontacts; ++i)
        if (!(p->step.contacts[i].depth >= -gap)) return 0;
    return 1;
}

/* The face rows' tilt rows, in the pair's angular rows: about t1 (the patch's x) bounded by
 * (W/2) N and about t2 (y) by (L/2) N, the moments the rectangle's pressure can carry about its
 * centre (the centre of pressure within the face, docs/physics.md P36c), N the step's (as the
 * friction bounds'), with the targets that restore the face's tilt (pf_ode_face_setup). They
 * act on both bodies (the tilt rows of a held body alone would leave the holder without their
 * reaction). */
static void face_tilt_rows(const pfOdePair *p, const double tilt[2], rowset *rs)
{
    const double N = p->step.info.normal_force;
    double L = 0.0, W = 0.0;
    pf_ode_face_extent(p, &L, &W);
    rs->broll1 = 0.5 * W * N;
    rs->broll2 = 0.5 * L * N;
    rs->roll_vel1 = tilt[0];
    rs->roll_vel2 = tilt[1];
    rs->held = 0;
}

/* A force f at the pair's centre and a moment t on body 1, their opposite on body 2 (dynamic
 * bodies only), for this step: explicit_wrenches adds them back to the feedback after it. */
static void apply_explicit(const pfOdePair *p, const double *f, const double *t)
{
    const double *c = p->step.c;
    if (pf_ode_is_dynamic(p->step.b1)) {
        dBodyAddForceAtPos(p->step.b1, f[0], f[1], f[2], c[0], c[1], c[2]);
        dBodyAddTorque(p->step.b1, t[0], t[1], t[2]);
    }
    if (pf_ode_is_dynamic(p->step.b2)) {
        dBodyAddForceAtPos(p->step.b2, -f[0], -f[1], -f[2], c[0], c[1], c[2]);
        dBodyAddTorque(p->step.b2, -t[0], -t[1], -t[2]);
    }
}

/* A face's rows (P36c-P36e), once the presolve has run: the normal row with its preload, the
 * presolved N where there is one (else the measured one, P36d), and the friction and tilt rows.
 * Each of those five rows whose presolved value v lies inside its bound B starts from it: v is
 * applied explicitly (wf, wt) and the row, bounded by B - |v|, takes the rest. The step's total
 * then stays within [-B, B], the friction and the centre of pressure the face can give, as the
 * rows' alone did; what it gives up is the far side, [-B, 2|v| - B) for v > 0, which a stuck
 * face's load reaches within one step only through what the presolve did not see. A value at or
 * past its bound is left to its row alone (the face slides or tips as it did without). */
static void create_face_rows(pfOdeContext *ctx, pfOdePair *p, int idx)
{
    rowset rs = p->step.rows;
    const int ps = p->step.has_ps;
    pf_ode_face_joint(ctx, p, ps ? p->step.ps[0] : pf_ode_face_measured_preload(p));
    /* the angular rows of a body so light that they go explicitly (pf_ode_angular_rows) have no
     * row to take a start back: none then for the three */
    const pfOdeMobility *mb1, *mb2;
    pf_ode_pair_mobility(ctx, p, &mb1, &mb2);
    const int ang = pf_ode_angular_row_implicit(mb1, mb2, p->step.n) &&
                    pf_ode_angular_row_implicit(mb1, mb2, rs.t1) &&
                    pf_ode_angular_row_implicit(mb1, mb2, rs.t2);
    double *bound[5] = {&rs.b1, &rs.b2, &rs.bspin, &rs.broll1, &rs.broll2};
    double v[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    int any = 0;
    for (int k = 0; ps && k < 5; ++k) {
        const double x = p->step.ps[1 + k], B = *bound[k];
        if (!(fabs(x) < B) || (k >= 2 && !ang)) continue;
        v[k] = x;
        *bound[k] = B - fabs(x);
        any = 1;
    }
    create_rows(ctx, p, idx, &rs);
    if (!any || (!p->step.has_fric && !p->step.has_spin)) return; /* (a non-finite row) */
    const double *n = p->step.n, *t1 = p->step.t1, *t2 = p->step.t2;
    for (int k = 0; k < 3; ++k) {
        p->step.wf[k] = v[0] * t1[k] + v[1] * t2[k];
        p->step.wt[k] = v[2] * n[k] + v[3] * t1[k] + v[4] * t2[k];
    }
    p->step.has_w = 1;
}

int pf_ode_before_step(pfOdeContext *ctx, double dt)
{
    return pf_ode_before_step_ex(ctx, dt, NULL);
}

int pf_ode_before_step_ex(pfOdeContext *ctx, double dt, pfError *err)
{
    if (err) memset(err, 0, sizeof *err);
    if (!ctx) {
        pf_ode_set_error(err, PF_ERR_NULL, "ctx", "%s is NULL", 0.0);
        return PF_ERR_NULL;
    }
    if (!(dt > 0.0) || !isfinite(dt)) {
        pf_ode_set_error(err, PF_ERR_RANGE, "dt", "%s = %g is out of range (finite, > 0 s)", dt);
        return PF_ERR_RANGE;
    }
    ctx->counters.steps++;
    ctx->model_epoch = ++ctx->model_epochs; /* the bodies' joints, read once in this call */
    /* forget pairs that were not collided this step (separated) */
    int w = 0;
    for (int a = 0; a < ctx->alive_count; ++a) {
        int idx = ctx->alive[a];
        pfOdePair *p = pf_ode_pair_at(ctx, idx);
        /* or whose body was destroyed since the collision (plain ODE detaches the body's
         * contact joints then: the pair's rows would have nothing to act on) */
        if (p->seen != ctx->frame) pf_ode_carry_support(ctx, p);
        if (p->seen != ctx->frame || p->step.ncontacts == 0 || !pf_ode_pair_bodies_alive(ctx, p))
            pf_ode_pair_release(ctx, idx);
        else
            ctx->alive[w++] = idx;
        /* a patch joint left live by a before_step without its after_step is parked, so this
         * step's stick tests never read it */
        if (ctx->before_called) pf_ode_solver_park(p);
    }
    ctx->alive_count = w;
    /* the patches on each body this step: the in-solver coupling's friction-row CFM, and with
     * the adapter coupling the STOCK pairs that share a dynamic body with a patch, whose next
     * step may bound their friction by this step's normal force (pf_ode_normal_contacts) */
    /* (only where that bound can be taken, stock_lag_force: no work for QuickStep's worlds) */
    const int lag = !ctx->solver && ctx->cfg.stepper == PF_ODE_STEPPER_WORLD;
    int nstock = 0;
    for (int a = 0; lag && a < ctx->alive_count; ++a)
        nstock += pf_ode_pair_at(ctx, ctx->alive[a])->persist.mat.mode == PF_ODE_MODE_STOCK;
    const int mixed = lag && nstock > 0 && nstock < ctx->alive_count;
    for (int a = 0; (ctx->solver || mixed) && a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (p->persist.mat.mode == PF_ODE_MODE_STOCK) continue;
        pf_ode_body_add_patch(ctx, p->step.b1);
        pf_ode_body_add_patch(ctx, p->step.b2);
    }
    for (int a = 0; nstock > 0 && a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (p->persist.mat.mode != PF_ODE_MODE_STOCK) continue;
        dBodyID b1 = p->step.b1, b2 = p->step.b2;
        p->persist.lag_island =
            mixed && ((pf_ode_is_dynamic(b1) && pf_ode_body_patches(ctx, b1) > 0) ||
                      (pf_ode_is_dynamic(b2) && pf_ode_body_patches(ctx, b2) > 0));
    }
    /* one loop evaluates every patch, then the faces are presolved together (P36e), then a second
     * loop creates every patch's rows in the same order. The stick tests read no joint of this
     * step (pf_ode_classify_joint counts the adapter's own joints as loads, read after the step) */
    int faces = 0;
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        p->step.dt = dt;
        p->step.has_mob = 0;
        ctx->counters.patches++;
        p->step.solver_joint = 0;
        p->step.has_fric = p->step.has_spin = 0;
        p->step.ok = evaluate(ctx, p, dt, &p->step.rows);
        double tilt[2];
        if (p->persist.mat.mode != PF_ODE_MODE_STOCK && p->step.ok && !solver_rows(ctx, p) &&
            face_eligible(ctx, p) && pf_ode_face_setup(ctx, p, tilt)) {
            face_tilt_rows(p, tilt, &p->step.rows);
            ctx->counters.face_patches++;
            p->step.face = 1;
            ++faces;
        }
    }
    if (faces > 0) pf_ode_face_presolve(ctx, dt);
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        const rowset *rs = &p->step.rows;
        const int ok = p->step.ok, stock = p->persist.mat.mode == PF_ODE_MODE_STOCK;
        if (ok && !stock && solver_rows(ctx, p)) {
            /* in-solver coupling: one patch joint carries the normal rows and the friction
             * block; the adapter keeps its drift targets (stick) and the rolling rows (P18,
             * bounded with the N estimate: the solver block has no rolling rows) */
            const int at_rest = p->persist.state == PF_ODE_STATE_STICK;
            pf_ode_solver_create(ctx, p, at_rest ? rs->spin_vel : 0.0, at_rest ? rs->m1 : 0.0,
                                 at_rest ? rs->m2 : 0.0);
            if (rs->broll1 > 0.0 || rs->broll2 > 0.0) {
                rowset rr = *rs;
                rr.b1 = rr.b2 = rr.bspin = 0.0;
                rr.spin_motor = 0;
                rr.m1 = rr.m2 = rr.spin_vel = 0.0;
                create_rows(ctx, p, ctx->alive[a], &rr);
            }
        } else if (p->step.face) {
            create_face_rows(ctx, p, ctx->alive[a]);
        } else {
            if (!stock) pf_ode_create_normal_joints(ctx, p, 0);
            /* a degenerate patch's friction is in its contact joints (pf_ode_normal_contacts) */
            if (ok && p->persist.state != PF_ODE_STATE_POINT)
                create_rows(ctx, p, ctx->alive[a], rs);
        }
        /* contacts off the patch's plane: ODE's point friction, next to the patch */
        pf_ode_create_offplane_joints(ctx, p);
    }
    /* then the explicit (driving) friction components, after every evaluation so that no
     * patch's stick test or stored pre-step loads see them as user loads */
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (p->step.face && p->step.preload > 0.0) {
            const double *n = p->step.n, n0 = p->step.preload;
            const double f[3] = {n0 * n[0], n0 * n[1], n0 * n[2]}, t[3] = {0.0, 0.0, 0.0};
            apply_explicit(p, f, t);
        }
        if (p->step.has_w) apply_explicit(p, p->step.wf, p->step.wt);
        if (p->step.has_drive) apply_explicit(p, p->step.drive_f, p->step.drive_t);
    }
    ctx->frame++;
    ctx->before_called = 1;
    ctx->model_epoch = 0;
    if (ctx->near_no_group) {
        ctx->near_no_group = 0;
        pf_ode_set_error(err, PF_ERR_STATE, "contact_group",
                         "%s is not set: pf_ode_near_callback created no contacts this step "
                         "(call pf_ode_set_contact_group first)",
                         0.0);
        return PF_ERR_STATE;
    }
    return PF_OK;
}

static void add3(double *a, const dReal *b)
{
    a[0] += b[0];
    a[1] += b[1];
    a[2] += b[2];
}

/* Loads of the other constraints on body b during the step just taken (pf_ode_model.c's classes):
 * the feedback of LOAD joints, or, if the body has an UNKNOWN joint, the momentum balance
 *   m dv/dt = user + gravity + this pair + others  (and I dw/dt likewise, gyroscopic term dropped)
 * fown / town: this pair's force and torque on b. WORLD joints contribute nothing (projected). */
static void other_loads(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, const double *pre_v,
                        const double *pre_w, const double *pre_f, const double *pre_t,
                        const double *fown, const double *town, const double *g, double *of,
                        double *ot)
{
    int unknown = 0;
    double f[3] = {0, 0, 0}, t[3] = {0, 0, 0};
    /* the body's load joints classified once per call (pf_ode_load_sum), else the same sum
     * joint by joint */
    const int listed = pf_ode_load_sum(ctx, p, b, f, t, &unknown);
    const dJointID *list = NULL;
    int nj = listed ? 0 : pf_ode_body_joint_list(ctx, b, &list);
    if (nj < 0) nj = dBodyGetNumJoints(b);
    for (int i = 0; i < nj; ++i) {
        dJointID j = list ? list[i] : dBodyGetJoint(b, i);
        pfOdeJointClass jc = pf_ode_classify_joint(ctx, p, j, b);
        if (jc == PF_ODE_JOINT_UNKNOWN) unknown = 1;
        if (jc != PF_ODE_JOINT_LOAD) continue;
        const dJointFeedback *fb = dJointGetFeedback(j);
        if (pf_ode_joint_body_is_first(j, b)) {
            add3(f, fb->f1);
            add3(t, fb->t1);
        } else {
            add3(f, fb->f2);
            add3(t, fb->t2);
        }
    }
    if (unknown) {
        dMass m;
        dBodyGetMass(b, &m);
        const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
        double dw[3] = {w[0] - pre_w[0], w[1] - pre_w[1], w[2] - pre_w[2]}, dwl[3], Idw[3];
        pf_ode_to_body_vec(b, dw, dwl);
        for (int i = 0; i < 3; ++i)
            Idw[i] = m.I[4 * i] * dwl[0] + m.I[4 * i + 1] * dwl[1] + m.I[4 * i + 2] * dwl[2];
        body_frame_vec(b, Idw, Idw);
        double gm = dBodyGetGravityMode(b) ? m.mass : 0.0, dt = p->step.dt;
        for (int k = 0; k < 3; ++k) {
            f[k] = m.mass * (v[k] - pre_v[k]) / dt - pre_f[k] - gm * g[k] - fown[k];
            t[k] = Idw[k] / dt - pre_t[k] - town[k];
        }
    }
    for (int k = 0; k < 3; ++k) {
        of[k] = isfinite(f[k]) ? f[k] : 0.0;
        ot[k] = isfinite(t[k]) ? t[k] : 0.0;
    }
}

/* The pair whose spin row a joint of the adapter carries, or NULL: its angular rows
 * (pf_ode_angular_rows gives them the pair's fb_spin) or, with the in-solver coupling, its patch
 * joint (fb_patch). */
static pfOdePair *angular_rows_owner(const pfOdeContext *ctx, dJointID j)
{
    if (dJointGetData(j) != (void *)ctx) return NULL;
    dJointFeedback *fb = dJointGetFeedback(j);
    if (!fb) return NULL;
    if (dJointGetType(j) == dJointTypeAMotor)
        return (pfOdePair *)((char *)fb - offsetof(pfOdePair, step) -
                             offsetof(pfOdePairStep, fb_spin));
#ifdef dPATCH_FRICTION
    /* the in-solver coupling: the patch joint carries the spin row */
    if (dJointGetType(j) == dJointTypePatch)
        return (pfOdePair *)((char *)fb - offsetof(pfOdePair, step) -
                             offsetof(pfOdePairStep, fb_patch));
#endif
    return NULL;
}

/* A holder moves less than this fraction of the held body under the same friction wrench. */
#define PF_ODE_GROUP_IMMOBILE 1e-6
/* holder_immobile's screen decides from the trace bounds alone where they are apart by this
 * factor from the threshold, and where each body's bounds lie within PF_ODE_TRACE_SPREAD of each
 * other: the models' traces then differ from their exact values by far less than the factor
 * (rounding of a few operations on terms up to PF_ODE_TRACE_SPREAD times the trace) */
#define PF_ODE_TRACE_MARGIN 10.0
#define PF_ODE_TRACE_SPREAD 1e6

/* 1 if neither body of a pair of two dynamic bodies without WORLD or UNKNOWN joints can be the
 * other's immobile holder, by the bounds of pf_ode_model_patch_trace_bounds: each trace's lower
 * bound exceeds PF_ODE_GROUP_IMMOBILE times the other's upper bound with margin, so the models'
 * traces would fail both of holder_immobile's tests. The common case (two boxes of comparable
 * mass) then costs no model. 0: undecided (build the models). */
static int holders_mobile(const pfOdeContext *ctx, pfOdePair *p, double rr)
{
    double lo1, hi1, lo2, hi2;
    if (!pf_ode_model_patch_trace_bounds(ctx, p, p->step.b1, rr, &lo1, &hi1) ||
        !pf_ode_model_patch_trace_bounds(ctx, p, p->step.b2, rr, &lo2, &hi2))
        return 0;
    const double m = PF_ODE_TRACE_MARGIN * PF_ODE_GROUP_IMMOBILE;
    return lo1 > 0.0 && lo2 > 0.0 && hi1 <= PF_ODE_TRACE_SPREAD * lo1 &&
           hi2 <= PF_ODE_TRACE_SPREAD * lo2 && lo2 > m * hi1 && lo1 > m * hi2;
}

/* 1 if the patch's body `other` does not move under the patch's friction (static, kinematic, or
 * held by its joints to the world, like a fingertip on a slider along the normal): the trace of
 * its share of the Delassus block is below PF_ODE_GROUP_IMMOBILE of the held body's; and the
 * held body has no joint to the world. side: 0 if the held body is body 1, 1 if it is body 2
 * (dynamic). The answers for both sides are worked out together, once per pair within one
 * pf_ode_after_step (model_epoch): group_share asks them of each held patch and again of every
 * other held patch on its body, and both sides need the same two body models. */
static int holder_immobile(const pfOdeContext *ctx, pfOdePair *p, int side)
{
    pfOdePairStep *s = &p->step;
    if (s->holder_epoch != ctx->model_epoch) {
        s->holder_epoch = ctx->model_epoch;
        const int dyn1 = pf_ode_is_dynamic(s->b1), dyn2 = pf_ode_is_dynamic(s->b2);
        /* a held body against one that is not dynamic: immobile without a model */
        s->holder_immobile[0] = dyn1 && !dyn2;
        s->holder_immobile[1] = dyn2 && !dyn1;
        const double rr = s->rho_g * s->rho_g; /* the spin in the metric of P32 */
        if (dyn1 && dyn2 && !holders_mobile(ctx, p, rr)) {
            pfOdeBodyModel bm1, bm2;
            double d1[3], d2[3];
            pf_ode_body_model(ctx, p, s->b1, &bm1);
            pf_ode_body_model(ctx, p, s->b2, &bm2);
            pf_ode_model_patch_diag(&bm1, p, d1);
            pf_ode_model_patch_diag(&bm2, p, d2);
            const double t1 = d1[0] + d1[1] + rr * d1[2], t2 = d2[0] + d2[1] + rr * d2[2];
            /* the held body must have no joint to the world either: the group carries all its
             * loads */
            const int known = !bm1.unknown && !bm2.unknown;
            s->holder_immobile[0] =
                known && bm1.world_rows == 0 && t1 > 0.0 && t2 <= PF_ODE_GROUP_IMMOBILE * t1;
            s->holder_immobile[1] =
                known && bm2.world_rows == 0 && t2 > 0.0 && t1 <= PF_ODE_GROUP_IMMOBILE * t2;
        }
    }
    return s->holder_immobile[side];
}

/* A held patch's group (group_test), as the step just taken left it: the body b it holds
 * against a holder that does not move, the other held patches on b whose holders do not move
 * either (parallel or not: a floor and a wall), their measured friction on b (taken out of b's
 * loads at the next step), the span of the members' normals (what their normal rows carry,
 * P51b) and this patch's fraction mu_s N / sum mu_s N of the capacity. Sets p->persist.has_group
 * and the group_* fields. */
static void group_share(const pfOdeContext *ctx, pfOdePair *p)
{
    p->persist.has_group = 0;
    const double *c = p->step.c, *n = p->step.n;
    dBodyID b = 0;
    double sp = 1.0;
    if (pf_ode_is_dynamic(p->step.b1) && holder_immobile(ctx, p, 0)) {
        b = p->step.b1;
    } else if (pf_ode_is_dynamic(p->step.b2) && holder_immobile(ctx, p, 1)) {
        b = p->step.b2;
        sp = -1.0;
    }
    if (!b) return;
    double tf[3] = {0, 0, 0}, tm[3] = {0, 0, 0}, cap = p->persist.mat.mu_s * p->persist.n_meas;
    double total = cap, basis[3][3] = {{n[0], n[1], n[2]}};
    int nn = 1;
    int members = 1;
    const dJointID *list = NULL;
    int nj = pf_ode_body_joint_list(ctx, b, &list);
    if (nj < 0) nj = dBodyGetNumJoints(b);
    for (int i = 0; i < nj; ++i) {
        pfOdePair *q = angular_rows_owner(ctx, list ? list[i] : dBodyGetJoint(b, i));
        if (!q || q == p || !q->in_use || !q->persist.has_hold) continue;
        const double sq = q->step.b1 == b ? 1.0 : -1.0;
        if (!holder_immobile(ctx, q, sq > 0.0 ? 0 : 1)) continue;
        /* q's friction on b about p's centre: M_c = M_cq + (c_q - c) x F */
        double r[3] = {q->step.c[0] - c[0], q->step.c[1] - c[1], q->step.c[2] - c[2]}, m[3];
        pf_ode_cross(r, q->persist.hold_f, m);
        for (int k = 0; k < 3; ++k) {
            tf[k] += sq * q->persist.hold_f[k];
            tm[k] += sq * (q->persist.hold_m[k] + m[k]);
        }
        total += q->persist.mat.mu_s * q->persist.n_meas;
        if (nn < 3) {
            /* Gram-Schmidt: a member's normal out of the span so far widens it */
            double e[3] = {q->step.n[0], q->step.n[1], q->step.n[2]};
            for (int j = 0; j < nn; ++j) {
                const double d = pf_ode_dot(e, basis[j]);
                for (int k = 0; k < 3; ++k)
                    e[k] -= d * basis[j][k];
            }
            const double l = sqrt(pf_ode_dot(e, e));
            if (l > PF_ODE_GROUP_SPAN) {
                for (int k = 0; k < 3; ++k)
                    basis[nn][k] = e[k] / l;
                nn++;
            }
        }
        members++;
    }
    if (members < 2 || !(total > 0.0) || !pf_ode_finite3(tf) || !pf_ode_finite3(tm)) return;
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
            double v = i == k ? 1.0 : 0.0;
            for (int j = 0; j < nn; ++j)
                v -= basis[j][i] * basis[j][k];
            p->persist.group_proj[3 * i + k] = v;
        }
    p->persist.group_span = nn;
    memcpy(p->persist.group_f, tf, sizeof tf);
    memcpy(p->persist.group_m, tm, sizeof tm);
    p->persist.group_side = sp;
    p->persist.group_frac = cap / total;
    p->persist.has_group = 1;
}

/* A STOCK pair's measured normal force N after the step, for the next step's friction bound
 * (pf_ode_normal_contacts): N may bound it if the pair has one contact point and N lies within a
 * factor PF_ODE_STOCK_LAG_BAND of lag_ref, the force of the pair's last step on ODE's own bound;
 * a step on ODE's own bound compares its N with the one before and then becomes the reference.
 * So the first lagged bound follows two steps on ODE's rule that agree (an impact's force is never
 * a bound), and no lagged bound exceeds PF_ODE_STOCK_LAG_BAND mu times a force ODE's rule gave. */
static void stock_lag_measure(pfOdePair *p, double nsum)
{
    pfOdePairPersist *s = &p->persist;
    const double ref = s->lag_ref, band = PF_ODE_STOCK_LAG_BAND;
    const int single = p->step.ncontacts == 1;
    s->lag_ok = single && nsum > 0.0 && ref > 0.0 && nsum <= band * ref && ref <= band * nsum;
    if (!p->step.lag_used) s->lag_ref = single ? nsum : 0.0;
}

/* Failed steps of dWorldStep's Dantzig solver (docs/architecture.md, "Dantzig's zero steps"):
 * ODE 0.16's solver gives up on a degenerate pivot ("LCP internal error, s <= 0") and leaves every
 * row it had not reached at force 0, which in a pile is most of the island, and it says so only
 * through dMessage. Taken as a measurement, that step's N = 0 bounded every patch of the island at
 * 0 in the next step (no friction at all for a step, where stock friction's findex rows are bounded
 * inside the solver and keep theirs), and its zero feedback became the lagged loads and holding
 * wrenches of the stick tests. A failed step is recognised by what no solution of the LCP can show:
 * a contact row with no force whose contact still approaches after the step, faster than any
 * target the adapter sets (the tilt anchor's, at most stick_velocity_tol; a gap contact's approach
 * is excluded, depth < 0). In a correct solution such a row has w = v_n - target >= 0. Its island
 * (the bodies joined by the pairs' contacts) failed; every pair of that island that carried no
 * force keeps its measurements of the step before (N and its history, the other constraints'
 * loads, the holding wrench), so the next step is bounded as the step before it was. Pairs with a
 * force (rows the solver settled before it gave up) are read as usual. Only under dWorldStep
 * (pfOdeConfig.stepper WORLD) with the adapter coupling: QuickStep never gives up (an unconverged
 * row is not a failed one) and the patched ODE's in-solver coupling takes degenerate pivots. */
#define PF_ODE_LCP_FAIL_SPEED 2.0 /* times stick_velocity_tol */

static int island_slot(pfOdeContext *ctx, dBodyID b)
{
    if (!pf_ode_is_dynamic(b)) return -1;
    pfOdeBodyEntry *e = pf_ode_body_entry(ctx, b);
    if (!e) return -1;
    const int s = (int)(e - ctx->bodies);
    if (e->island_frame != ctx->frame) {
        e->island_frame = ctx->frame;
        e->island_parent = s;
        e->island_failed = 0;
    }
    return s;
}

static int island_root(pfOdeContext *ctx, int s)
{
    while (ctx->bodies[s].island_parent != s) {
        const int up = ctx->bodies[s].island_parent;
        ctx->bodies[s].island_parent = ctx->bodies[up].island_parent; /* path halving */
        s = up;
    }
    return s;
}

static int zero_feedback(const dJointFeedback *fb)
{
    for (int k = 0; k < 3; ++k)
        if (fb->f1[k] != 0.0 || fb->t1[k] != 0.0 || fb->f2[k] != 0.0 || fb->t2[k] != 0.0) return 0;
    return 1;
}

/* 1 if none of the pair's joints carried a force in the step just taken. */
static int pair_unloaded(const pfOdePair *p)
{
    for (int i = 0; i < p->step.ncontacts; ++i)
        if (!zero_feedback(&p->step.fb[i])) return 0;
    for (int i = 0; i < p->step.noff; ++i)
        if (!zero_feedback(&p->step.fb_off[i])) return 0;
    if (p->step.has_fric && !zero_feedback(&p->step.fb_fric)) return 0;
    if (p->step.has_spin && !zero_feedback(&p->step.fb_spin)) return 0;
    return 1;
}

/* The velocity after the step of body b's material point that was at P when the step began: the
 * point the step's constraint rows act on. The step moved the body by v dt, so that point is at
 * P + v dt now; read at P itself, a spinning body's point velocity tilts by w x v dt (a sphere
 * rolling along a wall seemed to approach it at mm/s). 0 for the world. */
static void step_point_vel(dBodyID b, const double *P, double dt, double *out)
{
    dVector3 v = {0, 0, 0, 0};
    if (b) {
        const dReal *vb = dBodyGetLinearVel(b);
        dBodyGetPointVel(b, P[0] + vb[0] * dt, P[1] + vb[1] * dt, P[2] + vb[2] * dt, v);
    }
    pf_ode_to3(v, out);
}

/* 1 if a touching contact of the pair (depth >= 0) approaches after the step faster than lim. */
static int contacts_approach(const dContactGeom *cg, int n, dBodyID b1, dBodyID b2, double dt,
                             double lim)
{
    for (int i = 0; i < n; ++i) {
        if (!(cg[i].depth >= 0.0)) continue;
        const double P[3] = {cg[i].pos[0], cg[i].pos[1], cg[i].pos[2]};
        const double nn[3] = {cg[i].normal[0], cg[i].normal[1], cg[i].normal[2]};
        double v1[3], v2[3];
        step_point_vel(b1, P, dt, v1);
        step_point_vel(b2, P, dt, v2);
        const double v[3] = {v1[0] - v2[0], v1[1] - v2[1], v1[2] - v2[2]};
        if (pf_ode_dot(v, nn) < -lim) return 1;
    }
    return 0;
}

/* Sets p->step.lcp_failed on every alive pair (see above). */
static void failed_islands(pfOdeContext *ctx)
{
    for (int a = 0; a < ctx->alive_count; ++a)
        pf_ode_pair_at(ctx, ctx->alive[a])->step.lcp_failed = 0;
    if (ctx->cfg.stepper != PF_ODE_STEPPER_WORLD || ctx->solver) return;
    for (int a = 0; a < ctx->alive_count; ++a) {
        const pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        const int s1 = island_slot(ctx, p->step.b1), s2 = island_slot(ctx, p->step.b2);
        if (s1 < 0 || s2 < 0) continue;
        const int r1 = island_root(ctx, s1), r2 = island_root(ctx, s2);
        if (r1 != r2) ctx->bodies[r1].island_parent = r2;
    }
    const double lim = PF_ODE_LCP_FAIL_SPEED * ctx->cfg.stick_velocity_tol;
    int any = 0;
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (!pair_unloaded(p)) continue;
        const double dt = p->step.dt;
        if (!contacts_approach(p->step.contacts, p->step.ncontacts, p->step.b1, p->step.b2, dt,
                               lim) &&
            !contacts_approach(p->step.off, p->step.noff, p->step.b1, p->step.b2, dt, lim))
            continue;
        const int s = island_slot(ctx, p->step.b1) >= 0 ? island_slot(ctx, p->step.b1)
                                                        : island_slot(ctx, p->step.b2);
        p->step.lcp_failed = 1;
        if (s >= 0) ctx->bodies[island_root(ctx, s)].island_failed = 1;
        any = 1;
    }
    for (int a = 0; any && a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (p->step.lcp_failed || !pair_unloaded(p)) continue;
        const int s = island_slot(ctx, p->step.b1) >= 0 ? island_slot(ctx, p->step.b1)
                                                        : island_slot(ctx, p->step.b2);
        if (s >= 0 && ctx->bodies[island_root(ctx, s)].island_failed) p->step.lcp_failed = 1;
    }
}

int pf_ode_after_step(pfOdeContext *ctx)
{
    return pf_ode_after_step_ex(ctx, NULL);
}

/* Add a force f at pair p's centre c and a moment t, applied explicitly in the step (its
 * explicit friction, drive_wrenches; the face rows' explicit parts, face_fold), to body 1's force
 * f1 and moment t1 about its position at the step's start, and their opposite to body 2's f2, t2
 * about its own where body 2 is dynamic: T_G = t + (c - G) x f, as ODE's feedback torques are
 * taken. */
static void explicit_wrenches(const pfOdePair *p, const double *f, const double *t, double *f1,
                              double *t1, double *f2, double *t2)
{
    const double *c = p->step.c;
    double r[3], m[3];
    for (int k = 0; k < 3; ++k)
        r[k] = c[k] - p->step.pre_G1[k];
    pf_ode_cross(r, f, m);
    for (int k = 0; k < 3; ++k) {
        f1[k] += f[k];
        t1[k] += t[k] + m[k];
    }
    if (!pf_ode_is_dynamic(p->step.b2)) return;
    for (int k = 0; k < 3; ++k)
        r[k] = c[k] - p->step.pre_G2[k];
    pf_ode_cross(r, f, m);
    for (int k = 0; k < 3; ++k) {
        f2[k] -= f[k];
        t2[k] -= t[k] + m[k];
    }
}

static void drive_wrenches(const pfOdePair *p, double *f1, double *t1, double *f2, double *t2)
{
    explicit_wrenches(p, p->step.drive_f, p->step.drive_t, f1, t1, f2, t2);
}

/* A polygon face whose box of centres of pressure is smaller than the face (pf_ode_face_extent)
 * and whose tilt rows ended the step at one of its bounds: the pressure the step wanted may lie
 * between the box and the face's edge, where the face rows would let it tip. Once that happened
 * in PF_ODE_N_RECENT of its face steps with none ending inside the box in between (one such
 * step is also a landing's or the preload's first), its point rows carry it while it stays
 * stuck (face_eligible): a cube with 49.5 % of it over a ledge, turned by 3 degrees, tipped off
 * on the face rows. The bounds (W/2) N and (L/2) N are those of the step's N
 * (face_tilt_rows). */
static void face_at_edge(pfOdePair *p)
{
    double L, W;
    if (!p->step.face || !p->step.has_spin || pf_ode_face_extent(p, &L, &W) != 2) return;
    const dReal *t = p->step.fb_spin.t1;
    const double T[3] = {t[0], t[1], t[2]}, N = p->step.info.normal_force;
    if (!(fabs(pf_ode_dot(T, p->step.x)) < PF_ODE_FACE_EDGE * 0.5 * W * N) ||
        !(fabs(pf_ode_dot(T, p->step.y)) < PF_ODE_FACE_EDGE * 0.5 * L * N))
        p->persist.face_edge++;
    else
        p->persist.face_edge = 0;
}

/* The face rows' explicit parts into their joints' feedback: the preload (pf_ode_face_joint),
 * applied at c, into the face joint's fb[0], which then holds the face's whole normal support as
 * the point rows' feedback did, for the pair's N and wrench below and for other pairs' loads; the
 * presolved friction and moment (create_face_rows) into fb_fric and fb_spin. */
static void face_fold(pfOdePair *p)
{
    const double z[3] = {0.0, 0.0, 0.0};
    if (p->step.preload > 0.0) {
        dJointFeedback *fb = &p->step.fb[0];
        const double *n = p->step.n, n0 = p->step.preload;
        const double f[3] = {n0 * n[0], n0 * n[1], n0 * n[2]};
        explicit_wrenches(p, f, z, fb->f1, fb->t1, fb->f2, fb->t2);
    }
    if (!p->step.has_w) return;
    dJointFeedback *ff = &p->step.fb_fric, *fs = &p->step.fb_spin;
    explicit_wrenches(p, p->step.wf, z, ff->f1, ff->t1, ff->f2, ff->t2);
    explicit_wrenches(p, z, p->step.wt, fs->f1, fs->t1, fs->f2, fs->t2);
}

/* The feedback of the pair's joint that carries its explicit friction (drive_wrenches), where
 * other pairs read their loads (pf_ode_load_sum): the friction joint; else the patch joint (the
 * in-solver coupling, whose drive is the rolling rows' explicit moment); else the angular rows'
 * joint where it acts on both bodies. NULL: none of them this step (the pair's own wrench then
 * takes the drive directly). */
static dJointFeedback *drive_feedback(pfOdePair *p)
{
    if (p->step.has_fric) return &p->step.fb_fric;
    if (p->step.solver_joint) return &p->step.fb_patch;
    if (p->step.has_spin && !p->step.held) return &p->step.fb_spin;
    return NULL;
}

int pf_ode_after_step_ex(pfOdeContext *ctx, pfError *err)
{
    if (err) memset(err, 0, sizeof *err);
    if (!ctx) {
        pf_ode_set_error(err, PF_ERR_NULL, "ctx", "%s is NULL", 0.0);
        return PF_ERR_NULL;
    }
    if (!ctx->before_called) {
        pf_ode_set_error(err, PF_ERR_STATE, "pf_ode_before_step",
                         "%s was not called since the last pf_ode_after_step: no step to read",
                         0.0);
        return PF_ERR_STATE;
    }
    ctx->before_called = 0;
    ctx->model_epoch = ++ctx->model_epochs; /* the bodies' joints, read once in this call */
    ctx->lists_ok = 1;
    if (ctx->scratch) ctx->scratch->len = ctx->scratch->loads_len = 0;
    /* a body destroyed during the step: its pairs' rows were detached (plain ODE tolerates it);
     * nothing of it can be read back */
    int w = 0;
    for (int a = 0; a < ctx->alive_count; ++a) {
        int idx = ctx->alive[a];
        if (pf_ode_pair_bodies_alive(ctx, pf_ode_pair_at(ctx, idx)))
            ctx->alive[w++] = idx;
        else
            pf_ode_pair_release(ctx, idx);
    }
    ctx->alive_count = w;
    dVector3 g;
    dWorldGetGravity(ctx->world, g);
    failed_islands(ctx);
    /* each pair's explicit friction (drive_components, drive_rolling: body forces in no joint)
     * into the feedback of one of its joints (drive_feedback): the other pairs' loads
     * (pf_ode_load_sum) read joint feedback, and would miss it; the pair's own wrench below then
     * reads it there too */
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (p->step.face && !p->step.lcp_failed) face_fold(p);
        dJointFeedback *fb = drive_feedback(p);
        if (!p->step.has_drive || !fb || p->step.lcp_failed) continue;
        drive_wrenches(p, fb->f1, fb->t1, fb->f2, fb->t2);
    }
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (p->step.lcp_failed) {
            /* a failed step (failed_islands): reported as measured, kept out of the pair's
             * measurements */
            ctx->counters.lcp_failed_pairs++;
            p->step.info.normal_force_measured = 0.0;
            for (int i = 0; i < p->step.ncontacts; ++i)
                p->step.info.point_normal_force[i] = 0.0;
            p->fresh = 0;
            continue;
        }
        double nsum = 0.0;
        double fo1[3] = {0, 0, 0}, to1[3] = {0, 0, 0}, fo2[3] = {0, 0, 0}, to2[3] = {0, 0, 0};
        const double *n = p->persist.mat.mode == PF_ODE_MODE_STOCK ? NULL : p->step.n;
        double nstock[3];
        if (!n) {
            for (int k = 0; k < 3; ++k)
                nstock[k] = p->step.contacts[0].normal[k];
            n = nstock;
        }
        /* (with the in-solver coupling the normal rows are the patch joint's: fb[] is unused) */
        for (int i = 0; i < (p->step.solver_joint ? 0 : p->step.ncontacts); ++i) {
            const double ni = p->step.fb[i].f1[0] * n[0] + p->step.fb[i].f1[1] * n[1] +
                              p->step.fb[i].f1[2] * n[2];
            p->step.info.point_normal_force[i] = isfinite(ni) && !p->step.face ? ni : 0.0;
            nsum += ni;
            add3(fo1, p->step.fb[i].f1);
            add3(to1, p->step.fb[i].t1);
            add3(fo2, p->step.fb[i].f2);
            add3(to2, p->step.fb[i].t2);
        }
        if (p->step.solver_joint) {
            /* the patch joint's total force on body 1: normal rows along n, friction across */
            nsum = p->step.fb_patch.f1[0] * n[0] + p->step.fb_patch.f1[1] * n[1] +
                   p->step.fb_patch.f1[2] * n[2];
        }
        if (!isfinite(nsum) || nsum < 0.0) nsum = 0.0;
        face_at_edge(p);
        if (p->persist.has_n)
            for (int k = PF_ODE_N_RECENT - 1; k > 0; --k)
                p->persist.n_recent[k] = p->persist.n_recent[k - 1];
        else
            for (int k = 0; k < PF_ODE_N_RECENT; ++k)
                p->persist.n_recent[k] = nsum;
        p->persist.n_recent[0] = nsum;
        p->persist.n_meas = nsum;
        p->persist.has_n = 1;
        if (p->persist.mat.mode == PF_ODE_MODE_STOCK) stock_lag_measure(p, nsum);
        p->step.info.normal_force_measured = nsum;
        if (p->persist.mat.mode == PF_ODE_MODE_STOCK || p->persist.state == PF_ODE_STATE_POINT) {
            /* Report ODE's own friction (stock mode, or the point friction of a degenerate
             * patch) like the patch modes do: the contacts' total force on body 1, tangential
             * part, and its moment about the normal through the centre (normal forces have
             * none), M_c = T_G + (G - c) x F. */
            p->step.info.normal_force = nsum;
            const double *G = p->step.pre_G1; /* feedback torques are about the pre-step G */
            const double *c = p->step.info.centre, *x = p->step.info.xaxis;
            double y[3], gc[3] = {G[0] - c[0], G[1] - c[1], G[2] - c[2]}, mc[3];
            pf_ode_cross(n, x, y);
            pf_ode_cross(gc, fo1, mc);
            for (int k = 0; k < 3; ++k)
                mc[k] += to1[k];
            pfWrench ws = {pf_ode_dot(fo1, x), pf_ode_dot(fo1, y), pf_ode_dot(mc, n)};
            if (isfinite(ws.fx) && isfinite(ws.fy) && isfinite(ws.mz)) p->step.info.wrench = ws;
            /* a point patch's friction direction for the next step at rest (P49a), kept while
             * the friction turns less than PF_ODE_POINT_DIR_COS from it */
            const double ft = hypot(ws.fx, ws.fy);
            if (p->persist.state == PF_ODE_STATE_POINT && ft > 0.0 && isfinite(ft)) {
                double d[3];
                for (int k = 0; k < 3; ++k)
                    d[k] = (ws.fx * x[k] + ws.fy * y[k]) / ft;
                if (!p->persist.has_point_dir ||
                    fabs(pf_ode_dot(d, p->persist.point_dir)) < PF_ODE_POINT_DIR_COS)
                    memcpy(p->persist.point_dir, d, sizeof d);
                p->persist.has_point_dir = 1;
            } else if (p->persist.state != PF_ODE_STATE_POINT) {
                p->persist.has_point_dir = 0;
            }
            p->persist.has_other = 0;
            p->fresh = 0;
            continue;
        }
        double F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
        double T_off[3] = {0, 0, 0}; /* the part of T that body 1 did not take (held_rows) */
        if (p->step.has_fric) {
            add3(F, p->step.fb_fric.f1);
            add3(T, p->step.fb_fric.t1);
            add3(fo2, p->step.fb_fric.f2);
            add3(to2, p->step.fb_fric.t2);
        }
        if (p->step.has_spin) {
            /* with held_rows on body 2 alone, its feedback t1 is on body 2, a pure moment whose
             * opposite is the patch's on body 1, which does not take it */
            const dReal *t = p->step.fb_spin.t1;
            if (p->step.held == 2) {
                for (int k = 0; k < 3; ++k) {
                    T[k] -= t[k];
                    T_off[k] = -t[k];
                }
                add3(to2, t);
            } else if (p->step.face) {
                /* the face rows' tilt rows (about t1, t2) are the face's normal support: their
                 * moment goes with the normal rows', the spin row's (about n) is friction */
                const double tn = pf_ode_dot((const double[3]){t[0], t[1], t[2]}, n);
                for (int k = 0; k < 3; ++k) {
                    T[k] += tn * n[k];
                    to1[k] += t[k] - tn * n[k];
                }
                add3(fo2, p->step.fb_spin.f2);
                add3(to2, p->step.fb_spin.t2);
            } else {
                add3(T, t);
                if (!p->step.held) {
                    /* (an angular motor's own forces are zero: a drive carried here) */
                    add3(F, p->step.fb_spin.f1);
                    add3(fo2, p->step.fb_spin.f2);
                    add3(to2, p->step.fb_spin.t2);
                }
            }
        }
        if (p->step.solver_joint) {
            add3(F, p->step.fb_patch.f1);
            add3(T, p->step.fb_patch.t1);
            add3(fo2, p->step.fb_patch.f2);
            add3(to2, p->step.fb_patch.t2);
            p->step.info.normal_force = nsum;
            /* the state of the step: the last projection's, unless the patch ends the step
             * moving (at the static threshold the solver's iterations can end on "stick" after
             * earlier ones let the patch go) */
            int sticks = p->step.solver_sticks;
            if (sticks) {
                pfTwist t = patch_twist(p, NULL, NULL, NULL);
                double tol = ctx->cfg.stick_velocity_tol;
                if (!(hypot(t.vx, t.vy) < tol && fabs(t.w) * p->step.rho_g < tol)) sticks = 0;
            }
            p->step.info.state = sticks ? PF_ODE_STATE_STICK : PF_ODE_STATE_SLIP;
        }
        /* ODE's feedback torque t1 is about G at the start of the step (the Jacobians are built
         * there); the post-step position would add (G1 - G0) x F = dt v x F to M_c */
        const double *G = p->step.pre_G1;
        /* the explicit part where no joint's feedback holds it (drive_feedback, above) */
        if (p->step.has_drive && !drive_feedback(p)) drive_wrenches(p, F, T, fo2, to2);
        for (int k = 0; k < 3; ++k) {
            fo1[k] += F[k];
            to1[k] += T[k] - T_off[k];
        }
        /* wrench about the patch centre: M_c = M_G + (G - c) x F */
        double gc[3] = {G[0] - p->step.c[0], G[1] - p->step.c[1], G[2] - p->step.c[2]}, mc[3];
        pf_ode_cross(gc, F, mc);
        for (int k = 0; k < 3; ++k)
            mc[k] += T[k];
        p->step.info.wrench.fx = pf_ode_dot(F, p->step.x);
        p->step.info.wrench.fy = pf_ode_dot(F, p->step.y);
        p->step.info.wrench.mz = pf_ode_dot(mc, p->step.n);
        /* the stick rows' wrench and whether the bodies carry other patches, for the next
         * step's hold test */
        p->persist.has_hold =
            (p->step.info.state == PF_ODE_STATE_STICK || p->step.info.state == PF_ODE_STATE_SLIP) &&
            pf_ode_finite3(F) && pf_ode_finite3(mc);
        if (p->persist.has_hold) {
            memcpy(p->persist.hold_f, F, sizeof p->persist.hold_f);
            memcpy(p->persist.hold_m, mc, sizeof p->persist.hold_m);
            if (p->step.solver_joint) {
                /* a patch joint's feedback holds its normal rows too: the friction is the part
                 * in the patch plane (the normal rows push along n, within the grouping angle),
                 * and their moment about c has no part along n */
                const double fn = pf_ode_dot(F, p->step.n);
                for (int k = 0; k < 3; ++k)
                    p->persist.hold_f[k] -= fn * p->step.n[k];
            }
        }

        /* other constraints' loads on the two bodies for the next step's stick test */
        p->persist.has_other = 0;
        if (p->step.dt > 0.0 && pf_ode_is_dynamic(p->step.b1)) {
            other_loads(ctx, p, p->step.b1, p->step.pre_v1, p->step.pre_w1, p->step.pre_f1,
                        p->step.pre_t1, fo1, to1, g, p->persist.other_f1, p->persist.other_t1);
            p->persist.has_other = 1;
        }
        if (p->step.dt > 0.0 && pf_ode_is_dynamic(p->step.b2)) {
            other_loads(ctx, p, p->step.b2, p->step.pre_v2, p->step.pre_w2, p->step.pre_f2,
                        p->step.pre_t2, fo2, to2, g, p->persist.other_f2, p->persist.other_t2);
            p->persist.has_other = 1;
        }
        p->fresh = 0;
    }
    /* then, with every held patch's wrench measured, the group splits */
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        p->persist.has_group = 0;
        if (p->persist.has_hold) group_share(ctx, p);
    }
    /* the pairs forgotten during the step (pf_ode_forget_geom) go now that they are read; the
     * others' patch joints are parked until their next before_step sets them up */
    w = 0;
    for (int a = 0; a < ctx->alive_count; ++a) {
        int idx = ctx->alive[a];
        pfOdePair *p = pf_ode_pair_at(ctx, idx);
        if (p->forgotten) {
            pf_ode_pair_release(ctx, idx);
        } else {
            pf_ode_solver_park(p);
            ctx->alive[w++] = idx;
        }
    }
    ctx->alive_count = w;
    ctx->model_epoch = 0;
    ctx->lists_ok = 0;
    return PF_OK;
}
