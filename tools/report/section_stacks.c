/* Stacks, piles and grasps: the stack scene's resting cases and the pushed box, the pinch grasp
 * and the bin, under both steppers, stock friction against patch friction with the adapter
 * coupling and with the in-solver coupling (patched ODE: pf-demo itself when its ODE has the
 * patches, else the pf-demo of --demo-patched), and under dWorldStep the adapter coupling on the
 * patched ODE too (its Dantzig LCP differs: patches/0004). The targets and what is still open:
 * docs/architecture.md, "Stick and slip in multi-body scenes"; the pinch's closed form:
 * docs/physics.md P42. Every cell is one run of this report; a cell not run says why. */
#include "report.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

/* the columns: where each runs */
enum { V_STOCK, V_ADAPTER, V_SOLVER, V_ADAPTER_PATCHED, NVAR };
static const char *const VAR_TAG[NVAR] = {"stock", "adapter", "solver", "adapter-patched"};
static const char *const VAR_HEAD[NVAR] = {"stock", "patch (adapter)", "patch (in-solver)",
                                           "patch (adapter, patched ODE)"};

#define NSTEP 2
static const char *const STEPPERS[NSTEP] = {"quick", "world"};
static const char *const STEPPER_NAME[NSTEP] = {"dWorldQuickStep (20 iterations)", "dWorldStep"};
#define NDT 2
static const double DTS[NDT] = {1e-3, 5e-3};

/* resting cases and the pushed box */
#define NREST 5
static const char *const REST[NREST] = {"two-box", "tower", "tower-offset", "pyramid", "feet"};
#define NPUSH 3
static const char *const PUSH[NPUSH] = {"0.3", "0.9", "1.2"};
static pfrJob *g_rest[NREST][NSTEP][NDT][NVAR];
static json_t *g_rjs[NREST][NSTEP][NDT][NVAR];
static pfrJob *g_push[NPUSH][NSTEP][NDT][NVAR];
static json_t *g_pujs[NPUSH][NSTEP][NDT][NVAR];
static double g_rest_dur[NREST][NSTEP][NDT][NVAR], g_push_dur;

/* pinch: grips x steppers x (stock, adapter CA, adapter LIMIT, solver CA, solver LIMIT); 1 ms */
#define NGRIP 3
#define NPC 5
static const char *const GRIPS[NGRIP] = {"2", "5", "10"};
static const char *const PC_TAG[NPC] = {"stock", "ca", "limit", "solver-ca", "solver-limit"};
static pfrJob *g_pjob[NSTEP][NGRIP][NPC];
static json_t *g_pjs[NSTEP][NGRIP][NPC];

/* bin: QuickStep only; (stock, adapter, solver) x dt */
#define NBINV 3
static pfrJob *g_bin[NDT][NBINV];
static json_t *g_bjs[NDT][NBINV];
static const char *g_bin_count;
static double g_bin_dur;

static int g_any;

/* The pf-demo that runs variant v, or NULL. */
static const char *variant_demo(const pfrReport *r, int v)
{
    switch (v) {
    case V_STOCK:
    case V_ADAPTER:
        return r->demo;
    case V_SOLVER:
        return pfr_solver_demo(r);
    default: /* only when pf-demo's own ODE is Debian's */
        return !r->solver_ok && r->patched_ok ? r->demo_patched : NULL;
    }
}

static pfrJob *plan(pfrReport *r, const char *scene, const char *cas, int v, const char *tag,
                    double duration, double dt, const char *const *sets, int nsets)
{
    const char *demo = variant_demo(r, v);
    if (!demo) return NULL;
    const char *all[8];
    int n = 0;
    for (int i = 0; i < nsets && n < 6; ++i)
        all[n++] = sets[i];
    all[n++] = v == V_SOLVER ? "coupling=solver" : "coupling=adapter";
    pfrJob *j = pfr_plan_run_with(r, demo, scene, cas, v == V_STOCK ? "stock" : "exact", tag,
                                  duration, all, n);
    if (dt != 1e-3) {
        pfr_job_arg(j, "--dt");
        pfr_job_arg(j, pfr_fmt("%g", dt));
    }
    return j;
}

