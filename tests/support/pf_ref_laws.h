/* Reference integrations of the friction rigs with GSL odeiv2, written from the equations of
 * docs/physics.md §5 and independent of the plugin's step functions (no call into
 * patchfriction_laws): the tests compare the plugin's rigs against these. */
#ifndef PF_REF_LAWS_H
#define PF_REF_LAWS_H

/// Laws known to the reference (same numbering as pfLawKind, kept separate on purpose).
typedef enum pfRefLaw {
    PF_REF_DAHL = 1,
    PF_REF_LUGRE,
    PF_REF_BRISTLE,
    PF_REF_SAWTOOTH,
    PF_REF_HYBRID
} pfRefLaw;

/// Rig (b): m x'' = K (v_p t - x) + c (v_p - x') - F, starting from x(0) = x0, x'(0) = v0
/// with the law's state at rest (zero-initialise for the published start at rest).
/// p[] holds the law's parameters in this order:
///   dahl: sigma, Fc, i | lugre: sigma0, sigma1, sigma2, Fc, Fs, vs |
///   bristle: l_S, kappa, m g, w, N_b | sawtooth: F_h, F_l, Delta |
///   hybrid: kappa, h, sigma, theta1, theta2, eps
typedef struct pfRefPull {
    pfRefLaw law;
    double m, K, v_p;
    double c;      ///< damping of the pulling spring (Kelvin-Voigt) [N s/m], >= 0
    double x0, v0; ///< initial position [m] and velocity [m/s]
    double p[8];
} pfRefPull;

typedef struct pfRefCycle {
    int cycles;       ///< complete cycles found
    double period;    ///< mean period [s]
    double amplitude; ///< half peak-to-peak spring length [m]
    double v_min;     ///< minimum velocity over t >= t_from [m/s]
    double x_end;     ///< state at t_end: position [m]
    double v_end;     ///< and velocity [m/s]
    long releases;    ///< bristle releases (snaps) located as events
} pfRefCycle;

/** Integrates rig (b) to t_end with tolerance 1e-10 (macro step 1e-3 s for the sawtooth's
 *  stick/slip events; the bristle row between releases is smooth and every release is located
 *  as an event to ~1e-13 s, see pf_ref_laws.c) and measures the cycle after t_from
 *  with a Schmitt trigger at 1/4 and 3/4 of the spring-length range between its extrema.
 *  Returns 0 on success. */
int pf_ref_pull_cycle(const pfRefPull *cfg, double t_end, double t_from, pfRefCycle *out);

#endif
