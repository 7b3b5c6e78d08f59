/* Stick detection: the exact limit-set test (docs/physics.md P32).
 *
 * The patch sticks iff the holding wrench w* lies in the limit set K of static friction:
 * -xi.w* <= D(xi) for every twist xi, D(xi) = mu_s * integral p |u_xi| dA (pf_patch_dissipation).
 * With the load L = -w* (what friction must resist) the test is
 *
 *     h = min { D(xi) : xi.L = 1 } >= 1.
 *
 * The normalisation xi.L = 1 (unit demand) turns the search into the minimisation of a convex
 * function over a plane: D is convex and positively homogeneous, so D restricted to the plane is
 * convex, smooth for an area patch (the integrand's kink is a single point, the centre of
 * rotation) and strictly convex (two twists whose velocity fields are parallel over a region are
 * proportional), and it grows like |xi|, so a unique minimiser exists. Homogeneity makes h the
 * largest factor the loads can be multiplied by before slip: D(xi)/(xi.L) is scale free and h is
 * its minimum over all twists with positive demand. Rotations about a point c give
 * D/(xi.L) = M_max(c) / |M_L(c)| (P11 over the loads' moment about c) and translations give
 * mu_s N / (v.F), so the CA test is this minimisation evaluated at c = CA only: h <= h_CA.
 *
 * Every evaluation of the kinetic wrench with mu_s gives the value and the gradient: by maximum
 * dissipation grad D(xi) = -W(xi) and D(xi) = -xi.W(xi) (Euler's identity, degree 1). The search
 * is a quasi-Newton method in two plane coordinates: the Hessian is started by forward
 * differences of that exact gradient (two evaluations), then updated by BFGS from the gradient
 * change of every accepted step, with Armijo backtracking and a trust bound on the step. It starts
 * at the CA twist (or at the load direction), which is the minimiser itself for pure
 * translation and pure spin of centrally symmetric patches, so those cases stop after the
 * Hessian probe and return the CA result unchanged.
 *
 * Coordinates: z = (vx, vy, w rho_g) and the load (Lx, Ly, Lz / rho_g), so that z.L = xi.L and
 * all three components are velocities resp. forces; the load is divided by its largest
 * component and D is evaluated with mu_s N = 1 (D is linear in mu_s N), so nothing in the search
 * can overflow. The minimiser is the normal of the limit surface where the ray t L leaves K (the
 * first motion when the loads grow in proportion); it does not depend on any metric.
 *
 * Other joints on the bodies (pf_stick_general_limit's reactions) restrict the incipient twist
 * to those that do no work on their reactions: the search then runs over the line (one reaction)
 * or the single point (two) where the plane meets the allowed twists, and the load's part along
 * the reactions is left to the joints.
 */
#include "pf_core_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Forward-difference step of the initial Hessian, relative to |z|: the gradient is accurate to
 * ~1e-13 and its third-order variation is O(1/|z|^2), so 1e-4 balances both well below the
 * accuracy a Newton start needs. */
#define PF_LIMIT_FD_STEP 1e-4
/* Converged when the quadratic model predicts a decrease below this fraction of D: D itself is
 * evaluated to ~1e-15, so the test stops at the rounding floor without chasing noise. */
#define PF_LIMIT_CONVERGED 1e-13
/* ... or when the step is below this fraction of |z| (D changes by O(step^2) near the minimum;
 * the gradient of thin patches carries ~1e-7 relative noise, which must not keep the search
 * going). */
#define PF_LIMIT_STEP_MIN 1e-9
/* Decreases from the start below this fraction of D are rounding: the start is kept. */
#define PF_LIMIT_TIE 1e-13
/* Largest step as a fraction of |z| (the Hessian scales like 1/|z|; this keeps the quadratic
 * model within the region where it was measured). */
#define PF_LIMIT_TRUST 0.5
/* Sufficient decrease (Armijo) and the most backtracking halvings per iteration. */
#define PF_LIMIT_ARMIJO 1e-4
#define PF_LIMIT_BACKTRACKS 4
/* A reaction whose part independent of the previous ones is below this fraction of it adds no
 * restriction (it is dropped). */
