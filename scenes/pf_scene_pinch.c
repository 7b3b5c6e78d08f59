/* pinch: a bar held at an offset between two soft spherical fingertips (a soft-finger grasp).
 *
 * A bar 0.2 x 0.02 x 0.02 m (long axis x) of 0.1 kg, centre at the origin, is squeezed along y
 * by two fingertip spheres (radius 15 mm) touching its side faces at x = offset (key offset,
 * default 0.01 m), each pressed with the grip force N (key grip, default 5 N). Fingertips:
 * E = 1 MPa, nu = 0.45; the bar: steel, E = 2.1e11 Pa, nu = 0.3 (given to the adapter, also its
 * default); mu_s = mu_k = 1 everywhere (key mu). Each contact is a Hertz disk of radius
 * a = (3 N R* / (4 E*))^(1/3) (P33). There is no ground and the world has no gravity: the bar's
 * weight m g is applied as a force at its mass centre, so only the fingers carry it; the fingers'
 * own weight is left out.
 *   fingers=motor (default): each fingertip on a slider joint along y with a velocity motor
 *     pushing inward (dParamFMax = N), so the motor saturates and presses with N;
 *   fingers=kinematic: kinematic fingertips placed every step so that the normal rows give N
 *     (a force loop on the measured normal forces, see kinematic_grip).
 *   load=sudden (default): the weight is applied in full at t = 0.5 s; load=ramp: it grows
 *     linearly from 0 at t = 0.5 s to m g at t = 1 s.
 *   criterion=limit (default) or ca: the adapter's stick test (pfOdeMaterial.criterion).
 *   stepper=quick (default, dWorldQuickStep at ODE's 20 iterations) or world (dWorldStep).
 *   seed (default 1): ODE's random seed, which orders QuickStep's rows: one run is one draw.
 * Cases:
 *   hold:  one grasp, 2 s: 0.5 s settling under the grip, the load, held to t = 2 s. The bar's
 *          slip is the largest displacement of either end of its long axis, relative to the
 *          midpoint of the fingertips, from its place at 0.5 s; held = 1 if it stays below
 *          slip_tol (default 1e-4 m) up to the end.
 *   limit: the largest holding offset, by bisection over `hold` runs with the same keys (the
 *          offset key excepted) and the step's dt, until the bracket is tol (default 1e-3) of
 *          the closed form; the trials run in the scene's first step, the scene has no bodies.
 * The closed-form limit (docs/physics.md §3.1, P40-P42): by symmetry each patch carries m g/2 along
 * z and m g d/2 about its normal; the bar holds while that wrench lies in one Hertz disk's limit
 * set, which gives the largest offset offset_limit. offset_limit_ca is the offset at which the
 * torsion alone reaches the pure-spin capacity (3 pi/16) mu N a, what a test that ignores the
 * weight share allows. Both use the nominal grip N.
 * What you should see: with patch friction the bar hangs still between the fingertips for every
 * offset below offset_limit and swings down about the grasp (and falls) above it; with stock
 * friction (point contacts, no torsion) it swings down at any offset. Measured today (figures in
 * tests/CMakeLists.txt): so it does under dWorldStep with the LIMIT criterion, and under QuickStep
 * at 1 ms and at 5 ms for 2 and 5 N, with either coupling; under QuickStep at 10 N and 5 ms the bar
 * wobbles about the vertical (no breakaway) past slip_tol below offset_limit, and kinematic
 * fingertips hold 0.52 / 0.86 / 0.99 of it (2 / 5 / 10 N) on Debian's ODE.
 * ODE's messages (for example "LCP internal error") are counted while the scene steps. */
#include "pf_scene_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { C_HOLD, C_LIMIT };
static const char *const cases[] = {"hold", "limit", NULL};
static const char *const keys[] = {"grip",       "offset",   "fingers", "load", "criterion",
                                   "stepper",    "slip_tol", "tol",     "mu",   "coupling",
                                   "iterations", "seed",     NULL};

