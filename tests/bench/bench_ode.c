/* ODE adapter benchmark: boxes sliding and spinning on a plane, the same scene and solver
 * settings with stock ODE friction (dContactApprox1, 4 points x 3 rows) and with patch friction
 * (4 normal rows + one friction joint), both measured in one run.
 *
 * scene_1000_boxes (kept as it was): 1000 boxes, dWorldQuickStep at 20 iterations, total time of
 * interleaved blocks:
 *   {"name":"scene_1000_boxes","step_ratio_patch_over_stock":...,"patch_overhead_ns":...,...}
 * step = collide + (pf hooks) + dWorldQuickStep + empty; patch_overhead_ns = time in
 * pf_ode_before_step + pf_ode_after_step per patch. "scene_1000_boxes" is the adapter coupling
 * (any ODE); with the patched ODE a second line, "scene_1000_boxes_solver", measures the
 * in-solver coupling in the same run (its cost is the projection callback, per patch and per
 * solver iteration, inside dWorldQuickStep).
 *
 * scene_cubes_quickstep / scene_cubes_worldstep: the same 1000 boxes under either stepper, with
 * the per-phase breakdown of bench_phases.h (fastest of interleaved rounds, and medians);
 * scene_cubes_quickstep_solver (patched ODE): the same under QuickStep with the in-solver
 * coupling.
 * scaling_<stepper>_<n>: the same scene with n = 100, 1000, 10000 boxes (dWorldStep only up to
 * 1000 unless built affordable, see SCALING_WORLD_MAX), cost per body and step. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include "bench_phases.h"

#include <patchfriction/pf_ode.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void pf_bench_ode(int quick);
/* the bin and the pyramid (bench_scenes.c) */
void pf_bench_scenes(int quick);

/* the legacy line's box count */
#define NBOX 1000
/* largest box count of the dWorldStep scaling points (each box is its own island, so the cost
 * grows linearly; measured affordable) */
#define SCALING_WORLD_MAX 10000

typedef struct bscene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    int n;     /* boxes */
    int quick; /* 1: dWorldQuickStep, 0: dWorldStep */
    double t, dt;
    dBodyID *body;
    double *phase;
    pfOdeContext *pf;
    double hook_s; /* time spent in the pf hooks */
    long long patch_steps;
} bscene;

static double now(void)
{
    return pf_bench_now();
}

static void near(void *data, dGeomID a, dGeomID b)
{
    bscene *s = data;
    pf_ode_collide(s->pf, a, b, s->group);
}

static const double MU = 0.5, MASS = 0.5, LX = 0.1, LY = 0.06, LZ = 0.04, G = 9.81;

static void build(bscene *s, int stock, pfOdeCoupling coupling, int n, int quick)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->quick = quick;
    s->dt = 1e-3;
    s->body = calloc((size_t)n, sizeof *s->body);
    s->phase = calloc((size_t)n, sizeof *s->phase);
    if (!s->body || !s->phase) {
        fprintf(stderr, "pf-bench: out of memory\n");
        exit(1);
    }
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
    int side = (int)ceil(sqrt((double)n));
    for (int i = 0; i < n; ++i) {
        dBodyID b = dBodyCreate(s->world);
        dMass mm;
        dMassSetBoxTotal(&mm, MASS, LX, LY, LZ);
        dBodySetMass(b, &mm);
        /* a square grid (32 x 32 for 1000), 1 m apart: boxes never touch each other */
        dBodySetPosition(b, (i % side) * 1.0, (i / side) * 1.0, 0.5 * LZ - 1e-5);
        rng = rng * 1664525u + 1013904223u;
        s->phase[i] = 2.0 * M_PI * (rng >> 8) / 16777216.0;
        dBodySetLinearVel(b, 0.3 * cos(s->phase[i]), 0.3 * sin(s->phase[i]), 0);
        dBodySetAngularVel(b, 0, 0, 3.0);
        dGeomID g = dCreateBox(s->space, LX, LY, LZ);
        dGeomSetBody(g, b);
        s->body[i] = b;
    }
}

