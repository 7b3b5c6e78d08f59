/* The canonical cases of the peer-engine comparison (report section "Against other engines").
 *
 * Every engine (ODE stock, patchfriction, MuJoCo, Bullet) runs these cases with these numbers, so
 * their cells in one table compare like with like. Each engine's program writes one JSON object
 * (schema at the end of this file). Reference values are computed by the report from independent
 * closed forms and quadrature, never by an engine.
 */
#ifndef PF_PEER_CASES_H
#define PF_PEER_CASES_H

#define PF_PEER_G 9.81 ///< gravity [m/s^2], along -z

/* --- eccentric push (docs/physics.md §6, Kardan et al.) -------------------------------------- */
/* An aluminium block 30 x 10 x 10 mm (2700 kg/m^3) on a static plane, mu_s 0.55, mu_k 0.52 (an
 * engine with one coefficient uses mu_s). A horizontal force perpendicular to a long side (along
 * +y in the block frame), applied at the half-height of that side at distance h from the centre
 * along the side (x = h), grows from 0 at PF_PEER_PUSH_RAMP N/s after PF_PEER_SETTLE s of
 * settling. Breakaway force: the force when the pushed point has moved PF_PEER_BREAK_DIST in the
 * plane from where it was when the ramp began. */
#define PF_PEER_PUSH_L 0.030
#define PF_PEER_PUSH_W 0.010
#define PF_PEER_PUSH_H 0.010
#define PF_PEER_PUSH_RHO 2700.0
#define PF_PEER_PUSH_MU_S 0.55
#define PF_PEER_PUSH_MU_K 0.52
#define PF_PEER_PUSH_RAMP 0.02                               ///< [N/s]
#define PF_PEER_SETTLE 0.5                                   ///< [s] resting before any load
#define PF_PEER_BREAK_DIST 1e-4                              ///< [m]
static const double pf_peer_push_h[3] = {0.0, 0.005, 0.010}; ///< offsets h [m]

/* --- breakaway spread over push direction ---------------------------------------------------- */
/* The same block, pushed through its mass centre (at its half-height) by a horizontal force in
 * direction theta from the block's long axis, theta = 0, 15, ..., 90 degrees, same ramp and
 * breakaway test. Spread = (max - min) / min of the seven breakaway forces. */
#define PF_PEER_DIR_N 7
#define PF_PEER_DIR_STEP_DEG 15.0

/* --- sliding-spinning disk (docs/physics.md: free-slide, shape=disk) ---------------------------
 */
/* A steel disk (cylinder, axis vertical) R = 0.05 m, height 0.005 m, m = 0.3 kg, mu = 0.3, resting
 * on a plane, launched at t = PF_PEER_SETTLE with v0 = 1 m/s along x and w0 = 20 rad/s about z
 * (R w0 = v0). Uniform pressure: the exact ratio eps = v / (R w) tends to 0.653 as both stop
 * together (at the sample below it is 0.688; pf-report integrates the reference). Reported: eps at
 * the last sample with |v| >= 0.05 v0 and |w| >= 0.05 w0 (both still moving), the stop time of
 * translation (|v| < 1e-3 m/s) and of spin (R |w| < 1e-3 m/s), measured from the launch. */
#define PF_PEER_DISK_R 0.05
#define PF_PEER_DISK_HEIGHT 0.005
#define PF_PEER_DISK_MASS 0.3
#define PF_PEER_DISK_MU 0.3
#define PF_PEER_DISK_V0 1.0
#define PF_PEER_DISK_W0 20.0

/* --- creep ------------------------------------------------------------------------------------ */
/* A 0.1 m cube of 1 kg, mu = 0.6. (a) incline: on a plane tilted by atan(0.9 mu) (gravity tilted
 * in the engine's frame is fine); (b) push: on a level plane under a horizontal force
 * 0.9 mu m g at its mass centre along x. After PF_PEER_SETTLE s (the push starts then), the
 * in-plane displacement of the mass centre over the next PF_PEER_CREEP_T s [m]. */
#define PF_PEER_CREEP_SIDE 0.1
#define PF_PEER_CREEP_MASS 1.0
#define PF_PEER_CREEP_MU 0.6
#define PF_PEER_CREEP_FRACTION 0.9
#define PF_PEER_CREEP_T 10.0

/* --- pinch grasp (the stacks issue's pinch scene) -----------------------------------------------
 */
/* A bar 0.2 x 0.02 x 0.02 m, 0.1 kg, long axis x, held between two spherical fingertips
 * R = 15 mm (E = 1 MPa, nu = 0.45, mu = 1) pressing with N along y from both sides, at a point
 * offset d along x from the bar's centre; gravity -z. The largest offset d that holds (the bar's
 * centre moves less than 1 mm in 2 s) by bisection, over the closed-form soft-finger limit d*
 * (scenes/pf_scene_pinch.c; docs/physics.md). N = 5 N. */
#define PF_PEER_PINCH_N 5.0

/* --- cost --------------------------------------------------------------------------------------
 */
/* 1000 boxes 0.1 m, 1 kg, mu 0.5 on a plane, in a 10 x 100 grid 0.3 m apart, all launched sliding
 * at 1 m/s along x; wall-clock time per step over 200 steps after 10 warm-up steps, dt = 1 ms.
 * An engine that cannot allocate 1000 runs the largest count it takes and reports it. */
#define PF_PEER_COST_BODIES 1000
#define PF_PEER_COST_STEPS 200

/* --- dt ----------------------------------------------------------------------------------------
 */
#define PF_PEER_DT 0.001 ///< [s] every case unless the engine's docs require otherwise (say so)

/* JSON written by each engine's program (one object per engine configuration):
 * {
 *   "engine": "mujoco", "config": "condim 3", "version": "2.2.2",
 *   "settings": "elliptic cone, impratio 10, noslip_iterations 3, Newton, dt 1 ms",
 *   "push_breakaway_N": [F(h=0), F(h=5 mm), F(h=10 mm)],
 *   "dir_breakaway_N": [F(0 deg), ..., F(90 deg)],  "dir_spread": 0.048,
 *   "disk_eps": 0.95, "disk_stop_trans_s": 1.2, "disk_stop_spin_s": 1.1,
 *   "creep_incline_m": 1.1e-6, "creep_push_m": 3e-18,
 *   "pinch_ratio": 0.93,            (null if the engine cannot express it; say why in "notes")
 *   "cost_bodies": 1000, "cost_step_us": 812.0,
 *   "notes": ["what could not be expressed", ...]
 * }
 * A cell that could not be measured is null with a note saying why. */

#endif
