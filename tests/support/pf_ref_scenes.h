/* Reference solutions of the literature scenes, integrated directly from the published
 * equations with GSL odeiv2 (rk8pd, tight tolerances) and stick/slip switching located as events
 * by bisection. Independent of ODE and of the adapter. The kinetic friction wrenches come from
 * the core's closed forms (pf_rect_friction, pf_disk_friction, pf_hertz_disk_*), which the unit
 * tests check against cubature; the stick test is the independent one of pf_ref_stick.h (cubature
 * and GSL, no plugin code), under the criterion asked for.
 *
 *  - sliding-blocks (docs/physics.md §6, P6/P10-P13): planar rigid body, set-up frame.
 *  - coupled-masses (§4, P21): stick condition on the acceleration.
 *  - shaking-table  (§3, P19/P20): ball on a tilted vibrating table.
 *
 * The coupled-masses and shaking-table references also integrate a vibration along the normal,
 * z(t) = az sin(wz t) (the varying-load cases of pf_ref_varying.h are thin wrappers); with
 * az = 0, as the case defaults set, the load is fixed.
 *
 * The trajectory has the same CSV columns and the metrics the same JSON keys as the scene of
 * pf-demo (scenes/pf_scene_*.c), so the two can be compared column by column. */
#ifndef PF_REF_SCENES_H
#define PF_REF_SCENES_H

#define PF_REF_MAX_METRICS 32

/// Trajectory sampled at t = k * out_dt (k = 0..n-1), plus the scene's metrics.
typedef struct pfRefResult {
    int ncol;
    const char *const *cols; ///< static column names, cols[0] = "t"
    long n;                  ///< rows
    double *rows;            ///< n x ncol, row-major (free with pf_ref_result_free)
    int nmetric;
    const char *metric_name[PF_REF_MAX_METRICS];
    double metric[PF_REF_MAX_METRICS];
    long switches;     ///< stick/slip switching events located
    double min_dt_evt; ///< bracket width at which events were accepted [s]
} pfRefResult;

void pf_ref_result_free(pfRefResult *r);
/// Value of a metric by name (NAN if absent).
double pf_ref_metric(const pfRefResult *r, const char *name);
/// Column index by name (-1 if absent).
int pf_ref_column(const pfRefResult *r, const char *name);

/* ------------------------------------------------------------------------------------------ */
/* sliding-blocks                                                                              */
/* ------------------------------------------------------------------------------------------ */

typedef enum pfRefSlidingCase {
    PF_REF_SL_NOSLIP = 0,
    PF_REF_SL_ZEROSTOP,
    PF_REF_SL_MULTISTOP,
    PF_REF_SL_GENERAL,
    PF_REF_SL_ECCENTRIC,
    PF_REF_SL_FREESLIDE
} pfRefSlidingCase;

typedef struct pfRefSliding {
    pfRefSlidingCase c;
    int disk;          ///< free-slide: 1 = flat disk (radius), 0 = box (length x width)
    double L, W, R;    ///< patch [m]
    double mass;       ///< [kg]; inertia follows: box m (L^2+W^2)/12, disk m R^2/2
    double mu_s, mu_k; ///< coefficients
    double h, ramp;    ///< eccentric push: lever [m], force growth [N/s]
    double v0, w0;     ///< free-slide launch speed (along x) [m/s] and spin [rad/s]
    double g;          ///< [m/s^2]
    int limit;         ///< stick criterion: 0 CA (P10-P13, the default), 1 limit surface
} pfRefSliding;

/** Published parameters of a case (docs/physics.md §6; free-slide: the project's choice, as in the
 *  scene). Returns 0, or -1 if the case name is unknown. */
int pf_ref_sliding_default(const char *case_name, pfRefSliding *p);
/** --set key=value (the scene's keys; criterion=ca|limit chooses the stick criterion as in the
 *  scene; yaw is accepted and ignored: the reference works in the set-up frame). Returns 0 or -1
 *  with a message in msg. */
