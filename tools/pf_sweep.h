/* pf-sweep: parameter sweeps of the pf-demo scenes, in process through the scene API
 * (demos/scenes/pf_scene.h), on one process or over MPI ranks. Shared by pf-sweep (pf_sweep.c),
 * pf-inverse (pf_inverse.c) and the tests.
 *
 * A sweep spec is a text file of `key = value` lines (# starts a comment):
 *
 *     scene    = shaking-table
 *     case     = excitation-1
 *     friction = pade exact stock          # one or more modes: the slowest factor of the design
 *     set      = A_x=1 A_y=1               # fixed scene parameters (pf-demo's --set), repeatable
 *     duration = 1                         # [s] simulated time per run (default: the case's)
 *     dt       = 5e-5                      # [s] step (default: the case's)
 *     grid omega_a = 200 2000 16           # lo hi count: count values evenly spaced, ends included
 *     list h = 0.005 0.010                 # explicit values
 *     normal mu_s = 0.55 0.0275            # random: mean sd (needs samples)
 *     uniform mass = 0.0079 0.0083         # random: lo hi
 *     derived mu_k = 0.9454545 * mu_s      # factor * another parameter of the point
 *     samples  = 400                       # random draws per grid cell (random designs)
 *     seed     = 15                        # of the random draws
 *     metrics  = final_x final_y distance direction
 *     until    = breakaway_force           # optional: end a run once these metrics are finite
 *
 * Points are numbered index = ((mode * cells) + cell) * samples + sample; the grid / list factors
 * form the cell in the order they are declared, the last fastest. A point's random draws depend
 * only on the seed, its cell and its sample (not on the mode or on which rank runs it: the three
 * friction modes see the same draws), so the design is the same on every rank and for any number
 * of ranks. Values go to the scene as the strings written in the CSV ("%.15g"), so the CSV is
 * exactly what was run.
 */
#ifndef PF_SWEEP_H
#define PF_SWEEP_H

#include "pf_scene.h"

#include <signal.h>
#include <stddef.h>

#define PF_SWEEP_MAX_PARAMS 16
#define PF_SWEEP_MAX_SETS 32
#define PF_SWEEP_MAX_METRICS 16
#define PF_SWEEP_MAX_LEVELS 256
#define PF_SWEEP_NAME 48
/// Longest CSV row a point produces (bytes, including the newline).
#define PF_SWEEP_ROW 2048

/// How a parameter's values are chosen.
typedef enum pfSweepKind {
    PF_SWEEP_GRID = 0, ///< lo hi count, evenly spaced, both ends included
    PF_SWEEP_LIST,     ///< explicit values
    PF_SWEEP_UNIFORM,  ///< random, uniform in [lo, hi)
    PF_SWEEP_NORMAL,   ///< random, normal(mean, sd)
    PF_SWEEP_DERIVED   ///< factor * another parameter of the same point
} pfSweepKind;

/// One swept parameter (a scene --set key).
typedef struct pfSweepParam {
    char name[PF_SWEEP_NAME];
    pfSweepKind kind;
    double a, b; ///< grid / uniform: lo, hi; normal: mean, sd; derived: factor (a)
    int count;   ///< grid / list: number of values
    double level[PF_SWEEP_MAX_LEVELS]; ///< list values
    int source;                        ///< derived: index of the parameter it scales
} pfSweepParam;

/// A parsed and checked sweep spec.
typedef struct pfSweepSpec {
    char scene[PF_SWEEP_NAME], case_name[PF_SWEEP_NAME]; ///< case "" = the scene's default
    int nmodes;
    pfOdeMode mode[3];
    int nset;
    char set_key[PF_SWEEP_MAX_SETS][PF_SWEEP_NAME], set_val[PF_SWEEP_MAX_SETS][64];
    double duration, dt; ///< [s]; 0 = the case's default
    int nparam;
    pfSweepParam param[PF_SWEEP_MAX_PARAMS];
    long samples;       ///< random draws per cell (1 for a pure grid)
    unsigned long seed; ///< of the random draws
    int nmetric;
    char metric[PF_SWEEP_MAX_METRICS][PF_SWEEP_NAME];
    int nuntil;
    char until[PF_SWEEP_MAX_METRICS][PF_SWEEP_NAME];
    long cells;   ///< product of the grid / list counts (1 if none)
    long npoints; ///< nmodes * cells * samples
} pfSweepSpec;

/// One point of the design: its friction mode and the parameter values as --set strings.
typedef struct pfSweepPoint {
    long index;
    pfOdeMode mode;
    char value[PF_SWEEP_MAX_PARAMS][32];
} pfSweepPoint;

/** Parse spec text (file contents); checks every key, range and count and names the bad one in
 *  msg ("line 7: grid omega_a = 2000 200 16: lo > hi"). The scene itself is not consulted: call
 *  pf_sweep_check next. Returns 0 or -1. */
int pf_sweep_parse(const char *text, pfSweepSpec *sp, char *msg, size_t n);
/** Check the spec against the scene before any run: scene, case, every --set key (fixed and
 *  swept) and the values of every point (or, beyond 20000 points per mode, an even subset of
 *  them and the first and last), and every metric name. Returns 0 or -1 with msg naming what was
 *  refused. */
int pf_sweep_check(const pfSweepSpec *sp, char *msg, size_t n);
/** Canonical one-line description of the design (the checkpoint's identity). */
void pf_sweep_canonical(const pfSweepSpec *sp, char *buf, size_t n);
/** FNV-1a 64-bit hash of a string. */
unsigned long long pf_sweep_hash(const char *s);

/// Point index -> mode and values (0 <= index < npoints).
void pf_sweep_point(const pfSweepSpec *sp, long index, pfSweepPoint *pt);

/** The spec's scene and case in friction mode with the parameters kv[n]: the one place pf-sweep
 *  creates scenes (pf_scene_create). NULL with err naming the bad value. */
pfScene *pf_sweep_scene(const pfSweepSpec *sp, pfOdeMode mode, const pfSceneParam *kv, int n,
                        pfError *err);

/// Hooks of one run (all optional).
typedef struct pfSweepHooks {
    void (*poll)(void *ctx);                       ///< every PF_SWEEP_POLL_STEPS steps
    void (*step)(void *ctx, const pfScene *scene); ///< after every step (trajectories)
    void *ctx;
    volatile sig_atomic_t *stop; ///< nonzero: abandon the run (returns PF_ERR_RANGE, "stopped")
} pfSweepHooks;
#define PF_SWEEP_POLL_STEPS 256

/** Run one scene: the spec's scene, case, fixed sets, then extra (the point's values; later keys
 *  win), for the spec's duration and dt (or until the `until` metrics are finite). Writes the
 *  spec's metrics into metric[nmetric]. Returns PF_OK or a status with err. */
int pf_sweep_run(const pfSweepSpec *sp, pfOdeMode mode, const pfSceneParam *extra, int nextra,
                 double *metric, const pfSweepHooks *hooks, pfError *err);
/** Run point `index` and format its CSV row (with the newline) into row. Returns PF_OK (a failed
 *  run still gives a row: status column "error: ...", metrics nan) or a negative status when
 *  stopped through hooks->stop (row not written). */
int pf_sweep_run_point(const pfSweepSpec *sp, long index, const pfSweepHooks *hooks, char *row,
                       size_t n);
/** The CSV header line (with the newline). */
void pf_sweep_csv_header(const pfSweepSpec *sp, char *buf, size_t n);

/** Append printf output to buf (capacity n) at *len, advancing *len; nothing once full. */
void pf_sweep_append(char *buf, size_t n, size_t *len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
