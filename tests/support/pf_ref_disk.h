/* Independent reference for the disk models: adaptive cubature (libcubature hcubature) of the
 * defining integrals P3/P4 and P15 over the unit disk, in coordinates that make the integrands
 * smooth (polar about the instantaneous centre, docs/physics.md P5), and of P11 / P16.
 * Everything is dimensionless (lengths in units of the radius a, velocities divided by a). */
#ifndef PF_REF_DISK_H
#define PF_REF_DISK_H

/// Pressure over the unit disk, normalised to total 1.
typedef enum pfRefPressure {
    PF_REF_UNIFORM = 0, ///< 1/pi (uniform disk, P6)
    PF_REF_HERTZ = 1    ///< (3/(2 pi)) sqrt(1 - r^2) (1 + dc x + ds y)  (P14)
} pfRefPressure;

/// Result of one reference integration.
typedef struct pfRefDisk {
    double tx, ty, ms; ///< P15: T_x, T_y, M_s (for uniform pressure: F = -mu N T, Mz = -mu N a M_s)
    double err;        ///< largest absolute error estimate reported by hcubature
    int status;        ///< 0 on success
} pfRefDisk;

/** P15 (and P3/P4 for the uniform disk) for the dimensionless twist (vx, vy, w), regularisation
 *  eps, pressure shift (dc, ds) (Hertz only). Absolute tolerance tol on each component. */
pfRefDisk pf_ref_disk_p15(pfRefPressure pressure, double vx, double vy, double w, double eps,
                          double dc, double ds, double tol);

/** Integral of sigma |r - r0| over the unit disk (P11 divided by mu_s N a), r0 = (x0, y0). */
double pf_ref_disk_distance(pfRefPressure pressure, double x0, double y0, double tol);

/** P16 moment c_ijk = integral x^i y^j (x^2 + y^2)^(-k/2) sigma dA of the Hertz pressure with
 *  shift (dc, ds); k may be negative. */
double pf_ref_disk_moment(int i, int j, int k, double dc, double ds, double tol);

/// hcubature integrand of -u/|u| and its moment over the uniform unit disk, polar about its
/// centre (x = (r, phi)), per unit area: f = (Fx, Fy, M) for the twist data = (vx/a, vy/a, w).
/// Smooth, and so fast, only when the centre of rotation lies well outside the disk (u never
/// vanishes there); use pf_ref_disk_p15 otherwise.
int pf_ref_disk_polar_integrand(unsigned ndim, const double *x, void *data, unsigned fdim,
                                double *f);

#endif