#define G 9.81
#define BAR_L 0.2
#define BAR_W 0.02
#define BAR_M 0.1
#define TIP_R 0.015
#define TIP_E 1e6
#define TIP_NU 0.45
#define TIP_M 0.05
#define BAR_E 2.1e11 /* steel */
#define BAR_NU 0.3
#define SETTLE 0.5
#define RAMP 0.5
#define HOLD_END 2.0
/* fingertip inward motor speed [m/s] (the motor saturates at N while the bar blocks it) */
#define MOTOR_SPEED 0.05
/* kinematic force loop: the squeeze moves at most KIN_VMAX [m/s]; first stiffness guess KIN_K0 */
#define KIN_VMAX 0.01
#define KIN_K0 1e6
/* each fingertip's travel inward from touching the bar's face [m]: a gripper's stop, far beyond
 * the Hertz squeeze (under 1 mm at 10 N), so the fingers never meet when the bar falls out (two
 * fingertips on motored sliders pressed into each other are a singular set for dWorldStep's
 * Dantzig solver: "LCP internal error" every step with ODE's own contacts at any mu, 0 included) */
#define TIP_TRAVEL (0.25 * BAR_W)
/* the bisection's widest offset: the fingertip stays on the bar's face */
#define OFFSET_MAX (0.5 * BAR_L - TIP_R)

typedef struct Pinch {
    double grip, offset, slip_tol, tol, mu, seed;
    int kinematic, ramp, limit_criterion, quick;
    dBodyID bar, tip[2];
    dGeomID bar_geom, tip_geom[2];
    dJointID slider[2];
    /* kinematic fingers: squeeze [m], its last move [m], secant stiffness [N/m], last force [N] */
    double kin_x, kin_dx, kin_k, kin_n_prev;
    long kin_steps;
    /* bar end points at the end of settling */
    int have_ref;
    double end0[2][3];
    /* metrics */
    double slip, normal[2], radius;
    double offset_limit, offset_limit_ca, a_closed;
    /* limit case */
    double offset_max;
    int trials, hi_holds;
    long lcp_total, ode_total;
} Pinch;

/* ------------------------------------------------------------------------------------------ */
/* closed form (docs/physics.md P40-P42), from the core's Hertz wrench                         */
/* ------------------------------------------------------------------------------------------ */

/* Force and moment magnitudes of a Hertz disk (radius a, mu N) rotating about the point (c, 0) of
 * its plane: twist (vx, vy, w) = (0, -c, 1). */
static void hertz_icr(double a, double muN, double c, double *F, double *M)
{
    pfTwist t = {0.0, -c, 1.0}, zero = {0.0, 0.0, 0.0};
    pfWrench w = pf_hertz_disk_friction(a, 1.0, muN, 0.0, t, zero, 0.0, 0.0);
    *F = hypot(w.fx, w.fy);
    *M = fabs(w.mz);
}

/* P40-P42: the ICR distance c where F(c) = m g/2, then d* = M(c)/F(c). */
static void closed_form(Pinch *k)
{
    double estar = 1.0 / ((1.0 - TIP_NU * TIP_NU) / TIP_E + (1.0 - BAR_NU * BAR_NU) / BAR_E);
    double a = cbrt(3.0 * k->grip * TIP_R / (4.0 * estar)), muN = k->mu * k->grip;
    double load = 0.5 * BAR_M * G, F, M;
    k->a_closed = a;
    k->offset_limit_ca = (3.0 * M_PI / 16.0) * muN * a / load;
    if (!(load < muN)) {
        k->offset_limit = 0.0; /* the weight share alone exceeds mu N */
        return;
    }
    double lo = 0.0, hi = a;
    for (hertz_icr(a, muN, hi, &F, &M); F < load; hertz_icr(a, muN, hi, &F, &M))
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * a; ++i) {
        double c = 0.5 * (lo + hi);
        hertz_icr(a, muN, c, &F, &M);
        if (F < load)
            lo = c;
        else
            hi = c;
    }
    hertz_icr(a, muN, 0.5 * (lo + hi), &F, &M);
    k->offset_limit = M / F;
}

