/* Uniform-pressure disk (docs/physics.md P3-P9, P11): pf_disk_friction and pf_disk_max_moment
 * against the independent cubature reference (tests/support/pf_ref_disk.c) and closed-form limits.
 * Errors are absolute after normalising the force by mu N and the moment by mu N a, which is the
 * natural scale of both (|F| <= mu N, |Mz| <= (2/3) mu N a). */
#include <check.h>
#include <cubature.h>
#include <math.h>
#include <patchfriction/pf_core.h>

#include "pf_ref_disk.h"
#include "pf_test_support.h"

#define PI 3.14159265358979323846
static const double TOL_REF = 1e-8;       /* vs cubature, normalised by mu N and mu N a */
static const double TOL_CUBATURE = 1e-12; /* requested absolute accuracy of the reference */
static const double TOL_CLOSED = 1e-13;   /* closed-form limits P8/P9 */
static const double TOL_P2 = 1e-12;       /* |F| <= mu N (1 + TOL_P2) */
static const double TOL_CONTINUITY = 1e-7;
static const double TOL_CONVEX = 1e-12;

/* Compare the normalised wrench (a = 1, mu N = 1) against the reference; returns max error. */
static double err_vs_ref(double vx, double vy, double w)
{
    pfTwist t = {vx, vy, w};
    pfWrench f = pf_disk_friction(1.0, 1.0, 1.0, t);
    pfRefDisk r = pf_ref_disk_p15(PF_REF_UNIFORM, vx, vy, w, 0.0, 0.0, 0.0, TOL_CUBATURE);
    ck_assert_int_eq(r.status, 0);
    double e = fabs(-f.fx - r.tx);
    e = fmax(e, fabs(-f.fy - r.ty));
    e = fmax(e, fabs(-f.mz - r.ms));
    return e;
}

START_TEST(test_disk_matches_cubature_random)
{
    pfTestRng rng = pf_test_rng(11);
    double worst = 0.0;
    for (int i = 0; i < 120; ++i) {
        double c = exp(pf_test_range(&rng, log(1e-4), log(1e4))); /* CR distance / a */
        double w = pf_test_logsigned(&rng, 1e-2, 1e2);
        double th = pf_test_range(&rng, 0.0, 2.0 * PI);
        double e = err_vs_ref(c * fabs(w) * cos(th), c * fabs(w) * sin(th), w);
        worst = fmax(worst, e);
        ck_assert_msg(e < TOL_REF, "c=%g w=%g th=%g err=%g", c, w, th, e);
    }
    ck_assert(worst < TOL_REF);
}
END_TEST

START_TEST(test_disk_matches_cubature_special)
{
    /* w = 0, v = 0, CR exactly on the rim and just inside/outside, far and near CR */
    const double cs[] = {0.0, 1e-9, 0.5, 1.0 - 1e-9, 1.0, 1.0 + 1e-9, 2.0, 1e3, 1e7};
    for (unsigned i = 0; i < sizeof cs / sizeof cs[0]; ++i) {
        double w = -0.7, th = 1.1;
        double e = err_vs_ref(cs[i] * 0.7 * cos(th), cs[i] * 0.7 * sin(th), w);
        ck_assert_msg(e < TOL_REF, "c=%g err=%g", cs[i], e);
    }
    ck_assert(err_vs_ref(0.3, -0.4, 0.0) < TOL_REF); /* pure translation */
}
END_TEST

START_TEST(test_disk_pure_slide_p8)
{
    pfTwist t = {3.0, -4.0, 0.0};
    pfWrench f = pf_disk_friction(0.02, 0.5, 10.0, t);
    ck_assert_double_eq_tol(f.fx, -0.5 * 10.0 * 0.6, TOL_CLOSED);
    ck_assert_double_eq_tol(f.fy, 0.5 * 10.0 * 0.8, TOL_CLOSED);
    ck_assert_double_eq_tol(f.mz, 0.0, TOL_CLOSED);
}
END_TEST

