/** @file
 *  @brief The ODE adapter: one distributed-friction patch per geom pair per step.
 *
 * patchfriction ODE adapter: one distributed-friction patch per geom pair per step.
 *
 * Usage (the user keeps their near callback and their step loop):
 *
 *     pfOdeContext *pf = NULL;
 *     pf_ode_create(world, NULL, &pf, NULL);
 *     pfOdeMaterial m = pf_ode_default_material();
 *     m.mu_s = 0.55; m.mu_k = 0.52;
 *     pf_ode_set_material(pf, box_geom, &m, NULL);
 *
 *     static void near(void *data, dGeomID a, dGeomID b) {
 *         pf_ode_collide(pf, a, b, contact_group);      // replaces dCollide + dJointCreateContact
 *     }
 *     for (;;) {
 *         dBodyAddForce(...);                            // user loads, as usual
 *         dSpaceCollide(space, NULL, near);
 *         pf_ode_before_step(pf, dt);                    // stick test, friction rows
 *         dWorldQuickStep(world, dt);                    // or dWorldStep: the user's choice
 *         pf_ode_after_step(pf);                         // normal forces, diagnostics
 *         dJointGroupEmpty(contact_group);
 *     }
 *
 * Conventions: docs/physics.md §0. For every patch, body 1 is the body of the first geom passed to
 * the pair's first pf_ode_collide that has a body (the adapter swaps the pair if only the second
 * has one), and the patch normal z points from body 2 into body 1. A pair is the same pair in
 * either geom order: a later call in the other order keeps its body 1. SI units throughout.
 *
 * The library never prints, never aborts on bad input and never hands NaN or Inf to ODE: bad
 * materials are rejected at set time with a status code (pf_core.h) and a pfError message; a patch
 * whose inputs turn non-finite at run time is dropped for that step and counted.
 */
#ifndef PATCHFRICTION_PF_ODE_H
#define PATCHFRICTION_PF_ODE_H

#include <ode/ode.h>
#include <patchfriction/pf_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Largest number of contact points dCollide is asked for per geom pair.
#define PF_ODE_MAX_CONTACTS 16

/// Largest number of patches one geom pair is split into (pf_ode_collide groups a pair's contacts
/// by their normals: a box in a concave corner of one trimesh gets a floor and a wall patch). A
/// pair with more groups merges the surplus into the group of the nearest normal.
#define PF_ODE_MAX_PAIR_PATCHES 4

/// Largest friction coefficient a material accepts. 1e6 holds any load a finite scene can put
/// on a contact (use it where plain ODE code writes mu = dInfinity); larger values would only
/// overflow mu N in the friction bounds.
#define PF_ODE_MU_MAX 1e6
/// Smallest Young's modulus a material accepts [Pa]; softer than any solid (gels are ~1e3 Pa).
/// Smaller values (a subnormal 1e-310) would turn every Hertz patch into point friction.
#define PF_ODE_E_MIN 1.0

/// Smallest Hertz radius a material may give [m] (also the floor of a computed one): a
/// subnormal radius would be silently raised to it.
#define PF_ODE_HERTZ_RADIUS_MIN 1e-7

/// Smallest nonzero largest component of pfOdeMaterial.patch_axis (its direction must survive
/// normalisation).
#define PF_ODE_AXIS_MIN 1e-150
/// Largest component of pfOdeMaterial.patch_axis (its squared length must be finite).
#define PF_ODE_AXIS_MAX 1e150

/// How friction is applied for a geom pair.
typedef enum pfOdeMode {
    PF_ODE_MODE_EXACT = 0, ///< patch friction, exact wrench (default)
    PF_ODE_MODE_PADE,      ///< patch friction, Padé approximant for Hertzian disks (P17)
    PF_ODE_MODE_STOCK      ///< ODE's own point friction (dContactApprox1), for comparison runs
} pfOdeMode;

/// Which stick test decides breakaway of a resting patch (docs/physics.md §2).
typedef enum pfOdeCriterion {
    PF_ODE_CRITERION_CA = 0, ///< the CA criterion (Kardan et al.), P10-P13 (default)
    PF_ODE_CRITERION_LIMIT   ///< the exact limit-set test: holding wrench inside the limit set
} pfOdeCriterion;

/// Where the patch geometry comes from.
typedef enum pfOdePatchSource {
    PF_ODE_PATCH_AUTO = 0, ///< from the geometry: box face -> rectangle, cylinder end -> uniform
                           ///< disk, sphere / capsule end -> Hertzian disk, contact points on a
                           ///< segment (a cylinder's or capsule's side, a box edge) -> a strip
                           ///< rectangle L x 2b (P46-P49), else a polygon from the contact
                           ///< points (default)
    PF_ODE_PATCH_FIXED     ///< use pfOdeMaterial.patch as given, centred at the contact centroid
} pfOdePatchSource;