#define PF_LIMIT_DEPENDENT 1e-9
/* A load whose part not carried by the reactions is below this fraction of it drives nothing. */
#define PF_LIMIT_CARRIED 1e-12
/* A start twist whose demand is below this fraction of |z||L| lies nearly in the plane at
 * infinity: start at the load direction instead. */
#define PF_LIMIT_START_MIN 1e-6

typedef struct limit_search {
    pfPatchDef sdef; /* the static model: exact, no rolling shift, no regularisation */
    double rho_g;    /* [m] */
    double l[3];     /* load (Lx, Ly, Lz / rho_g) / its largest component */
    double z0[3];    /* l / |l|^2, the point of the plane z.l = 1 nearest the origin */
    double e[2][3];  /* orthonormal basis of the search directions (zero rows beyond dim) */
    int dim;         /* 2, or fewer when reactions restrict the allowed twists */
    int evals, max_evals;
} limit_search;

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double norm3(const double *a)
{
    return sqrt(dot3(a, a));
}

static void plane_point(const limit_search *ls, const double s[2], double z[3])
{
    for (int k = 0; k < 3; ++k)
        z[k] = ls->z0[k] + s[0] * ls->e[0][k] + s[1] * ls->e[1][k];
}

/* D (with mu_s N = 1) at the plane point s, its plane gradient g and the point z. Returns 0 when
 * the evaluation budget is spent or the model fails (cannot happen for a validated patch and a
 * finite twist; treated as "stop"). */
static int eval_at(limit_search *ls, const double s[2], double *f, double g[2], double z[3])
{
    if (ls->evals >= ls->max_evals) return 0;
    plane_point(ls, s, z);
    pfTwist t = {z[0], z[1], z[2] / ls->rho_g}, zero = {0.0, 0.0, 0.0};
    pfWrench w;
    ls->evals++;
    w = pf_patch_eval(&ls->sdef, 1.0, 1.0, t, zero);  /* validated once by the caller */
    double gz[3] = {-w.fx, -w.fy, -w.mz / ls->rho_g}; /* grad D = -W (maximum dissipation) */
    *f = dot3(gz, z);                                 /* D = -xi.W (Euler) */
    g[0] = dot3(gz, ls->e[0]);
    g[1] = dot3(gz, ls->e[1]);
    return isfinite(*f) && isfinite(g[0]) && isfinite(g[1]);
}

/* Quasi-Newton minimisation of D over the plane from s (in/out). Returns the start value in
 * *f_start and the best value in *f_best (NaN if not even the start could be evaluated); s is
 * the best point found. */
