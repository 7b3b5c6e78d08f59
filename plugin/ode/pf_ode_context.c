/* ODE adapter: context, materials, the persistent per-pair table and diagnostics.
 * Memory is allocated at creation and when a table grows; never per step in steady state. */
#include "pf_core_internal.h" /* pf_patch_dissipation_eval: a screened stick test's margin */
#include "pf_ode_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_err(pfError *err, int status, const char *field, const char *fmt, double v)
{
    if (!err) return;
    err->status = status;
    snprintf(err->field, sizeof err->field, "%s", field);
    snprintf(err->message, sizeof err->message, fmt, field, v);
}

void pf_ode_set_error(pfError *err, int status, const char *field, const char *fmt, double v)
{
    set_err(err, status, field, fmt, v);
}

static void clear_err(pfError *err)
{
    if (!err) return;
    err->status = PF_OK;
    err->field[0] = '\0';
    err->message[0] = '\0';
}

pfOdeMaterial pf_ode_default_material(void)
{
    pfOdeMaterial m;
    memset(&m, 0, sizeof m);
    m.mu_s = 0.5;
    m.mu_k = 0.5;
    m.mode = PF_ODE_MODE_EXACT;
    m.source = PF_ODE_PATCH_AUTO;
    m.patch = pf_default_patch_def();
    m.hertz_radius = 0.0;
    m.youngs_modulus = 2.1e11;
    m.poisson_ratio = 0.3;
    m.criterion = PF_ODE_CRITERION_CA;
    return m;
}

pfOdeConfig pf_ode_default_config(void)
{
    pfOdeConfig c;
    c.stick_velocity_tol = 1e-4;
    c.drift_gain = 1.0;
    c.stock_mu_kinetic = 0;
    c.initial_pair_capacity = 64;
    c.coupling = PF_ODE_COUPLING_AUTO;
    c.stepper = PF_ODE_STEPPER_UNSPECIFIED;
    return c;
}

#define CHECK_FINITE(field, v)                                                                     \
    do {                                                                                           \
        if (!isfinite(v)) {                                                                        \
            set_err(err, PF_ERR_NOT_FINITE, field, "%s = %g is not finite", (v));                  \
            return PF_ERR_NOT_FINITE;                                                              \
        }                                                                                          \
    } while (0)
#define CHECK_RANGE(field, v, cond, what)                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            set_err(err, PF_ERR_RANGE, field, "%s = %g is out of range (" what ")", (v));          \
            return PF_ERR_RANGE;                                                                   \
        }                                                                                          \
    } while (0)

