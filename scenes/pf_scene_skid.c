/* skid-steer: a vehicle turned in place, on two box tracks or on four driven wheels.
 *
 *   tracks: a 10 kg body (its inertia a 0.4 x 0.36 x 0.06 m box's) on two track geoms
 *           0.40 x 0.06 x 0.06 m (footprint 0.40 x 0.06 m) at y = +-0.15 m on the ground plane,
 *           turned by a torque T about the vertical (key torque; default 1.2 times the closed form
 *           below, so that it spins), applied at t = 0.2 s (load=sudden, default) or ramped
 *           linearly from 0 at 0.2 s to T at 0.5 s (load=ramp); key heading (degrees, default 0)
 *           sets the vehicle down rotated about the vertical. Each track is its own geom pair and
 *           patch; both hold the same body.
 *           The closed form (docs/physics.md P53-P55): uniform pressure p = m g / (2 A) under each
 *           track, so the moment friction resists a rotation about the body centre with is
 *           M = mu p sum_tracks  int r dA (moment_closed_form, 14.68 N m here, any heading),
 * against 8 corner points carrying m g / 8 each, mu (m g / 8) sum r_i (19.71 N m), and ODE's
 *           friction pyramid on those points (axes x, y of the world for a horizontal normal),
 *           mu (m g / 8) sum (|x_i| + |y_i|) at the heading (27.47 N m at heading 0).
 *           Metrics: the rotation since 0.2 s (held = 1 if it stays <= hold_tol, default 1e-6
 *           rad, up to t = 1 s), the sliding moment T - I_z (w(1 s) - w(0.6 s)) / 0.4 s (NaN
 *           unless it spins), and with breakaway=1 (default) the breakaway torque: the largest
 *           torque that holds, bisected over 1 s runs with the same keys (torque excepted) in the
 *           scene's first step, until the bracket is tol (default 1e-3) of the closed form.
 *   wheels: a 10 kg chassis 0.4 x 0.3 x 0.06 m on four 1 kg cylinder wheels (radius 0.1 m,
 *           width 0.06 m, axis along the body's y) at x = +-0.15 m, y = +-0.2 m, each on a hinge
 *           with a velocity motor (dParamFMax 50 N m): the left wheels (y > 0) turn backward, the
 *           right ones forward, at the wheel speed (key speed, rad/s relative to the chassis,
 *           default 5). Each wheel touches the ground along a line of its width. Metrics: the yaw
 *           rate averaged from 1 s to the end at 4 s (yaw_rate, rad/s, about +z; stock friction's
 *           pyramid makes it vary with the heading, hence the long window), and the one the
 *           wheels' kinematics would give without skidding (no_skid_yaw_rate, speed R / 0.2 m). The
 *           prediction of distributed Coulomb friction on the four line contacts (docs/physics.md
 *           P56-P57) is computed by tests/unit/test_scene_skid.c, independently of this file.
 * mu_s = mu_k = mu everywhere (key mu, default 0.8); criterion=ca (default) or limit: the adapter's
 * stick test (pfOdeMaterial.criterion); stepper=quick (default, dWorldQuickStep at ODE's 20
 * iterations) or world; iterations=N.
 * What you should see: with patch friction the tracked vehicle holds still up to the closed form
 * and then spins up against a constant moment of that size; stock friction holds it up to ODE's
 * pyramid (27.47 N m at heading 0), well above what a distributed patch can hold. The wheeled
 * vehicle turns to its left (counter-clockwise seen from above) more slowly than its wheels'
 * no-skid rate: the wheels scrub sideways. */
#include "pf_scene_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { C_TRACKS, C_WHEELS };
static const char *const cases[] = {"tracks", "wheels", NULL};
static const char *const keys[] = {"torque",   "heading",   "load",      "stepper", "iterations",
                                   "mu",       "speed",     "breakaway", "tol",     "hold_tol",
                                   "coupling", "criterion", NULL};

