/* coupled-masses: the friction-coupled inertial pair of Ruderman, Zagvozdkin & Rachinskii
 * (docs/physics.md §4, P21). Body 1 (m1) is tied to the ground by a spring a2 and a damper a1; body
 * 2 (m2) rides on it, coupled only by friction of magnitude b = mu m2 g.
 *
 * Interface (default): the ODE patch contact - a box riding on a box, body 1 on a frictionless
 * slider joint along x, the spring and damper applied as forces, mu = b / (m2 g) - with the
 * patch friction (--friction exact|pade) or ODE's own (--friction stock). With --set law=NAME
 * (coulomb, dahl, lugre) the interface is instead a one-dimensional law through pf_law_solve_1d
 * (no ODE world: the viewer has nothing to draw); coulomb is the sawtooth law with F_h = F_l = b,
 * dahl and lugre get Fc = b (LuGre also Fs = b) and their default stiffnesses.
 *
 * Cases (the published case study m1 = m2 = 1, a1 = 0, a2 = 200, u = 0):
 *   stick: b = 0.5, x1(0) = 0.006 - a short slip, then the pair locks and oscillates together
 *          (|m2 x1''| = 100 |x1| stays below b once |x1| < 5 mm).
 *   slip:  b = 0.05, v1(0) = 0.15 - a long slip phase until the relative velocity dies out,
 *          then long stick phases interrupted by short slips.
 *   vertical: the stick case on a rig that vibrates vertically, base height
 *          z(t) = A_z sin(omega_z t) (A_z = 1.635 mm, omega_z = 60 rad/s: A_z omega_z^2 = 0.6 g,
 *          so body 2 never lifts off). The normal force between the masses is m2 (g + z''), so the
 *          friction bound b(t) = mu m2 (g + z''(t)) swings between 0.4 and 1.6 times its static
 *          value b = 0.5 N six times per pair oscillation: the pair sticks and slips alternately
 *          while |x1| is a few mm. Body 1 rides on a frictionless slider whose other side is a
 *          kinematic base body moving with z(t) (velocity set at the middle of each step).
 * What you should see: body 2 lags body 1, then rides with it; the energy
 * E = a2 x1^2/2 + m1 v1^2/2 + m2 v2^2/2 never increases (max_energy_increase ~ 0). */
#include "pf_scene_impl.h"

#include <patchfriction/pf_laws.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cases[] = {"stick", "slip", "vertical", NULL};
static const char *const keys[] = {"b",  "m1",  "m2",  "a1",      "a2",       "x1",
                                   "v1", "law", "A_z", "omega_z", "coupling", NULL};
enum { C_STICK, C_SLIP, C_VERTICAL };

#define G 9.81
/// Stuck: |z_dot| below this [m/s] (the adapter's default stick velocity tolerance).
#define Z_TOL 1e-4
/// first_stick_time: start of the first stuck run lasting at least this long [s].
#define MIN_STICK 0.02

typedef struct Coupled {
    double m1, m2, a1, a2, b, x10, v10;
    double az, wz; ///< vertical case: base z(t) = az sin(wz t) [m, rad/s]
    dBodyID base;  ///< vertical case: kinematic base carrying the slider
    int use_law;
    pfLawDef law;
    pfLawState ls;
    /* ODE */
    dBodyID b1, b2;
    dGeomID g1, g2;
    dJointID slider;
    double z0[2]; /* initial world x of the bodies */
    /* state */
    double x1, v1, x2, v2, friction;
    /* metrics */
    double first_stick, run_start, emin, rise, stick_time;
} Coupled;

static double energy(const Coupled *c)
{
    return 0.5 * c->a2 * c->x1 * c->x1 + 0.5 * c->m1 * c->v1 * c->v1 + 0.5 * c->m2 * c->v2 * c->v2;
}

