/* Adapter API: material validation, shapes found from geometry, pair lifetime, allocation-free
 * steady state, and extreme inputs that must never reach ODE as NaN. */
#include "pf_ode_test_scene.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <string.h>

#define FORCE_REL_TOL 1e-6 /* normal-force feedback of a resting block vs m g */

static void ensure_ode(void)
{
    static int ready;
    if (!ready) {
        dInitODE2(0);
        ready = 1;
    }
}

START_TEST(test_bad_materials_rejected)
{
    ensure_ode();
    dWorldID w = dWorldCreate();
    pfOdeContext *pf = NULL;
    ck_assert_int_eq(pf_ode_create(w, NULL, &pf, NULL), PF_OK);
    dGeomID g = dCreateSphere(0, 0.1);
    pfError err;
    pfOdeMaterial m = pf_ode_default_material();
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_OK);

    m = pf_ode_default_material();
    m.mu_s = NAN;
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_ERR_NOT_FINITE);
    ck_assert_str_eq(err.field, "mu_s");
    ck_assert_ptr_nonnull(strstr(err.message, "nan"));

    m = pf_ode_default_material();
    m.mu_k = -0.1;
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_ERR_RANGE);
    ck_assert_str_eq(err.field, "mu_k");
    ck_assert_ptr_nonnull(strstr(err.message, "-0.1"));

    m = pf_ode_default_material();
    m.mu_k = 0.8; /* > mu_s */
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_ERR_RANGE);
    ck_assert_str_eq(err.field, "mu_k");

    m = pf_ode_default_material();
    m.mode = (pfOdeMode)42;
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_ERR_ENUM);
    ck_assert_str_eq(err.field, "mode");
    ck_assert_ptr_nonnull(strstr(err.message, "mode = 42"));
    m = pf_ode_default_material();
    m.source = (pfOdePatchSource)5;
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_ERR_ENUM);
    ck_assert_str_eq(err.field, "source");

    m = pf_ode_default_material();
    m.rolling_d = 1.5;
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_ERR_RANGE);
    ck_assert_str_eq(err.field, "rolling_d");

    m = pf_ode_default_material();
    m.poisson_ratio = 0.5;
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_ERR_RANGE);
    ck_assert_str_eq(err.field, "poisson_ratio");

    m = pf_ode_default_material();
    m.youngs_modulus = INFINITY;
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_ERR_NOT_FINITE);
    ck_assert_str_eq(err.field, "youngs_modulus");

    m = pf_ode_default_material();
    m.hertz_radius = -1e-3;
    ck_assert_int_eq(pf_ode_set_material(pf, g, &m, &err), PF_ERR_RANGE);
    ck_assert_str_eq(err.field, "hertz_radius");

    m = pf_ode_default_material();
    m.source = PF_ODE_PATCH_FIXED; /* patch left unset: rejected by the core's validation */
    ck_assert_int_ne(pf_ode_set_material(pf, g, &m, &err), PF_OK);
    ck_assert_int_ne(err.field[0], '\0');

    ck_assert_int_eq(pf_ode_set_material(NULL, g, &m, &err), PF_ERR_NULL);
    ck_assert_str_eq(err.message, "ctx is NULL"); /* (read "ctx is NULL0" once) */
    ck_assert_int_eq(pf_ode_set_material(pf, g, NULL, &err), PF_ERR_NULL);
    ck_assert_str_eq(err.message, "material is NULL");
    ck_assert_int_eq(pf_ode_before_step_ex(NULL, 1e-3, &err), PF_ERR_NULL);
    ck_assert_str_eq(err.message, "ctx is NULL");
    ck_assert_int_eq(pf_ode_before_step(pf, 0.0), PF_ERR_RANGE);
    ck_assert_int_eq(pf_ode_before_step(pf, NAN), PF_ERR_RANGE);

    pfOdeConfig cfg = pf_ode_default_config();
    cfg.drift_gain = 2.0;
    pfOdeContext *bad = NULL;
    ck_assert_int_eq(pf_ode_create(w, &cfg, &bad, &err), PF_ERR_RANGE);
    ck_assert_ptr_null(bad);
    ck_assert_str_eq(err.field, "drift_gain");
    cfg = pf_ode_default_config();
    cfg.coupling = (pfOdeCoupling)9;
    ck_assert_int_eq(pf_ode_create(w, &cfg, &bad, &err), PF_ERR_ENUM);
    ck_assert_ptr_null(bad);
    ck_assert_str_eq(err.field, "coupling");
    ck_assert_ptr_nonnull(strstr(err.message, "coupling = 9"));
    cfg = pf_ode_default_config();
    ck_assert_int_eq(cfg.stepper, PF_ODE_STEPPER_UNSPECIFIED);
    cfg.stepper = (pfOdeStepper)7;
    ck_assert_int_eq(pf_ode_create(w, &cfg, &bad, &err), PF_ERR_ENUM);
    ck_assert_ptr_null(bad);
    ck_assert_str_eq(err.field, "stepper");
    ck_assert_ptr_nonnull(strstr(err.message, "stepper = 7"));

    dGeomDestroy(g);
    pf_ode_destroy(pf);
    dWorldDestroy(w);
}
END_TEST

