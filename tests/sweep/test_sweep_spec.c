/* pf-sweep's design (tools/pf_sweep_spec.c): grid values and point order, random draws
 * that depend on the seed, cell and sample only (not on the mode, nor on the order points are
 * made in), their distribution, derived parameters, and specs refused with the culprit named. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pf_sweep.h"
#include "pf_test_support.h"

#define VALUE_RTOL 1e-14 /* values go through "%.15g" */
#define N_DRAWS 4000
#define SIGMAS 4.0 /* a sample mean or sd this many standard errors off fails */

static void parse_ok(const char *text, pfSweepSpec *sp)
{
    char msg[1024];
    int rc = pf_sweep_parse(text, sp, msg, sizeof msg);
    ck_assert_msg(rc == 0, "spec refused: %s", msg);
}

static double value(const pfSweepSpec *sp, long index, int param, pfOdeMode *mode)
{
    pfSweepPoint pt;
    pf_sweep_point(sp, index, &pt);
    if (mode) *mode = pt.mode;
    return strtod(pt.value[param], NULL);
}

START_TEST(test_grid_values_and_order)
{
    static pfSweepSpec sp;
    parse_ok("scene = shaking-table\nfriction = pade stock\ngrid omega_a = 200 2000 4\n"
             "list phi_y = 0 1 2\nmetrics = final_x\n",
             &sp);
    ck_assert_int_eq(sp.cells, 12);
    ck_assert_int_eq(sp.npoints, 24);
    const double wa[4] = {200.0, 800.0, 1400.0, 2000.0};
    for (long i = 0; i < sp.npoints; ++i) {
        pfOdeMode m;
        double a = value(&sp, i, 0, &m), p = value(&sp, i, 1, NULL);
        /* friction slowest, then omega_a, then phi_y fastest */
        ck_assert_int_eq(m, i < 12 ? PF_ODE_MODE_PADE : PF_ODE_MODE_STOCK);
        ck_assert_double_eq_tol(a, wa[(i % 12) / 3], VALUE_RTOL * 2000.0);
        ck_assert_double_eq(p, (double)(i % 3));
    }
}
END_TEST

START_TEST(test_draws_independent_of_mode_and_order)
{
    static pfSweepSpec sp;
    parse_ok("scene = sliding-blocks\ncase = eccentric-push\nfriction = exact pade\n"
             "list h = 0.005 0.01\nnormal mu_s = 0.55 0.0275\nuniform mass = 0.008 0.0082\n"
             "samples = 50\nseed = 7\nmetrics = breakaway_force\n",
             &sp);
    long per_mode = sp.cells * sp.samples;
    ck_assert_int_eq(per_mode, 100);
    /* backwards, so that no state carried from one point to the next could give the same */
    for (long i = per_mode - 1; i >= 0; --i)
        for (int k = 1; k <= 2; ++k)
            ck_assert_double_eq(value(&sp, i, k, NULL), value(&sp, i + per_mode, k, NULL));
    /* different samples and cells get different draws; another seed other draws */
    ck_assert_double_ne(value(&sp, 0, 1, NULL), value(&sp, 1, 1, NULL));
    ck_assert_double_ne(value(&sp, 0, 1, NULL), value(&sp, 50, 1, NULL));
    static pfSweepSpec other;
    parse_ok("scene = sliding-blocks\ncase = eccentric-push\nfriction = exact pade\n"
             "list h = 0.005 0.01\nnormal mu_s = 0.55 0.0275\nuniform mass = 0.008 0.0082\n"
             "samples = 50\nseed = 8\nmetrics = breakaway_force\n",
             &other);
    ck_assert_double_ne(value(&sp, 0, 1, NULL), value(&other, 0, 1, NULL));
}
END_TEST

START_TEST(test_draw_distributions)
{
    static pfSweepSpec sp;
    parse_ok("scene = sliding-blocks\ncase = eccentric-push\nnormal mu_s = 0.55 0.0275\n"
             "uniform mass = 0.008 0.0082\nderived mu_k = 0.9 * mu_s\nsamples = 4000\n"
             "metrics = breakaway_force\n",
             &sp);
    ck_assert_int_eq(sp.npoints, N_DRAWS);
    double s = 0, ss = 0, us = 0, lo = HUGE_VAL, hi = -HUGE_VAL;
    for (long i = 0; i < sp.npoints; ++i) {
        double mu = value(&sp, i, 0, NULL), m = value(&sp, i, 1, NULL);
        double muk = value(&sp, i, 2, NULL);
        ck_assert_double_eq_tol(muk, 0.9 * mu, VALUE_RTOL);
        s += mu;
        ss += (mu - 0.55) * (mu - 0.55);
        us += m;
        lo = fmin(lo, m);
        hi = fmax(hi, m);
    }
    double n = (double)sp.npoints, mean = s / n, sd = sqrt(ss / n);
    /* standard errors: mean sd/sqrt(n); sd about sd/sqrt(2n) */
    ck_assert_double_eq_tol(mean, 0.55, SIGMAS * 0.0275 / sqrt(n));
    ck_assert_double_eq_tol(sd, 0.0275, SIGMAS * 0.0275 / sqrt(2.0 * n));
    ck_assert(lo >= 0.008 && hi < 0.0082);
    ck_assert_double_eq_tol(us / n, 0.0081, SIGMAS * 0.0002 / sqrt(12.0 * n));
}
END_TEST

