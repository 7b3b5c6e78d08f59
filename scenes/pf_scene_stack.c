/* stack: the multi-body resting scenes a robotics user builds first (stacks, piles, a body on
 * feet, a pushed box), each runnable with stock and with patch friction, under dWorldStep or
 * dWorldQuickStep (ODE's defaults: 20 iterations, ERP 0.2, CFM 1e-10), at any dt.
 *
 * Cubes of side 0.1 m and 1 kg, mu_s = mu_k = 0.6 (key mu), on a ground plane; g = 9.81.
 *   two-box:      a cube on a cube.
 *   tower:        ten cubes, aligned.
 *   tower-offset: ten cubes placed with uniform random offsets of +-2 mm and +-2 degrees (seed).
 * seed also seeds ODE's random generator, which orders QuickStep's rows; ode_seed, when given,
 * seeds that generator instead (QuickStep's row order varied with the placement kept).
 *   pyramid:      fifteen cubes in rows of 5-4-3-2-1, each upper cube on two below (half faces),
 *                 neighbours in a row 1 mm apart.
 *   feet:         a 1 kg body on two box feet 0.05 x 0.2 x 0.1 m, 0.3 m apart (one body, two
 *                 patches with the ground), no load.
 *   pushed:       a cube on a cube, the top one pushed along x through its mass centre from
 *                 t = 0.5 s with push * mu_s m g (push = 0.3, 0.9 or 1.2; default 0.9).
 * Every case settles for 0.5 s; from then on the creep of each body is its distance from, and
 * its rotation angle relative to, its pose at 0.5 s (the pushed box is left out of the creep;
 * its own largest displacement is push_travel). Pushed beyond mu_s m g, the two boxes tip over
 * the lower one's front edge once the top one has slid h (1 - 3 mu_k / 2), 1 cm here: the
 * creep window closes there, and push_accel is measured before it.
 * What you should see: with patch friction nothing moves (creep below a micrometre) unless
 * pushed beyond mu_s m g; pushed with 1.2 mu_s m g the top box slides with the acceleration
 * a = (1.2 mu_s - mu_k) g while the bottom box stays put, until after 1 cm the pair tips over.
 * ODE's messages (for example "LCP internal error") are counted while the scene steps. */
#include "pf_scene_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { C_TWO, C_TOWER, C_TOWER_OFFSET, C_PYRAMID, C_FEET, C_PUSHED };
static const char *const cases[] = {"two-box", "tower", "tower-offset", "pyramid", "feet",
                                    "pushed",  NULL};
static const char *const keys[] = {"stepper",  "mu",       "push",       "seed",
                                   "ode_seed", "coupling", "iterations", NULL};

#define G 9.81
#define SIDE 0.1
#define MASS 1.0
#define SETTLE 0.5
#define MAX_BODIES 16
/* A box pushed beyond mu_s m g through its mass centre slides on the lower box, and the pair
 * tips over the lower box's front edge once the top box has slid
 *     s_tip = h (1 - 3 mu_k / 2)                                  (h the cube's side)
 * (moments about that edge on the lower box: friction mu_k m g at height h overturns; its own
 * weight at h/2 and the top box's normal force, whose centre of pressure lies mu_k h / 2 + s
 * ahead of the lower box's centre, restore; 1 cm for mu_k = 0.6). Up to s_tip the closed form
 * holds: the top box slides with a = (push mu_s - mu_k) g and the lower box stays put. So the
 * creep window closes at s_tip, and the acceleration is the slope of the top box's velocity
 * between PUSH_A0 s_tip and PUSH_A1 s_tip of travel, where it slides (the breakaway step and
 * the stick test's one-step lag are behind it). A velocity slope is exact for a constant
 * acceleration under ODE's semi-implicit Euler step; x = a T^2 / 2 is not (it reads
 * a (1 + dt / T) plus the threshold's overshoot). */
#define PUSH_A0 0.2
#define PUSH_A1 0.8

