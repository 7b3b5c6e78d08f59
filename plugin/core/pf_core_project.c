/* Implicit friction step of one patch: xi = A (W(xi) - lambda*), lambda = W(xi) (pf_core.h has
 * the maximum-dissipation derivation: the dual min g(xi) = 1/2 xi.A^-1 xi + lambda*.xi + D(xi)
 * and its primal, the A-metric projection of lambda* onto the limit set C).
 *
 * Scaled unknowns. With S = diag(1, 1, rho_g) (rho_g the gyration radius) the twist metric is
 * |S xi| and T = S^-1 maps a wrench to (fx, fy, mz / rho_g), all in force units, so
 * xi.lambda = (S xi).(T lambda). With a force scale F = max(mu N, |T lambda*|_inf) and the
 * velocity scale V = F max|S A S|_ij, the unknown q = S xi / V solves
 *
 *     G(q) = q - M (c u(q) - f*) = 0,   M = S A S F / V,  f* = T lambda* / F,  c = mu N / F,
 *
 * u(q) = T W1(S^-1 q) the unit (mu N = 1) wrench: every quantity is O(1) (|M_ij| <= 1,
 * |f*| <= 1, |u| <= ~1), so nothing below overflows for any finite input that validates. W is
 * homogeneous of degree 0 in the twist (jointly with eps_t for the regularised Hertz model), so
 * evaluating it at S^-1 q instead of V S^-1 q only needs eps_t / V in a copy of the definition.
 *
 * Stick or slip. For the gradient models (pf_core.h) whose kinetic model is the static one,
 * any twist xi with xi.(W(xi) - lambda*) > 0 certifies slip: D(xi) = -xi.W(xi) < -xi.lambda*
 * means lambda* violates the support inequality of C along xi. The start point is such a
 * probe for free (the guess, else xi_f = -A lambda*, whose W is needed for the first
 * fixed-point step anyway); only when it certifies nothing does the exact limit-set test
 * (pf_limit_set_test, up to PF_LIMIT_MAX_EVALS evaluations) decide. Both answers are exact,
 * so the guess cannot change the verdict, only its cost. Models whose kinetic wrench is not
 * the static one always ask the limit-set test first (the static-set convention of pf_core.h);
 * eps_t > 0 never sticks.
 *
 * Slip: damped Newton on G. Jacobian J = I - c M Du; since u is homogeneous of degree 0,
 * Du q = 0 and J q = q, and for the gradient models -c Du = H is symmetric positive
 * semidefinite, so J = M (M^-1 + H) is nonsingular and -J^-1 G = -(M^-1 + H)^-1 grad g is the
 * Newton direction of the dual g as well. Du by forward differences with one step
 * h = PF_PROJECT_FD_STEP max(|q|, eps_t a / V) for all three components (in q the spin is
 * already w rho_g, a velocity: the per-component scaling is S). u varies on the scale |q|
 * (u ~ q/|q|), so the truncation error is ~h/|q| relative and the rounding error
 * ~1e-15 |q| / h: 1e-6 keeps both near 1e-9 and Newton contracts by about that factor per
 * step. For the homogeneous models (eps_t = 0) Du q = 0 exactly, so only the two directions
 * normal to q are differenced (Du = sum_k (Du e_k) e_k^T, e_1, e_2 orthonormal and normal to q):
 * two evaluations instead of three, the same derivative to the differences' error. The Jacobian
 * is reused (chord steps, one evaluation each) while a full step contracts |G| at least
 * PF_PROJECT_CHORD_RATE, else it is recomputed; each kept step updates it by the secant
 * (Broyden's rank-one update, J s = G(q + s) - G(q)), free since both G are known. A Jacobian
 * from the start point, still far from the answer, contracted the chord steps only by ~0.07 each
 * (the ODE bin: 6-12 chord steps to the tolerance, whatever the difference step); with the
 * secant they converge superlinearly, and the evaluations per warm-started call in that scene
 * fell from 14.3 to 11.0 (both changes). The answer is the same fixed point to the same tolerance.
 *
 * Globalisation. Plain damped Newton on |G| (the first version) failed on ~1 % of random
 * coupled blocks: when the solution lies near 0 (free just outside C) and the start far from
 * it, steps swing through the cone point of D and the iterates cycle. Three changes fix it
 * (0 failures in 10^4 random rectangle cases, tests/unit/test_core_project.c):
 *  - for eps_t = 0, G is linear along rays (G(t n) = t n - M (c u(n) - f*)), so every trial
 *    point gets its best radius in closed form (ray_optimise) and the step only turns the
 *    direction, along the great circle towards q + p, by at most PF_PROJECT_MAX_TURN, halved
 *    per backtrack (trial_point);
 *  - the merit is the dual g for the gradient models (convex: no cycling), |G| otherwise;
 *  - the start is the best of the evaluated candidates (guess, xi_f, the fixed-point step q0,
 *    the limit test's incipient twist, which the loads are known to drive).
 * The start without a guess is one fixed-point step from xi_f: q0 = M (c u(q_f) - f*), already
 * exact for a pure translation of a symmetric patch with a diagonal A.
 *
 * Not converged (budget spent, or no decrease along the Newton direction after
 * PF_PROJECT_BACKTRACKS halvings with a fresh Jacobian): the iterate with the smallest |G| is
 * returned with converged = 0 and status PF_OK: the solver still gets W at a finite twist (a
 * value of the model, inside or on C) and the velocity A (W - lambda*) that goes with it.
 *
 * Known limits (measured in test_other_models_converge, 40 random coupled blocks each): the
 * regularised Hertz disk (eps_t > 0: W is a smoothed cone, no radius in closed form, merit |G|)
 * converges in ~85-90 % of slipping cases within the budget; the Padé model and the exact Hertz
 * disk with d != 0 and eps_t = 0 (kinetic wrench set != static limit set) in 34 of 34 and 27 of
 * 28 (29 and 25 before the secant update), where no slip fixed point need exist next to the
 * static boundary. The gradient models
 * (rectangle, polygon, uniform disk, Hertz with d = 0 or no rolling, eps_t = 0) converge in
 * every tested case.
 */
