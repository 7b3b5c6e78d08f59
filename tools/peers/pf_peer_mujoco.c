/* pf-peer-mujoco: the peer-comparison cases (pf_peer_cases.h) in MuJoCo, as a user following
 * MuJoCo's documentation would set them up; writes a JSON array of two configurations, condim 3
 * and condim 4, for the report's "Against other engines" section.
 *
 * Settings (both configurations): elliptic friction cone, impratio 10, noslip_iterations 3, the
 * Newton solver, dt 1 ms, default solref/solimp. MuJoCo's XML reference (option/impratio, 2.2.2:
 * doc/XMLreference.rst) says impratio > 1 makes friction "harder" than the normal force, "having
 * the general effect of preventing slip", for elliptic cones, and recommends against high values
 * with pyramidal cones; option/noslip_iterations runs the post-processing that suppresses the
 * remaining slip of the soft friction constraints. condim 4 adds torsional friction whose
 * coefficient is a length the user sets by hand: here mu times the mean distance of the contact
 * area from its centre (the pure-spin torque of a uniformly pressed patch), and for the pinch the
 * pure-spin torque (3 pi / 16) mu a of the Hertz disk (a from the closed form, as a user would
 * compute it).
 *
 * Models are MJCF strings written to a temporary file and loaded with mj_loadXML. MuJoCo's errors
 * (mju_user_error) are caught with longjmp, so a model that cannot be allocated is a measured
 * failure, not an exit. Progress lines go to stderr.
 *
 * Usage: pf-peer-mujoco --out FILE.json [--quick]
 */
#include "pf_peer_json.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NCONF 2
static const int CONDIM[NCONF] = {3, 4};

/* The Hertz fingertip of the pinch (scenes/pf_scene_pinch.c): R, E, nu; the bar is steel. */
#define PINCH_R 0.015
#define PINCH_E 1e6
#define PINCH_NU 0.45
#define PINCH_E_BAR 2.1e11
#define PINCH_NU_BAR 0.3
#define PINCH_MU 1.0
#define PINCH_BAR_M 0.1
#define PINCH_HOLD_T 2.0
#define PINCH_SLIP 1e-3

static int g_quick;
static jmp_buf g_err_jmp;
static int g_err_armed;
static char g_err_msg[512];

static void on_mj_error(const char *msg)
{
    snprintf(g_err_msg, sizeof g_err_msg, "%s", msg);
    if (g_err_armed) longjmp(g_err_jmp, 1);
    fprintf(stderr, "pf-peer-mujoco: MuJoCo error: %s\n", msg);
    exit(1);
}

static void on_mj_warning(const char *msg)
{
    fprintf(stderr, "pf-peer-mujoco: MuJoCo warning: %s\n", msg);
}

/* A growing string for the MJCF text. */
typedef struct {
    char *s;
    size_t n, cap;
} Buf;

