/* A box face on a trimesh floor (pf_ode_patch.c, mesh_face): its patch is the face's overlap with
 * the mesh's triangles, not the hull of the points ODE's box-trimesh collider happens to report.
 * A box pushed across a floor of 0.25 m square cells, each two triangles (a floor as a mesh
 * exporter writes it), straddling the cells' edges and diagonals: nothing turns it, so its yaw
 * rate stays 0, and once let go it slides to rest decelerating at mu_k g (Coulomb's law for a
 * body sliding on a level floor, closed form). Where the collider missed a corner of the face,
 * or reported a point beyond it, the patch was the hull of its points, centred off the face, and
 * the friction acting there turned the box at up to 0.46 rad/s (dWorldStep, 1 ms). */
#include "pf_ode_test_scene.h"
#include "pf_test_support.h"

#include <patchfriction/pf_ode.h>

#include <check.h>
#include <math.h>
#include <ode/ode.h>
#include <stdio.h>

#define MU 0.5       /* mu_s = mu_k */
#define MASS 1.0     /* [kg] */
#define LX 0.12      /* the box's sides [m] */
#define LY 0.08      /* (the face on the floor is LX by LY) */
#define LZ 0.04      /* */
#define CELL 0.25    /* the floor's cells [m] */
#define PUSH 1.5     /* the push, in units of mu m g: the box slides while pushed */
#define T_PUSH 0.4   /* pushed for this long from rest [s] */
#define T_SLIDE 0.1  /* then let go: its deceleration measured over this long, still sliding [s] */
#define YAW_TOL 1e-6 /* yaw rate [rad/s] */
#define DECEL_TOL 1e-3 /* deceleration relative to mu_k g */
/* QuickStep's iterations: at ODE's default 20 its rows, unconverged where the box crosses a
 * cell's edge, leave a yaw rate of up to 2.5e-5 rad/s (5 ms, surface layer 0, y0 = 0.013; stock
 * friction on such a floor: up to 4.2e-2 rad/s) */
#define QUICK_ITERATIONS 100
/* The deceleration is checked with the world's surface layer at 1e-4 m, not at 0: a box resting
 * at depth ~1e-9 m (layer 0) now and then gets no contact at all from ODE's box-trimesh collider
 * for a step, though it is 0.8 nm deep, falls for that step (g dt, 0.25 mm at 5 ms) and lands,
 * and the landing's normal force adds about one step's friction to the 0.1 s measured (+5 % at
 * 5 ms): the collider's, not the patch's. The yaw rate is checked at both layers. */
#define DECEL_LAYER 1e-4

/* the box's lateral offsets from the cells' edge along x (y = 0): on it, and with the face
 * across it by a third and by a fortieth of its width [m] */
static const double Y0[3] = {0.0, 0.013, 0.038};

typedef struct run {
    double yaw;   /* largest |yaw rate| [rad/s] */
    double decel; /* deceleration after the push [m/s^2] */
} run;

static void near_cb(void *data, dGeomID a, dGeomID b)
{
    pfOdeTestMeshWorld *s = data;
    ck_assert_int_ge(pf_ode_collide(s->pf, a, b, s->group), 0);
}

static void step(pfOdeTestMeshWorld *s, int quick, double dt)
{
    dSpaceCollide(s->space, s, near_cb);
    ck_assert_int_eq(pf_ode_before_step(s->pf, dt), PF_OK);
    if (quick)
        dWorldQuickStep(s->world, dt);
    else
        dWorldStep(s->world, dt);
    ck_assert_int_eq(pf_ode_after_step(s->pf), PF_OK);
    dJointGroupEmpty(s->group);
}

static run push_across(int quick, double dt, double layer, double y0)
{
    double v[3 * PF_ODE_TEST_MESH_MAXV];
    dTriIndex idx[PF_ODE_TEST_MESH_MAXI];
    int nv = 0, ni = 0;
    pf_ode_test_grid(CELL, 8, 2, -1.0, -CELL, v, &nv, idx, &ni);
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = pf_ode_test_coupling;
    cfg.stepper = quick ? PF_ODE_STEPPER_QUICK : PF_ODE_STEPPER_WORLD;
    pfOdeMaterial mat = pf_ode_test_material(MU, MU);
    pfOdeTestMeshWorld s;
    pf_ode_test_mesh_world_with(&s, &cfg, &mat, v, nv, idx, ni);
    dWorldSetQuickStepNumIterations(s.world, QUICK_ITERATIONS);
    dWorldSetContactSurfaceLayer(s.world, layer);
    s.body = dBodyCreate(s.world);
    dMass m;
    dMassSetBoxTotal(&m, MASS, LX, LY, LZ);
    dBodySetMass(s.body, &m);
    dBodySetPosition(s.body, -0.9, y0, 0.5 * LZ);
    s.box = dCreateBox(s.space, LX, LY, LZ);
    dGeomSetBody(s.box, s.body);
    run r = {0.0, 0.0};
    const int n_push = (int)lround(T_PUSH / dt), n_slide = (int)lround(T_SLIDE / dt);
    double v0 = 0.0;
    for (int k = 0; k < n_push + n_slide; ++k) {
        if (k < n_push) dBodyAddForce(s.body, PUSH * MU * MASS * PF_ODE_TEST_G, 0, 0);
        step(&s, quick, dt);
        r.yaw = fmax(r.yaw, fabs(dBodyGetAngularVel(s.body)[2]));
        if (k == n_push - 1) v0 = dBodyGetLinearVel(s.body)[0];
    }
    const double v1 = dBodyGetLinearVel(s.body)[0];
    ck_assert(v1 > 0.0); /* still sliding: the deceleration is the kinetic friction's */
    r.decel = (v0 - v1) / (n_slide * dt);
    pf_ode_test_mesh_world_free(&s);
    return r;
}

START_TEST(test_box_on_grid_slides_straight)
{
    const double dts[2] = {1e-3, 5e-3}, layers[2] = {0.0, DECEL_LAYER};
    const double a_ref = MU * PF_ODE_TEST_G;
    int failed = 0;
    for (int quick = 0; quick <= 1; ++quick)
        for (int d = 0; d < 2; ++d)
            for (int l = 0; l < 2; ++l)
                for (int i = 0; i < 3; ++i) {
                    const run r = push_across(quick, dts[d], layers[l], Y0[i]);
                    const double rel = r.decel / a_ref - 1.0;
                    /* (at surface layer 0 the deceleration is printed, not checked: see
                     * DECEL_LAYER) */
                    const int ok =
                        r.yaw <= YAW_TOL && (layers[l] != DECEL_LAYER || fabs(rel) <= DECEL_TOL);
                    printf("%s dt=%g layer=%g y0=%g: largest yaw rate %.3e rad/s (<= %g), "
                           "deceleration %.6f m/s^2 = mu_k g %+.2e (%s %g) %s\n",
                           pf_ode_test_stepper_name(quick), dts[d], layers[l], Y0[i], r.yaw,
                           YAW_TOL, r.decel, rel, layers[l] == 0.0 ? "unchecked," : "<=", DECEL_TOL,
                           ok ? "ok" : "FAIL");
                    fflush(stdout);
                    failed += !ok;
                }
    ck_assert_int_eq(failed, 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *su = suite_create("ode_mesh_face");
    TCase *tc = tcase_create("mesh_face");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_box_on_grid_slides_straight);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