#include "pf_core_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Forward-difference step of the Jacobian relative to max(|q|, eps scale) (see above). */
#define PF_PROJECT_FD_STEP 1e-6
/* A chord step (stale Jacobian) that does not shrink |G| by at least this factor triggers a
 * fresh Jacobian at the next iterate. */
#define PF_PROJECT_CHORD_RATE 0.1
/* Halvings of a damped step before giving up on the direction. */
#define PF_PROJECT_BACKTRACKS 8
/* Sufficient decrease of |G| per unit step length (Armijo). */
#define PF_PROJECT_ARMIJO 1e-4
/* Rounding floor of |G| in units of DBL_EPSILON times the magnitudes it is formed from. */
#define PF_PROJECT_FLOOR 8.0
/* Slip certificate q.(c u - f*) > this times |q| (c |u| + |f*|): below it, the sign is
 * rounding and the exact test decides. */
#define PF_PROJECT_CERT 1e-13
/* Largest turn of the iterate's direction per Newton step [rad] (turn_limit). */
#define PF_PROJECT_MAX_TURN 0.5
/* Radius kept by a direction the loads do not drive, relative to |b| (ray_optimise). */
#define PF_PROJECT_TINY_RADIUS 1e-30

typedef struct proj_state {
    pfPatchDef kdef; /* kinetic model, eps_t divided by V */
    pfTwist rolling; /* rolling velocity (Hertz shift direction only) */
    double rho;      /* gyration radius [m] */
    double c;        /* mu N / F, in [0, 1] */
    double M[9];     /* S A S F / V, row-major, symmetrised, max |M_ij| = 1 */
    double fs[3];    /* f* = T lambda* / F */
    double heps;     /* eps_t a / V: the scale below which u is linear in q (0 for eps_t = 0) */
    double fsn;      /* |f*| (norm3), set once f* is */
    double lm[3][3]; /* Cholesky factor of M (the dual objective of the gradient models) */
    int gradient;    /* W = -grad D and kinetic == static model: merit = the dual g */
    int homogeneous; /* eps_t = 0: u is homogeneous of degree 0 in q */
    int evals, max_evals;
} proj_state;

typedef struct proj_point {
    double q[3], u[3], g[3]; /* iterate, unit wrench T W1(S^-1 q), G(q) */
    double gn;               /* |G| */
} proj_point;

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* fmax(a, b) without the library call (norm3 and solve3 are the most called functions here):
 * a if a > b or b is a NaN, else b. On magnitudes (no zero of the other sign) that is fmax's value
 * for every input. */
static inline double fmax_inline(double a, double b)
{
    return (a > b || b != b) ? a : b;
}

/* Euclidean norm without under- or overflow of the squares (the scaled problem is O(1), but a
 * free wrench 1e-160 of mu N makes q and G that small). */
static double norm3(const double *a)
{
    double m = fmax_inline(fmax_inline(fabs(a[0]), fabs(a[1])), fabs(a[2]));
    if (!(m > 0.0) || !isfinite(m)) return m;
    const double r = 1.0 / m; /* m is a normal double here: r is exact enough and finite */
    double x = a[0] * r, y = a[1] * r, z = a[2] * r;
    return m * sqrt(x * x + y * y + z * z);
}

static void mat_vec(const double *M, const double *x, double *y)
{
    for (int i = 0; i < 3; ++i)
        y[i] = M[3 * i] * x[0] + M[3 * i + 1] * x[1] + M[3 * i + 2] * x[2];
}

/* u(q) = T W1(S^-1 q) with mu N = 1; the definition was validated once by the caller. Returns 0
 * when the budget is spent or the model returned a non-finite value. */
