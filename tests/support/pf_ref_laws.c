/* GSL odeiv2 reference for rig (b) of docs/physics.md §5. See pf_ref_laws.h. */
#include "pf_ref_laws.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct RefCtx {
    const pfRefPull *c;
    int dir;       /* sawtooth: slip direction (+1/-1) */
    double rr, ll; /* bristle: release thresholds (docs/physics.md P27 with memory) */
} RefCtx;

static double sgn(double v)
{
    return (v > 0.0) - (v < 0.0);
}

/* Bristle row of P26-P28 with release events. Between releases the engaged sets are frozen:
 * the right edge pushes the bristles with bases in (rr, x_R], the left edge those in [x_L, ll)
 * (the same memory as the plugin's, but derived here from P27 directly). With the sets frozen
 * the force is smooth in x (a bristle entering or leaving at its base has theta = 0), so the
 * stepper sees no discontinuity; the only jumps are the releases (P28: |theta| reaches
 * theta_max, i.e. an edge is d past a base), which the driver loop locates as events. */
typedef struct BristleGeo {
    double ls, kap, w, delta, thmax, h, d;
} BristleGeo;

static BristleGeo bristle_geo(const double *p)
{
    BristleGeo g;
    g.ls = p[0], g.kap = p[1], g.w = p[3];
    g.delta = g.w / (p[4] - 1.0);
    g.thmax = p[2] * g.ls / (p[4] * g.kap); /* P26 */
    g.h = g.ls * cos(g.thmax);
    g.d = sqrt(g.ls * g.ls - g.h * g.h);
    return g;
}

/* Lattice index of the first base strictly above r (right edge) / strictly below r (left edge);
 * r is often a base itself after a release, where r / Delta may round either way. */
static double base_above(double r, double delta)
{
    double j = floor(r / delta) + 1.0;
    while (j * delta <= r)
        j += 1.0;
    while ((j - 1.0) * delta > r)
        j -= 1.0;
    return j;
}
static double base_below(double r, double delta)
{
    double j = ceil(r / delta) - 1.0;
    while (j * delta >= r)
        j -= 1.0;
    while ((j + 1.0) * delta < r)
        j += 1.0;
    return j;
}

static double bristle_force(const RefCtx *k, double x)
{
    BristleGeo g = bristle_geo(k->c->p);
    double xr = x + 0.5 * g.w, xl = x - 0.5 * g.w, f = 0.0;
    for (double j = base_above(k->rr, g.delta); j * g.delta <= xr; j += 1.0) {
        double th = atan((xr - j * g.delta) / g.h); /* P27 moving right */
        f += g.kap * th * cos(th) * cos(th) / g.h;  /* P28 */
    }
    for (double j = base_below(xl, g.delta) + 1.0; j * g.delta < k->ll; j += 1.0) {
        double th = atan((xl - j * g.delta) / g.h); /* P27 moving left */
        f += g.kap * th * cos(th) * cos(th) / g.h;
    }
    return f;
}

/* Event function: >= 0 once an engaged bristle has reached theta_max. The candidates are the
 * right edge's lowest engaged base and the left edge's highest one. */
static double bristle_event(const RefCtx *k, double x)
{
    BristleGeo g = bristle_geo(k->c->p);
    double br = base_above(k->rr, g.delta) * g.delta;
    double bl = base_below(k->ll, g.delta) * g.delta;
    double gr = (x + 0.5 * g.w - g.d) - br, gl = bl - (x - 0.5 * g.w + g.d);
    return fmax(gr, gl);
}

/* Apply the releases due at x and the continuous bookkeeping of an edge that moved back past
 * snapped bases (they stand up again and are engaged afresh). Returns the number released. */
static long bristle_update(RefCtx *k, double x)
{
    BristleGeo g = bristle_geo(k->c->p);
    double xr = x + 0.5 * g.w, xl = x - 0.5 * g.w;
    long n = 0;
    k->rr = fmin(k->rr, xr);
    k->ll = fmax(k->ll, xl);
    for (;;) {
        double br = base_above(k->rr, g.delta) * g.delta;
        if (!(br <= xr && xr - g.d >= br - 1e-15)) break;
        k->rr = br;
        n++;
    }
    for (;;) {
        double bl = base_below(k->ll, g.delta) * g.delta;
        if (!(bl >= xl && xl + g.d <= bl + 1e-15)) break;
        k->ll = bl;
        n++;
    }
    return n;
}

static double saw(const double *p, double x, double dir)
{
    double m = fmod(dir * x, p[2]);
    if (m < 0.0) m += p[2];
    return dir * (p[1] + (p[0] - p[1]) / p[2] * m);
}

