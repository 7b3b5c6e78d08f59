/* ODE adapter: conditioning of the rows the adapter hands to ODE.
 *
 * A patch gives ODE more rows than the bodies have freedoms: four coplanar normal rows carry three
 * independent constraints, and two stuck patches under one body (feet, a box on two boxes) give
 * six tangential and spin rows for three planar freedoms. With zero constraint-force mixing such
 * a set is singular: the Dantzig LCP of dWorldStep hits a zero pivot ("LCP internal error,
 * s <= 0 (s=-inf)", or an assertion in dxLDLTRemove) and QuickStep's rows fight each other.
 * ODE's own remedy is CFM, but the world's CFM is absolute (1e-10 in double precision), so it is
 * negligible for a heavy body and dominant for a light one. The adapter therefore gives each of
 * its rows a CFM relative to that row's own mobility A_ii = J_i M^-1 J_i^T:
 *
 *     cfm_i = eps * dt * A_ii        (ODE adds cfm_i / dt to the diagonal of A: A_ii (1 + eps))
 *
 * which bounds the condition number of any redundant set by about 1/eps whatever the masses and
 * sizes, and changes a row's answer by the relative amount eps. A held row then yields at
 * cfm_i * lambda_i = eps dt A_ii lambda_i, the velocity its force would give the bodies in
 * eps dt seconds; the stick anchor's drift correction absorbs that. */
#include "pf_ode_internal.h"

#include <math.h>
#include <string.h>

/* Relative regularisation of every adapter row (see above). 1e-6: measured on the stack scenes,
 * 1e-8 already removes the LCP failures; 1e-6 leaves margin for bodies whose masses differ by
 * 1e6 within one island, and a held row then yields 1e-6 dt A_ii lambda per step, far below
 * what the anchor corrects. */
#define PF_ODE_ROW_EPS 1e-6

void pf_ode_mobility(dBodyID b, pfOdeMobility *m)
{
    memset(m, 0, sizeof *m);
    if (!b) return;
    pf_ode_to3(dBodyGetPosition(b), m->G);
    if (dBodyIsKinematic(b)) return; /* infinite mass: no mobility */
    dMass ms;
    dBodyGetMass(b, &ms);
    if (!(ms.mass > 0.0)) return;
    m->im = 1.0 / ms.mass;
    /* I_world = R I R^T, inverted by cofactors (symmetric positive definite) */
    const dReal *R = dBodyGetRotation(b); /* 3x4 row-major */
    double RI[9], Iw[9];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            RI[3 * i + k] =
                R[4 * i] * ms.I[k] + R[4 * i + 1] * ms.I[4 + k] + R[4 * i + 2] * ms.I[8 + k];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            Iw[3 * i + k] =
                RI[3 * i] * R[4 * k] + RI[3 * i + 1] * R[4 * k + 1] + RI[3 * i + 2] * R[4 * k + 2];
    double c0 = Iw[4] * Iw[8] - Iw[5] * Iw[7], c1 = Iw[5] * Iw[6] - Iw[3] * Iw[8],
           c2 = Iw[3] * Iw[7] - Iw[4] * Iw[6];
    double det = Iw[0] * c0 + Iw[1] * c1 + Iw[2] * c2, id = 1.0 / det;
    m->iinv[0] = c0 * id;
    m->iinv[1] = (Iw[2] * Iw[7] - Iw[1] * Iw[8]) * id;
    m->iinv[2] = (Iw[1] * Iw[5] - Iw[2] * Iw[4]) * id;
    m->iinv[3] = c1 * id;
    m->iinv[4] = (Iw[0] * Iw[8] - Iw[2] * Iw[6]) * id;
    m->iinv[5] = (Iw[2] * Iw[3] - Iw[0] * Iw[5]) * id;
    m->iinv[6] = c2 * id;
    m->iinv[7] = (Iw[1] * Iw[6] - Iw[0] * Iw[7]) * id;
    m->iinv[8] = (Iw[0] * Iw[4] - Iw[1] * Iw[3]) * id;
}

void pf_ode_pair_mobility(const pfOdeContext *ctx, pfOdePair *p, const pfOdeMobility **m1,
                          const pfOdeMobility **m2)
{
    if (!p->step.has_mob) {
        pf_ode_body_mobility(ctx, p->step.b1, &p->step.mob1);
        pf_ode_body_mobility(ctx, p->step.b2, &p->step.mob2);
        p->step.has_mob = 1;
    }
    *m1 = &p->step.mob1;
    *m2 = &p->step.mob2;
}

/* a^T I^-1 a (world) */
static double ang_term(const pfOdeMobility *m, const double *a)
{
    double s = 0.0;
    for (int i = 0; i < 3; ++i)
        s += a[i] * (m->iinv[3 * i] * a[0] + m->iinv[3 * i + 1] * a[1] + m->iinv[3 * i + 2] * a[2]);
    return s;
}

static double point_one(const pfOdeMobility *m, const double *P, const double *d)
{
    if (!(m->im > 0.0)) return 0.0;
    double r[3] = {P[0] - m->G[0], P[1] - m->G[1], P[2] - m->G[2]}, rd[3];
    pf_ode_cross(r, d, rd);
    return m->im * pf_ode_dot(d, d) + ang_term(m, rd);
}

double pf_ode_point_row_mobility(const pfOdeMobility *m1, const pfOdeMobility *m2, const double *P,
                                 const double *d)
{
    return point_one(m1, P, d) + point_one(m2, P, d);
}

double pf_ode_ang_row_mobility(const pfOdeMobility *m1, const pfOdeMobility *m2, const double *e)
{
    return (m1->im > 0.0 ? ang_term(m1, e) : 0.0) + (m2->im > 0.0 ? ang_term(m2, e) : 0.0);
}

