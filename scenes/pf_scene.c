/* Registry, life cycle and common ODE plumbing of the literature scenes (pf_scene.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include "pf_scene_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const pfSceneClass *const classes[] = {
    &pf_scene_class_sliding, &pf_scene_class_coupled, &pf_scene_class_table, &pf_scene_class_stack,
    &pf_scene_class_bin, &pf_scene_class_pinch, &pf_scene_class_conveyor, &pf_scene_class_skid,
    /* several patches per pair */
    &pf_scene_class_corner,
    /* quasi-static pushing */
    &pf_scene_class_push};
#define N_CLASSES ((int)(sizeof classes / sizeof classes[0]))

int pf_scene_count(void)
{
    return N_CLASSES;
}

const pfSceneInfo *pf_scene_info(int i)
{
    return (i >= 0 && i < N_CLASSES) ? &classes[i]->info : NULL;
}

static const pfSceneClass *find_class(const char *name)
{
    for (int i = 0; name && i < N_CLASSES; ++i)
        if (!strcmp(classes[i]->info.name, name)) return classes[i];
    return NULL;
}

const pfSceneInfo *pf_scene_find(const char *name)
{
    const pfSceneClass *c = find_class(name);
    return c ? &c->info : NULL;
}

int pfs_fail(pfError *err, int status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->status = status;
        err->field[0] = 0;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

static int find_param(const pfScene *s, const char *key)
{
    for (int i = s->nparam - 1; i >= 0; --i) /* the last --set of a key wins */
        if (!strcmp(s->key[i], key)) return i;
    return -1;
}

static void mark_used(pfScene *s, const char *key)
{
    for (int i = 0; i < s->nparam; ++i)
        if (!strcmp(s->key[i], key)) s->used[i] = 1;
}

int pfs_param_double(pfScene *s, const char *key, double *dst, double lo, int lo_open, double hi,
                     int hi_open, pfError *err)
{
    int i = find_param(s, key);
    if (i < 0) return 0;
    mark_used(s, key);
    char *end = NULL;
    double v = strtod(s->val[i], &end);
    int ok = end != s->val[i] && *end == 0 && isfinite(v);
    if (ok) ok = lo_open ? v > lo : v >= lo;
    if (ok) ok = hi_open ? v < hi : v <= hi;
    if (!ok) {
        char range[96];
        if (isinf(hi))
            snprintf(range, sizeof range, "a finite value %s %g", lo_open ? ">" : ">=", lo);
        else
            snprintf(range, sizeof range, "a value in %s%g, %g%s", lo_open ? "(" : "[", lo, hi,
                     hi_open ? ")" : "]");
        return pfs_fail(err, PF_ERR_RANGE, "%s: --set %s=%s: expected %s", s->cls->info.name, key,
                        s->val[i], range);
    }
    *dst = v;
    return 1;
}

int pfs_trial(pfScene *s, const char *scene, const char *case_name, const char *const *keep_out,
              const pfSceneParam *add, int nadd, double t_end, double dt, pfScene **out,
              pfError *err)
{
    *out = NULL;
    pfSceneParam kv[PFS_MAX_PARAMS + 4];
    if (nadd < 0 || nadd > 4) return pfs_fail(err, PF_ERR_RANGE, "%s: %d keys added", scene, nadd);
    int n = 0;
    for (int i = 0; i < s->nparam; ++i) {
        int left_out = 0;
        for (const char *const *k = keep_out; *k && !left_out; ++k)
            left_out = !strcmp(s->key[i], *k);
        for (int a = 0; a < nadd && !left_out; ++a)
            left_out = !strcmp(s->key[i], add[a].key);
        if (!left_out) kv[n++] = (pfSceneParam){s->key[i], s->val[i]};
    }
    for (int a = 0; a < nadd; ++a)
        kv[n++] = add[a];
    pfScene *h = NULL;
    int rc = pf_scene_create(scene, case_name, s->mode, kv, n, &h, err);
    if (rc != PF_OK) return rc;
    s->trial_coupling = pf_scene_coupling(h);
    while (rc == PF_OK && pf_scene_time(h) < t_end - 0.5 * dt)
        rc = pf_scene_step(h, dt, err);
    *out = h;
    return rc;
}

const char *pfs_param_string(pfScene *s, const char *key)
{
    int i = find_param(s, key);
    if (i < 0) return NULL;
    mark_used(s, key);
    return s->val[i];
}

int pfs_param_choice(pfScene *s, const char *scene, const char *key, const char *a, const char *b,
                     int *dst, pfError *err)
{
    const char *v = pfs_param_string(s, key);
    if (!v) return PF_OK;
    if (!strcmp(v, a))
        *dst = 0;
    else if (!strcmp(v, b))
        *dst = 1;
    else
        return pfs_fail(err, PF_ERR_RANGE, "%s: --set %s=%s: expected %s or %s", scene, key, v, a,
                        b);
    return PF_OK;
}

int pfs_param_stepper(pfScene *s, const char *scene, int *quick, pfError *err)
{
    int other = 0;
    int rc = pfs_param_choice(s, scene, "stepper", *quick ? "quick" : "world",
                              *quick ? "world" : "quick", &other, err);
    if (rc == PF_OK && other) *quick = !*quick;
    return rc;
}

int pfs_metrics_copy(const pfSceneMetric *m, int nm, pfSceneMetric *out, int max)
{
    int n = nm < max ? nm : max;
    memcpy(out, m, (size_t)n * sizeof *out);
    return n;
}

int pfs_param_check_unused(pfScene *s, pfError *err)
{
    for (int i = 0; i < s->nparam; ++i)
        if (!s->used[i]) {
            char keys[320] = "";
            for (const char *const *k = s->cls->info.params; k && *k; ++k) {
                size_t n = strlen(keys);
                snprintf(keys + n, sizeof keys - n, "%s%s", n ? ", " : "", *k);
            }
            return pfs_fail(err, PF_ERR_RANGE,
                            "%s case %s: unknown or inapplicable --set key '%s' (keys: %s)",
                            s->cls->info.name, s->cls->info.cases[s->case_index], s->key[i], keys);
        }
    return PF_OK;
}

static int ode_ready;

int pfs_ode_begin(pfScene *s, pfError *err)
{
    if (!ode_ready) {
        dInitODE2(0);
        ode_ready = 1;
    }
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -9.81);
    /* a resting body keeps a small penetration below the surface layer, so ERP never pushes it */
    dWorldSetContactSurfaceLayer(s->world, 1e-4);
    dWorldSetAutoDisableFlag(s->world, 0);
    s->space = dHashSpaceCreate(0);
    s->group = dJointGroupCreate(0);
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = s->coupling;
    cfg.stepper = s->quick ? PF_ODE_STEPPER_QUICK : PF_ODE_STEPPER_WORLD; /* (set before this) */
    pfError e;
    int rc = pf_ode_create(s->world, &cfg, &s->pf, &e);
    if (rc != PF_OK) {
        pfs_fail(err, rc, "%s: --set coupling=%s: %s", s->cls->info.name,
                 s->coupling == PF_ODE_COUPLING_SOLVER    ? "solver"
                 : s->coupling == PF_ODE_COUPLING_ADAPTER ? "adapter"
                                                          : "auto",
                 e.message);
        if (err) snprintf(err->field, sizeof err->field, "%s", e.field);
    }
    return rc;
}

