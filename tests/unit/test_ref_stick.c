/* The independent reference stick test (tests/support/pf_ref_stick.c) against closed forms, its
 * two parametrisations against each other, and the core's stick tests (pf_stick_planar,
 * pf_stick_planar_limit) against it on a grid of loads.
 *
 * Closed forms: a force through the centre breaks away at mu_s N under both criteria (P13); a
 * pure moment at the patch's torsional capacity, (2/3) mu_s N R for a disk (P9) and
 * mu_s N [2abd + a^3 ln((b + d)/a) + b^3 ln((a + d)/b)] / (6ab) for a rectangle (a = L/2, b = W/2,
 * d = sqrt(a^2 + b^2), the mean distance from the centre; docs/physics.md P49). The limit factor
 * is checked against a second minimisation in the other parametrisation of the derivation:
 * min over points P of M_max(P) / |M_L(P)| (GSL's simplex, no derivatives). */
#include <check.h>
#include <gsl/gsl_multimin.h>
#include <math.h>
#include <patchfriction/pf_core.h>
#include <stdio.h>

#include "pf_ref_quad.h"
#include "pf_ref_stick.h"
#include "pf_test_support.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const double TOL_CLOSED = 1e-11; /* cubature against a closed form, relative */
static const double TOL_PARAM = 1e-8;   /* the two limit minimisations, relative */
static const double TOL_CORE_CA = 1e-9; /* core CA (closed forms) against cubature, relative */
/* The core's limit-set search stops after PF_LIMIT_MAX_EVALS wrench evaluations; its documented
 * accuracy (pf_core.h, docs/physics.md P32) is what it is checked to here. */
static const double TOL_CORE_LIMIT = 1e-6;

/* Kardan et al.'s block (docs/physics.md §6) and a disk of the same mass. */
static const double L = 0.03, W = 0.01, R = 0.02, MASS = 0.0234, MU_S = 0.4, G = 9.81;

static pfRefStickPatch rect_patch(void)
{
    return (pfRefStickPatch){0, L, W, 0.0, MU_S, MASS * G};
}

static pfRefStickPatch disk_patch(void)
{
    return (pfRefStickPatch){1, 0.0, 0.0, R, MU_S, MASS * G};
}

static pfRefStickBody body_of(const pfRefStickPatch *p, double gx, double gy)
{
    double j = p->disk ? 0.5 * MASS * R * R : MASS * (L * L + W * W) / 12.0;
    return (pfRefStickBody){MASS, j, gx, gy};
}

START_TEST(force_through_centre_breaks_at_mu_n)
{
    for (int d = 0; d < 2; ++d) {
        pfRefStickPatch p = d ? disk_patch() : rect_patch();
        pfRefStickBody b = body_of(&p, 0.0, 0.0);
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k < 12; ++k) {
                double ang = 2.0 * M_PI * k / 12.0, f = 0.3 * MU_S * p.normal;
                pfRefStickResult r;
                ck_assert_int_eq(pf_ref_stick(&p, &b, f * cos(ang), f * sin(ang), 0.0, c, &r), 0);
                ck_assert_double_eq_tol(r.factor * f, MU_S * p.normal,
                                        TOL_CLOSED * MU_S * p.normal);
                ck_assert_int_eq(r.sticks, 1);
                ck_assert_int_eq(r.translation, 1);
                ck_assert_double_eq_tol(r.twist[0], cos(ang), 1e-15);
                ck_assert_double_eq_tol(r.twist[1], sin(ang), 1e-15);
            }
    }
}
END_TEST

