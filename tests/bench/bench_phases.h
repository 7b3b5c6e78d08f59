/* Interleaved patch-vs-stock step timing shared by the ODE benchmarks of pf-bench (bench_ode.c,
 * bench_scenes.c): rounds of steps alternate between the two runs (stock first in even rounds,
 * patch first in odd ones), each round's wall time and per-phase times (pfSceneStepTiming) are
 * kept, and one JSON line compares the fastest rounds and the medians. */
#ifndef PF_BENCH_PHASES_H
#define PF_BENCH_PHASES_H

#include "pf_scene.h"

#include <stddef.h>

/// Largest number of measured rounds.
#define PF_BENCH_MAX_ROUNDS 16

/** One step of a benchmarked run: adds its phase times to *tm and returns the number of
 *  patches of the step (pf_ode_patch_count), or a negative status on failure. */
typedef int (*pfBenchStepFn)(void *run, pfSceneStepTiming *tm);

/// The measured rounds of one run (stock or patch).
typedef struct pfBenchSide {
    double step_s[PF_BENCH_MAX_ROUNDS];           ///< wall time of each round [s]
    pfSceneStepTiming phase[PF_BENCH_MAX_ROUNDS]; ///< phase times of each round
    long long patches;                            ///< patch-steps over all measured rounds
    int rounds;                                   ///< rounds measured
} pfBenchSide;

/** Time `stock` and `patch` (opaque runs stepped by step): warm steps of each, then rounds
 *  (<= PF_BENCH_MAX_ROUNDS) of per steps each, interleaved. label names the run in the progress
 *  messages on stderr. Returns 0, or the first negative status of step. */
int pf_bench_run_pair(const char *label, pfBenchStepFn step, void *stock, void *patch, int warm,
                      int rounds, int per, pfBenchSide *out_stock, pfBenchSide *out_patch);

/** Make a run ready for its next round, outside the timing (a replay restores its state here);
 *  returns 0 or a negative status. */
typedef int (*pfBenchPrepFn)(void *run);

/** pf_bench_run_pair for runs that replay one state: before every round of each run, and before
 *  each of warm_rounds untimed rounds of it that come first (their allocations and caches then
 *  settle outside the timing), prep(run) and no step is timed; then the measured rounds,
 *  interleaved as by pf_bench_run_pair. Returns 0, or the first negative status of prep or
 *  step. */
int pf_bench_run_replay(const char *label, pfBenchStepFn step, pfBenchPrepFn prep, void *stock,
                        void *patch, int warm_rounds, int rounds, int per, pfBenchSide *out_stock,
                        pfBenchSide *out_patch);

/** Print one JSON line: {"name":name, <extra>, the step times and ratio (fastest round and
 *  median), per-phase us per step and share for both runs (fastest round), cost per body and
 *  step}. extra: preformatted JSON members without surrounding commas ("" for none). */
void pf_bench_print_pair(const char *name, const char *extra, int bodies, int per,
                         const pfBenchSide *stock, const pfBenchSide *patch);

/** Restrict the pair benchmarks to the lines named in only, one name or several separated by
 *  commas (NULL: run all); for profiling one scene, or comparing a few lines within one run
 *  (pf-bench --only NAME[,NAME...]). only must outlive the run. */
void pf_bench_set_only(const char *only);
/// 1 if the line name is to be run (pf_bench_set_only), else 0; counts the lines selected.
int pf_bench_selected(const char *name);
/** After the run: the first name of the --only list that no line matched, copied into buf (size
 *  bytes) and returned; NULL if every name matched (or no list was set). */
const char *pf_bench_unselected(char *buf, size_t size);
/** 1: step only the patch runs and print no pair lines (pf-bench --patch-only, for a profile of
 *  the patch step alone). */
void pf_bench_set_patch_only(int on);
/** 1: step only the stock runs and print no pair lines (pf-bench --stock-only: the same profile
 *  of the stock step, to compare with --patch-only's). */
void pf_bench_set_stock_only(int on);
/// 1 if pf_bench_set_only restricted the run to one line.
int pf_bench_restricted(void);

/** The benchmark's clock, for every timed figure of pf-bench including the scenes' phases: 0 (the
 *  default) wall time (CLOCK_MONOTONIC), 1 the thread's CPU time (CLOCK_THREAD_CPUTIME_ID;
 *  pf-bench --cpu-clock), which other processes' load on a shared machine does not inflate. */
void pf_bench_set_cpu_clock(int on);
/// Name of the clock in use for the JSON lines: "monotonic" or "thread_cpu".
const char *pf_bench_clock_name(void);
/// The benchmark's clock in seconds (pf_bench_set_cpu_clock).
double pf_bench_now(void);

#endif
