/* The implicit friction step of one patch, pf_patch_project (pf_core.h: xi = A (W(xi) - free),
 * wrench = W(xi); for the gradient models the A-metric projection of free onto the limit set).
 *
 * Independent references:
 *  - closed forms: pure translation of a centrally symmetric patch with A = diag(a, a, b) slips
 *    with |F| = mu N along the load and xi = a (mu N - F) (P8); pure spin of a uniform disk with
 *    |M| = (2/3) mu N R (P9); the regularised Hertz disk in translation solves the scalar
 *    equation x = a (-mu N x / sqrt(x^2 + (eps R)^2) - F) (P15 at w = 0), by bisection here;
 *  - general A: the dual min g(xi) = 1/2 xi.A^-1 xi + free.xi + D(xi) minimised with GSL's
 *    BFGS (gsl_multimin_fdfminimizer_vector_bfgs2), with D(xi) = -xi.W_ref(xi) and its gradient
 *    -W_ref(xi) from adaptive cubature of P3/P4 (pf_ref_wrench for rectangles and polygons,
 *    pf_ref_disk_p15 for the uniform disk), never from the core's wrench functions; the
 *    reference wrench is lambda_ref = free + A^-1 xi_ref;
 *  - maximum dissipation: -xi.W(xi') <= -xi.wrench for sampled twists xi' (wrench maximises
 *    the dissipated power over the model's wrench set), and the stick/slip verdict against
 *    pf_limit_set_test on the same free wrench.
 */
#include <check.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <patchfriction/pf_core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pf_ref_disk.h"
#include "pf_ref_quad.h"
#include "pf_test_support.h"

/* Named tolerances (relative to mu N for forces, mu N rho_g for moments). */
/* Closed forms: the solver stops at |G| <= 1e-12 |A free|; one Newton step from the exact
 * fixed-point start is already exact there, so only rounding remains. */
#define CLOSED_TOL 1e-12
/* Reference dual: BFGS stops at |grad g| <= REF_GRAD (scaled, = 1e-12 mu N); the cubature is
 * asked for 1e-13 mu N. The wrench error of the reference is then |A^-1 dxi| with
 * dxi = (A^-1 + H)^-1 dgrad, i.e. at most ~cond(A) (1e-12 + 1e-13) ~ 1e-10 for the condition
 * numbers below (<= 50 in the scaled metric): assert 1e-9. */
#define REF_GRAD 1e-12
#define REF_TOL 1e-9
/* Dissipation inequality: W is evaluated to ~1e-13 mu N; the products are O(|xi| mu N). */
#define DISSIPATION_SLACK 1e-11
/* Warm start: both runs meet |G| <= 1e-12 |A free|; for clear slips (|xi| ~ |A free|) the
 * wrench moves by at most ~1e-12 cond(A) mu N: 1e-10. */
#define WARM_TOL 1e-10
/* Regularised translation reference: bisection to 1e-15 relative. */
#define EPS_TOL 1e-11

static const double MU = 0.4, NF = 0.23; /* Kardan's block (docs/physics.md §6) */

static const pfTwist ZERO = {0.0, 0.0, 0.0};

/* Wrench difference in units of mu N (moments divided by rho_g). */
static double wrench_err(pfWrench a, pfWrench b, double rg)
{
    return fmax(fmax(fabs(a.fx - b.fx), fabs(a.fy - b.fy)), fabs(a.mz - b.mz) / rg) / (MU * NF);
}

/* Random SPD block: A = S^-1 B S^-1 with B = L L^T in the twist metric (S = diag(1, 1, rho_g)),
 * off-diagonal coupling, eigenvalues bounded so that cond(B) <= ~50 [m/s per N]. */
static void random_spd(pfTestRng *rng, double rg, double scale, double A[9])
{
    double L[3][3] = {{0}};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < i; ++j)
            L[i][j] = pf_test_range(rng, -0.6, 0.6);
        L[i][i] = pf_test_range(rng, 0.4, 1.2);
    }
    const double s[3] = {1.0, 1.0, 1.0 / rg};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double b = 0.0;
            for (int k = 0; k < 3; ++k)
                b += L[i][k] * L[j][k];
            A[3 * i + j] = scale * b * s[i] * s[j];
        }
    for (int i = 0; i < 3; ++i) /* exactly symmetric */
        for (int j = 0; j < i; ++j)
            A[3 * i + j] = A[3 * j + i];
}

static void mat_vec(const double A[9], const double x[3], double y[3])
{
    for (int i = 0; i < 3; ++i)
        y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
}

/* A^-1 by cofactors (the tests' own, not the core's Cholesky). */
static void inverse3(const double A[9], double inv[9])
{
    double c00 = A[4] * A[8] - A[5] * A[7], c01 = A[5] * A[6] - A[3] * A[8],
           c02 = A[3] * A[7] - A[4] * A[6];
    double det = A[0] * c00 + A[1] * c01 + A[2] * c02;
    inv[0] = c00 / det;
    inv[3] = c01 / det;
    inv[6] = c02 / det;
    inv[1] = (A[2] * A[7] - A[1] * A[8]) / det;
    inv[4] = (A[0] * A[8] - A[2] * A[6]) / det;
    inv[7] = (A[1] * A[6] - A[0] * A[7]) / det;
    inv[2] = (A[1] * A[5] - A[2] * A[4]) / det;
    inv[5] = (A[2] * A[3] - A[0] * A[5]) / det;
    inv[8] = (A[0] * A[4] - A[1] * A[3]) / det;
}