#define G 9.81
#define MASS 10.0
/* tracks */
#define TRACK_L 0.40
#define TRACK_W 0.06
#define TRACK_H 0.06
#define TRACK_Y 0.15
#define LOAD_AT 0.2   /* the torque starts [s] */
#define RAMP_END 0.5  /* the ramp reaches T [s] */
#define WINDOW_A 0.6  /* sliding-moment window [s] */
#define TRACK_END 1.0 /* a run's end [s] */
#define SPINNING 1e-3 /* the sliding moment is measured only above this yaw rate [rad/s] */
/* the bisection's upper bound, in units of the closed form: above the pyramid's 27.47 N m, and
 * not a power-of-two multiple of the closed form, so no trial lands on it exactly */
#define BRACKET_HI 2.5
/* wheels */
#define WHEEL_R 0.1
#define WHEEL_W 0.06
#define WHEEL_M 1.0
#define WHEEL_X 0.15
#define WHEEL_Y 0.2
#define WHEEL_FMAX 50.0
#define WHEEL_END 4.0
#define WHEEL_WINDOW 3.0 /* the yaw rate is averaged over the last WHEEL_WINDOW [s] */
#define CHASSIS_L 0.4
#define CHASSIS_W 0.3
#define CHASSIS_H 0.06

typedef struct Skid {
    double torque, heading, mu, speed, tol, hold_tol;
    int ramp, quick, breakaway, limit_criterion;
    dBodyID body, wheel[4];
    double Iz;          ///< the body's moment of inertia about the vertical [kg m^2]
    double yaw0;        ///< heading when the torque starts [rad]
    double rotation;    ///< largest |heading - yaw0| since then [rad]
    double w_a, w_b;    ///< yaw rate at WINDOW_A and at the end [rad/s]
    double yaw_a, t_a;  ///< wheels: heading and time at the averaging window's start
    double yaw_unwrap;  ///< wheels: heading, unwrapped [rad]
    double yaw_prev;    ///< wheels: last heading read [rad]
    double breakaway_T; ///< largest torque that held (NaN: not bisected)
    int trials, hi_holds;
    long lcp_total, ode_total;
} Skid;

/* ------------------------------------------------------------------------------------------ */
/* closed forms (docs/physics.md P53-P55)                                                      */
/* ------------------------------------------------------------------------------------------ */

/* P54: antiderivative of r = sqrt(x^2 + y^2) in x and y,
 * F(x, y) = (2 x y r + x^3 ln(y + r) + y^3 ln(x + r)) / 6 (a log term whose factor is 0 is 0). */
static double polar_F(double x, double y)
{
    const double r = hypot(x, y);
    double f = 2.0 * x * y * r;
    if (x != 0.0) f += x * x * x * log(y + r);
    if (y != 0.0) f += y * y * y * log(x + r);
    return f / 6.0;
}

/* int r dA over [x1, x2] x [y1, y2] with y1 > 0 (so y + r > 0 and x + r > 0 everywhere). */
static double polar_moment(double x1, double x2, double y1, double y2)
{
    return polar_F(x2, y2) - polar_F(x1, y2) - polar_F(x2, y1) + polar_F(x1, y1);
}

/* P55: the two tracks' resisting moment, mu p sum int r dA, p = m g / (2 L W). */
static double moment_closed_form(double mu)
{
    const double p = MASS * G / (2.0 * TRACK_L * TRACK_W);
    const double half = 0.5 * TRACK_L;
    return 2.0 * mu * p *
           polar_moment(-half, half, TRACK_Y - 0.5 * TRACK_W, TRACK_Y + 0.5 * TRACK_W);
}

/* The 8 corners (body frame) of the two footprints, as ODE's box-plane collider gives them. */
static void corners(double c[8][2])
{
    int k = 0;
    for (int side = -1; side <= 1; side += 2)
        for (int i = -1; i <= 1; i += 2)
            for (int j = -1; j <= 1; j += 2) {
                c[k][0] = i * 0.5 * TRACK_L;
                c[k][1] = side * TRACK_Y + j * 0.5 * TRACK_W;
                k++;
            }
}

/* Point friction on the 8 corners, m g / 8 each: circular cones resist mu N sum r_i; ODE's
 * pyramid, whose two axes are the world's x and y under a horizontal normal, mu N sum
 * (|x_i| + |y_i|) in world coordinates, so it depends on the heading. */
