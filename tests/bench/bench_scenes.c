/* The realistic scenes of pf-bench, built by the shared scene module (scenes/, pf_scene.h), patch
 * friction (adapter coupling) against stock friction under dWorldQuickStep (20 iterations) and
 * dWorldStep, ODE's defaults otherwise:
 *   scene_bin_<stepper>:     the bin (pf_scene_bin.c), 120 mixed bodies dropped into a walled
 *                            bin; timed after a warm-up in which they fall and start to pile up;
 *   scene_pyramid_<stepper>: the 15-box pyramid (pf_scene_stack.c, case pyramid) at rest.
 * These two step a stock and a patch run side by side from the start: the bin's pile is chaotic,
 * so after the warm-up the two runs time different piles. Their fixed-state replays time one
 * pile for both:
 *   scene_bin_replay_<stepper>, scene_pyramid_replay_<stepper>: the stock run alone is warmed
 *                            up as above and its state saved (bench_snapshot.h: the bodies, the
 *                            space's geom order, ODE's random seed); before every round, each
 *                            run (the stock scene and a patch scene built alike) is restored to
 *                            that state with its adapter's pairs forgotten (pf_ode_reset_pairs),
 *                            untimed, so every round of either run steps the same pile from the
 *                            same state (bit for bit the same steps in each round of one run,
 *                            test_bench_snapshot). After each restore one step is taken untimed
 *                            (REPLAY_LEAD_IN: the step after a restore is atypical), so the
 *                            timed window starts one step later than the bin line's
 *                            (sim_time_start). One untimed round of each run comes first.
 * Each line has the per-phase breakdown of bench_phases.h (the scene's own step timing,
 * pf_scene_set_step_timing). */
#include "bench_phases.h"
#include "bench_snapshot.h"

#include <stdio.h>
#include <stdlib.h>

/* The bin's bodies fall from up to 2.6 m; the lower layers land from about 0.6 s on and the pile
 * grows until about 2 s. QuickStep is timed from 1.0 s (warm-up 1000 steps, rounds of 20
 * steps). dWorldStep's direct LCP over the pile's one island grows steeply with the contacts
 * (measured with stock friction on this machine: about 4 ms per step at 0.75 s, 1.2 s of
 * simulation in more than 100 s), so it is timed earlier, from 0.8 s, in rounds of 10 steps,
 * while the first layers settle: its lines are the start of the pile, not the full pile. */
static const int BIN_WARM[2] = {1000, 800}, BIN_ROUNDS[2] = {5, 3}, BIN_PER[2] = {20, 10};
/* The replays' rounds all step the same pile, so more of them cost little: the window of the bin
 * lines' first round (from 1.0 s / 0.8 s, 20 / 10 steps, one lead-in step later), 9 / 7 times.
 * The bin lines' later rounds are later windows: under QuickStep a step of the pile costs about
 * the same from one step to the next, but dWorldStep's Dantzig solver does not (stock friction,
 * steps 0.801-0.812 s: 2.4 to 33 ms each), so a dWorldStep figure depends on its window as much
 * as on the pile. */
static const int REPLAY_ROUNDS[2] = {9, 7};

void pf_bench_scenes(int quick);

/* pfBenchStepFn over a pfScene */
static int scene_step(void *run, pfSceneStepTiming *tm)
{
    pfScene *s = run;
    pfError err;
    pf_scene_set_step_timing(s, tm);
    int rc = pf_scene_step(s, pf_scene_default_dt(s), &err);
    pf_scene_set_step_timing(s, NULL);
    if (rc != PF_OK) {
        fprintf(stderr, "pf-bench: %s: %s\n", pf_scene_name(s), err.message);
        return rc;
    }
    return pf_ode_patch_count(pf_scene_ode_context(s));
}

/* The JSON members a scene line adds to pf_bench_print_pair's: the scene, its stepper and step,
 * the warm-up, and for a replay line (lead_in >= 0) the replay's own. */
static void scene_extra(char *buf, size_t size, const char *scene, const char *case_name,
                        const pfSceneParam *kv, double dt, int warm, int lead_in, const char *what)
{
    const int q = kv[1].value[0] == 'q'; /* "quick" / "world" */
    char replay[64] = "", lead[64] = "";
    if (lead_in >= 0) {
        snprintf(replay, sizeof replay, "\"replay\":\"stock_snapshot\",");
        snprintf(lead, sizeof lead, "\"lead_in_steps\":%d,", lead_in);
    }
    snprintf(buf, size,
             "\"scene\":\"%s\",\"case\":\"%s\",\"stepper\":\"%s\",\"iterations\":%s,"
             "\"dt\":%g,\"coupling\":\"adapter\",%s\"warmup_steps\":%d,%s\"sim_time_start\":%g,"
             "\"what\":\"%s\"",
             scene, case_name, q ? "quickstep" : "worldstep", q ? "20" : "null", dt, replay, warm,
             lead, (warm + (lead_in > 0 ? lead_in : 0)) * dt, what);
}

static void scene_pair(const char *name, const char *scene, const char *case_name,
                       const pfSceneParam *kv, int nkv, int bodies, const char *what, int warm,
                       int rounds, int per)
{
    pfScene *st = NULL, *pa = NULL;
    pfError err;
    if (!pf_bench_selected(name)) return;
    if (pf_scene_create(scene, case_name, PF_ODE_MODE_STOCK, kv, nkv, &st, &err) != PF_OK ||
        pf_scene_create(scene, case_name, PF_ODE_MODE_EXACT, kv, nkv, &pa, &err) != PF_OK) {
        fprintf(stderr, "pf-bench: %s: %s\n", name, err.message);
        pf_scene_destroy(st);
        return;
    }
    pfBenchSide ss, sp;
    if (pf_bench_run_pair(name, scene_step, st, pa, warm, rounds, per, &ss, &sp) == 0) {
        char extra[640];
        scene_extra(extra, sizeof extra, scene, case_name, kv, pf_scene_default_dt(st), warm, -1,
                    what);
        pf_bench_print_pair(name, extra, bodies, per, &ss, &sp);
    }
    pf_scene_destroy(st);
    pf_scene_destroy(pa);
}

