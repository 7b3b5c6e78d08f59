/* A geom pair is the same pair whichever order the near callback passes its geoms in. ODE's
 * spaces report a pair in either order, and the order can turn between steps (a geom whose body
 * moved goes to the head of its space's list). Here the near callback turns the order of a box
 * resting on a box at every step, under both steppers and with each coupling this ODE has, and
 * the run is compared with the same scene called in one fixed order: one record for the pair,
 * the same rows in every step, the stuck patch and its anchor kept, the same motion. A box pushed
 * across the lower one moves the same way whichever order the calls take. */
#include "pf_ode_internal.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define G 9.81
#define SIDE 0.1
#define MASS 1.0
#define MU 0.6
#define DT 1e-3
#define REST_STEPS 1000  /* 1 s at rest */
#define SETTLE_STEPS 100 /* the pushed box settles for 0.1 s */
#define PUSH_STEPS 100   /* then is pushed for 0.1 s (the pair tips after 1 cm, 0.13 s) */
#define ACCEL_REL 1e-3   /* the slide's acceleration against the closed form */
#define PUSH_A0 20     /* its acceleration: the slope of its velocity from this step of the push */
#define ROUNDING 1e-12 /* two runs of the same motion differ by rounding at most [m] */
#define CREEP_M 1e-6   /* the creep target of a stack at rest (docs/architecture.md) [m] */

/* How the near callback orders the pair of the two boxes: always top first, always bottom
 * first, or turned at every step, from top first or from bottom first. */
enum { TOP_FIRST, BOTTOM_FIRST, TURN_FROM_TOP, TURN_FROM_BOTTOM };

typedef struct Scene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    dGeomID plane, gtop, gbot;
    dBodyID top, bot;
    pfOdeContext *pf;
    int order, quick;
    long step;
} Scene;

typedef struct Run {
    double top[3], bot[3];   /* final positions [m] */
    double top0[3], bot0[3]; /* after settling (REST_STEPS / 2) [m] */
    int joints_max;          /* the most enabled joints on the top box in one step */
    int patches_max;         /* the most patch records in one step */
    int rows_differ;         /* steps whose joints on the top box differ from the reference's */
    int state;               /* the pair's last state */
    double anchor1[3];       /* its stick anchor on body 1 (body-1 frame) [m] */
    int body1_is_top;        /* the record's body 1 is the top box */
    int apart;               /* the first step after which the pair had no record (let go) */
    double v_a0;             /* the top box's velocity along x after step SETTLE_STEPS + PUSH_A0 */
    double accel;            /* its acceleration along x from there to the end [m/s^2] */
} Run;

static void ensure_ode(void)
{
    static int ready;
    if (!ready) {
        dInitODE2(0);
        ready = 1;
    }
}

static void near(void *data, dGeomID a, dGeomID b)
{
    Scene *s = data;
    if ((a == s->gtop && b == s->gbot) || (a == s->gbot && b == s->gtop)) {
        int top_first = s->order == TOP_FIRST || (s->order == TURN_FROM_TOP && s->step % 2 == 0) ||
                        (s->order == TURN_FROM_BOTTOM && s->step % 2 == 1);
        a = top_first ? s->gtop : s->gbot;
        b = top_first ? s->gbot : s->gtop;
    }
    pf_ode_collide(s->pf, a, b, s->group);
}

static dBodyID add_box(Scene *s, double z, dGeomID *g)
{
    dBodyID b = dBodyCreate(s->world);
    dMass m;
    dMassSetBoxTotal(&m, MASS, SIDE, SIDE, SIDE);
    dBodySetMass(b, &m);
    dBodySetPosition(b, 0, 0, z);
    *g = dCreateBox(s->space, SIDE, SIDE, SIDE);
    dGeomSetBody(*g, b);
    return b;
}

/* Two cubes of side 0.1 m and 1 kg, one on the other on the ground, as the stack scene's two-box
 * case (scenes/pf_scene_stack.c; mu_s = mu_k = MU), each 10 um into the one below and with a
 * 0.1 mm surface layer, so that the pair touches from the first step on and never lets go: its
 * record's order is that of the first step's call. */
static void scene_make(Scene *s, int order, int quick, pfOdeCoupling coupling)
{
    ensure_ode();
    memset(s, 0, sizeof *s);
    s->order = order;
    s->quick = quick;
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -G);
    dWorldSetAutoDisableFlag(s->world, 0);
    dRandSetSeed(1);
    s->space = dHashSpaceCreate(0);
    s->group = dJointGroupCreate(0);
    s->plane = dCreatePlane(s->space, 0, 0, 1, 0);
    s->bot = add_box(s, 0.5 * SIDE - 1e-5, &s->gbot);
    s->top = add_box(s, 1.5 * SIDE - 2e-5, &s->gtop);
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = coupling;
    ck_assert_int_eq(pf_ode_create(s->world, &cfg, &s->pf, NULL), PF_OK);
    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = m.mu_k = MU;
    ck_assert_int_eq(pf_ode_set_default_material(s->pf, &m, NULL), PF_OK);
}

