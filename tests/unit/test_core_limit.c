/* The exact static test (limit set, docs/physics.md P32): pf_limit_set_test,
 * pf_stick_planar_limit, pf_stick_general_limit.
 *
 * Independent references:
 *  - the boundary of the limit set is traced by the kinetic wrench with mu_s (P6): here from
 *    adaptive cubature of P3/P4 (pf_ref_wrench for rectangles and polygons, pf_ref_disk_p15 for
 *    the uniform and Hertzian disks), never from the core's wrench functions;
 *  - the membership answer is checked against a brute-force minimisation of D(xi) / (xi.L) over
 *    a fine grid of incipient twists: every grid point with w != 0 is a rotation about an
 *    instantaneous centre c (P5), where D = |w| M_max(c) (P11, from the rectangle / disk / polygon
 *    moment modules pf_*_max_moment, which share no code with the limit search), and the w = 0
 *    row holds the translation directions, where D = mu_s N |v| (P8). The grid covers the sphere
 *    of twists (vx, vy, w rho_g) in longitude/latitude and is refined around its best point.
 */
#include <check.h>
#include <math.h>
#include <patchfriction/pf_core.h>
#include <stdio.h>
#include <string.h>

#include "pf_ref_disk.h"
#include "pf_ref_quad.h"
#include "pf_test_support.h"

/* Named tolerances. */
#define BOUNDARY_TOL 1e-9        /* |margin| / (mu_s N) for a wrench on the P6 boundary */
#define BOUNDARY_STEP 1e-6       /* the wrench scaled by 1 -/+ this must stick / break away */
#define INCIPIENT_ANGLE_TOL 1e-4 /* [rad] minimising twist vs the twist that traced the wrench */
/* disk reference, dimensionless (mu N = a = 1); pf_ref_wrench asks for 1e-13 mu N itself */
#define CUBATURE_TOL 1e-12
#define BRUTE_REL_TOL 1e-9         /* refined brute-force minimum vs the limit test's h */
#define ROUNDING_REL 1e-12         /* the limit test's h is a true minimum: not above any sample */
#define MEMBERSHIP_STEP 1e-6       /* loads at h (1 -/+ this) must stick / break away */
#define GENERAL_VS_PLANAR_TOL 1e-9 /* same problem posed through A and through the planar body */
#define MIN_VISIBLE_DIFF 0.02      /* CA vs limit differ by more than this at the 2.5 mm push */

static const double PI = 3.14159265358979323846;
static const double MU_S = 0.55, NF = 0.0794610; /* docs/physics.md §6 block: mu_s, N = m g */

/* ---- patches ------------------------------------------------------------------------------ */

/* Reference kinetic wrench (P3/P4) with coefficient mu by cubature. */
static pfWrench ref_wrench(const pfPatchDef *d, double mu, double n, pfTwist t)
{
    pfWrench w = {0, 0, 0};
    if (d->shape == PF_PATCH_DISK || d->shape == PF_PATCH_HERTZ_DISK) {
        double a = d->radius;
        pfRefDisk r = pf_ref_disk_p15(d->shape == PF_PATCH_DISK ? PF_REF_UNIFORM : PF_REF_HERTZ,
                                      t.vx / a, t.vy / a, t.w, 0.0, 0.0, 0.0, CUBATURE_TOL);
        ck_assert_int_eq(r.status, 0);
        w.fx = -mu * n * r.tx;
        w.fy = -mu * n * r.ty;
        w.mz = -mu * n * a * r.ms;
    } else {
        pfRefRegion reg = d->shape == PF_PATCH_RECT
                              ? pf_ref_rect_region(d->length, d->width)
                              : pf_ref_polygon_region(d->vertices, d->vertex_count);
        ck_assert_int_eq(pf_ref_wrench(&reg, mu, n, t, &w), 0);
    }
    return w;
}

/* ---- brute force -------------------------------------------------------------------------- */

/* P11 moment about (x, y) from the shape's own moment module. */
static double max_moment(const pfPatchDef *d, double x, double y)
{
    switch (d->shape) {
    case PF_PATCH_RECT:
        return pf_rect_max_moment(d->length, d->width, MU_S, NF, x, y);
    case PF_PATCH_DISK:
        return pf_disk_max_moment(d->radius, MU_S, NF, x, y);
    default:
        return pf_polygon_max_moment(d->vertices, d->vertex_count, MU_S, NF, x, y);
    }
}

/* D(xi) / (xi.L) for the unit vector z = (vx, vy, w rho_g); +inf where the loads do not drive
 * the twist. */
