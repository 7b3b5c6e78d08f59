/** @file
 * Private: the mobility model of the bodies under a patch (pf_ode_model.c). Not installed.
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
/* Eigen-directions of the scaled Delassus block below this fraction of the largest are motions
 * the other constraints forbid (a hinge leaves one). */
#define PF_ODE_NULL_EIGEN 1e-9

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

/** Inertia of a body about a unit axis through its mass centre.
 *  @param b the body
 *  @param m its mass, as dBodyGetMass returns it (inertia in body axes)
 *  @param n the unit axis (world)
 *  @return n^T I n [kg m^2] */
double pf_ode_axial_inertia(dBodyID b, const dMass *m, const double *n);

/** Which of a joint's feedback sides belongs to a body.
 *  @param j the joint
 *  @param b one of its bodies
 *  @return 1 if ODE reports j's f1/t1 for b (b is its first body, or its only one), else 0 */
int pf_ode_joint_body_is_first(dJointID j, dBodyID b);

/** How the stick test of a pair sees another joint on one of its bodies.
 *  @param ctx the context (the adapter's own joints carry it as joint data)
 *  @param p   the pair under test
 *  @param j   a joint attached to b
 *  @param b   the body (p's body 1 or 2)
 *  @return the joint's class */
pfOdeJointClass pf_ode_classify_joint(const pfOdeContext *ctx, const pfOdePair *p, dJointID j,
                                      dBodyID b);

/** Sum of the last feedback of the joints on body b that pair p's stick test takes as loads
 *  (pf_ode_classify_joint's LOAD class), in the joint list's order, as one would sum them joint
 *  by joint; the body's joints are classified once per pf_ode_after_step call, not per pair.
 *  @param ctx     the context
 *  @param p       the pair (its own joints are skipped)
 *  @param b       the body (p's body 1 or 2)
 *  @param f       in/out: the forces on b are added [N]
 *  @param t       in/out: the torques on b about its mass centre are added [N m]
 *  @param unknown out: 1 if b has an UNKNOWN joint
 *  @return 1, or 0 with f, t and unknown untouched outside pf_ode_after_step, for an untracked
 *          body or out of memory (then classify the joints one by one) */
int pf_ode_load_sum(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, double *f, double *t,
                    int *unknown);

/** Start a body's model as a free body: mass centre, inverse mass and world inverse inertia at
 *  the present pose, no constraint rows.
 *  @param bm out: the model
 *  @param b  the body (dynamic) */
void pf_ode_model_init(pfOdeBodyModel *bm, dBodyID b);

/** Apply the free body's inverse mass matrix (the constraint rows are not applied).
 *  @param bm  the model
 *  @param x   a wrench (force, torque about G; world)
 *  @param out M^-1 x: (linear, angular) acceleration */
void pf_ode_model_minv_apply(const pfOdeBodyModel *bm, const double *x, double *out);

/** Add one constraint row, orthonormalised against the rows kept in the M^-1 metric
 *  (Gram-Schmidt); a row dependent on them, or beyond PF_ODE_MODEL_ROWS, is dropped.
 *  @param bm  the model
 *  @param row J: the row velocity is J . (v, w) */
void pf_ode_model_add_row(pfOdeBodyModel *bm, const double *row);

/** Add the row "the body point P has no velocity along d".
 *  @param bm the model
 *  @param P  the point (world) [m]
 *  @param d  the direction (world, unit) */
void pf_ode_model_point_row(pfOdeBodyModel *bm, const double *P, const double *d);

/** Add the row "no angular velocity about e".
 *  @param bm the model
 *  @param e  the axis (world, unit) */
void pf_ode_model_ang_row(pfOdeBodyModel *bm, const double *e);

/** Acceleration of the constrained body under a wrench: P x with
 *  P = M^-1 - M^-1 J^T (J M^-1 J^T)^+ J M^-1 over the rows kept.
 *  @param bm  the model
 *  @param x   the wrench (force, torque about G; world)
 *  @param out P x: (linear, angular) acceleration */
void pf_ode_model_project(const pfOdeBodyModel *bm, const double *x, double *out);

/** Add the rows of a WORLD joint as the body sees them: hinge, ball, slider, piston, fixed,
 *  linear motor and user-mode angular motor axes with FMax > 0; other types add nothing.
 *  @param bm the model
 *  @param j  the joint (to the world or a kinematic body)
 *  @param b  the modelled body */
void pf_ode_model_joint_rows(pfOdeBodyModel *bm, dJointID j, dBodyID b);

/** Model of a body under a patch: init, the patch's support (no normal velocity at p's centre,
 *  no tipping about its x and y axes), then the rows of its WORLD joints unless one of its
 *  joints is UNKNOWN (then bm->unknown is set).
 *  @param ctx the context (may be NULL if b has no joints)
 *  @param p   the pair (its patch centre and frame are read)
 *  @param b   the body (p's body 1 or 2, dynamic)
 *  @param bm  out: the model */
void pf_ode_body_model(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b, pfOdeBodyModel *bm);

/** Add one body's share to the patch's Delassus block and frictionless acceleration, in twist
 *  coordinates (vx, vy, w) at the patch centre, patch frame.
 *  @param bm   the body's model
 *  @param p    the pair (patch centre and frame)
 *  @param f    the body's loads: force (world) [N]
 *  @param t    and torque about G (world) [N m]
 *  @param sign +1 for body 1, -1 for body 2
 *  @param A    3x3 row-major: J P J^T is added
 *  @param a    sign * J P (f, t) is added
 *  @param araw sign * J M^-1 (f, t) is added (a without the constraints) */
