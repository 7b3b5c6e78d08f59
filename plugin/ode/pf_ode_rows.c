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

/* Relative regularisation of every adapter row (see above). 1e-6: measured on the stack scenes,
 * 1e-8 already removes the LCP failures; 1e-6 leaves margin for bodies whose masses differ by
 * 1e6 within one island, and a held row then yields 1e-6 dt A_ii lambda per step, far below
 * what the anchor corrects. */
#define PF_ODE_ROW_EPS 1e-6

/* Mobility of a body along a row J = (d, r x d) at P (linear) or (0, e) (angular). */
static double body_mobility(dBodyID b, const double *lin, const double *ang)
{
    if (!b || dBodyIsKinematic(b)) return 0.0;
    dMass m;
    dBodyGetMass(b, &m);
    if (!(m.mass > 0.0)) return 0.0;
    double s = lin ? pf_ode_dot(lin, lin) / m.mass : 0.0;
    /* ang in the body frame, then a^T I^-1 a with I solved by Cramer's rule */
    dVector3 al;
    dBodyVectorFromWorld(b, ang[0], ang[1], ang[2], al);
    const dReal *I = m.I;
    double a00 = I[0], a01 = I[1], a02 = I[2], a11 = I[5], a12 = I[6], a22 = I[10];
    double c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11;
    double c11 = a00 * a22 - a02 * a02, c12 = a01 * a02 - a00 * a12, c22 = a00 * a11 - a01 * a01;
    double det = a00 * c00 + a01 * c01 + a02 * c02;
    if (!(det > 0.0)) return s;
    double x = al[0], y = al[1], z = al[2];
    double q =
        c00 * x * x + c11 * y * y + c22 * z * z + 2.0 * (c01 * x * y + c02 * x * z + c12 * y * z);
    return s + q / det;
}

double pf_ode_point_row_mobility(dBodyID b, const double *P, const double *d)
{
    if (!b) return 0.0;
    const dReal *G = dBodyGetPosition(b);
    double r[3] = {P[0] - G[0], P[1] - G[1], P[2] - G[2]}, rd[3];
    pf_ode_cross(r, d, rd);
    return body_mobility(b, d, rd);
}

double pf_ode_ang_row_mobility(dBodyID b, const double *e)
{
    return body_mobility(b, NULL, e);
}

double pf_ode_row_cfm(const pfOdeContext *ctx, double mobility, double dt)
{
    (void)ctx;
    double c = PF_ODE_ROW_EPS * dt * mobility;
    return isfinite(c) && c > 0.0 ? c : 0.0;
}
