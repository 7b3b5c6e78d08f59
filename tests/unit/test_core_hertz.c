/* Hertzian disk (docs/physics.md §3): exact P15 (pf_hertz_disk_friction) against adaptive cubature
 * of P15 with the P14 pressure (tests/support/pf_ref_disk.c), the closed-form limits P8/P9, the P16
 * moments, P18, the sign rule P2, continuity, convexity, and the Padé approximant P17.
 * Errors are absolute in the dimensionless T (force / mu N) and M_s (moment / mu N a). */
#include <check.h>
#include <cubature.h>
#include <math.h>
#include <stdio.h>
#include <patchfriction/pf_core.h>

#include "pf_ref_disk.h"
#include "pf_test_support.h"

#define PI 3.14159265358979323846
static const double TOL_REF = 1e-8;       /* exact vs cubature */
static const double TOL_CUBATURE = 1e-12; /* requested absolute accuracy of the reference */
static const double TOL_CLOSED = 1e-13;
static const double TOL_P2 = 1e-12;
static const double TOL_CONTINUITY = 1e-7;
static const double TOL_CONVEX = 1e-12;
static const double TOL_PADE_FORMULA = 1e-14;
/* Padé P17 (published parameters) vs exact P15 over the fitting domain of tools/pf_fit_pade.c
 * (ratio w a/|v| in 1e-3..1e3, both spin signs, d in {0, 0.5, 1}, rolling direction 0/90/180/270
 * degrees from v, eps_t = 0), max abs error of T and M_s. Measured: 0.0358 with d = 0 (worst at
 * w a/|v| ~ 2), 0.1835 over the whole domain (rolling perpendicular to sliding, d = 1: P17's d
 * terms are only exact in the pure-slide and pure-spin limits). Bounds: */
static const double PADE_MAX_ERR_D0 = 0.037;
static const double PADE_MAX_ERR = 0.19;
/* Bound on |T| of P17 derived from its form (not measured): the force numerator is
 * v_s + b_T w (-c_011, c_101) with |(c_011, c_101)| <= (3 pi/32)|d| (P16), and the denominator
 * is at least max(|v_s|, b_T |w|), so |T| <= 1 + (3 pi/32)|d| (measured max 1.0855 at d = 1). */
static double pade_max_t(double d)
{
    return 1.0 + 3.0 * PI / 32.0 * fabs(d);
}

/* dimensionless exact P15 at a = mu = N = 1: T = -F, M_s = -Mz */
static void exact_p15(double vx, double vy, double w, double eps, double d, double gam,
                      double out[3])
{
    pfTwist t = {vx, vy, w}, r = {cos(gam), sin(gam), 0.0};
    pfWrench f = pf_hertz_disk_friction(1.0, 1.0, 1.0, d, t, r, eps, 0.0);
    out[0] = -f.fx, out[1] = -f.fy, out[2] = -f.mz;
}

static double err_vs_ref(double vx, double vy, double w, double eps, double d, double gam)
{
    double e3[3];
    exact_p15(vx, vy, w, eps, d, gam, e3);
    pfRefDisk r =
        pf_ref_disk_p15(PF_REF_HERTZ, vx, vy, w, eps, d * cos(gam), d * sin(gam), TOL_CUBATURE);
    ck_assert_int_eq(r.status, 0);
    return fmax(fabs(e3[0] - r.tx), fmax(fabs(e3[1] - r.ty), fabs(e3[2] - r.ms)));
}

