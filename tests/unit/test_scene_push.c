/* push scene (scenes/pf_scene_push.c): a kinematic finger pushes a block (60 x 100 mm footprint)
 * or a disk (radius 50 mm) at 5 mm/s, mu = 0.5, dt = 1 ms, under dWorldStep and dWorldQuickStep.
 *  - tcase reference: the quasi-static reference (tests/support/pf_ref_push.c) against closed
 *    forms: a push through the centre gives w = 0 and a sticking finger; a frictionless finger
 *    never turns a disk, which moves along the contact normal; a push at a small offset e turns
 *    the block at w / |v| = -e / <x^2> = -12 e / a^2 (P59); the twist does not depend on speed;
 *  - tcase push: patch friction (exact, adapter coupling) within 1 % of the reference's ratio
 *    w / |v_G| over the window 0.1 .. 0.3 s, and the same finger state (sticking or sliding), for
 *    the block at offsets 10 and 30 mm with mu_f = 0 and 20 mm with mu_f = 0.5, and the disk at
 *    20 mm with mu_f = 0.5, one cell per case and stepper, all eight. Measured (dWorldStep /
 *    QuickStep, Debian's ODE): +0.04 / +0.04 %, -0.004 / -0.004 %, -0.04 / -0.03 %,
 *    +0.01 / +0.02 % (the slip rows' implicit prediction, docs/physics.md §11; +58.8, +8.0,
 *    +36.9 (QuickStep) and +6.8 / +8.7 % with the frictionless prediction). Under dWorldStep
 *    with mu_f > 0 the finger's STOCK contact must have been bounded by its last step's normal
 *    force (stock_lagged > 0; pf_ode_normal_contacts), under QuickStep by ODE's findex rule
 *    (stock_lagged = 0): on the findex bound the block at 20 mm under dWorldStep was +10.6 %, the
 *    finger sliding where the reference sticks, because ODE's Dantzig solver bounds the finger's
 *    friction rows by its normal force before any friction row is driven;
 *  - tcase solver (patched ODE only): the in-solver coupling meets the same 1 % and finger state
 *    in all eight cells (case x stepper; measured within 0.04 %);
 *  - tcase stock: stock friction's figures printed, not asserted (the block hardly turns); its
 *    finger keeps ODE's own bound (stock_lagged = 0: no patch in the world);
 *  - tcase overlay: the viewer's overlay (pf_scene_overlay): the friction cone at atan(mu_f) about
 *    the contact normal (to 1e-12), and the motion cone's edges against the reference: a finger
 *    velocity 1e-5 rad inside an edge sticks, one outside slides (1e-7 rad passes too), the
 *    label's verdict for the push along +x is the reference's finger state;
 *  - tcase keys: bad keys and values are errors naming them. */
#include "pf_ref_push.h"
#include "pf_scene.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT 1e-3
#define RATIO_TOL 0.01  /* relative, patch friction against the reference */
#define CLOSED_TOL 1e-6 /* the reference against its closed forms */
#define A_BLOCK 0.06

static double metric(const pfSceneMetric *m, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (!strcmp(m[i].name, name)) return m[i].value;
    ck_abort_msg("metric %s missing", name);
    return NAN;
}

/* The reference's default parameters of case cs ("block" or "disk"). */
static pfRefPush defaults(const char *cs)
{
    pfRefPush p;
    ck_assert_int_eq(pf_ref_push_default(cs, &p), 0);
    return p;
}

static pfRefPushResult reference(const char *cs, double offset, double mu_f)
{
    pfRefPush p = defaults(cs);
    p.offset = offset;
    p.mu_f = mu_f;
    pfRefPushResult r;
    ck_assert_int_eq(pf_ref_push_run(&p, &r), 0);
    return r;
}

/* ---- the reference against closed forms ---------------------------------------------------- */

/* The reference's twist with the finger at c (normal n into the body) moving at 5 mm/s along x:
 * asserts its w, vx, vy within CLOSED_TOL of the expected values (at the push speed's scale). */
