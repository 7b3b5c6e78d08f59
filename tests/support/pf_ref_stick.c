/* Independent stick test of a planar body (see pf_ref_stick.h), derived from the definitions of
 * docs/physics.md §2 with no code of the plugin.
 *
 * Loads F = (fx, fy) through the mass centre G and m_g about G; patch frame, origin at the patch
 * centre c; pressure p = N / A; ^ is the planar cross product, z the normal.
 *
 * CA criterion (P10-P13). Without this patch's friction the body at rest accelerates with
 * a_G = F / m and alpha = m_g / J; its acceleration field a(r) = a_G + alpha z x (r - G) vanishes
 * at CA = G + z x a_G / alpha = G + (-a_Gy, a_Gx) / alpha                                (P10)
 * about which the body would start to turn in the sense of alpha. The loads' moment about CA is
 *     M_CA = m_g + (G - CA) ^ F = m_g - (z x a_G) ^ F / alpha = m_g + |F|^2 / (m alpha),
 * of alpha's sign, and static friction resists a rotation about CA with at most
 *     M_max(CA) = mu_s p integral |r - CA| dA                                            (P11)
 * (every element's friction perpendicular to its radius from CA). Stick iff |M_CA| <= M_max(CA)
 * (P12). Loads scaled by s leave a_G / alpha, hence CA, unchanged and scale M_CA: the factor is
 * h = M_max(CA) / |M_CA|. With alpha = 0 the tendency is a translation: h = mu_s N / |F| (P13).
 *
 * Limit-surface criterion. The holding wrench (the friction that keeps the body at rest, about c)
 * is w* = -L with L = (F, M_c), M_c = m_g + G ^ F. The static limit set C (every wrench of a
 * friction field with |dF| <= mu_s p dA) is convex and closed, and its support function is
 *     max over f in C of -xi.f = mu_s p integral |u_xi(r)| dA = D(xi)     (u_xi of P1),
 * so w* lies in C iff xi.L <= D(xi) for every twist xi (separating hyperplane). D is convex and
 * positively homogeneous of degree 1, so the factor is
 *     h = min D(xi)  subject to  xi.L = 1,
 * a convex problem in two unknowns. Differentiating |u_xi| under the integral gives
 * grad D(xi) = -W(xi), W the static friction wrench of P3/P4 (mu_s) at xi, and Euler's relation
 * gives D(xi) = -xi.W(xi): one cubature yields both. At the minimiser xi*, -W(xi*) = h L: the ray
 * of the holding wrench meets the limit surface at W(xi*) = h w*, and xi* (its normal) is the
 * incipient motion (maximum dissipation). For a rotation about a point P, xi = w (P_y, -P_x, 1),
 * xi.L = w M_L(P) (the loads' moment about P) and D = |w| M_max(P): h is the least of
 * mu_s N / |F| and M_max(P) / |M_L(P)| over all P, and the CA test is that ratio at P = CA, so
 * h_limit <= h_CA. A pure force through the centre of a centrally symmetric patch (M_c = 0):
 * D(xi) >= |mu_s p integral u dA| = mu_s N |v| (the pressure centroid is c) and xi.L = v.F <=
 * |v| |F|, so h = mu_s N / |F|, reached by the translation along F; that case is taken directly.
 *
 * Numerics. Coordinates eta = (vx, vy, w rho) and Lt = (fx, fy, M_c / rho) make eta.Lt = xi.L
 * and put forces and moments on one scale (rho the polar radius of gyration). With n = Lt / |Lt|
 * and e1, e2 orthonormal to n the plane is eta = n + a e1 + b e2; f(a, b) = D(eta) / (mu_s N) is
 * minimised by GSL's vector_bfgs2 with the gradient -(Wx, Wy, Wz / rho).e_i, from the CA twist's
 * point of the plane (restarted where its line search stalls), until |grad f| < 1e-7; then
 * h = f* mu_s N / |Lt|. f is then within |grad f|^2 / (2 lambda) of its minimum (lambda the
 * curvature on the plane, of order 1): ~1e-14, while f itself is known to rounding only, which is
 * why a tighter gradient test cannot be met (near the minimum the line search sees no decrease).
 *
 * Verdict only (pf_ref_stick_verdict). Rigorous bounds decide most loads without a cubature.
 * M_max(P) = mu_s p integral |r - P| dA is convex in P and, for a centrally symmetric patch,
 * even, so it is least at the centre, M_0 = M_max(0) (the torsional capacity, in closed form
 * below); and mu_s N |P| <= M_max(P) <= mu_s N |P| + M_0 (Jensen; the triangle inequality).
 * CA: sticks if |M_CA| <= max(mu_s N |CA|, M_0), slips if |M_CA| > mu_s N |CA| + M_0. Limit:
 * the set contains (+-mu_s N e, 0) and (0, 0, +-M_0), so by convexity it sticks if
 * |F| / (mu_s N) + |M_c| / M_0 <= 1; it slips if |F| > mu_s N or |M_c| > M_0 (a translation or
 * the spin about c already breaks away) or if CA slips (h_limit <= h_CA). In between the full
 * test decides. */