START_TEST(test_hertz_exact_matches_cubature_random)
{
    pfTestRng rng = pf_test_rng(21);
    double worst = 0.0;
    int n = 0;
    for (int i = 0; i < 160; ++i) {
        double c = exp(pf_test_range(&rng, log(1e-4), log(1e4)));
        double w = pf_test_logsigned(&rng, 1e-2, 1e2);
        double th = pf_test_range(&rng, 0.0, 2.0 * PI);
        double eps = (i % 3 == 0) ? 0.0 : fabs(w) * exp(pf_test_range(&rng, log(1e-4), log(3.0)));
        double d = (i % 4 == 0) ? 0.0 : pf_test_range(&rng, -1.0, 1.0);
        double gam = pf_test_range(&rng, 0.0, 2.0 * PI);
        double e = err_vs_ref(c * fabs(w) * cos(th), c * fabs(w) * sin(th), w, eps, d, gam);
        ck_assert_msg(e < TOL_REF, "c=%g w=%g th=%g eps=%g d=%g g=%g err=%g", c, w, th, eps, d, gam,
                      e);
        worst = fmax(worst, e);
        ++n;
    }
    printf("hertz exact vs cubature: %d random samples, max abs error %.2e\n", n, worst);
}
END_TEST

START_TEST(test_hertz_exact_matches_cubature_special)
{
    /* CR distances: centre, near centre, rim -/0/+, far; eps 0 and > 0; d 0 and 1 */
    const double cs[] = {0.0, 1e-9, 0.3, 1.0 - 1e-9, 1.0, 1.0 + 1e-9, 1.7, 1e3, 1e7};
    const double epss[] = {0.0, 1e-6, 0.02, 5.0};
    for (unsigned i = 0; i < sizeof cs / sizeof cs[0]; ++i)
        for (unsigned j = 0; j < 4; ++j)
            for (int dd = 0; dd < 2; ++dd) {
                double w = -1.3, th = 2.2;
                double e = err_vs_ref(cs[i] * 1.3 * cos(th), cs[i] * 1.3 * sin(th), w, epss[j],
                                      dd ? 1.0 : 0.0, 0.4);
                ck_assert_msg(e < TOL_REF, "c=%g eps=%g d=%d err=%g", cs[i], epss[j], dd, e);
            }
    /* w = 0 exactly, with and without eps and d */
    ck_assert(err_vs_ref(0.3, -0.4, 0.0, 0.0, 0.0, 0.0) < TOL_REF);
    ck_assert(err_vs_ref(0.3, -0.4, 0.0, 0.2, 0.8, 1.0) < TOL_REF);
}
END_TEST

START_TEST(test_hertz_exact_matches_cubature_eps_rim_far)
{
    /* eps > 0 with the CR near the rim, around the switch between the closed forms and the far
     * series of the potentials (m = 0.4, i.e. lambda = 6.25: c ~ 2.693 for small e), far away,
     * large height e = eps/|w|; d = +-1 along and across the sliding direction */
    const double cs[] = {0.0, 0.5, 1.0 - 1e-6, 1.0, 1.0 + 1e-6, 1.5, 2.69, 2.7, 50.0, 1e3};
    const double es[] = {1e-6, 1e-3, 0.3, 3.0, 1e3};
    const double gams[] = {0.0, 1.1, 2.0};
    double worst = 0.0;
    int n = 0;
    for (unsigned i = 0; i < sizeof cs / sizeof cs[0]; ++i)
        for (unsigned j = 0; j < sizeof es / sizeof es[0]; ++j)
            for (int dd = -1; dd <= 1; dd += 2) {
                double w = 0.7 * dd, th = 0.9, gam = gams[(i + j) % 3];
                double e = err_vs_ref(cs[i] * 0.7 * cos(th), cs[i] * 0.7 * sin(th), w, es[j] * 0.7,
                                      (double)dd, th + gam);
                ck_assert_msg(e < TOL_REF, "c=%g e=%g d=%d err=%g", cs[i], es[j], dd, e);
                worst = fmax(worst, e);
                ++n;
            }
    printf("hertz exact vs cubature, eps > 0 near rim / far / large e: %d samples, max %.2e\n", n,
           worst);
}
END_TEST

