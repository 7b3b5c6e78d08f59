/* Status codes and error reports of the checked API (style.md habit 6). */
#include "pf_core_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *pf_strerror(int status)
{
    switch (status) {
    case PF_OK:
        return "ok";
    case PF_ERR_NULL:
        return "null pointer argument";
    case PF_ERR_NOT_FINITE:
        return "value is NaN or infinite";
    case PF_ERR_RANGE:
        return "value out of range";
    case PF_ERR_SHAPE:
        return "unknown or unset patch shape or model";
    case PF_ERR_DEGENERATE:
        return "degenerate geometry";
    case PF_ERR_SINGULAR:
        return "matrix is singular or not positive definite";
    case PF_ERR_NO_MEMORY:
        return "out of memory";
    case PF_ERR_STATE:
        return "invalid call in the current state";
    default:
        return "unknown status";
    }
}

void pf_error_clear(pfError *err)
{
    if (err) {
        err->status = PF_OK;
        err->field[0] = '\0';
        err->message[0] = '\0';
    }
}

int pf_error_set(pfError *err, int status, const char *field, const char *fmt, ...)
{
    if (err) {
        err->status = status;
        snprintf(err->field, sizeof err->field, "%s", field ? field : "");
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

int pf_check_finite(pfError *err, const char *field, double v)
{
    if (!isfinite(v))
        return pf_error_set(err, PF_ERR_NOT_FINITE, field, "%s = %g is not finite", field, v);
    return PF_OK;
}

int pf_check_positive(pfError *err, const char *field, double v)
{
    int s = pf_check_finite(err, field, v);
    if (s != PF_OK) return s;
    if (!(v > 0.0)) return pf_error_set(err, PF_ERR_RANGE, field, "%s = %g must be > 0", field, v);
    return PF_OK;
}

int pf_check_nonnegative(pfError *err, const char *field, double v)
{
    int s = pf_check_finite(err, field, v);
    if (s != PF_OK) return s;
    if (!(v >= 0.0))
        return pf_error_set(err, PF_ERR_RANGE, field, "%s = %g must be >= 0", field, v);
    return PF_OK;
}

int pf_check_range(pfError *err, const char *field, double v, double lo, double hi)
{
    int s = pf_check_finite(err, field, v);
    if (s != PF_OK) return s;
    if (!(v >= lo && v <= hi))
        return pf_error_set(err, PF_ERR_RANGE, field, "%s = %g must be in [%g, %g]", field, v, lo,
                            hi);
    return PF_OK;
}
