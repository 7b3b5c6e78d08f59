/* pf-report: the comparison report, the project's main job.
 *
 * Runs every scene case of pf-demo in the stock, exact and pade friction modes and the
 * independent reference (pf-reference), reads the CSVs and JSON metrics back, and writes
 * OUT/README.md with the summary table (RMS error of each mode against the reference, relative to
 * the motion's amplitude; breakaway forces; synchronisation and stop times), the CSVs and the
 * gnuplot PNGs: trajectories, phase portraits, stick/slip timelines, the varying-normal-load
 * cases under the adapter and in-solver couplings, the eccentric push under the CA and
 * limit-surface stick criteria, the friction-rig loops and cycles, the wire pendulum's decay
 * envelope and (through pf-limit-surfaces) the limit surfaces of the patch models.
 *
 * Everything goes through the pf-demo command-line contract, as subprocesses, so the report
 * covers whatever scenes pf-demo lists. A failed run stops the report: the message names the
 * command and shows the end of its stderr, the exit status is 1 and no README.md is left behind.
 *
 * A pipeline: arguments -> jobs (each section plans its runs) -> data (the runs, then each
 * section reads its results, writes its CSVs and plots) -> sections (each writes its part of
 * the README, in the order below). The parts are in report/ (report.h lists them).
 *
 * Usage: pf-report --demo PF-DEMO [--reference PF-REFERENCE] [--limit-surfaces PF-LIMIT-SURFACES]
 *                  [--sweep PF-SWEEP] [--peer PF-PEER-ENGINE ...]
 *                  [--demo-patched PF-DEMO [--demo-patched-status FILE]]
 *                  [--out DIR] [--quick] [--jobs N] [--timeout S]
 * --demo-patched: pf-demo built against the patched ODE, which runs the in-solver coupling when
 * --demo's ODE cannot (the report target of the default build builds it into build-patched/).
 */
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The report's sections, in README order; a new section is one more line here. */
static const pfrSection *const PFR_SECTIONS[] = {
    &pfr_section_header, &pfr_section_summary, &pfr_section_varying,  &pfr_section_criteria,
    &pfr_section_scenes, &pfr_section_rigs,    &pfr_section_pendulum, &pfr_section_limits,
    &pfr_section_stacks, &pfr_section_skid,    &pfr_section_corner,   &pfr_section_push,
    &pfr_section_peers,  &pfr_section_sweeps,  &pfr_section_files,
};
#define NSECTIONS (sizeof PFR_SECTIONS / sizeof PFR_SECTIONS[0])

static void usage(FILE *f)
{
    fputs("usage: pf-report --demo PF-DEMO [--reference PF-REFERENCE]\n"
          "                 [--limit-surfaces PF-LIMIT-SURFACES] [--sweep PF-SWEEP] [--out DIR]\n"
          "                 [--demo-patched PF-DEMO [--demo-patched-status FILE]]\n"
          "                 [--peer PF-PEER-ENGINE]... [--quick] [--jobs N] [--timeout S]\n"
          "Runs every pf-demo scene case in stock, exact and pade friction and the reference,\n"
          "and writes DIR/README.md (default DIR: report) with CSVs and gnuplot PNGs.\n"
          "  --demo-patched PF-DEMO  pf-demo against the patched ODE: the in-solver coupling's\n"
          "            runs when --demo's ODE lacks it; FILE holds \"ok\" or why it was not built\n"
          "  --peer PF-PEER-ENGINE  a peer-engine program (pf-peer-ode, pf-peer-mujoco,\n"
          "            pf-peer-bullet; repeatable) for the section \"Against other engines\"\n"
          "  --quick   short runs and fewer cases (the CTest smoke test)\n"
          "  --jobs N  runs at a time (default 2)\n"
          "  --timeout S  longest run [s] before it is killed and the report fails (300)\n",
          f);
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(pfrReport *r, int argc, char **argv)
{
    r->out = "report";
    r->jobs = 2;
    r->timeout = 300.0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--demo") && has)
            r->demo = argv[++i];
        else if (!strcmp(a, "--reference") && has)
            r->reference = argv[++i];
        else if (!strcmp(a, "--limit-surfaces") && has)
            r->limits = argv[++i];
        else if (!strcmp(a, "--sweep") && has)
            r->sweep = argv[++i];
        else if (!strcmp(a, "--peer") && has)
            pfr_add_peer(r, argv[++i]);
        else if (!strcmp(a, "--demo-patched") && has)
            r->demo_patched = argv[++i];
        else if (!strcmp(a, "--demo-patched-status") && has)
            r->demo_patched_status = argv[++i];
        else if (!strcmp(a, "--out") && has)
            r->out = argv[++i];
        else if (!strcmp(a, "--jobs") && has)
            r->jobs = atoi(argv[++i]);
        else if (!strcmp(a, "--timeout") && has)
            r->timeout = atof(argv[++i]);
        else if (!strcmp(a, "--quick"))
            r->quick = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "pf-report: unknown or incomplete argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!r->demo) {
        usage(stderr);
        return 2;
    }
    if (r->jobs < 1) r->jobs = 1;
    return -1;
}

