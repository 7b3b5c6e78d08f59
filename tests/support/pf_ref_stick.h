/* Independent stick test of a free planar body at rest on a uniform-pressure patch, under the two
 * criteria of docs/physics.md §2: CA (P10-P13, Kardan et al. 2013) and the limit-surface test
 * (the project's exact static test). Written from the definitions, sharing no code with the
 * plugin: the static capacities come from adaptive cubature (libcubature: the rectangle's by a
 * signed fan about the point written here, the disk's by pf_ref_disk_distance and pf_ref_disk_p15
 * of pf_ref_disk.h and a polar cubature), the limit-surface minimum from GSL's BFGS minimiser. The
 * derivation is in pf_ref_stick.c and in docs/physics.md §2 ("Checked against").
 *
 * Frame: the patch frame (origin at the patch centre, z the normal; a rectangle's x along its
 * length). The loads are everything except this patch's friction: a force (fx, fy) through the
 * mass centre G and a moment m_g about G. */
#ifndef PF_REF_STICK_H
#define PF_REF_STICK_H

/// Which stick criterion (the values of pf-demo's `--set criterion=ca|limit`).
typedef enum pfRefStickCriterion {
    PF_REF_STICK_CA = 0,   ///< centre of zero acceleration (P10-P13), the default
    PF_REF_STICK_LIMIT = 1 ///< load wrench inside the static limit surface
} pfRefStickCriterion;

/// The patch: a rectangle or a disk centred at the origin, uniform pressure.
typedef struct pfRefStickPatch {
    int disk;      ///< 0: rectangle length x width, 1: disk of radius
    double length; ///< rectangle extent along x [m] > 0
    double width;  ///< rectangle extent along y [m] > 0
    double radius; ///< disk radius [m] > 0
    double mu_s;   ///< static coefficient [-] >= 0
    double normal; ///< normal force N [N] >= 0 (pressure N / area)
} pfRefStickPatch;

/// The body resting on the patch.
typedef struct pfRefStickBody {
    double mass;    ///< [kg] > 0
    double inertia; ///< about the normal through the mass centre [kg m^2] > 0
    double gx, gy;  ///< mass centre projected on the patch plane, patch frame [m]
} pfRefStickBody;

/// Verdict and incipient motion.
typedef struct pfRefStickResult {
    int sticks;      ///< 1: the patch stays at rest (factor >= 1)
    double factor;   ///< h: the loads scaled by any s <= h stick, by s > h break away [-];
                     ///< INFINITY for zero loads, 0 for nonzero loads on mu_s N = 0
    int translation; ///< 1: the incipient motion is a translation (no centre)
    double cx, cy;   ///< centre of the incipient rotation, patch frame [m] (CA for the CA
                     ///< criterion), 0 with translation = 1
    double twist[3]; ///< unit incipient twist at the patch centre (vx [m/s], vy [m/s], w [rad/s]),
                     ///< |v|^2 + (w rho)^2 = 1, rho the patch's polar radius of gyration; driven
                     ///< by the loads (twist . load wrench > 0)
    double rho;      ///< that radius of gyration [m]: sqrt((L^2 + W^2) / 12) or R / sqrt(2)
    double residual; ///< limit criterion: optimality residual |W(xi) - h w*| / |h w*| of the
                     ///< minimiser (W the static friction wrench at the incipient twist, w* the
                     ///< holding wrench, rho-scaled moments); 0 for CA
    int evaluations; ///< cubatures spent
} pfRefStickResult;

/** Stick test of the body at rest under the loads, by the criterion asked for.
 *  @return 0, or -1 for a bad argument (non-positive sizes, mass or inertia, negative mu_s or N,
 *          non-finite loads), a failed cubature or a minimiser that did not converge */
int pf_ref_stick(const pfRefStickPatch *patch, const pfRefStickBody *body, double fx, double fy,
                 double m_g, pfRefStickCriterion criterion, pfRefStickResult *out);

/** The verdict where rigorous bounds on the static capacity settle it without a cubature
 *  (derivation in pf_ref_stick.c): 1 sticks, 0 breaks away, -1 undecided (the full test
 *  decides), -2 for bad arguments (as pf_ref_stick refuses them). */
int pf_ref_stick_bounds(const pfRefStickPatch *patch, const pfRefStickBody *body, double fx,
                        double fy, double m_g, pfRefStickCriterion criterion);

/** The verdict alone (stick = 1), as pf_ref_stick gives it, but decided without a cubature where
 *  rigorous bounds on the static capacity settle it (derivation in pf_ref_stick.c); the full test
 *  otherwise. Returns 0, or -1 as pf_ref_stick. */
int pf_ref_stick_verdict(const pfRefStickPatch *patch, const pfRefStickBody *body, double fx,
                         double fy, double m_g, pfRefStickCriterion criterion, int *sticks);

/** Criterion from its `--set criterion=` name ("ca" or "limit"): 0, or -1 for another name. */
int pf_ref_stick_criterion_parse(const char *name, pfRefStickCriterion *out);

/** P11 for the patch: mu_s (N / A) * integral of |r - (x, y)| dA [N m], by cubature; the largest
 *  moment static friction exerts about the point (x, y). Returns NAN if the cubature failed. */
double pf_ref_stick_max_moment(const pfRefStickPatch *patch, double x, double y);

/** Static friction wrench (P3/P4 with mu_s) about the patch centre for the twist (vx, vy, w),
 *  by cubature: out = (fx [N], fy [N], mz [N m]). Returns 0, or -1 if the cubature failed. */
int pf_ref_stick_wrench(const pfRefStickPatch *patch, double vx, double vy, double w,
                        double out[3]);

#endif