int pf_ref_sliding_set(pfRefSliding *p, const char *key, const char *value, char *msg, int n);
/// Default duration of the case [s] (same as the scene).
double pf_ref_sliding_duration(const pfRefSliding *p);
/** Integrate to t_end, sampling every out_dt. Columns and metrics as the scene. Returns 0, or -1
 *  if the integration or a stick test (its cubature or minimiser) failed. */
int pf_ref_sliding_run(const pfRefSliding *p, double t_end, double out_dt, pfRefResult *out);

/* ------------------------------------------------------------------------------------------ */
/* coupled-masses                                                                              */
/* ------------------------------------------------------------------------------------------ */

typedef struct pfRefCoupled {
    double m1, m2, a1, a2, b; ///< P21 [kg, kg, N s/m, N/m, N]
    double x1, v1;            ///< initial state of body 1 (body 2 at rest at 0) [m, m/s]
    /** Vertical base vibration z(t) = az sin(wz t) [m, rad/s]: b is the static bound mu m2 g and
     *  the bound becomes b(t) = b (g + z''(t)) / g; az = 0: fixed b (g then unused). */
    double az, wz;
    double g; ///< [m/s^2]
} pfRefCoupled;

/** Cases "stick" (b = 0.5, x1(0) = 0.006) and "slip" (b = 0.05, v1(0) = 0.15); m1 = m2 = 1,
 *  a1 = 0, a2 = 200, g = 9.81, az = wz = 0. Returns 0 or -1. */
int pf_ref_coupled_default(const char *case_name, pfRefCoupled *p);
int pf_ref_coupled_set(pfRefCoupled *p, const char *key, const char *value, char *msg, int n);
double pf_ref_coupled_duration(const pfRefCoupled *p);
/** Columns and metrics of the coupled-masses scene. Returns 0, or -1 if body 2 would lift off
 *  (az wz^2 >= g) or the integration fails. */
int pf_ref_coupled_run(const pfRefCoupled *p, double t_end, double out_dt, pfRefResult *out);

/* ------------------------------------------------------------------------------------------ */
/* shaking-table                                                                               */
/* ------------------------------------------------------------------------------------------ */

typedef struct pfRefTable {
    int pade;                   ///< 1: Padé P17, 0: exact P15
    double tilt;                ///< table tilt alpha [rad]
    double ax, ay, wa, wb, phi; ///< excitation A_x, A_y [m/s], omega_a, omega_b [rad/s], phi_y
    double mu, d, a, r;         ///< friction, rolling shift, contact radius [m], ball radius [m]
    double eps_t, eps_r;        ///< regularisation [1/s]
    double g;
    double v0[2], w0[3]; ///< initial ball velocity [m/s] and angular velocity [rad/s]
    /** Normal vibration z(t) = az sin(wz t) [m, rad/s]: g cos(alpha) becomes the normal
     *  acceleration g_n(t) = g cos(alpha) + z''(t) in every moment, and the Hertz radius follows
     *  the load, a(t) = a (g_n / (g cos(alpha)))^(1/3); az = 0: fixed load. */
    double az, wz;
    double density; ///< ball density for the energy column [kg/m^3]
} pfRefTable;

/** Cases "excitation-1" (A = (1, 0.5), omega = (1000, 500), phi 0), "excitation-2"
 *  (A = (1, 3), omega = (1200, 1000), phi 1) and "spinning" (excitation-1 with wz0 = 100);
 *  density 7800 (the scene's steel ball), az = wz = 0. */
int pf_ref_table_default(const char *case_name, pfRefTable *p);
int pf_ref_table_set(pfRefTable *p, const char *key, const char *value, char *msg, int n);
double pf_ref_table_duration(const pfRefTable *p);
/** Columns t, x, y, vx, vy, wx, wy, wz, energy; metrics final_x, final_y, final_wz. Returns 0,
 *  or -1 if the ball would lift off (az wz^2 >= g cos(alpha)) or the integration fails. */
int pf_ref_table_run(const pfRefTable *p, double t_end, double out_dt, pfRefResult *out);

#endif