int pf_ode_material_validate(const pfOdeMaterial *m, pfError *err)
{
    clear_err(err);
    if (!m) {
        set_err(err, PF_ERR_NULL, "material", "%s is NULL", 0.0);
        return PF_ERR_NULL;
    }
    CHECK_FINITE("mu_s", m->mu_s);
    CHECK_FINITE("mu_k", m->mu_k);
    CHECK_RANGE("mu_s", m->mu_s, m->mu_s >= 0.0, "must be >= 0");
    CHECK_RANGE("mu_k", m->mu_k, m->mu_k >= 0.0, "must be >= 0");
    CHECK_RANGE("mu_k", m->mu_k, m->mu_k <= m->mu_s, "must be <= mu_s");
    CHECK_RANGE("mu_s", m->mu_s, m->mu_s <= PF_ODE_MU_MAX, "must be <= 1e6");
    if (m->mode != PF_ODE_MODE_EXACT && m->mode != PF_ODE_MODE_PADE &&
        m->mode != PF_ODE_MODE_STOCK) {
        set_err(err, PF_ERR_ENUM, "mode", "%s = %g is not a pfOdeMode", (double)(int)m->mode);
        return PF_ERR_ENUM;
    }
    if (m->criterion != PF_ODE_CRITERION_CA && m->criterion != PF_ODE_CRITERION_LIMIT) {
        set_err(err, PF_ERR_ENUM, "criterion", "%s = %g is not a pfOdeCriterion (ca or limit)",
                (double)(int)m->criterion);
        return PF_ERR_ENUM;
    }
    if (m->source != PF_ODE_PATCH_AUTO && m->source != PF_ODE_PATCH_FIXED) {
        set_err(err, PF_ERR_ENUM, "source", "%s = %g is not a pfOdePatchSource",
                (double)(int)m->source);
        return PF_ERR_ENUM;
    }
    CHECK_FINITE("hertz_radius", m->hertz_radius);
    CHECK_RANGE("hertz_radius", m->hertz_radius,
                m->hertz_radius == 0.0 || m->hertz_radius >= PF_ODE_HERTZ_RADIUS_MIN,
                "must be 0 or >= 1e-7 m");
    CHECK_FINITE("youngs_modulus", m->youngs_modulus);
    CHECK_RANGE("youngs_modulus", m->youngs_modulus, m->youngs_modulus >= PF_ODE_E_MIN,
                "must be >= 1 Pa");
    CHECK_FINITE("poisson_ratio", m->poisson_ratio);
    CHECK_RANGE("poisson_ratio", m->poisson_ratio,
                m->poisson_ratio >= 0.0 && m->poisson_ratio < 0.5, "must be in [0, 0.5)");
    CHECK_FINITE("rolling_d", m->rolling_d);
    CHECK_RANGE("rolling_d", m->rolling_d, m->rolling_d >= 0.0 && m->rolling_d <= 1.0,
                "must be in [0, 1]");
    CHECK_FINITE("eps_t", m->eps_t);
    CHECK_RANGE("eps_t", m->eps_t, m->eps_t >= 0.0, "must be >= 0");
    CHECK_FINITE("eps_r", m->eps_r);
    CHECK_RANGE("eps_r", m->eps_r, m->eps_r >= 0.0, "must be >= 0");
    CHECK_FINITE("stock_spin_rho", m->stock_spin_rho);
    CHECK_RANGE("stock_spin_rho", m->stock_spin_rho, m->stock_spin_rho >= 0.0, "must be >= 0");
    int sst = pf_ode_surface_validate(&m->surface, err);
    if (sst != PF_OK) return sst;
    CHECK_FINITE("patch_axis[0]", m->patch_axis[0]);
    CHECK_FINITE("patch_axis[1]", m->patch_axis[1]);
    CHECK_FINITE("patch_axis[2]", m->patch_axis[2]);
    {
        /* zero (no axis) or long enough that its direction survives normalisation */
        const double l =
            fmax(fabs(m->patch_axis[0]), fmax(fabs(m->patch_axis[1]), fabs(m->patch_axis[2])));
        CHECK_RANGE("patch_axis", l, l == 0.0 || (l >= PF_ODE_AXIS_MIN && l <= PF_ODE_AXIS_MAX),
                    "its largest component must be 0 or in [1e-150, 1e150]");
    }
    if (m->source == PF_ODE_PATCH_FIXED) {
        int st = pf_patch_def_validate(&m->patch, err);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}

/* ---- hashing -------------------------------------------------------------------------------- */

/* ---- materials ------------------------------------------------------------------------------ */

static int mat_slot(const pfOdeContext *ctx, dGeomID g)
{
    if (ctx->mat_cap == 0) return -1;
    int mask = ctx->mat_cap - 1;
    int i = (int)(pf_ode_hash_ptr(g) & (uint64_t)mask);
    while (ctx->mat_keys[i]) {
        if (ctx->mat_keys[i] == g) return i;
        i = (i + 1) & mask;
    }
    return -1;
}

static int mat_grow(pfOdeContext *ctx)
{
    int ncap = ctx->mat_cap ? ctx->mat_cap * 2 : 64;
    dGeomID *keys = calloc((size_t)ncap, sizeof *keys);
    int *idx = calloc((size_t)ncap, sizeof *idx);
    if (!keys || !idx) {
        free(keys);
        free(idx);
        return PF_ERR_NO_MEMORY;
    }
    for (int i = 0; i < ctx->mat_cap; ++i) {
        if (!ctx->mat_keys[i]) continue;
        int j = (int)(pf_ode_hash_ptr(ctx->mat_keys[i]) & (uint64_t)(ncap - 1));
        while (keys[j])
            j = (j + 1) & (ncap - 1);
        keys[j] = ctx->mat_keys[i];
        idx[j] = ctx->mat_index[i];
    }
    free(ctx->mat_keys);
    free(ctx->mat_index);
    ctx->mat_keys = keys;
    ctx->mat_index = idx;
    ctx->mat_cap = ncap;
    ctx->counters.allocations++;
    return PF_OK;
}

int pf_ode_set_material(pfOdeContext *ctx, dGeomID geom, const pfOdeMaterial *m, pfError *err)
{
    if (!ctx || !geom) {
        clear_err(err);
        set_err(err, PF_ERR_NULL, ctx ? "geom" : "ctx", "%s is NULL", 0.0);
        return PF_ERR_NULL;
    }
    if (dGeomIsSpace(geom)) {
        /* a space (a dSpaceID passed as a dGeomID) is never collided itself (pf_ode_collide) */
        clear_err(err);
        set_err(err, PF_ERR_STATE, "geom",
                "%s is a space (dGeomIsSpace): a material belongs to a geom; set it on the "
                "space's geoms",
                0.0);
        return PF_ERR_STATE;
    }
    int st = pf_ode_material_validate(m, err);
    if (st == PF_OK) st = pf_ode_surface_check_coupling(ctx, m, err);
    if (st != PF_OK) return st;
    pfOdeMatOwner owner = {dGeomGetClass(geom), dGeomGetBody(geom), 0};
    owner.gen = pf_ode_body_track(ctx, owner.body);
    int s = mat_slot(ctx, geom);
    if (s >= 0) {
        ctx->mats[ctx->mat_index[s]] = *m;
        ctx->mat_owner[ctx->mat_index[s]] = owner;
        return PF_OK;
    }
    if ((ctx->mat_count + 1) * 2 > ctx->mat_cap) {
        if (mat_grow(ctx) != PF_OK) {
            set_err(err, PF_ERR_NO_MEMORY, "material", "%s table: out of memory", 0.0);
            return PF_ERR_NO_MEMORY;
        }
    }
    if (ctx->mat_count == ctx->mats_cap) {
        int ncap = ctx->mats_cap ? ctx->mats_cap * 2 : 64;
        pfOdeMaterial *nm = realloc(ctx->mats, (size_t)ncap * sizeof *nm);
        if (nm) ctx->mats = nm;
        pfOdeMatOwner *no = realloc(ctx->mat_owner, (size_t)ncap * sizeof *no);
        if (no) ctx->mat_owner = no;
        if (!nm || !no) {
            set_err(err, PF_ERR_NO_MEMORY, "material", "%s table: out of memory", 0.0);
            return PF_ERR_NO_MEMORY;
        }
        ctx->mats_cap = ncap;
        ctx->counters.allocations++;
    }
    int mask = ctx->mat_cap - 1;
    int i = (int)(pf_ode_hash_ptr(geom) & (uint64_t)mask);
    while (ctx->mat_keys[i])
        i = (i + 1) & mask;
    ctx->mat_keys[i] = geom;
    ctx->mat_index[i] = ctx->mat_count;
    ctx->mat_owner[ctx->mat_count] = owner;
    ctx->mats[ctx->mat_count++] = *m;
    return PF_OK;
}

int pf_ode_set_default_material(pfOdeContext *ctx, const pfOdeMaterial *m, pfError *err)
{
    if (!ctx) {
        clear_err(err);
        set_err(err, PF_ERR_NULL, "ctx", "%s is NULL", 0.0);
        return PF_ERR_NULL;
    }
    int st = pf_ode_material_validate(m, err);
    if (st == PF_OK) st = pf_ode_surface_check_coupling(ctx, m, err);
    if (st != PF_OK) return st;
    ctx->default_mat = *m;
    return PF_OK;
}

const pfOdeMaterial *pf_ode_material_of(const pfOdeContext *ctx, dGeomID g)
{
    int s = mat_slot(ctx, g);
    return s >= 0 ? &ctx->mats[ctx->mat_index[s]] : &ctx->default_mat;
}

/* Remove the material in hash slot s (rare; set-time cost only). */
static void mat_remove(pfOdeContext *ctx, int s)
{
    int victim = ctx->mat_index[s];
    int last = ctx->mat_count - 1;
    ctx->mats[victim] = ctx->mats[last];
    ctx->mat_owner[victim] = ctx->mat_owner[last];
    dGeomID *keys = ctx->mat_keys;
    int *idx = ctx->mat_index;
    int cap = ctx->mat_cap;
    for (int i = 0; i < cap; ++i)
        if (keys[i] && idx[i] == last) idx[i] = victim;
    keys[s] = NULL;
    /* reinsert the cluster after s */
    int mask = cap - 1;
    for (int j = (s + 1) & mask; keys[j]; j = (j + 1) & mask) {
        dGeomID k = keys[j];
        int v = idx[j];
        keys[j] = NULL;
        int t = (int)(pf_ode_hash_ptr(k) & (uint64_t)mask);
        while (keys[t])
            t = (t + 1) & mask;
        keys[t] = k;
        idx[t] = v;
    }
    ctx->mat_count--;
}

/* A material belongs to the geom it was set for. ODE gives a geom no mark of our own (its data
 * pointer is the user's), so a geom destroyed without pf_ode_forget_geom is recognised by what
 * the address holds now: a geom of another class, or a geom whose body at set time has since
 * been destroyed (the body's sentinel, pf_ode_body_track), is a new geom and gets the default.
 * A geom moved to another body while its old body lives keeps its material (dGeomSetBody), and
 * so does a geom set before its first dGeomSetBody. Not caught: a geom destroyed without
 * forget, its body kept, and a geom of the same class created at the same address. */
const pfOdeMaterial *pf_ode_material_for(pfOdeContext *ctx, dGeomID g)
{
    int s = mat_slot(ctx, g);
    if (s < 0) return &ctx->default_mat;
    pfOdeMatOwner *o = &ctx->mat_owner[ctx->mat_index[s]];
    if (o->cls != dGeomGetClass(g) || (o->body && !pf_ode_body_alive(ctx, o->body, o->gen))) {
        mat_remove(ctx, s);
        return &ctx->default_mat;
    }
    dBodyID b = dGeomGetBody(g);
    if (b != o->body) {
        o->body = b;
        o->gen = pf_ode_body_track(ctx, b);
    }
    return &ctx->mats[ctx->mat_index[s]];
}

/* ---- bodies --------------------------------------------------------------------------------- */

static int body_slot(const pfOdeContext *ctx, dBodyID b)
{
    if (ctx->body_cap == 0) return -1;
    int mask = ctx->body_cap - 1;
    int i = (int)(pf_ode_hash_ptr(b) & (uint64_t)mask);
    while (ctx->body_keys[i]) {
        if (ctx->body_keys[i] == b) return i;
        i = (i + 1) & mask;
    }
    return -1 - i;
}

static dJointID new_sentinel(pfOdeContext *ctx, dBodyID b)
{
    dJointID j = dJointCreateNull(ctx->world, 0);
    if (!j) return 0;
    dJointAttach(j, b, 0);
    dJointSetData(j, ctx);
    dJointDisable(j); /* no rows, no island: ODE's step never sees it */
    return j;
}

int pf_ode_body_alive(const pfOdeContext *ctx, dBodyID b, unsigned long gen)
{
    if (!b) return gen == 0;
    int s = body_slot(ctx, b);
    if (s < 0) return 0;
    const pfOdeBodyEntry *e = &ctx->bodies[s];
    return e->gen == gen && dJointGetBody(e->sentinel, 0) == b;
}

int pf_ode_pair_bodies_alive(const pfOdeContext *ctx, const pfOdePair *p)
{
    return pf_ode_body_alive(ctx, p->step.b1, p->gen1) &&
           pf_ode_body_alive(ctx, p->step.b2, p->gen2);
}

void pf_ode_body_add_patch(pfOdeContext *ctx, dBodyID b)
{
    int s = b ? body_slot(ctx, b) : -1;
    if (s < 0) return;
    pfOdeBodyEntry *e = &ctx->bodies[s];
    if (e->patch_frame != ctx->frame) {
        e->patch_frame = ctx->frame;
        e->patches = 0;
    }
    e->patches++;
}

pfOdeBodyEntry *pf_ode_body_entry(const pfOdeContext *ctx, dBodyID b)
{
    int s = b ? body_slot(ctx, b) : -1;
    return s < 0 ? NULL : &ctx->bodies[s];
}

int pf_ode_body_joint_list(const pfOdeContext *ctx, dBodyID b, const dJointID **out)
{
    pfOdeBodyEntry *e = ctx->lists_ok && ctx->model_epoch ? pf_ode_body_entry(ctx, b) : NULL;
    return pf_ode_entry_joint_list(ctx, e, b, out);
}

int pf_ode_entry_joint_list(const pfOdeContext *ctx, pfOdeBodyEntry *e, dBodyID b,
                            const dJointID **out)
{
    pfOdeScratch *sc = ctx->scratch;
    if (!e || !sc) return -1;
    if (e->list_epoch != ctx->model_epoch) {
        const int n = dBodyGetNumJoints(b);
        if (sc->len + n > sc->cap) {
            int ncap = sc->cap ? sc->cap : 256;
            while (ncap < sc->len + n)
                ncap *= 2;
            dJointID *nj = realloc(sc->joints, (size_t)ncap * sizeof *nj);
            if (!nj) return -1;
            sc->joints = nj;
            sc->cap = ncap;
        }
        for (int i = 0; i < n; ++i) /* (each call walks from the head: once per body here) */
            sc->joints[sc->len + i] = dBodyGetJoint(b, i);
        e->list_epoch = ctx->model_epoch;
        e->list_off = sc->len;
        e->list_n = n;
        sc->len += n;
    }
    *out = sc->joints + e->list_off;
    return e->list_n;
}

int pf_ode_body_patches(const pfOdeContext *ctx, dBodyID b)
{
    int s = b ? body_slot(ctx, b) : -1;
    if (s < 0) return 0;
    const pfOdeBodyEntry *e = &ctx->bodies[s];
    return e->patch_frame == ctx->frame ? e->patches : 0;
}

unsigned long pf_ode_body_track(pfOdeContext *ctx, dBodyID b)
{
    if (!b || dBodyGetWorld(b) != ctx->world) return 0;
    int s = body_slot(ctx, b);
    if (s >= 0) {
        pfOdeBodyEntry *e = &ctx->bodies[s];
        if (dJointGetBody(e->sentinel, 0) == b) return e->gen;
        /* the body met before was destroyed; this is a new one at its address */
        dJointID j = new_sentinel(ctx, b);
        if (!j) return 0;
        dJointDestroy(e->sentinel);
        e->sentinel = j;
        e->gen = ++ctx->body_gen;
        return e->gen;
    }
    if ((ctx->body_count + 1) * 2 > ctx->body_cap) {
        /* rebuilt without the bodies destroyed since (their sentinels go with them), so the
         * table follows the bodies alive, not every body ever met */
        int live = 1;
        for (int i = 0; i < ctx->body_cap; ++i)
            live += ctx->bodies[i].body &&
                    dJointGetBody(ctx->bodies[i].sentinel, 0) == ctx->bodies[i].body;
        int ncap = 64;
        while (live * 4 > ncap)
            ncap *= 2;
        pfOdeBodyEntry *nb = calloc((size_t)ncap, sizeof *nb);
        dBodyID *nk = calloc((size_t)ncap, sizeof *nk);
        if (!nb || !nk) {
            free(nb);
            free(nk);
            return 0;
        }
        ctx->body_count = 0;
        for (int i = 0; i < ctx->body_cap; ++i) {
            if (!ctx->bodies[i].body) continue;
            if (dJointGetBody(ctx->bodies[i].sentinel, 0) != ctx->bodies[i].body) {
                dJointDestroy(ctx->bodies[i].sentinel);
                continue;
            }
            ctx->body_count++;
            int j = (int)(pf_ode_hash_ptr(ctx->bodies[i].body) & (uint64_t)(ncap - 1));
            while (nk[j])
                j = (j + 1) & (ncap - 1);
            nb[j] = ctx->bodies[i];
            nk[j] = ctx->bodies[i].body;
        }
        free(ctx->bodies);
        free(ctx->body_keys);
        ctx->bodies = nb;
        ctx->body_keys = nk;
        ctx->body_cap = ncap;
        ctx->counters.allocations++;
        s = body_slot(ctx, b);
    }
    dJointID j = new_sentinel(ctx, b);
    if (!j) return 0;
    pfOdeBodyEntry *e = &ctx->bodies[-1 - s];
    e->body = b;
    ctx->body_keys[-1 - s] = b;
    e->sentinel = j;
    e->gen = ++ctx->body_gen;
    ctx->body_count++;
    return e->gen;
}

/* sqrt(a b) for a, b >= 0 that cannot overflow or underflow: the product overflows for
 * coefficients above ~1.3e154 (and underflows below ~1e-154), where sqrt(a) sqrt(b) is used (it
 * never exceeds the larger input). In the normal range sqrt(a b) itself, which keeps every
 * trajectory bit for bit as before (the two differ in the last bit, and chaotic scenes amplify
 * that). */
static double geometric_mean(double a, double b)
{
    const double p = a * b;
    return (isfinite(p) && p >= DBL_MIN) ? sqrt(p) : sqrt(a) * sqrt(b);
}

void pf_ode_combine(const pfOdeMaterial *a, const pfOdeMaterial *b, pfOdePairMaterial *out)
{
    memset(out, 0, sizeof *out);
    out->mu_s = geometric_mean(a->mu_s, b->mu_s);
    out->mu_k = geometric_mean(a->mu_k, b->mu_k);
    if (out->mu_k > out->mu_s) out->mu_k = out->mu_s;
    if (a->mode == PF_ODE_MODE_STOCK || b->mode == PF_ODE_MODE_STOCK)
        out->mode = PF_ODE_MODE_STOCK;
    else if (a->mode == PF_ODE_MODE_PADE || b->mode == PF_ODE_MODE_PADE)
        out->mode = PF_ODE_MODE_PADE;
    else
        out->mode = PF_ODE_MODE_EXACT;
    /* a FIXED patch brings its axis, in the frame of the body of the geom it came from */
    const pfOdeMaterial *fx = a->source == PF_ODE_PATCH_FIXED   ? a
                              : b->source == PF_ODE_PATCH_FIXED ? b
                                                                : NULL;
    if (fx) {
        out->fixed = 1;
        out->patch = fx->patch;
        out->axis_geom = fx == a ? 1 : 2;
        out->has_axis =
            fx->patch_axis[0] != 0.0 || fx->patch_axis[1] != 0.0 || fx->patch_axis[2] != 0.0;
        memcpy(out->patch_axis, fx->patch_axis, sizeof out->patch_axis);
    }
    out->hertz_radius = fmax(a->hertz_radius, b->hertz_radius);
    double ca = (1.0 - a->poisson_ratio * a->poisson_ratio) / a->youngs_modulus;
    double cb = (1.0 - b->poisson_ratio * b->poisson_ratio) / b->youngs_modulus;
    out->e_star = 1.0 / (ca + cb);
    out->rolling_d = fmax(a->rolling_d, b->rolling_d);
    out->eps_t = fmax(a->eps_t, b->eps_t);
    out->eps_r = fmax(a->eps_r, b->eps_r);
    out->stock_spin_rho = fmax(a->stock_spin_rho, b->stock_spin_rho);
    /* the exact test is the stricter one (it sticks only if CA sticks): it wins */
    out->criterion =
        (a->criterion == PF_ODE_CRITERION_LIMIT || b->criterion == PF_ODE_CRITERION_LIMIT)
            ? PF_ODE_CRITERION_LIMIT
            : PF_ODE_CRITERION_CA;
}

/* ---- pairs ---------------------------------------------------------------------------------- */

static uint32_t pair_tag(uint64_t h)
{
    return (uint32_t)(h >> 32);
}

static int pair_slot(const pfOdeContext *ctx, dGeomID g1, dGeomID g2, int slot)
{
    int mask = ctx->pair_hash_cap - 1;
    const uint64_t h = pf_ode_hash_slot(g1, g2, slot);
    const uint32_t tag = pair_tag(h);
    int i = (int)(h & (uint64_t)mask);
    while (ctx->pair_hash[i].idx >= 0) {
        if (ctx->pair_hash[i].tag == tag) {
            const pfOdePair *p = pf_ode_pair_at(ctx, ctx->pair_hash[i].idx);
            if (p->slot == slot && ((p->g1 == g1 && p->g2 == g2) || (p->g1 == g2 && p->g2 == g1)))
                return i;
        }
        i = (i + 1) & mask;
    }
    return -1 - i; /* free slot, encoded */
}

int pf_ode_pair_lookup(const pfOdeContext *ctx, dGeomID g1, dGeomID g2, int slot)
{
    int s = pair_slot(ctx, g1, g2, slot);
    return s >= 0 ? ctx->pair_hash[s].idx : -1;
}

static int add_chunk(pfOdeContext *ctx)
{
    if (ctx->chunk_count == ctx->chunk_cap) {
        int ncap = ctx->chunk_cap ? ctx->chunk_cap * 2 : 8;
        pfOdePair **nc = realloc(ctx->chunks, (size_t)ncap * sizeof *nc);
        if (!nc) return PF_ERR_NO_MEMORY;
        ctx->chunks = nc;
        ctx->chunk_cap = ncap;
    }
    pfOdePair *chunk = calloc(PF_ODE_CHUNK, sizeof *chunk);
    int *nfree = realloc(ctx->free_list, (size_t)(ctx->pool_size + PF_ODE_CHUNK) * sizeof *nfree);
    int *nalive = realloc(ctx->alive, (size_t)(ctx->pool_size + PF_ODE_CHUNK) * sizeof *nalive);
    if (nfree) ctx->free_list = nfree;
    if (nalive) {
        ctx->alive = nalive;
        ctx->alive_cap = ctx->pool_size + PF_ODE_CHUNK;
    }
    if (!chunk || !nfree || !nalive) {
        free(chunk);
        return PF_ERR_NO_MEMORY;
    }
    ctx->chunks[ctx->chunk_count++] = chunk;
    /* push new indices so that the lowest is popped first */
    for (int k = PF_ODE_CHUNK - 1; k >= 0; --k)
        ctx->free_list[ctx->free_count++] = ctx->pool_size + k;
    ctx->pool_size += PF_ODE_CHUNK;
    return PF_OK;
}

static int rehash_pairs(pfOdeContext *ctx, int ncap)
{
    pfOdePairHashEntry *h = malloc((size_t)ncap * sizeof *h);
    if (!h) return PF_ERR_NO_MEMORY;
    for (int i = 0; i < ncap; ++i) {
        h[i].idx = -1;
        h[i].tag = 0;
    }
    for (int a = 0; a < ctx->alive_count; ++a) {
        const pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        const uint64_t hs = pf_ode_hash_slot(p->g1, p->g2, p->slot);
        int j = (int)(hs & (uint64_t)(ncap - 1));
        while (h[j].idx >= 0)
            j = (j + 1) & (ncap - 1);
        h[j].idx = ctx->alive[a];
        h[j].tag = pair_tag(hs);
    }
    free(ctx->pair_hash);
    ctx->pair_hash = h;
    ctx->pair_hash_cap = ncap;
    return PF_OK;
}

int pf_ode_pair_acquire(pfOdeContext *ctx, dGeomID g1, dGeomID g2, int slot, int *out_idx)
{
    int s = pair_slot(ctx, g1, g2, slot);
    if (s >= 0) {
        *out_idx = ctx->pair_hash[s].idx;
        return PF_OK;
    }
    if (ctx->free_count == 0) {
        if (add_chunk(ctx) != PF_OK) return PF_ERR_NO_MEMORY;
        ctx->counters.allocations++;
    }
    if ((ctx->pair_count + 1) * 2 > ctx->pair_hash_cap) {
        if (rehash_pairs(ctx, ctx->pair_hash_cap * 2) != PF_OK) return PF_ERR_NO_MEMORY;
        ctx->counters.allocations++;
    }
    s = pair_slot(ctx, g1, g2, slot);
    int idx = ctx->free_list[--ctx->free_count];
    pfOdePair *p = pf_ode_pair_at(ctx, idx);
    memset(p, 0, sizeof *p);
    p->g1 = g1;
    p->g2 = g2;
    p->slot = slot;
    if (slot >= ctx->slots_used) ctx->slots_used = slot + 1;
    p->in_use = 1;
    p->fresh = 1;
    ctx->pair_hash[-1 - s].idx = idx;
    ctx->pair_hash[-1 - s].tag = pair_tag(pf_ode_hash_slot(g1, g2, slot));
    ctx->pair_count++;
    ctx->alive[ctx->alive_count++] = idx;
    *out_idx = idx;
    return PF_OK;
}

/* Removal with backward-shift deletion (linear probing keeps no tombstones). The caller removes
 * the index from the alive list. */
void pf_ode_pair_release(pfOdeContext *ctx, int idx)
{
    pfOdePair *p = pf_ode_pair_at(ctx, idx);
    int s = pair_slot(ctx, p->g1, p->g2, p->slot);
    if (s < 0) return;
    int mask = ctx->pair_hash_cap - 1;
    int i = s;
    ctx->pair_hash[i].idx = -1;
    int j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (ctx->pair_hash[j].idx < 0) break;
        const pfOdePair *q = pf_ode_pair_at(ctx, ctx->pair_hash[j].idx);
        int home = (int)(pf_ode_hash_slot(q->g1, q->g2, q->slot) & (uint64_t)mask);
        /* move q back to i if its home is not in (i, j] cyclically */
        int move = (i <= j) ? (home <= i || home > j) : (home <= i && home > j);
        if (move) {
            ctx->pair_hash[i] = ctx->pair_hash[j];
            ctx->pair_hash[j].idx = -1;
            i = j;
        }
    }
    pf_ode_solver_drop(p); /* its patch joint ends with it */
    p->in_use = 0;
    ctx->pair_count--;
    ctx->free_list[ctx->free_count++] = idx;
    ctx->counters.pairs_forgotten++;
}

