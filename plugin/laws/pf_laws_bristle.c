/* Sudden-release bristle row (physics.md P26-P28), exact and stateful.
 *
 * Bristles stand at k * Delta. An edge of the body pushes the upright bristles it moves onto
 * (P27: theta = atan((x_edge - x_b) / h)); a bristle snaps when theta reaches theta_max, i.e.
 * when the edge is d past its base, and its stored energy kappa theta_max^2 / 2 is lost
 * (P28 is the horizontal component of its spring force). When an edge moves back, its engaged
 * bristles unwind elastically, and snapped bristles the edge retreats past stand up again.
 *
 * For the right edge, bristle b has snapped iff the edge reached b + d since it last was left of
 * b. That condition is monotone in b, so the snapped set is {b <= right_release} and one number
 * per edge is the whole memory (mirror image for the left edge). A step of constant v is then:
 *   moving right: right_release = max(right_release, x_R1 - d), left_release = max(.., x_L1)
 *   moving left:  right_release = min(right_release, x_R1), left_release = min(.., x_L1 + d)
 * and the engaged bristles are the lattice points in (right_release, x_R] and
 * [x_L, left_release): at most d/Delta + 1 per edge are looked at. The steady unidirectional
 * motion of P27 is recovered exactly. */
#include "pf_laws_internal.h"

#include <math.h>

pfBristleDef pf_default_bristle_def(void)
{
    pfBristleDef d;
    d.length = 0.1;
    d.kappa = 0.1;
    d.normal_force = 9.81;
    d.width = 1.0;
    d.count = 101;
    return d;
}

pfBristleGeometry pf_bristle_geometry_fast(const pfBristleDef *def)
{
    pfBristleGeometry g;
    g.spacing = def->width / (double)(def->count - 1);
    g.theta_max = def->normal_force * def->length / ((double)def->count * def->kappa);
    g.h = def->length * cos(g.theta_max);
    g.d = def->length * sin(g.theta_max);
    return g;
}

int pf_bristle_def_validate(const pfBristleDef *def, pfError *err)
{
    int s;
    pf_error_clear(err);
    if (!def) return pf_error_set(err, PF_ERR_NULL, "def", "def is NULL");
    if ((s = pf_check_positive(err, "length", def->length)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "kappa", def->kappa)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "normal_force", def->normal_force)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "width", def->width)) != PF_OK) return s;
    if (def->count < 2)
        return pf_error_set(err, PF_ERR_RANGE, "count", "count = %d must be >= 2", def->count);
    pfBristleGeometry g = pf_bristle_geometry_fast(def);
    if (!(g.theta_max < 1.5))
        return pf_error_set(err, PF_ERR_RANGE, "normal_force",
                            "theta_max = m g l_S / (N_b kappa) = %g rad must be < 1.5 "
                            "(normal_force too large or kappa too small)",
                            g.theta_max);
    return PF_OK;
}

int pf_bristle_geometry(const pfBristleDef *def, pfBristleGeometry *out, pfError *err)
{
    int s = pf_bristle_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "out is NULL");
    *out = pf_bristle_geometry_fast(def);
    return PF_OK;
}

int pf_bristle_init(const pfBristleDef *def, double x0, pfBristleState *state, pfError *err)
{
    int s = pf_bristle_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!state) return pf_error_set(err, PF_ERR_NULL, "state", "state is NULL");
    if ((s = pf_check_finite(err, "x0", x0)) != PF_OK) return s;
    state->x = x0;
    state->right_release = x0 + 0.5 * def->width; /* nothing engaged: all "snapped" */
    state->left_release = x0 - 0.5 * def->width;
    state->released_energy = 0.0;
    state->released_count = 0;
    return PF_OK;
}

