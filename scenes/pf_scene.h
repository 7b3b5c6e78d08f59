/* Generic interface of the scenes: the literature's sliding-blocks (docs/physics.md §6),
 * coupled-masses (§4) and shaking-table (§3), the multi-body stack, pinch and bin, and the
 * conveyor (surface motion, §8.1). One
 * interface for the headless runner (pf_demo.c), the viewer, the comparison report, the tests and
 * the benchmarks.
 *
 * Life cycle:
 *
 *     pfSceneParam kv[] = {{"h", "0.005"}, {"yaw", "0.3"}};
 *     pfError err;
 *     pfScene *s = NULL;
 *     if (pf_scene_create("sliding-blocks", "eccentric-push", PF_ODE_MODE_EXACT, kv, 2, &s,
 *                         &err) != PF_OK)
 *         return;                                   // err.message names the bad value
 *     double dt = pf_scene_default_dt(s), T = pf_scene_default_duration(s);
 *     while (pf_scene_time(s) < T - 0.5 * dt) {
 *         if (pf_scene_step(s, dt, &err) != PF_OK) break;
 *         pf_scene_csv_row(s, row, 64);                   // columns of pf_scene_csv_header
 *     }
 *     pfSceneMetric m[32]; int nm = pf_scene_metrics(s, m, 32);
 *     pf_scene_destroy(s);
 *
 * Scene code never prints. All quantities SI. The scene owns its ODE world, space, bodies, geoms,
 * contact group and pfOdeContext; the accessors hand them out for reading and drawing only (the
 * viewer must not step the world itself: call pf_scene_step).
 */
#ifndef PF_SCENE_H
#define PF_SCENE_H

#include <ode/ode.h>
#include <patchfriction/pf_core.h>
#include <patchfriction/pf_ode.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Largest number of CSV columns / metrics a scene produces (buffers of this size always fit).
#define PF_SCENE_MAX_COLUMNS 32
#define PF_SCENE_MAX_METRICS 32
/// Largest number of geoms a scene reports through pf_scene_geoms (the bin's bodies and walls).
#define PF_SCENE_MAX_GEOMS 256

/// Opaque running scene.
typedef struct pfScene pfScene;

/// One --set key=value parameter, both strings (the scene parses and validates the value).
typedef struct pfSceneParam {
    const char *key;
    const char *value;
} pfSceneParam;

/// One named metric for the JSON output (value may be NaN: "not reached", written as null).
typedef struct pfSceneMetric {
    const char *name; ///< static string, JSON key
    double value;
} pfSceneMetric;

/// Static description of a scene in the registry.
typedef struct pfSceneInfo {
    const char *name;          ///< "sliding-blocks", "coupled-masses", "shaking-table"
    const char *summary;       ///< one line for --help
    const char *const *cases;  ///< NULL-terminated case names; cases[0] is the default
    const char *const *params; ///< NULL-terminated --set keys the scene accepts (any case)
} pfSceneInfo;

/* ------------------------------------------------------------------------------------------ */
/* registry                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/// Number of registered scenes.
int pf_scene_count(void);
/// Scene i (0 <= i < pf_scene_count()), or NULL.
const pfSceneInfo *pf_scene_info(int i);
/// Scene by name, or NULL.
const pfSceneInfo *pf_scene_find(const char *name);

/* ------------------------------------------------------------------------------------------ */
/* life cycle                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/** Build a scene. case_name NULL = the default case. mode = the adapter's friction mode for the
 *  scene's patch contacts (PF_ODE_MODE_STOCK: ODE's dContactApprox1 with the same mu). params:
 *  n key=value pairs (may be NULL if n == 0) applied over the case's published parameters.
 *  Every scene accepts the generic key coupling=auto|adapter|solver (pfOdeConfig.coupling of the
 *  scene's adapter context, default auto); coupling=solver on an ODE without the patch series
 *  (pf_ode_solver_coupling_available() == 0) fails with the adapter's message naming `coupling`.
 *  The scenes with a QuickStep option (pinch, stack, bin, conveyor, skid-steer) also take
 *  iterations=N (an integer >= 1): dWorldSetQuickStepNumIterations on the scene's world (ODE's
 *  default is 20).
 *  On success *out is the scene and PF_OK is returned; on error *out is NULL and the status is
 *  returned with err (may be NULL) naming the bad scene, case, key or value, e.g.
 *  "sliding-blocks: --set mass=-1: expected a finite value > 0". */
