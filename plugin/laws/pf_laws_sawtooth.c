/* Sawtooth approximation of the bristle row (physics.md P29). Memoryless in position and
 * direction, so the update is exact for any dt: x1 = x0 + v dt, F = P29(x1, sgn v). */
#include "pf_laws_internal.h"

#include <math.h>

pfSawtoothDef pf_default_sawtooth_def(void)
{
    pfSawtoothDef d;
    d.f_high = 0.14;
    d.f_low = 0.05;
    d.spacing = 0.005;
    return d;
}

int pf_sawtooth_def_validate(const pfSawtoothDef *def, pfError *err)
{
    int s;
    pf_error_clear(err);
    if (!def) return pf_error_set(err, PF_ERR_NULL, "def", "def is NULL");
    if ((s = pf_check_nonnegative(err, "f_low", def->f_low)) != PF_OK) return s;
    if ((s = pf_check_finite(err, "f_high", def->f_high)) != PF_OK) return s;
    if (!(def->f_high >= def->f_low))
        return pf_error_set(err, PF_ERR_RANGE, "f_high", "f_high = %g must be >= f_low = %g",
                            def->f_high, def->f_low);
    return pf_check_positive(err, "spacing", def->spacing);
}

int pf_sawtooth_init(const pfSawtoothDef *def, double x0, pfSawtoothState *state, pfError *err)
{
    int s = pf_sawtooth_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!state) return pf_error_set(err, PF_ERR_NULL, "state", "state is NULL");
    if ((s = pf_check_finite(err, "x0", x0)) != PF_OK) return s;
    state->x = x0;
    return PF_OK;
}

double pf_sawtooth_step_fast(const pfSawtoothDef *def, pfSawtoothState *state, double v, double dt)
{
    state->x += v * dt;
    if (v == 0.0) return 0.0;
    double sg = v > 0.0 ? 1.0 : -1.0;
    double m = fmod(sg * state->x, def->spacing);
    if (m < 0.0) m += def->spacing;
    return sg * (def->f_low + (def->f_high - def->f_low) / def->spacing * m);
}

int pf_sawtooth_step(const pfSawtoothDef *def, pfSawtoothState *state, double v, double dt,
                     double *force, pfError *err)
{
    int s = pf_sawtooth_def_validate(def, err);
    if (s != PF_OK) return s;
    if ((s = pf_laws_check_step_args(def, state, v, dt, force, err)) != PF_OK) return s;
    if ((s = pf_check_finite(err, "state.x", state->x)) != PF_OK) return s;
    *force = pf_sawtooth_step_fast(def, state, v, dt);
    return PF_OK;
}