/* ---- lifecycle ------------------------------------------------------------------------------ */

int pf_ode_create(dWorldID world, const pfOdeConfig *cfg, pfOdeContext **out, pfError *err)
{
    clear_err(err);
    if (!out) {
        set_err(err, PF_ERR_NULL, "out", "%s is NULL", 0.0);
        return PF_ERR_NULL;
    }
    *out = NULL;
    if (!world) {
        set_err(err, PF_ERR_NULL, "world", "%s is NULL", 0.0);
        return PF_ERR_NULL;
    }
    pfOdeConfig c = cfg ? *cfg : pf_ode_default_config();
    CHECK_FINITE("stick_velocity_tol", c.stick_velocity_tol);
    CHECK_RANGE("stick_velocity_tol", c.stick_velocity_tol, c.stick_velocity_tol > 0.0,
                "must be > 0");
    CHECK_FINITE("drift_gain", c.drift_gain);
    CHECK_RANGE("drift_gain", c.drift_gain, c.drift_gain > 0.0 && c.drift_gain <= 1.0,
                "must be in (0, 1]");
    CHECK_FINITE("stock_mu_kinetic", c.stock_mu_kinetic);
    CHECK_RANGE("initial_pair_capacity", (double)c.initial_pair_capacity,
                c.initial_pair_capacity >= 1 && c.initial_pair_capacity <= (1 << 24),
                "must be in [1, 2^24]");
    if (c.coupling != PF_ODE_COUPLING_AUTO && c.coupling != PF_ODE_COUPLING_ADAPTER &&
        c.coupling != PF_ODE_COUPLING_SOLVER) {
        set_err(err, PF_ERR_ENUM, "coupling",
                "%s = %g is not a pfOdeCoupling (AUTO, ADAPTER or SOLVER)",
                (double)(int)c.coupling);
        return PF_ERR_ENUM;
    }
    if (c.stepper != PF_ODE_STEPPER_UNSPECIFIED && c.stepper != PF_ODE_STEPPER_WORLD &&
        c.stepper != PF_ODE_STEPPER_QUICK) {
        set_err(err, PF_ERR_ENUM, "stepper",
                "%s = %g is not a pfOdeStepper (UNSPECIFIED, WORLD or QUICK)",
                (double)(int)c.stepper);
        return PF_ERR_ENUM;
    }
    if (c.coupling == PF_ODE_COUPLING_SOLVER && !pf_ode_solver_coupling_available()) {
        set_err(err, PF_ERR_RANGE, "coupling",
                "%s = SOLVER (%.0f) needs an ODE built with patches/ (-DPF_WITH_PATCHED_ODE=ON)",
                (double)(int)c.coupling);
        return PF_ERR_RANGE;
    }

    pfOdeContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        set_err(err, PF_ERR_NO_MEMORY, "ctx", "%s: out of memory", 0.0);
        return PF_ERR_NO_MEMORY;
    }
    ctx->world = world;
    ctx->cfg = c;
    ctx->frame = 1; /* a pair's seen stamp 0 means never collided */
    ctx->lcp_zero_step = dCheckConfiguration("ODE_EXT_lcp_zero_step") ? 1 : 0;
    ctx->solver = c.coupling == PF_ODE_COUPLING_SOLVER ||
                  (c.coupling == PF_ODE_COUPLING_AUTO && pf_ode_solver_coupling_available());
    ctx->default_mat = pf_ode_default_material();
    ctx->scratch = calloc(1, sizeof *ctx->scratch);
    int st = ctx->scratch ? PF_OK : PF_ERR_NO_MEMORY;
    while (st == PF_OK && ctx->pool_size < c.initial_pair_capacity)
        st = add_chunk(ctx);
    int hcap = 16;
    while (hcap < 2 * ctx->pool_size)
        hcap *= 2;
    if (st == PF_OK) st = rehash_pairs(ctx, hcap);
    if (st != PF_OK) {
        pf_ode_destroy(ctx);
        set_err(err, PF_ERR_NO_MEMORY, "ctx", "%s: out of memory", 0.0);
        return PF_ERR_NO_MEMORY;
    }
    *out = ctx;
    return PF_OK;
}

