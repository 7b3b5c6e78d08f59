/* Parameter sweeps on MPI: pf-sweep and pf-inverse on the shipped specs
 * (tools/sweeps), run, plotted and written up by pf_report_sweeps.c; analyse runs them after the
 * other sections' jobs and keeps the README part for write. */
#include "report.h"

#include "pf_report_sweeps.h"

#include <stdio.h>

static char *g_text;
static size_t g_len;

static void analyse(pfrReport *r)
{
    if (!r->sweep) return;
    FILE *f = open_memstream(&g_text, &g_len);
    if (!f) pfr_die("out of memory");
    int rc = pf_report_sweeps(f, r->out, r->sweep, r->quick, r->jobs);
    fclose(f);
    if (rc) pfr_die("the sweeps section failed (see above)");
}

static void write_section(pfrReport *r, FILE *md)
{
    (void)r;
    if (g_text) fwrite(g_text, 1, g_len, md);
}

const pfrSection pfr_section_sweeps = {"parameter sweeps", NULL, analyse, write_section};