static pfProjectResult project(const pfPatchDef *d, const double A[9], pfWrench free,
                               const pfTwist *guess)
{
    pfProjectResult r;
    pfError e;
    int s = pf_patch_project(&(pfProjectInput){d, MU, NF, A, free, ZERO, guess}, &r, &e);
    ck_assert_msg(s == PF_OK, "pf_patch_project: %s", e.message);
    ck_assert_msg(isfinite(r.wrench.fx) && isfinite(r.wrench.fy) && isfinite(r.wrench.mz) &&
                      isfinite(r.velocity.vx) && isfinite(r.velocity.vy) &&
                      isfinite(r.velocity.w) && isfinite(r.residual),
                  "non-finite output");
    ck_assert_int_le(r.evaluations, PF_PROJECT_MAX_EVALS);
    return r;
}

/* ---- reference: the dual by BFGS over cubature --------------------------------------------- */

typedef struct ref_problem {
    const pfPatchDef *def;
    double rg;
    double A[9], Ainv[9];
    double free[3]; /* lambda* */
    int evals;
} ref_problem;

/* Reference kinetic wrench (P3/P4) by cubature. */
static pfWrench ref_wrench(const pfPatchDef *d, pfTwist t)
{
    pfWrench w = {0, 0, 0};
    if (t.vx == 0.0 && t.vy == 0.0 && t.w == 0.0) return w;
    if (d->shape == PF_PATCH_DISK) {
        double a = d->radius;
        pfRefDisk r =
            pf_ref_disk_p15(PF_REF_UNIFORM, t.vx / a, t.vy / a, t.w, 0.0, 0.0, 0.0, 1e-13);
        ck_assert_int_eq(r.status, 0);
        w.fx = -MU * NF * r.tx;
        w.fy = -MU * NF * r.ty;
        w.mz = -MU * NF * a * r.ms;
    } else {
        pfRefRegion reg = d->shape == PF_PATCH_RECT
                              ? pf_ref_rect_region(d->length, d->width)
                              : pf_ref_polygon_region(d->vertices, d->vertex_count);
        ck_assert_int_eq(pf_ref_wrench(&reg, MU, NF, t, &w), 0);
    }
    return w;
}

/* The optimiser works in z = (vx, vy, w rho_g) / V and g / (mu N V) (V = |A| mu N), so that
 * every quantity is O(1) and REF_GRAD is relative to mu N. */
static double ref_V(const ref_problem *p)
{
    return MU * NF * fmax(fmax(p->A[0], p->A[4]), p->A[8] * p->rg * p->rg);
}

static void ref_fdf(const gsl_vector *z, void *params, double *f, gsl_vector *df)
{
    ref_problem *p = params;
    double V = ref_V(p), mun = MU * NF;
    double xi[3] = {V * gsl_vector_get(z, 0), V * gsl_vector_get(z, 1),
                    V * gsl_vector_get(z, 2) / p->rg};
    pfTwist t = {xi[0], xi[1], xi[2]};
    pfWrench w = ref_wrench(p->def, t);
    p->evals++;
    double wv[3] = {w.fx, w.fy, w.mz}, ax[3];
    mat_vec(p->Ainv, xi, ax);
    double g = 0.0, grad[3];
    for (int k = 0; k < 3; ++k) {
        g += 0.5 * xi[k] * ax[k] + p->free[k] * xi[k] - xi[k] * wv[k];
        grad[k] = ax[k] + p->free[k] - wv[k]; /* dg/dxi, D's gradient -W */
    }
    if (f) *f = g / (mun * V);
    if (df) {
        gsl_vector_set(df, 0, grad[0] / mun);
        gsl_vector_set(df, 1, grad[1] / mun);
        gsl_vector_set(df, 2, grad[2] / (mun * p->rg));
    }
}

static double ref_f(const gsl_vector *z, void *params)
{
    double f;
    ref_fdf(z, params, &f, NULL);
    return f;
}

static void ref_df(const gsl_vector *z, void *params, gsl_vector *df)
{
    ref_fdf(z, params, NULL, df);
}

/* Minimise the dual from xi_f = -A free; returns the reference wrench free + A^-1 xi_ref and
 * the final scaled gradient norm. */
