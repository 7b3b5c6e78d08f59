/* Reference solutions of the varying-normal-load cases (pf-demo shaking-table --case vertical,
 * sliding-blocks --case slope-drop, coupled-masses --case vertical), integrated with GSL odeiv2
 * (rk8pd) independently of ODE and of the adapter (the two vertical cases by the integrators of
 * pf_ref_scenes.c, which take the normal vibration as parameters; the entry points here are
 * their case defaults and --set keys), with the same CSV columns as the scenes, and
 * the comparison metrics the scene tests use (defined exactly as pf-report defines them).
 *
 *  - shaking-table vertical (docs/physics.md §3, P19/P20): the table also moves along its normal,
 *    z(t) = A_z sin(omega_z t). The ball stays on it (A_z omega_z^2 < g cos(alpha)), so its
 *    normal acceleration is the table's and the contact force is
 *        N(t) = m (g cos(alpha) + z''(t)) = m (g cos(alpha) - A_z omega_z^2 sin(omega_z t)):
 *    P20 with g cos(alpha) replaced by g_n(t) = N(t)/m everywhere (friction, spin and rolling
 *    moments all scale with N). The Hertz radius follows the load, a(t) = a (N(t)/N_0)^(1/3)
 *    with N_0 = m g cos(alpha) (the scene gives the adapter E, nu with a(N_0) = a).
 *  - sliding-blocks slope-drop (P6/P7, Kardan et al.): a block released flat a height `drop`
 *    above an incline (angle `slope`), lands (perfectly inelastic impact, Darboux-Keller), slides
 *    and spins, stops. The patch wrench is computed here from P7's corner sums (and Gauss-Legendre
 *    quadrature of P3 when the centre of rotation is far away), not by the core.
 *  - coupled-masses vertical (P21): the rig vibrates vertically, z(t) = A_z sin(omega_z t), so
 *    b(t) = mu m2 (g + z''(t)); stick/slip switches located as events (pf_ref_coupled_run). */
#ifndef PF_REF_VARYING_H
#define PF_REF_VARYING_H

#include "pf_ref_scenes.h"

/* ------------------------------------------------------------------------------------------ */
/* shaking-table --case vertical                                                               */
/* ------------------------------------------------------------------------------------------ */

typedef struct pfRefTableVertical {
    pfRefTable t;   ///< excitation-1 in the table's plane, Hertz a = a(N_0), P15 or P17
    double az, wz;  ///< normal vibration z(t) = az sin(wz t) [m, rad/s]
    double density; ///< ball density for the energy column [kg/m^3] (7800, as the scene)
} pfRefTableVertical;

/** Defaults of the case (A_z = 9.2e-6 m, omega_z = 800 rad/s: A_z omega_z^2 = 0.6 g). */
void pf_ref_table_vertical_default(pfRefTableVertical *p);
/** The table's keys (pf_ref_table_set) plus A_z, omega_z. Returns 0 or -1 with msg. */
int pf_ref_table_vertical_set(pfRefTableVertical *p, const char *key, const char *value, char *msg,
                              int n);
/** pf_ref_table_run of t with its az, wz, density taken from p: columns t, x, y, vx, vy, wx, wy,
 *  wz, energy; metrics final_x, final_y, final_wz. -1 on lift-off (A_z omega_z^2 >= g cos). */
int pf_ref_table_vertical_run(const pfRefTableVertical *p, double t_end, double out_dt,
                              pfRefResult *out);

/* ------------------------------------------------------------------------------------------ */
/* sliding-blocks --case slope-drop                                                            */
/* ------------------------------------------------------------------------------------------ */

typedef struct pfRefSlopeDrop {
    double L, W, H;    ///< block [m] (H: only the energy's zero is at the resting height)
    double mass;       ///< [kg]; J = m (L^2 + W^2) / 12
    double mu_s, mu_k; ///< coefficients
    double slope;      ///< incline angle [rad], below atan(mu_s) for a final stop
    double drop;       ///< gap between the bottom face and the incline at release [m] >= 0
    double vx0, vy0;   ///< launch velocity in the incline's plane, x down-slope [m/s]
    double w0;         ///< launch spin about the incline's normal [rad/s]
    double g;          ///< [m/s^2]
} pfRefSlopeDrop;

/** Defaults of the case: Kardan's block (30 x 10 x 10 mm, 23.4 g, mu 0.4) on a 15 degree
 *  incline, drop 5 mm, launched with (0.2, 0.4) m/s and 20 rad/s. */
void pf_ref_slope_drop_default(pfRefSlopeDrop *p);
/** Keys: slope (degrees), drop, vx0, vy0, w0, mass, mu_s, mu_k, length, width; yaw and
 *  criterion are accepted and ignored (set-up frame; the final stop is a pure-force P13 test). */
int pf_ref_slope_drop_set(pfRefSlopeDrop *p, const char *key, const char *value, char *msg, int n);
double pf_ref_slope_drop_duration(const pfRefSlopeDrop *p);
/** Columns of the sliding-blocks scene (t, x, y, theta, vx, vy, w, speed, spin, Fx, Fy, M, stick,
 *  z, energy); metrics final_x, final_y, final_theta, landing_time, stop_time_translation,
 *  stop_time_rotation, stick_time, stops, max_displacement, max_speed. */
int pf_ref_slope_drop_run(const pfRefSlopeDrop *p, double t_end, double out_dt, pfRefResult *out);

/** Independent P6/P7 wrench of a uniform-pressure L x W rectangle (x along L) about its centre:
 *  out = (Fx, Fy, Mz) for the twist (vx, vy, w); zero for a zero twist. Closed form (corner sums
 *  of G, H, K) while the centre of rotation lies within 20 half-diagonals of the centre, else a
 *  24 x 24 Gauss-Legendre rule of P3 (the integrand is then analytic over the patch). */
void pf_ref_rect_wrench(double L, double W, double mu, double N, double vx, double vy, double w,
                        double out[3]);

/* ------------------------------------------------------------------------------------------ */
/* coupled-masses --case vertical                                                              */
/* ------------------------------------------------------------------------------------------ */

typedef struct pfRefCoupledVertical {
    pfRefCoupled c; ///< P21 with b = b0 = mu m2 g the static value
    double az, wz;  ///< base z(t) = az sin(wz t) [m, rad/s]
    double g;       ///< [m/s^2]
} pfRefCoupledVertical;

/** Defaults: the stick case (b0 = 0.5, x1(0) = 6 mm) with A_z omega_z^2 = 0.6 g at 60 rad/s. */
void pf_ref_coupled_vertical_default(pfRefCoupledVertical *p);
/** The coupled keys (pf_ref_coupled_set) plus A_z, omega_z. */
int pf_ref_coupled_vertical_set(pfRefCoupledVertical *p, const char *key, const char *value,
                                char *msg, int n);
double pf_ref_coupled_vertical_duration(const pfRefCoupledVertical *p);
/** pf_ref_coupled_run of c with its az, wz, g taken from p: columns and metrics of the
 *  coupled-masses scene; energy = a2 x1^2/2 + m1 v1^2/2 + m2 v2^2/2 (the horizontal motion; the
 *  prescribed vertical motion is the same in every run). -1 on lift-off (A_z omega_z^2 >= g). */
int pf_ref_coupled_vertical_run(const pfRefCoupledVertical *p, double t_end, double out_dt,
                                pfRefResult *out);

#endif
