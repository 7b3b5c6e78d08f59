/** @file
 *  @brief One-dimensional dynamic (state) friction laws (pure math).
 *
 * patchfriction laws: one-dimensional dynamic (state) friction laws, docs/physics.md §5 (P22-P30).
 * Pure math: libm only, no ODE, no allocation, no I/O, no globals.
 *
 * Every law has
 *  - a definition struct with defaults by value (pf_default_xxx_def()) and a validator,
 *  - a state struct (plain data, initialised by pf_xxx_init()),
 *  - an update  force = step(state, v, dt)  that advances the state over one step of length dt
 *    during which the relative velocity is v (the end-of-step velocity of an implicit scheme)
 *    and returns the friction force at the end of the step.
 *
 * Sign convention: `force` is the RESISTING force. It acts on the moving body as -force, so in
 * steady sliding force * v > 0. A friction-coupled pair receives -force on the faster body and
 * +force on the other.
 *
 * Integration schemes (all stable for any dt > 0; accuracy claims are for dt <= 1e-2 s):
 *  - Dahl (P22): exact. For v constant over the step, P22 is an autonomous ODE in the
 *    displacement dx = v dt whose solution is the closed form P23 applied to s = 1 - F/Fc sgn(v);
 *    the update composes it exactly, so the state never overshoots +-Fc.
 *  - LuGre (P25): exact exponential over the step for the frozen coefficient
 *    a = sigma0 |v| / g(v): z1 = z_ss + (z0 - z_ss) exp(-a dt), z_ss = sgn(v) g(v) / sigma0.
 *    dz/dt in F is the end-of-step rate (v - a z1), so steady sliding gives F = g(v) + sigma2 v
 *    exactly and the stiff sigma0 = 1e5 is harmless at any dt.
 *  - Bristle row (P26-P28): exact geometry. The state is the body position and, per edge, the
 *    release threshold below/above which bristles have snapped; the force is the sum over the
 *    bristles currently in range only (at most d/Delta + 1 per edge). Energy released by snapped
 *    bristles is counted exactly (1/2 kappa theta_max^2 each).
 *  - Sawtooth (P29): exact (memoryless in position and direction).
 *  - Hybrid (P30): exponential integrator like LuGre with the bristle factor cos^2(theta) taken
 *    at the step midpoint (one predictor-corrector pass); the stiff forgetting term is exact for
 *    the frozen coefficient, so it cannot overshoot its steady state.
 *
 * Coupling to a mass: the laws alone are stable, but an explicit force applied to a light body
 * still is not (LuGre's sigma0 = 1e5 on 1 kg has a 316 rad/s presliding mode). Use
 * pf_law_solve_1d() (the friction interface of a 1-D pair, implicit in the end-of-step velocity)
 * or pf_law_linearize() (the tangent F(v) ~ f0 + k v over the step, for a solver row such as an
 * ODE joint motor, see pf_ode_joint.h).
 */
#ifndef PATCHFRICTION_PF_LAWS_H
#define PATCHFRICTION_PF_LAWS_H

#include <patchfriction/pf_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Dahl solid friction (P22-P24)                                                               */
/* ------------------------------------------------------------------------------------------ */

/// Dahl law parameters. Defaults: sigma = 0.25 N/m, fc = 0.1 N, exponent = 1 (with a 1 N/m
/// spring this is Dahl's worked case k_n / sigma = 4, docs/physics.md P24a).
typedef struct pfDahlDef {
    double sigma;    ///< rest stiffness sigma [N/m], > 0
    double fc;       ///< Coulomb force Fc [N], > 0
    double exponent; ///< shape exponent i [-], in [0, 100]
} pfDahlDef;

/// Dahl state: the friction force itself.
typedef struct pfDahlState {
    double force; ///< current friction force F [N] (resisting convention)
} pfDahlState;

/** Defaults of the Dahl law.
 *  @return the defaults documented in pfDahlDef */
