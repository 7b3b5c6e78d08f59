/** @file
 *  @brief The patch models, static capacity, stick tests and implicit step (pure math).
 *
 * patchfriction core: distributed-patch Coulomb friction, pure math (no ODE, no allocation,
 * no I/O, no globals). Equations cite docs/physics.md as P1..P39.
 *
 * Conventions (docs/physics.md §0): patch frame with origin at the patch centre, z = contact normal
 * from body 2 into body 1. A twist (vx, vy, w) is the velocity of body 1 relative to body 2 at the
 * patch centre plus the relative spin about z; a wrench (fx, fy, mz) is the friction acting on
 * body 1, about the patch centre. SI units, double precision.
 *
 * Two layers:
 *  - the fast path (pf_rect_friction, pf_hertz_disk_pade, ...): no checks beyond what keeps the
 *    maths defined; each documents its preconditions. Common to all of them (PF_FAST_PATH_DOMAIN):
 *    lengths in [1e-100, 1e100] m, rectangle aspect ratio <= 1e6, mu and normal_force >= 0
 *    with mu * normal_force * (4 x the largest length) finite (so the moment is representable),
 * twist and rolling components finite with magnitudes
 *    <= 1e100, eps >= 0 and <= 1e100. Inside that domain outputs are finite and obey P2 (this
 *    is what tests/fuzz checks); outside it the result is unspecified (but never a crash).
 *  - the checked API (pfPatchDef, pf_patch_friction, pf_stick_*): validates every input and
 *    returns a status code (PF_OK == 0, negative on error) with a message naming the bad field.
 */
#ifndef PATCHFRICTION_PF_CORE_H
#define PATCHFRICTION_PF_CORE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Smallest length the fast path accepts [m]; the checked API rejects smaller ones.
#define PF_LENGTH_MIN 1e-100
/// Largest length the fast path accepts [m]; the checked API rejects larger ones.
#define PF_LENGTH_MAX 1e100
/// Largest rectangle aspect ratio (length/width or width/length) accepted.
#define PF_ASPECT_MAX 1e6

/// Relative twist of body 1 w.r.t. body 2 at the patch centre, patch frame (docs/physics.md P1).
typedef struct pfTwist {
    double vx; ///< tangential velocity along x [m/s]
    double vy; ///< tangential velocity along y [m/s]
    double w;  ///< relative spin about the normal [rad/s]
} pfTwist;

/// Friction wrench on body 1 about the patch centre, patch frame.
typedef struct pfWrench {
    double fx; ///< force along x [N]
    double fy; ///< force along y [N]
    double mz; ///< moment about the normal [N m]
} pfWrench;

/// A tangential 2-vector (rolling-resistance moment about the tangent axes) [N m].
typedef struct pfVec2 {
    double x; ///< component about / along the patch x axis [N m]
    double y; ///< component about / along the patch y axis [N m]
} pfVec2;

/* ------------------------------------------------------------------------------------------ */
/* Status codes                                                                                */
/* ------------------------------------------------------------------------------------------ */

/// Status codes returned by every checked function. PF_OK is zero; errors are negative.
enum {
    PF_OK = 0,              ///< success
    PF_ERR_NULL = -1,       ///< a required pointer argument was NULL
    PF_ERR_NOT_FINITE = -2, ///< an input was NaN or infinite
    PF_ERR_RANGE = -3,      ///< an input was outside its documented range
    PF_ERR_SHAPE = -4,      ///< the patch shape is unset (PF_PATCH_NONE)
    PF_ERR_DEGENERATE = -5, ///< geometry is degenerate (zero area, not convex, too few vertices)
    PF_ERR_SINGULAR = -6,   ///< a matrix that must be invertible is singular or not SPD
    PF_ERR_NO_MEMORY = -7,  ///< allocation failed (adapter layer only; the core never allocates)
    PF_ERR_STATE = -8,      ///< call not valid in the current state (adapter layer)
    PF_ERR_ENUM = -9        ///< an enumerated input (shape, model, mode, criterion, source,
                            ///< coupling, law kind, rig case, joint type) is not one of the
                            ///< values accepted
};

/** Human-readable name of a status code.
 *  @param status a PF_OK or PF_ERR_* value
 *  @return a static string, never NULL ("unknown status" for codes that are not PF_ERR_*) */
const char *pf_strerror(int status);

/// Detailed error report filled by checked functions (caller-owned; may be NULL).
typedef struct pfError {
    int status;        ///< same value the function returned
    char field[40];    ///< name of the offending field or argument, "" if none
    char message[200]; ///< one line naming the field and the bad value
} pfError;

