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
 *             xi0 + dt a_free (implicit direction, see the slip branch of evaluate), bound |F|,
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

/* ODE fills dVector3s of dReal; the adapter works in plain double[3]. */
static void to3(const dReal *v, double *o)
{
    o[0] = v[0];
    o[1] = v[1];
    o[2] = v[2];
}

static void body_frame_point(dBodyID b, const double *local, double *world)
{
    dVector3 w;
    dBodyGetRelPointPos(b, local[0], local[1], local[2], w);
    to3(w, world);
}

static void body_frame_vec(dBodyID b, const double *local, double *world)
{
    dVector3 w;
    dBodyVectorToWorld(b, local[0], local[1], local[2], w);
    to3(w, world);
}

static void to_body_point(dBodyID b, const double *world, double *local)
{
    dVector3 l;
    dBodyGetPosRelPoint(b, world[0], world[1], world[2], l);
    to3(l, local);
}

static void to_body_vec(dBodyID b, const double *world, double *local)
{
    dVector3 l;
    dBodyVectorFromWorld(b, world[0], world[1], world[2], l);
    to3(l, local);
}

static int is_dynamic(dBodyID b)
{
    return b && !dBodyIsKinematic(b);
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

/* ---- Other constraints of a body, as the stick test sees them --------------------------------
 *
 * The CA test needs the frictionless patch acceleration and the Delassus block *given every other
 * constraint* on the two bodies (docs/physics.md P31). Those constraints fall in
 * two classes, and each is treated the way that avoids a circular estimate:
 *
 *  - WORLD joints: hinge, slider, piston, ball, fixed, linear motor, user-mode angular motor
 *    (axes with FMax > 0) between the body and the static world or a kinematic body. Their
 *    reaction is not a load but a restriction of the motion: their rows are removed from the
 *    body's mobility with the projector P = M^-1 - M^-1 J^T (J M^-1 J^T)^+ J M^-1, built by
 *    Gram-Schmidt in the M^-1 metric. A = J_p P J_p^T then has inverse effective mass only along
 *    the motion the joints allow (rank 1 for a hinge), and a_free = J_p P (f, tau) is the
 *    frictionless acceleration given those joints. Using last step's reaction of such a joint as
 *    a load instead is circular: while the patch sticks, the joint and the stick rows share a
 *    redundant load in whatever ratio the solver picks, and the estimate inherits that split.
 *  - LOAD joints: contacts of other pairs (the adapter's own joints, tagged with the context as
 *    joint data), joints to other dynamic bodies and any other joint with a dJointFeedback. Their
 *    force of the previous step (feedback) is added to the loads. They are not redundant with
 *    this patch (their force is set by the other body's own balance), so the estimate is sound.
 *  - UNKNOWN: a joint of neither kind (no feedback, not representable). The body then falls back
 *    to last step's momentum balance for everything except this pair (the old estimate) and no
 *    joint rows are projected.
 *
 * Every body also keeps the patch's own support: no normal velocity at the patch centre and no
 * tipping (rows n at c, omega.x, omega.y), so a free body on the ground is exactly P10-P13's
 * planar body (effective inertia n^T I n). */

typedef enum jclass { JC_IGNORE = 0, JC_OWN, JC_LOAD, JC_WORLD, JC_UNKNOWN } jclass;

/* At most 6 independent rows in 6 velocity coordinates. */
#define PF_ODE_MODEL_ROWS 6
/* A new row whose M^-1-norm drops below this fraction of its own norm after Gram-Schmidt is
 * dependent on the rows already kept (redundant constraint). Not near rounding: joint axes read
 * back from ODE drift with the solver's error (QuickStep: ~1e-9 rad), and a piston's horizontal
 * rows tilted by 1e-9 against the patch's own must not count as a sixth, independent row (it
 * would lock the body's last freedom). 1e-3: rows within ~0.06 degrees of the span are one. */
#define PF_ODE_DEPENDENT_ROW 1e-3

typedef struct bodymodel {
    double G[3];                    /* mass centre, world */
    double im;                      /* 1/m */
    double iinv[9];                 /* inverse inertia, world, row-major */
    double q[PF_ODE_MODEL_ROWS][6]; /* constraint rows, M^-1-orthonormal */
    double u[PF_ODE_MODEL_ROWS][6]; /* M^-1 q */
    int nq;
    int unknown;    /* fallback: momentum balance, no joint rows */
    int world_rows; /* joint rows added (beyond the patch support) */
} bodymodel;

static int pair_owns(const pfOdePair *p, const dJointFeedback *fb)
{
    if (fb == &p->fb_fric || fb == &p->fb_spin || fb == &p->fb_patch) return 1;
    for (int i = 0; i < PF_ODE_MAX_CONTACTS; ++i)
        if (fb == &p->fb[i]) return 1;
    return 0;
}

/* ODE writes f1/t1 for node[0]: the first body, or the only one (dJointAttach swaps a NULL
 * first body, ode.cpp). */
static int joint_body_is_first(dJointID j, dBodyID b)
{
    dBodyID a0 = dJointGetBody(j, 0);
    return a0 == b || a0 == NULL;
}

static int world_type(dJointID j)
{
    switch (dJointGetType(j)) {
    case dJointTypeHinge:
    case dJointTypeSlider:
    case dJointTypePiston:
    case dJointTypeBall:
    case dJointTypeFixed:
    case dJointTypeLMotor:
        return 1;
    case dJointTypeAMotor:
        return dJointGetAMotorMode(j) == dAMotorUser;
    default:
        return 0;
    }
}

static jclass classify_joint(const pfOdeContext *ctx, const pfOdePair *p, dJointID j, dBodyID b)
{
    if (!dJointIsEnabled(j)) return JC_IGNORE;
    dJointFeedback *fb = dJointGetFeedback(j);
    if (dJointGetData(j) == (void *)ctx) {
        if (fb && pair_owns(p, fb)) return JC_OWN;
        return fb ? JC_LOAD : JC_UNKNOWN;
    }
    dBodyID a0 = dJointGetBody(j, 0), a1 = dJointGetBody(j, 1);
    dBodyID other = a0 == b ? a1 : a0;
    if (!is_dynamic(other) && world_type(j)) return JC_WORLD;
    return fb ? JC_LOAD : JC_UNKNOWN;
}

static void minv_apply(const bodymodel *bm, const double *x, double *out)
{
    for (int k = 0; k < 3; ++k)
        out[k] = bm->im * x[k];
    for (int i = 0; i < 3; ++i)
        out[3 + i] =
            bm->iinv[3 * i] * x[3] + bm->iinv[3 * i + 1] * x[4] + bm->iinv[3 * i + 2] * x[5];
}

static double dot6(const double *a, const double *b)
{
    double s = 0.0;
    for (int k = 0; k < 6; ++k)
        s += a[k] * b[k];
    return s;
}

/* Add one constraint row (Gram-Schmidt in the M^-1 metric; dependent rows are dropped). */
static void model_add_row(bodymodel *bm, const double *row)
{
    if (bm->nq >= PF_ODE_MODEL_ROWS) return;
    double r[6], mr[6];
    memcpy(r, row, sizeof r);
    minv_apply(bm, r, mr);
    double n0 = dot6(r, mr);
    if (!(n0 > 0.0)) return;
    for (int k = 0; k < bm->nq; ++k) {
        double c = dot6(bm->u[k], r); /* <q_k, r> = q_k^T M^-1 r */
        for (int i = 0; i < 6; ++i)
            r[i] -= c * bm->q[k][i];
    }
    minv_apply(bm, r, mr);
    double n1 = dot6(r, mr);
    if (!(n1 > PF_ODE_DEPENDENT_ROW * PF_ODE_DEPENDENT_ROW * n0)) return;
    double s = 1.0 / sqrt(n1);
    for (int i = 0; i < 6; ++i) {
        bm->q[bm->nq][i] = r[i] * s;
        bm->u[bm->nq][i] = mr[i] * s;
    }
    bm->nq++;
}

/* Row of a point constraint: velocity of the body point P along d. */
static void model_point_row(bodymodel *bm, const double *P, const double *d)
{
    double r[6], rp[3] = {P[0] - bm->G[0], P[1] - bm->G[1], P[2] - bm->G[2]};
    r[0] = d[0];
    r[1] = d[1];
    r[2] = d[2];
    pf_ode_cross(rp, d, r + 3);
    model_add_row(bm, r);
}

static void model_ang_row(bodymodel *bm, const double *e)
{
    double r[6] = {0, 0, 0, e[0], e[1], e[2]};
    model_add_row(bm, r);
}

/* P x = M^-1 x - sum_k u_k (u_k . x) */
static void model_project(const bodymodel *bm, const double *x, double *out)
{
    minv_apply(bm, x, out);
    for (int k = 0; k < bm->nq; ++k) {
        double c = dot6(bm->u[k], x);
        for (int i = 0; i < 6; ++i)
            out[i] -= c * bm->u[k][i];
    }
}

static void model_joint_rows(bodymodel *bm, dJointID j, dBodyID b)
{
    static const double E[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int first = joint_body_is_first(j, b);
    dVector3 a, ax, p1, p2;
    double A[3], X[3], P1[3], P2[3];
    switch (dJointGetType(j)) {
    case dJointTypeHinge:
        if (first)
            dJointGetHingeAnchor(j, a);
        else
            dJointGetHingeAnchor2(j, a);
        dJointGetHingeAxis(j, ax);
        dPlaneSpace(ax, p1, p2);
        to3(a, A);
        to3(p1, P1);
        to3(p2, P2);
        for (int k = 0; k < 3; ++k)
            model_point_row(bm, A, E[k]);
        model_ang_row(bm, P1);
        model_ang_row(bm, P2);
        break;
    case dJointTypeBall:
        if (first)
            dJointGetBallAnchor(j, a);
        else
            dJointGetBallAnchor2(j, a);
        to3(a, A);
        for (int k = 0; k < 3; ++k)
            model_point_row(bm, A, E[k]);
        break;
    case dJointTypeSlider:
        dJointGetSliderAxis(j, ax);
        dPlaneSpace(ax, p1, p2);
        to3(p1, P1);
        to3(p2, P2);
        for (int k = 0; k < 3; ++k)
            model_ang_row(bm, E[k]);
        model_point_row(bm, bm->G, P1);
        model_point_row(bm, bm->G, P2);
        break;
    case dJointTypePiston:
        if (first)
            dJointGetPistonAnchor(j, a);
        else
            dJointGetPistonAnchor2(j, a);
        dJointGetPistonAxis(j, ax);
        dPlaneSpace(ax, p1, p2);
        to3(a, A);
        to3(p1, P1);
        to3(p2, P2);
        model_point_row(bm, A, P1);
        model_point_row(bm, A, P2);
        model_ang_row(bm, P1);
        model_ang_row(bm, P2);
        break;
    case dJointTypeFixed:
        for (int k = 0; k < 3; ++k) {
            model_point_row(bm, bm->G, E[k]);
            model_ang_row(bm, E[k]);
        }
        break;
    case dJointTypeLMotor:
        for (int i = 0; i < dJointGetLMotorNumAxes(j); ++i) {
            if (!(dJointGetLMotorParam(j, dParamFMax + dParamGroup * i) > 0.0)) continue;
            dJointGetLMotorAxis(j, i, ax);
            to3(ax, X);
            model_point_row(bm, bm->G, X);
        }
        break;
    case dJointTypeAMotor:
        for (int i = 0; i < dJointGetAMotorNumAxes(j); ++i) {
            if (!(dJointGetAMotorParam(j, dParamFMax + dParamGroup * i) > 0.0)) continue;
            dJointGetAMotorAxis(j, i, ax);
            to3(ax, X);
            model_ang_row(bm, X);
        }
        break;
    default:
        break;
    }
}

/* Mobility model of a dynamic body for patch p: inverse mass, patch support, WORLD joints. */
static void body_model(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, bodymodel *bm)
{
    memset(bm, 0, sizeof *bm);
    pfOdeMobility mob;
    pf_ode_mobility(b, &mob);
    memcpy(bm->G, mob.G, sizeof bm->G);
    bm->im = mob.im;
    memcpy(bm->iinv, mob.iinv, sizeof bm->iinv);
    /* the patch's own support */
    model_point_row(bm, p->c, p->n);
    model_ang_row(bm, p->x);
    model_ang_row(bm, p->y);
    int nj = dBodyGetNumJoints(b);
    for (int i = 0; i < nj; ++i)
        if (classify_joint(ctx, p, dBodyGetJoint(b, i), b) == JC_UNKNOWN) bm->unknown = 1;
    if (bm->unknown) return;
    int base = bm->nq;
    for (int i = 0; i < nj; ++i) {
        dJointID j = dBodyGetJoint(b, i);
        if (classify_joint(ctx, p, j, b) == JC_WORLD) model_joint_rows(bm, j, b);
    }
    bm->world_rows = bm->nq - base;
}

/* Patch rows of body b in twist coordinates (vx, vy, w) at c: J_i = (e_i, (c - G) x e_i) for the
 * tangents, (0, n) for the spin. Adds sign * J P J^T to A, sign * J P L to a and
 * sign * J M^-1 L to araw. */
static void model_patch_block(const bodymodel *bm, const pfOdePair *p, const double *f,
                              const double *t, double sign, double *A, double *a, double *araw)
{
    double J[3][6], PJ[3][6], r[3] = {p->c[0] - bm->G[0], p->c[1] - bm->G[1], p->c[2] - bm->G[2]};
    const double *e[2] = {p->x, p->y};
    for (int i = 0; i < 2; ++i) {
        memcpy(J[i], e[i], 3 * sizeof(double));
        pf_ode_cross(r, e[i], J[i] + 3);
    }
    J[2][0] = J[2][1] = J[2][2] = 0.0;
    memcpy(J[2] + 3, p->n, 3 * sizeof(double));
    double L[6] = {f[0], f[1], f[2], t[0], t[1], t[2]}, PL[6], ML[6];
    model_project(bm, L, PL);
    minv_apply(bm, L, ML);
    for (int i = 0; i < 3; ++i)
        model_project(bm, J[i], PJ[i]);
    for (int i = 0; i < 3; ++i) {
        a[i] += sign * dot6(J[i], PL);
        araw[i] += sign * dot6(J[i], ML);
        for (int k = 0; k < 3; ++k)
            A[3 * i + k] += dot6(J[i], PJ[k]); /* A adds for both bodies (relative twist) */
    }
}

/* Symmetric 3x3 eigen-decomposition by cyclic Jacobi: A = V diag(l) V^T (V columns). */
static void jacobi3(const double *Ain, double *l, double *V)
{
    double a[3][3];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
            a[i][k] = 0.5 * (Ain[3 * i + k] + Ain[3 * k + i]);
            V[3 * i + k] = i == k;
        }
    for (int sweep = 0; sweep < 50; ++sweep) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double diag = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (!(off > 1e-300) || off <= 1e-17 * diag) break;
        for (int pq = 0; pq < 3; ++pq) {
            int ip = pq == 2 ? 1 : 0, iq = pq == 0 ? 1 : 2;
            if (a[ip][iq] == 0.0) continue;
            double th = 0.5 * (a[iq][iq] - a[ip][ip]) / a[ip][iq];
            double tt = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1.0));
            double cs = 1.0 / sqrt(tt * tt + 1.0), sn = tt * cs;
            for (int k = 0; k < 3; ++k) { /* columns */
                double x = a[k][ip], y = a[k][iq];
                a[k][ip] = cs * x - sn * y;
                a[k][iq] = sn * x + cs * y;
            }
            for (int k = 0; k < 3; ++k) { /* rows */
                double x = a[ip][k], y = a[iq][k];
                a[ip][k] = cs * x - sn * y;
                a[iq][k] = sn * x + cs * y;
            }
            for (int k = 0; k < 3; ++k) {
                double x = V[3 * k + ip], y = V[3 * k + iq];
                V[3 * k + ip] = cs * x - sn * y;
                V[3 * k + iq] = sn * x + cs * y;
            }
        }
    }
    for (int i = 0; i < 3; ++i)
        l[i] = a[i][i];
}

