/* friction-rig: the test rigs of physics.md §5 with any dynamic friction law.
 *
 * What you should see:
 *  - case wall (rig a): a mass on a spring to a wall, driven by u = U sin(omega t). The
 *    input-output map (u, x) is a hysteresis loop whose area is the energy lost per cycle. With
 *    the bristle law the loop is made of small saw teeth (one per snapped bristle) and its area
 *    equals the energy released by the bristles over the cycle.
 *  - case pull (rig b): a mass pulled through a spring whose far end moves at v_p. After a
 *    transient the spring length and velocity settle on a stick-slip limit cycle: long sticks
 *    while the spring loads, short slips when it lets go. Dahl's law has no static/kinetic
 *    difference and gives steady sliding with an undamped oscillation about it instead.
 *
 * Defaults (physics.md §5 where published; the project's choice otherwise, marked *):
 *   all:      m = 1 kg, K = 1 N/m, g = 9.81
 *   bristle:  l_S = 0.1, kappa = 0.1, N_b = 101, w = 1, U = 1 N, omega = 0.05; for (b)
 *             v_p = 0.001 * and c = 0.1 N s/m * (see below)
 *   lugre:    sigma0 = 1e5, sigma1 = sqrt(1e5), sigma2 = 0.2, Fc = 1, Fs = 1.5, vs = 1e-3,
 *             v_p = 0.001; U = 2 N *, omega = 0.1 *
 *   sawtooth: F_h = 0.14, F_l = 0.05, Delta = 0.005, v_p = 0.001; U = 1 N *, omega = 0.05 *
 *   hybrid:   kappa = 10, h = 0.1, sigma = 1e3, theta1 = 0.3, theta2 = 0.7, eps = 0.01,
 *             U = 2 N, omega = 0.1; for (b) K = 100 N/m *, v_p = 0.1 * (steady forces are
 *             30..100 N, a 1 N/m spring would take 100 m of stretch per cycle)
 *   dahl:     sigma = 0.25, Fc = 0.1, i = 1 (k_n / sigma = 4 as in Dahl's case) *, U = 1 N *,
 *             omega = 0.05 *, v_p = 0.01 *
 *
 * Why the bristle rig (b) has a damper (c = 0.1 N s/m in parallel with the pulling spring).
 * Between releases P26-P28 is a conservative force of x alone, and at a release x and x' are
 * continuous (only the force jumps, at a fixed position). The flow of (x, x') is then
 * divergence-free and the saltation matrix at each release has determinant x'/x' = 1, so the
 * map of the rig over any time is area-preserving (tests/unit/test_scene_rig.c checks this on
 * the GSL reference through the releases). An area-preserving map has no attracting periodic
 * orbit: the undamped rig (b) has NO stick-slip limit cycle for any parameter set. The energy
 * lost at releases does not damp the ringing of the mass on the engaged bristles
 * (sqrt((K + kappa/h^2)/m) ~ 3.3 rad/s here), so the next release comes at a phase-dependent
 * time and the mass hops irregularly; a plain integration shows whatever damping the
 * integrator adds (the implicit law coupling damps at a rate ~ (kappa/h^2) dt / 2 m, which is
 * why the undamped rig's "period" moves from 16 s to 110 s between dt = 1e-4 and 1e-2).
 * A real pulling spring (load cell, flexure) has internal damping, and a small amount is all it
 * takes: with c = 0.1 (damping ratio c / (2 sqrt(m (K + kappa/h^2))) = 0.015 on the ringing,
 * which dies in 2m/c = 20 s, a fifth of the stick phase; during the slip c (v - v_p) ~ 5e-3 N
 * against the row's mean force E_release / Delta = 0.047 N) the cycle is regular: stick
 * while the spring loads to the holding force kappa theta_max cos^2 / h ~ 0.098 N, slip over
 * ten bristles, period 10 Delta / v_p = 100 s. pfRigParams.c = 0 gives the undamped model.
 */
