/* Unit tests of the exact uniform-pressure convex polygon (pf_core_polygon.c, docs/physics.md P2,
 * P6, P8, P9, P11).
 *
 * Norms: forces in units of mu N, moments in mu N s with s the largest vertex distance from the
 * origin (the half-diagonal for a centred rectangle); P11 in mu_s N max(s, distance).
 * References: the cubature of tests/support/pf_ref_quad.c, the closed forms derived here, and
 * pf_rect_friction (itself checked against cubature in test_core_rect.c).
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
/* Rectangle as polygon vs pf_rect_friction: each is accurate to ~1e-12 in these norms (the
 * edge sums of an elongated polygon lose up to ~7e-13 when the CR is 2-4 sizes away). */
static const double TOL_RECT = 2e-12;
/* Closed forms of O(1) quantities. */
static const double TOL_CLOSED = 1e-13;
static const double TOL_ROUND = 1e-12;

static const double MU = 0.7, NF = 3.0;
static const double TWO_PI = 6.283185307179586;

static pfTwist twist_about(double xc, double yc, double w)
{
    pfTwist t = {w * yc, -w * xc, w};
    return t;
}

static double vertex_radius(const double *xy, int n)
{
    double m = 0.0;
    for (int k = 0; k < n; ++k)
        m = fmax(m, hypot(xy[2 * k], xy[2 * k + 1]));
    return m;
}

/* Random convex polygon: n points at sorted random angles on a circle (convex, CCW), stretched
 * by a random aspect, rotated and offset from the origin by up to its own size. */
static int random_polygon(pfTestRng *rng, double *xy)
{
    const int n = 3 + (int)(pf_test_uniform(rng) * 12.0);
    double ang[PF_POLYGON_MAX_VERTICES];
    for (int k = 0; k < n; ++k)
        ang[k] = pf_test_range(rng, 0.0, TWO_PI);
    for (int i = 1; i < n; ++i) /* insertion sort */
        for (int j = i; j > 0 && ang[j - 1] > ang[j]; --j) {
            const double t = ang[j];
            ang[j] = ang[j - 1];
            ang[j - 1] = t;
        }
    const double r = fabs(pf_test_logsigned(rng, 1e-2, 1e1));
    const double sx = fabs(pf_test_logsigned(rng, 1e-2, 1.0)), rot = pf_test_range(rng, 0, TWO_PI);
    const double ox = pf_test_range(rng, -r, r), oy = pf_test_range(rng, -r, r);
    for (int k = 0; k < n; ++k) {
        const double x = r * cos(ang[k]), y = sx * r * sin(ang[k]);
        xy[2 * k] = ox + cos(rot) * x - sin(rot) * y;
        xy[2 * k + 1] = oy + sin(rot) * x + cos(rot) * y;
    }
    return n;
}

/* Twice the signed area; the random polygons must have a clearly positive one. */
static double twice_area(const double *xy, int n)
{
    double s = 0.0;
    for (int k = 0; k < n; ++k) {
        const int j = (k + 1) % n;
        s += xy[2 * k] * xy[2 * j + 1] - xy[2 * j] * xy[2 * k + 1];
    }
    return s;
}

