/* A failed step of dWorldStep's Dantzig solver is not taken as a measurement
 * (pf_ode_step.c, failed_islands; docs/architecture.md, "A failed step is not a measurement").
 *
 * Debian's ODE 0.16 gives up on a degenerate pivot ("LCP internal error, s <= 0") and leaves the
 * rows it had not reached at force 0. The adapter's normal rows no longer hand it the exact zeros
 * that made a resting stack meet that (pf_ode_patch.c, normal_row_dither), so the test does not
 * wait for one: it gives up in ODE's place. This executable defines ODE's internal
 * dxSolveLCP (C++ name, exported from the executable, so it comes before libode's); it calls the
 * real solver through dlsym(RTLD_NEXT) and, in the one step chosen, then does what Debian's
 * solver does when it gives up at its first driving index: every bounded row's force 0 and the
 * message. On the ten cubes of the stack scene's offset tower at 5 ms, settled for 0.3 s, with
 * the adapter coupling, asserted step by step over 0.5 s:
 *  - the adapter reads a step as failed (pfOdeCounters.lcp_failed_pairs grows) exactly in the
 *    step in which ODE logged the error: no failure missed, none invented;
 *  - a stuck patch that carried no force in the failed step, and had a measured normal force
 *    before it, bounds its friction in the next step by that earlier force, not by the failed
 *    step's 0 (before, every patch of the island lost its friction for that step);
 *  - under QuickStep the counter stays 0 (QuickStep never gives up).
 * The figures come from ODE's own message (the scene counts it) and the patches' reports, not
 * from the adapter's decision. If the definition here does not reach ODE's stepper (a libode
 * linked with its own calls bound inside), the injected step never happens and the test fails. */
#define _GNU_SOURCE
#include "pf_scene.h"

#include <check.h>
#include <dlfcn.h>
#include <math.h>
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

#define STEPS 100    /* 0.5 s at 5 ms */
#define FAIL_STEP 60 /* the step whose solve gives up (1-based): the tower has settled */
#define MAXP 256

/* ODE's dxSolveLCP (ode/src/lcp.h, ODE 0.16): A x = b + w over n rows, the first nub unbounded,
 * b and x interleaved in pairsbx (b, x), lo and hi in pairslh. Against a shared libode (Debian's)
 * this executable's definition comes first and the real one is found with dlsym(RTLD_NEXT);
 * against a static one (the patched ODE) the link wraps the stepper's calls
 * (-Wl,--wrap=<name>, PF_TEST_WRAP_LCP) and the real one is __real_<name>. */
#define DX_SOLVE_LCP_SYM _Z10dxSolveLCPP22dxWorldProcessMemArenajPdS1_S1_jS1_Pi
#define DX_SOLVE_LCP "_Z10dxSolveLCPP22dxWorldProcessMemArenajPdS1_S1_jS1_Pi"
#define LCP_ARGS                                                                                   \
    void *arena, unsigned n, dReal *A, dReal *pairsbx, dReal *w, unsigned nub, dReal *pairslh,     \
        int *findex
typedef void (*solve_lcp_fn)(LCP_ARGS);
#ifdef PF_TEST_WRAP_LCP
#define PASTE(a, b) a##b
#define WRAPPED(p, name) PASTE(p, name)
void WRAPPED(__real_, DX_SOLVE_LCP_SYM)(LCP_ARGS);
void WRAPPED(__wrap_, DX_SOLVE_LCP_SYM)(LCP_ARGS);
#define SOLVE_LCP_DEF WRAPPED(__wrap_, DX_SOLVE_LCP_SYM)
static solve_lcp_fn real_solver(void)
{
    return WRAPPED(__real_, DX_SOLVE_LCP_SYM);
}
#else
void DX_SOLVE_LCP_SYM(LCP_ARGS);
#define SOLVE_LCP_DEF DX_SOLVE_LCP_SYM
static solve_lcp_fn real_solver(void)
{
    solve_lcp_fn f;
    *(void **)&f = dlsym(RTLD_NEXT, DX_SOLVE_LCP);
    return f;
}
#endif
static int give_up;  /* 1: the solves of this step give up */
static long gave_up; /* solves that gave up */
static long solves;  /* solves that reached this definition */

void SOLVE_LCP_DEF(LCP_ARGS)
{
    static solve_lcp_fn real;
    if (!real) real = real_solver();
    if (!real) ck_abort_msg("no ODE solver behind %s", DX_SOLVE_LCP);
    real(arena, n, A, pairsbx, w, nub, pairslh, findex);
    solves++;
    if (!give_up) return;
    /* Debian's Dantzig after "s <= 0" at driving index i: the rows from i on get force 0 */
    for (unsigned i = nub; i < n; ++i)
        pairsbx[2 * i + 1] = 0.0;
    gave_up++;
    dMessage(d_ERR_LCP, "LCP internal error, s <= 0 (s=%.4e)", 0.0);
}

