/* Face rows (docs/physics.md P36c; docs/architecture.md, "Face rows"): under a declared
 * QuickStep, a stuck rectangular face is supported by one normal row at its centre and two tilt
 * rows bounded by the moment its pressure can carry (dWorldStep keeps a row per point).
 *
 * - A box on a box rests under both steppers at 1 and 5 ms (ODE's defaults, QuickStep at 20
 *   iterations): before the face rows the four coplanar point rows of each face (three
 *   independent constraints) left QuickStep's sweeps unconverged along the redundant directions,
 *   and the top box crept 2.1e-5 m in 5 s at 5 ms (6.2e-7 m at 1 ms).
 * - The tilt rows' bounds are the rigid face's: a box of base lx x ly and height lz pushed
 *   sideways at its mass centre tips when F (lz/2) exceeds m g (l/2), l its base along the push
 *   (closed form, docs/physics.md P36c), and stays flat below it; pushed along x and along y, so
 *   that the bounds cannot be swapped between the axes; both steppers, 1 and 5 ms.
 * - The face's normal row starts QuickStep's iterations from the measured normal force (the
 *   preload, P36d), and where faces alone hold their bodies every row starts from a solve of the
 *   step (the presolve, P36e): each face of a resting ten-box tower carries the weight above it
 *   to 1e-9 relative, at 1 and 5 ms, with either coupling; and that start is the sweeps' fixed
 *   point: a step of the tower and of the pyramid at 20 iterations ends with the faces' wrenches
 *   of the same step at 5000.
 * - A polygon face (a cube partly over a ledge) rests on face rows too, while its centre of
 *   pressure lies well inside it; near its edge the point rows carry it. */
#include "pf_ode_test_scene.h"
#include "pf_scene.h"
#include "pf_test_support.h"

#include <check.h>
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static double metric(const pfSceneMetric *m, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (!strcmp(m[i].name, name)) return m[i].value;
    ck_abort_msg("metric %s missing", name);
    return NAN;
}

START_TEST(test_box_on_box_rests)
{
    const double dts[2] = {1e-3, 5e-3};
    const char *steppers[2] = {"world", "quick"};
    for (int q = 0; q < 2; ++q)
        for (int k = 0; k < 2; ++k) {
            const double dt = dts[k];
            pfSceneParam kv[] = {{"stepper", steppers[q]}, {"coupling", "adapter"}};
            pfScene *s = NULL;
            pfError err;
            ck_assert_int_eq(
                pf_scene_create("stack", "two-box", PF_ODE_MODE_EXACT, kv, 2, &s, &err), PF_OK);
            while (pf_scene_time(s) < 5.5 - 0.5 * dt)
                ck_assert_int_eq(pf_scene_step(s, dt, &err), PF_OK);
            pfSceneMetric m[PF_SCENE_MAX_METRICS];
            int n = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
            pfOdeCounters c = pf_ode_get_counters(pf_scene_ode_context(s));
            const double creep = metric(m, n, "creep"), rot = metric(m, n, "creep_rot");
            printf("two-box %s %g ms: creep %.3g m, %.3g rad in 5 s, fastest after 1 s %.3g "
                   "m/s, %lld face patch-steps of %lld\n",
                   steppers[q], dt * 1e3, creep, rot, metric(m, n, "fastest_after_1s"),
                   c.face_patches, c.patches);
            ck_assert_double_le(creep, 1e-9);
            ck_assert_double_le(rot, 1e-8);
            /* face rows under the declared QuickStep only: dWorldStep keeps the point rows */
            if (q)
                ck_assert_int_gt(c.face_patches, c.patches / 2);
            else
                ck_assert_int_eq(c.face_patches, 0);
            pf_scene_destroy(s);
        }
}
END_TEST

