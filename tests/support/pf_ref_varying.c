/* Reference solutions of the varying-normal-load cases (see pf_ref_varying.h). */
#include "pf_ref_varying.h"
#include "pf_ref_internal.h"

#include <patchfriction/pf_core.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Tolerances as pf_ref_scenes.c. */
#define ABS_TOL 1e-12
#define REL_TOL 1e-11
#define EVENT_TOL 1e-13
/* A slip that starts from rest keeps its incipient direction below this speed [m/s], and a
 * slip slower than REF_V_ZERO is a stop (pf_ref_scenes.c, same values and reasons). */
#define V_FREEZE 1e-8
#define V_ZERO 1e-9

/* Scene definitions restated (scenes/pf_scene_sliding.c). */

/* ------------------------------------------------------------------------------------------ */
/* helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------------------------ */
/* shaking-table vertical                                                                      */
/* ------------------------------------------------------------------------------------------ */

void pf_ref_table_vertical_default(pfRefTableVertical *p)
{
    memset(p, 0, sizeof *p);
    pf_ref_table_default("excitation-1", &p->t);
    p->wz = 800.0;
    p->az = 9.2e-6; /* az wz^2 = 5.888 m/s^2 = 0.600 g */
    p->density = 7800.0;
}

int pf_ref_table_vertical_set(pfRefTableVertical *p, const char *key, const char *value, char *msg,
                              int n)
{
    if (!strcmp(key, "A_z")) return pf_ref_parse_num(key, value, &p->az, 0, 1, msg, n);
    if (!strcmp(key, "omega_z")) return pf_ref_parse_num(key, value, &p->wz, 0, 1e6, msg, n);
    return pf_ref_table_set(&p->t, key, value, msg, n);
}

int pf_ref_table_vertical_run(const pfRefTableVertical *p, double t_end, double out_dt,
                              pfRefResult *out)
{
    pfRefTable q = p->t;
    q.az = p->az;
    q.wz = p->wz;
    q.density = p->density;
    return pf_ref_table_run(&q, t_end, out_dt, out);
}

/* ------------------------------------------------------------------------------------------ */
/* independent rectangle wrench (P6, P7)                                                       */
/* ------------------------------------------------------------------------------------------ */

/* Antiderivatives of P7 (d^2/dp dq of each is p/rho, q/rho, rho). */
static double anti_g(double p, double q)
{
    if (p == 0.0) return 0.5 * q * fabs(q);
    return 0.5 * (q * hypot(p, q) + p * p * asinh(q / fabs(p)));
}

static double anti_h(double p, double q)
{
    return anti_g(q, p);
}

static double anti_k(double p, double q)
{
    double s = 2.0 * p * q * hypot(p, q);
    if (p != 0.0) s += p * p * p * asinh(q / fabs(p));
    if (q != 0.0) s += q * q * q * asinh(p / fabs(q));
    return s / 6.0;
}

static double corner(double (*f)(double, double), double p1, double p2, double q1, double q2)
{
    return f(p2, q2) - f(p1, q2) - f(p2, q1) + f(p1, q1);
}

#define GL_N 24

