/* sliding-blocks: the planar sliding-block case studies of Kardan et al. (docs/physics.md §6).
 *
 * What you should see:
 *  - no-slip-circle: a 30 x 10 mm block pushed by a rotating force 0.08 N < mu N never moves (patch
 *    modes: displacement ~ 0; stock mode creeps).
 *  - zero-stop-circle: a rotating force of 0.1 N > mu N drags it round a small circular orbit
 *    without ever stopping.
 *  - multi-stop: Fx = 0.08 cos 5t, Fy = 0.073 sin 3t: the block slides, stops and sticks several
 *    times per 2 pi s cycle.
 *  - general-motion: plus a moment M_G = 0.0007 cos(4t + pi/4): translation and rotation, and every
 *    stick phase stops all three degrees of freedom together.
 *  - eccentric-push: an aluminium block 30 x 10 x 10 mm on steel (mu_s 0.55, mu_k 0.52) pushed
 *    perpendicular to a long side at distance h from the centre by a force growing at `ramp` N/s;
 *    it breaks away into a rotation about the CA point at breakaway_force (P10-P12).
 *  - free-slide: a box (or a flat disk) launched with v0 and spin w0 and no load slides on a
 *    curved path; with patch friction translation and rotation stop at the same instant (stock
 *    friction stops them at different times).
 *  - slope-drop: Kardan's block released flat, its bottom face `drop` = 5 mm above a 15 degree
 *    incline (below the friction angle atan 0.4 = 21.8 degrees) and parallel to it, launched
 *    with (vx0, vy0) = (0.2, 0.4) m/s in the incline's plane (x down-slope) and w0 = 20 rad/s. It
 *    lands after 32.5 ms (perfectly inelastic: the normal impulse m v_n also brings a friction
 *    impulse), slides and spins down and across, and stops for good after about 0.3 s. The
 *    incline is the plane z = 0 with gravity tilted, g = (g sin(slope), 0, -g cos(slope)) in the
 *    set-up frame; z in the CSV is the gap between the bottom face and the incline (0 in contact).
 * Every case's CSV has energy: m |v|^2/2 + J w^2/2 + the potential of gravity relative to the
 * start (m g z on the flat cases), in the ground frame, J = m rho_g^2 about the normal.
 * The whole set-up may be rotated about the vertical by `yaw`; positions, velocities and forces in
 * the CSV and metrics are given in the set-up frame (rotated back), so they do not depend on yaw.
 */
#include "pf_scene_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { C_NOSLIP, C_ZEROSTOP, C_MULTISTOP, C_GENERAL, C_ECCENTRIC, C_FREESLIDE, C_SLOPEDROP };

static const char *const cases[] = {
    "no-slip-circle", "zero-stop-circle", "multi-stop", "general-motion",
    "eccentric-push", "free-slide",       "slope-drop", NULL};
static const char *const keys[] = {
    "yaw",    "mass", "mu_s", "mu_k",  "criterion", "h",   "ramp", "shape",    "length", "width",
    "radius", "v0",   "w0",   "slope", "drop",      "vx0", "vy0",  "coupling", NULL};

/// At rest (for stick_time / stops): speed and spin * rho_g both below this [m/s].
#define V_REST 2e-4
/// Stop times of free-slide: first time speed (or |w| rho_g) falls below this [m/s].
#define V_STOP 1e-3
/// A rest phase counts as a stop if it lasts at least this long [s].
#define MIN_STOP 0.01
/// Eccentric push, stock mode: breakaway when the pushed point has moved this far [m].
#define STOCK_BREAK_DIST 1e-4

typedef struct Sliding {
    int disk;
    double L, W, H, R, mass, mu_s, mu_k, yaw, h, ramp, v0, w0, rho_g;
    dBodyID body;
    dGeomID geom, ground;
    /* current set-up-frame state and loads */
    double x, y, theta, vx, vy, w, fx, fy, mz;
    double theta_raw_prev;
    int stuck_patch; ///< adapter patch state of the last step (1 stick, 0 slip, -1 none)
    /* metrics */
    double max_disp, max_speed, stick_time, rest_start, breakaway_force, breakaway_time;
    double stop_trans, stop_rot, prev_speed, prev_spin, prev_t;
    /* slope-drop */
    double slope, drop, vx0, vy0; ///< incline [rad], release gap [m], launch velocity [m/s]
    double gap, gap_raw, vn;      ///< bottom face above the incline (>= 0, and signed) [m], v_n
    double landing_time;          ///< first crossing of the gap through 0 [s] (NAN: not yet)
    int resting, stops;
    double push0[2];    ///< eccentric: initial world position of the pushed point
    double ca_break[3]; ///< eccentric: world position of the predicted CA at breakaway [m]
} Sliding;

