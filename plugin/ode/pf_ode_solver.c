/* In-solver coupling of a patch (pfOdeConfig.coupling, patches/README.md).
 *
 * With the patched ODE (ODE_EXT_patch_friction) a patch is one joint: the normal rows of its
 * contact points and three friction rows at the patch centre along x, y and about n. The solver
 * (QuickStep: in every iteration; dWorldStep: in its rounds) sums the patch's normal forces N and
 * hands project() below the rows' Delassus block A (per unit time: the step changes the rows'
 * twist by h A times the force change) and the free wrench lambda* that would hold the patch at
 * rest given everything else. project() returns the friction wrench:
 *  - a patch at rest when the step began (|v|, |w| rho_g below stick_velocity_tol) gets the
 *    adapter's static test of this step (CA or limit set, with its model of the other joints):
 *    the loads' demand does not depend on N, the capacity D(incipient twist) is taken at the
 *    solver's N; if it holds, lambda = lambda*. dWorldStep asks for this test once, on the exact
 *    holding wrench of its first round (dPatchStickTest), later only for projections;
 *  - otherwise the maximum-dissipation projection (pf_patch_project) with mu_k (mu_s for the
 *    breakaway step of a patch at rest), taken at the step's midpoint twist (xi0 + xi1)/2,
 *    second order while sliding, or at the end twist xi1 (backward Euler) when the patch stops
 *    within the step.
 * The Hertz radius follows the solver's N. The adapter's linearisation (bounds from the previous
 * step's N, rows along a predicted slip direction, explicit driving components of the friction
 * block) is not used; its drift targets while stuck and its rolling-resistance rows are.
 */
#include "pf_ode_internal.h"

#include <math.h>
#include <string.h>

#ifdef dPATCH_FRICTION

/* Same floor as the adapter's Hertz radius (pf_ode_step.c). */
#define PF_ODE_SOLVER_MIN_HERTZ_RADIUS 1e-7

/* x = A^-1 b for a symmetric positive definite 3x3 A (Cholesky); 0 if A is not. */
static int solve3(const double A[9], const double b[3], double x[3])
{
    double l00 = A[0] > 0.0 ? sqrt(A[0]) : 0.0;
    if (!(l00 > 0.0)) return 0;
    double l10 = A[3] / l00, l20 = A[6] / l00, d1 = A[4] - l10 * l10;
    if (!(d1 > 0.0)) return 0;
    double l11 = sqrt(d1), l21 = (A[7] - l20 * l10) / l11, d2 = A[8] - l20 * l20 - l21 * l21;
    if (!(d2 > 0.0)) return 0;
    double l22 = sqrt(d2);
    double y0 = b[0] / l00, y1 = (b[1] - l10 * y0) / l11, y2 = (b[2] - l20 * y0 - l21 * y1) / l22;
    x[2] = y2 / l22;
    x[1] = (y1 - l21 * x[2]) / l11;
    x[0] = (y0 - l10 * x[1] - l20 * x[2]) / l00;
    return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]);
}