/* ------------------------------------------------------------------------------------------ */
/* build                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int pinch_limit(pfScene *s, Pinch *k, double dt, pfError *err);

static int pn_build(pfScene *s, pfError *err)
{
    Pinch *k = calloc(1, sizeof *k);
    if (!k) return pfs_fail(err, PF_ERR_NO_MEMORY, "pinch: out of memory");
    s->impl = k;
    k->grip = 5.0;
    k->offset = 0.01;
    k->slip_tol = 1e-4;
    k->tol = 1e-3;
    k->mu = 1.0;
    k->seed = 1.0;
    k->limit_criterion = 1;
    k->quick = 1;
    k->offset_max = NAN;
    k->kin_k = KIN_K0;
    k->kin_x = 1e-4; /* ODE's contact surface layer (pfs_ode_begin): no ERP push below it */
    int rc;
    PD("grip", &k->grip, 0.0, 1, 1000.0, 0);
    PD("offset", &k->offset, -OFFSET_MAX, 0, OFFSET_MAX, 0);
    PD("slip_tol", &k->slip_tol, 0.0, 1, 0.1, 0);
    PD("tol", &k->tol, 0.0, 1, 0.5, 0);
    PD("mu", &k->mu, 0.0, 1, 10.0, 0);
    PD("seed", &k->seed, 0.0, 0, 4294967295.0, 0);
    if (k->seed != floor(k->seed))
        return pfs_fail(err, PF_ERR_RANGE, "pinch: --set seed=%g: expected an integer", k->seed);
    if ((rc = pfs_param_choice(s, "pinch", "fingers", "motor", "kinematic", &k->kinematic, err)) !=
        PF_OK)
        return rc;
    if ((rc = pfs_param_choice(s, "pinch", "load", "sudden", "ramp", &k->ramp, err)) != PF_OK)
        return rc;
    if ((rc = pfs_param_choice(s, "pinch", "criterion", "ca", "limit", &k->limit_criterion, err)) !=
        PF_OK)
        return rc;
    int world = 0;
    if ((rc = pfs_param_choice(s, "pinch", "stepper", "quick", "world", &world, err)) != PF_OK)
        return rc;
    k->quick = !world;
    closed_form(k);
    if ((rc = pfs_param_check_unused(s, err)) != PF_OK) return rc;
    if (s->case_index == C_LIMIT) {
        s->default_duration = HOLD_END; /* the trials run in the first step */
        return PF_OK;
    }
    s->quick = k->quick;
    s->default_duration = HOLD_END;

    if ((rc = pfs_ode_begin(s, err)) != PF_OK) return rc;
    /* QuickStep's row order: the same run whatever ran before in the process */
    dRandSetSeed((unsigned long)k->seed);
    dWorldSetGravity(s->world, 0, 0, 0); /* the bar's weight is a force (pn_step) */
    pfOdeMaterial bar_m = pf_ode_default_material(), tip_m;
    bar_m.mu_s = bar_m.mu_k = k->mu;
    bar_m.youngs_modulus = BAR_E;
    bar_m.poisson_ratio = BAR_NU;
    bar_m.mode = s->mode;
    bar_m.criterion = k->limit_criterion ? PF_ODE_CRITERION_LIMIT : PF_ODE_CRITERION_CA;
    tip_m = bar_m;
    tip_m.youngs_modulus = TIP_E;
    tip_m.poisson_ratio = TIP_NU;

    k->bar = dBodyCreate(s->world);
    dMass m;
    dMassSetBoxTotal(&m, BAR_M, BAR_L, BAR_W, BAR_W);
    dBodySetMass(k->bar, &m);
    dBodySetPosition(k->bar, 0, 0, 0);
    k->bar_geom = dCreateBox(s->space, BAR_L, BAR_W, BAR_W);
    dGeomSetBody(k->bar_geom, k->bar);
    pfs_add_geom(s, k->bar_geom);
    pfError e2;
    if (pf_ode_set_material(s->pf, k->bar_geom, &bar_m, &e2) != PF_OK)
        return pfs_fail(err, e2.status, "pinch: %s", e2.message);
    for (int i = 0; i < 2; ++i) {
        double side = i == 0 ? 1.0 : -1.0;
        dBodyID b = dBodyCreate(s->world);
        dMassSetSphereTotal(&m, TIP_M, TIP_R);
        dBodySetMass(b, &m);
        dBodySetPosition(b, k->offset, side * (0.5 * BAR_W + TIP_R), 0);
        dGeomID g = dCreateSphere(s->space, TIP_R);
        dGeomSetBody(g, b);
        pfs_add_geom(s, g);
        if (pf_ode_set_material(s->pf, g, &tip_m, &e2) != PF_OK)
            return pfs_fail(err, e2.status, "pinch: %s", e2.message);
        if (k->kinematic) {
            dBodySetKinematic(b);
        } else {
            dJointID j = dJointCreateSlider(s->world, 0);
            dJointAttach(j, b, 0);
            dJointSetSliderAxis(j, 0, 1, 0);
            /* the slider's position grows along +y: the +y finger moves inward at -speed */
            dJointSetSliderParam(j, dParamVel, -side * MOTOR_SPEED);
            dJointSetSliderParam(j, dParamFMax, k->grip);
            dJointSetSliderParam(j, i == 0 ? dParamLoStop : dParamHiStop, -side * TIP_TRAVEL);
            k->slider[i] = j;
        }
        k->tip[i] = b;
        k->tip_geom[i] = g;
    }
    return PF_OK;
}

