/* Law-agnostic interface of the friction laws: dispatch, the implicit 1-D friction interface
 * (pf_law_solve_1d) and the tangent for solver rows (pf_law_linearize). */
#include "pf_laws_internal.h"

#include <math.h>
#include <string.h>

int pf_laws_check_step_args(const void *def, const void *state, double v, double dt,
                            const double *force, pfError *err)
{
    int s;
    if (!def) return pf_error_set(err, PF_ERR_NULL, "def", "def is NULL");
    if (!state) return pf_error_set(err, PF_ERR_NULL, "state", "state is NULL");
    if (!force) return pf_error_set(err, PF_ERR_NULL, "force", "force is NULL");
    if ((s = pf_check_finite(err, "v", v)) != PF_OK) return s;
    return pf_check_positive(err, "dt", dt);
}

pfLawDef pf_default_law_def(pfLawKind kind)
{
    pfLawDef d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.dahl = pf_default_dahl_def();
    d.lugre = pf_default_lugre_def();
    d.bristle = pf_default_bristle_def();
    d.sawtooth = pf_default_sawtooth_def();
    d.hybrid = pf_default_hybrid_def();
    return d;
}

static const char *const law_names[] = {"none", "dahl", "lugre", "bristle", "sawtooth", "hybrid"};

const char *pf_law_name(pfLawKind kind)
{
    if ((int)kind < 0 || (int)kind > (int)PF_LAW_HYBRID) return "none";
    return law_names[kind];
}

pfLawKind pf_law_from_name(const char *name)
{
    if (!name) return PF_LAW_NONE;
    for (int k = 1; k <= (int)PF_LAW_HYBRID; ++k)
        if (strcmp(name, law_names[k]) == 0) return (pfLawKind)k;
    return PF_LAW_NONE;
}

int pf_law_def_validate(const pfLawDef *def, pfError *err)
{
    pf_error_clear(err);
    if (!def) return pf_error_set(err, PF_ERR_NULL, "def", "def is NULL");
    switch (def->kind) {
    case PF_LAW_DAHL:
        return pf_dahl_def_validate(&def->dahl, err);
    case PF_LAW_LUGRE:
        return pf_lugre_def_validate(&def->lugre, err);
    case PF_LAW_BRISTLE:
        return pf_bristle_def_validate(&def->bristle, err);
    case PF_LAW_SAWTOOTH:
        return pf_sawtooth_def_validate(&def->sawtooth, err);
    case PF_LAW_HYBRID:
        return pf_hybrid_def_validate(&def->hybrid, err);
    default:
        return pf_error_set(err, PF_ERR_SHAPE, "kind", "kind = %d is not a law", (int)def->kind);
    }
}

int pf_law_init(const pfLawDef *def, double x0, pfLawState *state, pfError *err)
{
    int s = pf_law_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!state) return pf_error_set(err, PF_ERR_NULL, "state", "state is NULL");
    if ((s = pf_check_finite(err, "x0", x0)) != PF_OK) return s;
    memset(state, 0, sizeof *state);
    state->kind = def->kind;
    switch (def->kind) {
    case PF_LAW_DAHL:
        return pf_dahl_init(&def->dahl, &state->dahl, err);
    case PF_LAW_LUGRE:
        return pf_lugre_init(&def->lugre, &state->lugre, err);
    case PF_LAW_BRISTLE:
        return pf_bristle_init(&def->bristle, x0, &state->bristle, err);
    case PF_LAW_SAWTOOTH:
        return pf_sawtooth_init(&def->sawtooth, x0, &state->sawtooth, err);
    default:
        return pf_hybrid_init(&def->hybrid, &state->hybrid, err);
    }
}

static double law_step_fast(const pfLawDef *def, pfLawState *st, double v, double dt)
{
    switch (def->kind) {
    case PF_LAW_DAHL:
        return pf_dahl_step_fast(&def->dahl, &st->dahl, v, dt);
    case PF_LAW_LUGRE:
        return pf_lugre_step_fast(&def->lugre, &st->lugre, v, dt);
    case PF_LAW_BRISTLE:
        return pf_bristle_step_fast(&def->bristle, &st->bristle, v, dt);
    case PF_LAW_SAWTOOTH:
        return pf_sawtooth_step_fast(&def->sawtooth, &st->sawtooth, v, dt);
    default:
        return pf_hybrid_step_fast(&def->hybrid, &st->hybrid, v, dt);
    }
}

static int check_state(const pfLawDef *def, const pfLawState *state, pfError *err)
{
    if (!state) return pf_error_set(err, PF_ERR_NULL, "state", "state is NULL");
    if (state->kind != def->kind)
        return pf_error_set(err, PF_ERR_STATE, "state.kind",
                            "state.kind = %s does not match def.kind = %s (call pf_law_init)",
                            pf_law_name(state->kind), pf_law_name(def->kind));
    return PF_OK;
}

int pf_law_step(const pfLawDef *def, pfLawState *state, double v, double dt, double *force,
                pfError *err)
{
    int s = pf_law_def_validate(def, err);
    if (s != PF_OK) return s;
    if ((s = check_state(def, state, err)) != PF_OK) return s;
    switch (def->kind) {
    case PF_LAW_DAHL:
        return pf_dahl_step(&def->dahl, &state->dahl, v, dt, force, err);
    case PF_LAW_LUGRE:
        return pf_lugre_step(&def->lugre, &state->lugre, v, dt, force, err);
    case PF_LAW_BRISTLE:
        return pf_bristle_step(&def->bristle, &state->bristle, v, dt, force, err);
    case PF_LAW_SAWTOOTH:
        return pf_sawtooth_step(&def->sawtooth, &state->sawtooth, v, dt, force, err);
    default:
        return pf_hybrid_step(&def->hybrid, &state->hybrid, v, dt, force, err);
    }
}