pfDahlDef pf_default_dahl_def(void);
/** Validate a Dahl definition.
 *  @param def the definition
 *  @param err optional error report (may be NULL): the bad field and value
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_NOT_FINITE or PF_ERR_RANGE */
int pf_dahl_def_validate(const pfDahlDef *def, pfError *err);
/** State at rest (F = 0).
 *  @param def   the definition (validated)
 *  @param state receives the state; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_dahl_init(const pfDahlDef *def, pfDahlState *state, pfError *err);
/** Advance the Dahl law (P22) over one step during which the relative velocity is v.
 *  @param def   the definition (validated)
 *  @param state the state, advanced in place; not NULL
 *  @param v     relative velocity over the step [m/s], finite
 *  @param dt    step length [s], > 0
 *  @param force receives the resisting force at the end of the step [N]; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_dahl_step(const pfDahlDef *def, pfDahlState *state, double v, double dt, double *force,
                 pfError *err);

/* ------------------------------------------------------------------------------------------ */
/* LuGre (P25)                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/// LuGre parameters. Defaults: the published rig (b) set of docs/physics.md §5.
typedef struct pfLugreDef {
    double sigma0; ///< bristle stiffness [N/m], > 0 (default 1e5)
    double sigma1; ///< bristle damping [N s/m], >= 0 (default sqrt(1e5))
    double sigma2; ///< viscous coefficient [N s/m], >= 0 (default 0.2)
    double fc;     ///< Coulomb force [N], > 0 (default 1)
    double fs;     ///< static (breakaway) force [N], > 0 (default 1.5)
    double vs;     ///< Stribeck velocity [m/s], > 0 (default 1e-3)
} pfLugreDef;

/// LuGre state.
typedef struct pfLugreState {
    double z;    ///< mean bristle deflection [m]
    double zdot; ///< its rate at the end of the last step [m/s]
} pfLugreState;

/** Defaults of the LuGre law.
 *  @return the defaults documented in pfLugreDef */
pfLugreDef pf_default_lugre_def(void);
/** Validate a LuGre definition.
 *  @param def the definition
 *  @param err optional error report (may be NULL): the bad field and value
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_NOT_FINITE or PF_ERR_RANGE */
int pf_lugre_def_validate(const pfLugreDef *def, pfError *err);
/** State at rest (z = 0).
 *  @param def   the definition (validated)
 *  @param state receives the state; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_lugre_init(const pfLugreDef *def, pfLugreState *state, pfError *err);
/** Advance the LuGre law (P25) over one step during which the relative velocity is v.
 *  @param def   the definition (validated)
 *  @param state the state, advanced in place; not NULL
 *  @param v     relative velocity over the step [m/s], finite
 *  @param dt    step length [s], > 0
 *  @param force receives the resisting force at the end of the step [N]; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_lugre_step(const pfLugreDef *def, pfLugreState *state, double v, double dt, double *force,
                  pfError *err);
/** Stribeck curve of P25 (no checks).
 *  @param def the LuGre definition; not NULL
 *  @param v   relative velocity [m/s]
 *  @return g(v) = Fc + (Fs - Fc) exp(-(v/vs)^2) [N] */
double pf_lugre_g(const pfLugreDef *def, double v);

/* ------------------------------------------------------------------------------------------ */
/* Sudden-release bristle row (P26-P28)                                                        */
/* ------------------------------------------------------------------------------------------ */

/// Bristle row parameters. Defaults: the published rig (a) set (l_S = 0.1 m, kappa = 0.1
/// N m/rad, m g = 9.81 N, w = 1 m, N_b = 101, Delta = w / (N_b - 1) = 0.01 m).
/// Bristle bases sit at k * Delta for every integer k; the body spans [x - w/2, x + w/2].
typedef struct pfBristleDef {
    double length;       ///< bristle length l_S [m], > 0
    double kappa;        ///< torsional stiffness at each base [N m/rad], > 0
    double normal_force; ///< weight carried by the row, m g [N], > 0
    double width;        ///< body width w [m], > 0
    int count;           ///< bristles under the body N_b [-], >= 2 (spacing w / (N_b - 1))
} pfBristleDef;

/// Bristle row state. Each edge engages bristles as it moves over them; a bristle snaps
/// (releases) when its deflection reaches theta_max. The snapped bristles of the right edge are
/// exactly those with base <= right_release (they reset when the edge retreats past them), the
/// snapped bristles of the left edge those with base >= left_release. Invariants:
/// x_R - d <= right_release <= x_R and x_L <= left_release <= x_L + d.
typedef struct pfBristleState {
    double x;               ///< body centre position relative to the row [m]
    double right_release;   ///< release threshold of the right (x + w/2) edge [m]
    double left_release;    ///< release threshold of the left (x - w/2) edge [m]
    double released_energy; ///< cumulative energy released by snapped bristles [J]
    long released_count;    ///< cumulative number of snapped bristles
} pfBristleState;

