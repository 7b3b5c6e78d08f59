/* Rolling contacts: a ball or a cylinder rolling without slip on flat ground keeps rolling, and a
 * stuck round contact's drift is its slip, not the distance rolled (pf_ode_step.c, stick_rows).
 *
 * A round body rolling without slip on a horizontal plane with no rolling resistance (the
 * default material's rolling_d = 0) keeps its speed and spin: no friction acts, and the contact
 * point has no velocity (v = w R). Before the drift was integrated at the contact, a rolling
 * contact's stick anchor was a pair of material points that the rolling carried apart, and its
 * correction dragged the body back: the contact slipped backwards at stick_velocity_tol (1e-4
 * m/s), and in 2 s the ball lost 5.7e-5 and the cylinder 6.7e-5 of their speed (dWorldStep, 1
 * ms); a user's ball rolling to rest under QuickStep with the stepper declared was pulled back
 * at 8e-3 m/s (the correction widened against the drift's steady growth, as if it were the
 * solver's leakage). Now the ball keeps its speed to the last digit printed, and the cylinder
 * loses at most 2.4e-6 of it (QuickStep, 1 ms; slip 4.8e-8 m/s): its line patch's centre lies
 * between ODE's contact points, inside the overlap, where rolling leaves a velocity of w times
 * the depth. Asserted: |v - v0| <= 1e-5 v0 and |v - w R| <= 1e-6 m/s. Both steppers, dt 1 and 5
 * ms, the stepper declared (pfOdeConfig.stepper), the default coupling (the in-solver one on the
 * patched ODE). */
#include "pf_ode_test_scene.h"

#include <check.h>
#include <math.h>
#include <stdio.h>

#define R 0.06
#define V0 0.5
#define T_ROLL 2.0

/* Speed along x and the contact point's slip v - w R after T_ROLL of rolling. */
static void roll(pfOdeTestScene *s, double *v, double *slip)
{
    dBodySetLinearVel(s->body, V0, 0, 0);
    dBodySetAngularVel(s->body, 0, V0 / R, 0);
    while (s->time < T_ROLL - 0.5 * s->dt)
        pf_ode_test_step(s);
    const dReal *lv = dBodyGetLinearVel(s->body), *av = dBodyGetAngularVel(s->body);
    *v = lv[0];
    *slip = lv[0] - av[1] * R;
}

/* The steps every case runs [s], each under both steppers (declared, main). */
static const double DTS[2] = {1e-3, 5e-3};

/* The ball of pf_ode_test_sphere as a cylinder lying on its side: ODE's cylinder axis is its
 * local z, turned onto y, so it rolls along x on a line contact. */
static void make_cylinder(pfOdeTestScene *s, const pfOdeMaterial *mat)
{
    const double len = 0.1;
    pf_ode_forget_geom(s->pf, s->geom);
    dGeomDestroy(s->geom);
    s->geom = dCreateCylinder(s->space, R, len);
    dGeomSetBody(s->geom, s->body);
    pf_ode_set_material(s->pf, s->geom, mat, NULL);
    dMass m;
    dMassSetCylinderTotal(&m, 1.0, 3, R, len);
    dBodySetMass(s->body, &m);
    dMatrix3 rot;
    dRFromAxisAndAngle(rot, 1, 0, 0, M_PI / 2);
    dBodySetRotation(s->body, rot);
    dBodySetPosition(s->body, 0, 0, R - 1e-6);
}

