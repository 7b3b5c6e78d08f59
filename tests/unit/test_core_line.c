/* Unit tests of the line contact's strip (pf_core_line.c, docs/physics.md §10, P46-P49): the
 * strip half-width b (P46), and the strip as a uniform rectangle L x 2b against the closed forms
 * of the uniform line (P47, P48) and against adaptive cubature (libcubature) of Hertz's
 * elliptical pressure across the strip (P49). References are written out here, never the core's
 * functions. Norms as in test_core_rect.c: forces in mu N, moments in mu N hd (hd the
 * half-diagonal, ~ L / 2). */
#include <check.h>
#include <cubature.h>
#include <math.h>
#include <patchfriction/pf_core.h>
#include <stdio.h>

#include "pf_test_support.h"

/* Agreement with a reference (as test_core_rect.c's TOL_REF). */
static const double TOL_REF = 1e-9;
/* Closed forms evaluated in double. */
static const double TOL_CLOSED = 1e-13;

static const double MU = 0.7, NF = 3.0, L = 0.3;
static const double PI = 3.14159265358979323846;

/* P46 written out: b = sqrt(4 N R' / (pi L E*)), in [5e-4 L, L / 2]. Numbers: N = 20 N,
 * R' = 0.05 m, L = 0.3 m, E* = 6.27e5 Pa: 4 * 20 * 0.05 / (pi * 0.3 * 6.27e5) = 6.76895e-6 m^2. */
START_TEST(half_width)
{
    const double b = pf_line_half_width(20.0, 0.05, 0.3, 6.27e5);
    const double ref = sqrt(4.0 / (PI * 0.3 * 6.27e5));
    ck_assert_double_eq_tol(b, ref, TOL_CLOSED * ref);
    ck_assert_double_eq_tol(b, 2.6017206e-3, 1e-9); /* by hand: sqrt(6.76895e-6) */
    /* a sharp edge (R' = 0), no load, NaN: the floor; a huge load: the cap */
    ck_assert_double_eq(pf_line_half_width(20.0, 0.0, 0.3, 6.27e5), 5e-4 * 0.3);
    ck_assert_double_eq(pf_line_half_width(0.0, 0.05, 0.3, 6.27e5), 5e-4 * 0.3);
    ck_assert_double_eq(pf_line_half_width(NAN, 0.05, 0.3, 6.27e5), 5e-4 * 0.3);
    ck_assert_double_eq(pf_line_half_width(1e12, 0.05, 0.3, 6.27e5), 0.15);
}
END_TEST

/* Uniform line of length L along x, load N, twist (vx, vy, w) at its centre (P48).
 * ICR on the perpendicular bisector, at (0, c), c != 0: the point x moves at w (c, x), so
 *   fx = -sgn(w) mu N (2 c / L) asinh(L / (2 |c|)),  fy = 0,
 *   mz = -sgn(w) (mu N / L) [(L/2) sqrt(c^2 + L^2/4) - c^2 asinh(L / (2 |c|))]  -> mu N L / 4.
 * ICR on the line, at (e, 0): the point x moves at w (0, x - e), so for |e| <= L/2
 *   fx = 0, fy = 2 e mu N sgn(w) / L, mz = -sgn(w) mu N (L^2/4 - e^2) / L,
 * and for |e| > L/2 (a translation-like sweep) fy = sgn(w) sgn(e) mu N, mz = 0. */
static pfWrench line_bisector(double c, double w)
{
    const double s = w > 0 ? 1.0 : -1.0, ac = fabs(c), as = asinh(L / (2 * ac));
    pfWrench r = {-s * MU * NF * (2 * c / L) * as, 0.0,
                  -s * (MU * NF / L) * (0.5 * L * sqrt(c * c + 0.25 * L * L) - c * c * as)};
    return r;
}

static pfWrench line_on_line(double e, double w)
{
    const double s = w > 0 ? 1.0 : -1.0;
    if (fabs(e) <= 0.5 * L) {
        pfWrench r = {0.0, 2 * e * MU * NF * s / L, -s * MU * NF * (0.25 * L * L - e * e) / L};
        return r;
    }
    pfWrench r = {0.0, s * (e > 0 ? 1.0 : -1.0) * MU * NF, 0.0};
    return r;
}

static void check_close(pfWrench got, pfWrench ref, double tol)
{
    const double fs = MU * NF, ms = MU * NF * 0.5 * L;
    ck_assert_double_eq_tol(got.fx / fs, ref.fx / fs, tol);
    ck_assert_double_eq_tol(got.fy / fs, ref.fy / fs, tol);
    ck_assert_double_eq_tol(got.mz / ms, ref.mz / ms, tol);
}

/* As b / L -> 0 the strip is the uniform line: at b = 1e-6 L its departure (P49, second order:
 * (4/3)(b/L)^2 (5/6 + ln(L/b)) of the moment) is 2e-11, below TOL_REF. */