static void corner_moments(double mu, double heading, double *cone, double *pyramid)
{
    double c[8][2], ch = cos(heading), sh = sin(heading), n = MASS * G / 8.0;
    corners(c);
    *cone = *pyramid = 0.0;
    for (int k = 0; k < 8; ++k) {
        const double x = ch * c[k][0] - sh * c[k][1], y = sh * c[k][0] + ch * c[k][1];
        *cone += mu * n * hypot(x, y);
        *pyramid += mu * n * (fabs(x) + fabs(y));
    }
}

/* ------------------------------------------------------------------------------------------ */
/* build                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static double heading_of(dBodyID b)
{
    const dReal *R = dBodyGetRotation(b);
    return atan2(R[4], R[0]);
}

static int build_tracks(pfScene *s, Skid *k, const pfOdeMaterial *m, pfError *err)
{
    pfs_add_geom(s, dCreatePlane(s->space, 0, 0, 1, 0));
    dMass ms;
    dMatrix3 R;
    k->body = dBodyCreate(s->world);
    dMassSetBoxTotal(&ms, MASS, TRACK_L, 2.0 * TRACK_Y + TRACK_W, TRACK_H);
    dBodySetMass(k->body, &ms);
    k->Iz = ms.I[10];
    dBodySetPosition(k->body, 0, 0, 0.5 * TRACK_H);
    dRFromAxisAndAngle(R, 0, 0, 1, k->heading);
    dBodySetRotation(k->body, R);
    for (int side = -1; side <= 1; side += 2) {
        dGeomID t = dCreateBox(s->space, TRACK_L, TRACK_W, TRACK_H);
        dGeomSetBody(t, k->body);
        dGeomSetOffsetPosition(t, 0, side * TRACK_Y, 0);
        pfs_add_geom(s, t);
        pfError e2;
        if (pf_ode_set_material(s->pf, t, m, &e2) != PF_OK)
            return pfs_fail(err, e2.status, "skid-steer: track material: %s", e2.message);
    }
    return PF_OK;
}

static int build_wheels(pfScene *s, Skid *k, pfError *err)
{
    (void)err;
    pfs_add_geom(s, dCreatePlane(s->space, 0, 0, 1, 0));
    dMass ms;
    dMatrix3 R;
    k->body = dBodyCreate(s->world);
    dMassSetBoxTotal(&ms, MASS, CHASSIS_L, CHASSIS_W, CHASSIS_H);
    dBodySetMass(k->body, &ms);
    dBodySetPosition(k->body, 0, 0, WHEEL_R);
    dGeomID c = dCreateBox(s->space, CHASSIS_L, CHASSIS_W, CHASSIS_H);
    dGeomSetBody(c, k->body);
    pfs_add_geom(s, c);
    /* a cylinder's axis is its local z: turn it onto y */
    dRFromAxisAndAngle(R, 1, 0, 0, 0.5 * M_PI);
    for (int i = 0; i < 4; ++i) {
        const double x = i & 1 ? -WHEEL_X : WHEEL_X, y = i & 2 ? -WHEEL_Y : WHEEL_Y;
        dBodyID w = dBodyCreate(s->world);
        dMassSetCylinderTotal(&ms, WHEEL_M, 3, WHEEL_R, WHEEL_W);
        dBodySetMass(w, &ms);
        dBodySetPosition(w, x, y, WHEEL_R);
        dBodySetRotation(w, R);
        dGeomID g = dCreateCylinder(s->space, WHEEL_R, WHEEL_W);
        dGeomSetBody(g, w);
        pfs_add_geom(s, g);
        dJointID j = dJointCreateHinge(s->world, 0);
        dJointAttach(j, w, k->body);
        dJointSetHingeAnchor(j, x, y, WHEEL_R);
        dJointSetHingeAxis(j, 0, 1, 0);
        /* ODE's hinge rate is (w1 - w2) . axis: with the wheel as body 1 it is the wheel's turn
         * about +y relative to the chassis, + forward (the contact point moves back, the axle
         * forward); the left wheels (y > 0) backward */
        dJointSetHingeParam(j, dParamVel, y > 0.0 ? -k->speed : k->speed);
        dJointSetHingeParam(j, dParamFMax, WHEEL_FMAX);
        k->wheel[i] = w;
    }
    return PF_OK;
}