static void run_search(limit_search *ls, double s[2], double *f_start, double *f_best)
{
    double f, g[2], z[3];
    *f_start = *f_best = NAN;
    if (!eval_at(ls, s, &f, g, z)) return;
    *f_start = *f_best = f;
    double sb[2] = {s[0], s[1]}, fb = f;

    /* Initial Hessian: forward differences of the exact gradient along the search axes (unit
     * curvature on unused axes, whose gradient is identically zero). */
    double hs = PF_LIMIT_FD_STEP * norm3(z), gj[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
    double H[3] = {1.0, 0.0, 1.0}; /* H = [[H0, H1], [H1, H2]] */
    int ok = 1;
    for (int j = 0; j < ls->dim && ok; ++j) {
        double sj[2] = {s[0], s[1]}, fj, zj[3];
        sj[j] += hs;
        ok = eval_at(ls, sj, &fj, gj[j], zj);
        if (ok && fj < fb) {
            fb = fj;
            sb[0] = sj[0];
            sb[1] = sj[1];
        }
    }
    if (ok && ls->dim >= 1) H[0] = (gj[0][0] - g[0]) / hs;
    if (ok && ls->dim == 2) {
        H[2] = (gj[1][1] - g[1]) / hs;
        H[1] = 0.5 * ((gj[0][1] - g[1]) + (gj[1][0] - g[0])) / hs;
    }
    if (!ok || !(H[0] > 0.0) || !(H[0] * H[2] - H[1] * H[1] > 0.0)) {
        /* model Hessian: D ~ |z| has curvature ~ 1/|z| across the ray */
        H[0] = H[2] = 1.0 / norm3(z);
        H[1] = 0.0;
    }

    while (ok) {
        double det = H[0] * H[2] - H[1] * H[1];
        double p[2] = {-(H[2] * g[0] - H[1] * g[1]) / det, -(H[0] * g[1] - H[1] * g[0]) / det};
        double slope = g[0] * p[0] + g[1] * p[1];
        double pn = hypot(p[0], p[1]), lim = PF_LIMIT_TRUST * norm3(z);
        /* converged (or a non-finite model): the model's decrease or the step is at rounding */
        if (!(-slope > PF_LIMIT_CONVERGED * f) || !(pn > PF_LIMIT_STEP_MIN * norm3(z))) break;
        if (pn > lim) {
            p[0] *= lim / pn;
            p[1] *= lim / pn;
            slope *= lim / pn;
        }
        double sn[2], fn = 0.0, gn[2], zn[3];
        int accepted = 0;
        for (int b = 0; b <= PF_LIMIT_BACKTRACKS; ++b) {
            sn[0] = s[0] + p[0];
            sn[1] = s[1] + p[1];
            if (!eval_at(ls, sn, &fn, gn, zn)) {
                ok = 0;
                break;
            }
            if (fn < fb) {
                fb = fn;
                sb[0] = sn[0];
                sb[1] = sn[1];
            }
            if (fn <= f + PF_LIMIT_ARMIJO * slope) {
                accepted = 1;
                break;
            }
            /* minimiser of the quadratic through f, slope and fn, kept in [0.1, 0.5] */
            double t = -slope / (2.0 * (fn - f - slope));
            t = t < 0.1 ? 0.1 : (t > 0.5 ? 0.5 : t);
            p[0] *= t;
            p[1] *= t;
            slope *= t;
        }
        if (!accepted) break;
        /* BFGS update of the Hessian from the exact gradient change (curvature condition). */
        double y[2] = {gn[0] - g[0], gn[1] - g[1]};
        double ys = y[0] * p[0] + y[1] * p[1];
        if (ys > 1e-12 * hypot(y[0], y[1]) * hypot(p[0], p[1])) {
            double hp[2] = {H[0] * p[0] + H[1] * p[1], H[1] * p[0] + H[2] * p[1]};
            double php = hp[0] * p[0] + hp[1] * p[1];
            H[0] += y[0] * y[0] / ys - hp[0] * hp[0] / php;
            H[1] += y[0] * y[1] / ys - hp[0] * hp[1] / php;
            H[2] += y[1] * y[1] / ys - hp[1] * hp[1] / php;
        }
        s[0] = sn[0];
        s[1] = sn[1];
        f = fn;
        g[0] = gn[0];
        g[1] = gn[1];
        memcpy(z, zn, sizeof z);
    }
    s[0] = sb[0];
    s[1] = sb[1];
    *f_best = fb;
}

/* Fill out for the unit twist along the normalised z (capacity = mu_s N D1(z)/|z|, demand =
 * load_scale l.z/|z|). */
static void fill_result(const limit_search *ls, const double z[3], double d1, double mu_n,
                        double load_scale, pfStickResult *out)
{
    pfStickResult r;
    memset(&r, 0, sizeof r);
    double nz = norm3(z);
    double u[3] = {z[0] / nz, z[1] / nz, z[2] / nz};
    r.incipient.vx = u[0];
    r.incipient.vy = u[1];
    r.incipient.w = u[2] / ls->rho_g;
    r.capacity = mu_n * (d1 / nz);
    r.demand = load_scale * dot3(u, ls->l);
    r.margin = r.capacity - r.demand;
    r.sticks = r.demand <= r.capacity;
    /* the same translation threshold as the CA test (pf_core_stick.c) */
    if (fabs(u[2]) <= 1e-15 * hypot(u[0], u[1])) {
        r.pure_translation = 1;
    } else {
        r.ca_x = -r.incipient.vy / r.incipient.w; /* P5 */
        r.ca_y = r.incipient.vx / r.incipient.w;
    }
    r.evaluations = ls->evals;
    *out = r;
}

/* The shared test. load = L / load_scale (physical units N, N, N m), reactions = wrenches the
 * other constraints supply (the allowed twists do no work on them; validated, may be NULL with
 * count 0), start = a twist the loads drive (any scale; zero for none), ca = the CA result to
 * return on a tie (NULL for none), extra_evals = evaluations already spent by the caller. */
static int limit_core(const pfPatchDef *def, double mu_s, double normal_force, double rho_g,
                      const double load[3], double load_scale, const pfWrench *reactions,
                      int reaction_count, pfTwist start, const pfStickResult *ca, int extra_evals,
                      const char *field, pfStickResult *out, pfError *err)
{
    limit_search ls;
    memset(&ls, 0, sizeof ls);
    ls.sdef = pf_patch_static(def);
    ls.rho_g = rho_g;
    ls.max_evals = PF_LIMIT_MAX_EVALS - extra_evals;

    double lt[3] = {load[0], load[1], load[2] / rho_g};
    double lmax = fmax(fmax(fabs(lt[0]), fabs(lt[1])), fabs(lt[2]));
    double scale = load_scale * lmax;
    if (!isfinite(lmax) || !isfinite(scale))
        return pf_error_set(err, PF_ERR_RANGE, field,
                            "%s is out of range: the holding wrench (%g, %g, %g) x %g overflows",
                            field, load[0], load[1], load[2], load_scale);
    if (!(lmax > 0.0)) { /* no load: nothing to resist */
        if (ca) {
            *out = *ca;
        } else {
            memset(out, 0, sizeof *out);
            out->sticks = 1;
        }
        out->evaluations = extra_evals;
        return PF_OK;
    }
    double mu_n = mu_s * normal_force;
    for (int k = 0; k < 3; ++k)
        ls.l[k] = lt[k] / lmax;

    /* Allowed twists: z.r = 0 for every reaction r (normalised like the load; orthonormalised,
     * dependent ones dropped). The load's part along the reactions is carried by the other
     * constraints: only lp, the rest, drives allowed twists (z.l = z.lp for allowed z). */
    double rb[3][3], lp[3] = {ls.l[0], ls.l[1], ls.l[2]};
    int nr = 0;
    for (int i = 0; i < reaction_count; ++i) {
        double rt[3] = {reactions[i].fx, reactions[i].fy, reactions[i].mz / rho_g};
        double rm = fmax(fmax(fabs(rt[0]), fabs(rt[1])), fabs(rt[2]));
        if (!(rm > 0.0)) continue;
        for (int k = 0; k < 3; ++k)
            rt[k] /= rm;
        double n_in = norm3(rt);
        for (int q = 0; q < nr; ++q) {
            double c = dot3(rt, rb[q]);
            for (int k = 0; k < 3; ++k)
                rt[k] -= c * rb[q][k];
        }
        double n_out = norm3(rt);
        if (!(n_out > PF_LIMIT_DEPENDENT * n_in)) continue;
        for (int k = 0; k < 3; ++k)
            rb[nr][k] = rt[k] / n_out;
        ++nr;
    }
    for (int q = 0; q < nr; ++q) {
        double c = dot3(ls.l, rb[q]);
        for (int k = 0; k < 3; ++k)
            lp[k] -= c * rb[q][k];
    }
    double l2 = dot3(lp, lp), ln = sqrt(l2);
    if (!(ln > PF_LIMIT_CARRIED * norm3(ls.l))) {
        /* the other constraints carry the whole load: nothing drives an allowed twist */
        memset(out, 0, sizeof *out);
        out->sticks = 1;
        out->evaluations = extra_evals;
        return PF_OK;
    }
    /* the search set: z0 + span(e), z0 = lp / |lp|^2 (allowed, unit demand, nearest the origin) */
    for (int k = 0; k < 3; ++k)
        ls.z0[k] = lp[k] / l2;
    ls.dim = 2 - nr;
    double *e0 = ls.e[0], *e1 = ls.e[1];
    if (ls.dim == 2) {
        /* lp-perp: cross lp with the coordinate axis least aligned with it */
        int ax = 0;
        for (int k = 1; k < 3; ++k)
            if (fabs(lp[k]) < fabs(lp[ax])) ax = k;
        double a[3] = {0.0, 0.0, 0.0};
        a[ax] = 1.0;
        e0[0] = lp[1] * a[2] - lp[2] * a[1];
        e0[1] = lp[2] * a[0] - lp[0] * a[2];
        e0[2] = lp[0] * a[1] - lp[1] * a[0];
    } else if (ls.dim == 1) {
        /* perpendicular to both lp and the reaction */
        e0[0] = lp[1] * rb[0][2] - lp[2] * rb[0][1];
        e0[1] = lp[2] * rb[0][0] - lp[0] * rb[0][2];
        e0[2] = lp[0] * rb[0][1] - lp[1] * rb[0][0];
    }
    if (ls.dim >= 1) {
        double n0 = norm3(e0);
        for (int k = 0; k < 3; ++k)
            e0[k] /= n0;
    }
    if (ls.dim == 2) {
        e1[0] = (lp[1] * e0[2] - lp[2] * e0[1]) / ln;
        e1[1] = (lp[2] * e0[0] - lp[0] * e0[2]) / ln;
        e1[2] = (lp[0] * e0[1] - lp[1] * e0[0]) / ln;
    }

    /* start: the given twist made allowed and scaled to unit demand, else z0. The CA result
     * stands for the start only if the start is used as given (not moved into the allowed
     * twists): otherwise it is not returned on a tie. */
    double zs[3] = {start.vx, start.vy, start.w * rho_g}, s[2] = {0.0, 0.0};
    double zs_in = norm3(zs);
    for (int q = 0; q < nr; ++q) {
        double c = dot3(zs, rb[q]);
        for (int k = 0; k < 3; ++k)
            zs[k] -= c * rb[q][k];
    }
    double zsn = norm3(zs), ds = dot3(zs, lp);
    if (isfinite(zsn) && zsn > 0.0 && ds > PF_LIMIT_START_MIN * zsn * ln) {
        for (int k = 0; k < 3; ++k)
            zs[k] /= ds;
        s[0] = dot3(zs, e0);
        s[1] = dot3(zs, e1);
        if (!(zsn >= (1.0 - PF_LIMIT_TIE) * zs_in)) ca = NULL;
    } else {
        ca = NULL;
    }
    double s0[2] = {s[0], s[1]};

    if (!(mu_n > 0.0)) {
        /* no static capacity: D == 0, every load breaks away; report the start twist */
        if (ca) {
            *out = *ca;
            out->evaluations = extra_evals;
        } else {
            double z[3];
            plane_point(&ls, s0, z);
            fill_result(&ls, z, 0.0, 0.0, scale, out);
        }
        return PF_OK;
    }

    double f_start, f_best;
    run_search(&ls, s, &f_start, &f_best);
    if (!isfinite(f_best))
        return pf_error_set(err, PF_ERR_NOT_FINITE, "result",
                            "limit-set search could not evaluate the patch wrench");
    int tie = !(f_best < f_start * (1.0 - PF_LIMIT_TIE));
    if (tie && ca) {
        *out = *ca;
        out->evaluations = ls.evals + extra_evals;
        return PF_OK;
    }
    double z[3];
    plane_point(&ls, tie ? s0 : s, z);
    fill_result(&ls, z, tie ? f_start : f_best, mu_n, scale, out);
    out->evaluations += extra_evals;
    return PF_OK;
}

int pf_limit_set_test(const pfPatchDef *def, double mu_s, double normal_force, pfWrench holding,
                      pfStickResult *out, pfError *err)
{
    double rho_g;
    int s = pf_patch_gyration_radius(def, &rho_g, err); /* validates def, once per test */
    if (s != PF_OK) return s;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "output pointer is NULL");
    if ((s = pf_check_nonnegative(err, "mu_s", mu_s)) != PF_OK ||
        (s = pf_check_nonnegative(err, "normal_force", normal_force)) != PF_OK ||
        (s = pf_check_finite(err, "holding.fx", holding.fx)) != PF_OK ||
        (s = pf_check_finite(err, "holding.fy", holding.fy)) != PF_OK ||
        (s = pf_check_finite(err, "holding.mz", holding.mz)) != PF_OK)
        return s;
    if (!isfinite(mu_s * normal_force))
        return pf_error_set(err, PF_ERR_RANGE, "normal_force",
                            "mu_s * normal_force = %g * %g overflows", mu_s, normal_force);
    /* load L = -w*, divided by its largest component (as a force) so nothing overflows */
    double ls = fmax(fmax(fabs(holding.fx), fabs(holding.fy)), fabs(holding.mz) / rho_g);
    if (!(ls > 0.0)) ls = 1.0;
    double load[3] = {-holding.fx / ls, -holding.fy / ls, -holding.mz / ls};
    pfTwist none = {0.0, 0.0, 0.0};
    /* the components are scaled to 1 but the moment is divided by rho_g */
    return limit_core(def, mu_s, normal_force, rho_g, load, ls, NULL, 0, none, NULL, 0,
                      "holding.mz", out, err);
}