static pfWrench ref_project(ref_problem *p, double *gradnorm, pfTwist *xi_out)
{
    gsl_multimin_function_fdf fn = {ref_f, ref_df, ref_fdf, 3, p};
    const gsl_multimin_fdfminimizer_type *T = gsl_multimin_fdfminimizer_vector_bfgs2;
    gsl_multimin_fdfminimizer *m = gsl_multimin_fdfminimizer_alloc(T, 3);
    double V = ref_V(p), xf[3];
    mat_vec(p->A, p->free, xf);
    gsl_vector *z = gsl_vector_alloc(3);
    gsl_vector_set(z, 0, -xf[0] / V);
    gsl_vector_set(z, 1, -xf[1] / V);
    gsl_vector_set(z, 2, -xf[2] * p->rg / V);
    gsl_multimin_fdfminimizer_set(m, &fn, z, 0.05, 0.1);
    int status = GSL_CONTINUE;
    for (int it = 0; it < 500 && status == GSL_CONTINUE; ++it) {
        if (gsl_multimin_fdfminimizer_iterate(m)) break;
        status = gsl_multimin_test_gradient(m->gradient, REF_GRAD);
    }
    /* BFGS's line search works on g, whose changes fall below its rounding once |grad g| ~
     * sqrt(DBL_EPSILON): polish with Newton steps on grad g = 0 (Hessian by central
     * differences of the same cubature gradient, step 1e-6 |z|) */
    double zc[3] = {gsl_vector_get(m->x, 0), gsl_vector_get(m->x, 1), gsl_vector_get(m->x, 2)};
    gsl_vector *gv = gsl_vector_alloc(3), *zv = gsl_vector_alloc(3);
    for (int k = 0; k < 3; ++k)
        gsl_vector_set(zv, k, zc[k]);
    ref_df(zv, p, gv);
    for (int it = 0; it < 6 && gsl_blas_dnrm2(gv) > REF_GRAD; ++it) {
        double H[9], g0[3] = {gsl_vector_get(gv, 0), gsl_vector_get(gv, 1), gsl_vector_get(gv, 2)};
        double h = 1e-6 * sqrt(zc[0] * zc[0] + zc[1] * zc[1] + zc[2] * zc[2]);
        for (int j = 0; j < 3; ++j) {
            double gp[3], gm[3];
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                for (int k = 0; k < 3; ++k)
                    gsl_vector_set(zv, k, zc[k] + (k == j ? sgn * h : 0.0));
                ref_df(zv, p, gv);
                for (int k = 0; k < 3; ++k)
                    (sgn < 0 ? gm : gp)[k] = gsl_vector_get(gv, k);
            }
            for (int k = 0; k < 3; ++k)
                H[3 * k + j] = (gp[k] - gm[k]) / (2.0 * h);
        }
        double Hi[9], dz[3];
        inverse3(H, Hi);
        mat_vec(Hi, g0, dz);
        for (int k = 0; k < 3; ++k) {
            zc[k] -= dz[k];
            gsl_vector_set(zv, k, zc[k]);
        }
        ref_df(zv, p, gv);
    }
    *gradnorm = gsl_blas_dnrm2(gv);
    gsl_vector_free(gv);
    gsl_vector_free(zv);
    double xi[3] = {V * zc[0], V * zc[1], V * zc[2] / p->rg}, ax[3];
    mat_vec(p->Ainv, xi, ax);
    pfWrench w = {p->free[0] + ax[0], p->free[1] + ax[1], p->free[2] + ax[2]};
    xi_out->vx = xi[0];
    xi_out->vy = xi[1];
    xi_out->w = xi[2];
    gsl_multimin_fdfminimizer_free(m);
    gsl_vector_free(z);
    return w;
}

/* ---- tests -------------------------------------------------------------------------------- */

START_TEST(test_translation_closed_form)
{
    /* A = diag(a, a, b): a free force F along x slips with fx = mu N, vx = a (mu N - F) when
     * F > mu N (P8), sticks with wrench == free when F <= mu N; any direction in the plane. */
    pfPatchDef defs[3] = {pf_test_rect(0.03, 0.01), pf_test_disk(PF_PATCH_DISK, 0.005),
                          pf_test_disk(PF_PATCH_HERTZ_DISK, 0.004)};
    const double a = 2.5, b = 4e4, mun = MU * NF;
    const double A[9] = {a, 0, 0, 0, a, 0, 0, 0, b};
    const double factors[6] = {0.3, 0.99, 1.01, 1.5, 3.0, 100.0};
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 4; ++j) {
                double F = factors[i] * mun, ang = j * 0.7;
                pfWrench free = {F * cos(ang), F * sin(ang), 0.0};
                pfProjectResult r = project(&defs[k], A, free, NULL);
                if (factors[i] < 1.0) {
                    ck_assert_int_eq(r.sticks, 1);
                    ck_assert(r.wrench.fx == free.fx && r.wrench.fy == free.fy &&
                              r.wrench.mz == free.mz);
                    ck_assert(r.velocity.vx == 0.0 && r.velocity.vy == 0.0 && r.velocity.w == 0.0);
                    continue;
                }
                ck_assert_int_eq(r.sticks, 0);
                ck_assert_int_eq(r.converged, 1);
                double ex = mun * cos(ang), ey = mun * sin(ang), v = a * (mun - F);
                ck_assert_double_eq_tol(r.wrench.fx, ex, CLOSED_TOL * mun);
                ck_assert_double_eq_tol(r.wrench.fy, ey, CLOSED_TOL * mun);
                ck_assert_double_eq_tol(r.wrench.mz, 0.0, CLOSED_TOL * mun * 0.01);
                ck_assert_double_eq_tol(r.velocity.vx, v * cos(ang), CLOSED_TOL * a * F);
                ck_assert_double_eq_tol(r.velocity.vy, v * sin(ang), CLOSED_TOL * a * F);
                ck_assert_double_eq_tol(r.velocity.w, 0.0, CLOSED_TOL * a * F / 0.01);
            }
}
END_TEST