void pfs_add_geom(pfScene *s, dGeomID g)
{
    if (s->ngeoms < PF_SCENE_MAX_GEOMS) s->geoms[s->ngeoms++] = g;
}

typedef struct NearData {
    pfScene *s;
    int status;
} NearData;

static void near(void *data, dGeomID a, dGeomID b)
{
    NearData *d = data;
    int rc = pf_ode_collide(d->s->pf, a, b, d->s->group);
    if (rc < 0 && d->status == PF_OK) d->status = rc;
}

static int ode_step(pfScene *s, double dt, pfError *err);

static pfScene *counting; /* the scene whose step is running (ODE's handler is process-wide) */

static void count_message(int num, const char *msg, va_list ap)
{
    (void)num;
    (void)ap;
    if (!counting) return;
    if (strstr(msg, "LCP internal error"))
        counting->lcp_messages++;
    else
        counting->ode_messages++;
}

int pfs_ode_step(pfScene *s, double dt, pfError *err)
{
    dMessageFunction *previous = dGetMessageHandler();
    counting = s;
    dSetMessageHandler(count_message);
    int rc = ode_step(s, dt, err);
    dSetMessageHandler(previous);
    counting = NULL;
    return rc;
}

/* the clock of pfSceneStepTiming (pf_scene_set_timing_clock) */
static clockid_t timing_clock = CLOCK_MONOTONIC;

