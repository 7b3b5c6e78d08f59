/* Private types of the ODE adapter (pf_ode_*.c). Not installed. */
#ifndef PF_ODE_INTERNAL_H
#define PF_ODE_INTERNAL_H

#include <patchfriction/pf_ode.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/// Measured normal forces a held patch's capacity looks back over.
#define PF_ODE_N_RECENT 4
/* the largest gap, relative to a face's size, at which a stuck face still counts as touching
 * (pf_ode_carry_support, face_eligible in pf_ode_step.c) */
#define PF_ODE_CARRY_GAP 1e-3

/// A STOCK contact next to a patch takes the last step's normal force as its friction bound while
/// that force stays within this factor of the force measured at the pair's last step on ODE's
/// own bound (pf_ode_normal_contacts).
#define PF_ODE_STOCK_LAG_BAND 1.5

/// Combined material of a geom pair (pf_ode_combine).
typedef struct pfOdePairMaterial {
    double mu_s, mu_k;
    pfOdeMode mode;
    int fixed;            ///< 1: use patch as given
    int has_axis;         ///< FIXED: patch_axis is nonzero
    int axis_geom;        ///< FIXED: 1 / 2: the patch (and its axis) came from g1's / g2's material
    double patch_axis[3]; ///< FIXED: x axis in the frame of that geom's body (world: no body)
    double hertz_radius;  ///< given a [m], 0 = compute
    double e_star;        ///< combined modulus E* [Pa]
    double rolling_d, eps_t, eps_r, stock_spin_rho;
    pfOdeCriterion criterion; ///< stick test: CA, or LIMIT if either material asks for it

    /* contact surface (pf_ode_surface.c, pf_ode_resolve_material) */
    double soft_erp;         ///< normal rows' ERP, 0 = the world's
    double soft_cfm;         ///< the patch's normal compliance [m/(N s)], 0 = rigid
    double bounce;           ///< restitution e
    double bounce_vel;       ///< no bounce at or below this approach speed [m/s]
    int has_motion;          ///< 1: vel1 or vel2 is nonzero
    double vel1[3], vel2[3]; ///< g1's / g2's surface velocity, in its geom's frame [m/s]
    pfPatchDef patch;        ///< FIXED patch; last: pf_ode_collide copies it for FIXED pairs only
} pfOdePairMaterial;

/// Patch geometry found from the contacts (before the normal force is known).
typedef enum pfOdeGeomKind {
    PF_ODE_KIND_POINT = 0, ///< degenerate: point friction at the centroid
    PF_ODE_KIND_PATCH,     ///< def complete (rectangle, disk, polygon, fixed)
    PF_ODE_KIND_HERTZ,     ///< Hertz disk, radius from N in before_step unless given
    PF_ODE_KIND_LINE       ///< line contact: strip rectangle (length set), width 2b from N in
                           ///< before_step (pf_line_half_width, P46)
} pfOdeGeomKind;

