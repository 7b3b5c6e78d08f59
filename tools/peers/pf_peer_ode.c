/* pf-peer-ode: the peer-comparison cases (pf_peer_cases.h) in ODE 0.16, twice: "stock" (ODE's
 * point friction, dContactApprox1 with mu_s, as the scenes' stock mode builds it through the
 * adapter's PF_ODE_MODE_STOCK) and "patchfriction" (the adapter's exact patch friction with its
 * default CA stick test). Both worlds are set up as the scenes set theirs up (pfs_ode_begin):
 * gravity -z, contact surface layer 1e-4 m, auto-disable off, hash space, ODE's default ERP and
 * CFM, every pair through pf_ode_collide, dWorldStep at 1 ms.
 *
 * The push, direction, disk, creep and cost cases are built here with ODE directly: the scenes'
 * eccentric push ramps from t = 0 and takes its patch-mode breakaway from the patch state, and
 * free-slide's disk reports no eps, so neither measures the header's quantity. The pinch ratio is
 * the pinch scene's own bisection (case limit, grip 5 N, slip_tol 1 mm, its defaults otherwise:
 * motor fingertips, sudden load, QuickStep at 20 iterations, LIMIT criterion).
 *
 * Usage: pf-peer-ode --out FILE.json [--quick]. Progress on stderr. */
#include "pf_peer_json.h"
#include "pf_scene.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <ode/ode.h>
#include <patchfriction/pf_ode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct Config {
    const char *name;
    pfOdeMode mode;
} Config;

typedef struct Sim {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    pfOdeContext *pf;
    pfOdeMode mode;
    int status; ///< first failing pf_ode_* status (PF_OK while all is well)
} Sim;

typedef pfPeerResult Out;

static int quick;
static long lcp_messages; ///< ODE's "LCP internal error" messages (its handler is process-wide)

static void count_message(int num, const char *msg, va_list ap)
{
    (void)num;
    (void)ap;
    if (strstr(msg, "LCP internal error")) lcp_messages++;
}

static void near(void *data, dGeomID a, dGeomID b)
{
    Sim *s = data;
    int rc = pf_ode_collide(s->pf, a, b, s->group);
    if (rc < 0 && s->status == PF_OK) s->status = rc;
}

/* The world as pfs_ode_begin builds the scenes' (gravity g along -z unless given). */
static int sim_begin(Sim *s, pfOdeMode mode, const double g[3])
{
    memset(s, 0, sizeof *s);
    s->mode = mode;
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, g[0], g[1], g[2]);
    dWorldSetContactSurfaceLayer(s->world, 1e-4);
    dWorldSetAutoDisableFlag(s->world, 0);
    s->space = dHashSpaceCreate(0);
    s->group = dJointGroupCreate(0);
    pfOdeConfig cfg = pf_ode_default_config();
    pfError err;
    int rc = pf_ode_create(s->world, &cfg, &s->pf, &err);
    if (rc != PF_OK) fprintf(stderr, "pf-peer-ode: pf_ode_create: %s\n", err.message);
    return rc;
}

static void sim_end(Sim *s)
{
    pf_ode_destroy(s->pf);
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
}

static int sim_material(Sim *s, dGeomID geom, double mu_s, double mu_k)
{
    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = mu_s;
    m.mu_k = mu_k;
    m.mode = s->mode;
    pfError err;
    int rc = geom ? pf_ode_set_material(s->pf, geom, &m, &err)
                  : pf_ode_set_default_material(s->pf, &m, &err);
    if (rc != PF_OK) fprintf(stderr, "pf-peer-ode: material: %s\n", err.message);
    return rc;
}

/* Collide, adapter, dWorldStep, adapter: one step of the scenes' loop (pfs_ode_step). */
static int sim_step(Sim *s)
{
    dSpaceCollide(s->space, s, near);
    int rc = s->status;
    if (rc == PF_OK) rc = pf_ode_before_step(s->pf, PF_PEER_DT);
    dWorldStep(s->world, PF_PEER_DT);
    if (rc == PF_OK) rc = pf_ode_after_step(s->pf);
    dJointGroupEmpty(s->group);
    if (rc != PF_OK) fprintf(stderr, "pf-peer-ode: step failed: %s\n", pf_strerror(rc));
    return rc;
}