START_TEST(test_spin_closed_form)
{
    /* uniform disk, pure free moment M*: slips iff |M*| > (2/3) mu N R (P9), then
     * mz = (2/3) mu N R sgn(M*) and w = b (mz - M*) */
    const double R = 0.005, b = 3e4, mspin = 2.0 / 3.0 * MU * NF * R;
    pfPatchDef d = pf_test_disk(PF_PATCH_DISK, R);
    const double A[9] = {1.5, 0, 0, 0, 1.5, 0, 0, 0, b};
    const double factors[5] = {0.5, 0.999, 1.001, 2.0, 50.0};
    for (int i = 0; i < 5; ++i)
        for (int sg = -1; sg <= 1; sg += 2) {
            pfWrench free = {0.0, 0.0, sg * factors[i] * mspin};
            pfProjectResult r = project(&d, A, free, NULL);
            ck_assert_int_eq(r.sticks, factors[i] < 1.0);
            if (r.sticks) continue;
            ck_assert_double_eq_tol(r.wrench.mz, sg * mspin, CLOSED_TOL * mspin);
            ck_assert_double_eq_tol(r.wrench.fx, 0.0, CLOSED_TOL * MU * NF);
            ck_assert_double_eq_tol(r.wrench.fy, 0.0, CLOSED_TOL * MU * NF);
            ck_assert_double_eq_tol(r.velocity.w, b * (sg * mspin - free.mz),
                                    CLOSED_TOL * b * fabs(free.mz));
        }
}
END_TEST

START_TEST(test_regularised_translation)
{
    /* Hertz disk with eps_t > 0 never sticks: x = a (-mu N x / sqrt(x^2 + e^2) - F),
     * e = eps_t R (P15 at w = 0, d = 0), solved here by bisection */
    const double R = 0.003, a = 2.0, mun = MU * NF;
    pfPatchDef d = pf_test_disk(PF_PATCH_HERTZ_DISK, R);
    d.eps_t = 0.01;
    const double e = d.eps_t * R;
    const double A[9] = {a, 0, 0, 0, a, 0, 0, 0, 5e4};
    const double factors[4] = {1e-6, 0.5, 1.0, 3.0};
    for (int i = 0; i < 4; ++i) {
        double F = factors[i] * mun;
        pfWrench free = {F, 0.0, 0.0};
        pfProjectResult r = project(&d, A, free, NULL);
        ck_assert_int_eq(r.sticks, 0);
        ck_assert_int_eq(r.converged, 1);
        /* h(x) = x - a (-mun x / sqrt(x^2 + e^2) - F) is increasing; root in [-a F, 0] */
        double lo = -a * F, hi = 0.0;
        for (int it = 0; it < 200; ++it) {
            double x = 0.5 * (lo + hi), h = x + a * (mun * x / sqrt(x * x + e * e) + F);
            if (h > 0.0)
                hi = x;
            else
                lo = x;
        }
        double x = 0.5 * (lo + hi), fx = -mun * x / sqrt(x * x + e * e);
        ck_assert_msg(fabs(r.wrench.fx - fx) <= EPS_TOL * mun, "F = %g: fx %.17g vs %.17g", F,
                      r.wrench.fx, fx);
        ck_assert_msg(fabs(r.velocity.vx - x) <= EPS_TOL * a * mun, "F = %g: vx %.17g vs %.17g", F,
                      r.velocity.vx, x);
    }
}
END_TEST

START_TEST(test_general_A_matches_dual_reference)
{
    /* random coupled SPD A and free wrenches outside C; reference: BFGS on the dual over
     * cubature */
    pfPatchDef defs[3] = {pf_test_rect(0.03, 0.01), pf_test_disk(PF_PATCH_DISK, 0.005),
                          pf_test_pentagon()};
    pfTestRng rng = pf_test_rng(2024);
    double worst = 0.0;
    int compared = 0;
    for (int k = 0; k < 3; ++k) {
        double rg = pf_test_gyration(&defs[k]);
        for (int c = 0; c < 4; ++c) {
            ref_problem p;
            memset(&p, 0, sizeof p);
            p.def = &defs[k];
            p.rg = rg;
            random_spd(&rng, rg, pf_test_range(&rng, 0.5, 5.0), p.A);
            inverse3(p.A, p.Ainv);
            /* |T free| ~ 1.2 .. 2.5 mu N in a random direction: mostly outside C */
            double dir[3] = {pf_test_range(&rng, -1, 1), pf_test_range(&rng, -1, 1),
                             pf_test_range(&rng, -1, 1)};
            double dn = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            double mag = pf_test_range(&rng, 1.2, 2.5) * MU * NF / dn;
            pfWrench free = {mag * dir[0], mag * dir[1], mag * dir[2] * rg};
            p.free[0] = free.fx;
            p.free[1] = free.fy;
            p.free[2] = free.mz;
            pfProjectResult r = project(&defs[k], p.A, free, NULL);
            pfStickResult st;
            ck_assert_int_eq(pf_limit_set_test(&defs[k], MU, NF, free, &st, NULL), PF_OK);
            ck_assert_int_eq(r.sticks, st.sticks);
            if (r.sticks) continue;
            ck_assert_int_eq(r.converged, 1);
            double gradnorm;
            pfTwist xi_ref;
            pfWrench ref = ref_project(&p, &gradnorm, &xi_ref);
            ck_assert_msg(gradnorm <= REF_GRAD, "reference did not converge: |grad g| = %g",
                          gradnorm);
            double err = wrench_err(r.wrench, ref, rg);
            worst = fmax(worst, err);
            ++compared;
            ck_assert_msg(err <= REF_TOL,
                          "shape %d case %d: wrench (%.12g %.12g %.12g) vs reference (%.12g "
                          "%.12g %.12g), error %g mu N",
                          defs[k].shape, c, r.wrench.fx, r.wrench.fy, r.wrench.mz, ref.fx, ref.fy,
                          ref.mz, err);
            /* the velocity: same twist metric, relative to |A free| */
            double af[3], fv[3] = {free.fx, free.fy, free.mz};
            mat_vec(p.A, fv, af);
            double afn = sqrt(af[0] * af[0] + af[1] * af[1] + af[2] * af[2] * rg * rg);
            double dv = sqrt(pow(r.velocity.vx - xi_ref.vx, 2) + pow(r.velocity.vy - xi_ref.vy, 2) +
                             pow((r.velocity.w - xi_ref.w) * rg, 2));
            ck_assert_msg(dv <= REF_TOL * afn, "velocity differs by %g |A free|", dv / afn);
        }
    }
    ck_assert_int_ge(compared, 8); /* the test must exercise the slip branch */
    fprintf(stderr, "test_general_A_matches_dual_reference: worst wrench error %.3g mu N over %d\n",
            worst, compared);
}
END_TEST