/// What a pair keeps from one step to the next: its material, its stick/slip state and anchor,
/// the normal forces measured after the last steps, the other joints' loads measured after the
/// last step and the solver's warm start. Everything the stick test reads of the past is here.
typedef struct pfOdePairPersist {
    pfOdePairMaterial mat; ///< combined at the first collide of each step (materials may change)
    pfOdePatchState state; ///< the last step's state; set only by set_state (pf_ode_step.c)
    int has_n;             ///< normal force measured in the previous step
    double n_meas;         ///< [N]
    double n_recent[PF_ODE_N_RECENT]; ///< the last steps' measured N, newest first [N]
    int face_edge; ///< face steps of a polygon whose tilt rows ended at a bound of their box,
                   ///< smaller than the face, since one ended inside it (face_at_edge); from
                   ///< PF_ODE_N_RECENT on its point rows carry it until it leaves STICK
    double anchor1[3], anchor2[3]; ///< stick anchor: body-1 local point, body-2 local or world
    double axis1[3], axis2[3];     ///< stick anchor: patch x in body-1 / body-2 (or world) frame
    double nrm1[3], nrm2[3];       ///< stick anchor: patch z in body-1 / body-2 (or world) frame
    double roll_drift[3]; ///< a round contact's slip since it stuck, integrated (world) [m] (P36b)
    double roll_spin;     ///< and its spin about the normal since then [rad]
    /* QuickStep's leakage at a stuck patch (pf_ode_step.c, leak_bias), since it stuck */
    double drift_prev[3]; ///< the anchor drift d at the last step (world) [m]
    double corr_prev[3];  ///< the friction rows' drift correction of the last step (world) [m/s]
    double leak_sum[3];   ///< sum of the steps' leakage e (world) [m/s]
    double leak_sq;       ///< sum of |e|^2 [m^2/s^2]
    int leak_n;           ///< steps summed
    double other_f1[3], other_t1[3], other_f2[3], other_t2[3]; ///< estimated other-joint loads
    int has_other;
    /* a held group (pf_ode_step.c, group_test): the patches holding one body together */
    int has_hold;         ///< hold_f / hold_m were measured: the patch's friction (stuck or
                          ///< sliding; a sliding member re-sticks through its group)
    double hold_f[3];     ///< the friction rows' force on body 1 in the last step (world) [N]
    double hold_m[3];     ///< and their moment about the patch centre (world) [N m]
    pfTwist slip_guess;   ///< the last slip step's implicit prediction (slip_rows), a warm start
    int has_group;        ///< the patch was a member of a held group in the last step
    double group_side;    ///< +1: the group's body is body 1, -1: body 2
    double group_frac;    ///< this patch's share of the group's load, mu_s N / sum mu_s N
    double group_f[3];    ///< the other members' friction force on the group's body (world) [N]
    double group_m[3];    ///< and its moment about this patch's centre (world) [N m]
    int group_span;       ///< the members' normals span this many directions (1: parallel)
    double group_proj[9]; ///< projector onto the directions no member's normal spans (world)
    pfTwist solver_guess; ///< in-solver coupling: last post-step twist of the projection
    int has_point_dir;    ///< point_dir holds a point patch's friction direction of the last step
    double point_dir[3];  ///< its friction force's direction on body 1, unit (world; P49a)
    /* surface motion (pf_ode_surface.c) */
    double surf_dt; ///< the step taken since the stick anchors were last placed or moved [s]
    /* the last face patch's support (pf_ode_patch.c, pf_ode_carry_support) */
    int has_support;                           ///< the last patch was a face on a face
    int support_nv;                            ///< its vertices
    int support_run;                           ///< steps carried in a row
    double support_v1[PF_ODE_MAX_CONTACTS][3]; ///< the vertices on body 1's face (body 1) [m]
    double support_c1[3], support_x1[3];       ///< patch centre and x axis (body 1)
    double support_c2[3], support_n2[3];       ///< body 2's face: point, outward normal (body 2
                                               ///< frame; world without a body 2)
    pfPatchDef support_def;                    ///< the patch
    /* in-solver coupling: the sliding wrench linearised at the last exact projection
     * (pf_ode_solver.c, lin_project); unit wrench W1 (mu N = 1), patch frame */
    int lin_valid;      ///< lin_* hold a linearisation point of lin_def
    pfPatchDef lin_def; ///< the patch it was taken for
    double lin_x0[3];   ///< its twist (vx, vy, w) [m/s, m/s, rad/s]
    double lin_u0[3];   ///< W1(x0), exact [-, -, m]
    double lin_D[9];    ///< dW1/dxi at xd, row-major [s/m, s/m, s; s, s, s m]
    double lin_xd[3];   ///< the twist D was taken at (x0 moves on with chord steps, D stays)

    /* a STOCK pair's friction bound from the last step's N (pf_ode_normal_contacts) */
    int lag_island; ///< shared a dynamic body with a patch in the last step (adapter coupling)
    int lag_ok;     ///< the last step's N may bound this step's friction rows (stock_lag_measure)
    double lag_ref; ///< N of the pair's last step on ODE's own bound (findex) [N]
} pfOdePairPersist;

/// A body's inverse mass and world inverse inertia at its present pose (all 0: not dynamic).
typedef struct pfOdeMobility {
    double G[3];    ///< mass centre, world [m]
    double im;      ///< 1/m [1/kg]
    double iinv[9]; ///< inverse inertia, world, row-major [1/(kg m^2)]
} pfOdeMobility;

/// A patch's friction and angular rows for one step, as the evaluation (pf_ode_step.c) sets them
/// and create_rows creates them: directions, bounds (a row exists where its bound is > 0) and
/// target velocities.
typedef struct pfOdeRows {
    int fric;                             ///< create the friction contact joint
    double t1[3], t2[3];                  ///< directions (world)
    double b1, b2, bspin, broll1, broll2; ///< bounds [N, N, N m, N m, N m]
    double m1, m2;                        ///< targets of the t1, t2 rows [m/s]
    int spin_motor;                       ///< stick: spin via angular motor
    double spin_vel;                      ///< its target [rad/s]
    int yield_spin; ///< stick: the spin row yields to a sibling's normal rows (P51a)
    int held;       ///< stick, a held group's member: its held body (1 or 2), for held_rows
    double roll_vel1, roll_vel2; ///< targets of the rows about t1, t2 (a face's tilt rows) [rad/s]
} pfOdeRows;