static void step(bscene *s, double t, double dt, pfSceneStepTiming *tm)
{
    /* a rotating push above the friction limit plus a torque: every box keeps sliding and
     * spinning (docs/physics.md §6 "zero-stop circle" style loading) */
    for (int i = 0; i < s->n; ++i) {
        double F = 1.3 * MU * MASS * G, a = 5.0 * t + s->phase[i];
        dBodyAddForce(s->body[i], F * cos(a), F * sin(a), 0);
        dBodyAddTorque(s->body[i], 0, 0, 0.05);
    }
    double tc = now();
    dSpaceCollide(s->space, s, near);
    double t0 = now();
    pf_ode_before_step(s->pf, dt);
    double t1 = now();
    if (s->quick)
        dWorldQuickStep(s->world, dt);
    else
        dWorldStep(s->world, dt);
    double t2 = now();
    pf_ode_after_step(s->pf);
    double t3 = now();
    s->hook_s += (t1 - t0) + (t3 - t2);
    s->patch_steps += pf_ode_patch_count(s->pf);
    if (tm) {
        tm->collide_s += t0 - tc;
        tm->before_step_s += t1 - t0;
        tm->solver_s += t2 - t1;
        tm->after_step_s += t3 - t2;
        tm->steps++;
    }
    dJointGroupEmpty(s->group);
}

/* pfBenchStepFn over a bscene: its own clock s->t */
static int bench_step(void *run, pfSceneStepTiming *tm)
{
    bscene *s = run;
    step(s, s->t, s->dt, tm);
    s->t += s->dt;
    return pf_ode_patch_count(s->pf);
}

static void destroy(bscene *s)
{
    pf_ode_destroy(s->pf);
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
    free(s->body);
    free(s->phase);
}

/* stock and patch runs of n boxes under one stepper, interleaved, the patch with the given
 * coupling; prints one line */
static void cubes_pair(const char *name, int n, int quick, pfOdeCoupling coupling, int warm,
                       int rounds, int per)
{
    static bscene st, pa;
    if (!pf_bench_selected(name)) return;
    build(&st, 1, PF_ODE_COUPLING_ADAPTER, n, quick);
    build(&pa, 0, coupling, n, quick);
    pfBenchSide ss, sp;
    pf_bench_run_pair(name, bench_step, &st, &pa, warm, rounds, per, &ss, &sp);
    char extra[256];
    snprintf(extra, sizeof extra,
             "\"scene\":\"sliding_spinning_boxes\",\"stepper\":\"%s\",\"iterations\":%s,"
             "\"dt\":%g,\"coupling\":\"%s\",\"what\":\"%d boxes 0.1x0.06x0.04 m "
             "pushed above mu m g and spinning, 1 m apart on a plane\"",
             quick ? "quickstep" : "worldstep", quick ? "20" : "null", st.dt,
             coupling == PF_ODE_COUPLING_SOLVER ? "solver" : "adapter", n);
    pf_bench_print_pair(name, extra, n, per, &ss, &sp);
    destroy(&st);
    destroy(&pa);
}

