/* The report's section on parameter sweeps, written by pf-report. */
#ifndef PF_REPORT_SWEEPS_H
#define PF_REPORT_SWEEPS_H

#include <stdio.h>

/** Run the shipped sweeps (tools/sweeps: the shaking table's control map, the cut across its
 *  ridge, the inverse search, the Monte Carlo breakaway and the scaling benchmark) with pf-sweep
 *  (PF_SWEEP, under mpiexec with `ranks` ranks when it is built with MPI) and pf-inverse (next to
 *  it), and write their markdown section to md, their CSVs to OUT/data/sweeps/ and their gnuplot
 *  scripts and PNGs to OUT/plots/sweep_*. quick: the CI-sized map only (the smoke test). Progress
 *  and failures go to stderr; returns 0, or -1 when a run or a plot failed (the report then
 *  stops). */
int pf_report_sweeps(FILE *md, const char *out, const char *pf_sweep, int quick, int ranks);

#endif