START_TEST(test_hertz_pure_slide_p8)
{
    double t[3];
    exact_p15(3.0, -4.0, 0.0, 0.0, 0.0, 0.0, t);
    ck_assert_double_eq_tol(hypot(t[0], t[1]), 1.0, TOL_CLOSED);
    ck_assert_double_eq_tol(t[2], 0.0, TOL_CLOSED);
    /* with eps: |T| = |v| / sqrt(|v|^2 + eps^2) */
    exact_p15(3.0, -4.0, 0.0, 1.0, 0.0, 0.0, t);
    ck_assert_double_eq_tol(hypot(t[0], t[1]), 5.0 / sqrt(26.0), TOL_CLOSED);
}
END_TEST

START_TEST(test_hertz_pure_spin_p9)
{
    for (int s = -1; s <= 1; s += 2) {
        double t[3];
        exact_p15(0.0, 0.0, 5.0 * s, 0.0, 0.0, 0.0, t);
        ck_assert_double_eq_tol(t[0], 0.0, TOL_CLOSED);
        ck_assert_double_eq_tol(t[1], 0.0, TOL_CLOSED);
        ck_assert_double_eq_tol(t[2], s * 3.0 * PI / 16.0, TOL_CLOSED);
        /* also through the quadrature branch (d != 0 leaves M_s unchanged at pure spin) */
        exact_p15(0.0, 0.0, 5.0 * s, 0.0, 1.0, 0.3, t);
        ck_assert_double_eq_tol(t[2], s * 3.0 * PI / 16.0, 1e-11);
    }
}
END_TEST

START_TEST(test_hertz_p16_moments)
{
    /* P16 values against cubature of c_ijk, and the pure-spin / pure-slide limits of exact and
     * Padé, which P16 predicts: T = sgn(w) (-c_011, c_101), M_s(slide) = (c_100 v_y - c_010
     * v_x)/|v| */
    double d = 0.8, g = 0.7, dc = d * cos(g), ds = d * sin(g);
    double c011 = pf_ref_disk_moment(0, 1, 1, dc, ds, TOL_CUBATURE);
    double c101 = pf_ref_disk_moment(1, 0, 1, dc, ds, TOL_CUBATURE);
    double c00m = pf_ref_disk_moment(0, 0, -1, dc, ds, TOL_CUBATURE);
    double c010 = pf_ref_disk_moment(0, 1, 0, dc, ds, TOL_CUBATURE);
    double c100 = pf_ref_disk_moment(1, 0, 0, dc, ds, TOL_CUBATURE);
    ck_assert_double_eq_tol(c011, 3 * PI / 32 * ds, TOL_REF);
    ck_assert_double_eq_tol(c101, 3 * PI / 32 * dc, TOL_REF);
    ck_assert_double_eq_tol(c00m, 3 * PI / 16, TOL_REF);
    ck_assert_double_eq_tol(c010, ds / 5, TOL_REF);
    ck_assert_double_eq_tol(c100, dc / 5, TOL_REF);
    pfTwist spin = {0, 0, -4.0}, slide = {0.6, -0.8, 0.0}, roll = {cos(g), sin(g), 0};
    pfWrench pe = pf_hertz_disk_friction(1, 1, 1, d, spin, roll, 0, 0);
    pfWrench pp = pf_hertz_disk_pade(1, 1, 1, d, spin, roll, 0, 0);
    ck_assert_double_eq_tol(-pe.fx, c011, TOL_REF);
    ck_assert_double_eq_tol(-pe.fy, -c101, TOL_REF);
    ck_assert_double_eq_tol(-pp.fx, c011, TOL_REF);
    ck_assert_double_eq_tol(-pp.fy, -c101, TOL_REF);
    pe = pf_hertz_disk_friction(1, 1, 1, d, slide, roll, 0, 0);
    pp = pf_hertz_disk_pade(1, 1, 1, d, slide, roll, 0, 0);
    double ms = c100 * (-0.8) - c010 * 0.6;
    ck_assert_double_eq_tol(-pe.mz, ms, TOL_REF);
    ck_assert_double_eq_tol(-pp.mz, ms, TOL_REF);
}
END_TEST

