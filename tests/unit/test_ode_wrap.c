/* Nothing non-finite reaches ODE: every ODE function through which the adapter hands ODE a
 * number (contact joints, angular-motor rows, explicit forces and torques, the joint-friction
 * rows) is wrapped with the linker's --wrap, and each wrapper counts the non-finite doubles it
 * is given before calling the real function. Extreme inputs (huge and tiny friction
 * coefficients, sizes, masses, speeds, steps, user forces, a NaN force) and a randomised run
 * must leave the count at zero.
 *
 * Linking: --wrap=f rewrites only the references to f that are undefined in the objects of this
 * link. Against libpatchfriction.so (BUILD_SHARED_LIBS=ON) the adapter's calls into ODE would be
 * bound inside the shared library and never reach the wrappers, so tests/CMakeLists.txt compiles
 * the adapter's sources into this executable; test_wrap_is_active checks that the wrappers see
 * the adapter's calls (a test that cannot fail is a defect). The in-solver coupling's
 * dJointSetPatch* functions exist only in the patched ODE and are not wrapped (its numbers pass
 * through the same finite checks, pf_ode_solver.c). */
#include <patchfriction/pf_ode.h>

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pf_test_support.h"

static long long g_calls, g_bad;
static char g_last_bad[128];

static void count(const char *fn, const char *arg, double v)
{
    if (isfinite(v)) return;
    if (!g_bad) snprintf(g_last_bad, sizeof g_last_bad, "%s: %s = %g", fn, arg, v);
    g_bad++;
}

/* The wrappers: prototypes first (-Wmissing-prototypes), each counts and calls the real one. */
dJointID __real_dJointCreateContact(dWorldID, dJointGroupID, const dContact *);
dJointID __wrap_dJointCreateContact(dWorldID, dJointGroupID, const dContact *);
void __real_dJointSetAMotorParam(dJointID, int, dReal);
void __wrap_dJointSetAMotorParam(dJointID, int, dReal);
void __real_dJointSetAMotorAxis(dJointID, int, int, dReal, dReal, dReal);
void __wrap_dJointSetAMotorAxis(dJointID, int, int, dReal, dReal, dReal);
void __real_dBodyAddForceAtPos(dBodyID, dReal, dReal, dReal, dReal, dReal, dReal);
void __wrap_dBodyAddForceAtPos(dBodyID, dReal, dReal, dReal, dReal, dReal, dReal);
void __real_dBodyAddTorque(dBodyID, dReal, dReal, dReal);
void __wrap_dBodyAddTorque(dBodyID, dReal, dReal, dReal);
void __real_dJointAddHingeTorque(dJointID, dReal);
void __wrap_dJointAddHingeTorque(dJointID, dReal);
void __real_dJointSetHingeParam(dJointID, int, dReal);
void __wrap_dJointSetHingeParam(dJointID, int, dReal);
void __real_dJointAddSliderForce(dJointID, dReal);
void __wrap_dJointAddSliderForce(dJointID, dReal);
void __real_dJointSetSliderParam(dJointID, int, dReal);
void __wrap_dJointSetSliderParam(dJointID, int, dReal);

