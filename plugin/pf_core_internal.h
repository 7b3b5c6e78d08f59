/* Private helpers shared by the core's translation units. Not installed. */
#ifndef PATCHFRICTION_PF_CORE_INTERNAL_H
#define PATCHFRICTION_PF_CORE_INTERNAL_H

#include <patchfriction/pf_core.h>

#ifndef PF_PI
#define PF_PI 3.14159265358979323846
#endif

/* Fill err (if non-NULL) with status, field name and a printf-style message; returns status.
 * Formatting uses snprintf into the caller's buffer: no allocation, no I/O. */
int pf_error_set(pfError *err, int status, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Clear err to PF_OK. */
void pf_error_clear(pfError *err);

/* Checks used by every validating function: finite, > 0, >= 0, in [lo, hi]. Return PF_OK or the
 * error (already written into err) naming field and value. */
int pf_check_finite(pfError *err, const char *field, double v);
int pf_check_positive(pfError *err, const char *field, double v);
int pf_check_nonnegative(pfError *err, const char *field, double v);
int pf_check_range(pfError *err, const char *field, double v, double lo, double hi);

#endif