/* ------------------------------------------------------------------------------------------ */
/* Fast path: uniform rectangle (docs/physics.md §1, P6-P9, P11) */
/* ------------------------------------------------------------------------------------------ */

/** Exact distributed Coulomb friction of a uniform-pressure rectangle (docs/physics.md P6/P7).
 *  The rectangle is centred on the patch origin, x along its length.
 *  A zero twist returns a zero wrench (the static force is not defined by the kinetic law).
 *  Accurate to ~1e-12 relative for every twist (CR inside, outside, on an edge or corner,
 *  w from 0 to huge, aspect ratios 1e-3..1e3).
 *  @param length       extent along x [m], > 0 (fast-path domain)
 *  @param width        extent along y [m], > 0
 *  @param mu           kinetic friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param t            relative twist at the patch centre [m/s, m/s, rad/s], finite
 *  @return the friction wrench on body 1 about the patch centre [N, N, N m] */
pfWrench pf_rect_friction(double length, double width, double mu, double normal_force, pfTwist t);

/** Largest static friction moment of the uniform rectangle about the point (x, y) of the patch
 *  frame (docs/physics.md P11): mu_s * (N/A) * integral of |r - (x,y)| dA.
 *  @param length       extent along x [m], > 0
 *  @param width        extent along y [m], > 0
 *  @param mu_s         static friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param x            x of the point in the patch frame [m], finite
 *  @param y            y of the point in the patch frame [m], finite
 *  @return the moment [N m], >= 0 */
double pf_rect_max_moment(double length, double width, double mu_s, double normal_force, double x,
                          double y);

/* ------------------------------------------------------------------------------------------ */
/* Fast path: line contact as a strip (docs/physics.md §10, P46-P49)                           */
/* ------------------------------------------------------------------------------------------ */

/// Smallest strip half-width as a fraction of the strip's length (pf_line_half_width): the
/// strip L x 2b then has aspect ratio 1e3, within the rectangle's checked range (P49).
#define PF_LINE_HALF_WIDTH_MIN 5e-4

/** Half-width b of a line contact's strip (docs/physics.md P46): Hertz's line contact
 *  b = sqrt(4 N R' / (pi L E*)), floored at PF_LINE_HALF_WIDTH_MIN * L (a sharp edge, R' -> 0,
 *  or N = 0) and capped at L / 2 (the strip no wider than long). The strip is then modelled as
 *  the uniform rectangle of length L and width 2b (pf_rect_friction, P49).
 *  @param normal_force N [N], >= 0 (NaN or negative is taken as 0)
 *  @param r_eff        effective radius of curvature across the line R', 1/R' = 1/R1 + 1/R2
 *                      [m], >= 0 (0: a sharp edge)
 *  @param length       strip length L [m], > 0 (fast-path domain)
 *  @param e_star       combined modulus E* [Pa], > 0
 *  @return b [m], in [PF_LINE_HALF_WIDTH_MIN L, L / 2] */
double pf_line_half_width(double normal_force, double r_eff, double length, double e_star);

/* ------------------------------------------------------------------------------------------ */
/* Fast path: uniform disk                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** Exact friction of a uniform-pressure disk centred on the patch origin (docs/physics.md P3-P9,
 *  closed form with complete elliptic integrals). Pure spin gives mz = -(2/3) mu N a sgn(w) (P9).
 *  @param radius       disk radius a [m], > 0
 *  @param mu           kinetic friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param t            relative twist at the patch centre [m/s, m/s, rad/s], finite
 *  @return the friction wrench on body 1 about the patch centre [N, N, N m] */
pfWrench pf_disk_friction(double radius, double mu, double normal_force, pfTwist t);

/** P11 for the uniform disk: mu_s (N/(pi a^2)) * integral of |r - (x,y)| dA.
 *  @param radius       disk radius a [m], > 0
 *  @param mu_s         static friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param x            x of the point in the patch frame [m], finite
 *  @param y            y of the point in the patch frame [m], finite
 *  @return the moment [N m], >= 0 */
double pf_disk_max_moment(double radius, double mu_s, double normal_force, double x, double y);

/* ------------------------------------------------------------------------------------------ */
/* Fast path: Hertzian disk with rolling resistance (docs/physics.md §3, P14-P18) */
/* ------------------------------------------------------------------------------------------ */