#include "pf_ref_stick.h"

#include "pf_ref_disk.h"

#include <cubature.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <math.h>
#include <string.h>

#define STICK_PI 3.14159265358979323846
#define STICK_TOL 1e-13     /* cubature accuracy, relative to mu_s N (and mu_s N size) */
#define STICK_REL 1e-12     /* relative accuracy asked of the rectangle's cubatures */
#define STICK_GRAD_TOL 1e-7 /* |grad f| at the limit-surface minimum, f = D / (mu_s N) */
#define STICK_MAX_ITER 500

int pf_ref_stick_criterion_parse(const char *name, pfRefStickCriterion *out)
{
    if (!name) return -1;
    if (!strcmp(name, "ca")) {
        *out = PF_REF_STICK_CA;
        return 0;
    }
    if (!strcmp(name, "limit")) {
        *out = PF_REF_STICK_LIMIT;
        return 0;
    }
    return -1;
}

/* M_0 = M_max(0): (2/3) mu_s N R for the disk (P9); for the rectangle [-a, a] x [-b, b] the mean
 * distance from the centre is 4/(4ab) times integral over [0, a] x [0, b] of |r|, whose
 * antiderivative K of P7 gives (2abd + a^3 asinh(b/a) + b^3 asinh(a/b)) / (6ab), d = |(a, b)|. */
static double torsional_capacity(const pfRefStickPatch *p)
{
    const double k = p->mu_s * p->normal;
    if (p->disk) return 2.0 / 3.0 * k * p->radius;
    const double a = 0.5 * p->length, b = 0.5 * p->width, d = hypot(a, b);
    return k * (2.0 * a * b * d + a * a * a * asinh(b / a) + b * b * b * asinh(a / b)) /
           (6.0 * a * b);
}

static double patch_rho(const pfRefStickPatch *p)
{
    if (p->disk) return p->radius / sqrt(2.0);
    return sqrt((p->length * p->length + p->width * p->width) / 12.0);
}

/* ---- rectangle integrals -------------------------------------------------------------------
 * About a point c (the P11 point, or the centre of rotation of P5) the rectangle is the signed sum
 * of the triangles (c, A, B) over its counter-clockwise edges A -> B (the winding number is 1
 * inside, 0 outside, for any c). With r = c + s e(u), e(u) = (1 - u)(A - c) + u (B - c),
 * dA = s j ds du (j = (A - c) ^ (B - c), signed), the integrands depend on s as powers, which
 * integrate in closed form, leaving smooth integrals over u in [0, 1]:
 *     integral |r - c| dA = j/3 integral |e| du,
 *     friction (direction d(u) = -sgn(w) z x e/|e|, per unit mu p):
 *         F = j/2 integral d du,   Mz = j integral (c ^ d / 2 + e ^ d / 3) du,  e ^ d = -sgn(w)|e|.
 * A point beyond twice the half-diagonal would make the triangles long slivers that cancel: there
 * the plain two-dimensional cubature over the rectangle is used (its integrand is smooth, the
 * kink lying outside). */

