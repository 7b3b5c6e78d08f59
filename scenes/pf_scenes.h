/* Scene builders of pf-demo, shared with the tests (style.md: one scene is a demo, a benchmark
 * and a regression test at once). No I/O here: the runner in pf_demo.c prints. */
#ifndef PF_SCENES_H
#define PF_SCENES_H

#include <patchfriction/pf_laws.h>

/* ------------------------------------------------------------------------------------------ */
/* friction-rig (physics.md §5, rigs (a) and (b))                                              */
/* ------------------------------------------------------------------------------------------ */

/// Which rig.
typedef enum pfRigCase {
    PF_RIG_NONE = 0,
    PF_RIG_WALL, ///< (a) mass-spring to a wall driven by u = U sin(omega t)
    PF_RIG_PULL  ///< (b) mass pulled through a spring whose end moves at v_p
} pfRigCase;

/// Rig parameters (SI). Defaults from pf_rig_default_params().
typedef struct pfRigParams {
    pfRigCase rig;
    pfLawDef law; ///< the friction law between mass and ground
    double m;     ///< mass [kg] > 0
    double K;     ///< spring stiffness [N/m] > 0
    double c;     ///< damping in parallel with the spring (Kelvin-Voigt) [N s/m] >= 0: force
                  ///< -c v in (a), c (v_p - v) in (b). 0 except for the bristle rig (b)
    double U;     ///< (a) input amplitude [N]
    double omega; ///< (a) input frequency [rad/s] > 0
    double v_p;   ///< (b) pulling speed [m/s] > 0
    double g;     ///< gravity for the bristle row's load m g [m/s^2] > 0
} pfRigParams;

/// Published parameter sets of physics.md §5 (and the project's choices where none is
/// published, documented in pf_scene_rig.c).
pfRigParams pf_rig_default_params(pfLawKind law, pfRigCase rig);
/// Sets law.bristle.normal_force = m g (call after changing m or g).
void pf_rig_sync_params(pfRigParams *p);
/// Default duration [s]: three input periods for (a), several stick-slip periods for (b).
double pf_rig_default_duration(const pfRigParams *p);
int pf_rig_params_validate(const pfRigParams *p, pfError *err);

/// Running rig. Integrator: semi-implicit Euler, the friction law implicit in the end-of-step
/// velocity through pf_law_solve_1d; the spring is explicit (symplectic) while K dt^2 <= m and
/// implicit beyond, so the rig is stable at any dt.
typedef struct pfRig {
    pfRigParams p;
    pfLawState law;
    double t, x, v;
    double input;    ///< u(t) for (a), spring force K (v_p t - x) for (b) [N]
    double friction; ///< resisting friction force applied over the last step [N]
    long steps;
    /* (a) per-cycle bookkeeping */
    long cycle;                 ///< index of the input cycle in progress
    double cycle_work;          ///< integral of u dx in the cycle in progress [J]
    double cycle_released0;     ///< released bristle energy at the cycle start [J]
    double last_cycle_energy;   ///< loop area of the last complete cycle [J] (NAN if none)
    double last_cycle_released; ///< bristle energy released in that cycle [J] (NAN if none)
    long complete_cycles;
    /* (b) extrema of the spring length s = v_p t - x (where v crosses v_p) */
    double *ext_t, *ext_s;
    int *ext_max;
    long n_ext, cap_ext;
    double v_prev_rel;
} pfRig;

int pf_rig_init(pfRig *rig, const pfRigParams *p, pfError *err);
int pf_rig_step(pfRig *rig, double dt, pfError *err);
void pf_rig_free(pfRig *rig);

/// Stick-slip cycle of rig (b) measured over [t_from, end]: Schmitt trigger at 1/4 and 3/4 of
/// the spring-length range between local extrema.
typedef struct pfRigCycle {
    int cycles;       ///< complete cycles found (0: none, e.g. steady sliding)
    double period;    ///< mean period [s]
    double amplitude; ///< half peak-to-peak spring length [m]
    double s_max, s_min;
} pfRigCycle;
pfRigCycle pf_rig_pull_cycle(const pfRig *rig, double t_from);

/* ------------------------------------------------------------------------------------------ */
/* pendulum (Dahl's wire pendulum, physics.md P24a) - needs ODE                                */
/* ------------------------------------------------------------------------------------------ */

/// Wire-pendulum parameters.
typedef struct pfPendulumParams {
    pfLawDef law;   ///< joint friction law (Dahl by default; its sigma, fc derived below)
    double m;       ///< bob mass [kg] > 0
    double l;       ///< length [m] > 0
    double g;       ///< gravity [m/s^2] > 0
    double k_ratio; ///< k_n / sigma with k_n = m g l [-] > 0 (Dahl's case: 4)
    double x_c;     ///< Dahl x_c = Fc / sigma [rad] > 0
    double u0;      ///< initial amplitude in units of x_c (Dahl's case: 10)
} pfPendulumParams;

pfPendulumParams pf_pendulum_default_params(void);
/// Recompute law.dahl.sigma = m g l / k_ratio and law.dahl.fc = sigma x_c.
void pf_pendulum_sync_params(pfPendulumParams *p);

/// Region of the decay envelope (physics.md P24a) an amplitude ubar (units of x_c) falls in.
typedef enum pfPendulumRegion {
    PF_REGION_STRUCTURAL = 0, ///< ubar < 0.7: hyperbolic decay
    PF_REGION_VISCOUS,        ///< 0.7 <= ubar < 4: exponential decay
    PF_REGION_COULOMB         ///< ubar >= 4: linear decay
} pfPendulumRegion;
pfPendulumRegion pf_pendulum_region(double ubar);
const char *pf_pendulum_region_name(pfPendulumRegion r);

#ifdef PF_SCENES_HAVE_ODE
/// Opaque running pendulum (ODE world, one body on a hinge with joint friction).
typedef struct pfPendulum pfPendulum;
/** Builds the world: pivot at the origin, hinge axis y, bob released at rest at u0 x_c. */
pfPendulum *pf_pendulum_create(const pfPendulumParams *p, pfError *err);
int pf_pendulum_step(pfPendulum *pd, double dt, pfError *err);
double pf_pendulum_time(const pfPendulum *pd);
double pf_pendulum_angle(const pfPendulum *pd);    ///< hinge angle [rad]
double pf_pendulum_rate(const pfPendulum *pd);     ///< [rad/s]
double pf_pendulum_friction(const pfPendulum *pd); ///< joint friction torque [N m]
/** Amplitude of every completed cycle: the positive peaks of the angle [rad], in order. */
long pf_pendulum_amplitudes(const pfPendulum *pd, const double **out);
void pf_pendulum_destroy(pfPendulum *pd);
#endif

#endif