START_TEST(rectangle_as_polygon_matches_rect)
{
    pfTestRng rng = pf_test_rng(201);
    for (int k = 0; k < 20000; ++k) {
        const double aspect = fabs(pf_test_logsigned(&rng, 1e-3, 1e3));
        const double L = fabs(pf_test_logsigned(&rng, 1e-3, 1e1)), W = L / aspect;
        const double hd = 0.5 * hypot(L, W), a = 0.5 * L, b = 0.5 * W;
        const double xy[8] = {-a, -b, a, -b, a, b, -a, b};
        const double r = hd * fabs(pf_test_logsigned(&rng, 1e-4, 1e12));
        const double th = pf_test_range(&rng, 0.0, TWO_PI);
        double xc = r * cos(th), yc = r * sin(th);
        if (k % 5 == 1) xc = a;  /* CR on an edge line */
        if (k % 7 == 2) yc = -b; /* ... or a corner */
        const pfTwist t = twist_about(xc, yc, pf_test_logsigned(&rng, 1e-2, 1e2));
        pfWrench want = pf_rect_friction(L, W, MU, NF, t);
        pfWrench got = pf_polygon_friction(xy, 4, MU, NF, t);
        ck_assert_double_eq_tol(got.fx / (MU * NF), want.fx / (MU * NF), TOL_RECT);
        ck_assert_double_eq_tol(got.fy / (MU * NF), want.fy / (MU * NF), TOL_RECT);
        ck_assert_double_eq_tol(got.mz / (MU * NF * hd), want.mz / (MU * NF * hd), TOL_RECT);
        const double scale = MU * NF * fmax(hd, hypot(xc, yc));
        ck_assert_double_eq_tol(pf_polygon_max_moment(xy, 4, MU, NF, xc, yc) / scale,
                                pf_rect_max_moment(L, W, MU, NF, xc, yc) / scale, TOL_RECT);
    }
}
END_TEST

/* Regular n-gon inscribed in the circle of radius a (P9 comparison). It contains the disk of the
 * apothem h = a cos(pi/n) and lies in the disk of radius a; its area is
 * A = (n/2) a^2 sin(2 pi/n). Splitting int rho over the polygon into the inner disk
 * ((2/3) pi h^3) and the rest (area A - pi h^2, where h <= rho <= a):
 *   (2/3) pi h^3 + h (A - pi h^2) <= int rho <= (2/3) pi h^3 + a (A - pi h^2).
 * So the pure-spin moment mu N int rho / A lies in that band: for n = 32 it is
 * [0.996799, 0.996813] x (2/3) mu N a. Its distance from the disk's (2/3) mu N a is about half
 * the area-ratio error 1 - A/(pi a^2) = 0.0064 (the missing segments sit at rho ~ a), and it
 * must be within that error. */
START_TEST(regular_32gon_spin_approaches_disk)
{
    const int n = 32;
    const double a = 0.37;
    double xy[2 * 32];
    for (int k = 0; k < n; ++k) {
        xy[2 * k] = a * cos(TWO_PI * k / n);
        xy[2 * k + 1] = a * sin(TWO_PI * k / n);
    }
    const double h = a * cos(0.5 * TWO_PI / n), area = 0.5 * n * a * a * sin(TWO_PI / n);
    const double inner = (2.0 / 3.0) * 0.5 * TWO_PI * h * h * h, ring = area - 0.5 * TWO_PI * h * h;
    const double lo = MU * NF * (inner + h * ring) / area, hi = MU * NF * (inner + a * ring) / area;
    for (int s = -1; s <= 1; s += 2) {
        pfWrench w = pf_polygon_friction(xy, n, MU, NF, (pfTwist){0.0, 0.0, 2.5 * s});
        ck_assert_double_eq_tol(w.fx / (MU * NF), 0.0, TOL_CLOSED);
        ck_assert_double_eq_tol(w.fy / (MU * NF), 0.0, TOL_CLOSED);
        ck_assert(-s * w.mz > lo && -s * w.mz < hi);
    }
    /* the band lies within the area-ratio error of the disk's (2/3) mu N a */
    const double disk = (2.0 / 3.0) * MU * NF * a, ratio_err = 1.0 - area / (0.5 * TWO_PI * a * a);
    ck_assert(fabs(lo / disk - 1.0) < ratio_err && fabs(hi / disk - 1.0) < ratio_err);
}
END_TEST

static void check_polygon_vs_reference(const double *xy, int n, pfTwist t)
{
    pfRefRegion reg = pf_ref_polygon_region(xy, n);
    pfWrench ref;
    ck_assert_int_eq(pf_ref_wrench(&reg, MU, NF, t, &ref), 0);
    pfWrench got = pf_polygon_friction(xy, n, MU, NF, t);
    const double fs = MU * NF, ms = MU * NF * vertex_radius(xy, n);
    ck_assert_double_eq_tol(got.fx / fs, ref.fx / fs, TOL_REF);
    ck_assert_double_eq_tol(got.fy / fs, ref.fy / fs, TOL_REF);
    ck_assert_double_eq_tol(got.mz / ms, ref.mz / ms, TOL_REF);
}