/// Contact surface parameters of a material (ODE's soft contact, restitution and surface motion,
/// applied by the adapter to the patch's rows). All zero (the default) = a rigid, inelastic,
/// still surface. Two geoms in contact combine as: soft_erp and soft_cfm both from the softer
/// material (the larger soft_cfm; on a tie the smaller nonzero soft_erp); bounce and bounce_vel
/// take the larger value; each geom keeps its own velocity, and the patch's friction acts on the
/// slip relative to the moving surfaces. Not available with the in-solver coupling (see
/// pf_ode_set_material).
typedef struct pfOdeSurface {
    double soft_erp;    ///< ERP of the patch's normal rows, in [0, 1]; 0 (default) = the world's
                        ///< (dWorldSetERP)
    double soft_cfm;    ///< CFM of the patch's whole normal support [m/(N s)], finite, >= 0;
                        ///< 0 (default) = rigid. With it the support is a spring of stiffness
                        ///< k = ERP / (dt CFM) [N/m] and a damper (1 - ERP) / CFM [N s/m] (ODE's
                        ///< mapping), whatever the number n of contact points (each point's row
                        ///< gets CFM n), so a resting weight W sinks W / k below the surface layer
    double bounce;      ///< restitution e, in [0, 1] (default 0): a normal approach speed v above
                        ///< bounce_vel leaves at e v, so a dropped body rebounds to e^2 of its
                        ///< drop height
    double bounce_vel;  ///< approach speed at or below which there is no bounce [m/s], finite,
                        ///< >= 0 (default 0)
    double velocity[3]; ///< velocity of this geom's surface relative to the geom [m/s], finite, in
                        ///< the geom's frame (dGeomGetRotation; the world frame for a plane): a
                        ///< conveyor belt, a track. Only its part in the patch plane acts: a
                        ///< patch sticks when the two surfaces move together, so a box on a belt
                        ///< moving at v rides at v with no creep relative to it
} pfOdeSurface;

/// Friction material of one geom. Get defaults from pf_ode_default_material().
/// Two geoms in contact (unless the pair has its own material, pf_ode_set_pair_material) combine
/// as: mu = sqrt(mu_a mu_b) (both coefficients, without overflow); mode = STOCK if either is
/// STOCK, else PADE if either is PADE; Hertz moduli combine as 1/E* = sum (1-nu^2)/E; rolling_d,
/// eps_t, eps_r, stock_spin_rho and hertz_radius take the larger value; a FIXED patch wins over
/// AUTO, with its patch_axis (the first geom's if both are FIXED; a pair's own material's axis is
/// in the frame of body 1); criterion = LIMIT if either is LIMIT.
typedef struct pfOdeMaterial {
    double mu_s;              ///< static coefficient, finite, in [0, PF_ODE_MU_MAX] (default 0.5)
    double mu_k;              ///< kinetic coefficient, finite, 0 <= mu_k <= mu_s (default 0.5)
    pfOdeMode mode;           ///< exact (default), Padé or stock
    pfOdePatchSource source;  ///< automatic (default) or fixed patch
    pfPatchDef patch;         ///< FIXED only: the patch (validated by pf_patch_def_validate)
    double patch_axis[3];     ///< FIXED only: the patch's x axis (its length direction) in the
                              ///< frame of this geom's body (the world's for a geom without a
                              ///< body), any length; each step x = this axis projected into the
                              ///< contact plane, y = n x x, so the patch follows the body (a
                              ///< wheel's axle, a foot's long axis). Zero (default): x from
                              ///< dPlaneSpace(n). Finite, largest component 0 or in
                              ///< [PF_ODE_AXIS_MIN, PF_ODE_AXIS_MAX]. An axis within 1e-6 rad of
                              ///< the contact normal has no direction in the contact plane: that
                              ///< step uses dPlaneSpace's x and counts it
                              ///< (pfOdeCounters.axis_fallbacks)
    double hertz_radius;      ///< Hertz contact radius a [m]: >= PF_ODE_HERTZ_RADIUS_MIN to
                              ///< give it, 0 (default) to
                              ///< compute it from Hertz theory, a = (3 N R / (4 E*))^(1/3)
    double youngs_modulus;    ///< E [Pa], finite, >= PF_ODE_E_MIN (default 2.1e11, steel)
    double poisson_ratio;     ///< nu, in [0, 0.5) (default 0.3)
    double rolling_d;         ///< rolling-resistance pressure shift d, [0, 1] (P14; default 0)
    double eps_t;             ///< Hertz regularisation of P15/P17 [1/s], >= 0 (default 0)
    double eps_r;             ///< Hertz regularisation of the rolling direction [1/s], >= 0
    double stock_spin_rho;    ///< STOCK only: dContactRolling spin coefficient (rhoN, a length
                              ///< [m] times the normal force), >= 0; 0 (default) = no spin row
    pfOdeCriterion criterion; ///< stick test: CA (default) or the exact limit-set test
                              ///< (pf_stick_*_limit); with LIMIT a breakaway starts along the
                              ///< minimising twist. Other values are rejected (PF_ERR_ENUM)
    pfOdeSurface surface;     ///< soft contact, restitution, surface motion (default: none)
} pfOdeMaterial;