static int eval_u(proj_state *ps, const double q[3], double u[3])
{
    if (ps->evals >= ps->max_evals) return 0;
    ps->evals++;
    pfTwist t = {q[0], q[1], q[2] / ps->rho};
    pfWrench w = pf_patch_eval(&ps->kdef, 1.0, 1.0, t, ps->rolling);
    u[0] = w.fx;
    u[1] = w.fy;
    u[2] = w.mz / ps->rho;
    return isfinite(u[0]) && isfinite(u[1]) && isfinite(u[2]);
}

/* G = q - M (c u - f*) for a point whose u is known. */
static void residual_at(const proj_state *ps, proj_point *p)
{
    double d[3], md[3];
    for (int k = 0; k < 3; ++k)
        d[k] = ps->c * p->u[k] - ps->fs[k];
    mat_vec(ps->M, d, md);
    for (int k = 0; k < 3; ++k)
        p->g[k] = p->q[k] - md[k];
    p->gn = norm3(p->g);
}

static int eval_point(proj_state *ps, const double q[3], proj_point *p)
{
    memcpy(p->q, q, sizeof p->q);
    if (!eval_u(ps, q, p->u)) return 0;
    residual_at(ps, p);
    return isfinite(p->gn);
}

/* Rounding floor of |G| at p: q - M (c u - f*) is formed from terms of these magnitudes. */
static double g_floor(const proj_state *ps, const proj_point *p)
{
    return PF_PROJECT_FLOOR * DBL_EPSILON * (norm3(p->q) + 3.0 * (ps->c * norm3(p->u) + ps->fsn));
}

/* Solve J x = b (3x3, Gaussian elimination with partial pivoting). Returns 0 if J is singular
 * to rounding. */
static int solve3(double J[3][3], const double b[3], double x[3])
{
    double a[3][4];
    double jmax = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            a[i][j] = J[i][j];
            jmax = fmax_inline(jmax, fabs(J[i][j]));
        }
        a[i][3] = b[i];
    }
    for (int col = 0; col < 3; ++col) {
        int piv = col;
        for (int r = col + 1; r < 3; ++r)
            if (fabs(a[r][col]) > fabs(a[piv][col])) piv = r;
        if (!(fabs(a[piv][col]) > 1e-14 * jmax)) return 0;
        if (piv != col)
            for (int j = 0; j < 4; ++j) {
                double tmp = a[col][j];
                a[col][j] = a[piv][j];
                a[piv][j] = tmp;
            }
        for (int r = col + 1; r < 3; ++r) {
            double f = a[r][col] / a[col][col];
            for (int j = col; j < 4; ++j)
                a[r][j] -= f * a[col][j];
        }
    }
    for (int i = 2; i >= 0; --i) {
        double s = a[i][3];
        for (int j = i + 1; j < 3; ++j)
            s -= a[i][j] * x[j];
        x[i] = s / a[i][i];
    }
    return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]);
}

/* J = I - c M Du at p, Du by forward differences (2 evaluations for the homogeneous models, 3
 * otherwise). Returns 0 on budget. */
static int jacobian(proj_state *ps, const proj_point *p, double J[3][3])
{
    const double r = norm3(p->q);
    double h = PF_PROJECT_FD_STEP * fmax(r, ps->heps);
    if (!(h > 0.0)) h = PF_PROJECT_FD_STEP;
    double du[3][3]; /* du[i][k] = d u_i / d q_k */
    if (ps->homogeneous && r > 0.0 && isfinite(r)) {
        /* u is constant along the ray: Du n = 0, so Du = sum over e1, e2 (orthonormal, normal to
         * n) of (Du e_k) e_k^T, two differences instead of three */
        double n[3] = {p->q[0] / r, p->q[1] / r, p->q[2] / r}, e[2][3];
        int a = fabs(n[0]) <= fabs(n[1]) ? (fabs(n[0]) <= fabs(n[2]) ? 0 : 2)
                                         : (fabs(n[1]) <= fabs(n[2]) ? 1 : 2);
        double ax[3] = {0.0, 0.0, 0.0};
        ax[a] = 1.0;
        e[0][0] = n[1] * ax[2] - n[2] * ax[1];
        e[0][1] = n[2] * ax[0] - n[0] * ax[2];
        e[0][2] = n[0] * ax[1] - n[1] * ax[0];
        double en = norm3(e[0]);
        for (int k = 0; k < 3; ++k)
            e[0][k] /= en;
        e[1][0] = n[1] * e[0][2] - n[2] * e[0][1];
        e[1][1] = n[2] * e[0][0] - n[0] * e[0][2];
        e[1][2] = n[0] * e[0][1] - n[1] * e[0][0];
        double dd[2][3];
        for (int k = 0; k < 2; ++k) {
            double qk[3], uk[3];
            for (int i = 0; i < 3; ++i)
                qk[i] = p->q[i] + h * e[k][i];
            if (!eval_u(ps, qk, uk)) return 0;
            for (int i = 0; i < 3; ++i)
                dd[k][i] = (uk[i] - p->u[i]) / h;
        }
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k)
                du[i][k] = dd[0][i] * e[0][k] + dd[1][i] * e[1][k];
    } else {
        for (int k = 0; k < 3; ++k) {
            double qk[3] = {p->q[0], p->q[1], p->q[2]}, uk[3];
            qk[k] += h;
            if (!eval_u(ps, qk, uk)) return 0;
            double hk = qk[k] - p->q[k]; /* the step actually taken */
            for (int i = 0; i < 3; ++i)
                du[i][k] = (uk[i] - p->u[i]) / hk;
        }
    }
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
            double s = 0.0;
            for (int j = 0; j < 3; ++j)
                s += ps->M[3 * i + j] * du[j][k];
            J[i][k] = (i == k ? 1.0 : 0.0) - ps->c * s;
        }
    return 1;
}