START_TEST(test_hertz_rolling_moment_p18)
{
    /* centre of pressure (x_S, y_S) = (c_100, c_010) by cubature; M_roll = a N (y_S, -x_S) */
    double a = 0.003, N = 2.5, d = 0.9, er = 1.0;
    pfTwist roll = {0.3 * a, -0.4 * a, 0.0}; /* v_r = (0.3, -0.4) 1/s, |v_r| = 0.5 */
    double den = sqrt(0.25 + er * er);
    double dc = d * 0.3 / den, ds = d * -0.4 / den;
    double xs = pf_ref_disk_moment(1, 0, 0, dc, ds, TOL_CUBATURE);
    double ys = pf_ref_disk_moment(0, 1, 0, dc, ds, TOL_CUBATURE);
    pfVec2 m = pf_hertz_rolling_moment(a, N, d, roll, er);
    ck_assert_double_eq_tol(m.x, a * N * ys, 1e-8 * a * N);
    ck_assert_double_eq_tol(m.y, -a * N * xs, 1e-8 * a * N);
    /* opposes rolling: (v_r x z) . M_roll ... the moment's rotation sense is against the roll:
     * rolling velocity v along +x is produced by spin about +y; M_r.y must be < 0 then */
    pfTwist rx = {1.0, 0.0, 0.0};
    ck_assert(pf_hertz_rolling_moment(a, N, 1.0, rx, 0.0).y < 0.0);
    /* eps_r = 0: unit direction, |M| = a N d / 5 */
    pfVec2 m0 = pf_hertz_rolling_moment(a, N, d, roll, 0.0);
    ck_assert_double_eq_tol(hypot(m0.x, m0.y), a * N * d / 5.0, TOL_CLOSED);
    /* no rolling and eps_r = 0: no moment (direction undefined) */
    pfTwist zero = {0, 0, 0};
    m0 = pf_hertz_rolling_moment(a, N, d, zero, 0.0);
    ck_assert(m0.x == 0.0 && m0.y == 0.0);
}
END_TEST

static pfTwist random_twist(pfTestRng *rng)
{
    pfTwist t;
    int kind = (int)(pf_test_uniform(rng) * 4.0);
    t.vx = pf_test_logsigned(rng, 1e-6, 1e2);
    t.vy = pf_test_logsigned(rng, 1e-6, 1e2);
    t.w = pf_test_logsigned(rng, 1e-4, 1e4);
    if (kind == 0)
        t.w = 0.0;
    else if (kind == 1)
        t.vx = t.vy = 0.0;
    return t;
}

/* P2 for 1e5 random twists, any d, eps, rolling direction */
static void check_p2(int pade, int with_d)
{
    pfTestRng rng = pf_test_rng(pade ? 31 : 32);
    for (int i = 0; i < 100000; ++i) {
        pfTwist t = random_twist(&rng);
        pfTwist r = {pf_test_range(&rng, -1, 1), pf_test_range(&rng, -1, 1), 0.0};
        double a = exp(pf_test_range(&rng, log(1e-3), log(0.1)));
        double d = with_d ? pf_test_range(&rng, -1.0, 1.0) : 0.0;
        double eps = (i & 1) ? exp(pf_test_range(&rng, log(1e-3), log(10.0))) : 0.0;
        pfWrench f = pade ? pf_hertz_disk_pade(a, 0.4, 2.0, d, t, r, eps, 0.01)
                          : pf_hertz_disk_friction(a, 0.4, 2.0, d, t, r, eps, 0.01);
        double power = f.fx * t.vx + f.fy * t.vy + f.mz * t.w;
        ck_assert_msg(power < 0.0, "pade=%d power %g at (%g %g %g) d=%g", pade, power, t.vx, t.vy,
                      t.w, d);
        /* |F| <= mu N holds for the exact model with any d (sigma >= 0 for |d| <= 1) but not
         * for P17 with d != 0, whose bound is pade_max_t(d) */
        if (!pade || !with_d)
            ck_assert(hypot(f.fx, f.fy) <= 0.8 * (1.0 + TOL_P2));
        else
            ck_assert(hypot(f.fx, f.fy) <= 0.8 * pade_max_t(d) * (1.0 + TOL_P2));
    }
}