/* Law force at end-of-step velocity v without committing the state. */
static double trial_force(const pfLawDef *def, const pfLawState *st, double v, double dt)
{
    pfLawState c = *st;
    return law_step_fast(def, &c, v, dt);
}

/* Residual of the implicit momentum balance, mass (v - v_free) + dt F(v). */
static double residual(const pfLawDef *def, const pfLawState *st, double mass, double vf, double dt,
                       double v)
{
    return mass * (v - vf) + dt * trial_force(def, st, v, dt);
}

/* The residual r(v) is continuous except at downward or upward jumps of F (sawtooth at v = 0, a
 * bristle snapping) and r -> +-inf as v -> +-inf for every law (F bounded or increasing), so a
 * sign change is bracketed by doubling from the explicit guess and then closed by the Illinois
 * variant of regula falsi, with a bisection every fourth iteration so that a jump (where the
 * secant makes little progress) is still closed geometrically. */
int pf_law_solve_1d(const pfLawDef *def, pfLawState *state, double mass, double v_free,
                    double v_prev, double dt, pfLawSolve1D *out, pfError *err)
{
    int s = pf_law_def_validate(def, err);
    if (s != PF_OK) return s;
    if ((s = check_state(def, state, err)) != PF_OK) return s;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "out is NULL");
    if ((s = pf_check_positive(err, "mass", mass)) != PF_OK) return s;
    if ((s = pf_check_finite(err, "v_free", v_free)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "dt", dt)) != PF_OK) return s;

    if ((s = pf_check_finite(err, "v_prev", v_prev)) != PF_OK) return s;
    double v0 = v_prev;
    double ra = residual(def, state, mass, v_free, dt, v0);
    if (!isfinite(ra))
        return pf_error_set(err, PF_ERR_NOT_FINITE, "state",
                            "law force at v_prev = %g is not finite (corrupt state?)", v0);
    double a = v0, b = v0, rb = ra, v = v0;
    int it = 0;
    if (ra != 0.0) {
        double dir = ra > 0.0 ? -1.0 : 1.0;
        /* first trial: the Newton step with dF/dv ignored (exact if F is constant) */
        double step = fabs(ra) / mass;
        if (!(step > 0.0)) step = 1e-300;
        double vscale = fabs(v_free) + fabs(v0) + step;
        for (;;) {
            b = v0 + dir * step;
            rb = residual(def, state, mass, v_free, dt, b);
            if ((rb > 0.0) != (ra > 0.0) || rb == 0.0) break;
            a = b;
            ra = rb;
            step *= 2.0;
            if (++it > 200 || !isfinite(rb))
                return pf_error_set(err, PF_ERR_SINGULAR, "v_free",
                                    "no solution bracketed for v_free = %g, mass = %g", v_free,
                                    mass);
        }
        double tol = 4e-16 * vscale + 1e-300;
        int side = 0;
        v = b;
        while (rb != 0.0 && fabs(b - a) > tol + 4e-16 * fmax(fabs(a), fabs(b)) && it < 400) {
            double c;
            if (it % 4 == 3)
                c = 0.5 * (a + b);
            else {
                c = (a * rb - b * ra) / (rb - ra);
                if (!(c > fmin(a, b) && c < fmax(a, b))) c = 0.5 * (a + b);
            }
            double rc = residual(def, state, mass, v_free, dt, c);
            ++it;
            if (rc == 0.0) {
                a = b = c;
                rb = 0.0;
                break;
            }
            if ((rc > 0.0) == (rb > 0.0)) {
                b = c;
                rb = rc;
                if (side == -1) ra *= 0.5;
                side = -1;
            } else {
                a = c;
                ra = rc;
                if (side == 1) rb *= 0.5;
                side = 1;
            }
        }
        if (rb == 0.0)
            v = b;
        else if ((a <= 0.0 && b >= 0.0) || (b <= 0.0 && a >= 0.0))
            v = 0.0; /* bracket closed on a jump at rest: stiction */
        else
            v = 0.5 * (a + b);
    }
    out->v = v;
    out->law_force = law_step_fast(def, state, v, dt);
    out->force = mass * (v_free - v) / dt;
    out->iterations = it;
    return PF_OK;
}

static double law_bound(const pfLawDef *def, const pfLawState *st)
{
    switch (def->kind) {
    case PF_LAW_DAHL:
        return fmax(def->dahl.fc, fabs(st->dahl.force));
    case PF_LAW_SAWTOOTH:
        return def->sawtooth.f_high;
    default:
        return HUGE_VAL;
    }
}

int pf_law_linearize(const pfLawDef *def, const pfLawState *state, double v_pred, double dt,
                     pfLawRow *out, pfError *err)
{
    int s = pf_law_def_validate(def, err);
    if (s != PF_OK) return s;
    if ((s = check_state(def, state, err)) != PF_OK) return s;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "out is NULL");
    if ((s = pf_check_finite(err, "v_pred", v_pred)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "dt", dt)) != PF_OK) return s;
    double f = trial_force(def, state, v_pred, dt);
    double h = 1e-6 * fabs(v_pred) + 1e-9;
    double k = (trial_force(def, state, v_pred + h, dt) - trial_force(def, state, v_pred - h, dt)) /
               (2.0 * h);
    if (!(k > 0.0) || !isfinite(k)) k = 0.0;
    out->k = k;
    out->f0 = f - k * v_pred;
    out->fmax = law_bound(def, state);
    if (!isfinite(out->f0))
        return pf_error_set(err, PF_ERR_NOT_FINITE, "state", "law force is not finite");
    return PF_OK;
}