static dBodyID add_box(Sim *s, double lx, double ly, double lz, double mass, double x, double y,
                       dGeomID *geom)
{
    dBodyID b = dBodyCreate(s->world);
    dMass m;
    dMassSetBoxTotal(&m, mass, lx, ly, lz);
    dBodySetMass(b, &m);
    *geom = dCreateBox(s->space, lx, ly, lz);
    dGeomSetBody(*geom, b);
    dBodySetPosition(b, x, y, 0.5 * lz - 1e-5); /* resting, as the scenes place their blocks */
    return b;
}

/* The ground plane and the body's geom both of friction (mu_s, mu_k). */
static int sim_pair_material(Sim *s, dGeomID ground, dGeomID geom, double mu_s, double mu_k)
{
    int rc = sim_material(s, ground, mu_s, mu_k);
    return rc != PF_OK ? rc : sim_material(s, geom, mu_s, mu_k);
}

/* A world (sim_begin) with a ground plane and one box at the origin, both of friction
 * (mu_s, mu_k): the push and creep cases. The box, or NULL (nothing left to end) on failure. */
static dBodyID sim_box_on_plane(Sim *s, pfOdeMode mode, const double g[3], double lx, double ly,
                                double lz, double mass, double mu_s, double mu_k)
{
    if (sim_begin(s, mode, g) != PF_OK) return NULL;
    dGeomID ground = dCreatePlane(s->space, 0, 0, 1, 0), geom;
    dBodyID b = add_box(s, lx, ly, lz, mass, 0, 0, &geom);
    if (sim_pair_material(s, ground, geom, mu_s, mu_k) != PF_OK) {
        sim_end(s);
        return NULL;
    }
    return b;
}

static double ramp_rate(void)
{
    return quick ? 10.0 * PF_PEER_PUSH_RAMP : PF_PEER_PUSH_RAMP;
}

/* Breakaway force of the push block: the force grows at the ramp rate after the settling, along
 * the body's (cos a, sin a) applied at the body point (px, py, 0); breakaway when that point has
 * moved PF_PEER_BREAK_DIST in the plane. NAN if it never does below 2 mu_s m g (the pyramid holds
 * up to sqrt 2 mu_s m g). */
static double push_breakaway(pfOdeMode mode, double a, double px, double py)
{
    const double g[3] = {0, 0, -PF_PEER_G};
    Sim s;
    const double mass = PF_PEER_PUSH_RHO * PF_PEER_PUSH_L * PF_PEER_PUSH_W * PF_PEER_PUSH_H;
    dBodyID b = sim_box_on_plane(&s, mode, g, PF_PEER_PUSH_L, PF_PEER_PUSH_W, PF_PEER_PUSH_H, mass,
                                 PF_PEER_PUSH_MU_S, PF_PEER_PUSH_MU_K);
    if (!b) return NAN;
    double result = NAN;
    const double fmax = 2.0 * PF_PEER_PUSH_MU_S * mass * PF_PEER_G, ramp = ramp_rate();
    long settle = lround(PF_PEER_SETTLE / PF_PEER_DT);
    long n_max = settle + (long)ceil(fmax / ramp / PF_PEER_DT);
    dVector3 p0 = {0, 0, 0, 0};
    for (long k = 0; k < n_max; ++k) {
        double F = k > settle ? ramp * (double)(k - settle) * PF_PEER_DT : 0.0;
        if (k == settle) dBodyGetRelPointPos(b, px, py, 0, p0);
        if (F > 0.0) dBodyAddRelForceAtRelPos(b, F * cos(a), F * sin(a), 0, px, py, 0);
        if (sim_step(&s) != PF_OK) goto done;
        if (k >= settle) {
            dVector3 p;
            dBodyGetRelPointPos(b, px, py, 0, p);
            if (hypot(p[0] - p0[0], p[1] - p0[1]) > PF_PEER_BREAK_DIST) {
                result = F;
                break;
            }
        }
    }
done:
    sim_end(&s);
    return result;
}

