/* ODE adapter: the mobility model of the bodies under a patch, as the stick test and the slip
 * predictor see them (inverse mass and inertia, the patch's own support, the rows of the other
 * joints that restrict the motion), and the patch's Delassus block and frictionless acceleration
 * built from it. Read-only on the world: nothing here creates joints or changes a body. */
#include "pf_ode_model.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Inertia about the unit axis n through the mass centre, world frame. */
double pf_ode_axial_inertia(dBodyID b, const dMass *m, const double *n)
{
    double nl[3];
    pf_ode_to_body_vec(b, n, nl);
    double s = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            s += nl[i] * m->I[4 * i + j] * nl[j];
    return s;
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

/* A new row whose M^-1-norm drops below this fraction of its own norm after Gram-Schmidt is
 * dependent on the rows already kept (redundant constraint). Not near rounding: joint axes read
 * back from ODE drift with the solver's error (QuickStep: ~1e-9 rad), and a piston's horizontal
 * rows tilted by 1e-9 against the patch's own must not count as a sixth, independent row (it
 * would lock the body's last freedom). 1e-3: rows within ~0.06 degrees of the span are one. */
#define PF_ODE_DEPENDENT_ROW 1e-3

static int pair_owns(const pfOdePair *p, const dJointFeedback *fb)
{
    if (fb == &p->step.fb_fric || fb == &p->step.fb_spin || fb == &p->step.fb_patch) return 1;
    /* one of the contacts' fb[] (addresses as integers: fb need not point into the array) */
    const uintptr_t a = (uintptr_t)fb, lo = (uintptr_t)&p->step.fb[0];
    return a >= lo && a < lo + sizeof p->step.fb && (a - lo) % sizeof p->step.fb[0] == 0;
}

/* ODE writes f1/t1 for node[0]: the first body, or the only one (dJointAttach swaps a NULL
 * first body, ode.cpp). */
int pf_ode_joint_body_is_first(dJointID j, dBodyID b)
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

pfOdeJointClass pf_ode_classify_joint(const pfOdeContext *ctx, const pfOdePair *p, dJointID j,
                                      dBodyID b)
{
    if (!dJointIsEnabled(j)) return PF_ODE_JOINT_IGNORE;
    dJointFeedback *fb = dJointGetFeedback(j);
    if (dJointGetData(j) == (void *)ctx) {
        if (fb && pair_owns(p, fb)) return PF_ODE_JOINT_OWN;
        return fb ? PF_ODE_JOINT_LOAD : PF_ODE_JOINT_UNKNOWN;
    }
    dBodyID a0 = dJointGetBody(j, 0), a1 = dJointGetBody(j, 1);
    dBodyID other = a0 == b ? a1 : a0;
    if (!pf_ode_is_dynamic(other) && world_type(j)) return PF_ODE_JOINT_WORLD;
    return fb ? PF_ODE_JOINT_LOAD : PF_ODE_JOINT_UNKNOWN;
}

/* Adds a load joint's last force and torque on its body b (pf_ode_load_sum). Which side of the
 * feedback is b's is read from ODE when first needed: a pair's own joints are not summed for it,
 * and a body with one pair never needs theirs. */
static void add_load(pfOdeLoadJoint *lj, dBodyID b, double *f, double *t)
{
    if (lj->first < 0) lj->first = pf_ode_joint_body_is_first(lj->joint, b);
    const dReal *jf = lj->first ? lj->fb->f1 : lj->fb->f2;
    const dReal *jt = lj->first ? lj->fb->t1 : lj->fb->t2;
    for (int k = 0; k < 3; ++k) {
        f[k] += jf[k];
        t[k] += jt[k];
    }
}

/* Body b's joints as pf_ode_classify_joint sorts them, but for which pair asks: the ones whose
 * feedback is a load (LOAD, or OWN for the pair they belong to) in the list's order, and whether
 * one is UNKNOWN; kept per body within one pf_ode_after_step call (the joint list's lifetime).
 * The first pair to ask builds the list and sums its loads in the same pass, so a body with one
 * pair pays no more than a sum joint by joint. */
int pf_ode_load_sum(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, double *f, double *t,
                    int *unknown)
{
    pfOdeBodyEntry *e = ctx->lists_ok && ctx->model_epoch ? pf_ode_body_entry(ctx, b) : NULL;
    pfOdeScratch *sc = ctx->scratch;
    if (!e || !sc) return 0;
    if (e->loads_epoch == ctx->model_epoch) {
        pfOdeLoadJoint *lj = sc->loads + e->loads_off;
        for (int i = 0; i < e->loads_n; ++i)
            if (!(lj[i].adapter && pair_owns(p, lj[i].fb))) add_load(&lj[i], b, f, t); /* not OWN */
        *unknown = e->loads_unknown;
        return 1;
    }
    const dJointID *list = NULL;
    const int nj = pf_ode_entry_joint_list(ctx, e, b, &list);
    if (nj < 0) return 0;
    if (sc->loads_len + nj > sc->loads_cap) {
        int ncap = sc->loads_cap ? sc->loads_cap : 256;
        while (ncap < sc->loads_len + nj)
            ncap *= 2;
        pfOdeLoadJoint *nl = realloc(sc->loads, (size_t)ncap * sizeof *nl);
        if (!nl) return 0;
        sc->loads = nl;
        sc->loads_cap = ncap;
    }
    pfOdeLoadJoint *out = sc->loads + sc->loads_len;
    int n = 0, unk = 0, world = 0;
    for (int i = 0; i < nj; ++i) {
        /* pf_ode_classify_joint's cases; the pair's own (OWN) are kept for the other pairs */
        dJointID j = list[i];
        if (!dJointIsEnabled(j)) continue; /* IGNORE */
        const dJointFeedback *fb = dJointGetFeedback(j);
        const int adapter = dJointGetData(j) == (void *)ctx;
        int first = -1;
        if (!adapter) {
            dBodyID a0 = dJointGetBody(j, 0);
            dBodyID other = a0 == b ? dJointGetBody(j, 1) : a0;
            if (!pf_ode_is_dynamic(other) && world_type(j)) { /* WORLD */
                world = 1;
                continue;
            }
            first = a0 == b || a0 == NULL; /* pf_ode_joint_body_is_first */
        }
        if (!fb) {
            unk = 1; /* UNKNOWN */
            continue;
        }
        out[n].joint = j;
        out[n].fb = fb;
        out[n].first = first;
        out[n].adapter = adapter;
        if (!(adapter && pair_owns(p, fb))) add_load(&out[n], b, f, t); /* not OWN */
        n++;
    }
    e->loads_epoch = ctx->model_epoch;
    e->loads_off = sc->loads_len;
    e->loads_n = n;
    e->loads_unknown = unk;
    e->loads_world = world;
    sc->loads_len += n;
    *unknown = unk;
    return 1;
}

void pf_ode_model_minv_apply(const pfOdeBodyModel *bm, const double *x, double *out)
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
void pf_ode_model_add_row(pfOdeBodyModel *bm, const double *row)
{
    if (bm->nq >= PF_ODE_MODEL_ROWS) return;
    double r[6], mr[6];
    memcpy(r, row, sizeof r);
    pf_ode_model_minv_apply(bm, r, mr);
    double n0 = dot6(r, mr);
    if (!(n0 > 0.0)) return;
    for (int k = 0; k < bm->nq; ++k) {
        double c = dot6(bm->u[k], r); /* <q_k, r> = q_k^T M^-1 r */
        for (int i = 0; i < 6; ++i)
            r[i] -= c * bm->q[k][i];
    }
    pf_ode_model_minv_apply(bm, r, mr);
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
void pf_ode_model_point_row(pfOdeBodyModel *bm, const double *P, const double *d)
{
    double r[6], rp[3] = {P[0] - bm->G[0], P[1] - bm->G[1], P[2] - bm->G[2]};
    r[0] = d[0];
    r[1] = d[1];
    r[2] = d[2];
    pf_ode_cross(rp, d, r + 3);
    pf_ode_model_add_row(bm, r);
}

void pf_ode_model_ang_row(pfOdeBodyModel *bm, const double *e)
{
    double r[6] = {0, 0, 0, e[0], e[1], e[2]};
    pf_ode_model_add_row(bm, r);
}

/* P x = M^-1 x - sum_k u_k (u_k . x) */
void pf_ode_model_project(const pfOdeBodyModel *bm, const double *x, double *out)
{
    pf_ode_model_minv_apply(bm, x, out);
    for (int k = 0; k < bm->nq; ++k) {
        double c = dot6(bm->u[k], x);
        for (int i = 0; i < 6; ++i)
            out[i] -= c * bm->u[k][i];
    }
}

void pf_ode_model_joint_rows(pfOdeBodyModel *bm, dJointID j, dBodyID b)
{
    static const double E[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int first = pf_ode_joint_body_is_first(j, b);
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
        pf_ode_to3(a, A);
        pf_ode_to3(p1, P1);
        pf_ode_to3(p2, P2);
        for (int k = 0; k < 3; ++k)
            pf_ode_model_point_row(bm, A, E[k]);
        pf_ode_model_ang_row(bm, P1);
        pf_ode_model_ang_row(bm, P2);
        break;
    case dJointTypeBall:
        if (first)
            dJointGetBallAnchor(j, a);
        else
            dJointGetBallAnchor2(j, a);
        pf_ode_to3(a, A);
        for (int k = 0; k < 3; ++k)
            pf_ode_model_point_row(bm, A, E[k]);
        break;
    case dJointTypeSlider:
        dJointGetSliderAxis(j, ax);
        dPlaneSpace(ax, p1, p2);
        pf_ode_to3(p1, P1);
        pf_ode_to3(p2, P2);
        for (int k = 0; k < 3; ++k)
            pf_ode_model_ang_row(bm, E[k]);
        pf_ode_model_point_row(bm, bm->G, P1);
        pf_ode_model_point_row(bm, bm->G, P2);
        break;
    case dJointTypePiston:
        if (first)
            dJointGetPistonAnchor(j, a);
        else
            dJointGetPistonAnchor2(j, a);
        dJointGetPistonAxis(j, ax);
        dPlaneSpace(ax, p1, p2);
        pf_ode_to3(a, A);
        pf_ode_to3(p1, P1);
        pf_ode_to3(p2, P2);
        pf_ode_model_point_row(bm, A, P1);
        pf_ode_model_point_row(bm, A, P2);
        pf_ode_model_ang_row(bm, P1);
        pf_ode_model_ang_row(bm, P2);
        break;
    case dJointTypeFixed:
        for (int k = 0; k < 3; ++k) {
            pf_ode_model_point_row(bm, bm->G, E[k]);
            pf_ode_model_ang_row(bm, E[k]);
        }
        break;
    case dJointTypeLMotor:
        for (int i = 0; i < dJointGetLMotorNumAxes(j); ++i) {
            if (!(dJointGetLMotorParam(j, dParamFMax + dParamGroup * i) > 0.0)) continue;
            dJointGetLMotorAxis(j, i, ax);
            pf_ode_to3(ax, X);
            pf_ode_model_point_row(bm, bm->G, X);
        }
        break;
    case dJointTypeAMotor:
        for (int i = 0; i < dJointGetAMotorNumAxes(j); ++i) {
            if (!(dJointGetAMotorParam(j, dParamFMax + dParamGroup * i) > 0.0)) continue;
            dJointGetAMotorAxis(j, i, ax);
            pf_ode_to3(ax, X);
            pf_ode_model_ang_row(bm, X);
        }
        break;
    default:
        break;
    }
}

/* A free body's model from its mobility. */
static void model_from(pfOdeBodyModel *bm, const pfOdeMobility *mob)
{
    memset(bm, 0, sizeof *bm);
    memcpy(bm->G, mob->G, sizeof bm->G);
    bm->im = mob->im;
    memcpy(bm->iinv, mob->iinv, sizeof bm->iinv);
}

void pf_ode_model_init(pfOdeBodyModel *bm, dBodyID b)
{
    pfOdeMobility mob;
    pf_ode_mobility(b, &mob);
    model_from(bm, &mob);
}

/* Body b's mobility, computed once per tracked body (e: its entry, or NULL) within one
 * pf_ode_before_step or pf_ode_after_step call: nothing there moves a body or changes its mass,
 * and each patch on it builds its model several times. */
static void body_mobility(const pfOdeContext *ctx, pfOdeBodyEntry *e, dBodyID b, pfOdeMobility *mob)
{
    if (e && e->mob_epoch == ctx->model_epoch) {
        *mob = e->mob;
        return;
    }
    pf_ode_mobility(b, mob);
    if (e) {
        e->mob = *mob;
        e->mob_epoch = ctx->model_epoch;
    }
}

void pf_ode_body_mobility(const pfOdeContext *ctx, dBodyID b, pfOdeMobility *m)
{
    body_mobility(ctx, ctx && ctx->model_epoch && b ? pf_ode_body_entry(ctx, b) : NULL, b, m);
}

/* The joints of body b that the mobility model reads: whether one is UNKNOWN, and the WORLD
 * ones (the first PF_ODE_BODY_WORLD of them in world[], in the list's order; *nworld counts them
 * all). These are the user's joints: the adapter's own carry the context and feedback (OWN or
 * LOAD), so the joints it creates during pf_ode_before_step change nothing here. Within one
 * pf_ode_before_step or pf_ode_after_step call (model_epoch) they are read once per tracked body
 * and kept in its entry e (NULL: none): dBodyGetJoint walks ODE's list from its head, a body in a
 * pile has dozens of contact joints, and each patch builds its bodies' models several times. */
static void body_joints(const pfOdeContext *ctx, pfOdeBodyEntry *e, const pfOdePair *p, dBodyID b,
                        int *unknown, dJointID *world, int *nworld)
{
    if (e && e->joints_epoch == ctx->model_epoch) {
        *unknown = e->joints_unknown;
        *nworld = e->joints_nworld;
        memcpy(world, e->joints_world, sizeof e->joints_world);
        return;
    }
    *unknown = *nworld = 0;
    /* (pf_ode_after_step's list when there is one: dBodyGetJoint(b, i) walks i nodes) */
    const dJointID *list = NULL;
    int nj = ctx ? pf_ode_body_joint_list(ctx, b, &list) : -1;
    if (nj < 0) nj = dBodyGetNumJoints(b);
    for (int i = 0; i < nj && !*unknown; ++i) {
        dJointID j = list ? list[i] : dBodyGetJoint(b, i);
        pfOdeJointClass jc = pf_ode_classify_joint(ctx, p, j, b);
        *unknown = jc == PF_ODE_JOINT_UNKNOWN;
        if (jc == PF_ODE_JOINT_WORLD && ++*nworld <= PF_ODE_BODY_WORLD) world[*nworld - 1] = j;
    }
    if (e) {
        e->joints_epoch = ctx->model_epoch;
        e->joints_unknown = *unknown;
        e->joints_nworld = *nworld;
        memcpy(e->joints_world, world, sizeof e->joints_world);
    }
}

/* The last body model built for each side of a pair within one pf_ode_before_step or
 * pf_ode_after_step call (model_epoch): a patch's stick test (twice for a sliding patch: the
 * stopping test, then the hold test), its slip prediction and its Delassus block each read the
 * same two models, and nothing they depend on changes within the call (the pair's frame is set at
 * collide; the bodies' mobility and joints are read once per call, body_mobility and
 * body_joints). */
typedef struct pfOdeModelSlot {
    const pfOdePair *p;
    dBodyID b;
    unsigned long epoch; /* the model_epoch it was built in (0: empty) */
    pfOdeBodyModel bm;
} pfOdeModelSlot;

/* The last patch Delassus block built (pf_ode_patch_block_loads), for the pair and the bodies'
 * dynamic flags it was built with: the slip prediction, its implicit fixed point and the explicit
 * driving part each read it (pf_ode_patch_delassus). With it the loads it was built for and its
 * accelerations under them: a sliding patch's stopping test, its hold test and its slip
 * prediction each ask for the block under the same loads (a function of the models, the frame
 * and the loads alone, so an equal key gives the same numbers). */
typedef struct pfOdeBlockSlot {
    const pfOdePair *p;
    int dyn1, dyn2;
    unsigned long epoch; /* the model_epoch it was built in (0: empty) */
    double A[9];
    double loads[12]; /* f1, t1, f2, t2 (a side that is not dynamic: zeros) */
    double af[3], araw[3];
} pfOdeBlockSlot;

struct pfOdeModelCache {
    pfOdeModelSlot side[2]; /* the pair's body 1, body 2 */
    pfOdeBlockSlot block;
};

/* The context's model cache, or NULL outside a call or without memory. */
static struct pfOdeModelCache *model_cache(const pfOdeContext *ctx)
{
    if (!ctx || !ctx->model_epoch || !ctx->scratch) return NULL;
    pfOdeScratch *sc = ctx->scratch;
    if (!sc->models) sc->models = calloc(1, sizeof *sc->models);
    return sc->models;
}

/* The slot of p's body b, or NULL outside a call or without memory. */
static pfOdeModelSlot *model_slot(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b)
{
    struct pfOdeModelCache *mc = model_cache(ctx);
    return mc ? &mc->side[b == p->step.b1 ? 0 : 1] : NULL;
}

static void build_model(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, pfOdeBodyModel *bm);

void pf_ode_body_model(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, pfOdeBodyModel *bm)
{
    pfOdeModelSlot *slot = model_slot(ctx, p, b);
    if (slot && slot->epoch == ctx->model_epoch && slot->p == p && slot->b == b) {
        *bm = slot->bm;
        return;
    }
    build_model(ctx, p, b, bm);
    if (slot) {
        slot->p = p;
        slot->b = b;
        slot->epoch = ctx->model_epoch;
        slot->bm = *bm;
    }
}

/* Mobility model of a dynamic body for patch p: inverse mass, patch support, WORLD joints. */
static void build_model(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, pfOdeBodyModel *bm)
{
    /* the body's entry, which keeps its mobility and joints within one call (model_epoch) */
    pfOdeBodyEntry *e = ctx && ctx->model_epoch ? pf_ode_body_entry(ctx, b) : NULL;
    pfOdeMobility mob;
    body_mobility(ctx, e, b, &mob);
    model_from(bm, &mob);
    /* the patch's own support */
    pf_ode_model_point_row(bm, p->step.c, p->step.n);
    pf_ode_model_ang_row(bm, p->step.x);
    pf_ode_model_ang_row(bm, p->step.y);
    int unknown = 0, nworld = 0;
    dJointID world[PF_ODE_BODY_WORLD] = {0};
    body_joints(ctx, e, p, b, &unknown, world, &nworld);
    if (unknown) {
        bm->unknown = 1;
        return;
    }
    const int base = bm->nq;
    for (int i = 0; i < nworld && i < PF_ODE_BODY_WORLD; ++i)
        pf_ode_model_joint_rows(bm, world[i], b);
    /* (the joint count only when it is needed: dBodyGetNumJoints walks the body's list) */
    for (int i = 0, seen = 0, nj = nworld > PF_ODE_BODY_WORLD ? dBodyGetNumJoints(b) : 0; i < nj;
         ++i) {
        dJointID j = dBodyGetJoint(b, i);
        if (pf_ode_classify_joint(ctx, p, j, b) == PF_ODE_JOINT_WORLD && ++seen > PF_ODE_BODY_WORLD)
            pf_ode_model_joint_rows(bm, j, b);
    }
    bm->world_rows = bm->nq - base;
}

/* Patch rows of body b in twist coordinates (vx, vy, w) at c: J_i = (e_i, (c - G) x e_i) for the
 * tangents, (0, n) for the spin. Adds sign * J P J^T to A, sign * J P L to a and
 * sign * J M^-1 L to araw. */
static void patch_rows(const pfOdeBodyModel *bm, const pfOdePair *p, double J[3][6])
{
    double r[3] = {p->step.c[0] - bm->G[0], p->step.c[1] - bm->G[1], p->step.c[2] - bm->G[2]};
    const double *e[2] = {p->step.x, p->step.y};
    for (int i = 0; i < 2; ++i) {
        memcpy(J[i], e[i], 3 * sizeof(double));
        pf_ode_cross(r, e[i], J[i] + 3);
    }
    J[2][0] = J[2][1] = J[2][2] = 0.0;
    memcpy(J[2] + 3, p->step.n, 3 * sizeof(double));
}

void pf_ode_model_patch_block(const pfOdeBodyModel *bm, const pfOdePair *p, const double *f,
                              const double *t, double sign, double *A, double *a, double *araw)
{
    double J[3][6], PJ[3][6];
    patch_rows(bm, p, J);
    double L[6] = {f[0], f[1], f[2], t[0], t[1], t[2]}, PL[6], ML[6];
    pf_ode_model_project(bm, L, PL);
    pf_ode_model_minv_apply(bm, L, ML);
    for (int i = 0; i < 3; ++i)
        pf_ode_model_project(bm, J[i], PJ[i]);
    for (int i = 0; i < 3; ++i) {
        a[i] += sign * dot6(J[i], PL);
        araw[i] += sign * dot6(J[i], ML);
        for (int k = 0; k < 3; ++k)
            A[3 * i + k] += dot6(J[i], PJ[k]); /* A adds for both bodies (relative twist) */
    }
}

/* The diagonal of pf_ode_model_patch_block's J P J^T alone, by the same operations (so equal to
 * what that block adds to a zero A, up to the sign of a zero): the holder test reads only this
 * trace, and skips the loads and the off-diagonal products. */
void pf_ode_model_patch_diag(const pfOdeBodyModel *bm, const pfOdePair *p, double *d)
{
    double J[3][6], PJ[6];
    patch_rows(bm, p, J);
    for (int i = 0; i < 3; ++i) {
        pf_ode_model_project(bm, J[i], PJ);
        d[i] = dot6(J[i], PJ);
    }
}

/* Bounds on the trace of pf_ode_model_patch_diag for a body with only the patch's support rows
 * (no WORLD or UNKNOWN joint), cheaper than the model. Upper: P <= M^-1, so the trace is at most
 * that of J M^-1 J^T. Lower: 1 / (J_x P J_x^T) is the least kinetic energy m v^T M v of a body
 * motion the rows allow with unit velocity of c along x, and a translation along x is allowed (no
 * normal velocity at c, no tipping) with energy m: so J_x P J_x^T >= 1/m, likewise along y. */
int pf_ode_model_patch_trace_bounds(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b,
                                    double rr, double *lo, double *hi)
{
    pfOdeBodyEntry *e = ctx && ctx->model_epoch ? pf_ode_body_entry(ctx, b) : NULL;
    if (e && e->loads_epoch == ctx->model_epoch) {
        /* (pf_ode_load_sum sorted the body's joints in this call, as body_joints would) */
        if (e->loads_unknown || e->loads_world) return 0;
    } else {
        int unknown = 0, nworld = 0;
        dJointID world[PF_ODE_BODY_WORLD] = {0};
        body_joints(ctx, e, p, b, &unknown, world, &nworld);
        if (unknown || nworld > 0) return 0;
    }
    pfOdeMobility mob;
    body_mobility(ctx, e, b, &mob);
    /* J M^-1 J^T's diagonal: 1/m + (r x e)^T I^-1 (r x e) for the tangents e, n^T I^-1 n */
    const double r[3] = {p->step.c[0] - mob.G[0], p->step.c[1] - mob.G[1], p->step.c[2] - mob.G[2]};
    const double *axis[3] = {p->step.x, p->step.y, p->step.n};
    double d[3];
    for (int i = 0; i < 3; ++i) {
        double a[3], Ia[3];
        if (i < 2)
            pf_ode_cross(r, axis[i], a);
        else
            memcpy(a, axis[i], sizeof a);
        for (int k = 0; k < 3; ++k)
            Ia[k] =
                mob.iinv[3 * k] * a[0] + mob.iinv[3 * k + 1] * a[1] + mob.iinv[3 * k + 2] * a[2];
        d[i] = (i < 2 ? mob.im * pf_ode_dot(axis[i], axis[i]) : 0.0) + pf_ode_dot(a, Ia);
    }
    *lo = 2.0 * mob.im;
    *hi = d[0] + d[1] + rr * d[2];
    return 1;
}

/* Symmetric 3x3 eigen-decomposition by cyclic Jacobi: A = V diag(l) V^T (V columns). */
int pf_ode_spd_solve3(const double A[9], const double b[3], double x[3])
{
    double l00 = A[0] > 0.0 ? sqrt(A[0]) : 0.0;
    if (!(l00 > 0.0)) return 0;
    double l10 = A[3] / l00, l20 = A[6] / l00, d1 = A[4] - l10 * l10;
    if (!(d1 > 0.0)) return 0;
    double l11 = sqrt(d1), l21 = (A[7] - l20 * l10) / l11, d2 = A[8] - l20 * l20 - l21 * l21;
    if (!(d2 > 0.0)) return 0;
    double l22 = sqrt(d2);
    double y0 = b[0] / l00, y1 = (b[1] - l10 * y0) / l11, y2 = (b[2] - l20 * y0 - l21 * y1) / l22;
    x[2] = y2 / l22;
    x[1] = (y1 - l21 * x[2]) / l11;
    x[0] = (y0 - l10 * x[1] - l20 * x[2]) / l00;
    return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]);
}

