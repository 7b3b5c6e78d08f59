/* Quasi-static pushing reference (docs/physics.md P58-P61); see pf_ref_push.h. */
#include "pf_ref_push.h"

#include "pf_ref_disk.h"
#include "pf_ref_quad.h"

#include <cubature.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multiroots.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define ROOT_TOL 1e-11 /* on the scaled residuals */
#define ROOT_ITERS 200
#define CONE_SLACK 1e-9 /* relative: a force this close to the cone's edge still sticks */

int pf_ref_push_default(const char *case_name, pfRefPush *p)
{
    memset(p, 0, sizeof *p);
    if (!case_name || !strcmp(case_name, "block"))
        p->disk = 0;
    else if (!strcmp(case_name, "disk"))
        p->disk = 1;
    else
        return -1;
    p->length = 0.06;
    p->width = 0.10;
    p->radius = 0.05;
    p->mu_f = 0.5;
    p->finger_radius = 0.005;
    p->offset = 0.02;
    p->speed = 0.005;
    p->depth = 2e-5;
    p->t_from = 0.1;
    p->t_to = 0.3;
    p->h = 0.005;
    return 0;
}

int pf_ref_push_set(pfRefPush *p, const char *key, const char *value, char *msg, int n)
{
    char *end = NULL;
    const double v = strtod(value, &end);
    if (end == value || *end || !isfinite(v)) {
        snprintf(msg, (size_t)n, "push: --set %s=%s: not a number", key, value);
        return -1;
    }
    if (!strcmp(key, "offset"))
        p->offset = v;
    else if (!strcmp(key, "mu_f") && v >= 0.0)
        p->mu_f = v;
    else if (!strcmp(key, "speed") && v > 0.0)
        p->speed = v;
    else if (!strcmp(key, "yaw"))
        p->yaw = v * M_PI / 180.0;
    else if (strcmp(key, "mu") && strcmp(key, "stepper") && strcmp(key, "coupling")) {
        snprintf(msg, (size_t)n, "push: --set %s=%s: unknown key or bad value", key, value);
        return -1;
    }
    return 0;
}

/* The support's friction wrench on the object about G for the body-frame twist (vx, vy, w), per
 * unit mu N (P58): cubature of -u/|u| over the uniform footprint. */
static int support_wrench(const pfRefPush *p, double vx, double vy, double w, double F[3])
{
    if (p->disk) {
        const double a = p->radius;
        /* pf_ref_disk_p15 integrates about the centre of rotation (P5), which a nearly pure
         * translation puts far away, where its map converges slowly: there the plain polar map */
        if (fabs(w) * a * 2.0 < hypot(vx, vy)) {
            const double tw[3] = {vx / a, vy / a, w}, lo[2] = {0.0, 0.0}, hi[2] = {1.0, 2 * M_PI};
            double val[3], err[3];
            if (hcubature(3, pf_ref_disk_polar_integrand, (void *)tw, 2, lo, hi, 2000000, 1e-12,
                          0.0, ERROR_INDIVIDUAL, val, err))
                return 1;
            F[0] = val[0];
            F[1] = val[1];
            F[2] = a * val[2];
            return 0;
        }
        pfRefDisk d = pf_ref_disk_p15(PF_REF_UNIFORM, vx / a, vy / a, w, 0.0, 0.0, 0.0, 1e-12);
        F[0] = -d.tx;
        F[1] = -d.ty;
        F[2] = -a * d.ms;
        return d.status;
    }
    const pfRefRegion reg = pf_ref_rect_region(p->length, p->width);
    pfWrench wr;
    const pfTwist tw = {vx, vy, w};
    if (pf_ref_wrench(&reg, 1.0, 1.0, tw, &wr)) return 1;
    F[0] = wr.fx;
    F[1] = wr.fy;
    F[2] = wr.mz;
    return 0;
}

typedef struct Solve {
    const pfRefPush *p;
    double c[2], n[2], t[2], vf[2];
    double s, L; /* velocity and length scales */
    int slide;   /* 0: sticking finger; +-1: sliding, force on the cone edge n + sigma mu_f t */
    int failed;
} Solve;

/* x = (vx / s, vy / s, w L / s). Sticking (P60): c's velocity is the finger's, and the moments
 * balance. Sliding (P61): the normal velocities agree, the support force is opposite to the
 * cone's edge, and the moments balance. */
