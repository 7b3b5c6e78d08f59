/* Trajectories and comparison metrics (pf_metrics.h). */
#include "pf_metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pf_trajectory_column(const pfTrajectory *tr, const char *name)
{
    for (int c = 0; c < tr->ncol; ++c)
        if (!strcmp(tr->cols[c], name)) return c;
    return -1;
}

int pf_trajectory_interp(const pfTrajectory *tr, int c, double t, long *cursor, double *out)
{
    if (tr->nrow < 2 || t < pf_trajectory_at(tr, 0, 0) - 1e-12 ||
        t > pf_trajectory_at(tr, tr->nrow - 1, 0) + 1e-12)
        return 0;
    long i = *cursor;
    while (i + 2 < tr->nrow && pf_trajectory_at(tr, i + 1, 0) < t)
        ++i;
    while (i > 0 && pf_trajectory_at(tr, i, 0) > t)
        --i;
    *cursor = i;
    double t0 = pf_trajectory_at(tr, i, 0), t1 = pf_trajectory_at(tr, i + 1, 0);
    double a = t1 > t0 ? (t - t0) / (t1 - t0) : 0.0;
    if (a < 0.0) a = 0.0;
    if (a > 1.0) a = 1.0;
    *out = (1.0 - a) * pf_trajectory_at(tr, i, c) + a * pf_trajectory_at(tr, i + 1, c);
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* column roles                                                                              */
/* ---------------------------------------------------------------------------------------- */

static int is_angle(const char *n)
{
    return !strcmp(n, "theta") || !strcmp(n, "angle") || !strcmp(n, "yaw") || !strcmp(n, "phi") ||
           !strcmp(n, "psi");
}

int pf_metrics_is_position(const char *n)
{
    static const char *const pos[] = {"x",  "y",  "z",     "theta", "angle", "phi",   "psi", "yaw",
                                      "X",  "Y",  "x1",    "x2",    "y1",    "y2",    "z1",  "z2",
                                      "px", "py", "pos_x", "pos_y", "rel",   "x_rel", "s"};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; ++i)
        if (!strcmp(n, pos[i])) return 1;
    return 0;
}

int pf_metrics_is_velocity(const char *n)
{
    return n[0] == 'v' || n[0] == 'w' || !strncmp(n, "omega", 5) || !strcmp(n, "rate") ||
           strstr(n, "dot") != NULL || !strncmp(n, "dx", 2) || !strncmp(n, "dtheta", 6);
}

int pf_metrics_is_state(const char *n)
{
    return strstr(n, "state") || strstr(n, "stick") || !strcmp(n, "slip") || !strcmp(n, "mode");
}

const char *pf_metrics_unit(const char *n)
{
    if (pf_metrics_is_state(n)) return "-";
    if (is_angle(n)) return "rad";
    if (!strncmp(n, "omega", 5) || n[0] == 'w' || !strcmp(n, "rate")) return "rad/s";
    if (pf_metrics_is_velocity(n)) return "m/s";
    if (pf_metrics_is_position(n)) return "m";
    return "SI";
}

int pf_metrics_velocity_of(const pfTrajectory *tr, const char *pos)
{
    char cand[8][64];
    int nc = 0;
    if (is_angle(pos)) {
        static const char *const ang[] = {"omega", "w", "wz", "rate", "omega_z"};
        for (size_t i = 0; i < sizeof ang / sizeof ang[0]; ++i)
            snprintf(cand[nc++], 64, "%s", ang[i]);
    } else if (!strcmp(pos, "x") || !strcmp(pos, "X")) {
        snprintf(cand[nc++], 64, "vx");
        snprintf(cand[nc++], 64, "v");
    } else {
        snprintf(cand[nc++], 64, "v%s", pos);
        snprintf(cand[nc++], 64, "v%s", pos + 1);
        snprintf(cand[nc++], 64, "v_%s", pos);
    }
    snprintf(cand[nc++], 64, "%sdot", pos);
    snprintf(cand[nc++], 64, "%s_dot", pos);
    for (int i = 0; i < nc; ++i) {
        int c = pf_trajectory_column(tr, cand[i]);
        if (c > 0) return c;
    }
    return -1;
}

int pf_metrics_positions(const pfTrajectory *ref, int *cols, int max)
{
    int n = 0;
    for (int c = 1; c < ref->ncol && n < max; ++c)
        if (pf_metrics_is_position(ref->cols[c])) cols[n++] = c;
    if (n == 0) /* unknown naming: every column that is not a velocity or a flag */
        for (int c = 1; c < ref->ncol && n < max && n < 3; ++c)
            if (!pf_metrics_is_velocity(ref->cols[c]) && !pf_metrics_is_state(ref->cols[c]))
                cols[n++] = c;
    return n;
}

/* ---------------------------------------------------------------------------------------- */
/* metrics                                                                                   */
/* ---------------------------------------------------------------------------------------- */

double pf_metrics_range(const pfTrajectory *tr, int c)
{
    double lo = INFINITY, hi = -INFINITY;
    for (long r = 0; r < tr->nrow; ++r) {
        double v = pf_trajectory_at(tr, r, c);
        if (isfinite(v)) lo = fmin(lo, v), hi = fmax(hi, v);
    }
    return hi - lo;
}