START_TEST(test_maximum_dissipation_and_verdict)
{
    /* lambda = W(xi) maximises -xi.l over the model's wrench set, and the verdict agrees with
     * the exact limit-set test; loads from deep inside to far outside C */
    pfPatchDef defs[4] = {pf_test_rect(0.03, 0.01), pf_test_disk(PF_PATCH_DISK, 0.005),
                          pf_test_pentagon(), pf_test_disk(PF_PATCH_HERTZ_DISK, 0.004)};
    pfTestRng rng = pf_test_rng(99);
    int nstick = 0, nslip = 0;
    for (int k = 0; k < 4; ++k) {
        double rg = pf_test_gyration(&defs[k]);
        for (int c = 0; c < 60; ++c) {
            double A[9];
            random_spd(&rng, rg, pf_test_range(&rng, 0.1, 10.0), A);
            double dir[3] = {pf_test_range(&rng, -1, 1), pf_test_range(&rng, -1, 1),
                             pf_test_range(&rng, -1, 1)};
            double dn = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            double mag = pf_test_range(&rng, 0.2, 2.0) * MU * NF / dn;
            pfWrench free = {mag * dir[0], mag * dir[1], mag * dir[2] * rg};
            pfProjectResult r = project(&defs[k], A, free, NULL);
            pfStickResult st;
            ck_assert_int_eq(pf_limit_set_test(&defs[k], MU, NF, free, &st, NULL), PF_OK);
            double h = st.capacity / st.demand;
            if (fabs(h - 1.0) > 1e-9) ck_assert_msg(r.sticks == st.sticks, "h = %.12g", h);
            if (r.sticks) {
                ++nstick;
                continue;
            }
            ++nslip;
            ck_assert_int_eq(r.converged, 1);
            ck_assert_double_le(r.residual, PF_PROJECT_TOL);
            /* the twist the wrench belongs to: velocity = A (W - free) */
            pfTwist xi = r.velocity;
            double pw = -(xi.vx * r.wrench.fx + xi.vy * r.wrench.fy + xi.w * r.wrench.mz);
            double xs = sqrt(xi.vx * xi.vx + xi.vy * xi.vy + xi.w * xi.w * rg * rg);
            ck_assert(pw > 0.0); /* P2 */
            for (int s = 0; s < 50; ++s) {
                pfTwist t = {pf_test_range(&rng, -1, 1), pf_test_range(&rng, -1, 1),
                             pf_test_range(&rng, -1, 1) / rg};
                if (s == 0) t = (pfTwist){xi.vx * 1.001, xi.vy, xi.w * 0.999}; /* nearby */
                pfWrench w;
                ck_assert_int_eq(pf_patch_friction(&defs[k], MU, NF, t, ZERO, &w, NULL), PF_OK);
                double pt = -(xi.vx * w.fx + xi.vy * w.fy + xi.w * w.mz);
                ck_assert_msg(pt <= pw + DISSIPATION_SLACK * MU * NF * xs,
                              "dissipation %.17g at a sample exceeds %.17g at the solution", pt,
                              pw);
            }
        }
    }
    ck_assert(nstick > 20 && nslip > 20); /* both branches exercised */
}
END_TEST

