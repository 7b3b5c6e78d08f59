/* Unit tests of the exact uniform-pressure rectangle (pf_core_rect.c, docs/physics.md P2, P5-P9,
 * P11).
 *
 * Norms: forces are compared in units of mu N, moments in units of mu N hd with hd the
 * half-diagonal (the largest moment arm of the patch); P11 moments in mu_s N max(hd, distance),
 * since they grow like the distance. References are independent: adaptive cubature of the
 * pointwise law (tests/support/pf_ref_quad.c) or closed forms derived here.
 */
#include <check.h>
#include <cubature.h>
#include <math.h>
#include <patchfriction/pf_core.h>
#include <stdlib.h>

#include "pf_ref_quad.h"
#include "pf_test_support.h"

/* Agreement with the cubature reference (asked for 1e-13). */
static const double TOL_REF = 1e-9;
/* Closed forms evaluated in double: a few ulps of O(1) quantities. */
static const double TOL_CLOSED = 1e-13;
/* Rounding allowance of the sign rule P2 and of |F| <= mu N. */
static const double TOL_ROUND = 1e-12;

static const double MU = 0.7, NF = 3.0;
static const double TWO_PI = 6.283185307179586;

typedef struct RectCase {
    double length, width, hd;
} RectCase;

/* Random rectangle with aspect ratio log-uniform in [1e-3, 1e3] and size in [1e-3, 1e1] m. */
static RectCase random_rect(pfTestRng *rng)
{
    RectCase c;
    const double aspect = fabs(pf_test_logsigned(rng, 1e-3, 1e3));
    c.length = fabs(pf_test_logsigned(rng, 1e-3, 1e1));
    c.width = c.length / aspect;
    c.hd = 0.5 * hypot(c.length, c.width);
    return c;
}

/* Twist whose CR (P5) is (xc, yc): v = (w yc, -w xc). */
static pfTwist twist_about(double xc, double yc, double w)
{
    pfTwist t = {w * yc, -w * xc, w};
    return t;
}

static void check_vs_reference(const RectCase *c, pfTwist t)
{
    pfRefRegion reg = pf_ref_rect_region(c->length, c->width);
    pfWrench ref;
    ck_assert_int_eq(pf_ref_wrench(&reg, MU, NF, t, &ref), 0);
    pfWrench got = pf_rect_friction(c->length, c->width, MU, NF, t);
    const double fs = MU * NF, ms = MU * NF * c->hd;
    ck_assert_double_eq_tol(got.fx / fs, ref.fx / fs, TOL_REF);
    ck_assert_double_eq_tol(got.fy / fs, ref.fy / fs, TOL_REF);
    ck_assert_double_eq_tol(got.mz / ms, ref.mz / ms, TOL_REF);
}

START_TEST(cr_inside_matches_cubature)
{
    pfTestRng rng = pf_test_rng(101);
    for (int k = 0; k < 150; ++k) {
        RectCase c = random_rect(&rng);
        double xc = pf_test_range(&rng, -0.5, 0.5) * c.length;
        double yc = pf_test_range(&rng, -0.5, 0.5) * c.width;
        check_vs_reference(&c, twist_about(xc, yc, pf_test_logsigned(&rng, 1e-2, 1e3)));
    }
}
END_TEST

START_TEST(cr_outside_matches_cubature)
{
    pfTestRng rng = pf_test_rng(102);
    for (int k = 0; k < 150; ++k) {
        RectCase c = random_rect(&rng);
        /* distance 1e-3 .. 1e3 half-diagonals from the centre, any direction */
        double r = c.hd * fabs(pf_test_logsigned(&rng, 1e-3, 1e3));
        double th = pf_test_range(&rng, 0.0, TWO_PI);
        check_vs_reference(
            &c, twist_about(r * cos(th), r * sin(th), pf_test_logsigned(&rng, 1e-2, 1e3)));
    }
}
END_TEST