START_TEST(random_polygons_match_cubature)
{
    pfTestRng rng = pf_test_rng(202);
    double xy[2 * PF_POLYGON_MAX_VERTICES];
    for (int k = 0; k < 200; ++k) {
        const int n = random_polygon(&rng, xy);
        if (twice_area(xy, n) < 1e-6 * vertex_radius(xy, n) * vertex_radius(xy, n)) continue;
        const double s = vertex_radius(xy, n);
        double xc, yc;
        if (k % 4 == 0) { /* CR on a vertex */
            xc = xy[0];
            yc = xy[1];
        } else if (k % 4 == 1) { /* CR on an edge */
            const double u = pf_test_uniform(&rng);
            xc = (1 - u) * xy[0] + u * xy[2];
            yc = (1 - u) * xy[1] + u * xy[3];
        } else { /* anywhere from 1e-3 to 1e6 sizes */
            const double r = s * fabs(pf_test_logsigned(&rng, 1e-3, 1e6));
            const double th = pf_test_range(&rng, 0.0, TWO_PI);
            xc = r * cos(th);
            yc = r * sin(th);
        }
        check_polygon_vs_reference(xy, n, twist_about(xc, yc, pf_test_logsigned(&rng, 1e-2, 1e2)));
    }
}
END_TEST

/* A repeated vertex (a contact polygon from the bin scene, whose clipping left two equal
 * vertices) spans no edge: the wrench is the polygon's without it, here against the cubature
 * reference. The edge sums once divided by the zero edge length and returned NaN. */
START_TEST(repeated_vertex_matches_cubature)
{
    const double bin[10] = {-0.0092431244028158034, 0.012684995112045093,  0.0042847048631754099,
                            -0.033204572370110347,  0.0042847048631754099, -0.033204572370110347,
                            0.004958419539640397,   0.020519577258065247,  -0.0092423490428246297,
                            0.012685422855786794};
    /* the twist the bin's stick test met (unit incipient twist, patch frame) */
    check_polygon_vs_reference(bin, 5, (pfTwist){-0.623829, -0.76397, -13.4147});
    pfTestRng rng = pf_test_rng(206);
    double xy[2 * (PF_POLYGON_MAX_VERTICES + 1)];
    for (int k = 0; k < 100; ++k) {
        const double s = vertex_radius(bin, 5);
        const double r = s * fabs(pf_test_logsigned(&rng, 1e-3, 1e3));
        const double th = pf_test_range(&rng, 0.0, TWO_PI);
        check_polygon_vs_reference(bin, 5, twist_about(r * cos(th), r * sin(th), 1.7));
        /* a random polygon with one vertex repeated */
        const int n = random_polygon(&rng, xy);
        if (n >= PF_POLYGON_MAX_VERTICES ||
            twice_area(xy, n) < 1e-6 * vertex_radius(xy, n) * vertex_radius(xy, n))
            continue;
        const int at = k % n;
        for (int i = 2 * n + 1; i >= 2 * at + 2; --i)
            xy[i] = xy[i - 2];
        check_polygon_vs_reference(xy, n + 1, twist_about(r * cos(th), r * sin(th), -0.8));
    }
}
END_TEST

