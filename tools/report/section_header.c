/* The README's frame: its title with the run statistics and what this run did not cover, and at
 * the end the list of what the report directory holds. */
#include "report.h"

static void write_header(pfrReport *r, FILE *md)
{
    fprintf(md, "# patchfriction comparison report\n\n");
    fprintf(md,
            "Written by `pf-report`%s (the `report` target: `cmake --build --preset default "
            "--target report`). %d runs, %.0f s of runs (%d at a time), %.0f s in all. Scenes "
            "from %s. The exact command lines are in [commands.txt](commands.txt).\n\n",
            r->quick ? " **--quick** (short runs, first case of each scene only: a smoke test, "
                       "not the report)"
                     : "",
            r->jobs_list.n, r->t_runs, r->jobs, pfr_now() - r->t_start, r->how);
    if (r->nnotes) fprintf(md, "## Not covered in this run\n\n%s\n", r->notes);
}

const pfrSection pfr_section_header = {"header", NULL, NULL, write_header};

static void write_files(pfrReport *r, FILE *md)
{
    (void)r;
    fprintf(md, "## Files\n\n"
                "- `runs/`: every run's CSV, stdout (`.json`, last line = the metrics) and "
                "stderr (`.log`)\n"
                "- `plots/`: the PNGs and the gnuplot scripts that draw them\n"
                "- `data/`: derived tables (criterion comparison, pendulum envelope, varying "
                "load)\n"
                "- `summary.csv`, `metrics.csv`, `commands.txt`\n");
}

const pfrSection pfr_section_files = {"files", NULL, NULL, write_files};
