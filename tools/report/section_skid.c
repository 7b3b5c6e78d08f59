/* Skid steering: the skid-steer scene's tracked vehicle turned in place by a torque (breakaway
 * torque and sliding moment against the distributed closed form, docs/physics.md P55, and the
 * point-friction figures it replaces) and its wheeled vehicle (yaw rate against the line-contact
 * prediction P57, which test_scene_skid computes), stock friction against patch friction with the
 * adapter coupling, under both steppers at 1 ms. Every cell is one run of this report. */
#include "report.h"

#include <math.h>
#include <string.h>

#define NSTEP 2
static const char *const STEPPERS[NSTEP] = {"quick", "world"};
static const char *const STEPPER_NAME[NSTEP] = {"dWorldQuickStep (20 iterations)", "dWorldStep"};
#define NHEAD 2
static const char *const HEADINGS[NHEAD] = {"0", "45"};
#define NLOAD 2
static const char *const LOADS[NLOAD] = {"sudden", "ramp"};
enum { V_STOCK, V_PATCH, NVAR };
static const char *const VAR_TAG[NVAR] = {"stock", "patch"};
/* stock friction holds up to ODE's pyramid (27.47 N m at heading 0): its sliding moment is
 * measured at this torque, patch friction's at the scene's default, 1.2 times P55 */
#define STOCK_TORQUE "35"
/* P57 for the scene's wheels (test_scene_skid computes it; docs/physics.md §8.2) */
#define WHEELS_PREDICTION 1.590284

static pfrJob *g_tr[NSTEP][NHEAD][NLOAD][NVAR];
static json_t *g_trjs[NSTEP][NHEAD][NLOAD][NVAR];
static pfrJob *g_wh[NSTEP][NVAR];
static json_t *g_whjs[NSTEP][NVAR];

static void plan(pfrReport *r)
{
    if (!pfr_has_scene(r, "skid-steer")) return;
    for (int s = 0; s < NSTEP; ++s)
        for (int v = 0; v < NVAR; ++v) {
            const char *mode = v == V_STOCK ? "stock" : "exact";
            if (pfr_has_case(r, "skid-steer", "tracks"))
                for (int h = 0; h < NHEAD; ++h)
                    for (int l = 0; l < NLOAD; ++l) {
                        if (r->quick && (h || l)) continue;
                        const char *sets[6] = {pfr_fmt("stepper=%s", STEPPERS[s]),
                                               pfr_fmt("heading=%s", HEADINGS[h]),
                                               pfr_fmt("load=%s", LOADS[l]),
                                               "iterations=20",
                                               "coupling=adapter",
                                               "torque=" STOCK_TORQUE};
                        const char *tag =
                            pfr_fmt("%s-%s-h%s-%s", VAR_TAG[v], STEPPERS[s], HEADINGS[h], LOADS[l]);
                        /* the bisection runs in the first step; the run itself lasts 1 s */
                        g_tr[s][h][l][v] =
                            pfr_plan_run_with(r, r->demo, "skid-steer", "tracks", mode, tag, 1.0,
                                              sets, v == V_STOCK ? 6 : 5);
                    }
            if (pfr_has_case(r, "skid-steer", "wheels")) {
                const char *sets[3] = {pfr_fmt("stepper=%s", STEPPERS[s]), "iterations=20",
                                       "coupling=adapter"};
                g_wh[s][v] =
                    pfr_plan_run_with(r, r->demo, "skid-steer", "wheels", mode,
                                      pfr_fmt("%s-%s", VAR_TAG[v], STEPPERS[s]), 4.0, sets, 3);
            }
        }
}

static void analyse(pfrReport *r)
{
    (void)r;
    for (int s = 0; s < NSTEP; ++s)
        for (int v = 0; v < NVAR; ++v) {
            for (int h = 0; h < NHEAD; ++h)
                for (int l = 0; l < NLOAD; ++l)
                    if (g_tr[s][h][l][v]) pfr_load_run(g_tr[s][h][l][v], NULL, &g_trjs[s][h][l][v]);
            if (g_wh[s][v]) pfr_load_run(g_wh[s][v], NULL, &g_whjs[s][v]);
        }
}

/* "breakaway N m (ratio) / sliding N m (ratio)" of one tracks run, ratios to P55. */
static const char *tracks_cell(const json_t *js)
{
    if (!js) return "not run";
    const double m0 = pfr_json_get(js, "moment_closed_form");
    const double tb = pfr_json_get(js, "breakaway_torque"), ms = pfr_json_get(js, "sliding_moment");
    const double msg = pfr_json_get(js, "ode_messages");
    return pfr_fmt("%.3f (%.4f) / %s%s", tb, tb / m0,
                   isfinite(ms) ? pfr_fmt("%.3f (%.4f)", ms, ms / m0) : "— (held)",
                   msg > 0 ? pfr_fmt(", %.0f msg", msg) : "");
}