void pf_scene_set_timing_clock(int cpu_time)
{
    timing_clock = cpu_time ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
}

/* the timing clock in seconds, for pfSceneStepTiming */
static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(timing_clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void pf_scene_set_step_timing(pfScene *s, pfSceneStepTiming *timing)
{
    if (s) s->timing = timing;
}

static int ode_step(pfScene *s, double dt, pfError *err)
{
    pfSceneStepTiming *tm = s->timing;
    double t0 = tm ? mono_s() : 0.0;
    NearData d = {s, PF_OK};
    dSpaceCollide(s->space, &d, near);
    if (d.status != PF_OK)
        return pfs_fail(err, d.status, "%s: pf_ode_collide failed: %s", s->cls->info.name,
                        pf_strerror(d.status));
    double t1 = tm ? mono_s() : 0.0;
    int rc = pf_ode_before_step(s->pf, dt);
    if (rc != PF_OK)
        return pfs_fail(err, rc, "%s: pf_ode_before_step failed: %s", s->cls->info.name,
                        pf_strerror(rc));
    double t2 = tm ? mono_s() : 0.0;
    if (s->quick)
        dWorldQuickStep(s->world, dt);
    else
        dWorldStep(s->world, dt);
    double t3 = tm ? mono_s() : 0.0;
    rc = pf_ode_after_step(s->pf);
    if (tm) {
        double t4 = mono_s();
        tm->collide_s += t1 - t0;
        tm->before_step_s += t2 - t1;
        tm->solver_s += t3 - t2;
        tm->after_step_s += t4 - t3;
        tm->steps++;
    }
    dJointGroupEmpty(s->group);
    if (rc != PF_OK)
        return pfs_fail(err, rc, "%s: pf_ode_after_step failed: %s", s->cls->info.name,
                        pf_strerror(rc));
    return PF_OK;
}

static void destroy_objects(pfScene *s)
{
    if (s->impl && s->cls->free_impl) s->cls->free_impl(s);
    s->impl = NULL;
    if (s->pf) pf_ode_destroy(s->pf);
    if (s->group) dJointGroupDestroy(s->group);
    if (s->space) dSpaceDestroy(s->space);
    if (s->world) dWorldDestroy(s->world);
    s->pf = NULL;
    s->group = 0;
    s->space = 0;
    s->world = 0;
    s->ngeoms = 0;
    s->quick = 0;
    s->lcp_messages = s->ode_messages = 0;
    s->t = 0.0;
    s->steps = 0;
}

static int build(pfScene *s, pfError *err)
{
    for (int i = 0; i < s->nparam; ++i)
        s->used[i] = 0;
    s->coupling = PF_ODE_COUPLING_AUTO;
    s->trial_coupling = PF_ODE_COUPLING_AUTO;
    const char *cp = pfs_param_string(s, "coupling"); /* generic key of every scene */
    if (cp && pf_scene_coupling_from_name(cp, &s->coupling))
        return pfs_fail(err, PF_ERR_RANGE,
                        "%s: --set coupling=%s: expected auto, adapter or solver",
                        s->cls->info.name, cp);
    /* iterations=N: dWorldSetQuickStepNumIterations for the scenes that offer stepper=quick
     * (their keys list it), so the tuning guide can measure what stick needs */
    double iters = 0.0;
    int has_iters = 0;
    for (const char *const *k = s->cls->info.params; k && *k; ++k)
        if (!strcmp(*k, "iterations")) {
            int r = pfs_param_double(s, "iterations", &iters, 1.0, 0, 1e6, 0, err);
            if (r < 0) return r;
            has_iters = r == 1;
            if (has_iters && iters != floor(iters))
                return pfs_fail(err, PF_ERR_RANGE, "%s: --set iterations=%g: expected an integer",
                                s->cls->info.name, iters);
        }
    int rc = s->cls->build(s, err);
    if (rc == PF_OK && has_iters && s->world) dWorldSetQuickStepNumIterations(s->world, (int)iters);
    if (rc == PF_OK) rc = pfs_param_check_unused(s, err);
    if (rc != PF_OK) destroy_objects(s);
    return rc;
}

static char *dupstr(const char *x)
{
    size_t n = strlen(x) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, x, n);
    return d;
}

