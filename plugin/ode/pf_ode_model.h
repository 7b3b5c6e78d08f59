/* Private: the mobility model of the bodies under a patch (pf_ode_model.c). Not installed.
 *
 * What the stick test and the slip predictor need of the two bodies: each body's inverse mass and
 * inertia with the rows of the constraints that restrict its motion removed (the patch's own
 * support and the WORLD joints below), and from it the patch's Delassus block and frictionless
 * acceleration. The model reads the world; it never changes it. */
#ifndef PF_ODE_MODEL_H
#define PF_ODE_MODEL_H

#include "pf_ode_internal.h"

/// How the stick test sees another joint on a body (pf_ode_model.c explains each class).
typedef enum pfOdeJointClass {
    PF_ODE_JOINT_IGNORE = 0, ///< disabled: no effect
    PF_ODE_JOINT_OWN,        ///< one of this pair's own joints
    PF_ODE_JOINT_LOAD,       ///< its last feedback is a load (other contacts, joints to bodies)
    PF_ODE_JOINT_WORLD,      ///< restricts the motion: its rows are projected out of the mobility
    PF_ODE_JOINT_UNKNOWN     ///< neither: the body falls back to its momentum balance
} pfOdeJointClass;

/// At most 6 independent rows in 6 velocity coordinates.
#define PF_ODE_MODEL_ROWS 6

/// Mobility of one body given the constraints added to it. Velocities and wrenches are 6-vectors
/// (linear part, then angular; world frame, about the mass centre).
typedef struct pfOdeBodyModel {
    double G[3];                    ///< mass centre, world [m]
    double im;                      ///< 1/m [1/kg]
    double iinv[9];                 ///< inverse inertia, world, row-major [1/(kg m^2)]
    double q[PF_ODE_MODEL_ROWS][6]; ///< constraint rows, orthonormal in the M^-1 metric
    double u[PF_ODE_MODEL_ROWS][6]; ///< M^-1 q
    int nq;                         ///< rows kept (dependent rows are dropped)
    int unknown;                    ///< 1: an UNKNOWN joint; momentum balance, no joint rows
    int world_rows;                 ///< joint rows added beyond the patch support
} pfOdeBodyModel;

/// Inertia of body b about the unit axis n (world) through its mass centre [kg m^2]; m is the
/// body's mass as dBodyGetMass returns it.
double pf_ode_axial_inertia(dBodyID b, const dMass *m, const double *n);

/// 1 if ODE reports joint j's feedback f1/t1 for body b (b is its first body, or its only one).
int pf_ode_joint_body_is_first(dJointID j, dBodyID b);

/// Class of joint j on body b for the stick test of pair p (ctx tags the adapter's own joints).
pfOdeJointClass pf_ode_classify_joint(const pfOdeContext *ctx, const pfOdePair *p, dJointID j,
                                      dBodyID b);

/// Start the model of body b: its mass centre, inverse mass and world inverse inertia at the
/// present pose, no constraint rows (a free body).
void pf_ode_model_init(pfOdeBodyModel *bm, dBodyID b);

/// out = M^-1 x for a 6-vector wrench x (free body: the constraint rows are not applied).
void pf_ode_model_minv_apply(const pfOdeBodyModel *bm, const double *x, double *out);

/// Add one constraint row (a 6-vector J: row velocity J . (v, w)), orthonormalised against the
/// rows kept in the M^-1 metric; a row dependent on them (or a seventh row) is dropped.
void pf_ode_model_add_row(pfOdeBodyModel *bm, const double *row);

/// Add the row "velocity of the body point P (world) along d is zero".
void pf_ode_model_point_row(pfOdeBodyModel *bm, const double *P, const double *d);

/// Add the row "angular velocity about e (world) is zero".
void pf_ode_model_ang_row(pfOdeBodyModel *bm, const double *e);

/// out = P x with P = M^-1 - M^-1 J^T (J M^-1 J^T)^+ J M^-1: the acceleration of the constrained
/// body under the wrench x.
void pf_ode_model_project(const pfOdeBodyModel *bm, const double *x, double *out);

/// Add the rows of a WORLD joint j (hinge, ball, slider, piston, fixed, linear motor, user-mode
/// angular motor axes with FMax > 0) as body b sees them; other types add nothing.
void pf_ode_model_joint_rows(pfOdeBodyModel *bm, dJointID j, dBodyID b);

/// Model of body b under patch p: init, the patch's support (no normal velocity at p->c, no
/// tipping about p->x and p->y), then the WORLD joints' rows unless an UNKNOWN joint is present.
void pf_ode_body_model(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, pfOdeBodyModel *bm);

/// Patch rows of the modelled body in twist coordinates (vx, vy, w) at p->c, patch frame:
/// adds J P J^T to the 3x3 row-major A, sign * J P (f, t) to a and sign * J M^-1 (f, t) to araw
/// (sign +1 for body 1, -1 for body 2; f, t the body's loads, world).
void pf_ode_model_patch_block(const pfOdeBodyModel *bm, const pfOdePair *p, const double *f,
                              const double *t, double sign, double *A, double *a, double *araw);

/// Symmetric 3x3 eigen-decomposition by cyclic Jacobi of the symmetric part of Ain (row-major):
/// A = V diag(l) V^T, eigenvectors in V's columns (row-major), eigenvalues unsorted.
void pf_ode_jacobi3(const double *Ain, double *l, double *V);

/// Make (A, a) acceptable to pf_stick_general when the other constraints leave A singular (the
/// pseudo-inverse on the allowed subspace; forbidden directions get the largest eigenvalue and
/// a's components along them are dropped). L: the patch's radius of gyration [m]; araw: a before
/// projection (for the rounding test); reactions (room for 3): the forbidden directions as
/// wrenches, their count in *reaction_count.
void pf_ode_regularise_block(double *A, double *a, const double *araw, double L,
                             pfWrench *reactions, int *reaction_count);

/// Frictionless relative acceleration of patch p, af = (ax, ay, alpha) in the patch frame, given
/// the other constraints; f1, t1 / f2, t2: the bodies' loads (world); dyn1, dyn2: which bodies are
/// dynamic.
void pf_ode_patch_free_accel(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                             const double *f1, const double *t1, const double *f2, const double *t2,
                             double *af);

/// Delassus block of patch p (3x3 row-major, twist coordinates at p->c, patch frame): the
/// relative twist change per unit wrench (fx, fy, mz) on body 1 and its opposite on body 2.
void pf_ode_patch_delassus(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                           double *A);

#endif
