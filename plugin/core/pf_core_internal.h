/* Private helpers shared by the core's translation units. Not installed. */
#ifndef PATCHFRICTION_PF_CORE_INTERNAL_H
#define PATCHFRICTION_PF_CORE_INTERNAL_H

#include <patchfriction/pf_core.h>

#ifndef PF_PI
#define PF_PI 3.14159265358979323846
#endif

/* Fill err (if non-NULL) with status, field name and a printf-style message; returns status.
 * Formatting uses snprintf into the caller's buffer: no allocation, no I/O. */
int pf_error_set(pfError *err, int status, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Clear err to PF_OK. */
void pf_error_clear(pfError *err);

/* Checks used by every validating function: finite, > 0, >= 0, in [lo, hi]. Return PF_OK or the
 * error (already written into err) naming field and value. */
int pf_check_finite(pfError *err, const char *field, double v);
int pf_check_positive(pfError *err, const char *field, double v);
int pf_check_nonnegative(pfError *err, const char *field, double v);
int pf_check_range(pfError *err, const char *field, double v, double lo, double hi);

/* ---- Gauss-Legendre rules for the far-field branches of the exact uniform-pressure shapes
 * (defined in pf_core_rect.c, also used by pf_core_polygon.c). When the centre of rotation (P5)
 * or the P11 point is far from the patch, the closed-form corner/edge sums of P7 cancel
 * catastrophically, while the integrands of P6/P11 are analytic over the patch: Gauss-Legendre
 * then converges geometrically (Trefethen, "Is Gauss quadrature better than Clenshaw-Curtis?",
 * Thm 4.5: error ~ rho^(-2n) with rho the Bernstein ellipse parameter of the nearest singularity).
 */

/* Squared semi-major axis alpha^2 of the Bernstein ellipse (foci -1, 1) through z = re + i im:
 * alpha = (|z - 1| + |z + 1|) / 2, rho = alpha + sqrt(alpha^2 - 1). Overflows to +inf safely. */
double pf_bernstein_alpha2(double re, double im);

/* Smallest tabulated Gauss-Legendre rule on [-1, 1] that integrates, to ~1e-16 relative, a
 * function whose nearest singularity (an inverse-square-root branch point, as in P6) lies on the
 * Bernstein ellipse with squared semi-major axis alpha2. Returns n (0 if no tabulated rule is good
 * enough) and points *nw at the ceil(n/2) nonnegative nodes, descending, each {node, weight}; for
 * odd n the last node is 0. */
int pf_gauss_legendre_select(double alpha2, const double (**nw)[2]);

/* asinh(s2/|h|) - asinh(s1/|h|) for s1 < s2 with one logarithm and no cancellation, given
 * R_k = sqrt(s_k^2 + h^2), dr = R2 - R1 (formed without subtraction by the caller) and h2 = h^2.
 * Returns 0 when h^2 < 1e-200: callers multiply it by h^2. (pf_core_rect.c) */
double pf_asinh_diff(double s1, double s2, double r1, double r2, double dr, double h, double h2);

/* ---- Complete elliptic integrals for the exact disks (defined in pf_core_disk.c, also used by
 * pf_core_hertz.c). Legendre forms with modulus k, complementary modulus kp = sqrt(1 - k^2),
 * both given so that neither is formed by cancellation. Computed by the AGM (quadratic
 * convergence, libm sqrt only). The combinations that appear in the disk formulas are returned
 * directly because forming them from K and E cancels: D = (K - E)/k^2 (finite at k = 0),
 * K_minus_D = K - D = (E - kp^2 K)/k^2 and kp2K = kp^2 K (both finite at k = 1). At kp == 0,
 * K and D are +inf while E, K_minus_D and kp2K keep their limits 1, 1 and 0. */
typedef struct pfEllip {
    double K, E, D, K_minus_D, kp2K;
} pfEllip;

pfEllip pf_ellip(double k, double kp);

/* ---- evaluation of an already validated patch (pf_core_patch.c) ------------------------------
 * The checked API validates a definition once per call and then uses these; functions that
 * evaluate a patch many times per call (the stick tests, the limit-set search) call them
 * directly instead of re-validating on every evaluation. Preconditions: def passed
 * pf_patch_def_validate, mu and normal_force passed the checked API's scalar checks, twists
 * finite. */

/* The static model of a patch: exact, no rolling shift, no regularisation (the limit set is a
 * property of the patch, not of the kinetic approximant). */
pfPatchDef pf_patch_static(const pfPatchDef *def);
/* Radius of gyration of the pressure about the patch centre [m]. */
double pf_patch_gyration(const pfPatchDef *def);
/* Kinetic wrench with the twist and rolling velocity rescaled so no square can overflow
 * (non-finite only if the model fails). */
pfWrench pf_patch_eval(const pfPatchDef *def, double mu, double normal_force, pfTwist t,
                       pfTwist rolling);
/* D(xi) of the static model; +inf when it overflows. */
double pf_patch_dissipation_eval(const pfPatchDef *def, double mu_s, double normal_force,
                                 pfTwist xi);

/* A lower bound of pf_patch_dissipation_eval's D(xi) from the pressure's centroid, polar second
 * moment and extent, without quadrature (exact for a translation); 0 where it is not finite. */
double pf_patch_dissipation_lower(const pfPatchDef *def, double mu_s, double normal_force,
                                  pfTwist xi);

/* ---- The CA tests with their inputs unpacked (pf_core_stick.c) ------------------------------ */

/* pf_stick_planar / pf_stick_general on the fields of their input structs (the limit-set tests
 * run the CA test first on the same, already unpacked, inputs). screened: NULL for the full
 * test. Otherwise the test is screened: where the demand lies below pf_patch_dissipation_lower's
 * bound of the capacity (by a margin far above the models' error) the patch sticks without the
 * capacity's evaluation, *screened = 1 and out->capacity, out->margin are the bound's (lower
 * bounds of the full test's); every other field, and the verdict, are the full test's. Else
 * *screened = 0 and out is the full test's, field for field. */
int pf_stick_planar_args(const pfPatchDef *def, double mu_s, double normal_force,
                         const pfPlanarBody *body, double fx, double fy, double m_g,
                         pfStickResult *out, int *screened, pfError *err);
int pf_stick_general_args(const pfPatchDef *def, double mu_s, double normal_force,
                          const double A[9], pfTwist a_free, pfStickResult *out, int *screened,
                          pfError *err);

/* ---- 3x3 symmetric positive definite solves (pf_core_stick.c) ------------------------------ */

/* Cholesky factor L (lower) of the symmetrised A. Returns -1 when A is positive definite, else
 * the index of the first pivot <= 1e-14 max|A| (its value in *pivot). */
int pf_spd3_cholesky(const double A[9], double l[3][3], double *pivot);
/* Forward substitution L y = b. */
void pf_spd3_forward(double l[3][3], const double b[3], double y[3]);
/* Back substitution L^T x = y. */
void pf_spd3_backward(double l[3][3], const double y[3], double x[3]);

#endif