static void buf_add(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_add(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->n + (size_t)k + 1 > b->cap) {
        b->cap = 2 * (b->n + (size_t)k + 1);
        b->s = realloc(b->s, b->cap);
        if (!b->s) {
            fprintf(stderr, "pf-peer-mujoco: out of memory\n");
            exit(1);
        }
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

/* The <option> every model shares; gravity given (the incline tilts it). */
static void model_head(Buf *b, int condim, const double grav[3], const char *size)
{
    buf_add(b,
            "<mujoco model=\"pf-peer\"><compiler angle=\"radian\"/>"
            "<option timestep=\"%g\" gravity=\"%.17g %.17g %.17g\" cone=\"elliptic\" "
            "impratio=\"10\" noslip_iterations=\"3\" solver=\"Newton\" jacobian=\"auto\"/>"
            "%s<default><geom condim=\"%d\"/></default><worldbody>",
            PF_PEER_DT, grav[0], grav[1], grav[2], size ? size : "", condim);
}

/* Compile the MJCF text; NULL with why in why[] if MuJoCo refuses it (or runs out of memory). */
static mjModel *model_load(const char *xml, char *why, size_t nwhy)
{
    char path[] = "/tmp/pf-peer-mujoco-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(why, nwhy, "cannot create a temporary file");
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    fputs(xml, f);
    fclose(f);
    char err[1000] = "";
    mjModel *volatile m = NULL;
    g_err_armed = 1;
    if (setjmp(g_err_jmp) == 0)
        m = mj_loadXML(path, NULL, err, sizeof err);
    else
        snprintf(err, sizeof err, "%s", g_err_msg);
    g_err_armed = 0;
    unlink(path);
    if (!m) snprintf(why, nwhy, "%s", err);
    return m;
}

/* mj_makeData under the error trap; NULL with why if it cannot be allocated. */
static mjData *data_make(const mjModel *m, char *why, size_t nwhy)
{
    mjData *volatile d = NULL;
    g_err_armed = 1;
    if (setjmp(g_err_jmp) == 0)
        d = mj_makeData(m);
    else
        snprintf(why, nwhy, "%s", g_err_msg);
    g_err_armed = 0;
    if (!d && !why[0]) snprintf(why, nwhy, "mj_makeData returned NULL");
    return d;
}

/* n steps under the error trap; 0, or -1 with why. */
static int steps(const mjModel *m, mjData *d, int n, char *why, size_t nwhy)
{
    volatile int ok = 1;
    g_err_armed = 1;
    if (setjmp(g_err_jmp) == 0) {
        for (int i = 0; i < n; ++i)
            mj_step(m, d);
    } else {
        snprintf(why, nwhy, "%s", g_err_msg);
        ok = 0;
    }
    g_err_armed = 0;
    return ok ? 0 : -1;
}

static void die_model(const char *what, const char *why)
{
    fprintf(stderr, "pf-peer-mujoco: the %s model failed: %s\n", what, why);
    exit(1);
}

/* The model of the MJCF text in b (freed here); the program ends, naming the case, if MuJoCo
 * refuses it. */
static mjModel *model_or_die(Buf *b, const char *what)
{
    char why[1024] = "";
    mjModel *m = model_load(b->s, why, sizeof why);
    free(b->s);
    if (!m) die_model(what, why);
    return m;
}

/* The data of m; the program ends, naming the case, if it cannot be allocated. */
static mjData *data_or_die(const mjModel *m, const char *what)
{
    char why[1024] = "";
    mjData *d = data_make(m, why, sizeof why);
    if (!d) die_model(what, why);
    return d;
}

/* n steps; the program ends, naming the case, if one fails. */
static void steps_or_die(const mjModel *m, mjData *d, int n, const char *what)
{
    char why[1024] = "";
    if (steps(m, d, n, why, sizeof why)) die_model(what, why);
}

/* ------------------------------------------------------------------------------------------- */
/* eccentric push and push direction                                                            */
/* ------------------------------------------------------------------------------------------- */

/* Pure-spin torque per unit mu N of a uniformly pressed a x b rectangle: the mean distance of
 * its area from the centre (midpoint quadrature; a setting for condim 4, not a measurement). */
static double rect_mean_radius(double a, double b)
{
    const int n = 400;
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double x = ((i + 0.5) / n - 0.5) * a, y = ((j + 0.5) / n - 0.5) * b;
            s += sqrt(x * x + y * y);
        }
    return s / ((double)n * n);
}

static double block_spin(void)
{
    return PF_PEER_PUSH_MU_S * rect_mean_radius(PF_PEER_PUSH_L, PF_PEER_PUSH_W);
}

/* The block on the plane: friction "mu spin 0" on both geoms (MuJoCo takes the larger). */
static mjModel *block_model(int condim)
{
    const double g[3] = {0, 0, -PF_PEER_G};
    const double mass = PF_PEER_PUSH_RHO * PF_PEER_PUSH_L * PF_PEER_PUSH_W * PF_PEER_PUSH_H;
    Buf b = {0};
    model_head(&b, condim, g, NULL);
    const double spin = block_spin();
    buf_add(&b,
            "<geom name=\"floor\" type=\"plane\" size=\"0 0 1\" friction=\"%g %.9g 0\"/>"
            "<body name=\"block\" pos=\"0 0 %.9g\"><freejoint/>"
            "<geom type=\"box\" size=\"%g %g %g\" mass=\"%.9g\" friction=\"%g %.9g 0\"/>"
            "</body></worldbody></mujoco>",
            PF_PEER_PUSH_MU_S, spin, PF_PEER_PUSH_H / 2, PF_PEER_PUSH_L / 2, PF_PEER_PUSH_W / 2,
            PF_PEER_PUSH_H / 2, mass, PF_PEER_PUSH_MU_S, spin);
    mjModel *m = model_or_die(&b, "block");
    return m;
}

/* World position of body-frame point p of body 1. */
static void body_point(const mjData *d, const double p[3], double out[3])
{
    const double *x = d->xpos + 3, *R = d->xmat + 9;
    for (int i = 0; i < 3; ++i)
        out[i] = x[i] + R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2];
}