/* The preload and the presolve of the face rows (docs/physics.md P36d, P36e): in a resting
 * ten-box tower under QuickStep at its 20 iterations, the measured normal force of each face is
 * the weight above it, k m g for the face under the k-th box from the top (statics), to 1e-9
 * relative in every step after the first second, at 1 and 5 ms, with either coupling (the
 * in-solver one, on the patched ODE, gives its stuck patches the adapter's rows under QuickStep).
 * Without the preload the iterations, starting from zero forces each step, left the faces' forces
 * 25 % (1 ms) and 20 % (5 ms) off the weight and the tower rocked: it crept 9e-5 m at 1 ms in 5 s,
 * 3e-7 m with the preload. With the preload alone the forces were within 1.4e-10 (1 ms) and
 * 4.4e-8 (5 ms) of the weight; with the presolve, whose start is the sweeps' fixed point, within
 * 1e-14. */
START_TEST(test_tower_normal_forces)
{
    const double dts[2] = {1e-3, 5e-3};
    const char *couplings[2] = {"adapter", "solver"};
    const int nc = dCheckConfiguration("ODE_EXT_patch_friction") ? 2 : 1;
    for (int c = 0; c < nc; ++c)
        for (int k = 0; k < 2; ++k) {
            const double dt = dts[k];
            pfSceneParam kv[] = {{"stepper", "quick"}, {"coupling", couplings[c]}};
            pfScene *s = NULL;
            pfError err;
            ck_assert_int_eq(pf_scene_create("stack", "tower", PF_ODE_MODE_EXACT, kv, 2, &s, &err),
                             PF_OK);
            dGeomID g[16];
            const int ng = pf_scene_geoms(s, g, 16); /* the ground, then the boxes upwards */
            ck_assert_int_eq(ng, 11);
            pfOdeContext *ctx = pf_scene_ode_context(s);
            double worst = 0.0;
            long long faces = 0, measured = 0;
            while (pf_scene_time(s) < 5.0 - 0.5 * dt) {
                ck_assert_int_eq(pf_scene_step(s, dt, &err), PF_OK);
                if (pf_scene_time(s) < 1.0) continue;
                for (int i = 1; i < ng; ++i) {
                    pfOdePatchInfo pi;
                    ck_assert_int_eq(pf_ode_find_patch(ctx, g[i - 1], g[i], &pi), PF_OK);
                    const double above = (ng - i) * 1.0 * 9.81; /* 1 kg cubes, g = 9.81 */
                    worst = fmax(worst, fabs(pi.normal_force_measured / above - 1.0));
                    measured++;
                }
            }
            faces = pf_ode_get_counters(ctx).face_patches;
            printf("tower quick %s %g ms: measured N within %.3g of the weight above, %lld face "
                   "patch-steps\n",
                   couplings[c], dt * 1e3, worst, faces);
            ck_assert_int_gt(measured, 0);
            ck_assert_double_le(worst, 1e-9);
            pf_scene_destroy(s);
        }
}
END_TEST

/* The face presolve's start is QuickStep's fixed point (docs/physics.md P36e): its rows aim at what
 * the start reaches, and their compliance acts on what they add. Two identical stacks are stepped
 * to 2 s under QuickStep at 20 iterations; then one takes a step at 20 iterations and the other at
 * 5000, and each face's measured normal force and friction wrench agree to 1e-9 of the normal
 * force, at 1 and 5 ms, for the tower (a chain of faces) and the pyramid (faces in loops). With
 * the preload alone they differed by up to 2.0e-4 (tower, 1 ms) and 2.1e-2 (5 ms) of N, and in
 * the pyramid the load moved between the two faces under a box (one that carried nothing after
 * 20 sweeps carried load after 5000); with the presolve by 7e-15 and 3e-12. */