int pf_scene_create(const char *scene, const char *case_name, pfOdeMode mode,
                    const pfSceneParam *params, int n, pfScene **out, pfError *err)
{
    if (!out) return pfs_fail(err, PF_ERR_NULL, "pf_scene_create: out is NULL");
    *out = NULL;
    const pfSceneClass *c = find_class(scene);
    if (!c) {
        char names[128] = "";
        for (int i = 0; i < N_CLASSES; ++i) {
            size_t k = strlen(names);
            snprintf(names + k, sizeof names - k, "%s%s", i ? ", " : "", classes[i]->info.name);
        }
        return pfs_fail(err, PF_ERR_RANGE, "unknown scene '%s' (scenes: %s)",
                        scene ? scene : "(null)", names);
    }
    int ci = 0;
    if (case_name) {
        ci = -1;
        for (int i = 0; c->info.cases[i]; ++i)
            if (!strcmp(c->info.cases[i], case_name)) ci = i;
        if (ci < 0) {
            char names[256] = "";
            for (int i = 0; c->info.cases[i]; ++i) {
                size_t k = strlen(names);
                snprintf(names + k, sizeof names - k, "%s%s", i ? ", " : "", c->info.cases[i]);
            }
            return pfs_fail(err, PF_ERR_RANGE, "%s: unknown case '%s' (cases: %s)", c->info.name,
                            case_name, names);
        }
    }
    if (mode != PF_ODE_MODE_EXACT && mode != PF_ODE_MODE_PADE && mode != PF_ODE_MODE_STOCK) {
        return pfs_fail(err, PF_ERR_ENUM, "%s: bad friction mode %d", c->info.name, (int)mode);
    }
    if (n < 0 || n > PFS_MAX_PARAMS || (n > 0 && !params)) {
        return pfs_fail(err, PF_ERR_RANGE, "%s: bad parameter list (n = %d, at most %d)",
                        c->info.name, n, PFS_MAX_PARAMS);
    }
    pfScene *s = calloc(1, sizeof *s);
    if (!s) {
        return pfs_fail(err, PF_ERR_NO_MEMORY, "%s: out of memory", c->info.name);
    }
    s->cls = c;
    s->case_index = ci;
    s->mode = mode;
    for (int i = 0; i < n; ++i) {
        if (!params[i].key || !params[i].value) {
            int st = pfs_fail(err, PF_ERR_NULL, "%s: parameter %d has a NULL key or value",
                              c->info.name, i);
            pf_scene_destroy(s);
            return st;
        }
        s->key[i] = dupstr(params[i].key);
        s->val[i] = dupstr(params[i].value);
        s->nparam = i + 1;
        if (!s->key[i] || !s->val[i]) {
            int st = pfs_fail(err, PF_ERR_NO_MEMORY, "%s: out of memory", c->info.name);
            pf_scene_destroy(s);
            return st;
        }
    }
    int st = build(s, err);
    if (st != PF_OK) {
        pf_scene_destroy(s);
        return st;
    }
    *out = s;
    return PF_OK;
}

void pf_scene_destroy(pfScene *s)
{
    if (!s) return;
    destroy_objects(s);
    for (int i = 0; i < s->nparam; ++i) {
        free(s->key[i]);
        free(s->val[i]);
    }
    free(s);
}

int pf_scene_reset(pfScene *s, pfError *err)
{
    if (!s) return pfs_fail(err, PF_ERR_NULL, "pf_scene_reset: NULL scene");
    destroy_objects(s);
    return build(s, err);
}

int pf_scene_step(pfScene *s, double dt, pfError *err)
{
    if (!s) return pfs_fail(err, PF_ERR_NULL, "pf_scene_step: NULL scene");
    if (!(dt > 0.0) || !isfinite(dt))
        return pfs_fail(err, PF_ERR_RANGE, "%s: dt = %g: expected a finite value > 0",
                        s->cls->info.name, dt);
    return s->cls->step(s, dt, err);
}