static pfRefPushTwist twist_at_push_speed(const pfRefPush *p, const double c[2], const double n[2],
                                          double w, double vx, double vy)
{
    const double vf[2] = {0.005, 0.0};
    pfRefPushTwist tw;
    ck_assert_int_eq(pf_ref_push_twist(p, c, n, vf, &tw), 0);
    ck_assert_double_eq_tol(tw.w, w, CLOSED_TOL * 0.005 / p->radius);
    ck_assert_double_eq_tol(tw.vx, vx, CLOSED_TOL * 0.005);
    ck_assert_double_eq_tol(tw.vy, vy, CLOSED_TOL * 0.005);
    return tw;
}

START_TEST(centre_push_does_not_turn)
{
    for (int d = 0; d < 2; ++d) {
        pfRefPush p = defaults(d ? "disk" : "block");
        const double c[2] = {d ? -p.radius : -0.5 * p.length, 0.0}, n[2] = {1.0, 0.0};
        const pfRefPushTwist tw = twist_at_push_speed(&p, c, n, 0.0, 0.005, 0.0);
        ck_assert_int_eq(tw.sticking, 1);
        /* the finger carries the support's whole sliding force mu N */
        ck_assert_double_eq_tol(tw.fx, 1.0, CLOSED_TOL);
    }
}
END_TEST

START_TEST(frictionless_disk_never_turns)
{
    pfRefPush p = defaults("disk");
    p.mu_f = 0.0;
    const double ang = 0.4; /* contact 0.4 rad off the push line */
    const double n[2] = {cos(ang), -sin(ang)}, c[2] = {-p.radius * n[0], -p.radius * n[1]};
    /* it does not turn and moves along n at the finger's normal speed, the finger sliding past */
    const double vn = 0.005 * cos(ang);
    const pfRefPushTwist tw = twist_at_push_speed(&p, c, n, 0.0, vn * n[0], vn * n[1]);
    ck_assert_int_eq(tw.sticking, 0);
    /* and so over a whole run */
    pfRefPushResult r = reference("disk", 0.02, 0.0);
    ck_assert_double_eq_tol(r.ratio, 0.0, CLOSED_TOL);
    ck_assert_double_eq_tol(r.yaw, 0.0, CLOSED_TOL);
}
END_TEST

START_TEST(small_offset_turns_at_the_linear_rate)
{
    pfRefPush p = defaults("block");
    p.mu_f = 0.0;
    for (int k = 0; k < 2; ++k) {
        const double e = k ? 1e-4 : -2e-4; /* [m]: (e / a)^2 below 1e-5 */
        const double c[2] = {-0.5 * p.length, e}, n[2] = {1.0, 0.0}, vf[2] = {0.005, 0.0};
        pfRefPushTwist tw;
        ck_assert_int_eq(pf_ref_push_twist(&p, c, n, vf, &tw), 0);
        const double closed = -12.0 * e / (A_BLOCK * A_BLOCK); /* P59 */
        const double ratio = tw.w / hypot(tw.vx, tw.vy);
        printf("push reference: offset %g m, w/|v| = %.9g rad/m, small-offset form %.9g\n", e,
               ratio, closed);
        ck_assert_double_eq_tol(ratio, closed, 1e-3 * fabs(closed));
    }
}
END_TEST

START_TEST(twist_scales_with_speed)
{
    pfRefPush p = defaults("block");
    const double c[2] = {-0.5 * p.length, 0.02}, n[2] = {1.0, 0.0};
    pfRefPushTwist a, b;
    const double v1[2] = {0.005, 0.0}, v2[2] = {0.5, 0.0};
    ck_assert_int_eq(pf_ref_push_twist(&p, c, n, v1, &a), 0);
    ck_assert_int_eq(pf_ref_push_twist(&p, c, n, v2, &b), 0);
    ck_assert_double_eq_tol(b.w, 100.0 * a.w, 1e-6 * fabs(b.w));
    ck_assert_int_eq(a.sticking, b.sticking);
}
END_TEST

/* ---- the scene against the reference -------------------------------------------------------- */

static int run_coupled(const char *cs, pfOdeMode mode, const char *stepper, double offset,
                       double mu_f, const char *coupling, pfSceneMetric *m)
{
    char so[32], sm[32];
    snprintf(so, sizeof so, "%.17g", offset);
    snprintf(sm, sizeof sm, "%.17g", mu_f);
    pfSceneParam kv[4] = {
        {"stepper", stepper}, {"offset", so}, {"mu_f", sm}, {"coupling", coupling}};
    pfScene *s = NULL;
    pfError err;
    int rc = pf_scene_create("push", cs, mode, kv, 4, &s, &err);
    ck_assert_msg(rc == PF_OK, "%s", err.message);
    const double t_end = pf_scene_default_duration(s);
    while (pf_scene_time(s) < t_end - 0.5 * DT)
        ck_assert_msg(pf_scene_step(s, DT, &err) == PF_OK, "%s", err.message);
    int n = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
    pf_scene_destroy(s);
    return n;
}