START_TEST(test_presolve_is_fixed_point)
{
    const char *cases[2] = {"tower", "pyramid"};
    const double dts[2] = {1e-3, 5e-3};
    for (int c = 0; c < 2; ++c)
        for (int k = 0; k < 2; ++k) {
            pfScene *s[2] = {NULL, NULL};
            pfError err;
            pfSceneParam kv[] = {{"stepper", "quick"}, {"coupling", "adapter"}};
            for (int i = 0; i < 2; ++i) {
                ck_assert_int_eq(
                    pf_scene_create("stack", cases[c], PF_ODE_MODE_EXACT, kv, 2, &s[i], &err),
                    PF_OK);
                while (pf_scene_time(s[i]) < 2.0 - 0.5 * dts[k])
                    ck_assert_int_eq(pf_scene_step(s[i], dts[k], &err), PF_OK);
            }
            dWorldSetQuickStepNumIterations(pf_scene_world(s[1]), 5000);
            for (int i = 0; i < 2; ++i)
                ck_assert_int_eq(pf_scene_step(s[i], dts[k], &err), PF_OK);
            pfOdeContext *ctx[2] = {pf_scene_ode_context(s[0]), pf_scene_ode_context(s[1])};
            dGeomID g[2][32];
            const int ng = pf_scene_geoms(s[0], g[0], 32);
            ck_assert_int_eq(pf_scene_geoms(s[1], g[1], 32), ng);
            const int np = pf_ode_patch_count(ctx[0]);
            ck_assert_int_eq(np, pf_ode_patch_count(ctx[1]));
            ck_assert_int_gt(np, 0);
            double worst = 0.0;
            for (int p = 0; p < np; ++p) {
                /* the same pair in the other scene: its geoms by their places in the scene */
                pfOdePatchInfo a, b;
                ck_assert_int_eq(pf_ode_get_patch(ctx[0], p, &a), PF_OK);
                int i1 = -1, i2 = -1;
                for (int i = 0; i < ng; ++i) {
                    if (g[0][i] == a.geom1) i1 = i;
                    if (g[0][i] == a.geom2) i2 = i;
                }
                ck_assert(i1 >= 0 && i2 >= 0);
                ck_assert_int_eq(pf_ode_find_patch(ctx[1], g[1][i1], g[1][i2], &b), PF_OK);
                const double N = a.normal_force_measured;
                ck_assert_double_gt(N, 0.0);
                const double d[4] = {a.normal_force_measured - b.normal_force_measured,
                                     a.wrench.fx - b.wrench.fx, a.wrench.fy - b.wrench.fy,
                                     (a.wrench.mz - b.wrench.mz) / 0.05};
                for (int q = 0; q < 4; ++q)
                    worst = fmax(worst, fabs(d[q]) / N);
            }
            printf("%s quick %g ms: 20 and 5000 iterations agree to %.3g of N over %d faces, "
                   "%lld face patch-steps of %lld\n",
                   cases[c], dts[k] * 1e3, worst, np, pf_ode_get_counters(ctx[0]).face_patches,
                   pf_ode_get_counters(ctx[0]).patches);
            ck_assert_double_le(worst, 1e-9);
            for (int i = 0; i < 2; ++i)
                pf_scene_destroy(s[i]);
        }
}
END_TEST

/* A 0.1 m cube of 1 kg resting on a static slab with frac of it over the slab's edge, turned by
 * yaw about the vertical, under a declared QuickStep at 20 iterations (ODE's defaults, no surface
 * layer, mu 0.6), 5.5 s: creep [m] and rotation [rad] from its pose at 0.5 s, and the patch-steps
 * on face rows. The patch is the part of the cube's face on the slab, a polygon. */
