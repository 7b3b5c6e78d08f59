/* LuGre (physics.md P25) with an exact exponential update over each step.
 *
 * For the step's velocity v, dz/dt = v - a z with a = sigma0 |v| / g(v) is linear with constant
 * coefficients, so z1 = z_ss + (z0 - z_ss) exp(-a dt) with z_ss = v / a = sgn(v) g(v) / sigma0
 * is exact. It cannot overshoot z_ss whatever a dt is (sigma0 = 1e5 makes a dt ~ 1e4 at
 * dt = 1e-2 in sliding), which an explicit update would. The damping term uses the end-of-step
 * rate dz/dt = v - a z1, so in steady sliding F = g(v) + sigma2 v holds exactly. */
#include "pf_laws_internal.h"

#include <math.h>

pfLugreDef pf_default_lugre_def(void)
{
    pfLugreDef d;
    d.sigma0 = 1e5;
    d.sigma1 = sqrt(1e5);
    d.sigma2 = 0.2;
    d.fc = 1.0;
    d.fs = 1.5;
    d.vs = 1e-3;
    return d;
}

int pf_lugre_def_validate(const pfLugreDef *def, pfError *err)
{
    int s;
    pf_error_clear(err);
    if (!def) return pf_error_set(err, PF_ERR_NULL, "def", "def is NULL");
    if ((s = pf_check_positive(err, "sigma0", def->sigma0)) != PF_OK) return s;
    if ((s = pf_check_nonnegative(err, "sigma1", def->sigma1)) != PF_OK) return s;
    if ((s = pf_check_nonnegative(err, "sigma2", def->sigma2)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "fc", def->fc)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "fs", def->fs)) != PF_OK) return s;
    return pf_check_positive(err, "vs", def->vs);
}

int pf_lugre_init(const pfLugreDef *def, pfLugreState *state, pfError *err)
{
    int s = pf_lugre_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!state) return pf_error_set(err, PF_ERR_NULL, "state", "state is NULL");
    state->z = 0.0;
    state->zdot = 0.0;
    return PF_OK;
}

double pf_lugre_g(const pfLugreDef *def, double v)
{
    double q = v / def->vs;
    return def->fc + (def->fs - def->fc) * exp(-q * q);
}

double pf_lugre_step_fast(const pfLugreDef *def, pfLugreState *state, double v, double dt)
{
    double z0 = state->z, z1 = z0, zdot = 0.0;
    if (v != 0.0) {
        double g = pf_lugre_g(def, v);
        double a = def->sigma0 * fabs(v) / g;
        double zss = copysign(g / def->sigma0, v);
        z1 = z0 - (zss - z0) * expm1(-a * dt); /* z0 + (zss - z0)(1 - exp(-a dt)) */
        zdot = v - a * z1;
    }
    state->z = z1;
    state->zdot = zdot;
    return def->sigma0 * z1 + def->sigma1 * zdot + def->sigma2 * v;
}

int pf_lugre_step(const pfLugreDef *def, pfLugreState *state, double v, double dt, double *force,
                  pfError *err)
{
    int s = pf_lugre_def_validate(def, err);
    if (s != PF_OK) return s;
    if ((s = pf_laws_check_step_args(def, state, v, dt, force, err)) != PF_OK) return s;
    if ((s = pf_check_finite(err, "state.z", state->z)) != PF_OK) return s;
    *force = pf_lugre_step_fast(def, state, v, dt);
    return PF_OK;
}
