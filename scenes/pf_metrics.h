/* Trajectories and the comparison metrics of a run against its reference: the one definition of
 * each, used by pf-report (its summary, varying-load and criteria sections) and by the scene
 * tests. A trajectory is what the scenes write as CSV (pf-demo --csv, pf-reference --csv,
 * pf_scene_csv_row): named columns, the first one the time t [s], one row per sample.
 *
 * Column roles come from the names the scenes give their columns: positions (x, y, theta, x1,
 * ...) are what errors are measured on, velocities pair with them in phase portraits, state
 * columns (stick, mode, ...) hold 0/1 flags. */
#ifndef PF_METRICS_H
#define PF_METRICS_H

/// A run's trajectory: ncol columns (cols[0] = "t"), nrow rows, row-major (not owned).
typedef struct pfTrajectory {
    int ncol;
    const char *const *cols;
    long nrow;
    const double *rows; ///< nrow x ncol
} pfTrajectory;

/// Index of the column called name, or -1.
int pf_trajectory_column(const pfTrajectory *tr, const char *name);
/// Value at row r, column c.
static inline double pf_trajectory_at(const pfTrajectory *tr, long r, int c)
{
    return tr->rows[r * tr->ncol + c];
}
/** Column c at time t, linear between the samples around t, with a moving cursor (start it at 0;
 *  monotone t make a pass linear in the rows). Returns 1 and *out, or 0 when t lies outside the
 *  trajectory's times (by more than 1e-12 s) or it has fewer than two rows. */
int pf_trajectory_interp(const pfTrajectory *tr, int c, double t, long *cursor, double *out);

/* ---------------------------------------------------------------------------------------- */
/* column roles                                                                              */
/* ---------------------------------------------------------------------------------------- */

int pf_metrics_is_position(const char *name); ///< x, y, z, theta, x1, x2, ... (what errors use)
int pf_metrics_is_velocity(const char *name); ///< vx, omega, z_dot, ...
int pf_metrics_is_state(const char *name);    ///< stick, slip, mode, *state*: 0/1 flags
/// Unit of a column: "m", "rad", "m/s", "rad/s", "-" (flags) or "SI" (unknown).
const char *pf_metrics_unit(const char *name);
/// The velocity column of position column pos (vx for x, omega or w for theta, ...), or -1.
int pf_metrics_velocity_of(const pfTrajectory *tr, const char *pos);
/** The position coordinates of ref (column indices, at most max): the columns named as positions;
 *  if none is (unknown naming), up to three columns that are neither velocities nor flags. */
int pf_metrics_positions(const pfTrajectory *ref, int *cols, int max);

/* ---------------------------------------------------------------------------------------- */
/* metrics                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/// A coordinate whose reference range is below this is at rest: no relative error [m or rad].
#define PF_METRICS_REST_RANGE 1e-6
/// The debounce of the stick column every comparison uses [s].
#define PF_METRICS_MIN_PHASE 5e-3

/// max - min of column c over the finite values (-INFINITY: none).
double pf_metrics_range(const pfTrajectory *tr, int c);

/** RMS error of one coordinate: the run's column of the same name as ref's column ref_col is
 *  interpolated onto the reference's times (over the times both cover), rms_abs =
 *  sqrt(mean((q_run - q_ref)^2)); range = max q_ref - min q_ref. The relative error is
 *  rms_abs / range where range >= PF_METRICS_REST_RANGE. Returns the samples compared (0: the
 *  run lacks the column or the runs do not overlap; rms_abs is then NAN). */
long pf_metrics_rms(const pfTrajectory *run, const pfTrajectory *ref, int ref_col, double *rms_abs,
                    double *range);

/** Debounced stick/slip transitions of flag column c: a state counts once it lasts min_phase [s]
 *  (or to the end); the first such state is the initial one (a one-sample state at t = 0 is not
 *  a transition). Times in t, directions in dir (+1: slip -> stick), at most max; returns the
 *  count. */
int pf_metrics_transitions(const pfTrajectory *tr, int c, double min_phase, double *t, int *dir,
                           int max);

/** Worst stick/slip timing error of run against ref (their `stick` columns): each transition of
 *  either is matched with the nearest transition of the same direction in the other; the result
 *  is the largest distance [s], INFINITY when a kind of transition appears in one only, NAN when
 *  neither has a transition or a `stick` column. *trans and *trans_ref: the counts. */
double pf_metrics_stick_timing(const pfTrajectory *run, const pfTrajectory *ref, double min_phase,
                               int *trans, int *trans_ref);

/** Energy drift of run against ref (their `energy` columns), relative to the reference's energy
 *  range: *drift = RMS(E - E_ref) / range(E_ref) over the reference's times, *final = (E - E_ref)
 *  at the last common sample / range. Returns 0, or -1 (both NAN) without energy columns, overlap
 *  or range. */
int pf_metrics_energy(const pfTrajectory *run, const pfTrajectory *ref, double *drift,
                      double *final);

/// The three metrics of a run against its reference (pf-report's varying-load section).
typedef struct pfMetricsCompare {
    double rms;           ///< largest over the position coordinates of rms_abs / range
    int rms_col;          ///< reference column of that coordinate (-1: none)
    double timing;        ///< pf_metrics_stick_timing [s]
    int trans, trans_ref; ///< transitions counted in the run and in the reference
    double energy_drift;  ///< pf_metrics_energy
    double energy_final;
} pfMetricsCompare;

/** rms over the coordinates that are not at rest, stick/slip timing, energy drift. */
pfMetricsCompare pf_metrics_compare(const pfTrajectory *run, const pfTrajectory *ref,
                                    double min_phase);

#endif