/* Seconds a resting run lasts (0: not run, too slow for the main job). The main job cannot
 * afford the scene's 20 s for this grid: 2.5 s (creep over 2 s after settling); the pyramid under
 * dWorldStep at 1 ms 1.5 s (5.5 s took 40-110 s a variant on a busy machine); the in-solver
 * coupling under QuickStep at 1 ms not for the towers and the pyramid (5.5 s took 31 s, 54 s
 * and over 120 s: a projection per patch per iteration). */
static double rest_duration(const pfrReport *r, int c, int s, int d, int v)
{
    if (r->quick) return 1.5;
    int big = c >= 1 && c <= 3; /* tower, tower-offset, pyramid */
    if (v == V_SOLVER && s == 0 && d == 0 && big) return 0.0;
    if (c == 3 && s == 1 && d == 0) return 1.5;
    return 2.5;
}

static void plan_stack(pfrReport *r)
{
    if (!pfr_has_scene(r, "stack")) return;
    g_push_dur = r->quick ? 1.5 : 2.5;
    for (int s = 0; s < NSTEP; ++s)
        for (int d = 0; d < NDT; ++d) {
            if (r->quick && (s || d)) continue;
            for (int v = 0; v < NVAR; ++v) {
                if (v == V_ADAPTER_PATCHED && s == 0) continue; /* QuickStep: no Dantzig */
                const char *stp = pfr_fmt("stepper=%s", STEPPERS[s]);
                for (int c = 0; c < NREST; ++c) {
                    if (!pfr_has_case(r, "stack", REST[c]) || (r->quick && c)) continue;
                    double dur = rest_duration(r, c, s, d, v);
                    g_rest_dur[c][s][d][v] = dur;
                    if (dur <= 0.0) continue;
                    const char *tag = pfr_fmt("%s-%s-%gms", VAR_TAG[v], STEPPERS[s], 1e3 * DTS[d]);
                    pfrJob *j = plan(r, "stack", REST[c], v, tag, dur, DTS[d], &stp, 1);
                    g_rest[c][s][d][v] = j;
                    /* the big stacks under dWorldStep at 1 ms are the longest runs */
                    if (j && s == 1 && d == 0 && c >= 1 && c <= 3) j->first = 1;
                    g_any |= j != NULL;
                }
                if (!pfr_has_case(r, "stack", "pushed")) continue;
                for (int p = 0; p < NPUSH; ++p) {
                    if (r->quick && p != 2) continue;
                    const char *sets[2] = {stp, pfr_fmt("push=%s", PUSH[p])};
                    const char *tag = pfr_fmt("%s-%s-%gms-push%s", VAR_TAG[v], STEPPERS[s],
                                              1e3 * DTS[d], PUSH[p]);
                    g_push[p][s][d][v] =
                        plan(r, "stack", "pushed", v, tag, g_push_dur, DTS[d], sets, 2);
                }
            }
        }
}

/* pinch --case limit runs its bisection (about 13 hold runs of 2 s) in its first step: one step
 * of 1 ms is the whole run. */
static void plan_pinch(pfrReport *r)
{
    if (!pfr_has_scene(r, "pinch") || !pfr_has_case(r, "pinch", "limit")) return;
    for (int s = 0; s < NSTEP; ++s)
        for (int g = 0; g < NGRIP; ++g) {
            if (r->quick && g != 1) continue;
            for (int c = 0; c < NPC; ++c) {
                int v = c == 0 ? V_STOCK : c <= 2 ? V_ADAPTER : V_SOLVER;
                const char *sets[3] = {pfr_fmt("stepper=%s", STEPPERS[s]),
                                       pfr_fmt("grip=%s", GRIPS[g]),
                                       c == 1 || c == 3 ? "criterion=ca" : "criterion=limit"};
                const char *tag = pfr_fmt("%s-%s-%s", PC_TAG[c], STEPPERS[s], GRIPS[g]);
                g_pjob[s][g][c] = plan(r, "pinch", "limit", v, tag, 1e-3, 1e-3, sets, 3);
                g_any |= g_pjob[s][g][c] != NULL;
            }
        }
}