void pf_ode_destroy(pfOdeContext *ctx)
{
    if (!ctx) return;
    /* the in-solver coupling's patch joints are the context's (in no group): destroyed here,
     * whether parked or pending for a step */
    for (int c = 0; c < ctx->chunk_count; ++c)
        for (int i = 0; i < PF_ODE_CHUNK; ++i)
            pf_ode_solver_drop(&ctx->chunks[c][i]);
    /* Joints of this step may still be in the user's group (destroyed between before_step and
     * the step, or before after_step): they would write feedback into the freed pairs, and a
     * patch joint would call back into them. Every adapter joint is attached to a tracked body
     * (body 1 of its pair), and a joint is in a body's list exactly while it exists and is
     * attached: those still there lose their feedback (contact and motor joints keep acting, as
     * plain ODE's would) or are disabled (a patch joint, whose callback needs the context). A
     * body destroyed before has detached its joints; a group emptied has destroyed them. */
    for (int i = 0; i < ctx->body_cap; ++i) {
        pfOdeBodyEntry *e = &ctx->bodies[i];
        if (!e->body) continue;
        if (dJointGetBody(e->sentinel, 0) == e->body) {
            for (int k = 0, nj = dBodyGetNumJoints(e->body); k < nj; ++k) {
                dJointID j = dBodyGetJoint(e->body, k);
                if (j == e->sentinel || dJointGetData(j) != (void *)ctx) continue;
                dJointSetFeedback(j, NULL);
                dJointSetData(j, NULL);
                int t = dJointGetType(j);
                if (t != dJointTypeContact && t != dJointTypeAMotor) dJointDisable(j);
            }
        }
        dJointDestroy(e->sentinel);
    }
    free(ctx->bodies);
    free(ctx->body_keys);
    free(ctx->mat_owner);
    for (int i = 0; i < ctx->chunk_count; ++i)
        free(ctx->chunks[i]);
    free(ctx->chunks);
    free(ctx->free_list);
    free(ctx->alive);
    if (ctx->scratch) {
        free(ctx->scratch->joints);
        free(ctx->scratch->loads);
        free(ctx->scratch->models);
        pf_ode_presolve_free(ctx->scratch->presolve);
    }
    free(ctx->scratch);
    free(ctx->pair_hash);
    free(ctx->mat_keys);
    free(ctx->mat_index);
    free(ctx->mats);
    free(ctx->spaces_done);
    pf_ode_pair_materials_free(ctx);
    free(ctx);
}

