/* Stick criteria: the eccentric push's breakaway force against the offset of the push under the
 * CA and limit-surface criteria, each beside the reference under the same criterion (pf-reference
 * --set criterion=ca|limit: an independent stick test, tests/support/pf_ref_stick.c), with stock
 * friction; and the general motion under both criteria against the reference. */
#include "report.h"

#include <math.h>
#include <string.h>

#define QUICK_DURATION 1.0
static const double H_MM[] = {0.0, 2.5, 5.0, 7.5, 10.0};
static const double H_QUICK[] = {0.0, 10.0};
/* variants: exact patch friction under CA and limit, stock, the reference under CA and limit */
#define NV 5
static const char *const TAG[NV] = {"ca", "limit", "stock", "reference", "reference_limit"};
static const char *const CRIT[NV] = {"ca", "limit", NULL, "ca", "limit"};

static int g_has_ecc, g_has_gm, g_nh;
static const double *g_hs;
static pfrJob *g_ecc[5][NV];
static double g_ecc_f[5][NV];
static pfrJob *g_gm[2]; /* ca, limit */
static pfTrajectory g_gmt[2];
static json_t *g_gmj[2];

static void plan(pfrReport *r)
{
    g_has_ecc = pfr_has_case(r, "sliding-blocks", "eccentric-push");
    g_has_gm = pfr_has_case(r, "sliding-blocks", "general-motion");
    g_nh = r->quick ? 2 : 5;
    g_hs = r->quick ? H_QUICK : H_MM;
    double dur = r->quick ? QUICK_DURATION : 0.0;
    if (g_has_ecc)
        for (int k = 0; k < g_nh; ++k)
            for (int v = 0; v < NV; ++v) {
                if (v >= 3 && !r->have_ref) continue;
                const char *sets[2] = {pfr_fmt("h=%g", g_hs[k] * 1e-3),
                                       CRIT[v] ? pfr_fmt("criterion=%s", CRIT[v]) : NULL};
                g_ecc[k][v] =
                    pfr_plan_run(r, "sliding-blocks", "eccentric-push",
                                 v >= 3 ? NULL : (v == 2 ? "stock" : "exact"),
                                 pfr_fmt("h%gmm_%s", g_hs[k], TAG[v]), dur, sets, CRIT[v] ? 2 : 1);
            }
    if (g_has_gm)
        for (int v = 0; v < 2; ++v) {
            const char *sets[1] = {pfr_fmt("criterion=%s", TAG[v])};
            g_gm[v] = pfr_plan_run(r, "sliding-blocks", "general-motion", "exact",
                                   pfr_fmt("exact_%s", TAG[v]), dur, sets, 1);
        }
}

/* The comparison case sliding-blocks / general-motion with its reference, or NULL. */
static const pfrCase *general_motion_reference(const pfrReport *r)
{
    const pfrCase *ref = NULL;
    for (int i = 0; i < r->ncases; ++i)
        if (!strcmp(r->cases[i].scene, "sliding-blocks") &&
            !strcmp(r->cases[i].cas, "general-motion") && r->cases[i].have[PFR_REF])
            ref = &r->cases[i];
    return ref;
}

static void analyse_eccentric(pfrReport *r)
{
    FILE *f = pfr_open_w(pfr_fmt("%s/eccentric_push_criteria.csv", r->data));
    /* breakaway_reference is the reference under CA; its limit-surface column comes last */
    fprintf(f, "h_mm,breakaway_ca,breakaway_limit,breakaway_stock,breakaway_reference,"
               "breakaway_reference_limit\n");
    for (int k = 0; k < g_nh; ++k) {
        fprintf(f, "%g", g_hs[k]);
        for (int v = 0; v < NV; ++v) {
            g_ecc_f[k][v] = NAN;
            if (g_ecc[k][v]) {
                json_t *js;
                pfr_load_run(g_ecc[k][v], NULL, &js);
                g_ecc_f[k][v] = pfr_json_get(js, "breakaway_force");
                json_decref(js);
            }
            fprintf(f, ",%.9g", g_ecc_f[k][v]);
        }
        fprintf(f, "\n");
    }
    fclose(f);
    pfr_gp_data_plot(r, "eccentric_push_criteria", "eccentric_push", 900, 560);
}