/// A pair's scratch for one step: contacts, patch and frame, rows and their feedback, the
/// pre-step snapshot for after_step and the step's diagnostics. Rebuilt every step (collide, then
/// before_step); nothing here is read by the next step's decisions.
typedef struct pfOdePairStep {
    dBodyID b1, b2; ///< b2 may be 0 (static environment); set at the step's first collide
    dJointGroupID group;
    int ncontacts;
    int noff; ///< off-plane contacts (0 .. PF_ODE_MAX_CONTACTS)
    dJointFeedback fb_fric, fb_spin;
    int has_fric, has_spin;
    pfOdeGeomKind kind;
    int face;       ///< the normal support went as face rows this step (fb[0] holds it)
    double preload; ///< face rows: the normal force applied explicitly at c this step: the
                    ///< presolved N (P36e), else the least of the last steps' measured N (P36d);
                    ///< folded into fb[0] after the step [N]
    /* a patch's rows are set in the evaluation loop and created after the presolve of the faces
     * (pf_ode_presolve.c; face rows: docs/physics.md P36c-P36e) */
    int ok;                ///< the evaluation succeeded (evaluate, pf_ode_step.c)
    pfOdeRows rows;        ///< the rows it set, kept until they are created
    dContact face_contact; ///< the normal row's contact at c (pf_ode_face_setup)
    double face_gap_vel;   ///< approach allowed to a face apart by a gap at c [m/s] (<= 0)
    double face_target;    ///< the normal velocity the face's support aims at [m/s]
    int has_ps;            ///< ps holds the presolve's solution for this face
    double ps[6];          ///< the presolved face wrench on body 1: forces along n, t1, t2 at c
                           ///< [N], moments about n, t1, t2 [N m]
    int has_w;             ///< wf / wt: the presolved friction and moment, applied explicitly
    double wf[3], wt[3];   ///< (world) [N], [N m]; folded into fb_fric / fb_spin after the step
    int has_sib;           ///< a sibling patch of the pair (another slot) faces this one's plane
    double sib[3];         ///< the sibling's normal projected on this patch's plane, unit (world)
    int sib_slot;          ///< the sibling's slot
    int sib_perp;   ///< the sibling's normal is perpendicular to this one's (this n in its plane)
    int spin_yield; ///< the stuck spin row (axis 0 of pf_ode_angular_rows) yields (P51a)
    double hertz_rstar; ///< effective radius R* for a computed Hertz radius; for a line contact
                        ///< the radius R' across the line (0: a sharp edge) [m]
    double c[3], n[3], x[3], y[3]; ///< patch centre and frame (world)
    double rho_g;                  ///< radius of gyration of the patch pressure [m]
    double t1[3], t2[3];           ///< friction row directions used (world)
    int held;      ///< 0: the angular rows act on the pair; 1 / 2: on body 1 / 2 alone (held_rows)
    int has_drive; ///< 1: drive_f / drive_t applied explicitly this step
    double drive_f[3];           ///< explicit friction force on body 1 at c (world) [N]
    double drive_t[3];           ///< explicit friction moment on body 1 (world) [N m]
    double pre_G1[3], pre_G2[3]; ///< body positions before the step (feedback torques are about)
    double pre_v1[3], pre_w1[3], pre_f1[3], pre_t1[3];
    double pre_v2[3], pre_w2[3], pre_f2[3], pre_t2[3];
    double dt;
    int has_mob;              ///< mob1 / mob2 hold the bodies' mobility in this before_step call
    pfOdeMobility mob1, mob2; ///< (pf_ode_pair_mobility)

    /* in-solver coupling (pf_ode_solver.c) */
    int solver_joint;        ///< 1: this step's rows are one patch joint of the patched ODE
    dJointFeedback fb_patch; ///< that joint's feedback (normal and friction rows)
    int solver_at_rest;      ///< 1: at rest when the step began (stick_decide ran the static test)
    int point_dir_ok;        ///< a point patch's contacts take point_dir as their first axis (P49a)
    int point_slide;         ///< and it slides along point_dir (no row across it)
    double point_dir[3];     ///< a point patch's friction direction this step, unit (world)
    pfTwist roll;            ///< rolling velocity of body 1's mass centre, patch frame (Hertz d)
    int solver_sticks;       ///< the last projection kept the patch at rest
    double solver_cfm[3];    ///< the patch joint's friction-row CFM (dJointSetPatchFrictionCFM)
    int st_valid;            ///< the adapter's static test ran this step (patch at rest):
    double st_demand;        ///< its demand [N]: power [W] per unit speed [m/s] of the unit
                             ///< incipient twist (loads, independent of N)
    pfTwist st_incipient;    ///< and its incipient twist, for the capacity at the solver's N
    /* a screened stick test (a lower bound of the capacity decided stick) leaves
     * info.stick_margin to be evaluated when it is read (pf_ode_context.c, patch_report), from
     * the test's patch, coefficient, normal force, demand and unit incipient twist */
    int margin_lazy;
    pfPatchDef margin_def;
    double margin_mu, margin_n, margin_demand;
    pfTwist margin_incipient;
    int lin_ok; ///< persist.lin_* applies to this step's patch (lin_project)

    int lag_used;   ///< STOCK: the contact's friction is bounded by the last step's N
    int lcp_failed; ///< after the step: its island's LCP gave up and the pair carried no force

    /* pf_ode_after_step's holder test (holder_immobile), once per pair and call */
    unsigned long holder_epoch; ///< the model_epoch holder_immobile[] was worked out in
    int holder_immobile[2];     ///< body 1 / body 2 is held against a body that does not move

    /* surface motion (pf_ode_surface.c, pf_ode_surface_motion) */
    double surf_w1[3], surf_w2[3]; ///< g1's / g2's surface velocity, world, at collide [m/s]
    int has_surf; ///< 1: a surface moves; the friction acts on the slip relative to it
    double surf_u1[3], surf_u2[3]; ///< g1's / g2's surface velocity in the patch plane, world
    double surf_s[3]; ///< surf_u2 - surf_u1: the body velocity of 1 relative to 2 at which the
                      ///< surfaces do not slip (world, in the patch plane) [m/s]

    /* the larger members last, the rarely read at the end: the fields above are read for every
     * patch and step, the patch and report below in part, the arrays only up to ncontacts / noff
     * (laid out so, a step touches fewer cache lines of the pair) */
    pfPatchDef def;
    pfOdePatchInfo info; ///< this step's report (pf_ode_get_patch reads it until the next step)
    dContactGeom contacts[PF_ODE_MAX_CONTACTS];
    dJointFeedback fb[PF_ODE_MAX_CONTACTS];
    /* the pair's off-plane contacts (pf_ode_group_contacts): not part of the patch, each an ODE
     * contact joint with point friction in its own tangent plane (pf_ode_create_offplane_joints)
     * whose feedback is a load on the patch, like another pair's contacts */
    dContactGeom off[PF_ODE_MAX_CONTACTS];      ///< their contact geometry
    dJointFeedback fb_off[PF_ODE_MAX_CONTACTS]; ///< their joints' feedback
    /* in-solver coupling (pf_ode_solver.c): the stick test's metric and the linearised
     * projection's per-step constants */
    double model_A[9]; ///< the patch's Delassus block given the world joints (the adapter's
                       ///< model), the metric of the stick test of the solver's lambda*
    int lin_calls;     ///< projections asked for in this step so far
    int lin_last;      ///< from this call on, a chord step on an exact wrench (the step's
                       ///< last QuickStep iterations)
    int lin_have_a;    ///< lin_A, lin_s0, lin_AD, lin_v hold this step's constants
    double lin_A[9];   ///< the block they were formed from (QuickStep's A, per step)
    double lin_s0[3];  ///< A^-1 xi_0 / h, xi_0 the twist at the step's start
    double lin_AD[9];  ///< (h/2) A D, D = persist.lin_D
    double lin_v[3];   ///< W1(x0) - D x0
} pfOdePairStep;