/* Breakaway force [N] of the block under a force growing at PF_PEER_PUSH_RAMP in direction dir
 * (world, horizontal) applied at body point p (relative to the mass centre, at rest aligned with
 * the world): the force when p has moved PF_PEER_BREAK_DIST in the plane. NAN if it never does. */
static double breakaway(int condim, const double p[3], const double dir[3])
{
    mjModel *m = block_model(condim);
    mjData *d = data_or_die(m, "block");
    steps_or_die(m, d, (int)lround(PF_PEER_SETTLE / PF_PEER_DT), "block");
    const double mass = PF_PEER_PUSH_RHO * PF_PEER_PUSH_L * PF_PEER_PUSH_W * PF_PEER_PUSH_H;
    const double fmax = 3.0 * PF_PEER_PUSH_MU_S * mass * PF_PEER_G;
    double p0[3];
    body_point(d, p, p0);
    double result = NAN;
    for (long k = 1; k * PF_PEER_DT * PF_PEER_PUSH_RAMP < fmax; ++k) {
        const double F = PF_PEER_PUSH_RAMP * k * PF_PEER_DT;
        /* force at the push point = force at the mass centre + moment r x F */
        double pw[3], r[3];
        body_point(d, p, pw);
        for (int i = 0; i < 3; ++i)
            r[i] = pw[i] - d->xipos[3 + i];
        double *xf = d->xfrc_applied + 6;
        for (int i = 0; i < 3; ++i)
            xf[i] = F * dir[i];
        xf[3] = r[1] * xf[2] - r[2] * xf[1];
        xf[4] = r[2] * xf[0] - r[0] * xf[2];
        xf[5] = r[0] * xf[1] - r[1] * xf[0];
        steps_or_die(m, d, 1, "block");
        body_point(d, p, pw);
        if (hypot(pw[0] - p0[0], pw[1] - p0[1]) >= PF_PEER_BREAK_DIST) {
            result = F;
            break;
        }
    }
    mj_deleteData(d);
    mj_deleteModel(m);
    return result;
}

/* ------------------------------------------------------------------------------------------- */
/* sliding-spinning disk                                                                        */
/* ------------------------------------------------------------------------------------------- */

typedef struct {
    double eps, stop_trans, stop_spin;
} DiskResult;

static DiskResult disk_run(int condim)
{
    const double g[3] = {0, 0, -PF_PEER_G};
    const double spin = PF_PEER_DISK_MU * 2.0 * PF_PEER_DISK_R / 3.0; /* uniform disk, pure spin */
    Buf b = {0};
    model_head(&b, condim, g, NULL);
    buf_add(&b,
            "<geom type=\"plane\" size=\"0 0 1\" friction=\"%g %.9g 0\"/>"
            "<body pos=\"0 0 %.9g\"><freejoint/>"
            "<geom type=\"cylinder\" size=\"%g %g\" mass=\"%g\" friction=\"%g %.9g 0\"/>"
            "</body></worldbody></mujoco>",
            PF_PEER_DISK_MU, spin, PF_PEER_DISK_HEIGHT / 2, PF_PEER_DISK_R, PF_PEER_DISK_HEIGHT / 2,
            PF_PEER_DISK_MASS, PF_PEER_DISK_MU, spin);
    mjModel *m = model_or_die(&b, "disk");
    mjData *d = data_or_die(m, "disk");
    steps_or_die(m, d, (int)lround(PF_PEER_SETTLE / PF_PEER_DT), "disk");
    /* free joint: qvel = linear velocity (world), angular velocity (body frame; the axis is z) */
    d->qvel[0] = PF_PEER_DISK_V0;
    d->qvel[5] = PF_PEER_DISK_W0;
    DiskResult res = {NAN, NAN, NAN};
    const double tmax = 10.0 * PF_PEER_DISK_V0 / (PF_PEER_DISK_MU * PF_PEER_G);
    for (long k = 1; k * PF_PEER_DT <= tmax; ++k) {
        steps_or_die(m, d, 1, "disk");
        const double t = k * PF_PEER_DT;
        const double v = hypot(d->qvel[0], d->qvel[1]), w = fabs(d->qvel[5]);
        if (v >= 0.05 * PF_PEER_DISK_V0 && w >= 0.05 * PF_PEER_DISK_W0)
            res.eps = v / (PF_PEER_DISK_R * w);
        if (isnan(res.stop_trans) && v < 1e-3) res.stop_trans = t;
        if (isnan(res.stop_spin) && PF_PEER_DISK_R * w < 1e-3) res.stop_spin = t;
        if (!isnan(res.stop_trans) && !isnan(res.stop_spin)) break;
    }
    mj_deleteData(d);
    mj_deleteModel(m);
    return res;
}