int pf_stick_planar_limit(const pfPlanarStickInput *in, pfStickResult *out, pfError *err)
{
    pfStickResult ca;
    int s = pf_stick_planar(in, &ca, err);
    if (s != PF_OK) return s; /* validates every input */
    const pfPatchDef *def = in->def;
    const double mu_s = in->mu_s, normal_force = in->normal_force;
    const pfPlanarBody *body = &in->body;
    double fx = in->fx, fy = in->fy, m_g = in->m_g;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "output pointer is NULL");
    double rho_g = pf_patch_gyration(def); /* def validated by the CA test above */
    /* load L = (F, M_c), M_c = m_g + ((G - c) x F)_z with c the origin (pf_core_stick.c) */
    double ls = fmax(fmax(fabs(fx), fabs(fy)), fabs(m_g) / rho_g);
    if (!(ls > 0.0)) ls = 1.0;
    fx /= ls;
    fy /= ls;
    m_g /= ls;
    double load[3] = {fx, fy, m_g + body->com_x * fy - body->com_y * fx};
    return limit_core(def, mu_s, normal_force, rho_g, load, ls, NULL, 0, ca.incipient, &ca, 1,
                      "m_g", out, err);
}

int pf_stick_general_limit(const pfGeneralStickInput *in, pfStickResult *out, pfError *err)
{
    if (!in) return pf_error_set(err, PF_ERR_NULL, "in", "input pointer is NULL");
    const pfPatchDef *def = in->def;
    const double mu_s = in->mu_s, normal_force = in->normal_force;
    const double *A = in->A;
    const pfTwist a_free = in->a_free;
    const pfWrench *reactions = in->reactions;
    const int reaction_count = in->reaction_count;
    pfStickResult ca;
    int s = pf_stick_general_args(def, mu_s, normal_force, A, a_free, &ca, NULL, err);
    if (s != PF_OK) return s; /* validates every input: A symmetric positive definite */
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "output pointer is NULL");
    if (reaction_count < 0 || reaction_count > 3)
        return pf_error_set(err, PF_ERR_RANGE, "reaction_count",
                            "reaction_count = %d must be in [0, 3]", reaction_count);
    if (reaction_count > 0 && !reactions)
        return pf_error_set(err, PF_ERR_NULL, "reactions",
                            "reactions is NULL with reaction_count = %d", reaction_count);
    for (int i = 0; i < reaction_count; ++i) {
        char field[40];
        const double c[3] = {reactions[i].fx, reactions[i].fy, reactions[i].mz};
        static const char *const name[3] = {"fx", "fy", "mz"};
        for (int k = 0; k < 3; ++k) {
            snprintf(field, sizeof field, "reactions[%d].%s", i, name[k]);
            if ((s = pf_check_finite(err, field, c[k])) != PF_OK) return s;
        }
    }
    double rho_g = pf_patch_gyration(def); /* def validated by the CA test above */
    double as = fmax(fmax(fabs(a_free.vx), fabs(a_free.vy)), fabs(a_free.w) * rho_g);
    if (!(as > 0.0)) as = 1.0;
    /* L = -w* = A^-1 a_free (A is positive definite: pf_stick_general accepted it) */
    double l[3][3], pivot, a[3] = {a_free.vx / as, a_free.vy / as, a_free.w / as}, y[3], x[3];
    pf_spd3_cholesky(A, l, &pivot);
    pf_spd3_forward(l, a, y);
    pf_spd3_backward(l, y, x);
    return limit_core(def, mu_s, normal_force, rho_g, x, as, reactions, reaction_count,
                      ca.incipient, &ca, 1, "A", out, err);
}