/// Parameters of the Padé-type approximants P17.
typedef struct pfPadeParams {
    double b_T; ///< > 0, force approximant scale (default 0.771)
    double m_T; ///< > 0, force approximant exponent (default 2.655)
    double b_M; ///< > 0, moment approximant scale (default 0.419)
    double m_M; ///< > 0, moment approximant exponent (default 3.073)
} pfPadeParams;

/** The published Padé parameters (docs/physics.md P17).
 *  @return b_T = 0.771, m_T = 2.655, b_M = 0.419, m_M = 3.073 */
pfPadeParams pf_default_pade_params(void);

/** Hertzian disk with rolling-resistance shift d: docs/physics.md P15 evaluated exactly (no
 *  Padé). eps_t, eps_r are in units of velocity / a, i.e. 1/s (docs/physics.md §3).
 *  @param radius       Hertz contact radius a [m], > 0
 *  @param mu           friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param d            rolling-resistance pressure shift [-], |d| <= 1 (P14)
 *  @param t            relative twist at the patch centre [m/s, m/s, rad/s], finite
 *  @param rolling      rolling velocity in vx, vy [m/s] (w ignored), finite
 *  @param eps_t        regularisation of P15/P17 [1/s], >= 0
 *  @param eps_r        regularisation of the rolling direction [1/s], >= 0
 *  @return fx, fy = -mu N T [N], mz = -a mu N M_s [N m] */
pfWrench pf_hertz_disk_friction(double radius, double mu, double normal_force, double d, pfTwist t,
                                pfTwist rolling, double eps_t, double eps_r);

/** The Padé approximant P17 with the default parameters. Same conventions as
 *  pf_hertz_disk_friction.
 *  Note: as published, P17's force numerators carry b_T c_011 w and b_T c_101 w (P16) while its
 *  denominator is only bounded below by max(|v_s|, b_T |w|), so with d > 0 the force can exceed
 *  mu N, by at most a factor 1 + (3 pi/32) d (measured: 1.0855 at d = 1). The exact model never
 *  does. Power is still dissipative (P2).
 *  @param radius       Hertz contact radius a [m], > 0
 *  @param mu           friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param d            rolling-resistance pressure shift [-], |d| <= 1 (P14)
 *  @param t            relative twist at the patch centre [m/s, m/s, rad/s], finite
 *  @param rolling      rolling velocity in vx, vy [m/s] (w ignored), finite
 *  @param eps_t        regularisation of P15/P17 [1/s], >= 0
 *  @param eps_r        regularisation of the rolling direction [1/s], >= 0
 *  @return fx, fy = -mu N T [N], mz = -a mu N M_s [N m] */
pfWrench pf_hertz_disk_pade(double radius, double mu, double normal_force, double d, pfTwist t,
                            pfTwist rolling, double eps_t, double eps_r);

/** P17 with explicit parameters (used by the fitting tool).
 *  @param radius       Hertz contact radius a [m], > 0
 *  @param mu           friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param d            rolling-resistance pressure shift [-], |d| <= 1 (P14)
 *  @param t            relative twist at the patch centre [m/s, m/s, rad/s], finite
 *  @param rolling      rolling velocity in vx, vy [m/s] (w ignored), finite
 *  @param eps_t        regularisation of P15/P17 [1/s], >= 0
 *  @param eps_r        regularisation of the rolling direction [1/s], >= 0
 *  @param params       the approximant's parameters; not NULL
 *  @return fx, fy = -mu N T [N], mz = -a mu N M_s [N m] */
pfWrench pf_hertz_disk_pade_ex(double radius, double mu, double normal_force, double d, pfTwist t,
                               pfTwist rolling, double eps_t, double eps_r,
                               const pfPadeParams *params);

/** Rolling-resistance moment P18 in dimensional form: a N M_r with M_r = (d_s/5, -d_c/5), the
 *  direction (cos g, sin g) = v_r / sqrt(|v_r|^2 + eps_r^2), v_r = rolling / a. It opposes the
 *  rolling direction.
 *  @param radius       Hertz contact radius a [m], > 0
 *  @param normal_force N [N], >= 0
 *  @param d            rolling-resistance pressure shift [-], |d| <= 1
 *  @param rolling      rolling velocity in vx, vy [m/s] (w ignored), finite
 *  @param eps_r        regularisation of the rolling direction [1/s], >= 0
 *  @return torques about the patch x and y axes [N m] */
pfVec2 pf_hertz_rolling_moment(double radius, double normal_force, double d, pfTwist rolling,
                               double eps_r);

/* ------------------------------------------------------------------------------------------ */
/* Fast path: convex polygon with uniform pressure                                            */
/* ------------------------------------------------------------------------------------------ */