static int cp_build(pfScene *s, pfError *err)
{
    Coupled *c = calloc(1, sizeof *c);
    if (!c) return pfs_fail(err, PF_ERR_NO_MEMORY, "coupled-masses: out of memory");
    s->impl = c;
    const char *nm = "coupled-masses";
    c->m1 = c->m2 = 1.0;
    c->a2 = 200.0;
    if (s->case_index == C_STICK || s->case_index == C_VERTICAL) {
        c->b = 0.5;
        c->x10 = 0.006;
        if (s->case_index == C_VERTICAL) {
            c->wz = 60.0;
            c->az = 0.6 * G / (c->wz * c->wz);
        }
    } else {
        c->b = 0.05;
        c->v10 = 0.15;
    }
    const double inf = HUGE_VAL;
    int rc;
    PD("b", &c->b, 0.0, 1, inf, 0);
    PD("m1", &c->m1, 0.0, 1, inf, 0);
    PD("m2", &c->m2, 0.0, 1, inf, 0);
    PD("a1", &c->a1, 0.0, 0, inf, 0);
    PD("a2", &c->a2, 0.0, 0, inf, 0);
    PD("x1", &c->x10, -1.0, 0, 1.0, 0);
    PD("v1", &c->v10, -100.0, 0, 100.0, 0);
    if (s->case_index == C_VERTICAL) {
        PD("A_z", &c->az, 0.0, 0, 1.0, 0);
        PD("omega_z", &c->wz, 0.0, 0, 1e5, 0);
        if (c->az * c->wz * c->wz >= G)
            return pfs_fail(err, PF_ERR_RANGE,
                            "%s: A_z omega_z^2 = %g m/s^2 >= g: body 2 would lift off (expected "
                            "below %g)",
                            nm, c->az * c->wz * c->wz, G);
    }
    const char *law = pfs_param_string(s, "law");
    if (law && s->case_index == C_VERTICAL)
        return pfs_fail(err, PF_ERR_RANGE,
                        "%s: --set law=%s: the vertical case needs the ODE contact (the normal "
                        "force varies)",
                        nm, law);
    if (law) {
        c->use_law = 1;
        if (!strcmp(law, "coulomb")) {
            c->law = pf_default_law_def(PF_LAW_SAWTOOTH);
            c->law.sawtooth.f_high = c->law.sawtooth.f_low = c->b;
        } else if (!strcmp(law, "dahl")) {
            c->law = pf_default_law_def(PF_LAW_DAHL);
            c->law.dahl.fc = c->b;
        } else if (!strcmp(law, "lugre")) {
            c->law = pf_default_law_def(PF_LAW_LUGRE);
            c->law.lugre.fc = c->law.lugre.fs = c->b;
        } else {
            return pfs_fail(err, PF_ERR_RANGE, "%s: --set law=%s: expected coulomb, dahl or lugre",
                            nm, law);
        }
        if ((rc = pf_law_init(&c->law, 0.0, &c->ls, err)) != PF_OK) return rc;
    } else {
        if ((rc = pfs_ode_begin(s, err)) != PF_OK) return rc;
        const double h1 = 0.05, h2 = 0.05;
        c->b1 = dBodyCreate(s->world);
        dMass m;
        dMassSetBoxTotal(&m, c->m1, 0.2, 0.1, h1);
        dBodySetMass(c->b1, &m);
        dBodySetPosition(c->b1, c->x10, 0, 0.5 * h1);
        dBodySetLinearVel(c->b1, c->v10, 0, 0);
        c->g1 = dCreateBox(s->space, 0.2, 0.1, h1);
        dGeomSetBody(c->g1, c->b1);
        c->slider = dJointCreateSlider(s->world, 0);
        if (s->case_index == C_VERTICAL) {
            /* the rig's base: kinematic, moves with z(t) = az sin(wz t), starts at z = 0 moving
             * up at az wz; both masses start with that vertical velocity (no impact at t = 0) */
            c->base = dBodyCreate(s->world);
            dBodySetKinematic(c->base);
            dBodySetPosition(c->base, 0, 0, 0);
            dBodySetLinearVel(c->base, 0, 0, c->az * c->wz);
            dBodySetLinearVel(c->b1, c->v10, 0, c->az * c->wz);
        }
        dJointAttach(c->slider, c->b1, c->base);
        dJointSetSliderAxis(c->slider, 1, 0, 0);
        c->b2 = dBodyCreate(s->world);
        dMassSetBoxTotal(&m, c->m2, 0.1, 0.1, h2);
        dBodySetMass(c->b2, &m);
        dBodySetPosition(c->b2, 0, 0, h1 + 0.5 * h2 - 1e-5);
        c->g2 = dCreateBox(s->space, 0.1, 0.1, h2);
        dGeomSetBody(c->g2, c->b2);
        if (c->base) dBodySetLinearVel(c->b2, 0, 0, c->az * c->wz);
        pfs_add_geom(s, c->g1);
        pfs_add_geom(s, c->g2);
        c->z0[0] = 0.0;
        c->z0[1] = 0.0;
        pfOdeMaterial mat = pf_ode_default_material();
        mat.mu_s = mat.mu_k = c->b / (c->m2 * G);
        mat.mode = s->mode;
        if ((rc = pf_ode_set_material(s->pf, c->g1, &mat, err)) != PF_OK) return rc;
        if ((rc = pf_ode_set_material(s->pf, c->g2, &mat, err)) != PF_OK) return rc;
    }
    c->x1 = c->x10;
    c->v1 = c->v10;
    c->first_stick = c->run_start = NAN;
    c->emin = energy(c);
    s->default_duration = 5.0;
    return PF_OK;
}