/* A replayed run: its scene and the state restored before each of its rounds. */
typedef struct ReplayRun {
    pfScene *s;
    const pfBenchSnapshot *snap;
} ReplayRun;

/* pfBenchStepFn over a ReplayRun */
static int replay_step(void *run, pfSceneStepTiming *tm)
{
    return scene_step(((ReplayRun *)run)->s, tm);
}

/* Untimed steps after each restore. The first step after a restore is not a typical one: every
 * geom's box is recomputed (the restore marks them all moved) and every patch pair is a first
 * contact. Measured in the bin (QuickStep, best of 7, thread CPU time): that step took 1.32x the
 * stock step with patch friction, the next 39 steps 1.8-2.1x, so timing it would bias the ratio
 * down by about 2 %. */
enum { REPLAY_LEAD_IN = 1 };

/* pfBenchPrepFn: the snapshot restored, then the lead-in steps */
static int replay_prep(void *run)
{
    ReplayRun *r = run;
    char why[256];
    if (pf_bench_snapshot_restore(r->s, r->snap, why, sizeof why) != 0) {
        fprintf(stderr, "pf-bench: %s\n", why);
        return PF_ERR_STATE;
    }
    for (int i = 0; i < REPLAY_LEAD_IN; ++i) {
        int rc = scene_step(r->s, NULL);
        if (rc < 0) return rc;
    }
    return 0;
}

/* A fixed-state replay line: the stock run warmed up by warm steps, its state saved, then rounds
 * of per steps of both runs, each from that state. */
static void scene_replay(const char *name, const char *scene, const char *case_name,
                         const pfSceneParam *kv, int nkv, int bodies, const char *what, int warm,
                         int rounds, int per)
{
    pfScene *st = NULL, *pa = NULL;
    pfError err;
    if (!pf_bench_selected(name)) return;
    pfBenchSnapshot *snap = malloc(sizeof *snap);
    if (!snap ||
        pf_scene_create(scene, case_name, PF_ODE_MODE_STOCK, kv, nkv, &st, &err) != PF_OK ||
        pf_scene_create(scene, case_name, PF_ODE_MODE_EXACT, kv, nkv, &pa, &err) != PF_OK) {
        fprintf(stderr, "pf-bench: %s: %s\n", name, snap ? err.message : "out of memory");
        pf_scene_destroy(st);
        free(snap);
        return;
    }
    char why[256];
    int rc = 0;
    for (int i = 0; i < warm && rc >= 0; ++i)
        rc = scene_step(st, NULL);
    if (rc >= 0 && pf_bench_snapshot_take(st, snap, why, sizeof why) != 0) {
        fprintf(stderr, "pf-bench: %s: %s\n", name, why);
        rc = -1;
    }
    ReplayRun rs = {st, snap}, rp = {pa, snap};
    pfBenchSide ss, sp;
    if (rc >= 0 && pf_bench_run_replay(name, replay_step, replay_prep, &rs, &rp, 1, rounds, per,
                                       &ss, &sp) == 0) {
        char extra[640];
        scene_extra(extra, sizeof extra, scene, case_name, kv, pf_scene_default_dt(st), warm,
                    REPLAY_LEAD_IN, what);
        pf_bench_print_pair(name, extra, bodies, per, &ss, &sp);
    }
    pf_scene_destroy(st);
    pf_scene_destroy(pa);
    free(snap);
}

void pf_bench_scenes(int quick)
{
    static const char *const steppers[2] = {"quick", "world"};
    for (int k = 0; k < 2; ++k) {
        char name[64];
        pfSceneParam bin[] = {{"coupling", "adapter"}, {"stepper", steppers[k]}, {"count", "120"}};
        snprintf(name, sizeof name, "scene_bin_%sstep", steppers[k]);
        scene_pair(name, "bin", "drop", bin, 3, 120,
                   "120 mixed bodies (box, sphere, capsule, cylinder, trimesh) piling in a bin",
                   quick ? 2 : BIN_WARM[k], quick ? 2 : BIN_ROUNDS[k], quick ? 2 : BIN_PER[k]);
        snprintf(name, sizeof name, "scene_bin_replay_%sstep", steppers[k]);
        scene_replay(
            name, "bin", "drop", bin, 3, 120,
            "the bin's pile of 120 mixed bodies, every round restored to the stock run's state "
            "after warmup_steps",
            quick ? 2 : BIN_WARM[k], quick ? 2 : REPLAY_ROUNDS[k], quick ? 2 : BIN_PER[k]);
        pfSceneParam pyr[] = {{"coupling", "adapter"}, {"stepper", steppers[k]}};
        snprintf(name, sizeof name, "scene_pyramid_%sstep", steppers[k]);
        scene_pair(name, "stack", "pyramid", pyr, 2, 15, "15 cubes in rows 5-4-3-2-1 at rest",
                   quick ? 2 : 100, quick ? 2 : 7, quick ? 5 : 100);
        snprintf(name, sizeof name, "scene_pyramid_replay_%sstep", steppers[k]);
        scene_replay(
            name, "stack", "pyramid", pyr, 2, 15,
            "15 cubes in rows 5-4-3-2-1 at rest, every round restored to the stock run's state "
            "after warmup_steps",
            quick ? 2 : 100, quick ? 2 : 7, quick ? 5 : 100);
    }
}