static void pn_free(pfScene *s)
{
    free(s->impl);
}

/* ------------------------------------------------------------------------------------------ */
/* step                                                                                        */
/* ------------------------------------------------------------------------------------------ */

static double load_factor(const Pinch *k, double t)
{
    if (t < SETTLE) return 0.0;
    if (!k->ramp) return 1.0;
    double f = (t - SETTLE) / RAMP;
    return f < 1.0 ? f : 1.0;
}

/* The bar's end points relative to the midpoint of the fingertip centres: a drift of the whole
 * grasp (the fingers on their sliders with the bar) is not slip. */
static void bar_ends(const Pinch *k, double out[2][3])
{
    const dReal *t0 = dBodyGetPosition(k->tip[0]), *t1 = dBodyGetPosition(k->tip[1]);
    for (int i = 0; i < 2; ++i) {
        dVector3 p;
        dBodyGetRelPointPos(k->bar, (i ? 0.5 : -0.5) * BAR_L, 0, 0, p);
        for (int j = 0; j < 3; ++j)
            out[i][j] = p[j] - 0.5 * (t0[j] + t1[j]);
    }
}

/* Kinematic fingertips: the squeeze x (each fingertip's overlap with the bar face) is a force loop
 * on the measured normal forces. The normal rows are stiff (the adapter's CFM is a millionth of
 * the row's mobility: about 1e10 N/m at 1 ms), so the loop divides the force error by the secant
 * stiffness of its own last move rather than by a fixed gain. */
static void kinematic_grip(Pinch *k, double dt)
{
    double n = 0.5 * (k->normal[0] + k->normal[1]);
    if (k->kin_steps > 0 && k->kin_dx != 0.0) {
        double ks = (n - k->kin_n_prev) / k->kin_dx;
        if (ks > 0.0 && isfinite(ks)) k->kin_k = ks;
    }
    double dx = 0.5 * (k->grip - n) / k->kin_k;
    double lim = KIN_VMAX * dt;
    dx = dx > lim ? lim : (dx < -lim ? -lim : dx);
    if (k->kin_x + dx > TIP_TRAVEL) dx = TIP_TRAVEL - k->kin_x; /* the stop, as the sliders' */
    k->kin_x += dx;
    k->kin_dx = dx;
    k->kin_n_prev = n;
    k->kin_steps++;
    for (int i = 0; i < 2; ++i) {
        double side = i == 0 ? 1.0 : -1.0;
        dBodySetPosition(k->tip[i], k->offset, side * (0.5 * BAR_W + TIP_R - k->kin_x), 0);
        dBodySetLinearVel(k->tip[i], 0, 0, 0);
    }
}