/* Dual objective g(q) = 1/2 q.M^-1 q + f*.q - c q.u(q) at an evaluated point (gradient models:
 * D1(q) = -q.u(q)), and M^-1 G, its gradient. */
static double dual_at(proj_state *ps, const proj_point *p, double grad[3])
{
    double y[3], minv_q[3];
    pf_spd3_forward(ps->lm, p->q, y);
    pf_spd3_backward(ps->lm, y, minv_q);
    if (grad) {
        pf_spd3_forward(ps->lm, p->g, y);
        pf_spd3_backward(ps->lm, y, grad);
    }
    return 0.5 * dot3(p->q, minv_q) + dot3(ps->fs, p->q) - ps->c * dot3(p->q, p->u);
}

/* Homogeneous models (eps_t = 0): u is constant along rays, so G(t n) = t n - b(n) is linear in
 * t and the dual g(t n) quadratic: the best radius along the direction of p->q costs no
 * evaluation. For the gradient models it minimises g (t = n.(c u - f*) / n.M^-1 n, the reduced
 * dual whose maximisation over directions is the limit-set problem), else |G| (t = n.b). A
 * direction that the loads do not drive (t <= 0) keeps a tiny radius so it stays a direction. */
static void ray_optimise(proj_state *ps, proj_point *p)
{
    if (!ps->homogeneous) return;
    double r = norm3(p->q);
    if (!(r > 0.0)) return;
    double n[3] = {p->q[0] / r, p->q[1] / r, p->q[2] / r}, d[3], b[3], t;
    for (int k = 0; k < 3; ++k)
        d[k] = ps->c * p->u[k] - ps->fs[k];
    mat_vec(ps->M, d, b);
    if (ps->gradient) {
        double y[3], minv_n[3];
        pf_spd3_forward(ps->lm, n, y);
        pf_spd3_backward(ps->lm, y, minv_n);
        t = dot3(n, d) / dot3(n, minv_n);
    } else {
        t = dot3(n, b);
    }
    double tmin = PF_PROJECT_TINY_RADIUS * norm3(b);
    if (!(t > tmin)) t = tmin;
    if (!(t > 0.0) || !isfinite(t)) return; /* b == 0: q = 0 solves G already */
    proj_point keep = *p;
    for (int k = 0; k < 3; ++k)
        p->q[k] = t * n[k];
    residual_at(ps, p);
    /* an overflowing radius (extreme A or free wrench) keeps the point as it was (fuzz: a NaN
     * residual from t |A| beyond the double range) */
    if (!isfinite(p->gn) || !isfinite(p->q[0]) || !isfinite(p->q[1]) || !isfinite(p->q[2]))
        *p = keep;
}

/* Trial point of a damped step. Homogeneous models move the direction only (ray_optimise
 * fixes the radius): along the great circle from q towards q + p, turned by at most
 * PF_PROJECT_MAX_TURN and by half as much per backtrack. The linear model of u (degree 0,
 * u ~ q/|q|) only holds for small turns, a Newton step that swings through the origin would land
 * on the far side of the cone of D, and a step from a near-zero radius is all turn. The
 * regularised model (no cone: u is linear near 0) takes q + frac p. */