/// Largest vertex count accepted by the polygon functions.
#define PF_POLYGON_MAX_VERTICES 32

/** Exact friction of a convex polygon with uniform pressure (edge integrals of P6).
 *  @param xy           n vertices (x0, y0, x1, y1, ...) in the patch frame, counter-clockwise,
 *                      convex, area > 0 [m]
 *  @param n            vertex count, 3 <= n <= PF_POLYGON_MAX_VERTICES
 *  @param mu           kinetic friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param t            relative twist at the patch origin [m/s, m/s, rad/s], finite
 *  @return the friction wrench on body 1 about the patch origin [N, N, N m] */
pfWrench pf_polygon_friction(const double *xy, int n, double mu, double normal_force, pfTwist t);

/** P11 for the uniform convex polygon about (x, y).
 *  @param xy           n vertices, as for pf_polygon_friction [m]
 *  @param n            vertex count, 3 <= n <= PF_POLYGON_MAX_VERTICES
 *  @param mu_s         static friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param x            x of the point in the patch frame [m], finite
 *  @param y            y of the point in the patch frame [m], finite
 *  @return the moment [N m], >= 0 */
double pf_polygon_max_moment(const double *xy, int n, double mu_s, double normal_force, double x,
                             double y);

/* ------------------------------------------------------------------------------------------ */
/* Checked API: patch definitions                                                              */
/* ------------------------------------------------------------------------------------------ */

/// Patch shape and pressure distribution. The zero value means "not set" and is rejected.
typedef enum pfPatchShape {
    PF_PATCH_NONE = 0,   ///< unset: rejected by validation
    PF_PATCH_RECT,       ///< uniform-pressure rectangle (length x width)
    PF_PATCH_DISK,       ///< uniform-pressure disk (radius)
    PF_PATCH_HERTZ_DISK, ///< Hertzian disk (radius) with rolling-resistance shift d
    PF_PATCH_POLYGON     ///< uniform-pressure convex polygon (vertices)
} pfPatchShape;

/// How the wrench of a Hertzian disk is evaluated. Other shapes are always exact.
typedef enum pfModel {
    PF_MODEL_EXACT = 0, ///< exact integral (default)
    PF_MODEL_PADE       ///< Padé-type approximant P17
} pfModel;

/// Geometry and pressure model of one contact patch. Get defaults from pf_default_patch_def().
typedef struct pfPatchDef {
    pfPatchShape shape;                           ///< required; PF_PATCH_NONE is rejected
    pfModel model;                                ///< exact or Padé (Hertzian disk only)
    double length;                                ///< rectangle extent along x [m], > 0
    double width;                                 ///< rectangle extent along y [m], > 0
    double radius;                                ///< disk radius / Hertz contact radius a [m], > 0
    int vertex_count;                             ///< polygon: 3..PF_POLYGON_MAX_VERTICES
    double vertices[2 * PF_POLYGON_MAX_VERTICES]; ///< polygon vertices x0,y0,x1,y1.. CCW [m]
    double rolling_d;  ///< Hertz: rolling-resistance pressure shift d, in [0, 1] (P14)
    double eps_t;      ///< Hertz: regularisation of P15/P17 [1/s], >= 0 (default 0)
    double eps_r;      ///< Hertz: regularisation of the rolling direction [1/s], >= 0 (default 0)
    pfPadeParams pade; ///< Hertz + PF_MODEL_PADE: approximant parameters (default published)
} pfPatchDef;

/** Defaults of a patch definition.
 *  @return shape unset (PF_PATCH_NONE), exact model, zero sizes, d = 0, eps = 0, the published
 *          Padé parameters */
pfPatchDef pf_default_patch_def(void);

/** Validate a patch definition.
 *  @param def the definition
 *  @param err optional error report (may be NULL): the bad field and value
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_SHAPE (shape unset), PF_ERR_ENUM (shape or model not an
 *          enumerator), PF_ERR_NOT_FINITE, PF_ERR_RANGE or PF_ERR_DEGENERATE */
int pf_patch_def_validate(const pfPatchDef *def, pfError *err);