/** Defaults of a material.
 *  @return mu_s = mu_k = 0.5, exact mode, automatic patch, CA criterion, Hertz radius computed
 *          for steel (E = 2.1e11 Pa, nu = 0.3), no rolling resistance, no regularisation */
pfOdeMaterial pf_ode_default_material(void);

/** Validate a material.
 *  @param m   the material
 *  @param err optional error report (may be NULL): the field and the value
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_NOT_FINITE, PF_ERR_RANGE, PF_ERR_ENUM, or an error of
 *          pf_patch_def_validate for a FIXED patch */
int pf_ode_material_validate(const pfOdeMaterial *m, pfError *err);

/// Where a patch's friction is coupled to its normal force (patches/README.md).
typedef enum pfOdeCoupling {
    PF_ODE_COUPLING_AUTO = 0, ///< inside the solver when the ODE in use has the patchfriction patch
                              ///< series (pf_ode_solver_coupling_available), else in the adapter
                              ///< (default)
    PF_ODE_COUPLING_ADAPTER,  ///< in the adapter: bounds from the previous step's normal force and
                              ///< a per-step linearisation of the limit surface (any ODE)
    PF_ODE_COUPLING_SOLVER    ///< inside the solver: bounds from the sum of the patch's normal
                              ///< impulses of this step, the three friction rows projected together
                              ///< onto the limit surface. pf_ode_create rejects it (PF_ERR_RANGE)
                              ///< when the ODE in use lacks the patch series
} pfOdeCoupling;
/* The in-solver coupling (plugin/ode/pf_ode_solver.c): each patch is one dJointCreatePatch joint
 * (its normal rows and the friction block; the context's own, in no group, kept while the pair
 * touches and parked between steps: docs/integration.md §3) whose callback the solver calls per
 * iteration (QuickStep) or per round (dWorldStep) with the block's Delassus matrix A, the free
 * wrench lambda* and the summed normal force N:
 *  - a patch at rest: the static test of this adapter (CA or limit set; the loads' demand does
 *    not depend on N) against the capacity at the solver's N; lambda = lambda* if it holds;
 *  - otherwise the maximum-dissipation projection (pf_patch_project), mu_s for a breakaway step,
 *    mu_k sliding, at the step's midpoint twist (xi0 + xi1)/2, or at xi1 (backward Euler) when
 *    the patch stops within the step.
 * The Hertz radius follows the solver's N. Rolling-resistance rows (P18) stay in the adapter with
 * the previous step's N. Cost: one projection per patch per solver iteration (for 1000 sliding
 * boxes under QuickStep, 20 iterations, a step about 1.4x the stock-friction step's CPU time and
 * 1.37x its instructions; docs/architecture.md, "What the in-solver coupling costs"). In
 * pfOdePatchInfo, wrench and normal_force are the solver's; bounds are the adapter's static
 * bounds while stuck and 0 while sliding (the solver's block has no row bounds). */

/** Whether the in-solver coupling is available.
 *  @return 1 if the ODE this library was built against and runs with has the patch series
 *          (compiled in and reported by dCheckConfiguration("ODE_EXT_patch_friction")), else 0 */
int pf_ode_solver_coupling_available(void);

/// The stepper the world is advanced with (pfOdeConfig.stepper). The adapter does not call the
/// stepper; it needs to know it for a STOCK contact that shares a body with a patch, and to keep
/// dWorldStep's Dantzig solver off its degenerate zero steps: except under QUICK, on an ODE whose
/// solver gives up on them (Debian's), each normal row of a patch may approach at 1e-8
/// stick_velocity_tol times a factor of its own, and a friction row pair's equal bounds are split
/// by 1e-6 (docs/architecture.md, "No zero steps on Debian's ODE").
typedef enum pfOdeStepper {
    PF_ODE_STEPPER_UNSPECIFIED = 0, ///< not given (default): ODE's own friction bound everywhere;
                                    ///< the rows are set up as for WORLD
    PF_ODE_STEPPER_WORLD,           ///< dWorldStep: a STOCK contact of one point on a body with a
                                    ///< patch (adapter coupling) is bounded by mu times its last
                                    ///< step's normal force, not by ODE's findex rule, which the
                                    ///< Dantzig solver applies with the normal force from before
                                    ///< the friction acts (docs/architecture.md)
    PF_ODE_STEPPER_QUICK            ///< dWorldQuickStep: ODE's own bound (QuickStep re-bounds the
                                    ///< findex rows by the current normal force in every sweep);
                                    ///< a stuck member of a held group (a bar between fingertips
                                    ///< on sliders) gets its spin and rolling rows on the held
                                    ///< body alone; a stuck flat face (rectangle or polygon)
                                    ///< rests on the face rows, their normal row preloaded with
                                    ///< its measured force (docs/physics.md P36c, P36d), all
                                    ///< their rows started from a solve of the step where faces
                                    ///< alone hold their bodies (P36e); a stuck
                                    ///< patch's drift
                                    ///< correction follows QuickStep's leakage (P36a)
                                    ///< (docs/architecture.md)
} pfOdeStepper;