/* Eigen-directions of the scaled Delassus block below this fraction of the largest are motions
 * the other constraints forbid (a hinge leaves one). */
#define PF_ODE_NULL_EIGEN 1e-9
/* A projected frictionless acceleration below this fraction of the unconstrained one is the
 * rounding of a load the other constraints carry entirely: zero. */
#define PF_ODE_NULL_ACCEL 1e-9

/* Make (A, a) acceptable to pf_stick_general when the other constraints leave A singular:
 * in coordinates (vx, vy, L w) (L the patch's radius of gyration, so the three are commensurate)
 * drop a's components along forbidden directions and give those directions the largest
 * eigenvalue. a^T A^-1 a and the incipient twist are unchanged on the allowed subspace (it is
 * the pseudo-inverse). The forbidden directions are also returned as reaction wrenches for the
 * limit-set test (pf_stick_general_limit), which must search the allowed twists only: a
 * forbidden eigenvector v in those coordinates is the wrench (v0, v1, L v2), the allowed twists
 * being those that do no work on it. */
static void regularise_block(double *A, double *a, const double *araw, double L,
                             pfWrench *reactions, int *reaction_count)
{
    *reaction_count = 0;
    double S[3] = {1.0, 1.0, L};
    double As[9], as[3], l[3], V[9];
    for (int i = 0; i < 3; ++i) {
        as[i] = a[i] * S[i];
        for (int k = 0; k < 3; ++k)
            As[3 * i + k] = A[3 * i + k] * S[i] * S[k];
    }
    jacobi3(As, l, V);
    double lmax = fmax(fmax(l[0], l[1]), l[2]);
    int none = !(lmax > 0.0); /* the other constraints forbid every patch motion */
    if (none) lmax = 1.0;
    double ap[3] = {0, 0, 0}, An[9] = {0};
    for (int e = 0; e < 3; ++e) {
        int keep = !none && l[e] > PF_ODE_NULL_EIGEN * lmax;
        if (!keep) {
            pfWrench r = {V[e], V[3 + e], L * V[6 + e]};
            reactions[(*reaction_count)++] = r;
        }
        double c = 0.0;
        for (int i = 0; i < 3; ++i)
            c += V[3 * i + e] * as[i];
        double le = keep ? l[e] : lmax;
        for (int i = 0; i < 3; ++i) {
            if (keep) ap[i] += c * V[3 * i + e];
            for (int k = 0; k < 3; ++k)
                An[3 * i + k] += le * V[3 * i + e] * V[3 * k + e];
        }
    }
    double nraw = sqrt(araw[0] * araw[0] + araw[1] * araw[1] + araw[2] * araw[2] * L * L);
    double np = sqrt(ap[0] * ap[0] + ap[1] * ap[1] + ap[2] * ap[2]);
    int zero = !(np > PF_ODE_NULL_ACCEL * nraw);
    for (int i = 0; i < 3; ++i) {
        a[i] = zero ? 0.0 : ap[i] / S[i];
        for (int k = 0; k < 3; ++k)
            A[3 * i + k] = 0.5 * (An[3 * i + k] + An[3 * k + i]) / (S[i] * S[k]);
    }
}

