/* CA stick criterion (docs/physics.md §2, P10-P13) and its Delassus-block form.
 *
 * Independent references: the loads' moment about CA is computed here from statics by hand, and
 * the static capacity M_max (P11) by adaptive cubature of mu_s (N/A) |r - r_CA| over the
 * rectangle (libcubature), never by the core's own wrench functions. */
#include <check.h>
#include <cubature.h>
#include <math.h>
#include <patchfriction/pf_core.h>
#include <string.h>

#include "pf_core_internal.h" /* the screened tests and their capacity bound */
#include "pf_ref_disk.h"
#include "pf_ref_quad.h"
#include "pf_test_support.h"

static const double TOL_REL = 1e-9; /* relative agreement of capacities and demands */

/* Kardan et al.'s block (docs/physics.md §6). */
static const double L = 0.03, W = 0.01, MASS = 0.0234, J = 1.95e-6, MU_S = 0.4, G = 9.81;

typedef struct {
    double x0, y0;
} Point;

static int absdist(unsigned ndim, const double *x, void *data, unsigned fdim, double *f)
{
    (void)ndim;
    (void)fdim;
    const Point *p = data;
    f[0] = hypot(x[0] - p->x0, x[1] - p->y0);
    return 0;
}

/* mu_s (N/A) * integral |r - c| over [-L/2, L/2] x [-W/2, W/2], split at c so the kink of the
 * integrand sits on sub-domain corners. */
static double ref_max_moment(double cx, double cy, double n)
{
    double xs[3] = {-L / 2, fmin(fmax(cx, -L / 2), L / 2), L / 2};
    double ys[3] = {-W / 2, fmin(fmax(cy, -W / 2), W / 2), W / 2};
    Point p = {cx, cy};
    double sum = 0.0;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            if (xs[i + 1] <= xs[i] || ys[j + 1] <= ys[j]) continue;
            double lo[2] = {xs[i], ys[j]}, hi[2] = {xs[i + 1], ys[j + 1]}, val, errv;
            hcubature(1, absdist, &p, 2, lo, hi, 0, 0, 1e-13, ERROR_INDIVIDUAL, &val, &errv);
            sum += val;
        }
    return MU_S * n / (L * W) * sum;
}

START_TEST(pure_translation_is_p13)
{
    pfPatchDef def = pf_test_rect(L, W);
    pfPlanarBody body = {MASS, J, 0.0, 0.0};
    double n = MASS * G, fmax_ = MU_S * n;
    pfStickResult r;
    pfError e;
    for (int k = 0; k < 16; ++k) {
        double ang = 2.0 * 3.14159265358979 * k / 16.0;
        ck_assert_int_eq(
            pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, n, body, 0.999 * fmax_ * cos(ang),
                                                  0.999 * fmax_ * sin(ang), 0.0},
                            &r, &e),
            PF_OK);
        ck_assert_int_eq(r.sticks, 1);
        ck_assert_int_eq(r.pure_translation, 1);
        ck_assert_double_eq_tol(r.capacity, fmax_, TOL_REL * fmax_);
        ck_assert_int_eq(
            pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, n, body, 1.001 * fmax_ * cos(ang),
                                                  1.001 * fmax_ * sin(ang), 0.0},
                            &r, &e),
            PF_OK);
        ck_assert_int_eq(r.sticks, 0);
    }
}
END_TEST

/* P10-P12 by hand: CA from the accelerations, moment of the loads about CA, capacity by
 * cubature; the core's verdict, CA and margin must agree for random loads. */