void pf_ode_jacobi3(const double *Ain, double *l, double *V)
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
void pf_ode_regularise_block(double *A, double *a, const double *araw, double L,
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
    pf_ode_jacobi3(As, l, V);
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

/* Whether every joint on body b is the adapter's (carries the context as joint data). Within one
 * pf_ode_before_step or pf_ode_after_step call the answer is kept in b's entry: the joints the
 * adapter creates during the call are its own and leave it unchanged, and the walk costs a
 * dBodyGetJoint per joint, each from the list's head. */
static int adapter_joints_only(const pfOdeContext *ctx, dBodyID b)
{
    pfOdeBodyEntry *e = ctx && ctx->model_epoch ? pf_ode_body_entry(ctx, b) : NULL;
    if (e && e->own_epoch == ctx->model_epoch) return e->own_only;
    int own = 1, nj = dBodyGetNumJoints(b);
    for (int i = 0; i < nj && own; ++i)
        own = dJointGetData(dBodyGetJoint(b, i)) == (void *)ctx;
    if (e) {
        e->own_epoch = ctx->model_epoch;
        e->own_only = own;
    }
    return own;
}

/* Frictionless relative acceleration of the patch, (ax, ay, alpha) in the patch frame, given the
 * other constraints (pfOdeBodyModel; the same a_free as the generalised stick test, without the
 * rounding clean-up of pf_ode_regularise_block, which only matters for a stick decision). */
void pf_ode_patch_free_accel(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                             const double *f1, const double *t1, const double *f2, const double *t2,
                             double *af)
{
    af[0] = af[1] = af[2] = 0.0;
    if (dyn1 && !dyn2) {
        /* fast path (the common case, and the benchmark's): a body on the static world under
         * the adapter's own contact joints only is P10-P13's planar body, as in the stick test:
         * a_c = F/m + alpha z x (c - G), alpha = M_G / J, J = n^T I n */
        if (adapter_joints_only(ctx, p->step.b1)) {
            dMass m;
            dBodyGetMass(p->step.b1, &m);
            const dReal *gp = dBodyGetPosition(p->step.b1);
            double g[3] = {gp[0] - p->step.c[0], gp[1] - p->step.c[1], gp[2] - p->step.c[2]};
            double gx = pf_ode_dot(g, p->step.x), gy = pf_ode_dot(g, p->step.y);
            double alpha =
                pf_ode_dot(t1, p->step.n) / pf_ode_axial_inertia(p->step.b1, &m, p->step.n);
            af[0] = pf_ode_dot(f1, p->step.x) / m.mass + alpha * gy;
            af[1] = pf_ode_dot(f1, p->step.y) / m.mass - alpha * gx;
            af[2] = alpha;
            return;
        }
    }
    double A[9], araw[3];
    pf_ode_patch_block_loads(ctx, p, dyn1, dyn2, f1, t1, f2, t2, A, af, araw);
}

void pf_ode_patch_block_loads(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                              const double *f1, const double *t1, const double *f2,
                              const double *t2, double *A, double *af, double *araw)
{
    /* the key: the loads of the dynamic sides, bit for bit (memcmp) */
    double key[12] = {0.0};
    if (dyn1) {
        memcpy(key, f1, 3 * sizeof *key);
        memcpy(key + 3, t1, 3 * sizeof *key);
    }
    if (dyn2) {
        memcpy(key + 6, f2, 3 * sizeof *key);
        memcpy(key + 9, t2, 3 * sizeof *key);
    }
    struct pfOdeModelCache *mc = model_cache(ctx);
    if (mc && mc->block.epoch == ctx->model_epoch && mc->block.p == p && mc->block.dyn1 == dyn1 &&
        mc->block.dyn2 == dyn2 && memcmp(mc->block.loads, key, sizeof key) == 0) {
        memcpy(A, mc->block.A, sizeof mc->block.A);
        memcpy(af, mc->block.af, sizeof mc->block.af);
        memcpy(araw, mc->block.araw, sizeof mc->block.araw);
        return;
    }
    pfOdeBodyModel bm;
    memset(A, 0, 9 * sizeof *A);
    af[0] = af[1] = af[2] = 0.0;
    araw[0] = araw[1] = araw[2] = 0.0;
    if (dyn1) {
        pf_ode_body_model(ctx, p, p->step.b1, &bm);
        pf_ode_model_patch_block(&bm, p, f1, t1, 1.0, A, af, araw);
    }
    if (dyn2) {
        pf_ode_body_model(ctx, p, p->step.b2, &bm);
        pf_ode_model_patch_block(&bm, p, f2, t2, -1.0, A, af, araw);
    }
    /* (A does not depend on the loads: it is pf_ode_patch_delassus's block) */
    if (mc) {
        mc->block.p = p;
        mc->block.dyn1 = dyn1;
        mc->block.dyn2 = dyn2;
        mc->block.epoch = ctx->model_epoch;
        memcpy(mc->block.A, A, sizeof mc->block.A);
        memcpy(mc->block.loads, key, sizeof key);
        memcpy(mc->block.af, af, sizeof mc->block.af);
        memcpy(mc->block.araw, araw, sizeof mc->block.araw);
    }
}

/* Delassus block of the patch rows in twist coordinates (vx, vy, w) at c, patch frame: the
 * relative twist change per unit wrench (fx, fy, mz) on body 1 (its opposite on body 2), given
 * the other constraints (pfOdeBodyModel). */
void pf_ode_patch_delassus(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                           double *A)
{
    static const double zero[3] = {0, 0, 0};
    const struct pfOdeModelCache *mc = model_cache(ctx);
    if (mc && mc->block.epoch == ctx->model_epoch && mc->block.p == p && mc->block.dyn1 == dyn1 &&
        mc->block.dyn2 == dyn2) {
        memcpy(A, mc->block.A, sizeof mc->block.A);
        return;
    }
    double a[3], araw[3];
    pf_ode_patch_block_loads(ctx, p, dyn1, dyn2, zero, zero, zero, zero, A, a, araw);
}