START_TEST(test_resting_block_normal_force_and_inert_friction_normal)
{
    const double m = 0.5;
    pfOdeMaterial mat = pf_ode_default_material();
    for (int quick = 0; quick < 2; ++quick) {
        pfOdeTestScene s;
        pf_ode_test_box(&s, 0.1, 0.06, 0.04, m, &mat, quick, 1e-3, 0.0);
        for (int i = 0; i < 200; ++i) {
            dBodyAddForce(s.body, 0.5, 0.2, 0); /* below mu_s m g */
            pf_ode_test_step(&s);
        }
        pfOdePatchInfo info;
        ck_assert_int_eq(pf_ode_find_patch(s.pf, s.plane, s.geom, &info), PF_OK);
        ck_assert_int_eq(info.state, PF_ODE_STATE_STICK);
        ck_assert_int_eq(info.shape, PF_PATCH_RECT);
        ck_assert_int_eq(info.contact_count, 4);
        /* the normal rows carry the whole weight: the friction joint's normal row is inert */
        ck_assert_double_eq_tol(info.normal_force_measured, m * PF_ODE_TEST_G,
                                FORCE_REL_TOL * m * PF_ODE_TEST_G);
        /* the friction wrench holds the push */
        ck_assert_double_eq_tol(info.wrench.fx, -0.5, 1e-6);
        ck_assert_double_eq_tol(info.wrench.fy, -0.2, 1e-6);
        pfOdeCounters c = pf_ode_get_counters(s.pf);
        ck_assert_int_eq(c.first_contact_estimates, 1);
        ck_assert_int_eq(c.stick_steps, 200);
        pf_ode_test_free(&s);
    }
}
END_TEST

/* The reported stick margin is the CA test's capacity - demand (P12) also where the adapter
 * decided stick from a lower bound of the capacity without evaluating it (a screened test, the
 * common case at rest): a box on the ground held against a torque Tz about the normal through its
 * mass centre, below the bound. Its incipient twist is a spin about the face's centre, the unit
 * twist (0, 0, 1/rho_g), so margin = (mu_s N mean|r| - |Tz|) / rho_g with mean|r| the face's
 * mean distance from its centre, here in closed form: for the half sides p, q and d = |(p, q)|,
 * integral over [0, p] x [0, q] of |r| = (2 p q d + p^3 ln((q + d)/p) + q^3 ln((p + d)/q)) / 6.
 * The bound at that twist is mu_s N rho_g^2 / d, 62 % of the capacity. */