START_TEST(random_polygons_translation_is_p8)
{
    /* P8 with the pressure centre at the area centroid C: F = -mu N v^, Mz = -mu N (C x v^). */
    pfTestRng rng = pf_test_rng(203);
    double xy[2 * PF_POLYGON_MAX_VERTICES];
    for (int k = 0; k < 1000; ++k) {
        const int n = random_polygon(&rng, xy);
        const double a2 = twice_area(xy, n);
        double cx = 0, cy = 0;
        for (int i = 0; i < n; ++i) {
            const int j = (i + 1) % n;
            const double c = xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
            cx += (xy[2 * i] + xy[2 * j]) * c / (3.0 * a2);
            cy += (xy[2 * i + 1] + xy[2 * j + 1]) * c / (3.0 * a2);
        }
        const double th = pf_test_range(&rng, 0.0, TWO_PI), s = vertex_radius(xy, n);
        pfWrench w =
            pf_polygon_friction(xy, n, MU, NF, (pfTwist){2.0 * cos(th), 2.0 * sin(th), 0.0});
        ck_assert_double_eq_tol(w.fx / (MU * NF), -cos(th), TOL_CLOSED);
        ck_assert_double_eq_tol(w.fy / (MU * NF), -sin(th), TOL_CLOSED);
        ck_assert_double_eq_tol(w.mz / (MU * NF * s), -(cx * sin(th) - cy * cos(th)) / s, 1e-12);
    }
}
END_TEST

START_TEST(random_polygons_max_moment_matches_cubature)
{
    pfTestRng rng = pf_test_rng(204);
    double xy[2 * PF_POLYGON_MAX_VERTICES];
    for (int k = 0; k < 150; ++k) {
        const int n = random_polygon(&rng, xy);
        const double s = vertex_radius(xy, n);
        const double r = s * fabs(pf_test_logsigned(&rng, 1e-3, 1e4));
        const double th = pf_test_range(&rng, 0.0, TWO_PI);
        const double x = k % 3 ? r * cos(th) : xy[2], y = k % 3 ? r * sin(th) : xy[3];
        pfRefRegion reg = pf_ref_polygon_region(xy, n);
        double ref;
        ck_assert_int_eq(pf_ref_max_moment(&reg, MU, NF, x, y, &ref), 0);
        const double scale = MU * NF * fmax(s, hypot(x, y));
        ck_assert_double_eq_tol(pf_polygon_max_moment(xy, n, MU, NF, x, y) / scale, ref / scale,
                                TOL_REF);
    }
}
END_TEST

START_TEST(random_polygons_dissipation_rule_p2)
{
    pfTestRng rng = pf_test_rng(205);
    double xy[2 * PF_POLYGON_MAX_VERTICES];
    for (int k = 0; k < 20000; ++k) {
        const int n = random_polygon(&rng, xy);
        const double s = vertex_radius(xy, n);
        pfTwist t = {pf_test_logsigned(&rng, 1e-6, 1e2), pf_test_logsigned(&rng, 1e-6, 1e2),
                     pf_test_logsigned(&rng, 1e-6, 1e2) / s};
        pfWrench w = pf_polygon_friction(xy, n, MU, NF, t);
        ck_assert(w.fx * t.vx + w.fy * t.vy + w.mz * t.w < 0.0);
        ck_assert(hypot(w.fx, w.fy) <= MU * NF * (1.0 + TOL_ROUND));
    }
}
END_TEST

static Suite *polygon_suite(void)
{
    Suite *s = suite_create("core_polygon");
    TCase *ref = tcase_create("reference");
    tcase_set_timeout(ref, 300);
    tcase_add_test(ref, rectangle_as_polygon_matches_rect);
    tcase_add_test(ref, random_polygons_match_cubature);
    tcase_add_test(ref, random_polygons_max_moment_matches_cubature);
    tcase_add_test(ref, repeated_vertex_matches_cubature);
    suite_add_tcase(s, ref);
    TCase *closed = tcase_create("closed_forms");
    tcase_set_timeout(closed, 120);
    tcase_add_test(closed, regular_32gon_spin_approaches_disk);
    tcase_add_test(closed, random_polygons_translation_is_p8);
    tcase_add_test(closed, random_polygons_dissipation_rule_p2);
    suite_add_tcase(s, closed);
    return s;
}

int main(void)
{
    return pf_test_run_suite(polygon_suite());
}
