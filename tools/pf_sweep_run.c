/* One run of a sweep point, in process through the scene API, and its CSV row (pf_sweep.h). */
#include "pf_sweep.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static double scene_metric(const pfSceneMetric *m, int nm, const char *name)
{
    for (int i = 0; i < nm; ++i)
        if (!strcmp(m[i].name, name)) return m[i].value;
    return NAN;
}

static int until_reached(const pfSweepSpec *sp, const pfScene *s)
{
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int nm = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
    for (int i = 0; i < sp->nuntil; ++i)
        if (!isfinite(scene_metric(m, nm, sp->until[i]))) return 0;
    return 1;
}

pfScene *pf_sweep_scene(const pfSweepSpec *sp, pfOdeMode mode, const pfSceneParam *kv, int n,
                        pfError *err)
{
    pfScene *s = NULL;
    if (pf_scene_create(sp->scene, sp->case_name[0] ? sp->case_name : NULL, mode, kv, n, &s, err) !=
        PF_OK)
        return NULL;
    return s;
}

int pf_sweep_run(const pfSweepSpec *sp, pfOdeMode mode, const pfSceneParam *extra, int nextra,
                 double *metric, const pfSweepHooks *hooks, pfError *err)
{
    pfSceneParam kv[PF_SWEEP_MAX_SETS + 2 * PF_SWEEP_MAX_PARAMS];
    int nkv = 0;
    for (int i = 0; i < sp->nset; ++i)
        kv[nkv++] = (pfSceneParam){sp->set_key[i], sp->set_val[i]};
    for (int i = 0; i < nextra && nkv < (int)(sizeof kv / sizeof kv[0]); ++i)
        kv[nkv++] = extra[i];
    for (int i = 0; i < sp->nmetric; ++i)
        metric[i] = NAN;
    /* ODE's dRand (QuickStep's row order) is global state: the same start for every run keeps a
     * point's result independent of what ran before it in this process */
    dRandSetSeed(0);
    pfScene *s = pf_sweep_scene(sp, mode, kv, nkv, err);
    if (!s) return err ? err->status : PF_ERR_RANGE;
    double dt = sp->dt > 0.0 ? sp->dt : pf_scene_default_dt(s);
    double T = sp->duration > 0.0 ? sp->duration : pf_scene_default_duration(s);
    int rc = PF_OK;
    long k = 0;
    while (pf_scene_time(s) < T - 0.5 * dt) {
        if ((rc = pf_scene_step(s, dt, err)) != PF_OK) break;
        if (hooks && hooks->step) hooks->step(hooks->ctx, s);
        if (sp->nuntil && until_reached(sp, s)) break;
        if (++k % PF_SWEEP_POLL_STEPS == 0 && hooks) {
            if (hooks->poll) hooks->poll(hooks->ctx);
            if (hooks->stop && *hooks->stop) {
                if (err) {
                    err->status = PF_ERR_RANGE;
                    snprintf(err->message, sizeof err->message, "stopped");
                }
                rc = PF_ERR_RANGE;
                break;
            }
        }
    }
    if (rc == PF_OK) {
        pfSceneMetric m[PF_SCENE_MAX_METRICS];
        int nm = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
        double fx = scene_metric(m, nm, "final_x"), fy = scene_metric(m, nm, "final_y");
        for (int i = 0; i < sp->nmetric; ++i) {
            const char *name = sp->metric[i];
            if (!strcmp(name, "distance"))
                metric[i] = hypot(fx, fy);
            else if (!strcmp(name, "direction")) /* degrees from +x (down-slope) towards +y */
                metric[i] = atan2(fy, fx) * 180.0 / M_PI;
            else if (!strcmp(name, "steps"))
                metric[i] = (double)pf_scene_steps(s);
            else if (!strcmp(name, "sim_time"))
                metric[i] = pf_scene_time(s);
            else
                metric[i] = scene_metric(m, nm, name);
        }
    }
    pf_scene_destroy(s);
    return rc;
}

void pf_sweep_csv_header(const pfSweepSpec *sp, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    pf_sweep_append(buf, n, &len, "index,friction");
    for (int i = 0; i < sp->nparam; ++i)
        pf_sweep_append(buf, n, &len, ",%s", sp->param[i].name);
    for (int i = 0; i < sp->nmetric; ++i)
        pf_sweep_append(buf, n, &len, ",%s", sp->metric[i]);
    pf_sweep_append(buf, n, &len, ",status\n");
}

int pf_sweep_run_point(const pfSweepSpec *sp, long index, const pfSweepHooks *hooks, char *row,
                       size_t n)
{
    pfSweepPoint pt;
    pf_sweep_point(sp, index, &pt);
    pfSceneParam kv[PF_SWEEP_MAX_PARAMS];
    for (int i = 0; i < sp->nparam; ++i)
        kv[i] = (pfSceneParam){sp->param[i].name, pt.value[i]};
    double metric[PF_SWEEP_MAX_METRICS];
    pfError err;
    memset(&err, 0, sizeof err);
    int rc = pf_sweep_run(sp, pt.mode, kv, sp->nparam, metric, hooks, &err);
    if (rc != PF_OK && hooks && hooks->stop && *hooks->stop) return rc;
    size_t len = 0;
    row[0] = 0;
    pf_sweep_append(row, n, &len, "%ld,%s", index, pf_scene_mode_name(pt.mode));
    for (int i = 0; i < sp->nparam; ++i)
        pf_sweep_append(row, n, &len, ",%s", pt.value[i]);
    for (int i = 0; i < sp->nmetric; ++i) {
        if (isfinite(metric[i]))
            pf_sweep_append(row, n, &len, ",%.12g", metric[i]);
        else
            pf_sweep_append(row, n, &len, ",nan");
    }
    if (rc == PF_OK) {
        pf_sweep_append(row, n, &len, ",ok\n");
    } else { /* one CSV cell: no commas, quotes or line breaks from the message */
        char m[sizeof err.message];
        snprintf(m, sizeof m, "%s", err.message);
        for (char *c = m; *c; ++c)
            if (*c == ',' || *c == '"' || *c == '\n' || *c == '\r') *c = ';';
        pf_sweep_append(row, n, &len, ",error: %s\n", m);
    }
    return PF_OK;
}