START_TEST(test_hertz_exact_dissipates_p2)
{
    check_p2(0, 1);
}
END_TEST

START_TEST(test_hertz_pade_dissipates_p2)
{
    check_p2(1, 1);
}
END_TEST

static double wdist(const double a[3], const double b[3])
{
    return fmax(fabs(a[0] - b[0]), fmax(fabs(a[1] - b[1]), fabs(a[2] - b[2])));
}

START_TEST(test_hertz_continuous_at_zero_spin)
{
    for (int k = 0; k < 4; ++k) {
        double eps = (k & 1) ? 0.05 : 0.0, d = (k & 2) ? 1.0 : 0.0;
        double a[3], b[3], c[3];
        exact_p15(0.3, -0.2, 0.0, eps, d, 0.5, a);
        exact_p15(0.3, -0.2, 1e-9, eps, d, 0.5, b);
        exact_p15(0.3, -0.2, -1e-9, eps, d, 0.5, c);
        ck_assert_msg(wdist(a, b) < TOL_CONTINUITY, "k=%d %g", k, wdist(a, b));
        ck_assert_msg(wdist(a, c) < TOL_CONTINUITY, "k=%d %g", k, wdist(a, c));
    }
}
END_TEST

START_TEST(test_hertz_continuous_across_rim)
{
    for (int k = 0; k < 4; ++k) {
        double eps = (k & 1) ? 0.05 : 0.0, d = (k & 2) ? 1.0 : 0.0;
        for (int i = 0; i < 6; ++i) {
            double th = 1.1 * i, w = 2.0, a[3], b[3], c[3];
            exact_p15((1 - 1e-10) * w * cos(th), (1 - 1e-10) * w * sin(th), w, eps, d, 0.3, a);
            exact_p15((1 + 1e-10) * w * cos(th), (1 + 1e-10) * w * sin(th), w, eps, d, 0.3, b);
            exact_p15(w * cos(th), w * sin(th), w, eps, d, 0.3, c);
            ck_assert(wdist(a, b) < TOL_CONTINUITY);
            ck_assert(wdist(a, c) < TOL_CONTINUITY);
        }
    }
    /* eps = 0, d = 0 at the rim: f = 9 pi/32, m = 9 pi/128 (both branches of the closed form) */
    double c[3];
    exact_p15(0.0, 2.0, 2.0, 0.0, 0.0, 0.0, c);
    ck_assert_double_eq_tol(hypot(c[0], c[1]), 9 * PI / 32, TOL_CLOSED);
    ck_assert_double_eq_tol(c[2], 9 * PI / 128, TOL_CLOSED);
}
END_TEST

START_TEST(test_hertz_limit_surface_convex)
{
    pfTestRng rng = pf_test_rng(41);
    pfTwist ts[300], zero = {0, 0, 0};
    pfWrench ws[300];
    for (int i = 0; i < 300; ++i) {
        ts[i] = random_twist(&rng);
        ws[i] = pf_hertz_disk_friction(1.0, 1.0, 1.0, 0.0, ts[i], zero, 0.0, 0.0);
    }
    for (int i = 0; i < 300; ++i) {
        double n = fabs(ts[i].vx) + fabs(ts[i].vy) + fabs(ts[i].w);
        double own = ts[i].vx * ws[i].fx + ts[i].vy * ws[i].fy + ts[i].w * ws[i].mz;
        for (int j = 0; j < 300; ++j) {
            double other = ts[i].vx * ws[j].fx + ts[i].vy * ws[j].fy + ts[i].w * ws[j].mz;
            ck_assert_msg(other >= own - TOL_CONVEX * n, "i=%d j=%d", i, j);
        }
    }
}
END_TEST