/** Checked friction wrench of a patch.
 *  @param def          the patch (validated)
 *  @param mu           kinetic friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param t            relative twist at the patch centre [m/s, m/s, rad/s], finite
 *  @param rolling      rolling velocity [m/s] (vx, vy; w ignored), used by the Hertzian disk
 *                      only (may be a zero twist)
 *  @param out          the wrench on body 1 about the patch centre [N, N, N m]; not NULL
 *  @param err          optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_patch_friction(const pfPatchDef *def, double mu, double normal_force, pfTwist t,
                      pfTwist rolling, pfWrench *out, pfError *err);

/** Largest power static friction can oppose the incipient twist xi with:
 *  D(xi) = mu_s * integral of p |u_xi| dA (docs/physics.md §2.2). For a unit rotation about a
 *  point it is the P11 moment about that point; for a pure translation it is mu_s N |v|.
 *  Positively homogeneous of degree 1 in xi. For the Hertzian disk the rolling shift d is ignored
 *  (d only skews pressure along the rolling direction, which is zero at rest).
 *  @param def          the patch (validated)
 *  @param mu_s         static friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param xi           the twist [m/s, m/s, rad/s], finite
 *  @param out          D(xi) [W, i.e. N m/s for a twist in m/s]; not NULL
 *  @param err          optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_patch_dissipation(const pfPatchDef *def, double mu_s, double normal_force, pfTwist xi,
                         double *out, pfError *err);

/** Radius of gyration of the patch's pressure about its centre (used for slip->stick velocity
 *  tolerances and the twist metric |v|^2 + (w rho_g)^2).
 *  @param def the patch (validated)
 *  @param out rho_g [m]; not NULL
 *  @param err optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_patch_gyration_radius(const pfPatchDef *def, double *out, pfError *err);

/* ------------------------------------------------------------------------------------------ */
/* Stick detection: the CA criterion (docs/physics.md §2, P10-P13) */
/* ------------------------------------------------------------------------------------------ */

/// Outcome of a stick test.
typedef struct pfStickResult {
    int sticks;           ///< 1 if the patch stays at rest, 0 if it breaks away
    int pure_translation; ///< 1 if the incipient motion is a translation (alpha == 0, P13)
    double ca_x;       ///< centre of zero acceleration, x in the patch frame [m] (P10), 0 if none
    double ca_y;       ///< centre of zero acceleration, y in the patch frame [m] (P10), 0 if none
    double demand;     ///< power the loads drive the incipient twist with, -xi.w* (>= 0)
    double capacity;   ///< D(xi), what static friction can oppose (P11 / mu_s N)
    double margin;     ///< capacity - demand (>= 0 when sticking)
    pfTwist incipient; ///< unit incipient twist (direction of the frictionless acceleration)
    int evaluations;   ///< patch wrench evaluations spent by the limit-set test (at most
                       ///< PF_LIMIT_MAX_EVALS); 0 from the CA functions
} pfStickResult;

/// A free planar body resting on the patch (docs/physics.md §2, the paper's setting).
typedef struct pfPlanarBody {
    double mass;    ///< [kg], > 0
    double inertia; ///< moment of inertia about the normal through the mass centre [kg m^2] > 0
    double com_x;   ///< mass centre projected onto the patch plane, patch frame [m]
    double com_y;   ///< (the normal offset does not matter for planar motion)
} pfPlanarBody;

/// Input of the stick tests for a free planar body at rest (pf_stick_planar,
/// pf_stick_planar_limit). The loads are everything except this patch's friction.
typedef struct pfPlanarStickInput {
    const pfPatchDef *def; ///< the patch (validated by pf_patch_def_validate); not NULL
    double mu_s;           ///< static friction coefficient [-], >= 0
    double normal_force;   ///< normal force N [N], >= 0, mu_s * N finite
    pfPlanarBody body;     ///< the body resting on the patch
    double fx;             ///< load force through the mass centre, patch x [N], finite
    double fy;             ///< load force through the mass centre, patch y [N], finite
    double m_g;            ///< load moment about the mass centre, about the normal [N m], finite
} pfPlanarStickInput;

/** CA criterion for a free planar body at rest (docs/physics.md P10-P13).
 *  @param in  the patch, coefficient, normal force, body and loads (see pfPlanarStickInput)
 *  @param out the verdict, CA, demand and capacity; not NULL
 *  @param err optional error report (may be NULL)
 *  @return PF_OK, or PF_ERR_NULL / PF_ERR_NOT_FINITE / PF_ERR_RANGE naming the bad field, or an
 *          error of pf_patch_def_validate */
int pf_stick_planar(const pfPlanarStickInput *in, pfStickResult *out, pfError *err);