static void ledge(double frac, double yaw_deg, double dt, double *creep, double *rot,
                  long long *faces, long long *patches)
{
    dInitODE2(0);
    dRandSetSeed(1); /* QuickStep's row order: the same whatever ran before */
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dSpaceID sp = dHashSpaceCreate(0);
    dJointGroupID grp = dJointGroupCreate(0);
    dGeomID slab = dCreateBox(sp, 1.0, 1.0, 0.1);
    dGeomSetPosition(slab, -0.5, 0, -0.05); /* top face z = 0, edge at x = 0 */
    dBodyID b = dBodyCreate(w);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 0.1, 0.1, 0.1);
    dBodySetMass(b, &m);
    dGeomID g = dCreateBox(sp, 0.1, 0.1, 0.1);
    dGeomSetBody(g, b);
    dBodySetPosition(b, frac * 0.1 - 0.05, 0, 0.05);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, yaw_deg * M_PI / 180.0);
    dBodySetRotation(b, R);
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.stepper = PF_ODE_STEPPER_QUICK;
    cfg.coupling = PF_ODE_COUPLING_ADAPTER;
    pfOdeContext *pf = NULL;
    ck_assert_int_eq(pf_ode_create(w, &cfg, &pf, NULL), PF_OK);
    pfOdeMaterial mat = pf_ode_default_material();
    mat.mu_s = mat.mu_k = 0.6;
    ck_assert_int_eq(pf_ode_set_default_material(pf, &mat, NULL), PF_OK);
    pf_ode_set_contact_group(pf, grp);
    double p0[3] = {0, 0, 0};
    dQuaternion q0 = {1, 0, 0, 0};
    *creep = *rot = 0.0;
    const int n = (int)(5.5 / dt + 0.5);
    for (int i = 1; i <= n; ++i) {
        dSpaceCollide(sp, pf, pf_ode_near_callback);
        ck_assert_int_eq(pf_ode_before_step(pf, dt), PF_OK);
        dWorldQuickStep(w, dt);
        ck_assert_int_eq(pf_ode_after_step(pf), PF_OK);
        dJointGroupEmpty(grp);
        const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
        if (i == (int)(0.5 / dt + 0.5)) {
            for (int k = 0; k < 3; ++k)
                p0[k] = p[k];
            for (int k = 0; k < 4; ++k)
                q0[k] = q[k];
        } else if (i > (int)(0.5 / dt + 0.5)) {
            *creep = fmax(*creep,
                          sqrt(pow(p[0] - p0[0], 2) + pow(p[1] - p0[1], 2) + pow(p[2] - p0[2], 2)));
            /* the angle of q0* q, from its vector part (exact near 0, unlike acos of its w) */
            dQuaternion c0 = {q0[0], -q0[1], -q0[2], -q0[3]}, qq = {q[0], q[1], q[2], q[3]}, r;
            dQMultiply0(r, c0, qq);
            *rot =
                fmax(*rot, 2.0 * atan2(sqrt(r[1] * r[1] + r[2] * r[2] + r[3] * r[3]), fabs(r[0])));
        }
    }
    const pfOdeCounters c = pf_ode_get_counters(pf);
    *faces = c.face_patches;
    *patches = c.patches;
    pf_ode_destroy(pf);
    dJointGroupDestroy(grp);
    dSpaceDestroy(sp);
    dWorldDestroy(w);
}

/* Face rows on a polygon (docs/physics.md P36c): a cube resting with 20 % of it over a ledge,
 * square to the edge and turned by 3 and 10 degrees (the part on the slab a rectangle, a
 * trapezoid, a pentagon), at 1 and 5 ms, rests on its face rows to 1e-9 m and 1e-8 rad (on its
 * point rows it crept 5.8e-6 m at 1 ms and 1.5e-4 m at 5 ms). The tilt rows of a polygon allow
 * only the box that fits in it; where they end at its edge, the point rows carry the face: with
 * 49.5 % over the edge and turned by 3 degrees (1 ms) the cube stays on the ledge, where with
 * the face rows alone it tipped off. */