static double brute_ratio(const pfPatchDef *d, double rg, const double L[3], const double z[3])
{
    double vx = z[0], vy = z[1], w = z[2] / rg;
    double demand = vx * L[0] + vy * L[1] + w * L[2];
    if (!(demand > 0.0)) return INFINITY;
    double cap = (w == 0.0) ? MU_S * NF * hypot(vx, vy)                 /* P8: translation */
                            : fabs(w) * max_moment(d, -vy / w, vx / w); /* P11 about the CR */
    return cap / demand;
}

/* Minimum of brute_ratio over the sphere: a (2 NB + 1)^2 grid in longitude / latitude (the
 * equator, the translations, is a grid row), then ZOOM_ROUNDS grids of the same size in the
 * tangent plane at the best point so far (z = normalise(b + u t1 + v t2), no pole), each
 * ZOOM_CELLS cells of the previous grid wide on either side of it. */
#define NB 20
#define ZOOM_ROUNDS 20
#define ZOOM_CELLS 4
static double brute_min(const pfPatchDef *d, const double L[3])
{
    double rg = pf_test_gyration(d), best = INFINITY, b[3] = {1.0, 0.0, 0.0};
    for (int i = -NB; i <= NB; ++i)
        for (int j = -NB; j <= NB; ++j) {
            double th = PI * i / NB, ph = 0.5 * PI * j / NB;
            double z[3] = {cos(ph) * cos(th), cos(ph) * sin(th), sin(ph)};
            double r = brute_ratio(d, rg, L, z);
            if (r < best) {
                best = r;
                memcpy(b, z, sizeof b);
            }
        }
    double half = ZOOM_CELLS * PI / NB; /* the coarse grid's spacing is pi / NB (longitude) */
    for (int round = 0; round < ZOOM_ROUNDS; ++round) {
        /* t1 perpendicular to b in the (vx, vy) plane (so that v = 0 keeps w = 0 when b is a
         * translation), t2 = b x t1 */
        double t1[3] = {-b[1], b[0], 0.0}, n1 = hypot(b[0], b[1]);
        if (n1 > 0.0) {
            t1[0] /= n1;
            t1[1] /= n1;
        } else {
            t1[0] = 1.0;
        }
        double t2[3] = {b[1] * t1[2] - b[2] * t1[1], b[2] * t1[0] - b[0] * t1[2],
                        b[0] * t1[1] - b[1] * t1[0]};
        double c[3];
        memcpy(c, b, sizeof c);
        for (int i = -NB; i <= NB; ++i)
            for (int j = -NB; j <= NB; ++j) {
                double u = half * i / NB, v = half * j / NB, z[3];
                for (int k = 0; k < 3; ++k)
                    z[k] = c[k] + u * t1[k] + v * t2[k];
                double nz = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
                for (int k = 0; k < 3; ++k)
                    z[k] /= nz;
                double r = brute_ratio(d, rg, L, z);
                if (r < best) {
                    best = r;
                    memcpy(b, z, sizeof b);
                }
            }
        half *= (double)ZOOM_CELLS / NB;
    }
    return best;
}

/* ---- helpers ------------------------------------------------------------------------------ */

static double load_factor(const pfStickResult *r)
{
    return r->capacity / r->demand;
}

/* Field-for-field equality of two stick results (evaluations aside). */
static void assert_same(const pfStickResult *a, const pfStickResult *b, const char *what)
{
    ck_assert_msg(a->sticks == b->sticks && a->pure_translation == b->pure_translation &&
                      a->ca_x == b->ca_x && a->ca_y == b->ca_y && a->demand == b->demand &&
                      a->capacity == b->capacity && a->margin == b->margin &&
                      a->incipient.vx == b->incipient.vx && a->incipient.vy == b->incipient.vy &&
                      a->incipient.w == b->incipient.w,
                  "%s: CA (%d, margin %.17g) and limit (%d, margin %.17g) differ", what, a->sticks,
                  a->margin, b->sticks, b->margin);
}

/* ---- tests -------------------------------------------------------------------------------- */