/// Input of the generalised stick tests (pf_stick_general, pf_stick_general_limit).
typedef struct pfGeneralStickInput {
    const pfPatchDef *def; ///< the patch (validated by pf_patch_def_validate); not NULL
    double mu_s;           ///< static friction coefficient [-], >= 0
    double normal_force;   ///< normal force N [N], >= 0, mu_s * N finite
    const double *A;       ///< 9 values: the 3x3 Delassus block of the patch rows, row-major, twist
                           ///< coordinates (vx, vy, w) at the patch centre per unit wrench (fx, fy,
    ///< mz) [(m/s)/N, (m/s)/(N m), (rad/s)/(N m)]; symmetric positive definite
    pfTwist a_free; ///< frictionless relative patch acceleration [m/s^2, m/s^2, rad/s^2], finite
    const pfWrench *reactions; ///< pf_stick_general_limit only: reaction_count wrench directions
                               ///< (fx, fy [N], mz [N m]; scale irrelevant) that other
                               ///< constraints supply without limit; NULL with count 0
    int reaction_count;        ///< 0..3; must be 0 for pf_stick_general
} pfGeneralStickInput;

/** Generalised CA criterion (docs/physics.md P31): with in->A the Delassus block and in->a_free
 *  the frictionless relative patch acceleration, the holding wrench is w* = -A^-1 a_free and the
 *  incipient twist xi = a_free; stick iff -xi.w* <= D(xi). A zero a_free sticks.
 *  @param in  the patch, coefficient, normal force, A and a_free (reaction_count must be 0)
 *  @param out the verdict, CA, demand and capacity; not NULL
 *  @param err optional error report (may be NULL)
 *  @return PF_OK, or PF_ERR_NULL / PF_ERR_NOT_FINITE / PF_ERR_RANGE / PF_ERR_SINGULAR (A not
 *          symmetric positive definite) naming the bad field */
int pf_stick_general(const pfGeneralStickInput *in, pfStickResult *out, pfError *err);

/* ------------------------------------------------------------------------------------------ */
/* Stick detection: the exact limit-set test (docs/physics.md P32) */
/* ------------------------------------------------------------------------------------------ */

/// Most patch wrench evaluations one limit-set test spends (the CA start point included).
#define PF_LIMIT_MAX_EVALS 20

/** Exact static test (docs/physics.md P32): does the holding wrench w* lie in the patch's limit
 *  set, i.e. is
 *  -xi.w* <= D(xi) for every twist xi (D of pf_patch_dissipation)? The test finds the incipient
 *  twist that minimises D(xi) under the fixed normalisation -xi.w* = 1 (a convex problem in two
 *  unknowns). Its minimum is the factor h by which the loads can grow before the patch slips,
 *  and the minimiser is the normal of the limit surface where the ray of the loads crosses it:
 *  the first motion under loads that grow in proportion. Result fields:
 *   - sticks: h >= 1;
 *   - incipient: the minimising twist, unit in the metric |v|^2 + (w rho_g)^2 (rho_g from
 *     pf_patch_gyration_radius), oriented so that the loads drive it (demand > 0);
 *   - capacity = D(incipient) [N], demand = -incipient.w* [N], margin = capacity - demand [N]
 *     (>= 0 iff sticking; capacity / demand = h, dimensionless);
 *   - ca_x, ca_y: centre of the incipient rotation (P5) [m]; 0 with pure_translation = 1;
 *   - evaluations: wrench evaluations spent (<= PF_LIMIT_MAX_EVALS).
 *  holding is the friction wrench on body 1 about the patch centre that keeps the patch at rest
 *  (fx, fy [N], mz [N m]); a zero holding wrench sticks. Every patch model is accepted; the
 *  Hertzian disk's rolling shift and the eps regularisations are ignored (as in
 *  pf_patch_dissipation). With mu_s * normal_force == 0 every nonzero load breaks away along the
 *  start twist.
 *  @param def          the patch (validated)
 *  @param mu_s         static friction coefficient [-], >= 0
 *  @param normal_force N [N], >= 0
 *  @param holding      the holding wrench w* [N, N, N m], finite
 *  @param out          the verdict and the minimising twist; not NULL
 *  @param err          optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_limit_set_test(const pfPatchDef *def, double mu_s, double normal_force, pfWrench holding,
                      pfStickResult *out, pfError *err);

/** The limit-set test for a free planar body at rest (docs/physics.md P32): same input and
 *  validation as pf_stick_planar, holding wrench w* = -(fx, fy, m_g + ((G - c) x F)_z), search
 *  started at the CA twist. When the CA twist is already the minimiser to rounding (pure
 *  translation or pure spin of a centrally symmetric patch, for instance) the result is
 *  pf_stick_planar's, field for field (evaluations aside). h is never above the CA test's
 *  capacity / demand: the limit test sticks only if the CA test sticks.
 *  @param in  as for pf_stick_planar
 *  @param out the verdict and the minimising incipient twist; not NULL
 *  @param err optional error report (may be NULL)
 *  @return PF_OK or an error naming the bad field */