static void scene_free(Scene *s)
{
    pf_ode_destroy(s->pf);
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
}

/* Enabled joints on b in this step: the patch's normal rows and friction rows (contact and motor
 * joints; with the in-solver coupling its patch joint); the adapter's sentinels are disabled. */
static int enabled_joints(dBodyID b)
{
    int n = 0;
    for (int i = 0; i < dBodyGetNumJoints(b); ++i)
        if (dJointIsEnabled(dBodyGetJoint(b, i))) n++;
    return n;
}

/* One step; its joints on the top box (between pf_ode_before_step and the step). */
static int scene_step(Scene *s, double push)
{
    if (s->step < SETTLE_STEPS) push = 0.0;
    dSpaceCollide(s->space, s, near);
    ck_assert_int_eq(pf_ode_before_step(s->pf, DT), PF_OK);
    const int joints = enabled_joints(s->top);
    if (push != 0.0) dBodyAddForce(s->top, push, 0, 0);
    if (s->quick)
        dWorldQuickStep(s->world, DT);
    else
        dWorldStep(s->world, DT);
    ck_assert_int_eq(pf_ode_after_step(s->pf), PF_OK);
    dJointGroupEmpty(s->group);
    s->step++;
    return joints;
}

static void pos(dBodyID b, double *out)
{
    const dReal *p = dBodyGetPosition(b);
    for (int k = 0; k < 3; ++k)
        out[k] = p[k];
}

/* The record of the two boxes' pair (either order: one, whichever it was made in), or -1. */
static int pair_record(const Scene *s)
{
    const int idx = pf_ode_pair_lookup(s->pf, s->gtop, s->gbot, 0);
    return idx >= 0 ? idx : pf_ode_pair_lookup(s->pf, s->gbot, s->gtop, 0);
}

/* The run of one order for steps, the top box pushed along +x with push [N] after
 * SETTLE_STEPS. Per step (each may be NULL): the joints on the top box, the patches of the scene,
 * and both boxes' positions after the step (top x, y, z, lower x, y, z). */
static Run run(int order, int quick, pfOdeCoupling coupling, int steps, double push, int *joints,
               int *patches, double (*traj)[6])
{
    Scene s;
    scene_make(&s, order, quick, coupling);
    Run r;
    memset(&r, 0, sizeof r);
    r.apart = steps;
    for (int i = 0; i < steps; ++i) {
        const int j = scene_step(&s, push);
        if (joints) joints[i] = j;
        if (j > r.joints_max) r.joints_max = j;
        const int np = pf_ode_patch_count(s.pf);
        if (patches) patches[i] = np;
        if (np > r.patches_max) r.patches_max = np;
        if (r.apart == steps && pair_record(&s) < 0) r.apart = i;
        if (i + 1 == SETTLE_STEPS + PUSH_A0) r.v_a0 = dBodyGetLinearVel(s.top)[0];
        if (i + 1 == steps / 2) {
            pos(s.top, r.top0);
            pos(s.bot, r.bot0);
        }
        if (traj) {
            pos(s.top, traj[i]);
            pos(s.bot, traj[i] + 3);
        }
    }
    pos(s.top, r.top);
    pos(s.bot, r.bot);
    if (steps > SETTLE_STEPS + PUSH_A0)
        r.accel = (dBodyGetLinearVel(s.top)[0] - r.v_a0) / ((steps - SETTLE_STEPS - PUSH_A0) * DT);
    const int idx = pair_record(&s);
    ck_assert_int_ge(idx, 0);
    const pfOdePair *p = pf_ode_pair_at(s.pf, idx);
    r.state = p->persist.state;
    memcpy(r.anchor1, p->persist.anchor1, sizeof r.anchor1);
    r.body1_is_top = p->step.b1 == s.top;
    scene_free(&s);
    return r;
}

static double dist(const double *a, const double *b)
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

static const char *coupling_name(pfOdeCoupling c)
{
    return c == PF_ODE_COUPLING_SOLVER ? "solver" : "adapter";
}

/* Resting, turned at every step, against the same first order kept fixed: one record for the
 * pair (two patches in the scene in every step, as in the fixed run), the same joints on the top
 * box in every step, both boxes where the fixed run has them after every step, and at the end
 * the patch stuck at the fixed run's anchor and the creep after settling within the target.
 * Compared while the pair holds together: under QuickStep the in-solver coupling lets the pair
 * go for a step when the top box lifts clear (it does not carry the support yet,
 * test_scene_stack.c), and the pair found again is a new one in the order of that call. */
