/* Helpers the scene references share (pf_ref_scenes.c defines them). Not for tests. */
#ifndef PF_REF_INTERNAL_H
#define PF_REF_INTERNAL_H

#include "pf_ref_scenes.h"

/// Empty result with the given columns and room for t_end / out_dt + 2 rows; 0 or -1 (memory).
int pf_ref_res_init(pfRefResult *r, const char *const *cols, int ncol, double t_end, double out_dt);
/// The next row to fill (pf_ref_res_init sized the table).
double *pf_ref_res_row(pfRefResult *r);
/// Append a named metric (ignored beyond PF_REF_MAX_METRICS).
void pf_ref_res_metric(pfRefResult *r, const char *name, double v);
/// Parse a --set number within [lo, hi]; 0, or -1 with msg naming key and value.
int pf_ref_parse_num(const char *key, const char *value, double *out, double lo, double hi,
                     char *msg, int n);
/// Last sample index: the scene takes ceil(t_end / dt) steps (pf_demo.c), so do we.
long pf_ref_n_samples(double t_end, double out_dt);

#endif