static double sl_dt(const pfScene *s)
{
    (void)s;
    return 1e-3;
}

/* Loads of the literature cases at time t (set-up frame, through the mass centre). */
static void case_loads(int c, double t, double *fx, double *fy, double *m)
{
    *fx = *fy = *m = 0.0;
    switch (c) {
    case C_NOSLIP:
        *fx = 0.08 * cos(5 * t);
        *fy = 0.08 * cos(5 * t + M_PI / 2);
        break;
    case C_ZEROSTOP:
        *fx = 0.1 * cos(5 * t);
        *fy = 0.1 * cos(5 * t + M_PI / 2);
        break;
    case C_MULTISTOP:
        *fx = 0.08 * cos(5 * t);
        *fy = 0.073 * sin(3 * t);
        break;
    case C_GENERAL:
        *m = 0.0007 * cos(4 * t + M_PI / 4);
        *fx = 0.07 * cos(5 * t);
        *fy = 0.06 * sin(3 * t);
        break;
    default:
        break;
    }
}

static int sl_build(pfScene *s, pfError *err)
{
    Sliding *b = calloc(1, sizeof *b);
    if (!b) return pfs_fail(err, PF_ERR_NO_MEMORY, "sliding-blocks: out of memory");
    s->impl = b;
    int c = s->case_index;
    const char *nm = "sliding-blocks";
    /* published parameters (docs/physics.md §6) */
    b->L = 0.03;
    b->W = 0.01;
    b->H = 0.01;
    b->mass = 0.0234;
    b->mu_s = b->mu_k = 0.4;
    b->R = 0.02;
    if (c == C_ECCENTRIC) {
        b->mass = 2700.0 * b->L * b->W * b->H;
        b->mu_s = 0.55;
        b->mu_k = 0.52;
        b->h = 0.005;
        b->ramp = 0.05;
    }
    if (c == C_FREESLIDE) {
        b->v0 = 0.5;
        b->w0 = 20.0;
    }
    double slope_deg = 15.0;
    if (c == C_SLOPEDROP) {
        b->drop = 0.005;
        b->vx0 = 0.2;
        b->vy0 = 0.4;
        b->w0 = 20.0;
    }
    const double inf = HUGE_VAL;
    int rc;
    PD("yaw", &b->yaw, -1e3, 0, 1e3, 0);
    PD("mass", &b->mass, 0.0, 1, inf, 0);
    if (c != C_FREESLIDE) {
        PD("mu_s", &b->mu_s, 0.0, 0, inf, 0);
    }
    PD("mu_k", &b->mu_k, 0.0, 0, inf, 0);
    if (c == C_FREESLIDE) b->mu_s = b->mu_k; /* no load: only the kinetic coefficient matters */
    if (b->mu_k > b->mu_s)
        return pfs_fail(err, PF_ERR_RANGE, "%s: mu_k = %g > mu_s = %g: expected mu_k <= mu_s", nm,
                        b->mu_k, b->mu_s);
    if (c == C_ECCENTRIC) {
        PD("h", &b->h, -0.5 * b->L, 0, 0.5 * b->L, 0);
        PD("ramp", &b->ramp, 0.0, 1, inf, 0);
    }
    if (c == C_FREESLIDE) {
        const char *shape = pfs_param_string(s, "shape");
        if (shape && !strcmp(shape, "disk"))
            b->disk = 1;
        else if (shape && strcmp(shape, "box"))
            return pfs_fail(err, PF_ERR_RANGE, "%s: --set shape=%s: expected box or disk", nm,
                            shape);
        if (b->disk) {
            PD("radius", &b->R, 1e-4, 0, 10.0, 0);
        } else {
            PD("length", &b->L, 1e-4, 0, 10.0, 0);
            PD("width", &b->W, 1e-4, 0, 10.0, 0);
        }
        PD("v0", &b->v0, -100.0, 0, 100.0, 0);
        PD("w0", &b->w0, -1e3, 0, 1e3, 0);
    }
    if (c == C_SLOPEDROP) {
        PD("slope", &slope_deg, 0.0, 0, 89.0, 0);
        PD("drop", &b->drop, 0.0, 0, 1.0, 0);
        PD("vx0", &b->vx0, -100.0, 0, 100.0, 0);
        PD("vy0", &b->vy0, -100.0, 0, 100.0, 0);
        PD("w0", &b->w0, -1e3, 0, 1e3, 0);
        PD("length", &b->L, 1e-4, 0, 10.0, 0);
        PD("width", &b->W, 1e-4, 0, 10.0, 0);
        b->slope = slope_deg * M_PI / 180.0;
    }
    pfOdeMaterial mat = pf_ode_default_material();
    mat.mu_s = b->mu_s;
    mat.mu_k = b->mu_k;
    mat.mode = s->mode;
    const char *crit = pfs_param_string(s, "criterion");
    if (crit && !strcmp(crit, "limit"))
        mat.criterion = PF_ODE_CRITERION_LIMIT;
    else if (crit && strcmp(crit, "ca"))
        return pfs_fail(err, PF_ERR_RANGE, "%s: --set criterion=%s: expected ca or limit", nm,
                        crit);

    if ((rc = pfs_ode_begin(s, err)) != PF_OK) return rc;
    if (c == C_SLOPEDROP) { /* the incline: down-slope is the set-up frame's +x */
        double g = 9.81, gt = g * sin(b->slope);
        dWorldSetGravity(s->world, gt * cos(b->yaw), gt * sin(b->yaw), -g * cos(b->slope));
    }
    b->ground = dCreatePlane(s->space, 0, 0, 1, 0);
    pfs_add_geom(s, b->ground);
    b->body = dBodyCreate(s->world);
    dMass m;
    if (b->disk) {
        b->H = 0.005;
        dMassSetCylinderTotal(&m, b->mass, 3, b->R, b->H);
        b->geom = dCreateCylinder(s->space, b->R, b->H);
        b->rho_g = b->R / sqrt(2.0);
    } else {
        dMassSetBoxTotal(&m, b->mass, b->L, b->W, b->H);
        b->geom = dCreateBox(s->space, b->L, b->W, b->H);
        b->rho_g = sqrt((b->L * b->L + b->W * b->W) / 12.0);
    }
    dBodySetMass(b->body, &m);
    dGeomSetBody(b->geom, b->body);
    dBodySetPosition(b->body, 0, 0,
                     c == C_SLOPEDROP && b->drop > 0 ? 0.5 * b->H + b->drop : 0.5 * b->H - 1e-5);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, b->yaw);
    dBodySetRotation(b->body, R);
    if (c == C_FREESLIDE) {
        double cy = cos(b->yaw), sy = sin(b->yaw);
        dBodySetLinearVel(b->body, b->v0 * cy, b->v0 * sy, 0);
        dBodySetAngularVel(b->body, 0, 0, b->w0);
    }
    if (c == C_SLOPEDROP) {
        double cy = cos(b->yaw), sy = sin(b->yaw);
        dBodySetLinearVel(b->body, cy * b->vx0 - sy * b->vy0, sy * b->vx0 + cy * b->vy0, 0);
        dBodySetAngularVel(b->body, 0, 0, b->w0);
    }
    pfs_add_geom(s, b->geom);
    if ((rc = pf_ode_set_material(s->pf, b->geom, &mat, err)) != PF_OK) return rc;
    if ((rc = pf_ode_set_material(s->pf, b->ground, &mat, err)) != PF_OK) return rc;

    b->theta_raw_prev = b->yaw;
    b->theta = 0.0;
    b->vx = c == C_FREESLIDE ? b->v0 : c == C_SLOPEDROP ? b->vx0 : 0.0;
    b->vy = c == C_SLOPEDROP ? b->vy0 : 0.0;
    b->w = c == C_FREESLIDE || c == C_SLOPEDROP ? b->w0 : 0.0;
    b->gap = b->gap_raw = c == C_SLOPEDROP ? b->drop : 0.0;
    b->landing_time = c == C_SLOPEDROP && b->drop > 0 ? NAN : 0.0;
    b->stuck_patch = -1;
    b->breakaway_force = b->breakaway_time = NAN;
    b->stop_trans = b->stop_rot = NAN;
    b->prev_speed = hypot(b->vx, b->vy);
    b->prev_spin = fabs(b->w) * b->rho_g;
    b->resting = 1; /* every case but free-slide starts at rest; free-slide is checked below */
    if (c == C_FREESLIDE && (fabs(b->v0) >= V_REST || fabs(b->w0) * b->rho_g >= V_REST))
        b->resting = 0;
    if (c == C_SLOPEDROP) b->resting = 0; /* released moving (or falling): not at rest */
    b->rest_start = 0.0;
    dVector3 p;
    dBodyGetRelPointPos(b->body, b->h, -0.5 * b->W, 0, p);
    b->push0[0] = p[0];
    b->push0[1] = p[1];
    switch (c) {
    case C_NOSLIP:
    case C_ZEROSTOP:
        s->default_duration = 2.5;
        break;
    case C_MULTISTOP:
    case C_GENERAL:
        s->default_duration = 2 * M_PI;
        break;
    case C_ECCENTRIC:
        s->default_duration = 1.5 * b->mu_s * b->mass * 9.81 / b->ramp;
        break;
    case C_SLOPEDROP:
        s->default_duration = 0.6;
        break;
    default:
        s->default_duration = 0.5;
        break;
    }
    return PF_OK;
}