static void analyse_general_motion(pfrReport *r)
{
    for (int v = 0; v < 2; ++v)
        pfr_load_run(g_gm[v], &g_gmt[v], &g_gmj[v]);
    char *script = pfr_fmt("%s/general_motion_criteria.gp", r->plots);
    FILE *gp = pfr_open_w(script);
    pfr_gp_header(gp, pfr_fmt("%s/general_motion_criteria.png", r->plots), 1300, 480);
    const char *kv[] = {"ROWS",
                        "1",
                        "COLS",
                        "3",
                        "TITLE",
                        "General motion: CA vs limit-surface stick criterion (exact "
                        "patch friction)",
                        NULL};
    pfr_gp(gp, "multiplot", kv);
    const pfrCase *ref = general_motion_reference(r);
    static const char *const Q[3] = {"x", "y", "theta"};
    for (int q = 0; q < 3; ++q) {
        int c0 = pf_trajectory_column(&g_gmt[0], Q[q]), c1 = pf_trajectory_column(&g_gmt[1], Q[q]);
        if (c0 < 0 || c1 < 0) continue;
        pfrPlot pl;
        pfr_plot_begin(&pl, ", ");
        pfr_plot_add(&pl, "'%s' every ::1 using 1:%d with lines lw 2 lc rgb '#1f5fbf' title 'CA'",
                     pfr_rel(g_gm[0]->csv), c0 + 1);
        pfr_plot_add(&pl,
                     "'%s' every ::1 using 1:%d with lines lw 1.5 lc rgb '#ff7f0e' title 'limit "
                     "surface'",
                     pfr_rel(g_gm[1]->csv), c1 + 1);
        int rc = ref ? pf_trajectory_column(&ref->tab[PFR_REF], Q[q]) : -1;
        if (rc >= 0)
            pfr_plot_add(&pl,
                         "'%s' every ::1 using 1:%d with lines lw 2.5 dt 2 lc rgb '#000000' "
                         "title 'reference'",
                         pfr_rel(ref->job[PFR_REF]->csv), rc + 1);
        pfr_gp_panel(gp, pfr_fmt("%s(t)", Q[q]), "time t [s]",
                     pfr_fmt("%s [%s]", Q[q], pf_metrics_unit(Q[q])), pfr_plot_end(&pl, ""));
    }
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    pfr_gp_run(script);
}

static void analyse(pfrReport *r)
{
    if (g_has_ecc) analyse_eccentric(r);
    if (g_has_gm) analyse_general_motion(r);
}

static void write_section(pfrReport *r, FILE *md)
{
    if (!g_has_ecc && !g_has_gm) return;
    fprintf(md, "## Stick criteria: CA vs limit surface\n\n");
    if (g_has_ecc) {
        fprintf(md, "Eccentric push: breakaway force for a push at offset h from the mass centre "
                    "(`--set h=...` in metres), exact patch friction under `--set criterion=ca` "
                    "and `--set criterion=limit`, each beside the reference under the same "
                    "criterion (its own stick test, by cubature: no plugin code), and stock ODE "
                    "friction. Data: "
                    "[data/eccentric_push_criteria.csv](data/eccentric_push_criteria.csv).\n\n"
                    "| h [mm] | CA [N] | reference, CA [N] | limit surface [N] | reference, limit "
                    "[N] | stock [N] |\n"
                    "|---|---|---|---|---|---|\n");
        for (int k = 0; k < g_nh; ++k) {
            const double *f = g_ecc_f[k];
            const double row[NV] = {f[0], f[3], f[1], f[4], f[2]};
            pfr_md_row(md, pfr_fmt("%g", g_hs[k]), row, NV);
        }
        fprintf(md, "\n![eccentric push](plots/eccentric_push_criteria.png)\n\n");
    }
    if (g_has_gm) {
        fprintf(md, "General motion under both criteria (exact patch friction):\n\n"
                    "| metric | CA | limit surface |\n|---|---|---|\n");
        const pfrCase *gref = general_motion_reference(r);
        if (gref) { /* the two criteria against the reference, same error definition */
            pfrCase both = {.scene = gref->scene, .cas = gref->cas};
            both.tab[0] = g_gmt[0];
            both.tab[1] = g_gmt[1];
            both.tab[PFR_REF] = gref->tab[PFR_REF];
            both.have[0] = both.have[1] = both.have[PFR_REF] = 1;
            pfr_case_errors(&both);
            char b[2][96];
            fprintf(md, "| RMS error vs reference (largest coordinate) | %s | %s |\n",
                    pfr_fmt_err(b[0], sizeof b[0], &both, 0),
                    pfr_fmt_err(b[1], sizeof b[1], &both, 1));
        }
        const char *k;
        const json_t *v;
        json_object_foreach(g_gmj[0], k, v)
        {
            if (json_is_string(v) || json_is_array(v) || pfr_is_bookkeeping(k)) continue;
            char b[2][32];
            fprintf(md, "| %s | %s | %s |\n", k, pfr_fmt_num(b[0], 32, pfr_json_num(v)),
                    pfr_fmt_num(b[1], 32, pfr_json_get(g_gmj[1], k)));
        }
        fprintf(md, "\n![general motion, criteria](plots/general_motion_criteria.png)\n\n");
    }
}

const pfrSection pfr_section_criteria = {"stick criteria", plan, analyse, write_section};