START_TEST(test_pure_translation_and_spin_agree_exactly)
{
    /* centrally symmetric patches, body over the patch centre: the CA twist of a pure force is
     * the translation along it and that of a pure moment the spin; both are the limit test's
     * minimisers, so the two tests return the same result, bit for bit */
    pfPatchDef defs[3] = {pf_test_rect(0.03, 0.01), pf_test_disk(PF_PATCH_DISK, 0.005),
                          pf_test_disk(PF_PATCH_HERTZ_DISK, 0.004)};
    const double mass = 0.0081, inertia = 6.75e-7;
    const double factors[5] = {0.5, 0.999, 1.0, 1.001, 2.0};
    pfTestRng rng = pf_test_rng(71);
    for (int k = 0; k < 3; ++k) {
        const pfPatchDef *d = &defs[k];
        pfPlanarBody body = {mass, inertia, 0.0, 0.0};
        double A[9] = {1.0 / mass, 0, 0, 0, 1.0 / mass, 0, 0, 0, 1.0 / inertia};
        pfTwist spin = {0.0, 0.0, 1.0};
        double dspin;
        ck_assert_int_eq(pf_patch_dissipation(d, MU_S, NF, spin, &dspin, NULL), PF_OK);
        for (int i = 0; i < 40; ++i) {
            double f = factors[i % 5], ang = pf_test_range(&rng, 0.0, 2.0 * PI);
            pfStickResult ca, lim;
            char what[80];
            /* pure translation: |F| vs mu_s N (P13) */
            double fx = f * MU_S * NF * cos(ang), fy = f * MU_S * NF * sin(ang);
            ck_assert_int_eq(
                pf_stick_planar(&(pfPlanarStickInput){d, MU_S, NF, body, fx, fy, 0.0}, &ca, NULL),
                PF_OK);
            ck_assert_int_eq(pf_stick_planar_limit(
                                 &(pfPlanarStickInput){d, MU_S, NF, body, fx, fy, 0.0}, &lim, NULL),
                             PF_OK);
            snprintf(what, sizeof what, "shape %d translation x %g", d->shape, f);
            assert_same(&ca, &lim, what);
            ck_assert_int_eq(lim.pure_translation, 1);
            if (f != 1.0) ck_assert_int_eq(lim.sticks, f < 1.0);
            pfTwist a = {fx / mass, fy / mass, 0.0};
            ck_assert_int_eq(
                pf_stick_general(&(pfGeneralStickInput){d, MU_S, NF, A, a, NULL, 0}, &ca, NULL),
                PF_OK);
            ck_assert_int_eq(pf_stick_general_limit(
                                 &(pfGeneralStickInput){d, MU_S, NF, A, a, NULL, 0}, &lim, NULL),
                             PF_OK);
            assert_same(&ca, &lim, what);
            /* the bare wrench form: a translation, the P13 verdict */
            pfWrench hold = {-fx, -fy, 0.0};
            ck_assert_int_eq(pf_limit_set_test(d, MU_S, NF, hold, &lim, NULL), PF_OK);
            ck_assert(lim.pure_translation == 1 && lim.incipient.w == 0.0);
            if (f != 1.0) ck_assert_int_eq(lim.sticks, f < 1.0);

            /* pure spin: |M| vs D(spin) (P9 / P11 about the centre) */
            double mz = (i % 2 ? 1.0 : -1.0) * f * dspin;
            ck_assert_int_eq(
                pf_stick_planar(&(pfPlanarStickInput){d, MU_S, NF, body, 0.0, 0.0, mz}, &ca, NULL),
                PF_OK);
            ck_assert_int_eq(
                pf_stick_planar_limit(&(pfPlanarStickInput){d, MU_S, NF, body, 0.0, 0.0, mz}, &lim,
                                      NULL),
                PF_OK);
            snprintf(what, sizeof what, "shape %d spin x %g", d->shape, f);
            assert_same(&ca, &lim, what);
            ck_assert(lim.pure_translation == 0 && lim.ca_x == 0.0 && lim.ca_y == 0.0);
            if (f != 1.0) ck_assert_int_eq(lim.sticks, f < 1.0);
            pfTwist as = {0.0, 0.0, mz / inertia};
            ck_assert_int_eq(
                pf_stick_general(&(pfGeneralStickInput){d, MU_S, NF, A, as, NULL, 0}, &ca, NULL),
                PF_OK);
            ck_assert_int_eq(pf_stick_general_limit(
                                 &(pfGeneralStickInput){d, MU_S, NF, A, as, NULL, 0}, &lim, NULL),
                             PF_OK);
            assert_same(&ca, &lim, what);
            pfWrench hs = {0.0, 0.0, -mz};
            ck_assert_int_eq(pf_limit_set_test(d, MU_S, NF, hs, &lim, NULL), PF_OK);
            ck_assert(lim.incipient.vx == 0.0 && lim.incipient.vy == 0.0);
            if (f != 1.0) ck_assert_int_eq(lim.sticks, f < 1.0);
        }
    }
}
END_TEST

