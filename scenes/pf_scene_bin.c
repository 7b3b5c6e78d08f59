/* bin: at least 100 mixed bodies dropped into a walled bin.
 *
 * What you should see: `count` bodies (default 100) - boxes, spheres, capsules, cylinders and
 * trimesh cubes in turn, so 20 of each at the default count - start in a grid of layers 3 x 3
 * above a square bin (inner side 0.7 m, walls 3 m high, the floor is the ground plane z = 0),
 * each randomly oriented and shifted by up to 20 mm (the `seed` draws them), at rest and none
 * touching another. They fall, collide, pile up in the bin and come to rest within a few seconds.
 * The walls are higher than the top layer (it falls from 2.6 m), so every body ends in the pile:
 * with walls of 0.4 m (`--set wall=0.4`) two to five bodies bounce out, and a sphere or a
 * cylinder rolling away on the open ground keeps its speed with either friction model (there is
 * no rolling resistance), so the metrics then measure which body escaped, not the pile. `wall`
 * sets the wall height (default 3 m). Sizes 50-100 mm, density
 * 1000 kg/m^3 (a 0.1 m cube is 1 kg), every surface mu_s = mu_k = 0.6 (keys mu_s, mu_k), ODE's
 * default ERP and CFM, QuickStep at its default 20 iterations (stepper=quick, default) or
 * dWorldStep (stepper=world).
 *
 * No load but gravity acts at any time, so the whole run is an unforced phase: no step should
 * gain energy beyond what stock friction's steps gain. Metrics:
 *  - max_speed_after: the fastest body's speed over every step ending at t >= `after` (3 s);
 *  - kinetic_energy_end: the bodies' kinetic energy (translation and rotation) at the end;
 *  - max_energy_gain: the largest one-step gain of the total mechanical energy (kinetic +
 *    gravitational potential m g z) over the run, and max_energy_gain_time (end of that step);
 *  - lcp_messages / ode_messages: ODE's "LCP internal error" messages and any other dMessage
 *    during the scene's steps (the scene's own handler is installed for each step and the previous
 *    one restored);
 *  - point_fallback_fraction: pf_ode_get_counters' point_fallbacks / patches (NaN: no patch);
 *  - point_patch_fraction: pf_ode_get_counters' point_patches / patches (single points and short
 *    edges on the point's Coulomb law, P49a);
 *  - offplane_contacts: pf_ode_get_counters' offplane_contacts (contact-steps off their pair's
 *    one patch, point friction);
 *  - bodies_out: bodies whose centre is outside the bin's inner volume at the end;
 *  - lcp_failed_pairs: pf_ode_get_counters' lcp_failed_pairs (pair-steps of dWorldStep's failed
 *    LCP steps, whose measurements the adapter did not take);
 *  - max_speed, kinetic_energy_after (at the first step ending at t >= after), energy_end.
 * The `dt` key only sets the default step (pf-demo's --dt and the step's own dt still win).
 *
 * The viewer draws trimesh cubes as their bounding boxes.
 */
#include "pf_scene_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const char *const cases[] = {"drop", NULL};
static const char *const keys[] = {"count", "seed", "stepper",  "dt",         "mu_s", "mu_k",
                                   "after", "wall", "coupling", "iterations", NULL};

#define BIN_G 9.81      /* gravity [m/s^2] (pfs_ode_begin) */
#define BIN_HALF 0.35   /* half inner side of the bin [m] */
#define BIN_WALL_H 3.0  /* default wall height [m] (key wall): above the top spawn layer */
#define BIN_WALL_T 0.05 /* wall thickness [m] */
#define BIN_GRID 3      /* spawn grid per layer: BIN_GRID x BIN_GRID */
/* spawn grid spacing and layer height [m]: twice the largest bounding radius (a 0.1 m cube's,
 * 0.087 m) plus twice the jitter, so that no two bodies overlap at the start */
#define BIN_PITCH 0.22
#define BIN_Z0 0.15                            /* centre height of the lowest spawn layer [m] */
#define BIN_JITTER 0.02                        /* largest lateral shift from the grid point [m] */
#define BIN_DENSITY 1000.0                     /* [kg/m^3] */
#define BIN_MESH_SIDE 0.07                     /* side of every trimesh cube [m] */
#define BIN_MAX_COUNT (PF_SCENE_MAX_GEOMS - 5) /* ground and four walls are geoms too */

