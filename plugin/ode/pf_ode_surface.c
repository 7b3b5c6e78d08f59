/* ODE adapter: per-pair materials and the contact surface parameters (soft contact, restitution,
 * surface motion).
 *
 * Soft contact and restitution act on the patch's normal rows, which are ODE contact joints: the
 * adapter sets ODE's own flags on them (dContactSoftERP / SoftCFM / Bounce), so ODE's mapping
 * holds (docs/physics.md P43, P44): a row with ERP e and CFM c at step dt is a spring
 * k = e / (dt c) and a damper (1 - e) / c. The patch's compliance is shared by its n loaded
 * points (each row gets c n), so the patch, not each point, is the spring the user asked for:
 * k = e / (dt c) whatever number of points dCollide returns for the pair this step.
 *
 * Surface motion acts on the friction, which is the adapter's own (pf_ode_step.c; P45): with geom
 * surfaces moving at u1 and u2 (in the patch plane), the surfaces do not slip when the bodies'
 * relative velocity at the patch centre is s = u2 - u1. So the twist the stick test and the slip
 * wrench see is the body twist less s, every friction row's target velocity is s plus its drift
 * correction, and a held patch's anchors ride with the surfaces (each anchor moves by its
 * surface's velocity over the step just taken), so a box held on a belt follows the belt, not
 * the belt's frame: its drift from the anchor, and hence its creep relative to the belt, stays
 * at the solver's residual. ODE's own friction rows (stock mode, a degenerate patch) get the same
 * s as dContactMotion1 / dContactMotion2. */
#include "pf_ode_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest CFM handed to ODE [m/(N s)]: a row this soft carries no force worth the name. */
#define PF_ODE_SURFACE_MAX_CFM 1e30

static void fail(pfError *err, int status, const char *field, const char *msg, double v)
{
    if (!err) return;
    err->status = status;
    snprintf(err->field, sizeof err->field, "%s", field);
    snprintf(err->message, sizeof err->message, "%s = %g %s", field, v, msg);
}

static void clear(pfError *err)
{
    if (!err) return;
    err->status = PF_OK;
    err->field[0] = '\0';
    err->message[0] = '\0';
}

int pf_ode_surface_validate(const pfOdeSurface *sf, pfError *err)
{
    static const char *const vel[3] = {"surface.velocity[0]", "surface.velocity[1]",
                                       "surface.velocity[2]"};
    const struct {
        const char *field;
        double v, lo, hi;
        const char *range;
    } f[4] = {
        {"surface.soft_erp", sf->soft_erp, 0.0, 1.0, "is out of range (must be in [0, 1])"},
        {"surface.soft_cfm", sf->soft_cfm, 0.0, INFINITY, "is out of range (must be >= 0)"},
        {"surface.bounce", sf->bounce, 0.0, 1.0, "is out of range (must be in [0, 1])"},
        {"surface.bounce_vel", sf->bounce_vel, 0.0, INFINITY, "is out of range (must be >= 0)"},
    };
    for (int i = 0; i < 4; ++i) {
        if (!isfinite(f[i].v)) {
            fail(err, PF_ERR_NOT_FINITE, f[i].field, "is not finite", f[i].v);
            return PF_ERR_NOT_FINITE;
        }
        if (!(f[i].v >= f[i].lo && f[i].v <= f[i].hi)) {
            fail(err, PF_ERR_RANGE, f[i].field, f[i].range, f[i].v);
            return PF_ERR_RANGE;
        }
    }
    for (int k = 0; k < 3; ++k)
        if (!isfinite(sf->velocity[k])) {
            fail(err, PF_ERR_NOT_FINITE, vel[k], "is not finite", sf->velocity[k]);
            return PF_ERR_NOT_FINITE;
        }
    return PF_OK;
}

int pf_ode_surface_check_coupling(const pfOdeContext *ctx, const pfOdeMaterial *m, pfError *err)
{
    if (!ctx->solver) return PF_OK;
    const pfOdeSurface *sf = &m->surface;
    const char *field = NULL;
    double v = 0.0;
    if (sf->soft_erp != 0.0)
        field = "surface.soft_erp", v = sf->soft_erp;
    else if (sf->soft_cfm != 0.0)
        field = "surface.soft_cfm", v = sf->soft_cfm;
    else if (sf->bounce != 0.0)
        field = "surface.bounce", v = sf->bounce;
    else if (sf->bounce_vel != 0.0)
        field = "surface.bounce_vel", v = sf->bounce_vel;
    else
        for (int k = 0; k < 3 && !field; ++k)
            if (sf->velocity[k] != 0.0) field = "surface.velocity", v = sf->velocity[k];
    if (!field) return PF_OK;
    fail(err, PF_ERR_RANGE, field,
         "needs the adapter coupling (pfOdeConfig.coupling = PF_ODE_COUPLING_ADAPTER): the "
         "in-solver coupling builds its own normal and friction rows",
         v);
    return PF_ERR_RANGE;
}