START_TEST(test_disk_pure_spin_p9)
{
    for (int s = -1; s <= 1; s += 2) {
        pfTwist t = {0.0, 0.0, 7.0 * s};
        pfWrench f = pf_disk_friction(0.02, 0.5, 10.0, t);
        ck_assert_double_eq_tol(f.fx, 0.0, TOL_CLOSED);
        ck_assert_double_eq_tol(f.fy, 0.0, TOL_CLOSED);
        ck_assert_double_eq_tol(f.mz, -(2.0 / 3.0) * 0.5 * 10.0 * 0.02 * s, TOL_CLOSED);
    }
}
END_TEST

START_TEST(test_disk_dimensional_scaling)
{
    /* radius a, mu, N: F scales with mu N, Mz with mu N a, and the CR ratio is |v|/(|w| a) */
    pfTwist t1 = {0.3, 0.1, 2.0}, t2 = {0.3 * 0.05, 0.1 * 0.05, 2.0};
    pfWrench f1 = pf_disk_friction(1.0, 1.0, 1.0, t1);
    pfWrench f2 = pf_disk_friction(0.05, 0.4, 3.0, t2);
    ck_assert_double_eq_tol(f2.fx, 1.2 * f1.fx, 1e-14);
    ck_assert_double_eq_tol(f2.fy, 1.2 * f1.fy, 1e-14);
    ck_assert_double_eq_tol(f2.mz, 1.2 * 0.05 * f1.mz, 1e-15);
}
END_TEST

START_TEST(test_disk_max_moment_p11)
{
    const double pts[][2] = {{0, 0}, {0.3, -0.2}, {0.6, 0.8}, {1e-9, 1.0}, {1.5, 0}, {-30, 40}};
    for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; ++i) {
        double ref = pf_ref_disk_distance(PF_REF_UNIFORM, pts[i][0], pts[i][1], TOL_CUBATURE);
        double got = pf_disk_max_moment(1.0, 1.0, 1.0, pts[i][0], pts[i][1]);
        ck_assert_msg(fabs(got - ref) < TOL_REF * fmax(1.0, ref), "i=%u got %.15g ref %.15g", i,
                      got, ref);
    }
    /* centre: (2/3) mu N a (P9); dimensional scaling */
    ck_assert_double_eq_tol(pf_disk_max_moment(0.02, 0.5, 10.0, 0, 0), 0.5 * 10 * 0.02 * 2 / 3.0,
                            TOL_CLOSED);
    double r1 = pf_disk_max_moment(1.0, 1.0, 1.0, 0.4, 0.5);
    ck_assert_double_eq_tol(pf_disk_max_moment(0.02, 0.5, 10.0, 0.008, 0.01), 0.1 * r1, 1e-15);
    /* far away: mean distance -> |r0| (1 + 1/(8 |r0|^2)) */
    double far = pf_disk_max_moment(1.0, 1.0, 1.0, 1e6, 0.0);
    ck_assert_double_eq_tol(far / 1e6, 1.0 + 1.0 / 8e12, 1e-15);
}
END_TEST

static pfTwist random_twist(pfTestRng *rng)
{
    pfTwist t;
    int kind = (int)(pf_test_uniform(rng) * 4.0);
    t.vx = pf_test_logsigned(rng, 1e-6, 1e3);
    t.vy = pf_test_logsigned(rng, 1e-6, 1e3);
    t.w = pf_test_logsigned(rng, 1e-6, 1e4);
    if (kind == 0)
        t.w = 0.0;
    else if (kind == 1)
        t.vx = t.vy = 0.0;
    return t;
}

START_TEST(test_disk_dissipates_p2)
{
    pfTestRng rng = pf_test_rng(5);
    for (int i = 0; i < 100000; ++i) {
        pfTwist t = random_twist(&rng);
        double a = exp(pf_test_range(&rng, log(1e-3), log(1.0)));
        pfWrench f = pf_disk_friction(a, 0.4, 2.0, t);
        double power = f.fx * t.vx + f.fy * t.vy + f.mz * t.w;
        ck_assert_msg(power < 0.0, "power %g at (%g %g %g)", power, t.vx, t.vy, t.w);
        ck_assert(hypot(f.fx, f.fy) <= 0.8 * (1.0 + TOL_P2));
        ck_assert(fabs(f.mz) <= 0.8 * a * (2.0 / 3.0) * (1.0 + TOL_P2));
    }
}
END_TEST

static double wrench_dist(pfWrench a, pfWrench b)
{
    return fmax(fabs(a.fx - b.fx), fmax(fabs(a.fy - b.fy), fabs(a.mz - b.mz)));
}