/* Disk launched with v0 along x and w0 about z after settling: eps and both stop times. */
static void disk_case(pfOdeMode mode, Out *o)
{
    const double g[3] = {0, 0, -PF_PEER_G};
    Sim s;
    o->disk_eps = o->disk_stop_trans = o->disk_stop_spin = NAN;
    if (sim_begin(&s, mode, g) != PF_OK) return;
    dGeomID ground = dCreatePlane(s.space, 0, 0, 1, 0);
    dBodyID b = dBodyCreate(s.world);
    dMass m;
    dMassSetCylinderTotal(&m, PF_PEER_DISK_MASS, 3, PF_PEER_DISK_R, PF_PEER_DISK_HEIGHT);
    dBodySetMass(b, &m);
    dGeomID geom = dCreateCylinder(s.space, PF_PEER_DISK_R, PF_PEER_DISK_HEIGHT);
    dGeomSetBody(geom, b);
    dBodySetPosition(b, 0, 0, 0.5 * PF_PEER_DISK_HEIGHT - 1e-5);
    if (sim_pair_material(&s, ground, geom, PF_PEER_DISK_MU, PF_PEER_DISK_MU) != PF_OK) goto done;
    long settle = lround(PF_PEER_SETTLE / PF_PEER_DT), n_max = settle + lround(3.0 / PF_PEER_DT);
    for (long k = 0; k < n_max; ++k) {
        if (k == settle) {
            dBodySetLinearVel(b, PF_PEER_DISK_V0, 0, 0);
            dBodySetAngularVel(b, 0, 0, PF_PEER_DISK_W0);
        }
        if (sim_step(&s) != PF_OK) goto done;
        if (k < settle) continue;
        double t = (double)(k + 1 - settle) * PF_PEER_DT;
        const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
        double speed = hypot(v[0], v[1]), spin = fabs(w[2]);
        if (speed >= 0.05 * PF_PEER_DISK_V0 && spin >= 0.05 * PF_PEER_DISK_W0)
            o->disk_eps = speed / (PF_PEER_DISK_R * spin);
        if (isnan(o->disk_stop_trans) && speed < 1e-3) o->disk_stop_trans = t;
        if (isnan(o->disk_stop_spin) && PF_PEER_DISK_R * spin < 1e-3) o->disk_stop_spin = t;
        if (!isnan(o->disk_stop_trans) && !isnan(o->disk_stop_spin)) break;
    }
done:
    sim_end(&s);
}

/* Creep of the cube over PF_PEER_CREEP_T after settling: on the incline (push = 0, gravity
 * tilted about y) or on the level under the push at its mass centre along x. */
static double creep(pfOdeMode mode, int push)
{
    const double alpha = atan(PF_PEER_CREEP_FRACTION * PF_PEER_CREEP_MU);
    double g[3] = {0, 0, -PF_PEER_G};
    if (!push) {
        g[0] = PF_PEER_G * sin(alpha);
        g[2] = -PF_PEER_G * cos(alpha);
    }
    Sim s;
    const double a = PF_PEER_CREEP_SIDE;
    dBodyID b = sim_box_on_plane(&s, mode, g, a, a, a, PF_PEER_CREEP_MASS, PF_PEER_CREEP_MU,
                                 PF_PEER_CREEP_MU);
    if (!b) return NAN;
    double result = NAN;
    const double F = PF_PEER_CREEP_FRACTION * PF_PEER_CREEP_MU * PF_PEER_CREEP_MASS * PF_PEER_G;
    long settle = lround(PF_PEER_SETTLE / PF_PEER_DT);
    long n = settle + lround((quick ? 1.0 : PF_PEER_CREEP_T) / PF_PEER_DT);
    double x0 = 0, y0 = 0;
    for (long k = 0; k < n; ++k) {
        if (k == settle) {
            x0 = dBodyGetPosition(b)[0];
            y0 = dBodyGetPosition(b)[1];
        }
        if (push && k >= settle) dBodyAddForce(b, F, 0, 0);
        if (sim_step(&s) != PF_OK) goto done;
    }
    result = hypot(dBodyGetPosition(b)[0] - x0, dBodyGetPosition(b)[1] - y0);
done:
    sim_end(&s);
    return result;
}