/* ---- per-pair materials --------------------------------------------------------------------- */

/* the pair in address order, so that (a, b) and (b, a) are one key */
static void order(dGeomID *a, dGeomID *b)
{
    if ((uintptr_t)*a > (uintptr_t)*b) {
        dGeomID t = *a;
        *a = *b;
        *b = t;
    }
}

static int home(const pfOdeContext *ctx, dGeomID a, dGeomID b)
{
    uint64_t h = pf_ode_hash_pair(a, b);
    return (int)(h & (uint64_t)(ctx->pm_hash_cap - 1));
}

/* who geom g is now: its class and body (tracked, pf_ode_body_track) */
static pfOdeMatOwner owner(pfOdeContext *ctx, dGeomID g)
{
    pfOdeMatOwner o = {dGeomGetClass(g), dGeomGetBody(g), 0};
    o.gen = pf_ode_body_track(ctx, o.body);
    return o;
}

/* 1 if the live geom g is the one o describes, as pf_ode_material_for decides for materials (the
 * same class, and its body at set time not destroyed since); a geom moved to another live body
 * is followed */
static int same_owner(pfOdeContext *ctx, dGeomID g, pfOdeMatOwner *o)
{
    if (o->cls != dGeomGetClass(g) || (o->body && !pf_ode_body_alive(ctx, o->body, o->gen)))
        return 0;
    dBodyID b = dGeomGetBody(g);
    if (b != o->body) {
        o->body = b;
        o->gen = pf_ode_body_track(ctx, b);
    }
    return 1;
}

/* index of the entry (a, b) (ordered), or -1 */
static int pm_find(const pfOdeContext *ctx, dGeomID a, dGeomID b)
{
    if (ctx->pm_hash_cap == 0) return -1;
    int mask = ctx->pm_hash_cap - 1;
    for (int i = home(ctx, a, b); ctx->pm_hash[i] >= 0; i = (i + 1) & mask) {
        const pfOdePairMatEntry *e = &ctx->pm[ctx->pm_hash[i]];
        if (e->a == a && e->b == b) return ctx->pm_hash[i];
    }
    return -1;
}

/* rebuild the hash over the entries with capacity cap (a power of two > 2 pm_count) */
static int pm_rehash(pfOdeContext *ctx, int cap)
{
    int *h = malloc((size_t)cap * sizeof *h);
    if (!h) return PF_ERR_NO_MEMORY;
    for (int i = 0; i < cap; ++i)
        h[i] = -1;
    free(ctx->pm_hash);
    ctx->pm_hash = h;
    ctx->pm_hash_cap = cap;
    for (int e = 0; e < ctx->pm_count; ++e) {
        int i = home(ctx, ctx->pm[e].a, ctx->pm[e].b);
        while (h[i] >= 0)
            i = (i + 1) & (cap - 1);
        h[i] = e;
    }
    return PF_OK;
}