typedef struct Stack {
    int quick;
    double mu, push;
    unsigned seed;
    unsigned ode_seed; ///< seeds ODE's generator (QuickStep's row order); seed unless given
    int nb;
    dBodyID body[MAX_BODIES];
    int pushed; ///< index of the pushed body, -1 if none
    /* poses at the end of settling */
    int have_ref;
    double p0[MAX_BODIES][3];
    dQuaternion q0[MAX_BODIES];
    /* metrics */
    double creep, creep_rot, fastest_after_1s, fastest;
    double creep_xy, creep_yaw;       ///< horizontal part of creep [m], rotation about z [rad]
    double push_x0, push_v0, push_t0; ///< pushed body at the start of the push
    double push_travel;      ///< the pushed body's largest distance from its pose at 0.5 s [m]
    double push_t1, push_v1; ///< time and velocity at PUSH_A0 s_tip of travel (t1 < 0: not yet)
    double push_a;           ///< its acceleration between PUSH_A0 and PUSH_A1 s_tip [m/s^2]
    int window_closed;       ///< 1 once a box pushed beyond mu_s m g has travelled s_tip (the pair
                             ///< then tips), which ends the creep window
} Stack;

static double urand(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return ((*state >> 8) & 0xffffff) / (double)0xffffff;
}

static dBodyID add_cube(pfScene *s, Stack *k, double x, double y, double z, double yaw)
{
    dBodyID b = dBodyCreate(s->world);
    dMass m;
    dMassSetBoxTotal(&m, MASS, SIDE, SIDE, SIDE);
    dBodySetMass(b, &m);
    dBodySetPosition(b, x, y, z);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, yaw);
    dBodySetRotation(b, R);
    dGeomID g = dCreateBox(s->space, SIDE, SIDE, SIDE);
    dGeomSetBody(g, b);
    pfs_add_geom(s, g);
    k->body[k->nb++] = b;
    return b;
}

static int st_build(pfScene *s, pfError *err)
{
    Stack *k = calloc(1, sizeof *k);
    if (!k) return pfs_fail(err, PF_ERR_NO_MEMORY, "stack: out of memory");
    s->impl = k;
    k->quick = 1;
    k->mu = 0.6;
    k->push = 0.9;
    k->seed = 1;
    k->pushed = -1;
    k->push_a = NAN;
    k->push_t1 = -1.0;
    const char *stepper = pfs_param_string(s, "stepper");
    if (stepper) {
        if (!strcmp(stepper, "quick"))
            k->quick = 1;
        else if (!strcmp(stepper, "world"))
            k->quick = 0;
        else
            return pfs_fail(err, PF_ERR_RANGE,
                            "stack: --set stepper=%s: expected quick (dWorldQuickStep) or world "
                            "(dWorldStep)",
                            stepper);
    }
    int rc;
    if ((rc = pfs_param_double(s, "mu", &k->mu, 0.0, 0, 10.0, 0, err)) < 0) return rc;
    if ((rc = pfs_param_double(s, "push", &k->push, 0.0, 0, 10.0, 0, err)) < 0) return rc;
    double seed = 1.0;
    if ((rc = pfs_param_double(s, "seed", &seed, 0.0, 0, 4294967295.0, 0, err)) < 0) return rc;
    if (seed != floor(seed))
        return pfs_fail(err, PF_ERR_RANGE, "stack: --set seed=%g: expected a whole number", seed);
    k->seed = (unsigned)seed;
    double ode_seed = seed;
    if ((rc = pfs_param_double(s, "ode_seed", &ode_seed, 0.0, 0, 4294967295.0, 0, err)) < 0)
        return rc;
    if (ode_seed != floor(ode_seed))
        return pfs_fail(err, PF_ERR_RANGE, "stack: --set ode_seed=%g: expected a whole number",
                        ode_seed);
    k->ode_seed = (unsigned)ode_seed;
    if ((rc = pfs_param_check_unused(s, err)) != PF_OK) return rc;
    s->quick = k->quick;

    if ((rc = pfs_ode_begin(s, err)) != PF_OK) return rc;
    /* QuickStep visits the rows in a random order (ODE's generator): restart it, so a run is
     * repeatable whatever ran before in the process; seed (or ode_seed) varies it */
    dRandSetSeed(k->ode_seed);
    /* ODE's defaults, as a user starts (the literature scenes use a 0.1 mm surface layer) */
    dWorldSetContactSurfaceLayer(s->world, 0.0);
    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = m.mu_k = k->mu;
    if (s->mode == PF_ODE_MODE_STOCK) m.mode = PF_ODE_MODE_STOCK;
    pfError e2;
    if (pf_ode_set_default_material(s->pf, &m, &e2) != PF_OK)
        return pfs_fail(err, e2.status, "stack: %s", e2.message);
    dGeomID ground = dCreatePlane(s->space, 0, 0, 1, 0);
    pfs_add_geom(s, ground);

    unsigned rs = k->seed;
    switch (s->case_index) {
    case C_TWO:
    case C_PUSHED:
        add_cube(s, k, 0, 0, 0.5 * SIDE, 0);
        add_cube(s, k, 0, 0, 1.5 * SIDE, 0);
        if (s->case_index == C_PUSHED) k->pushed = 1;
        break;
    case C_TOWER:
    case C_TOWER_OFFSET:
        for (int i = 0; i < 10; ++i) {
            int r = s->case_index == C_TOWER_OFFSET;
            double ox = r ? (2.0 * urand(&rs) - 1.0) * 0.002 : 0.0;
            double oy = r ? (2.0 * urand(&rs) - 1.0) * 0.002 : 0.0;
            double yaw = r ? (2.0 * urand(&rs) - 1.0) * 2.0 * M_PI / 180.0 : 0.0;
            add_cube(s, k, ox, oy, (0.5 + i) * SIDE, yaw);
        }
        break;
    case C_PYRAMID:
        for (int row = 0; row < 5; ++row)
            for (int i = 0; i < 5 - row; ++i)
                add_cube(s, k, (i - 0.5 * (4 - row)) * (SIDE + 0.001), 0, (0.5 + row) * SIDE, 0);
        break;
    case C_FEET: {
        dBodyID b = dBodyCreate(s->world);
        dMass mb;
        dMassSetBoxTotal(&mb, MASS, 0.4, 0.2, 0.1);
        dBodySetMass(b, &mb);
        dBodySetPosition(b, 0, 0, 0.05);
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            dGeomID g = dCreateBox(s->space, 0.05, 0.2, 0.1);
            dGeomSetBody(g, b);
            dGeomSetOffsetPosition(g, sgn * 0.15, 0, 0);
            pfs_add_geom(s, g);
        }
        k->body[k->nb++] = b;
        break;
    }
    default:
        break;
    }
    s->default_duration = s->case_index == C_PUSHED ? SETTLE + 10.0 : SETTLE + 20.0;
    return PF_OK;
}

