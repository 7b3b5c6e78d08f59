/* Stacks and piles: the stack scene's cases under both steppers, stock friction against patch
 * friction with the adapter coupling and (patched ODE) the in-solver coupling. The targets and
 * what is still open: docs/architecture.md, "Stick and slip in multi-body scenes". Then the pinch
 * grasp: the largest holding offset over the soft-finger limit (docs/physics.md P42), stock
 * friction against patch friction with the CA and the LIMIT criterion. */
#include "report.h"

#include <math.h>
#include <string.h>

#define NCASES 5
#define NSTEP 2
#define NVAR 3
static const char *const CASES[NCASES] = {"two-box", "tower", "pyramid", "feet", "pushed"};
static const char *const STEPPERS[NSTEP] = {"quick", "world"};
static const char *const VARIANT[NVAR] = {"stock", "adapter", "solver"};

static pfrJob *g_job[NCASES][NSTEP][NVAR];

/* pinch: grips x steppers x (stock, patch CA, patch LIMIT); dt = 1 ms, sudden load */
#define NGRIP 3
#define NCRIT 3
static const char *const GRIPS[NGRIP] = {"2", "5", "10"};
static const char *const CRIT_TAG[NCRIT] = {"stock", "ca", "limit"};
static pfrJob *g_pjob[NSTEP][NGRIP][NCRIT];
static json_t *g_pjs[NSTEP][NGRIP][NCRIT];
static json_t *g_js[NCASES][NSTEP][NVAR];
static double g_duration;

/* pinch --case limit runs its bisection (about 13 hold runs of 2 s) in its first step: one step
 * of 1 ms is the whole run. */
static void plan_pinch(pfrReport *r)
{
    if (!pfr_has_scene(r, "pinch") || !pfr_has_case(r, "pinch", "limit")) return;
    for (int s = 0; s < NSTEP; ++s)
        for (int g = 0; g < NGRIP; ++g) {
            if (r->quick && g != 1) continue;
            for (int c = 0; c < NCRIT; ++c) {
                const char *sets[3] = {pfr_fmt("stepper=%s", STEPPERS[s]),
                                       pfr_fmt("grip=%s", GRIPS[g]),
                                       c == 1 ? "criterion=ca" : "criterion=limit"};
                const char *tag = pfr_fmt("%s-%s-%s", CRIT_TAG[c], STEPPERS[s], GRIPS[g]);
                g_pjob[s][g][c] = pfr_plan_run(r, "pinch", "limit", c == 0 ? "stock" : "exact", tag,
                                               1e-3, sets, 3);
            }
        }
}

static void plan(pfrReport *r)
{
    plan_pinch(r);
    if (!pfr_has_scene(r, "stack")) return;
    g_duration = r->quick ? 1.5 : 10.5;
    for (int c = 0; c < NCASES; ++c) {
        if (!pfr_has_case(r, "stack", CASES[c])) continue;
        if (r->quick && c > 0) break;
        for (int s = 0; s < NSTEP; ++s)
            for (int v = 0; v < NVAR; ++v) {
                if (v == 2 && !r->solver_ok) continue;
                const char *sets[3] = {pfr_fmt("stepper=%s", STEPPERS[s]),
                                       v == 2 ? "coupling=solver" : "coupling=adapter", "push=0.9"};
                const char *tag = pfr_fmt("%s-%s", VARIANT[v], STEPPERS[s]);
                g_job[c][s][v] = pfr_plan_run(r, "stack", CASES[c], v == 0 ? "stock" : "exact", tag,
                                              g_duration, sets, c == 4 ? 3 : 2);
            }
    }
}

static void analyse(pfrReport *r)
{
    (void)r;
    for (int c = 0; c < NCASES; ++c)
        for (int s = 0; s < NSTEP; ++s)
            for (int v = 0; v < NVAR; ++v)
                if (g_job[c][s][v]) pfr_load_run(g_job[c][s][v], NULL, &g_js[c][s][v]);
    for (int s = 0; s < NSTEP; ++s)
        for (int g = 0; g < NGRIP; ++g)
            for (int c = 0; c < NCRIT; ++c)
                if (g_pjob[s][g][c]) pfr_load_run(g_pjob[s][g][c], NULL, &g_pjs[s][g][c]);
}

