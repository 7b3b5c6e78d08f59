/* conveyor: surface motion through the plugin (pfOdeSurface.velocity, docs/physics.md P45).
 *
 *   belt:    a static belt (a box geom 4 x 0.5 x 0.1 m without a body, top at z = 0) whose
 *            surface moves at speed (key speed, default 0.5 m/s) along x; a 0.1 m cube of 1 kg is
 *            set on it at rest.
 *   tracked: a 2 kg vehicle on the ground plane, heading 30 degrees from x: a 0.4 x 0.3 x 0.06 m
 *            chassis on two track geoms 0.4 x 0.08 x 0.06 m whose surfaces move at -speed along
 *            the body's x (default 0.3 m/s), so the tracks push the ground back and the body
 *            forward.
 * mu_s = mu_k = mu everywhere (key mu, default 0.5); stepper=quick (default) or world;
 * iterations=N (QuickStep). The body starts at rest: kinetic friction accelerates it at mu g
 * until it moves with the surface, at t = speed / (mu g) (catch_up_closed_form), and from then on
 * it rides at speed. Metrics: speed (along the drive direction, at the end), catch_up (the first
 * time the speed is within 1e-3 of the surface's), creep (from t = 1 s on, the largest distance
 * between the body and where the surface has carried it: |x - x1 - speed (t - 1)| along the
 * drive, which for the vehicle is its heading at t = 1 s, and the sideways drift), yaw_creep
 * (the vehicle's heading change from t = 1 s on), heading_error (its heading against the one it
 * was set down with: what the start-up, while the tracks slip, turned it), breakaways and
 * stick_fraction.
 * What you should see: the cube (or the vehicle) speeds up, then moves with the belt (drives
 * straight along its heading) without falling behind: creep below a micrometre under both
 * steppers. Stock friction (ODE's dContactMotion1/2 on its own contacts) also carries it. With
 * coupling=solver the scene is refused: the in-solver coupling has no surface parameters. */
#include "pf_scene_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { C_BELT, C_TRACKED };
static const char *const cases[] = {"belt", "tracked", NULL};
static const char *const keys[] = {"speed", "mu", "stepper", "coupling", "iterations", NULL};

#define G 9.81
#define WINDOW 1.0 /* creep is measured from this time on [s] */
#define HEADING (30.0 * M_PI / 180.0)

typedef struct Conveyor {
    double speed, mu;
    int quick;
    dBodyID body;
    double dir[3]; ///< drive direction (world, horizontal)
    double catch_up;
    int have_ref;
    double p1[3], t1; ///< position and time at the window's start
    double creep, drift;
    double yaw1;      ///< heading at the window's start [rad]
    double yaw_creep; ///< largest heading change since then [rad]
} Conveyor;

/* the body's heading: the angle of its x axis in the ground plane */
static double heading(dBodyID b)
{
    const dReal *R = dBodyGetRotation(b);
    return atan2(R[4], R[0]);
}

static int cv_build(pfScene *s, pfError *err)
{
    Conveyor *k = calloc(1, sizeof *k);
    if (!k) return pfs_fail(err, PF_ERR_NO_MEMORY, "conveyor: out of memory");
    s->impl = k;
    const int belt = s->case_index == C_BELT;
    k->speed = belt ? 0.5 : 0.3;
    k->mu = 0.5;
    k->quick = 1;
    k->catch_up = NAN;
    int rc;
    PD("speed", &k->speed, -100.0, 0, 100.0, 0);
    PD("mu", &k->mu, 0.0, 1, 10.0, 0);
    if ((rc = pfs_param_stepper(s, "conveyor", &k->quick, err)) != PF_OK) return rc;
    if ((rc = pfs_param_check_unused(s, err)) != PF_OK) return rc;
    s->quick = k->quick;
    /* surface motion is the adapter's (the in-solver coupling has no surface parameters): auto
     * means the adapter here; an explicit coupling=solver is refused by the material */
    if (s->coupling == PF_ODE_COUPLING_AUTO) s->coupling = PF_ODE_COUPLING_ADAPTER;
    if ((rc = pfs_ode_begin(s, err)) != PF_OK) return rc;
    /* QuickStep visits the rows in ODE's random order: restart the generator, so a run is
     * repeatable whatever ran before in the process */
    dRandSetSeed(1);
    dWorldSetContactSurfaceLayer(s->world, 0.0);

    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = m.mu_k = k->mu;
    if (s->mode == PF_ODE_MODE_STOCK) m.mode = PF_ODE_MODE_STOCK;
    pfOdeMaterial moving = m;
    pfError e2;
    if (pf_ode_set_default_material(s->pf, &m, &e2) != PF_OK)
        return pfs_fail(err, e2.status, "conveyor: %s", e2.message);

    dMass ms;
    dMatrix3 R;
    k->body = dBodyCreate(s->world);
    if (belt) {
        dGeomID g = dCreateBox(s->space, 4.0, 0.5, 0.1);
        dGeomSetPosition(g, 0, 0, -0.05);
        pfs_add_geom(s, g);
        moving.surface.velocity[0] = k->speed;
        if (pf_ode_set_material(s->pf, g, &moving, &e2) != PF_OK)
            return pfs_fail(err, e2.status, "conveyor: belt material: %s", e2.message);
        dMassSetBoxTotal(&ms, 1.0, 0.1, 0.1, 0.1);
        dBodySetMass(k->body, &ms);
        dBodySetPosition(k->body, -1.5 * copysign(1.0, k->speed), 0, 0.05);
        dGeomID b = dCreateBox(s->space, 0.1, 0.1, 0.1);
        dGeomSetBody(b, k->body);
        pfs_add_geom(s, b);
        k->dir[0] = 1.0;
    } else {
        pfs_add_geom(s, dCreatePlane(s->space, 0, 0, 1, 0));
        dMassSetBoxTotal(&ms, 2.0, 0.4, 0.3, 0.06);
        dBodySetMass(k->body, &ms);
        dBodySetPosition(k->body, 0, 0, 0.03);
        dRFromAxisAndAngle(R, 0, 0, 1, HEADING);
        dBodySetRotation(k->body, R);
        moving.surface.velocity[0] = -k->speed;
        for (int side = -1; side <= 1; side += 2) {
            dGeomID t = dCreateBox(s->space, 0.4, 0.08, 0.06);
            dGeomSetBody(t, k->body);
            dGeomSetOffsetPosition(t, 0, side * 0.11, 0);
            pfs_add_geom(s, t);
            if (pf_ode_set_material(s->pf, t, &moving, &e2) != PF_OK)
                return pfs_fail(err, e2.status, "conveyor: track material: %s", e2.message);
        }
        k->dir[0] = cos(HEADING);
        k->dir[1] = sin(HEADING);
    }
    s->default_duration = 3.0;
    return PF_OK;
}

