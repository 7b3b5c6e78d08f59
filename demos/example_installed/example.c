/* A tiny ODE simulator with its own near callback, using the installed patchfriction package.
 *
 * What you should see: a 0.5 kg block pushed with 0.9 mu_s m g stays put (stick, "moved 0"),
 * then pushed with 1.5 mu_s m g it slides with a = (F - mu_k m g) / m; the program prints both,
 * and exits 0 when they match (so it doubles as the install test). */
#include <patchfriction/pf_ode.h>

#include <math.h>
#include <stdio.h>

static pfOdeContext *pf;
static dJointGroupID contacts;

/* The user's own near callback: pf_ode_collide replaces dCollide + dJointCreateContact. */
static void near_callback(void *data, dGeomID a, dGeomID b)
{
    (void)data;
    pf_ode_collide(pf, a, b, contacts);
}

int main(void)
{
    const double mu_s = 0.5, mu_k = 0.4, m = 0.5, g = 9.81, dt = 1e-3;
    dInitODE2(0);
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, -g);
    dWorldSetContactSurfaceLayer(world, 1e-4);
    dSpaceID space = dHashSpaceCreate(0);
    contacts = dJointGroupCreate(0);
    dGeomID ground = dCreatePlane(space, 0, 0, 1, 0);
    dBodyID body = dBodyCreate(world);
    dMass mass;
    dMassSetBoxTotal(&mass, m, 0.1, 0.06, 0.04);
    dBodySetMass(body, &mass);
    dBodySetPosition(body, 0, 0, 0.02 - 1e-5);
    dGeomID box = dCreateBox(space, 0.1, 0.06, 0.04);
    dGeomSetBody(box, body);

    pfError err;
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.stepper = PF_ODE_STEPPER_QUICK; /* PF_ODE_STEPPER_WORLD if you step with dWorldStep */
    if (pf_ode_create(world, &cfg, &pf, &err) != PF_OK) {
        fprintf(stderr, "pf_ode_create: %s\n", err.message);
        return 1;
    }
    pfOdeMaterial mat = pf_ode_default_material();
    mat.mu_s = mu_s;
    mat.mu_k = mu_k;
    if (pf_ode_set_material(pf, box, &mat, &err) != PF_OK ||
        pf_ode_set_material(pf, ground, &mat, &err) != PF_OK) {
        fprintf(stderr, "material: %s\n", err.message);
        return 1;
    }

    double F = 0.9 * mu_s * m * g, v_half = 0.0;
    for (int i = 0; i < 2000; ++i) {
        if (i == 1000) {
            const dReal *p = dBodyGetPosition(body);
            printf("stick phase: moved %.3e m\n", hypot(p[0], p[1]));
            if (hypot(p[0], p[1]) > 1e-9) return 1;
            F = 1.5 * mu_s * m * g;
        }
        if (i == 1500) v_half = dBodyGetLinearVel(body)[0];
        dBodyAddForce(body, F, 0, 0);
        dSpaceCollide(space, NULL, near_callback);
        pf_ode_before_step(pf, dt);
        dWorldQuickStep(world, dt); /* the stepper declared in cfg */
        pf_ode_after_step(pf);
        dJointGroupEmpty(contacts);
    }
    double a = (dBodyGetLinearVel(body)[0] - v_half) / (500 * dt);
    double expect = (F - mu_k * m * g) / m;
    printf("slip phase: a = %.6f m/s^2, expected %.6f\n", a, expect);
    pfOdeCounters c = pf_ode_get_counters(pf);
    printf("counters: %lld stick, %lld slip, %lld breakaways\n", c.stick_steps, c.slip_steps,
           c.breakaways);
    pf_ode_destroy(pf);
    dJointGroupDestroy(contacts);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    dCloseODE();
    return fabs(a - expect) < 5e-3 * expect ? 0 : 1;
}