/* The pinch scene's bisection (its closed-form limit and its hold test). */
static double pinch_ratio(pfOdeMode mode, Out *o)
{
    char grip[32];
    snprintf(grip, sizeof grip, "%g", PF_PEER_PINCH_N);
    pfSceneParam kv[] = {{"grip", grip}, {"slip_tol", "0.001"}, {"tol", quick ? "0.05" : "0.002"}};
    pfScene *sc = NULL;
    pfError err;
    if (pf_scene_create("pinch", "limit", mode, kv, 3, &sc, &err) != PF_OK) {
        fprintf(stderr, "pf-peer-ode: pinch: %s\n", err.message);
        pf_peer_note(o, "pinch: the pinch scene failed to build (see stderr)");
        return NAN;
    }
    double dt = pf_scene_default_dt(sc), T = pf_scene_default_duration(sc);
    int rc = PF_OK;
    while (rc == PF_OK && pf_scene_time(sc) < T - 0.5 * dt)
        rc = pf_scene_step(sc, dt, &err);
    double ratio = NAN;
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int nm = pf_scene_metrics(sc, m, PF_SCENE_MAX_METRICS);
    for (int i = 0; i < nm; ++i)
        if (!strcmp(m[i].name, "offset_max_ratio")) ratio = m[i].value;
    if (rc != PF_OK) {
        fprintf(stderr, "pf-peer-ode: pinch: %s\n", err.message);
        ratio = NAN;
    }
    pf_scene_destroy(sc);
    return ratio;
}

/* 1000 boxes sliding: wall-clock time of a step (collide, adapter, dWorldStep). */
static void cost_case(pfOdeMode mode, Out *o)
{
    const double g[3] = {0, 0, -PF_PEER_G};
    Sim s;
    o->cost_bodies = 0;
    o->cost_step_us = NAN;
    if (sim_begin(&s, mode, g) != PF_OK) return;
    dCreatePlane(s.space, 0, 0, 1, 0);
    if (sim_material(&s, 0, 0.5, 0.5) != PF_OK) goto done;
    for (int i = 0; i < PF_PEER_COST_BODIES; ++i) {
        dGeomID geom;
        dBodyID b = add_box(&s, 0.1, 0.1, 0.1, 1.0, 0.3 * (i % 10), 0.3 * (i / 10), &geom);
        dBodySetLinearVel(b, 1.0, 0, 0);
    }
    for (int k = 0; k < 10; ++k)
        if (sim_step(&s) != PF_OK) goto done;
    int steps = quick ? 20 : PF_PEER_COST_STEPS;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int k = 0; k < steps; ++k)
        if (sim_step(&s) != PF_OK) goto done;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    o->cost_bodies = PF_PEER_COST_BODIES;
    o->cost_step_us =
        ((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-3) / steps;
done:
    sim_end(&s);
}

