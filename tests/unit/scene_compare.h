/* Helpers of the scene tests (test_scene_*.c): run a pf_scene.h scene, keep its CSV rows and
 * metrics, and compare columns against a reference trajectory sampled at the same times. */
#ifndef SCENE_COMPARE_H
#define SCENE_COMPARE_H

#include "pf_ref_scenes.h"
#include "pf_scene.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct SceneRun {
    int ncol;
    const char *const *cols;
    long n;
    double *rows;
    int nm;
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    double wall; /* unused, kept for figures */
} SceneRun;

/* Run scene/case in mode for T at dt, recording the row after every step (and at t = 0). */
static inline void scene_run(SceneRun *r, const char *scene, const char *cs, pfOdeMode mode,
                             const pfSceneParam *kv, int nkv, double T, double dt)
{
    pfError err;
    pfScene *s = NULL;
    int st = pf_scene_create(scene, cs, mode, kv, nkv, &s, &err);
    ck_assert_msg(st == PF_OK && s != NULL, "%s %s: %s", scene, cs, err.message);
    long n = (long)ceil(T / dt - 1e-9);
    r->ncol = pf_scene_csv_header(s, &r->cols);
    r->rows = malloc((size_t)((n + 1) * r->ncol) * sizeof *r->rows);
    ck_assert_ptr_nonnull(r->rows);
    r->n = 0;
    pf_scene_csv_row(s, r->rows, r->ncol);
    r->n = 1;
    for (long i = 0; i < n; ++i) {
        ck_assert_msg(pf_scene_step(s, dt, &err) == PF_OK, "%s", err.message);
        pf_scene_csv_row(s, r->rows + r->n * r->ncol, r->ncol);
        r->n++;
    }
    r->nm = pf_scene_metrics(s, r->m, PF_SCENE_MAX_METRICS);
    pf_scene_destroy(s);
}

static inline void scene_run_free(SceneRun *r)
{
    free(r->rows);
    r->rows = NULL;
}

static inline double scene_metric(const SceneRun *r, const char *name)
{
    for (int i = 0; i < r->nm; ++i)
        if (!strcmp(r->m[i].name, name)) return r->m[i].value;
    ck_abort_msg("metric %s missing", name);
    return NAN;
}

static inline int scene_col(const SceneRun *r, const char *name)
{
    for (int i = 0; i < r->ncol; ++i)
        if (!strcmp(r->cols[i], name)) return i;
    ck_abort_msg("column %s missing", name);
    return -1;
}

/// RMS of the vector error over the samples, and the motion amplitude it is measured against.
typedef struct Cmp {
    double rms;  ///< sqrt(mean |p_scene - p_ref|^2)
    double amp;  ///< max |p_ref(t) - p_ref(0)|
    double rel;  ///< rms / amp
    double maxe; ///< max |p_scene - p_ref|
} Cmp;

/* Compare the columns names[0..k-1] (a vector) of the scene run and the reference, which must
 * have the same sample times (checked). */
static inline Cmp scene_compare(const SceneRun *s, const pfRefResult *ref, const char *const *names,
                                int k)
{
    Cmp c = {0, 0, 0, 0};
    ck_assert_msg(s->n == ref->n, "scene has %ld samples, reference %ld", s->n, ref->n);
    int ic[8], ir[8];
    for (int j = 0; j < k; ++j) {
        ic[j] = scene_col(s, names[j]);
        ir[j] = pf_ref_column(ref, names[j]);
        ck_assert_int_ge(ir[j], 0);
    }
    double sum = 0;
    for (long i = 0; i < s->n; ++i) {
        const double *a = s->rows + i * s->ncol, *b = ref->rows + i * ref->ncol;
        ck_assert_double_eq_tol(a[0], b[0], 1e-9);
        double e2 = 0, d2 = 0;
        for (int j = 0; j < k; ++j) {
            double e = a[ic[j]] - b[ir[j]], d = b[ir[j]] - ref->rows[ir[j]];
            e2 += e * e;
            d2 += d * d;
        }
        sum += e2;
        c.amp = fmax(c.amp, sqrt(d2));
        c.maxe = fmax(c.maxe, sqrt(e2));
    }
    c.rms = sqrt(sum / (double)s->n);
    c.rel = c.amp > 0 ? c.rms / c.amp : HUGE_VAL;
    return c;
}

static inline const char *mode_name(pfOdeMode m)
{
    return pf_scene_mode_name(m);
}

#endif
