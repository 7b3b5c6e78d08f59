#include "pf_ode_test_scene.h"

#include <check.h>
#include <math.h>
#include <string.h>

static int ode_ready;
pfOdeCoupling pf_ode_test_coupling = PF_ODE_COUPLING_AUTO;
int pf_ode_test_declare_stepper = 0;

static void near(void *data, dGeomID a, dGeomID b)
{
    pfOdeTestScene *s = data;
    pf_ode_collide(s->pf, a, b, s->group);
}

static void ensure_ode(void)
{
    if (!ode_ready) {
        dInitODE2(0);
        ode_ready = 1;
    }
}

/* World, space, plane z = 0, one body and the adapter context; gravity tilted by incline. */
static void scene_setup(pfOdeTestScene *s, int quick, double dt, double incline)
{
    ensure_ode();
    memset(s, 0, sizeof *s);
    s->quick = quick;
    s->dt = dt;
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, PF_ODE_TEST_G * sin(incline), 0, -PF_ODE_TEST_G * cos(incline));
    /* a resting body keeps a small penetration below the surface layer, so ERP never pushes it */
    dWorldSetContactSurfaceLayer(s->world, 1e-4);
    dWorldSetAutoDisableFlag(s->world, 0);
    s->space = dHashSpaceCreate(0);
    s->group = dJointGroupCreate(0);
    s->plane = dCreatePlane(s->space, 0, 0, 1, 0);
    s->body = dBodyCreate(s->world);
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = pf_ode_test_coupling;
    if (pf_ode_test_declare_stepper)
        cfg.stepper = quick ? PF_ODE_STEPPER_QUICK : PF_ODE_STEPPER_WORLD;
    ck_assert_int_eq(pf_ode_create(s->world, &cfg, &s->pf, NULL), PF_OK);
}

void pf_ode_test_box(pfOdeTestScene *s, double lx, double ly, double lz, double mass,
                     const pfOdeMaterial *mat, int quick, double dt, double incline)
{
    scene_setup(s, quick, dt, incline);
    dMass m;
    dMassSetBoxTotal(&m, mass, lx, ly, lz);
    dBodySetMass(s->body, &m);
    dBodySetPosition(s->body, 0, 0, 0.5 * lz - 1e-5);
    s->geom = dCreateBox(s->space, lx, ly, lz);
    dGeomSetBody(s->geom, s->body);
    if (mat) {
        pf_ode_set_material(s->pf, s->geom, mat, NULL);
        pf_ode_set_material(s->pf, s->plane, mat, NULL);
    }
}

void pf_ode_test_sphere(pfOdeTestScene *s, double r, double mass, const pfOdeMaterial *ball,
                        const pfOdeMaterial *ground, int quick, double dt)
{
    scene_setup(s, quick, dt, 0.0);
    dMass m;
    dMassSetSphereTotal(&m, mass, r);
    dBodySetMass(s->body, &m);
    dBodySetPosition(s->body, 0, 0, r - 1e-6);
    s->geom = dCreateSphere(s->space, r);
    dGeomSetBody(s->geom, s->body);
    ck_assert_int_eq(pf_ode_set_material(s->pf, s->geom, ball, NULL), PF_OK);
    ck_assert_int_eq(pf_ode_set_material(s->pf, s->plane, ground, NULL), PF_OK);
}

void pf_ode_test_step(pfOdeTestScene *s)
{
    dSpaceCollide(s->space, s, near);
    pf_ode_before_step(s->pf, s->dt);
    if (s->quick)
        dWorldQuickStep(s->world, s->dt);
    else
        dWorldStep(s->world, s->dt);
    pf_ode_after_step(s->pf);
    dJointGroupEmpty(s->group);
    s->time += s->dt;
}

void pf_ode_test_free(pfOdeTestScene *s)
{
    pf_ode_destroy(s->pf);
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
    memset(s, 0, sizeof *s);
}

double pf_ode_test_planar_dist(const pfOdeTestScene *s, double x0, double y0)
{
    const dReal *p = dBodyGetPosition(s->body);
    return hypot(p[0] - x0, p[1] - y0);
}

const double PF_ODE_TEST_DTS[3] = {1e-4, 1e-3, 5e-3};

const char *pf_ode_test_stepper_name(int quick)
{
    return quick ? "QuickStep" : "WorldStep";
}

pfOdeMaterial pf_ode_test_material(double mu_s, double mu_k)
{
    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = mu_s;
    m.mu_k = mu_k;
    return m;
}

void pf_ode_test_mesh_world(pfOdeTestMeshWorld *s, pfOdeMode mode, const double *v, int nv,
                            const dTriIndex *idx, int ni)
{
    ck_assert(nv > 0 && nv <= PF_ODE_TEST_MESH_MAXV && ni > 0 && ni <= PF_ODE_TEST_MESH_MAXI);
    ensure_ode();
    memset(s, 0, sizeof *s);
    memcpy(s->v, v, 3 * (size_t)nv * sizeof s->v[0]);
    memcpy(s->idx, idx, (size_t)ni * sizeof s->idx[0]);
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -PF_ODE_TEST_G);
    s->space = dHashSpaceCreate(0);
    s->group = dJointGroupCreate(0);
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = PF_ODE_COUPLING_ADAPTER;
    ck_assert_int_eq(pf_ode_create(s->world, &cfg, &s->pf, NULL), PF_OK);
    pfOdeMaterial m = pf_ode_default_material();
    m.mode = mode;
    ck_assert_int_eq(pf_ode_set_default_material(s->pf, &m, NULL), PF_OK);
    s->data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(s->data, s->v, 3 * sizeof(double), nv, s->idx, ni,
                                3 * sizeof(dTriIndex));
    s->mesh = dCreateTriMesh(s->space, s->data, NULL, NULL, NULL);
}

void pf_ode_test_mesh_world_free(pfOdeTestMeshWorld *s)
{
    pf_ode_destroy(s->pf);
    dJointGroupDestroy(s->group);
    dGeomDestroy(s->mesh); /* before its data */
    dGeomTriMeshDataDestroy(s->data);
    dSpaceDestroy(s->space); /* and the box in it */
    dWorldDestroy(s->world);
    memset(s, 0, sizeof *s);
}
