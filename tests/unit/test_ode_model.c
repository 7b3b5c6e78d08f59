/* The adapter's body-mobility model (plugin/ode/pf_ode_model.c): a body's M^-1, the projection
 * that removes the rows of the joints holding it, the Delassus block of the patch rows and the
 * symmetric 3x3 eigen-solver. Every expected value is a closed form computed here by hand from
 * the box's inertia (I = m (b^2 + c^2) / 12 ...), never with the code under test. */
#include "pf_ode_model.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <string.h>

/* Named tolerances: the model is a few dozen flops per entry, so its rounding is ~1e-15
 * relative; the bounds leave room for ODE's rotation matrices (built from a quaternion). */
#define MODEL_REL_TOL 1e-12
#define JACOBI_TOL 1e-12

/* A box body: side lengths a x b x c (body x, y, z) [m], mass m [kg], at (1, -2, 0.5), turned
 * by YAW about the world z axis. */
#define BOX_A 0.3
#define BOX_B 0.2
#define BOX_C 0.1
#define BOX_M 2.5
#define YAW 0.6

static dWorldID world;

static void setup(void)
{
    dInitODE2(0);
    world = dWorldCreate();
}

static void teardown(void)
{
    dWorldDestroy(world);
    dCloseODE();
}

static dBodyID make_box(double a, double b, double c, double m, double yaw)
{
    dBodyID body = dBodyCreate(world);
    dMass mass;
    dMassSetBoxTotal(&mass, m, a, b, c);
    dBodySetMass(body, &mass);
    dBodySetPosition(body, 1.0, -2.0, 0.5);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, yaw);
    dBodySetRotation(body, R);
    return body;
}

/* Principal moments of the box about its body axes [kg m^2]. */
static void box_moments(double a, double b, double c, double m, double I[3])
{
    I[0] = m * (b * b + c * c) / 12.0;
    I[1] = m * (a * a + c * c) / 12.0;
    I[2] = m * (a * a + b * b) / 12.0;
}

static double rel_err(double got, double want, double scale)
{
    return fabs(got - want) / scale;
}

#define CHECK_NEAR(got, want, scale, tol)                                                          \
    ck_assert_msg(rel_err((got), (want), (scale)) <= (tol), "%s = %.17g, expected %.17g", #got,    \
                  (double)(got), (double)(want))

/* Free body: M^-1 (f, tau) = (f / m, R diag(1/I) R^T tau) with R the yaw about z. */
START_TEST(test_free_body_minv)
{
    dBodyID body = make_box(BOX_A, BOX_B, BOX_C, BOX_M, YAW);
    pfOdeBodyModel bm;
    pf_ode_model_init(&bm, body);
    double I[3];
    box_moments(BOX_A, BOX_B, BOX_C, BOX_M, I);
    const double x[6] = {3.0, -1.0, 2.0, 0.4, -0.7, 0.25};
    /* torque in body axes: R^T tau with R = [[c, -s, 0], [s, c, 0], [0, 0, 1]] */
    const double cy = cos(YAW), sy = sin(YAW);
    const double tb[3] = {cy * x[3] + sy * x[4], -sy * x[3] + cy * x[4], x[5]};
    const double wb[3] = {tb[0] / I[0], tb[1] / I[1], tb[2] / I[2]};
    const double want[6] = {
        x[0] / BOX_M, x[1] / BOX_M, x[2] / BOX_M, cy * wb[0] - sy * wb[1], sy * wb[0] + cy * wb[1],
        wb[2]};
    double got[6], proj[6];
    pf_ode_model_minv_apply(&bm, x, got);
    pf_ode_model_project(&bm, x, proj); /* no rows: the projection is M^-1 itself */
    const double lin = 3.0 / BOX_M, ang = 1.0 / I[0];
    for (int k = 0; k < 6; ++k) {
        CHECK_NEAR(got[k], want[k], k < 3 ? lin : ang, MODEL_REL_TOL);
        CHECK_NEAR(proj[k], want[k], k < 3 ? lin : ang, MODEL_REL_TOL);
    }
    ck_assert_double_eq_tol(bm.G[0], 1.0, 1e-15);
    ck_assert_double_eq_tol(bm.G[1], -2.0, 1e-15);
    ck_assert_int_eq(bm.nq, 0);
    /* inertia about the world z axis (the body's z after a yaw) */
    dMass m;
    dBodyGetMass(body, &m);
    const double nz[3] = {0, 0, 1};
    CHECK_NEAR(pf_ode_axial_inertia(body, &m, nz), I[2], I[2], MODEL_REL_TOL);
}
END_TEST