static void write_section(pfrReport *r, FILE *md)
{
    (void)r;
    int any = 0;
    for (int s = 0; s < NSTEP; ++s)
        any |= g_tr[s][0][0][V_STOCK] != NULL || g_wh[s][V_STOCK] != NULL;
    if (!any) return;
    fprintf(md, "## Skid steering\n\n");
    const json_t *ref = g_trjs[0][0][0][V_PATCH];
    if (g_tr[0][0][0][V_STOCK]) {
        const json_t *r45 = g_trjs[0][1][0][V_PATCH];
        fprintf(md,
                "`pf-demo skid-steer --case tracks`: a 10 kg body on two box tracks (footprints "
                "0.40 x 0.06 m at y = +-0.15 m, mu = 0.8) on the ground, turned by a torque about "
                "the vertical from 0.2 s, sudden or ramped over 0.3 s, at headings 0 and 45 "
                "degrees, dt = 1 ms. Each cell: the breakaway torque (the largest torque held to "
                "1e-6 rad for 0.8 s, bisected to 1e-3 of the closed form) / the sliding moment "
                "(T - I_z dw/dt from 0.6 to 1 s) in N m, with their ratios to the distributed "
                "closed form (docs/physics.md P55) **%.4f N m**; patch friction's sliding moment "
                "at 1.2 times it, stock friction's at %s N m (stock holds up to ODE's friction "
                "pyramid on the 8 corner points: %.3f N m at heading 0%s; circular cones on them "
                "would give %.3f N m). test_scene_skid asserts patch friction's figures within "
                "1 %% (and with the LIMIT criterion too).\n\n",
                ref ? pfr_json_get(ref, "moment_closed_form") : NAN, STOCK_TORQUE,
                ref ? pfr_json_get(ref, "pyramid_moment") : NAN,
                r45 ? pfr_fmt(", %.3f N m at 45 degrees", pfr_json_get(r45, "pyramid_moment")) : "",
                ref ? pfr_json_get(ref, "corner_points_moment") : NAN);
        for (int s = 0; s < NSTEP; ++s) {
            fprintf(md, "%s:\n\n| heading, torque | stock | patch (adapter) |\n|---|---|---|\n",
                    STEPPER_NAME[s]);
            for (int h = 0; h < NHEAD; ++h)
                for (int l = 0; l < NLOAD; ++l) {
                    if (!g_tr[s][h][l][V_STOCK]) continue;
                    fprintf(md, "| %s°, %s | %s |", HEADINGS[h], LOADS[l],
                            tracks_cell(g_trjs[s][h][l][V_STOCK]));
                    fprintf(md, " %s |\n", tracks_cell(g_trjs[s][h][l][V_PATCH]));
                }
            fputc('\n', md);
        }
    }
    if (g_wh[0][V_STOCK]) {
        fprintf(
            md,
            "`pf-demo skid-steer --case wheels`: the vehicle on four motor-driven cylinder "
            "wheels (R = 0.1 m, width 0.06 m, at x = +-0.15 m, y = +-0.2 m; left wheels "
            "backward, right forward at 5 rad/s), 4 s at 1 ms. Each cell: the yaw rate averaged "
            "from 1 to 4 s in rad/s, its ratio to the prediction of distributed Coulomb "
            "friction on the four line contacts (docs/physics.md P57, **%.6f rad/s**; no "
            "skidding would give 2.5 rad/s), and the share of patch-steps on point friction. "
            "Each wheel touches the ground along a line, a strip patch (docs/physics.md §10); "
            "test_scene_skid_wheels asserts the patch column within 2 %% with no point "
            "friction.\n\n"
            "| stepper | stock | patch (adapter) |\n|---|---|---|\n",
            WHEELS_PREDICTION);
        for (int s = 0; s < NSTEP; ++s) {
            fprintf(md, "| %s |", STEPPER_NAME[s]);
            for (int v = 0; v < NVAR; ++v) {
                const json_t *js = g_whjs[s][v];
                if (!js) {
                    fprintf(md, " not run |");
                    continue;
                }
                const double w = pfr_json_get(js, "yaw_rate");
                if (v == V_STOCK)
                    fprintf(md, " %.4f (%.4f) |", w, w / WHEELS_PREDICTION);
                else
                    fprintf(md, " %.4f (%.4f), point friction %.2f |", w, w / WHEELS_PREDICTION,
                            pfr_json_get(js, "point_fraction"));
            }
            fputc('\n', md);
        }
        fputc('\n', md);
    }
}

const pfrSection pfr_section_skid = {"skid steering", plan, analyse, write_section};