dJointID __wrap_dJointCreateContact(dWorldID w, dJointGroupID g, const dContact *c)
{
    static const char *fn = "dJointCreateContact";
    g_calls++;
    const dSurfaceParameters *s = &c->surface;
    const double v[] = {s->mu,
                        s->mu2,
                        s->rho,
                        s->rho2,
                        s->rhoN,
                        s->bounce,
                        s->bounce_vel,
                        s->soft_erp,
                        s->soft_cfm,
                        s->motion1,
                        s->motion2,
                        s->motionN,
                        s->slip1,
                        s->slip2,
                        c->geom.depth,
                        c->geom.pos[0],
                        c->geom.pos[1],
                        c->geom.pos[2],
                        c->geom.normal[0],
                        c->geom.normal[1],
                        c->geom.normal[2],
                        c->fdir1[0],
                        c->fdir1[1],
                        c->fdir1[2]};
    static const char *names[] = {"mu",        "mu2",        "rho",      "rho2",      "rhoN",
                                  "bounce",    "bounce_vel", "soft_erp", "soft_cfm",  "motion1",
                                  "motion2",   "motionN",    "slip1",    "slip2",     "depth",
                                  "pos[0]",    "pos[1]",     "pos[2]",   "normal[0]", "normal[1]",
                                  "normal[2]", "fdir1[0]",   "fdir1[1]", "fdir1[2]"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
        count(fn, names[i], v[i]);
    return __real_dJointCreateContact(w, g, c);
}

void __wrap_dJointSetAMotorParam(dJointID j, int param, dReal v)
{
    g_calls++;
    count("dJointSetAMotorParam", "value", v);
    __real_dJointSetAMotorParam(j, param, v);
}

void __wrap_dJointSetAMotorAxis(dJointID j, int anum, int rel, dReal x, dReal y, dReal z)
{
    g_calls++;
    count("dJointSetAMotorAxis", "x", x);
    count("dJointSetAMotorAxis", "y", y);
    count("dJointSetAMotorAxis", "z", z);
    __real_dJointSetAMotorAxis(j, anum, rel, x, y, z);
}

void __wrap_dBodyAddForceAtPos(dBodyID b, dReal fx, dReal fy, dReal fz, dReal px, dReal py,
                               dReal pz)
{
    g_calls++;
    const double v[] = {fx, fy, fz, px, py, pz};
    for (int i = 0; i < 6; ++i)
        count("dBodyAddForceAtPos", i < 3 ? "force" : "pos", v[i]);
    __real_dBodyAddForceAtPos(b, fx, fy, fz, px, py, pz);
}

void __wrap_dBodyAddTorque(dBodyID b, dReal x, dReal y, dReal z)
{
    g_calls++;
    count("dBodyAddTorque", "x", x);
    count("dBodyAddTorque", "y", y);
    count("dBodyAddTorque", "z", z);
    __real_dBodyAddTorque(b, x, y, z);
}

void __wrap_dJointAddHingeTorque(dJointID j, dReal t)
{
    g_calls++;
    count("dJointAddHingeTorque", "torque", t);
    __real_dJointAddHingeTorque(j, t);
}

void __wrap_dJointSetHingeParam(dJointID j, int param, dReal v)
{
    g_calls++;
    count("dJointSetHingeParam", "value", v);
    __real_dJointSetHingeParam(j, param, v);
}

void __wrap_dJointAddSliderForce(dJointID j, dReal f)
{
    g_calls++;
    count("dJointAddSliderForce", "force", f);
    __real_dJointAddSliderForce(j, f);
}

void __wrap_dJointSetSliderParam(dJointID j, int param, dReal v)
{
    g_calls++;
    count("dJointSetSliderParam", "value", v);
    __real_dJointSetSliderParam(j, param, v);
}

/* ---- scenes ------------------------------------------------------------------------------------
 */

typedef struct scene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    dGeomID plane, geom, geom2;
    dBodyID body, body2;
    pfOdeContext *pf;
    pfError err;
} scene;

typedef struct params {
    double mu_s, mu_k; /* both geoms */
    pfOdeMode mode;
    pfOdeCriterion criterion;
    int shape;    /* 0 box, 1 sphere, 2 cylinder, 3 capsule */
    double size;  /* [m] */
    double mass;  /* [kg] */
    double speed; /* initial speed along x [m/s] */
    double spin;  /* initial spin about z [rad/s] */
    double push;  /* user force along x, per step [N] */
    double dt;    /* [s] */
    double rolling_d;
    int stacked; /* a second box on the first */
    int quick;
} params;

static void ensure_ode(void)
{
    static int ready;
    if (!ready) {
        dInitODE2(0);
        ready = 1;
    }
}

