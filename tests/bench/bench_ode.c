/* ODE adapter benchmark: 1000 boxes sliding and spinning on a plane, the same scene and solver
 * settings with stock ODE friction (dContactApprox1, 4 points x 3 rows) and with patch friction
 * (4 normal rows + one friction joint), both measured in one run. Prints one JSON line:
 *   {"name":"scene_1000_boxes","step_ratio_patch_over_stock":...,"patch_overhead_ns":...,...}
 * step = collide + (pf hooks) + dWorldQuickStep + empty; patch_overhead_ns = time in
 * pf_ode_before_step + pf_ode_after_step per patch. "scene_1000_boxes" is the adapter coupling
 * (any ODE); with the patched ODE a second line, "scene_1000_boxes_solver", measures the
 * in-solver coupling in the same run (its cost is the projection callback, per patch and per
 * solver iteration, inside dWorldQuickStep). */
#define _POSIX_C_SOURCE 199309L
#include <patchfriction/pf_ode.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void pf_bench_ode(int quick);

#define NBOX 1000

typedef struct bscene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    dBodyID body[NBOX];
    double phase[NBOX];
    pfOdeContext *pf;
    double hook_s; /* time spent in the pf hooks */
    long long patch_steps;
} bscene;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void near(void *data, dGeomID a, dGeomID b)
{
    bscene *s = data;
    pf_ode_collide(s->pf, a, b, s->group);
}

static const double MU = 0.5, MASS = 0.5, LX = 0.1, LY = 0.06, LZ = 0.04, G = 9.81;

static void build(bscene *s, int stock, pfOdeCoupling coupling)
{
    memset(s, 0, sizeof *s);
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -G);
    dWorldSetContactSurfaceLayer(s->world, 1e-4);
    dWorldSetQuickStepNumIterations(s->world, 20);
    s->space = dHashSpaceCreate(0);
    s->group = dJointGroupCreate(0);
    dGeomID plane = dCreatePlane(s->space, 0, 0, 1, 0);
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = coupling;
    pf_ode_create(s->world, &cfg, &s->pf, NULL);
    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = m.mu_k = MU;
    m.mode = stock ? PF_ODE_MODE_STOCK : PF_ODE_MODE_EXACT;
    pf_ode_set_default_material(s->pf, &m, NULL);
    (void)plane;
    unsigned rng = 12345u;
    for (int i = 0; i < NBOX; ++i) {
        dBodyID b = dBodyCreate(s->world);
        dMass mm;
        dMassSetBoxTotal(&mm, MASS, LX, LY, LZ);
        dBodySetMass(b, &mm);
        /* a 32 x 32 grid, 1 m apart: boxes never touch each other */
        dBodySetPosition(b, (i % 32) * 1.0, (i / 32) * 1.0, 0.5 * LZ - 1e-5);
        rng = rng * 1664525u + 1013904223u;
        s->phase[i] = 2.0 * M_PI * (rng >> 8) / 16777216.0;
        dBodySetLinearVel(b, 0.3 * cos(s->phase[i]), 0.3 * sin(s->phase[i]), 0);
        dBodySetAngularVel(b, 0, 0, 3.0);
        dGeomID g = dCreateBox(s->space, LX, LY, LZ);
        dGeomSetBody(g, b);
        s->body[i] = b;
    }
}

static void step(bscene *s, double t, double dt)
{
    /* a rotating push above the friction limit plus a torque: every box keeps sliding and
     * spinning (docs/physics.md §6 "zero-stop circle" style loading) */
    for (int i = 0; i < NBOX; ++i) {
        double F = 1.3 * MU * MASS * G, a = 5.0 * t + s->phase[i];
        dBodyAddForce(s->body[i], F * cos(a), F * sin(a), 0);
        dBodyAddTorque(s->body[i], 0, 0, 0.05);
    }
    dSpaceCollide(s->space, s, near);
    double t0 = now();
    pf_ode_before_step(s->pf, dt);
    double t1 = now();
    dWorldQuickStep(s->world, dt);
    double t2 = now();
    pf_ode_after_step(s->pf);
    double t3 = now();
    s->hook_s += (t1 - t0) + (t3 - t2);
    s->patch_steps += pf_ode_patch_count(s->pf);
    dJointGroupEmpty(s->group);
}