void pf_ref_rect_wrench(double L, double W, double mu, double N, double vx, double vy, double w,
                        double out[3])
{
    out[0] = out[1] = out[2] = 0.0;
    if (vx == 0.0 && vy == 0.0 && w == 0.0) return;
    double A = L * W, k = mu * N / A, half_diag = 0.5 * hypot(L, W);
    if (w != 0.0 && hypot(vx, vy) < 20.0 * half_diag * fabs(w)) {
        /* P6: CR coordinates p = x - x_cr, q = y - y_cr, r_cr = (-vy/w, vx/w) (P5) */
        double xc = -vy / w, yc = vx / w, sg = w > 0 ? 1.0 : -1.0;
        double p1 = -0.5 * L - xc, p2 = 0.5 * L - xc, q1 = -0.5 * W - yc, q2 = 0.5 * W - yc;
        double fx = k * sg * corner(anti_h, p1, p2, q1, q2);
        double fy = -k * sg * corner(anti_g, p1, p2, q1, q2);
        double mcr = -k * sg * corner(anti_k, p1, p2, q1, q2);
        out[0] = fx;
        out[1] = fy;
        out[2] = mcr + xc * fy - yc * fx; /* moment moved from the CR to the centre */
        return;
    }
    /* CR far away (or at infinity): P3 by Gauss-Legendre, u/|u| analytic over the patch */
    static double xi[GL_N], wi[GL_N];
    static int ready;
    if (!ready) {
        gsl_integration_glfixed_table *tab = gsl_integration_glfixed_table_alloc(GL_N);
        for (size_t i = 0; i < GL_N; ++i)
            gsl_integration_glfixed_point(-1.0, 1.0, i, &xi[i], &wi[i], tab);
        gsl_integration_glfixed_table_free(tab);
        ready = 1;
    }
    double fx = 0, fy = 0, mz = 0;
    for (int i = 0; i < GL_N; ++i)
        for (int j = 0; j < GL_N; ++j) {
            double x = 0.5 * L * xi[i], y = 0.5 * W * xi[j], wt = wi[i] * wi[j] * 0.25 * A;
            double ux = vx - w * y, uy = vy + w * x, u = hypot(ux, uy);
            if (u == 0.0) continue;
            double dfx = -k * ux / u * wt, dfy = -k * uy / u * wt;
            fx += dfx;
            fy += dfy;
            mz += x * dfy - y * dfx;
        }
    out[0] = fx;
    out[1] = fy;
    out[2] = mz;
}

/* ------------------------------------------------------------------------------------------ */
/* sliding-blocks slope-drop                                                                   */
/* ------------------------------------------------------------------------------------------ */

static const char *const sd_cols[] = {"t",    "x",  "y",  "theta", "vx",    "vy", "w",     "speed",
                                      "spin", "Fx", "Fy", "M",     "stick", "z",  "energy"};
#define SD_NCOL 15

void pf_ref_slope_drop_default(pfRefSlopeDrop *p)
{
    memset(p, 0, sizeof *p);
    p->L = 0.03;
    p->W = 0.01;
    p->H = 0.01;
    p->mass = 0.0234;
    p->mu_s = p->mu_k = 0.4;
    p->slope = 15.0 * M_PI / 180.0;
    p->drop = 0.005;
    p->vx0 = 0.2;
    p->vy0 = 0.4;
    p->w0 = 20.0;
    p->g = 9.81;
}

int pf_ref_slope_drop_set(pfRefSlopeDrop *p, const char *key, const char *value, char *msg, int n)
{
    if (!strcmp(key, "yaw") || !strcmp(key, "criterion")) return 0;
    if (!strcmp(key, "slope")) {
        double deg;
        if (pf_ref_parse_num(key, value, &deg, 0, 89, msg, n)) return -1;
        p->slope = deg * M_PI / 180.0;
        return 0;
    }
    const pfRefKey t[] = {
        {"mass", &p->mass, 1e-9, 1e9}, {"mu_s", &p->mu_s, 0, 1e3},  {"mu_k", &p->mu_k, 0, 1e3},
        {"length", &p->L, 1e-4, 10},   {"width", &p->W, 1e-4, 10},  {"drop", &p->drop, 0, 1},
        {"vx0", &p->vx0, -100, 100},   {"vy0", &p->vy0, -100, 100}, {"w0", &p->w0, -1e3, 1e3}};
    return pf_ref_set_key(t, (int)(sizeof t / sizeof t[0]), key, value, "sliding-blocks slope-drop",
                          msg, n);
}

double pf_ref_slope_drop_duration(const pfRefSlopeDrop *p)
{
    (void)p;
    return 0.6;
}

typedef struct Sd {
    const pfRefSlopeDrop *p;
    double J, rho_g, N;
    double theta; /* impact: the yaw, fixed during the impulse */
    int starting; /* slide from rest: friction along -inc until the speed exceeds V_FREEZE */
    double inc[3];
} Sd;

/* Friction of the block at slope-frame twist (vx, vy, w) and yaw th, normal force N. */
static void sd_friction(const Sd *s, double th, double vx, double vy, double w, double N,
                        double f[3])
{
    double c = cos(th), sn = sin(th), wb[3];
    pf_ref_rect_wrench(s->p->L, s->p->W, s->p->mu_k, N, c * vx + sn * vy, -sn * vx + c * vy, w, wb);
    f[0] = c * wb[0] - sn * wb[1];
    f[1] = sn * wb[0] + c * wb[1];
    f[2] = wb[2];
}