START_TEST(random_loads_match_p10_p12)
{
    pfPatchDef def = pf_test_rect(L, W);
    pfTestRng rng = pf_test_rng(7);
    double n = MASS * G;
    int sticks = 0, slips = 0;
    for (int k = 0; k < 400; ++k) {
        pfPlanarBody body = {MASS, J, pf_test_range(&rng, -0.01, 0.01),
                             pf_test_range(&rng, -0.004, 0.004)};
        double fx = pf_test_range(&rng, -0.1, 0.1), fy = pf_test_range(&rng, -0.1, 0.1);
        double mg = pf_test_range(&rng, -1e-3, 1e-3);
        double ax = fx / MASS, ay = fy / MASS, alpha = mg / J;
        /* P10 relative to G, then to the patch centre. */
        double cax = body.com_x - ay / alpha, cay = body.com_y + ax / alpha;
        /* Moment of the loads about CA: M_G + ((G - CA) x F)_z. */
        double mca = mg + (body.com_x - cax) * fy - (body.com_y - cay) * fx;
        double mmax = ref_max_moment(cax, cay, n);
        pfStickResult r;
        ck_assert_int_eq(
            pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, n, body, fx, fy, mg}, &r, NULL),
            PF_OK);
        ck_assert_double_eq_tol(r.ca_x, cax, 1e-9 * fmax(1.0, fabs(cax)));
        ck_assert_double_eq_tol(r.ca_y, cay, 1e-9 * fmax(1.0, fabs(cay)));
        /* demand / capacity = |M_CA| / M_max (both per unit rotation rate). */
        double ratio_ref = fabs(mca) / mmax, ratio = r.demand / r.capacity;
        ck_assert_double_eq_tol(ratio, ratio_ref, TOL_REL * fmax(1.0, ratio_ref));
        if (fabs(ratio_ref - 1.0) > 1e-6) ck_assert_int_eq(r.sticks, ratio_ref <= 1.0);
        sticks += r.sticks;
        slips += !r.sticks;
    }
    /* The sample must exercise both outcomes, or the test proves nothing. */
    ck_assert_int_gt(sticks, 20);
    ck_assert_int_gt(slips, 20);
}
END_TEST

/* The eccentric push (docs/physics.md §6): a force P along y applied at x = h on the long side of a
 * block whose mass centre is above the patch centre. CA depends on the load direction only, so
 * the breakaway force is P* = M_max(CA) / |M_CA(P = 1)|. The core's verdict must flip there. */
START_TEST(eccentric_push_breakaway)
{
    pfPatchDef def = pf_test_rect(L, W);
    const double ML = 0.03, MW = 0.01, MH = 0.01, RHO = 2700.0, MU = 0.55;
    double mass = RHO * ML * MW * MH, inertia = mass * (ML * ML + MW * MW) / 12.0;
    double n = mass * G;
    pfPlanarBody body = {mass, inertia, 0.0, 0.0};
    const double hs[] = {0.0, 0.0025, 0.005, 0.0075, 0.01};
    for (unsigned i = 0; i < sizeof hs / sizeof hs[0]; ++i) {
        double h = hs[i];
        /* Unit push along +y at (h, -W/2): moment about G is h * 1. */
        double mg = h, pstar;
        if (h == 0.0) {
            pstar = MU * n; /* P13 */
        } else {
            double ay = 1.0 / mass, alpha = mg / inertia;
            double cax = -ay / alpha, cay = 0.0;
            double mca = mg + (0.0 - cax) * 1.0;
            pstar = (ref_max_moment(cax, cay, n) / MU_S * MU) / fabs(mca);
        }
        pfStickResult r;
        ck_assert_int_eq(
            pf_stick_planar(&(pfPlanarStickInput){&def, MU, n, body, 0.0, 0.999999 * pstar,
                                                  0.999999 * pstar * h},
                            &r, NULL),
            PF_OK);
        ck_assert_int_eq(r.sticks, 1);
        ck_assert_int_eq(
            pf_stick_planar(&(pfPlanarStickInput){&def, MU, n, body, 0.0, 1.000001 * pstar,
                                                  1.000001 * pstar * h},
                            &r, NULL),
            PF_OK);
        ck_assert_int_eq(r.sticks, 0);
        /* An off-centre push breaks away at less than mu N (the block turns). */
        if (h > 0.0) ck_assert_double_lt(pstar, MU * n);
    }
}
END_TEST

/* For a free body the Delassus block about the mass centre is diag(1/m, 1/m, 1/J): the general
 * form must reproduce the planar verdict and margins exactly. With the patch centre offset from
 * the mass centre the block has the rigid-body transfer terms. */
