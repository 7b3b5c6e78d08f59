/* corner: a box in the concave corner of one trimesh (several patches per pair, docs/physics.md
 * §8.3, P50-P52).
 *
 * One static dTriMesh geom is a floor (z = 0, x in [0, 0.5], y in [-1, 1]) and a wall (x = 0,
 * z in [0, 0.3]): two faces at 90 degrees in ONE geom, so the box's contacts with it are one geom
 * pair. A 0.1 m cube of mass m (key mass, default 1 kg) is set touching the wall 0.5 mm above
 * the floor and lands in the corner within 10 ms, pressed into the wall from the start by a force
 * P (key press, default 2.5 N, along -x through its mass centre), and is pushed
 * along the wall (+y, through its mass centre) by F:
 *   ramp:   F = rate (t - 0.2 s) from t = 0.2 s (key rate, default 5 N/s) until the box has
 *           travelled more than 1e-6 m along the wall; from then on F stays at that value and
 *           the box slides;
 *   sudden: F = ratio mu_s (m g + P) applied at once at t = 0.2 s (key ratio, default 0.99).
 * mu_s (default 0.6) and mu_k (default 0.5) for the pair; stepper=quick (default) or world;
 * iterations=N (QuickStep).
 * Closed form (docs/physics.md P52): the floor carries N_f = m g and the wall N_w = P, both
 * patches slide along y together, so the box holds while F <= mu_s (m g + P) (7.386 N at the
 * defaults) and slides at a = (F - mu_k (m g + P)) / m.
 * Metrics: hold_max (the largest F after which the box has travelled at most 1e-6 m from where it
 * stood at t = 0.2 s), hold_closed_form, travel (the largest travel along the wall: in the sudden
 * case, the hold's), push (the F it slides under), accel (mean acceleration along the wall over
 * 0.05 .. 0.25 s after the slide began) and accel_closed_form, wall_gap (the largest move away
 * from the wall meanwhile), tilt (the largest rotation from the start), pair_patches_min / _max
 * (the box-corner pair's patches over the steps after t = 0.2 s), floor_normal_error /
 * wall_normal_error (the angle between the pair's patch normal nearest +z / +x and that axis, at
 * the last held step) and slot_changes (steps at which the floor patch changed its slot).
 * What you should see: the box stays in the corner while F grows, then slides along the wall,
 * touching floor and wall. With patch friction the pair has a floor patch and a wall patch; it
 * holds to mu_s (m g + P) and slides at the closed-form acceleration (docs/physics.md §8.3);
 * stock friction holds about as far as the closed form, then creeps. */
#include "pf_scene_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_RAMP, C_SUDDEN };
static const char *const cases[] = {"ramp", "sudden", NULL};
static const char *const keys[] = {"mass", "press",   "rate",     "ratio",      "mu_s",
                                   "mu_k", "stepper", "coupling", "iterations", NULL};

#define G 9.81
#define SIDE 0.1        /* the cube's side [m] */
#define SETTLE 0.2      /* the push begins [s] */
#define TRAVEL_TOL 1e-6 /* held: travel along the wall at most this [m] */
#define ACC_FROM 0.05   /* the acceleration window after the slide began [s] */
#define ACC_TO 0.25

/* the trimesh: floor A B C D, wall A D F E (x = 0), both faces' normals into the corner */
static const double mesh_v[6][3] = {{0, -1, 0}, {0.5, -1, 0}, {0.5, 1, 0},
                                    {0, 1, 0},  {0, -1, 0.3}, {0, 1, 0.3}};
static const dTriIndex mesh_i[12] = {0, 1, 2, 0, 2, 3, 0, 5, 4, 0, 3, 5};

typedef struct Corner {
    double mass, press, rate, ratio, mu_s, mu_k;
    int quick;
    dTriMeshDataID data;
    dGeomID mesh, box_geom;
    dBodyID box;
    double p0[3];    ///< the box's position at t = SETTLE
    double F;        ///< the push of the step being taken [N]
    int pushing;     ///< the push has begun
    int sliding;     ///< the travel exceeded TRAVEL_TOL
    double t_slide;  ///< when [s]
    double hold_max; ///< the largest F held [N]
    double travel, wall_gap, tilt;
    double v_a, t_a; ///< velocity along the wall at ACC_FROM after the slide began
    double accel;
    int pmin, pmax; ///< the pair's patches after SETTLE
    double floor_err, wall_err;
    int floor_slot, slot_changes;
} Corner;

static double limit(const Corner *k)
{
    return k->mu_s * (k->mass * G + k->press); /* P52 */
}