START_TEST(test_margin_of_a_screened_stick_test)
{
    const double m = 0.5, lx = 0.1, ly = 0.06, p = lx / 2, q = ly / 2, d = hypot(p, q);
    const double mean_r =
        (2 * p * q * d + p * p * p * log((q + d) / p) + q * q * q * log((p + d) / q)) /
        (6.0 * p * q);
    const double rho = sqrt((lx * lx + ly * ly) / 12.0);
    pfOdeMaterial mat = pf_ode_default_material();
    const double mun = mat.mu_s * m * PF_ODE_TEST_G, tz = 0.5 * mun * rho * rho / d;
    pfOdeTestScene s;
    pf_ode_test_box(&s, lx, ly, 0.04, m, &mat, 0, 1e-3, 0.0);
    for (int i = 0; i < 50; ++i) {
        dBodyAddTorque(s.body, 0.0, 0.0, tz);
        pf_ode_test_step(&s);
    }
    pfOdePatchInfo info;
    ck_assert_int_eq(pf_ode_find_patch(s.pf, s.plane, s.geom, &info), PF_OK);
    ck_assert_int_eq(info.state, PF_ODE_STATE_STICK);
    const double want = (mun * mean_r - tz) / rho;
    ck_assert_msg(fabs(info.stick_margin - want) < 1e-6 * mun * mean_r / rho,
                  "margin %.9g, want %.9g", info.stick_margin, want);
    pf_ode_test_free(&s);
}
END_TEST

START_TEST(test_shapes_from_geometry)
{
    pfOdeMaterial mat = pf_ode_default_material();
    pfOdeTestScene s;
    pf_ode_test_box(&s, 0.1, 0.06, 0.04, 0.5, &mat, 0, 1e-3, 0.0);
    /* cylinder standing on its end -> uniform disk */
    dBodyID cb = dBodyCreate(s.world);
    dMass mm;
    dMassSetCylinderTotal(&mm, 1.0, 3, 0.05, 0.1);
    dBodySetMass(cb, &mm);
    dBodySetPosition(cb, 1.0, 0, 0.05 - 1e-5);
    dGeomID cg = dCreateCylinder(s.space, 0.05, 0.1);
    dGeomSetBody(cg, cb);
    /* sphere -> Hertzian disk with the Hertz radius a = (3 N R / (4 E*))^(1/3) */
    dBodyID sb = dBodyCreate(s.world);
    dMassSetSphereTotal(&mm, 2.0, 0.05);
    dBodySetMass(sb, &mm);
    dBodySetPosition(sb, -1.0, 0, 0.05 - 1e-5);
    dGeomID sg = dCreateSphere(s.space, 0.05);
    dGeomSetBody(sg, sb);
    /* box on an edge -> a line contact's strip along the edge (physics.md §10) */
    dBodyID eb = dBodyCreate(s.world);
    dMassSetBoxTotal(&mm, 1.0, 0.1, 0.1, 0.1);
    dBodySetMass(eb, &mm);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 1, 0, 0, M_PI / 4);
    dBodySetRotation(eb, R);
    dBodySetPosition(eb, 0, 1.0, 0.05 * sqrt(2.0) - 1e-5);
    dGeomID eg = dCreateBox(s.space, 0.1, 0.1, 0.1);
    dGeomSetBody(eg, eb);
    /* box on a corner (its diagonal vertical) -> a single point, point friction */
    dBodyID vb = dBodyCreate(s.world);
    dMassSetBoxTotal(&mm, 1.0, 0.1, 0.1, 0.1);
    dBodySetMass(vb, &mm);
    dMatrix3 Rx, Ry, Rv;
    dRFromAxisAndAngle(Rx, 1, 0, 0, M_PI / 4);
    dRFromAxisAndAngle(Ry, 0, 1, 0, atan(sqrt(0.5)));
    dMultiply0(Rv, Ry, Rx, 3, 3, 3);
    dBodySetRotation(vb, Rv);
    dBodySetPosition(vb, 0, -1.0, 0.05 * sqrt(3.0) - 1e-5);
    dGeomID vg = dCreateBox(s.space, 0.1, 0.1, 0.1);
    dGeomSetBody(vg, vb);
    for (int i = 0; i < 3; ++i)
        pf_ode_test_step(&s);
    pfOdePatchInfo info;
    ck_assert_int_eq(pf_ode_find_patch(s.pf, cg, s.plane, &info), PF_OK);
    ck_assert_int_eq(info.shape, PF_PATCH_DISK);
    ck_assert_int_eq(pf_ode_find_patch(s.pf, sg, s.plane, &info), PF_OK);
    ck_assert_int_eq(info.shape, PF_PATCH_HERTZ_DISK);
    ck_assert_int_eq(pf_ode_find_patch(s.pf, eg, s.plane, &info), PF_OK);
    ck_assert_int_eq(info.shape, PF_PATCH_RECT);
    ck_assert_int_eq(info.contact_count, 2);
    ck_assert_double_eq_tol(info.length, 0.1, 1e-9);
    ck_assert_int_eq(pf_ode_find_patch(s.pf, vg, s.plane, &info), PF_OK);
    ck_assert_int_eq(info.contact_count, 1);
    ck_assert_int_eq(info.state, PF_ODE_STATE_POINT);
    pfOdeCounters c = pf_ode_get_counters(s.pf);
    ck_assert_int_ge(c.point_fallbacks, 1);
    pf_ode_test_free(&s);
}
END_TEST