START_TEST(cr_on_edges_and_corners_matches_cubature)
{
    pfTestRng rng = pf_test_rng(103);
    for (int k = 0; k < 120; ++k) {
        RectCase c = random_rect(&rng);
        const double a = 0.5 * c.length, b = 0.5 * c.width;
        const double sx = pf_test_uniform(&rng) < 0.5 ? -1.0 : 1.0;
        const double sy = pf_test_uniform(&rng) < 0.5 ? -1.0 : 1.0;
        double xc, yc;
        switch (k % 3) {
        case 0: /* exactly on a long edge */
            xc = pf_test_range(&rng, -a, a);
            yc = sy * b;
            break;
        case 1: /* exactly on a short edge */
            xc = sx * a;
            yc = pf_test_range(&rng, -b, b);
            break;
        default: /* exactly on a corner */
            xc = sx * a;
            yc = sy * b;
        }
        check_vs_reference(&c, twist_about(xc, yc, pf_test_logsigned(&rng, 1e-2, 1e3)));
    }
}
END_TEST

START_TEST(cr_near_boundary_matches_cubature)
{
    pfTestRng rng = pf_test_rng(104);
    for (int k = 0; k < 120; ++k) {
        RectCase c = random_rect(&rng);
        const double a = 0.5 * c.length, b = 0.5 * c.width;
        const double eps = pf_test_logsigned(&rng, 1e-12, 1e-3) * c.hd; /* either side */
        double xc = pf_test_range(&rng, -1.2 * a, 1.2 * a), yc = b + eps;
        if (k % 2) {
            xc = a + eps;
            yc = pf_test_range(&rng, -1.2 * b, 1.2 * b);
        }
        check_vs_reference(&c, twist_about(xc, yc, pf_test_logsigned(&rng, 1e-2, 1e3)));
    }
}
END_TEST

START_TEST(cr_far_and_tiny_spin_matches_cubature)
{
    pfTestRng rng = pf_test_rng(105);
    for (int k = 0; k < 120; ++k) {
        RectCase c = random_rect(&rng);
        /* w hd / |v| from 1e-14 to 1e-1: the CR 1e1 .. 1e14 half-diagonals away */
        const double ratio = fabs(pf_test_logsigned(&rng, 1e-14, 1e-1));
        const double th = pf_test_range(&rng, 0.0, TWO_PI), v = pf_test_range(&rng, 0.1, 2.0);
        pfTwist t = {v * cos(th), v * sin(th), (k % 2 ? -1.0 : 1.0) * ratio * v / c.hd};
        check_vs_reference(&c, t);
    }
}
END_TEST

START_TEST(zero_twist_gives_zero_wrench)
{
    const pfTwist z = {0.0, 0.0, 0.0};
    pfWrench w = pf_rect_friction(0.03, 0.01, MU, NF, z);
    ck_assert(w.fx == 0.0 && w.fy == 0.0 && w.mz == 0.0);
}
END_TEST

/* P8: w = 0 exactly gives F = -mu N v/|v|, Mz = 0 (centrally symmetric pressure). */
START_TEST(pure_translation_is_p8)
{
    pfTestRng rng = pf_test_rng(106);
    for (int k = 0; k < 1000; ++k) {
        RectCase c = random_rect(&rng);
        const double th = pf_test_range(&rng, 0.0, TWO_PI),
                     v = fabs(pf_test_logsigned(&rng, 1e-9, 1e9));
        pfTwist t = {v * cos(th), v * sin(th), 0.0};
        pfWrench w = pf_rect_friction(c.length, c.width, MU, NF, t);
        ck_assert_double_eq_tol(w.fx / (MU * NF), -cos(th), TOL_CLOSED);
        ck_assert_double_eq_tol(w.fy / (MU * NF), -sin(th), TOL_CLOSED);
        ck_assert(w.mz == 0.0);
    }
}
END_TEST

/* Pure spin (P9 for the rectangle). Mean distance from the centre over [-a,a]x[-b,b]: by P7 the
 * integral of rho is the corner sum of K with the CR at the centre, 4 K(a, b) since K is odd in
 * both arguments, so with d = sqrt(a^2 + b^2)
 *   Mz = -mu N sgn(w) [ d/3 + a^2/(6b) asinh(b/a) + b^2/(6a) asinh(a/b) ],   F = 0.
 * Check: a = b gives a (sqrt 2 + asinh 1)/3 = 0.7652 a, the known mean distance in a square. */
