/* Interleaved patch-vs-stock step timing and its JSON line (bench_phases.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include "bench_phases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *g_only;
static int g_patch_only, g_stock_only;

void pf_bench_set_patch_only(int on)
{
    g_patch_only = on;
}

void pf_bench_set_stock_only(int on)
{
    g_stock_only = on;
}

void pf_bench_set_only(const char *only)
{
    g_only = only;
}

/* The --only list's entries matched by a line, a bit each (pf_bench_unselected). */
static unsigned long g_matched;

/* The next entry of a comma-separated list after p (NULL: none). */
static const char *next_entry(const char *p)
{
    const char *c = strchr(p, ',');
    return c ? c + 1 : NULL;
}

/* Length of the list entry at p. */
static size_t entry_len(const char *p)
{
    const char *c = strchr(p, ',');
    return c ? (size_t)(c - p) : strlen(p);
}

int pf_bench_selected(const char *name)
{
    int on = !g_only;
    int k = 0;
    for (const char *p = g_only; p; p = next_entry(p), ++k)
        if (entry_len(p) == strlen(name) && strncmp(p, name, entry_len(p)) == 0) {
            on = 1;
            if (k < (int)(8 * sizeof g_matched)) g_matched |= 1ul << k;
        }
    return on;
}

const char *pf_bench_unselected(char *buf, size_t size)
{
    int k = 0;
    for (const char *p = g_only; p; p = next_entry(p), ++k)
        if (k >= (int)(8 * sizeof g_matched) || !(g_matched & (1ul << k))) {
            snprintf(buf, size, "%.*s", (int)entry_len(p), p);
            return buf;
        }
    return NULL;
}

int pf_bench_restricted(void)
{
    return g_only != NULL;
}

static clockid_t g_clock = CLOCK_MONOTONIC;

void pf_bench_set_cpu_clock(int on)
{
    g_clock = on ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    pf_scene_set_timing_clock(on);
}

const char *pf_bench_clock_name(void)
{
    return g_clock == CLOCK_MONOTONIC ? "monotonic" : "thread_cpu";
}