static int residual(const gsl_vector *x, void *data, gsl_vector *f)
{
    Solve *S = data;
    const double vx = gsl_vector_get(x, 0) * S->s, vy = gsl_vector_get(x, 1) * S->s;
    const double w = gsl_vector_get(x, 2) * S->s / S->L;
    double F[3];
    if (support_wrench(S->p, vx, vy, w, F)) {
        S->failed = 1;
        return GSL_EFAILED;
    }
    const double ux = vx - w * S->c[1], uy = vy + w * S->c[0]; /* c's velocity */
    /* the finger's force fc = -F (through c) balances the support: c x fc + M = 0 */
    const double moment = (-(S->c[0] * F[1] - S->c[1] * F[0]) + F[2]) / S->L;
    if (!S->slide) {
        gsl_vector_set(f, 0, (ux - S->vf[0]) / S->s);
        gsl_vector_set(f, 1, (uy - S->vf[1]) / S->s);
    } else {
        const double mf = S->p->mu_f * S->slide;
        const double dx = S->n[0] + mf * S->t[0], dy = S->n[1] + mf * S->t[1];
        const double dn = hypot(dx, dy);
        gsl_vector_set(f, 0, ((ux - S->vf[0]) * S->n[0] + (uy - S->vf[1]) * S->n[1]) / S->s);
        gsl_vector_set(f, 1, (F[0] * dy - F[1] * dx) / dn);
    }
    gsl_vector_set(f, 2, moment);
    return GSL_SUCCESS;
}

static int solve(Solve *S, const double x0[3], double x[3])
{
    gsl_multiroot_function fn = {residual, 3, S};
    gsl_vector *v = gsl_vector_alloc(3);
    for (int i = 0; i < 3; ++i)
        gsl_vector_set(v, i, x0[i]);
    gsl_multiroot_fsolver *fs = gsl_multiroot_fsolver_alloc(gsl_multiroot_fsolver_hybrids, 3);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int st = gsl_multiroot_fsolver_set(fs, &fn, v);
    for (int it = 0; st == GSL_SUCCESS && it < ROOT_ITERS; ++it) {
        st = gsl_multiroot_fsolver_iterate(fs);
        if (st != GSL_SUCCESS) break;
        st = gsl_multiroot_test_residual(fs->f, ROOT_TOL);
        if (st == GSL_SUCCESS) break;
        if (st == GSL_CONTINUE) st = GSL_SUCCESS;
        if (it == ROOT_ITERS - 1) st = GSL_EMAXITER;
    }
    if (st == GSL_SUCCESS && gsl_multiroot_test_residual(fs->f, ROOT_TOL) != GSL_SUCCESS)
        st = GSL_ENOPROG;
    for (int i = 0; i < 3; ++i)
        x[i] = gsl_vector_get(fs->x, i);
    gsl_set_error_handler(old);
    gsl_multiroot_fsolver_free(fs);
    gsl_vector_free(v);
    return st != GSL_SUCCESS || S->failed;
}

/* Fill out from the scaled solution x of S. */
static int finish(Solve *S, const double x[3], pfRefPushTwist *out)
{
    out->vx = x[0] * S->s;
    out->vy = x[1] * S->s;
    out->w = x[2] * S->s / S->L;
    double F[3];
    if (support_wrench(S->p, out->vx, out->vy, out->w, F)) return 1;
    out->fx = -F[0];
    out->fy = -F[1];
    const double ux = out->vx - out->w * S->c[1], uy = out->vy + out->w * S->c[0];
    out->slip = (S->vf[0] - ux) * S->t[0] + (S->vf[1] - uy) * S->t[1];
    out->sticking = !S->slide;
    return 0;
}

int pf_ref_push_twist(const pfRefPush *p, const double c[2], const double n[2], const double vf[2],
                      pfRefPushTwist *out)
{
    Solve S;
    memset(&S, 0, sizeof S);
    S.p = p;
    memcpy(S.c, c, sizeof S.c);
    memcpy(S.n, n, sizeof S.n);
    memcpy(S.vf, vf, sizeof S.vf);
    S.t[0] = -n[1];
    S.t[1] = n[0];
    S.s = hypot(vf[0], vf[1]);
    S.L = p->disk ? p->radius : 0.5 * hypot(p->length, p->width);
    /* sticking first (P60): c moves with the finger */
    const double x0[3] = {vf[0] / S.s, vf[1] / S.s, 0.0};
    double x[3];
    if (!solve(&S, x0, x) && !finish(&S, x, out)) {
        const double fn = out->fx * n[0] + out->fy * n[1];
        const double ft = out->fx * S.t[0] + out->fy * S.t[1];
        if (fn > 0.0 && fabs(ft) <= p->mu_f * fn + CONE_SLACK * fn) return 0;
    }
    /* outside the cone (Mason's motion cone): the finger slides, the force on the edge on the
     * side the sticking force leaned to; the slip must then point that way (P61) */
    const double vn = vf[0] * n[0] + vf[1] * n[1];
    const double x1[3] = {vn * n[0] / S.s, vn * n[1] / S.s, 0.0};
    for (int k = 0; k < 2; ++k) {
        const int sigma = k == 0 ? 1 : -1;
        S.slide = sigma;
        S.failed = 0;
        if (solve(&S, x1, x) || finish(&S, x, out)) continue;
        const double fn = out->fx * n[0] + out->fy * n[1];
        if (fn > 0.0 && (p->mu_f == 0.0 || out->slip * sigma >= 0.0)) return 0;
    }
    return 1;
}