START_TEST(test_warm_start_same_answer_fewer_evaluations)
{
    pfPatchDef defs[4] = {pf_test_rect(0.03, 0.01), pf_test_disk(PF_PATCH_DISK, 0.005),
                          pf_test_pentagon(), pf_test_disk(PF_PATCH_HERTZ_DISK, 0.004)};
    pfTestRng rng = pf_test_rng(7);
    long cold = 0, warm = 0;
    int n = 0;
    for (int k = 0; k < 4; ++k) {
        double rg = pf_test_gyration(&defs[k]);
        for (int c = 0; c < 40; ++c) {
            double A[9];
            random_spd(&rng, rg, pf_test_range(&rng, 0.1, 10.0), A);
            double dir[3] = {pf_test_range(&rng, -1, 1), pf_test_range(&rng, -1, 1),
                             pf_test_range(&rng, -1, 1)};
            double dn = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            double mag = pf_test_range(&rng, 1.5, 3.0) * MU * NF / dn;
            pfWrench free = {mag * dir[0], mag * dir[1], mag * dir[2] * rg};
            pfProjectResult r = project(&defs[k], A, free, NULL);
            if (r.sticks) continue;
            /* the previous solver iteration: a slightly different free wrench */
            pfWrench f2 = {free.fx * 1.02, free.fy * 0.98 + 0.01 * mag, free.mz * 1.01};
            pfProjectResult r2 = project(&defs[k], A, f2, NULL);
            pfProjectResult rw = project(&defs[k], A, free, &r2.velocity);
            /* and a poor guess: the opposite motion */
            pfTwist bad = {-r.velocity.vx, -r.velocity.vy, -r.velocity.w};
            pfProjectResult rb = project(&defs[k], A, free, &bad);
            ck_assert_int_eq(rw.sticks, 0);
            ck_assert_int_eq(rb.sticks, 0);
            ck_assert_msg(wrench_err(rw.wrench, r.wrench, rg) <= WARM_TOL, "warm: %g",
                          wrench_err(rw.wrench, r.wrench, rg));
            ck_assert_msg(wrench_err(rb.wrench, r.wrench, rg) <= WARM_TOL, "bad guess: %g",
                          wrench_err(rb.wrench, r.wrench, rg));
            cold += r.evaluations;
            warm += rw.evaluations;
            ++n;
        }
    }
    ck_assert_int_ge(n, 40);
    fprintf(stderr, "warm start: %.2f evaluations per call cold, %.2f warm (%d slipping cases)\n",
            (double)cold / n, (double)warm / n, n);
    ck_assert_msg(warm < cold, "warm start is not cheaper: %ld vs %ld evaluations", warm, cold);
}
END_TEST

START_TEST(test_other_models_converge)
{
    /* Padé, Hertz with rolling shift, regularised Hertz: fixed point met, outputs finite */
    pfTestRng rng = pf_test_rng(5);
    const double R = 0.003;
    double rg;
    for (int m = 0; m < 4; ++m) {
        pfPatchDef d = pf_test_disk(PF_PATCH_HERTZ_DISK, R);
        if (m == 0) d.model = PF_MODEL_PADE;
        if (m == 1) d.rolling_d = 1.0;
        if (m == 2) d.eps_t = 0.01, d.eps_r = 0.01, d.rolling_d = 0.5;
        if (m == 3) d.model = PF_MODEL_PADE, d.eps_t = 0.01, d.rolling_d = 1.0;
        rg = pf_test_gyration(&d);
        int conv = 0, total = 0;
        for (int c = 0; c < 40; ++c) {
            double A[9];
            random_spd(&rng, rg, pf_test_range(&rng, 0.1, 10.0), A);
            double dir[3] = {pf_test_range(&rng, -1, 1), pf_test_range(&rng, -1, 1),
                             pf_test_range(&rng, -1, 1)};
            double dn = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            double mag = pf_test_range(&rng, 0.2, 3.0) * MU * NF / dn;
            pfWrench free = {mag * dir[0], mag * dir[1], mag * dir[2] * rg};
            pfTwist roll = {pf_test_range(&rng, -0.4, 0.4), pf_test_range(&rng, -0.4, 0.4), 0};
            pfProjectResult r;
            pfError e;
            ck_assert_int_eq(
                pf_patch_project(&(pfProjectInput){&d, MU, NF, A, free, roll, NULL}, &r, &e),
                PF_OK);
            ck_assert(isfinite(r.wrench.fx) && isfinite(r.wrench.fy) && isfinite(r.wrench.mz));
            ck_assert(isfinite(r.velocity.vx) && isfinite(r.velocity.vy) && isfinite(r.velocity.w));
            if (d.eps_t > 0.0) ck_assert_int_eq(r.sticks, 0);
            if (r.sticks) continue;
            ++total;
            conv += r.converged;
            if (getenv("PF_VERBOSE") && !r.converged)
                fprintf(stderr, "m %d c %d res %g ev %d v (%g %g %g)\n", m, c, r.residual,
                        r.evaluations, r.velocity.vx, r.velocity.vy, r.velocity.w);
            if (r.converged) ck_assert_double_le(r.residual, PF_PROJECT_TOL);
            /* the wrench is the model's at the returned twist (to the residual) */
            pfWrench w;
            ck_assert_int_eq(pf_patch_friction(&d, MU, NF, r.velocity, roll, &w, NULL), PF_OK);
            if (r.converged && d.eps_t == 0.0)
                ck_assert_msg(wrench_err(w, r.wrench, rg) <= 1e-6, "model %d: %g", m,
                              wrench_err(w, r.wrench, rg));
        }
        /* where the kinetic wrench set differs from the static one (Padé, d != 0 with eps_t =
         * 0) a slip fixed point may not exist near the static boundary (pf_core.h); the
         * regularised model with a small eps_t has a near-conical W that the |G|-merit Newton
         * does not always resolve within the budget (pf_core_project.c, "Known limits"): the
         * contract tested above is finite outputs and, when converged, the fixed point */
        ck_assert_int_gt(conv, total / 2); /* known gap, see the report in pf_core_project.c */
        fprintf(stderr, "model %d: %d of %d slipping cases converged\n", m, conv, total);
    }
}
END_TEST

