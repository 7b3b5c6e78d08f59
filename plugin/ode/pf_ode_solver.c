/* In-solver coupling of a patch (pfOdeConfig.coupling, patches/README.md).
 *
 * With the patched ODE (ODE_EXT_patch_friction) a patch is one joint: the normal rows of its
 * contact points and three friction rows at the patch centre along x, y and about n. The solver
 * (QuickStep: in every iteration; dWorldStep: in its rounds) sums the patch's normal forces N and
 * hands project() below the rows' Delassus block A (per unit time: the step changes the rows'
 * twist by h A times the force change) and the free wrench lambda* that would hold the patch at
 * rest given everything else. project() returns the friction wrench:
 *  - a patch at rest when the step began (|v|, |w| rho_g below stick_velocity_tol) sticks,
 *    lambda = lambda*, if two tests with the material's criterion (CA or limit set) hold: the
 *    adapter's static test of this step (its demand from the loads, independent of N, against
 *    the capacity D(incipient twist) at the solver's N) and the same criterion on lambda*
 *    itself where that is exact: dWorldStep asks for this once, on the exact holding wrench of
 *    its first round (dPatchStickTestExact), later only for projections; QuickStep's iterates
 *    (dPatchStickTest) get the adapter's test alone;
 *  - otherwise the maximum-dissipation projection (pf_patch_project) with mu_k (mu_s for the
 *    breakaway step of a patch at rest), taken at the step's midpoint twist (xi0 + xi1)/2,
 *    second order while sliding, or at the end twist xi1 (backward Euler) when the patch stops
 *    within the step; where that projection does not converge, the largest multiple of lambda*
 *    inside the static limit set (scaled_holding);
 *  - dWorldStep's rounds that did not settle ask for their applied force scaled into the limit
 *    set at the N of the answer that applies it (dPatchScaleOnly, scaled_holding).
 * The Hertz radius follows the solver's N. The adapter's linearisation (bounds from the previous
 * step's N, rows along a predicted slip direction, explicit driving components of the friction
 * block) is not used; its drift targets while stuck and its rolling-resistance rows are.
 */
#include "pf_core_internal.h" /* pf_patch_eval: the unchecked wrench of a validated patch */
#include "pf_ode_internal.h"
#include "pf_ode_model.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef dPATCH_FRICTION

/* Same floor as the adapter's Hertz radius (pf_ode_step.c). */
#define PF_ODE_SOLVER_MIN_HERTZ_RADIUS 1e-7

/* The adapter's static test of this step (CA or limit set, with its model of the other
 * constraints: world joints projected out, other contacts as the last step's loads) at the
 * solver's normal force: its demand comes from the loads and does not depend on N, the capacity
 * D(incipient twist) is taken at this N. Without a test (the patch model was rejected there) it
 * does not object. */
static int adapter_holds(const pfOdePair *p, const pfPatchDef *def, double N)
{
    if (!p->step.st_valid) return 1;
    double cap = 0.0;
    return pf_patch_dissipation(def, p->persist.mat.mu_s, N, p->step.st_incipient, &cap, NULL) ==
               PF_OK &&
           p->step.st_demand <= cap;
}

/* The same criterion on the solver's holding wrench lambda* (every other row of the step solved
 * with it). The adapter's test alone is not enough: held, the rows carry lambda* unbounded, and
 * the adapter's loads miss what moves with the patch within the step. A box pushed at
 * 1.2 mu_s m g on a free box asked the adapter for half the push (the lower box free to follow
 * under its last contact forces), while lambda* was the whole push: held, the pair tipped. The
 * metric is the adapter's model of the block given the world joints (model_A, a_free =
 * -model_A lambda*): its null directions are the joints' reactions, which may carry part of
 * lambda* in a split the LCP picks at will (the block's own A charged a piston's share to the
 * patch, and QuickStep let a box on a vertical axis go 3 % early). */
static int holding_wrench_holds(const pfOdePair *p, const pfPatchDef *def, double N,
                                const double A[9], pfWrench fw)
{
    /* The rows' CFM C (relative, dJointSetPatchFrictionCFM) lets them yield by C lambda / h, so
     * the solver's lambda* falls short of the rigid rows' holding wrench by about A0^-1 C lambda*
     * (A0 = A - C / h the block without it): exactly so for a body held by this patch alone, where
     * it is eps lambda*, a breakaway eps = 1e-6 late. The test takes the rigid wrench. */
    if (p->step.dt > 0.0) {
        double A0[9], cl[3], corr[3];
        memcpy(A0, A, sizeof A0);
        const double lam[3] = {fw.fx, fw.fy, fw.mz};
        for (int k = 0; k < 3; ++k) {
            A0[4 * k] -= p->step.solver_cfm[k] / p->step.dt;
            cl[k] = p->step.solver_cfm[k] / p->step.dt * lam[k];
        }
        if (pf_ode_spd_solve3(A0, cl, corr)) {
            fw.fx += corr[0];
            fw.fy += corr[1];
            fw.mz += corr[2];
        }
    }
    double Am[9], a[3], araw[3];
    memcpy(Am, p->step.model_A, sizeof Am);
    for (int i = 0; i < 3; ++i) {
        a[i] = -(Am[3 * i] * fw.fx + Am[3 * i + 1] * fw.fy + Am[3 * i + 2] * fw.mz);
        araw[i] = -(A[3 * i] * fw.fx + A[3 * i + 1] * fw.fy + A[3 * i + 2] * fw.mz);
    }
    pfWrench reac[3];
    int nreac = 0;
    pf_ode_regularise_block(Am, a, araw, p->step.rho_g, reac, &nreac);
    pfGeneralStickInput in = {def, p->persist.mat.mu_s, N, Am, {a[0], a[1], a[2]}, reac, 0};
    pfStickResult sr;
    int st;
    if (p->persist.mat.criterion == PF_ODE_CRITERION_LIMIT) {
        in.reaction_count = nreac;
        st = pf_stick_general_limit(&in, &sr, NULL);
    } else {
        st = pf_stick_general(&in, &sr, NULL);
    }
    return st == PF_OK && sr.sticks;
}