int pf_ode_set_pair_material(pfOdeContext *ctx, dGeomID a, dGeomID b, const pfOdeMaterial *m,
                             pfError *err)
{
    clear(err);
    if (!ctx || !a || !b) {
        fail(err, PF_ERR_NULL, !ctx ? "ctx" : (!a ? "a" : "b"), "(NULL)", 0.0);
        if (err) snprintf(err->message, sizeof err->message, "%s is NULL", err->field);
        return PF_ERR_NULL;
    }
    if (dGeomIsSpace(a) || dGeomIsSpace(b)) {
        fail(err, PF_ERR_STATE, dGeomIsSpace(a) ? "a" : "b", "", 0.0);
        if (err)
            snprintf(err->message, sizeof err->message,
                     "%s is a space (dGeomIsSpace): a pair material belongs to two geoms",
                     err->field);
        return PF_ERR_STATE;
    }
    if (a == b) {
        fail(err, PF_ERR_RANGE, "b", "", 0.0);
        if (err)
            snprintf(err->message, sizeof err->message,
                     "b is the same geom as a: a pair needs two geoms");
        return PF_ERR_RANGE;
    }
    int st = pf_ode_material_validate(m, err);
    if (st != PF_OK) return st;
    for (int k = 0; k < 3; ++k)
        if (m->surface.velocity[k] != 0.0) {
            fail(err, PF_ERR_RANGE, "surface.velocity",
                 "in a pair material: surface motion belongs to a geom (pf_ode_set_material)",
                 m->surface.velocity[k]);
            return PF_ERR_RANGE;
        }
    st = pf_ode_surface_check_coupling(ctx, m, err);
    if (st != PF_OK) return st;
    order(&a, &b);
    int e = pm_find(ctx, a, b);
    if (e >= 0) {
        ctx->pm[e].m = *m;
        ctx->pm[e].oa = owner(ctx, a);
        ctx->pm[e].ob = owner(ctx, b);
        return PF_OK;
    }
    if (ctx->pm_count == ctx->pm_cap) {
        int ncap = ctx->pm_cap ? 2 * ctx->pm_cap : 16;
        pfOdePairMatEntry *n = realloc(ctx->pm, (size_t)ncap * sizeof *n);
        if (!n) {
            fail(err, PF_ERR_NO_MEMORY, "pair material", "table: out of memory", 0.0);
            return PF_ERR_NO_MEMORY;
        }
        ctx->pm = n;
        ctx->pm_cap = ncap;
        ctx->counters.allocations++;
    }
    ctx->pm[ctx->pm_count++] = (pfOdePairMatEntry){a, b, owner(ctx, a), owner(ctx, b), *m};
    if (ctx->pm_count * 2 > ctx->pm_hash_cap) {
        int cap = ctx->pm_hash_cap ? 2 * ctx->pm_hash_cap : 32;
        if (pm_rehash(ctx, cap) != PF_OK) {
            ctx->pm_count--;
            fail(err, PF_ERR_NO_MEMORY, "pair material", "table: out of memory", 0.0);
            return PF_ERR_NO_MEMORY;
        }
        ctx->counters.allocations++;
    } else {
        int i = home(ctx, a, b);
        while (ctx->pm_hash[i] >= 0)
            i = (i + 1) & (ctx->pm_hash_cap - 1);
        ctx->pm_hash[i] = ctx->pm_count - 1;
    }
    return PF_OK;
}

/* Remove the entries for which drop(entry) holds, keeping the order of the others, and rebuild
 * the hash (removal is rare: set-time cost only). Returns the number removed. */
static int pm_remove(pfOdeContext *ctx, dGeomID a, dGeomID b, int either)
{
    int w = 0, removed = 0;
    for (int e = 0; e < ctx->pm_count; ++e) {
        const pfOdePairMatEntry *x = &ctx->pm[e];
        int drop = either ? (x->a == a || x->b == a) : (x->a == a && x->b == b);
        if (drop)
            ++removed;
        else
            ctx->pm[w++] = *x;
    }
    ctx->pm_count = w;
    /* same capacity: the rebuild cannot need more memory than the table has */
    if (removed && ctx->pm_hash_cap) {
        for (int i = 0; i < ctx->pm_hash_cap; ++i)
            ctx->pm_hash[i] = -1;
        for (int e = 0; e < ctx->pm_count; ++e) {
            int i = home(ctx, ctx->pm[e].a, ctx->pm[e].b);
            while (ctx->pm_hash[i] >= 0)
                i = (i + 1) & (ctx->pm_hash_cap - 1);
            ctx->pm_hash[i] = e;
        }
    }
    return removed;
}

int pf_ode_clear_pair_material(pfOdeContext *ctx, dGeomID a, dGeomID b)
{
    if (!ctx || !a || !b) return 0;
    order(&a, &b);
    return pm_remove(ctx, a, b, 0) > 0;
}

int pf_ode_get_pair_material(const pfOdeContext *ctx, dGeomID a, dGeomID b, pfOdeMaterial *out)
{
    if (!ctx || !a || !b) return 0;
    order(&a, &b);
    int e = pm_find(ctx, a, b);
    if (e < 0) return 0;
    if (out) *out = ctx->pm[e].m;
    return 1;
}

void pf_ode_pair_materials_forget(pfOdeContext *ctx, dGeomID geom)
{
    if (ctx && geom && ctx->pm_count) pm_remove(ctx, geom, NULL, 1);
}