/* bin: 10 s, the fastest body after 3 s; dWorldStep is not run (see write_bin) */
static void plan_bin(pfrReport *r)
{
    if (!pfr_has_scene(r, "bin") || !pfr_has_case(r, "bin", "drop")) return;
    g_bin_count = r->quick ? "10" : "100";
    g_bin_dur = r->quick ? 3.5 : 10.0;
    for (int d = 0; d < NDT; ++d) {
        for (int v = 0; v < NBINV; ++v) {
            /* 1 ms, and the in-solver coupling: not affordable in the main job (write_bin) */
            if (d == 0 || v == V_SOLVER) continue;
            const char *sets[2] = {"stepper=quick", pfr_fmt("count=%s", g_bin_count)};
            const char *tag = pfr_fmt("%s-quick-%gms", VAR_TAG[v], 1e3 * DTS[d]);
            pfrJob *j = plan(r, "bin", "drop", v, tag, g_bin_dur, DTS[d], sets, 2);
            if (j) j->first = 1;
            g_bin[d][v] = j;
            g_any |= j != NULL;
        }
    }
}

static void plan_all(pfrReport *r)
{
    plan_stack(r);
    plan_pinch(r);
    plan_bin(r);
}

static void analyse(pfrReport *r)
{
    (void)r;
    for (int s = 0; s < NSTEP; ++s)
        for (int d = 0; d < NDT; ++d)
            for (int v = 0; v < NVAR; ++v) {
                for (int c = 0; c < NREST; ++c)
                    if (g_rest[c][s][d][v])
                        pfr_load_run(g_rest[c][s][d][v], NULL, &g_rjs[c][s][d][v]);
                for (int p = 0; p < NPUSH; ++p)
                    if (g_push[p][s][d][v])
                        pfr_load_run(g_push[p][s][d][v], NULL, &g_pujs[p][s][d][v]);
            }
    for (int s = 0; s < NSTEP; ++s)
        for (int g = 0; g < NGRIP; ++g)
            for (int c = 0; c < NPC; ++c)
                if (g_pjob[s][g][c]) pfr_load_run(g_pjob[s][g][c], NULL, &g_pjs[s][g][c]);
    for (int d = 0; d < NDT; ++d)
        for (int v = 0; v < NBINV; ++v)
            if (g_bin[d][v]) pfr_load_run(g_bin[d][v], NULL, &g_bjs[d][v]);
}

static const char *num(double v)
{
    char b[32];
    return pfr_fmt("%s", pfr_fmt_num(b, sizeof b, v));
}

/* Why a cell of variant v was not run. */
static const char *not_run(const pfrReport *r, int v)
{
    if (v == V_SOLVER || v == V_ADAPTER_PATCHED) return "not run (no patched ODE, see above)";
    (void)r;
    return "not run";
}

/* "creep m / about z rad / messages / fastest after 1 s" of one resting run. */
static const char *rest_cell(const pfrReport *r, int c, int s, int d, int v)
{
    const json_t *js = g_rjs[c][s][d][v];
    if (!js && g_rest_dur[c][s][d][v] <= 0.0 && variant_demo(r, v))
        return "not run: too slow for the main job (above)";
    if (!js) return not_run(r, v);
    double dur = g_rest_dur[c][s][d][v];
    return pfr_fmt("%s m, %s rad, %.0f, %s m/s%s", num(pfr_json_get(js, "creep")),
                   num(pfr_json_get(js, "creep_yaw")), pfr_json_get(js, "ode_messages"),
                   num(pfr_json_get(js, "fastest_after_1s")),
                   dur < 2.5 && !r->quick ? pfr_fmt(" (%g s run)", dur) : "");
}

/* pushed: the pushed box's travel, the lower box's creep, messages; beyond mu_s m g the
 * acceleration over the closed form (push mu_s - mu_k) g instead of the travel's meaning */
static const char *push_cell(const pfrReport *r, int p, int s, int d, int v)
{
    const json_t *js = g_pujs[p][s][d][v];
    if (!js) return not_run(r, v);
    const char *head;
    if (p == 2) {
        double a = pfr_json_get(js, "push_accel"), a0 = pfr_json_get(js, "push_accel_closed_form");
        head = isfinite(a) && a0 > 0.0 ? pfr_fmt("a/a_cf %.3f", a / a0) : "a/a_cf — (no slide)";
    } else {
        head = pfr_fmt("travel %s m", num(pfr_json_get(js, "push_travel")));
    }
    return pfr_fmt("%s, lower %s m, %.0f", head, num(pfr_json_get(js, "creep")),
                   pfr_json_get(js, "ode_messages"));
}

