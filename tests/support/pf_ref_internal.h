/* Helpers the scene references share (pf_ref_scenes.c defines them). Not for tests. */
#ifndef PF_REF_INTERNAL_H
#define PF_REF_INTERNAL_H

#include "pf_ref_scenes.h"

/* Definitions shared with the sliding-blocks scene (scenes/pf_scene_sliding.c), restated. */
#define SL_V_REST 2e-4   /* [m/s] at rest: speed and spin x rho_g below this (the rest flag) */
#define SL_V_STOP 1e-3   /* [m/s] stopped, for the stop times */
#define SL_MIN_STOP 0.01 /* [s] a rest phase at least this long counts as a stop */

/** The sliding block's metrics, with the scene's definitions, from its trajectory (columns as
 *  the sliding-blocks scene: omega at 6, speed at 7, rest flag at 12; rho_g the patch's radius of
 *  gyration [m]): final_x, final_y, final_theta, max_displacement, max_speed, stick_time, stops
 *  (resting: the block is at rest at t = 0). The stop times of translation and rotation (speed,
 *  or spin x rho_g, below SL_V_STOP, interpolated; NAN if never), from samples after t_from, go
 *  to *stop_tr and *stop_rot for the caller to report. */
void pf_ref_sliding_metrics(pfRefResult *out, double out_dt, double rho_g, int resting,
                            double t_from, double *stop_tr, double *stop_rot);

/// Empty result with the given columns and room for t_end / out_dt + 2 rows; 0 or -1 (memory).
int pf_ref_res_init(pfRefResult *r, const char *const *cols, int ncol, double t_end, double out_dt);
/// The next row to fill (pf_ref_res_init sized the table).
double *pf_ref_res_row(pfRefResult *r);
/// Append a named metric (ignored beyond PF_REF_MAX_METRICS).
void pf_ref_res_metric(pfRefResult *r, const char *name, double v);
/// Parse a --set number within [lo, hi]; 0, or -1 with msg naming key and value.
int pf_ref_parse_num(const char *key, const char *value, double *out, double lo, double hi,
                     char *msg, int n);
/// A numeric --set key of a reference: where its value goes, and its range.
typedef struct pfRefKey {
    const char *key;
    double *dst, lo, hi;
} pfRefKey;
/** --set key=value through the table t of nt keys: 0, or -1 with msg naming a bad value or a key
 *  the table lacks ("unknown --set key 'k' for WHAT"). */
int pf_ref_set_key(const pfRefKey *t, int nt, const char *key, const char *value, const char *what,
                   char *msg, int n);
/// Last sample index: the scene takes ceil(t_end / dt) steps (pf_demo.c), so do we.
long pf_ref_n_samples(double t_end, double out_dt);

#endif