void pf_ode_pair_materials_free(pfOdeContext *ctx)
{
    free(ctx->pm);
    free(ctx->pm_hash);
    ctx->pm = NULL;
    ctx->pm_hash = NULL;
    ctx->pm_count = ctx->pm_cap = ctx->pm_hash_cap = 0;
}

/* ---- resolving a pair's material ------------------------------------------------------------ */

/* The softer of two surfaces: the larger soft_cfm with its ERP; on a tie the smaller nonzero
 * ERP (0 is the world's ERP), so the rule does not depend on the order. */
static void soft_of(const pfOdeSurface *a, const pfOdeSurface *b, double *erp, double *cfm)
{
    if (a->soft_cfm != b->soft_cfm) {
        const pfOdeSurface *s = a->soft_cfm > b->soft_cfm ? a : b;
        *erp = s->soft_erp;
        *cfm = s->soft_cfm;
        return;
    }
    *cfm = a->soft_cfm;
    if (a->soft_erp == 0.0)
        *erp = b->soft_erp;
    else if (b->soft_erp == 0.0)
        *erp = a->soft_erp;
    else
        *erp = fmin(a->soft_erp, b->soft_erp);
}

void pf_ode_resolve_material(pfOdeContext *ctx, dGeomID g1, dGeomID g2, pfOdePairMaterial *out)
{
    const pfOdeMaterial *m1 = pf_ode_material_for(ctx, g1), *m2 = pf_ode_material_for(ctx, g2);
    dGeomID a = g1, b = g2;
    order(&a, &b);
    int e = pm_find(ctx, a, b);
    if (e >= 0 && !(same_owner(ctx, a, &ctx->pm[e].oa) && same_owner(ctx, b, &ctx->pm[e].ob))) {
        /* set for an earlier geom at one of these addresses: not this pair's */
        pm_remove(ctx, a, b, 0);
        e = -1;
    }
    /* an entry is the material of both sides: combining it with itself keeps mu_s, mu_k and the
     * largest-value fields as given, and makes E* that of two bodies of that material */
    const pfOdeMaterial *p1 = e >= 0 ? &ctx->pm[e].m : m1, *p2 = e >= 0 ? &ctx->pm[e].m : m2;
    pf_ode_combine(p1, p2, out);
    soft_of(&p1->surface, &p2->surface, &out->soft_erp, &out->soft_cfm);
    out->bounce = fmax(p1->surface.bounce, p2->surface.bounce);
    out->bounce_vel = fmax(p1->surface.bounce_vel, p2->surface.bounce_vel);
    /* surface motion is each geom's own, whatever the pair's entry */
    out->has_motion = 0;
    for (int k = 0; k < 3; ++k) {
        out->vel1[k] = m1->surface.velocity[k];
        out->vel2[k] = m2->surface.velocity[k];
        if (out->vel1[k] != 0.0 || out->vel2[k] != 0.0) out->has_motion = 1;
    }
}

/* ---- surface motion -------------------------------------------------------------------------- */

/* A geom's surface velocity (in its frame) in world coordinates. A plane is not placeable: its
 * frame is the world's. */
static void geom_velocity(dGeomID g, const double *local, double *w)
{
    if (dGeomGetClass(g) == dPlaneClass) {
        memcpy(w, local, 3 * sizeof *w);
        return;
    }
    const dReal *R = dGeomGetRotation(g); /* 3x4 row-major */
    for (int i = 0; i < 3; ++i)
        w[i] = R[4 * i] * local[0] + R[4 * i + 1] * local[1] + R[4 * i + 2] * local[2];
}

void pf_ode_surface_capture(pfOdePair *p)
{
    if (!p->persist.mat.has_motion) {
        memset(p->step.surf_w1, 0, sizeof p->step.surf_w1);
        memset(p->step.surf_w2, 0, sizeof p->step.surf_w2);
        return;
    }
    geom_velocity(p->g1, p->persist.mat.vel1, p->step.surf_w1);
    geom_velocity(p->g2, p->persist.mat.vel2, p->step.surf_w2);
}

/* u1, u2 in world (captured at collide), and their parts in the plane normal to n */
static int surface_velocities(const pfOdePair *p, const double *n, double *u1, double *u2)
{
    memcpy(u1, p->step.surf_w1, 3 * sizeof *u1);
    memcpy(u2, p->step.surf_w2, 3 * sizeof *u2);
    double d1 = pf_ode_dot(u1, n), d2 = pf_ode_dot(u2, n);
    for (int k = 0; k < 3; ++k) {
        u1[k] -= d1 * n[k];
        u2[k] -= d2 * n[k];
    }
    return pf_ode_finite3(u1) && pf_ode_finite3(u2);
}