/* y = (x, v, q): q = F (Dahl), z (LuGre), theta (hybrid), unused otherwise. */
static double law_force(const RefCtx *k, double t, const double y[], double *qdot)
{
    (void)t;
    const double *p = k->c->p;
    double v = y[1];
    *qdot = 0.0;
    switch (k->c->law) {
    case PF_REF_DAHL: {
        double s = 1.0 - y[2] / p[1] * sgn(v);
        *qdot = p[0] * pow(fabs(s), p[2]) * sgn(s) * v; /* P22 */
        return y[2];
    }
    case PF_REF_LUGRE: {
        double g = p[3] + (p[4] - p[3]) * exp(-(v / p[5]) * (v / p[5]));
        double zd = v - p[0] * fabs(v) * y[2] / g; /* P25 */
        *qdot = zd;
        return p[0] * y[2] + p[1] * zd + p[2] * v;
    }
    case PF_REF_HYBRID: {
        double c2 = cos(y[2]) * cos(y[2]);
        double vt = v * c2 / p[1];
        double g = p[3] + p[4] * exp(-(vt / p[5]) * (vt / p[5]));
        *qdot = vt - p[2] * fabs(vt) * y[2] / g; /* P30 */
        return p[2] * p[0] * y[2] * c2 / p[1];
    }
    case PF_REF_SAWTOOTH:
        return saw(p, y[0], k->dir); /* P29 in the current slip direction */
    default:
        return bristle_force(k, y[0]);
    }
}

static int rhs(double t, const double y[], double f[], void *params)
{
    const RefCtx *k = params;
    double qd;
    double F = law_force(k, t, y, &qd);
    f[0] = y[1];
    f[1] = (k->c->K * (k->c->v_p * t - y[0]) + k->c->c * (k->c->v_p - y[1]) - F) / k->c->m;
    f[2] = qd;
    return GSL_SUCCESS;
}

static int jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
    /* Central differences: the Jacobian only feeds the Newton iteration of the implicit
     * stepper; accuracy is controlled by the error estimate. */
    double f0[3], f1[3], yy[3];
    for (int j = 0; j < 3; ++j) {
        double h = 1e-7 * fmax(1e-3, fabs(y[j]));
        memcpy(yy, y, sizeof yy);
        yy[j] = y[j] + h;
        rhs(t, yy, f1, params);
        yy[j] = y[j] - h;
        rhs(t, yy, f0, params);
        for (int i = 0; i < 3; ++i)
            dfdy[i * 3 + j] = (f1[i] - f0[i]) / (2.0 * h);
    }
    rhs(t + 1e-7, y, f1, params);
    rhs(t - 1e-7, y, f0, params);
    for (int i = 0; i < 3; ++i)
        dfdt[i] = (f1[i] - f0[i]) / 2e-7;
    return GSL_SUCCESS;
}

typedef struct Ext {
    double *t, *s;
    int *is_max;
    long n, cap;
} Ext;

static void ext_push(Ext *e, double t, double s, int is_max)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 256;
        e->t = realloc(e->t, (size_t)e->cap * sizeof *e->t);
        e->s = realloc(e->s, (size_t)e->cap * sizeof *e->s);
        e->is_max = realloc(e->is_max, (size_t)e->cap * sizeof *e->is_max);
    }
    e->t[e->n] = t;
    e->s[e->n] = s;
    e->is_max[e->n] = is_max;
    e->n++;
}

/* Integrate from (t, y) over h with a fresh driver; returns 0 on success. */
static int advance(gsl_odeiv2_system *sys, const gsl_odeiv2_step_type *T, double t, double h,
                   double y[3])
{
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(sys, T, fmin(h, 1e-5), 1e-10, 1e-10);
    double tt = t;
    int st = gsl_odeiv2_driver_apply(d, &tt, t + h, y);
    gsl_odeiv2_driver_free(d);
    return st;
}