static void cv_free(pfScene *s)
{
    free(s->impl);
}

static double along(const Conveyor *k, const dReal *v)
{
    return v[0] * k->dir[0] + v[1] * k->dir[1] + v[2] * k->dir[2];
}

static int cv_step(pfScene *s, double dt, pfError *err)
{
    Conveyor *k = s->impl;
    int rc = pfs_ode_step(s, dt, err);
    if (rc != PF_OK) return rc;
    s->t += dt;
    s->steps++;
    const double v = along(k, dBodyGetLinearVel(k->body));
    if (isnan(k->catch_up) && fabs(v - k->speed) <= 1e-3 * fabs(k->speed)) k->catch_up = s->t;
    const dReal *p = dBodyGetPosition(k->body);
    if (!k->have_ref && s->t >= WINDOW - 0.5 * dt) {
        memcpy(k->p1, p, sizeof k->p1);
        k->t1 = s->t;
        k->yaw1 = heading(k->body);
        if (s->case_index == C_TRACKED) {
            /* the tracks carry the vehicle along its own heading: measure from it (the start-up,
             * while the tracks slip, may have turned it a little: heading_error) */
            k->dir[0] = cos(k->yaw1);
            k->dir[1] = sin(k->yaw1);
        }
        k->have_ref = 1;
    }
    if (k->have_ref) {
        const double d[3] = {p[0] - k->p1[0], p[1] - k->p1[1], 0.0};
        const double a = d[0] * k->dir[0] + d[1] * k->dir[1];
        const double c = fabs(a - k->speed * (s->t - k->t1));
        const double side = fabs(-d[0] * k->dir[1] + d[1] * k->dir[0]);
        if (!(c <= k->creep)) k->creep = c;
        if (!(side <= k->drift)) k->drift = side;
        const double dy = fabs(remainder(heading(k->body) - k->yaw1, 2.0 * M_PI));
        if (!(dy <= k->yaw_creep)) k->yaw_creep = dy;
    }
    return PF_OK;
}

static const char *const columns[] = {"t", "x", "y", "z", "speed"};

static int cv_header(const char *const **names)
{
    *names = columns;
    return (int)(sizeof columns / sizeof *columns);
}

static int cv_row(const pfScene *s, double *row, int max)
{
    const Conveyor *k = s->impl;
    const dReal *p = dBodyGetPosition(k->body);
    const double r[5] = {s->t, p[0], p[1], p[2], along(k, dBodyGetLinearVel(k->body))};
    int n = 5 < max ? 5 : max;
    memcpy(row, r, (size_t)n * sizeof *row);
    return n;
}

static int cv_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    const Conveyor *k = s->impl;
    pfOdeCounters c = pf_ode_get_counters(s->pf);
    const double patches = c.patches > 0 ? (double)c.patches : NAN;
    const pfSceneMetric m[] = {
        {"speed", along(k, dBodyGetLinearVel(k->body))},
        {"speed_closed_form", k->speed},
        {"catch_up", k->catch_up},
        {"catch_up_closed_form", fabs(k->speed) / (k->mu * G)},
        {"creep", k->have_ref ? k->creep : NAN},
        {"drift", k->have_ref ? k->drift : NAN},
        {"heading_error",
         remainder(heading(k->body) - (s->case_index == C_BELT ? 0.0 : HEADING), 2.0 * M_PI)},
        {"yaw_creep", k->have_ref ? k->yaw_creep : NAN},
        {"breakaways", (double)c.breakaways},
        {"stick_fraction", (double)c.stick_steps / patches},
        {"ode_messages", (double)(s->lcp_messages + s->ode_messages)},
    };
    return pfs_metrics_copy(m, (int)(sizeof m / sizeof m[0]), out, max);
}

static int cv_state(const pfScene *s, char *buf, int size)
{
    const Conveyor *k = s->impl;
    return snprintf(buf, (size_t)size, "t=%.3f s  %s  speed=%.4f m/s (surface %.4f)  creep=%.2e m",
                    s->t, k->quick ? "QuickStep" : "dWorldStep",
                    along(k, dBodyGetLinearVel(k->body)), k->speed, k->creep);
}

const pfSceneClass pf_scene_class_conveyor = {
    {"conveyor", "a box on a moving belt, a tracked vehicle (surface motion)", cases, keys},
    NULL,
    cv_build,
    cv_free,
    cv_step,
    cv_header,
    cv_row,
    cv_metrics,
    cv_state,
    NULL, /* no overlay */
};