static double spin_moment(double a, double b)
{
    return hypot(a, b) / 3.0 + a * a / (6.0 * b) * asinh(b / a) + b * b / (6.0 * a) * asinh(a / b);
}

START_TEST(pure_spin_closed_form)
{
    ck_assert_double_eq_tol(spin_moment(1.0, 1.0), (sqrt(2.0) + asinh(1.0)) / 3.0, 1e-15);
    pfTestRng rng = pf_test_rng(107);
    for (int k = 0; k < 1000; ++k) {
        RectCase c = random_rect(&rng);
        const double w = pf_test_logsigned(&rng, 1e-6, 1e6);
        pfWrench got = pf_rect_friction(c.length, c.width, MU, NF, (pfTwist){0.0, 0.0, w});
        const double a = 0.5 * c.length, b = 0.5 * c.width;
        ck_assert_double_eq_tol(got.fx / (MU * NF), 0.0, TOL_CLOSED);
        ck_assert_double_eq_tol(got.fy / (MU * NF), 0.0, TOL_CLOSED);
        ck_assert_double_eq_tol(got.mz / (MU * NF * c.hd), -copysign(spin_moment(a, b), w) / c.hd,
                                TOL_CLOSED);
    }
}
END_TEST

/* P2 for 1e5 random twists of every kind: power < 0 and |F| <= mu N. */
START_TEST(dissipation_rule_p2)
{
    pfTestRng rng = pf_test_rng(108);
    for (int k = 0; k < 100000; ++k) {
        RectCase c = random_rect(&rng);
        pfTwist t = {pf_test_logsigned(&rng, 1e-6, 1e2), pf_test_logsigned(&rng, 1e-6, 1e2),
                     pf_test_logsigned(&rng, 1e-6, 1e2) / c.hd};
        if (k % 7 == 0) t.vx = 0.0;
        if (k % 11 == 0) t.w = 0.0;
        pfWrench w = pf_rect_friction(c.length, c.width, MU, NF, t);
        const double power = w.fx * t.vx + w.fy * t.vy + w.mz * t.w;
        ck_assert(power < 0.0);
        ck_assert(hypot(w.fx, w.fy) <= MU * NF * (1.0 + TOL_ROUND));
    }
}
END_TEST

/* w -> 0+- approaches P8. First order (expand u/|u| in w, v = |v| (c, s)):
 *   u/|u| = vhat + (w/|v|) ((z x r).n) n + O(w^2),  n = (-s, c),
 *   Mz = -mu N (w/|v|) <(x c + y s)^2> = -mu N (w/|v|) (c^2 a^2 + s^2 b^2)/3,
 * and F - F(P8) = O(w^2). So Mz/w must tend to that slope from both sides. */
START_TEST(continuous_across_zero_spin)
{
    pfTestRng rng = pf_test_rng(109);
    for (int k = 0; k < 500; ++k) {
        RectCase c = random_rect(&rng);
        const double a = 0.5 * c.length, b = 0.5 * c.width;
        const double th = pf_test_range(&rng, 0.0, TWO_PI), v = pf_test_range(&rng, 0.1, 3.0);
        const double cs = cos(th), sn = sin(th);
        const double slope = -MU * NF / v * (cs * cs * a * a + sn * sn * b * b) / 3.0;
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            const double eps = 1e-5; /* w hd / |v| */
            const double w = sgn * eps * v / c.hd;
            pfWrench got =
                pf_rect_friction(c.length, c.width, MU, NF, (pfTwist){v * cs, v * sn, w});
            /* O(eps^2) remainders, with margin 4 */
            ck_assert_double_eq_tol(got.fx / (MU * NF), -cs, 4.0 * eps * eps);
            ck_assert_double_eq_tol(got.fy / (MU * NF), -sn, 4.0 * eps * eps);
            ck_assert_double_eq_tol(got.mz / (w * slope), 1.0, 4.0 * eps * eps);
        }
    }
}
END_TEST