/// One geom pair in the pool (a chunk that never moves, so the dJointFeedback structs of its
/// step scratch stay valid while ODE writes them). Split by lifetime, as Box2D splits b2Contact
/// from b2ContactSim: the key and pool bookkeeping, what persists across steps, and this step's
/// scratch.
typedef struct pfOdePair {
    dGeomID g1, g2; ///< key, in either order; g1 carries body 1 (the order of the pair's first
                    ///< pf_ode_collide: a call in the turned order is turned back there)
    int slot;       ///< key: which of the pair's patches (pf_ode_collide groups the contacts)
    int in_use;
    double slot_n[3];         ///< this patch's contact normal at its last collide, in body 2's
                              ///< frame (world without body 2): the next step's groups are
                              ///< matched to it (pf_ode_collide)
    unsigned long seen;       ///< frame stamp of the last pf_ode_collide
    int fresh;                ///< 1 until the pair has completed one step
    int forgotten;            ///< pf_ode_forget_geom while in flight: released after the step
    unsigned long gen1, gen2; ///< generations of step.b1 / step.b2 (pf_ode_body_track; 0: none)
    /// In-solver coupling: the pair's patch joint (pf_ode_solver.c), the context's own (in no
    /// group), kept from step to step while the pair lives and destroyed with it
    /// (pf_ode_pair_release, pf_ode_destroy). Enabled only from pf_ode_solver_create to the end
    /// of pf_ode_after_step; parked (disabled, detached) in between. 0: none.
    dJointID patch_joint;

    pfOdePairPersist persist; ///< survives the step
    pfOdePairStep step;       ///< this step only
} pfOdePair;

#define PF_ODE_CHUNK 64

/// WORLD joints of a body the context keeps per call (more are found by walking the list again).
#define PF_ODE_BODY_WORLD 8

/// A body the adapter has met, with the sentinel that tells whether it still exists: a disabled
/// null joint of the context (in no group, attached to the body alone). dBodyDestroy detaches
/// every joint of the body, so the sentinel's body reads 0 once the body is gone, and a new body
/// at the same address never carries the old sentinel. The generation tells the body at an
/// address apart from an earlier one there.
typedef struct pfOdeBodyEntry {
    dBodyID body;              ///< key (0: free slot)
    dJointID sentinel;         ///< owned by the context; destroyed in pf_ode_destroy
    unsigned long gen;         ///< generation stamp, > 0
    unsigned long patch_frame; ///< the frame of patches
    int patches;               ///< patches on the body in that frame (pf_ode_body_add_patch)
    /* the body's joints as the mobility model reads them (pf_ode_body_joints), kept for one
     * pf_ode_before_step or pf_ode_after_step call (joints_epoch == the context's model_epoch) */
    unsigned long joints_epoch;
    int joints_unknown;                       ///< an UNKNOWN joint (pf_ode_classify_joint)
    int joints_nworld;                        ///< its WORLD joints
    dJointID joints_world[PF_ODE_BODY_WORLD]; ///< the first PF_ODE_BODY_WORLD of them, in order
    /* all its joints in pf_ode_after_step (pf_ode_body_joint_list): list_n of them from
     * list_off in the context's scratch, for list_epoch == model_epoch */
    unsigned long list_epoch;
    int list_off, list_n;
    /* whether every joint on it is the adapter's (pf_ode_patch_free_accel), for own_epoch ==
     * model_epoch: the adapter's own joints created later in the call do not change it */
    unsigned long own_epoch;
    int own_only;
    /* its mobility (pf_ode_mobility) as the body model reads it, for mob_epoch == model_epoch */
    unsigned long mob_epoch;
    pfOdeMobility mob;
    /* its joints that are loads (pf_ode_load_sum): loads_n of them from loads_off in the
     * context's scratch, whether one is UNKNOWN and whether one is WORLD, for loads_epoch ==
     * model_epoch */
    unsigned long loads_epoch;
    int loads_off, loads_n, loads_unknown, loads_world;
    /* its island of the step just taken (pf_ode_after_step, failed_islands): a union-find over
     * the slots of the bodies table, valid for island_frame == the context's frame */
    unsigned long island_frame;
    int island_parent; ///< slot of the parent in the union-find (itself: a root)
    int island_failed; ///< at a root: the island's LCP gave up (a contact approaches unpushed)
} pfOdeBodyEntry;