static void trial_point(const proj_state *ps, const double q[3], const double p[3], double frac,
                        double out[3])
{
    double r = norm3(q), full[3] = {q[0] + p[0], q[1] + p[1], q[2] + p[2]}, fn = norm3(full);
    if (!ps->homogeneous || !(r > 0.0) || !(fn > 0.0)) {
        for (int k = 0; k < 3; ++k)
            out[k] = q[k] + frac * p[k];
        return;
    }
    double n[3] = {q[0] / r, q[1] / r, q[2] / r}, m[3] = {full[0] / fn, full[1] / fn, full[2] / fn};
    double cs = dot3(n, m), e[3];
    for (int k = 0; k < 3; ++k)
        e[k] = m[k] - cs * n[k];
    double sn = norm3(e);
    if (!(sn > 0.0)) { /* no turn (or an exact reversal, which the radius handles) */
        for (int k = 0; k < 3; ++k)
            out[k] = q[k] + frac * p[k];
        return;
    }
    double th = atan2(sn, cs);
    th = (th < PF_PROJECT_MAX_TURN ? th : PF_PROJECT_MAX_TURN) * frac;
    double c = cos(th), si = sin(th);
    for (int k = 0; k < 3; ++k)
        out[k] = r * (c * n[k] + si * e[k] / sn);
}

/* Damped Newton from *p (evaluated); *p becomes the best point found. Returns 1 if converged.
 * Merit: for the gradient models the dual g, which is convex, so the Newton direction
 * p = -J^-1 G = -(M^-1 + H)^-1 grad g is a descent direction of it and the iteration cannot
 * cycle around the kink of D at 0 (it did with |G| as the merit when the solution lies near 0
 * and the start far from it); a step is also taken when it halves |G| with g unchanged to
 * rounding (near the solution g's decrease, O(|G|^2), falls below g's rounding). For the other
 * models |G| itself (Armijo on |G|). */
static int newton(proj_state *ps, proj_point *p, double target)
{
    ray_optimise(ps, p);
    proj_point cur = *p, trial;
    double J[3][3], grad[3] = {0.0, 0.0, 0.0};
    int have_j = 0, fresh = 0;
    double merit = ps->gradient ? dual_at(ps, &cur, grad) : cur.gn;
    for (;;) {
        if (cur.gn <= fmax(target, g_floor(ps, &cur))) {
            *p = cur;
            return 1;
        }
        if (!have_j) {
            if (!jacobian(ps, &cur, J)) break;
            have_j = fresh = 1;
        }
        double step[3], mg[3] = {-cur.g[0], -cur.g[1], -cur.g[2]};
        if (!solve3(J, mg, step)) memcpy(step, mg, sizeof step); /* fixed-point step */
        double slope = ps->gradient ? dot3(grad, step) : -cur.gn;
        if (ps->gradient && !(slope < 0.0)) { /* inexact Jacobian: not a descent direction */
            if (!fresh) {
                have_j = 0;
                continue;
            }
            /* steepest descent in the M metric: -M grad g = -G */
            memcpy(step, mg, sizeof step);
            slope = dot3(grad, step);
        }
        double t = 1.0, tmerit = merit, tgrad[3] = {0.0, 0.0, 0.0};
        double round_g = 64.0 * DBL_EPSILON * (fabs(merit) + norm3(cur.q) * (ps->fsn + ps->c));
        int accepted = 0, failed = 0, b_full = 1;
        for (int b = 0; b <= PF_PROJECT_BACKTRACKS; ++b) {
            b_full = b_full && b == 0;
            double qn[3];
            trial_point(ps, cur.q, step, t, qn);
            if (!eval_point(ps, qn, &trial)) {
                failed = 1;
                break;
            }
            ray_optimise(ps, &trial);
            if (ps->gradient) {
                tmerit = dual_at(ps, &trial, tgrad);
                accepted =
                    tmerit < merit || (trial.gn <= 0.5 * cur.gn && tmerit <= merit + round_g);
            } else {
                tmerit = trial.gn;
                accepted = trial.gn <= (1.0 - PF_PROJECT_ARMIJO * t) * cur.gn;
            }
            if (accepted) break;
            t *= 0.5;
        }
        if (failed) break;
        if (!accepted) {
            if (fresh) break; /* no decrease along the exact Newton direction: stagnation */
            have_j = 0;       /* stale Jacobian: recompute at the same point and retry */
            continue;
        }
        /* keep the Jacobian only after a full, strongly contracting step */
        int keep = b_full && trial.gn <= PF_PROJECT_CHORD_RATE * cur.gn;
        if (keep) { /* secant (Broyden) update of the kept Jacobian: J s = G(trial) - G(cur) */
            double sv[3], r[3], ss = 0.0;
            for (int i = 0; i < 3; ++i) {
                sv[i] = trial.q[i] - cur.q[i];
                ss += sv[i] * sv[i];
            }
            for (int i = 0; i < 3; ++i)
                r[i] =
                    trial.g[i] - cur.g[i] - (J[i][0] * sv[0] + J[i][1] * sv[1] + J[i][2] * sv[2]);
            if (ss > 0.0 && isfinite(ss))
                for (int i = 0; i < 3; ++i)
                    for (int k = 0; k < 3; ++k)
                        J[i][k] += r[i] * sv[k] / ss;
        }
        if (trial.gn < p->gn) *p = trial;
        cur = trial;
        merit = tmerit;
        memcpy(grad, tgrad, sizeof grad);
        if (!keep) have_j = 0;
        fresh = 0;
    }
    if (cur.gn < p->gn) *p = cur;
    return p->gn <= fmax(target, g_floor(ps, p));
}