/// Context-wide settings. Get defaults from pf_ode_default_config().
typedef struct pfOdeConfig {
    double stick_velocity_tol; ///< slip -> stick when |v| and |w| rho_g fall below this [m/s],
                               ///< > 0 (default 1e-4)
    double drift_gain;         ///< fraction of the stick drift corrected per step, (0, 1]
                               ///< (default 1: the anchor is restored in one step)
    double stock_mu_kinetic;   ///< STOCK mode uses mu_k if nonzero, mu_s if 0 (default 0)
    int initial_pair_capacity; ///< pairs preallocated at creation, in [1, 2^24] (default 64)
    pfOdeCoupling coupling;    ///< where friction meets the normal force (default AUTO)
    pfOdeStepper stepper;      ///< the stepper the world is advanced with (default UNSPECIFIED)
} pfOdeConfig;

/** Defaults of the context settings.
 *  @return the defaults documented in pfOdeConfig */
pfOdeConfig pf_ode_default_config(void);

/// Opaque adapter context bound to one dWorldID (not thread-safe; one world per context).
typedef struct pfOdeContext pfOdeContext;

/** Create a context for a world. The default material of every geom is
 *  pf_ode_default_material().
 *  @param world the ODE world the context belongs to; not NULL
 *  @param cfg   settings, or NULL for pf_ode_default_config()
 *  @param out   receives the context on success, NULL on failure; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_NOT_FINITE, PF_ERR_RANGE (a setting out of range, or
 *          coupling SOLVER without the patch series), PF_ERR_ENUM or PF_ERR_NO_MEMORY */
int pf_ode_create(dWorldID world, const pfOdeConfig *cfg, pfOdeContext **out, pfError *err);

/** Destroy a context. Joints already created stay in the user's groups; those still attached
 *  to a body lose their feedback pointer into the context, so destroying between
 *  pf_ode_before_step and the step is safe. The in-solver coupling's patch joints are the
 *  context's own (in no group, kept from step to step, docs/integration.md §3) and are destroyed
 *  here. Call before dWorldDestroy: those joints and the sentinels that track bodies (disabled
 *  null joints, one per body the context met) belong to the world and are destroyed here.
 *  @param ctx the context (NULL is ignored) */
void pf_ode_destroy(pfOdeContext *ctx);

/** Set the material of one geom (copied; pairs combine their materials when pf_ode_collide
 *  first sees them in a step, so it takes effect from the next collision). The material stays
 *  with the geom when it moves to another body (dGeomSetBody) and is dropped when the geom's
 *  body is destroyed or a geom of another class appears at its address.
 *  @param ctx  the context
 *  @param geom the geom (not a space: a dSpaceID cast to dGeomID is refused with PF_ERR_STATE
 *              naming "geom", as pf_ode_collide refuses one)
 *  @param m    the material (validated; a rejected one leaves the geom's material unchanged).
 *              Surface parameters (m->surface not all zero) need the adapter coupling: with the
 *              in-solver coupling (pf_ode_solver.c builds the normal rows itself) they are
 *              refused with PF_ERR_RANGE naming the field, never ignored
 *  @param err  optional error report (may be NULL)
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_STATE (geom is a space), PF_ERR_RANGE, PF_ERR_NO_MEMORY
 *          or an error of pf_ode_material_validate */
int pf_ode_set_material(pfOdeContext *ctx, dGeomID geom, const pfOdeMaterial *m, pfError *err);

/** Set the material used by geoms without their own.
 *  @param ctx the context
 *  @param m   the material (validated; surface parameters as in pf_ode_set_material)
 *  @param err optional error report (may be NULL)
 *  @return PF_OK, PF_ERR_NULL or an error of pf_ode_material_validate */
int pf_ode_set_default_material(pfOdeContext *ctx, const pfOdeMaterial *m, pfError *err);