/* the 1000 boxes under both steppers, then the scaling series */
static void cubes_all(int quick)
{
    const int warm = quick ? 2 : 20, rounds = quick ? 2 : 7, per = quick ? 2 : 20;
    cubes_pair("scene_cubes_quickstep", NBOX, 1, PF_ODE_COUPLING_ADAPTER, warm, rounds, per);
    cubes_pair("scene_cubes_worldstep", NBOX, 0, PF_ODE_COUPLING_ADAPTER, warm, rounds, per);
    /* the in-solver coupling (patched ODE), whose cost is inside the solver phase */
    if (pf_ode_solver_coupling_available())
        cubes_pair("scene_cubes_quickstep_solver", NBOX, 1, PF_ODE_COUPLING_SOLVER, warm, rounds,
                   per);
    static const int sizes[] = {100, 1000, 10000};
    for (int q = 1; q >= 0; --q)
        for (int k = 0; k < 3; ++k) {
            int n = sizes[k];
            if (!q && n > SCALING_WORLD_MAX) continue;
            /* about the same work per round at every size */
            int p = quick ? 1 : (20000 / n > 2 ? 20000 / n : 2);
            char name[64];
            snprintf(name, sizeof name, "scaling_%s_%d", q ? "quickstep" : "worldstep", n);
            cubes_pair(name, n, q, PF_ODE_COUPLING_ADAPTER, quick ? 1 : 2, quick ? 2 : 5, p);
        }
}

void pf_bench_ode(int quick)
{
    const double dt = 1e-3;
    const int warm = quick ? 5 : 50, blocks = quick ? 2 : 10, per = quick ? 5 : 50;
    dInitODE2(0);
    if (pf_bench_restricted()) { /* --only: one of the pair lines */
        cubes_all(quick);
        pf_bench_scenes(quick);
        return;
    }
    static bscene st, pa, so;
    const int solver = pf_ode_solver_coupling_available();
    build(&st, 1, PF_ODE_COUPLING_ADAPTER, NBOX, 1);
    build(&pa, 0, PF_ODE_COUPLING_ADAPTER, NBOX, 1);
    if (solver) build(&so, 0, PF_ODE_COUPLING_SOLVER, NBOX, 1);
    double t = 0.0;
    for (int i = 0; i < warm; ++i, t += dt) {
        step(&st, t, dt, NULL);
        step(&pa, t, dt, NULL);
        if (solver) step(&so, t, dt, NULL);
    }
    double ts = 0.0, tp = 0.0, tv = 0.0;
    pa.hook_s = so.hook_s = 0.0;
    pa.patch_steps = so.patch_steps = 0;
    /* interleaved blocks so that machine noise hits every mode alike */
    for (int b = 0; b < blocks; ++b) {
        double t0 = now();
        for (int i = 0; i < per; ++i)
            step(&st, t + i * dt, dt, NULL);
        double t1 = now();
        for (int i = 0; i < per; ++i)
            step(&pa, t + i * dt, dt, NULL);
        double t2 = now();
        if (solver)
            for (int i = 0; i < per; ++i)
                step(&so, t + i * dt, dt, NULL);
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
           "\"slip_fraction\":%.3f,\"coupling\":\"adapter\",\"clock\":\"%s\"}\n",
           tp / ts, 1e9 * pa.hook_s / (double)(pa.patch_steps > 0 ? pa.patch_steps : 1),
           1e6 * ts / nsteps, 1e6 * tp / nsteps, NBOX, nsteps, dt, slip_frac,
           pf_bench_clock_name());
    if (solver) {
        /* the callbacks run inside dWorldQuickStep: per patch and solver iteration */
        double per_call = 1e9 * (tv - ts) / ((double)nsteps * NBOX * 20);
        printf("{\"name\":\"scene_1000_boxes_solver\",\"step_ratio_solver_over_stock\":%.4f,"
               "\"step_ratio_solver_over_adapter\":%.4f,\"solver_step_us\":%.1f,"
               "\"extra_ns_per_patch_iteration\":%.1f,\"boxes\":%d,\"steps\":%d,\"dt\":%g,"
               "\"stepper\":\"quickstep\",\"iterations\":20,\"coupling\":\"solver\","
               "\"clock\":\"%s\"}\n",
               tv / ts, tv / tp, 1e6 * tv / nsteps, per_call, NBOX, nsteps, dt,
               pf_bench_clock_name());
    }
    fflush(stdout);
    if (solver) destroy(&so);
    destroy(&st);
    destroy(&pa);
    cubes_all(quick);
    pf_bench_scenes(quick);
}