static dGeomID make_geom(dSpaceID space, int shape, double s)
{
    switch (shape) {
    case 1:
        return dCreateSphere(space, 0.5 * s);
    case 2:
        return dCreateCylinder(space, 0.5 * s, s);
    case 3:
        return dCreateCapsule(space, 0.25 * s, 0.5 * s);
    default:
        return dCreateBox(space, s, 0.8 * s, 0.6 * s);
    }
}

static double half_height(int shape, double s)
{
    switch (shape) {
    case 1:
    case 2:
        return 0.5 * s;
    case 3:
        return 0.5 * s; /* capsule along z: 0.25 s cylinder half + 0.25 s cap */
    default:
        return 0.3 * s;
    }
}

static void near(void *data, dGeomID a, dGeomID b)
{
    scene *s = data;
    pf_ode_collide(s->pf, a, b, s->group);
}

static void scene_make(scene *s, const params *p)
{
    ensure_ode();
    memset(s, 0, sizeof *s);
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -9.81);
    dWorldSetContactSurfaceLayer(s->world, 1e-4 * p->size);
    s->space = dSimpleSpaceCreate(0); /* (a hash space asserts on the far-flung bodies) */
    s->group = dJointGroupCreate(0);
    s->plane = dCreatePlane(s->space, 0, 0, 1, 0);
    /* the adapter's coupling, whose rows are ODE's contact and motor joints (the wrapped
     * functions), also where the patched ODE offers the in-solver one (its dJointSetPatch*
     * setters are not wrapped: Debian's ODE has none) */
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = PF_ODE_COUPLING_ADAPTER;
    ck_assert_int_eq(pf_ode_create(s->world, &cfg, &s->pf, NULL), PF_OK);
    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = p->mu_s;
    m.mu_k = p->mu_k;
    m.mode = p->mode;
    m.criterion = p->criterion;
    m.rolling_d = p->rolling_d;
    ck_assert_int_eq(pf_ode_set_material(s->pf, s->plane, &m, NULL), PF_OK);
    s->body = dBodyCreate(s->world);
    dMass dm;
    dMassSetSphereTotal(&dm, p->mass, 0.5 * p->size);
    dBodySetMass(s->body, &dm);
    double h = half_height(p->shape, p->size);
    dBodySetPosition(s->body, 0, 0, h - 1e-4 * h);
    dBodySetLinearVel(s->body, p->speed, 0, 0);
    dBodySetAngularVel(s->body, 0, 0, p->spin);
    s->geom = make_geom(s->space, p->shape, p->size);
    dGeomSetBody(s->geom, s->body);
    ck_assert_int_eq(pf_ode_set_material(s->pf, s->geom, &m, NULL), PF_OK);
    if (p->stacked) {
        s->body2 = dBodyCreate(s->world);
        dBodySetMass(s->body2, &dm);
        dBodySetPosition(s->body2, 0, 0, 2 * h + 0.3 * p->size - 1e-4 * h);
        s->geom2 = dCreateBox(s->space, p->size, 0.8 * p->size, 0.6 * p->size);
        dGeomSetBody(s->geom2, s->body2);
        ck_assert_int_eq(pf_ode_set_material(s->pf, s->geom2, &m, NULL), PF_OK);
    }
}

static void scene_step(scene *s, const params *p)
{
    dBodyAddForce(s->body, p->push, 0, 0);
    dSpaceCollide(s->space, s, near);
    pf_ode_before_step_ex(s->pf, p->dt, &s->err);
    if (p->quick)
        dWorldQuickStep(s->world, p->dt);
    else
        dWorldStep(s->world, p->dt);
    pf_ode_after_step(s->pf);
    dJointGroupEmpty(s->group);
}

static void scene_free(scene *s)
{
    pf_ode_destroy(s->pf);
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
}

static void run(const params *p, int steps)
{
    scene s;
    scene_make(&s, p);
    for (int i = 0; i < steps; ++i)
        scene_step(&s, p);
    scene_free(&s);
}