static void st_free(pfScene *s)
{
    free(s->impl);
}

static int st_step(pfScene *s, double dt, pfError *err)
{
    Stack *k = s->impl;
    if (k->pushed >= 0 && s->t >= SETTLE - 0.5 * dt) {
        dBodyID b = k->body[k->pushed];
        dBodyAddForce(b, k->push * k->mu * MASS * G, 0, 0);
    }
    int rc = pfs_ode_step(s, dt, err);
    if (rc != PF_OK) return rc;
    s->t += dt;
    s->steps++;
    if (!k->have_ref && s->t >= SETTLE - 0.5 * dt) {
        for (int i = 0; i < k->nb; ++i) {
            memcpy(k->p0[i], dBodyGetPosition(k->body[i]), 3 * sizeof(double));
            memcpy(k->q0[i], dBodyGetQuaternion(k->body[i]), sizeof(dQuaternion));
        }
        if (k->pushed >= 0) {
            k->push_x0 = dBodyGetPosition(k->body[k->pushed])[0];
            k->push_v0 = dBodyGetLinearVel(k->body[k->pushed])[0];
            k->push_t0 = s->t;
        }
        k->have_ref = 1;
    }
    if (k->pushed >= 0 && k->have_ref) {
        double x = dBodyGetPosition(k->body[k->pushed])[0] - k->push_x0;
        double v = dBodyGetLinearVel(k->body[k->pushed])[0];
        const double s_tip = SIDE * (1.0 - 1.5 * k->mu);
        if (k->push > 1.0 && s_tip > 0.0) {
            if (k->push_t1 < 0.0 && fabs(x) >= PUSH_A0 * s_tip) {
                k->push_t1 = s->t;
                k->push_v1 = v;
            }
            if (isnan(k->push_a) && k->push_t1 >= 0.0 && fabs(x) >= PUSH_A1 * s_tip &&
                s->t > k->push_t1)
                k->push_a = (v - k->push_v1) / (s->t - k->push_t1);
        }
        if (k->push > 1.0 && fabs(x) >= s_tip) k->window_closed = 1;
        const dReal *pp = dBodyGetPosition(k->body[k->pushed]);
        const double *p0 = k->p0[k->pushed];
        double d = sqrt(pow(pp[0] - p0[0], 2) + pow(pp[1] - p0[1], 2) + pow(pp[2] - p0[2], 2));
        if (!(d <= k->push_travel)) k->push_travel = d;
    }
    for (int i = 0; i < k->nb; ++i) {
        const dReal *v = dBodyGetLinearVel(k->body[i]);
        double sp = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (!(sp <= k->fastest)) k->fastest = sp;
        if (s->t > 1.0 && !(sp <= k->fastest_after_1s)) k->fastest_after_1s = sp;
        if (!k->have_ref || i == k->pushed || k->window_closed) continue;
        const dReal *p = dBodyGetPosition(k->body[i]), *q = dBodyGetQuaternion(k->body[i]);
        double d = sqrt(pow(p[0] - k->p0[i][0], 2) + pow(p[1] - k->p0[i][1], 2) +
                        pow(p[2] - k->p0[i][2], 2));
        double c =
            fabs(q[0] * k->q0[i][0] + q[1] * k->q0[i][1] + q[2] * k->q0[i][2] + q[3] * k->q0[i][3]);
        double ang = 2.0 * acos(c < 1.0 ? c : 1.0);
        if (!(d <= k->creep)) k->creep = d;
        if (!(ang <= k->creep_rot)) k->creep_rot = ang;
        double dxy = hypot(p[0] - k->p0[i][0], p[1] - k->p0[i][1]);
        /* rotation about z: the yaw of the relative rotation q q0^-1 (world frame) */
        double w =
            q[0] * k->q0[i][0] + q[1] * k->q0[i][1] + q[2] * k->q0[i][2] + q[3] * k->q0[i][3];
        double zc =
            -q[0] * k->q0[i][3] + q[3] * k->q0[i][0] - q[1] * k->q0[i][2] + q[2] * k->q0[i][1];
        double yaw = fabs(2.0 * atan2(zc, w));
        if (yaw > M_PI) yaw = 2.0 * M_PI - yaw;
        if (!(dxy <= k->creep_xy)) k->creep_xy = dxy;
        if (!(yaw <= k->creep_yaw)) k->creep_yaw = yaw;
    }
    return PF_OK;
}