/* ------------------------------------------------------------------------------------------- */
/* creep                                                                                        */
/* ------------------------------------------------------------------------------------------- */

/* In-plane displacement [m] of the cube's mass centre over PF_PEER_CREEP_T s after settling:
 * incline (gravity tilted by atan(0.9 mu) about y) or push (0.9 mu m g along x); first: the
 * displacement after the first second (or T if shorter). */
static double creep(int condim, int incline, double T, double *first)
{
    const double a = atan(PF_PEER_CREEP_FRACTION * PF_PEER_CREEP_MU);
    double g[3] = {0, 0, -PF_PEER_G};
    if (incline) {
        g[0] = PF_PEER_G * sin(a);
        g[2] = -PF_PEER_G * cos(a);
    }
    Buf b = {0};
    model_head(&b, condim, g, NULL);
    const double spin = PF_PEER_CREEP_MU * rect_mean_radius(PF_PEER_CREEP_SIDE, PF_PEER_CREEP_SIDE);
    buf_add(&b,
            "<geom type=\"plane\" size=\"0 0 1\" friction=\"%g %.9g 0\"/>"
            "<body pos=\"0 0 %.9g\"><freejoint/>"
            "<geom type=\"box\" size=\"%g %g %g\" mass=\"%g\" friction=\"%g %.9g 0\"/>"
            "</body></worldbody></mujoco>",
            PF_PEER_CREEP_MU, spin, PF_PEER_CREEP_SIDE / 2, PF_PEER_CREEP_SIDE / 2,
            PF_PEER_CREEP_SIDE / 2, PF_PEER_CREEP_SIDE / 2, PF_PEER_CREEP_MASS, PF_PEER_CREEP_MU,
            spin);
    mjModel *m = model_or_die(&b, "creep");
    mjData *d = data_or_die(m, "creep");
    steps_or_die(m, d, (int)lround(PF_PEER_SETTLE / PF_PEER_DT), "creep");
    const double x0 = d->xipos[3], y0 = d->xipos[4];
    if (!incline)
        d->xfrc_applied[6] =
            PF_PEER_CREEP_FRACTION * PF_PEER_CREEP_MU * PF_PEER_CREEP_MASS * PF_PEER_G;
    const double t1 = T < 1.0 ? T : 1.0;
    steps_or_die(m, d, (int)lround(t1 / PF_PEER_DT), "creep");
    *first = hypot(d->xipos[3] - x0, d->xipos[4] - y0);
    steps_or_die(m, d, (int)lround((T - t1) / PF_PEER_DT), "creep");
    const double s = hypot(d->xipos[3] - x0, d->xipos[4] - y0);
    mj_deleteData(d);
    mj_deleteModel(m);
    return s;
}

/* ------------------------------------------------------------------------------------------- */
/* pinch grasp                                                                                  */
/* ------------------------------------------------------------------------------------------- */

/* Hertz contact radius of a fingertip on the bar (P33): a = (3 N R / (4 E*))^(1/3). */
static double pinch_hertz_a(void)
{
    const double Es = 1.0 / ((1 - PINCH_NU * PINCH_NU) / PINCH_E +
                             (1 - PINCH_NU_BAR * PINCH_NU_BAR) / PINCH_E_BAR);
    return cbrt(3.0 * PF_PEER_PINCH_N * PINCH_R / (4.0 * Es));
}

/* Friction force and torque per unit mu N of a Hertz disk (pressure ~ sqrt(1 - r^2/a^2)) turning
 * about the point (c, 0) of its plane (c: distance of the instantaneous centre, in units of a),
 * by midpoint quadrature in polar coordinates. */