static void sl_free(pfScene *s)
{
    free(s->impl);
}

/* Read the body's state into the set-up frame. */
static void read_state(Sliding *b)
{
    const dReal *p = dBodyGetPosition(b->body), *v = dBodyGetLinearVel(b->body);
    const dReal *w = dBodyGetAngularVel(b->body), *R = dBodyGetRotation(b->body);
    double cy = cos(b->yaw), sy = sin(b->yaw);
    b->x = cy * p[0] + sy * p[1];
    b->y = -sy * p[0] + cy * p[1];
    b->vx = cy * v[0] + sy * v[1];
    b->vy = -sy * v[0] + cy * v[1];
    b->w = w[2];
    b->gap_raw = p[2] - 0.5 * b->H;
    b->gap = fmax(0.0, b->gap_raw);
    b->vn = v[2];
    double raw = atan2(R[4], R[0]);
    double d = raw - b->theta_raw_prev;
    d -= 2 * M_PI * floor((d + M_PI) / (2 * M_PI));
    b->theta += d;
    b->theta_raw_prev = raw;
}

static int sl_step(pfScene *s, double dt, pfError *err)
{
    Sliding *b = s->impl;
    int c = s->case_index;
    double cy = cos(b->yaw), sy = sin(b->yaw);
    if (c == C_ECCENTRIC) {
        double F = b->ramp * s->t;
        /* body-fixed push along the body's y at (h, -W/2) (the long side), mass-centre height */
        dBodyAddRelForceAtRelPos(b->body, 0, F, 0, b->h, -0.5 * b->W, 0);
        double ct = cos(b->theta), st = sin(b->theta);
        b->fx = -st * F; /* set-up frame */
        b->fy = ct * F;
        b->mz = b->h * F;          /* r x F with r = (h, -W/2), F = (0, F) in the body frame */
    } else if (c == C_SLOPEDROP) { /* gravity's down-slope component, applied by the world */
        b->fx = b->mass * 9.81 * sin(b->slope);
        b->fy = b->mz = 0.0;
    } else {
        case_loads(c, s->t, &b->fx, &b->fy, &b->mz);
        dBodyAddForce(b->body, cy * b->fx - sy * b->fy, sy * b->fx + cy * b->fy, 0);
        dBodyAddTorque(b->body, 0, 0, b->mz);
    }
    double t_load = s->t;
    int rc = pfs_ode_step(s, dt, err);
    if (rc != PF_OK) return rc;
    s->t += dt;
    s->steps++;
    double gap_prev = b->gap_raw;
    read_state(b);
    if (isnan(b->landing_time) && b->gap_raw <= 0.0) /* linear interpolation of the crossing */
        b->landing_time =
            s->t - dt * (gap_prev > 0.0 ? -b->gap_raw / (gap_prev - b->gap_raw) : 0.0);
    pfOdePatchInfo info;
    b->stuck_patch = -1;
    if (pf_ode_find_patch(s->pf, b->geom, b->ground, &info) == PF_OK) {
        if (info.state == PF_ODE_STATE_STICK) b->stuck_patch = 1;
        if (info.state == PF_ODE_STATE_SLIP) b->stuck_patch = 0;
    }
    /* metrics */
    double speed = hypot(b->vx, b->vy), spin = fabs(b->w) * b->rho_g;
    b->max_speed = fmax(b->max_speed, speed);
    b->max_disp = fmax(b->max_disp, hypot(b->x, b->y));
    int rest = speed < V_REST && spin < V_REST;
    if (c == C_SLOPEDROP) rest = rest && b->gap <= 0.0; /* at rest on the incline, not in flight */
    if (rest && !b->resting) b->rest_start = s->t;
    if (!rest && b->resting && s->t - dt - b->rest_start >= MIN_STOP && b->rest_start > 0.0)
        b->stops++;
    if (rest) b->stick_time += dt;
    b->resting = rest;
    if (c == C_ECCENTRIC && isnan(b->breakaway_force)) {
        int broke;
        if (s->mode == PF_ODE_MODE_STOCK) {
            dVector3 p;
            dBodyGetRelPointPos(b->body, b->h, -0.5 * b->W, 0, p);
            broke = hypot(p[0] - b->push0[0], p[1] - b->push0[1]) > STOCK_BREAK_DIST;
        } else {
            broke = b->stuck_patch == 0;
        }
        if (broke) {
            b->breakaway_force = b->ramp * t_load;
            b->breakaway_time = t_load;
            if (b->h != 0.0) { /* the overlay's CA stays where motion started (sl_overlay) */
                dVector3 p;
                dBodyGetRelPointPos(b->body, -b->rho_g * b->rho_g / b->h, 0, -0.5 * b->H, p);
                for (int j = 0; j < 3; ++j)
                    b->ca_break[j] = p[j];
            }
        }
    }
    if (c == C_FREESLIDE ||
        (c == C_SLOPEDROP && !isnan(b->landing_time) && s->t - dt > b->landing_time)) {
        /* linear interpolation of the threshold crossing between the last two steps */
        if (isnan(b->stop_trans) && speed < V_STOP)
            b->stop_trans = b->prev_speed > V_STOP
                                ? s->t - dt * (V_STOP - speed) / (b->prev_speed - speed)
                                : s->t;
        if (isnan(b->stop_rot) && spin < V_STOP)
            b->stop_rot =
                b->prev_spin > V_STOP ? s->t - dt * (V_STOP - spin) / (b->prev_spin - spin) : s->t;
    }
    b->prev_speed = speed;
    b->prev_spin = spin;
    return PF_OK;
}