START_TEST(test_boundary_is_p6_with_mu_s)
{
    /* every wrench W(xi) of P6 with mu_s lies on the boundary of the limit set: margin 0 to
     * BOUNDARY_TOL, inside when shrunk, outside when grown, and xi is the minimising twist */
    pfPatchDef defs[6] = {pf_test_rect(0.03, 0.01),
                          pf_test_rect(0.02, 0.02),
                          pf_test_rect(0.001, 0.05),
                          pf_test_disk(PF_PATCH_DISK, 0.005),
                          pf_test_disk(PF_PATCH_HERTZ_DISK, 0.004),
                          pf_test_pentagon()};
    pfTestRng rng = pf_test_rng(72);
    double worst_margin = 0.0, worst_angle = 0.0;
    for (int k = 0; k < 6; ++k) {
        const pfPatchDef *d = &defs[k];
        double rg = pf_test_gyration(d);
        for (int i = 0; i < 24; ++i) {
            /* centre of rotation from inside the patch to 1e4 patch radii away, or a translation
             * (every 8th) or a spin (every 8th) */
            double th = pf_test_range(&rng, 0.0, 2.0 * PI);
            double dist = rg * exp(pf_test_range(&rng, log(1e-3), log(1e4)));
            double w = (i % 2 ? 1.0 : -1.0) / rg;
            pfTwist xi = {-w * dist * sin(th), w * dist * cos(th), w}; /* CR at dist (cos, sin) */
            if (i % 8 == 3) xi = (pfTwist){cos(th), sin(th), 0.0};
            if (i % 8 == 5) xi = (pfTwist){0.0, 0.0, w};
            pfWrench W = ref_wrench(d, MU_S, NF, xi);
            pfStickResult r;
            ck_assert_int_eq(pf_limit_set_test(d, MU_S, NF, W, &r, NULL), PF_OK);
            double m = fabs(r.margin) / (MU_S * NF);
            worst_margin = fmax(worst_margin, m);
            ck_assert_msg(m <= BOUNDARY_TOL, "shape %d twist (%g, %g, %g): margin %g mu_s N",
                          d->shape, xi.vx, xi.vy, xi.w, r.margin / (MU_S * NF));
            /* holding W (friction resisting xi) is the load -W: it drives xi itself */
            double n1 = sqrt(xi.vx * xi.vx + xi.vy * xi.vy + xi.w * xi.w * rg * rg);
            double c =
                (r.incipient.vx * xi.vx + r.incipient.vy * xi.vy + r.incipient.w * xi.w * rg * rg) /
                n1;
            double ang = acos(fmin(1.0, c));
            worst_angle = fmax(worst_angle, ang);
            ck_assert_msg(ang <= INCIPIENT_ANGLE_TOL, "shape %d: incipient twist %g rad off",
                          d->shape, ang);
            pfWrench in = {W.fx * (1 - BOUNDARY_STEP), W.fy * (1 - BOUNDARY_STEP),
                           W.mz * (1 - BOUNDARY_STEP)};
            pfWrench out = {W.fx * (1 + BOUNDARY_STEP), W.fy * (1 + BOUNDARY_STEP),
                            W.mz * (1 + BOUNDARY_STEP)};
            ck_assert_int_eq(pf_limit_set_test(d, MU_S, NF, in, &r, NULL), PF_OK);
            ck_assert_msg(r.sticks == 1 && r.margin > 0.0, "shape %d: shrunk wrench breaks",
                          d->shape);
            ck_assert_int_eq(pf_limit_set_test(d, MU_S, NF, out, &r, NULL), PF_OK);
            ck_assert_msg(r.sticks == 0 && r.margin < 0.0, "shape %d: grown wrench sticks",
                          d->shape);
        }
    }
    printf("boundary: worst |margin| %.2e mu_s N, worst incipient angle %.2e rad\n", worst_margin,
           worst_angle);
}
END_TEST

