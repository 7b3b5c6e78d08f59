/* The limit surfaces of the patch models, from pf-limit-surfaces (which writes its own CSVs,
 * PNGs and limit_surfaces.md into the report directory). */
#include "report.h"

static pfrJob *g_job;

static void plan(pfrReport *r)
{
    if (!r->limits) return;
    g_job = pfr_job_new(&r->jobs_list, "limit surfaces (pf-limit-surfaces)",
                        pfr_fmt("%s/limit-surfaces.out", r->runs),
                        pfr_fmt("%s/limit-surfaces.log", r->runs));
    pfr_job_arg(g_job, r->limits);
    pfr_job_arg(g_job, "--out");
    pfr_job_arg(g_job, r->out);
    if (r->quick) pfr_job_arg(g_job, "--quick");
}

static void write_section(pfrReport *r, FILE *md)
{
    (void)r;
    if (!g_job) return;
    fprintf(md, "## Friction limit surfaces of the patch models\n\n"
                "From `pf-limit-surfaces` (details: [limit_surfaces.md](limit_surfaces.md)). "
                "Wrenches normalised with mu N and the pressure radius of gyration; ODE's "
                "point friction would be a box |f_x|, |f_y| <= 1 with no spin moment.\n\n"
                "![limit sections](limit_sections.png)\n\n"
                "![limit surfaces](limit_surfaces.png)\n\n");
}

const pfrSection pfr_section_limits = {"limit surfaces", plan, NULL, write_section};