START_TEST(test_zero_friction_and_zero_load)
{
    pfPatchDef d = pf_test_rect(0.03, 0.01);
    double A[9] = {2, 0.1, 0, 0.1, 3, 0, 0, 0, 5e4};
    pfWrench free = {0.3, -0.2, 0.001}, zero = {0, 0, 0};
    pfProjectResult r;
    ck_assert_int_eq(
        pf_patch_project(&(pfProjectInput){&d, 0.0, NF, A, free, ZERO, NULL}, &r, NULL), PF_OK);
    ck_assert(r.sticks == 0 && r.wrench.fx == 0.0 && r.wrench.fy == 0.0 && r.wrench.mz == 0.0);
    ck_assert_double_eq_tol(r.velocity.vx, -(2 * 0.3 - 0.1 * 0.2), 1e-15);
    ck_assert_double_eq_tol(r.velocity.vy, -(0.1 * 0.3 - 3 * 0.2), 1e-15);
    ck_assert_double_eq_tol(r.velocity.w, -5e4 * 0.001, 1e-12);
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, A, zero, ZERO, NULL}, &r, NULL),
                     PF_OK);
    ck_assert(r.sticks == 1 && r.velocity.vx == 0.0 && r.evaluations == 0);
    d = pf_test_disk(PF_PATCH_HERTZ_DISK, 0.003);
    d.eps_t = 0.1; /* regularised: free == 0 is the fixed point W(0) = 0 */
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, A, zero, ZERO, NULL}, &r, NULL),
                     PF_OK);
    ck_assert(r.wrench.fx == 0.0 && r.velocity.vx == 0.0);
}
END_TEST

START_TEST(test_bad_inputs)
{
    pfPatchDef d = pf_test_rect(0.03, 0.01), unset = pf_default_patch_def();
    double A[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1e4};
    pfWrench w = {0.2, 0, 0};
    pfProjectResult r;
    pfError e;
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){NULL, MU, NF, A, w, ZERO, NULL}, &r, &e),
                     PF_ERR_NULL);
    ck_assert_str_eq(e.field, "def");
    ck_assert_int_eq(pf_patch_project(NULL, &r, &e), PF_ERR_NULL);
    ck_assert_str_eq(e.field, "in");
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&unset, MU, NF, A, w, ZERO, NULL}, &r, &e),
                     PF_ERR_SHAPE);
    ck_assert_str_eq(e.field, "shape");
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, A, w, ZERO, NULL}, NULL, &e),
                     PF_ERR_NULL);
    ck_assert_str_eq(e.field, "out");
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, -0.1, NF, A, w, ZERO, NULL}, &r, &e),
                     PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "mu");
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, -1.0, A, w, ZERO, NULL}, &r, &e),
                     PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "normal_force");
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NAN, A, w, ZERO, NULL}, &r, &e),
                     PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "normal_force");
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, NULL, w, ZERO, NULL}, &r, &e),
                     PF_ERR_NULL);
    ck_assert_str_eq(e.field, "A");
    double anan[9] = {1, 0, 0, 0, 1, 0, 0, 0, INFINITY};
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, anan, w, ZERO, NULL}, &r, &e),
                     PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "A[8]");
    double asym[9] = {1, 0.5, 0, 0, 1, 0, 0, 0, 1}, indef[9] = {1, 0, 0, 0, -1, 0, 0, 0, 1};
    double sing[9] = {1, 1, 0, 1, 1, 0, 0, 0, 1};
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, asym, w, ZERO, NULL}, &r, &e),
                     PF_ERR_SINGULAR);
    ck_assert_str_eq(e.field, "A");
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, indef, w, ZERO, NULL}, &r, &e),
                     PF_ERR_SINGULAR);
    ck_assert_str_eq(e.field, "A");
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, sing, w, ZERO, NULL}, &r, &e),
                     PF_ERR_SINGULAR);
    ck_assert(strstr(e.message, "positive definite") != NULL);
    pfWrench wn = {0, NAN, 0};
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, A, wn, ZERO, NULL}, &r, &e),
                     PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "free_wrench.fy");
    ck_assert(strstr(e.message, "free_wrench.fy") != NULL);
    pfTwist tn = {0, 0, INFINITY};
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, A, w, tn, NULL}, &r, &e),
                     PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "rolling.w");
    ck_assert_int_eq(pf_patch_project(&(pfProjectInput){&d, MU, NF, A, w, ZERO, &tn}, &r, &e),
                     PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "guess.w");
}
END_TEST

/* A case libFuzzer found (CI, fuzz_core): a thin rectangle, N ~ 8e223, a free spin moment
 * ~5e279 and a block whose entries span 1e-297..3e5. The start point's exact radius overflowed,
 * and the residual came out NaN while the wrench and velocity were finite. */