START_TEST(test_membership_matches_brute_force)
{
    pfPatchDef defs[5] = {pf_test_rect(0.03, 0.01), pf_test_rect(0.02, 0.02),
                          pf_test_rect(0.002, 0.04), pf_test_disk(PF_PATCH_DISK, 0.005),
                          pf_test_pentagon()};
    pfTestRng rng = pf_test_rng(73);
    double worst = 0.0;
    for (int k = 0; k < 5; ++k) {
        const pfPatchDef *d = &defs[k];
        double rg = pf_test_gyration(d);
        for (int i = 0; i < 12; ++i) {
            /* load direction: random, force-dominated or moment-dominated */
            double L[3] = {pf_test_range(&rng, -1, 1), pf_test_range(&rng, -1, 1),
                           rg * pf_test_range(&rng, -1, 1)};
            if (i % 4 == 1) L[2] *= 1e-3;
            if (i % 4 == 2) L[0] *= 1e-3, L[1] *= 1e-3;
            pfWrench hold = {-L[0], -L[1], -L[2]};
            pfStickResult r;
            ck_assert_int_eq(pf_limit_set_test(d, MU_S, NF, hold, &r, NULL), PF_OK);
            double hl = load_factor(&r), hb = brute_min(d, L);
            double rel = (hb - hl) / hl;
            worst = fmax(worst, fabs(rel));
            ck_assert_msg(hl <= hb * (1.0 + ROUNDING_REL),
                          "shape %d load (%g, %g, %g): h %.15g above a grid sample %.15g", d->shape,
                          L[0], L[1], L[2], hl, hb);
            ck_assert_msg(rel <= BRUTE_REL_TOL, "shape %d load (%g, %g, %g): h %.15g, grid %.15g",
                          d->shape, L[0], L[1], L[2], hl, hb);
            /* the verdict on either side of the brute-force boundary */
            for (int side = -1; side <= 1; side += 2) {
                double s = hb * (1.0 + side * MEMBERSHIP_STEP);
                pfWrench hs = {hold.fx * s, hold.fy * s, hold.mz * s};
                ck_assert_int_eq(pf_limit_set_test(d, MU_S, NF, hs, &r, NULL), PF_OK);
                ck_assert_msg(r.sticks == (side < 0), "shape %d: verdict at %g x the boundary",
                              d->shape, 1.0 + side * MEMBERSHIP_STEP);
            }
        }
    }
    printf("brute force: worst relative difference in h %.2e\n", worst);
}
END_TEST

START_TEST(test_limit_never_holds_longer_than_ca)
{
    /* the CA test evaluates the ratio D/(xi.L) at one twist, the limit test minimises it */
    pfPatchDef defs[3] = {pf_test_rect(0.03, 0.01), pf_test_disk(PF_PATCH_DISK, 0.005),
                          pf_test_pentagon()};
    pfTestRng rng = pf_test_rng(74);
    int differ = 0;
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 200; ++i) {
            const pfPatchDef *d = &defs[k];
            pfPlanarBody body = {exp(pf_test_range(&rng, log(1e-3), log(10.0))), 0.0,
                                 pf_test_range(&rng, -0.01, 0.01),
                                 pf_test_range(&rng, -0.01, 0.01)};
            body.inertia = body.mass * exp(pf_test_range(&rng, log(1e-6), log(1e-3)));
            double fx = pf_test_range(&rng, -1, 1), fy = pf_test_range(&rng, -1, 1),
                   mg = pf_test_range(&rng, -0.01, 0.01);
            pfStickResult ca, lim;
            ck_assert_int_eq(
                pf_stick_planar(&(pfPlanarStickInput){d, MU_S, NF, body, fx, fy, mg}, &ca, NULL),
                PF_OK);
            ck_assert_int_eq(pf_stick_planar_limit(
                                 &(pfPlanarStickInput){d, MU_S, NF, body, fx, fy, mg}, &lim, NULL),
                             PF_OK);
            double hc = load_factor(&ca), hl = load_factor(&lim);
            ck_assert_msg(hl <= hc * (1.0 + ROUNDING_REL), "limit h %.15g above CA %.15g", hl, hc);
            if (lim.sticks) ck_assert(ca.sticks);
            if (hl < hc * (1.0 - MIN_VISIBLE_DIFF)) ++differ;

            /* the same problem through the Delassus block of the free body at the patch centre:
             * A = J_c M^-1 J_c^T, a_free = A L */
            double m = body.mass, J = body.inertia, gx = body.com_x, gy = body.com_y;
            double A[9] = {1 / m + gy * gy / J,
                           -gx * gy / J,
                           gy / J,
                           -gx * gy / J,
                           1 / m + gx * gx / J,
                           -gx / J,
                           gy / J,
                           -gx / J,
                           1 / J};
            double L[3] = {fx, fy, mg + gx * fy - gy * fx};
            pfTwist a = {A[0] * L[0] + A[1] * L[1] + A[2] * L[2],
                         A[3] * L[0] + A[4] * L[1] + A[5] * L[2],
                         A[6] * L[0] + A[7] * L[1] + A[8] * L[2]};
            pfStickResult gl;
            ck_assert_int_eq(pf_stick_general_limit(
                                 &(pfGeneralStickInput){d, MU_S, NF, A, a, NULL, 0}, &gl, NULL),
                             PF_OK);
            ck_assert_msg(fabs(load_factor(&gl) - hl) <= GENERAL_VS_PLANAR_TOL * hl,
                          "general %.15g vs planar %.15g", load_factor(&gl), hl);
            ck_assert_int_eq(gl.sticks, lim.sticks);
        }
    printf("limit below CA by more than %g in %d of 600 random planar cases\n", MIN_VISIBLE_DIFF,
           differ);
    ck_assert_int_gt(differ, 0);

    /* the eccentric push of docs/physics.md §6 at h = 2.5 mm: CA's value is 5.5 % high */
    pfPatchDef d = pf_test_rect(0.03, 0.01);
    pfPlanarBody blk = {0.0081, 0.0081 * (0.03 * 0.03 + 0.01 * 0.01) / 12.0, 0.0, 0.0};
    pfStickResult ca, lim;
    ck_assert_int_eq(
        pf_stick_planar(&(pfPlanarStickInput){&d, MU_S, NF, blk, 0.0, 1.0, 0.0025}, &ca, NULL),
        PF_OK);
    ck_assert_int_eq(pf_stick_planar_limit(
                         &(pfPlanarStickInput){&d, MU_S, NF, blk, 0.0, 1.0, 0.0025}, &lim, NULL),
                     PF_OK);
    ck_assert(load_factor(&lim) < (1.0 - MIN_VISIBLE_DIFF) * load_factor(&ca));
}
END_TEST