/* The report directory: runs/, plots/, data/; a README from an earlier run is removed first, so
 * that a failed run does not leave it looking current. */
static void open_report(pfrReport *r)
{
    if (access(r->demo, X_OK) != 0) pfr_die("pf-demo not found at '%s'", r->demo);
    r->t_start = pfr_now();
    pfr_out = r->out;
    pfr_make_dir(r->out);
    snprintf(r->readme, sizeof r->readme, "%s/README.md", r->out);
    unlink(r->readme);
    snprintf(r->runs, sizeof r->runs, "%s/runs", r->out);
    snprintf(r->plots, sizeof r->plots, "%s/plots", r->out);
    snprintf(r->data, sizeof r->data, "%s/data", r->out);
    pfr_make_dir(r->runs);
    pfr_make_dir(r->plots);
    pfr_make_dir(r->data);
}

static void run_jobs(pfrReport *r)
{
    fprintf(stderr, "pf-report: %d runs into %s/ (%d at a time)\n", r->jobs_list.n, r->out,
            r->jobs);
    FILE *cmds = pfr_open_w(pfr_fmt("%s/commands.txt", r->out));
    for (int i = 0; i < r->jobs_list.n; ++i)
        fprintf(cmds, "%s\n", pfr_job_cmdline(r->jobs_list.v[i]));
    fclose(cmds);
    double t0 = pfr_now();
    pfr_jobs_run(&r->jobs_list, r->jobs, r->timeout);
    r->t_runs = pfr_now() - t0;
}

int main(int argc, char **argv)
{
    static pfrReport r;
    int rc = parse_args(&r, argc, argv);
    if (rc >= 0) return rc;
    open_report(&r);
    pfr_discover(&r);
    for (size_t i = 0; i < NSECTIONS; ++i)
        if (PFR_SECTIONS[i]->plan) PFR_SECTIONS[i]->plan(&r);
    run_jobs(&r);
    fprintf(stderr, "pf-report: reading the results and plotting\n");
    for (size_t i = 0; i < NSECTIONS; ++i)
        if (PFR_SECTIONS[i]->analyse) PFR_SECTIONS[i]->analyse(&r);
    char *tmp = pfr_fmt("%s.tmp", r.readme);
    FILE *md = pfr_open_w(tmp);
    for (size_t i = 0; i < NSECTIONS; ++i)
        if (PFR_SECTIONS[i]->write) PFR_SECTIONS[i]->write(&r, md);
    fclose(md);
    if (rename(tmp, r.readme) != 0)
        pfr_die("cannot rename %s to %s: %s", tmp, r.readme, strerror(errno));
    fprintf(stderr, "pf-report: wrote %s (%.0f s)\n", r.readme, pfr_now() - r.t_start);
    return 0;
}