/* P17 written out independently (pow as in docs/physics.md, no rescaling) */
static void pade_ref(double a, double mu, double N, double d, pfTwist t, pfTwist r, double et,
                     double er, pfPadeParams p, double out[3])
{
    double vrx = r.vx / a, vry = r.vy / a, nr = sqrt(vrx * vrx + vry * vry + er * er);
    double dc = d * vrx / nr, ds = d * vry / nr;
    double vx = t.vx / a, vy = t.vy / a, w = t.w, v = sqrt(vx * vx + vy * vy);
    double dt =
        sqrt(pow(pow(v, p.m_T) + pow(p.b_T, p.m_T) * pow(fabs(w), p.m_T), 2 / p.m_T) + et * et);
    double dm =
        sqrt(pow(pow(p.b_M, p.m_M) * pow(fabs(w), p.m_M) + pow(v, p.m_M), 2 / p.m_M) + et * et);
    double Tx = (vx - p.b_T * (3 * PI / 32 * ds) * w) / dt;
    double Ty = (vy + p.b_T * (3 * PI / 32 * dc) * w) / dt;
    double Ms = (p.b_M * (3 * PI / 16) * w - ds / 5 * vx + dc / 5 * vy) / dm;
    out[0] = -mu * N * Tx, out[1] = -mu * N * Ty, out[2] = -a * mu * N * Ms;
}

START_TEST(test_pade_matches_formula)
{
    pfPadeParams p = pf_default_pade_params();
    ck_assert(p.b_T == 0.771 && p.m_T == 2.655 && p.b_M == 0.419 && p.m_M == 3.073);
    const pfTwist ts[] = {{0.4, 0.1, 30.0}, {-0.01, 0.2, -250.0}, {0.0, 0.0, 3.0}, {1.0, 2.0, 0}};
    const pfTwist rs[] = {{0.2, 0.3, 0}, {-0.5, 0.0, 0}, {0.0, 1.0, 0}, {0.3, 0.0, 0}};
    for (int i = 0; i < 4; ++i) {
        double ref[3];
        pade_ref(0.003, 0.2, 1.5, 1.0, ts[i], rs[i], 0.01, 0.01, p, ref);
        pfWrench f = pf_hertz_disk_pade(0.003, 0.2, 1.5, 1.0, ts[i], rs[i], 0.01, 0.01);
        ck_assert_double_eq_tol(f.fx, ref[0], TOL_PADE_FORMULA);
        ck_assert_double_eq_tol(f.fy, ref[1], TOL_PADE_FORMULA);
        ck_assert_double_eq_tol(f.mz, ref[2], TOL_PADE_FORMULA);
        pfPadeParams q = {1.1, 2.0, 0.3, 4.0};
        pade_ref(0.003, 0.2, 1.5, 0.5, ts[i], rs[i], 0.01, 0.0, q, ref);
        f = pf_hertz_disk_pade_ex(0.003, 0.2, 1.5, 0.5, ts[i], rs[i], 0.01, 0.0, &q);
        ck_assert_double_eq_tol(f.fx, ref[0], TOL_PADE_FORMULA);
        ck_assert_double_eq_tol(f.fy, ref[1], TOL_PADE_FORMULA);
        ck_assert_double_eq_tol(f.mz, ref[2], TOL_PADE_FORMULA);
    }
    /* hand-computed: pure spin w = 2, d = 0: M_s = b_M (3pi/16) 2 / (b_M 2) = 3pi/16 */
    pfTwist spin = {0, 0, 2.0}, zero = {0, 0, 0};
    ck_assert_double_eq_tol(pf_hertz_disk_pade(1, 1, 1, 0, spin, zero, 0, 0).mz, -3 * PI / 16,
                            TOL_CLOSED);
}
END_TEST