static void table_head(FILE *md, const int *cols, int n)
{
    fprintf(md, "| case |");
    for (int i = 0; i < n; ++i)
        fprintf(md, " %s |", VAR_HEAD[cols[i]]);
    fprintf(md, "\n|---|");
    for (int i = 0; i < n; ++i)
        fprintf(md, "---|");
    fputc('\n', md);
}

static void write_stack(pfrReport *r, FILE *md)
{
    int any = 0;
    for (int c = 0; c < NREST; ++c)
        any |= g_rest[c][0][0][V_STOCK] != NULL;
    if (!any) return;
    fprintf(md,
            "### Stacks and the pushed box\n\n"
            "`pf-demo stack`: cubes of 0.1 m and 1 kg, mu = 0.6, at ODE's defaults (ERP 0.2, CFM "
            "1e-10, no surface layer). Every case settles for 0.5 s; the resting cases then run "
            "to **%g s** (creep over %g s; the scene's default, 20 s, is too long for the main "
            "job), but for the pyramid under dWorldStep at 1 ms, which runs to 1.5 s (creep "
            "over 1 s: 5.5 s took 40-110 s a variant); the in-solver coupling under QuickStep at "
            "1 ms is not run for the towers and the pyramid (5.5 s took 31 s, 54 s and over "
            "120 s on a busy machine: a projection per patch per solver iteration; they are in "
            "the 5 ms tables and in `report-patched/` of `cmake --build --preset patched "
            "--target report`). The pushed box runs to **%g s** (pushed for %g s). Resting "
            "cells: the largest creep of any body after 0.5 s (distance from its pose then), "
            "the largest rotation about the vertical, ODE's messages (for example \"LCP "
            "internal error\"), and the fastest body's speed after 1 s. Target: creep at most "
            "1e-6 m and 1e-5 rad. Under QuickStep the stuck faces' rows start from a solve of "
            "the step (docs/physics.md P36e; docs/architecture.md, \"Face presolve\"); stock "
            "friction's creep there is the stack's tilt from QuickStep's unconverged rows.\n\n"
            "Pushed cells: a box on a box pushed through its mass centre with push x mu_s m g "
            "from 0.5 s. At 0.3 and 0.9 the pushed box's largest travel (should stay below 1e-6 "
            "m); at 1.2 its acceleration over the closed form a_cf = (1.2 mu_s - mu_k) g = 1.18 "
            "m/s^2 (the velocity's slope between 2 and 8 mm of travel; the pair tips over after 1 "
            "cm); then the lower box's creep and ODE's messages.\n\n",
            r->quick ? 1.5 : 2.5, r->quick ? 1.0 : 2.0, g_push_dur, g_push_dur - 0.5);
    for (int s = 0; s < NSTEP; ++s)
        for (int d = 0; d < NDT; ++d) {
            int cols[NVAR], n = 0;
            int have = 0;
            for (int c = 0; c < NREST; ++c)
                have |= g_rest[c][s][d][V_STOCK] != NULL;
            if (!have) continue;
            for (int v = 0; v < NVAR; ++v)
                if (v != V_ADAPTER_PATCHED || (s == 1 && variant_demo(r, v))) cols[n++] = v;
            fprintf(
                md,
                "%s, dt = %g ms, resting (creep m, about z rad, messages, fastest after 1 s):\n\n",
                STEPPER_NAME[s], 1e3 * DTS[d]);
            table_head(md, cols, n);
            for (int c = 0; c < NREST; ++c) {
                if (!g_rest[c][s][d][V_STOCK]) continue;
                fprintf(md, "| %s |", REST[c]);
                for (int i = 0; i < n; ++i)
                    fprintf(md, " %s |", rest_cell(r, c, s, d, cols[i]));
                fputc('\n', md);
            }
            fputc('\n', md);
            int hp = 0;
            for (int p = 0; p < NPUSH; ++p)
                hp |= g_push[p][s][d][V_STOCK] != NULL;
            if (!hp) continue;
            fprintf(md,
                    "%s, dt = %g ms, pushed (travel or a/a_cf, lower box's creep m, messages):\n\n",
                    STEPPER_NAME[s], 1e3 * DTS[d]);
            table_head(md, cols, n);
            for (int p = 0; p < NPUSH; ++p) {
                if (!g_push[p][s][d][V_STOCK]) continue;
                fprintf(md, "| pushed %s mu_s m g |", PUSH[p]);
                for (int i = 0; i < n; ++i)
                    fprintf(md, " %s |", push_cell(r, p, s, d, cols[i]));
                fputc('\n', md);
            }
            fputc('\n', md);
        }
}