static int run(const char *cs, pfOdeMode mode, const char *stepper, double offset, double mu_f,
               pfSceneMetric *m)
{
    return run_coupled(cs, mode, stepper, offset, mu_f, "adapter", m);
}

typedef struct PushCase {
    const char *cs;
    double offset, mu_f;
} PushCase;

static const PushCase CASES[] = {
    {"block", 0.01, 0.0}, {"block", 0.03, 0.0}, {"block", 0.02, 0.5}, {"disk", 0.02, 0.5}};
#define NCASES ((int)(sizeof CASES / sizeof CASES[0]))
static const char *const steppers[2] = {"world", "quick"};

/* One cell of the adapter coupling: CASES[cell / 2] under steppers[cell % 2]. */
static void adapter_cell(int cell)
{
    const PushCase *pc = &CASES[cell / 2];
    const char *st = steppers[cell % 2];
    const pfRefPushResult ref = reference(pc->cs, pc->offset, pc->mu_f);
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int n = run(pc->cs, PF_ODE_MODE_EXACT, st, pc->offset, pc->mu_f, m);
    const double ratio = metric(m, n, "ratio"), stick = metric(m, n, "finger_sticking");
    printf("push %s offset %g mu_f %g %-5s exact: w/|v| = %.6g rad/m (reference %.6g, %+.3f "
           "%%), finger %s (reference %s, slip %.3g / %.3g of the speed)\n",
           pc->cs, pc->offset, pc->mu_f, st, ratio, ref.ratio, 100.0 * (ratio / ref.ratio - 1.0),
           stick ? "sticks" : "slides", ref.finger_sticking ? "sticks" : "slides",
           metric(m, n, "finger_slip_ratio"), ref.finger_slip_ratio);
    fflush(stdout);
    ck_assert_msg(fabs(ratio / ref.ratio - 1.0) <= RATIO_TOL,
                  "%s offset %g mu_f %g %s: ratio %g, reference %g", pc->cs, pc->offset, pc->mu_f,
                  st, ratio, ref.ratio);
    ck_assert_double_eq(stick, ref.finger_sticking);
    /* under dWorldStep the finger's friction (mu_f > 0) on the last step's normal force, not on
     * findex; under QuickStep on findex (ODE's own rule, re-bounded in every sweep) */
    if (pc->mu_f > 0.0 && cell % 2 == 0) ck_assert_double_gt(metric(m, n, "stock_lagged"), 0.0);
    if (cell % 2 == 1) ck_assert_double_eq(metric(m, n, "stock_lagged"), 0.0);
}

START_TEST(patch_matches_reference)
{
    adapter_cell(_i);
}
END_TEST

/* The in-solver coupling (patched ODE): one cell per loop index, CASES[_i / 2] under
 * steppers[_i % 2]. */
START_TEST(solver_matches_reference)
{
    const PushCase *pc = &CASES[_i / 2];
    const char *st = steppers[_i % 2];
    const pfRefPushResult ref = reference(pc->cs, pc->offset, pc->mu_f);
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int n = run_coupled(pc->cs, PF_ODE_MODE_EXACT, st, pc->offset, pc->mu_f, "solver", m);
    const double ratio = metric(m, n, "ratio"), stick = metric(m, n, "finger_sticking");
    printf("push %s offset %g mu_f %g %-5s exact, in-solver: w/|v| = %.6g rad/m (reference %.6g, "
           "%+.3f %%), finger %s (reference %s)\n",
           pc->cs, pc->offset, pc->mu_f, st, ratio, ref.ratio, 100.0 * (ratio / ref.ratio - 1.0),
           stick ? "sticks" : "slides", ref.finger_sticking ? "sticks" : "slides");
    fflush(stdout);
    ck_assert_msg(fabs(ratio / ref.ratio - 1.0) <= RATIO_TOL,
                  "%s offset %g mu_f %g %s in-solver: ratio %g, reference %g", pc->cs, pc->offset,
                  pc->mu_f, st, ratio, ref.ratio);
    ck_assert_double_eq(stick, ref.finger_sticking);
}
END_TEST