/** Forget a geom's material, its pair materials (pf_ode_set_pair_material) and every pair state
 *  that involves it. Recommended before dGeomDestroy (destroying without it is safe, but a
 *  same-class geom made at the address of a geom whose body lives on would take the material:
 *  docs/integration.md §3). Called between collision and pf_ode_after_step, the pair's contacts
 *  still act in this step and the pair is released after pf_ode_after_step has read it; the
 *  material and the pair materials go at once.
 *  @param ctx  the context (NULL is ignored)
 *  @param geom the geom (NULL is ignored) */
void pf_ode_forget_geom(pfOdeContext *ctx, dGeomID geom);

/** Forget every pair's state, as though no pair had been collided yet: the stick / slip states
 *  and stick anchors, the measured normal forces and their history, the other joints' loads and
 *  the warm starts (everything a pair keeps from one step to the next). The next step meets each
 *  touching pair as a first contact. Materials, pair materials, counters and the bodies met are
 *  kept; the pairs dropped count in pfOdeCounters.pairs_forgotten. For restarting a world from a
 *  saved state (a rollback, a benchmark that replays one state): with the bodies' state (and,
 *  for bitwise repeats, ODE's random seed and the space's geom order) restored, the steps after
 *  the reset are those a new context takes from that state.
 *  @param ctx the context
 *  @param err optional error report (may be NULL): the field and the reason
 *  @return PF_OK, PF_ERR_NULL or PF_ERR_STATE (called between pf_ode_collide and the end of
 *          pf_ode_after_step: this step's joints still hold the pairs; nothing is reset) */
int pf_ode_reset_pairs(pfOdeContext *ctx, pfError *err);

/* ---- per-pair materials ----------------------------------------------------------------- */
/* A pair table rather than a callback: an entry is validated once, when it is set, with the same
 * errors as pf_ode_set_material (a callback's answer would come back inside pf_ode_collide, in
 * the user's near callback, where a bad value has no pfError to go to and would have to be
 * dropped quietly every step); it is forgotten with its geoms (pf_ode_forget_geom); and its
 * lookup is one hash probe per pair per step. Code that computes materials per pair (from a
 * material database, say) sets the entry once when the geoms are created. */

/** Give a geom pair its own material, in place of combining the two geoms' materials (copied;
 *  takes effect from the pair's next collision, like pf_ode_set_material). Order-independent:
 *  (a, b) and (b, a) are one entry; setting it again replaces it. The entry is used as the
 *  material of both sides: mu_s, mu_k, mode, criterion, patch source, rolling_d, eps_t, eps_r,
 *  stock_spin_rho, hertz_radius and the surface's soft_erp, soft_cfm, bounce and bounce_vel as
 *  given; E* from both sides of modulus youngs_modulus and ratio poisson_ratio,
 *  E* = E / (2 (1 - nu^2)). Surface motion belongs to a geom, not to a pair: surface.velocity
 *  must be zero here (PF_ERR_RANGE naming surface.velocity), and each geom's own material's
 *  velocity still applies. The entry belongs to the two geoms as a geom's material does
 *  (pf_ode_set_material): pf_ode_forget_geom drops it, and a new geom at the address of one
 *  destroyed without it does not inherit it.
 *  @param ctx the context
 *  @param a   one geom (not NULL, not a space)
 *  @param b   the other geom (not NULL, not a space, not a)
 *  @param m   the material (validated as by pf_ode_material_validate; a rejected one leaves the
 *             table unchanged)
 *  @param err optional error report (may be NULL)
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_STATE (a or b is a space, named), PF_ERR_RANGE (a == b, a
 *          surface velocity, or surface parameters with the in-solver coupling),
 *          PF_ERR_NO_MEMORY or an error of pf_ode_material_validate */
int pf_ode_set_pair_material(pfOdeContext *ctx, dGeomID a, dGeomID b, const pfOdeMaterial *m,
                             pfError *err);

/** Remove a pair's own material (the pair combines its geoms' materials again from its next
 *  collision).
 *  @param ctx the context (NULL is ignored)
 *  @param a   one geom
 *  @param b   the other geom
 *  @return 1 if an entry was removed, 0 if there was none */
int pf_ode_clear_pair_material(pfOdeContext *ctx, dGeomID a, dGeomID b);

/** Look up a pair's own material (either order).
 *  @param ctx the context
 *  @param a   one geom
 *  @param b   the other geom
 *  @param out receives the entry if there is one (may be NULL)
 *  @return 1 if the pair has an entry, 0 if not (or ctx is NULL) */
int pf_ode_get_pair_material(const pfOdeContext *ctx, dGeomID a, dGeomID b, pfOdeMaterial *out);