void pf_ode_set_contact_group(pfOdeContext *ctx, dJointGroupID group)
{
    if (ctx) ctx->near_group = group;
}

void pf_ode_forget_geom(pfOdeContext *ctx, dGeomID geom)
{
    if (!ctx || !geom) return;
    int w = 0;
    for (int a = 0; a < ctx->alive_count; ++a) {
        int idx = ctx->alive[a];
        pfOdePair *p = pf_ode_pair_at(ctx, idx);
        /* in flight (collided this step, or stepped and not yet read back): its joints hold
         * feedback into the pair and act in this step, as plain ODE's contacts of a geom
         * destroyed after collision do; released after the step (pf_ode_after_step) */
        const int in_flight =
            p->seen == ctx->frame || (ctx->before_called && p->seen + 1 == ctx->frame);
        if (p->g1 != geom && p->g2 != geom) {
            ctx->alive[w++] = idx;
        } else if (in_flight) {
            p->forgotten = 1;
            ctx->alive[w++] = idx;
        } else {
            pf_ode_pair_release(ctx, idx);
        }
    }
    ctx->alive_count = w;
    pf_ode_pair_materials_forget(ctx, geom);
    int s = mat_slot(ctx, geom);
    if (s >= 0) mat_remove(ctx, s);
}

int pf_ode_reset_pairs(pfOdeContext *ctx, pfError *err)
{
    clear_err(err);
    if (!ctx) {
        set_err(err, PF_ERR_NULL, "ctx", "%s is NULL", 0.0);
        return PF_ERR_NULL;
    }
    /* in flight: collided this step, or stepped and not yet read back (pf_ode_forget_geom) */
    int in_flight = ctx->before_called;
    for (int a = 0; a < ctx->alive_count && !in_flight; ++a)
        in_flight = pf_ode_pair_at(ctx, ctx->alive[a])->seen == ctx->frame;
    if (in_flight) {
        set_err(err, PF_ERR_STATE, "pf_ode_after_step",
                "pairs are in flight: reset them after %s, before the next pf_ode_collide", 0.0);
        return PF_ERR_STATE;
    }
    for (int a = 0; a < ctx->alive_count; ++a)
        pf_ode_pair_release(ctx, ctx->alive[a]);
    ctx->alive_count = 0;
    /* the pool as a new context hands it out, lowest index first: the pairs acquired after a
     * reset get the same records whatever the pairs were before it */
    ctx->free_count = 0;
    for (int k = ctx->pool_size - 1; k >= 0; --k)
        ctx->free_list[ctx->free_count++] = k;
    return PF_OK;
}