static int pn_step(pfScene *s, double dt, pfError *err)
{
    Pinch *k = s->impl;
    if (s->case_index == C_LIMIT) {
        if (k->trials == 0) {
            int rc = pinch_limit(s, k, dt, err);
            if (rc != PF_OK) return rc;
        }
        s->t += dt;
        s->steps++;
        return PF_OK;
    }
    double f = load_factor(k, s->t);
    if (f > 0.0) dBodyAddForce(k->bar, 0, 0, -f * BAR_M * G);
    if (k->kinematic) kinematic_grip(k, dt);
    int rc = pfs_ode_step(s, dt, err);
    if (rc != PF_OK) return rc;
    s->t += dt;
    s->steps++;
    for (int i = 0; i < 2; ++i) {
        pfOdePatchInfo info;
        if (pf_ode_find_patch(s->pf, k->bar_geom, k->tip_geom[i], &info) == PF_OK) {
            k->normal[i] = info.normal_force_measured;
            if (i == 0) k->radius = info.radius;
        } else {
            k->normal[i] = 0.0;
        }
    }
    double ends[2][3];
    bar_ends(k, ends);
    if (!k->have_ref && s->t >= SETTLE - 0.5 * dt) {
        memcpy(k->end0, ends, sizeof ends);
        k->have_ref = 1;
    } else if (k->have_ref) {
        for (int i = 0; i < 2; ++i) {
            double d =
                sqrt(pow(ends[i][0] - k->end0[i][0], 2) + pow(ends[i][1] - k->end0[i][1], 2) +
                     pow(ends[i][2] - k->end0[i][2], 2));
            if (!(d <= k->slip)) k->slip = d;
        }
    }
    return PF_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* limit case: bisection over hold runs                                                        */
/* ------------------------------------------------------------------------------------------ */

/* One hold run at offset d with the limit scene's keys; *held = 1 if the bar held. */
static int hold_run(pfScene *s, Pinch *k, double d, double dt, int *held, pfError *err)
{
    static const char *const keep_out[] = {"tol", NULL};
    char off[40];
    snprintf(off, sizeof off, "%.17g", d);
    const pfSceneParam add[1] = {{"offset", off}};
    pfScene *h = NULL;
    int rc = pfs_trial(s, "pinch", "hold", keep_out, add, 1, HOLD_END, dt, &h, err);
    if (!h) return rc;
    const Pinch *hk = h->impl;
    *held = rc == PF_OK && hk->slip < k->slip_tol;
    k->lcp_total += h->lcp_messages;
    k->ode_total += h->ode_messages;
    k->trials++;
    pf_scene_destroy(h);
    return rc;
}

/* The bisection, run by the limit scene's first step with that step's dt: from 0 (must hold) and
 * twice offset_limit_ca (or the widest offset) until the bracket is tol of the closed form. */
static int pinch_limit(pfScene *s, Pinch *k, double dt, pfError *err)
{
    double lo = 0.0, hi = 2.0 * k->offset_limit_ca;
    if (hi > OFFSET_MAX || !(hi > 0.0)) hi = OFFSET_MAX;
    int held, rc;
    if ((rc = hold_run(s, k, lo, dt, &held, err)) != PF_OK) return rc;
    if (!held) {
        k->offset_max = 0.0;
        return PF_OK;
    }
    if ((rc = hold_run(s, k, hi, dt, &held, err)) != PF_OK) return rc;
    if (held) {
        k->offset_max = hi;
        k->hi_holds = 1;
        return PF_OK;
    }
    double res = k->tol * (k->offset_limit > 0.0 ? k->offset_limit : k->offset_limit_ca);
    while (hi - lo > res) {
        double mid = 0.5 * (lo + hi);
        if ((rc = hold_run(s, k, mid, dt, &held, err)) != PF_OK) return rc;
        if (held)
            lo = mid;
        else
            hi = mid;
    }
    k->offset_max = lo;
    return PF_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* output                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static const char *const columns[] = {"t",    "bar_x",    "bar_z",    "bar_pitch",
                                      "slip", "normal_1", "normal_2", "load"};

static int pn_header(const char *const **names)
{
    *names = columns;
    return (int)(sizeof columns / sizeof *columns);
}

/* rotation of the bar about y (the grasp axis) [rad] */
static double pitch(const Pinch *k)
{
    const dReal *R = dBodyGetRotation(k->bar);
    return atan2(-R[8], R[0]); /* the bar's x axis in world: (R[0], R[4], R[8]) */
}

static int pn_row(const pfScene *s, double *row, int max)
{
    const Pinch *k = s->impl;
    double r[8] = {s->t, NAN, NAN, NAN, k->slip, k->normal[0], k->normal[1], NAN};
    if (k->bar) {
        const dReal *p = dBodyGetPosition(k->bar);
        r[1] = p[0];
        r[2] = p[2];
        r[3] = pitch(k);
        r[7] = load_factor(k, s->t) * BAR_M * G;
    }
    int n = 8 < max ? 8 : max;
    memcpy(row, r, (size_t)n * sizeof *row);
    return n;
}

static int pn_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    const Pinch *k = s->impl;
    pfOdeCounters c = pf_ode_get_counters(s->pf);
    double lim = k->offset_limit > 0.0 ? k->offset_limit : NAN;
    int hold = s->case_index == C_HOLD;
    pfSceneMetric m[16] = {
        {"offset_limit", k->offset_limit},
        {"offset_limit_ca", k->offset_limit_ca},
        {"hertz_radius_closed_form", k->a_closed},
        {"offset", hold ? k->offset : NAN},
        {"slip", hold ? k->slip : NAN},
        {"held", hold ? (double)(k->have_ref && k->slip < k->slip_tol) : NAN},
        {"hertz_radius", hold ? k->radius : NAN},
        {"normal_1", hold ? k->normal[0] : NAN},
        {"normal_2", hold ? k->normal[1] : NAN},
        {"breakaways", hold ? (double)c.breakaways : NAN},
        {"offset_max", k->offset_max},
        {"offset_max_ratio", k->offset_max / lim},
        {"offset_max_is_widest", hold ? NAN : (double)k->hi_holds},
        {"trials", hold ? NAN : (double)k->trials},
        {"lcp_messages", (double)(hold ? s->lcp_messages : k->lcp_total)},
        {"ode_messages", (double)(hold ? s->ode_messages : k->ode_total)},
    };
    return pfs_metrics_copy(m, 16, out, max);
}

static int pn_state(const pfScene *s, char *buf, int size)
{
    const Pinch *k = s->impl;
    if (s->case_index == C_LIMIT)
        return snprintf(buf, (size_t)size, "largest holding offset %.5g m (closed form %.5g m)",
                        k->offset_max, k->offset_limit);
    return snprintf(buf, (size_t)size,
                    "t=%.3f s  %s  offset=%.4g m  slip=%.2e m  N=%.3g/%.3g N  msgs=%ld", s->t,
                    k->quick ? "QuickStep" : "dWorldStep", k->offset, k->slip, k->normal[0],
                    k->normal[1], s->lcp_messages + s->ode_messages);
}

/* One overlay line between two points of the bar's frame. */
static void bar_line(const Pinch *k, pfSceneOverlay *o, const double a[3], const double b[3],
                     const float rgb[3], int dashed)
{
    dVector3 p, q;
    dBodyGetRelPointPos(k->bar, a[0], a[1], a[2], p);
    dBodyGetRelPointPos(k->bar, b[0], b[1], b[2], q);
    o->kind = PF_SCENE_OVERLAY_LINE;
    for (int j = 0; j < 3; ++j)
        o->p[j] = p[j], o->q[j] = q[j];
    memcpy(o->rgb, rgb, sizeof o->rgb);
    o->dashed = dashed;
}

/* Overlay: the closed-form holding offset d* (P40-P42) as dashed ticks across the bar's top face
 * at +-d* from its mass centre, the holding range between them and a dashed post at +d*; the
 * actual grip point (the fingertips' midpoint on the bar's axis) as a solid marker with a shorter
 * post, so that the two labels stand apart. The grasp holds while the grip lies between the
 * ticks. */
static int pn_overlay(const pfScene *s, pfSceneOverlay *out, int max)
{
    const Pinch *k = s->impl;
    if (!k->bar || max < 7) return 0; /* the limit case has no bodies */
    const float pred[3] = {1.0f, 1.0f, 1.0f}, grip[3] = {1.0f, 0.75f, 0.95f};
    const double top = 0.5 * BAR_W, over = 0.8 * BAR_W, d = k->offset_limit;
    int n = 0;
    if (d > 0.0) {
        for (int i = 0; i < 2; ++i) {
            double x = i ? -d : d, a[3] = {x, -over, top}, b[3] = {x, over, top};
            bar_line(k, &out[n++], a, b, pred, 1);
        }
        double a[3] = {-d, 0, top}, b[3] = {d, 0, top}, c[3] = {d, 0, top + 3.0 * BAR_W};
        bar_line(k, &out[n++], a, b, pred, 1);
        bar_line(k, &out[n], b, c, pred, 1);
        snprintf(out[n++].label, sizeof out[0].label, "d* %.1f mm", 1e3 * d);
    }
    /* the grip point on the bar's axis, in the bar's frame */
    const dReal *t0 = dBodyGetPosition(k->tip[0]), *t1 = dBodyGetPosition(k->tip[1]);
    dVector3 rel, p;
    dBodyGetPosRelPoint(k->bar, 0.5 * (t0[0] + t1[0]), 0.5 * (t0[1] + t1[1]), 0.5 * (t0[2] + t1[2]),
                        rel);
    dBodyGetRelPointPos(k->bar, rel[0], 0, top, p);
    pfSceneOverlay *o = &out[n++];
    o->kind = PF_SCENE_OVERLAY_POINT;
    for (int j = 0; j < 3; ++j)
        o->p[j] = p[j];
    memcpy(o->rgb, grip, sizeof o->rgb);
    double a[3] = {rel[0], 0, top}, b[3] = {rel[0], 0, top + 1.5 * BAR_W};
    bar_line(k, &out[n], a, b, grip, 0);
    snprintf(out[n++].label, sizeof out[0].label, "grip %.1f mm", 1e3 * rel[0]);
    return n;
}

const pfSceneClass pf_scene_class_pinch = {
    {"pinch", "a bar held at an offset between two soft fingertips (soft-finger grasp limit)",
     cases, keys},
    NULL,
    pn_build,
    pn_free,
    pn_step,
    pn_header,
    pn_row,
    pn_metrics,
    pn_state,
    pn_overlay,
};