/* Darboux-Keller: d(vx, vy, w)/dP = M^-1 (wrench of a unit normal force at the current twist),
 * P the normal impulse. */
static int sd_impact_rhs(double P, const double y[], double f[], void *par)
{
    (void)P;
    const Sd *s = par;
    double fr[3];
    sd_friction(s, s->theta, y[0], y[1], y[2], 1.0, fr);
    f[0] = fr[0] / s->p->mass;
    f[1] = fr[1] / s->p->mass;
    f[2] = fr[2] / s->J;
    return GSL_SUCCESS;
}

/* Kardan's block on the slope, y = (x, y, theta, vx, vy, w): gravity m g sin(alpha) down-slope
 * through the mass centre, N = m g cos(alpha) spread uniformly over the face. */
static int sd_slide_rhs(double t, const double y[], double f[], void *par)
{
    (void)t;
    const Sd *s = par;
    double fr[3];
    if (s->starting || (y[3] == 0.0 && y[4] == 0.0 && y[5] == 0.0))
        sd_friction(s, y[2], s->inc[0], s->inc[1], s->inc[2], s->N, fr);
    else
        sd_friction(s, y[2], y[3], y[4], y[5], s->N, fr);
    f[0] = y[3];
    f[1] = y[4];
    f[2] = y[5];
    f[3] = (fr[0] + s->p->mass * s->p->g * sin(s->p->slope)) / s->p->mass;
    f[4] = fr[1] / s->p->mass;
    f[5] = fr[2] / s->J;
    return GSL_SUCCESS;
}

static double sd_dot(const Sd *s, const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + s->rho_g * s->rho_g * a[2] * b[2];
}

/* Integrate the impact over P in [0, P_end]; a twist that vanishes on the way stays zero (the
 * only impulsive load is the normal one, which static friction holds without a tangential
 * impulse). */
static int sd_impact(Sd *s, double P_end, double v[3])
{
    if (!(P_end > 0.0)) return 0;
    gsl_odeiv2_system sys = {sd_impact_rhs, NULL, 3, s};
    gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 3);
    gsl_odeiv2_step *st2 = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 3);
    gsl_odeiv2_control *ctl = gsl_odeiv2_control_y_new(ABS_TOL, REL_TOL);
    gsl_odeiv2_evolve *ev = gsl_odeiv2_evolve_alloc(3);
    double P = 0.0, h = 1e-3 * P_end, vp[3], vt[3], err[3];
    int status = 0;
    while (P < P_end) {
        if (sqrt(sd_dot(s, v, v)) < V_ZERO) {
            v[0] = v[1] = v[2] = 0.0;
            break;
        }
        double Pp = P;
        memcpy(vp, v, sizeof vp);
        if (gsl_odeiv2_evolve_apply(ev, ctl, st, &sys, &P, P_end, &h, v) != GSL_SUCCESS) {
            status = -1;
            break;
        }
        if (sd_dot(s, v, vp) <= 0.0) { /* the twist vanished within the step: locate it */
            double lo = 0.0, hi = P - Pp;
            while (hi - lo > 1e-15 * P_end) {
                double hm = 0.5 * (lo + hi);
                memcpy(vt, vp, sizeof vt);
                gsl_odeiv2_step_reset(st2);
                gsl_odeiv2_step_apply(st2, Pp, hm, vt, err, NULL, NULL, &sys);
                if (sd_dot(s, vt, vp) > 0.0)
                    lo = hm;
                else
                    hi = hm;
            }
            v[0] = v[1] = v[2] = 0.0;
            break;
        }
    }
    gsl_odeiv2_evolve_free(ev);
    gsl_odeiv2_control_free(ctl);
    gsl_odeiv2_step_free(st);
    gsl_odeiv2_step_free(st2);
    return status;
}

typedef struct SdState {
    double x, y, th, vx, vy, w, z, vn;
    int stick;
} SdState;

