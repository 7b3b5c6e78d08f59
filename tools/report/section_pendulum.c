/* Dahl's wire pendulum: the per-cycle amplitude against the three regions of P24a. */
#include "report.h"

#include <math.h>

static pfrJob *g_job;
static json_t *g_js;

static void plan(pfrReport *r)
{
    if (!pfr_has_scene(r, "pendulum")) return;
    const char *sets[1] = {"law=dahl"};
    g_job = pfr_plan_run(r, "pendulum", "wire", "exact", "dahl", r->quick ? 10.0 : 0.0, sets, 1);
}

/* Region of P24a an amplitude (units of x_c) falls in: 0 Coulomb, 1 viscous, 2 structural. */
static int region(double u)
{
    return u >= 4.0 ? 0 : u >= 0.7 ? 1 : 2;
}

static void analyse(pfrReport *r)
{
    if (!g_job) return;
    pfr_load_run(g_job, NULL, &g_js);
    const json_t *u = json_object_get(g_js, "ubar");
    if (!json_is_array(u)) pfr_die("pendulum JSON lacks the array 'ubar'");
    /* P24a per region, anchored at the region's first cycle: Coulomb u decreases by a constant
     * per cycle, viscous u shrinks by a constant ratio, structural 1/u grows by a constant per
     * cycle (the per-cycle constants are in the JSON). */
    double dc = pfr_json_get(g_js, "coulomb_p24a_decrement");
    double rv = pfr_json_get(g_js, "viscous_p24a_ratio");
    double is = pfr_json_get(g_js, "structural_p24a_inv_increment");
    FILE *f = pfr_open_w(pfr_fmt("%s/pendulum_envelope.csv", r->data));
    fprintf(f, "cycle,ubar,p24a_coulomb,p24a_viscous,p24a_structural\n");
    long anchor[3] = {-1, -1, -1}, n = (long)json_array_size(u);
    for (long k = 0; k < n; ++k) {
        double uk = pfr_json_num(json_array_get(u, (size_t)k));
        int reg = region(uk);
        if (anchor[reg] < 0) anchor[reg] = k;
        double mdl[3] = {NAN, NAN, NAN};
        for (int g = 0; g < 3; ++g) {
            long a = anchor[g];
            if (a < 0 || reg < g) continue;
            /* draw each model over its region and one cycle past it */
            if (reg > g && (k == 0 || region(pfr_json_num(json_array_get(u, (size_t)k - 1))) != g))
                continue;
            double ua = pfr_json_num(json_array_get(u, (size_t)a)), N = (double)(k - a);
            mdl[g] = g == 0 ? ua + dc * N : g == 1 ? ua * pow(rv, N) : 1.0 / (1.0 / ua + is * N);
        }
        fprintf(f, "%ld,%.9g,%.9g,%.9g,%.9g\n", k + 1, uk, mdl[0], mdl[1], mdl[2]);
    }
    fclose(f);
    pfr_gp_data_plot(r, "pendulum_envelope", "pendulum_envelope", 900, 560);
}

static void write_section(pfrReport *r, FILE *md)
{
    (void)r;
    if (!g_job) return;
    fprintf(md, "## Dahl wire pendulum: decay envelope\n\n"
                "`pf-demo pendulum --set law=dahl`: per-cycle amplitude in units of x_c, with "
                "the P24a regions. Mean per-cycle change over the cycles in each region, "
                "measured vs P24a:\n\n"
                "| region | measured | P24a | cycles |\n|---|---|---|---|\n");
    static const char *const ROW[3][4] = {
        {"Coulomb: d(u)/cycle", "coulomb_mean_decrement", "coulomb_p24a_decrement",
         "coulomb_cycles"},
        {"viscous: u ratio/cycle", "viscous_mean_ratio", "viscous_p24a_ratio", "viscous_cycles"},
        {"structural: d(1/u)/cycle", "structural_mean_inv_increment",
         "structural_p24a_inv_increment", "structural_cycles"}};
    for (int i = 0; i < 3; ++i) {
        char b[2][32];
        fprintf(md, "| %s | %s | %s | %.0f |\n", ROW[i][0],
                pfr_fmt_num(b[0], 32, pfr_json_get(g_js, ROW[i][1])),
                pfr_fmt_num(b[1], 32, pfr_json_get(g_js, ROW[i][2])),
                pfr_json_get(g_js, ROW[i][3]));
    }
    fprintf(md, "\n![pendulum envelope](plots/pendulum_envelope.png)\n\n");
}

const pfrSection pfr_section_pendulum = {"wire pendulum", plan, analyse, write_section};
