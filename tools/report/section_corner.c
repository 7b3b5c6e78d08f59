/* Several patches per pair: the corner scene's box in a concave trimesh corner (floor and wall in
 * one geom), pressed into the wall and pushed along it, stock friction against patch friction
 * with the adapter coupling, under both steppers at 1 ms: the largest push held against the
 * closed form mu_s (m g + P) and the sliding acceleration against (F - mu_k (m g + P)) / m
 * (docs/physics.md P52). Every cell is one run of this report. */
#include "report.h"

#include <math.h>
#include <string.h>

#define NSTEP 2
static const char *const STEPPERS[NSTEP] = {"quick", "world"};
static const char *const STEPPER_NAME[NSTEP] = {"dWorldQuickStep (20 iterations)", "dWorldStep"};
enum { C_RAMP, C_SUDDEN, NCASE };
static const char *const CASES[NCASE] = {"ramp", "sudden"};
enum { V_STOCK, V_PATCH, NVAR };
static const char *const VAR_TAG[NVAR] = {"stock", "patch"};

static pfrJob *g_job[NSTEP][NCASE][NVAR];
static json_t *g_js[NSTEP][NCASE][NVAR];

static void plan(pfrReport *r)
{
    if (!pfr_has_scene(r, "corner")) return;
    for (int s = 0; s < NSTEP; ++s)
        for (int c = 0; c < NCASE; ++c)
            for (int v = 0; v < NVAR; ++v) {
                if (!pfr_has_case(r, "corner", CASES[c])) continue;
                const char *sets[3] = {pfr_fmt("stepper=%s", STEPPERS[s]), "iterations=20",
                                       "coupling=adapter"};
                /* the sudden push at 0.99 times the closed-form limit (the scene's default) */
                g_job[s][c][v] = pfr_plan_run_with(
                    r, r->demo, "corner", CASES[c], v == V_STOCK ? "stock" : "exact",
                    pfr_fmt("%s-%s-%s", VAR_TAG[v], STEPPERS[s], CASES[c]), 0.0, sets, 3);
            }
}

static void analyse(pfrReport *r)
{
    (void)r;
    for (int s = 0; s < NSTEP; ++s)
        for (int c = 0; c < NCASE; ++c)
            for (int v = 0; v < NVAR; ++v)
                if (g_job[s][c][v]) pfr_load_run(g_job[s][c][v], NULL, &g_js[s][c][v]);
}

/* "held N (ratio)" of a ramp run, "a (ratio)" of a run that slides, the pair's patches. */
static const char *cell(const json_t *js, int ramp)
{
    if (!js) return "not run";
    const double a = pfr_json_get(js, "accel"), a0 = pfr_json_get(js, "accel_closed_form");
    const char *slide = isfinite(a) && isfinite(a0) && a0 != 0.0
                            ? pfr_fmt("a %.4f m/s² (%.4f)", a, a / a0)
                            : pfr_fmt("no slide (travel %.2g m)", pfr_json_get(js, "travel"));
    const char *held = "";
    if (ramp) {
        const double h = pfr_json_get(js, "hold_max"), h0 = pfr_json_get(js, "hold_closed_form");
        held = pfr_fmt("held %.3f N (%.4f); ", h, h / h0);
    }
    return pfr_fmt("%s%s; %.0f patch(es)", held, slide, pfr_json_get(js, "pair_patches_max"));
}

static void write_section(pfrReport *r, FILE *md)
{
    (void)r;
    int any = 0;
    for (int s = 0; s < NSTEP; ++s)
        any |= g_job[s][C_RAMP][V_STOCK] != NULL;
    if (!any) return;
    const json_t *ref = g_js[0][C_RAMP][V_PATCH];
    fprintf(md,
            "## Several patches per pair: a box in a corner\n\n"
            "`pf-demo corner`: a 1 kg box in the concave corner of one trimesh (floor and wall in "
            "one geom), pressed into the wall with 2.5 N and pushed along it, mu_s = 0.6, "
            "mu_k = 0.5, dt = 1 ms. `ramp`: the push grows at 5 N/s; the cell gives the largest "
            "push held (1e-6 m) against the closed form mu_s (m g + P) = **%.3f N** "
            "(docs/physics.md P52), then the sliding acceleration against "
            "(F - mu_k (m g + P)) / m. `sudden`: 0.99 times the limit at once (the scene's "
            "default), which should hold. The patch column should show two patches (floor and "
            "wall); one patch with the averaged normal held 4-6 N. test_scene_corner asserts "
            "the hold within 1 %% and the slides under both steppers, the sudden 0.99 held and "
            "a sudden 1.01 sliding.\n\n"
            "| stepper, push | stock | patch (adapter) |\n|---|---|---|\n",
            ref ? pfr_json_get(ref, "hold_closed_form") : NAN);
    for (int s = 0; s < NSTEP; ++s)
        for (int c = 0; c < NCASE; ++c) {
            if (!g_job[s][c][V_STOCK]) continue;
            fprintf(md, "| %s, %s | %s |", STEPPER_NAME[s], CASES[c],
                    cell(g_js[s][c][V_STOCK], c == C_RAMP));
            fprintf(md, " %s |\n", cell(g_js[s][c][V_PATCH], c == C_RAMP));
        }
    fputc('\n', md);
}

const pfrSection pfr_section_corner = {"corner", plan, analyse, write_section};