START_TEST(test_reactions_restrict_the_search)
{
    /* A body under joints that allow only some motions (docs/physics.md P31): the
     * joints supply the reaction wrenches r without limit and the incipient twist must do no
     * work on them. Closed forms for three joints on the 30 x 10 mm block, an eccentric load:
     *  - spin lock (r = pure moment): translations only, h = mu_s N / |F| (P13);
     *  - slider along x (r = force along y, pure moment): h = mu_s N / |Fx|;
     *  - vertical hinge at H (r = forces along x and y through H): rotation about H only,
     *    h = M_max(H) / |M_L(H)| (P11 over the loads' moment about H). */
    pfPatchDef d = pf_test_rect(0.03, 0.01);
    const double m = 0.0081, J = 6.75e-7;
    double A[9] = {1 / m, 0, 0, 0, 1 / m, 0, 0, 0, 1 / J};
    pfTestRng rng = pf_test_rng(76);
    for (int i = 0; i < 50; ++i) {
        double L[3] = {pf_test_range(&rng, -0.05, 0.05), pf_test_range(&rng, -0.05, 0.05),
                       pf_test_range(&rng, -5e-4, 5e-4)};
        double hx = pf_test_range(&rng, -0.02, 0.02), hy = pf_test_range(&rng, -0.01, 0.01);
        struct {
            const char *name;
            int n;
            pfWrench r[2];
            double expect;
        } joints[3] = {
            {"spin lock", 1, {{0, 0, 1}, {0, 0, 0}}, MU_S * NF / hypot(L[0], L[1])},
            {"slider x", 2, {{0, 1, 0}, {0, 0, 2.5}}, MU_S * NF / fabs(L[0])},
            {"hinge",
             2,
             {{1, 0, -hy}, {0, 1, hx}},
             pf_rect_max_moment(0.03, 0.01, MU_S, NF, hx, hy) / fabs(L[2] - hx * L[1] + hy * L[0])},
        };
        for (int j = 0; j < 3; ++j) {
            /* the frictionless acceleration the joint allows: A L projected on the allowed
             * twists is what an adapter passes; the core projects the start itself, so the
             * unconstrained A L is given here */
            pfTwist a = {A[0] * L[0], A[4] * L[1], A[8] * L[2]};
            pfStickResult r;
            ck_assert_int_eq(
                pf_stick_general_limit(
                    &(pfGeneralStickInput){&d, MU_S, NF, A, a, joints[j].r, joints[j].n}, &r, NULL),
                PF_OK);
            double h = load_factor(&r), e = joints[j].expect;
            ck_assert_msg(fabs(h - e) <= BRUTE_REL_TOL * e, "%s: h %.15g, expected %.15g",
                          joints[j].name, h, e);
            ck_assert_int_eq(r.sticks, h >= 1.0);
            /* the incipient twist does no work on the reactions */
            for (int k = 0; k < joints[j].n; ++k) {
                const pfWrench *q = &joints[j].r[k];
                double pw = r.incipient.vx * q->fx + r.incipient.vy * q->fy + r.incipient.w * q->mz;
                ck_assert_msg(fabs(pw) <= 1e-12 * (fabs(q->fx) + fabs(q->fy) + fabs(q->mz) / 0.01),
                              "%s: incipient twist does work %g on reaction %d", joints[j].name, pw,
                              k);
            }
            /* without the reactions the test sees every motion: never less strict */
            pfStickResult fr;
            ck_assert_int_eq(pf_stick_general_limit(
                                 &(pfGeneralStickInput){&d, MU_S, NF, A, a, NULL, 0}, &fr, NULL),
                             PF_OK);
            ck_assert(load_factor(&fr) <= h * (1.0 + ROUNDING_REL));
        }
    }
    /* a load the joint carries entirely: the slider's cross load sticks whatever its size */
    pfWrench sl[2] = {{0, 1, 0}, {0, 0, 1}};
    pfTwist a = {0, 1e3 / m, 0};
    pfStickResult r;
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, A, a, sl, 2}, &r, NULL), PF_OK);
    ck_assert_int_eq(r.sticks, 1);
}
END_TEST