/* QuickStep's linearised projection of a sliding patch (lin_project).
 *
 * The exact projection costs 3-5 us (8-17 wrench evaluations), and QuickStep asks for one per
 * patch and iteration, 20 per step, where stock ODE spends ~30 ns on a row. The inputs move
 * little from one iteration, or one step, to the next while the patch slides on in about the
 * same direction. So the unit wrench W1 (mu N = 1) is linearised about a point x0,
 *     W1(xi) ~ u0 + D (xi - x0),   u0 = W1(x0) exact,
 * and the midpoint relation xi = (h/2) A (mu N W1(xi) - lambda*_m) becomes linear,
 *     (I - mu N (h/2) A D) xi = (h/2) A (mu N (u0 - D x0) - lambda*_m):
 * one 3x3 solve per call, no evaluation. Where that answer xi_l turned more than
 * PF_ODE_SOLVER_LIN_TURN_COS2 allows from x0, and always in the step's last
 * PF_ODE_SOLVER_LIN_CHORD QuickStep iteration(s), a chord step follows: the exact u1 = W1(xi_l)
 * (one evaluation) makes (xi_l, u1) the new point and the system is solved again. D comes from
 * forward differences (4 evaluations) at the twist xd of an exact projection; each chord step
 * updates it along the secant from the old point (Broyden, in the twist metric) and rescales it
 * to the new point's speed (W1 is homogeneous of degree 0, so dW1/dxi at t xi is D / t). Once
 * the inputs settle, the answer is the exact projection's to the linearisation error at a turn
 * of 1e-4 rad (~1e-8 of the wrench). An answer that turned more than PF_ODE_SOLVER_LIN_ANGLE
 * from xd, or that ends the step at rest, goes to the exact projection, whose twist becomes the
 * new point and xd. Shapes: rectangle, polygon, uniform disk (not the Hertz disk, whose radius
 * and regularisation make W1 depend on N and |xi|). The point survives the step (persist.lin_*)
 * while the patch definition is the same. dWorldStep's calls (other modes) and patches at rest
 * always take the exact path.
 *
 * Measured (test_ode_lowspeed, a block chasing a load turning at 10 rad/s, QuickStep, against
 * backward Euler; tolerance 1e-6 m/s): max |v - v_BE| 2.2e-8 / 4.9e-8 / 3.7e-7 m/s at dt = 0.1 /
 * 1 / 5 ms, the exact projection in every iteration 2.3e-8 / 2.6e-8 / 6.7e-8. Looser settings
 * failed it (a 3e-4 rad turn: 1.3e-6 at 5 ms; D refreshed only beyond 0.05 rad without
 * Broyden's update and rescaling, chord steps only in the last 2 iterations: 4.2e-6 at 1 ms). */
#define PF_ODE_SOLVER_LIN_ANGLE 0.3
/* QuickStep iterations at the end of a step that always take the chord step */
#define PF_ODE_SOLVER_LIN_CHORD 1
/* cos^2 of the largest turn from x0 without a chord step: a turn of 1e-4 rad */
#define PF_ODE_SOLVER_LIN_TURN_COS2 (1.0 - 1e-8)
/* Forward-difference step of D relative to |xd| in the twist metric */
#define PF_ODE_SOLVER_LIN_FD 1e-6

/* x = K^-1 b for a general 3x3 K (Cramer); 0 if K is singular to rounding. */
static int solve3_general(const double K[9], const double b[3], double x[3])
{
    const double c00 = K[4] * K[8] - K[5] * K[7], c01 = K[5] * K[6] - K[3] * K[8],
                 c02 = K[3] * K[7] - K[4] * K[6];
    const double det = K[0] * c00 + K[1] * c01 + K[2] * c02;
    if (!(fabs(det) > 1e-12) || !isfinite(det)) return 0; /* K = I + (h/2) A H: det >= 1 */
    const double r = 1.0 / det;
    x[0] =
        r * (b[0] * c00 + b[1] * (K[2] * K[7] - K[1] * K[8]) + b[2] * (K[1] * K[5] - K[2] * K[4]));
    x[1] =
        r * (b[0] * c01 + b[1] * (K[0] * K[8] - K[2] * K[6]) + b[2] * (K[2] * K[3] - K[0] * K[5]));
    x[2] =
        r * (b[0] * c02 + b[1] * (K[1] * K[6] - K[0] * K[7]) + b[2] * (K[0] * K[4] - K[1] * K[3]));
    return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]);
}