typedef struct RectQ {
    double cx, cy, ax, ay, bx, by; /* apex and edge ends relative to it */
    double sw;                     /* sgn(w) (wrench) */
    double vx, vy, w;              /* twist (plain form) */
    double hl, hw;                 /* half length, half width (plain form) */
} RectQ;

static int fan_distance(unsigned ndim, const double *u, void *data, unsigned fdim, double *f)
{
    (void)ndim;
    (void)fdim;
    const RectQ *q = data;
    f[0] = hypot((1.0 - u[0]) * q->ax + u[0] * q->bx, (1.0 - u[0]) * q->ay + u[0] * q->by);
    return 0;
}

static int fan_wrench(unsigned ndim, const double *u, void *data, unsigned fdim, double *f)
{
    (void)ndim;
    (void)fdim;
    const RectQ *q = data;
    const double ex = (1.0 - u[0]) * q->ax + u[0] * q->bx, ey = (1.0 - u[0]) * q->ay + u[0] * q->by;
    const double em = hypot(ex, ey);
    if (em == 0.0) {
        f[0] = f[1] = f[2] = 0.0;
        return 0;
    }
    const double dx = q->sw * ey / em, dy = -q->sw * ex / em; /* -sgn(w) z x e / |e| */
    f[0] = 0.5 * dx;
    f[1] = 0.5 * dy;
    f[2] = 0.5 * (q->cx * dy - q->cy * dx) - q->sw * em / 3.0;
    return 0;
}

/* plain forms over [-hl, hl] x [-hw, hw] (the kink outside) */
static int plain_distance(unsigned ndim, const double *x, void *data, unsigned fdim, double *f)
{
    (void)ndim;
    (void)fdim;
    const RectQ *q = data;
    f[0] = hypot(x[0] - q->cx, x[1] - q->cy);
    return 0;
}

static int plain_wrench(unsigned ndim, const double *x, void *data, unsigned fdim, double *f)
{
    (void)ndim;
    (void)fdim;
    const RectQ *q = data;
    const double ux = q->vx - q->w * x[1], uy = q->vy + q->w * x[0], um = hypot(ux, uy);
    f[0] = -ux / um;
    f[1] = -uy / um;
    f[2] = -(x[0] * uy - x[1] * ux) / um;
    return 0;
}

/* integral over the rectangle of |r - c| (want 1) or of the friction per unit mu p (want 3),
 * about the apex (cx, cy); tol relative to area (times size for lengths). */
static int rect_integral(const pfRefStickPatch *p, double cx, double cy, double sw,
                         const double tw[3], unsigned want, double out[3])
{
    const double a = 0.5 * p->length, b = 0.5 * p->width, size = hypot(a, b);
    const double area = 4.0 * a * b, tol = STICK_TOL * area * size;
    RectQ q = {cx, cy, 0, 0, 0, 0, sw, tw[0], tw[1], tw[2], a, b};
    double val[3], err[3];
    for (unsigned k = 0; k < 3; ++k)
        out[k] = 0.0;
    if (hypot(cx, cy) > 2.0 * size) {
        const double lo[2] = {-a, -b}, hi[2] = {a, b};
        if (hcubature(want, want == 1 ? plain_distance : plain_wrench, &q, 2, lo, hi, 20000000, tol,
                      STICK_REL, ERROR_INDIVIDUAL, val, err))
            return -1;
        for (unsigned k = 0; k < want; ++k)
            out[k] = val[k];
        return 0;
    }
    const double vx[4] = {-a, a, a, -a}, vy[4] = {-b, -b, b, b};
    const double lo[1] = {0.0}, hi[1] = {1.0};
    for (int i = 0; i < 4; ++i) {
        const int j = (i + 1) % 4;
        q.ax = vx[i] - cx, q.ay = vy[i] - cy, q.bx = vx[j] - cx, q.by = vy[j] - cy;
        const double jac = q.ax * q.by - q.ay * q.bx;
        if (jac == 0.0) continue; /* the apex on this edge's line: an empty triangle */
        if (hcubature(want, want == 1 ? fan_distance : fan_wrench, &q, 1, lo, hi, 20000000,
                      tol / fabs(jac), STICK_REL, ERROR_INDIVIDUAL, val, err))
            return -1;
        if (want == 1) {
            out[0] += jac / 3.0 * val[0];
        } else {
            for (unsigned k = 0; k < 3; ++k)
                out[k] += jac * val[k];
        }
    }
    return 0;
}