typedef enum BinKind {
    BK_BOX = 0,
    BK_SPHERE,
    BK_CAPSULE,
    BK_CYLINDER,
    BK_TRIMESH,
    BK_KINDS
} BinKind;

typedef struct Bin {
    int count, quick;
    unsigned long long seed;
    double dt, mu_s, mu_k, after, wall;
    dBodyID *body;
    dGeomID *geom;
    BinKind *kind;
    dTriMeshDataID mesh; ///< shared by every trimesh cube (its arrays below must outlive it)
    double mesh_v[8 * 3];
    dTriIndex mesh_i[12 * 3];
    /* energies of the last completed step [J], fastest body [m/s] */
    double kinetic, potential, vmax;
    /* metrics */
    double max_gain, max_gain_t, max_speed, max_speed_after, kinetic_after;
} Bin;

/* ------------------------------------------------------------------------------------------ */
/* build                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static double bin_dt(const pfScene *s)
{
    const Bin *b = s->impl;
    return b ? b->dt : 1e-3;
}

/* splitmix64: the seed draws the same bin on every machine. */
static double draw(uint64_t *st)
{
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}
static double draw_in(uint64_t *st, double lo, double hi)
{
    return lo + (hi - lo) * draw(st);
}

/* Unit cube mesh scaled to side h, centred on the origin (ODE needs the mass centre there). */
static void mesh_build(Bin *b, double h)
{
    for (int i = 0; i < 8; ++i)
        for (int k = 0; k < 3; ++k)
            b->mesh_v[3 * i + k] = ((i >> k) & 1) ? 0.5 * h : -0.5 * h;
    /* two outward-facing (counter-clockwise seen from outside) triangles per face */
    static const int tri[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
                                   {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
                                   {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    for (int t = 0; t < 12; ++t)
        for (int k = 0; k < 3; ++k)
            b->mesh_i[3 * t + k] = (dTriIndex)tri[t][k];
    b->mesh = dGeomTriMeshDataCreate();
#ifdef dDOUBLE
    dGeomTriMeshDataBuildDouble(b->mesh, b->mesh_v, 3 * sizeof(double), 8, b->mesh_i, 36,
                                3 * sizeof(dTriIndex));
#else
    /* dSINGLE: ODE reads the vertices as float */
    static float vf[8 * 3];
    for (int i = 0; i < 24; ++i)
        vf[i] = (float)b->mesh_v[i];
    dGeomTriMeshDataBuildSingle(b->mesh, vf, 3 * sizeof(float), 8, b->mesh_i, 36,
                                3 * sizeof(dTriIndex));
#endif
}

/* Body i: kind, geom, mass and pose drawn from st. */
static void body_create(pfScene *s, Bin *b, int i, uint64_t *st)
{
    BinKind kd = (BinKind)(i % BK_KINDS);
    dMass m;
    dGeomID g = 0;
    double r, l, x[3];
    switch (kd) {
    case BK_BOX:
        for (int k = 0; k < 3; ++k)
            x[k] = draw_in(st, 0.05, 0.1);
        dMassSetBoxTotal(&m, BIN_DENSITY * x[0] * x[1] * x[2], x[0], x[1], x[2]);
        g = dCreateBox(s->space, x[0], x[1], x[2]);
        break;
    case BK_SPHERE:
        r = draw_in(st, 0.025, 0.05);
        dMassSetSphereTotal(&m, BIN_DENSITY * 4.0 / 3.0 * M_PI * r * r * r, r);
        g = dCreateSphere(s->space, r);
        break;
    case BK_CAPSULE:
        r = draw_in(st, 0.02, 0.035);
        l = draw_in(st, 0.04, 0.08);
        dMassSetCapsuleTotal(&m, BIN_DENSITY * M_PI * r * r * (l + 4.0 / 3.0 * r), 3, r, l);
        g = dCreateCapsule(s->space, r, l);
        break;
    case BK_CYLINDER:
        r = draw_in(st, 0.025, 0.05);
        l = draw_in(st, 0.04, 0.1);
        dMassSetCylinderTotal(&m, BIN_DENSITY * M_PI * r * r * l, 3, r, l);
        g = dCreateCylinder(s->space, r, l);
        break;
    default: {
        double h = BIN_MESH_SIDE;
        dMassSetBoxTotal(&m, BIN_DENSITY * h * h * h, h, h, h);
        g = dCreateTriMesh(s->space, b->mesh, NULL, NULL, NULL);
        break;
    }
    }
    dBodyID body = dBodyCreate(s->world);
    dBodySetMass(body, &m);
    dGeomSetBody(g, body);
    int layer = i / (BIN_GRID * BIN_GRID), cell = i % (BIN_GRID * BIN_GRID);
    double gx = (cell % BIN_GRID - 0.5 * (BIN_GRID - 1)) * BIN_PITCH;
    double gy = (cell / BIN_GRID - 0.5 * (BIN_GRID - 1)) * BIN_PITCH;
    dBodySetPosition(body, gx + draw_in(st, -BIN_JITTER, BIN_JITTER),
                     gy + draw_in(st, -BIN_JITTER, BIN_JITTER), BIN_Z0 + layer * BIN_PITCH);
    /* uniform random orientation (Shoemake) */
    double u1 = draw(st), u2 = 2 * M_PI * draw(st), u3 = 2 * M_PI * draw(st);
    dQuaternion q = {sqrt(u1) * cos(u3), sqrt(1 - u1) * sin(u2), sqrt(1 - u1) * cos(u2),
                     sqrt(u1) * sin(u3)};
    dBodySetQuaternion(body, q);
    b->body[i] = body;
    b->geom[i] = g;
    b->kind[i] = kd;
}

/* Kinetic and potential energy and the fastest body, from the bodies' current state. */
static void measure(Bin *b)
{
    double ke = 0.0, pe = 0.0, vmax = 0.0;
    for (int i = 0; i < b->count; ++i) {
        dMass m;
        dBodyGetMass(b->body[i], &m);
        const dReal *v = dBodyGetLinearVel(b->body[i]), *w = dBodyGetAngularVel(b->body[i]);
        const dReal *R = dBodyGetRotation(b->body[i]), *p = dBodyGetPosition(b->body[i]);
        /* angular velocity in body axes: R^T w (ODE's R is row-major 3 x 4) */
        double wb[3], Iw[3];
        for (int k = 0; k < 3; ++k)
            wb[k] = R[k] * w[0] + R[4 + k] * w[1] + R[8 + k] * w[2];
        for (int k = 0; k < 3; ++k)
            Iw[k] = m.I[4 * k] * wb[0] + m.I[4 * k + 1] * wb[1] + m.I[4 * k + 2] * wb[2];
        double v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        ke += 0.5 * m.mass * v2 + 0.5 * (wb[0] * Iw[0] + wb[1] * Iw[1] + wb[2] * Iw[2]);
        pe += m.mass * BIN_G * p[2];
        if (sqrt(v2) > vmax) vmax = sqrt(v2);
    }
    b->kinetic = ke;
    b->potential = pe;
    b->vmax = vmax;
}

static int bin_build(pfScene *s, pfError *err)
{
    Bin *b = calloc(1, sizeof *b);
    if (!b) return pfs_fail(err, PF_ERR_NO_MEMORY, "bin: out of memory");
    s->impl = b;
    double count = 100, seed = 1;
    b->dt = 1e-3;
    b->mu_s = b->mu_k = 0.6;
    b->after = 3.0;
    b->wall = BIN_WALL_H;
    b->quick = 1;
    const double inf = HUGE_VAL;
    int rc;
#define PD(key, dst, lo, lo_open, hi, hi_open)                                                     \
    if ((rc = pfs_param_double(s, key, dst, lo, lo_open, hi, hi_open, err)) < 0) return rc
    PD("count", &count, 1, 0, BIN_MAX_COUNT, 0);
    PD("seed", &seed, 0, 0, 4294967295.0, 0);
    PD("dt", &b->dt, 0.0, 1, 0.1, 0);
    PD("mu_s", &b->mu_s, 0.0, 0, inf, 0);
    PD("mu_k", &b->mu_k, 0.0, 0, inf, 0);
    PD("after", &b->after, 0.0, 0, inf, 0);
    PD("wall", &b->wall, 0.0, 1, 100.0, 0);
#undef PD
    if (count != floor(count) || seed != floor(seed))
        return pfs_fail(err, PF_ERR_RANGE, "bin: --set count=%g seed=%g: expected integers", count,
                        seed);
    if (b->mu_k > b->mu_s)
        return pfs_fail(err, PF_ERR_RANGE, "bin: mu_k = %g > mu_s = %g: expected mu_k <= mu_s",
                        b->mu_k, b->mu_s);
    if ((rc = pfs_param_stepper(s, "bin", &b->quick, err)) != PF_OK) return rc;
    b->count = (int)count;
    b->seed = (unsigned long long)seed;
    b->body = calloc((size_t)b->count, sizeof *b->body);
    b->geom = calloc((size_t)b->count, sizeof *b->geom);
    b->kind = calloc((size_t)b->count, sizeof *b->kind);
    if (!b->body || !b->geom || !b->kind) return pfs_fail(err, PF_ERR_NO_MEMORY, "bin: no memory");

    s->quick = b->quick;
    if ((rc = pfs_ode_begin(s, err)) != PF_OK) return rc;
    pfOdeMaterial mat = pf_ode_default_material();
    mat.mu_s = b->mu_s;
    mat.mu_k = b->mu_k;
    mat.mode = s->mode;
    dGeomID ground = dCreatePlane(s->space, 0, 0, 1, 0);
    pfs_add_geom(s, ground);
    if ((rc = pf_ode_set_material(s->pf, ground, &mat, err)) != PF_OK) return rc;
    for (int w = 0; w < 4; ++w) { /* static walls (no body) around the inner square */
        double off = BIN_HALF + 0.5 * BIN_WALL_T, len = 2 * BIN_HALF + 2 * BIN_WALL_T;
        int along_x = w < 2;
        dGeomID g = along_x ? dCreateBox(s->space, len, BIN_WALL_T, b->wall)
                            : dCreateBox(s->space, BIN_WALL_T, len, b->wall);
        double sgn = (w % 2) ? 1.0 : -1.0;
        dGeomSetPosition(g, along_x ? 0.0 : sgn * off, along_x ? sgn * off : 0.0, 0.5 * b->wall);
        pfs_add_geom(s, g);
        if ((rc = pf_ode_set_material(s->pf, g, &mat, err)) != PF_OK) return rc;
    }
    mesh_build(b, BIN_MESH_SIDE);
    uint64_t st = b->seed * 0xD1342543DE82EF95ull + 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < b->count; ++i) {
        body_create(s, b, i, &st);
        pfs_add_geom(s, b->geom[i]);
        if ((rc = pf_ode_set_material(s->pf, b->geom[i], &mat, err)) != PF_OK) return rc;
    }
    /* QuickStep reorders its rows with ODE's global random generator: restart it at ODE's own
     * initial seed so that a run does not depend on what ran before it in the process */
    dRandSetSeed(0);
    measure(b);
    b->max_gain = b->max_gain_t = NAN;
    b->max_speed_after = b->kinetic_after = NAN;
    s->default_duration = 10.0;
    return PF_OK;
}

static void bin_free(pfScene *s)
{
    Bin *b = s->impl;
    if (!b) return;
    /* trimesh geoms go before their data (pf_scene.c destroys the rest afterwards) */
    for (int i = 0; b->geom && i < b->count; ++i)
        if (b->geom[i] && b->kind[i] == BK_TRIMESH) {
            if (s->pf) pf_ode_forget_geom(s->pf, b->geom[i]);
            dGeomDestroy(b->geom[i]);
        }
    if (b->mesh) dGeomTriMeshDataDestroy(b->mesh);
    free(b->body);
    free(b->geom);
    free(b->kind);
    free(b);
    s->impl = NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* step                                                                                        */
/* ------------------------------------------------------------------------------------------ */

static int bin_step(pfScene *s, double dt, pfError *err)
{
    Bin *b = s->impl;
    double e0 = b->kinetic + b->potential;
    int rc = pfs_ode_step(s, dt, err);
    if (rc != PF_OK) return rc;
    s->t += dt;
    s->steps++;
    measure(b);
    double gain = b->kinetic + b->potential - e0;
    if (isnan(b->max_gain) || gain > b->max_gain) {
        b->max_gain = gain;
        b->max_gain_t = s->t;
    }
    b->max_speed = fmax(b->max_speed, b->vmax);
    if (s->t >= b->after - 1e-9 * dt) {
        if (isnan(b->max_speed_after)) b->kinetic_after = b->kinetic;
        b->max_speed_after =
            isnan(b->max_speed_after) ? b->vmax : fmax(b->max_speed_after, b->vmax);
    }
    return PF_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* output                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static const char *const columns[] = {"t",       "kinetic", "potential", "energy", "max_speed",
                                      "patches", "stick",   "slip",      "point",  "lcp_messages"};
#define NCOL ((int)(sizeof columns / sizeof columns[0]))

static int bin_header(const char *const **names)
{
    *names = columns;
    return NCOL;
}

static void patch_states(const pfScene *s, int *n, int *stick, int *slip, int *point)
{
    *n = s->pf ? pf_ode_patch_count(s->pf) : 0;
    *stick = *slip = *point = 0;
    for (int i = 0; i < *n; ++i) {
        pfOdePatchInfo p;
        if (pf_ode_get_patch(s->pf, i, &p) != PF_OK) continue;
        *stick += p.state == PF_ODE_STATE_STICK;
        *slip += p.state == PF_ODE_STATE_SLIP;
        *point += p.state == PF_ODE_STATE_POINT;
    }
}

static int bin_row(const pfScene *s, double *row, int max)
{
    const Bin *b = s->impl;
    int n, stick, slip, point;
    patch_states(s, &n, &stick, &slip, &point);
    double v[NCOL] = {
        s->t,          b->kinetic,   b->potential,  b->kinetic + b->potential, b->vmax, (double)n,
        (double)stick, (double)slip, (double)point, (double)s->lcp_messages};
    int k = max < NCOL ? max : NCOL;
    memcpy(row, v, (size_t)k * sizeof *row);
    return k;
}

static int bin_out(const Bin *b)
{
    int out = 0;
    for (int i = 0; i < b->count; ++i) {
        const dReal *p = dBodyGetPosition(b->body[i]);
        out += !(fabs(p[0]) < BIN_HALF && fabs(p[1]) < BIN_HALF && p[2] > 0.0 && p[2] < b->wall);
    }
    return out;
}

static int bin_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    const Bin *b = s->impl;
    pfOdeCounters c = pf_ode_get_counters(s->pf);
    pfSceneMetric m[17];
    int n = 0;
    m[n++] = (pfSceneMetric){"bodies", (double)b->count};
    m[n++] = (pfSceneMetric){"max_speed_after", b->max_speed_after};
    m[n++] = (pfSceneMetric){"kinetic_energy_end", b->kinetic};
    m[n++] = (pfSceneMetric){"max_energy_gain", b->max_gain};
    m[n++] = (pfSceneMetric){"max_energy_gain_time", b->max_gain_t};
    m[n++] = (pfSceneMetric){"lcp_messages", (double)s->lcp_messages};
    m[n++] = (pfSceneMetric){"ode_messages", (double)s->ode_messages};
    m[n++] = (pfSceneMetric){"point_fallback_fraction",
                             c.patches > 0 ? (double)c.point_fallbacks / (double)c.patches : NAN};
    m[n++] = (pfSceneMetric){"offplane_contacts", (double)c.offplane_contacts};
    m[n++] = (pfSceneMetric){"point_patch_fraction",
                             c.patches > 0 ? (double)c.point_patches / (double)c.patches : NAN};
    m[n++] = (pfSceneMetric){"bodies_out", (double)bin_out(b)};
    m[n++] = (pfSceneMetric){"max_speed", b->max_speed};
    m[n++] = (pfSceneMetric){"kinetic_energy_after", b->kinetic_after};
    m[n++] = (pfSceneMetric){"energy_end", b->kinetic + b->potential};
    m[n++] = (pfSceneMetric){"after", b->after};
    m[n++] = (pfSceneMetric){"lcp_failed_pairs", (double)c.lcp_failed_pairs};
    return pfs_metrics_copy(m, n, out, max);
}

static int bin_state(const pfScene *s, char *buf, int size)
{
    const Bin *b = s->impl;
    int n, stick, slip, point;
    patch_states(s, &n, &stick, &slip, &point);
    return snprintf(buf, (size_t)size,
                    "t=%.3f s  %s  KE=%.4g J  vmax=%.3g m/s  patches %d (stick %d slip %d point "
                    "%d)  LCP errors %ld",
                    s->t, b->quick ? "QuickStep" : "dWorldStep", b->kinetic, b->vmax, n, stick,
                    slip, point, s->lcp_messages);
}

const pfSceneClass pf_scene_class_bin = {
    {"bin", "100 mixed bodies dropped into a walled bin", cases, keys},
    bin_dt,
    bin_build,
    bin_free,
    bin_step,
    bin_header,
    bin_row,
    bin_metrics,
    bin_state,
    NULL, /* no overlay */
};