/* Hinge to the world through the mass centre along the body's y axis (world (-s, c, 0)): the only
 * motion left is the rotation about the axis, so a torque tau about it gives tau / I_y, and a
 * force or a torque across the axis gives nothing. */
START_TEST(test_hinge_leaves_rotation_about_axis)
{
    dBodyID body = make_box(BOX_A, BOX_B, BOX_C, BOX_M, YAW);
    const double cy = cos(YAW), sy = sin(YAW), e[3] = {-sy, cy, 0.0};
    dJointID h = dJointCreateHinge(world, 0);
    dJointAttach(h, body, 0);
    dJointSetHingeAnchor(h, 1.0, -2.0, 0.5);
    dJointSetHingeAxis(h, e[0], e[1], e[2]);
    pfOdeBodyModel bm;
    pf_ode_model_init(&bm, body);
    pf_ode_model_joint_rows(&bm, h, body);
    ck_assert_int_eq(bm.nq, 5);
    double I[3];
    box_moments(BOX_A, BOX_B, BOX_C, BOX_M, I);
    const double tau = 0.8;
    const double about[6] = {0, 0, 0, tau * e[0], tau * e[1], tau * e[2]};
    double out[6];
    pf_ode_model_project(&bm, about, out);
    const double alpha = tau / I[1];
    for (int k = 0; k < 3; ++k) {
        CHECK_NEAR(out[k], 0.0, alpha, MODEL_REL_TOL);
        CHECK_NEAR(out[3 + k], alpha * e[k], alpha, MODEL_REL_TOL);
    }
    /* across the axis (world z, and the body's x) and a force: no response */
    const double across[3][6] = {
        {0, 0, 0, 0, 0, tau}, {0, 0, 0, tau * cy, tau * sy, 0}, {5.0, -3.0, 2.0, 0, 0, 0}};
    for (int c = 0; c < 3; ++c) {
        pf_ode_model_project(&bm, across[c], out);
        for (int k = 0; k < 6; ++k)
            CHECK_NEAR(out[k], 0.0, alpha, MODEL_REL_TOL);
    }
}
END_TEST

/* Hinge along world z through a point at distance d from the mass centre: the body turns about
 * the hinge line, I_z + m d^2 about it (parallel axes), and G moves on a circle:
 * alpha = tau / (I_z + m d^2), a_G = alpha z x (G - A). */
START_TEST(test_offset_hinge_parallel_axis)
{
    dBodyID body = make_box(BOX_A, BOX_B, BOX_C, BOX_M, YAW);
    const double d[3] = {0.12, -0.05, 0.0}; /* A = G - d */
    dJointID h = dJointCreateHinge(world, 0);
    dJointAttach(h, body, 0);
    dJointSetHingeAnchor(h, 1.0 - d[0], -2.0 - d[1], 0.5 - d[2]);
    dJointSetHingeAxis(h, 0, 0, 1);
    pfOdeBodyModel bm;
    pf_ode_model_init(&bm, body);
    pf_ode_model_joint_rows(&bm, h, body);
    double I[3];
    box_moments(BOX_A, BOX_B, BOX_C, BOX_M, I);
    const double tau = 0.3, d2 = d[0] * d[0] + d[1] * d[1];
    const double alpha = tau / (I[2] + BOX_M * d2);
    const double want[6] = {-alpha * d[1], alpha * d[0], 0, 0, 0, alpha}; /* z x d */
    const double x[6] = {0, 0, 0, 0, 0, tau};
    double out[6];
    pf_ode_model_project(&bm, x, out);
    for (int k = 0; k < 6; ++k)
        CHECK_NEAR(out[k], want[k], alpha, MODEL_REL_TOL);
}
END_TEST