START_TEST(general_form_reduces_to_planar)
{
    pfPatchDef def = pf_test_rect(L, W);
    pfTestRng rng = pf_test_rng(11);
    double n = MASS * G;
    for (int k = 0; k < 200; ++k) {
        double gx = pf_test_range(&rng, -0.01, 0.01), gy = pf_test_range(&rng, -0.004, 0.004);
        pfPlanarBody body = {MASS, J, gx, gy};
        double fx = pf_test_range(&rng, -0.1, 0.1), fy = pf_test_range(&rng, -0.1, 0.1);
        double mg = pf_test_range(&rng, -1e-3, 1e-3);
        /* Point c = origin, r = c - G = (-gx, -gy). Patch velocity v_c = v_G + w z x r, so
         * J_c = [[1, 0, -r_y], [0, 1, r_x], [0, 0, 1]] maps (v_G, w); A = J_c M^-1 J_c^T. */
        double rx = -gx, ry = -gy;
        double A[9] = {1.0 / MASS + ry * ry / J,
                       -rx * ry / J,
                       -ry / J,
                       -rx * ry / J,
                       1.0 / MASS + rx * rx / J,
                       rx / J,
                       -ry / J,
                       rx / J,
                       1.0 / J};
        double alpha = mg / J;
        pfTwist a = {fx / MASS - alpha * ry, fy / MASS + alpha * rx, alpha};
        pfStickResult rp, rg;
        ck_assert_int_eq(
            pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, n, body, fx, fy, mg}, &rp, NULL),
            PF_OK);
        ck_assert_int_eq(
            pf_stick_general(&(pfGeneralStickInput){&def, MU_S, n, A, a, NULL, 0}, &rg, NULL),
            PF_OK);
        ck_assert_int_eq(rp.sticks, rg.sticks);
        ck_assert_double_eq_tol(rg.demand, rp.demand, 1e-8 * rp.demand);
        ck_assert_double_eq_tol(rg.capacity, rp.capacity, 1e-8 * rp.capacity);
        ck_assert_double_eq_tol(rg.ca_x, rp.ca_x, 1e-8 * fmax(1.0, fabs(rp.ca_x)));
    }
}
END_TEST

START_TEST(zero_load_sticks)
{
    pfPatchDef def = pf_test_rect(L, W);
    pfPlanarBody body = {MASS, J, 0.0, 0.0};
    pfStickResult r;
    ck_assert_int_eq(
        pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, 1.0, body, 0.0, 0.0, 0.0}, &r, NULL),
        PF_OK);
    ck_assert_int_eq(r.sticks, 1);
    /* Huge loads must not overflow into a false "stick". */
    ck_assert_int_eq(
        pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, 1.0, body, 1e300, 1e300, 1e300}, &r,
                        NULL),
        PF_OK);
    ck_assert_int_eq(r.sticks, 0);
    ck_assert(isfinite(r.capacity));
}
END_TEST