START_TEST(pure_moment_breaks_at_torsional_capacity)
{
    const double a = 0.5 * L, b = 0.5 * W, d = hypot(a, b);
    const double n = MASS * G;
    const double rect =
        MU_S * n * (2 * a * b * d + a * a * a * log((b + d) / a) + b * b * b * log((a + d) / b)) /
        (6 * a * b);
    const double disk = 2.0 / 3.0 * MU_S * n * R;
    for (int dk = 0; dk < 2; ++dk) {
        pfRefStickPatch p = dk ? disk_patch() : rect_patch();
        pfRefStickBody bd = body_of(&p, 0.0, 0.0);
        double want = dk ? disk : rect;
        ck_assert_double_eq_tol(pf_ref_stick_max_moment(&p, 0.0, 0.0), want, TOL_CLOSED * want);
        for (int c = 0; c < 2; ++c)
            for (int s = -1; s <= 1; s += 2) {
                pfRefStickResult r;
                double m = s * 1e-4;
                ck_assert_int_eq(pf_ref_stick(&p, &bd, 0.0, 0.0, m, c, &r), 0);
                ck_assert_double_eq_tol(r.factor * fabs(m), want, TOL_CLOSED * want);
                ck_assert_int_eq(r.translation, 0);
                ck_assert_double_eq_tol(r.cx, 0.0, 1e-12 * R);
                ck_assert_double_eq_tol(r.cy, 0.0, 1e-12 * R);
                ck_assert_double_eq_tol(r.twist[2] * r.rho, s, 1e-12);
                ck_assert_int_eq(r.sticks, r.factor >= 1.0);
            }
    }
}
END_TEST

/* The rectangle's integrals (signed fan about the point, or plain) against pf_ref_quad's
 * (a fan about the closest point of the region): two cubatures written apart. */
START_TEST(rect_integrals_match_second_cubature)
{
    pfRefStickPatch p = rect_patch();
    const pfRefRegion reg = pf_ref_rect_region(L, W);
    const double n = p.normal, size = hypot(L, W) / 2;
    static const double pts[][2] = {{0, 0},           {0.004, 0.001}, {0.015, 0.005},
                                    {-0.002, -0.012}, {0.02, -0.003}, {0.05, 0.04},
                                    {0.0, 0.2}};
    for (int k = 0; k < 7; ++k) {
        double want;
        ck_assert_int_eq(pf_ref_max_moment(&reg, MU_S, n, pts[k][0], pts[k][1], &want), 0);
        ck_assert_double_eq_tol(pf_ref_stick_max_moment(&p, pts[k][0], pts[k][1]), want,
                                TOL_CLOSED * want);
        for (int sg = -1; sg <= 1; sg += 2) { /* rotation about the point, both senses */
            double w = sg * 3.0, out[3];
            pfTwist tw = {w * pts[k][1], -w * pts[k][0], w};
            pfWrench ref;
            ck_assert_int_eq(pf_ref_wrench(&reg, MU_S, n, tw, &ref), 0);
            ck_assert_int_eq(pf_ref_stick_wrench(&p, tw.vx, tw.vy, tw.w, out), 0);
            ck_assert_double_eq_tol(out[0], ref.fx, TOL_CLOSED * MU_S * n);
            ck_assert_double_eq_tol(out[1], ref.fy, TOL_CLOSED * MU_S * n);
            ck_assert_double_eq_tol(out[2], ref.mz, TOL_CLOSED * MU_S * n * size);
        }
    }
}
END_TEST

/* -- the limit factor in the centre-of-rotation form: min over P of M_max(P) / |M_L(P)| ------- */
typedef struct {
    const pfRefStickPatch *p;
    double fx, fy, mc;
} CrForm;

static double cr_ratio(const gsl_vector *x, void *par)
{
    const CrForm *c = par;
    double px = gsl_vector_get(x, 0), py = gsl_vector_get(x, 1);
    double ml = c->mc + py * c->fx - px * c->fy; /* the loads' moment about P */
    return pf_ref_stick_max_moment(c->p, px, py) / fabs(ml);
}

static double cr_form_factor(const pfRefStickPatch *p, double fx, double fy, double mc, double x0,
                             double y0)
{
    CrForm c = {p, fx, fy, mc};
    gsl_multimin_function fn = {cr_ratio, 2, &c};
    gsl_vector *x = gsl_vector_alloc(2), *step = gsl_vector_alloc(2);
    gsl_vector_set(x, 0, x0);
    gsl_vector_set(x, 1, y0);
    gsl_vector_set_all(step, 0.1 * L);
    gsl_multimin_fminimizer *m =
        gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, 2);
    gsl_multimin_fminimizer_set(m, &fn, x, step);
    for (int it = 0; it < 2000; ++it) {
        gsl_multimin_fminimizer_iterate(m);
        if (gsl_multimin_fminimizer_size(m) < 1e-12 * L) break;
    }
    double f = m->fval;
    gsl_multimin_fminimizer_free(m);
    gsl_vector_free(step);
    gsl_vector_free(x);
    return f;
}

