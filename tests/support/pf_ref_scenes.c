/* Reference solutions of the literature scenes (see pf_ref_scenes.h). */
#include "pf_ref_scenes.h"
#include "pf_ref_internal.h"
#include "pf_ref_stick.h"

#include <patchfriction/pf_core.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Integration tolerances and event resolution. */
#define REF_ABS_TOL 1e-12
#define REF_REL_TOL 1e-11
#define REF_EVENT_TOL 1e-13  /* bracket width of a located event [s] */
#define REF_STICK_PROBE 2e-4 /* stick phases: loads probed at least this often [s] */
/* A slip that starts from rest keeps the incipient twist direction (docs/physics.md §2, item 4)
 * until the speed exceeds this [m/s]: below it the friction direction is ill-conditioned and an
 * adaptive integrator crawls. The position error this allows is below 1e-12 m. */
#define REF_V_FREEZE 1e-8
/* A slip whose speed falls below this [m/s] without a clean reversal (loads hovering at the
 * static capacity: the twist circles near zero) is a stop. Hysteresis with REF_V_FREEZE. */
#define REF_V_ZERO 1e-9

/* Definitions shared with the scenes (scenes/pf_scene_*.c), restated here. */
#define CP_Z_TOL 1e-4
#define CP_MIN_STICK 0.02

/* ------------------------------------------------------------------------------------------ */
/* result helpers                                                                              */
/* ------------------------------------------------------------------------------------------ */

void pf_ref_result_free(pfRefResult *r)
{
    free(r->rows);
    memset(r, 0, sizeof *r);
}

double pf_ref_metric(const pfRefResult *r, const char *name)
{
    for (int i = 0; i < r->nmetric; ++i)
        if (!strcmp(r->metric_name[i], name)) return r->metric[i];
    return NAN;
}

int pf_ref_column(const pfRefResult *r, const char *name)
{
    for (int i = 0; i < r->ncol; ++i)
        if (!strcmp(r->cols[i], name)) return i;
    return -1;
}

int pf_ref_res_init(pfRefResult *r, const char *const *cols, int ncol, double t_end, double out_dt)
{
    memset(r, 0, sizeof *r);
    r->cols = cols;
    r->ncol = ncol;
    long cap = (long)ceil(t_end / out_dt - 1e-9) + 2;
    r->rows = calloc((size_t)(cap * ncol), sizeof *r->rows);
    r->min_dt_evt = REF_EVENT_TOL;
    return r->rows ? 0 : -1;
}

double *pf_ref_res_row(pfRefResult *r)
{
    return r->rows + r->n++ * r->ncol;
}

void pf_ref_res_metric(pfRefResult *r, const char *name, double v)
{
    if (r->nmetric < PF_REF_MAX_METRICS) {
        r->metric_name[r->nmetric] = name;
        r->metric[r->nmetric++] = v;
    }
}