/// Derived geometry of P26.
typedef struct pfBristleGeometry {
    double spacing;   ///< Delta [m]
    double theta_max; ///< release angle m g l_S / (N_b kappa) [rad]
    double h;         ///< l_S cos(theta_max) [m]
    double d;         ///< sqrt(l_S^2 - h^2) [m]
} pfBristleGeometry;

/** Defaults of the bristle-row law.
 *  @return the defaults documented in pfBristleDef */
pfBristleDef pf_default_bristle_def(void);
/** Validate a bristle-row definition. Also rejects theta_max >= pi/2 (the body would rest on
 *  the bases).
 *  @param def the definition
 *  @param err optional error report (may be NULL): the bad field and value
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_NOT_FINITE or PF_ERR_RANGE */
int pf_bristle_def_validate(const pfBristleDef *def, pfError *err);
/** Derived geometry of P26.
 *  @param def the definition (validated)
 *  @param out receives spacing, theta_max, h and d; not NULL
 *  @param err optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_bristle_geometry(const pfBristleDef *def, pfBristleGeometry *out, pfError *err);
/** State at rest at position x0, with no bristle engaged.
 *  @param def   the definition (validated)
 *  @param x0    body position [m], finite
 *  @param state receives the state; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_bristle_init(const pfBristleDef *def, double x0, pfBristleState *state, pfError *err);
/** Advance the bristle-row law (P26-P28) over one step during which the relative velocity is v.
 *  @param def   the definition (validated)
 *  @param state the state, advanced in place; not NULL
 *  @param v     relative velocity over the step [m/s], finite
 *  @param dt    step length [s], > 0
 *  @param force receives the resisting force at the end of the step [N]; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_bristle_step(const pfBristleDef *def, pfBristleState *state, double v, double dt,
                    double *force, pfError *err);
/** Elastic energy stored in the engaged bristles.
 *  @param def   the definition (validated)
 *  @param state the state; not NULL
 *  @param out   receives the sum of kappa theta^2 / 2 [J]; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_bristle_stored_energy(const pfBristleDef *def, const pfBristleState *state, double *out,
                             pfError *err);

/* ------------------------------------------------------------------------------------------ */
/* Sawtooth approximation (P29)                                                                */
/* ------------------------------------------------------------------------------------------ */

/// Sawtooth parameters. Defaults: the published rig (b) set F_h = 0.14, F_l = 0.05,
/// Delta = 0.005.
typedef struct pfSawtoothDef {
    double f_high;  ///< force at the end of a tooth F_h [N], >= f_low
    double f_low;   ///< force at the start of a tooth F_l [N], >= 0
    double spacing; ///< tooth length Delta [m], > 0
} pfSawtoothDef;

/// Sawtooth state.
typedef struct pfSawtoothState {
    double x; ///< position [m]
} pfSawtoothState;

/** Defaults of the sawtooth law.
 *  @return the defaults documented in pfSawtoothDef */
pfSawtoothDef pf_default_sawtooth_def(void);
/** Validate a sawtooth definition.
 *  @param def the definition
 *  @param err optional error report (may be NULL): the bad field and value
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_NOT_FINITE or PF_ERR_RANGE */
int pf_sawtooth_def_validate(const pfSawtoothDef *def, pfError *err);
/** State at rest at position x0, with the tooth phase of x0.
 *  @param def   the definition (validated)
 *  @param x0    body position [m], finite
 *  @param state receives the state; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_sawtooth_init(const pfSawtoothDef *def, double x0, pfSawtoothState *state, pfError *err);
/** Advance the sawtooth law (P29) over one step during which the relative velocity is v. At v == 0
 * exactly the law gives 0; static friction (the interval between the values for v -> 0- and v ->
 * 0+) comes out of pf_law_solve_1d().
 *  @param def   the definition (validated)
 *  @param state the state, advanced in place; not NULL
 *  @param v     relative velocity over the step [m/s], finite
 *  @param dt    step length [s], > 0
 *  @param force receives the resisting force at the end of the step [N]; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_sawtooth_step(const pfSawtoothDef *def, pfSawtoothState *state, double v, double dt,
                     double *force, pfError *err);

/* ------------------------------------------------------------------------------------------ */
/* Hybrid bristle-LuGre (P30)                                                                  */
/* ------------------------------------------------------------------------------------------ */