START_TEST(limit_factor_matches_centre_of_rotation_form)
{
    /* loads with a centre of rotation inside and outside the patch, both patches */
    static const double loads[][3] = {{0.0, 1.0, 0.005}, {0.6, -0.8, -0.002}, {1.0, 0.2, 0.02}};
    for (int d = 0; d < 2; ++d) {
        pfRefStickPatch p = d ? disk_patch() : rect_patch();
        pfRefStickBody b = body_of(&p, 0.0, 0.0);
        for (int k = 0; k < (d ? 2 : 3); ++k) { /* the disk's cubature is slower */
            pfRefStickResult r, ca;
            ck_assert_int_eq(
                pf_ref_stick(&p, &b, loads[k][0], loads[k][1], loads[k][2], PF_REF_STICK_LIMIT, &r),
                0);
            ck_assert_int_eq(
                pf_ref_stick(&p, &b, loads[k][0], loads[k][1], loads[k][2], PF_REF_STICK_CA, &ca),
                0);
            double h = cr_form_factor(&p, loads[k][0], loads[k][1], loads[k][2], r.cx, r.cy);
            ck_assert_double_eq_tol(r.factor, h, TOL_PARAM * h);
            ck_assert_double_le(r.factor, ca.factor * (1.0 + 1e-12));
            /* the minimiser stops at |grad f| < 1e-7 on the plane, f ~ 0.9 here */
            ck_assert_double_le(r.residual, 1e-6);
        }
    }
}
END_TEST

/* -- the core against the reference on a grid of loads ------------------------------------- */
static void to_core(const pfRefStickPatch *p, pfPatchDef *def)
{
    *def = p->disk ? pf_test_disk(PF_PATCH_DISK, p->radius) : pf_test_rect(p->length, p->width);
}

START_TEST(core_agrees_on_a_grid)
{
    static const double ratios[] = {-10, -3, -1, -0.3, -0.1, 0.0, 0.1, 0.3, 1, 3, 10};
    const int nr = (int)(sizeof ratios / sizeof ratios[0]), na = 8;
    const int crit = _i; /* 0: CA, 1: limit */
    double worst = 0.0, worst_twist = 0.0;
    int cases = 0, verdicts = 0;
    for (int d = 0; d < 2; ++d) {
        pfRefStickPatch p = d ? disk_patch() : rect_patch();
        pfPatchDef def;
        to_core(&p, &def);
        for (int o = 0; o < (d && crit ? 1 : 2); ++o) {
            double gx = o ? 0.25 * L : 0.0, gy = o ? -0.1 * W : 0.0;
            pfRefStickBody b = body_of(&p, gx, gy);
            /* the disk's cubature about a centre of rotation costs up to ~0.1 s: under the limit
             * criterion (~20 wrenches a test) every other direction and ratio, G at the centre
             * only (the rectangle's grid has G off the centre) */
            const int skip = d && crit ? 2 : 1;
            for (int ia = 0; ia < na; ia += skip)
                for (int ir = 0; ir < nr; ir += skip) {
                    /* unit force along ang and the moment ratios[ir] |F| rho about G */
                    double ang = 2.0 * M_PI * (ia + 0.25) / na;
                    pfRefStickResult r;
                    double rho = d ? R / sqrt(2.0) : sqrt((L * L + W * W) / 12.0);
                    double fx = cos(ang), fy = sin(ang), m = ratios[ir] * rho;
                    ck_assert_int_eq(pf_ref_stick(&p, &b, fx, fy, m, crit, &r), 0);
                    pfPlanarStickInput in = {&def, MU_S, p.normal, {MASS, b.inertia, gx, gy},
                                             fx,   fy,   m};
                    pfStickResult c;
                    ck_assert_int_eq(crit ? pf_stick_planar_limit(&in, &c, NULL)
                                          : pf_stick_planar(&in, &c, NULL),
                                     PF_OK);
                    /* the breakaway load of loads growing in proportion: factor x unit load */
                    double hc = c.capacity / c.demand;
                    double rel = fabs(hc - r.factor) / r.factor;
                    worst = fmax(worst, rel);
                    double dt = fabs(c.incipient.vx - r.twist[0]) +
                                fabs(c.incipient.vy - r.twist[1]) +
                                fabs(c.incipient.w - r.twist[2]) * rho;
                    worst_twist = fmax(worst_twist, dt);
                    /* the verdict at 0.999 and 1.001 of the breakaway load */
                    for (int s = -1; s <= 1; s += 2) {
                        double sc = r.factor * (1.0 + s * 1e-3);
                        pfPlanarStickInput in2 = in;
                        in2.fx *= sc, in2.fy *= sc, in2.m_g *= sc;
                        ck_assert_int_eq(crit ? pf_stick_planar_limit(&in2, &c, NULL)
                                              : pf_stick_planar(&in2, &c, NULL),
                                         PF_OK);
                        verdicts += c.sticks == (s < 0);
                        /* the reference's own verdict, by its bounds or its full test (one
                         * direction in eight: the full tests near breakaway are slow) */
                        if (ia != 0) continue;
                        int v;
                        ck_assert_int_eq(
                            pf_ref_stick_verdict(&p, &b, fx * sc, fy * sc, m * sc, crit, &v), 0);
                        ck_assert_int_eq(v, s < 0);
                    }
                    cases++;
                }
        }
    }
    fprintf(stderr,
            "core %s vs reference: %d loads, max relative difference of the breakaway load %.3g, "
            "max incipient twist difference %.3g, verdicts agreeing at 0.999/1.001: %d of %d\n",
            crit ? "limit" : "CA", cases, worst, worst_twist, verdicts, 2 * cases);
    ck_assert_double_le(worst, crit ? TOL_CORE_LIMIT : TOL_CORE_CA);
    ck_assert_int_eq(verdicts, 2 * cases);
}
END_TEST