START_TEST(test_disk_continuous_at_zero_spin)
{
    pfTwist t0 = {0.3, -0.2, 0.0}, tp = {0.3, -0.2, 1e-9}, tm = {0.3, -0.2, -1e-9};
    pfWrench f0 = pf_disk_friction(1.0, 1.0, 1.0, t0);
    ck_assert(wrench_dist(f0, pf_disk_friction(1.0, 1.0, 1.0, tp)) < TOL_CONTINUITY);
    ck_assert(wrench_dist(f0, pf_disk_friction(1.0, 1.0, 1.0, tm)) < TOL_CONTINUITY);
    /* the small-spin moment is ~ -(w a/|v|)/4 mu N a (far-CR series), not 0 or a jump */
    pfTwist ts = {1.0, 0.0, 1e-6};
    ck_assert_double_eq_tol(pf_disk_friction(1.0, 1.0, 1.0, ts).mz, -0.25e-6, 1e-15);
}
END_TEST

START_TEST(test_disk_continuous_across_rim)
{
    /* CR crossing the rim: c = 1 -/+ 1e-10 switches between the inside and outside branches */
    for (int i = 0; i < 8; ++i) {
        double th = 0.8 * i, w = 2.0;
        pfTwist a = {(1 - 1e-10) * w * cos(th), (1 - 1e-10) * w * sin(th), w};
        pfTwist b = {(1 + 1e-10) * w * cos(th), (1 + 1e-10) * w * sin(th), w};
        pfTwist c = {w * cos(th), w * sin(th), w};
        pfWrench fa = pf_disk_friction(1, 1, 1, a), fb = pf_disk_friction(1, 1, 1, b);
        pfWrench fc = pf_disk_friction(1, 1, 1, c);
        ck_assert(wrench_dist(fa, fb) < TOL_CONTINUITY);
        ck_assert(wrench_dist(fa, fc) < TOL_CONTINUITY);
        /* value at the rim: f = 8/(3 pi), m = 8/(9 pi) */
        ck_assert_double_eq_tol(hypot(fc.fx, fc.fy), 8.0 / (3.0 * PI), 1e-13);
        ck_assert_double_eq_tol(fc.mz, -8.0 / (9.0 * PI), 1e-13);
    }
}
END_TEST

START_TEST(test_disk_limit_surface_convex)
{
    /* maximum dissipation: xi . W(xi') >= xi . W(xi) for all pairs (sampled) */
    pfTestRng rng = pf_test_rng(9);
    pfTwist ts[300];
    pfWrench ws[300];
    for (int i = 0; i < 300; ++i) {
        ts[i] = random_twist(&rng);
        ws[i] = pf_disk_friction(1.0, 1.0, 1.0, ts[i]);
    }
    for (int i = 0; i < 300; ++i) {
        double n = fabs(ts[i].vx) + fabs(ts[i].vy) + fabs(ts[i].w);
        double own = ts[i].vx * ws[i].fx + ts[i].vy * ws[i].fy + ts[i].w * ws[i].mz;
        for (int j = 0; j < 300; ++j) {
            double other = ts[i].vx * ws[j].fx + ts[i].vy * ws[j].fy + ts[i].w * ws[j].mz;
            ck_assert_msg(other >= own - TOL_CONVEX * n, "i=%d j=%d %g < %g", i, j, other, own);
        }
    }
}
END_TEST

static Suite *disk_suite(void)
{
    Suite *s = suite_create("core_disk");
    TCase *tc = tcase_create("uniform_disk");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_disk_matches_cubature_random);
    tcase_add_test(tc, test_disk_matches_cubature_special);
    tcase_add_test(tc, test_disk_pure_slide_p8);
    tcase_add_test(tc, test_disk_pure_spin_p9);
    tcase_add_test(tc, test_disk_dimensional_scaling);
    tcase_add_test(tc, test_disk_max_moment_p11);
    tcase_add_test(tc, test_disk_dissipates_p2);
    tcase_add_test(tc, test_disk_continuous_at_zero_spin);
    tcase_add_test(tc, test_disk_continuous_across_rim);
    tcase_add_test(tc, test_disk_limit_surface_convex);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(disk_suite());
}