START_TEST(test_search_converges_within_budget)
{
    /* random loads on every model, including near-boundary ones: the search stops on its own
     * convergence test, below the evaluation cap, and the verdict agrees with the load factor */
    pfPatchDef defs[6] = {pf_test_rect(0.03, 0.01),
                          pf_test_rect(0.01, 0.01),
                          pf_test_rect(0.001, 0.1),
                          pf_test_disk(PF_PATCH_DISK, 0.005),
                          pf_test_disk(PF_PATCH_HERTZ_DISK, 0.004),
                          pf_test_pentagon()};
    pfTestRng rng = pf_test_rng(75);
    int max_evals = 0;
    long total = 0, n = 0;
    for (int k = 0; k < 6; ++k) {
        const pfPatchDef *d = &defs[k];
        double rg = pf_test_gyration(d);
        for (int i = 0; i < 1500; ++i) {
            double s = MU_S * NF * exp(pf_test_range(&rng, log(0.1), log(10.0)));
            pfWrench hold = {s * pf_test_range(&rng, -1, 1), s * pf_test_range(&rng, -1, 1),
                             s * rg * pf_test_range(&rng, -1, 1)};
            if (i % 5 == 1) hold.mz *= 1e-6;
            if (i % 5 == 2) hold.fx *= 1e-6, hold.fy *= 1e-6;
            pfStickResult r;
            ck_assert_int_eq(pf_limit_set_test(d, MU_S, NF, hold, &r, NULL), PF_OK);
            ck_assert_msg(r.evaluations < PF_LIMIT_MAX_EVALS,
                          "shape %d hold (%g, %g, %g): %d evaluations (the cap)", d->shape, hold.fx,
                          hold.fy, hold.mz, r.evaluations);
            ck_assert_int_eq(r.sticks, load_factor(&r) >= 1.0);
            ck_assert(r.demand > 0.0 && isfinite(r.margin));
            max_evals = r.evaluations > max_evals ? r.evaluations : max_evals;
            total += r.evaluations;
            ++n;
        }
    }
    printf("evaluations: mean %.2f, max %d (cap %d)\n", (double)total / n, max_evals,
           PF_LIMIT_MAX_EVALS);
}
END_TEST

START_TEST(test_zero_and_extreme_loads)
{
    pfPatchDef d = pf_test_rect(0.03, 0.01);
    pfStickResult r;
    pfWrench zero = {0, 0, 0};
    ck_assert_int_eq(pf_limit_set_test(&d, MU_S, NF, zero, &r, NULL), PF_OK);
    ck_assert(r.sticks == 1 && r.margin == 0.0);
    pfPlanarBody body = {0.0081, 6.75e-7, 0.0, 0.0};
    ck_assert_int_eq(
        pf_stick_planar_limit(&(pfPlanarStickInput){&d, MU_S, NF, body, 0, 0, 0}, &r, NULL), PF_OK);
    ck_assert_int_eq(r.sticks, 1);
    /* no static capacity: any load breaks away */
    pfWrench small = {1e-9, 0, 0};
    ck_assert_int_eq(pf_limit_set_test(&d, 0.0, NF, small, &r, NULL), PF_OK);
    ck_assert(r.sticks == 0 && r.capacity == 0.0);
    /* huge loads: no overflow inside, a clean verdict */
    pfWrench huge = {1e300, -1e300, 1e298};
    ck_assert_int_eq(pf_limit_set_test(&d, MU_S, NF, huge, &r, NULL), PF_OK);
    ck_assert(r.sticks == 0 && isfinite(r.margin) && isfinite(r.incipient.w));
    ck_assert_int_eq(pf_stick_planar_limit(
                         &(pfPlanarStickInput){&d, MU_S, NF, body, 1e300, 1e300, 1e300}, &r, NULL),
                     PF_OK);
    ck_assert(r.sticks == 0 && isfinite(r.margin));
    /* tiny loads stick */
    pfWrench tiny = {1e-300, 1e-300, 0};
    ck_assert_int_eq(pf_limit_set_test(&d, MU_S, NF, tiny, &r, NULL), PF_OK);
    ck_assert(r.sticks == 1 && isfinite(r.margin));
}
END_TEST