START_TEST(bad_inputs_rejected)
{
    pfPatchDef def = pf_test_rect(L, W);
    pfPlanarBody body = {MASS, J, 0.0, 0.0};
    pfStickResult r;
    pfError e;
    ck_assert_int_eq(pf_stick_planar(NULL, &r, &e), PF_ERR_NULL);
    ck_assert_str_eq(e.field, "in");
    ck_assert_int_eq(pf_stick_planar(&(pfPlanarStickInput){NULL, MU_S, 1.0, body, 0, 0, 0}, &r, &e),
                     PF_ERR_NULL);
    ck_assert_str_eq(e.field, "def");
    pfPlanarBody bad = body;
    bad.mass = 0.0;
    ck_assert_int_eq(pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, 1.0, bad, 0, 0, 0}, &r, &e),
                     PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "body.mass");
    bad = body;
    bad.inertia = NAN;
    ck_assert_int_eq(pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, 1.0, bad, 0, 0, 0}, &r, &e),
                     PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "body.inertia");
    ck_assert_int_eq(pf_stick_planar(&(pfPlanarStickInput){&def, -0.1, 1.0, body, 0, 0, 0}, &r, &e),
                     PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "mu_s");
    ck_assert_int_eq(
        pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, 1.0, body, INFINITY, 0, 0}, &r, &e),
        PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "fx");
    ck_assert_int_eq(
        pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, 1.0, body, 0, 0, 0}, NULL, &e),
        PF_ERR_NULL);
    /* an overflow names the input the user set, not a derived quantity */
    bad = body;
    bad.mass = 1e-310;
    ck_assert_int_eq(pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, 1.0, bad, 1, 0, 0}, &r, &e),
                     PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "body.mass");
    bad = body;
    bad.inertia = 1e-310;
    ck_assert_int_eq(pf_stick_planar(&(pfPlanarStickInput){&def, MU_S, 1.0, bad, 0, 0, 1}, &r, &e),
                     PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "body.inertia");
    ck_assert_int_eq(pf_limit_set_test(&def, MU_S, 1.0, (pfWrench){0, 0, 1e308}, &r, &e),
                     PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "holding.mz");

    double A[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    pfTwist a = {1, 0, 0};
    double asym[9] = {1, 0.5, 0, 0, 1, 0, 0, 0, 1};
    ck_assert_int_eq(
        pf_stick_general(&(pfGeneralStickInput){&def, MU_S, 1.0, asym, a, NULL, 0}, &r, &e),
        PF_ERR_SINGULAR);
    ck_assert_str_eq(e.field, "A");
    double indef[9] = {1, 0, 0, 0, -1, 0, 0, 0, 1};
    ck_assert_int_eq(
        pf_stick_general(&(pfGeneralStickInput){&def, MU_S, 1.0, indef, a, NULL, 0}, &r, &e),
        PF_ERR_SINGULAR);
    A[4] = NAN;
    ck_assert_int_eq(
        pf_stick_general(&(pfGeneralStickInput){&def, MU_S, 1.0, A, a, NULL, 0}, &r, &e),
        PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "A[4]");
    A[4] = 1.0;
    ck_assert_int_eq(
        pf_stick_general(&(pfGeneralStickInput){&def, MU_S, 1.0, NULL, a, NULL, 0}, &r, &e),
        PF_ERR_NULL);
    ck_assert_str_eq(e.field, "A");
    /* the CA test has no reactions: a count meant for the limit-set test is refused, not ignored */
    pfWrench reac = {0.0, 0.0, 1.0};
    ck_assert_int_eq(
        pf_stick_general(&(pfGeneralStickInput){&def, MU_S, 1.0, A, a, &reac, 1}, &r, &e),
        PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "reaction_count");
    ck_assert_int_eq(pf_stick_general(NULL, &r, &e), PF_ERR_NULL);
    ck_assert_str_eq(e.field, "in");
    pfPatchDef unset = pf_default_patch_def();
    ck_assert_int_eq(
        pf_stick_planar(&(pfPlanarStickInput){&unset, MU_S, 1.0, body, 0, 0, 0}, &r, &e),
        PF_ERR_SHAPE);
    ck_assert_str_eq(e.field, "shape");
}
END_TEST

/* ---- the screened tests ----------------------------------------------------------------------
 * pf_patch_dissipation_lower bounds D from below; the screened tests use it to skip the capacity
 * where the bound already exceeds the demand. References: D by cubature (pf_ref_max_moment over
 * the polygon, pf_ref_disk_distance over the disks: D = |w| P11 about the CR, mu_s N |v| for a
 * translation), never the core's own D. */

/* One random patch of each kind in turn: a centred rectangle, uniform disk, Hertz disk, or a
 * convex polygon (4-7 vertices on an ellipse) offset from the patch centre by up to its size.
 * *centred: the pressure's centroid is the patch centre. */
static pfPatchDef random_patch(pfTestRng *rng, int k, int *centred)
{
    const double a = fabs(pf_test_logsigned(rng, 1e-3, 1.0));
    *centred = 1;
    switch (k % 4) {
    case 0:
        return pf_test_rect(a, a * fabs(pf_test_logsigned(rng, 1e-2, 1.0)));
    case 1:
        return pf_test_disk(PF_PATCH_DISK, a);
    case 2:
        return pf_test_disk(PF_PATCH_HERTZ_DISK, a);
    default: {
        pfPatchDef d = pf_default_patch_def();
        d.shape = PF_PATCH_POLYGON;
        d.vertex_count = 4 + k / 4 % 4;
        const double b = a * pf_test_range(rng, 0.2, 1.0), ox = pf_test_range(rng, -a, a),
                     oy = pf_test_range(rng, -a, a), ph = pf_test_range(rng, 0.0, 1.0);
        for (int i = 0; i < d.vertex_count; ++i) {
            const double t = 2.0 * PF_PI * (i + ph) / d.vertex_count;
            d.vertices[2 * i] = ox + a * cos(t);
            d.vertices[2 * i + 1] = oy + b * sin(t);
        }
        *centred = 0;
        return d;
    }
    }
}