static void sd_record(const Sd *s, pfRefResult *r, double t, const SdState *q)
{
    const pfRefSlopeDrop *p = s->p;
    double sp = hypot(q->vx, q->vy), spin = fabs(q->w) * s->rho_g;
    double m = p->mass, sa = sin(p->slope), ca = cos(p->slope);
    double e = 0.5 * m * (q->vx * q->vx + q->vy * q->vy + q->vn * q->vn) +
               0.5 * s->J * q->w * q->w - m * p->g * sa * q->x + m * p->g * ca * q->z;
    int rest = sp < SL_V_REST && spin < SL_V_REST && q->z <= 0.0;
    double v[SD_NCOL] = {t,
                         q->x,
                         q->y,
                         q->th,
                         q->vx,
                         q->vy,
                         q->w,
                         sp,
                         q->w,
                         m * p->g * sa,
                         0.,
                         0.,
                         rest ? 1.0 : 0.0,
                         q->z,
                         e};
    memcpy(pf_ref_res_row(r), v, sizeof v);
}

/* Stick test after a stop (P13: the loads are a pure force through the mass centre). */
static int sd_sticks(const Sd *s)
{
    return tan(s->p->slope) <= s->p->mu_s;
}

int pf_ref_slope_drop_run(const pfRefSlopeDrop *p, double t_end, double out_dt, pfRefResult *out)
{
    Sd s;
    memset(&s, 0, sizeof s);
    s.p = p;
    s.J = p->mass * (p->L * p->L + p->W * p->W) / 12.0;
    s.rho_g = sqrt((p->L * p->L + p->W * p->W) / 12.0);
    s.N = p->mass * p->g * cos(p->slope);
    if (pf_ref_res_init(out, sd_cols, SD_NCOL, t_end, out_dt)) return -1;
    const double gt = p->g * sin(p->slope), gn = p->g * cos(p->slope);
    /* free fall to the incline: exact */
    const double t_land = sqrt(2.0 * p->drop / gn);
    long nk = pf_ref_n_samples(t_end, out_dt), k = 0;
    SdState q;
    for (; k <= nk && (double)k * out_dt < t_land; ++k) {
        double t = (double)k * out_dt;
        q = (SdState){
            p->vx0 * t + 0.5 * gt * t * t, p->vy0 * t, p->w0 * t, p->vx0 + gt * t, p->vy0, p->w0,
            p->drop - 0.5 * gn * t * t,    -gn * t,    0};
        sd_record(&s, out, t, &q);
    }
    /* landing: perfectly inelastic, normal impulse P = m v_n integrated exactly */
    double T = t_land;
    double y[6] = {
        p->vx0 * T + 0.5 * gt * T * T, p->vy0 * T, p->w0 * T, p->vx0 + gt * T, p->vy0, p->w0};
    s.theta = y[2];
    double v[3] = {y[3], y[4], y[5]};
    if (sd_impact(&s, p->mass * gn * T, v)) return -1;
    y[3] = v[0];
    y[4] = v[1];
    y[5] = v[2];
    double t = T;
    int stick = 0;
    if (y[3] == 0.0 && y[4] == 0.0 && y[5] == 0.0) {
        stick = sd_sticks(&s);
        if (!stick) {
            s.starting = 1;
            s.inc[0] = 1.0;
            s.inc[1] = s.inc[2] = 0.0;
        }
        out->switches++;
    }
    gsl_odeiv2_system sys = {sd_slide_rhs, NULL, 6, &s};
    gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 6);
    gsl_odeiv2_step *st2 = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 6);
    gsl_odeiv2_control *ctl = gsl_odeiv2_control_y_new(ABS_TOL, REL_TOL);
    gsl_odeiv2_evolve *ev = gsl_odeiv2_evolve_alloc(6);
    double h = 1e-6, yp[6], yt[6], yerr[6];
    int status = 0;
    while (k <= nk && status == 0) {
        double target = (double)k * out_dt;
        if (stick) {
            t = target;
        } else {
            double tp = t;
            memcpy(yp, y, sizeof y);
            if (gsl_odeiv2_evolve_apply(ev, ctl, st, &sys, &t, target, &h, y) != GSL_SUCCESS) {
                status = -1;
                break;
            }
            double n0 = sd_dot(&s, yp + 3, yp + 3);
            if (s.starting && sd_dot(&s, y + 3, y + 3) > V_FREEZE * V_FREEZE) {
                s.starting = 0;
                gsl_odeiv2_evolve_reset(ev);
            } else if (!s.starting && sd_dot(&s, y + 3, y + 3) < V_ZERO * V_ZERO) {
                y[3] = y[4] = y[5] = 0.0;
                stick = sd_sticks(&s);
                out->switches++;
            } else if (!s.starting && n0 > 0.0 && sd_dot(&s, y + 3, yp + 3) <= 0.0) {
                double lo = 0.0, hi = t - tp;
                while (hi - lo > EVENT_TOL) {
                    double hm = 0.5 * (lo + hi);
                    memcpy(yt, yp, sizeof y);
                    gsl_odeiv2_step_reset(st2);
                    gsl_odeiv2_step_apply(st2, tp, hm, yt, yerr, NULL, NULL, &sys);
                    if (sd_dot(&s, yt + 3, yp + 3) > 0.0)
                        lo = hm;
                    else
                        hi = hm;
                }
                memcpy(yt, yp, sizeof y);
                gsl_odeiv2_step_reset(st2);
                gsl_odeiv2_step_apply(st2, tp, hi, yt, yerr, NULL, NULL, &sys);
                if (sd_dot(&s, yt + 3, yt + 3) < 1e-12 * n0 + 1e-20) { /* a stop, not a turn */
                    memcpy(y, yt, sizeof y);
                    y[3] = y[4] = y[5] = 0.0;
                    t = tp + hi;
                    out->switches++;
                    stick = sd_sticks(&s);
                    if (!stick) {
                        s.starting = 1;
                        s.inc[0] = 1.0;
                        s.inc[1] = s.inc[2] = 0.0;
                    }
                    gsl_odeiv2_evolve_reset(ev);
                    h = 1e-6;
                }
            }
        }
        if (t >= target - 1e-13) {
            q = (SdState){y[0], y[1], y[2], y[3], y[4], y[5], 0.0, 0.0, stick};
            sd_record(&s, out, target, &q);
            k++;
        }
    }
    gsl_odeiv2_evolve_free(ev);
    gsl_odeiv2_control_free(ctl);
    gsl_odeiv2_step_free(st);
    gsl_odeiv2_step_free(st2);
    if (status) return status;

    /* metrics with the scene's definitions; the stop times after the landing */
    double stop_tr, stop_rot;
    pf_ref_sliding_metrics(out, out_dt, s.rho_g, 0, t_land, &stop_tr, &stop_rot);
    pf_ref_res_metric(out, "landing_time", t_land);
    pf_ref_res_metric(out, "stop_time_translation", stop_tr);
    pf_ref_res_metric(out, "stop_time_rotation", stop_rot);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* coupled-masses vertical (P21 with b(t))                                                     */