void pf_ode_model_patch_block(const pfOdeBodyModel *bm, const pfOdePair *p, const double *f,
                              const double *t, double sign, double *A, double *a, double *araw);

/** The diagonal of the J P J^T that pf_ode_model_patch_block adds for one body, computed by the
 *  same operations (equal to it up to the sign of a zero), without the loads or the off-diagonal
 *  entries.
 *  @param bm the body's model
 *  @param p  the pair (patch centre and frame)
 *  @param d  out: the diagonal (vx, vy, w entries) */
void pf_ode_model_patch_diag(const pfOdeBodyModel *bm, const pfOdePair *p, double *d);

/** Bounds on the trace d_vx + d_vy + rr d_w of pf_ode_model_patch_diag's diagonal for a body
 *  whose model has only the patch's support rows (no WORLD or UNKNOWN joint), in exact
 *  arithmetic: 2/m <= trace <= the trace of J M^-1 J^T (no rows at all).
 *  @param ctx the context (may be NULL if b has no joints)
 *  @param p   the pair (patch centre and frame)
 *  @param b   the body (p's body 1 or 2, dynamic)
 *  @param rr  the spin entry's weight [m^2]
 *  @param lo  out: the lower bound [1/kg]
 *  @param hi  out: the upper bound [1/kg]
 *  @return 1, or 0 (lo, hi untouched) if b has a WORLD or UNKNOWN joint */
int pf_ode_model_patch_trace_bounds(const pfOdeContext *ctx, const pfOdePair *p, dBodyID b,
                                    double rr, double *lo, double *hi);

/** Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi: A = V diag(l) V^T.
 *  @param Ain the matrix, row-major (its symmetric part is used)
 *  @param l   out: the eigenvalues, unsorted
 *  @param V   out: the eigenvectors as columns, row-major, in the order of l */
void pf_ode_jacobi3(const double *Ain, double *l, double *V);

/** x = A^-1 b for a symmetric positive definite 3x3 A (Cholesky, lower part of A read).
 *  @param A the matrix, row-major
 *  @param b the right-hand side
 *  @param x out: the solution
 *  @return 1, or 0 if A is not positive definite to rounding or x is not finite */
int pf_ode_spd_solve3(const double A[9], const double b[3], double x[3]);

/** Make (A, a) acceptable to pf_stick_general when the other constraints leave A singular: in
 *  coordinates (vx, vy, L w), a's components along forbidden directions are dropped and those
 *  directions get the largest eigenvalue (the pseudo-inverse on the allowed subspace).
 *  @param A              in/out: the Delassus block, 3x3 row-major
 *  @param a              in/out: the frictionless acceleration
 *  @param araw           a without the constraints (its size decides what is rounding)
 *  @param L              the patch's radius of gyration [m]
 *  @param reactions      out (room for 3): the forbidden directions as wrenches
 *  @param reaction_count out: their number */
void pf_ode_regularise_block(double *A, double *a, const double *araw, double L,
                             pfWrench *reactions, int *reaction_count);

/** Frictionless relative acceleration of a patch given the other constraints (the a_free of the
 *  generalised stick test, without regularise's rounding clean-up).
 *  @param ctx  the context
 *  @param p    the pair
 *  @param dyn1 body 1 is dynamic
 *  @param dyn2 body 2 is dynamic
 *  @param f1   body 1's loads: force (world) [N]
 *  @param t1   and torque (world) [N m]
 *  @param f2   body 2's force
 *  @param t2   and torque
 *  @param af   out: (ax, ay, alpha) in the patch frame */
void pf_ode_patch_free_accel(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                             const double *f1, const double *t1, const double *f2, const double *t2,
                             double *af);

/** The patch's Delassus block (as pf_ode_patch_delassus), frictionless acceleration and that
 *  acceleration without the constraints: pf_ode_model_patch_block for body 1, then body 2. Within
 *  one pf_ode_before_step or pf_ode_after_step call the block is kept for the pair's next
 *  pf_ode_patch_delassus with the same flags (the block does not depend on the loads), and the
 *  three outputs for its next call with the same flags and the same loads bit for bit.
 *  @param ctx  the context (may be NULL if neither body has joints)
 *  @param p    the pair
 *  @param dyn1 body 1 is dynamic
 *  @param dyn2 body 2 is dynamic
 *  @param f1   body 1's loads: force (world) [N]
 *  @param t1   and torque (world) [N m]
 *  @param f2   body 2's force
 *  @param t2   and torque
 *  @param A    out: 3x3 row-major, twist coordinates (vx, vy, w), patch frame
 *  @param af   out: the frictionless acceleration (ax, ay, alpha), patch frame
 *  @param araw out: af without the constraints */
void pf_ode_patch_block_loads(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                              const double *f1, const double *t1, const double *f2,
                              const double *t2, double *A, double *af, double *araw);

/** Delassus block of a patch given the other constraints: the relative twist change per unit
 *  wrench (fx, fy, mz) on body 1 at the patch centre (its opposite on body 2).
 *  @param ctx  the context (may be NULL if neither body has joints)
 *  @param p    the pair
 *  @param dyn1 body 1 is dynamic
 *  @param dyn2 body 2 is dynamic
 *  @param A    out: 3x3 row-major, twist coordinates (vx, vy, w), patch frame */
void pf_ode_patch_delassus(const pfOdeContext *ctx, const pfOdePair *p, int dyn1, int dyn2,
                           double *A);

#endif