/* Slider along a (in the x-y plane): only the translation along a is left, so a force f gives
 * (f . a / m) a, and a torque gives nothing. */
START_TEST(test_slider_leaves_translation_along_axis)
{
    dBodyID body = make_box(BOX_A, BOX_B, BOX_C, BOX_M, YAW);
    const double a[3] = {0.6, 0.8, 0.0};
    dJointID s = dJointCreateSlider(world, 0);
    dJointAttach(s, body, 0);
    dJointSetSliderAxis(s, a[0], a[1], a[2]);
    pfOdeBodyModel bm;
    pf_ode_model_init(&bm, body);
    pf_ode_model_joint_rows(&bm, s, body);
    ck_assert_int_eq(bm.nq, 5);
    const double f[6] = {2.0, -0.5, 4.0, 0.3, 0.2, -0.1};
    const double fa = (f[0] * a[0] + f[1] * a[1] + f[2] * a[2]) / BOX_M;
    double out[6];
    pf_ode_model_project(&bm, f, out);
    for (int k = 0; k < 3; ++k)
        CHECK_NEAR(out[k], fa * a[k], fabs(fa), MODEL_REL_TOL);
    for (int k = 3; k < 6; ++k)
        CHECK_NEAR(out[k], 0.0, fabs(fa), MODEL_REL_TOL);
}
END_TEST

/* A pair whose patch sits at c with frame x, y, n (only what the model reads). */
static void patch_at(pfOdePair *p, const double c[3])
{
    memset(p, 0, sizeof *p);
    const double x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, n[3] = {0, 0, 1};
    memcpy(p->step.c, c, sizeof p->step.c);
    memcpy(p->step.x, x, sizeof p->step.x);
    memcpy(p->step.y, y, sizeof p->step.y);
    memcpy(p->step.n, n, sizeof p->step.n);
}

/* Free cube of side s and mass m (I = m s^2 / 6 about any axis): a point row at P = G + r along
 * d has J M^-1 J^T = 1/m + (r x d) . I^-1 (r x d) = 1/m + 6 |r x d|^2 / (m s^2). At the centre
 * of the bottom face (r = (0, 0, -s/2)) the patch block is diag(2.5/m, 2.5/m, 6/(m s^2)): a push
 * at the base also tips the cube. With the patch's support rows (no tipping, no normal motion)
 * it is P10-P13's planar body, diag(1/m, 1/m, 6/(m s^2)). */