double pf_bench_now(void)
{
    struct timespec ts;
    clock_gettime(g_clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run_block(pfBenchStepFn step, void *run, int n, pfSceneStepTiming *tm, double *wall,
                     long long *patches)
{
    double t0 = pf_bench_now();
    for (int i = 0; i < n; ++i) {
        int np = step(run, tm);
        if (np < 0) return np;
        if (patches) *patches += np;
    }
    *wall = pf_bench_now() - t0;
    return 0;
}

/* The measured rounds of pf_bench_run_pair and pf_bench_run_replay: prep (may be NULL) before
 * each block, untimed. */
static int run_rounds(const char *label, pfBenchStepFn step, pfBenchPrepFn prep, void *stock,
                      void *patch, int rounds, int per, pfBenchSide *out_stock,
                      pfBenchSide *out_patch)
{
    int rc;
    for (int r = 0; r < rounds; ++r) {
        /* alternate which run goes first, so a load change hits both alike */
        for (int k = 0; k < 2; ++k) {
            int is_patch = (k == 0) == (r % 2 == 1);
            pfBenchSide *side = is_patch ? out_patch : out_stock;
            void *run = is_patch ? patch : stock;
            if ((g_patch_only && !is_patch) || (g_stock_only && is_patch)) continue;
            if (prep && (rc = prep(run)) < 0) return rc;
            rc = run_block(step, run, per, &side->phase[r], &side->step_s[r], &side->patches);
            if (rc < 0) return rc;
        }
        out_stock->rounds = out_patch->rounds = r + 1;
        fprintf(stderr, "pf-bench: %s round %d/%d done\n", label, r + 1, rounds);
    }
    return 0;
}

/* Both sides cleared, and the rounds within PF_BENCH_MAX_ROUNDS. */
static int begin_sides(int rounds, pfBenchSide *out_stock, pfBenchSide *out_patch)
{
    memset(out_stock, 0, sizeof *out_stock);
    memset(out_patch, 0, sizeof *out_patch);
    return rounds > PF_BENCH_MAX_ROUNDS ? PF_BENCH_MAX_ROUNDS : rounds;
}

int pf_bench_run_pair(const char *label, pfBenchStepFn step, void *stock, void *patch, int warm,
                      int rounds, int per, pfBenchSide *out_stock, pfBenchSide *out_patch)
{
    rounds = begin_sides(rounds, out_stock, out_patch);
    pfSceneStepTiming scratch = {0};
    double wall;
    int rc;
    if ((rc = run_block(step, stock, g_patch_only ? 0 : warm, &scratch, &wall, NULL)) < 0)
        return rc;
    if ((rc = run_block(step, patch, g_stock_only ? 0 : warm, &scratch, &wall, NULL)) < 0)
        return rc;
    return run_rounds(label, step, NULL, stock, patch, rounds, per, out_stock, out_patch);
}

int pf_bench_run_replay(const char *label, pfBenchStepFn step, pfBenchPrepFn prep, void *stock,
                        void *patch, int warm_rounds, int rounds, int per, pfBenchSide *out_stock,
                        pfBenchSide *out_patch)
{
    rounds = begin_sides(rounds, out_stock, out_patch);
    pfSceneStepTiming scratch = {0};
    double wall;
    int rc;
    for (int w = 0; w < warm_rounds; ++w)
        for (int k = 0; k < 2; ++k) {
            void *run = k ? patch : stock;
            if ((g_patch_only && !k) || (g_stock_only && k)) continue;
            if ((rc = prep(run)) < 0) return rc;
            if ((rc = run_block(step, run, per, &scratch, &wall, NULL)) < 0) return rc;
        }
    return run_rounds(label, step, prep, stock, patch, rounds, per, out_stock, out_patch);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double tmp[PF_BENCH_MAX_ROUNDS];
    memcpy(tmp, v, (size_t)n * sizeof *v);
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

static int fastest(const pfBenchSide *s)
{
    int best = 0;
    for (int r = 1; r < s->rounds; ++r)
        if (s->step_s[r] < s->step_s[best]) best = r;
    return best;
}

/* "<p>_collide_us":..,"<p>_collide_share":.. for the phases of the fastest round; other = the
 * rest of the step (loads, emptying the contact group, the scene's bookkeeping) */
static void print_phases(const char *p, const pfBenchSide *s, int per)
{
    int b = fastest(s);
    const pfSceneStepTiming *t = &s->phase[b];
    double total = s->step_s[b];
    double ph[5] = {t->collide_s, t->before_step_s, t->solver_s, t->after_step_s, 0.0};
    ph[4] = total - ph[0] - ph[1] - ph[2] - ph[3];
    static const char *const names[5] = {"collide", "before_step", "solver", "after_step", "other"};
    for (int i = 0; i < 5; ++i)
        printf(",\"%s_%s_us\":%.2f,\"%s_%s_share\":%.3f", p, names[i], 1e6 * ph[i] / per, p,
               names[i], total > 0 ? ph[i] / total : 0.0);
}

void pf_bench_print_pair(const char *name, const char *extra, int bodies, int per,
                         const pfBenchSide *stock, const pfBenchSide *patch)
{
    int n = stock->rounds < patch->rounds ? stock->rounds : patch->rounds;
    if (n < 1 || per < 1 || g_patch_only || g_stock_only) return;
    double ratio[PF_BENCH_MAX_ROUNDS];
    for (int r = 0; r < n; ++r)
        ratio[r] = patch->step_s[r] / stock->step_s[r];
    double s_min = stock->step_s[fastest(stock)], p_min = patch->step_s[fastest(patch)];
    double s_med = median(stock->step_s, n), p_med = median(patch->step_s, n);
    printf("{\"name\":\"%s\"%s%s,\"step_ratio_patch_over_stock\":%.4f,"
           "\"step_ratio_median_of_rounds\":%.4f,\"stock_step_us\":%.2f,"
           "\"stock_step_us_median\":%.2f,\"patch_step_us\":%.2f,\"patch_step_us_median\":%.2f,"
           "\"stock_ns_per_body_step\":%.1f,\"patch_ns_per_body_step\":%.1f,\"bodies\":%d,"
           "\"rounds\":%d,\"steps_per_round\":%d,\"patches_per_step\":%.1f,\"clock\":\"%s\"",
           name, extra[0] ? "," : "", extra, p_min / s_min, median(ratio, n), 1e6 * s_min / per,
           1e6 * s_med / per, 1e6 * p_min / per, 1e6 * p_med / per, 1e9 * s_min / per / bodies,
           1e9 * p_min / per / bodies, bodies, n, per, (double)patch->patches / ((double)n * per),
           pf_bench_clock_name());
    print_phases("stock", stock, per);
    print_phases("patch", patch, per);
    printf("}\n");
    fflush(stdout);
}
