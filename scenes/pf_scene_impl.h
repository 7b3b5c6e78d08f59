/* Private part of the scene interface (pf_scene.h): the per-scene class table and helpers shared
 * by pf_scene.c and the scene files pf_scene_sliding.c, pf_scene_coupled.c, pf_scene_table.c. */
#ifndef PF_SCENE_IMPL_H
#define PF_SCENE_IMPL_H

#include "pf_scene.h"

#define PFS_MAX_PARAMS 64

typedef struct pfSceneClass {
    pfSceneInfo info;
    double (*default_dt)(const pfScene *s);
    /** Parse the parameters (pfs_param_*), create the ODE objects and s->impl. */
    int (*build)(pfScene *s, pfError *err);
    /** Free s->impl only (the ODE objects are destroyed by pf_scene.c). */
    void (*free_impl)(pfScene *s);
    /** One step of length dt; advances s->t and s->steps. */
    int (*step)(pfScene *s, double dt, pfError *err);
    int (*csv_header)(const char *const **names);
    int (*csv_row)(const pfScene *s, double *row, int max);
    int (*metrics)(const pfScene *s, pfSceneMetric *out, int max);
    int (*state_string)(const pfScene *s, char *buf, int size);
    /** Optional (NULL: no overlay): the overlay items at the current state, at most max
     *  (1 <= max <= PF_SCENE_MAX_OVERLAY, the items zeroed); returns the count written. Last in
     *  the table: a class initialised without it gets NULL (-Wextra then asks for it). */
    int (*overlay)(const pfScene *s, pfSceneOverlay *out, int max);
} pfSceneClass;

struct pfScene {
    const pfSceneClass *cls;
    int case_index;
    pfOdeMode mode;
    pfOdeCoupling coupling; ///< --set coupling= as given (AUTO unless set), passed to pf_ode_create
    /** the coupling of the trial runs of a scene without a context of its own (pfs_trial: the
     *  pinch's limit case); AUTO (reported "none") until a trial ran */
    pfOdeCoupling trial_coupling;
    int nparam;
    char *key[PFS_MAX_PARAMS], *val[PFS_MAX_PARAMS];
    int used[PFS_MAX_PARAMS];
    /* ODE objects (world may be 0 for scenes run without ODE, e.g. coupled masses with a law) */
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    pfOdeContext *pf;
    dGeomID geoms[PF_SCENE_MAX_GEOMS];
    int ngeoms;
    double t;
    long steps;
    double default_duration;
    int quick;         ///< 1: pfs_ode_step uses dWorldQuickStep (ODE's default 20 iterations)
    long lcp_messages; ///< ODE's "LCP internal error" messages during pfs_ode_step
    long ode_messages; ///< ODE's other dMessage messages during pfs_ode_step
    pfSceneStepTiming *timing; ///< pf_scene_set_step_timing (NULL: not timed)
    void *impl;
};

extern const pfSceneClass pf_scene_class_sliding;
extern const pfSceneClass pf_scene_class_coupled;
extern const pfSceneClass pf_scene_class_table;
extern const pfSceneClass pf_scene_class_stack;
extern const pfSceneClass pf_scene_class_bin;
extern const pfSceneClass pf_scene_class_pinch;
extern const pfSceneClass pf_scene_class_conveyor;
/* skid-steer */
extern const pfSceneClass pf_scene_class_skid;
/* several patches per pair */
extern const pfSceneClass pf_scene_class_corner;
/* quasi-static pushing */
extern const pfSceneClass pf_scene_class_push;

/** Fill err (may be NULL) with status and a printf message; returns status. */
int pfs_fail(pfError *err, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** --set key as a double in [lo, hi] (lo_open / hi_open exclude the bound). Returns 1 if given,
 *  0 if absent (dst untouched), negative status with err naming key and value if bad. */
int pfs_param_double(pfScene *s, const char *key, double *dst, double lo, int lo_open, double hi,
                     int hi_open, pfError *err);
/** PD(key, dst, lo, lo_open, hi, hi_open): pfs_param_double inside a scene's init, which has
 *  s, err and an int rc in scope; a bad value returns its status from the init. */
#define PD(key, dst, lo, lo_open, hi, hi_open)                                                     \
    if ((rc = pfs_param_double(s, key, dst, lo, lo_open, hi, hi_open, err)) < 0) return rc
/** --set key as a string, NULL if absent. */
const char *pfs_param_string(pfScene *s, const char *key);
/** --set key as one of two words: *dst = 0 for a, 1 for b, untouched if absent. A bad value is
 *  PF_ERR_RANGE with "<scene>: --set key=value: expected a or b". */
int pfs_param_choice(pfScene *s, const char *scene, const char *key, const char *a, const char *b,
                     int *dst, pfError *err);
/** --set stepper=quick|world into *quick (1: dWorldQuickStep), which holds the scene's default on
 *  entry; the error message names the default first. */
int pfs_param_stepper(pfScene *s, const char *scene, int *quick, pfError *err);
/** PF_OK if every --set key was used, else PF_ERR_RANGE naming the key and the accepted keys. */
int pfs_param_check_unused(pfScene *s, pfError *err);

/** The scene's metrics m[0 .. nm-1] into out, at most max of them; returns the count written. */
int pfs_metrics_copy(const pfSceneMetric *m, int nm, pfSceneMetric *out, int max);

/** A trial run inside a scene's step (a bisection over hold runs): scene / case with s's --set
 *  keys but those in keep_out (NULL-terminated) and those of add[0 .. nadd-1] (at most 4), which
 *  are added instead, stepped with dt until t_end. *out is the trial whenever it was created,
 *  also after a failed step (the caller reads it and destroys it); NULL if creation failed.
 *  Returns the status of the creation or of the first failed step. */
int pfs_trial(pfScene *s, const char *scene, const char *case_name, const char *const *keep_out,
              const pfSceneParam *add, int nadd, double t_end, double dt, pfScene **out,
              pfError *err);

/** Create world (gravity g along -z unless changed by the scene), hash space, contact group and
 *  the adapter context, with pfOdeConfig.coupling = s->coupling and pfOdeConfig.stepper from
 *  s->quick (set it before this call). coupling = SOLVER on an ODE
 *  without the patch series fails here with the adapter's message (naming `coupling`). */
int pfs_ode_begin(pfScene *s, pfError *err);
/** Register a geom for pf_scene_geoms. */
void pfs_add_geom(pfScene *s, dGeomID g);
/** Collide (pf_ode_collide for every pair), pf_ode_before_step, dWorldStep (dWorldQuickStep if
 *  s->quick), pf_ode_after_step, counting ODE's messages meanwhile (s->lcp_messages,
 *  s->ode_messages; ODE's handler is process-wide, so ours is installed around the step only),
 *  empty the contact group. Loads must have been added before. Does not advance s->t. */
int pfs_ode_step(pfScene *s, double dt, pfError *err);

#endif