#include "pf_scenes.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scenes use only the public API; these mirror the core's private helpers. */
static int pf_error_set(pfError *err, int status, const char *field, const char *fmt, ...)
{
    if (err) {
        err->status = status;
        snprintf(err->field, sizeof err->field, "%s", field);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}
static int pf_check_finite(pfError *err, const char *field, double v)
{
    return isfinite(v)
               ? PF_OK
               : pf_error_set(err, PF_ERR_NOT_FINITE, field, "%s = %g is not finite", field, v);
}
static int pf_check_positive(pfError *err, const char *field, double v)
{
    int s = pf_check_finite(err, field, v);
    if (s == PF_OK && !(v > 0.0))
        s = pf_error_set(err, PF_ERR_RANGE, field, "%s = %g must be > 0", field, v);
    return s;
}

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

pfRigParams pf_rig_default_params(pfLawKind law, pfRigCase rig)
{
    pfRigParams p;
    memset(&p, 0, sizeof p);
    p.rig = rig;
    p.law = pf_default_law_def(law);
    p.m = 1.0;
    p.K = 1.0;
    p.g = 9.81;
    p.U = 1.0;
    p.omega = 0.05;
    p.v_p = 0.001;
    switch (law) {
    case PF_LAW_LUGRE:
        p.U = 2.0;
        p.omega = 0.1;
        break;
    case PF_LAW_HYBRID:
        p.U = 2.0;
        p.omega = 0.1;
        if (rig == PF_RIG_PULL) {
            p.K = 100.0;
            p.v_p = 0.1;
        }
        break;
    case PF_LAW_DAHL:
        p.v_p = 0.01;
        break;
    case PF_LAW_BRISTLE:
        if (rig == PF_RIG_PULL) p.c = 0.1; /* see the header comment */
        break;
    default:
        break;
    }
    pf_rig_sync_params(&p);
    return p;
}

void pf_rig_sync_params(pfRigParams *p)
{
    p->law.bristle.normal_force = p->m * p->g;
}

double pf_rig_default_duration(const pfRigParams *p)
{
    if (p->rig == PF_RIG_WALL) return 3.0 * 2.0 * M_PI / p->omega;
    switch (p->law.kind) {
    case PF_LAW_LUGRE:
        return p->v_p < 0.01 ? 8000.0 : 200.0; /* period ~ (Fs - Fc) 2 / (K v_p) */
    case PF_LAW_HYBRID:
        return 100.0;
    case PF_LAW_DAHL:
        return 200.0;
    case PF_LAW_SAWTOOTH:
        return 1000.0; /* period ~ (Delta + (F_h - F_l) / K) / v_p ~ 95 s */
    case PF_LAW_BRISTLE:
        return 1000.0; /* period 10 Delta / v_p = 100 s with the damper c */
    default:
        return 400.0;
    }
}

int pf_rig_params_validate(const pfRigParams *p, pfError *err)
{
    int s;
    if (!p) return pf_error_set(err, PF_ERR_NULL, "params", "params is NULL");
    if (p->rig != PF_RIG_WALL && p->rig != PF_RIG_PULL)
        return pf_error_set(err, PF_ERR_SHAPE, "case", "rig case %d is not wall or pull",
                            (int)p->rig);
    if ((s = pf_check_positive(err, "m", p->m)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "K", p->K)) != PF_OK) return s;
    if ((s = pf_check_finite(err, "c", p->c)) != PF_OK) return s;
    if (p->c < 0.0) return pf_error_set(err, PF_ERR_RANGE, "c", "c = %g must be >= 0", p->c);
    if ((s = pf_check_finite(err, "U", p->U)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "omega", p->omega)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "v_p", p->v_p)) != PF_OK) return s;
    if ((s = pf_check_positive(err, "g", p->g)) != PF_OK) return s;
    return pf_law_def_validate(&p->law, err);
}

int pf_rig_init(pfRig *rig, const pfRigParams *p, pfError *err)
{
    int s = pf_rig_params_validate(p, err);
    if (s != PF_OK) return s;
    memset(rig, 0, sizeof *rig);
    rig->p = *p;
    rig->last_cycle_energy = NAN;
    rig->last_cycle_released = NAN;
    rig->v_prev_rel = -p->v_p;
    return pf_law_init(&rig->p.law, 0.0, &rig->law, err);
}

void pf_rig_free(pfRig *rig)
{
    free(rig->ext_t);
    free(rig->ext_s);
    free(rig->ext_max);
    rig->ext_t = rig->ext_s = NULL;
    rig->ext_max = NULL;
    rig->n_ext = rig->cap_ext = 0;
}

static int push_extremum(pfRig *rig, double t, double s, int is_max, pfError *err)
{
    if (rig->n_ext == rig->cap_ext) {
        long cap = rig->cap_ext ? 2 * rig->cap_ext : 256;
        double *nt = realloc(rig->ext_t, (size_t)cap * sizeof *nt);
        if (nt) rig->ext_t = nt;
        double *ns = realloc(rig->ext_s, (size_t)cap * sizeof *ns);
        if (ns) rig->ext_s = ns;
        int *nm = realloc(rig->ext_max, (size_t)cap * sizeof *nm);
        if (nm) rig->ext_max = nm;
        if (!nt || !ns || !nm)
            return pf_error_set(err, PF_ERR_NO_MEMORY, "extrema", "out of memory");
        rig->cap_ext = cap;
    }
    rig->ext_t[rig->n_ext] = t;
    rig->ext_s[rig->n_ext] = s;
    rig->ext_max[rig->n_ext] = is_max;
    rig->n_ext++;
    return PF_OK;
}