/* "ratio (d_max mm)" of one pinch run. */
static const char *pinch_cell(const pfrReport *r, int s, int g, int c)
{
    const json_t *js = g_pjs[s][g][c];
    if (!js) return not_run(r, c >= 3 ? V_SOLVER : V_ADAPTER);
    double d = pfr_json_get(js, "offset_max"), lim = pfr_json_get(js, "offset_limit");
    double msg = pfr_json_get(js, "lcp_messages") + pfr_json_get(js, "ode_messages");
    /* the bisection's widest offset held: the limit lies beyond it */
    int widest = pfr_json_get(js, "offset_max_is_widest") == 1.0;
    return pfr_fmt("%s%.3f (%.3g mm)%s", widest ? "≥ " : "", d / lim, 1e3 * d,
                   msg > 0 ? pfr_fmt(", %.0f msg", msg) : "");
}

static void write_pinch(pfrReport *r, FILE *md)
{
    int any = 0;
    for (int g = 0; g < NGRIP; ++g)
        any |= g_pjob[0][g][0] != NULL;
    if (!any) return;
    fprintf(md, "### Pinch grasp\n\n"
                "`pf-demo pinch --case limit`: a bar (0.1 kg) held at an offset between two soft "
                "fingertips (R = 15 mm, E = 1 MPa, mu = 1) on motorised sliders pressing with N; "
                "its weight applied suddenly after 0.5 s, dt = 1 ms. Each cell: the largest offset "
                "that holds (bar slip below 0.1 mm for 1.5 s), bisected over hold runs, over the "
                "closed-form soft-finger limit d* (docs/physics.md P42: torsion and the weight "
                "share on one Hertz limit surface), and in brackets the offset; ODE's messages "
                "over the bisection when there were any; ≥: the widest offset tried held. CA and "
                "LIMIT: the stick criterion "
                "(`--set criterion=ca|limit`). The torsion-only estimate is 1.046, 1.007 and "
                "1.002 d* at 2, 5 and 10 N; stock friction (point contacts) holds no torsion. "
                "tests/CMakeLists.txt lists every stepper, dt and load.\n\n");
    for (int s = 0; s < NSTEP; ++s) {
        fprintf(md,
                "%s:\n\n| N | stock | adapter, CA | adapter, LIMIT | in-solver, CA | "
                "in-solver, LIMIT |\n|---|---|---|---|---|---|\n",
                STEPPER_NAME[s]);
        for (int g = 0; g < NGRIP; ++g) {
            if (!g_pjob[s][g][0]) continue;
            fprintf(md, "| %s N |", GRIPS[g]);
            for (int c = 0; c < NPC; ++c)
                fprintf(md, " %s |", pinch_cell(r, s, g, c));
            fputc('\n', md);
        }
        fputc('\n', md);
    }
}