START_TEST(test_pade_limits_match_exact)
{
    pfTwist zero = {0, 0, 0}, slide = {0.3, -0.4, 0.0}, spin = {0.0, 0.0, -7.0};
    pfWrench e = pf_hertz_disk_friction(1, 1, 1, 0, slide, zero, 0, 0);
    pfWrench p = pf_hertz_disk_pade(1, 1, 1, 0, slide, zero, 0, 0);
    ck_assert_double_eq_tol(p.fx, e.fx, TOL_CLOSED);
    ck_assert_double_eq_tol(p.fy, e.fy, TOL_CLOSED);
    ck_assert_double_eq_tol(p.mz, e.mz, TOL_CLOSED);
    e = pf_hertz_disk_friction(1, 1, 1, 0, spin, zero, 0, 0);
    p = pf_hertz_disk_pade(1, 1, 1, 0, spin, zero, 0, 0);
    ck_assert_double_eq_tol(p.fx, e.fx, TOL_CLOSED);
    ck_assert_double_eq_tol(p.fy, e.fy, TOL_CLOSED);
    ck_assert_double_eq_tol(p.mz, e.mz, TOL_CLOSED);
}
END_TEST

START_TEST(test_pade_error_over_fitting_domain)
{
    /* domain of tools/pf_fit_pade.c: |v| = 1, w = +-r, r log-spaced 1e-3..1e3 (61 values),
     * d in {0, 0.5, 1}, rolling direction 0, 90, 180, 270 degrees from v, eps_t = 0 */
    double worst = 0.0, worst_d0 = 0.0;
    for (int i = 0; i <= 60; ++i) {
        double r = pow(10.0, -3.0 + 0.1 * i);
        for (int s = -1; s <= 1; s += 2)
            for (int id = 0; id < 3; ++id)
                for (int ig = 0; ig < 4; ++ig) {
                    pfTwist t = {1.0, 0.0, s * r};
                    pfTwist rl = {cos(ig * PI / 2), sin(ig * PI / 2), 0.0};
                    pfWrench e = pf_hertz_disk_friction(1, 1, 1, 0.5 * id, t, rl, 0, 0);
                    pfWrench p = pf_hertz_disk_pade(1, 1, 1, 0.5 * id, t, rl, 0, 0);
                    double err =
                        fmax(fabs(e.fx - p.fx), fmax(fabs(e.fy - p.fy), fabs(e.mz - p.mz)));
                    worst = fmax(worst, err);
                    if (id == 0) worst_d0 = fmax(worst_d0, err);
                }
    }
    printf("pade vs exact over the fitting domain: max abs error %.4f (d = 0: %.4f)\n", worst,
           worst_d0);
    ck_assert_msg(worst_d0 < PADE_MAX_ERR_D0, "max err (d = 0) %g", worst_d0);
    ck_assert_msg(worst < PADE_MAX_ERR, "max err %g", worst);
}
END_TEST

static Suite *hertz_suite(void)
{
    Suite *s = suite_create("core_hertz");
    TCase *tc = tcase_create("hertz_disk");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_hertz_exact_matches_cubature_random);
    tcase_add_test(tc, test_hertz_exact_matches_cubature_special);
    tcase_add_test(tc, test_hertz_exact_matches_cubature_eps_rim_far);
    tcase_add_test(tc, test_hertz_pure_slide_p8);
    tcase_add_test(tc, test_hertz_pure_spin_p9);
    tcase_add_test(tc, test_hertz_p16_moments);
    tcase_add_test(tc, test_hertz_rolling_moment_p18);
    tcase_add_test(tc, test_hertz_exact_dissipates_p2);
    tcase_add_test(tc, test_hertz_pade_dissipates_p2);
    tcase_add_test(tc, test_hertz_continuous_at_zero_spin);
    tcase_add_test(tc, test_hertz_continuous_across_rim);
    tcase_add_test(tc, test_hertz_limit_surface_convex);
    tcase_add_test(tc, test_pade_matches_formula);
    tcase_add_test(tc, test_pade_limits_match_exact);
    tcase_add_test(tc, test_pade_error_over_fitting_domain);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(hertz_suite());
}