/** Collide two geoms and create this step's contact joints for them in group: one normal-only
 *  contact joint per contact point, and (in pf_ode_before_step) one friction joint at the patch
 *  centre. In STOCK mode: plain dContactApprox1 contact joints. Call it from your near callback
 *  in place of dCollide + dJointCreateContact. Geoms without bodies on both sides, or connected
 *  bodies, produce nothing. A pair is collided once per step: a second call for the same two
 *  geoms (in either order) before the next pf_ode_before_step is a no-op that returns 0, so a
 *  sub-space descended twice or a callback that meets a pair twice adds no contact and no joint.
 *  The two geoms are one pair in either order: ODE's spaces may report a pair in the other order
 *  on a later step, and the pair keeps its record (state, stick anchor, history) and its body 1.
 *  @param ctx   the context
 *  @param g1    first geom (its body becomes body 1 if it has one, at the pair's first call)
 *  @param g2    second geom
 *  @param group the contact group the joints are created in (emptied by the user after
 *               pf_ode_after_step); not 0 (joints in no group would never be emptied)
 *  @return the number of contact points (>= 0) or a negative status: PF_ERR_NULL (ctx, a geom
 *          or group is 0), PF_ERR_STATE (a geom is a space), PF_ERR_NO_MEMORY */
int pf_ode_collide(pfOdeContext *ctx, dGeomID g1, dGeomID g2, dJointGroupID group);

/** Ready-made near callback for dSpaceCollide. Spaces are descended with dSpaceCollide2, and
 *  the pairs inside a sub-space are collided once per step however many geoms overlap it.
 *  Without a contact group (pf_ode_set_contact_group) it creates nothing and the next
 *  pf_ode_before_step returns PF_ERR_STATE naming "contact_group": the plugin does not create a
 *  group of its own, because emptying it would take the step loop from the user.
 *  @param data a pfOdeContext whose contact group was set with pf_ode_set_contact_group()
 *  @param g1   first geom or space
 *  @param g2   second geom or space */
void pf_ode_near_callback(void *data, dGeomID g1, dGeomID g2);

/** Set the contact group used by pf_ode_near_callback.
 *  @param ctx   the context
 *  @param group the contact group */
void pf_ode_set_contact_group(pfOdeContext *ctx, dJointGroupID group);

/** Call after collision detection and after the user's forces are added, immediately before
 *  dWorldStep / dWorldQuickStep with the same dt [s] (> 0, finite). Runs the stick test and
 *  creates the friction joints. Pairs not collided since the last call are forgotten.
 *  Same as pf_ode_before_step_ex(ctx, dt, NULL).
 *  @param ctx the context
 *  @param dt  the step the world is about to take [s], > 0, finite
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_RANGE (bad dt) or PF_ERR_STATE (pf_ode_near_callback ran
 *          without a contact group: the pairs collided directly were still prepared) */
int pf_ode_before_step(pfOdeContext *ctx, double dt);

/** pf_ode_before_step with an error report.
 *  @param ctx the context
 *  @param dt  the step the world is about to take [s], > 0, finite
 *  @param err optional error report (may be NULL): the field ("ctx", "dt", "contact_group") and
 *             the value
 *  @return as pf_ode_before_step */
int pf_ode_before_step_ex(pfOdeContext *ctx, double dt, pfError *err);

/** Call immediately after dWorldStep / dWorldQuickStep (before emptying the contact group):
 *  reads the joint feedback (normal forces for the next step, diagnostics), then releases the
 *  pairs forgotten (pf_ode_forget_geom) during the step. Same as pf_ode_after_step_ex(ctx, NULL).
 *  @param ctx the context
 *  @return PF_OK, PF_ERR_NULL or PF_ERR_STATE (no pf_ode_before_step since the last call) */
int pf_ode_after_step(pfOdeContext *ctx);

/** pf_ode_after_step with an error report.
 *  @param ctx the context
 *  @param err optional error report (may be NULL): the field ("ctx", "pf_ode_before_step")
 *  @return as pf_ode_after_step */
int pf_ode_after_step_ex(pfOdeContext *ctx, pfError *err);

/// State of a patch in the last step.
typedef enum pfOdePatchState {
    PF_ODE_STATE_NONE = 0, ///< not evaluated (no before_step yet)
    PF_ODE_STATE_STICK,    ///< locked: static capacity bounds, anchored drift correction
    PF_ODE_STATE_SLIP,     ///< sliding: kinetic bounds from the core wrench
    PF_ODE_STATE_POINT,    ///< degenerate patch (edge, single point): point friction
    PF_ODE_STATE_STOCK     ///< ODE's own friction
} pfOdePatchState;