double pf_ref_stick_max_moment(const pfRefStickPatch *p, double x, double y)
{
    if (p->disk) {
        const double a = p->radius;
        return p->mu_s * p->normal * a *
               pf_ref_disk_distance(PF_REF_UNIFORM, x / a, y / a, STICK_TOL);
    }
    double m[3];
    const double none[3] = {0.0, 0.0, 0.0};
    if (rect_integral(p, x, y, 0.0, none, 1, m)) return NAN;
    return p->mu_s * p->normal / (p->length * p->width) * m[0];
}

int pf_ref_stick_wrench(const pfRefStickPatch *p, double vx, double vy, double w, double out[3])
{
    const double k = p->mu_s * p->normal;
    out[0] = out[1] = out[2] = 0.0;
    if (vx == 0.0 && vy == 0.0 && w == 0.0) return 0;
    if (p->disk) {
        const double a = p->radius;
        /* pf_ref_disk_p15 maps polar about the centre of rotation (P5); a nearly pure translation
         * puts it far away, where the plain polar map about the centre converges faster */
        if (fabs(w) * a * 2.0 < hypot(vx, vy)) {
            const double tw[3] = {vx / a, vy / a, w}, lo[2] = {0.0, 0.0},
                         hi[2] = {1.0, 2 * STICK_PI};
            double val[3], err[3];
            if (hcubature(3, pf_ref_disk_polar_integrand, (void *)tw, 2, lo, hi, 20000000,
                          STICK_TOL, 0.0, ERROR_INDIVIDUAL, val, err))
                return -1;
            out[0] = k * val[0];
            out[1] = k * val[1];
            out[2] = k * a * val[2];
            return 0;
        }
        pfRefDisk d = pf_ref_disk_p15(PF_REF_UNIFORM, vx / a, vy / a, w, 0.0, 0.0, 0.0, STICK_TOL);
        if (d.status) return -1;
        out[0] = -k * d.tx; /* P15: F = -mu N T, Mz = -mu N a M_s */
        out[1] = -k * d.ty;
        out[2] = -k * a * d.ms;
        return 0;
    }
    /* the centre of rotation (P5); a translation (w = 0) has it at infinity */
    const double tw[3] = {vx, vy, w};
    const double cx = w != 0.0 ? -vy / w : INFINITY, cy = w != 0.0 ? vx / w : INFINITY;
    double v[3];
    if (rect_integral(p, cx, cy, w > 0.0 ? 1.0 : -1.0, tw, 3, v)) return -1;
    const double kp = k / (p->length * p->width);
    for (int i = 0; i < 3; ++i)
        out[i] = kp * v[i];
    return 0;
}

/* Fill the unit twist, its centre and the translation flag from eta = (vx, vy, w rho). */
static void set_twist(pfRefStickResult *r, const double eta[3])
{
    const double n = sqrt(eta[0] * eta[0] + eta[1] * eta[1] + eta[2] * eta[2]);
    r->twist[0] = eta[0] / n;
    r->twist[1] = eta[1] / n;
    r->twist[2] = eta[2] / n / r->rho;
    /* a centre beyond 1e15 radii of gyration is a translation to double precision */
    r->translation = fabs(eta[2]) <= 1e-15 * hypot(eta[0], eta[1]);
    r->cx = r->cy = 0.0;
    if (!r->translation) {
        r->cx = -r->twist[1] / r->twist[2]; /* P5 */
        r->cy = r->twist[0] / r->twist[2];
    }
}