/* ------------------------------------------------------------------------------------------ */

void pf_ref_coupled_vertical_default(pfRefCoupledVertical *p)
{
    memset(p, 0, sizeof *p);
    pf_ref_coupled_default("stick", &p->c);
    p->g = 9.81;
    p->wz = 60.0;
    p->az = 0.6 * p->g / (p->wz * p->wz);
}

int pf_ref_coupled_vertical_set(pfRefCoupledVertical *p, const char *key, const char *value,
                                char *msg, int n)
{
    if (!strcmp(key, "A_z")) return pf_ref_parse_num(key, value, &p->az, 0, 1, msg, n);
    if (!strcmp(key, "omega_z")) return pf_ref_parse_num(key, value, &p->wz, 0, 1e5, msg, n);
    return pf_ref_coupled_set(&p->c, key, value, msg, n);
}

double pf_ref_coupled_vertical_duration(const pfRefCoupledVertical *p)
{
    (void)p;
    return 5.0;
}

int pf_ref_coupled_vertical_run(const pfRefCoupledVertical *p, double t_end, double out_dt,
                                pfRefResult *out)
{
    pfRefCoupled q = p->c;
    q.az = p->az;
    q.wz = p->wz;
    q.g = p->g;
    return pf_ref_coupled_run(&q, t_end, out_dt, out);
}