static params base(void)
{
    params p = {
        0.5, 0.4, PF_ODE_MODE_EXACT, PF_ODE_CRITERION_CA, 0, 0.1, 1.0, 0.0, 0.0, 0.0, 1e-3, 0.0,
        0,   0};
    return p;
}

/* ---- tests -------------------------------------------------------------------------------------
 */

START_TEST(test_wrap_is_active)
{
    g_calls = g_bad = 0;
    params p = base();
    run(&p, 5);
    /* the adapter's contact and motor joints went through the wrappers */
    ck_assert_int_gt(g_calls, 5);
}
END_TEST

START_TEST(test_extreme_inputs_stay_finite)
{
    g_calls = g_bad = 0;
    const double mus[] = {0.0, 1e-300, 1e-6, 0.5, PF_ODE_MU_MAX};
    const double sizes[] = {1e-4, 1.0, 1e3};
    const double masses[] = {1e-9, 1.0, 1e9};
    const double speeds[] = {0.0, 1e-9, 10.0, 1e5};
    const double dts[] = {1e-7, 1e-3, 0.1};
    const double pushes[] = {0.0, 1e12, -1e30};
    const pfOdeMode modes[] = {PF_ODE_MODE_EXACT, PF_ODE_MODE_PADE, PF_ODE_MODE_STOCK};
    for (int shape = 0; shape < 4; ++shape)
        for (int im = 0; im < 3; ++im) {
            params p = base();
            p.shape = shape;
            p.mode = modes[im];
            p.rolling_d = shape == 1 ? 0.2 : 0.0;
            p.criterion = im == 1 ? PF_ODE_CRITERION_LIMIT : PF_ODE_CRITERION_CA;
            for (size_t k = 0; k < sizeof mus / sizeof mus[0]; ++k) {
                params q = p;
                q.mu_s = q.mu_k = mus[k];
                run(&q, 20);
            }
            for (size_t k = 0; k < 3; ++k) {
                params q = p;
                q.size = sizes[k];
                run(&q, 20);
                q = p;
                q.mass = masses[k];
                run(&q, 20);
                q = p;
                q.dt = dts[k];
                run(&q, 20);
                q = p;
                q.push = pushes[k];
                run(&q, 20);
            }
            for (size_t k = 0; k < 4; ++k) {
                params q = p;
                q.speed = speeds[k];
                q.spin = speeds[k];
                run(&q, 20);
            }
            params q = p;
            q.stacked = 1;
            q.quick = 1;
            run(&q, 20);
        }
    /* a NaN user force: the patch is dropped for the step (not stepped: ODE's own integration
     * of the user's NaN asserts in dxNormalize4, with or without the adapter) */
    params p = base();
    scene s;
    scene_make(&s, &p);
    scene_step(&s, &p);
    dBodyAddForce(s.body, NAN, 0, 0);
    dSpaceCollide(s.space, &s, near);
    ck_assert_int_eq(pf_ode_before_step_ex(s.pf, p.dt, &s.err), PF_OK);
    dJointGroupEmpty(s.group);
    scene_free(&s);
    /* bad steps are refused by before_step, with the value named */
    const double bad_dt[] = {0.0, -1e-3, NAN, INFINITY};
    p = base();
    scene_make(&s, &p);
    for (int k = 0; k < 4; ++k) {
        dSpaceCollide(s.space, &s, near);
        ck_assert_int_eq(pf_ode_before_step_ex(s.pf, bad_dt[k], &s.err), PF_ERR_RANGE);
        ck_assert_str_eq(s.err.field, "dt");
        dJointGroupEmpty(s.group);
    }
    scene_free(&s);
    ck_assert_int_gt(g_calls, 1000);
    ck_assert_msg(g_bad == 0, "%lld non-finite arguments reached ODE; first: %s", g_bad,
                  g_last_bad);
}
END_TEST

/* Surface parameters at their extremes (pfOdeSurface: soft ERP / CFM, bounce, surface motion of
 * opposite signs whose difference overflows): every shape, mode and stepper, and ODE still sees
 * only finite arguments. */