/// A joint on a body whose last feedback is a load on it (pf_ode_load_sum).
typedef struct pfOdeLoadJoint {
    dJointID joint;
    const dJointFeedback *fb; ///< its feedback
    int first;   ///< fb's f1 / t1 are the body's (pf_ode_joint_body_is_first); -1: not read yet
    int adapter; ///< one of the adapter's joints: its own pair skips it (OWN)
} pfOdeLoadJoint;

/// Lists kept for one pf_ode_after_step call; behind a pointer, so that functions reading a const
/// context may fill it.
typedef struct pfOdeScratch {
    dJointID *joints; ///< the bodies' joint lists (pfOdeBodyEntry.list_*)
    int len, cap;
    pfOdeLoadJoint *loads; ///< the bodies' load joints (pfOdeBodyEntry.loads_*)
    int loads_len, loads_cap;
    struct pfOdeModelCache *models; ///< the last body models built (pf_ode_model.c), or NULL
    struct pfOdePresolve *presolve; ///< the face presolve's buffers (pf_ode_presolve.c), or NULL
} pfOdeScratch;

/// Frees the face presolve's buffers (pf_ode_presolve.c).
void pf_ode_presolve_free(struct pfOdePresolve *s);

/// Who a material was set for: the geom's class and body then (pf_ode_material_for).
typedef struct pfOdeMatOwner {
    int cls;
    dBodyID body;
    unsigned long gen; ///< the body's generation (0: no body)
} pfOdeMatOwner;

/// An entry of the pair table's hash: the pair's pool index and the high half of its key's hash,
/// which a probe compares first, so that passing other pairs does not read their records.
typedef struct pfOdePairHashEntry {
    int idx;      ///< pool index, -1: empty
    uint32_t tag; ///< pf_ode_hash_slot(g1, g2, slot) >> 32 (the same in either order)
} pfOdePairHashEntry;

struct pfOdeContext {
    dWorldID world;
    pfOdeConfig cfg;
    int solver; ///< 1: patches are coupled inside the solver (patched ODE, coupling AUTO/SOLVER)
    int lcp_zero_step; ///< 1: dWorldStep's Dantzig takes degenerate zero steps
                       ///< (ODE_EXT_lcp_zero_step)
    dJointGroupID near_group;
    dJointGroupID frame_group; ///< a contact group passed to pf_ode_collide this frame
    unsigned long frame_group_frame;
    unsigned long frame;
    /// > 0 inside pf_ode_before_step / pf_ode_after_step, a new value in each call: the bodies'
    /// joints read once per call (pfOdeBodyEntry.joints_*); 0 outside them (nothing is kept)
    unsigned long model_epoch;
    unsigned long model_epochs; ///< the last model_epoch given
    int lists_ok;               ///< 1 inside pf_ode_after_step: no joint is created there
    pfOdeScratch *scratch;      ///< owned

    /* materials: open addressing geom -> index into mats */
    dGeomID *mat_keys;
    int *mat_index;
    int mat_cap; ///< hash capacity (power of two)
    int mat_count;
    pfOdeMaterial *mats;
    pfOdeMatOwner *mat_owner; ///< parallel to mats
    int mats_cap;
    pfOdeMaterial default_mat;

    /* pairs: chunked pool + hash ((geom pair in either order, slot) -> pool index) */
    pfOdePair **chunks;
    int chunk_count, chunk_cap;
    int *free_list;
    int free_count;
    int pool_size;                        ///< chunk_count * PF_ODE_CHUNK
    struct pfOdePairHashEntry *pair_hash; ///< -1 idx = empty
    int pair_hash_cap;
    int pair_count;
    int slots_used; ///< 1 + the highest patch slot ever acquired: lookups of a pair's slots stop
                    ///< there (most scenes never split a pair: one lookup, not one per slot)
    int *alive;     ///< indices of used pairs, in creation order
    int alive_count, alive_cap;

    pfOdeCounters counters;

    /* bodies met (open addressing, never shrinks) */
    pfOdeBodyEntry *bodies;
    /// bodies[i].body for every slot i, apart: a probe reads 8 bytes per slot here, not a cache
    /// line of each entry it passes (a scene of thousands of bodies spreads its entries over
    /// megabytes, and every pair looks its bodies up several times per step)
    dBodyID *body_keys;
    int body_cap, body_count;
    unsigned long body_gen;

    /* per-step order (pf_ode_patch.c, pf_ode_step.c) */
    int near_no_group;     ///< pf_ode_near_callback ran this step with no contact group set
    dSpaceID *spaces_done; ///< sub-spaces whose own pairs the near callback collided this step
    int spaces_done_count, spaces_done_cap;
    unsigned long spaces_frame; ///< the step spaces_done belongs to
    int before_called;          ///< pf_ode_before_step ran and pf_ode_after_step has not yet

    /* per-pair materials (pf_ode_surface.c): entries keyed by the geom pair in address order,
     * with an open-addressing hash of their indices (rebuilt on removal) */
    struct pfOdePairMatEntry *pm;
    int pm_count, pm_cap;
    int *pm_hash; ///< -1 = empty
    int pm_hash_cap;
};

/// One per-pair material (pf_ode_set_pair_material): a < b by address, with who they were when
/// it was set (a geom destroyed without pf_ode_forget_geom is recognised as for materials).
typedef struct pfOdePairMatEntry {
    dGeomID a, b;
    pfOdeMatOwner oa, ob;
    pfOdeMaterial m;
} pfOdePairMatEntry;

