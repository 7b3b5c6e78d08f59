/* Stick detection: the CA criterion (docs/physics.md §2, P10-P13; Kardan et al. 2013) and its
 * generalisation to a 3x3 Delassus block.
 *
 * Derivation of the one test used for both forms. Let xi be the incipient twist of the patch
 * (the frictionless relative acceleration, docs/physics.md §2) and w* the holding wrench, the
 * friction wrench that keeps the patch at rest: w* = -A^-1 a_free. The loads drive xi with power
 * demand = -xi.w* = a_free^T A^-1 a_free >= 0; static friction can oppose xi with at most
 * D(xi) = mu_s * integral p |u_xi| dA. Stick iff demand <= D(xi).
 *
 * For a free planar body (mass m, inertia J about the mass centre G, loads F through G and M_G
 * about it) the patch-centre acceleration is a_c = F/m + alpha z x (c - G), alpha = M_G / J, and
 * w* = -(F, M_c) with M_c = M_G + ((G - c) x F)_z. Then demand = a_c.F + alpha M_c = alpha M_CA
 * (the loads' moment about the centre of zero acceleration CA, P10) and D(xi) = |alpha| M_max
 * (P11), so the test is exactly P12; with alpha = 0 it is |F| <= mu_s N (P13).
 */
#include "pf_core_internal.h"

#include <math.h>
#include <stdio.h>

/* Validates the definition once; everything after it evaluates the patch unchecked. */
static int check_common(const pfPatchDef *def, double mu_s, double normal_force, pfStickResult *out,
                        pfError *err, double *rho_g)
{
    int s = pf_patch_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "output pointer is NULL");
    if ((s = pf_check_nonnegative(err, "mu_s", mu_s)) != PF_OK ||
        (s = pf_check_nonnegative(err, "normal_force", normal_force)) != PF_OK)
        return s;
    if (!isfinite(mu_s * normal_force))
        return pf_error_set(err, PF_ERR_RANGE, "normal_force",
                            "mu_s * normal_force = %g * %g overflows", mu_s, normal_force);
    *rho_g = pf_patch_gyration(def);
    return PF_OK;
}

/* A screened test decides stick without the capacity when the demand is below its lower bound
 * (pf_patch_dissipation_lower) by at least this fraction of it: the models' D are accurate to
 * ~1e-12, so the full test would stick as well. */
#define PF_STICK_SCREEN_SLACK 1e-6

/* Shared tail: given xi (incipient twist) and demand (= -xi.w*), fill the result. */
/* field: the caller's input that makes the twist overflow (the refusal names what the user set).
 * screened: NULL for the full test; else set to 1 when the capacity's lower bound decided stick
 * (capacity and margin are then the bound's), 0 otherwise. */
static int finish(const pfPatchDef *def, double mu_s, double normal_force, double rho_g, pfTwist xi,
                  double demand, double load_scale, const char *field, pfStickResult *out,
                  int *screened, pfError *err)
{
    if (screened) *screened = 0;
    pfStickResult r = {0};
    double scale = sqrt(xi.vx * xi.vx + xi.vy * xi.vy + (xi.w * rho_g) * (xi.w * rho_g));
    if (!isfinite(scale) || !isfinite(demand))
        return pf_error_set(err, PF_ERR_RANGE, field,
                            "%s is too small for the loads: the incipient twist (%g, %g, %g) "
                            "overflows",
                            field, xi.vx, xi.vy, xi.w);
    if (!(scale > 0.0)) {
        /* No load drives the patch: it stays at rest with nothing to resist. */
        r.sticks = 1;
        *out = r;
        return PF_OK;
    }
    /* Normalise to a unit twist in the velocity metric |v|^2 + (w rho_g)^2; D and demand are
     * both homogeneous of degree 1, so the verdict does not depend on this scale. */
    pfTwist u = {xi.vx / scale, xi.vy / scale, xi.w / scale};
    r.demand = demand / scale * load_scale; /* linear in the loads, for a unit twist */
    double capacity = NAN;
    if (screened) {
        const double lower = pf_patch_dissipation_lower(def, mu_s, normal_force, u);
        if (lower > 0.0 && r.demand <= (1.0 - PF_STICK_SCREEN_SLACK) * lower) {
            capacity = lower;
            *screened = 1;
        }
    }
    if (!(capacity >= 0.0)) capacity = pf_patch_dissipation_eval(def, mu_s, normal_force, u);
    if (!isfinite(capacity))
        return pf_error_set(err, PF_ERR_RANGE, "normal_force",
                            "static capacity overflows for mu_s * normal_force = %g",
                            mu_s * normal_force);
    r.incipient = u;
    r.capacity = capacity;
    r.margin = r.capacity - r.demand;
    r.sticks = r.demand <= r.capacity;
    /* A rotation whose centre lies beyond 1e15 patch radii is a translation to double
     * precision (P13); CA is reported only for a genuine rotation (P10). */
    double vmag = hypot(u.vx, u.vy);
    if (fabs(u.w) * rho_g <= 1e-15 * vmag) {
        r.pure_translation = 1;
    } else {
        r.ca_x = -u.vy / u.w;
        r.ca_y = u.vx / u.w;
    }
    *out = r;
    return PF_OK;
}