int pf_stick_planar_limit(const pfPlanarStickInput *in, pfStickResult *out, pfError *err);

/** The limit-set test in the generalised form (docs/physics.md P32): A, a_free as for
 *  pf_stick_general (same validation), holding wrench w* = -A^-1 a_free, search started at the
 *  CA twist a_free; a tie with the CA twist returns pf_stick_general's result (evaluations
 *  aside).
 *  in->reactions: in->reaction_count (0..3) wrench directions that other constraints on the
 *  bodies (joints) supply without limit. Those constraints allow only the twists that do no work
 *  on them (xi.r = 0), so the search is restricted to those twists and the load's part along the
 *  reactions is theirs to carry. Without this a body on a hinge would be tested against motions
 *  the hinge forbids. With a single allowed direction the test is the CA test (a_free is that
 *  direction). Reactions that are zero or depend on earlier ones are ignored.
 *  @param in  the patch, coefficient, normal force, A, a_free and the reactions
 *  @param out the verdict and the minimising incipient twist; not NULL
 *  @param err optional error report (may be NULL)
 *  @return PF_OK, or an error naming the bad field (bad counts, NULL reactions with a nonzero
 *          count and non-finite components included) */
int pf_stick_general_limit(const pfGeneralStickInput *in, pfStickResult *out, pfError *err);

/* ------------------------------------------------------------------------------------------ */
/* Implicit friction step of one patch: maximum-dissipation projection (docs/physics.md §0-§2) */
/* ------------------------------------------------------------------------------------------ */

/* A solver that treats one patch's three friction rows (fx, fy, mz) as one block hands over
 *  - A, the patch's 3x3 Delassus block (symmetric positive definite): the change of the post-step
 *    relative twist (vx, vy, w) per unit of friction wrench on body 1 at the patch centre,
 *  - the free wrench lambda*: the friction wrench that would bring the patch's post-step twist to
 *    exactly zero given everything else,
 * and asks for the friction wrench lambda and post-step twist xi with
 *
 *     xi = A (lambda - lambda*),   lambda = W(xi)          (lambda in C when xi = 0)
 *
 * where W is the patch's kinetic wrench (pf_patch_friction) and C the set of all its values.
 *
 * Maximum dissipation. For the models whose W is minus the gradient of the dissipation
 * D(xi) = -xi.W(xi) = mu * integral p |u_xi| dA (rectangle, polygon, uniform disk, exact Hertz
 * disk with eps_t = 0; see below for the rolling shift d), D is convex, positively homogeneous
 * and the support function of -C: D(xi) = max over l in C of (-xi.l), with subdifferential
 * dD(xi) = {-W(xi)} for xi != 0 and dD(0) = -C. The fixed point above is then the optimality
 * condition of the strictly convex dual
 *
 *     min over xi of g(xi) = 1/2 xi.A^-1 xi + lambda*.xi + D(xi):  0 in A^-1 xi + lambda* + dD(xi),
 *
 * i.e. lambda := lambda* + A^-1 xi lies in -dD(xi): lambda = W(xi) if xi != 0, lambda in C if
 * xi = 0. Its Fenchel primal is the projection of lambda* onto C in the A-metric,
 *
 *     min over lambda in C of 1/2 (lambda - lambda*).A (lambda - lambda*),
 *
 * whose optimality condition -xi in N_C(lambda) says that lambda maximises the dissipated power
 * -xi.l over l in C (maximum dissipation for the post-step motion xi). Both problems have unique
 * solutions (A is positive definite), so the answer does not depend on how it is computed: the
 * patch sticks (xi = 0, lambda = lambda*) iff lambda* in C, else slips with lambda = W(xi) on
 * the boundary of C.
 *
 * Models where W is not such a gradient (the Padé approximant; the exact Hertz disk with eps_t >
 * 0 is the gradient of the regularised D_eps = mu integral sigma sqrt(|u|^2 + (eps a)^2), which is
 * smooth at 0, so there is no stick set) use the fixed point itself as the definition:
 *  - eps_t > 0 (Hertz): W is continuous with W(0) = 0, never "sticks"; the fixed point is solved
 *    directly (xi = 0 only for lambda* = 0);
 *  - eps_t = 0 and the kinetic model differs from the static one (Padé; exact Hertz with d != 0
 *    and a nonzero rolling velocity): stick is decided against the static limit set of the patch
 *    (pf_limit_set_test: exact model, no shift, no regularisation; the core's convention that the
 *    limit set belongs to the patch, not to the kinetic approximant), slip solves the kinetic
 *    fixed point. Where the two sets differ near lambda* (at most a few percent, see
 *    pf_hertz_disk_pade) a slip fixed point may not exist: then converged = 0 (below).
 */