/* "creep m / about z rad / messages" of one run, or n/a. */
static const char *cell(int c, int s, int v)
{
    const json_t *js = g_js[c][s][v];
    if (!js) return "n/a";
    char a[32], b[32];
    return pfr_fmt("%s m, %s rad, %.0f", pfr_fmt_num(a, sizeof a, pfr_json_get(js, "creep")),
                   pfr_fmt_num(b, sizeof b, pfr_json_get(js, "creep_yaw")),
                   pfr_json_get(js, "ode_messages"));
}

/* "ratio (d_max mm)" of one pinch run, or n/a. */
static const char *pinch_cell(int s, int g, int c)
{
    const json_t *js = g_pjs[s][g][c];
    if (!js) return "n/a";
    double d = pfr_json_get(js, "offset_max"), lim = pfr_json_get(js, "offset_limit");
    return pfr_fmt("%.3f (%.3g mm)", d / lim, 1e3 * d);
}

static void write_pinch(FILE *md)
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
                "share on one Hertz limit surface), and in brackets the offset. The torsion-only "
                "estimate is 1.046, 1.007 and 1.002 d* at 2, 5 and 10 N; stock friction (point "
                "contacts) holds no torsion. tests/CMakeLists.txt lists every stepper, dt and "
                "load.\n\n");
    for (int s = 0; s < NSTEP; ++s) {
        fprintf(md,
                "%s:\n\n| N | stock | patch, CA | patch, LIMIT |\n"
                "|---|---|---|---|\n",
                s == 0 ? "dWorldQuickStep" : "dWorldStep");
        for (int g = 0; g < NGRIP; ++g) {
            if (!g_pjob[s][g][0]) continue;
            fprintf(md, "| %s N |", GRIPS[g]);
            for (int c = 0; c < NCRIT; ++c)
                fprintf(md, " %s |", pinch_cell(s, g, c));
            fputc('\n', md);
        }
        fputc('\n', md);
    }
}

static void write_section(pfrReport *r, FILE *md)
{
    if (!g_job[0][0][0]) {
        write_pinch(md);
        return;
    }
    fprintf(md,
            "## Stacks and piles\n\n"
            "`pf-demo stack`: cubes of 0.1 m and 1 kg, mu = 0.6, at ODE's defaults (QuickStep 20 "
            "iterations, ERP 0.2, CFM 1e-10, no surface layer), dt = 1 ms, %.1f s. Each cell: the "
            "largest creep of any body after the first 0.5 s (distance from its pose then; the "
            "pushed box itself left out), the largest rotation about the vertical, and ODE's "
            "messages (for example \"LCP internal error\"). `pushed` is a box on a box pushed at "
            "0.9 mu_s m g. Target: creep at most 1e-6 m and 1e-5 rad; under QuickStep the creep "
            "that remains is the stack's tilt from QuickStep's unconverged normal rows, see "
            "docs/architecture.md, \"Stick and slip in multi-body scenes\".%s\n\n",
            g_duration,
            r->solver_ok ? ""
                         : " The in-solver column needs the patched ODE "
                           "(`cmake --preset patched`, report in `report-patched/`).");
    for (int s = 0; s < NSTEP; ++s) {
        fprintf(md,
                "%s:\n\n| case | stock | patch (adapter) | patch (in-solver) |\n"
                "|---|---|---|---|\n",
                s == 0 ? "dWorldQuickStep" : "dWorldStep");
        for (int c = 0; c < NCASES; ++c) {
            if (!g_job[c][s][0]) continue;
            fprintf(md, "| %s |", CASES[c]);
            for (int v = 0; v < NVAR; ++v)
                fprintf(md, " %s |", cell(c, s, v));
            fputc('\n', md);
        }
        fputc('\n', md);
    }
    write_pinch(md);
}

const pfrSection pfr_section_stacks = {"stacks and piles", plan, analyse, write_section};