/* pf_ode_context.c */
/// Fill err (may be NULL): status, field and a message printf'd from fmt with field and v.
void pf_ode_set_error(pfError *err, int status, const char *field, const char *fmt, double v);
/// The pair at pool index idx (0 <= idx < the pool's size). Inline: the pair loops of every
/// step call it for each pair, and the model and the row code for each patch.
static inline pfOdePair *pf_ode_pair_at(const pfOdeContext *ctx, int idx)
{
    return &ctx->chunks[idx / PF_ODE_CHUNK][idx % PF_ODE_CHUNK];
}
/// The pair record of slot `slot` of the geom pair {g1, g2}, in either order: its pool index, or
/// -1. A geom pair has one record per slot, whichever order it is called in (pfOdePair.g1).
int pf_ode_pair_lookup(const pfOdeContext *ctx, dGeomID g1, dGeomID g2, int slot);
/// The pair record of slot `slot` of {g1, g2} (either order), made fresh in the order (g1, g2)
/// if there is none.
int pf_ode_pair_acquire(pfOdeContext *ctx, dGeomID g1, dGeomID g2, int slot, int *out_idx);
void pf_ode_pair_release(pfOdeContext *ctx, int idx);
const pfOdeMaterial *pf_ode_material_of(const pfOdeContext *ctx, dGeomID g);
/// The material of a live geom g, after dropping one set for an earlier geom at g's address
/// (its class differs, or its body was destroyed).
const pfOdeMaterial *pf_ode_material_for(pfOdeContext *ctx, dGeomID g);
/// Track body b (0: returns 0): its generation, > 0, or 0 if it cannot be tracked (another
/// world, out of memory).
unsigned long pf_ode_body_track(pfOdeContext *ctx, dBodyID b);
/// 1 if body b (0 with gen 0: the static environment) still exists and is the one of
/// generation gen.
int pf_ode_body_alive(const pfOdeContext *ctx, dBodyID b, unsigned long gen);
/// Counts one more patch on body b in this frame (b tracked; 0 is ignored).
void pf_ode_body_add_patch(pfOdeContext *ctx, dBodyID b);
/// The patches counted on body b in this frame (0 for 0 or an untracked body).
int pf_ode_body_patches(const pfOdeContext *ctx, dBodyID b);
/// Body b's joints, in ODE's order, read once per pf_ode_after_step call (dBodyGetJoint walks the
/// list from its head on every call): *out points at the list until the next call; -1 outside
/// pf_ode_after_step, for an untracked body or out of memory (then read them from ODE).
int pf_ode_body_joint_list(const pfOdeContext *ctx, dBodyID b, const dJointID **out);
/// pf_ode_body_joint_list for a body whose entry e the caller has looked up already (NULL: -1).
int pf_ode_entry_joint_list(const pfOdeContext *ctx, pfOdeBodyEntry *e, dBodyID b,
                            const dJointID **out);
/// Body b's entry in the context's table, or NULL (0 or an untracked body).
pfOdeBodyEntry *pf_ode_body_entry(const pfOdeContext *ctx, dBodyID b);
/// 1 if both bodies of a pair are alive (pf_ode_body_alive).
int pf_ode_pair_bodies_alive(const pfOdeContext *ctx, const pfOdePair *p);
void pf_ode_combine(const pfOdeMaterial *a, const pfOdeMaterial *b, pfOdePairMaterial *out);

/* pf_ode_surface.c: per-pair materials and contact surface parameters */
int pf_ode_surface_validate(const pfOdeSurface *sf, pfError *err);
/// PF_ERR_RANGE naming the field if m has surface parameters and ctx couples in the solver.
int pf_ode_surface_check_coupling(const pfOdeContext *ctx, const pfOdeMaterial *m, pfError *err);
/// The pair's material: its own entry or the combination of the geoms' (g1 carries body 1);
/// an entry set for an earlier geom at g1's or g2's address is dropped (pf_ode_material_for).
void pf_ode_resolve_material(pfOdeContext *ctx, dGeomID g1, dGeomID g2, pfOdePairMaterial *out);
/// At collide: the surfaces' velocities of p->g1 / p->g2 in world coordinates (p->step.surf_w*),
/// so that nothing after collide reads a geom.
void pf_ode_surface_capture(pfOdePair *p);
/// Drop the pair materials that involve geom; free the table.
void pf_ode_pair_materials_forget(pfOdeContext *ctx, dGeomID geom);
void pf_ode_pair_materials_free(pfOdeContext *ctx);
/// This step's surface motion of p in its patch plane (p->step.has_surf, surf_*); needs p->step.n.
void pf_ode_surface_motion(pfOdePair *p);
/// Move a held patch's anchors with the surfaces over the step taken since they were placed.
void pf_ode_surface_advance_anchors(pfOdePair *p);
/// The pair's surface parameters on one of its contact joints: soft ERP / CFM (npoints: the
/// loaded points sharing the patch's compliance), bounce and, if friction (ODE's own friction
/// rows: stock mode, a degenerate patch), the surface motion as motion1 / motion2.
/// A non-finite surface motion is left out and counted (dropped_nonfinite).
void pf_ode_surface_contact(pfOdeContext *ctx, const pfOdePair *p, int npoints, int friction,
                            dContact *c);