static json_t *run_config(const Config *c)
{
    Out o;
    memset(&o, 0, sizeof o);
    lcp_messages = 0;
    for (int i = 0; i < 3; ++i) {
        /* along the block's y, at the half-height of the long side y = -W/2, x = h */
        o.push[i] = push_breakaway(c->mode, 0.5 * M_PI, pf_peer_push_h[i], -0.5 * PF_PEER_PUSH_W);
        fprintf(stderr, "pf-peer-ode %s: push h = %g m: %.6g N\n", c->name, pf_peer_push_h[i],
                o.push[i]);
    }
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (int i = 0; i < PF_PEER_DIR_N; ++i) {
        double th = i * PF_PEER_DIR_STEP_DEG * M_PI / 180.0;
        o.dir[i] = push_breakaway(c->mode, th, 0, 0);
        lo = fmin(lo, o.dir[i]);
        hi = fmax(hi, o.dir[i]);
        fprintf(stderr, "pf-peer-ode %s: direction %g deg: %.6g N\n", c->name,
                i * PF_PEER_DIR_STEP_DEG, o.dir[i]);
    }
    o.dir_spread = (hi - lo) / lo;
    for (int i = 0; i < PF_PEER_DIR_N; ++i)
        if (isnan(o.dir[i])) o.dir_spread = NAN;
    disk_case(c->mode, &o);
    fprintf(stderr, "pf-peer-ode %s: disk eps %.4g, stops %.4g / %.4g s\n", c->name, o.disk_eps,
            o.disk_stop_trans, o.disk_stop_spin);
    o.creep_incline = creep(c->mode, 0);
    o.creep_push = creep(c->mode, 1);
    fprintf(stderr, "pf-peer-ode %s: creep incline %.3g m, push %.3g m\n", c->name, o.creep_incline,
            o.creep_push);
    o.pinch_ratio = pinch_ratio(c->mode, &o);
    fprintf(stderr, "pf-peer-ode %s: pinch ratio %.4g\n", c->name, o.pinch_ratio);
    cost_case(c->mode, &o);
    fprintf(stderr, "pf-peer-ode %s: cost %.1f us/step (%d bodies)\n", c->name, o.cost_step_us,
            o.cost_bodies);

    static char lcp_note[2][160];
    if (lcp_messages > 0) {
        char *t = lcp_note[c->mode == PF_ODE_MODE_STOCK];
        snprintf(t, sizeof lcp_note[0],
                 "ODE printed 'LCP internal error' %ld times (its LCP solver; counted, "
                 "not shown)",
                 lcp_messages);
        pf_peer_note(&o, t);
    }
    if (quick)
        pf_peer_note(
            &o, "--quick: ramp 10x faster, creep over 1 s, pinch tol 0.05, cost over 20 steps");
    pf_peer_note(&o,
                 "eccentric push and direction: breakaway when the pushed point has moved 0.1 mm, "
                 "as for every engine (not the adapter's patch state)");
    pf_peer_note(
        &o, "pinch: the pinch scene's own bisection (motor fingertips, QuickStep at 20 "
            "iterations, LIMIT criterion); it holds while either end of the bar moves less than "
            "1 mm relative to the fingertips' midpoint, stricter than the centre's 1 mm");
    if (c->mode == PF_ODE_MODE_STOCK) {
        pf_peer_note(&o,
                     "stock: ODE's friction pyramid (dContactApprox1, mu = mu_s, box-plane contact "
                     "points at the corners), no torsional friction");
        if (!(o.pinch_ratio > 0.0))
            pf_peer_note(&o, "pinch: point contacts carry no torsion, the bar turns at any offset");
    } else {
        pf_peer_note(&o,
                     "patchfriction: the adapter's defaults (exact patch friction, CA stick test, "
                     "coupling auto); the CA test (P10-P12) breaks an eccentric push away a little "
                     "above the exact limit set (P32; criterion LIMIT), about 3 % at h = 5 mm");
    }

    return pf_peer_result_json(
        "ode", c->name, PF_PEER_ODE_VERSION,
        c->mode == PF_ODE_MODE_STOCK
            ? "dWorldStep, dt 1 ms, dContactApprox1 pyramid (mu_s), default ERP 0.2 / "
              "CFM, surface layer 0.1 mm; pinch: QuickStep 20 iterations"
            : "dWorldStep, dt 1 ms, patchfriction exact mode, CA criterion, default "
              "ERP 0.2 / CFM, surface layer 0.1 mm; pinch: QuickStep 20 iterations, "
              "LIMIT criterion",
        &o);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: pf-peer-ode --out FILE.json [--quick]\n"
               "  Runs the peer-comparison cases (tools/peers/pf_peer_cases.h) in ODE with its\n"
               "  stock point friction and with patchfriction; writes a JSON array of both.\n"
               "  --quick  shortened runs (smoke test)\n");
}

int main(int argc, char **argv)
{
    const char *out;
    int rc = pf_peer_parse_args("pf-peer-ode", argc, argv, usage, &out, &quick);
    if (rc >= 0) return rc;
    dInitODE2(0);
    dSetMessageHandler(count_message);
    const Config configs[] = {{"stock", PF_ODE_MODE_STOCK}, {"patchfriction", PF_ODE_MODE_EXACT}};
    json_t *all = json_array();
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; ++i)
        json_array_append_new(all, run_config(&configs[i]));
    dCloseODE();
    return pf_peer_write_json("pf-peer-ode", all, out);
}