/* The finger contact of pose (X, Y, th) at time t, body frame: point c, normal n into the
 * object, finger velocity vf. */
static void contact(const pfRefPush *p, double x0f, const double pose[3], double t, double c[2],
                    double n[2], double vf[2])
{
    const double cs = cos(pose[2]), sn = sin(pose[2]);
    const double wx = x0f + p->speed * t - pose[0], wy = p->offset - pose[1];
    const double bx = cs * wx + sn * wy, by = -sn * wx + cs * wy; /* finger centre, body frame */
    if (p->disk) {
        const double d = hypot(bx, by);
        n[0] = -bx / d;
        n[1] = -by / d;
        c[0] = -p->radius * n[0];
        c[1] = -p->radius * n[1];
    } else {
        n[0] = 1.0;
        n[1] = 0.0;
        c[0] = -0.5 * p->length;
        c[1] = by;
    }
    vf[0] = cs * p->speed;
    vf[1] = -sn * p->speed;
}

/* d(pose)/dt at (pose, t); tw receives the body twist. */
static int rate(const pfRefPush *p, double x0f, const double pose[3], double t, double d[3],
                pfRefPushTwist *tw)
{
    double c[2], n[2], vf[2];
    contact(p, x0f, pose, t, c, n, vf);
    if (pf_ref_push_twist(p, c, n, vf, tw)) return 1;
    const double cs = cos(pose[2]), sn = sin(pose[2]);
    d[0] = cs * tw->vx - sn * tw->vy;
    d[1] = sn * tw->vx + cs * tw->vy;
    d[2] = tw->w;
    return 0;
}

int pf_ref_push_run(const pfRefPush *p, pfRefPushResult *out)
{
    /* the finger's start, as the scene places it */
    double x0f;
    if (p->disk) {
        const double r = p->radius + p->finger_radius - p->depth;
        x0f = -sqrt(r * r - p->offset * p->offset);
    } else {
        x0f = (-(0.5 * p->length + p->finger_radius - p->depth) - p->offset * sin(p->yaw)) /
              cos(p->yaw);
    }
    double pose[3] = {0.0, 0.0, p->yaw};
    const long nstep = lround(p->t_to / p->h);
    double sum_r = 0.0, sum_s = 0.0, wsum = 0.0;
    int stick = 1;
    for (long i = 0; i <= nstep; ++i) {
        const double t = (double)i * p->h;
        double d1[3], d2[3], mid[3];
        pfRefPushTwist tw, tw2;
        if (rate(p, x0f, pose, t, d1, &tw)) return 1;
        if (t >= p->t_from - 0.5 * p->h) {
            /* trapezoid weights over the window */
            const double wt = (fabs(t - p->t_from) < 0.5 * p->h || i == nstep) ? 0.5 : 1.0;
            sum_r += wt * tw.w / hypot(tw.vx, tw.vy);
            sum_s += wt * fabs(tw.slip);
            wsum += wt;
            stick &= tw.sticking;
        }
        if (i == nstep) break;
        for (int k = 0; k < 3; ++k)
            mid[k] = pose[k] + 0.5 * p->h * d1[k];
        if (rate(p, x0f, mid, t + 0.5 * p->h, d2, &tw2)) return 1;
        for (int k = 0; k < 3; ++k)
            pose[k] += p->h * d2[k];
    }
    out->ratio = sum_r / wsum;
    out->finger_slip = sum_s / wsum;
    out->finger_slip_ratio = out->finger_slip / p->speed;
    out->finger_sticking = stick;
    out->x = pose[0];
    out->y = pose[1];
    out->yaw = pose[2];
    return 0;
}