START_TEST(test_fuzz_overflowing_radius)
{
    pfPatchDef d = pf_test_rect(0.03, 0.01);
    d.length = 0.86017678864328784;
    d.width = 0.00048816204070777422;
    const double A[9] = {5.32532906784937e-08,  -0.12371269749508119,    0, -0.12371269749508119,
                         287396.91625671537,    1.4579499289339379e-297, 0, 1.4579499289339379e-297,
                         2.2733087770666629e-07};
    pfWrench free = {5.3784562283199936e-299, -1.5914728910454441e-248, 5.1075265443976461e+279};
    pfTwist roll = {4.8199793718100693e-22, 0, 0}, guess = {0, 0, 0};
    pfProjectResult r;
    pfError e;
    int s = pf_patch_project(
        &(pfProjectInput){&d, 4.57763671875e-05, 7.9326085198737533e+223, A, free, roll, &guess},
        &r, &e);
    ck_assert_msg(s == PF_OK || (s < 0 && e.field[0] != '\0'), "status %d", s);
    if (s == PF_OK)
        ck_assert_msg(isfinite(r.wrench.fx) && isfinite(r.wrench.fy) && isfinite(r.wrench.mz) &&
                          isfinite(r.velocity.vx) && isfinite(r.velocity.vy) &&
                          isfinite(r.velocity.w) && isfinite(r.residual) && r.residual >= 0.0,
                      "non-finite output");
}
END_TEST

START_TEST(test_extreme_inputs_stay_finite)
{
    /* random magnitudes over the documented domain: PF_OK with finite outputs, or an error
     * with a named field; never NaN */
    pfTestRng rng = pf_test_rng(31337);
    int ok = 0;
    for (int i = 0; i < 3000; ++i) {
        pfPatchDef d;
        int shape = i % 4;
        double size = fabs(pf_test_logsigned(&rng, 1e-30, 1e30));
        if (shape == 0) {
            d = pf_test_rect(0.03, 0.01);
            d.length = size;
            d.width = size * fabs(pf_test_logsigned(&rng, 1e-3, 1e3));
        } else if (shape == 1) {
            d = pf_test_disk(PF_PATCH_DISK, size);
        } else if (shape == 2) {
            d = pf_test_disk(PF_PATCH_HERTZ_DISK, size);
            d.eps_t = (i % 3 == 0) ? fabs(pf_test_logsigned(&rng, 1e-20, 1e20)) : 0.0;
            d.rolling_d = pf_test_uniform(&rng);
            d.model = (i % 5 == 0) ? PF_MODEL_PADE : PF_MODEL_EXACT;
        } else {
            d = pf_test_pentagon();
        }
        double rg = pf_test_gyration(&d), A[9];
        random_spd(&rng, rg, fabs(pf_test_logsigned(&rng, 1e-30, 1e30)), A);
        double mu = fabs(pf_test_logsigned(&rng, 1e-10, 10.0));
        double nf = (i % 17 == 0) ? 0.0 : fabs(pf_test_logsigned(&rng, 1e-30, 1e30));
        double fm = fabs(pf_test_logsigned(&rng, 1e-30, 1e30));
        pfWrench free = {fm * pf_test_range(&rng, -1, 1), fm * pf_test_range(&rng, -1, 1),
                         fm * rg * pf_test_range(&rng, -1, 1)};
        pfTwist roll = {pf_test_logsigned(&rng, 1e-10, 1e10), 0.0, 0.0};
        pfTwist guess = {pf_test_logsigned(&rng, 1e-30, 1e30), pf_test_logsigned(&rng, 1e-30, 1e30),
                         pf_test_logsigned(&rng, 1e-30, 1e30) / rg};
        pfProjectResult r;
        pfError e;
        int s = pf_patch_project(
            &(pfProjectInput){&d, mu, nf, A, free, roll, (i % 2) ? &guess : NULL}, &r, &e);
        if (s != PF_OK) {
            ck_assert_msg(s < 0 && e.field[0] != '\0' && e.message[0] != '\0', "status %d", s);
            if (getenv("PF_VERBOSE")) fprintf(stderr, "%d: %s\n", i, e.message);
            continue;
        }
        ++ok;
        ck_assert_msg(isfinite(r.wrench.fx) && isfinite(r.wrench.fy) && isfinite(r.wrench.mz) &&
                          isfinite(r.velocity.vx) && isfinite(r.velocity.vy) &&
                          isfinite(r.velocity.w) && isfinite(r.residual),
                      "case %d: non-finite output", i);
        ck_assert_int_le(r.evaluations, PF_PROJECT_MAX_EVALS);
        /* |F| <= mu N (Padé with d: its documented 1 + 3 pi/32 d) */
        double bound = mu * nf * (1.0 + 3.0 * 3.14159265358979 / 32.0) * (1.0 + 1e-12);
        if (!r.sticks) ck_assert(hypot(r.wrench.fx, r.wrench.fy) <= bound + 1e-300);
    }
    ck_assert_int_ge(ok, 2500);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("core_project");
    TCase *tc = tcase_create("project");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_translation_closed_form);
    tcase_add_test(tc, test_spin_closed_form);
    tcase_add_test(tc, test_regularised_translation);
    tcase_add_test(tc, test_general_A_matches_dual_reference);
    tcase_add_test(tc, test_maximum_dissipation_and_verdict);
    tcase_add_test(tc, test_warm_start_same_answer_fewer_evaluations);
    tcase_add_test(tc, test_other_models_converge);
    tcase_add_test(tc, test_zero_friction_and_zero_load);
    tcase_add_test(tc, test_bad_inputs);
    tcase_add_test(tc, test_extreme_inputs_stay_finite);
    tcase_add_test(tc, test_fuzz_overflowing_radius);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    gsl_set_error_handler_off();
    return pf_test_run_suite(suite());
}