int pf_ref_pull_cycle(const pfRefPull *cfg, double t_end, double t_from, pfRefCycle *out)
{
    RefCtx k = {cfg, 1, 0.0, 0.0};
    if (cfg->law == PF_REF_BRISTLE) { /* at rest with nothing engaged, as the plugin starts */
        k.rr = cfg->x0 + 0.5 * cfg->p[3];
        k.ll = cfg->x0 - 0.5 * cfg->p[3];
    }
    gsl_odeiv2_system sys = {rhs, jac, 3, &k};
    const gsl_odeiv2_step_type *T = (cfg->law == PF_REF_LUGRE || cfg->law == PF_REF_HYBRID)
                                        ? gsl_odeiv2_step_msbdf
                                        : gsl_odeiv2_step_rk8pd;
    /* macro step: the resolution of the extrema (the bristle releases are located exactly) */
    const double H = cfg->law == PF_REF_BRISTLE ? 5e-3 : 1e-3;
    double t = 0.0, y[3] = {cfg->x0, cfg->v0, 0.0};
    double v_min = HUGE_VAL;
    long releases = 0;
    int stick = cfg->law == PF_REF_SAWTOOTH; /* the sawtooth starts stuck at rest */
    double rel_prev = -cfg->v_p;
    Ext e = {0};
    int status = 0;
    gsl_odeiv2_driver *dm = gsl_odeiv2_driver_alloc_y_new(&sys, T, 1e-6, 1e-10, 1e-10);
    while (t < t_end && status == 0) {
        double y0[3] = {y[0], y[1], y[2]}, h = fmin(H, t_end - t);
        if (stick) {
            /* x fixed, spring force K (v_p t - x) grows; breakaway when it exceeds the static
             * bound of P29 in +x (rig b only loads in +x while stuck). */
            double fs = saw(cfg->p, y[0], 1.0);
            double tb = (fs / cfg->K + y[0]) / cfg->v_p;
            if (tb > t + H) {
                t += H;
            } else {
                t = fmax(t, tb);
                stick = 0;
                k.dir = 1;
            }
        } else {
            double tt = t;
            status = gsl_odeiv2_driver_apply(dm, &tt, t + h, y);
            if (cfg->law == PF_REF_SAWTOOTH && sgn(y[1]) != (double)k.dir) {
                /* locate v = 0 by bisection on the step length */
                double a = 0.0, b = H;
                for (int it = 0; it < 50; ++it) {
                    double m = 0.5 * (a + b), yy[3] = {y0[0], y0[1], y0[2]};
                    advance(&sys, T, t, m, yy);
                    if (sgn(yy[1]) == (double)k.dir)
                        a = m;
                    else
                        b = m;
                }
                h = b;
                memcpy(y, y0, sizeof y);
                advance(&sys, T, t, h, y);
                y[1] = 0.0;
                gsl_odeiv2_driver_reset(dm);
                double fsp = cfg->K * (cfg->v_p * (t + h) - y[0]);
                double up = saw(cfg->p, y[0], 1.0), dn = -saw(cfg->p, y[0], -1.0);
                if (fsp <= up && fsp >= -dn)
                    stick = 1;
                else
                    k.dir = fsp > 0.0 ? 1 : -1;
            }
            if (cfg->law == PF_REF_BRISTLE && bristle_event(&k, y[0]) >= 0.0) {
                /* a release inside the step: bisect on the step length for the event time */
                double a = 0.0, b = h;
                for (int it = 0; it < 60 && b - a > 1e-14; ++it) {
                    double m = 0.5 * (a + b), yy[3] = {y0[0], y0[1], y0[2]};
                    advance(&sys, T, t, m, yy);
                    if (bristle_event(&k, yy[0]) >= 0.0)
                        b = m;
                    else
                        a = m;
                }
                h = b;
                memcpy(y, y0, sizeof y);
                advance(&sys, T, t, h, y);
                gsl_odeiv2_driver_reset(dm);
            }
            if (cfg->law == PF_REF_BRISTLE) releases += bristle_update(&k, y[0]);
            t += h;
        }
        double rel = y[1] - cfg->v_p;
        if ((rel > 0.0) != (rel_prev > 0.0)) ext_push(&e, t, cfg->v_p * t - y[0], rel > 0.0);
        if (t >= t_from) v_min = fmin(v_min, y[1]);
        rel_prev = rel;
    }
    gsl_odeiv2_driver_free(dm);
    memset(out, 0, sizeof *out);
    out->v_min = v_min;
    out->x_end = y[0];
    out->v_end = y[1];
    out->releases = releases;
    if (status == 0) {
        double smin = HUGE_VAL, smax = -HUGE_VAL;
        for (long i = 0; i < e.n; ++i)
            if (e.t[i] >= t_from) {
                smin = fmin(smin, e.s[i]);
                smax = fmax(smax, e.s[i]);
            }
        double hi = smin + 0.75 * (smax - smin), lo = smin + 0.25 * (smax - smin);
        int armed = 0, n = 0;
        double first = 0.0, last = 0.0, smx = 0.0, smn = 0.0, cur = HUGE_VAL;
        int nmn = 0;
        for (long i = 0; i < e.n; ++i) {
            if (e.t[i] < t_from) continue;
            if (!e.is_max[i] && e.s[i] < lo) {
                armed = 1;
                cur = fmin(cur, e.s[i]);
            }
            if (e.is_max[i] && e.s[i] > hi && armed) {
                armed = 0;
                if (n == 0)
                    first = e.t[i];
                else {
                    smn += cur;
                    nmn++;
                }
                last = e.t[i];
                smx += e.s[i];
                n++;
                cur = HUGE_VAL;
            }
        }
        if (n >= 2) {
            out->cycles = n - 1;
            out->period = (last - first) / (n - 1);
            out->amplitude = 0.5 * (smx / n - smn / nmn);
        }
    }
    free(e.t);
    free(e.s);
    free(e.is_max);
    return status;
}