START_TEST(test_bad_inputs)
{
    pfPatchDef d = pf_test_rect(0.03, 0.01), unset = pf_default_patch_def();
    pfStickResult r;
    pfError e;
    pfWrench w = {0.01, 0, 0};
    ck_assert_int_eq(pf_limit_set_test(NULL, MU_S, NF, w, &r, &e), PF_ERR_NULL);
    ck_assert_str_eq(e.field, "def");
    ck_assert_int_eq(pf_limit_set_test(&unset, MU_S, NF, w, &r, &e), PF_ERR_SHAPE);
    ck_assert_str_eq(e.field, "shape");
    ck_assert_int_eq(pf_limit_set_test(&d, MU_S, NF, w, NULL, &e), PF_ERR_NULL);
    ck_assert_str_eq(e.field, "out");
    ck_assert_int_eq(pf_limit_set_test(&d, -0.1, NF, w, &r, &e), PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "mu_s");
    ck_assert_int_eq(pf_limit_set_test(&d, MU_S, NAN, w, &r, &e), PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "normal_force");
    ck_assert_int_eq(pf_limit_set_test(&d, 1e200, 1e200, w, &r, &e), PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "normal_force");
    pfWrench bad = {0, NAN, 0};
    ck_assert_int_eq(pf_limit_set_test(&d, MU_S, NF, bad, &r, &e), PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "holding.fy");
    bad = (pfWrench){0, 0, INFINITY};
    ck_assert_int_eq(pf_limit_set_test(&d, MU_S, NF, bad, &r, &e), PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "holding.mz");
    ck_assert(strstr(e.message, "holding.mz") != NULL);

    pfPlanarBody body = {0.0081, 6.75e-7, 0.0, 0.0}, nobody = {0.0, 6.75e-7, 0.0, 0.0};
    ck_assert_int_eq(pf_stick_planar_limit(NULL, &r, &e), PF_ERR_NULL);
    ck_assert_str_eq(e.field, "in");
    ck_assert_int_eq(pf_stick_general_limit(NULL, &r, &e), PF_ERR_NULL);
    ck_assert_str_eq(e.field, "in");
    ck_assert_int_eq(
        pf_stick_planar_limit(&(pfPlanarStickInput){&d, MU_S, NF, nobody, 0, 0, 0}, &r, &e),
        PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "body.mass");
    ck_assert_int_eq(
        pf_stick_planar_limit(&(pfPlanarStickInput){&d, MU_S, NF, body, 0, 0, NAN}, &r, &e),
        PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "m_g");
    ck_assert_int_eq(
        pf_stick_planar_limit(&(pfPlanarStickInput){&d, MU_S, NF, body, 0, 0, 0}, NULL, &e),
        PF_ERR_NULL);

    double A[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, asym[9] = {1, 0.5, 0, 0, 1, 0, 0, 0, 1};
    double indef[9] = {1, 0, 0, 0, -1, 0, 0, 0, 1};
    pfTwist a = {1, 0, 0}, anan = {0, 0, NAN};
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, NULL, a, NULL, 0}, &r, &e),
        PF_ERR_NULL);
    ck_assert_str_eq(e.field, "A");
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, asym, a, NULL, 0}, &r, &e),
        PF_ERR_SINGULAR);
    ck_assert_str_eq(e.field, "A");
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, indef, a, NULL, 0}, &r, &e),
        PF_ERR_SINGULAR);
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, A, anan, NULL, 0}, &r, &e),
        PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "a_free.w");
    pfWrench reac[4] = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {1, 1, 1}};
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, A, a, reac, 4}, &r, &e),
        PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "reaction_count");
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, A, a, reac, -1}, &r, &e),
        PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "reaction_count");
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, A, a, NULL, 1}, &r, &e),
        PF_ERR_NULL);
    ck_assert_str_eq(e.field, "reactions");
    reac[1].mz = NAN;
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, A, a, reac, 2}, &r, &e),
        PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "reactions[1].mz");
    ck_assert_int_eq(
        pf_stick_general_limit(&(pfGeneralStickInput){&d, MU_S, NF, A, a, reac, 2}, NULL, &e),
        PF_ERR_NULL);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("core_limit");
    TCase *tc = tcase_create("limit_set");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_pure_translation_and_spin_agree_exactly);
    tcase_add_test(tc, test_boundary_is_p6_with_mu_s);
    tcase_add_test(tc, test_membership_matches_brute_force);
    tcase_add_test(tc, test_limit_never_holds_longer_than_ca);
    tcase_add_test(tc, test_reactions_restrict_the_search);
    tcase_add_test(tc, test_search_converges_within_budget);
    tcase_add_test(tc, test_zero_and_extreme_loads);
    tcase_add_test(tc, test_bad_inputs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