static void cp_free(pfScene *s)
{
    free(s->impl);
}

static int cp_step(pfScene *s, double dt, pfError *err)
{
    Coupled *c = s->impl;
    if (c->use_law) {
        /* symplectic Euler for the spring, the law implicit in the end-of-step relative velocity */
        double v1f = c->v1 + dt * (-c->a2 * c->x1 - c->a1 * c->v1) / c->m1, v2f = c->v2;
        double mu = c->m1 * c->m2 / (c->m1 + c->m2);
        pfLawSolve1D r;
        int rc = pf_law_solve_1d(&c->law, &c->ls, mu, v1f - v2f, c->v1 - c->v2, dt, &r, err);
        if (rc != PF_OK) return rc;
        c->v1 = v1f - dt * r.force / c->m1;
        c->v2 = v2f + dt * r.force / c->m2;
        c->x1 += dt * c->v1;
        c->x2 += dt * c->v2;
        c->friction = r.force;
    } else {
        if (c->base) { /* z'(t) at the middle of the step: the base's height is exact to O(dt^3) */
            double tm = s->t + 0.5 * dt;
            dBodySetLinearVel(c->base, 0, 0, c->az * c->wz * cos(c->wz * tm));
            dBodySetAngularVel(c->base, 0, 0, 0);
        }
        const dReal *p = dBodyGetPosition(c->b1), *v = dBodyGetLinearVel(c->b1);
        dBodyAddForce(c->b1, -c->a2 * p[0] - c->a1 * v[0], 0, 0);
        double v2_prev = dBodyGetLinearVel(c->b2)[0];
        int rc = pfs_ode_step(s, dt, err);
        if (rc != PF_OK) return rc;
        c->x1 = dBodyGetPosition(c->b1)[0];
        c->v1 = dBodyGetLinearVel(c->b1)[0];
        c->x2 = dBodyGetPosition(c->b2)[0];
        c->v2 = dBodyGetLinearVel(c->b2)[0];
        c->friction = c->m2 * (c->v2 - v2_prev) / dt;
    }
    s->t += dt;
    s->steps++;
    int stuck = fabs(c->v1 - c->v2) < Z_TOL;
    if (stuck && isnan(c->run_start)) c->run_start = s->t;
    if (!stuck) c->run_start = NAN;
    if (isnan(c->first_stick) && !isnan(c->run_start) && s->t - c->run_start >= MIN_STICK)
        c->first_stick = c->run_start;
    if (stuck) c->stick_time += dt;
    double e = energy(c);
    c->emin = fmin(c->emin, e);
    c->rise = fmax(c->rise, e - c->emin);
    return PF_OK;
}

static const char *const columns[] = {"t",     "x1",       "v1",     "x2",   "v2",
                                      "z_dot", "friction", "energy", "stick"};
#define NCOL 9

static int cp_header(const char *const **names)
{
    *names = columns;
    return NCOL;
}

static int cp_row(const pfScene *s, double *row, int max)
{
    const Coupled *c = s->impl;
    double r[NCOL] = {s->t,        c->x1,     c->v1,
                      c->x2,       c->v2,     c->v1 - c->v2,
                      c->friction, energy(c), fabs(c->v1 - c->v2) < Z_TOL ? 1.0 : 0.0};
    int n = max < NCOL ? max : NCOL;
    memcpy(row, r, (size_t)n * sizeof *row);
    return n;
}

static int cp_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    const Coupled *c = s->impl;
    pfSceneMetric m[4] = {{"first_stick_time", c->first_stick},
                          {"max_energy_increase", c->rise},
                          {"final_energy", energy(c)},
                          {"stick_time", c->stick_time}};
    return pfs_metrics_copy(m, 4, out, max);
}

static int cp_state(const pfScene *s, char *buf, int size)
{
    const Coupled *c = s->impl;
    return snprintf(buf, (size_t)size, "t=%.3f s  %s  x1=%.5f m  z'=%.2e m/s  E=%.5f J", s->t,
                    fabs(c->v1 - c->v2) < Z_TOL ? "stick" : "slip", c->x1, c->v1 - c->v2,
                    energy(c));
}

const pfSceneClass pf_scene_class_coupled = {
    {"coupled-masses", "friction-coupled inertial pair, P21 (docs/physics.md 4)", cases, keys},
    NULL,
    cp_build,
    cp_free,
    cp_step,
    cp_header,
    cp_row,
    cp_metrics,
    cp_state,
    NULL, /* no overlay */
};