/* Horizontal force of the engaged bristles (P28) and their stored energy. */
static double bristle_force(const pfBristleDef *def, const pfBristleGeometry *g,
                            const pfBristleState *st, double *stored)
{
    double xr = st->x + 0.5 * def->width, xl = st->x - 0.5 * def->width;
    double f = 0.0, e = 0.0;
    /* right edge: bases k Delta in (right_release, x_R] */
    for (double k = floor(st->right_release / g->spacing) + 1.0; k * g->spacing <= xr; k += 1.0) {
        double th = atan((xr - k * g->spacing) / g->h);
        double c = cos(th);
        f += def->kappa * th * c * c / g->h;
        e += 0.5 * def->kappa * th * th;
    }
    /* left edge: bases k Delta in [x_L, left_release) */
    for (double k = ceil(xl / g->spacing); k * g->spacing < st->left_release; k += 1.0) {
        double th = atan((xl - k * g->spacing) / g->h);
        double c = cos(th);
        f += def->kappa * th * c * c / g->h;
        e += 0.5 * def->kappa * th * th;
    }
    if (stored) *stored = e;
    return f;
}

double pf_bristle_step_fast(const pfBristleDef *def, pfBristleState *state, double v, double dt)
{
    pfBristleGeometry g = pf_bristle_geometry_fast(def);
    double x1 = state->x + v * dt;
    double xr = x1 + 0.5 * def->width, xl = x1 - 0.5 * def->width;
    double e_rel = 0.5 * def->kappa * g.theta_max * g.theta_max;
    if (x1 > state->x) {
        double nr = fmax(state->right_release, xr - g.d);
        double n = floor(nr / g.spacing) - floor(state->right_release / g.spacing);
        state->released_count += (long)n;
        state->released_energy += n * e_rel;
        state->right_release = nr;
        state->left_release = fmax(state->left_release, xl);
    } else if (x1 < state->x) {
        double nl = fmin(state->left_release, xl + g.d);
        double n = ceil(state->left_release / g.spacing) - ceil(nl / g.spacing);
        state->released_count += (long)n;
        state->released_energy += n * e_rel;
        state->left_release = nl;
        state->right_release = fmin(state->right_release, xr);
    }
    state->x = x1;
    return bristle_force(def, &g, state, NULL);
}

int pf_bristle_step(const pfBristleDef *def, pfBristleState *state, double v, double dt,
                    double *force, pfError *err)
{
    int s = pf_bristle_def_validate(def, err);
    if (s != PF_OK) return s;
    if ((s = pf_laws_check_step_args(def, state, v, dt, force, err)) != PF_OK) return s;
    if ((s = pf_check_finite(err, "state.x", state->x)) != PF_OK) return s;
    pfBristleGeometry g = pf_bristle_geometry_fast(def);
    double xr = state->x + 0.5 * def->width, xl = state->x - 0.5 * def->width;
    if (!(state->right_release >= xr - g.d - 1e-12 * fabs(xr) &&
          state->right_release <= xr + 1e-12 * fabs(xr)))
        return pf_error_set(err, PF_ERR_STATE, "state.right_release",
                            "state.right_release = %g outside [x_R - d, x_R] = [%g, %g]",
                            state->right_release, xr - g.d, xr);
    if (!(state->left_release <= xl + g.d + 1e-12 * fabs(xl) &&
          state->left_release >= xl - 1e-12 * fabs(xl)))
        return pf_error_set(err, PF_ERR_STATE, "state.left_release",
                            "state.left_release = %g outside [x_L, x_L + d] = [%g, %g]",
                            state->left_release, xl, xl + g.d);
    if ((s = pf_check_finite(err, "v * dt", state->x + v * dt)) != PF_OK) return s;
    *force = pf_bristle_step_fast(def, state, v, dt);
    return PF_OK;
}

int pf_bristle_stored_energy(const pfBristleDef *def, const pfBristleState *state, double *out,
                             pfError *err)
{
    int s = pf_bristle_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!state || !out)
        return pf_error_set(err, PF_ERR_NULL, state ? "out" : "state", "NULL argument");
    pfBristleGeometry g = pf_bristle_geometry_fast(def);
    bristle_force(def, &g, state, out);
    return PF_OK;
}