/// Hybrid parameters. Defaults: the published rig (a) set.
typedef struct pfHybridDef {
    double kappa;  ///< torsional stiffness [N m/rad], > 0 (default 10, the paper's stated value;
                   ///< the friction rigs use 0.1, see the note under docs/physics.md P30)
    double h;      ///< bristle height [m], > 0 (default 0.1)
    double sigma;  ///< forgetting gain sigma [-], > 0 (default 1e3)
    double theta1; ///< sliding part of g [rad], >= 0 (default 0.3)
    double theta2; ///< static excess of g [rad], >= 0, theta1 + theta2 > 0 (default 0.7)
    double eps;    ///< Stribeck angular rate epsilon [rad/s], > 0 (default 0.01)
} pfHybridDef;

/// Hybrid state.
typedef struct pfHybridState {
    double theta; ///< leading-bristle angle [rad]
} pfHybridState;

/** Defaults of the hybrid law.
 *  @return the defaults documented in pfHybridDef */
pfHybridDef pf_default_hybrid_def(void);
/** Validate a hybrid definition.
 *  @param def the definition
 *  @param err optional error report (may be NULL): the bad field and value
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_NOT_FINITE or PF_ERR_RANGE */
int pf_hybrid_def_validate(const pfHybridDef *def, pfError *err);
/** State at rest (theta = 0).
 *  @param def   the definition (validated)
 *  @param state receives the state; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_hybrid_init(const pfHybridDef *def, pfHybridState *state, pfError *err);
/** Advance the hybrid law (P30) over one step during which the relative velocity is v.
 *  @param def   the definition (validated)
 *  @param state the state, advanced in place; not NULL
 *  @param v     relative velocity over the step [m/s], finite
 *  @param dt    step length [s], > 0
 *  @param force receives the resisting force at the end of the step [N]; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_hybrid_step(const pfHybridDef *def, pfHybridState *state, double v, double dt, double *force,
                   pfError *err);

/* ------------------------------------------------------------------------------------------ */
/* Law-agnostic interface                                                                      */
/* ------------------------------------------------------------------------------------------ */

/// Which law a pfLawDef selects. The zero value is "unset" and is rejected.
typedef enum pfLawKind {
    PF_LAW_NONE = 0, ///< unset: rejected by validation (PF_ERR_ENUM)
    PF_LAW_DAHL,     ///< Dahl solid friction (P22)
    PF_LAW_LUGRE,    ///< LuGre (P25)
    PF_LAW_BRISTLE,  ///< sudden-release bristle row (P26-P28)
    PF_LAW_SAWTOOTH, ///< sawtooth approximation of the bristle row (P29)
    PF_LAW_HYBRID    ///< hybrid bristle-LuGre (P30)
} pfLawKind;

/// Any law: the kind plus the definition of that kind (the others are ignored).
typedef struct pfLawDef {
    pfLawKind kind;         ///< required
    pfDahlDef dahl;         ///< used when kind == PF_LAW_DAHL
    pfLugreDef lugre;       ///< used when kind == PF_LAW_LUGRE
    pfBristleDef bristle;   ///< used when kind == PF_LAW_BRISTLE
    pfSawtoothDef sawtooth; ///< used when kind == PF_LAW_SAWTOOTH
    pfHybridDef hybrid;     ///< used when kind == PF_LAW_HYBRID
} pfLawDef;

/// State of any law (plain data: copy it to evaluate a trial step without committing).
typedef struct pfLawState {
    pfLawKind kind;           ///< set by pf_law_init
    pfDahlState dahl;         ///< state when kind == PF_LAW_DAHL
    pfLugreState lugre;       ///< state when kind == PF_LAW_LUGRE
    pfBristleState bristle;   ///< state when kind == PF_LAW_BRISTLE
    pfSawtoothState sawtooth; ///< state when kind == PF_LAW_SAWTOOTH
    pfHybridState hybrid;     ///< state when kind == PF_LAW_HYBRID
} pfLawState;

/** Defaults of every law.
 *  @param kind the law the definition selects
 *  @return every law's defaults, with kind set to `kind` */
pfLawDef pf_default_law_def(pfLawKind kind);
/** Name of a kind.
 *  @param kind a law kind
 *  @return "dahl", "lugre", "bristle", "sawtooth", "hybrid", or "none" for anything else */