/* The unit wrench W1(xi) (mu N = 1) of def, which pf_patch_friction accepted in lin_refresh, at a
 * finite twist: the core's unchecked evaluation, since the checked one re-validates def on every
 * call (a third of an evaluation's cost, at ~7 evaluations per patch-step). 0 if the result is
 * not finite, as the checked call would report. */
static int unit_wrench(const pfPatchDef *def, const double xi[3], double u[3])
{
    const pfTwist none = {0.0, 0.0, 0.0};
    const pfWrench w = pf_patch_eval(def, 1.0, 1.0, (pfTwist){xi[0], xi[1], xi[2]}, none);
    u[0] = w.fx;
    u[1] = w.fy;
    u[2] = w.mz;
    return isfinite(w.fx) && isfinite(w.fy) && isfinite(w.mz);
}

/* 1 if a and b are the same patch to pf_patch_eval: every field it reads, bit for bit (of the
 * vertices, the first vertex_count). A whole-struct memcmp read the unused vertex arrays of both
 * (0.5 KB each), cold in every pair at before_step: callgrind's cache simulation (1 MB last
 * level) counted 17 misses per patch-step there, of ~280 for the whole patch-step. */
static int same_patch(const pfPatchDef *a, const pfPatchDef *b)
{
    if (a->shape != b->shape || a->model != b->model || a->vertex_count != b->vertex_count)
        return 0;
    const size_t tail =
        offsetof(pfPatchDef, pade) + sizeof a->pade - offsetof(pfPatchDef, rolling_d);
    int nv = a->vertex_count;
    nv = nv < 0 ? 0 : (nv > PF_POLYGON_MAX_VERTICES ? PF_POLYGON_MAX_VERTICES : nv);
    return memcmp(&a->length, &b->length, 3 * sizeof a->length) == 0 && /* length .. radius */
           memcmp(&a->rolling_d, &b->rolling_d, tail) == 0 &&           /* rolling_d .. pade */
           memcmp(a->vertices, b->vertices, 2 * sizeof a->vertices[0] * (size_t)nv) == 0;
}

/* The linearisation point: the twist xi of an exact sliding projection of def. */
static void lin_refresh(pfOdePair *p, const pfPatchDef *def, pfTwist xi)
{
    pfOdePairPersist *ps = &p->persist;
    const pfTwist none = {0.0, 0.0, 0.0};
    const double r = p->step.rho_g > 0.0 ? p->step.rho_g : 1.0;
    const double x0[3] = {xi.vx, xi.vy, xi.w};
    const double hs =
        PF_ODE_SOLVER_LIN_FD * sqrt(x0[0] * x0[0] + x0[1] * x0[1] + r * r * x0[2] * x0[2]);
    pfWrench w0;
    ps->lin_valid = 0;
    p->step.lin_ok = 0;
    if (!(hs > 0.0) || !isfinite(hs) ||
        pf_patch_friction(def, 1.0, 1.0, xi, none, &w0, NULL) != PF_OK)
        return;
    const double u0[3] = {w0.fx, w0.fy, w0.mz};
    for (int k = 0; k < 3; ++k) { /* def passed the checked call above */
        double xk[3] = {x0[0], x0[1], x0[2]}, uk[3];
        xk[k] += k == 2 ? hs / r : hs;
        const double step = xk[k] - x0[k];
        if (!(step != 0.0) || !isfinite(xk[k]) || !unit_wrench(def, xk, uk)) return;
        ps->lin_D[k] = (uk[0] - u0[0]) / step;
        ps->lin_D[3 + k] = (uk[1] - u0[1]) / step;
        ps->lin_D[6 + k] = (uk[2] - u0[2]) / step;
    }
    memcpy(ps->lin_x0, x0, sizeof ps->lin_x0);
    memcpy(ps->lin_xd, x0, sizeof ps->lin_xd);
    memcpy(ps->lin_u0, u0, sizeof ps->lin_u0);
    ps->lin_def = *def;
    ps->lin_valid = 1;
    p->step.lin_ok = 1;
    p->step.lin_have_a = 0;
}

/* y = M x for a row-major 3x3 M. The linearised projection's 3x3 products are written out:
 * QuickStep calls it 20 times per patch-step, and -O2 keeps short loops over 3x3 blocks as
 * loops. */