START_TEST(test_ledge_polygon_face)
{
    const double yaws[3] = {0.0, 3.0, 10.0}, dts[2] = {1e-3, 5e-3};
    double creep, rot;
    long long faces, patches;
    for (int y = 0; y < 3; ++y)
        for (int k = 0; k < 2; ++k) {
            ledge(0.2, yaws[y], dts[k], &creep, &rot, &faces, &patches);
            printf("ledge 20 %% over, turned %g deg, %g ms: creep %.3g m, %.3g rad, %lld face "
                   "patch-steps of %lld\n",
                   yaws[y], dts[k] * 1e3, creep, rot, faces, patches);
            ck_assert_int_gt(faces, patches * 9 / 10);
            ck_assert_double_le(creep, 1e-9);
            ck_assert_double_le(rot, 1e-8);
        }
    ledge(0.495, 3.0, 1e-3, &creep, &rot, &faces, &patches);
    printf("ledge 49.5 %% over, turned 3 deg, 1 ms: creep %.3g m, %.3g rad, %lld face patch-steps "
           "of %lld\n",
           creep, rot, faces, patches);
    ck_assert_double_le(creep, 1e-3);
    ck_assert_double_le(rot, 1e-2);
}
END_TEST

/* Largest tilt [rad] of a box lx x ly x lz (1 kg, mu 0.8) pushed at its mass centre along axis
 * (0: x, 1: y) with frac times the tipping force, for 0.5 s after 0.2 s at rest. */
static double pushed_tilt(int quick, double dt, double frac, int axis, long long *faces)
{
    const double lx = 0.1, ly = 0.2, lz = 0.3, m = 1.0, mu = 0.8;
    const double l = axis ? ly : lx, f_tip = m * PF_ODE_TEST_G * (0.5 * l) / (0.5 * lz);
    ck_assert(f_tip < mu * m * PF_ODE_TEST_G); /* it would tip before it slides */
    pfOdeMaterial mat = pf_ode_test_material(mu, mu);
    pfOdeTestScene s;
    pf_ode_test_box(&s, lx, ly, lz, m, &mat, quick, dt, 0.0);
    while (s.time < 0.2 - 0.5 * dt)
        pf_ode_test_step(&s);
    double tilt = 0.0;
    while (s.time < 0.7 - 0.5 * dt) {
        dBodyAddForce(s.body, axis ? 0.0 : frac * f_tip, axis ? frac * f_tip : 0.0, 0.0);
        pf_ode_test_step(&s);
        const dReal *rot = dBodyGetRotation(s.body);
        tilt = fmax(tilt, acos(fmin(1.0, (double)rot[10])));
    }
    *faces = pf_ode_get_counters(s.pf).face_patches;
    pf_ode_test_free(&s);
    return tilt;
}

START_TEST(test_tipping_threshold)
{
    const double dts[2] = {1e-3, 5e-3};
    pf_ode_test_declare_stepper = 1;
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 2; ++k)
            for (int axis = 0; axis < 2; ++axis) {
                long long faces_hold, faces_tip;
                const double hold = pushed_tilt(quick, dts[k], 0.95, axis, &faces_hold);
                const double tip = pushed_tilt(quick, dts[k], 1.05, axis, &faces_tip);
                printf("%s %g ms, pushed along %c: tilt %.3g rad at 0.95 of the tipping force "
                       "(%lld face patch-steps), %.3g rad at 1.05\n",
                       pf_ode_test_stepper_name(quick), dts[k] * 1e3, axis ? 'y' : 'x', hold,
                       faces_hold, tip);
                if (quick) ck_assert_int_gt(faces_hold, 0);
                ck_assert_double_le(hold, 1e-4);
                ck_assert_double_ge(tip, 1e-2);
            }
    pf_ode_test_declare_stepper = 0;
}
END_TEST

int main(void)
{
    /* the face rows are the adapter coupling's (the in-solver coupling's patch joint carries its
     * own normal rows) */
    pf_ode_test_coupling = PF_ODE_COUPLING_ADAPTER;
    Suite *su = suite_create("ode_face");
    TCase *tc = tcase_create("face");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_box_on_box_rests);
    tcase_add_test(tc, test_tipping_threshold);
    tcase_add_test(tc, test_tower_normal_forces);
    tcase_add_test(tc, test_presolve_is_fixed_point);
    tcase_add_test(tc, test_ledge_polygon_face);
    suite_add_tcase(su, tc);
    return pf_test_run_suite(su);
}