static int co_build(pfScene *s, pfError *err)
{
    Corner *k = calloc(1, sizeof *k);
    if (!k) return pfs_fail(err, PF_ERR_NO_MEMORY, "corner: out of memory");
    s->impl = k;
    k->mass = 1.0;
    k->press = 2.5;
    k->rate = 5.0;
    k->ratio = 0.99;
    k->mu_s = 0.6;
    k->mu_k = 0.5;
    k->quick = 1;
    k->accel = NAN;
    k->floor_err = k->wall_err = NAN;
    k->floor_slot = -1;
    k->pmin = 1 << 30;
    int rc;
    PD("mass", &k->mass, 0.0, 1, 1e3, 0);
    PD("press", &k->press, 0.0, 0, 1e4, 0);
    PD("rate", &k->rate, 0.0, 1, 1e4, 0);
    PD("ratio", &k->ratio, 0.0, 0, 10.0, 0);
    PD("mu_s", &k->mu_s, 0.0, 1, 10.0, 0);
    PD("mu_k", &k->mu_k, 0.0, 0, 10.0, 0);
    if (k->mu_k > k->mu_s)
        return pfs_fail(err, PF_ERR_RANGE, "corner: --set mu_k=%g: expected at most mu_s = %g",
                        k->mu_k, k->mu_s);
    if ((rc = pfs_param_stepper(s, "corner", &k->quick, err)) != PF_OK) return rc;
    if ((rc = pfs_param_check_unused(s, err)) != PF_OK) return rc;
    s->quick = k->quick;
    if ((rc = pfs_ode_begin(s, err)) != PF_OK) return rc;
    /* QuickStep visits the rows in ODE's random order: restart the generator, so a run is
     * repeatable whatever ran before in the process */
    dRandSetSeed(1);

    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = k->mu_s;
    m.mu_k = k->mu_k;
    if (s->mode == PF_ODE_MODE_STOCK) m.mode = PF_ODE_MODE_STOCK;
    pfError e2;
    if (pf_ode_set_default_material(s->pf, &m, &e2) != PF_OK)
        return pfs_fail(err, e2.status, "corner: %s", e2.message);

    k->data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(k->data, mesh_v, 3 * sizeof(double), 6, mesh_i, 12,
                                3 * sizeof(dTriIndex));
    k->mesh = dCreateTriMesh(s->space, k->data, NULL, NULL, NULL);
    pfs_add_geom(s, k->mesh);
    k->box = dBodyCreate(s->world);
    dMass ms;
    dMassSetBoxTotal(&ms, k->mass, SIDE, SIDE, SIDE);
    dBodySetMass(k->box, &ms);
    dBodySetPosition(k->box, 0.5 * SIDE, 0, 0.5 * SIDE + 5e-4);
    k->box_geom = dCreateBox(s->space, SIDE, SIDE, SIDE);
    dGeomSetBody(k->box_geom, k->box);
    pfs_add_geom(s, k->box_geom);
    s->default_duration =
        s->case_index == C_RAMP ? SETTLE + limit(k) / k->rate + ACC_TO + 0.05 : SETTLE + 1.0;
    return PF_OK;
}

static void co_free(pfScene *s)
{
    Corner *k = s->impl;
    if (!k) return;
    /* the trimesh geom goes before its data (pf_scene.c destroys the other geoms afterwards) */
    if (k->mesh) {
        if (s->pf) pf_ode_forget_geom(s->pf, k->mesh);
        dGeomDestroy(k->mesh);
    }
    if (k->data) dGeomTriMeshDataDestroy(k->data);
    free(k);
}

/* The pair's patches after the step: their count, and which is the floor's (normal nearest +z)
 * and the wall's (nearest +x). */
static void read_patches(pfScene *s, Corner *k)
{
    pfOdePatchInfo pi[PF_ODE_MAX_PAIR_PATCHES];
    int n =
        pf_ode_find_pair_patches(s->pf, k->box_geom, k->mesh, pi, PF_ODE_MAX_PAIR_PATCHES, NULL);
    if (n < 0) n = 0;
    if (n < k->pmin) k->pmin = n;
    if (n > k->pmax) k->pmax = n;
    int f = -1, w = -1;
    for (int i = 0; i < n; ++i) {
        if (f < 0 || pi[i].normal[2] > pi[f].normal[2]) f = i;
        if (w < 0 || pi[i].normal[0] > pi[w].normal[0]) w = i;
    }
    if (f >= 0 && k->floor_slot >= 0 && pi[f].slot != k->floor_slot) k->slot_changes++;
    if (f >= 0) k->floor_slot = pi[f].slot;
    if (!k->sliding && f >= 0) {
        k->floor_err = acos(fmin(1.0, pi[f].normal[2]));
        k->wall_err = acos(fmin(1.0, pi[w].normal[0]));
    }
}