static void destroy(bscene *s)
{
    pf_ode_destroy(s->pf);
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
}

void pf_bench_ode(int quick)
{
    const double dt = 1e-3;
    const int warm = quick ? 5 : 50, blocks = quick ? 2 : 10, per = quick ? 5 : 50;
    dInitODE2(0);
    static bscene st, pa, so;
    const int solver = pf_ode_solver_coupling_available();
    build(&st, 1, PF_ODE_COUPLING_ADAPTER);
    build(&pa, 0, PF_ODE_COUPLING_ADAPTER);
    if (solver) build(&so, 0, PF_ODE_COUPLING_SOLVER);
    double t = 0.0;
    for (int i = 0; i < warm; ++i, t += dt) {
        step(&st, t, dt);
        step(&pa, t, dt);
        if (solver) step(&so, t, dt);
    }
    double ts = 0.0, tp = 0.0, tv = 0.0;
    pa.hook_s = so.hook_s = 0.0;
    pa.patch_steps = so.patch_steps = 0;
    /* interleaved blocks so that machine noise hits every mode alike */
    for (int b = 0; b < blocks; ++b) {
        double t0 = now();
        for (int i = 0; i < per; ++i)
            step(&st, t + i * dt, dt);
        double t1 = now();
        for (int i = 0; i < per; ++i)
            step(&pa, t + i * dt, dt);
        double t2 = now();
        if (solver)
            for (int i = 0; i < per; ++i)
                step(&so, t + i * dt, dt);
        double t3 = now();
        ts += t1 - t0;
        tp += t2 - t1;
        tv += t3 - t2;
        t += per * dt;
    }
    int nsteps = blocks * per;
    pfOdeCounters c = pf_ode_get_counters(pa.pf);
    double slip_frac = c.patches > 0 ? (double)c.slip_steps / (double)c.patches : 0.0;
    printf("{\"name\":\"scene_1000_boxes\",\"step_ratio_patch_over_stock\":%.4f,"
           "\"patch_overhead_ns\":%.1f,\"stock_step_us\":%.1f,\"patch_step_us\":%.1f,"
           "\"boxes\":%d,\"steps\":%d,\"dt\":%g,\"stepper\":\"quickstep\",\"iterations\":20,"
           "\"slip_fraction\":%.3f,\"coupling\":\"adapter\"}\n",
           tp / ts, 1e9 * pa.hook_s / (double)(pa.patch_steps > 0 ? pa.patch_steps : 1),
           1e6 * ts / nsteps, 1e6 * tp / nsteps, NBOX, nsteps, dt, slip_frac);
    if (solver) {
        /* the callbacks run inside dWorldQuickStep: per patch and solver iteration */
        double per_call = 1e9 * (tv - ts) / ((double)nsteps * NBOX * 20);
        printf("{\"name\":\"scene_1000_boxes_solver\",\"step_ratio_solver_over_stock\":%.4f,"
               "\"step_ratio_solver_over_adapter\":%.4f,\"solver_step_us\":%.1f,"
               "\"extra_ns_per_patch_iteration\":%.1f,\"boxes\":%d,\"steps\":%d,\"dt\":%g,"
               "\"stepper\":\"quickstep\",\"iterations\":20,\"coupling\":\"solver\"}\n",
               tv / ts, tv / tp, 1e6 * tv / nsteps, per_call, NBOX, nsteps, dt);
    }
    fflush(stdout);
    if (solver) destroy(&so);
    destroy(&st);
    destroy(&pa);
}