START_TEST(test_free_cube_delassus)
{
    const double s = 0.2, m = 3.0, k = 6.0 / (m * s * s);
    dBodyID body = make_box(s, s, s, m, 0.0);
    pfOdeBodyModel bm;
    pf_ode_model_init(&bm, body);
    /* a general point row, through model_project */
    const double r[3] = {0.07, -0.03, 0.1}, d[3] = {0.0, 0.6, -0.8};
    const double rxd[3] = {r[1] * d[2] - r[2] * d[1], r[2] * d[0] - r[0] * d[2],
                           r[0] * d[1] - r[1] * d[0]};
    const double want = 1.0 / m + k * (rxd[0] * rxd[0] + rxd[1] * rxd[1] + rxd[2] * rxd[2]);
    const double J[6] = {d[0], d[1], d[2], rxd[0], rxd[1], rxd[2]};
    double PJ[6];
    pf_ode_model_project(&bm, J, PJ);
    double got = 0.0;
    for (int i = 0; i < 6; ++i)
        got += J[i] * PJ[i];
    CHECK_NEAR(got, want, want, MODEL_REL_TOL);

    /* the patch block at the bottom face's centre, body 1 on the static world */
    pfOdePair p;
    const double c[3] = {1.0, -2.0, 0.5 - s / 2};
    patch_at(&p, c);
    p.step.b1 = body;
    const double zero[3] = {0, 0, 0};
    const double free_block[9] = {2.5 / m, 0, 0, 0, 2.5 / m, 0, 0, 0, k};
    double A[9] = {0}, a[3] = {0, 0, 0}, araw[3] = {0, 0, 0};
    pf_ode_model_patch_block(&bm, &p, zero, zero, 1.0, A, a, araw);
    for (int i = 0; i < 9; ++i)
        CHECK_NEAR(A[i], free_block[i], 1.0 / m, MODEL_REL_TOL);

    /* with the patch's support (no joints on the body, so no context is consulted) */
    const double planar[9] = {1.0 / m, 0, 0, 0, 1.0 / m, 0, 0, 0, k};
    pf_ode_patch_delassus(NULL, &p, 1, 0, A);
    for (int i = 0; i < 9; ++i)
        CHECK_NEAR(A[i], planar[i], 1.0 / m, MODEL_REL_TOL);
}
END_TEST

/* A = R diag(1, 2, 7) R^T with R the rotation by 0.5 rad about z followed by 0.3 rad about x:
 * eigenvalues 1, 2, 7; each column v of V satisfies A v = l v and V is orthonormal. */
START_TEST(test_jacobi3_known_spectrum)
{
    const double a = 0.5, b = 0.3, lam[3] = {1.0, 2.0, 7.0};
    const double Rz[9] = {cos(a), -sin(a), 0, sin(a), cos(a), 0, 0, 0, 1};
    const double Rx[9] = {1, 0, 0, 0, cos(b), -sin(b), 0, sin(b), cos(b)};
    double R[9] = {0}, A[9] = {0};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k)
                R[3 * i + j] += Rx[3 * i + k] * Rz[3 * k + j];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k)
                A[3 * i + j] += R[3 * i + k] * lam[k] * R[3 * j + k];
    double l[3], V[9];
    pf_ode_jacobi3(A, l, V);
    double sorted[3] = {l[0], l[1], l[2]};
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (sorted[j] < sorted[i]) {
                double t = sorted[i];
                sorted[i] = sorted[j];
                sorted[j] = t;
            }
    for (int i = 0; i < 3; ++i)
        ck_assert_double_eq_tol(sorted[i], lam[i], JACOBI_TOL * lam[2]);
    for (int e = 0; e < 3; ++e)
        for (int i = 0; i < 3; ++i) {
            double Av = 0.0;
            for (int k = 0; k < 3; ++k)
                Av += A[3 * i + k] * V[3 * k + e];
            ck_assert_double_eq_tol(Av, l[e] * V[3 * i + e], JACOBI_TOL * lam[2]);
        }
    for (int e = 0; e < 3; ++e)
        for (int f = 0; f < 3; ++f) {
            double dot = 0.0;
            for (int i = 0; i < 3; ++i)
                dot += V[3 * i + e] * V[3 * i + f];
            ck_assert_double_eq_tol(dot, e == f ? 1.0 : 0.0, JACOBI_TOL);
        }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_model");
    TCase *tc = tcase_create("model");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_free_body_minv);
    tcase_add_test(tc, test_hinge_leaves_rotation_about_axis);
    tcase_add_test(tc, test_offset_hinge_parallel_axis);
    tcase_add_test(tc, test_slider_leaves_translation_along_axis);
    tcase_add_test(tc, test_free_cube_delassus);
    tcase_add_test(tc, test_jacobi3_known_spectrum);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