static void hertz_wrench(double c, double *f, double *tau)
{
    const int nr = 200, nt = 256;
    double sp = 0.0, sf = 0.0, st = 0.0;
    for (int i = 0; i < nr; ++i) {
        const double r = (i + 0.5) / nr, p = sqrt(1.0 - r * r);
        for (int j = 0; j < nt; ++j) {
            const double th = 2.0 * M_PI * (j + 0.5) / nt;
            const double x = r * cos(th), y = r * sin(th);
            /* sliding velocity of point (x, y) turning about (c, 0): omega z x (p - c) */
            double vx = -y, vy = x - c;
            const double vn = hypot(vx, vy);
            if (vn == 0.0) continue;
            vx /= vn;
            vy /= vn;
            const double w = p * r; /* pressure times the polar area element */
            sp += w;
            sf += w * vy; /* force along y (the only component, by symmetry) */
            st += w * (x * vy - y * vx);
        }
    }
    *f = fabs(sf / sp);
    *tau = fabs(st / sp);
}

/* The closed-form largest offset d* (docs/physics.md P40-P42, independently here by quadrature):
 * each fingertip carries m g / 2 and m g d / 2 about its normal; the load lies on the limit
 * surface where the force share reaches m g / 2 / (mu N). */
static double pinch_dstar(void)
{
    const double a = pinch_hertz_a();
    const double need = PINCH_BAR_M * PF_PEER_G / 2.0 / (PINCH_MU * PF_PEER_PINCH_N);
    double lo = 0.0, hi = 1e3, f, tau;
    for (int it = 0; it < 60; ++it) {
        const double c = 0.5 * (lo + hi);
        hertz_wrench(c, &f, &tau);
        if (f < need)
            lo = c;
        else
            hi = c;
    }
    hertz_wrench(hi, &f, &tau);
    return tau / f * a; /* tau / f: lever of the load, d = (m g d / 2) / (m g / 2) */
}

/* Does the bar hold at offset d (its centre moves less than PINCH_SLIP in PINCH_HOLD_T s after
 * the weight is applied)? Fingertips on slide joints along y, each pushed inward with N. */
static int pinch_holds(int condim, double d)
{
    const double g[3] = {0, 0, 0}; /* the bar's weight is applied as a force, as in the scene */
    const double spin = PINCH_MU * 3.0 * M_PI / 16.0 * pinch_hertz_a();
    const double yt = PF_PEER_PUSH_W; /* half the bar's width: 0.01 m */
    Buf b = {0};
    model_head(&b, condim, g, NULL);
    buf_add(&b,
            "<body name=\"bar\"><freejoint/>"
            "<geom type=\"box\" size=\"0.1 0.01 0.01\" mass=\"%g\" friction=\"%g %.9g 0\"/>"
            "</body>",
            PINCH_BAR_M, PINCH_MU, spin);
    for (int s = -1; s <= 1; s += 2)
        buf_add(&b,
                "<body pos=\"%.9g %.9g 0\"><joint type=\"slide\" axis=\"0 1 0\"/>"
                "<geom type=\"sphere\" size=\"%g\" mass=\"0.01\" friction=\"%g %.9g 0\"/>"
                "</body>",
                d, s * (yt + PINCH_R), PINCH_R, PINCH_MU, spin);
    buf_add(&b, "</worldbody></mujoco>");
    mjModel *m = model_or_die(&b, "pinch");
    mjData *dd = data_or_die(m, "pinch");
    /* qvel: bar 6, finger at -y (dof 6) pushed +y, finger at +y (dof 7) pushed -y */
    dd->qfrc_applied[6] = PF_PEER_PINCH_N;
    dd->qfrc_applied[7] = -PF_PEER_PINCH_N;
    steps_or_die(m, dd, (int)lround(PF_PEER_SETTLE / PF_PEER_DT), "pinch");
    const double x0[3] = {dd->xipos[3], dd->xipos[4], dd->xipos[5]};
    dd->xfrc_applied[6 + 2] = -PINCH_BAR_M * PF_PEER_G;
    int held = 1;
    for (long k = 0; k * PF_PEER_DT < PINCH_HOLD_T && held; k += 10) {
        steps_or_die(m, dd, 10, "pinch");
        const double dx = dd->xipos[3] - x0[0], dy = dd->xipos[4] - x0[1],
                     dz = dd->xipos[5] - x0[2];
        if (sqrt(dx * dx + dy * dy + dz * dz) >= PINCH_SLIP) held = 0;
    }
    mj_deleteData(dd);
    mj_deleteModel(m);
    return held;
}