/// Diagnostics of one patch (valid after pf_ode_after_step until the next pf_ode_collide).
typedef struct pfOdePatchInfo {
    dGeomID geom1; ///< the geom that carries body 1
    dGeomID geom2; ///< the other geom
    /// which of the pair's patches, 0 .. PF_ODE_MAX_PAIR_PATCHES - 1: a pair whose contacts face
    /// several ways (docs/architecture.md, patches of a pair) has one patch per group of normals,
    /// each with its own state and anchor. A patch keeps its slot while its normal persists
    /// (matched step to step in the frame of the geom that carries body 2); slot numbers are
    /// labels, not an order
    int slot;
    pfOdePatchState state; ///< state used in the last step
    pfPatchShape shape;    ///< patch shape used (PF_PATCH_NONE for POINT / STOCK)
    double radius; ///< disk / Hertz disk radius used [m] (Hertz: given, or (3 N R*/(4 E*))^(1/3)
                   ///< with the N of the step); 0 for other shapes
    double length; ///< rectangle extent along xaxis [m] (a line contact's strip: the contact
                   ///< segment's length L); 0 for other shapes
    double width;  ///< rectangle extent across [m] (a line contact's strip: 2b, P46, with the N
                   ///< of the step); 0 for other shapes
    int contact_count;            ///< contact points of the pair
    double centre[3];             ///< patch centre, world [m]
    double normal[3];             ///< patch z axis, world (from body 2 into body 1)
    double xaxis[3];              ///< patch x axis, world
    double normal_force;          ///< N used for the friction bounds of the last step [N]
    double normal_force_measured; ///< N from the last step's joint feedback [N]
    pfTwist twist;                ///< relative twist before the step, patch frame; its
                                  ///< translation is the slip relative to the surfaces' motion
                                  ///< (pfOdeSurface.velocity)
    pfWrench wrench;     ///< friction wrench applied in the last step, patch frame, about the
                         ///< centre: the rows' feedback plus any component applied explicitly
    pfWrench bounds;     ///< row bounds (fx along t1, fy along t2, mz) [N, N m]; in SLIP the
                         ///< magnitudes of the model wrench. A component that drives its row's
                         ///< velocity instead of opposing it (W_i u_i > 0, or u_i = 0: e.g. the
                         ///< Hertz spin moment with d > 0 at w = 0, P17) has no row: it is applied
                         ///< as a force / torque for the step
    int has_cr;          ///< 1 if cr is defined (w != 0)
    double cr[2];        ///< centre of rotation in the patch frame (P5) [m]
    int has_ca;          ///< 1 if ca is defined (stick test with alpha != 0)
    double ca[2];        ///< centre of zero acceleration in the patch frame (P10) [m]; with the
                         ///< LIMIT criterion the centre of the minimising incipient rotation
    double stick_margin; ///< capacity - demand of the last stick test (P12, P31) [N]: each a
                         ///< power [W] per unit speed [m/s] of the unit incipient twist
                         ///< (|v|^2 + (w rho_g)^2 = 1 m^2/s^2); for a translation mu_s N - |F|
    double drift;        ///< stick: distance from the anchor before the step [m]
    /* the pair's material and the contact points' normal forces */
    double combined_mu_s; ///< the pair's static coefficient after combination (pfOdeMaterial) [-]
    double combined_mu_k; ///< the pair's kinetic coefficient after combination [-]
    double point_normal_force[PF_ODE_MAX_CONTACTS]; ///< normal force of each contact point in
                                                    ///< the last step, from its joint's feedback
                                                    ///< [N]; 0 past contact_count, and 0 with
                                                    ///< the in-solver coupling and with the
                                                    ///< face rows (one row: only the sum
                                                    ///< normal_force_measured is known)
} pfOdePatchInfo;