/* A ball (cylinder = 0) or a cylinder launched rolling keeps rolling: both steppers, both dt. */
static void keeps_rolling(int cylinder)
{
    const char *name = cylinder ? "cylinder" : "ball";
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 2; ++k) {
            pfOdeMaterial mat = pf_ode_test_material(0.8, 0.8);
            pfOdeTestScene s;
            pf_ode_test_sphere(&s, R, 1.0, &mat, &mat, quick, DTS[k]);
            if (cylinder) make_cylinder(&s, &mat);
            double v, slip;
            roll(&s, &v, &slip);
            pfOdeCounters c = pf_ode_get_counters(s.pf);
            printf("%s %s dt %g ms: v %.9f m/s after %.0f s (launched at %g), slip v - w R = "
                   "%.3g m/s, %lld stick patch-steps of %lld, %lld line patch-steps\n",
                   name, pf_ode_test_stepper_name(quick), DTS[k] * 1e3, v, T_ROLL, V0, slip,
                   c.stick_steps, c.patches, c.line_patches);
            ck_assert_msg(fabs(v - V0) <= 1e-5 * V0, "%s %s dt %g: v %.9g", name,
                          pf_ode_test_stepper_name(quick), DTS[k], v);
            ck_assert_msg(fabs(slip) <= 1e-6, "%s %s dt %g: slip %.3g", name,
                          pf_ode_test_stepper_name(quick), DTS[k], slip);
            ck_assert_int_gt(c.stick_steps, 0);
            if (cylinder) ck_assert_int_gt(c.line_patches, 0);
            pf_ode_test_free(&s);
        }
}

START_TEST(test_ball_keeps_rolling)
{
    keeps_rolling(0);
}
END_TEST

START_TEST(test_cylinder_keeps_rolling)
{
    keeps_rolling(1);
}
END_TEST

/* A ball rolled to rest by angular damping stays where it stops. ODE damps a body after the
 * solver, so each step of the roll the contact slips by w R times the damping: integrated over
 * the roll that slip was 8e-3 m (dt 5 ms, damping 5 dt, from a user's scene), and once the ball
 * stopped the drift correction rolled it back towards the point where it first stuck, at
 * stick_velocity_tol. The drift counts only from where the contact stops travelling. Asserted:
 * the ball never moves backwards (v_x >= -1e-8 m/s) and is at rest after 10 s (|v| <= 1e-6 m/s;
 * before: -1e-4 m/s under dWorldStep). */
START_TEST(test_damped_ball_stays_where_it_stops)
{
    for (int quick = 0; quick < 2; ++quick)
        for (int k = 0; k < 2; ++k) {
            const double dt = DTS[k];
            pfOdeMaterial mat = pf_ode_test_material(0.8, 0.8);
            pfOdeTestScene s;
            pf_ode_test_sphere(&s, R, 1.0, &mat, &mat, quick, dt);
            dBodySetLinearVel(s.body, V0, 0, 0);
            dBodySetAngularVel(s.body, 0, V0 / R, 0);
            dBodySetAngularDamping(s.body, 5.0 * dt);
            dBodySetAngularDampingThreshold(s.body, 0.0);
            double vmin = V0;
            while (s.time < 10.0 - 0.5 * dt) {
                pf_ode_test_step(&s);
                vmin = fmin(vmin, (double)dBodyGetLinearVel(s.body)[0]);
            }
            const double v = dBodyGetLinearVel(s.body)[0];
            printf(
                "damped ball %s dt %g ms: at x = %.6f m after 10 s, v %.3g m/s, slowest v_x %.3g "
                "m/s\n",
                pf_ode_test_stepper_name(quick), dt * 1e3, (double)dBodyGetPosition(s.body)[0], v,
                vmin);
            ck_assert_msg(vmin >= -1e-8, "%s dt %g: moved backwards at %.3g m/s",
                          pf_ode_test_stepper_name(quick), dt, vmin);
            ck_assert_msg(fabs(v) <= 1e-6, "%s dt %g: v %.3g after 10 s",
                          pf_ode_test_stepper_name(quick), dt, v);
            pf_ode_test_free(&s);
        }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_rolling");
    TCase *tc = tcase_create("rolling");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ball_keeps_rolling);
    tcase_add_test(tc, test_cylinder_keeps_rolling);
    tcase_add_test(tc, test_damped_ball_stays_where_it_stops);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    pf_ode_test_declare_stepper = 1; /* as QuickStep's users are told to */
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