/* Largest holding offset by bisection on [0, 3 d*], over d*; -1 if even d = 0 fails. */
static double pinch_ratio(int condim, double dstar)
{
    if (!pinch_holds(condim, 0.0)) return -1.0;
    double lo = 0.0, hi = 3.0 * dstar;
    if (pinch_holds(condim, hi)) return 3.0; /* holds at the widest trial: a lower bound */
    const int n = g_quick ? 6 : 14;
    for (int it = 0; it < n; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (pinch_holds(condim, mid))
            lo = mid;
        else
            hi = mid;
    }
    return lo / dstar;
}

/* ------------------------------------------------------------------------------------------- */
/* cost                                                                                         */
/* ------------------------------------------------------------------------------------------- */

static mjModel *cost_model(int condim, int n, char *why, size_t nwhy)
{
    const double g[3] = {0, 0, -PF_PEER_G};
    /* room for every contact: box on plane gives up to 4 contacts of condim rows each (the
     * elliptic cone: condim rows per contact); MuJoCo's XML reference, size/njmax, nconmax */
    const int ncon = 4 * n + 16;
    char size[160];
    snprintf(size, sizeof size, "<size njmax=\"%d\" nconmax=\"%d\"/>", ncon * condim, ncon);
    Buf b = {0};
    model_head(&b, condim, g, size);
    buf_add(&b, "<geom type=\"plane\" size=\"0 0 1\" friction=\"0.5 0.02 0\"/>");
    for (int i = 0; i < n; ++i)
        buf_add(&b,
                "<body pos=\"%g %g 0.05\"><freejoint/>"
                "<geom type=\"box\" size=\"0.05 0.05 0.05\" mass=\"1\" friction=\"0.5 0.02 0\"/>"
                "</body>",
                0.3 * (i % 10), 0.3 * (i / 10));
    buf_add(&b, "</worldbody></mujoco>");
    mjModel *m = model_load(b.s, why, nwhy);
    free(b.s);
    return m;
}

/* Does MuJoCo take n boxes (compile, allocate, 10 steps without a full contact or constraint
 * list)? Returns the model and data when it does. */