/* ---- limit surface: min D(eta) on the plane eta.n = 1 ------------------------------------ */

typedef struct Lim {
    const pfRefStickPatch *p;
    double rho, n[3], e1[3], e2[3];
    double W[3]; /* last wrench (rho-scaled moment) */
    int evals, failed;
} Lim;

static void lim_eta(const Lim *L, const gsl_vector *x, double eta[3])
{
    const double a = gsl_vector_get(x, 0), b = gsl_vector_get(x, 1);
    for (int i = 0; i < 3; ++i)
        eta[i] = L->n[i] + a * L->e1[i] + b * L->e2[i];
}

/* f = D(eta) / (mu_s N) = -eta.W / (mu_s N), grad_eta f = -W / (mu_s N). */
static void lim_eval(Lim *L, const gsl_vector *x, double *f, gsl_vector *g)
{
    double eta[3], W[3];
    lim_eta(L, x, eta);
    L->evals++;
    if (pf_ref_stick_wrench(L->p, eta[0], eta[1], eta[2] / L->rho, W)) {
        L->failed = 1;
        W[0] = W[1] = W[2] = 0.0;
    }
    const double k = L->p->mu_s * L->p->normal;
    W[0] /= k;
    W[1] /= k;
    W[2] /= k * L->rho;
    memcpy(L->W, W, sizeof W);
    if (f) *f = -(eta[0] * W[0] + eta[1] * W[1] + eta[2] * W[2]);
    if (g) {
        gsl_vector_set(g, 0, -(W[0] * L->e1[0] + W[1] * L->e1[1] + W[2] * L->e1[2]));
        gsl_vector_set(g, 1, -(W[0] * L->e2[0] + W[1] * L->e2[1] + W[2] * L->e2[2]));
    }
}

static double lim_f(const gsl_vector *x, void *par)
{
    double f;
    lim_eval(par, x, &f, NULL);
    return f;
}

static void lim_df(const gsl_vector *x, void *par, gsl_vector *g)
{
    lim_eval(par, x, NULL, g);
}

static void lim_fdf(const gsl_vector *x, void *par, double *f, gsl_vector *g)
{
    lim_eval(par, x, f, g);
}

/* Orthonormal e1, e2 completing the unit vector n. */
static void complete_basis(const double n[3], double e1[3], double e2[3])
{
    int k = 0; /* the axis least aligned with n */
    for (int i = 1; i < 3; ++i)
        if (fabs(n[i]) < fabs(n[k])) k = i;
    double t[3] = {0, 0, 0};
    t[k] = 1.0;
    const double d = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
    for (int i = 0; i < 3; ++i)
        e1[i] = t[i] - d * n[i];
    const double m = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int i = 0; i < 3; ++i)
        e1[i] /= m;
    e2[0] = n[1] * e1[2] - n[2] * e1[1];
    e2[1] = n[2] * e1[0] - n[0] * e1[2];
    e2[2] = n[0] * e1[1] - n[1] * e1[0];
}