START_TEST(test_pair_forgotten_and_no_steady_allocation)
{
    pfOdeMaterial mat = pf_ode_default_material();
    pfOdeTestScene s;
    pf_ode_test_box(&s, 0.1, 0.06, 0.04, 0.5, &mat, 1, 1e-3, 0.0);
    for (int i = 0; i < 10; ++i)
        pf_ode_test_step(&s);
    pfOdeCounters c0 = pf_ode_get_counters(s.pf);
    for (int i = 0; i < 1000; ++i)
        pf_ode_test_step(&s);
    pfOdeCounters c1 = pf_ode_get_counters(s.pf);
    ck_assert_int_eq(c1.allocations, c0.allocations);
    ck_assert_int_eq(pf_ode_patch_count(s.pf), 1);
    /* lift the block: the pair separates and its state is dropped */
    dBodySetPosition(s.body, 0, 0, 1.0);
    pf_ode_test_step(&s);
    ck_assert_int_eq(pf_ode_patch_count(s.pf), 0);
    pfOdePatchInfo info;
    ck_assert_int_eq(pf_ode_find_patch(s.pf, s.geom, s.plane, &info), PF_ERR_RANGE);
    ck_assert_int_eq(pf_ode_get_counters(s.pf).pairs_forgotten, 1);
    pf_ode_test_free(&s);
}
END_TEST

static int body_finite(dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    for (int k = 0; k < 3; ++k)
        if (!isfinite(p[k]) || !isfinite(v[k]) || !isfinite(w[k])) return 0;
    return 1;
}