START_TEST(stock_for_comparison)
{
    const PushCase *pc = &CASES[_i];
    const pfRefPushResult ref = reference(pc->cs, pc->offset, pc->mu_f);
    for (int q = 0; q < 2; ++q) {
        pfSceneMetric m[PF_SCENE_MAX_METRICS];
        int n = run(pc->cs, PF_ODE_MODE_STOCK, steppers[q], pc->offset, pc->mu_f, m);
        const double ratio = metric(m, n, "ratio");
        printf("push %s offset %g mu_f %g %-5s stock: w/|v| = %.6g rad/m (reference %.6g), "
               "finger %s (reference %s)\n",
               pc->cs, pc->offset, pc->mu_f, steppers[q], ratio, ref.ratio,
               metric(m, n, "finger_sticking") ? "sticks" : "slides",
               ref.finger_sticking ? "sticks" : "slides");
        ck_assert(isfinite(ratio));
        ck_assert_double_eq(metric(m, n, "stock_lagged"), 0.0); /* ODE's own friction */
    }
}
END_TEST

/* ---- the viewer's overlay ------------------------------------------------------------------- */

typedef struct OverlayCase {
    const char *cs;
    double offset, mu_f;
} OverlayCase;

/* The reference's finger at 20 mm: sticks on the block at mu_f = 0.5, slides at 0.45 (just past
 * the motion cone's edge) and 0.3; sticks on the disk at 0.5; a frictionless finger at 10 mm. */
static const OverlayCase OVERLAY_CASES[] = {{"block", 0.02, 0.5}, {"block", 0.02, 0.45},
                                            {"block", 0.02, 0.3}, {"disk", 0.02, 0.5},
                                            {"block", 0.01, 0.0}, {"disk", 0.03, 0.0}};
#define NOVERLAY ((int)(sizeof OVERLAY_CASES / sizeof OVERLAY_CASES[0]))
#define CONE_ANGLE_EPS 1e-12 /* [rad] the friction cone's half angle against atan(mu_f) */
#define EDGE_PROBE 1e-5      /* [rad] probes inside / outside an edge (1e-7 passes too) */
#define EDGE_SLIP_TOL 1e-5   /* |slip| / speed of the reference along a frictionless edge */

static pfScene *overlay_scene(const OverlayCase *oc)
{
    char so[32], sm[32];
    snprintf(so, sizeof so, "%.17g", oc->offset);
    snprintf(sm, sizeof sm, "%.17g", oc->mu_f);
    pfSceneParam kv[2] = {{"offset", so}, {"mu_f", sm}};
    pfScene *s = NULL;
    pfError err;
    ck_assert_msg(pf_scene_create("push", oc->cs, PF_ODE_MODE_EXACT, kv, 2, &s, &err) == PF_OK,
                  "%s", err.message);
    return s;
}

static double angle_between(const double a[2], const double b[2])
{
    return atan2(fabs(a[0] * b[1] - a[1] * b[0]), a[0] * b[0] + a[1] * b[1]);
}

/* The push overlay at t = 0: the friction cone's lines (2, or 1 along the normal for mu_f = 0)
 * from the contact point at atan(mu_f) about the contact's inward normal (the closed form, to
 * CONE_ANGLE_EPS; drawn back from it over the finger), then the motion cone's arrows (2, or 1),
 * every coordinate finite. The motion cone's edges against the independent reference
 * (tests/support/pf_ref_push.c: cubature of the limit surface, GSL's root finder, never the
 * plugin's wrench): a finger velocity EDGE_PROBE inside an edge sticks and one EDGE_PROBE outside
 * slides; along a frictionless finger's single edge the reference's finger neither leads nor lags
 * (slip below EDGE_SLIP_TOL of the speed). The label's verdict for the push along +x is the
 * reference's finger state at 5 mm/s. */