static double released_energy(const pfRig *rig)
{
    return rig->p.law.kind == PF_LAW_BRISTLE ? rig->law.bristle.released_energy : 0.0;
}

int pf_rig_step(pfRig *rig, double dt, pfError *err)
{
    int s = pf_check_positive(err, "dt", dt);
    if (s != PF_OK) return s;
    const pfRigParams *p = &rig->p;
    double t1 = rig->t + dt;
    double drive; /* u(t1) or the spring's far end position at t1 */
    double mass = p->m, f_ext;
    int implicit_spring = p->K * dt * dt > p->m;
    if (p->rig == PF_RIG_WALL) {
        drive = p->U * sin(p->omega * t1);
        f_ext = drive - p->K * rig->x;
    } else {
        drive = p->v_p * t1;
        f_ext = p->K * (drive - rig->x) + p->c * p->v_p;
    }
    if (implicit_spring) /* backward Euler: K x1 = K x0 + K dt v1 moves to the mass side */
        mass += p->K * dt * dt;
    mass += p->c * dt; /* the damper's -c v1 is implicit (stable for any c dt) */
    double v_free = (p->m * rig->v + dt * f_ext) / mass;
    pfLawSolve1D sol;
    if ((s = pf_law_solve_1d(&p->law, &rig->law, mass, v_free, rig->v, dt, &sol, err)) != PF_OK)
        return s;
    double x0 = rig->x;
    rig->v = sol.v;
    rig->x += dt * sol.v;
    rig->t = t1;
    rig->friction = sol.force;
    rig->steps++;
    if (p->rig == PF_RIG_WALL) {
        rig->input = drive;
        long c = (long)floor(p->omega * t1 / (2.0 * M_PI));
        if (c != rig->cycle) {
            rig->last_cycle_energy = rig->cycle_work;
            rig->last_cycle_released = released_energy(rig) - rig->cycle_released0;
            rig->complete_cycles++;
            rig->cycle = c;
            rig->cycle_work = 0.0;
            rig->cycle_released0 = released_energy(rig);
        }
        rig->cycle_work += drive * (rig->x - x0);
    } else {
        rig->input = p->K * (drive - rig->x);
        double rel = rig->v - p->v_p; /* ds/dt = v_p - v: s has a maximum where rel goes + */
        if ((rel > 0.0) != (rig->v_prev_rel > 0.0)) {
            s = push_extremum(rig, t1, drive - rig->x, rel > 0.0, err);
            if (s != PF_OK) return s;
        }
        rig->v_prev_rel = rel;
    }
    if (!isfinite(rig->x) || !isfinite(rig->v))
        return pf_error_set(err, PF_ERR_NOT_FINITE, "state", "rig state not finite at t = %g", t1);
    return PF_OK;
}

pfRigCycle pf_rig_pull_cycle(const pfRig *rig, double t_from)
{
    pfRigCycle c;
    memset(&c, 0, sizeof c);
    double smin = HUGE_VAL, smax = -HUGE_VAL;
    for (long i = 0; i < rig->n_ext; ++i)
        if (rig->ext_t[i] >= t_from) {
            smin = fmin(smin, rig->ext_s[i]);
            smax = fmax(smax, rig->ext_s[i]);
        }
    if (!(smax > smin)) return c;
    double hi = smin + 0.75 * (smax - smin), lo = smin + 0.25 * (smax - smin);
    /* A cycle starts at each maximum above hi that follows a minimum below lo. */
    int armed = 0;
    double first = NAN, last = NAN, sum_max = 0.0, sum_min = 0.0, cur_min = HUGE_VAL;
    int n_max = 0, n_min = 0, n_start = 0;
    for (long i = 0; i < rig->n_ext; ++i) {
        if (rig->ext_t[i] < t_from) continue;
        double si = rig->ext_s[i];
        if (!rig->ext_max[i] && si < lo) {
            armed = 1;
            cur_min = fmin(cur_min, si);
        }
        if (rig->ext_max[i] && si > hi && armed) {
            armed = 0;
            if (n_start == 0) first = rig->ext_t[i];
            last = rig->ext_t[i];
            n_start++;
            sum_max += si;
            n_max++;
            if (n_start > 1) {
                sum_min += cur_min;
                n_min++;
            }
            cur_min = HUGE_VAL;
        }
    }
    if (n_start < 2) return c;
    c.cycles = n_start - 1;
    c.period = (last - first) / (double)c.cycles;
    c.s_max = sum_max / n_max;
    c.s_min = sum_min / n_min;
    c.amplitude = 0.5 * (c.s_max - c.s_min);
    return c;
}