int pf_scene_create(const char *scene, const char *case_name, pfOdeMode mode,
                    const pfSceneParam *params, int n, pfScene **out, pfError *err);
/// Destroy (NULL ignored); also destroys the scene's ODE objects.
void pf_scene_destroy(pfScene *s);
/** Restore the initial state (t = 0) with the same scene, case, mode and parameters. Geom IDs
 *  may change: re-query pf_scene_geoms afterwards. */
int pf_scene_reset(pfScene *s, pfError *err);

/** Advance by dt [s] (> 0, finite): loads at time t, collision, pf_ode_before_step,
 *  dWorldStep (direct LCP: these scenes have one or two bodies), pf_ode_after_step, metric
 *  bookkeeping. coupled-masses with --set law= steps its 1-D model instead (world, space and
 *  context are then 0 / NULL). Returns PF_OK or a status with err. */
int pf_scene_step(pfScene *s, double dt, pfError *err);

/** Wall-clock time of the phases of the scene's ODE steps (CLOCK_MONOTONIC), summed over the
 *  steps taken while attached with pf_scene_set_step_timing. For benchmarks: the scene adds to
 *  the fields and never resets them. */
typedef struct pfSceneStepTiming {
    double collide_s;     ///< dSpaceCollide including the near callback (pf_ode_collide) [s]
    double before_step_s; ///< pf_ode_before_step (stick test, friction rows) [s]
    double solver_s;      ///< dWorldStep or dWorldQuickStep [s]
    double after_step_s;  ///< pf_ode_after_step (normal forces, diagnostics) [s]
    long steps;           ///< ODE steps timed (>= 0)
} pfSceneStepTiming;

/** Attach timing (NULL: detach, the default): every later ODE step of s adds its phase times to
 *  *timing, which must outlive the attachment. Costs five clock reads per step when attached.
 *  Survives pf_scene_reset. Scenes without an ODE world (coupled-masses with a law) add
 *  nothing. */
void pf_scene_set_step_timing(pfScene *s, pfSceneStepTiming *timing);

/** The clock of pfSceneStepTiming for every scene of the process: 0 (the default) wall time
 *  (CLOCK_MONOTONIC), 1 the stepping thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which the
 *  load of other processes on a shared machine does not inflate. */
void pf_scene_set_timing_clock(int cpu_time);

/* ------------------------------------------------------------------------------------------ */
/* accessors                                                                                   */
/* ------------------------------------------------------------------------------------------ */

const char *pf_scene_name(const pfScene *s);
const char *pf_scene_case(const pfScene *s);
pfOdeMode pf_scene_mode(const pfScene *s);
/** The coupling actually used: PF_ODE_COUPLING_ADAPTER or PF_ODE_COUPLING_SOLVER (AUTO resolved
 *  with pf_ode_solver_coupling_available()). Stock-friction runs report it too, although ODE's
 *  own point friction does not use it (their friction bounds are ODE's; "adapter" then only says
 *  that no patched solver was asked for). coupled-masses with --set law= has no ODE contact:
 *  PF_ODE_COUPLING_AUTO ("none"). A scene of trial runs without a context of its own (pinch's
 *  limit case) reports its trials' coupling once one has run, AUTO before. */