START_TEST(overlay_shows_the_cones)
{
    const OverlayCase *oc = &OVERLAY_CASES[_i];
    const int disk = !strcmp(oc->cs, "disk");
    pfRefPush p = defaults(oc->cs);
    p.offset = oc->offset;
    p.mu_f = oc->mu_f;
    /* the contact at t = 0 (G at the origin, yaw 0): the block's -x face at y = offset, the disk's
     * rim towards the finger's centre (-sqrt((R + r - depth)^2 - e^2), e) */
    double n[2] = {1.0, 0.0}, c[2] = {-0.5 * p.length, oc->offset};
    if (disk) {
        const double fx = -sqrt(pow(p.radius + p.finger_radius - p.depth, 2) - p.offset * p.offset);
        const double d = hypot(fx, p.offset);
        n[0] = -fx / d, n[1] = -p.offset / d;
        c[0] = -p.radius * n[0], c[1] = -p.radius * n[1];
    }
    pfScene *s = overlay_scene(oc);
    pfSceneOverlay o[PF_SCENE_MAX_OVERLAY];
    const int nf = oc->mu_f > 0.0 ? 2 : 1, cnt = pf_scene_overlay(s, o, PF_SCENE_MAX_OVERLAY);
    ck_assert_int_eq(cnt, 2 * nf);
    for (int i = 0; i < cnt; ++i) {
        for (int j = 0; j < 3; ++j)
            ck_assert(isfinite(o[i].p[j]) && isfinite(o[i].q[j]));
        ck_assert_int_eq(o[i].dashed, 1);
        ck_assert_double_eq_tol(o[i].p[0], c[0], 1e-9);
        ck_assert_double_eq_tol(o[i].p[1], c[1], 1e-9);
        ck_assert_int_eq(o[i].kind, i < nf ? PF_SCENE_OVERLAY_LINE : PF_SCENE_OVERLAY_ARROW);
    }
    ck_assert_str_eq(o[0].label, "friction cone");
    ck_assert_ptr_nonnull(strstr(o[cnt - 1].label, "motion cone"));
    double d[4][2];
    for (int i = 0; i < cnt; ++i) { /* the friction cone's lines run back over the finger */
        const double l =
            (i < nf ? -1.0 : 1.0) * hypot(o[i].q[0] - o[i].p[0], o[i].q[1] - o[i].p[1]);
        d[i][0] = (o[i].q[0] - o[i].p[0]) / l, d[i][1] = (o[i].q[1] - o[i].p[1]) / l;
    }
    for (int i = 0; i < nf; ++i) {
        ck_assert_double_eq_tol(angle_between(d[i], n), atan(oc->mu_f), CONE_ANGLE_EPS);
        ck_assert_double_gt(d[i][0] * n[0] + d[i][1] * n[1], 0.0); /* the force into the object */
    }
    if (nf == 2) /* one line on each side of the normal */
        ck_assert_double_lt((d[0][0] * n[1] - d[0][1] * n[0]) * (d[1][0] * n[1] - d[1][1] * n[0]),
                            0.0);
    /* the motion cone's edges against the reference */
    const double *e0 = d[nf], *e1 = d[cnt - 1];
    for (int i = 0; i < nf; ++i) {
        const double *e = d[nf + i], *other = d[nf + (1 - i)];
        pfRefPushTwist tw;
        if (nf == 1) {
            const double vf[2] = {p.speed * e[0], p.speed * e[1]};
            ck_assert_int_eq(pf_ref_push_twist(&p, c, n, vf, &tw), 0);
            printf("push overlay %s %g mu_f %g: along the edge slip %.3g of the speed\n", oc->cs,
                   oc->offset, oc->mu_f, tw.slip / p.speed);
            ck_assert_double_lt(fabs(tw.slip) / p.speed, EDGE_SLIP_TOL);
            continue;
        }
        const double in = e[0] * other[1] - e[1] * other[0] > 0.0 ? 1.0 : -1.0;
        for (int k = 0; k < 2; ++k) {
            const double a = (k ? -1.0 : 1.0) * in * EDGE_PROBE;
            const double vf[2] = {p.speed * (cos(a) * e[0] - sin(a) * e[1]),
                                  p.speed * (sin(a) * e[0] + cos(a) * e[1])};
            ck_assert_int_eq(pf_ref_push_twist(&p, c, n, vf, &tw), 0);
            ck_assert_msg(tw.sticking == !k,
                          "%s %g mu_f %g: edge %d probed %s: the reference's finger %s", oc->cs,
                          oc->offset, oc->mu_f, i, k ? "outside" : "inside",
                          tw.sticking ? "sticks" : "slides");
        }
    }
    /* the verdict for the push along +x, and the reference's at the push speed */
    const double vf[2] = {p.speed, 0.0};
    pfRefPushTwist tw;
    ck_assert_int_eq(pf_ref_push_twist(&p, c, n, vf, &tw), 0);
    const int inside = nf == 2 && e0[1] * e1[1] < 0.0 && e0[0] + e1[0] > 0.0;
    printf("push overlay %s %g mu_f %g: motion cone edges at %.4f and %.4f rad from +x, %s "
           "(reference: finger %s)\n",
           oc->cs, oc->offset, oc->mu_f, atan2(e0[1], e0[0]), atan2(e1[1], e1[0]), o[cnt - 1].label,
           tw.sticking ? "sticks" : "slides");
    ck_assert_int_eq(inside, tw.sticking);
    ck_assert_ptr_nonnull(strstr(o[cnt - 1].label, tw.sticking ? "sticks" : "slides"));
    /* after 0.3 s of pushing (the finger slides along the face in some cases): still finite */
    pfError err;
    while (pf_scene_time(s) < 0.3 - 0.5 * DT)
        ck_assert_msg(pf_scene_step(s, DT, &err) == PF_OK, "%s", err.message);
    ck_assert_int_eq(pf_scene_overlay(s, o, PF_SCENE_MAX_OVERLAY), 2 * nf);
    for (int i = 0; i < 2 * nf; ++i)
        for (int j = 0; j < 3; ++j)
            ck_assert(isfinite(o[i].p[j]) && isfinite(o[i].q[j]));
    pf_scene_destroy(s);
}
END_TEST