const char *pf_scene_name(const pfScene *s)
{
    return s->cls->info.name;
}
const char *pf_scene_case(const pfScene *s)
{
    return s->cls->info.cases[s->case_index];
}
pfOdeMode pf_scene_mode(const pfScene *s)
{
    return s->mode;
}
pfOdeCoupling pf_scene_coupling(const pfScene *s)
{
    /* no adapter context: a 1-D law (none), or a scene of trial runs (theirs) */
    if (!s->pf) return s->trial_coupling;
    if (s->coupling != PF_ODE_COUPLING_AUTO) return s->coupling;
    return pf_ode_solver_coupling_available() ? PF_ODE_COUPLING_SOLVER : PF_ODE_COUPLING_ADAPTER;
}
const char *pf_scene_coupling_name(pfOdeCoupling c)
{
    switch (c) {
    case PF_ODE_COUPLING_ADAPTER:
        return "adapter";
    case PF_ODE_COUPLING_SOLVER:
        return "solver";
    default:
        return "none";
    }
}
int pf_scene_coupling_from_name(const char *name, pfOdeCoupling *c)
{
    if (!name) return -1;
    if (!strcmp(name, "auto"))
        *c = PF_ODE_COUPLING_AUTO;
    else if (!strcmp(name, "adapter"))
        *c = PF_ODE_COUPLING_ADAPTER;
    else if (!strcmp(name, "solver"))
        *c = PF_ODE_COUPLING_SOLVER;
    else
        return -1;
    return 0;
}
double pf_scene_time(const pfScene *s)
{
    return s->t;
}
long pf_scene_steps(const pfScene *s)
{
    return s->steps;
}
double pf_scene_default_dt(const pfScene *s)
{
    return s->cls->default_dt ? s->cls->default_dt(s) : 1e-3;
}
double pf_scene_default_duration(const pfScene *s)
{
    return s->default_duration;
}
dWorldID pf_scene_world(const pfScene *s)
{
    return s->world;
}
dSpaceID pf_scene_space(const pfScene *s)
{
    return s->space;
}
pfOdeContext *pf_scene_ode_context(const pfScene *s)
{
    return s->pf;
}

int pf_scene_geoms(const pfScene *s, dGeomID *out, int max)
{
    for (int i = 0; i < s->ngeoms && i < max; ++i)
        out[i] = s->geoms[i];
    return s->ngeoms;
}

int pf_scene_state_string(const pfScene *s, char *buf, int size)
{
    if (size > 0) buf[0] = 0;
    return s->cls->state_string(s, buf, size);
}

int pf_scene_overlay(const pfScene *s, pfSceneOverlay *out, int max)
{
    if (!s || !out || max <= 0 || !s->cls->overlay) return 0;
    if (max > PF_SCENE_MAX_OVERLAY) max = PF_SCENE_MAX_OVERLAY;
    memset(out, 0, (size_t)max * sizeof *out);
    int n = s->cls->overlay(s, out, max);
    return n < 0 ? 0 : n > max ? max : n;
}

int pf_scene_csv_header(const pfScene *s, const char *const **names)
{
    return s->cls->csv_header(names);
}

int pf_scene_csv_row(const pfScene *s, double *row, int max)
{
    return s->cls->csv_row(s, row, max);
}

int pf_scene_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    return s->cls->metrics(s, out, max);
}

int pf_scene_mode_from_name(const char *name, pfOdeMode *mode)
{
    if (!name) return -1;
    if (!strcmp(name, "stock"))
        *mode = PF_ODE_MODE_STOCK;
    else if (!strcmp(name, "exact"))
        *mode = PF_ODE_MODE_EXACT;
    else if (!strcmp(name, "pade"))
        *mode = PF_ODE_MODE_PADE;
    else
        return -1;
    return 0;
}

const char *pf_scene_mode_name(pfOdeMode mode)
{
    switch (mode) {
    case PF_ODE_MODE_STOCK:
        return "stock";
    case PF_ODE_MODE_PADE:
        return "pade";
    default:
        return "exact";
    }
}