/* Each bad spec is refused, the message naming the culprit. */
static const struct {
    const char *text, *expect;
} BAD[] = {
    {"scene = shaking-table\ngrid omega_a = 2000 200 4\nmetrics = final_x\n", "lo 2000 > hi 200"},
    {"scene = shaking-table\ngrid omega_a = 200 2000 0\nmetrics = final_x\n", "count 0"},
    {"scene = shaking-table\ngrid omega_a = 200 200 3\nmetrics = final_x\n", "lo = hi"},
    {"scene = shaking-table\nuniform omega_a = 5 5\nsamples = 2\nmetrics = final_x\n",
     "lo 5 >= hi 5"},
    {"scene = shaking-table\nnormal omega_a = 500 0\nsamples = 2\nmetrics = final_x\n", "sd 0"},
    {"scene = shaking-table\nnormal omega_a = 500 1\nmetrics = final_x\n", "need samples"},
    {"scene = shaking-table\ngrid omega_a = 200 2000 3\nsamples = 4\nmetrics = final_x\n",
     "samples = 4 but no uniform or normal"},
    {"scene = shaking-table\nderived omega_b = 2 * omega_c\nmetrics = final_x\n",
     "'omega_c' is not a parameter"},
    {"scene = shaking-table\nfriction = exact coulomb\nmetrics = final_x\n", "'coulomb'"},
    {"scene = shaking-table\nspeed = 3\nmetrics = final_x\n", "unknown key 'speed'"},
    {"scene = shaking-table\ngrid omega_a = 1 2 3\ngrid omega_a = 1 2 3\nmetrics = final_x\n",
     "'omega_a' is swept twice"},
    {"scene = shaking-table\nset = omega_a=3\nlist omega_a = 1\nmetrics = final_x\n",
     "'omega_a' is both set and swept"},
    {"scene = shaking-table\nduration = -1\nmetrics = final_x\n", "duration = -1"},
    {"scene = shaking-table\n", "no metrics"},
};

START_TEST(test_bad_specs_named)
{
    static pfSweepSpec sp;
    char msg[1024];
    ck_assert_int_eq(pf_sweep_parse(BAD[_i].text, &sp, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, BAD[_i].expect), "message '%s' lacks '%s'", msg, BAD[_i].expect);
}
END_TEST

/* Refused against the scene: unknown keys and metrics, values out of the scene's range. */
static const struct {
    const char *text, *expect;
} BAD_SCENE[] = {
    {"scene = shaking-tabel\nmetrics = final_x\n", "unknown scene"},
    {"scene = shaking-table\ncase = excitation-9\nmetrics = final_x\n", "not a case"},
    {"scene = shaking-table\ngrid omgea_a = 1 2 2\nmetrics = final_x\n", "'omgea_a': unknown key"},
    {"scene = shaking-table\nset = A_q=1\nmetrics = final_x\n", "set A_q=1: unknown key"},
    {"scene = shaking-table\nmetrics = final_x speed\n", "unknown metric 'speed'"},
    {"scene = shaking-table\nlist omega_a = 1 2 -3\nmetrics = final_x\n", "omega_a=-3"},
    {"scene = sliding-blocks\ncase = eccentric-push\nmetrics = breakaway_force\n"
     "until = final_speed\n",
     "until: unknown metric 'final_speed'"},
};

START_TEST(test_bad_against_scene_named)
{
    static pfSweepSpec sp;
    char msg[1024];
    int rc = pf_sweep_parse(BAD_SCENE[_i].text, &sp, msg, sizeof msg);
    ck_assert_msg(rc == 0, "parse: %s", msg);
    ck_assert_int_eq(pf_sweep_check(&sp, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, BAD_SCENE[_i].expect), "message '%s' lacks '%s'", msg,
                  BAD_SCENE[_i].expect);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep_spec");
    TCase *tc = tcase_create("design");
    tcase_add_test(tc, test_grid_values_and_order);
    tcase_add_test(tc, test_draws_independent_of_mode_and_order);
    tcase_add_test(tc, test_draw_distributions);
    suite_add_tcase(s, tc);
    tc = tcase_create("refused");
    tcase_add_loop_test(tc, test_bad_specs_named, 0, (int)(sizeof BAD / sizeof BAD[0]));
    tcase_add_loop_test(tc, test_bad_against_scene_named, 0,
                        (int)(sizeof BAD_SCENE / sizeof BAD_SCENE[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(sweep_suite());
}