static int sk_build(pfScene *s, pfError *err)
{
    Skid *k = calloc(1, sizeof *k);
    if (!k) return pfs_fail(err, PF_ERR_NO_MEMORY, "skid-steer: out of memory");
    s->impl = k;
    const int tracks = s->case_index == C_TRACKS;
    k->mu = 0.8;
    k->speed = 5.0;
    k->tol = 1e-3;
    k->hold_tol = 1e-6;
    k->quick = 1;
    k->breakaway = tracks;
    k->breakaway_T = NAN;
    k->w_a = k->t_a = NAN;
    double heading_deg = 0.0, bisect = tracks ? 1.0 : 0.0;
    int rc;
    PD("mu", &k->mu, 0.0, 1, 10.0, 0);
    k->torque = 1.2 * moment_closed_form(k->mu);
    PD("torque", &k->torque, 0.0, 0, 1e4, 0);
    PD("heading", &heading_deg, -360.0, 0, 360.0, 0);
    PD("speed", &k->speed, -100.0, 0, 100.0, 0);
    PD("tol", &k->tol, 0.0, 1, 0.5, 0);
    PD("hold_tol", &k->hold_tol, 0.0, 1, 1.0, 0);
    PD("breakaway", &bisect, 0.0, 0, 1.0, 0);
    if (bisect != 0.0 && bisect != 1.0)
        return pfs_fail(err, PF_ERR_RANGE, "skid-steer: --set breakaway=%g: expected 0 or 1",
                        bisect);
    k->breakaway = bisect == 1.0;
    if (k->breakaway && !tracks)
        return pfs_fail(err, PF_ERR_RANGE,
                        "skid-steer: --set breakaway=1: only the tracks case bisects a torque");
    k->heading = heading_deg * M_PI / 180.0;
    if ((rc = pfs_param_choice(s, "skid-steer", "load", "sudden", "ramp", &k->ramp, err)) != PF_OK)
        return rc;
    int world = 0;
    if ((rc = pfs_param_choice(s, "skid-steer", "stepper", "quick", "world", &world, err)) != PF_OK)
        return rc;
    k->quick = !world;
    if ((rc = pfs_param_choice(s, "skid-steer", "criterion", "ca", "limit", &k->limit_criterion,
                               err)) != PF_OK)
        return rc;
    if ((rc = pfs_param_check_unused(s, err)) != PF_OK) return rc;
    s->quick = k->quick;
    s->default_duration = tracks ? TRACK_END : WHEEL_END;
    if ((rc = pfs_ode_begin(s, err)) != PF_OK) return rc;
    dRandSetSeed(1); /* QuickStep's row order: the same run whatever ran before in the process */
    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = m.mu_k = k->mu;
    m.criterion = k->limit_criterion ? PF_ODE_CRITERION_LIMIT : PF_ODE_CRITERION_CA;
    if (s->mode == PF_ODE_MODE_STOCK) m.mode = PF_ODE_MODE_STOCK;
    pfError e2;
    if (pf_ode_set_default_material(s->pf, &m, &e2) != PF_OK)
        return pfs_fail(err, e2.status, "skid-steer: %s", e2.message);
    rc = tracks ? build_tracks(s, k, &m, err) : build_wheels(s, k, err);
    if (rc != PF_OK) return rc;
    k->yaw0 = k->yaw_prev = k->yaw_unwrap = heading_of(k->body);
    return PF_OK;
}

static void sk_free(pfScene *s)
{
    free(s->impl);
}

/* ------------------------------------------------------------------------------------------ */
/* breakaway: bisection over hold runs                                                         */
/* ------------------------------------------------------------------------------------------ */

/* One run at torque T with the scene's keys (torque, breakaway and tol replaced); *held = 1 if
 * the vehicle held. */