static void project(void *data, int mode, dReal normal_force, const dReal Ad[9],
                    const dReal free_force[3], dReal force[3])
{
    pfOdePair *p = data;
    double N = normal_force > 0.0 && isfinite(normal_force) ? normal_force : 0.0;
    double A[9];
    for (int i = 0; i < 9; ++i)
        A[i] = Ad[i];
    pfWrench fw = {free_force[0], free_force[1], free_force[2]};
    force[0] = force[1] = force[2] = 0.0;
    p->step.solver_sticks = 0;
    if (N == 0.0) return;

    pfPatchDef def = p->step.def;
    if (p->step.kind == PF_ODE_KIND_HERTZ && !(p->persist.mat.hertz_radius > 0.0)) {
        double a = cbrt(3.0 * N * p->step.hertz_rstar / (4.0 * p->persist.mat.e_star));
        def.radius = a >= PF_ODE_SOLVER_MIN_HERTZ_RADIUS ? a : PF_ODE_SOLVER_MIN_HERTZ_RADIUS;
    }

    if (p->step.solver_at_rest && mode == dPatchStickTest && p->step.st_valid) {
        /* the adapter's static test of this step (CA or limit set, with its model of the other
         * constraints) at the solver's normal force: the demand comes from the loads and does
         * not depend on N; the capacity is D(incipient twist) at this N */
        double cap = 0.0;
        if (pf_patch_dissipation(&def, p->persist.mat.mu_s, N, p->step.st_incipient, &cap, NULL) ==
                PF_OK &&
            p->step.st_demand <= cap) {
            force[0] = fw.fx;
            force[1] = fw.fy;
            force[2] = fw.mz;
            p->step.solver_sticks = 1;
            return;
        }
    } else if (p->step.solver_at_rest && mode == dPatchStickTest) {
        /* no adapter test (the patch model was rejected there): test lambda* itself */
        pfStickResult sr;
        int st;
        if (p->persist.mat.criterion == PF_ODE_CRITERION_LIMIT) {
            st = pf_limit_set_test(&def, p->persist.mat.mu_s, N, fw, &sr, NULL);
        } else {
            pfTwist a_free = {-(A[0] * fw.fx + A[1] * fw.fy + A[2] * fw.mz),
                              -(A[3] * fw.fx + A[4] * fw.fy + A[5] * fw.mz),
                              -(A[6] * fw.fx + A[7] * fw.fy + A[8] * fw.mz)};
            st = pf_stick_general(
                &(pfGeneralStickInput){&def, p->persist.mat.mu_s, N, A, a_free, NULL, 0}, &sr,
                NULL);
        }
        if (st == PF_OK && sr.sticks) {
            force[0] = fw.fx;
            force[1] = fw.fy;
            force[2] = fw.mz;
            p->step.solver_sticks = 1;
            return;
        }
    }
    /* A patch at rest keeps its static set for this step: a breakaway slides at the static bound
     * for one step, and the projection stays a continuous function of lambda* (with mu_k here,
     * the solver's rounds could cycle between a static "stick" and a kinetic "slip" answer). */
    const double mu = p->step.solver_at_rest ? p->persist.mat.mu_s : p->persist.mat.mu_k;
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
    if (h > 0.0 && !p->step.solver_at_rest && solve3(A, ax0, s0)) {
        pfWrench fm = {fw.fx - s0[0] / h, fw.fy - s0[1] / h, fw.mz - s0[2] / h};
        const pfTwist *guess =
            (p->persist.solver_guess.vx != 0.0 || p->persist.solver_guess.vy != 0.0 ||
             p->persist.solver_guess.w != 0.0)
                ? &p->persist.solver_guess
                : NULL;
        if (pf_patch_project(&(pfProjectInput){&def, mu, N, Ahalf, fm, p->step.roll, guess}, &pr,
                             NULL) == PF_OK &&
            !pr.sticks) {
            const double r2 = p->step.rho_g * p->step.rho_g;
            pfTwist x1 = {2.0 * pr.velocity.vx - x0.vx, 2.0 * pr.velocity.vy - x0.vy,
                          2.0 * pr.velocity.w - x0.w};
            if (x1.vx * x0.vx + x1.vy * x0.vy + r2 * x1.w * x0.w > 0.0) {
                done = 1;
                p->persist.solver_guess = pr.velocity;
            }
        }
    }
    if (!done) {
        if (pf_patch_project(&(pfProjectInput){&def, mu, N, A, fw, p->step.roll, NULL}, &pr,
                             NULL) != PF_OK)
            return;
    }
    force[0] = pr.wrench.fx;
    force[1] = pr.wrench.fy;
    force[2] = pr.wrench.mz;
    p->step.solver_sticks = pr.sticks;
}

int pf_ode_solver_create(pfOdeContext *ctx, pfOdePair *p, double spin_vel, double m1, double m2)
{
    dContact c[PF_ODE_MAX_CONTACTS];
    pf_ode_normal_contacts(ctx, p, 0, c); /* normal rows, with the tilt anchor while stuck */
    dJointID j = dJointCreatePatch(ctx->world, p->step.group);
    dJointSetPatchContacts(j, c, p->step.ncontacts);
    dReal centre[3] = {p->step.c[0], p->step.c[1], p->step.c[2]},
          t1[3] = {p->step.x[0], p->step.x[1], p->step.x[2]},
          nrm[3] = {p->step.n[0], p->step.n[1], p->step.n[2]};
    dJointSetPatchFrame(j, centre, t1, nrm);
    dJointSetPatchMotion(j, isfinite(m1) ? m1 : 0.0, isfinite(m2) ? m2 : 0.0,
                         isfinite(spin_vel) ? spin_vel : 0.0);
    dJointSetPatchProjection(j, project, p);
    dJointAttach(j, p->step.b1, p->step.b2);
    memset(&p->step.fb_patch, 0, sizeof p->step.fb_patch);
    dJointSetFeedback(j, &p->step.fb_patch);
    dJointSetData(j, ctx); /* tags the adapter's joints (pf_ode_classify_joint) */
    p->step.solver_joint = 1;
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