/* Limit-surface factor for the rho-scaled load Lt (nonzero), from the start eta0 (eta0.Lt > 0). */
static int limit_test(const pfRefStickPatch *p, double rho, const double Lt[3],
                      const double eta0[3], pfRefStickResult *r)
{
    Lim L;
    memset(&L, 0, sizeof L);
    L.p = p;
    L.rho = rho;
    const double lm = sqrt(Lt[0] * Lt[0] + Lt[1] * Lt[1] + Lt[2] * Lt[2]);
    for (int i = 0; i < 3; ++i)
        L.n[i] = Lt[i] / lm;
    complete_basis(L.n, L.e1, L.e2);
    /* the start on the plane eta.n = 1: eta0 / (eta0.n) */
    const double s = eta0[0] * L.n[0] + eta0[1] * L.n[1] + eta0[2] * L.n[2];
    double a0 = 0.0, b0 = 0.0;
    for (int i = 0; i < 3; ++i) {
        a0 += eta0[i] / s * L.e1[i];
        b0 += eta0[i] / s * L.e2[i];
    }
    gsl_multimin_function_fdf fn = {lim_f, lim_df, lim_fdf, 2, &L};
    gsl_vector *x = gsl_vector_alloc(2);
    gsl_vector_set(x, 0, a0);
    gsl_vector_set(x, 1, b0);
    gsl_multimin_fdfminimizer *m =
        gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, 2);
    gsl_multimin_fdfminimizer_set(m, &fn, x, 0.1, 0.1);
    int status = GSL_CONTINUE, it = 0, restarts = 0;
    double step = 0.1;
    while (status == GSL_CONTINUE && it++ < STICK_MAX_ITER && !L.failed) {
        if (gsl_multimin_fdfminimizer_iterate(m)) {
            /* the line search made no progress: restart from here (forgetting the curvature
             * estimate) with a step of the size the gradient suggests */
            if (++restarts > 20) break;
            gsl_vector_memcpy(x, m->x);
            step = fmin(step, 10.0 * gsl_blas_dnrm2(m->gradient));
            gsl_multimin_fdfminimizer_set(m, &fn, x, step, 0.1);
        }
        status = gsl_multimin_test_gradient(m->gradient, STICK_GRAD_TOL);
    }
    /* The result at the minimiser's point, evaluated afresh (the last evaluation may have been a
     * line-search trial). */
    double eta[3], f;
    gsl_vector *g = gsl_vector_alloc(2);
    lim_eta(&L, m->x, eta);
    lim_eval(&L, m->x, &f, g);
    const double gn = hypot(gsl_vector_get(g, 0), gsl_vector_get(g, 1));
    gsl_vector_free(g);
    gsl_multimin_fdfminimizer_free(m);
    gsl_vector_free(x);
    r->evaluations += L.evals;
    if (L.failed || !(gn < STICK_GRAD_TOL)) return -1;
    r->factor = f * p->mu_s * p->normal / lm;
    /* optimality: -W(eta*) = f n (per unit mu_s N) */
    double res = 0.0;
    for (int i = 0; i < 3; ++i)
        res += (L.W[i] + f * L.n[i]) * (L.W[i] + f * L.n[i]);
    r->residual = sqrt(res) / f;
    set_twist(r, eta);
    return 0;
}

static int bad_args(const pfRefStickPatch *p, const pfRefStickBody *b, double fx, double fy,
                    double m_g)
{
    if (!p || !b) return 1;
    if (p->disk ? !(p->radius > 0.0) : !(p->length > 0.0 && p->width > 0.0)) return 1;
    if (!(p->mu_s >= 0.0) || !(p->normal >= 0.0) || !(b->mass > 0.0) || !(b->inertia > 0.0))
        return 1;
    if (!isfinite(p->mu_s * p->normal)) return 1;
    return !isfinite(fx) || !isfinite(fy) || !isfinite(m_g) || !isfinite(b->gx) || !isfinite(b->gy);
}

int pf_ref_stick_bounds(const pfRefStickPatch *p, const pfRefStickBody *b, double fx, double fy,
                        double m_g, pfRefStickCriterion criterion)
{
    if (bad_args(p, b, fx, fy, m_g)) return -2;
    const double cap = p->mu_s * p->normal, m0 = torsional_capacity(p), fm = hypot(fx, fy);
    const double m_c = m_g + b->gx * fy - b->gy * fx, alpha = m_g / b->inertia;
    const double margin = 1e-12; /* keeps the bounds' own rounding out of the verdict */
    if (cap > 0.0 && alpha != 0.0) {
        /* CA (P10) and the loads' moment about it */
        const double cx = b->gx - (fy / b->mass) / alpha, cy = b->gy + (fx / b->mass) / alpha;
        const double m_ca = fabs(m_g) + fm * fm / (b->mass * fabs(alpha)), d = hypot(cx, cy);
        if (m_ca > (cap * d + m0) * (1.0 + margin)) return 0; /* CA slips; h_limit <= h_CA */
        if (criterion == PF_REF_STICK_CA && m_ca <= fmax(cap * d, m0) * (1.0 - margin)) return 1;
    }
    if (cap > 0.0 && criterion == PF_REF_STICK_LIMIT) {
        if (fm > cap * (1.0 + margin) || fabs(m_c) > m0 * (1.0 + margin)) return 0;
        if (fm / cap + fabs(m_c) / m0 <= 1.0 - margin) return 1;
    }
    return -1;
}