/// Counters since creation (or pf_ode_reset_counters).
typedef struct pfOdeCounters {
    long long steps;                   ///< pf_ode_before_step calls
    long long patches;                 ///< patch-steps evaluated
    long long stick_steps;             ///< patch-steps in stick
    long long slip_steps;              ///< patch-steps in slip
    long long point_fallbacks;         ///< patch-steps with a degenerate patch on ODE's point
                                       ///< friction pyramid (a point patch at rest with no
                                       ///< friction direction yet, P49a)
    long long stock_steps;             ///< patch-steps in stock mode
    long long breakaways;              ///< stick -> slip transitions
    long long stick_transitions;       ///< slip -> stick transitions
    long long first_contact_estimates; ///< steps whose N came from the first-contact estimate
    long long pairs_forgotten;         ///< pair states dropped after separation
    long long dropped_nonfinite;       ///< patches dropped because an input was NaN / Inf
    long long allocations;             ///< internal (re)allocations after creation
    long long supports_carried;        ///< patch-steps of a stuck face kept on the last step's
                                       ///< support: ODE reported no contact (apart by a gap)
    long long line_patches;            ///< patch-steps of a line contact's strip (P46-P49)
    long long axis_fallbacks;          ///< FIXED patch-steps whose patch_axis lay along the
                                       ///< contact normal (dPlaneSpace's x used)
    long long split_patches;     ///< patch-steps beyond the first of their pair: a pair's contacts
                                 ///< grouped by normal into several patches (pf_ode_collide)
    long long offplane_contacts; ///< contact-steps left out of their pair's one patch: normal
                                 ///< more than 20 degrees (P50) from the patch's plane; each
                                 ///< keeps ODE's point friction in its own tangent plane
    long long point_patches;     ///< patch-steps of a degenerate patch (a single point, an edge
                                 ///< shorter than 0.1 of the smaller geom) on the point's Coulomb
                                 ///< law, isotropic: the friction circle (P49a)
    long long stock_lagged;      ///< STOCK pair-steps whose contact's friction was bounded by
                                 ///< the last step's normal force: a single contact point on a
                                 ///< body with a patch, adapter coupling, stepper WORLD
                                 ///< (pf_ode_normal_contacts, docs/architecture.md); 0 in a world
                                 ///< of STOCK pairs only
    long long point_group_stops; ///< point patch-steps that slid too fast for their own kinetic
                                 ///< friction to stop within the step, but were stopped by the
                                 ///< points between the same two bodies together (P49c)
    long long lcp_failed_pairs;  ///< pair-steps read as a failed step of dWorldStep's solver (a
                                 ///< contact with no force that still approaches after the step:
                                 ///< "LCP internal error"), whose measurements were not taken;
                                 ///< stepper WORLD, adapter coupling (docs/architecture.md)
    long long merged_contacts;   ///< contacts dropped as duplicates of another of their pair's
                                 ///< contacts in the same step (same point and normal to
                                 ///< rounding, as ODE's trimesh colliders report at a shared edge
                                 ///< or vertex); patch modes only (pf_ode_collide)
    long long face_patches;      ///< stuck patch-steps whose normal support was the face rows:
                                 ///< one normal row at the centre of a rectangle or polygon,
                                 ///< preloaded with its measured normal force (P36d), and two
                                 ///< tilt rows bounded by the moment its pressure can carry, in
                                 ///< place of a row per contact point (docs/physics.md P36c;
                                 ///< declared PF_ODE_STEPPER_QUICK only)
} pfOdeCounters;

/** Number of patches of the current step (a pair split by its normals counts each patch).
 *  @param ctx the context
 *  @return the count (0 for a NULL context) */
int pf_ode_patch_count(const pfOdeContext *ctx);
/** Diagnostics of one patch of the current step.
 *  @param ctx the context
 *  @param i   0 <= i < pf_ode_patch_count(ctx)
 *  @param out receives the diagnostics; not NULL
 *  @return PF_OK, PF_ERR_NULL or PF_ERR_RANGE (bad index) */
int pf_ode_get_patch(const pfOdeContext *ctx, int i, pfOdePatchInfo *out);
/** Diagnostics of the patch of a geom pair (either order). A pair split into several patches
 *  (pfOdePatchInfo.slot) gives the one of the lowest slot here; pf_ode_find_pair_patches gives
 *  them all.
 *  @param ctx the context
 *  @param a   one geom of the pair
 *  @param b   the other geom
 *  @param out receives the diagnostics; not NULL
 *  @return PF_OK, PF_ERR_NULL or PF_ERR_RANGE (the pair has no patch this step) */
int pf_ode_find_patch(const pfOdeContext *ctx, dGeomID a, dGeomID b, pfOdePatchInfo *out);
/** Diagnostics of every patch of a geom pair (either order), in the order of their slots.
 *  @param ctx the context
 *  @param a   one geom of the pair
 *  @param b   the other geom
 *  @param out receives min(count, max) patches; not NULL
 *  @param max room in out, 1 .. PF_ODE_MAX_PAIR_PATCHES (PF_ODE_MAX_PAIR_PATCHES holds them all)
 *  @param err optional error report (may be NULL) naming the bad argument and its value
 *  @return the pair's patch count (0: the pair has no patch this step), or PF_ERR_NULL (ctx or
 *          out), PF_ERR_RANGE (max out of range) */
int pf_ode_find_pair_patches(const pfOdeContext *ctx, dGeomID a, dGeomID b, pfOdePatchInfo *out,
                             int max, pfError *err);
/** Counters since creation or the last pf_ode_reset_counters.
 *  @param ctx the context
 *  @return the counters (all zero for a NULL context) */
pfOdeCounters pf_ode_get_counters(const pfOdeContext *ctx);
/** Zero the counters.
 *  @param ctx the context (NULL is ignored) */
void pf_ode_reset_counters(pfOdeContext *ctx);

#ifdef __cplusplus
}
#endif

#endif /* PATCHFRICTION_PF_ODE_H */