/* Frictionless relative acceleration of the patch, (ax, ay, alpha) in the patch frame, given the
 * other constraints (bodymodel; the same a_free as the generalised stick test, without the
 * rounding clean-up of regularise_block, which only matters for a stick decision). */
static void patch_free_accel(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                             const double *f1, const double *t1, const double *f2, const double *t2,
                             double *af)
{
    double A[9] = {0}, araw[3] = {0, 0, 0};
    bodymodel bm;
    af[0] = af[1] = af[2] = 0.0;
    if (dyn1 && !dyn2) {
        /* fast path (the common case, and the benchmark's): a body on the static world under
         * the adapter's own contact joints only is P10-P13's planar body, as in the stick test:
         * a_c = F/m + alpha z x (c - G), alpha = M_G / J, J = n^T I n */
        int own = 1, nj = dBodyGetNumJoints(p->b1);
        for (int i = 0; i < nj && own; ++i)
            own = dJointGetData(dBodyGetJoint(p->b1, i)) == (void *)ctx;
        if (own) {
            dMass m;
            dBodyGetMass(p->b1, &m);
            const dReal *gp = dBodyGetPosition(p->b1);
            double g[3] = {gp[0] - p->c[0], gp[1] - p->c[1], gp[2] - p->c[2]};
            double gx = pf_ode_dot(g, p->x), gy = pf_ode_dot(g, p->y);
            double alpha = pf_ode_dot(t1, p->n) / axial_inertia(p->b1, &m, p->n);
            af[0] = pf_ode_dot(f1, p->x) / m.mass + alpha * gy;
            af[1] = pf_ode_dot(f1, p->y) / m.mass - alpha * gx;
            af[2] = alpha;
            return;
        }
    }
    if (dyn1) {
        body_model(ctx, p, p->b1, &bm);
        model_patch_block(&bm, p, f1, t1, 1.0, A, af, araw);
    }
    if (dyn2) {
        body_model(ctx, p, p->b2, &bm);
        model_patch_block(&bm, p, f2, t2, -1.0, A, af, araw);
    }
}