static void mat3_vec(const double M[9], const double x[3], double y[3])
{
    y[0] = M[0] * x[0] + M[1] * x[1] + M[2] * x[2];
    y[1] = M[3] * x[0] + M[4] * x[1] + M[5] * x[2];
    y[2] = M[6] * x[0] + M[7] * x[1] + M[8] * x[2];
}

/* 1 if a and b hold the same 9 doubles bit for bit (memcmp's equality, without the call) */
static int same_bits9(const double a[9], const double b[9])
{
    uint64_t diff = 0;
    for (int k = 0; k < 9; ++k) {
        uint64_t x, y;
        memcpy(&x, &a[k], sizeof x);
        memcpy(&y, &b[k], sizeof y);
        diff |= x ^ y;
    }
    return diff == 0;
}

/* v = u - D x, the constant of the linear model at the point (x, u) */
static void lin_offset(const double D[9], const double x[3], const double u[3], double v[3])
{
    double dx[3];
    mat3_vec(D, x, dx);
    v[0] = u[0] - dx[0];
    v[1] = u[1] - dx[1];
    v[2] = u[2] - dx[2];
}

/* xi solving (I - m (h/2) A D) xi = (h/2) A (m v - fm); 1 if it did not turn more than
 * PF_ODE_SOLVER_LIN_ANGLE from xd and ends the step sliding on, as on the exact path. */
static int lin_solve(const pfOdePair *p, const double A[9], double m, const double fm[3],
                     const double v[3], double xi[3])
{
    const pfOdePairStep *st = &p->step;
    const double hh = 0.5 * st->dt, c0 = m * v[0] - fm[0], c1 = m * v[1] - fm[1],
                 c2 = m * v[2] - fm[2];
    const double b[3] = {hh * (A[0] * c0 + A[1] * c1 + A[2] * c2),
                         hh * (A[3] * c0 + A[4] * c1 + A[5] * c2),
                         hh * (A[6] * c0 + A[7] * c1 + A[8] * c2)};
    const double *AD = st->lin_AD;
    const double K[9] = {1.0 - m * AD[0], 0.0 - m * AD[1], 0.0 - m * AD[2],
                         0.0 - m * AD[3], 1.0 - m * AD[4], 0.0 - m * AD[5],
                         0.0 - m * AD[6], 0.0 - m * AD[7], 1.0 - m * AD[8]};
    if (!solve3_general(K, b, xi)) return 0;
    const double r2 = st->rho_g * st->rho_g, *xd = p->persist.lin_xd;
    const double dx = xi[0] * xd[0] + xi[1] * xd[1] + r2 * xi[2] * xd[2];
    const double nx = xi[0] * xi[0] + xi[1] * xi[1] + r2 * xi[2] * xi[2];
    const double nd = xd[0] * xd[0] + xd[1] * xd[1] + r2 * xd[2] * xd[2];
    const double cmin = cos(PF_ODE_SOLVER_LIN_ANGLE);
    if (!(dx > 0.0) || !(dx * dx >= cmin * cmin * nx * nd)) return 0;
    const pfTwist t0 = st->info.twist;
    const double x1[3] = {2.0 * xi[0] - t0.vx, 2.0 * xi[1] - t0.vy, 2.0 * xi[2] - t0.w};
    return x1[0] * t0.vx + x1[1] * t0.vy + r2 * x1[2] * t0.w > 0.0;
}

/* (h/2) A D and u0 - D x0 for the current point and D */
static void lin_constants(pfOdePair *p, const double A[9])
{
    pfOdePairStep *st = &p->step;
    const double *D = p->persist.lin_D, hh = 0.5 * st->dt;
    for (int j = 0; j < 3; ++j) { /* column j of A D */
        const double dj[3] = {D[j], D[3 + j], D[6 + j]};
        double adj[3];
        mat3_vec(A, dj, adj);
        st->lin_AD[j] = hh * adj[0];
        st->lin_AD[3 + j] = hh * adj[1];
        st->lin_AD[6 + j] = hh * adj[2];
    }
    lin_offset(D, p->persist.lin_x0, p->persist.lin_u0, st->lin_v);
}

/* The point moves to (x, u = W1(x)) of a chord step. D learns the secant from the old point
 * (Broyden's update in the twist metric) and is rescaled to x's speed: W1 is homogeneous of
 * degree 0, so dW1/dxi at t xi is D / t. */