void pf_ode_surface_motion(pfOdePair *p)
{
    pfOdePairStep *st = &p->step;
    st->has_surf = 0;
    memset(st->surf_u1, 0, sizeof st->surf_u1);
    memset(st->surf_u2, 0, sizeof st->surf_u2);
    memset(st->surf_s, 0, sizeof st->surf_s);
    if (!p->persist.mat.has_motion) return;
    double u1[3], u2[3];
    const int ok = surface_velocities(p, st->n, u1, u2);
    for (int k = 0; k < 3; ++k) {
        st->surf_u1[k] = u1[k];
        st->surf_u2[k] = u2[k];
        st->surf_s[k] = u2[k] - u1[k];
    }
    /* a non-finite s (velocities near DBL_MAX of opposite signs, a NaN geom rotation) is not
     * ignored: the twist it makes non-finite drops the patch for the step (dropped_nonfinite) */
    if (!ok || !pf_ode_finite3(st->surf_s)) st->surf_s[0] = NAN;
    st->has_surf = 1;
}

void pf_ode_surface_advance_anchors(pfOdePair *p)
{
    const double h = p->persist.surf_dt;
    if (!p->step.has_surf || !(h > 0.0)) return;
    double d1[3], d2[3], l[3];
    for (int k = 0; k < 3; ++k) {
        d1[k] = h * p->step.surf_u1[k];
        d2[k] = h * p->step.surf_u2[k];
    }
    pf_ode_to_body_vec(p->step.b1, d1, l);
    for (int k = 0; k < 3; ++k)
        p->persist.anchor1[k] += l[k];
    if (p->step.b2) {
        pf_ode_to_body_vec(p->step.b2, d2, l);
        for (int k = 0; k < 3; ++k)
            p->persist.anchor2[k] += l[k];
    } else {
        for (int k = 0; k < 3; ++k)
            p->persist.anchor2[k] += d2[k];
    }
}

void pf_ode_surface_contact(pfOdeContext *ctx, const pfOdePair *p, int npoints, int friction,
                            dContact *c)
{
    const pfOdePairMaterial *m = &p->persist.mat;
    if (m->soft_erp > 0.0) {
        c->surface.mode |= dContactSoftERP;
        c->surface.soft_erp = m->soft_erp;
    }
    if (m->soft_cfm > 0.0) {
        /* the patch's compliance shared by its loaded points: n rows of c n in parallel */
        double cfm = m->soft_cfm * (npoints > 1 ? npoints : 1);
        if (!(c->surface.mode & dContactSoftCFM)) c->surface.soft_cfm = 0.0;
        c->surface.mode |= dContactSoftCFM;
        c->surface.soft_cfm += cfm;
        /* a compliance beyond any use (soft_cfm near DBL_MAX) stays finite for ODE: the row
         * then carries nothing, as asked */
        if (!(c->surface.soft_cfm <= PF_ODE_SURFACE_MAX_CFM))
            c->surface.soft_cfm = PF_ODE_SURFACE_MAX_CFM;
    }
    if (m->bounce > 0.0) {
        c->surface.mode |= dContactBounce;
        c->surface.bounce = m->bounce;
        c->surface.bounce_vel = m->bounce_vel;
    }
    if (friction && m->has_motion) {
        /* ODE's friction directions when fdir1 is not given (contact.cpp): dPlaneSpace(n) */
        double n[3] = {c->geom.normal[0], c->geom.normal[1], c->geom.normal[2]}, u1[3], u2[3];
        const int ok = surface_velocities(p, n, u1, u2);
        dVector3 nn = {n[0], n[1], n[2], 0}, t1, t2;
        dPlaneSpace(nn, t1, t2);
        double s[3] = {u2[0] - u1[0], u2[1] - u1[1], u2[2] - u1[2]};
        double a1[3] = {t1[0], t1[1], t1[2]}, a2[3] = {t2[0], t2[1], t2[2]};
        const double m1 = pf_ode_dot(s, a1), m2 = pf_ode_dot(s, a2);
        if (!ok || !isfinite(m1) || !isfinite(m2)) {
            /* nothing non-finite reaches ODE: the contact keeps its friction without the
             * motion, and the loss is counted */
            ctx->counters.dropped_nonfinite++;
            return;
        }
        c->surface.mode |= dContactMotion1 | dContactMotion2;
        c->surface.motion1 = m1;
        c->surface.motion2 = m2;
    }
}