static int check_vec3(pfError *err, const char *name, const char *const comp[3], const double v[3])
{
    for (int k = 0; k < 3; ++k) {
        if (isfinite(v[k])) continue; /* the name is formatted only for the error */
        char field[40];
        snprintf(field, sizeof field, "%s.%s", name, comp[k]);
        return pf_check_finite(err, field, v[k]);
    }
    return PF_OK;
}

/* Physical outputs from the scaled solution: wrench = mu N W1 (q's u in physical form), velocity
 * = V S^-1 M (c u - f*) (= A (wrench - free) exactly, formed from the returned wrench). */
static int finish(const proj_state *ps, const proj_point *p, double mun, double V,
                  pfProjectResult *r, pfError *err)
{
    double d[3], md[3];
    for (int k = 0; k < 3; ++k)
        d[k] = ps->c * p->u[k] - ps->fs[k];
    mat_vec(ps->M, d, md);
    r->wrench.fx = mun * p->u[0];
    r->wrench.fy = mun * p->u[1];
    r->wrench.mz = mun * (p->u[2] * ps->rho);
    r->velocity.vx = V * md[0];
    r->velocity.vy = V * md[1];
    r->velocity.w = V * (md[2] / ps->rho);
    if (!isfinite(r->wrench.fx) || !isfinite(r->wrench.fy) || !isfinite(r->wrench.mz))
        return pf_error_set(err, PF_ERR_RANGE, "normal_force",
                            "friction moment mu * normal_force * rho_g = %g * %g overflows", mun,
                            ps->rho);
    if (!isfinite(r->velocity.vx) || !isfinite(r->velocity.vy) || !isfinite(r->velocity.w))
        return pf_error_set(err, PF_ERR_RANGE, "A",
                            "post-step velocity A (wrench - free) overflows (velocity scale %g)",
                            V);
    return PF_OK;
}

/* q.(c u - f*) > 0 beyond rounding: lambda* violates C's support inequality along q (slip). */
static int slip_certificate(const proj_state *ps, const proj_point *p, double fsn)
{
    double d[3] = {ps->c * p->u[0] - ps->fs[0], ps->c * p->u[1] - ps->fs[1],
                   ps->c * p->u[2] - ps->fs[2]};
    return dot3(p->q, d) > PF_PROJECT_CERT * norm3(p->q) * (ps->c * norm3(p->u) + fsn);
}

/* The exact static test on lambda* (pf_limit_set_test scales internally); its evaluations are
 * counted against the budget. */
static int limit_test(const pfPatchDef *def, double mu, double normal_force, pfWrench free_wrench,
                      proj_state *ps, int *sticks, pfTwist *incipient, pfError *err)
{
    pfStickResult st;
    int s = pf_limit_set_test(def, mu, normal_force, free_wrench, &st, err);
    if (s != PF_OK) return s;
    ps->evals += st.evaluations;
    *sticks = st.sticks;
    *incipient = st.incipient;
    return PF_OK;
}

static int model_failed(pfError *err)
{
    return pf_error_set(err, PF_ERR_NOT_FINITE, "result", "model returned a non-finite wrench");
}

static int stick_result(pfWrench free_wrench, int evals, pfProjectResult *out)
{
    pfProjectResult r;
    memset(&r, 0, sizeof r);
    r.wrench = free_wrench;
    r.sticks = r.converged = 1;
    r.evaluations = evals;
    *out = r;
    return PF_OK;
}