START_TEST(test_turned_pair_rests_as_fixed)
{
    const pfOdeCoupling couplings[] = {PF_ODE_COUPLING_ADAPTER, PF_ODE_COUPLING_SOLVER};
    const int nc = pf_ode_solver_coupling_available() ? 2 : 1;
    static int joints[2][REST_STEPS], patches[2][REST_STEPS];
    static double traj[2][REST_STEPS][6];
    for (int c = 0; c < nc; ++c)
        for (int quick = 0; quick < 2; ++quick)
            for (int first = 0; first < 2; ++first) {
                const int fixed = first ? BOTTOM_FIRST : TOP_FIRST;
                const int turned = first ? TURN_FROM_BOTTOM : TURN_FROM_TOP;
                Run f = run(fixed, quick, couplings[c], REST_STEPS, 0.0, joints[0], patches[0],
                            traj[0]);
                Run t = run(turned, quick, couplings[c], REST_STEPS, 0.0, joints[1], patches[1],
                            traj[1]);
                const int n = f.apart < t.apart ? f.apart : t.apart;
                int other_joints = 0, other_patches = 0;
                double diff = 0.0;
                for (int i = 0; i < n; ++i) {
                    other_joints += joints[1][i] != joints[0][i];
                    other_patches += patches[1][i] != patches[0][i];
                    diff = fmax(diff, fmax(dist(traj[1][i], traj[0][i]),
                                           dist(traj[1][i] + 3, traj[0][i] + 3)));
                }
                const double creep_f = dist(f.top, f.top0), creep_t = dist(t.top, t.top0);
                printf("rest %s %s, %s first: fixed: %d patches, %d joints on the top box, creep "
                       "%.3g m, the pair held together for %d steps; turned: %d patches, %d "
                       "joints, %d and %d steps with other patches and joints than fixed and "
                       "boxes up to %.3g m from it while held together (%d steps), creep %.3g m, "
                       "anchor %.3g m from fixed\n",
                       coupling_name(couplings[c]), quick ? "QuickStep" : "WorldStep",
                       first ? "bottom" : "top", f.patches_max, f.joints_max, creep_f, f.apart,
                       t.patches_max, t.joints_max, other_patches, other_joints, diff, t.apart,
                       creep_t, dist(t.anchor1, f.anchor1));
                ck_assert_int_eq(t.apart, f.apart);
                ck_assert_int_eq(other_patches, 0);
                ck_assert_int_eq(other_joints, 0);
                ck_assert_double_le(diff, ROUNDING);
                if (quick && couplings[c] == PF_ODE_COUPLING_SOLVER) continue;
                ck_assert_int_eq(f.apart, REST_STEPS);
                ck_assert_int_eq(t.body1_is_top, f.body1_is_top);
                ck_assert_int_eq(t.state, PF_ODE_STATE_STICK);
                ck_assert_int_eq(f.state, PF_ODE_STATE_STICK);
                ck_assert_double_le(dist(t.anchor1, f.anchor1), ROUNDING);
                ck_assert_double_le(creep_t, CREEP_M);
            }
}
END_TEST

/* The top box pushed along +x at 1.2 mu_s m g slides on the lower one. Turned at every step, it
 * moves as with the first order kept fixed, whether that makes the top box body 1 or the lower
 * one, step for step while the pair holds together (a pair that lets go starts afresh in the
 * order of the call that finds it again). Friction acts on each body in its own direction: where
 * the slide is clean (dWorldStep on an ODE whose Dantzig solver takes degenerate zero steps) the
 * top box's acceleration is (1.2 mu_s - mu_k) g in every order, and the lower box, held by the
 * ground, stays put. Printed only elsewhere: Debian's dWorldStep gives up on some step of the
 * slide ("LCP internal error") and QuickStep's 20 iterations let the pair lift apart for a step;
 * which step that is depends on the last bits, so the two fixed orders differ there. */