static void lin_move(pfOdePair *p, const double A[9], const double x[3], const double u[3])
{
    pfOdePairPersist *ps = &p->persist;
    const double r2 = p->step.rho_g * p->step.rho_g, *x0 = ps->lin_x0, *u0 = ps->lin_u0;
    const double dx[3] = {x[0] - x0[0], x[1] - x0[1], x[2] - x0[2]};
    const double wx[3] = {dx[0], dx[1], r2 * dx[2]},
                 den = dx[0] * wx[0] + dx[1] * wx[1] + dx[2] * wx[2];
    const double n0 = sqrt(x0[0] * x0[0] + x0[1] * x0[1] + r2 * x0[2] * x0[2]);
    const double n1 = sqrt(x[0] * x[0] + x[1] * x[1] + r2 * x[2] * x[2]);
    double D[9];
    memcpy(D, ps->lin_D, sizeof D);
    if (den > 0.0 && isfinite(den)) {
        double ddx[3];
        mat3_vec(D, dx, ddx);
        for (int i = 0; i < 3; ++i) {
            const double e = u[i] - u0[i] - ddx[i];
            D[3 * i] += e * wx[0] / den;
            D[3 * i + 1] += e * wx[1] / den;
            D[3 * i + 2] += e * wx[2] / den;
        }
    }
    const double sc = n1 > 0.0 && n0 > 0.0 ? n0 / n1 : 1.0;
    int ok = isfinite(sc) != 0;
    for (int i = 0; i < 9; ++i) {
        D[i] *= sc;
        ok &= isfinite(D[i]) != 0;
    }
    if (ok) memcpy(ps->lin_D, D, sizeof D);
    memcpy(ps->lin_x0, x, sizeof ps->lin_x0);
    memcpy(ps->lin_u0, u, sizeof ps->lin_u0);
    lin_constants(p, A);
}

/* The linearised midpoint projection of a sliding patch (above); 1 if its answer is in force. */
static int lin_project(pfOdePair *p, double N, const double A[9], pfWrench fw, int chord,
                       dReal force[3])
{
    pfOdePairStep *st = &p->step;
    pfOdePairPersist *ps = &p->persist;
    const double h = st->dt;
    if (!st->lin_have_a || !same_bits9(A, st->lin_A)) {
        /* per step: (h A)^-1 xi_0, (h/2) A D, u0 - D x0 */
        const double ax0[3] = {st->info.twist.vx, st->info.twist.vy, st->info.twist.w};
        st->lin_have_a = 0;
        if (!pf_ode_spd_solve3(A, ax0, st->lin_s0)) return 0;
        for (int k = 0; k < 3; ++k)
            st->lin_s0[k] /= h;
        lin_constants(p, A);
        memcpy(st->lin_A, A, sizeof st->lin_A);
        st->lin_have_a = 1;
    }
    const double m = ps->mat.mu_k * N;
    const double fm[3] = {fw.fx - st->lin_s0[0], fw.fy - st->lin_s0[1], fw.mz - st->lin_s0[2]};
    double xi[3], x0[3], u0[3];
    if (!lin_solve(p, A, m, fm, st->lin_v, xi)) return 0;
    memcpy(x0, ps->lin_x0, sizeof x0);
    memcpy(u0, ps->lin_u0, sizeof u0);
    if (!chord) { /* a turn from x0 beyond PF_ODE_SOLVER_LIN_TURN_COS2: the linear model's error
                   * (second order in it) would show, so the point moves on */
        const double r2 = st->rho_g * st->rho_g;
        const double dx = xi[0] * x0[0] + xi[1] * x0[1] + r2 * xi[2] * x0[2];
        const double nx = xi[0] * xi[0] + xi[1] * xi[1] + r2 * xi[2] * xi[2];
        const double n0 = x0[0] * x0[0] + x0[1] * x0[1] + r2 * x0[2] * x0[2];
        chord = !(dx * dx >= PF_ODE_SOLVER_LIN_TURN_COS2 * nx * n0);
    }
    if (chord) { /* the exact wrench at xi becomes the point, and the system is solved again */
        double u1[3];
        if (!unit_wrench(&ps->lin_def, xi, u1)) return 0; /* xi finite: lin_solve */
        lin_move(p, A, xi, u1);
        double xi2[3];
        if (!lin_solve(p, A, m, fm, st->lin_v, xi2)) return 0;
        memcpy(x0, xi, sizeof x0);
        memcpy(u0, u1, sizeof u0);
        memcpy(xi, xi2, sizeof xi);
    }
    const double d[3] = {xi[0] - x0[0], xi[1] - x0[1], xi[2] - x0[2]}, *D = ps->lin_D;
    const double f[3] = {m * (u0[0] + D[0] * d[0] + D[1] * d[1] + D[2] * d[2]),
                         m * (u0[1] + D[3] * d[0] + D[4] * d[1] + D[5] * d[2]),
                         m * (u0[2] + D[6] * d[0] + D[7] * d[1] + D[8] * d[2])};
    if (!isfinite(f[0]) || !isfinite(f[1]) || !isfinite(f[2])) return 0;
    force[0] = f[0];
    force[1] = f[1];
    force[2] = f[2];
    ps->solver_guess = (pfTwist){xi[0], xi[1], xi[2]};
    st->solver_sticks = 0;
    return 1;
}

/* The largest multiple s lambda* (0 <= s <= 1) of the holding wrench that the static limit set
 * of def at mu N contains: s = min(1, h), h the limit-set test's factor (capacity / demand).
 * Inside the set at the solver's N, and dissipative in any metric: the twist it leaves,
 * -(1 - s) h A lambda*, is opposed by the wrench. The answer where the projection failed to
 * converge, and dWorldStep's (dPatchScaleOnly) for a force it applied at another N. */
