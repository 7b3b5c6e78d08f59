/* ODE adapter: the per-patch stick/slip state machine and the friction rows (before the step),
 * and the normal-force / diagnostics read-back (after the step).
 *
 * Rows of a patch (see the design note in the report / pf_ode.h):
 *  - normal support: one normal-only contact joint per contact point (pf_ode_patch.c);
 *  - friction: one more contact joint at the patch centre whose normal row is made inert (its
 *    target normal velocity is a large approach speed, so its lambda >= 0 is always clamped at 0)
 *    and whose friction rows t1, t2 carry absolute bounds from the core with target velocities:
 *      SLIP:  t1 along the core's friction force, bound |F|, target 0; the spin row
 *             (dContactRolling | dContactAxisDep, rhoN = |Mz|) also with target 0.
 *             The solver may apply less than the bound but never more, and only to drive the row
 *             velocity to its target: friction is implicit and cannot push a velocity past zero.
 *      STICK: t1, t2 along the patch axes with bounds mu_s N, targets = anchored drift correction;
 *             spin through a one-axis angular motor (FMax = static spin capacity, Vel = angular
 *             drift correction) because ODE 0.16.2's rolling rows have no target velocity.
 *  - the normal force N for the bounds is last step's sum of the normal joints' feedback; on a
 *    pair's first step it is estimated from the frictionless loads and the approach speed. */
#include "pf_ode_internal.h"

#include <math.h>
#include <string.h>

/* Target normal velocity of the friction joint's own normal row [m/s]: an approach speed no
 * contact reaches, so that row's lambda is always clamped at its lower bound 0 (inert). */
#define PF_ODE_INERT_NORMAL_VEL 1e4
/* Smallest computed Hertz radius [m] (a -> 0 as N -> 0). */
#define PF_ODE_MIN_HERTZ_RADIUS 1e-7

typedef struct rowset {
    int fric;                             /* create the friction contact joint */
    double t1[3], t2[3];                  /* directions (world) */
    double b1, b2, bspin, broll1, broll2; /* bounds (> 0 to create the row) */
    double m1, m2;                        /* targets (row velocities) */
    int spin_motor;                       /* stick: spin via angular motor */
    double spin_vel;
} rowset;

static void body_frame_point(dBodyID b, const double *local, double *world)
{
    dVector3 w;
    dBodyGetRelPointPos(b, local[0], local[1], local[2], w);
    world[0] = w[0];
    world[1] = w[1];
    world[2] = w[2];
}

static void body_frame_vec(dBodyID b, const double *local, double *world)
{
    dVector3 w;
    dBodyVectorToWorld(b, local[0], local[1], local[2], w);
    world[0] = w[0];
    world[1] = w[1];
    world[2] = w[2];
}

static void to_body_point(dBodyID b, const double *world, double *local)
{
    dVector3 l;
    dBodyGetPosRelPoint(b, world[0], world[1], world[2], l);
    local[0] = l[0];
    local[1] = l[1];
    local[2] = l[2];
}

static void to_body_vec(dBodyID b, const double *world, double *local)
{
    dVector3 l;
    dBodyVectorFromWorld(b, world[0], world[1], world[2], l);
    local[0] = l[0];
    local[1] = l[1];
    local[2] = l[2];
}

static int is_dynamic(dBodyID b)
{
    return b && !dBodyIsKinematic(b);
}

static int has_other_joints(dBodyID b)
{
    if (!is_dynamic(b)) return 0;
    int n = dBodyGetNumJoints(b);
    for (int i = 0; i < n; ++i) {
        dJointType t = dJointGetType(dBodyGetJoint(b, i));
        if (t != dJointTypeContact) return 1;
    }
    return 0;
}