static double metric(const pfScene *s, const char *name)
{
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int n = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
    for (int i = 0; i < n; ++i)
        if (!strcmp(m[i].name, name)) return m[i].value;
    ck_abort_msg("metric %s missing", name);
    return NAN;
}

typedef struct Reports {
    int n;
    pfOdePatchInfo p[MAXP];
} Reports;

static void read_reports(const pfScene *s, Reports *r)
{
    const pfOdeContext *c = pf_scene_ode_context(s);
    r->n = pf_ode_patch_count(c);
    ck_assert_int_le(r->n, MAXP);
    for (int i = 0; i < r->n; ++i)
        ck_assert_int_eq(pf_ode_get_patch(c, i, &r->p[i]), PF_OK);
}

static const pfOdePatchInfo *find(const Reports *r, const pfOdePatchInfo *q)
{
    for (int i = 0; i < r->n; ++i)
        if (r->p[i].geom1 == q->geom1 && r->p[i].geom2 == q->geom2 && r->p[i].slot == q->slot)
            return &r->p[i];
    return NULL;
}

START_TEST(test_failed_steps_detected_and_not_taken)
{
    pfSceneParam kv[2] = {{"stepper", "world"}, {"coupling", "adapter"}};
    pfScene *s = NULL;
    pfError err;
    ck_assert_msg(pf_scene_create("stack", "tower-offset", PF_ODE_MODE_EXACT, kv, 2, &s, &err) ==
                      PF_OK,
                  "%s", err.message);
    static Reports before, failed, after;
    double msgs = 0.0;
    long long flagged = 0;
    int failed_steps = 0, kept = 0;
    int last_failed = 0;
    for (int k = 0; k < STEPS; ++k) {
        give_up = k + 1 == FAIL_STEP;
        ck_assert_int_eq(pf_scene_step(s, 5e-3, &err), PF_OK);
        give_up = 0;
        const double m = metric(s, "ode_messages");
        const long long f = pf_ode_get_counters(pf_scene_ode_context(s)).lcp_failed_pairs;
        const int logged = m > msgs, read = f > flagged;
        ck_assert_msg(logged == read,
                      "step %d: ODE logged %g LCP errors, the adapter flagged %lld "
                      "pairs",
                      k + 1, m - msgs, f - flagged);
        msgs = m;
        flagged = f;
        if (last_failed) {
            /* the step after a failed one: the patches that carried nothing in the failed step
             * bound their friction by their force of the step before it */
            read_reports(s, &after);
            for (int i = 0; i < failed.n; ++i) {
                const pfOdePatchInfo *q = &failed.p[i], *b = find(&before, q), *a = find(&after, q);
                if (q->normal_force_measured != 0.0 || !b || !a ||
                    !(b->normal_force_measured > 0.0) || a->state != PF_ODE_STATE_STICK)
                    continue;
                ck_assert_msg(a->normal_force == b->normal_force_measured,
                              "step %d: patch g%p-g%p used N = %g after the failed step, %g "
                              "measured before it",
                              k + 1, (void *)q->geom1, (void *)q->geom2, a->normal_force,
                              b->normal_force_measured);
                kept++;
            }
        }
        last_failed = logged;
        if (logged) {
            failed_steps++;
            read_reports(s, &failed);
        } else {
            read_reports(s, &before);
        }
    }
    printf("offset tower, dWorldStep 5 ms: %d failed steps (%g LCP errors) in %d, %lld pairs "
           "flagged, %d stuck patches kept their force across one\n",
           failed_steps, msgs, STEPS, flagged, kept);
    /* the solver gave up in the chosen step only, and the adapter saw it */
    ck_assert_msg(solves > 0, "the test's dxSolveLCP was never called: the injection cannot work");
    ck_assert_int_gt(gave_up, 0);
    ck_assert_int_eq(failed_steps, 1);
    ck_assert_int_gt(flagged, 0);
    ck_assert_int_gt(kept, 0);
    pf_scene_destroy(s);
}
END_TEST

START_TEST(test_quickstep_never_flags)
{
    pfSceneParam kv[1] = {{"stepper", "quick"}};
    pfScene *s = NULL;
    pfError err;
    ck_assert_msg(pf_scene_create("stack", "tower-offset", PF_ODE_MODE_EXACT, kv, 1, &s, &err) ==
                      PF_OK,
                  "%s", err.message);
    for (int k = 0; k < STEPS; ++k)
        ck_assert_int_eq(pf_scene_step(s, 5e-3, &err), PF_OK);
    ck_assert_int_eq(pf_ode_get_counters(pf_scene_ode_context(s)).lcp_failed_pairs, 0);
    pf_scene_destroy(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_lcp_failed");
    TCase *tc = tcase_create("failed");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_failed_steps_detected_and_not_taken);
    tcase_add_test(tc, test_quickstep_never_flags);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_set_fork_status(r, CK_NOFORK);
    srunner_run_all(r, CK_NORMAL);
    const int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