static const char *const columns[] = {"t",         "top_x", "top_y",    "top_z",
                                      "top_speed", "creep", "creep_rot"};

static int st_header(const char *const **names)
{
    *names = columns;
    return (int)(sizeof columns / sizeof *columns);
}

static dBodyID top_body(const Stack *k)
{
    return k->body[k->nb - 1];
}

static int st_row(const pfScene *s, double *row, int max)
{
    const Stack *k = s->impl;
    const dReal *p = dBodyGetPosition(top_body(k)), *v = dBodyGetLinearVel(top_body(k));
    double r[7] = {s->t,     p[0],        p[1], p[2], sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]),
                   k->creep, k->creep_rot};
    int n = 7 < max ? 7 : max;
    memcpy(row, r, (size_t)n * sizeof *row);
    return n;
}

static int st_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    const Stack *k = s->impl;
    pfOdeCounters c = pf_ode_get_counters(s->pf);
    double patches = c.patches > 0 ? (double)c.patches : NAN;
    (void)s;
    const pfSceneMetric m[] = {
        {"creep", k->creep},
        {"creep_rot", k->creep_rot},
        {"creep_xy", k->creep_xy},
        {"creep_yaw", k->creep_yaw},
        {"fastest_after_1s", k->fastest_after_1s},
        {"fastest", k->fastest},
        {"ode_messages", (double)(s->lcp_messages + s->ode_messages)},
        {"breakaways", (double)c.breakaways},
        {"stick_fraction", (double)c.stick_steps / patches},
        {"point_fallback_fraction", (double)c.point_fallbacks / patches},
        {"push_travel", k->push_travel},
        {"push_accel", k->push_a},
        {"push_accel_closed_form",
         k->pushed >= 0 && k->push > 1.0 ? (k->push * k->mu - k->mu) * G : 0.0},
    };
    return pfs_metrics_copy(m, (int)(sizeof m / sizeof m[0]), out, max);
}

static int st_state(const pfScene *s, char *buf, int size)
{
    const Stack *k = s->impl;
    return snprintf(buf, (size_t)size, "t=%.3f s  %s  creep=%.2e m  rot=%.2e rad  msgs=%ld", s->t,
                    k->quick ? "QuickStep" : "dWorldStep", k->creep, k->creep_rot,
                    s->lcp_messages + s->ode_messages);
}

const pfSceneClass pf_scene_class_stack = {
    {"stack", "stacks, a pyramid, a body on two feet, a pushed box (multi-body rest)", cases, keys},
    NULL,
    st_build,
    st_free,
    st_step,
    st_header,
    st_row,
    st_metrics,
    st_state,
    NULL, /* no overlay */
};