/* The CR crossing an edge: values just inside and just outside agree to O(distance). The wrench
 * is Lipschitz in the CR position with constant of order mu N / hd (and mu N). */
START_TEST(continuous_across_boundary)
{
    pfTestRng rng = pf_test_rng(110);
    for (int k = 0; k < 1000; ++k) {
        RectCase c = random_rect(&rng);
        const double a = 0.5 * c.length, b = 0.5 * c.width;
        const double d = 1e-9 * c.hd;
        double xc = pf_test_range(&rng, -a, a), yc = b, dx = 0.0, dy = d;
        if (k % 3 == 1) {
            xc = a;
            yc = pf_test_range(&rng, -b, b);
            dx = d;
            dy = 0.0;
        } else if (k % 3 == 2) {
            xc = -a;
            yc = b;
            dx = -d;
        }
        const double w = pf_test_logsigned(&rng, 1e-2, 1e2);
        pfWrench in = pf_rect_friction(c.length, c.width, MU, NF, twist_about(xc - dx, yc - dy, w));
        pfWrench out =
            pf_rect_friction(c.length, c.width, MU, NF, twist_about(xc + dx, yc + dy, w));
        /* A displacement of 2d moves the normalised wrench by at most ~ 2d/min(a,b) * log
         * terms; allow 1e3 * d / min side. */
        const double tol = 1e3 * d / fmin(a, b);
        ck_assert_double_eq_tol(in.fx / (MU * NF), out.fx / (MU * NF), tol);
        ck_assert_double_eq_tol(in.fy / (MU * NF), out.fy / (MU * NF), tol);
        ck_assert_double_eq_tol(in.mz / (MU * NF * c.hd), out.mz / (MU * NF * c.hd), tol);
    }
}
END_TEST

/* Maximum dissipation (docs/physics.md §2): W(xi) minimises xi.W over the limit set, which contains
 * every W(xi'), so xi.W(xi') >= xi.W(xi) for all pairs. */
START_TEST(limit_surface_maximum_dissipation)
{
    pfTestRng rng = pf_test_rng(111);
    for (int k = 0; k < 20000; ++k) {
        RectCase c = random_rect(&rng);
        pfTwist xi = {pf_test_range(&rng, -1, 1), pf_test_range(&rng, -1, 1),
                      pf_test_range(&rng, -1, 1) / c.hd};
        pfTwist xj = {pf_test_range(&rng, -1, 1), pf_test_range(&rng, -1, 1),
                      pf_test_logsigned(&rng, 1e-3, 1.0) / c.hd};
        pfWrench wi = pf_rect_friction(c.length, c.width, MU, NF, xi);
        pfWrench wj = pf_rect_friction(c.length, c.width, MU, NF, xj);
        const double own = xi.vx * wi.fx + xi.vy * wi.fy + xi.w * wi.mz;
        const double other = xi.vx * wj.fx + xi.vy * wj.fy + xi.w * wj.mz;
        const double scale = MU * NF * (fabs(xi.vx) + fabs(xi.vy) + fabs(xi.w) * c.hd);
        ck_assert(other >= own - TOL_ROUND * scale);
    }
}
END_TEST

/* P11 equals D(xi) for the unit rotation about the point: -xi.W(xi) with mu_s. */
START_TEST(max_moment_is_dissipation_of_unit_rotation)
{
    pfTestRng rng = pf_test_rng(112);
    for (int k = 0; k < 5000; ++k) {
        RectCase c = random_rect(&rng);
        const double r = c.hd * fabs(pf_test_logsigned(&rng, 1e-3, 1e3));
        const double th = pf_test_range(&rng, 0.0, TWO_PI);
        const double x = r * cos(th), y = r * sin(th);
        pfTwist xi = twist_about(x, y, 1.0);
        pfWrench w = pf_rect_friction(c.length, c.width, MU, NF, xi);
        const double d = -(xi.vx * w.fx + xi.vy * w.fy + xi.w * w.mz);
        const double m = pf_rect_max_moment(c.length, c.width, MU, NF, x, y);
        const double scale = MU * NF * fmax(c.hd, r);
        ck_assert_double_eq_tol(m / scale, d / scale, 1e-12);
    }
}
END_TEST

