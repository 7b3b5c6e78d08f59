/* pf-report's parts (pf_report.c runs them): arguments -> jobs -> data -> sections.
 *
 *   util.c      one-shot memory, strings and files
 *   jobs.c      the process pool (pf-demo, pf-reference, pf-limit-surfaces, pf-sweep,
 *               pf-inverse, gnuplot, probes)
 *   discover.c  the scenes and cases pf-demo lists
 *   data.c      the CSV reader (a run's CSV as a pfTrajectory), a run's JSON line (jansson),
 *               the error of a case
 *   gnuplot.c   the gnuplot writer: templates (gnuplot/NAME.gp, built in) and plot lists
 *   section_*.c the README's sections, in the order of PFR_SECTIONS (pf_report.c)
 *
 * The metrics themselves are the scene module's (scenes/pf_metrics.h), shared with the tests. */
#ifndef PF_REPORT_H
#define PF_REPORT_H

#include "pf_metrics.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define PFR_PATHLEN 1024
#define PFR_MAX_ARGS 48
#define PFR_MAX_SCENES 16
#define PFR_MAX_CASES 32
#define PFR_MAX_PEERS 8

/* ---------------------------------------------------------------------------------------- */
/* util.c: pf-report is a one-shot program: what it allocates lives until exit, reachable from
 * a registry (so LeakSanitizer, which runs the smoke test, reports only real leaks).          */
/* ---------------------------------------------------------------------------------------- */

void pfr_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void *pfr_alloc(size_t n); ///< zeroed
void *pfr_realloc(void *p, size_t n);
char *pfr_strdup(const char *s);
char *pfr_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double pfr_now(void); ///< monotonic clock [s]
void pfr_make_dir(const char *path);
FILE *pfr_open_w(const char *path);
char *pfr_read_file(const char *path); ///< NULL if it cannot be read
char *pfr_last_line(char *s);          ///< last non-empty line (s is modified), or NULL
char *pfr_slug(const char *s);         ///< anything but [A-Za-z0-9.-] becomes '_'
/** "%.4g", or an em dash for a value not reached / not reported. */
const char *pfr_fmt_num(char *buf, size_t n, double v);

/* ---------------------------------------------------------------------------------------- */
/* jobs.c                                                                                    */
/* ---------------------------------------------------------------------------------------- */

typedef struct pfrJob {
    char *argv[PFR_MAX_ARGS + 1];
    int argc;
    char *label;    ///< progress text, e.g. "sliding-blocks general-motion exact"
    char *out_path; ///< stdout
    char *err_path; ///< stderr
    char *csv;      ///< the CSV it writes (--csv), or NULL
    pid_t pid;
    double t0, elapsed, next_note;
    int done, timed_out;
    int first;       ///< a long run: started before the others (so it does not end the report)
    char *json_line; ///< last stdout line after the run
} pfrJob;

typedef struct pfrJobList {
    pfrJob **v;
    int n, cap;
} pfrJobList;

pfrJob *pfr_job_new(pfrJobList *jl, const char *label, const char *out_path, const char *err_path);
void pfr_job_arg(pfrJob *j, const char *a);
char *pfr_job_cmdline(const pfrJob *j);
/** Run the jobs, at most par at a time, with progress on stderr; the jobs marked first start
 *  first (else in list order). A failure, or a run longer
 *  than timeout [s] (killed), stops the report: the command and its stderr's end are shown. */
void pfr_jobs_run(pfrJobList *jl, int par, double timeout);
/** Run argv in cwd (NULL: here) to the end; stdout and stderr to the files. Returns the wait
 *  status. */
int pfr_run_wait(const char *cwd, char *const argv[], const char *out_path, const char *err_path);
/** stdout of argv (for --help / --list probes), or NULL if it fails. */
char *pfr_capture(const char *tmpdir, char *const argv[]);

/* ---------------------------------------------------------------------------------------- */
/* the report's state                                                                        */
/* ---------------------------------------------------------------------------------------- */

static const char *const PFR_MODES[3] = {"stock", "exact", "pade"};
#define PFR_NMODES 3
#define PFR_REF 3 /* index of the reference in the per-case arrays */

typedef struct pfrScene {
    char *name;
    char *cases[PFR_MAX_CASES];
    int ncases;
    int listed; ///< the help text gives a case list (possibly "none")
} pfrScene;

/// One case run in several modes against its reference, and its errors.
typedef struct pfrCase {
    const char *scene, *cas;
    pfrJob *job[4]; ///< stock, exact, pade, reference (NULL: not run)
    pfTrajectory tab[4];
    json_t *js[4];
    int have[4];
    int npos;
    int pos_col[8]; ///< position coordinates, in the reference's table
    double err_rel[PFR_NMODES][8], err_abs[PFR_NMODES][8];
    double err[PFR_NMODES]; ///< largest relative error over the coordinates (NAN: none)
    int err_is_abs;         ///< every coordinate of the reference at rest: err holds absolute RMS
    int err_coord[PFR_NMODES];
    int plots; ///< PNGs drawn: 1 trajectories, 2 phase portraits, 4 stick/slip timeline
    /* shaking-table: the reference also solved with the Pade model (pf-reference --friction
     * pade), so the pade mode is also measured against the solution of its own model */
    pfrJob *ref_pade;
    int err_pade_own_ok;
    char err_pade_own_txt[96];
} pfrCase;