int pf_ref_parse_num(const char *key, const char *value, double *out, double lo, double hi,
                     char *msg, int n)
{
    char *end = NULL;
    double v = strtod(value, &end);
    if (end == value || *end || !isfinite(v) || v < lo || v > hi) {
        snprintf(msg, (size_t)n, "--set %s=%s: expected a number in [%g, %g]", key, value, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int pf_ref_set_key(const pfRefKey *t, int nt, const char *key, const char *value, const char *what,
                   char *msg, int n)
{
    for (int i = 0; i < nt; ++i)
        if (!strcmp(key, t[i].key))
            return pf_ref_parse_num(key, value, t[i].dst, t[i].lo, t[i].hi, msg, n);
    snprintf(msg, (size_t)n, "unknown --set key '%s' for %s", key, what);
    return -1;
}

/* Last sample index: the scene takes ceil(t_end / dt) steps (pf_demo.c), so do we. */
long pf_ref_n_samples(double t_end, double out_dt)
{
    return (long)ceil(t_end / out_dt - 1e-9);
}

void pf_ref_sliding_metrics(pfRefResult *out, double out_dt, double rho_g, int resting,
                            double t_from, double *stop_tr, double *stop_rot)
{
    int nc = out->ncol, stops = 0;
    double maxd = 0, maxv = 0, stick_time = 0, rest_start = 0;
    *stop_tr = *stop_rot = NAN;
    for (long i = 1; i < out->n; ++i) {
        const double *r = out->rows + i * nc, *q = r - nc;
        double tt = r[0], sp = r[7], spin = fabs(r[6]) * rho_g;
        maxd = fmax(maxd, hypot(r[1], r[2]));
        maxv = fmax(maxv, sp);
        int rest = r[12] > 0.5;
        if (rest && !resting) rest_start = tt;
        if (!rest && resting && tt - out_dt - rest_start >= SL_MIN_STOP && rest_start > 0.0)
            stops++;
        if (rest) stick_time += out_dt;
        resting = rest;
        if (tt - out_dt <= t_from) continue; /* stop times: both samples after t_from */
        double psp = q[7], pspin = fabs(q[6]) * rho_g;
        if (isnan(*stop_tr) && sp < SL_V_STOP)
            *stop_tr = psp > SL_V_STOP ? tt - out_dt * (SL_V_STOP - sp) / (psp - sp) : tt;
        if (isnan(*stop_rot) && spin < SL_V_STOP)
            *stop_rot = pspin > SL_V_STOP ? tt - out_dt * (SL_V_STOP - spin) / (pspin - spin) : tt;
    }
    if (resting && rest_start > 0.0 && out->rows[(out->n - 1) * nc] - rest_start >= SL_MIN_STOP)
        stops++;
    const double *last = out->rows + (out->n - 1) * nc;
    pf_ref_res_metric(out, "final_x", last[1]);
    pf_ref_res_metric(out, "final_y", last[2]);
    pf_ref_res_metric(out, "final_theta", last[3]);
    pf_ref_res_metric(out, "max_displacement", maxd);
    pf_ref_res_metric(out, "max_speed", maxv);
    pf_ref_res_metric(out, "stick_time", stick_time);
    pf_ref_res_metric(out, "stops", stops);
}

/* Sample times k * out_dt without drift. */
static double sample_time(long k, double out_dt)
{
    return (double)k * out_dt;
}

/* ------------------------------------------------------------------------------------------ */
/* sliding-blocks                                                                              */
/* ------------------------------------------------------------------------------------------ */

static const char *const sl_cases[] = {"no-slip-circle", "zero-stop-circle", "multi-stop",
                                       "general-motion", "eccentric-push",   "free-slide"};
static const char *const sl_cols[] = {"t",    "x",  "y",  "theta", "vx",    "vy", "w",     "speed",
                                      "spin", "Fx", "Fy", "M",     "stick", "z",  "energy"};
#define SL_NCOL 15

int pf_ref_sliding_default(const char *case_name, pfRefSliding *p)
{
    memset(p, 0, sizeof *p);
    int c = -1;
    for (int i = 0; i < 6; ++i)
        if (case_name && !strcmp(case_name, sl_cases[i])) c = i;
    if (!case_name) c = 0;
    if (c < 0) return -1;
    p->c = (pfRefSlidingCase)c;
    p->L = 0.03;
    p->W = 0.01;
    p->R = 0.02;
    p->mass = 0.0234; /* J = m (L^2 + W^2) / 12 = 1.95e-6 kg m^2 as published */
    p->mu_s = p->mu_k = 0.4;
    p->g = 9.81;
    if (c == PF_REF_SL_ECCENTRIC) {
        p->mass = 2700.0 * 0.03 * 0.01 * 0.01;
        p->mu_s = 0.55;
        p->mu_k = 0.52;
        p->h = 0.005;
        p->ramp = 0.05;
    }
    if (c == PF_REF_SL_FREESLIDE) {
        p->v0 = 0.5;
        p->w0 = 20.0;
    }
    return 0;
}

int pf_ref_sliding_set(pfRefSliding *p, const char *key, const char *value, char *msg, int n)
{
    if (!strcmp(key, "yaw")) return 0; /* the reference works in the set-up frame */
    if (!strcmp(key, "criterion")) {
        pfRefStickCriterion c;
        if (pf_ref_stick_criterion_parse(value, &c)) {
            snprintf(msg, (size_t)n, "--set criterion=%s: expected ca or limit", value);
            return -1;
        }
        p->limit = c == PF_REF_STICK_LIMIT;
        return 0;
    }
    if (!strcmp(key, "shape")) {
        if (!strcmp(value, "box") || !strcmp(value, "disk")) {
            p->disk = !strcmp(value, "disk");
            return 0;
        }
        snprintf(msg, (size_t)n, "--set shape=%s: expected box or disk", value);
        return -1;
    }
    struct {
        const char *k;
        double *d, lo, hi;
    } t[] = {{"mass", &p->mass, 1e-9, 1e9}, {"mu_s", &p->mu_s, 0, 1e3},
             {"mu_k", &p->mu_k, 0, 1e3},    {"h", &p->h, -10, 10},
             {"ramp", &p->ramp, 1e-9, 1e9}, {"length", &p->L, 1e-4, 10},
             {"width", &p->W, 1e-4, 10},    {"radius", &p->R, 1e-4, 10},
             {"v0", &p->v0, -100, 100},     {"w0", &p->w0, -1e3, 1e3}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; ++i)
        if (!strcmp(key, t[i].k)) {
            if (pf_ref_parse_num(key, value, t[i].d, t[i].lo, t[i].hi, msg, n)) return -1;
            if (p->c == PF_REF_SL_FREESLIDE && !strcmp(key, "mu_k")) p->mu_s = p->mu_k;
            return 0;
        }
    snprintf(msg, (size_t)n, "unknown --set key '%s' for sliding-blocks", key);
    return -1;
}

double pf_ref_sliding_duration(const pfRefSliding *p)
{
    switch (p->c) {
    case PF_REF_SL_NOSLIP:
    case PF_REF_SL_ZEROSTOP:
        return 2.5;
    case PF_REF_SL_MULTISTOP:
    case PF_REF_SL_GENERAL:
        return 2 * M_PI;
    case PF_REF_SL_ECCENTRIC:
        return 1.5 * p->mu_s * p->mass * p->g / p->ramp;
    default:
        return 0.5;
    }
}

typedef struct Sl {
    const pfRefSliding *p;
    double J, N, rho_g;
    pfRefStickPatch patch; /* for the independent stick test */
    pfRefStickBody body;
    pfTwist incipient; /* body frame; friction direction while starting */
    int starting;      /* slip started from rest and the speed is still below REF_V_FREEZE */
    int failed;        /* a stick test failed: the run reports an error */
    /* The last full stick test, by the direction of its loads: loads s L (s > 0) have the factor
     * h(L) / s (docs/physics.md §2: the verdict scales with the loads), so a stick phase under
     * loads of one direction (the eccentric push's ramp) needs one test. */
    int cached;
    double key[3], key_factor; /* loads (fx, fy, m / rho_g) / their largest component, h there */
    double key_twist[3];
} Sl;

/* Loads of the case at t in the set-up frame (force through the mass centre, moment). */
static void sl_loads(const Sl *s, double t, const double *y, double *fx, double *fy, double *m)
{
    *fx = *fy = *m = 0.0;
    switch (s->p->c) {
    case PF_REF_SL_NOSLIP:
        *fx = 0.08 * cos(5 * t);
        *fy = 0.08 * cos(5 * t + M_PI / 2);
        break;
    case PF_REF_SL_ZEROSTOP:
        *fx = 0.1 * cos(5 * t);
        *fy = 0.1 * cos(5 * t + M_PI / 2);
        break;
    case PF_REF_SL_MULTISTOP:
        *fx = 0.08 * cos(5 * t);
        *fy = 0.073 * sin(3 * t);
        break;
    case PF_REF_SL_GENERAL:
        *m = 0.0007 * cos(4 * t + M_PI / 4);
        *fx = 0.07 * cos(5 * t);
        *fy = 0.06 * sin(3 * t);
        break;
    case PF_REF_SL_ECCENTRIC: {
        /* body-fixed force (0, F) at (h, -W/2): world (-F sin th, F cos th), moment h F */
        double F = s->p->ramp * t;
        *fx = -F * sin(y[2]);
        *fy = F * cos(y[2]);
        *m = s->p->h * F;
        break;
    }
    default:
        break;
    }
}

static int sl_rhs(double t, const double y[], double f[], void *par)
{
    const Sl *s = par;
    double fx, fy, m;
    sl_loads(s, t, y, &fx, &fy, &m);
    double c = cos(y[2]), sn = sin(y[2]);
    pfTwist tw = {c * y[3] + sn * y[4], -sn * y[3] + c * y[4], y[5]};
    if (s->starting || (tw.vx == 0.0 && tw.vy == 0.0 && tw.w == 0.0)) tw = s->incipient;
    pfWrench wr = s->p->disk ? pf_disk_friction(s->p->R, s->p->mu_k, s->N, tw)
                             : pf_rect_friction(s->p->L, s->p->W, s->p->mu_k, s->N, tw);
    f[0] = y[3];
    f[1] = y[4];
    f[2] = y[5];
    f[3] = (fx + c * wr.fx - sn * wr.fy) / s->p->mass;
    f[4] = (fy + sn * wr.fx + c * wr.fy) / s->p->mass;
    f[5] = (m + wr.mz) / s->J;
    return GSL_SUCCESS;
}

/* Stick test of the body at rest at time t under the case's loads (body frame), by the criterion
 * of the case: the verdict, and with incipient != NULL the unit incipient twist too. A failed test
 * marks the run failed (and counts as a slip). */
static int sl_sticks(Sl *s, double t, const double *y, pfTwist *incipient)
{
    double fx, fy, m;
    sl_loads(s, t, y, &fx, &fy, &m);
    double c = cos(y[2]), sn = sin(y[2]);
    double bx = c * fx + sn * fy, by = -sn * fx + c * fy;
    pfRefStickCriterion crit = s->p->limit ? PF_REF_STICK_LIMIT : PF_REF_STICK_CA;
    if (!incipient) { /* the verdict alone: by the bounds where they settle it */
        int v = pf_ref_stick_bounds(&s->patch, &s->body, bx, by, m, crit);
        if (v == -2) s->failed = 1;
        if (v != -1) return v == 1;
    }
    pfTwist tw;
    if (!incipient) incipient = &tw;
    double scale = fmax(fmax(fabs(bx), fabs(by)), fabs(m) / s->rho_g);
    double key[3] = {bx / scale, by / scale, m / s->rho_g / scale};
    int hit = s->cached && scale > 0.0;
    for (int i = 0; i < 3 && hit; ++i)
        hit = fabs(key[i] - s->key[i]) <= 1e-13;
    if (!hit) {
        pfRefStickResult r;
        if (pf_ref_stick(&s->patch, &s->body, bx, by, m, crit, &r)) {
            s->failed = 1;
            return 0;
        }
        if (!(scale > 0.0)) { /* no load */
            *incipient = (pfTwist){0.0, 0.0, 0.0};
            return 1;
        }
        s->cached = 1;
        memcpy(s->key, key, sizeof key);
        memcpy(s->key_twist, r.twist, sizeof r.twist);
        s->key_factor = r.factor * scale;
    }
    *incipient = (pfTwist){s->key_twist[0], s->key_twist[1], s->key_twist[2]};
    return s->key_factor / scale >= 1.0;
}

static double sl_dot(const Sl *s, const double *a, const double *b)
{
    return a[3] * b[3] + a[4] * b[4] + s->rho_g * s->rho_g * a[5] * b[5];
}

static void sl_record(const Sl *s, pfRefResult *r, double t, const double *y)
{
    double fx, fy, m;
    sl_loads(s, t, y, &fx, &fy, &m);
    double sp = hypot(y[3], y[4]), spin = fabs(y[5]) * s->rho_g;
    double *row = pf_ref_res_row(r);
    double v[SL_NCOL] = {t,
                         y[0],
                         y[1],
                         y[2],
                         y[3],
                         y[4],
                         y[5],
                         sp,
                         y[5],
                         fx,
                         fy,
                         m,
                         (sp < SL_V_REST && spin < SL_V_REST) ? 1.0 : 0.0,
                         0.0, /* z: the gap under the block, always in contact here */
                         0.5 * s->p->mass * (y[3] * y[3] + y[4] * y[4]) + 0.5 * s->J * y[5] * y[5]};
    memcpy(row, v, sizeof v);
}

int pf_ref_sliding_run(const pfRefSliding *p, double t_end, double out_dt, pfRefResult *out)
{
    Sl s;
    memset(&s, 0, sizeof s);
    s.p = p;
    s.N = p->mass * p->g;
    if (p->disk) {
        s.J = 0.5 * p->mass * p->R * p->R;
        s.rho_g = p->R / sqrt(2.0);
    } else {
        s.J = p->mass * (p->L * p->L + p->W * p->W) / 12.0;
        s.rho_g = sqrt((p->L * p->L + p->W * p->W) / 12.0);
    }
    s.patch = (pfRefStickPatch){p->disk, p->L, p->W, p->R, p->mu_s, s.N};
    s.body = (pfRefStickBody){p->mass, s.J, 0.0, 0.0};
    if (pf_ref_res_init(out, sl_cols, SL_NCOL, t_end, out_dt)) return -1;
    gsl_odeiv2_system sys = {sl_rhs, NULL, 6, &s};
    gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 6);
    gsl_odeiv2_step *st2 = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 6);
    gsl_odeiv2_control *ctl = gsl_odeiv2_control_y_new(REF_ABS_TOL, REF_REL_TOL);
    gsl_odeiv2_evolve *ev = gsl_odeiv2_evolve_alloc(6);

    double y[6] = {0, 0, 0, 0, 0, 0}, yp[6], yt[6], yerr[6];
    double t = 0.0, h = 1e-5, breakaway_t = NAN;
    if (p->c == PF_REF_SL_FREESLIDE) {
        y[3] = p->v0;
        y[5] = p->w0;
    }
    pfTwist inc;
    int stick = 0;
    if (y[3] == 0.0 && y[5] == 0.0) {
        stick = sl_sticks(&s, 0.0, y, &inc);
        if (!stick) {
            s.incipient = inc;
            s.starting = 1;
        }
    }
    sl_record(&s, out, 0.0, y);
    long k = 1;
    int status = 0;
    while (k <= pf_ref_n_samples(t_end, out_dt) && status == 0) {
        double target = sample_time(k, out_dt);
        if (stick) {
            double tn = fmin(t + REF_STICK_PROBE, target);
            if (sl_sticks(&s, tn, y, NULL)) {
                t = tn;
            } else { /* bisect the breakaway instant */
                double lo = t, hi = tn;
                while (hi - lo > REF_EVENT_TOL)
                    if (sl_sticks(&s, 0.5 * (lo + hi), y, NULL))
                        lo = 0.5 * (lo + hi);
                    else
                        hi = 0.5 * (lo + hi);
                t = hi;
                sl_sticks(&s, t, y, &inc);
                s.incipient = inc;
                s.starting = 1;
                stick = 0;
                out->switches++;
                if (isnan(breakaway_t)) breakaway_t = t;
                gsl_odeiv2_evolve_reset(ev);
                h = 1e-6;
            }
        } else {
            double tp = t;
            memcpy(yp, y, sizeof y);
            if (gsl_odeiv2_evolve_apply(ev, ctl, st, &sys, &t, target, &h, y) != GSL_SUCCESS) {
                status = -1;
                break;
            }
            double n0 = sl_dot(&s, yp, yp);
            if (s.starting && sl_dot(&s, y, y) > REF_V_FREEZE * REF_V_FREEZE) {
                s.starting = 0;
                gsl_odeiv2_evolve_reset(ev);
            } else if (!s.starting && sl_dot(&s, y, y) < REF_V_ZERO * REF_V_ZERO) {
                y[3] = y[4] = y[5] = 0.0;
                out->switches++;
                stick = sl_sticks(&s, t, y, &inc);
                s.starting = !stick;
                if (!stick) s.incipient = inc;
                gsl_odeiv2_evolve_reset(ev);
                h = 1e-6;
            } else if (n0 > 0.0 && sl_dot(&s, y, yp) <= 0.0) {
                /* the twist reversed within the step: locate where it vanished */
                double lo = 0.0, hi = t - tp;
                while (hi - lo > REF_EVENT_TOL) {
                    double hm = 0.5 * (lo + hi);
                    memcpy(yt, yp, sizeof y);
                    gsl_odeiv2_step_reset(st2);
                    gsl_odeiv2_step_apply(st2, tp, hm, yt, yerr, NULL, NULL, &sys);
                    if (sl_dot(&s, yt, yp) > 0.0)
                        lo = hm;
                    else
                        hi = hm;
                }
                memcpy(yt, yp, sizeof y);
                gsl_odeiv2_step_reset(st2);
                gsl_odeiv2_step_apply(st2, tp, hi, yt, yerr, NULL, NULL, &sys);
                if (sl_dot(&s, yt, yt) < 1e-12 * n0 + 1e-20) { /* a stop, not a turn */
                    memcpy(y, yt, sizeof y);
                    y[3] = y[4] = y[5] = 0.0;
                    t = tp + hi;
                    out->switches++;
                    stick = sl_sticks(&s, t, y, &inc);
                    s.starting = 0;
                    if (!stick) {
                        s.incipient = inc;
                        s.starting = 1;
                    }
                    gsl_odeiv2_evolve_reset(ev);
                    h = 1e-6;
                }
            }
        }
        if (t >= target - 1e-13) {
            sl_record(&s, out, target, y);
            k++;
        }
    }
    gsl_odeiv2_evolve_free(ev);
    gsl_odeiv2_control_free(ctl);
    gsl_odeiv2_step_free(st);
    gsl_odeiv2_step_free(st2);
    if (status || s.failed) return -1;

    double stop_tr, stop_rot;
    int resting = !(p->c == PF_REF_SL_FREESLIDE &&
                    (fabs(p->v0) >= SL_V_REST || fabs(p->w0) * s.rho_g >= SL_V_REST));
    pf_ref_sliding_metrics(out, out_dt, s.rho_g, resting, -INFINITY, &stop_tr, &stop_rot);
    if (p->c == PF_REF_SL_ECCENTRIC) {
        pf_ref_res_metric(out, "breakaway_force", p->ramp * breakaway_t);
        pf_ref_res_metric(out, "breakaway_time", breakaway_t);
    }
    if (p->c == PF_REF_SL_FREESLIDE) {
        pf_ref_res_metric(out, "stop_time_translation", stop_tr);
        pf_ref_res_metric(out, "stop_time_rotation", stop_rot);
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* coupled-masses (P21)                                                                        */
/* ------------------------------------------------------------------------------------------ */

static const char *const cp_cols[] = {"t",     "x1",       "v1",     "x2",   "v2",
                                      "z_dot", "friction", "energy", "stick"};
#define CP_NCOL 9

int pf_ref_coupled_default(const char *case_name, pfRefCoupled *p)
{
    memset(p, 0, sizeof *p);
    p->m1 = p->m2 = 1.0;
    p->a1 = 0.0;
    p->a2 = 200.0;
    p->g = 9.81;
    if (!case_name || !strcmp(case_name, "stick")) {
        p->b = 0.5;
        p->x1 = 0.006;
    } else if (!strcmp(case_name, "slip")) {
        p->b = 0.05;
        p->v1 = 0.15;
    } else {
        return -1;
    }
    return 0;
}

int pf_ref_coupled_set(pfRefCoupled *p, const char *key, const char *value, char *msg, int n)
{
    if (!strcmp(key, "law")) {
        if (!strcmp(value, "coulomb")) return 0;
        snprintf(msg, (size_t)n, "--set law=%s: the reference integrates P21 (Coulomb) only",
                 value);
        return -1;
    }
    const pfRefKey t[] = {{"b", &p->b, 0, 1e6},      {"m1", &p->m1, 1e-9, 1e9},
                          {"m2", &p->m2, 1e-9, 1e9}, {"a1", &p->a1, 0, 1e9},
                          {"a2", &p->a2, 0, 1e9},    {"x1", &p->x1, -1e3, 1e3},
                          {"v1", &p->v1, -1e3, 1e3}};
    return pf_ref_set_key(t, (int)(sizeof t / sizeof t[0]), key, value, "coupled-masses", msg, n);
}

double pf_ref_coupled_duration(const pfRefCoupled *p)
{
    (void)p;
    return 5.0;
}

typedef struct Cp {
    const pfRefCoupled *p;
    int stick; /* 1: stuck together */
    double s;  /* slip: sgn(z_dot) */
} Cp;

/* Friction bound b(t) = mu m2 (g + z''(t)) with mu = b / (m2 g): the normal force between the
 * masses is m2 (g + z'') since body 2 follows the base's vertical motion z = az sin(wz t).
 * az = 0: the fixed bound b. */
static double cp_b(const pfRefCoupled *p, double t)
{
    if (p->az == 0.0) return p->b;
    return p->b * (1.0 - p->az * p->wz * p->wz * sin(p->wz * t) / p->g);
}

/* Acceleration of the stuck pair and the friction force body 2 needs for it. */
static double cp_stick_acc(const pfRefCoupled *p, const double *y)
{
    return (-p->a1 * y[1] - p->a2 * y[0]) / (p->m1 + p->m2);
}

static int cp_rhs(double t, const double y[], double f[], void *par)
{
    const Cp *c = par;
    const pfRefCoupled *p = c->p;
    f[0] = y[1];
    f[2] = y[3];
    if (c->stick) {
        f[1] = f[3] = cp_stick_acc(p, y);
    } else {
        double b = cp_b(p, t);
        f[1] = (-p->a1 * y[1] - p->a2 * y[0] - b * c->s) / p->m1;
        f[3] = b * c->s / p->m2;
    }
    return GSL_SUCCESS;
}

static double cp_energy(const pfRefCoupled *p, const double *y)
{
    return 0.5 * p->a2 * y[0] * y[0] + 0.5 * p->m1 * y[1] * y[1] + 0.5 * p->m2 * y[3] * y[3];
}

/* Event function of the current phase: slip -> s z_dot (falls to 0), stick -> b - |m2 a|. */
static double cp_event(const Cp *c, double t, const double *y)
{
    if (c->stick) return cp_b(c->p, t) - fabs(c->p->m2 * cp_stick_acc(c->p, y));
    return c->s * (y[1] - y[3]);
}

/* At z_dot = 0: stick if static friction can carry body 2, else slip in the direction the
 * relative acceleration takes (body 2 lags when m2 a > b). */
static void cp_switch(Cp *c, double t, double *y)
{
    double a = cp_stick_acc(c->p, y);
    y[3] = y[1];
    if (fabs(c->p->m2 * a) <= cp_b(c->p, t)) {
        c->stick = 1;
    } else {
        c->stick = 0;
        c->s = a > 0 ? 1.0 : -1.0;
    }
}

static void cp_record(const Cp *c, pfRefResult *r, double t, const double *y)
{
    const pfRefCoupled *p = c->p;
    double fr = c->stick ? p->m2 * cp_stick_acc(p, y) : cp_b(p, t) * c->s;
    double v[CP_NCOL] = {
        t, y[0], y[1], y[2], y[3], y[1] - y[3], fr, cp_energy(p, y), (double)c->stick};
    memcpy(pf_ref_res_row(r), v, sizeof v);
}

int pf_ref_coupled_run(const pfRefCoupled *p, double t_end, double out_dt, pfRefResult *out)
{
    if (p->az != 0.0 && !(p->az * p->wz * p->wz < p->g)) return -1; /* body 2 would lift off */
    if (pf_ref_res_init(out, cp_cols, CP_NCOL, t_end, out_dt)) return -1;
    Cp c = {p, 0, 1.0};
    double y[4] = {p->x1, p->v1, 0.0, 0.0}, yp[4], yt[4], yerr[4];
    if (y[1] == y[3])
        cp_switch(&c, 0.0, y);
    else
        c.s = y[1] > y[3] ? 1.0 : -1.0;
    gsl_odeiv2_system sys = {cp_rhs, NULL, 4, &c};
    gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 4);
    gsl_odeiv2_step *st2 = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 4);
    gsl_odeiv2_control *ctl = gsl_odeiv2_control_y_new(REF_ABS_TOL, REF_REL_TOL);
    gsl_odeiv2_evolve *ev = gsl_odeiv2_evolve_alloc(4);
    double t = 0.0, h = 1e-5;
    cp_record(&c, out, 0.0, y);
    long k = 1;
    int status = 0;
    while (k <= pf_ref_n_samples(t_end, out_dt)) {
        double target = sample_time(k, out_dt), tp = t;
        memcpy(yp, y, sizeof y);
        double g0 = cp_event(&c, tp, yp);
        if (gsl_odeiv2_evolve_apply(ev, ctl, st, &sys, &t, target, &h, y) != GSL_SUCCESS) {
            status = -1;
            break;
        }
        if (g0 > 0.0 && cp_event(&c, t, y) <= 0.0) {
            double lo = 0.0, hi = t - tp;
            while (hi - lo > REF_EVENT_TOL) {
                double hm = 0.5 * (lo + hi);
                memcpy(yt, yp, sizeof y);
                gsl_odeiv2_step_reset(st2);
                gsl_odeiv2_step_apply(st2, tp, hm, yt, yerr, NULL, NULL, &sys);
                if (cp_event(&c, tp + hm, yt) > 0.0)
                    lo = hm;
                else
                    hi = hm;
            }
            memcpy(y, yp, sizeof y);
            gsl_odeiv2_step_reset(st2);
            gsl_odeiv2_step_apply(st2, tp, hi, y, yerr, NULL, NULL, &sys);
            t = tp + hi;
            if (c.stick) { /* breakaway: slip in the direction body 2 lags */
                double a = cp_stick_acc(p, y);
                c.stick = 0;
                c.s = a > 0 ? 1.0 : -1.0;
            } else {
                cp_switch(&c, t, y);
            }
            out->switches++;
            gsl_odeiv2_evolve_reset(ev);
            h = 1e-6;
        }
        if (t >= target - 1e-13) {
            cp_record(&c, out, target, y);
            k++;
        }
    }
    gsl_odeiv2_evolve_free(ev);
    gsl_odeiv2_control_free(ctl);
    gsl_odeiv2_step_free(st);
    gsl_odeiv2_step_free(st2);
    if (status) return status;
    /* metrics with the scene's definitions */
    double first = NAN, run_start = NAN, emin = HUGE_VAL, rise = 0.0, stick_time = 0.0;
    for (long i = 0; i < out->n; ++i) {
        const double *r = out->rows + i * CP_NCOL;
        int st_ = fabs(r[5]) < CP_Z_TOL;
        if (st_ && isnan(run_start)) run_start = r[0];
        if (!st_) run_start = NAN;
        if (isnan(first) && !isnan(run_start) && r[0] - run_start >= CP_MIN_STICK)
            first = run_start;
        if (i > 0 && st_) stick_time += out_dt;
        emin = fmin(emin, r[7]);
        rise = fmax(rise, r[7] - emin);
    }
    pf_ref_res_metric(out, "first_stick_time", first);
    pf_ref_res_metric(out, "max_energy_increase", rise);
    pf_ref_res_metric(out, "final_energy", out->rows[(out->n - 1) * CP_NCOL + 7]);
    pf_ref_res_metric(out, "stick_time", stick_time);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* shaking-table (P19, P20)                                                                    */
/* ------------------------------------------------------------------------------------------ */

static const char *const tb_cols[] = {"t", "x", "y", "vx", "vy", "wx", "wy", "wz", "energy"};
#define TB_NCOL 9

int pf_ref_table_default(const char *case_name, pfRefTable *p)
{
    memset(p, 0, sizeof *p);
    p->tilt = 20.0 * M_PI / 180.0;
    p->mu = 0.2;
    p->d = 1.0;
    p->a = 0.003;
    p->r = 0.02;
    p->eps_t = p->eps_r = 0.01;
    p->g = 9.81;
    p->density = 7800.0; /* the scene's steel ball, for the energy column */
    p->v0[1] = 0.4;
    if (!case_name || !strcmp(case_name, "excitation-1") || !strcmp(case_name, "spinning")) {
        p->ax = 1.0;
        p->ay = 0.5;
        p->wa = 1000.0;
        p->wb = 500.0;
        p->phi = 0.0;
        if (case_name && !strcmp(case_name, "spinning")) p->w0[2] = 100.0;
    } else if (!strcmp(case_name, "excitation-2")) {
        p->ax = 1.0;
        p->ay = 3.0;
        p->wa = 1200.0;
        p->wb = 1000.0;
        p->phi = 1.0;
    } else {
        return -1;
    }
    return 0;
}

int pf_ref_table_set(pfRefTable *p, const char *key, const char *value, char *msg, int n)
{
    if (!strcmp(key, "model")) {
        if (!strcmp(value, "exact") || !strcmp(value, "pade")) {
            p->pade = !strcmp(value, "pade");
            return 0;
        }
        snprintf(msg, (size_t)n, "--set model=%s: expected exact or pade", value);
        return -1;
    }
    if (!strcmp(key, "tilt")) { /* degrees, as in the scene */
        double deg;
        if (pf_ref_parse_num(key, value, &deg, -89, 89, msg, n)) return -1;
        p->tilt = deg * M_PI / 180.0;
        return 0;
    }
    const pfRefKey t[] = {{"A_x", &p->ax, -1e3, 1e3},
                          {"A_y", &p->ay, -1e3, 1e3},
                          {"omega_a", &p->wa, 0, 1e6},
                          {"omega_b", &p->wb, 0, 1e6},
                          {"phi_y", &p->phi, -1e3, 1e3},
                          {"mu", &p->mu, 0, 1e3},
                          {"d", &p->d, 0, 1},
                          {"a", &p->a, 1e-6, 1},
                          {"r", &p->r, 1e-4, 10},
                          {"eps_t", &p->eps_t, 0, 1e6},
                          {"eps_r", &p->eps_r, 0, 1e6},
                          {"vx0", &p->v0[0], -1e3, 1e3},
                          {"vy0", &p->v0[1], -1e3, 1e3},
                          {"wx0", &p->w0[0], -1e5, 1e5},
                          {"wy0", &p->w0[1], -1e5, 1e5},
                          {"wz0", &p->w0[2], -1e5, 1e5}};
    return pf_ref_set_key(t, (int)(sizeof t / sizeof t[0]), key, value, "shaking-table", msg, n);
}

double pf_ref_table_duration(const pfRefTable *p)
{
    (void)p;
    return 1.0;
}

/* Normal acceleration of the table (and of the ball on it), g_n(t) = N(t)/m:
 *   the table's normal coordinate is z(t) = az sin(wz t), so z'' = -az wz^2 sin(wz t); the ball
 *   keeps contact, so its normal acceleration is z'' too, and the normal balance
 *   m z'' = N - m g cos(alpha) gives N/m = g cos(alpha) + z''(t). az = 0: g cos(alpha). */
static double tb_gn(const pfRefTable *p, double t)
{
    return p->g * cos(p->tilt) - p->az * p->wz * p->wz * sin(p->wz * t);
}

/* y = (X, Y, vx, vy, wx, wy, wz). P19/P20 with the core's dimensional wrench:
 * F = -mu N T, M_spin = -a mu N M_s, M_roll = a N M_r, N = m g_n(t), B = 2/5 m r^2; the Hertz
 * radius follows the load, a(t) = a (g_n / g_n0)^(1/3) with g_n0 = g cos(alpha). */
static int tb_rhs(double t, const double y[], double f[], void *par)
{
    const pfRefTable *p = par;
    double ex = p->ax * cos(p->wa * t), ey = p->ay * cos(p->wb * t + p->phi);
    double gn = tb_gn(p, t), gn0 = p->g * cos(p->tilt); /* N / m */
    double a = p->a * cbrt(gn / gn0);
    pfTwist tw = {y[2] - p->r * y[5] + ex, y[3] + p->r * y[4] + ey, y[6]};
    pfTwist roll = {y[2] + ex, y[3] + ey, 0.0};
    /* per unit mass: N = gn */
    pfWrench w = p->pade ? pf_hertz_disk_pade(a, p->mu, gn, p->d, tw, roll, p->eps_t, p->eps_r)
                         : pf_hertz_disk_friction(a, p->mu, gn, p->d, tw, roll, p->eps_t, p->eps_r);
    pfVec2 mr = pf_hertz_rolling_moment(a, gn, p->d, roll, p->eps_r);
    double B = 0.4 * p->r * p->r; /* per unit mass */
    f[0] = y[2];
    f[1] = y[3];
    f[2] = w.fx + p->g * sin(p->tilt);
    f[3] = w.fy;
    /* torque of the contact force at (0, 0, -r): (r fy, -r fx, 0) */
    f[4] = (p->r * w.fy + mr.x) / B;
    f[5] = (-p->r * w.fx + mr.y) / B;
    f[6] = w.mz / B;
    return GSL_SUCCESS;
}

int pf_ref_table_run(const pfRefTable *p, double t_end, double out_dt, pfRefResult *out)
{
    if (!(p->az * p->wz * p->wz < p->g * cos(p->tilt))) return -1; /* lift-off */
    if (pf_ref_res_init(out, tb_cols, TB_NCOL, t_end, out_dt)) return -1;
    gsl_odeiv2_system sys = {tb_rhs, NULL, 7, (void *)p};
    gsl_odeiv2_driver *d =
        gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6, 1e-11, 1e-10);
    double y[7] = {0, 0, p->v0[0], p->v0[1], p->w0[0], p->w0[1], p->w0[2]};
    double t = 0.0;
    int status = 0;
    for (long k = 0; k <= pf_ref_n_samples(t_end, out_dt); ++k) {
        double target = sample_time(k, out_dt);
        if (k > 0 && gsl_odeiv2_driver_apply(d, &t, target, y) != GSL_SUCCESS) {
            status = -1;
            break;
        }
        /* in-plane mechanical energy in the ground frame (the scene's definition; the normal
         * motion z(t) is prescribed, the same in every run, and left out) [J] */
        double m = p->density * 4.0 / 3.0 * M_PI * p->r * p->r * p->r;
        double e = m * (0.5 * (y[2] * y[2] + y[3] * y[3]) +
                        0.2 * p->r * p->r * (y[4] * y[4] + y[5] * y[5] + y[6] * y[6]) -
                        p->g * sin(p->tilt) * y[0]);
        double v[TB_NCOL] = {target, y[0], y[1], y[2], y[3], y[4], y[5], y[6], e};
        memcpy(pf_ref_res_row(out), v, sizeof v);
    }
    gsl_odeiv2_driver_free(d);
    if (status) return status;
    const double *last = out->rows + (out->n - 1) * TB_NCOL;
    pf_ref_res_metric(out, "final_x", last[1]);
    pf_ref_res_metric(out, "final_y", last[2]);
    pf_ref_res_metric(out, "final_wz", last[7]);
    return 0;
}