START_TEST(test_turned_pair_pushed_moves_as_fixed)
{
    const pfOdeCoupling couplings[] = {PF_ODE_COUPLING_ADAPTER, PF_ODE_COUPLING_SOLVER};
    const int nc = pf_ode_solver_coupling_available() ? 2 : 1;
    const int zero_step = dCheckConfiguration("ODE_EXT_lcp_zero_step");
    const double push = 1.2 * MU * MASS * G, accel = (1.2 * MU - MU) * G;
    enum { N = SETTLE_STEPS + PUSH_STEPS };
    static double traj[4][N][6];
    for (int c = 0; c < nc; ++c)
        for (int quick = 0; quick < 2; ++quick) {
            Run r[4];
            for (int o = 0; o < 4; ++o)
                r[o] = run(o, quick, couplings[c], N, push, NULL, NULL, traj[o]);
            for (int o = 0; o < 4; ++o)
                printf("pushed %s %s, order %d: body 1 the %s box; top box at (%.9g, %.3g) m, "
                       "acceleration %.7g m/s^2 (closed form %.7g); lower box %.3g m; the pair "
                       "held together for %d steps\n",
                       coupling_name(couplings[c]), quick ? "QuickStep" : "WorldStep", o,
                       r[o].body1_is_top ? "top" : "lower", r[o].top[0], r[o].top[1], r[o].accel,
                       accel, hypot(r[o].bot[0], r[o].bot[1]), r[o].apart);
            /* turned at every step: the motion of the first order kept fixed */
            for (int first = 0; first < 2; ++first) {
                const int f = first ? BOTTOM_FIRST : TOP_FIRST;
                const int t = first ? TURN_FROM_BOTTOM : TURN_FROM_TOP;
                ck_assert_int_eq(r[t].apart, r[f].apart);
                ck_assert_int_gt(r[f].apart, SETTLE_STEPS + PUSH_A0); /* into the slide */
                double diff = 0.0;
                for (int i = 0; i < r[f].apart; ++i)
                    diff = fmax(diff, fmax(dist(traj[t][i], traj[f][i]),
                                           dist(traj[t][i] + 3, traj[f][i] + 3)));
                ck_assert_double_le(diff, ROUNDING);
            }
            if (quick || !zero_step) continue;
            /* either body first: the closed-form slide along +x, the lower box put */
            ck_assert_int_eq(r[TOP_FIRST].body1_is_top, 1);
            ck_assert_int_eq(r[BOTTOM_FIRST].body1_is_top, 0);
            for (int o = 0; o < 4; ++o) {
                ck_assert_int_eq(r[o].apart, N);
                ck_assert_double_eq_tol(r[o].accel / accel, 1.0, ACCEL_REL);
                ck_assert_double_le(fabs(r[o].top[1]), CREEP_M);
                ck_assert_double_le(hypot(r[o].bot[0], r[o].bot[1]), CREEP_M);
            }
        }
}
END_TEST

/* The records of the two boxes' pair, in either order. */
static int box_pair_records(const Scene *s)
{
    int n = 0;
    for (int a = 0; a < s->pf->alive_count; ++a) {
        const pfOdePair *p = pf_ode_pair_at(s->pf, s->pf->alive[a]);
        n += (p->g1 == s->gtop && p->g2 == s->gbot) || (p->g1 == s->gbot && p->g2 == s->gtop);
    }
    return n;
}

/* Body 1 is the dynamic body: the lower box made kinematic under the top one hands body 1 to the
 * top box, whichever order the calls take. Where the pair's record had the lower box as body 1,
 * it takes the new order and starts afresh (nothing of its past is in that order's frame); it
 * stays the pair's one record, with no second record beside it carrying the old support, and the
 * top box, resting on the kinematic box, sticks again. */
START_TEST(test_kinematic_body_turns_the_record)
{
    for (int order = TOP_FIRST; order <= BOTTOM_FIRST; ++order) {
        Scene s;
        scene_make(&s, order, 0, PF_ODE_COUPLING_ADAPTER);
        for (int i = 0; i < 50; ++i)
            scene_step(&s, 0.0);
        int idx = pair_record(&s);
        ck_assert_int_ge(idx, 0);
        ck_assert_int_eq(pf_ode_pair_at(s.pf, idx)->step.b1 == s.top, order == TOP_FIRST);
        dBodySetKinematic(s.bot);
        dBodySetLinearVel(s.bot, 0, 0, 0);
        dBodySetAngularVel(s.bot, 0, 0, 0);
        int most = 0;
        for (int i = 0; i < 50; ++i) {
            scene_step(&s, 0.0);
            if (box_pair_records(&s) > most) most = box_pair_records(&s);
        }
        idx = pair_record(&s);
        ck_assert_int_ge(idx, 0);
        const pfOdePair *p = pf_ode_pair_at(s.pf, idx);
        printf("kinematic lower box, %s first: %d records of the pair at most, body 1 the %s box, "
               "state %d\n",
               order == TOP_FIRST ? "top" : "bottom", most, p->step.b1 == s.top ? "top" : "lower",
               (int)p->persist.state);
        ck_assert_int_eq(most, 1);
        ck_assert_ptr_eq(p->step.b1, s.top);
        ck_assert_ptr_eq(p->g1, s.gtop);
        ck_assert_int_eq(p->persist.state, PF_ODE_STATE_STICK);
        scene_free(&s);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("ode_turned");
    TCase *tc = tcase_create("turned");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_turned_pair_rests_as_fixed);
    tcase_add_test(tc, test_turned_pair_pushed_moves_as_fixed);
    tcase_add_test(tc, test_kinematic_body_turns_the_record);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
