/* pf-bench's fixed-state replay (tests/bench/bench_snapshot.c): a run restored from a snapshot
 * repeats bit for bit. For the scenes and warm-ups of pf-bench's replay lines (bench_scenes.c):
 * the bin's pile at 1.0 s (QuickStep) and 0.8 s (dWorldStep), and the pyramid at rest, the
 * snapshot taken of the stock run as pf-bench takes it. Then, for the stock and the patch-friction
 * run each: restore, K steps, the bodies' state; restore, K steps again: the same state bit for
 * bit, and the same patches in each step. (Not the saved run's own continuation: see
 * bench_snapshot.h.)
 *
 * Run time (RelWithDebInfo, 2 shared cores): about 10 s, mostly the bin's warm-ups. */
#include "bench_snapshot.h"
#include "pf_test_support.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

enum { MAX_K = 100 };

typedef struct Case {
    const char *scene, *case_name, *stepper, *count; /* count NULL: the scene's own */
    int warm, k;
} Case;

/* pf-bench's replay lines (bench_scenes.c): warm-ups and steps per round */
static const Case cases[] = {
    {"bin", "drop", "quick", "120", 1000, 20},
    {"bin", "drop", "world", "120", 800, 10},
    {"stack", "pyramid", "quick", NULL, 100, 100},
    {"stack", "pyramid", "world", NULL, 100, 100},
};

/* Every dynamic body's state after k steps of s, and the patch count of each step. */
typedef struct Run {
    pfBenchSnapshot end;
    int patches[MAX_K];
} Run;

static void step_k(pfScene *s, int k, Run *out)
{
    char why[256];
    pfError err;
    for (int i = 0; i < k; ++i) {
        ck_assert_msg(pf_scene_step(s, pf_scene_default_dt(s), &err) == PF_OK, "%s", err.message);
        out->patches[i] = pf_ode_patch_count(pf_scene_ode_context(s));
    }
    ck_assert_msg(pf_bench_snapshot_take(s, &out->end, why, sizeof why) == 0, "%s", why);
}

/* The bodies of a and b bit for bit; the first difference named. */
static void same_bodies(const char *what, const Run *a, const Run *b, int k)
{
    ck_assert_int_eq(a->end.nbodies, b->end.nbodies);
    for (int i = 0; i < a->end.nbodies; ++i) {
        const pfBenchBodyState *x = &a->end.body[i], *y = &b->end.body[i];
        ck_assert_msg(memcmp(x, y, sizeof *x) == 0,
                      "%s: body %d differs after %d steps: x %.17g / %.17g, v_x %.17g / %.17g",
                      what, i, k, x->pos[0], y->pos[0], x->lvel[0], y->lvel[0]);
    }
    for (int i = 0; i < k; ++i)
        ck_assert_msg(a->patches[i] == b->patches[i], "%s: step %d: %d / %d patches", what, i,
                      a->patches[i], b->patches[i]);
}

START_TEST(test_restored_run_repeats_bit_for_bit)
{
    const Case *c = &cases[_i];
    pfSceneParam kv[3] = {{"coupling", "adapter"}, {"stepper", c->stepper}, {"count", c->count}};
    const int nkv = c->count ? 3 : 2;
    pfScene *st = NULL, *pa = NULL;
    pfError err;
    ck_assert_msg(pf_scene_create(c->scene, c->case_name, PF_ODE_MODE_STOCK, kv, nkv, &st, &err) ==
                      PF_OK,
                  "%s", err.message);
    ck_assert_msg(pf_scene_create(c->scene, c->case_name, PF_ODE_MODE_EXACT, kv, nkv, &pa, &err) ==
                      PF_OK,
                  "%s", err.message);
    for (int i = 0; i < c->warm; ++i)
        ck_assert_msg(pf_scene_step(st, pf_scene_default_dt(st), &err) == PF_OK, "%s", err.message);
    char why[256];
    static pfBenchSnapshot snap;
    ck_assert_msg(pf_bench_snapshot_take(st, &snap, why, sizeof why) == 0, "%s", why);
    static Run first, second;
    char what[96];
    pfScene *runs[2] = {st, pa};
    for (int r = 0; r < 2; ++r) {
        ck_assert_msg(pf_bench_snapshot_restore(runs[r], &snap, why, sizeof why) == 0, "%s", why);
        step_k(runs[r], c->k, &first);
        ck_assert_msg(pf_bench_snapshot_restore(runs[r], &snap, why, sizeof why) == 0, "%s", why);
        step_k(runs[r], c->k, &second);
        snprintf(what, sizeof what, "%s %s %s, restored twice", c->scene, c->stepper,
                 r ? "patch" : "stock");
        same_bodies(what, &first, &second, c->k);
    }
    /* and the patch run did step: its pile moved */
    ck_assert_msg(memcmp(&snap.body[0], &second.end.body[0], sizeof snap.body[0]) != 0,
                  "the patch run's first body did not move in %d steps", c->k);
    pf_scene_destroy(st);
    pf_scene_destroy(pa);
}
END_TEST

/* A scene built otherwise is refused, and left as it was. */
START_TEST(test_restore_into_another_scene_refused)
{
    pfSceneParam a[] = {{"count", "20"}}, b[] = {{"count", "21"}};
    pfScene *s20 = NULL, *s21 = NULL, *pyr = NULL;
    pfError err;
    ck_assert_int_eq(pf_scene_create("bin", "drop", PF_ODE_MODE_STOCK, a, 1, &s20, &err), PF_OK);
    ck_assert_int_eq(pf_scene_create("bin", "drop", PF_ODE_MODE_STOCK, b, 1, &s21, &err), PF_OK);
    ck_assert_int_eq(pf_scene_create("stack", "pyramid", PF_ODE_MODE_STOCK, NULL, 0, &pyr, &err),
                     PF_OK);
    static pfBenchSnapshot snap, before, after;
    char why[256];
    ck_assert_int_eq(pf_bench_snapshot_take(s20, &snap, why, sizeof why), 0);
    ck_assert_int_eq(pf_bench_snapshot_take(s21, &before, why, sizeof why), 0);
    ck_assert_int_eq(pf_bench_snapshot_restore(s21, &snap, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "geoms") != NULL, "%s", why);
    ck_assert_int_eq(pf_bench_snapshot_take(s21, &after, why, sizeof why), 0);
    ck_assert_int_eq(memcmp(&before, &after, sizeof before), 0);
    ck_assert_int_eq(pf_bench_snapshot_restore(pyr, &snap, why, sizeof why), -1);
    pf_scene_destroy(s20);
    pf_scene_destroy(s21);
    pf_scene_destroy(pyr);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("bench_snapshot");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_restored_run_repeats_bit_for_bit, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, test_restore_into_another_scene_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