START_TEST(test_extreme_values_no_nan)
{
    /* mass, mu, speed and size extremes, both steppers: ODE must never see NaN/Inf from us */
    const double masses[3] = {1e-9, 1.0, 1e9};
    const double mus[3] = {0.0, 0.5, 1e6};
    const double speeds[3] = {0.0, 1e-12, 1e5};
    for (int quick = 0; quick < 2; ++quick)
        for (int im = 0; im < 3; ++im)
            for (int iu = 0; iu < 3; ++iu)
                for (int iv = 0; iv < 3; ++iv) {
                    pfOdeMaterial mat = pf_ode_default_material();
                    mat.mu_s = mat.mu_k = mus[iu];
                    pfOdeTestScene s;
                    pf_ode_test_box(&s, 0.1, 0.06, 0.04, masses[im], &mat, quick, 1e-3, 0.0);
                    dBodySetLinearVel(s.body, speeds[iv], -0.5 * speeds[iv], 0);
                    dBodySetAngularVel(s.body, 0, 0, speeds[iv]);
                    for (int i = 0; i < 50; ++i) {
                        dBodyAddForce(s.body, 1e3 * masses[im], 0, 0);
                        pf_ode_test_step(&s);
                        ck_assert_msg(body_finite(s.body), "m=%g mu=%g v=%g step %d", masses[im],
                                      mus[iu], speeds[iv], i);
                    }
                    for (int i = 0; i < pf_ode_patch_count(s.pf); ++i) {
                        pfOdePatchInfo info;
                        pf_ode_get_patch(s.pf, i, &info);
                        ck_assert(isfinite(info.normal_force));
                        ck_assert(isfinite(info.wrench.fx) && isfinite(info.wrench.mz));
                        ck_assert(isfinite(info.bounds.fx) && isfinite(info.bounds.mz));
                    }
                    pf_ode_test_free(&s);
                }
    /* a NaN user force: the patch is dropped for the step (counted), nothing reaches ODE */
    pfOdeMaterial mat = pf_ode_default_material();
    pfOdeTestScene s;
    pf_ode_test_box(&s, 0.1, 0.06, 0.04, 1.0, &mat, 0, 1e-3, 0.0);
    pf_ode_test_step(&s);
    dBodyAddForce(s.body, NAN, 0, 0);
    pf_ode_set_contact_group(s.pf, s.group); /* the ready-made near callback */
    dSpaceCollide(s.space, s.pf, pf_ode_near_callback);
    long long before = pf_ode_get_counters(s.pf).dropped_nonfinite;
    ck_assert_int_eq(pf_ode_before_step(s.pf, 1e-3), PF_OK);
    ck_assert_int_eq(pf_ode_get_counters(s.pf).dropped_nonfinite, before + 1);
    dJointGroupEmpty(s.group);
    pf_ode_test_free(&s);
}
END_TEST

/* Every message names its value or says what was wrong, with nothing after it: a message with
 * no value of its own read "... no step to read0", and a negative enum "stepper = 4.29497e+09". */
/* A space passed where a geom is expected (a dSpaceID is a dGeomID to the compiler): refused
 * with PF_ERR_STATE naming the argument, as pf_ode_collide refuses one, not taken as a geom whose
 * material no pair would ever read. The geoms in the space take theirs. */
START_TEST(test_material_on_a_space_refused)
{
    ensure_ode();
    dWorldID w = dWorldCreate();
    dSpaceID space = dHashSpaceCreate(0);
    dGeomID box = dCreateBox(space, 0.1, 0.1, 0.1);
    pfOdeContext *pf = NULL;
    pfError err;
    ck_assert_int_eq(pf_ode_create(w, NULL, &pf, &err), PF_OK);
    const pfOdeMaterial m = pf_ode_default_material();

    ck_assert_int_eq(pf_ode_set_material(pf, (dGeomID)space, &m, &err), PF_ERR_STATE);
    ck_assert_int_eq(err.status, PF_ERR_STATE);
    ck_assert_str_eq(err.field, "geom");
    ck_assert_str_eq(err.message, "geom is a space (dGeomIsSpace): a material belongs to a geom; "
                                  "set it on the space's geoms");
    ck_assert_int_eq(pf_ode_set_material(pf, (dGeomID)space, &m, NULL), PF_ERR_STATE);
    ck_assert_int_eq(pf_ode_set_material(pf, box, &m, &err), PF_OK);

    ck_assert_int_eq(pf_ode_set_pair_material(pf, (dGeomID)space, box, &m, &err), PF_ERR_STATE);
    ck_assert_str_eq(err.field, "a");
    ck_assert_str_eq(err.message, "a is a space (dGeomIsSpace): a pair material belongs to two "
                                  "geoms");
    ck_assert_int_eq(pf_ode_set_pair_material(pf, box, (dGeomID)space, &m, &err), PF_ERR_STATE);
    ck_assert_str_eq(err.field, "b");

    pf_ode_destroy(pf);
    dSpaceDestroy(space); /* and the box in it */
    dWorldDestroy(w);
}
END_TEST