int pf_stick_planar_args(const pfPatchDef *def, double mu_s, double normal_force,
                         const pfPlanarBody *body, double fx, double fy, double m_g,
                         pfStickResult *out, int *screened, pfError *err)
{
    double rho_g;
    int s = check_common(def, mu_s, normal_force, out, err, &rho_g);
    if (s != PF_OK) return s;
    if (!body) return pf_error_set(err, PF_ERR_NULL, "body", "body pointer is NULL");
    if ((s = pf_check_positive(err, "body.mass", body->mass)) != PF_OK ||
        (s = pf_check_positive(err, "body.inertia", body->inertia)) != PF_OK ||
        (s = pf_check_finite(err, "body.com_x", body->com_x)) != PF_OK ||
        (s = pf_check_finite(err, "body.com_y", body->com_y)) != PF_OK ||
        (s = pf_check_finite(err, "fx", fx)) != PF_OK ||
        (s = pf_check_finite(err, "fy", fy)) != PF_OK ||
        (s = pf_check_finite(err, "m_g", m_g)) != PF_OK)
        return s;

    /* Work with loads divided by ls so no product below overflows; the demand per unit twist
     * is linear in the loads and is scaled back by ls in finish(). */
    double ls = fmax(fmax(fabs(fx), fabs(fy)), fabs(m_g) / rho_g);
    if (!(ls > 0.0)) ls = 1.0;
    {
        fx /= ls;
        fy /= ls;
        m_g /= ls;
    }
    double gx = body->com_x, gy = body->com_y;
    double alpha = m_g / body->inertia;
    /* a_c = a_G + alpha z x (c - G), c = origin: z x (-gx, -gy) = (gy, -gx). */
    pfTwist xi = {fx / body->mass + alpha * gy, fy / body->mass - alpha * gx, alpha};
    double m_c = m_g + gx * fy - gy * fx;
    double demand = xi.vx * fx + xi.vy * fy + xi.w * m_c;
    /* the loads are scaled to 1: only a tiny mass or inertia overflows the twist */
    const char *field =
        isfinite(fx / body->mass) && isfinite(fy / body->mass) ? "body.inertia" : "body.mass";
    return finish(def, mu_s, normal_force, rho_g, xi, demand, ls, field, out, screened, err);
}