/* ---- diagnostics ---------------------------------------------------------------------------- */

int pf_ode_patch_count(const pfOdeContext *ctx)
{
    return ctx ? ctx->alive_count : 0;
}

/* A pair's report. A screened stick test (pf_ode_step.c, stick_decide) left its margin to be
 * evaluated here, from what the full test would have evaluated it with: the same number. */
static void patch_report(const pfOdePair *p, pfOdePatchInfo *out)
{
    *out = p->step.info;
    if (p->step.margin_lazy)
        out->stick_margin = pf_patch_dissipation_eval(&p->step.margin_def, p->step.margin_mu,
                                                      p->step.margin_n, p->step.margin_incipient) -
                            p->step.margin_demand;
}

int pf_ode_get_patch(const pfOdeContext *ctx, int i, pfOdePatchInfo *out)
{
    if (!ctx || !out) return PF_ERR_NULL;
    if (i < 0 || i >= ctx->alive_count) return PF_ERR_RANGE;
    patch_report(pf_ode_pair_at(ctx, ctx->alive[i]), out);
    return PF_OK;
}

int pf_ode_find_patch(const pfOdeContext *ctx, dGeomID a, dGeomID b, pfOdePatchInfo *out)
{
    if (!ctx || !out) return PF_ERR_NULL;
    for (int slot = 0; slot < PF_ODE_MAX_PAIR_PATCHES; ++slot) {
        int idx = pf_ode_pair_lookup(ctx, a, b, slot);
        if (idx >= 0) {
            patch_report(pf_ode_pair_at(ctx, idx), out);
            return PF_OK;
        }
    }
    return PF_ERR_RANGE;
}