static const char *const columns[] = {"t",    "x",  "y",  "theta", "vx",    "vy", "w",     "speed",
                                      "spin", "Fx", "Fy", "M",     "stick", "z",  "energy"};
#define NCOL ((int)(sizeof columns / sizeof columns[0]))

static int sl_header(const char *const **names)
{
    *names = columns;
    return NCOL;
}

static int sl_row(const pfScene *s, double *row, int max)
{
    const Sliding *b = s->impl;
    double m = b->mass, g = 9.81;
    double e = 0.5 * m * (b->vx * b->vx + b->vy * b->vy + b->vn * b->vn) +
               0.5 * m * b->rho_g * b->rho_g * b->w * b->w - m * g * sin(b->slope) * b->x +
               m * g * cos(b->slope) * b->gap;
    double v[NCOL] = {
        s->t,  b->x,  b->y,  b->theta,           b->vx,  b->vy, b->w, hypot(b->vx, b->vy), b->w,
        b->fx, b->fy, b->mz, (double)b->resting, b->gap, e};
    int n = max < NCOL ? max : NCOL;
    memcpy(row, v, (size_t)n * sizeof *row);
    return n;
}

static int sl_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    const Sliding *b = s->impl;
    pfSceneMetric m[16];
    int n = 0;
    m[n++] = (pfSceneMetric){"final_x", b->x};
    m[n++] = (pfSceneMetric){"final_y", b->y};
    m[n++] = (pfSceneMetric){"final_theta", b->theta};
    m[n++] = (pfSceneMetric){"max_displacement", b->max_disp};
    m[n++] = (pfSceneMetric){"max_speed", b->max_speed};
    m[n++] = (pfSceneMetric){"stick_time", b->stick_time};
    int stops = b->stops; /* a rest phase still running at the end counts too */
    if (b->resting && b->rest_start > 0.0 && s->t - b->rest_start >= MIN_STOP) stops++;
    m[n++] = (pfSceneMetric){"stops", (double)stops};
    if (s->case_index == C_ECCENTRIC) {
        m[n++] = (pfSceneMetric){"breakaway_force", b->breakaway_force};
        m[n++] = (pfSceneMetric){"breakaway_time", b->breakaway_time};
    }
    if (s->case_index == C_SLOPEDROP) m[n++] = (pfSceneMetric){"landing_time", b->landing_time};
    if (s->case_index == C_FREESLIDE || s->case_index == C_SLOPEDROP) {
        m[n++] = (pfSceneMetric){"stop_time_translation", b->stop_trans};
        m[n++] = (pfSceneMetric){"stop_time_rotation", b->stop_rot};
    }
    return pfs_metrics_copy(m, n, out, max);
}