/* Inertia about the unit axis n through the mass centre, world frame. */
static double axial_inertia(dBodyID b, const dMass *m, const double *n)
{
    double nl[3];
    to_body_vec(b, n, nl);
    double s = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            s += nl[i] * m->I[4 * i + j] * nl[j];
    return s;
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

/* Planar Delassus block of one body at the patch centre, twist coordinates (vx, vy, w):
 * v_c = v_G + w z x (c - G), so J = [[1,0,-dy],[0,1,dx],[0,0,1]], A = J diag(1/m,1/m,1/J) J^T. */
static void planar_delassus(double m, double jz, double dx, double dy, double *A)
{
    double im = 1.0 / m, ij = 1.0 / jz;
    A[0] += im + dy * dy * ij;
    A[1] += -dx * dy * ij;
    A[2] += -dy * ij;
    A[3] += -dx * dy * ij;
    A[4] += im + dx * dx * ij;
    A[5] += dx * ij;
    A[6] += -dy * ij;
    A[7] += dx * ij;
    A[8] += ij;
}

static int evaluate(pfOdeContext *ctx, pfOdePair *p, double dt, rowset *rs)
{
    const pfOdeConfig *cfg = &ctx->cfg;
    pfOdePatchInfo *info = &p->info;
    memset(rs, 0, sizeof *rs);
    memset(info, 0, sizeof *info);
    info->geom1 = p->g1;
    info->geom2 = p->g2;
    info->contact_count = p->ncontacts;
    dBodyID b1 = p->b1, b2 = p->b2;

    if (p->mat.mode == PF_ODE_MODE_STOCK) {
        p->state = PF_ODE_STATE_STOCK;
        info->state = PF_ODE_STATE_STOCK;
        ctx->counters.stock_steps++;
        double c0[3] = {0, 0, 0};
        for (int i = 0; i < p->ncontacts; ++i)
            for (int k = 0; k < 3; ++k)
                c0[k] += p->contacts[i].pos[k] / p->ncontacts;
        memcpy(info->centre, c0, sizeof c0);
        for (int k = 0; k < 3; ++k)
            info->normal[k] = p->contacts[0].normal[k];
        info->normal_force = p->n_meas;
        return 0;
    }

    pf_ode_build_patch(ctx, p);
    const double *c = p->c, *n = p->n, *x = p->x, *y = p->y;

    /* masses and loads */
    dMass m1, m2;
    dBodyGetMass(b1, &m1);
    int dyn1 = is_dynamic(b1), dyn2 = is_dynamic(b2);
    int oj1 = has_other_joints(b1), oj2 = has_other_joints(b2);
    double f1[3] = {0, 0, 0}, t1v[3] = {0, 0, 0}, f2[3] = {0, 0, 0}, t2v[3] = {0, 0, 0};
    body_loads(ctx, b1, m1.mass, oj1 && p->has_other, p->other_f1, p->other_t1, f1, t1v);
    if (dyn2) {
        dBodyGetMass(b2, &m2);
        body_loads(ctx, b2, m2.mass, oj2 && p->has_other, p->other_f2, p->other_t2, f2, t2v);
    }
    /* store pre-step state for the other-joint estimate (after_step) */
    {
        const dReal *v = dBodyGetLinearVel(b1), *w = dBodyGetAngularVel(b1);
        const dReal *uf = dBodyGetForce(b1), *ut = dBodyGetTorque(b1);
        for (int k = 0; k < 3; ++k) {
            p->pre_v1[k] = v[k];
            p->pre_w1[k] = w[k];
            p->pre_f1[k] = uf[k];
            p->pre_t1[k] = ut[k];
        }
        if (dyn2) {
            v = dBodyGetLinearVel(b2);
            w = dBodyGetAngularVel(b2);
            uf = dBodyGetForce(b2);
            ut = dBodyGetTorque(b2);
            for (int k = 0; k < 3; ++k) {
                p->pre_v2[k] = v[k];
                p->pre_w2[k] = w[k];
                p->pre_f2[k] = uf[k];
                p->pre_t2[k] = ut[k];
            }
        }
    }

    /* relative twist at the patch centre (P1) */
    dVector3 pv1, pv2 = {0, 0, 0, 0};
    dBodyGetPointVel(b1, c[0], c[1], c[2], pv1);
    if (b2) dBodyGetPointVel(b2, c[0], c[1], c[2], pv2);
    const dReal *w1 = dBodyGetAngularVel(b1);
    double wrel[3] = {w1[0], w1[1], w1[2]};
    if (b2) {
        const dReal *w2 = dBodyGetAngularVel(b2);
        for (int k = 0; k < 3; ++k)
            wrel[k] -= w2[k];
    }
    double vrel[3] = {pv1[0] - pv2[0], pv1[1] - pv2[1], pv1[2] - pv2[2]};
    pfTwist tw = {pf_ode_dot(vrel, x), pf_ode_dot(vrel, y), pf_ode_dot(wrel, n)};
    double vn = pf_ode_dot(vrel, n);

    /* normal force: last step's feedback, or the first-contact estimate
     *   N0 = m1 * max(0, -a1.n) + m_red * max(0, -v_n) / dt
     * (the frictionless load pressing body 1 onto a supported body 2, plus the impulse that
     * stops the approach within one step), m_red the reduced mass of the pair. */
    double N;
    if (p->has_n) {
        N = p->n_meas;
    } else {
        /* body 2 is taken as supported (a box landing on a resting box must not see the two
         * free-fall accelerations cancel): the static part uses body 1's loads only */
        double a1n = pf_ode_dot(f1, n) / m1.mass;
        double inv_m = 1.0 / m1.mass;
        if (dyn2) inv_m += 1.0 / m2.mass;
        double mred = 1.0 / inv_m;
        N = m1.mass * fmax(0.0, -a1n) + mred * fmax(0.0, -vn) / dt;
        ctx->counters.first_contact_estimates++;
    }
    if (!(N >= 0.0)) N = 0.0;
    if (!isfinite(N) || !isfinite(tw.vx) || !isfinite(tw.vy) || !isfinite(tw.w) ||
        !pf_ode_finite3(f1) || !pf_ode_finite3(t1v) || !pf_ode_finite3(f2) ||
        !pf_ode_finite3(t2v) || !pf_ode_finite3(c) || !pf_ode_finite3(n)) {
        ctx->counters.dropped_nonfinite++;
        p->state = PF_ODE_STATE_NONE;
        return 0;
    }

    double a_hertz = 0.0;
    if (p->kind == PF_ODE_KIND_HERTZ) {
        a_hertz = p->def.radius > 0.0 ? p->def.radius
                                      : cbrt(3.0 * N * p->hertz_rstar / (4.0 * p->mat.e_star));
        if (!(a_hertz >= PF_ODE_MIN_HERTZ_RADIUS)) a_hertz = PF_ODE_MIN_HERTZ_RADIUS;
        p->def.radius = a_hertz;
    }
    int point = p->kind == PF_ODE_KIND_POINT;
    double rho_g = 0.0;
    if (!point && pf_patch_gyration_radius(&p->def, &rho_g, NULL) != PF_OK) {
        point = 1; /* geometry the core rejects: fall back to point friction */
        rho_g = 0.0;
    }
    p->rho_g = rho_g;

    const double tol = cfg->stick_velocity_tol;
    double vt = hypot(tw.vx, tw.vy);
    int small = vt < tol && fabs(tw.w) * rho_g < tol;
    const double mu_s = p->mat.mu_s, mu_k = p->mat.mu_k;

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
    rs->fric = 1;

    if (point) {
        /* degenerate patch: point friction at the centroid, no spin resistance */
        p->state = PF_ODE_STATE_POINT;
        info->state = PF_ODE_STATE_POINT;
        info->shape = PF_PATCH_NONE;
        ctx->counters.point_fallbacks++;
        if (small) {
            memcpy(rs->t1, x, sizeof rs->t1);
            memcpy(rs->t2, y, sizeof rs->t2);
            rs->b1 = rs->b2 = mu_s * N;
        } else {
            for (int k = 0; k < 3; ++k)
                rs->t1[k] = -(tw.vx * x[k] + tw.vy * y[k]) / vt;
            pf_ode_cross(n, rs->t1, rs->t2);
            rs->b1 = mu_k * N;
        }
        info->bounds.fx = rs->b1;
        info->bounds.fy = rs->b2;
        return 1;
    }
    info->shape = p->def.shape;

    /* stick test (P10-P13 for a free body, generalised holding-wrench form otherwise) */
    pfOdePatchState prev = p->fresh ? PF_ODE_STATE_NONE : p->state;
    pfOdePatchState next = PF_ODE_STATE_SLIP;
    pfTwist xi = tw;
    if (small) {
        pfStickResult res;
        int st;
        double G1[3];
        const dReal *gp = dBodyGetPosition(b1);
        G1[0] = gp[0] - c[0];
        G1[1] = gp[1] - c[1];
        G1[2] = gp[2] - c[2];
        double j1 = axial_inertia(b1, &m1, n);
        if (!dyn1) {
            st = PF_ERR_STATE;
        } else if (!dyn2 && !oj1) {
            pfPlanarBody body = {m1.mass, j1, pf_ode_dot(G1, x), pf_ode_dot(G1, y)};
            st = pf_stick_planar(&p->def, mu_s, N, &body, pf_ode_dot(f1, x), pf_ode_dot(f1, y),
                                 pf_ode_dot(t1v, n), &res, NULL);
        } else {
            double A[9] = {0};
            /* d = c - G in the patch plane */
            double dx1 = -pf_ode_dot(G1, x), dy1 = -pf_ode_dot(G1, y);
            planar_delassus(m1.mass, j1, dx1, dy1, A);
            double ax1 = pf_ode_dot(f1, x) / m1.mass, ay1 = pf_ode_dot(f1, y) / m1.mass;
            double al1 = pf_ode_dot(t1v, n) / j1;
            pfTwist af = {ax1 - al1 * dy1, ay1 + al1 * dx1, al1};
            if (dyn2) {
                double G2[3];
                gp = dBodyGetPosition(b2);
                G2[0] = gp[0] - c[0];
                G2[1] = gp[1] - c[1];
                G2[2] = gp[2] - c[2];
                double j2 = axial_inertia(b2, &m2, n);
                double dx2 = -pf_ode_dot(G2, x), dy2 = -pf_ode_dot(G2, y);
                planar_delassus(m2.mass, j2, dx2, dy2, A);
                double ax2 = pf_ode_dot(f2, x) / m2.mass, ay2 = pf_ode_dot(f2, y) / m2.mass;
                double al2 = pf_ode_dot(t2v, n) / j2;
                af.vx -= ax2 - al2 * dy2;
                af.vy -= ay2 + al2 * dx2;
                af.w -= al2;
            }
            st = pf_stick_general(&p->def, mu_s, N, A, af, &res, NULL);
        }
        if (st == PF_OK) {
            info->stick_margin = res.margin;
            if (!res.pure_translation && res.sticks == 0) {
                info->has_ca = 1;
                info->ca[0] = res.ca_x;
                info->ca[1] = res.ca_y;
            } else if (!res.pure_translation) {
                info->has_ca = 1;
                info->ca[0] = res.ca_x;
                info->ca[1] = res.ca_y;
            }
            if (res.sticks) {
                next = PF_ODE_STATE_STICK;
            } else {
                next = PF_ODE_STATE_SLIP;
                xi = res.incipient; /* breakaway: rotation about CA (P10) or translation */
            }
        }
    }

    if (next == PF_ODE_STATE_STICK) {
        if (prev != PF_ODE_STATE_STICK) {
            /* anchor the patch where it stuck */
            if (prev == PF_ODE_STATE_SLIP) ctx->counters.stick_transitions++;
            to_body_point(b1, c, p->anchor1);
            to_body_vec(b1, x, p->axis1);
            if (b2) {
                to_body_point(b2, c, p->anchor2);
                to_body_vec(b2, x, p->axis2);
            } else {
                memcpy(p->anchor2, c, sizeof p->anchor2);
                memcpy(p->axis2, x, sizeof p->axis2);
            }
        }
        /* drift of the anchored patch since it stuck, corrected through the targets */
        double pa1[3], pa2[3], u1[3], u2[3];
        body_frame_point(b1, p->anchor1, pa1);
        body_frame_vec(b1, p->axis1, u1);
        if (b2) {
            body_frame_point(b2, p->anchor2, pa2);
            body_frame_vec(b2, p->axis2, u2);
        } else {
            memcpy(pa2, p->anchor2, sizeof pa2);
            memcpy(u2, p->axis2, sizeof u2);
        }
        double d[3] = {pa1[0] - pa2[0], pa1[1] - pa2[1], pa1[2] - pa2[2]};
        double u21[3];
        pf_ode_cross(u2, u1, u21);
        double theta = atan2(pf_ode_dot(u21, n), pf_ode_dot(u2, u1));
        double dxp = pf_ode_dot(d, x), dyp = pf_ode_dot(d, y);
        info->drift = hypot(dxp, dyp);
        double g = cfg->drift_gain / dt;
        memcpy(rs->t1, x, sizeof rs->t1);
        memcpy(rs->t2, y, sizeof rs->t2);
        rs->b1 = rs->b2 = mu_s * N;
        rs->m1 = clampd(-g * dxp, tol);
        rs->m2 = clampd(-g * dyp, tol);
        double dspin = 0.0;
        pfTwist unit_spin = {0.0, 0.0, 1.0};
        if (pf_patch_dissipation(&p->def, mu_s, N, unit_spin, &dspin, NULL) != PF_OK) dspin = 0.0;
        rs->spin_motor = dspin > 0.0;
        rs->bspin = dspin;
        rs->spin_vel = clampd(-g * theta, tol / fmax(rho_g, 1e-12));
        if (p->kind == PF_ODE_KIND_HERTZ && p->def.rolling_d > 0.0)
            rs->broll1 = rs->broll2 = a_hertz * N * p->def.rolling_d / 5.0; /* |M_r| max, P18 */
        ctx->counters.stick_steps++;
    } else {
        if (prev == PF_ODE_STATE_STICK) ctx->counters.breakaways++;
        /* kinetic wrench of the patch for the twist (or the incipient twist) */
        pfWrench W = {0, 0, 0};
        double vG[3];
        const dReal *lv = dBodyGetLinearVel(b1);
        for (int k = 0; k < 3; ++k)
            vG[k] = lv[k] - pv2[k];
        pfTwist roll = {pf_ode_dot(vG, x), pf_ode_dot(vG, y), 0.0};
        if (xi.vx == 0.0 && xi.vy == 0.0 && xi.w == 0.0) {
            W.fx = W.fy = W.mz = 0.0;
        } else if (pf_patch_friction(&p->def, mu_k, N, xi, roll, &W, NULL) != PF_OK) {
            W.fx = W.fy = W.mz = 0.0;
        }
        if (!isfinite(W.fx) || !isfinite(W.fy) || !isfinite(W.mz)) {
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
        rs->bspin = fabs(W.mz);
        if (p->kind == PF_ODE_KIND_HERTZ && p->def.rolling_d > 0.0) {
            pfVec2 mr = pf_hertz_rolling_moment(a_hertz, N, p->def.rolling_d, roll, p->def.eps_r);
            double mw[3];
            for (int k = 0; k < 3; ++k)
                mw[k] = mr.x * x[k] + mr.y * y[k];
            rs->broll1 = fabs(pf_ode_dot(mw, rs->t1));
            rs->broll2 = fabs(pf_ode_dot(mw, rs->t2));
            if (!isfinite(rs->broll1) || !isfinite(rs->broll2)) rs->broll1 = rs->broll2 = 0.0;
        }
        ctx->counters.slip_steps++;
    }
    p->state = next;
    info->state = next;
    info->bounds.fx = rs->b1;
    info->bounds.fy = rs->b2;
    info->bounds.mz = rs->bspin;
    return 1;
}

/* Largest row bound handed to ODE [N or N m]: keeps huge materials finite (never dInfinity,
 * which ODE would treat as an unbounded row). */
#define PF_ODE_MAX_BOUND 1e30

static double finite_bound(double b)
{
    return (b > 0.0) ? (b < PF_ODE_MAX_BOUND ? b : PF_ODE_MAX_BOUND) : 0.0;
}

static void create_rows(pfOdeContext *ctx, pfOdePair *p, const rowset *in)
{
    rowset r = *in;
    const rowset *rs = &r;
    r.b1 = finite_bound(r.b1);
    r.b2 = finite_bound(r.b2);
    r.bspin = finite_bound(r.bspin);
    r.broll1 = finite_bound(r.broll1);
    r.broll2 = finite_bound(r.broll2);
    if (!isfinite(r.m1) || !isfinite(r.m2) || !isfinite(r.spin_vel) || !pf_ode_finite3(r.t1) ||
        !pf_ode_finite3(r.t2)) {
        ctx->counters.dropped_nonfinite++;
        p->has_fric = p->has_spin = 0;
        return;
    }
    dContact cj;
    memset(&cj, 0, sizeof cj);
    for (int k = 0; k < 3; ++k) {
        cj.geom.pos[k] = p->c[k];
        cj.geom.normal[k] = p->n[k];
        cj.fdir1[k] = rs->t1[k];
        p->t1[k] = rs->t1[k];
        p->t2[k] = rs->t2[k];
    }
    cj.geom.depth = 0.0;
    cj.geom.g1 = p->g1;
    cj.geom.g2 = p->g2;
    /* slip1 = slip2 = 0: the friction rows get no CFM, so a held row has no compliance creep
     * (with the world CFM a row holding force f slips at cfm * f m/s) */
    cj.surface.mode = dContactFDir1 | dContactMu2 | dContactAxisDep | dContactMotion1 |
                      dContactMotion2 | dContactMotionN | dContactSlip1 | dContactSlip2;
    cj.surface.slip1 = 0.0;
    cj.surface.slip2 = 0.0;
    cj.surface.mu = rs->b1 > 0.0 ? rs->b1 : 0.0;
    cj.surface.mu2 = rs->b2 > 0.0 ? rs->b2 : 0.0;
    cj.surface.motion1 = rs->m1;
    cj.surface.motion2 = rs->m2;
    cj.surface.motionN = -PF_ODE_INERT_NORMAL_VEL;
    double spin_row = rs->spin_motor ? 0.0 : rs->bspin;
    if (spin_row > 0.0 || rs->broll1 > 0.0 || rs->broll2 > 0.0) {
        /* negative rho values are clamped to 0 and not counted by getInfo1 (contact.cpp), so
         * only the rows with a positive bound exist */
        cj.surface.mode |= dContactRolling;
        cj.surface.rho = rs->broll1 > 0.0 ? rs->broll1 : -1.0;
        cj.surface.rho2 = rs->broll2 > 0.0 ? rs->broll2 : -1.0;
        cj.surface.rhoN = spin_row > 0.0 ? spin_row : -1.0;
    }
    p->has_fric = 0;
    p->has_spin = 0;
    if (cj.surface.mu > 0.0 || cj.surface.mu2 > 0.0 || (cj.surface.mode & dContactRolling)) {
        dJointID j = dJointCreateContact(ctx->world, p->group, &cj);
        dJointAttach(j, p->b1, p->b2);
        memset(&p->fb_fric, 0, sizeof p->fb_fric);
        dJointSetFeedback(j, &p->fb_fric);
        p->has_fric = 1;
    }
    if (rs->spin_motor && rs->bspin > 0.0) {
        dJointID j = dJointCreateAMotor(ctx->world, p->group);
        dJointAttach(j, p->b1, p->b2);
        dJointSetAMotorMode(j, dAMotorUser);
        dJointSetAMotorNumAxes(j, 1);
        dJointSetAMotorAxis(j, 0, 0, p->n[0], p->n[1], p->n[2]);
        dJointSetAMotorParam(j, dParamFMax, rs->bspin);
        dJointSetAMotorParam(j, dParamVel, rs->spin_vel);
        dJointSetAMotorParam(j, dParamCFM, 0.0);
        memset(&p->fb_spin, 0, sizeof p->fb_spin);
        dJointSetFeedback(j, &p->fb_spin);
        p->has_spin = 1;
    }
}

int pf_ode_before_step(pfOdeContext *ctx, double dt)
{
    if (!ctx) return PF_ERR_NULL;
    if (!(dt > 0.0) || !isfinite(dt)) return PF_ERR_RANGE;
    ctx->counters.steps++;
    /* forget pairs that were not collided this step (separated) */
    int w = 0;
    for (int a = 0; a < ctx->alive_count; ++a) {
        int idx = ctx->alive[a];
        pfOdePair *p = pf_ode_pair_at(ctx, idx);
        if (p->seen != ctx->frame || p->ncontacts == 0)
            pf_ode_pair_release(ctx, idx);
        else
            ctx->alive[w++] = idx;
    }
    ctx->alive_count = w;
    /* pass 1: evaluate every patch before any friction joint exists (the other-joint test
     * must not see this step's angular motors); pass 2: create the rows */
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        p->dt = dt;
        rowset rs;
        ctx->counters.patches++;
        if (evaluate(ctx, p, dt, &rs))
            create_rows(ctx, p, &rs);
        else
            p->has_fric = p->has_spin = 0;
    }
    ctx->frame++;
    return PF_OK;
}

static void add3(double *a, const dReal *b)
{
    a[0] += b[0];
    a[1] += b[1];
    a[2] += b[2];
}

int pf_ode_after_step(pfOdeContext *ctx)
{
    if (!ctx) return PF_ERR_NULL;
    dVector3 g;
    dWorldGetGravity(ctx->world, g);
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        double nsum = 0.0;
        double fo1[3] = {0, 0, 0}, to1[3] = {0, 0, 0}, fo2[3] = {0, 0, 0}, to2[3] = {0, 0, 0};
        const double *n = p->mat.mode == PF_ODE_MODE_STOCK ? NULL : p->n;
        double nstock[3];
        if (!n) {
            for (int k = 0; k < 3; ++k)
                nstock[k] = p->contacts[0].normal[k];
            n = nstock;
        }
        for (int i = 0; i < p->ncontacts; ++i) {
            nsum += p->fb[i].f1[0] * n[0] + p->fb[i].f1[1] * n[1] + p->fb[i].f1[2] * n[2];
            add3(fo1, p->fb[i].f1);
            add3(to1, p->fb[i].t1);
            add3(fo2, p->fb[i].f2);
            add3(to2, p->fb[i].t2);
        }
        if (!isfinite(nsum) || nsum < 0.0) nsum = 0.0;
        p->n_meas = nsum;
        p->has_n = 1;
        p->info.normal_force_measured = nsum;
        if (p->mat.mode == PF_ODE_MODE_STOCK) {
            p->info.normal_force = nsum;
            p->fresh = 0;
            continue;
        }
        double F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
        if (p->has_fric) {
            add3(F, p->fb_fric.f1);
            add3(T, p->fb_fric.t1);
            add3(fo2, p->fb_fric.f2);
            add3(to2, p->fb_fric.t2);
        }
        if (p->has_spin) {
            add3(T, p->fb_spin.t1);
            add3(to2, p->fb_spin.t2);
        }
        for (int k = 0; k < 3; ++k) {
            fo1[k] += F[k];
            to1[k] += T[k];
        }
        /* wrench about the patch centre: M_c = M_G + (G - c) x F */
        const dReal *G = dBodyGetPosition(p->b1);
        double gc[3] = {G[0] - p->c[0], G[1] - p->c[1], G[2] - p->c[2]}, mc[3];
        pf_ode_cross(gc, F, mc);
        for (int k = 0; k < 3; ++k)
            mc[k] += T[k];
        p->info.wrench.fx = pf_ode_dot(F, p->x);
        p->info.wrench.fy = pf_ode_dot(F, p->y);
        p->info.wrench.mz = pf_ode_dot(mc, p->n);

        /* other-joint load estimate: m dv/dt = user + gravity + this patch + others */
        double dt = p->dt;
        p->has_other = 0;
        if (dt > 0.0 && has_other_joints(p->b1)) {
            dMass m;
            dBodyGetMass(p->b1, &m);
            const dReal *v = dBodyGetLinearVel(p->b1), *w = dBodyGetAngularVel(p->b1);
            double dw[3] = {w[0] - p->pre_w1[0], w[1] - p->pre_w1[1], w[2] - p->pre_w1[2]}, dwl[3];
            to_body_vec(p->b1, dw, dwl);
            double Idw[3];
            for (int i = 0; i < 3; ++i)
                Idw[i] = m.I[4 * i] * dwl[0] + m.I[4 * i + 1] * dwl[1] + m.I[4 * i + 2] * dwl[2];
            body_frame_vec(p->b1, Idw, Idw);
            double gm = dBodyGetGravityMode(p->b1) ? m.mass : 0.0;
            for (int k = 0; k < 3; ++k) {
                p->other_f1[k] =
                    m.mass * (v[k] - p->pre_v1[k]) / dt - p->pre_f1[k] - gm * g[k] - fo1[k];
                p->other_t1[k] = Idw[k] / dt - p->pre_t1[k] - to1[k];
            }
            p->has_other = 1;
        }
        if (dt > 0.0 && has_other_joints(p->b2)) {
            dMass m;
            dBodyGetMass(p->b2, &m);
            const dReal *v = dBodyGetLinearVel(p->b2), *w = dBodyGetAngularVel(p->b2);
            double dw[3] = {w[0] - p->pre_w2[0], w[1] - p->pre_w2[1], w[2] - p->pre_w2[2]}, dwl[3];
            to_body_vec(p->b2, dw, dwl);
            double Idw[3];
            for (int i = 0; i < 3; ++i)
                Idw[i] = m.I[4 * i] * dwl[0] + m.I[4 * i + 1] * dwl[1] + m.I[4 * i + 2] * dwl[2];
            body_frame_vec(p->b2, Idw, Idw);
            double gm = dBodyGetGravityMode(p->b2) ? m.mass : 0.0;
            for (int k = 0; k < 3; ++k) {
                p->other_f2[k] =
                    m.mass * (v[k] - p->pre_v2[k]) / dt - p->pre_f2[k] - gm * g[k] - fo2[k];
                p->other_t2[k] = Idw[k] / dt - p->pre_t2[k] - to2[k];
            }
            p->has_other = 1;
        }
        p->fresh = 0;
    }
    return PF_OK;
}
