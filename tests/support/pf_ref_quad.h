/* Independent high-accuracy reference for uniform-pressure patches (docs/physics.md P3/P4, P11):
 * adaptive cubature (libcubature hcubature) of the pointwise Coulomb law over a rectangle or a
 * convex polygon. Used by the unit tests to check the closed forms; shares no code with them.
 *
 * The integrand u/|u| of P3 has a kink (a cone point) at the centre of rotation (P5), and
 * |r - r0| of P11 at r0. The region is cut into a fan of triangles whose common apex is that
 * point when it lies in the region (else the closest boundary point), so the kink always sits on
 * a corner of every sub-domain. Each triangle is mapped from the unit square by the collapsed
 * (Duffy) map r = c + s((1 - t)(A - c) + t(B - c)), Jacobian s |(A - c) x (B - c)|: with the apex
 * at the CR, u/|u| depends on t only and the integrands are polynomial in s, so hcubature
 * converges quickly to ~1e-13.
 */
#ifndef PF_REF_QUAD_H
#define PF_REF_QUAD_H

#include <patchfriction/pf_core.h>

/// Largest vertex count of a reference region.
#define PF_REF_MAX_VERTICES 64

/// A convex region in the patch frame, vertices counter-clockwise.
typedef struct pfRefRegion {
    int n;                              ///< vertex count, 3..PF_REF_MAX_VERTICES
    double xy[2 * PF_REF_MAX_VERTICES]; ///< x0, y0, x1, y1, ... [m]
} pfRefRegion;

/// Rectangle length x width centred at the origin, x along the length.
pfRefRegion pf_ref_rect_region(double length, double width);
/// Convex polygon with n counter-clockwise vertices (copied).
pfRefRegion pf_ref_polygon_region(const double *xy, int n);
/// Area [m^2].
double pf_ref_region_area(const pfRefRegion *reg);
/// Largest vertex distance from the origin [m] (the half-diagonal of a centred rectangle): the
/// length the tests normalise moments with.
double pf_ref_region_size(const pfRefRegion *reg);

/** Friction wrench (P3/P4, uniform pressure N/A) about the origin for twist t. The cubature is
 *  asked for 1e-13 * mu N (forces) and 1e-13 * mu N * size (moment) absolute accuracy.
 *  Returns 0 on success, nonzero if hcubature failed. */
int pf_ref_wrench(const pfRefRegion *reg, double mu, double normal_force, pfTwist t, pfWrench *out);

/** P11: mu_s (N/A) * integral of |r - (x, y)| dA, to 1e-13 * mu_s N * max(size, distance).
 *  Returns 0 on success. */
int pf_ref_max_moment(const pfRefRegion *reg, double mu_s, double normal_force, double x, double y,
                      double *out);

#endif