static int sl_state(const pfScene *s, char *buf, int size)
{
    const Sliding *b = s->impl;
    const char *st = b->stuck_patch == 1 ? "stick" : b->stuck_patch == 0 ? "slip" : "stock";
    return snprintf(buf, (size_t)size, "t=%.3f s  %s  v=%.4f m/s  w=%.3f rad/s  F=(%.4f, %.4f) N",
                    s->t, st, hypot(b->vx, b->vy), b->w, b->fx, b->fy);
}

/* Overlay of the eccentric push: the push (an arrow onto its body-fixed point (h, -W/2) on the
 * long side) and the rotation point the closed form predicts for breakaway, the CA of the loads
 * without friction, P10: the push F along the body's y at x = h gives a_y = F/m and
 * alpha = h F/J, so r_CA = (-a_y/alpha, 0) = (-J/(m h), 0) = (-rho_g^2/h, 0) from the mass centre,
 * independent of F (the closed form of test_scene_sliding.c). On the patch plane, body-fixed until
 * breakaway, then left where the motion started (a prediction of how it starts: the mass centre's
 * path should leave as an arc about it). */
static int sl_overlay(const pfScene *s, pfSceneOverlay *out, int max)
{
    const Sliding *b = s->impl;
    if (s->case_index != C_ECCENTRIC) return 0;
    int n = 0;
    dVector3 a, c;
    if (n < max) {
        dBodyGetRelPointPos(b->body, b->h, -0.5 * b->W - 2.0 * b->W, 0, a);
        dBodyGetRelPointPos(b->body, b->h, -0.5 * b->W, 0, c);
        pfSceneOverlay *o = &out[n++];
        o->kind = PF_SCENE_OVERLAY_ARROW;
        for (int j = 0; j < 3; ++j)
            o->p[j] = a[j], o->q[j] = c[j];
        o->rgb[0] = 1.0f, o->rgb[1] = 0.75f, o->rgb[2] = 0.95f; /* not the friction's yellow */
        snprintf(o->label, sizeof o->label, "push %.3f N", b->ramp * s->t);
    }
    if (n < max && b->h != 0.0) { /* h = 0: a pure translation (P13), no rotation point */
        dBodyGetRelPointPos(b->body, -b->rho_g * b->rho_g / b->h, 0, -0.5 * b->H, a);
        pfSceneOverlay *o = &out[n++];
        o->kind = PF_SCENE_OVERLAY_POINT;
        for (int j = 0; j < 3; ++j)
            o->p[j] = isnan(b->breakaway_time) ? a[j] : b->ca_break[j];
        o->rgb[0] = o->rgb[1] = o->rgb[2] = 1.0f;
        o->dashed = 1;
        snprintf(o->label, sizeof o->label, "CA closed form");
    }
    return n;
}

const pfSceneClass pf_scene_class_sliding = {
    {"sliding-blocks", "planar sliding-block case studies of Kardan et al. (docs/physics.md 6)",
     cases, keys},
    sl_dt,
    sl_build,
    sl_free,
    sl_step,
    sl_header,
    sl_row,
    sl_metrics,
    sl_state,
    sl_overlay,
};