static void write_bin(pfrReport *r, FILE *md)
{
    int any = 0;
    for (int d = 0; d < NDT; ++d)
        any |= g_bin[d][V_STOCK] != NULL;
    if (!any) return;
    fprintf(md,
            "### Bin\n\n"
            "`pf-demo bin`: %s mixed bodies (boxes, spheres, capsules, cylinders, trimesh cubes) "
            "dropped into a walled bin, %g s, dWorldQuickStep (20 iterations), mu = 0.6. "
            "Columns: the fastest body after 3 s, the kinetic energy at the end, the largest "
            "one-step gain of the mechanical energy (no load but gravity acts: a gain is the "
            "step's error), ODE's messages (LCP / other), and the patch-steps of single points "
            "and short edges: on ODE's friction pyramid (point fallbacks; target below 5 %%) "
            "and on the point's Coulomb law (point patches, docs/physics.md P49a).\n\n"
            "| variant | dt | fastest after 3 s [m/s] | kinetic energy at %g s [J] | largest "
            "one-step gain [J] | messages | point fallbacks / point patches |\n"
            "|---|---|---|---|---|---|---|\n",
            g_bin_count, g_bin_dur, g_bin_dur);
    for (int v = 0; v < NBINV; ++v)
        for (int d = 0; d < NDT; ++d) {
            if (r->quick && d == 0) continue;
            const json_t *js = g_bjs[d][v];
            fprintf(md, "| %s | %g ms |", VAR_HEAD[v], 1e3 * DTS[d]);
            if (js) {
                fprintf(md, " %s | %s | %s | %.0f / %.0f |",
                        num(pfr_json_get(js, "max_speed_after")),
                        num(pfr_json_get(js, "kinetic_energy_end")),
                        num(pfr_json_get(js, "max_energy_gain")), pfr_json_get(js, "lcp_messages"),
                        pfr_json_get(js, "ode_messages"));
                if (v == V_STOCK)
                    fprintf(md, " (ODE's friction) |\n");
                else
                    fprintf(md, " %.2f %% / %.1f %% |\n",
                            100 * pfr_json_get(js, "point_fallback_fraction"),
                            100 * pfr_json_get(js, "point_patch_fraction"));
            } else if ((d == 0 || v == V_SOLVER) && variant_demo(r, v)) {
                fprintf(md, " not run: too slow for the main job (below) | | | | |\n");
            } else {
                fprintf(md, " %s | | | | |\n", not_run(r, v));
            }
        }
    fprintf(md, "\nNot run in the main job: dt = 1 ms (10 s took 22 s with stock friction and 57 "
                "s with the adapter on a busy machine), the in-solver coupling (10 s at 5 ms took "
                "159 s, and was killed at 300 s inside the report: a projection per patch per "
                "iteration; `build-patched/demos/pf-demo bin --headless --json --dt 0.005 --set "
                "coupling=solver` measures it), and dWorldStep (stock friction alone took over 2 "
                "minutes for 10 s at 5 ms: Dantzig's LCP on one island of 100 bodies).\n");
    fputc('\n', md);
}

/* path relative to the working directory (the source tree, for the report target) */
static const char *here_rel(const char *path)
{
    char cwd[PFR_PATHLEN];
    size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
    return n && !strncmp(path, cwd, n) && path[n] == '/' ? path + n + 1 : path;
}

static void write_section(pfrReport *r, FILE *md)
{
    if (!g_any) return;
    fprintf(md, "## Stacks, piles and grasps\n\n"
                "Multi-body rest, a pushed box, a soft-finger grasp and a pile of bodies: "
                "stock ODE friction | patch friction with the adapter coupling | patch friction "
                "coupled inside the solver, under both steppers.");
    if (r->solver_ok)
        fprintf(md, " Every column ran on this build's ODE, which has the patch series "
                    "(patches/), so `stock` is stock friction on the patched ODE.\n\n");
    else if (r->patched_ok)
        fprintf(md,
                " `stock` and `patch (adapter)` ran on Debian's ODE (`%s`), `patch (in-solver)` "
                "on ODE 0.16.2 built from Debian's source with patches/ (`%s`, built by the "
                "report target into build-patched/). Under dWorldStep the adapter coupling also "
                "ran on the patched ODE, whose Dantzig LCP takes degenerate zero steps instead of "
                "giving up (patches/0004); under QuickStep it is not run there: the patches "
                "change QuickStep only for patch joints, which the adapter coupling does not "
                "create.\n\n",
                here_rel(r->demo), here_rel(r->demo_patched));
    else
        fprintf(md,
                " **The in-solver column was not run**: this pf-demo's ODE is Debian's, and %s. "
                "To fill it: `cmake --preset patched && cmake --build --preset patched -j2 "
                "--target report` (report in `report-patched/`), or let the default build's "
                "report target build it (needs network for Debian's ODE source, or "
                "-DPF_ODE_SOURCE_ARCHIVE_DIR).\n\n",
                r->patched_why[0] ? r->patched_why : "no patched pf-demo was found");
    write_stack(r, md);
    write_pinch(r, md);
    write_bin(r, md);
}

const pfrSection pfr_section_stacks = {"stacks, piles and grasps", plan_all, analyse,
                                       write_section};