static int hold_run(pfScene *s, Skid *k, double T, double dt, int *held, pfError *err)
{
    static const char *const keep_out[] = {"tol", NULL};
    char tq[40];
    snprintf(tq, sizeof tq, "%.17g", T);
    const pfSceneParam add[2] = {{"torque", tq}, {"breakaway", "0"}};
    pfScene *h = NULL;
    int rc = pfs_trial(s, "skid-steer", "tracks", keep_out, add, 2, TRACK_END, dt, &h, err);
    if (!h) return rc;
    const Skid *hk = h->impl;
    *held = rc == PF_OK && hk->rotation <= k->hold_tol;
    k->lcp_total += h->lcp_messages;
    k->ode_total += h->ode_messages;
    k->trials++;
    pf_scene_destroy(h);
    return rc;
}

/* From 0 (must hold) and BRACKET_HI times the closed form until the bracket is tol of it. */
static int bisect_breakaway(pfScene *s, Skid *k, double dt, pfError *err)
{
    const double m0 = moment_closed_form(k->mu);
    double lo = 0.0, hi = BRACKET_HI * m0;
    int held, rc;
    if ((rc = hold_run(s, k, hi, dt, &held, err)) != PF_OK) return rc;
    if (held) {
        k->breakaway_T = hi;
        k->hi_holds = 1;
        return PF_OK;
    }
    while (hi - lo > k->tol * m0) {
        const double mid = 0.5 * (lo + hi);
        if ((rc = hold_run(s, k, mid, dt, &held, err)) != PF_OK) return rc;
        if (held)
            lo = mid;
        else
            hi = mid;
    }
    k->breakaway_T = lo;
    return PF_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* step                                                                                        */
/* ------------------------------------------------------------------------------------------ */

static double torque_at(const Skid *k, double t)
{
    if (t < LOAD_AT) return 0.0;
    if (k->ramp && t < RAMP_END) return k->torque * (t - LOAD_AT) / (RAMP_END - LOAD_AT);
    return k->torque;
}

static int sk_step(pfScene *s, double dt, pfError *err)
{
    Skid *k = s->impl;
    if (k->breakaway && s->steps == 0) {
        int rc = bisect_breakaway(s, k, dt, err);
        if (rc != PF_OK) return rc;
    }
    if (s->case_index == C_TRACKS) {
        /* the torque over the step [t, t + dt] is the one at its start */
        const double T = torque_at(k, s->t);
        if (T > 0.0) dBodyAddTorque(k->body, 0, 0, T);
    }
    int rc = pfs_ode_step(s, dt, err);
    if (rc != PF_OK) return rc;
    s->t += dt;
    s->steps++;
    const double h = heading_of(k->body), w = dBodyGetAngularVel(k->body)[2];
    k->yaw_unwrap += remainder(h - k->yaw_prev, 2.0 * M_PI);
    k->yaw_prev = h;
    if (s->case_index == C_TRACKS) {
        if (s->t <= LOAD_AT + 0.5 * dt) {
            k->yaw0 = k->yaw_unwrap;
        } else {
            const double r = fabs(k->yaw_unwrap - k->yaw0);
            if (!(r <= k->rotation)) k->rotation = r;
        }
        if (isnan(k->w_a) && s->t >= WINDOW_A - 0.5 * dt) k->w_a = w;
        k->w_b = w;
    } else if (isnan(k->t_a) && s->t >= WHEEL_END - WHEEL_WINDOW - 0.5 * dt) {
        k->t_a = s->t;
        k->yaw_a = k->yaw_unwrap;
    }
    return PF_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* output                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static const char *const columns[] = {"t", "x", "y", "heading", "yaw_rate", "torque"};

static int sk_header(const char *const **names)
{
    *names = columns;
    return (int)(sizeof columns / sizeof *columns);
}

static int sk_row(const pfScene *s, double *row, int max)
{
    const Skid *k = s->impl;
    const dReal *p = dBodyGetPosition(k->body);
    const double r[6] = {s->t,
                         p[0],
                         p[1],
                         k->yaw_unwrap,
                         dBodyGetAngularVel(k->body)[2],
                         s->case_index == C_TRACKS ? torque_at(k, s->t - 1e-12) : 0.0};
    int n = 6 < max ? 6 : max;
    memcpy(row, r, (size_t)n * sizeof *row);
    return n;
}

/* The sliding moment: T - I_z dw/dt over [WINDOW_A, TRACK_END], while it spins. */
static double sliding_moment(const pfScene *s, const Skid *k)
{
    if (s->case_index != C_TRACKS || s->t < TRACK_END - 1e-9 || !isfinite(k->w_a) ||
        !(fabs(k->w_a) > SPINNING) || !(fabs(k->w_b) > SPINNING))
        return NAN;
    const double span = s->t - WINDOW_A;
    return k->torque - k->Iz * (k->w_b - k->w_a) / span;
}

static int sk_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    const Skid *k = s->impl;
    pfOdeCounters c = pf_ode_get_counters(s->pf);
    const double patches = c.patches > 0 ? (double)c.patches : NAN;
    double cone, pyramid;
    corner_moments(k->mu, k->heading, &cone, &pyramid);
    const int tr = s->case_index == C_TRACKS;
    int n = 0;
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    if (tr) {
        m[n++] = (pfSceneMetric){"torque", k->torque};
        m[n++] = (pfSceneMetric){"held", k->rotation <= k->hold_tol ? 1.0 : 0.0};
        m[n++] = (pfSceneMetric){"rotation", k->rotation};
        m[n++] = (pfSceneMetric){"sliding_moment", sliding_moment(s, k)};
        m[n++] = (pfSceneMetric){"breakaway_torque", k->breakaway_T};
        m[n++] = (pfSceneMetric){"breakaway_hi_holds", (double)k->hi_holds};
        m[n++] = (pfSceneMetric){"breakaway_trials", (double)k->trials};
        m[n++] = (pfSceneMetric){"moment_closed_form", moment_closed_form(k->mu)};
        m[n++] = (pfSceneMetric){"corner_points_moment", cone};
        m[n++] = (pfSceneMetric){"pyramid_moment", pyramid};
        m[n++] = (pfSceneMetric){"inertia_z", k->Iz};
    } else {
        const double rate =
            isfinite(k->t_a) && s->t > k->t_a ? (k->yaw_unwrap - k->yaw_a) / (s->t - k->t_a) : NAN;
        m[n++] = (pfSceneMetric){"yaw_rate", rate};
        m[n++] = (pfSceneMetric){"no_skid_yaw_rate", k->speed * WHEEL_R / WHEEL_Y};
        m[n++] = (pfSceneMetric){"wheel_speed", k->speed};
        const dReal *p = dBodyGetPosition(k->body);
        m[n++] = (pfSceneMetric){"drift", hypot(p[0], p[1])};
    }
    m[n++] = (pfSceneMetric){"yaw_rate_end", dBodyGetAngularVel(k->body)[2]};
    m[n++] = (pfSceneMetric){"point_fraction", (double)c.point_fallbacks / patches};
    m[n++] = (pfSceneMetric){"breakaways", (double)c.breakaways};
    m[n++] = (pfSceneMetric){"stick_fraction", (double)c.stick_steps / patches};
    m[n++] = (pfSceneMetric){
        "ode_messages", (double)(s->lcp_messages + s->ode_messages + k->lcp_total + k->ode_total)};
    return pfs_metrics_copy(m, n, out, max);
}

static int sk_state(const pfScene *s, char *buf, int size)
{
    const Skid *k = s->impl;
    return snprintf(buf, (size_t)size, "t=%.3f s  %s  yaw rate=%.4f rad/s  turned %.3g rad", s->t,
                    k->quick ? "QuickStep" : "dWorldStep", dBodyGetAngularVel(k->body)[2],
                    k->yaw_unwrap - k->yaw0);
}

const pfSceneClass pf_scene_class_skid = {
    {"skid-steer", "a vehicle turned in place on two tracks or four driven wheels", cases, keys},
    NULL,
    sk_build,
    sk_free,
    sk_step,
    sk_header,
    sk_row,
    sk_metrics,
    sk_state,
    NULL, /* no overlay */
};