START_TEST(max_moment_matches_cubature)
{
    pfTestRng rng = pf_test_rng(113);
    for (int k = 0; k < 200; ++k) {
        RectCase c = random_rect(&rng);
        const double r = c.hd * fabs(pf_test_logsigned(&rng, 1e-4, 1e4));
        const double th = pf_test_range(&rng, 0.0, TWO_PI);
        double x = r * cos(th), y = r * sin(th);
        if (k % 4 == 1) y = 0.5 * c.width;                      /* on an edge line */
        if (k % 4 == 2) x = 0.5 * c.length, y = -0.5 * c.width; /* a corner */
        pfRefRegion reg = pf_ref_rect_region(c.length, c.width);
        double ref;
        ck_assert_int_eq(pf_ref_max_moment(&reg, MU, NF, x, y, &ref), 0);
        const double got = pf_rect_max_moment(c.length, c.width, MU, NF, x, y);
        const double scale = MU * NF * fmax(c.hd, hypot(x, y));
        ck_assert_double_eq_tol(got / scale, ref / scale, TOL_REF);
    }
}
END_TEST

/* Far points: integral of |r - r0| = A (D + <r_perp^2>/(2D) + O(hd^4/D^3)), r_perp the component
 * of r normal to r0; <x^2> = a^2/3, <y^2> = b^2/3. So M -> mu N D with that correction. */
START_TEST(max_moment_far_point_tends_to_mu_n_distance)
{
    pfTestRng rng = pf_test_rng(114);
    for (int k = 0; k < 2000; ++k) {
        RectCase c = random_rect(&rng);
        const double a = 0.5 * c.length, b = 0.5 * c.width;
        const double dist = c.hd * fabs(pf_test_logsigned(&rng, 1e2, 1e12));
        const double th = pf_test_range(&rng, 0.0, TWO_PI), cs = cos(th), sn = sin(th);
        const double perp2 = (sn * sn * a * a + cs * cs * b * b) / 3.0;
        const double m = pf_rect_max_moment(c.length, c.width, MU, NF, dist * cs, dist * sn);
        const double expect = MU * NF * (dist + perp2 / (2.0 * dist));
        /* relative remainder O((hd/D)^4) <= 1e-8, plus rounding */
        ck_assert_double_eq_tol(m / expect, 1.0, 1e-8 + 1e-14);
        ck_assert(m >= MU * NF * dist * (1.0 - 1e-15));
    }
}
END_TEST

static Suite *rect_suite(void)
{
    Suite *s = suite_create("core_rect");
    TCase *ref = tcase_create("reference");
    tcase_set_timeout(ref, 300);
    tcase_add_test(ref, cr_inside_matches_cubature);
    tcase_add_test(ref, cr_outside_matches_cubature);
    tcase_add_test(ref, cr_on_edges_and_corners_matches_cubature);
    tcase_add_test(ref, cr_near_boundary_matches_cubature);
    tcase_add_test(ref, cr_far_and_tiny_spin_matches_cubature);
    tcase_add_test(ref, max_moment_matches_cubature);
    suite_add_tcase(s, ref);
    TCase *closed = tcase_create("closed_forms");
    tcase_set_timeout(closed, 120);
    tcase_add_test(closed, zero_twist_gives_zero_wrench);
    tcase_add_test(closed, pure_translation_is_p8);
    tcase_add_test(closed, pure_spin_closed_form);
    tcase_add_test(closed, max_moment_far_point_tends_to_mu_n_distance);
    suite_add_tcase(s, closed);
    TCase *props = tcase_create("properties");
    tcase_set_timeout(props, 120);
    tcase_add_test(props, dissipation_rule_p2);
    tcase_add_test(props, continuous_across_zero_spin);
    tcase_add_test(props, continuous_across_boundary);
    tcase_add_test(props, limit_surface_maximum_dissipation);
    tcase_add_test(props, max_moment_is_dissipation_of_unit_rotation);
    suite_add_tcase(s, props);
    return s;
}

int main(void)
{
    return pf_test_run_suite(rect_suite());
}