static void scaled_holding(const pfPatchDef *def, double mu, double N, pfWrench fw, dReal force[3])
{
    pfStickResult sr;
    double s = 0.0;
    if (pf_limit_set_test(def, mu, N, fw, &sr, NULL) == PF_OK)
        s = sr.sticks ? 1.0 : (sr.demand > 0.0 ? sr.capacity / sr.demand : 0.0);
    if (!(s >= 0.0) || !isfinite(s)) s = 0.0;
    if (s > 1.0) s = 1.0;
    force[0] = s * fw.fx;
    force[1] = s * fw.fy;
    force[2] = s * fw.mz;
}

static void project(void *data, int mode, dReal normal_force, const dReal Ad[9],
                    const dReal free_force[3], dReal force[3])
{
    pfOdePair *p = data;
    /* QuickStep's last iterations (counted by its calls) take the chord step (lin_project) */
    const int chord = mode == dPatchStickTest && p->step.lin_calls++ >= p->step.lin_last;
    double N = normal_force > 0.0 && isfinite(normal_force) ? normal_force : 0.0;
    double A[9];
    for (int i = 0; i < 9; ++i)
        A[i] = Ad[i];
    pfWrench fw = {free_force[0], free_force[1], free_force[2]};
    force[0] = force[1] = force[2] = 0.0;
    p->step.solver_sticks = 0;
    if (N == 0.0) return;
    const int lin = mode == dPatchStickTest && p->step.lin_ok > 0 && !p->step.solver_at_rest &&
                    p->step.dt > 0.0;
    if (lin && lin_project(p, N, A, fw, chord, force)) return;

    /* the step's patch; a copy only where N sizes it (a copy per call read the whole struct,
     * its unused polygon vertices included, 20 times per patch-step under QuickStep) */
    const pfPatchDef *def = &p->step.def;
    pfPatchDef sized;
    if (p->step.kind == PF_ODE_KIND_HERTZ && !(p->persist.mat.hertz_radius > 0.0)) {
        double a = cbrt(3.0 * N * p->step.hertz_rstar / (4.0 * p->persist.mat.e_star));
        sized = *def;
        sized.radius = a >= PF_ODE_SOLVER_MIN_HERTZ_RADIUS ? a : PF_ODE_SOLVER_MIN_HERTZ_RADIUS;
        def = &sized;
    }
    if (p->step.kind == PF_ODE_KIND_LINE) { /* the strip follows the solver's N (P46) */
        sized = *def;
        sized.width =
            2.0 * pf_line_half_width(N, p->step.hertz_rstar, def->length, p->persist.mat.e_star);
        def = &sized;
    }

    /* A patch at rest keeps its static set for this step: a breakaway slides at the static bound
     * for one step, and the projection stays a continuous function of lambda* (with mu_k here,
     * the solver's rounds could cycle between a static "stick" and a kinetic "slip" answer). */
    const double mu = p->step.solver_at_rest ? p->persist.mat.mu_s : p->persist.mat.mu_k;
    if (mode == dPatchScaleOnly) { /* dWorldStep's applied force, into the set at its own N */
        scaled_holding(def, mu, N, fw, force);
        return;
    }

    /* QuickStep's lambda* is an iterate, exact only once it has converged: there the adapter's
     * test alone decides where it ran (a piston-held box on a ramp of torque, dt = 0.1 ms, let go
     * 0.24 % early when every iterate had to pass as well) */
    const int exact = mode == dPatchStickTestExact;
    const int test_lambda = exact || !p->step.st_valid;
    if (p->step.solver_at_rest && (mode == dPatchStickTest || exact) && adapter_holds(p, def, N) &&
        (!test_lambda || holding_wrench_holds(p, def, N, A, fw))) {
        force[0] = fw.fx;
        force[1] = fw.fy;
        force[2] = fw.mz;
        p->step.solver_sticks = 1;
        return;
    }
    /* Midpoint rule: friction at the twist halfway through the step, xi_m = (xi_0 + xi_1) / 2.
     * With xi_1 = h A (lambda - lambda*) (A per unit time, h the step) this is the projection
     *   xi_m = (h/2) A (W(xi_m) - lambda*_m),   lambda*_m = lambda* - (h A)^-1 xi_0,
     * second order for a sliding patch where the end-of-step twist (backward Euler) is first
     * order. If the patch stops within the step (xi_1 = 2 xi_m - xi_0 turns against xi_0, or the
     * midpoint sticks) the step ends at rest: backward Euler, whose stick set is the limit set.
     * A patch at rest when the step began also takes backward Euler: its rows may carry the
     * anchor's drift targets, which the midpoint relation leaves out. */
    const double h = p->step.dt;
    const pfTwist x0 = p->step.info.twist;
    pfProjectResult pr;
    int done = 0;
    double Ahalf[9], ax0[3] = {x0.vx, x0.vy, x0.w}, s0[3];
    for (int i = 0; i < 9; ++i)
        Ahalf[i] = 0.5 * h * A[i];
    if (h > 0.0 && !p->step.solver_at_rest && pf_ode_spd_solve3(A, ax0, s0)) {
        pfWrench fm = {fw.fx - s0[0] / h, fw.fy - s0[1] / h, fw.mz - s0[2] / h};
        const pfTwist *guess =
            (p->persist.solver_guess.vx != 0.0 || p->persist.solver_guess.vy != 0.0 ||
             p->persist.solver_guess.w != 0.0)
                ? &p->persist.solver_guess
                : NULL;
        if (pf_patch_project(&(pfProjectInput){def, mu, N, Ahalf, fm, p->step.roll, guess}, &pr,
                             NULL) == PF_OK &&
            pr.converged && !pr.sticks) { /* unconverged: backward Euler below */
            const double r2 = p->step.rho_g * p->step.rho_g;
            pfTwist x1 = {2.0 * pr.velocity.vx - x0.vx, 2.0 * pr.velocity.vy - x0.vy,
                          2.0 * pr.velocity.w - x0.w};
            if (x1.vx * x0.vx + x1.vy * x0.vy + r2 * x1.w * x0.w > 0.0) {
                done = 1;
                p->persist.solver_guess = pr.velocity;
                if (mode == dPatchStickTest && p->step.lin_ok >= 0)
                    lin_refresh(p, def, pr.velocity);
            }
        }
    }
    if (!done) {
        if (pf_patch_project(&(pfProjectInput){def, mu, N, A, fw, p->step.roll, NULL}, &pr, NULL) !=
            PF_OK)
            return;
        /* An unconverged projection (Pade and Hertz disks of small radius: ~10 % of slipping
         * cases, pf_core_project.c) returns its best iterate, a wrench on the boundary at a twist
         * that need not be the motion it leaves: the fuzz harness's seed 7 (a sphere, QuickStep)
         * got |W| = mu N along A (W - lambda*), friction driving the patch at 40 times lambda*,
         * and with the normal rows the step ended at 3e4 m/s. Neither projection is used then. */
        if (!pr.converged) {
            scaled_holding(def, mu, N, fw, force);
            return;
        }
    }
    force[0] = pr.wrench.fx;
    force[1] = pr.wrench.fy;
    force[2] = pr.wrench.mz;
    p->step.solver_sticks = pr.sticks;
}