/* D(xi) of def by cubature (see above). */
static double ref_dissipation(const pfPatchDef *def, double mu, double n, pfTwist xi)
{
    if (xi.w == 0.0) return mu * n * hypot(xi.vx, xi.vy);
    const double x0 = -xi.vy / xi.w, y0 = xi.vx / xi.w;
    double p11 = 0.0;
    if (def->shape == PF_PATCH_DISK || def->shape == PF_PATCH_HERTZ_DISK) {
        const double a = def->radius;
        p11 = mu * n * a *
              pf_ref_disk_distance(def->shape == PF_PATCH_DISK ? PF_REF_UNIFORM : PF_REF_HERTZ,
                                   x0 / a, y0 / a, 1e-12);
    } else {
        pfRefRegion reg = def->shape == PF_PATCH_RECT
                              ? pf_ref_rect_region(def->length, def->width)
                              : pf_ref_polygon_region(def->vertices, def->vertex_count);
        ck_assert_int_eq(pf_ref_max_moment(&reg, mu, n, x0, y0, &p11), 0);
    }
    return fabs(xi.w) * p11;
}

/* The bound lies below D for every patch and twist, equals it for a translation, and for the
 * centred patches is within a factor 2 of it (analysis: 0.62 at worst, a square's spin). */
START_TEST(capacity_bound_below_reference)
{
    pfTestRng rng = pf_test_rng(31);
    const double n = 3.7;
    double worst = INFINITY;
    for (int k = 0; k < 400; ++k) {
        int centred;
        pfPatchDef def = random_patch(&rng, k, &centred);
        const double rg = pf_test_gyration(&def), th = pf_test_range(&rng, 0.0, 2.0 * PF_PI);
        pfTwist xi;
        if (k % 5 == 0) { /* a translation */
            xi = (pfTwist){2.0 * cos(th), 2.0 * sin(th), 0.0};
        } else { /* a rotation about a CR from 1e-3 to 1e3 gyration radii off the centre */
            const double r = rg * fabs(pf_test_logsigned(&rng, 1e-3, 1e3)), w = 1.3 / rg;
            xi = (pfTwist){w * r * sin(th), -w * r * cos(th), w};
        }
        const double lower = pf_patch_dissipation_lower(&def, MU_S, n, xi);
        const double ref = ref_dissipation(&def, MU_S, n, xi);
        ck_assert_msg(lower <= ref * (1.0 + 1e-9), "shape %d: bound %.17g above D %.17g", def.shape,
                      lower, ref);
        if (xi.w == 0.0) ck_assert_double_eq_tol(lower, ref, 1e-12 * ref);
        if (centred) worst = fmin(worst, lower / ref);
    }
    ck_assert_msg(worst >= 0.5, "bound / D = %g for a centred patch", worst);
}
END_TEST

/* A random symmetric positive definite block with entries of the units of a body's. */
static void random_block(pfTestRng *rng, double rg, double A[9])
{
    double B[9];
    const double s[3] = {1.0, 1.0, 1.0 / rg};
    for (int i = 0; i < 9; ++i)
        B[i] = pf_test_range(rng, -1.0, 1.0) * s[i / 3];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
            A[3 * i + k] = (i == k ? 0.1 * s[i] * s[i] : 0.0);
            for (int j = 0; j < 3; ++j)
                A[3 * i + k] += B[3 * i + j] * B[3 * k + j];
        }
    for (int i = 0; i < 3; ++i) /* exactly symmetric */
        for (int k = 0; k < i; ++k)
            A[3 * i + k] = A[3 * k + i];
}

