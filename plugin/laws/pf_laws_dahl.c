/* Dahl solid friction (physics.md P22-P24), integrated exactly over each step.
 *
 * With v constant over the step, P22 depends on time only through the displacement, and with
 * s = 1 - (F/Fc) sgn(v) and u = |x| / x_c (x_c = Fc / sigma) it reads ds/du = -|s|^i sgn(s):
 * |s| decays and never changes sign. Its exact solution over du = |v| dt sigma / Fc is
 *   i = 1:  |s1| = |s0| exp(-du)
 *   i != 1: |s1|^(1-i) = |s0|^(1-i) - (1 - i) du   (clamped at 0 for i < 1: saturation)
 * which is P23 written as a semigroup. Being exact, the update is stable for every dt and the
 * force never crosses +-Fc from inside. */
#include "pf_laws_internal.h"

#include <math.h>

pfDahlDef pf_default_dahl_def(void)
{
    pfDahlDef d;
    d.sigma = 0.25;
    d.fc = 0.1;
    d.exponent = 1.0;
    return d;
}

int pf_dahl_def_validate(const pfDahlDef *def, pfError *err)
{
    int s;
    pf_error_clear(err);
    if (!def) return pf_error_set(err, PF_ERR_NULL, "def", "def is NULL");
    if ((s = pf_check_positive(err, "sigma", def->sigma)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "fc", def->fc)) != PF_OK) return s;
    return pf_check_range(err, "exponent", def->exponent, 0.0, 100.0);
}

int pf_dahl_init(const pfDahlDef *def, pfDahlState *state, pfError *err)
{
    int s = pf_dahl_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!state) return pf_error_set(err, PF_ERR_NULL, "state", "state is NULL");
    state->force = 0.0;
    return PF_OK;
}

/* |s| after a displacement du (in units of x_c) along the direction of motion. */
static double dahl_decay(double s, double du, double i)
{
    double a = fabs(s);
    if (a == 0.0 || !(du > 0.0)) return s;
    double an;
    if (i == 1.0) {
        an = a * exp(-du);
    } else if (i < 1.0) {
        double p = pow(a, 1.0 - i) - (1.0 - i) * du;
        an = p <= 0.0 ? 0.0 : pow(p, 1.0 / (1.0 - i));
    } else {
        an = pow(pow(a, 1.0 - i) + (i - 1.0) * du, 1.0 / (1.0 - i));
    }
    return copysign(an, s);
}

double pf_dahl_step_fast(const pfDahlDef *def, pfDahlState *state, double v, double dt)
{
    if (v == 0.0) return state->force;
    double sg = v > 0.0 ? 1.0 : -1.0;
    double s0 = 1.0 - sg * state->force / def->fc;
    double du = fabs(v) * dt * def->sigma / def->fc;
    double s1 = dahl_decay(s0, du, def->exponent);
    state->force = sg * def->fc * (1.0 - s1);
    return state->force;
}

int pf_dahl_step(const pfDahlDef *def, pfDahlState *state, double v, double dt, double *force,
                 pfError *err)
{
    int s = pf_dahl_def_validate(def, err);
    if (s != PF_OK) return s;
    if ((s = pf_laws_check_step_args(def, state, v, dt, force, err)) != PF_OK) return s;
    if ((s = pf_check_finite(err, "state.force", state->force)) != PF_OK) return s;
    *force = pf_dahl_step_fast(def, state, v, dt);
    return PF_OK;
}