/* Delassus block of the patch rows in twist coordinates (vx, vy, w) at c, patch frame: the
 * relative twist change per unit wrench (fx, fy, mz) on body 1 (its opposite on body 2), given
 * the other constraints (bodymodel). */
static void patch_delassus(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                           double *A)
{
    static const double zero[3] = {0, 0, 0};
    double a[3] = {0, 0, 0}, araw[3] = {0, 0, 0};
    bodymodel bm;
    memset(A, 0, 9 * sizeof *A);
    if (dyn1) {
        body_model(ctx, p, p->b1, &bm);
        model_patch_block(&bm, p, zero, zero, 1.0, A, a, araw);
    }
    if (dyn2) {
        body_model(ctx, p, p->b2, &bm);
        model_patch_block(&bm, p, zero, zero, -1.0, A, a, araw);
    }
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
 * (world, at c) and moment (world) in p->drive_f / drive_t; the rows dropped in rs. */
/* The rolling-moment part of the rule above (P18 rows about t1 / t2), added to p->drive_t;
 * sets p->has_drive from the whole explicit part. mroll NULL: no rolling moment. */
static void drive_rolling(pfOdePair *p, const double *mroll, const double *wrel, rowset *rs)
{
    if (mroll) {
        const double *t[2] = {rs->t1, rs->t2};
        double *b[2] = {&rs->broll1, &rs->broll2};
        for (int i = 0; i < 2; ++i) {
            double ci = pf_ode_dot(mroll, t[i]), ui = pf_ode_dot(wrel, t[i]);
            if (!(*b[i] > 0.0) || ci == 0.0 || ci * ui < 0.0) continue;
            for (int k = 0; k < 3; ++k)
                p->drive_t[k] += ci * t[i][k];
            *b[i] = 0.0;
        }
    }
    const double *f = p->drive_f, *t = p->drive_t;
    p->has_drive =
        pf_ode_finite3(f) && pf_ode_finite3(t) &&
        (f[0] != 0.0 || f[1] != 0.0 || f[2] != 0.0 || t[0] != 0.0 || t[1] != 0.0 || t[2] != 0.0);
}

static void drive_components(const pfOdeContext *ctx, pfOdePair *p, double dt, int dyn1, int dyn2,
                             double mu_k, double N, pfTwist xi, pfTwist roll, const pfWrench *W,
                             const double *mroll, const double *wrel, rowset *rs)
{
    const double *x = p->x, *y = p->y, *n = p->n;
    double fm = hypot(W->fx, W->fy);
    double u1 = fm > 0.0 ? (xi.vx * W->fx + xi.vy * W->fy) / fm : 0.0;
    int ex_f = fm > 0.0 && u1 >= 0.0;
    int ex_s = W->mz != 0.0 && W->mz * xi.w >= 0.0;
    double sf = 1.0, ss = 1.0;
    if (ex_f || ex_s) {
        double we[3] = {ex_f ? W->fx : 0.0, ex_f ? W->fy : 0.0, ex_s ? W->mz : 0.0}, A[9];
        patch_delassus(ctx, p, dyn1, dyn2, A);
        pfTwist xe = {xi.vx + dt * (A[0] * we[0] + A[1] * we[1] + A[2] * we[2]),
                      xi.vy + dt * (A[3] * we[0] + A[4] * we[1] + A[5] * we[2]),
                      xi.w + dt * (A[6] * we[0] + A[7] * we[1] + A[8] * we[2])};
        pfWrench We = {0, 0, 0};
        if (isfinite(xe.vx) && isfinite(xe.vy) && isfinite(xe.w) &&
            pf_patch_friction(&p->def, mu_k, N, xe, roll, &We, NULL) == PF_OK && isfinite(We.fx) &&
            isfinite(We.fy) && isfinite(We.mz)) {
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
        p->drive_f[k] = fx * x[k] + fy * y[k];
        p->drive_t[k] = mz * n[k];
    }
    drive_rolling(p, mroll, wrel, rs);
}

/* Relative twist of body 1 w.r.t. body 2 at the patch centre, patch frame (P1); optionally the
 * normal velocity, body 2's point velocity at c and the relative angular velocity (world). */
static pfTwist patch_twist(const pfOdePair *p, double *vn, double pv2_out[3], double wrel_out[3])
{
    const double *c = p->c;
    dVector3 pv1, pv2 = {0, 0, 0, 0};
    dBodyGetPointVel(p->b1, c[0], c[1], c[2], pv1);
    if (p->b2) dBodyGetPointVel(p->b2, c[0], c[1], c[2], pv2);
    const dReal *w1 = dBodyGetAngularVel(p->b1);
    double wrel[3] = {w1[0], w1[1], w1[2]};
    if (p->b2) {
        const dReal *w2 = dBodyGetAngularVel(p->b2);
        for (int k = 0; k < 3; ++k)
            wrel[k] -= w2[k];
    }
    double vrel[3] = {pv1[0] - pv2[0], pv1[1] - pv2[1], pv1[2] - pv2[2]};
    if (vn) *vn = pf_ode_dot(vrel, p->n);
    for (int k = 0; k < 3; ++k) {
        if (pv2_out) pv2_out[k] = pv2[k];
        if (wrel_out) wrel_out[k] = wrel[k];
    }
    pfTwist t = {pf_ode_dot(vrel, p->x), pf_ode_dot(vrel, p->y), pf_ode_dot(wrel, p->n)};
    return t;
}

/* Rolling-resistance moment of a Hertz patch with d > 0 (P18) in world coordinates (mw) and the
 * bounds of its rows about rs->t1 / rs->t2; 1 if there is one. */
static int rolling_rows(const pfOdePair *p, double a_hertz, double N, rowset *rs, double mw[3])
{
    if (!(p->kind == PF_ODE_KIND_HERTZ && p->def.rolling_d > 0.0)) return 0;
    pfVec2 mr = pf_hertz_rolling_moment(a_hertz, N, p->def.rolling_d, p->roll, p->def.eps_r);
    for (int k = 0; k < 3; ++k)
        mw[k] = mr.x * p->x[k] + mr.y * p->y[k];
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

/* The loads test of a patch at rest (P10-P13 for a free body on the static world, the
 * generalised holding-wrench form otherwise; CA or, with limit, the limit-set test). stop, if
 * not NULL, is added to the frictionless relative acceleration: the acceleration that stops the
 * patch's present twist within the step (xi0 / dt), so the test asks whether friction of
 * coefficient mu can stop it and hold it. Returns the core's status. */
static int stick_test(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                      const dMass *m1, const double *f1, const double *t1v, const double *f2,
                      const double *t2v, double N, double mu, const pfTwist *stop, int limit,
                      pfStickResult *res)
{
    const double *c = p->c, *n = p->n, *x = p->x, *y = p->y;
    if (!dyn1) return PF_ERR_STATE;
    bodymodel bm1, bm2;
    body_model(ctx, p, p->b1, &bm1);
    if (dyn2) body_model(ctx, p, p->b2, &bm2);
    if (!dyn2 && bm1.world_rows == 0) {
        /* a body on the static world with no joint restricting it: P10-P13 as written */
        const dReal *gp = dBodyGetPosition(p->b1);
        double G1[3] = {gp[0] - c[0], gp[1] - c[1], gp[2] - c[2]};
        double j1 = axial_inertia(p->b1, m1, n);
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
        pfPlanarStickInput in = {&p->def, mu, N, body, lfx, lfy, lmz};
        return limit ? pf_stick_planar_limit(&in, res, NULL) : pf_stick_planar(&in, res, NULL);
    }
    /* generalised form: A and a_free given the other constraints (see bodymodel) */
    double A[9] = {0}, af[3] = {0, 0, 0}, araw[3] = {0, 0, 0};
    model_patch_block(&bm1, p, f1, t1v, 1.0, A, af, araw);
    if (dyn2) model_patch_block(&bm2, p, f2, t2v, -1.0, A, af, araw);
    if (stop) {
        af[0] += stop->vx;
        af[1] += stop->vy;
        af[2] += stop->w;
        araw[0] += stop->vx;
        araw[1] += stop->vy;
        araw[2] += stop->w;
    }
    pfWrench reac[3];
    int nreac = 0;
    regularise_block(A, af, araw, p->rho_g, reac, &nreac);
    pfTwist a_free = {af[0], af[1], af[2]};
    pfGeneralStickInput in = {&p->def, mu, N, A, a_free, reac, limit ? nreac : 0};
    return limit ? pf_stick_general_limit(&in, res, NULL) : pf_stick_general(&in, res, NULL);
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

static int evaluate(pfOdeContext *ctx, pfOdePair *p, double dt, rowset *rs)
{
    const pfOdeConfig *cfg = &ctx->cfg;
    pfOdePatchInfo *info = &p->info;
    memset(rs, 0, sizeof *rs);
    memset(info, 0, sizeof *info);
    info->geom1 = p->g1;
    info->geom2 = p->g2;
    info->contact_count = p->ncontacts;
    p->has_drive = 0;
    p->st_valid = 0;

    dBodyID b1 = p->b1, b2 = p->b2;
    to3(dBodyGetPosition(b1), p->pre_G1);
    if (b2) to3(dBodyGetPosition(b2), p->pre_G2);

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
        /* A tangent frame for the diagnostics (stock rows use ODE's own directions). */
        dVector3 nn = {info->normal[0], info->normal[1], info->normal[2], 0}, tx, ty;
        dPlaneSpace(nn, tx, ty);
        for (int k = 0; k < 3; ++k)
            info->xaxis[k] = tx[k];
        info->normal_force = p->n_meas;
        return 0;
    }

    pf_ode_build_patch(ctx, p);
    const double *c = p->c, *n = p->n, *x = p->x, *y = p->y;

    /* masses and loads */
    dMass m1, m2;
    dBodyGetMass(b1, &m1);
    int dyn1 = is_dynamic(b1), dyn2 = is_dynamic(b2);
    double f1[3] = {0, 0, 0}, t1v[3] = {0, 0, 0}, f2[3] = {0, 0, 0}, t2v[3] = {0, 0, 0};
    body_loads(ctx, b1, m1.mass, p->has_other, p->other_f1, p->other_t1, f1, t1v);
    if (dyn2) {
        dBodyGetMass(b2, &m2);
        body_loads(ctx, b2, m2.mass, p->has_other, p->other_f2, p->other_t2, f2, t2v);
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

    double vn, pv2[3], wrel[3];
    pfTwist tw = patch_twist(p, &vn, pv2, wrel);
    {
        /* rolling velocity: body 1's mass centre relative to body 2 at c (Hertz shift d) */
        const dReal *lv1 = dBodyGetLinearVel(b1);
        double vg[3] = {lv1[0] - pv2[0], lv1[1] - pv2[1], lv1[2] - pv2[2]};
        p->roll.vx = pf_ode_dot(vg, x);
        p->roll.vy = pf_ode_dot(vg, y);
        p->roll.w = 0.0;
    }

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
    p->solver_at_rest = small;
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
    if (p->def.shape == PF_PATCH_DISK || p->def.shape == PF_PATCH_HERTZ_DISK)
        info->radius = p->def.radius;

    /* stick test (P10-P13 for a free body, generalised holding-wrench form otherwise): the CA
     * criterion, or with criterion = LIMIT the exact limit-set test (pf_core_limit.c) on the same
     * loads, which also gives the incipient twist a breakaway starts along */
    const int limit = p->mat.criterion == PF_ODE_CRITERION_LIMIT;
    pfOdePatchState prev = p->fresh ? PF_ODE_STATE_NONE : p->state;
    pfOdePatchState next = PF_ODE_STATE_SLIP;
    pfTwist xi = tw;
    int xi_from_test = 0;
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
            Nh = fmax(Nh, p->n_recent[k]);
    pfStickResult res;
    int st = PF_ERR_STATE, tested = 0;
    if (small) {
        st = stick_test(ctx, p, dyn1, dyn2, &m1, f1, t1v, f2, t2v, Nh, mu_s, NULL, limit, &res);
        tested = 1;
    } else if (held) {
        /* held: the loads test decides, unless the patch is moving faster than static friction
         * could stop within the step (a kinematic screen: QuickStep leaves mm/s of oscillating
         * noise at a stuck patch of a rocking stack, which the anchor absorbs; a release on the
         * anchor's drift instead toppled a 10-box tower at 5 ms, whose rocking moves the patch
         * centres by more than any drift bound that still catches sliding early) */
        if (stoppable(dyn1, dyn2, &m1, dyn2 ? &m2 : NULL, tw, mu_s, Nh, dt, rho_g,
                      PF_ODE_HELD_SPEED * tol)) {
            st = stick_test(ctx, p, dyn1, dyn2, &m1, f1, t1v, f2, t2v, Nh, mu_s, NULL, limit, &res);
            tested = 1;
        }
    } else if (prev == PF_ODE_STATE_SLIP &&
               stoppable(dyn1, dyn2, &m1, dyn2 ? &m2 : NULL, tw, mu_k, N, dt, rho_g, 0.0)) {
        pfTwist stop = {tw.vx / dt, tw.vy / dt, tw.w / dt};
        pfStickResult rs_stop;
        if (stick_test(ctx, p, dyn1, dyn2, &m1, f1, t1v, f2, t2v, N, mu_k, &stop, limit,
                       &rs_stop) == PF_OK &&
            rs_stop.sticks) {
            st = stick_test(ctx, p, dyn1, dyn2, &m1, f1, t1v, f2, t2v, N, mu_s, NULL, limit, &res);
            /* a sliding patch whose loads break it at once is reversing: it keeps sliding */
            tested = st == PF_OK && res.sticks;
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
        p->st_valid = 1;
        p->st_demand = res.demand;
        p->st_incipient = res.incipient;
        info->stick_margin = res.margin;
        if (!res.pure_translation) {
            info->has_ca = 1;
            info->ca[0] = res.ca_x;
            info->ca[1] = res.ca_y;
        }
        if (res.sticks) {
            next = PF_ODE_STATE_STICK;
        } else {
            next = PF_ODE_STATE_SLIP;
            /* breakaway: rotation about CA (P10) or translation; with LIMIT the minimising
             * twist (the limit surface's normal where the loads leave the limit set) */
            xi = res.incipient;
            xi_from_test = 1;
        }
    }

    if (next == PF_ODE_STATE_STICK) {
        if (prev != PF_ODE_STATE_STICK) {
            /* anchor the patch where it stuck */
            if (prev == PF_ODE_STATE_SLIP) ctx->counters.stick_transitions++;
            to_body_point(b1, c, p->anchor1);
            to_body_vec(b1, x, p->axis1);
            to_body_vec(b1, n, p->nrm1);
            if (b2) {
                to_body_point(b2, c, p->anchor2);
                to_body_vec(b2, x, p->axis2);
                to_body_vec(b2, n, p->nrm2);
            } else {
                memcpy(p->nrm2, n, sizeof p->nrm2);
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
        if (ctx->solver) {
            /* in-solver coupling: the friction block is the solver's (pf_ode_solver.c); only
             * the rolling-resistance rows (P18) and their driving part stay here */
            memcpy(rs->t1, x, sizeof rs->t1);
            memcpy(rs->t2, y, sizeof rs->t2);
            memset(p->drive_f, 0, sizeof p->drive_f);
            memset(p->drive_t, 0, sizeof p->drive_t);
            double mw[3];
            int has_roll = rolling_rows(p, a_hertz, N, rs, mw);
            drive_rolling(p, has_roll ? mw : NULL, wrel, rs);
            ctx->counters.slip_steps++;
            p->state = next;
            info->state = next;
            return 1;
        }
        /* Slip direction, implicit (backward Euler): the wrench is taken at the predicted
         * frictionless twist xi0 + dt a_free, not at xi0. For a translating patch with isotropic
         * friction backward-Euler Coulomb gives v1 = v0 + dt a_free - dt (mu N / m) v1/|v1|, so
         * v1 is parallel to v0 + dt a_free exactly: with t1 along that direction, the full bound
         * on t1 and none on t2, the step lands on the implicit solution (or at rest if the bound
         * suffices, never past it). For a coupled twist it is a first-order predictor of the
         * end-of-step twist; at speeds >> dt |a_free| it is xi0 (the explicit choice), while at
         * low speed, where the explicit direction swings by tens of degrees per step, it stops
         * the load from going unresisted for a step. A breakaway keeps the stick test's
         * incipient twist (rotation about CA, or the limit-set minimiser). */
        if (!xi_from_test && (dyn1 || dyn2)) {
            double af[3];
            patch_free_accel(ctx, p, dyn1, dyn2, f1, t1v, f2, t2v, af);
            pfTwist pred = {tw.vx + dt * af[0], tw.vy + dt * af[1], tw.w + dt * af[2]};
            if (isfinite(pred.vx) && isfinite(pred.vy) && isfinite(pred.w)) xi = pred;
        }
        /* kinetic wrench of the patch for the twist (or the incipient twist) */
        pfWrench W = {0, 0, 0};
        const pfTwist roll = p->roll;
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
        double mw[3];
        int has_roll = rolling_rows(p, a_hertz, N, rs, mw);
        /* bounds report the model's magnitudes; driving components leave their rows below */
        info->bounds.fx = rs->b1;
        info->bounds.fy = rs->b2;
        info->bounds.mz = rs->bspin;
        drive_components(ctx, p, dt, dyn1, dyn2, mu_k, N, xi, roll, &W, has_roll ? mw : NULL, wrel,
                         rs);
        ctx->counters.slip_steps++;
        p->state = next;
        info->state = next;
        return 1;
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
    pfOdeMobility mb1, mb2;
    pf_ode_mobility(p->b1, &mb1);
    pf_ode_mobility(p->b2, &mb2);
    cj.surface.slip1 = pf_ode_row_cfm(pf_ode_point_row_mobility(&mb1, &mb2, p->c, rs->t1), p->dt);
    cj.surface.slip2 = pf_ode_row_cfm(pf_ode_point_row_mobility(&mb1, &mb2, p->c, rs->t2), p->dt);
    cj.surface.mu = rs->b1 > 0.0 ? rs->b1 : 0.0;
    cj.surface.mu2 = rs->b2 > 0.0 ? rs->b2 : 0.0;
    cj.surface.motion1 = rs->m1;
    cj.surface.motion2 = rs->m2;
    cj.surface.motionN = -PF_ODE_INERT_NORMAL_VEL;
    /* the inert normal row is the same constraint as the patch's normal rows: it too gets the
     * relative CFM (pf_ode_rows.c), or a pivot on it is singular */
    double ncfm = pf_ode_row_cfm(pf_ode_point_row_mobility(&mb1, &mb2, p->c, p->n), p->dt);
    if (ncfm > 0.0) {
        cj.surface.mode |= dContactSoftCFM;
        cj.surface.soft_cfm = ncfm;
    }
    p->has_fric = 0;
    p->has_spin = 0;
    if (cj.surface.mu > 0.0 || cj.surface.mu2 > 0.0) {
        dJointID j = dJointCreateContact(ctx->world, p->group, &cj);
        dJointAttach(j, p->b1, p->b2);
        memset(&p->fb_fric, 0, sizeof p->fb_fric);
        dJointSetFeedback(j, &p->fb_fric);
        dJointSetData(j, ctx);
        p->has_fric = 1;
    }
    /* the angular rows in one angular motor (pf_ode_angular_rows): the spin motor while stuck,
     * the spin row (target 0) while sliding, the rolling rows (P18) */
    const double axis[3][3] = {{p->n[0], p->n[1], p->n[2]},
                               {rs->t1[0], rs->t1[1], rs->t1[2]},
                               {rs->t2[0], rs->t2[1], rs->t2[2]}};
    const double bound[3] = {rs->bspin, rs->broll1, rs->broll2};
    const double vel[3] = {rs->spin_motor ? rs->spin_vel : 0.0, 0.0, 0.0};
    dJointID j = pf_ode_angular_rows(ctx, p, &mb1, &mb2, axis, bound, vel, 3);
    if (j) {
        memset(&p->fb_spin, 0, sizeof p->fb_spin);
        dJointSetFeedback(j, &p->fb_spin);
        dJointSetData(j, ctx);
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
    /* one loop evaluates each patch and creates its rows at once. A later patch's stick test
     * meets the joints created earlier in this loop: they carry the context as joint data, so
     * classify_joint counts them as the adapter's contacts (loads from the previous step's
     * feedback), never as the user's motors (world joints) */
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        p->dt = dt;
        rowset rs;
        ctx->counters.patches++;
        p->solver_joint = 0;
        p->has_fric = p->has_spin = 0;
        int ok = evaluate(ctx, p, dt, &rs);
        const int stock = p->mat.mode == PF_ODE_MODE_STOCK;
        if (ctx->solver && !stock && ok && p->state != PF_ODE_STATE_POINT) {
            /* in-solver coupling: one patch joint carries the normal rows and the friction
             * block; the adapter keeps its drift targets (stick) and the rolling rows (P18,
             * bounded with the N estimate: the solver block has no rolling rows) */
            const int at_rest = p->state == PF_ODE_STATE_STICK;
            pf_ode_solver_create(ctx, p, at_rest ? rs.spin_vel : 0.0, at_rest ? rs.m1 : 0.0,
                                 at_rest ? rs.m2 : 0.0);
            if (rs.broll1 > 0.0 || rs.broll2 > 0.0) {
                rowset rr = rs;
                rr.b1 = rr.b2 = rr.bspin = 0.0;
                rr.spin_motor = 0;
                rr.m1 = rr.m2 = rr.spin_vel = 0.0;
                create_rows(ctx, p, &rr);
            }
        } else {
            if (!stock) pf_ode_create_normal_joints(ctx, p, 0);
            if (ok) create_rows(ctx, p, &rs);
        }
    }
    /* then the explicit (driving) friction components, after every evaluation so that no
     * patch's stick test or stored pre-step loads see them as user loads */
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (!p->has_drive) continue;
        const double *f = p->drive_f, *t = p->drive_t, *c = p->c;
        if (is_dynamic(p->b1)) {
            dBodyAddForceAtPos(p->b1, f[0], f[1], f[2], c[0], c[1], c[2]);
            dBodyAddTorque(p->b1, t[0], t[1], t[2]);
        }
        if (is_dynamic(p->b2)) {
            dBodyAddForceAtPos(p->b2, -f[0], -f[1], -f[2], c[0], c[1], c[2]);
            dBodyAddTorque(p->b2, -t[0], -t[1], -t[2]);
        }
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

/* Loads of the other constraints on body b during the step just taken (bodymodel's classes):
 * the feedback of LOAD joints, or, if the body has an UNKNOWN joint, the momentum balance
 *   m dv/dt = user + gravity + this pair + others  (and I dw/dt likewise, gyroscopic term dropped)
 * fown / town: this pair's force and torque on b. WORLD joints contribute nothing (projected). */
static void other_loads(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, const double *pre_v,
                        const double *pre_w, const double *pre_f, const double *pre_t,
                        const double *fown, const double *town, const double *g, double *of,
                        double *ot)
{
    int unknown = 0, nj = dBodyGetNumJoints(b);
    double f[3] = {0, 0, 0}, t[3] = {0, 0, 0};
    for (int i = 0; i < nj; ++i) {
        dJointID j = dBodyGetJoint(b, i);
        jclass jc = classify_joint(ctx, p, j, b);
        if (jc == JC_UNKNOWN) unknown = 1;
        if (jc != JC_LOAD) continue;
        const dJointFeedback *fb = dJointGetFeedback(j);
        if (joint_body_is_first(j, b)) {
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
        to_body_vec(b, dw, dwl);
        for (int i = 0; i < 3; ++i)
            Idw[i] = m.I[4 * i] * dwl[0] + m.I[4 * i + 1] * dwl[1] + m.I[4 * i + 2] * dwl[2];
        body_frame_vec(b, Idw, Idw);
        double gm = dBodyGetGravityMode(b) ? m.mass : 0.0, dt = p->dt;
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
        /* (with the in-solver coupling the normal rows are the patch joint's: fb[] is unused) */
        for (int i = 0; i < (p->solver_joint ? 0 : p->ncontacts); ++i) {
            nsum += p->fb[i].f1[0] * n[0] + p->fb[i].f1[1] * n[1] + p->fb[i].f1[2] * n[2];
            add3(fo1, p->fb[i].f1);
            add3(to1, p->fb[i].t1);
            add3(fo2, p->fb[i].f2);
            add3(to2, p->fb[i].t2);
        }
        if (p->solver_joint) {
            /* the patch joint's total force on body 1: normal rows along n, friction across */
            nsum = p->fb_patch.f1[0] * n[0] + p->fb_patch.f1[1] * n[1] + p->fb_patch.f1[2] * n[2];
        }
        if (!isfinite(nsum) || nsum < 0.0) nsum = 0.0;
        if (p->has_n)
            for (int k = PF_ODE_N_RECENT - 1; k > 0; --k)
                p->n_recent[k] = p->n_recent[k - 1];
        else
            for (int k = 0; k < PF_ODE_N_RECENT; ++k)
                p->n_recent[k] = nsum;
        p->n_recent[0] = nsum;
        p->n_meas = nsum;
        p->has_n = 1;
        p->info.normal_force_measured = nsum;
        if (p->mat.mode == PF_ODE_MODE_STOCK) {
            /* Report ODE's own friction like the patch modes do: the contacts' total force on
             * body 1, tangential part, and its moment about the normal through the centre
             * (normal forces have none), M_c = T_G + (G - c) x F. */
            p->info.normal_force = nsum;
            const double *G = p->pre_G1; /* feedback torques are about the pre-step G */
            const double *c = p->info.centre, *x = p->info.xaxis;
            double y[3], gc[3] = {G[0] - c[0], G[1] - c[1], G[2] - c[2]}, mc[3];
            pf_ode_cross(n, x, y);
            pf_ode_cross(gc, fo1, mc);
            for (int k = 0; k < 3; ++k)
                mc[k] += to1[k];
            pfWrench ws = {pf_ode_dot(fo1, x), pf_ode_dot(fo1, y), pf_ode_dot(mc, n)};
            if (isfinite(ws.fx) && isfinite(ws.fy) && isfinite(ws.mz)) p->info.wrench = ws;
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
        if (p->solver_joint) {
            add3(F, p->fb_patch.f1);
            add3(T, p->fb_patch.t1);
            add3(fo2, p->fb_patch.f2);
            add3(to2, p->fb_patch.t2);
            p->info.normal_force = nsum;
            /* the state of the step: the last projection's, unless the patch ends the step
             * moving (at the static threshold the solver's iterations can end on "stick" after
             * earlier ones let the patch go) */
            int sticks = p->solver_sticks;
            if (sticks) {
                pfTwist t = patch_twist(p, NULL, NULL, NULL);
                double tol = ctx->cfg.stick_velocity_tol;
                if (!(hypot(t.vx, t.vy) < tol && fabs(t.w) * p->rho_g < tol)) sticks = 0;
            }
            p->info.state = sticks ? PF_ODE_STATE_STICK : PF_ODE_STATE_SLIP;
        }
        /* ODE's feedback torque t1 is about G at the start of the step (the Jacobians are built
         * there); the post-step position would add (G1 - G0) x F = dt v x F to M_c */
        const double *G = p->pre_G1;
        if (p->has_drive) {
            /* the explicit part (drive_components), as body-1 force and moment about G, and its
             * opposite on body 2 about G2: T_G = t + (c - G) x f */
            double cg[3] = {p->c[0] - G[0], p->c[1] - G[1], p->c[2] - G[2]}, m1[3];
            pf_ode_cross(cg, p->drive_f, m1);
            for (int k = 0; k < 3; ++k) {
                F[k] += p->drive_f[k];
                T[k] += p->drive_t[k] + m1[k];
            }
            if (is_dynamic(p->b2)) {
                const double *G2 = p->pre_G2;
                double cg2[3] = {p->c[0] - G2[0], p->c[1] - G2[1], p->c[2] - G2[2]}, m2[3];
                pf_ode_cross(cg2, p->drive_f, m2);
                for (int k = 0; k < 3; ++k) {
                    fo2[k] -= p->drive_f[k];
                    to2[k] -= p->drive_t[k] + m2[k];
                }
            }
        }
        for (int k = 0; k < 3; ++k) {
            fo1[k] += F[k];
            to1[k] += T[k];
        }
        /* wrench about the patch centre: M_c = M_G + (G - c) x F */
        double gc[3] = {G[0] - p->c[0], G[1] - p->c[1], G[2] - p->c[2]}, mc[3];
        pf_ode_cross(gc, F, mc);
        for (int k = 0; k < 3; ++k)
            mc[k] += T[k];
        p->info.wrench.fx = pf_ode_dot(F, p->x);
        p->info.wrench.fy = pf_ode_dot(F, p->y);
        p->info.wrench.mz = pf_ode_dot(mc, p->n);

        /* other constraints' loads on the two bodies for the next step's stick test */
        p->has_other = 0;
        if (p->dt > 0.0 && is_dynamic(p->b1)) {
            other_loads(ctx, p, p->b1, p->pre_v1, p->pre_w1, p->pre_f1, p->pre_t1, fo1, to1, g,
                        p->other_f1, p->other_t1);
            p->has_other = 1;
        }
        if (p->dt > 0.0 && is_dynamic(p->b2)) {
            other_loads(ctx, p, p->b2, p->pre_v2, p->pre_w2, p->pre_f2, p->pre_t2, fo2, to2, g,
                        p->other_f2, p->other_t2);
            p->has_other = 1;
        }
        p->fresh = 0;
    }
    return PF_OK;
}