static int cost_try(int condim, int n, mjModel **mo, mjData **dout, char *why, size_t nwhy)
{
    why[0] = 0;
    mjModel *m = cost_model(condim, n, why, nwhy);
    if (!m) return 0;
    mjData *d = data_make(m, why, nwhy);
    if (!d) {
        mj_deleteModel(m);
        return 0;
    }
    for (int i = 0; i < n; ++i)
        d->qvel[6 * i] = 1.0;
    if (steps(m, d, 10, why, nwhy) || d->warning[mjWARN_CONTACTFULL].number ||
        d->warning[mjWARN_CNSTRFULL].number) {
        if (!why[0]) snprintf(why, nwhy, "contact or constraint list full");
        mj_deleteData(d);
        mj_deleteModel(m);
        return 0;
    }
    *mo = m;
    *dout = d;
    return 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Time per step [us] with the largest body count <= the target MuJoCo takes (bisection). */
static double cost_run(int condim, int *bodies, char *note, size_t nnote)
{
    const int target = g_quick ? 100 : PF_PEER_COST_BODIES;
    mjModel *m = NULL;
    mjData *d = NULL;
    char why[1024], first_why[1024] = "";
    int n = target;
    if (!cost_try(condim, n, &m, &d, why, sizeof why)) {
        snprintf(first_why, sizeof first_why, "%s", why);
        int lo = 0, hi = target;
        fprintf(stderr, "pf-peer-mujoco:   cost: %d boxes refused (%.100s)\n", target, why);
        while (hi - lo > 1) {
            const int mid = (lo + hi) / 2;
            mjModel *mm = NULL;
            mjData *md = NULL;
            const int ok = cost_try(condim, mid, &mm, &md, why, sizeof why);
            fprintf(stderr, "pf-peer-mujoco:   cost: %d boxes %s%.100s%s\n", mid,
                    ok ? "taken" : "refused (", ok ? "" : why, ok ? "" : ")");
            if (ok) {
                lo = mid;
                if (m) {
                    mj_deleteData(d);
                    mj_deleteModel(m);
                }
                m = mm;
                d = md;
            } else
                hi = mid;
        }
        n = lo;
        for (char *p = first_why; *p; ++p)
            if (*p == '\n' || *p == '"') *p = ' ';
        const double buf = d ? (double)d->nbuffer : NAN;
        /* at the cap, the buffer's byte count (an int in 2.2.2's mjData) is what ran out */
        const int at_int_cap = buf > 0.99 * INT_MAX;
        snprintf(note, nnote,
                 "cost: MuJoCo 2.2.2 did not take %d boxes (%s) with njmax and nconmax raised "
                 "for 4 contacts a box (its <size> element); the largest count it took "
                 "(bisection) is %d, where mjData's buffer is %.0f bytes%s",
                 target, first_why, n, buf,
                 at_int_cap ? ", just under 2^31: 2.2.2 keeps its size in an int (mjdata.h: "
                              "nbuffer) and its constraint arrays grow with njmax x nv and "
                              "njmax^2, so memory is not what runs out"
                            : "");
    }
    *bodies = n;
    if (!m) return NAN;
    fprintf(stderr, "pf-peer-mujoco:   cost: %d boxes, mjData buffer %d bytes, stack %d mjtNums\n",
            n, d->nbuffer, d->nstack);
    double t0 = now_s();
    steps_or_die(m, d, PF_PEER_COST_STEPS, "cost");
    const double us = (now_s() - t0) / PF_PEER_COST_STEPS * 1e6;
    mj_deleteData(d);
    mj_deleteModel(m);
    return us;
}

/* ------------------------------------------------------------------------------------------- */

static json_t *run_config(int condim, double dstar)
{
    json_t *o = json_object(), *notes = json_array();
    char buf[1024];
    json_object_set_new(o, "engine", json_string("mujoco"));
    snprintf(buf, sizeof buf, "condim %d", condim);
    json_object_set_new(o, "config", json_string(buf));
    json_object_set_new(o, "version", json_string(mj_versionString()));
    snprintf(buf, sizeof buf,
             "elliptic cone, impratio 10, noslip_iterations 3, Newton solver, dt %g ms, default "
             "solref/solimp, condim %d%s (MuJoCo XML reference: option/impratio, "
             "option/noslip_iterations, geom/condim)",
             PF_PEER_DT * 1e3, condim,
             condim == 4 ? "; torsional friction (a length) set to mu times the mean radius of "
                           "the contact area (block, cube: rectangle; disk: 2R/3; pinch: "
                           "(3 pi/16) a of the Hertz disk)"
                         : "");
    json_object_set_new(o, "settings", json_string(buf));

    fprintf(stderr, "pf-peer-mujoco: condim %d: eccentric push\n", condim);
    json_t *push = json_array();
    for (int k = 0; k < 3; ++k) {
        const double p[3] = {pf_peer_push_h[k], -PF_PEER_PUSH_W / 2, 0.0}, dir[3] = {0, 1, 0};
        const double F = breakaway(condim, p, dir);
        fprintf(stderr, "pf-peer-mujoco:   h = %g mm: %.5g mN\n", pf_peer_push_h[k] * 1e3, F * 1e3);
        json_array_append_new(push, pf_peer_num(F));
    }
    json_object_set_new(o, "push_breakaway_N", push);

    fprintf(stderr, "pf-peer-mujoco: condim %d: push direction\n", condim);
    json_t *dirs = json_array();
    double fmin = INFINITY, fmax = -INFINITY;
    int all = 1;
    for (int k = 0; k < PF_PEER_DIR_N; ++k) {
        const double th = k * PF_PEER_DIR_STEP_DEG * M_PI / 180.0;
        const double p[3] = {0, 0, 0}, dir[3] = {cos(th), sin(th), 0};
        const double F = breakaway(condim, p, dir);
        json_array_append_new(dirs, pf_peer_num(F));
        if (!isfinite(F)) all = 0;
        fmin = fmin < F ? fmin : F;
        fmax = fmax > F ? fmax : F;
    }
    json_object_set_new(o, "dir_breakaway_N", dirs);
    json_object_set_new(o, "dir_spread", all ? json_real((fmax - fmin) / fmin) : json_null());
    if (!all) json_array_append_new(notes, json_string("direction: a push never broke away"));

    fprintf(stderr, "pf-peer-mujoco: condim %d: sliding-spinning disk\n", condim);
    const DiskResult dr = disk_run(condim);
    json_object_set_new(o, "disk_eps", pf_peer_num(dr.eps));
    json_object_set_new(o, "disk_stop_trans_s", pf_peer_num(dr.stop_trans));
    json_object_set_new(o, "disk_stop_spin_s", pf_peer_num(dr.stop_spin));
    if (!isfinite(dr.stop_trans) || !isfinite(dr.stop_spin))
        json_array_append_new(notes, json_string("disk: did not stop within 10 v0/(mu g)"));

    const double T = g_quick ? 1.0 : PF_PEER_CREEP_T;
    fprintf(stderr, "pf-peer-mujoco: condim %d: creep (%g s)\n", condim, T);
    double first_incl, first_push;
    const double incl = creep(condim, 1, T, &first_incl), push_d = creep(condim, 0, T, &first_push);
    json_object_set_new(o, "creep_incline_m", pf_peer_num(incl));
    json_object_set_new(o, "creep_push_m", pf_peer_num(push_d));
    snprintf(buf, sizeof buf,
             "creep: of the %.3g m on the incline, %.3g m came in the first second; of the %.3g m "
             "under the push (applied at once), %.3g m",
             incl, first_incl, push_d, first_push);
    json_array_append_new(notes, json_string(buf));
    if (g_quick) json_array_append_new(notes, json_string("--quick: creep over 1 s, not 10 s"));

    fprintf(stderr, "pf-peer-mujoco: condim %d: pinch (bisection)\n", condim);
    const double pr = pinch_ratio(condim, dstar);
    json_object_set_new(o, "pinch_ratio", pr >= 0.0 ? json_real(pr) : json_null());
    if (pr < 0.0)
        json_array_append_new(notes, json_string("pinch: the bar slips even at offset 0"));
    if (condim == 4)
        json_array_append_new(
            notes, json_string("pinch: the torsional length is set to the Hertz disk's pure-spin "
                               "capacity (3 pi/16) a and the load is close to pure spin, so a "
                               "ratio near 1 checks that hand-set value and the elliptic cone "
                               "more than a contact model"));
    if (condim == 3)
        json_array_append_new(
            notes, json_string("pinch: condim 3 has no torsional friction at the single "
                               "sphere-box contact: only the soft contact's tangential "
                               "compliance resists the bar turning about the grasp axis"));
    snprintf(buf, sizeof buf,
             "pinch: MuJoCo's contact is soft (default solref/solimp), not Hertzian; the "
             "fingertips are spheres on slide joints pressed with %g N (qfrc_applied), the bar's "
             "weight a force at its centre; d* = %.4g mm (Hertz closed form by quadrature)",
             PF_PEER_PINCH_N, dstar * 1e3);
    json_array_append_new(notes, json_string(buf));

    fprintf(stderr, "pf-peer-mujoco: condim %d: cost\n", condim);
    int bodies = 0;
    char note[1400] = "";
    const double us = cost_run(condim, &bodies, note, sizeof note);
    json_object_set_new(o, "cost_bodies", json_integer(bodies));
    json_object_set_new(o, "cost_step_us", pf_peer_num(us));
    if (note[0]) json_array_append_new(notes, json_string(note));
    if (g_quick) json_array_append_new(notes, json_string("--quick: cost with at most 100 boxes"));
    fprintf(stderr, "pf-peer-mujoco:   %d boxes: %.1f us/step\n", bodies, us);

    json_array_append_new(notes, json_string("one friction coefficient: mu_s everywhere (the push "
                                             "block's mu_k 0.52 is not expressible)"));
    json_object_set_new(o, "notes", notes);
    return o;
}

static void usage(FILE *f)
{
    fputs(
        "usage: pf-peer-mujoco --out FILE.json [--quick]\n"
        "Runs the peer-comparison cases (tools/peers/pf_peer_cases.h) in MuJoCo, condim 3 and\n"
        "condim 4, and writes their JSON array to FILE.json.\n"
        "  --quick  short creep runs, at most 100 boxes for the cost, a coarser pinch bisection\n",
        f);
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--quick"))
            g_quick = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "pf-peer-mujoco: unknown or incomplete argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!out) {
        fprintf(stderr, "pf-peer-mujoco: --out FILE.json is required\n");
        usage(stderr);
        return 2;
    }
    mju_user_error = on_mj_error;
    mju_user_warning = on_mj_warning;
    const double dstar = pinch_dstar();
    json_t *arr = json_array();
    for (int c = 0; c < NCONF; ++c)
        json_array_append_new(arr, run_config(CONDIM[c], dstar));
    if (json_dump_file(arr, out, JSON_INDENT(2) | JSON_REAL_PRECISION(9)) != 0) {
        fprintf(stderr, "pf-peer-mujoco: cannot write %s\n", out);
        return 1;
    }
    json_decref(arr);
    fprintf(stderr, "pf-peer-mujoco: wrote %s\n", out);
    return 0;
}