typedef struct pfrReport {
    /* arguments */
    const char *demo, *reference, *limits, *out;
    const char *sweep; ///< pf-sweep, NULL: no sweeps section
    /** pf-peer-* programs (--peer, repeatable): the peer engines of "Against other engines" */
    const char *peers[PFR_MAX_PEERS];
    int npeers;
    /** pf-demo built against the patched ODE (--demo-patched), for the in-solver coupling when
     *  demo's ODE lacks it; NULL: none. demo_patched_status: the file in which the report target
     *  recorded how building it went ("ok", or why not). */
    const char *demo_patched, *demo_patched_status;
    int quick, jobs;
    double timeout; ///< longest run [s]
    /* what exists */
    int have_ref, ref_takes_duration, ref_takes_friction;
    pfrScene scenes[PFR_MAX_SCENES];
    int nscenes;
    char how[64]; ///< how the scenes were found
    char runs[PFR_PATHLEN], plots[PFR_PATHLEN], data[PFR_PATHLEN], readme[PFR_PATHLEN];
    pfrJobList jobs_list;
    double t_start, t_runs;
    char notes[4096]; ///< "Not covered in this run" items
    size_t nnotes;
    /* shared between sections */
    pfrCase *cases; ///< the comparison cases (section_summary.c)
    int ncases;
    int solver_ok; ///< pf-demo runs coupling=solver (section_varying.c)
    /** demo_patched runs coupling=solver (section_varying.c); else patched_why says why not */
    int patched_ok;
    char patched_why[512];
} pfrReport;

/// Report directory; gnuplot runs there and its scripts name files relative to it.
extern const char *pfr_out;
/// p relative to the report directory (unchanged if outside it).
const char *pfr_rel(const char *p);