START_TEST(test_error_messages_exact)
{
    ensure_ode();
    dWorldID w = dWorldCreate();
    dSpaceID space = dSimpleSpaceCreate(0);
    dGeomID a = dCreateSphere(space, 0.1), b = dCreateSphere(space, 0.1);
    pfOdeContext *pf = NULL;
    pfError err;
    ck_assert_int_eq(pf_ode_create(w, NULL, &pf, &err), PF_OK);

    ck_assert_int_eq(pf_ode_after_step_ex(pf, &err), PF_ERR_STATE);
    ck_assert_str_eq(err.field, "pf_ode_before_step");
    ck_assert_str_eq(err.message, "pf_ode_before_step was not called since the last "
                                  "pf_ode_after_step: no step to read");

    pf_ode_near_callback(pf, a, b); /* no contact group set */
    ck_assert_int_eq(pf_ode_before_step_ex(pf, 1e-3, &err), PF_ERR_STATE);
    ck_assert_str_eq(err.field, "contact_group");
    ck_assert_str_eq(err.message, "contact_group is not set: pf_ode_near_callback created no "
                                  "contacts this step (call pf_ode_set_contact_group first)");
    ck_assert_int_eq(pf_ode_reset_pairs(pf, &err), PF_ERR_STATE);
    ck_assert_str_eq(err.message, "pairs are in flight: reset them after pf_ode_after_step, "
                                  "before the next pf_ode_collide");
    ck_assert_int_eq(pf_ode_after_step_ex(pf, &err), PF_OK);

    pfOdeMaterial m = pf_ode_default_material();
    ck_assert_int_eq(pf_ode_set_pair_material(pf, a, a, &m, &err), PF_ERR_RANGE);
    ck_assert_str_eq(err.field, "b");
    ck_assert_str_eq(err.message, "b is the same geom as a: a pair needs two geoms");

    m.source = (pfOdePatchSource)-1;
    ck_assert_int_eq(pf_ode_set_material(pf, a, &m, &err), PF_ERR_ENUM);
    ck_assert_str_eq(err.message, "source = -1 is not a pfOdePatchSource");
    m = pf_ode_default_material();
    m.mode = (pfOdeMode)-2;
    ck_assert_int_eq(pf_ode_set_material(pf, a, &m, &err), PF_ERR_ENUM);
    ck_assert_str_eq(err.message, "mode = -2 is not a pfOdeMode");
    m = pf_ode_default_material();
    m.criterion = (pfOdeCriterion)-4;
    ck_assert_int_eq(pf_ode_set_material(pf, a, &m, &err), PF_ERR_ENUM);
    ck_assert_ptr_nonnull(strstr(err.message, "criterion = -4 "));

    pfOdeConfig cfg = pf_ode_default_config();
    pfOdeContext *bad = NULL;
    cfg.stepper = (pfOdeStepper)-3;
    ck_assert_int_eq(pf_ode_create(w, &cfg, &bad, &err), PF_ERR_ENUM);
    ck_assert_str_eq(err.message,
                     "stepper = -3 is not a pfOdeStepper (UNSPECIFIED, WORLD or QUICK)");
    cfg = pf_ode_default_config();
    cfg.coupling = (pfOdeCoupling)-1;
    ck_assert_int_eq(pf_ode_create(w, &cfg, &bad, &err), PF_ERR_ENUM);
    ck_assert_str_eq(err.message, "coupling = -1 is not a pfOdeCoupling (AUTO, ADAPTER or SOLVER)");
    ck_assert_ptr_null(bad);

    pf_ode_destroy(pf);
    dSpaceDestroy(space);
    dWorldDestroy(w);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_bad_materials_rejected);
    tcase_add_test(tc, test_resting_block_normal_force_and_inert_friction_normal);
    tcase_add_test(tc, test_margin_of_a_screened_stick_test);
    tcase_add_test(tc, test_shapes_from_geometry);
    tcase_add_test(tc, test_pair_forgotten_and_no_steady_allocation);
    tcase_add_test(tc, test_extreme_values_no_nan);
    tcase_add_test(tc, test_error_messages_exact);
    tcase_add_test(tc, test_material_on_a_space_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