START_TEST(test_surface_extremes_stay_finite)
{
    g_calls = g_bad = 0;
    const double vels[] = {1e300, DBL_MAX};
    const pfOdeMode modes[] = {PF_ODE_MODE_EXACT, PF_ODE_MODE_PADE, PF_ODE_MODE_STOCK};
    for (int shape = 0; shape < 4; ++shape)
        for (int im = 0; im < 3; ++im)
            for (int quick = 0; quick < 2; ++quick)
                for (int k = 0; k < 3; ++k) {
                    params p = base();
                    p.shape = shape;
                    p.mode = modes[im];
                    p.quick = quick;
                    p.speed = 1.0;
                    scene s;
                    scene_make(&s, &p);
                    pfOdeMaterial a = pf_ode_default_material(), b;
                    a.mode = p.mode;
                    a.surface.soft_erp = k == 0 ? 1.0 : 0.0;
                    a.surface.soft_cfm = k == 0 ? DBL_MAX : (k == 1 ? 1e-300 : 0.0);
                    a.surface.bounce = 1.0;
                    a.surface.bounce_vel = k == 2 ? DBL_MAX : 0.0;
                    b = a;
                    if (k < 2) {
                        a.surface.velocity[0] = vels[k];
                        b.surface.velocity[0] = -vels[k];
                        b.surface.velocity[1] = vels[k];
                    }
                    ck_assert_int_eq(pf_ode_set_material(s.pf, s.plane, &a, NULL), PF_OK);
                    ck_assert_int_eq(pf_ode_set_material(s.pf, s.geom, &b, NULL), PF_OK);
                    for (int i = 0; i < 20; ++i)
                        scene_step(&s, &p);
                    scene_free(&s);
                }
    ck_assert_int_gt(g_calls, 100);
    ck_assert_msg(g_bad == 0, "%lld non-finite arguments reached ODE; first: %s", g_bad,
                  g_last_bad);
}
END_TEST

/* xorshift64*: a reproducible stream for the randomised run */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static double uni(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}
static double logu(double lo, double hi)
{
    return exp(log(lo) + uni() * (log(hi) - log(lo)));
}

START_TEST(test_randomised_run_stays_finite)
{
    g_calls = g_bad = 0;
    for (int k = 0; k < 150; ++k) {
        params p = base();
        p.shape = (int)(uni() * 4) % 4;
        p.mode = (pfOdeMode)((int)(uni() * 3) % 3);
        p.criterion = uni() < 0.5 ? PF_ODE_CRITERION_CA : PF_ODE_CRITERION_LIMIT;
        p.mu_s = uni() < 0.1 ? 0.0 : logu(1e-12, PF_ODE_MU_MAX);
        p.mu_k = p.mu_s * uni();
        p.size = logu(1e-4, 1e3);
        p.mass = logu(1e-9, 1e9);
        p.speed = (uni() < 0.3 ? 0.0 : logu(1e-9, 1e5)) * (uni() < 0.5 ? -1 : 1);
        p.spin = uni() < 0.5 ? 0.0 : logu(1e-9, 1e5);
        p.push = uni() < 0.5 ? 0.0 : logu(1e-6, 1e15) * (uni() < 0.5 ? -1 : 1);
        p.dt = logu(1e-6, 0.05);
        p.rolling_d = p.shape == 1 ? uni() : 0.0;
        p.stacked = uni() < 0.3;
        p.quick = uni() < 0.5;
        run(&p, 15);
    }
    ck_assert_int_gt(g_calls, 1000);
    ck_assert_msg(g_bad == 0, "%lld non-finite arguments reached ODE; first: %s", g_bad,
                  g_last_bad);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_wrap");
    TCase *tc = tcase_create("wrap");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_wrap_is_active);
    tcase_add_test(tc, test_extreme_inputs_stay_finite);
    tcase_add_test(tc, test_surface_extremes_stay_finite);
    tcase_add_test(tc, test_randomised_run_stays_finite);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