/* ---- keys ----------------------------------------------------------------------------------- */

static void bad2(const char *key, const char *value, const char *key2, const char *value2,
                 const char *expect)
{
    pfSceneParam kv[2] = {{key, value}, {key2, value2}};
    pfScene *s = NULL;
    pfError err;
    ck_assert_int_eq(
        pf_scene_create("push", "block", PF_ODE_MODE_EXACT, kv, key2 ? 2 : 1, &s, &err),
        PF_ERR_RANGE);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(err.message, expect) != NULL, "'%s' does not name '%s'", err.message,
                  expect);
}

static void bad(const char *key, const char *value, const char *expect)
{
    bad2(key, value, NULL, NULL, expect);
}

START_TEST(bad_keys_are_errors)
{
    bad("offset", "0.2", "offset=0.2");
    bad2("offset", "0.04", "yaw", "25", "offset=0.04 with yaw=25"); /* off the block's face */
    bad("mu_f", "-1", "mu_f=-1");
    bad("speed", "0", "speed=0");
    bad("mu", "nan", "mu=nan");
    bad("yaw", "45", "yaw=45");
    bad("stepper", "fast", "stepper=fast");
    bad("width", "1", "width");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("scene_push");
    TCase *tr = tcase_create("reference");
    tcase_set_timeout(tr, 120);
    tcase_add_test(tr, centre_push_does_not_turn);
    tcase_add_test(tr, frictionless_disk_never_turns);
    tcase_add_test(tr, small_offset_turns_at_the_linear_rate);
    tcase_add_test(tr, twist_scales_with_speed);
    suite_add_tcase(s, tr);
    TCase *tp = tcase_create("push");
    tcase_set_timeout(tp, 300);
    tcase_add_loop_test(tp, patch_matches_reference, 0, 2 * NCASES);
    suite_add_tcase(s, tp);
    TCase *tv = tcase_create("solver");
    tcase_set_timeout(tv, 300);
    tcase_add_loop_test(tv, solver_matches_reference, 0, 2 * NCASES);
    suite_add_tcase(s, tv);
    TCase *ts = tcase_create("stock");
    tcase_set_timeout(ts, 300);
    tcase_add_loop_test(ts, stock_for_comparison, 0, NCASES);
    suite_add_tcase(s, ts);
    TCase *to = tcase_create("overlay");
    tcase_set_timeout(to, 120);
    tcase_add_loop_test(to, overlay_shows_the_cones, 0, NOVERLAY);
    suite_add_tcase(s, to);
    TCase *tk = tcase_create("keys");
    tcase_add_test(tk, bad_keys_are_errors);
    suite_add_tcase(s, tk);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