START_TEST(bad_inputs_refused)
{
    pfRefStickPatch p = rect_patch();
    pfRefStickBody b = body_of(&p, 0.0, 0.0);
    pfRefStickResult r;
    pfRefStickCriterion c;
    ck_assert_int_eq(pf_ref_stick(&p, &b, NAN, 0.0, 0.0, PF_REF_STICK_CA, &r), -1);
    b.mass = 0.0;
    ck_assert_int_eq(pf_ref_stick(&p, &b, 1.0, 0.0, 0.0, PF_REF_STICK_CA, &r), -1);
    b = body_of(&p, 0.0, 0.0);
    p.width = -1.0;
    ck_assert_int_eq(pf_ref_stick(&p, &b, 1.0, 0.0, 0.0, PF_REF_STICK_CA, &r), -1);
    p = rect_patch();
    ck_assert_int_eq(pf_ref_stick(&p, &b, 0.0, 0.0, 0.0, PF_REF_STICK_LIMIT, &r), 0);
    ck_assert_int_eq(r.sticks, 1);
    ck_assert_int_eq(pf_ref_stick_criterion_parse("limit", &c), 0);
    ck_assert_int_eq(c, PF_REF_STICK_LIMIT);
    ck_assert_int_eq(pf_ref_stick_criterion_parse("ca", &c), 0);
    ck_assert_int_eq(c, PF_REF_STICK_CA);
    ck_assert_int_eq(pf_ref_stick_criterion_parse("stock", &c), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ref_stick");
    TCase *tc = tcase_create("reference");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, force_through_centre_breaks_at_mu_n);
    tcase_add_test(tc, pure_moment_breaks_at_torsional_capacity);
    tcase_add_test(tc, rect_integrals_match_second_cubature);
    tcase_add_test(tc, limit_factor_matches_centre_of_rotation_form);
    tcase_add_test(tc, bad_inputs_refused);
    suite_add_tcase(s, tc);
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 300);
    tcase_add_loop_test(core, core_agrees_on_a_grid, 0, 2);
    suite_add_tcase(s, core);
    return pf_test_run_suite(s);
}