double pf_ode_row_cfm(double mobility, double dt)
{
    double c = PF_ODE_ROW_EPS * dt * mobility;
    return isfinite(c) && c > 0.0 ? c : 0.0;
}

/* Largest mobility J M^-1 J^T of an angular row the adapter hands to ODE [1/(kg m^2)]; an angular
 * row beyond it is applied explicitly (see pf_ode_angular_rows). ODE's Dantzig solver
 * (dWorldStep) removes a row from its LDL^T factor (dxLDLTRemove) by a rank-2 update that puts a
 * unit diagonal in the row's place; the update's terms are of the size of the row's A_ii^2, so the
 * unit is lost to rounding once A_ii approaches 1/sqrt(DBL_EPSILON) = 6.7e7, and the factor gets a
 * zero or negative pivot: the assertion d[i] != 0 in dxLDLTRemove, or "LCP internal error,
 * s <= 0". CFM does not help (it only adds to A_ii). A point row's mobility is about 1/m, so
 * ODE's own contact rows stay below 1e7 for any mass above 1e-7 kg; an angular row's is
 * 1 / (m rho^2), rho the body's radius of gyration, which reaches 1e14 for a 1e-6 kg body of
 * 1e-4 m. Dumped from the failing scenes of the adapter fuzz harness, the Dantzig problems abort
 * with rows of 2e8 and more, and solve once those rows alone are rescaled to 1e8 or less. 1e7
 * leaves a factor 10 (100 in the rounding of the unit) and keeps the rows of every body with m
 * rho^2 > 1e-7 kg m^2 (a 10 g box of 1 cm side, the 8 g sliding block) implicit. */
#define PF_ODE_ANG_ROW_MAX_MOBILITY 1e7

/* ODE's contact joint has no CFM for its rolling rows (rho, rho2, rhoN: contact.cpp sets none),
 * so they would take the world's absolute CFM; an angular motor has one per axis. A row whose
 * mobility exceeds PF_ODE_ANG_ROW_MAX_MOBILITY is not handed to ODE: body 1 gets the moment that
 * brings the row to its target within the step, u + dt A tau = vel, clamped to the bound (the
 * implicit answer of the row alone, which is the whole answer while A dominates the coupling to
 * the pair's other rows), and body 2 its opposite, through the pair's explicit moment drive_t. */
const pfOdeMobility pf_ode_no_mobility = {{0, 0, 0}, 0.0, {0, 0, 0, 0, 0, 0, 0, 0, 0}};

int pf_ode_angular_row_implicit(const pfOdeMobility *m1, const pfOdeMobility *m2, const double *e)
{
    return pf_ode_ang_row_mobility(m1, m2, e) <= PF_ODE_ANG_ROW_MAX_MOBILITY;
}

dJointID pf_ode_angular_rows(pfOdeContext *ctx, pfOdePair *p, dBodyID a1, dBodyID a2,
                             const pfOdeMobility *mb1, const pfOdeMobility *mb2,
                             const double (*axis)[3], const double *bound, const double *vel, int n)
{
    double wrel[3] = {0, 0, 0};
    const dReal *w1 = dBodyGetAngularVel(a1);
    for (int k = 0; k < 3; ++k)
        wrel[k] = w1[k];
    if (a2) {
        const dReal *w2 = dBodyGetAngularVel(a2);
        for (int k = 0; k < 3; ++k)
            wrel[k] -= w2[k];
    }
    double mob[3];
    int rows = 0;
    for (int k = 0; k < n; ++k) {
        mob[k] = pf_ode_ang_row_mobility(mb1, mb2, axis[k]);
        if (!(bound[k] > 0.0)) continue;
        if (mob[k] <= PF_ODE_ANG_ROW_MAX_MOBILITY) {
            ++rows;
            continue;
        }
        double tau = -(pf_ode_dot(wrel, axis[k]) - vel[k]) / (p->step.dt * mob[k]);
        tau = tau > bound[k] ? bound[k] : (tau < -bound[k] ? -bound[k] : tau);
        if (!isfinite(tau) || tau == 0.0) continue;
        if (!p->step.has_drive) {
            memset(p->step.drive_f, 0, sizeof p->step.drive_f);
            memset(p->step.drive_t, 0, sizeof p->step.drive_t);
            p->step.has_drive = 1;
        }
        for (int i = 0; i < 3; ++i)
            p->step.drive_t[i] += tau * axis[k][i];
    }
    if (rows == 0) return 0;
    dJointID j = dJointCreateAMotor(ctx->world, p->step.group);
    dJointAttach(j, a1, a2);
    dJointSetAMotorMode(j, dAMotorUser);
    dJointSetAMotorNumAxes(j, rows);
    for (int k = 0, r = 0; k < n; ++k) {
        if (!(bound[k] > 0.0) || mob[k] > PF_ODE_ANG_ROW_MAX_MOBILITY) continue;
        const double *e = axis[k];
        const int group = r * dParamGroup;
        dJointSetAMotorAxis(j, r, 0, e[0], e[1], e[2]); /* rel 0: a world axis */
        dJointSetAMotorParam(j, dParamFMax + group, bound[k]);
        dJointSetAMotorParam(j, dParamVel + group, vel[k]);
        const double yield = k == 0 && p->step.spin_yield ? PF_ODE_SIB_SPIN_YIELD : 1.0;
        dJointSetAMotorParam(j, dParamCFM + group, yield * pf_ode_row_cfm(mob[k], p->step.dt));
        ++r;
    }
    return j;
}