int pf_stick_general_args(const pfPatchDef *def, double mu_s, double normal_force,
                          const double A[9], pfTwist a_free, pfStickResult *out, int *screened,
                          pfError *err)
{
    double rho_g;
    int s = check_common(def, mu_s, normal_force, out, err, &rho_g);
    if (s != PF_OK) return s;
    if (!A) return pf_error_set(err, PF_ERR_NULL, "A", "Delassus block pointer is NULL");
    double amax = 0.0;
    for (int i = 0; i < 9; ++i) {
        if (!isfinite(A[i])) { /* (the field's name is formatted only for the error) */
            char field[8];
            snprintf(field, sizeof field, "A[%d]", i);
            return pf_check_finite(err, field, A[i]);
        }
        amax = fmax(amax, fabs(A[i]));
    }
    if ((s = pf_check_finite(err, "a_free.vx", a_free.vx)) != PF_OK ||
        (s = pf_check_finite(err, "a_free.vy", a_free.vy)) != PF_OK ||
        (s = pf_check_finite(err, "a_free.w", a_free.w)) != PF_OK)
        return s;
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (fabs(A[3 * i + j] - A[3 * j + i]) > 1e-9 * amax)
                return pf_error_set(err, PF_ERR_SINGULAR, "A",
                                    "Delassus block is not symmetric: A[%d][%d] = %g, "
                                    "A[%d][%d] = %g",
                                    i, j, A[3 * i + j], j, i, A[3 * j + i]);

    double l[3][3], pivot;
    int bad = pf_spd3_cholesky(A, l, &pivot);
    if (bad >= 0)
        return pf_error_set(err, PF_ERR_SINGULAR, "A",
                            "Delassus block is not positive definite (pivot %d = %g)", bad, pivot);
    /* demand = a^T A^-1 a = |L^-1 a|^2 (forward substitution). */
    /* Work with a_free / as (no overflow); the demand per unit twist is linear in a_free and is
     * scaled back by as in finish(). */
    double as = fmax(fmax(fabs(a_free.vx), fabs(a_free.vy)), fabs(a_free.w) * rho_g);
    if (!(as > 0.0)) as = 1.0;
    {
        a_free.vx /= as;
        a_free.vy /= as;
        a_free.w /= as;
    }
    double a[3] = {a_free.vx, a_free.vy, a_free.w}, y[3];
    pf_spd3_forward(l, a, y);
    double demand = y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
    return finish(def, mu_s, normal_force, rho_g, a_free, demand, as, "A", out, screened, err);
}

int pf_stick_planar(const pfPlanarStickInput *in, pfStickResult *out, pfError *err)
{
    if (!in) return pf_error_set(err, PF_ERR_NULL, "in", "input pointer is NULL");
    return pf_stick_planar_args(in->def, in->mu_s, in->normal_force, &in->body, in->fx, in->fy,
                                in->m_g, out, NULL, err);
}

int pf_stick_general(const pfGeneralStickInput *in, pfStickResult *out, pfError *err)
{
    if (!in) return pf_error_set(err, PF_ERR_NULL, "in", "input pointer is NULL");
    if (in->reaction_count != 0)
        return pf_error_set(err, PF_ERR_RANGE, "reaction_count",
                            "reaction_count = %d: the CA test takes no reactions "
                            "(pf_stick_general_limit does)",
                            in->reaction_count);
    return pf_stick_general_args(in->def, in->mu_s, in->normal_force, in->A, in->a_free, out, NULL,
                                 err);
}

int pf_spd3_cholesky(const double A[9], double l[3][3], double *pivot)
{
    double amax = 0.0;
    for (int i = 0; i < 9; ++i)
        amax = fmax(amax, fabs(A[i]));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            l[i][j] = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j <= i; ++j) {
            double sum = 0.5 * (A[3 * i + j] + A[3 * j + i]);
            for (int k = 0; k < j; ++k)
                sum -= l[i][k] * l[j][k];
            if (i == j) {
                if (!(sum > 1e-14 * amax)) {
                    *pivot = sum;
                    return i;
                }
                l[i][i] = sqrt(sum);
            } else {
                l[i][j] = sum / l[j][j];
            }
        }
    }
    return -1;
}

void pf_spd3_forward(double l[3][3], const double b[3], double y[3])
{
    for (int i = 0; i < 3; ++i) {
        double sum = b[i];
        for (int k = 0; k < i; ++k)
            sum -= l[i][k] * y[k];
        y[i] = sum / l[i][i];
    }
}

void pf_spd3_backward(double l[3][3], const double y[3], double x[3])
{
    for (int i = 2; i >= 0; --i) {
        double sum = y[i];
        for (int k = i + 1; k < 3; ++k)
            sum -= l[k][i] * x[k];
        x[i] = sum / l[i][i];
    }
}