START_TEST(thin_strip_is_the_line)
{
    const double b = 1e-6 * L;
    /* pure spin about the centre: mu N L / 4 (P47) */
    pfTwist spin = {0.0, 0.0, 2.0};
    pfWrench got = pf_rect_friction(L, 2 * b, MU, NF, spin);
    ck_assert_double_eq_tol(got.mz / (MU * NF * L / 4), -1.0, TOL_REF);
    ck_assert_double_eq_tol(pf_rect_max_moment(L, 2 * b, MU, NF, 0, 0) / (MU * NF * L / 4), 1.0,
                            TOL_REF);
    const double cs[] = {1e-3 * L, 0.1 * L, -0.25 * L, 0.5 * L, 3.0 * L, -40.0 * L};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; ++i)
        for (int sg = -1; sg <= 1; sg += 2) {
            const double w = 1.5 * sg, c = cs[i];
            pfTwist t = {w * c, 0.0, w};
            check_close(pf_rect_friction(L, 2 * b, MU, NF, t), line_bisector(c, w), TOL_REF);
        }
    const double es[] = {0.0, 0.1 * L, -0.3 * L, 0.49 * L, 0.7 * L, -5.0 * L};
    for (size_t i = 0; i < sizeof es / sizeof es[0]; ++i)
        for (int sg = -1; sg <= 1; sg += 2) {
            const double w = 0.8 * sg, e = es[i];
            pfTwist t = {0.0, -w * e, w};
            check_close(pf_rect_friction(L, 2 * b, MU, NF, t), line_on_line(e, w), TOL_REF);
        }
}
END_TEST

/* Spin moment about the centre of the elliptical strip, mu int p |r| dA with
 * p = (2 N / (pi b L)) sqrt(1 - y^2/b^2); y = b sin(th) takes the square root's singularity
 * away: mu (2 N / (pi b L)) 4 int_0^{L/2} int_0^{pi/2} b cos^2(th) sqrt(x^2 + b^2 sin^2 th). */
static int ell_integrand(unsigned ndim, const double *u, void *data, unsigned fdim, double *f)
{
    (void)ndim;
    (void)fdim;
    const double b = *(const double *)data, x = u[0], th = u[1];
    const double ct = cos(th), y = b * sin(th);
    f[0] = b * ct * ct * sqrt(x * x + y * y);
    return 0;
}

/* Rectangle's mean distance from its centre (half sides a, c), written out:
 * [2 a c d + a^3 ln((c + d)/a) + c^3 ln((a + d)/c)] / (6 a c), d = sqrt(a^2 + c^2). */
static double rect_mean_distance(double a, double c)
{
    const double d = hypot(a, c);
    return (2 * a * c * d + a * a * a * log((c + d) / a) + c * c * c * log((a + d) / c)) /
           (6 * a * c);
}

/* P49: the uniform strip against Hertz's elliptical one, pure spin. Since |r| >= |x| and both
 * pressures have the uniform x marginal, mu N L / 4 <= M_ell, and the elliptical profile, more
 * concentrated at y = 0, has M_ell <= M_rect; so the relative difference is at most the
 * rectangle's departure from the line, (M_rect - mu N L / 4) / (mu N L / 4) ~
 * (4/3)(b/L)^2 (5/6 + ln(L/b)). Typical case: the soft cylinder of test_ode_line (b / L =
 * 8.6e-3) and a steel one at the floor (b / L = 5e-4). */
START_TEST(strip_vs_elliptical_cubature)
{
    const double bls[] = {8.6e-3, 5e-4, 0.05};
    for (size_t i = 0; i < sizeof bls / sizeof bls[0]; ++i) {
        double b = bls[i] * L, val = 0, err = 0;
        const double lo[2] = {0.0, 0.0}, hi[2] = {0.5 * L, 0.5 * PI};
        ck_assert_int_eq(hcubature(1, ell_integrand, &b, 2, lo, hi, 5000000, 0.0, 1e-12,
                                   ERROR_INDIVIDUAL, &val, &err),
                         0);
        const double m_ell = MU * (2 * NF / (PI * b * L)) * 4 * val;
        const double m_rect = pf_rect_max_moment(L, 2 * b, MU, NF, 0, 0);
        const double m_rect_closed = MU * NF * rect_mean_distance(0.5 * L, b);
        const double m_line = MU * NF * L / 4;
        const double bound = (m_rect_closed - m_line) / m_line;
        const double series = (4.0 / 3.0) * bls[i] * bls[i] * (5.0 / 6.0 + log(1 / bls[i]));
        printf("strip b/L = %.1e: M_rect %.12e, M_ell %.12e (cubature err %.1e), line %.12e; "
               "rel diff rect-ell %.3e, bound %.3e (series %.3e)\n",
               bls[i], m_rect, m_ell, err, m_line, (m_rect - m_ell) / m_ell, bound, series);
        ck_assert_double_eq_tol(m_rect, m_rect_closed, TOL_REF * m_rect);
        ck_assert_double_ge(m_ell, m_line * (1 - TOL_REF));
        ck_assert_double_le(m_ell, m_rect * (1 + TOL_REF));
        ck_assert_double_le((m_rect - m_ell) / m_ell, bound + TOL_REF);
        ck_assert_double_eq_tol(bound, series, 0.05 * series); /* the leading term of P49 */
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("core_line");
    TCase *tc = tcase_create("line");
    tcase_add_test(tc, half_width);
    tcase_add_test(tc, thin_strip_is_the_line);
    tcase_add_test(tc, strip_vs_elliptical_cubature);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    return pf_test_run_suite(suite());
}