static int co_step(pfScene *s, double dt, pfError *err)
{
    Corner *k = s->impl;
    /* the loads of this step, at the mass centre */
    const double t = s->t;
    if (t >= SETTLE - 0.5 * dt && !k->pushing) {
        k->pushing = 1;
        memcpy(k->p0, dBodyGetPosition(k->box), sizeof k->p0);
    }
    if (k->pushing && !k->sliding)
        k->F = s->case_index == C_RAMP ? k->rate * (t + dt - SETTLE) : k->ratio * limit(k);
    dBodyAddForce(k->box, -k->press, k->pushing ? k->F : 0.0, 0.0);
    int rc = pfs_ode_step(s, dt, err);
    if (rc != PF_OK) return rc;
    s->t += dt;
    s->steps++;
    if (!k->pushing) return PF_OK;
    read_patches(s, k);
    const dReal *p = dBodyGetPosition(k->box), *R = dBodyGetRotation(k->box);
    const double travel = fabs(p[1] - k->p0[1]);
    if (!(travel <= k->travel)) k->travel = travel;
    const double gap = p[0] - k->p0[0];
    if (!(gap <= k->wall_gap)) k->wall_gap = gap;
    /* rotation angle from the identity: cos = (trace - 1) / 2 */
    const double tilt = acos(fmax(-1.0, fmin(1.0, 0.5 * (R[0] + R[5] + R[10] - 1.0))));
    if (!(tilt <= k->tilt)) k->tilt = tilt;
    if (!k->sliding) {
        if (travel <= TRAVEL_TOL) {
            if (k->F > k->hold_max) k->hold_max = k->F;
        } else {
            k->sliding = 1;
            k->t_slide = s->t;
        }
    }
    const double v = dBodyGetLinearVel(k->box)[1];
    if (k->sliding && k->t_a == 0.0 && s->t >= k->t_slide + ACC_FROM - 0.5 * dt) {
        k->t_a = s->t;
        k->v_a = v;
    }
    if (k->sliding && k->t_a > 0.0 && isnan(k->accel) && s->t >= k->t_slide + ACC_TO - 0.5 * dt)
        k->accel = (v - k->v_a) / (s->t - k->t_a);
    return PF_OK;
}

static const char *const columns[] = {"t", "x", "y", "z", "vy", "push"};

static int co_header(const char *const **names)
{
    *names = columns;
    return (int)(sizeof columns / sizeof *columns);
}

static int co_row(const pfScene *s, double *row, int max)
{
    const Corner *k = s->impl;
    const dReal *p = dBodyGetPosition(k->box);
    const double r[6] = {s->t, p[0], p[1], p[2], dBodyGetLinearVel(k->box)[1], k->F};
    int n = 6 < max ? 6 : max;
    memcpy(row, r, (size_t)n * sizeof *row);
    return n;
}

static int co_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    const Corner *k = s->impl;
    pfOdeCounters c = pf_ode_get_counters(s->pf);
    const double load = k->mass * G + k->press;
    const pfSceneMetric m[] = {
        {"hold_max", k->hold_max},
        {"hold_closed_form", limit(k)},
        {"travel", k->travel},
        {"sliding", (double)k->sliding},
        {"push", k->sliding ? k->F : NAN},
        {"accel", k->accel},
        {"accel_closed_form", k->sliding ? (k->F - k->mu_k * load) / k->mass : NAN},
        {"wall_gap", k->wall_gap},
        {"tilt", k->tilt},
        {"pair_patches_min", k->pmax > 0 ? (double)k->pmin : 0.0},
        {"pair_patches_max", (double)k->pmax},
        {"floor_normal_error", k->floor_err},
        {"wall_normal_error", k->wall_err},
        {"slot_changes", (double)k->slot_changes},
        {"split_patches", (double)c.split_patches},
        {"breakaways", (double)c.breakaways},
        {"ode_messages", (double)(s->lcp_messages + s->ode_messages)},
    };
    return pfs_metrics_copy(m, (int)(sizeof m / sizeof m[0]), out, max);
}

static int co_state(const pfScene *s, char *buf, int size)
{
    const Corner *k = s->impl;
    return snprintf(buf, (size_t)size,
                    "t=%.3f s  %s  F=%.4f N (limit %.4f)  %s  vy=%.4f m/s  patches %d..%d", s->t,
                    k->quick ? "QuickStep" : "dWorldStep", k->F, limit(k),
                    k->sliding ? "slides" : "holds", dBodyGetLinearVel(k->box)[1],
                    k->pmax > 0 ? k->pmin : 0, k->pmax);
}

const pfSceneClass pf_scene_class_corner = {
    {"corner", "a box in a concave trimesh corner pushed along the wall (patches per pair)", cases,
     keys},
    NULL,
    co_build,
    co_free,
    co_step,
    co_header,
    co_row,
    co_metrics,
    co_state,
    NULL, /* no overlay */
};