long pf_metrics_rms(const pfTrajectory *run, const pfTrajectory *ref, int ref_col, double *rms_abs,
                    double *range)
{
    *range = pf_metrics_range(ref, ref_col);
    *rms_abs = NAN;
    int mc = pf_trajectory_column(run, ref->cols[ref_col]);
    if (mc < 0) return 0;
    long cur = 0, cnt = 0;
    double s = 0.0;
    for (long r = 0; r < ref->nrow; ++r) {
        double q;
        if (!pf_trajectory_interp(run, mc, pf_trajectory_at(ref, r, 0), &cur, &q)) continue;
        double d = q - pf_trajectory_at(ref, r, ref_col);
        if (!isfinite(d)) continue;
        s += d * d;
        cnt++;
    }
    if (cnt) *rms_abs = sqrt(s / (double)cnt);
    return cnt;
}

int pf_metrics_transitions(const pfTrajectory *tr, int c, double min_phase, double *t, int *dir,
                           int max)
{
    int n = 0, state = -1;
    for (long i = 0; i < tr->nrow; ++i) {
        int v = pf_trajectory_at(tr, i, c) > 0.5;
        if (v == state) continue;
        double ti = pf_trajectory_at(tr, i, 0);
        long j = i;
        while (j < tr->nrow && (pf_trajectory_at(tr, j, c) > 0.5) == v &&
               pf_trajectory_at(tr, j, 0) - ti < min_phase)
            ++j;
        if (j < tr->nrow && (pf_trajectory_at(tr, j, c) > 0.5) != v) continue; /* a glitch */
        if (state >= 0 && n < max) {
            t[n] = ti;
            dir[n] = v ? 1 : -1;
            n++;
        }
        state = v;
    }
    return n;
}

/* Largest distance from a transition of set a to the nearest one of the same direction in b. */
static double directed(const double *ta, const int *da, int na, const double *tb, const int *db,
                       int nb)
{
    double worst = 0.0;
    for (int i = 0; i < na; ++i) {
        double best = INFINITY;
        for (int j = 0; j < nb; ++j)
            if (db[j] == da[i]) best = fmin(best, fabs(ta[i] - tb[j]));
        worst = fmax(worst, best);
    }
    return worst;
}

double pf_metrics_stick_timing(const pfTrajectory *run, const pfTrajectory *ref, double min_phase,
                               int *trans, int *trans_ref)
{
    *trans = *trans_ref = 0;
    int sr = pf_trajectory_column(ref, "stick"), sm = pf_trajectory_column(run, "stick");
    if (sr <= 0 || sm <= 0) return NAN;
    /* a trajectory has at most one transition per row */
    double *ta = malloc(sizeof *ta * (size_t)(ref->nrow + run->nrow + 2));
    int *da = malloc(sizeof *da * (size_t)(ref->nrow + run->nrow + 2));
    if (!ta || !da) {
        free(ta);
        free(da);
        return NAN;
    }
    double *tb = ta + ref->nrow + 1;
    int *db = da + ref->nrow + 1;
    *trans_ref = pf_metrics_transitions(ref, sr, min_phase, ta, da, (int)ref->nrow + 1);
    *trans = pf_metrics_transitions(run, sm, min_phase, tb, db, (int)run->nrow + 1);
    double timing = NAN;
    if (*trans || *trans_ref)
        timing = fmax(directed(ta, da, *trans_ref, tb, db, *trans),
                      directed(tb, db, *trans, ta, da, *trans_ref));
    free(ta);
    free(da);
    return timing;
}

int pf_metrics_energy(const pfTrajectory *run, const pfTrajectory *ref, double *drift,
                      double *final)
{
    *drift = *final = NAN;
    int er = pf_trajectory_column(ref, "energy"), em = pf_trajectory_column(run, "energy");
    if (er <= 0 || em <= 0) return -1;
    double lo = INFINITY, hi = -INFINITY, s = 0.0, last = NAN;
    long cnt = 0, cur = 0;
    for (long r = 0; r < ref->nrow; ++r) {
        double e = pf_trajectory_at(ref, r, er), v;
        lo = fmin(lo, e);
        hi = fmax(hi, e);
        if (!pf_trajectory_interp(run, em, pf_trajectory_at(ref, r, 0), &cur, &v) || !isfinite(v))
            continue;
        s += (v - e) * (v - e);
        last = v - e;
        cnt++;
    }
    if (!cnt || !(hi > lo)) return -1;
    *drift = sqrt(s / (double)cnt) / (hi - lo);
    *final = last / (hi - lo);
    return 0;
}

pfMetricsCompare pf_metrics_compare(const pfTrajectory *run, const pfTrajectory *ref,
                                    double min_phase)
{
    pfMetricsCompare m = {NAN, -1, NAN, 0, 0, NAN, NAN};
    int pos[64];
    int npos = pf_metrics_positions(ref, pos, 64);
    for (int k = 0; k < npos; ++k) {
        double abs, range;
        if (!pf_metrics_rms(run, ref, pos[k], &abs, &range) || range < PF_METRICS_REST_RANGE)
            continue;
        double e = abs / range;
        if (isnan(m.rms) || e > m.rms) {
            m.rms = e;
            m.rms_col = pos[k];
        }
    }
    m.timing = pf_metrics_stick_timing(run, ref, min_phase, &m.trans, &m.trans_ref);
    pf_metrics_energy(run, ref, &m.energy_drift, &m.energy_final);
    return m;
}