int pf_ode_find_pair_patches(const pfOdeContext *ctx, dGeomID a, dGeomID b, pfOdePatchInfo *out,
                             int max, pfError *err)
{
    clear_err(err);
    if (!ctx || !out) {
        set_err(err, PF_ERR_NULL, ctx ? "out" : "ctx", "%s is NULL", 0.0);
        return PF_ERR_NULL;
    }
    if (max < 1 || max > PF_ODE_MAX_PAIR_PATCHES) {
        set_err(err, PF_ERR_RANGE, "max", "%s = %g is out of range (1 .. PF_ODE_MAX_PAIR_PATCHES)",
                (double)max);
        return PF_ERR_RANGE;
    }
    int count = 0;
    for (int slot = 0; slot < PF_ODE_MAX_PAIR_PATCHES; ++slot) {
        int idx = pf_ode_pair_lookup(ctx, a, b, slot);
        if (idx < 0) continue;
        if (count < max) patch_report(pf_ode_pair_at(ctx, idx), &out[count]);
        count++;
    }
    return count;
}

pfOdeCounters pf_ode_get_counters(const pfOdeContext *ctx)
{
    pfOdeCounters c;
    memset(&c, 0, sizeof c);
    return ctx ? ctx->counters : c;
}

void pf_ode_reset_counters(pfOdeContext *ctx)
{
    if (ctx) memset(&ctx->counters, 0, sizeof ctx->counters);
}