/* pf_ode_patch.c */
/// A pair's contacts grouped by normal (pf_ode_group_contacts).
typedef struct pfOdeGroups {
    int count;                            ///< groups, 1 .. PF_ODE_MAX_PAIR_PATCHES
    int of[PF_ODE_MAX_CONTACTS];          ///< the group of each contact; -1: off-plane (a pair
                                          ///< of one patch: not within P50's angle of it)
    int noff;                             ///< off-plane contacts
    double n[PF_ODE_MAX_PAIR_PATCHES][3]; ///< each group's normal: its contacts' sum, unit (P50)
} pfOdeGroups;
/// Group m >= 1 contacts by normal (P50) if by_normal: separate groups where they lie on
/// concave faces of the trimesh mesh (its triangle index in each contact's side1 / side2:
/// mesh_side 1 / 2; mesh 0: never), else one group, the dominant one (most contacts, then the
/// largest summed depth), whose normal is more than P50's angle from the others: those are
/// off-plane (of -1). by_normal 0: one group of all the contacts.
void pf_ode_group_contacts(const dContactGeom *cg, int m, int by_normal, dGeomID mesh,
                           int mesh_side, pfOdeGroups *gr);
void pf_ode_build_patch(pfOdeContext *ctx, pfOdePair *p);
/// A stuck face patch that was not collided this step keeps the last step's support (1), or not.
int pf_ode_carry_support(pfOdeContext *ctx, pfOdePair *p);
void pf_ode_normal_contacts(pfOdeContext *ctx, pfOdePair *p, int first, dContact *out);
/* The box of centres of pressure the face rows' tilt rows allow (docs/physics.md P36c), as the
 * extents L along the patch's x and W along its y about its centre: a rectangle's own; for a
 * convex polygon (two box faces that overlap in part) the largest scaling of its bounding box
 * about the centre that lies inside it. Returns 1 where the box is the face (a rectangle), 2
 * where it is a smaller part of it, 0 for any other patch. */
int pf_ode_face_extent(const pfOdePair *p, double *L, double *W);
int pf_ode_face_setup(pfOdeContext *ctx, pfOdePair *p, double tilt[2]);
void pf_ode_face_joint(pfOdeContext *ctx, pfOdePair *p, double n0);
/// The least of the face's last measured normal forces (P36d): its preload where no presolve ran.
double pf_ode_face_measured_preload(const pfOdePair *p);
/// Solves every face's six rows of this step together (docs/physics.md P36e) into p->step.ps.
void pf_ode_face_presolve(pfOdeContext *ctx, double dt);
void pf_ode_create_normal_joints(pfOdeContext *ctx, pfOdePair *p, int first);
/// One ODE contact joint with point friction (dContactApprox1) per off-plane contact of p.
void pf_ode_create_offplane_joints(pfOdeContext *ctx, pfOdePair *p);

/* A stuck patch's spin row facing a sibling patch (pf_ode_step.c, stick_rows, P51a) is this much
 * softer than its own CFM. */
#define PF_ODE_SIB_SPIN_YIELD 10.0

/* pf_ode_rows.c: conditioning of the adapter's rows */
void pf_ode_mobility(dBodyID b, pfOdeMobility *m);
/// pf_ode_mobility of a body, read once per tracked body within one pf_ode_before_step or
/// pf_ode_after_step call (model_epoch) and kept in its entry (pf_ode_model.c); elsewhere
/// computed at each call.
void pf_ode_body_mobility(const pfOdeContext *ctx, dBodyID b, pfOdeMobility *m);
/// The mobility of p's bodies (pf_ode_body_mobility), taken at the first call for the pair in a
/// pf_ode_before_step call (which clears p->step.has_mob as it takes the pair up) and kept for
/// the rest of it: nothing there moves a body or changes its mass.
void pf_ode_pair_mobility(const pfOdeContext *ctx, pfOdePair *p, const pfOdeMobility **m1,
                          const pfOdeMobility **m2);
/// J M^-1 J^T of a point row (velocity of P along d, body 1 minus body 2).
double pf_ode_point_row_mobility(const pfOdeMobility *m1, const pfOdeMobility *m2, const double *P,
                                 const double *d);
/// J M^-1 J^T of an angular row about e.
double pf_ode_ang_row_mobility(const pfOdeMobility *m1, const pfOdeMobility *m2, const double *e);
/// The row's CFM relative to its mobility (pf_ode_rows.c).
double pf_ode_row_cfm(double mobility, double dt);
/// One angular motor between a1 and a2 (the pair's bodies, or a held body alone and 0) with a
/// row about each world axis axis[k] (unit)
/// whose bound[k] > 0: bounds +-bound[k] [N m], target relative angular velocity vel[k]
/// [rad/s], the relative CFM. Returns the joint, or 0 when no bound is positive.
dJointID pf_ode_angular_rows(pfOdeContext *ctx, pfOdePair *p, dBodyID a1, dBodyID a2,
                             const pfOdeMobility *mb1, const pfOdeMobility *mb2,
                             const double (*axis)[3], const double *bound, const double *vel,
                             int n);
/// 1 if an angular row along e between bodies of mobility m1, m2 is handed to ODE (its mobility
/// is at most the cap pf_ode_angular_rows applies explicitly above).
int pf_ode_angular_row_implicit(const pfOdeMobility *m1, const pfOdeMobility *m2, const double *e);
/// The mobility of no body (static, or not part of the rows).
extern const pfOdeMobility pf_ode_no_mobility;