int pf_patch_project(const pfProjectInput *in, pfProjectResult *out, pfError *err)
{
    if (!in) return pf_error_set(err, PF_ERR_NULL, "in", "input pointer is NULL");
    const pfPatchDef *def = in->def;
    const double mu = in->mu, normal_force = in->normal_force;
    const double *A = in->A;
    const pfWrench free_wrench = in->free_wrench;
    const pfTwist rolling = in->rolling;
    const pfTwist *guess = in->guess;
    static const char *const wcomp[3] = {"fx", "fy", "mz"}, *const tcomp[3] = {"vx", "vy", "w"};
    int s = pf_patch_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "output pointer is NULL");
    if ((s = pf_check_nonnegative(err, "mu", mu)) != PF_OK ||
        (s = pf_check_nonnegative(err, "normal_force", normal_force)) != PF_OK)
        return s;
    double mun = mu * normal_force;
    if (!isfinite(mun))
        return pf_error_set(err, PF_ERR_RANGE, "normal_force",
                            "mu * normal_force = %g * %g overflows", mu, normal_force);
    if (!A) return pf_error_set(err, PF_ERR_NULL, "A", "Delassus block pointer is NULL");
    double amax = 0.0;
    for (int i = 0; i < 9; ++i) {
        if (!isfinite(A[i])) { /* the name is formatted only for the error */
            char field[8];
            snprintf(field, sizeof field, "A[%d]", i);
            return pf_check_finite(err, field, A[i]);
        }
        amax = fmax(amax, fabs(A[i]));
    }
    const double lam[3] = {free_wrench.fx, free_wrench.fy, free_wrench.mz};
    if ((s = check_vec3(err, "free_wrench", wcomp, lam)) != PF_OK) return s;
    const double rv[3] = {rolling.vx, rolling.vy, rolling.w};
    if ((s = check_vec3(err, "rolling", tcomp, rv)) != PF_OK) return s;
    if (guess) {
        const double gv[3] = {guess->vx, guess->vy, guess->w};
        if ((s = check_vec3(err, "guess", tcomp, gv)) != PF_OK) return s;
    }

    proj_state ps;
    memset(&ps, 0, sizeof ps);
    ps.rho = pf_patch_gyration(def);
    ps.max_evals = PF_PROJECT_MAX_EVALS;
    pfProjectResult r;
    memset(&r, 0, sizeof r);

    /* S A S / max|A|, the block in the twist metric (all entries velocity per force). The
     * symmetry and definiteness checks are made here rather than on A itself: A mixes
     * (m/s)/N with (rad/s)/(N m), so a relative pivot test on A would reject a valid block
     * whose spin entries are ~1/rho_g^2 larger than its force entries (a patch of 0.1 mm has
     * 1e8), while in the twist metric the test is unit-free. Same tolerances as
     * pf_stick_general: symmetric to 1e-9 of the largest entry, pivots > 1e-14 of it. */
    if (!(amax > 0.0)) return pf_error_set(err, PF_ERR_SINGULAR, "A", "Delassus block is zero");
    const double sv[3] = {1.0, 1.0, ps.rho};
    double sas[3][3], smax = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            sas[i][j] = ((A[3 * i + j] / amax) * sv[i]) * sv[j];
            smax = fmax(smax, fabs(sas[i][j]));
        }
    if (!isfinite(smax) || !(smax > 0.0))
        return pf_error_set(err, PF_ERR_RANGE, "A",
                            "Delassus block times rho_g^2 = %g is not representable",
                            ps.rho * ps.rho);
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (fabs(sas[i][j] - sas[j][i]) > 1e-9 * smax)
                return pf_error_set(err, PF_ERR_SINGULAR, "A",
                                    "Delassus block is not symmetric: A[%d][%d] = %g, "
                                    "A[%d][%d] = %g",
                                    i, j, A[3 * i + j], j, i, A[3 * j + i]);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double v = 0.5 * (sas[i][j] + sas[j][i]) / smax;
            ps.M[3 * i + j] = v;
        }
    double pivot;
    int bad = pf_spd3_cholesky(ps.M, ps.lm, &pivot);
    if (bad >= 0)
        return pf_error_set(err, PF_ERR_SINGULAR, "A",
                            "Delassus block is not positive definite (pivot %d = %g of the "
                            "block in the twist metric)",
                            bad, pivot);
    /* Scales (see the top of the file). F >= every |T lambda*| component and mu N. */
    double tl[3] = {lam[0], lam[1], lam[2] / ps.rho};
    double F = fmax(mun, fmax(fmax(fabs(tl[0]), fabs(tl[1])), fabs(tl[2])));
    if (!isfinite(F))
        return pf_error_set(err, PF_ERR_RANGE, "free_wrench.mz",
                            "free_wrench.mz / rho_g = %g / %g overflows", lam[2], ps.rho);
    if (!(F > 0.0)) { /* no friction and nothing to hold: at rest */
        r.sticks = r.converged = 1;
        *out = r;
        return PF_OK;
    }
    double V = F * (amax * smax);
    if (!isfinite(V) || !isfinite(8.0 * V))
        return pf_error_set(err, PF_ERR_RANGE, "A",
                            "velocity scale |A| |free_wrench| = %g x %g overflows", amax, F);
    for (int i = 0; i < 3; ++i)
        ps.fs[i] = tl[i] / F;
    ps.c = mun / F;
    ps.kdef = *def;
    ps.rolling = rolling;
    ps.rolling.w = 0.0;
    int hertz = def->shape == PF_PATCH_HERTZ_DISK;
    int regularised = hertz && def->eps_t > 0.0;
    if (regularised) {
        ps.kdef.eps_t = def->eps_t / V; /* W(V t; eps) = W(t; eps / V) */
        ps.heps = ps.kdef.eps_t * def->radius;
    }
    /* Kinetic wrench == static wrench: every shape but the Hertz disk's Padé model or its
     * rolling shift with a rolling direction (the direction is v_r / sqrt(|v_r|^2 + eps_r^2),
     * zero when v_r is). */
    int kinetic_is_static =
        !hertz || (def->model == PF_MODEL_EXACT &&
                   (def->rolling_d == 0.0 || (rolling.vx == 0.0 && rolling.vy == 0.0)));

    double fsn = norm3(ps.fs);
    ps.fsn = fsn;
    double mf[3];
    mat_vec(ps.M, ps.fs, mf);
    double gscale = norm3(mf); /* |A free| in the scaled twist metric */

    if (!(ps.c > 0.0)) { /* mu N == 0: no friction, velocity -A free */
        proj_point p0;
        memset(&p0, 0, sizeof p0);
        s = finish(&ps, &p0, 0.0, V, &r, err);
        if (s != PF_OK) return s;
        r.converged = 1;
        *out = r;
        return PF_OK;
    }
    if (!(fsn > 0.0)) { /* free == 0 is in C (and is the regularised fixed point, W(0) = 0) */
        r.sticks = r.converged = 1;
        *out = r;
        return PF_OK;
    }

    /* Stick test first where no slip certificate can replace it (kinetic != static model). */
    int gradient = kinetic_is_static && !regularised;
    ps.gradient = gradient;
    ps.homogeneous = !regularised;
    pfTwist incipient;
    if (!regularised && !kinetic_is_static) {
        int sticks = 0;
        s = limit_test(def, mu, normal_force, free_wrench, &ps, &sticks, &incipient, err);
        if (s != PF_OK) return s;
        if (sticks) return stick_result(free_wrench, ps.evals, out);
    }

    /* Start candidates, each one evaluation: the guess; xi_f = -A lambda* (slip probe) and the
     * fixed-point step from it, q0 = M (c u(q_f) - f*); the limit test's incipient twist.
     * q_f and q0 are skipped once the guess certifies slip (or is the only start needed). */
    proj_point cand[4];
    int nc = 0, certified = 0;
    if (guess && (guess->vx != 0.0 || guess->vy != 0.0 || guess->w != 0.0)) {
        /* S guess / V, scaled before the multiplication by rho so nothing overflows */
        double gq[3] = {guess->vx / V, guess->vy / V, (guess->w / V) * ps.rho};
        double gqn = norm3(gq);
        if (isfinite(gqn) && gqn > 0.0 && eval_point(&ps, gq, &cand[nc])) {
            certified = gradient && slip_certificate(&ps, &cand[nc], fsn);
            ++nc;
        }
    }
    if (nc == 0 || (gradient && !certified)) {
        int have_guess = nc > 0;
        double qf[3] = {-mf[0], -mf[1], -mf[2]};
        if (!eval_point(&ps, qf, &cand[nc])) return model_failed(err);
        proj_point *pf = &cand[nc++];
        certified = certified || (gradient && slip_certificate(&ps, pf, fsn));
        if (!have_guess || !certified) {
            double d[3] = {ps.c * pf->u[0] - ps.fs[0], ps.c * pf->u[1] - ps.fs[1],
                           ps.c * pf->u[2] - ps.fs[2]},
                   q0[3];
            mat_vec(ps.M, d, q0);
            if (norm3(q0) > 0.0) {
                if (!eval_point(&ps, q0, &cand[nc])) return model_failed(err);
                certified = certified || (gradient && slip_certificate(&ps, &cand[nc], fsn));
                ++nc;
            }
        }
    }
    if (gradient && !certified) {
        int sticks = 0;
        s = limit_test(def, mu, normal_force, free_wrench, &ps, &sticks, &incipient, err);
        if (s != PF_OK) return s;
        if (sticks) return stick_result(free_wrench, ps.evals, out);
        /* the incipient twist is driven by the loads: a start with a negative dual */
        double qi[3] = {incipient.vx, incipient.vy, incipient.w * ps.rho};
        if (norm3(qi) > 0.0) {
            if (!eval_point(&ps, qi, &cand[nc])) return model_failed(err);
            ++nc;
        }
    }
    /* best start by the merit newton() uses, each at its best radius */
    int best = 0;
    double best_merit = INFINITY;
    for (int i = 0; i < nc; ++i) {
        ray_optimise(&ps, &cand[i]);
        double m = ps.gradient ? dual_at(&ps, &cand[i], NULL) : cand[i].gn;
        if (m < best_merit) {
            best_merit = m;
            best = i;
        }
    }
    proj_point start = cand[best];

    int conv = newton(&ps, &start, PF_PROJECT_TOL * gscale);
    s = finish(&ps, &start, mun, V, &r, err);
    if (s != PF_OK) return s;
    r.converged = conv;
    r.evaluations = ps.evals;
    /* relative to |A free|; when that underflows against mu N (free below ~1e-290 mu N), to
     * the velocity scale |A| max(mu N, |free|) instead, so the figure stays finite */
    r.residual = start.gn / gscale;
    if (!isfinite(r.residual)) r.residual = start.gn;
    *out = r;
    return PF_OK;
}