int pf_ref_stick_verdict(const pfRefStickPatch *p, const pfRefStickBody *b, double fx, double fy,
                         double m_g, pfRefStickCriterion criterion, int *sticks)
{
    if (!sticks) return -1;
    int v = pf_ref_stick_bounds(p, b, fx, fy, m_g, criterion);
    if (v == -2) return -1;
    if (v >= 0) {
        *sticks = v;
        return 0;
    }
    pfRefStickResult r;
    if (pf_ref_stick(p, b, fx, fy, m_g, criterion, &r)) return -1;
    *sticks = r.sticks;
    return 0;
}

int pf_ref_stick(const pfRefStickPatch *p, const pfRefStickBody *b, double fx, double fy,
                 double m_g, pfRefStickCriterion criterion, pfRefStickResult *out)
{
    if (!out) return -1;
    memset(out, 0, sizeof *out);
    if (bad_args(p, b, fx, fy, m_g)) return -1;
    out->rho = patch_rho(p);
    const double rho = out->rho, cap = p->mu_s * p->normal;
    if (fx == 0.0 && fy == 0.0 && m_g == 0.0) { /* nothing to resist */
        out->sticks = 1;
        out->factor = INFINITY;
        out->translation = 1;
        return 0;
    }
    /* CA twist: the patch centre's acceleration a_c = a_G + alpha z x (c - G) and alpha */
    const double alpha = m_g / b->inertia;
    const double eta_ca[3] = {fx / b->mass + alpha * b->gy, fy / b->mass - alpha * b->gx,
                              alpha * rho};
    const double fm = hypot(fx, fy), m_c = m_g + b->gx * fy - b->gy * fx;

    if (criterion == PF_REF_STICK_CA || cap == 0.0 || m_c == 0.0) {
        /* CA (P10-P13); with mu_s N = 0 every load breaks away along the CA twist; with M_c = 0
         * the limit factor is mu_s N / |F| along F (derivation above) */
        if (criterion == PF_REF_STICK_LIMIT && m_c == 0.0) {
            const double eta[3] = {fx, fy, 0.0};
            out->factor = cap / fm;
            set_twist(out, eta);
        } else if (alpha == 0.0) {
            out->factor = cap / fm; /* P13 */
            set_twist(out, eta_ca);
        } else {
            const double cx = b->gx - (fy / b->mass) / alpha, cy = b->gy + (fx / b->mass) / alpha;
            const double m_ca = fabs(m_g) + fm * fm / (b->mass * fabs(alpha));
            const double mmax = cap == 0.0 ? 0.0 : pf_ref_stick_max_moment(p, cx, cy);
            out->evaluations = cap == 0.0 ? 0 : 1;
            if (!isfinite(mmax)) return -1;
            out->factor = mmax / m_ca;
            set_twist(out, eta_ca);
            /* the centre as P10 gives it (set_twist recomputes it from the unit twist) */
            if (!out->translation) {
                out->cx = cx;
                out->cy = cy;
            }
        }
        out->sticks = out->factor >= 1.0;
        return 0;
    }
    const double Lt[3] = {fx, fy, m_c / rho};
    if (limit_test(p, rho, Lt, eta_ca, out)) return -1;
    out->sticks = out->factor >= 1.0;
    return 0;
}