/* pf_ode_solver.c: the in-solver coupling (a no-op build without the patched ODE) */
int pf_ode_solver_create(pfOdeContext *ctx, pfOdePair *p, double spin_vel, double m1, double m2);
/// Park p's patch joint until its next pf_ode_solver_create: disabled and detached (in no
/// body's joint list: no rows, no island, no connection between the bodies).
void pf_ode_solver_park(pfOdePair *p);
/// Destroy p's patch joint, if any (the pair ends, or the context).
void pf_ode_solver_drop(pfOdePair *p);

/* small vector helpers */
static inline double pf_ode_dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void pf_ode_cross(const double *a, const double *b, double *r)
{
    double t0 = a[1] * b[2] - a[2] * b[1];
    double t1 = a[2] * b[0] - a[0] * b[2];
    double t2 = a[0] * b[1] - a[1] * b[0];
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
}
/* A pair's patch definitions (pfPatchDef, 608 bytes, of which the polygon vertex array is 512)
 * live in the cold pair records. Nothing reads a vertex past vertex_count (the core's polygon
 * code, validation and same_patch read the first vertex_count only), so the writes below leave
 * the rest of the array as it is: resetting and copying the whole struct wrote ten cache lines
 * of the record per patch and step for a rectangle, which needs two. */
/* the two helpers below copy [start, vertices) and [rolling_d, end): nothing may lie between */
_Static_assert(offsetof(pfPatchDef, rolling_d) ==
                   offsetof(pfPatchDef, vertices) + sizeof(((pfPatchDef *)0)->vertices),
               "pfPatchDef: rolling_d must follow the vertex array");
/* d = pf_default_patch_def(), but for the vertices, which keep their (unread) values. */
static inline void pf_ode_def_reset(pfPatchDef *d)
{
    const pfPatchDef z = pf_default_patch_def();
    memcpy(d, &z, offsetof(pfPatchDef, vertices));
    memcpy(&d->rolling_d, &z.rolling_d, sizeof z - offsetof(pfPatchDef, rolling_d));
}
/* *d = *s for every field a reader of d sees: of the vertices, the first vertex_count. */
static inline void pf_ode_def_copy(pfPatchDef *d, const pfPatchDef *s)
{
    int nv = s->vertex_count;
    nv = nv < 0 ? 0 : (nv > PF_POLYGON_MAX_VERTICES ? PF_POLYGON_MAX_VERTICES : nv);
    memcpy(d, s, offsetof(pfPatchDef, vertices));
    memcpy(d->vertices, s->vertices, 2 * sizeof s->vertices[0] * (size_t)nv);
    memcpy(&d->rolling_d, &s->rolling_d, sizeof *s - offsetof(pfPatchDef, rolling_d));
}
static inline int pf_ode_finite3(const double *a)
{
    return (a[0] - a[0] == 0.0) && (a[1] - a[1] == 0.0) && (a[2] - a[2] == 0.0);
}
/* The tables' hash of a pointer (the murmur3 finalizer) and of an ordered geom pair. */
static inline uint64_t pf_ode_hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}
static inline uint64_t pf_ode_hash_pair(dGeomID a, dGeomID b)
{
    return pf_ode_hash_ptr(a) * 31u + pf_ode_hash_ptr(b);
}
/* The pair table's hash of a patch slot of a geom pair, the same in either geom order (slot 0
 * hashes as the pair in address order). */
static inline uint64_t pf_ode_hash_slot(dGeomID a, dGeomID b, int slot)
{
    const uint64_t h =
        (uintptr_t)a < (uintptr_t)b ? pf_ode_hash_pair(a, b) : pf_ode_hash_pair(b, a);
    return h + (uint64_t)slot * 0x9e3779b97f4a7c15ULL;
}
/* ODE fills dVector3s of dReal; the adapter works in plain double[3]. */
static inline void pf_ode_to3(const dReal *v, double *o)
{
    o[0] = v[0];
    o[1] = v[1];
    o[2] = v[2];
}
/* A world vector in body b's frame. */
static inline void pf_ode_to_body_vec(dBodyID b, const double *world, double *local)
{
    dVector3 l;
    dBodyVectorFromWorld(b, world[0], world[1], world[2], l);
    pf_ode_to3(l, local);
}
/* Velocity at the world point P of body b1 minus that of body b2 (either may be 0: the world). */
static inline void pf_ode_rel_point_vel(dBodyID b1, dBodyID b2, const double *P, double *v)
{
    dVector3 v1 = {0, 0, 0, 0}, v2 = {0, 0, 0, 0};
    if (b1) dBodyGetPointVel(b1, P[0], P[1], P[2], v1);
    if (b2) dBodyGetPointVel(b2, P[0], P[1], P[2], v2);
    for (int k = 0; k < 3; ++k)
        v[k] = v1[k] - v2[k];
}
/* 1 if a stuck patch is held by the adapter's own rows (normal joints, stuck rows, carried
 * support): always with the adapter coupling; with the in-solver one under a declared QuickStep,
 * where a patch joint would carry the solver's unconverged iterates (pf_ode_step.c,
 * solver_stuck_rows). Under dWorldStep the in-solver coupling holds it in its patch joint. */
static inline int pf_ode_adapter_holds_stuck(const pfOdeContext *ctx)
{
    return !ctx->solver || ctx->cfg.stepper == PF_ODE_STEPPER_QUICK;
}

/* A body that the solver moves (not NULL, not kinematic). */
static inline int pf_ode_is_dynamic(dBodyID b)
{
    return b && !dBodyIsKinematic(b);
}

#endif