const char *pf_law_name(pfLawKind kind);
/** Kind from a name.
 *  @param name "dahl", "lugre", "bristle", "sawtooth" or "hybrid" (may be NULL)
 *  @return the kind; PF_LAW_NONE if the name is unknown or NULL */
pfLawKind pf_law_from_name(const char *name);
/** Validate the kind and the selected law's definition.
 *  @param def the definition
 *  @param err optional error report (may be NULL)
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_ENUM (kind not a law) or the law's validation error */
int pf_law_def_validate(const pfLawDef *def, pfError *err);
/** State at rest at position x0 (position matters to the bristle and sawtooth laws).
 *  @param def   the definition (validated)
 *  @param x0    body position [m], finite
 *  @param state receives the state; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_law_init(const pfLawDef *def, double x0, pfLawState *state, pfError *err);
/** Advance the selected law over one step (dispatches to its step function).
 *  @param def   the definition (validated)
 *  @param state the state, advanced in place; not NULL
 *  @param v     relative velocity over the step [m/s], finite
 *  @param dt    step length [s], > 0
 *  @param force receives the resisting force at the end of the step [N]; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_law_step(const pfLawDef *def, pfLawState *state, double v, double dt, double *force,
                pfError *err);

/// Result of pf_law_solve_1d.
typedef struct pfLawSolve1D {
    double v;         ///< end-of-step relative velocity [m/s]
    double force;     ///< resisting force applied over the step, mass (v_free - v) / dt [N]
    double law_force; ///< the law's force at v (differs from `force` only when the solution sits
                      ///< on a jump of F(v): stiction of the sawtooth, a bristle release)
    int iterations;   ///< bracketing iterations used
} pfLawSolve1D;

/** Friction interface of a 1-D friction-coupled pair, implicit in the end-of-step velocity.
 *  Solves  mass * (v - v_free) = -dt * F(v)  for the end-of-step relative velocity v, where
 *  F(v) is the law's step from the current state, then commits the state at that v.
 *  The residual is continuous except at jumps of F and goes from -inf to +inf, so a root (or a jump
 * straddling zero) always exists; with a falling Stribeck curve at large dt there can be several (a
 * "stick" and a "slip" root). The search starts at v_prev and takes the root nearest to it on the
 * side the residual points to, i.e. the solution continuous with the current motion: a stuck body
 * stays stuck until no stuck solution is left (breakaway), a sliding one slides until sliding has
 * no solution. The root is found to ~1e-15 relative.
 *  @param def    the law (validated)
 *  @param state  the law's state, committed at the solution; not NULL
 *  @param mass   effective mass of the relative motion [kg], > 0 (m1 m2 / (m1 + m2) for a free
 *                pair, plus dt^2 times any spring stiffness the caller treats implicitly)
 *  @param v_free end-of-step relative velocity without this friction [m/s], finite
 *  @param v_prev relative velocity at the start of the step [m/s], finite
 *  @param dt     step length [s], > 0
 *  @param out    the solution (velocity, applied force, law force, iterations); not NULL
 *  @param err    optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_law_solve_1d(const pfLawDef *def, pfLawState *state, double mass, double v_free,
                    double v_prev, double dt, pfLawSolve1D *out, pfError *err);

/// Tangent of the law's step force over one step: F(v) ~ f0 + k v, |F| <= fmax.
typedef struct pfLawRow {
    double f0;   ///< force at v = 0 of the tangent [N]
    double k;    ///< slope dF/dv over the step [N s/m], >= 0 (clamped)
    double fmax; ///< bound on |F| over the step [N] (HUGE_VAL if the law has none)
} pfLawRow;

/** Tangent of F(v) about the predicted end-of-step velocity v_pred (finite differences of the
 *  law's own step on a copy of the state; the state is not modified). For a solver row
 *  (docs/physics.md P39).
 *  @param def    the law (validated)
 *  @param state  the law's state (not modified); not NULL
 *  @param v_pred predicted end-of-step velocity [m/s], finite
 *  @param dt     step length [s], > 0
 *  @param out    the tangent f0 [N], k [N s/m], fmax [N]; not NULL
 *  @param err    optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_law_linearize(const pfLawDef *def, const pfLawState *state, double v_pred, double dt,
                     pfLawRow *out, pfError *err);

#ifdef __cplusplus
}
#endif

#endif /* PATCHFRICTION_PF_LAWS_H */