/* Whether body b has a joint of the user's other than a contact (ball, hinge, slider, fixed,
 * motors...): its rows are unbounded and may repeat a patch's friction rows (a small body on the
 * ground with a slider to a far heavier one: the slider's row about the world z axis is the
 * patch's spin row to 6e-12). */
static int has_user_joint(const pfOdeContext *ctx, dBodyID b)
{
    if (!b) return 0;
    /* the call's joint list when there is one: dBodyGetJoint(b, i) walks i nodes */
    const dJointID *list = NULL;
    int n = pf_ode_body_joint_list(ctx, b, &list);
    if (n < 0) n = dBodyGetNumJoints(b);
    for (int i = 0; i < n; ++i) {
        dJointID j = list ? list[i] : dBodyGetJoint(b, i);
        if (dJointGetData(j) == (void *)ctx || !dJointIsEnabled(j)) continue; /* the adapter's */
        const int type = dJointGetType(j);
        if (type != dJointTypeContact && type != dJointTypeNull) return 1;
    }
    return 0;
}

int pf_ode_solver_create(pfOdeContext *ctx, pfOdePair *p, double spin_vel, double m1, double m2)
{
    dContact c[PF_ODE_MAX_CONTACTS];
    pf_ode_normal_contacts(ctx, p, 0, c); /* normal rows, with the tilt anchor while stuck */
    /* The pair's joint of the last step, parked since, is set up again in place (every field a
     * new joint would get is set below); a pair's first step creates it, in no group, owned by
     * the context. Creating one per step in the user's group cost the joint's allocation and
     * construction, and its destruction when the group was emptied. */
    dJointID j = p->patch_joint;
    if (!j) {
        j = dJointCreatePatch(ctx->world, 0);
        if (!j) return 0;
        p->patch_joint = j;
        dJointSetPatchProjection(j, project, p);
        dJointSetFeedback(j, &p->step.fb_patch);
        dJointSetData(j, ctx); /* tags the adapter's joints (pf_ode_classify_joint) */
    }
    dJointEnable(j);
    dJointSetPatchContacts(j, c, p->step.ncontacts);
    dReal centre[3] = {p->step.c[0], p->step.c[1], p->step.c[2]},
          t1[3] = {p->step.x[0], p->step.x[1], p->step.x[2]},
          nrm[3] = {p->step.n[0], p->step.n[1], p->step.n[2]};
    dJointSetPatchFrame(j, centre, t1, nrm);
    dJointSetPatchMotion(j, isfinite(m1) ? m1 : 0.0, isfinite(m2) ? m2 : 0.0,
                         isfinite(spin_vel) ? spin_vel : 0.0);
    /* The friction rows' relative CFM, as on the adapter's own rows (pf_ode_rows.c), where they
     * can be redundant: on a body held by more than one patch, or by a joint of the user's. Two
     * patches that hold one body in a closed chain (a box on two boxes) make their rows
     * redundant, and with the world's absolute CFM the holding wrench lambda* that the stick
     * test reads was set by rounding (a pyramid of 1 kg cubes: spin moments of 1e6 N m; it
     * toppled). A joint's rows are unbounded like the friction rows of dWorldStep's first round
     * (every patch held at rest), so a friction row that repeats one of them (a small body on
     * the ground with a slider to a far heavier one: the slider's row about z is the patch's
     * spin row to 6e-12) made that round's LDL^T factor singular and its answer NaN (the fuzz
     * harness's seed 617, whose NaN friction bounds then failed Dantzig's assertion lo <= 0 <= hi).
     * A body held by one patch alone keeps rigid rows: there the CFM only perturbs the exact
     * breakaway (and changed the pivots of one Dantzig problem of a block at dt = 0.1 ms into an
     * "LCP internal error"). */
    dReal cfm[3] = {-1.0, -1.0, -1.0};
    if (pf_ode_body_patches(ctx, p->step.b1) > 1 || pf_ode_body_patches(ctx, p->step.b2) > 1 ||
        has_user_joint(ctx, p->step.b1) || has_user_joint(ctx, p->step.b2)) {
        const pfOdeMobility *mb1, *mb2;
        pf_ode_pair_mobility(ctx, p, &mb1, &mb2);
        cfm[0] =
            pf_ode_row_cfm(pf_ode_point_row_mobility(mb1, mb2, p->step.c, p->step.x), p->step.dt);
        cfm[1] =
            pf_ode_row_cfm(pf_ode_point_row_mobility(mb1, mb2, p->step.c, p->step.y), p->step.dt);
        cfm[2] = pf_ode_row_cfm(pf_ode_ang_row_mobility(mb1, mb2, p->step.n), p->step.dt);
    }
    dJointSetPatchFrictionCFM(j, cfm);
    for (int k = 0; k < 3; ++k)
        p->step.solver_cfm[k] = cfm[k] > 0.0 ? cfm[k] : 0.0;
    /* the block given the world joints, for the stick test of lambda* (project), which only a
     * patch at rest when the step began asks for: a sliding one skips it (its bodies' models are
     * the same whenever they are read within pf_ode_before_step, pf_ode_body_model) */
    if (p->step.solver_at_rest)
        pf_ode_patch_delassus(ctx, p, p->step.b1 && !dBodyIsKinematic(p->step.b1),
                              p->step.b2 && !dBodyIsKinematic(p->step.b2), p->step.model_A);
    /* attached again every step (also to the same bodies): ODE puts the joint at the head of
     * each body's joint list, where a joint created now would be, so the islands list their
     * joints, and the solver its rows, in the same order as with a new joint per step; and the
     * pair's bodies may have changed since its last step (dGeomSetBody) */
    dJointAttach(j, p->step.b1, p->step.b2);
    memset(&p->step.fb_patch, 0, sizeof p->step.fb_patch);
    p->step.solver_joint = 1;
    /* the linearised projection (lin_project): shapes whose unit wrench is homogeneous of degree
     * 0 in the twist; its point stays valid while the patch is the same */
    const pfPatchShape sh = p->step.def.shape;
    p->step.lin_have_a = 0;
    p->step.lin_calls = 0;
    p->step.lin_last = dWorldGetQuickStepNumIterations(ctx->world) - PF_ODE_SOLVER_LIN_CHORD;
    p->step.lin_ok = p->step.kind == PF_ODE_KIND_PATCH && sh != PF_PATCH_HERTZ_DISK ? 0 : -1;
    if (p->step.lin_ok == 0 && p->persist.lin_valid &&
        same_patch(&p->persist.lin_def, &p->step.def))
        p->step.lin_ok = 1;
    return 1;
}

int pf_ode_solver_coupling_available(void)
{
    return dCheckConfiguration("ODE_EXT_patch_friction") ? 1 : 0;
}

#else /* an ODE without the patch series: the adapter's coupling only */

int pf_ode_solver_create(pfOdeContext *ctx, pfOdePair *p, double spin_vel, double m1, double m2)
{
    (void)ctx;
    (void)p;
    (void)spin_vel;
    (void)m1;
    (void)m2;
    return 0;
}

int pf_ode_solver_coupling_available(void)
{
    return 0;
}

#endif

void pf_ode_solver_park(pfOdePair *p)
{
    if (!p->patch_joint) return;
    /* detached as well as disabled: attached, it would connect the pair's bodies, and the next
     * collide skips bodies connected by a joint other than a contact (dAreConnectedExcluding, as
     * users' near callbacks do) */
    dJointDisable(p->patch_joint);
    dJointAttach(p->patch_joint, 0, 0);
}

void pf_ode_solver_drop(pfOdePair *p)
{
    if (p->patch_joint) dJointDestroy(p->patch_joint);
    p->patch_joint = 0;
}