pfOdeCoupling pf_scene_coupling(const pfScene *s);
/// "adapter" / "solver" / "none" (AUTO: no adapter context, see pf_scene_coupling).
const char *pf_scene_coupling_name(pfOdeCoupling c);
/// Parse "auto" / "adapter" / "solver"; returns 0 or -1 for anything else.
int pf_scene_coupling_from_name(const char *name, pfOdeCoupling *c);
/// Simulated time [s] (0 after create / reset).
double pf_scene_time(const pfScene *s);
/// Steps taken since create / reset.
long pf_scene_steps(const pfScene *s);
/// Default step [s] of the case (1e-3 except where the physics needs finer, e.g. shaking table).
double pf_scene_default_dt(const pfScene *s);
/// Default duration [s] of the case.
double pf_scene_default_duration(const pfScene *s);

dWorldID pf_scene_world(const pfScene *s);
dSpaceID pf_scene_space(const pfScene *s);
/// The adapter context: patch diagnostics (pf_ode_patch_count / pf_ode_get_patch) after a step.
pfOdeContext *pf_scene_ode_context(const pfScene *s);
/** The scene's geoms (ground / table first, then the moving bodies' geoms); returns the count
 *  (<= PF_SCENE_MAX_GEOMS) and writes up to max of them. */
int pf_scene_geoms(const pfScene *s, dGeomID *out, int max);
/// Largest number of overlay items a scene describes (pf_scene_overlay).
#define PF_SCENE_MAX_OVERLAY 16

/// Kind of an overlay item; the zero value is an unused item.
typedef enum pfSceneOverlayKind {
    PF_SCENE_OVERLAY_NONE = 0, ///< nothing (ignored)
    PF_SCENE_OVERLAY_POINT,    ///< a marker at p
    PF_SCENE_OVERLAY_LINE,     ///< a segment from p to q
    PF_SCENE_OVERLAY_ARROW,    ///< a segment from p to q with a head at q
} pfSceneOverlayKind;

/** One item of a scene's overlay: a closed-form prediction (or other reference geometry) in
 *  world coordinates, for a viewer to draw over the bodies. The scene only describes it; how it
 *  is drawn (marker size, line width) is the viewer's business. */
typedef struct pfSceneOverlay {
    pfSceneOverlayKind kind;
    double p[3];    ///< marker position / segment start, world frame [m]
    double q[3];    ///< segment end, world frame [m] (LINE, ARROW)
    float rgb[3];   ///< colour, each in [0, 1]
    int dashed;     ///< 1: draw dashed (a prediction), 0: solid
    char label[32]; ///< short text drawn beside p (POINT) or q (LINE, ARROW); "" for none
} pfSceneOverlay;

/** The scene's overlay at its current state, e.g. the pinch's closed-form holding offset d* on
 *  the bar. Writes up to max items (max <= 0: none) and returns the count written
 *  (<= PF_SCENE_MAX_OVERLAY); 0 for scenes (or cases) without one. */
int pf_scene_overlay(const pfScene *s, pfSceneOverlay *out, int max);

/** Short HUD text, e.g. "t=1.234 s  slip  v=0.012 m/s  w=0.3 rad/s  F=0.081 N". Always
 *  NUL-terminated; returns the length that would have been written (snprintf semantics). */
int pf_scene_state_string(const pfScene *s, char *buf, int size);

/* ------------------------------------------------------------------------------------------ */
/* output                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/** CSV column names; first is "t". Returns the count (<= PF_SCENE_MAX_COLUMNS) and points *names
 *  at a static array. The same columns for every case of a scene (pf-reference writes them
 *  too). */
int pf_scene_csv_header(const pfScene *s, const char *const **names);
/// Current row (same order as the header); returns the count written (<= max).
int pf_scene_csv_row(const pfScene *s, double *row, int max);
/** Metrics so far (JSON name/value pairs, not including scene/case/friction/steps/sim_time, which
 *  the runner adds). Returns the count written (<= max). */
int pf_scene_metrics(const pfScene *s, pfSceneMetric *out, int max);

/// Parse "stock" / "exact" / "pade" into *mode; returns 0 or -1 for anything else.
int pf_scene_mode_from_name(const char *name, pfOdeMode *mode);
/// "stock" / "exact" / "pade".
const char *pf_scene_mode_name(pfOdeMode mode);

#ifdef __cplusplus
}
#endif

#endif /* PF_SCENE_H */