static void assert_same_but_capacity(const pfStickResult *s, const pfStickResult *f, int screened)
{
    ck_assert_int_eq(s->sticks, f->sticks);
    ck_assert_int_eq(s->pure_translation, f->pure_translation);
    ck_assert(memcmp(&s->demand, &f->demand, sizeof s->demand) == 0);
    ck_assert(memcmp(&s->incipient, &f->incipient, sizeof s->incipient) == 0);
    ck_assert(memcmp(&s->ca_x, &f->ca_x, sizeof s->ca_x) == 0);
    ck_assert(memcmp(&s->ca_y, &f->ca_y, sizeof s->ca_y) == 0);
    if (screened) {
        ck_assert(s->sticks);
        /* (a translation's bound is D itself, to rounding) */
        ck_assert_msg(s->capacity <= f->capacity * (1.0 + 1e-12),
                      "bound %.17g, D %.17g, u (%g, %g, %g)", s->capacity, f->capacity,
                      f->incipient.vx, f->incipient.vy, f->incipient.w);
        ck_assert(s->margin >= 0.0);
    } else {
        ck_assert(memcmp(&s->capacity, &f->capacity, sizeof s->capacity) == 0);
        ck_assert(memcmp(&s->margin, &f->margin, sizeof s->margin) == 0);
    }
}

/* The screened tests give the full tests' verdict, demand, incipient twist and CA bit for bit,
 * over loads from far inside the limit set to far outside it; both branches are exercised. */
START_TEST(screened_tests_match_full_tests)
{
    pfTestRng rng = pf_test_rng(32);
    int count[2] = {0, 0}, slips = 0;
    for (int k = 0; k < 4000; ++k) {
        int centred;
        pfPatchDef def = random_patch(&rng, k, &centred);
        const double rg = pf_test_gyration(&def), n = fabs(pf_test_logsigned(&rng, 1e-2, 1e2));
        const double load = MU_S * n * fabs(pf_test_logsigned(&rng, 1e-3, 1e1));
        double A[9];
        random_block(&rng, rg, A);
        const pfTwist a = {load * pf_test_range(&rng, -1.0, 1.0),
                           load * pf_test_range(&rng, -1.0, 1.0),
                           k % 3 ? load * pf_test_range(&rng, -1.0, 1.0) / rg : 0.0};
        pfStickResult rs, rf;
        int screened = -1;
        ck_assert_int_eq(pf_stick_general_args(&def, MU_S, n, A, a, &rs, &screened, NULL), PF_OK);
        ck_assert_int_eq(pf_stick_general_args(&def, MU_S, n, A, a, &rf, NULL, NULL), PF_OK);
        assert_same_but_capacity(&rs, &rf, screened);
        count[screened]++;
        slips += !rf.sticks;
        /* the planar form */
        pfPlanarBody body = {
            fabs(pf_test_logsigned(&rng, 1e-2, 1e1)), fabs(pf_test_logsigned(&rng, 1e-6, 1e-1)),
            pf_test_range(&rng, -2.0 * rg, 2.0 * rg), pf_test_range(&rng, -2.0 * rg, 2.0 * rg)};
        ck_assert_int_eq(
            pf_stick_planar_args(&def, MU_S, n, &body, a.vx, a.vy, a.w * rg, &rs, &screened, NULL),
            PF_OK);
        ck_assert_int_eq(
            pf_stick_planar_args(&def, MU_S, n, &body, a.vx, a.vy, a.w * rg, &rf, NULL, NULL),
            PF_OK);
        assert_same_but_capacity(&rs, &rf, screened);
        count[screened]++;
        slips += !rf.sticks;
    }
    ck_assert_msg(count[0] > 500 && count[1] > 500 && slips > 500,
                  "screened %d, full %d, slipping %d of 8000", count[1], count[0], slips);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("core_stick");
    TCase *tc = tcase_create("ca");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, pure_translation_is_p13);
    tcase_add_test(tc, random_loads_match_p10_p12);
    tcase_add_test(tc, eccentric_push_breakaway);
    tcase_add_test(tc, general_form_reduces_to_planar);
    tcase_add_test(tc, zero_load_sticks);
    tcase_add_test(tc, bad_inputs_rejected);
    tcase_add_test(tc, capacity_bound_below_reference);
    tcase_add_test(tc, screened_tests_match_full_tests);
    suite_add_tcase(s, tc);
    return pf_test_run_suite(s);
}