void pfr_note(pfrReport *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pfr_has_scene(const pfrReport *r, const char *scene);
/** The pf-demo that runs coupling=solver: this build's (solver_ok), else the patched build's
 *  (patched_ok), else NULL (no in-solver cells). */
const char *pfr_solver_demo(const pfrReport *r);
int pfr_has_case(const pfrReport *r, const char *scene, const char *cas);

/* ---------------------------------------------------------------------------------------- */
/* discover.c                                                                                */
/* ---------------------------------------------------------------------------------------- */

/** Scenes and cases from `pf-demo --list`, or failing that `pf-demo --help`; fills r->scenes,
 *  r->nscenes and r->how, and notes the comparison scenes pf-demo lacks. */
void pfr_discover(pfrReport *r);

/* ---------------------------------------------------------------------------------------- */
/* data.c                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/** A run of pf-demo (mode: stock | exact | pade) or, mode NULL, of pf-reference, planned into
 *  the job list: scene, case, --duration (if > 0 and the program takes it), --set sets[]; writes
 *  runs/SCENE__CASE__TAG.{csv,json,log}. */
pfrJob *pfr_plan_run(pfrReport *r, const char *scene, const char *cas, const char *mode,
                     const char *tag, double duration, const char *const *sets, int nsets);
/// pfr_plan_run with another pf-demo (demo; mode must not be NULL).
pfrJob *pfr_plan_run_with(pfrReport *r, const char *demo, const char *scene, const char *cas,
                          const char *mode, const char *tag, double duration,
                          const char *const *sets, int nsets);
/// A CSV file as text: a header row of ncol names, then nrow rows of ncol cells (missing: "").
typedef struct pfrCsv {
    int ncol;
    char **cols;
    long nrow;
    char **cells; ///< nrow x ncol
} pfrCsv;
/** The report's CSV reader: a header row, then a row a line (blank lines skipped; names trimmed
 *  of trailing blanks and CR; no quoting). Returns 0, or -1 if the file cannot be read or is
 *  empty. */
int pfr_csv_read(const char *path, pfrCsv *c);
/// Index of the column called name, or -1.
int pfr_csv_col(const pfrCsv *c, const char *name);
/// Cell (r, col) as text.
static inline const char *pfr_csv_str(const pfrCsv *c, long r, int col)
{
    return c->cells[r * c->ncol + col];
}
/// Cell (r, col) as a number; an empty or unparsable cell is NAN.
double pfr_csv_num(const pfrCsv *c, long r, int col);

/** The run's JSON line (and, with tb, its CSV read as numbers by pfr_csv_read); a run that wrote
 *  neither stops the report. */
void pfr_load_run(const pfrJob *j, pfTrajectory *tb, json_t **js);
/// A JSON value as a number: numbers, true 1, false 0, anything else (null, missing) NAN.
double pfr_json_num(const json_t *v);
/// pfr_json_num of key in object o.
double pfr_json_get(const json_t *o, const char *key);

/// Keys of a run's JSON that describe the run rather than measure it (scene, case, steps, ...).
int pfr_is_bookkeeping(const char *key);

/** Position coordinates of the case (the reference's) and each mode's RMS error against the
 *  reference (scenes/pf_metrics.h): the largest relative error over the coordinates, or the
 *  absolute one when the reference keeps every coordinate at rest. */
void pfr_case_errors(pfrCase *cr);
/// Column name of run m of the case, or -1 (no such column, or the run is missing).
int pfr_case_col(const pfrCase *cr, int m, const char *name);
/** The error cell of mode m: "0.123 % (x)", "2e-07 m (y, abs.)", "n/a", ... */
const char *pfr_fmt_err(char *buf, size_t n, const pfrCase *cr, int m);

/* ---------------------------------------------------------------------------------------- */
/* gnuplot.c                                                                                 */
/* ---------------------------------------------------------------------------------------- */

/// A gnuplot template (tools/report/gnuplot/NAME.gp, built into pf-report by CMake).
typedef struct pfrTemplate {
    const char *name, *text;
} pfrTemplate;
extern const pfrTemplate pfr_gp_templates[];
extern const size_t pfr_gp_ntemplates;

/** Write template name (gnuplot/NAME.gp) to gp with its @KEY@ fields replaced: kv holds key,
 *  value pairs and ends with NULL. A field without a value stops the report. */
void pfr_gp(FILE *gp, const char *name, const char *const *kv);
/// png.gp: a fresh gnuplot state drawing a PNG of w x h pixels.
void pfr_gp_png(FILE *gp, const char *png, int w, int h);
/// pfr_gp_png, then header.gp: the style of the report's line plots (CSV data, grid, key).
void pfr_gp_header(FILE *gp, const char *png, int w, int h);

/// A plot command's list of curves.
typedef struct pfrPlot {
    char *s;
    size_t n, cap;
    const char *sep; ///< between curves
} pfrPlot;
void pfr_plot_begin(pfrPlot *p, const char *sep);
void pfr_plot_add(pfrPlot *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/// The list, or empty when no curve was added.
const char *pfr_plot_end(pfrPlot *p, const char *empty);
/// panel.gp: title, axis labels and a plot of the curves.
void pfr_gp_panel(FILE *gp, const char *title, const char *xlabel, const char *ylabel,
                  const char *plots);
/** stickslip.gp: one band per run of the case (run m at height m, high while flag column col is
 *  nonzero), labelled labels[m], coloured colors[m]. */
void pfr_gp_timeline(FILE *gp, const pfrCase *cr, const char *col, const char *title,
                     const char *const labels[4], const char *const colors[4]);
/// Run gnuplot on script (in the report directory); a failure stops the report.
void pfr_gp_run(const char *script);
/** plots/STEM.gp: header.gp for plots/STEM.png (w x h) and template tmpl with @DATA@ the data
 *  directory; drawn at once. */
void pfr_gp_data_plot(const pfrReport *r, const char *stem, const char *tmpl, int w, int h);

/* ---------------------------------------------------------------------------------------- */
/* markdown                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/// A table row "| first | v0 | v1 | ... |" of n numbers (pfr_fmt_num).
void pfr_md_row(FILE *md, const char *first, const double *v, int n);

/* ---------------------------------------------------------------------------------------- */
/* sections                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/** A part of the report: plan adds its runs to the job list, analyse reads their results and
 *  writes its CSVs and plots, write appends its README part; each may be NULL. */
typedef struct pfrSection {
    const char *name;
    void (*plan)(pfrReport *r);
    void (*analyse)(pfrReport *r);
    void (*write)(pfrReport *r, FILE *md);
} pfrSection;

extern const pfrSection pfr_section_header;   ///< title, run statistics, what was not covered
extern const pfrSection pfr_section_summary;  ///< stock, exact, pade vs reference (table)
extern const pfrSection pfr_section_varying;  ///< varying normal load: adapter vs solver
extern const pfrSection pfr_section_criteria; ///< CA vs limit-surface stick criterion
extern const pfrSection pfr_section_scenes;   ///< per-case tables and plots of the summary
extern const pfrSection pfr_section_rigs;     ///< friction rigs of the dynamic laws
extern const pfrSection pfr_section_pendulum; ///< Dahl wire pendulum
extern const pfrSection pfr_section_limits;   ///< limit surfaces (pf-limit-surfaces)
extern const pfrSection pfr_section_stacks;   ///< stacks and piles: stock vs patch
/* skid-steer */
extern const pfrSection pfr_section_skid; ///< skid steering: stock vs patch vs closed form
/* corner */
extern const pfrSection pfr_section_corner; ///< several patches per pair: the corner scene
/* push */
extern const pfrSection pfr_section_push; ///< pushing: stock vs patch vs the quasi-static reference
/// against other engines: ODE, MuJoCo, Bullet on the cases of tools/peers/pf_peer_cases.h
extern const pfrSection pfr_section_peers;
/// --peer PROGRAM: one more pf-peer-* program for pfr_section_peers (at most PFR_MAX_PEERS)
void pfr_add_peer(pfrReport *r, const char *prog);
extern const pfrSection pfr_section_sweeps; ///< parameter sweeps (pf-sweep)
extern const pfrSection pfr_section_files;  ///< what the report directory holds

#endif