/// Wrench evaluations one pf_patch_project call spends at most, the stick test's included (the
/// limit-set test uses at most PF_LIMIT_MAX_EVALS of them).
#define PF_PROJECT_MAX_EVALS 64
/// Convergence target: |xi - A (W(xi) - free)| <= PF_PROJECT_TOL |A free| in the twist metric
/// |v|^2 + (w rho_g)^2 (or the rounding floor of that residual, whichever is larger).
#define PF_PROJECT_TOL 1e-12

/// Result of pf_patch_project.
typedef struct pfProjectResult {
    pfWrench wrench;  ///< friction wrench on body 1 about the patch centre [N, N, N m]: lambda*
                      ///< when sticking, else W(xi) (on the boundary of C, finite)
    pfTwist velocity; ///< post-step relative twist A (wrench - free) [m/s, m/s, rad/s]; exactly 0
                      ///< when sticking. Computed from the returned wrench, so the pair is
                      ///< always consistent with A.
    int sticks;       ///< 1 if free is inside the limit set (wrench == free, velocity == 0)
    int converged;    ///< 1 if residual met PF_PROJECT_TOL (or its rounding floor); 0 means the
                      ///< evaluation budget or the line search ran out: the best iterate is
                      ///< returned (still finite, wrench still a model value)
    int evaluations;  ///< model wrench evaluations spent, 0..PF_PROJECT_MAX_EVALS
    double residual;  ///< |xi - A (W(xi) - free)| / |A free|, both in the twist metric
                      ///< |v|^2 + (w rho_g)^2, xi the twist W was evaluated at; >= 0, 0 on stick
                      ///< (relative to |A| max(mu N, |free|) if |A free| underflows)
} pfProjectResult;

/// Input of pf_patch_project.
typedef struct pfProjectInput {
    const pfPatchDef *def; ///< the patch (validated by pf_patch_def_validate); not NULL
    double mu;             ///< friction coefficient [-], >= 0
    double normal_force;   ///< normal force N [N], >= 0, mu * N finite
    const double *A; ///< 9 values: the patch's Delassus block, row-major [(m/s)/N, (m/s)/(N m),
                     ///< (rad/s)/(N m) ...], finite, symmetric to 1e-9 max|A_ij|, positive
                     ///< definite (Cholesky pivots > 1e-14 max|A_ij|); not NULL
    pfWrench free_wrench; ///< the wrench that would stop the patch [N, N, N m], finite
    pfTwist rolling;      ///< rolling velocity [m/s] for the Hertzian disk's shift d (rolling.w
                          ///< ignored); a zero twist for the other shapes
    const pfTwist *guess; ///< warm start for xi (the previous solver iteration's velocity)
                          ///< [m/s, m/s, rad/s], or NULL for none. It changes the cost, never
                          ///< the answer (beyond the tolerance)
} pfProjectInput;

/** Implicit (maximum-dissipation) friction step of one patch (docs/physics.md P34): solve
 *  xi = A (W(xi) - free), wrench = W(xi) (see the derivation above).
 *  mu * normal_force == 0 gives wrench 0 and velocity -A free (sticks iff free == 0).
 *  Deterministic, allocation-free.
 *  @param in  the patch model, A, the free wrench, rolling velocity and optional warm start
 *  @param out the wrench, post-step twist and convergence report; not NULL
 *  @param err optional error report (may be NULL)
 *  @return PF_OK (check out->converged), or an error naming the bad field: PF_ERR_NULL (in,
 *          def, out, A), PF_ERR_NOT_FINITE, PF_ERR_RANGE (negative mu / normal_force; a
 *          velocity or moment that overflows), PF_ERR_SINGULAR (A not symmetric or not positive
 *          definite), and the errors of pf_patch_def_validate */
int pf_patch_project(const pfProjectInput *in, pfProjectResult *out, pfError *err);

#ifdef __cplusplus
}
#endif

#endif /* PATCHFRICTION_PF_CORE_H */
