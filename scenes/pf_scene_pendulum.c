/* pendulum: Dahl's wire pendulum (physics.md P24a) - a bob on an ODE hinge whose friction is a
 * dynamic law applied implicitly through the joint's motor row (pf_ode_joint.h).
 *
 * What you should see: released at u0 = 10 x_c, the swing amplitude decays first linearly (about
 * 4 sigma/k_n x_c = 1 x_c per cycle: the Coulomb region, ubar >~ 4), then geometrically (the
 * viscous region, 4 >~ ubar >~ 0.7, ratio about exp(-sigma/k_n) per cycle) and finally
 * hyperbolically (the structural region, 1/ubar growing by about (4i/3) sigma/k_n per cycle):
 * the pendulum never quite stops. pf-demo prints the amplitude of every cycle and its region.
 *
 * Model: I theta'' = -m g l sin(theta) - F with I = m l^2 (+ a 1 %-radius sphere), k_n = m g l,
 * sigma = k_n / k_ratio, Fc = sigma x_c. Defaults: m = 1 kg, l = 1 m, g = 9.81, Dahl's case
 * k_ratio = 4, i = 1, u0 = 10, x_c = 0.01 rad (amplitudes of 0.1 rad and less: sin ~ linear). */
#include "pf_scenes.h"

#include <patchfriction/pf_ode_joint.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pfPendulumParams pf_pendulum_default_params(void)
{
    pfPendulumParams p;
    memset(&p, 0, sizeof p);
    p.law = pf_default_law_def(PF_LAW_DAHL);
    p.m = 1.0;
    p.l = 1.0;
    p.g = 9.81;
    p.k_ratio = 4.0;
    p.x_c = 0.01;
    p.u0 = 10.0;
    p.law.dahl.exponent = 1.0;
    pf_pendulum_sync_params(&p);
    return p;
}

void pf_pendulum_sync_params(pfPendulumParams *p)
{
    double kn = p->m * p->g * p->l;
    p->law.dahl.sigma = kn / p->k_ratio;
    p->law.dahl.fc = p->law.dahl.sigma * p->x_c;
}

pfPendulumRegion pf_pendulum_region(double ubar)
{
    return ubar >= 4.0 ? PF_REGION_COULOMB
                       : (ubar >= 0.7 ? PF_REGION_VISCOUS : PF_REGION_STRUCTURAL);
}

const char *pf_pendulum_region_name(pfPendulumRegion r)
{
    return r == PF_REGION_COULOMB ? "coulomb" : (r == PF_REGION_VISCOUS ? "viscous" : "structural");
}

struct pfPendulum {
    dWorldID world;
    dBodyID body;
    dJointID hinge;
    pfJointFriction *jf;
    double t, prev_rate;
    double *amp;
    long n_amp, cap_amp;
};

static int perr(pfError *err, int status, const char *field, const char *msg)
{
    if (err) {
        err->status = status;
        snprintf(err->field, sizeof err->field, "%s", field);
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return status;
}

pfPendulum *pf_pendulum_create(const pfPendulumParams *p, pfError *err)
{
    if (!p) {
        perr(err, PF_ERR_NULL, "params", "params is NULL");
        return NULL;
    }
    const double vals[] = {p->m, p->l, p->g, p->k_ratio, p->x_c};
    const char *names[] = {"m", "l", "g", "k_ratio", "x_c"};
    for (int i = 0; i < 5; ++i)
        if (!(vals[i] > 0.0) || !isfinite(vals[i])) {
            char msg[128];
            snprintf(msg, sizeof msg, "%s = %g must be > 0 and finite", names[i], vals[i]);
            perr(err, PF_ERR_RANGE, names[i], msg);
            return NULL;
        }
    if (!isfinite(p->u0) || !(p->u0 * p->x_c < 1.5)) {
        perr(err, PF_ERR_RANGE, "u0", "u0 * x_c (initial angle) must be finite and < 1.5 rad");
        return NULL;
    }
    pfPendulum *pd = calloc(1, sizeof *pd);
    if (!pd) {
        perr(err, PF_ERR_NO_MEMORY, "pendulum", "out of memory");
        return NULL;
    }
    dInitODE2(0);
    pd->world = dWorldCreate();
    dWorldSetGravity(pd->world, 0, 0, -p->g);
    pd->body = dBodyCreate(pd->world);
    dMass mass;
    dMassSetSphereTotal(&mass, p->m, 0.01 * p->l);
    dBodySetMass(pd->body, &mass);
    dBodySetPosition(pd->body, 0, 0, -p->l);
    pd->hinge = dJointCreateHinge(pd->world, 0);
    dJointAttach(pd->hinge, pd->body, 0);
    dJointSetHingeAnchor(pd->hinge, 0, 0, 0);
    dJointSetHingeAxis(pd->hinge, 0, 1, 0); /* angle 0 hanging straight down */
    double th = p->u0 * p->x_c;
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 1, 0, th);
    dBodySetRotation(pd->body, R);
    dBodySetPosition(pd->body, -p->l * sin(th), 0, -p->l * cos(th));
    pfJointFrictionDef jd = pf_default_joint_friction_def();
    jd.law = p->law;
    pd->jf = pf_joint_friction_create(pd->hinge, &jd, err);
    if (!pd->jf) {
        pf_pendulum_destroy(pd);
        return NULL;
    }
    return pd;
}

int pf_pendulum_step(pfPendulum *pd, double dt, pfError *err)
{
    int s = pf_joint_friction_update(pd->jf, dt, err);
    if (s != PF_OK) return s;
    dWorldStep(pd->world, dt);
    pd->t += dt;
    double rate = dJointGetHingeAngleRate(pd->hinge);
    if (pd->prev_rate > 0.0 && rate <= 0.0) { /* positive peak: one per cycle */
        if (pd->n_amp == pd->cap_amp) {
            long cap = pd->cap_amp ? 2 * pd->cap_amp : 64;
            double *a = realloc(pd->amp, (size_t)cap * sizeof *a);
            if (!a) return perr(err, PF_ERR_NO_MEMORY, "amplitudes", "out of memory");
            pd->amp = a;
            pd->cap_amp = cap;
        }
        pd->amp[pd->n_amp++] = dJointGetHingeAngle(pd->hinge);
    }
    pd->prev_rate = rate;
    if (!isfinite(rate)) return perr(err, PF_ERR_NOT_FINITE, "state", "pendulum state not finite");
    return PF_OK;
}

double pf_pendulum_time(const pfPendulum *pd)
{
    return pd->t;
}
double pf_pendulum_angle(const pfPendulum *pd)
{
    return dJointGetHingeAngle(pd->hinge);
}
double pf_pendulum_rate(const pfPendulum *pd)
{
    return dJointGetHingeAngleRate(pd->hinge);
}
double pf_pendulum_friction(const pfPendulum *pd)
{
    return pf_joint_friction_force(pd->jf);
}

long pf_pendulum_amplitudes(const pfPendulum *pd, const double **out)
{
    *out = pd->amp;
    return pd->n_amp;
}

void pf_pendulum_destroy(pfPendulum *pd)
{
    if (!pd) return;
    pf_joint_friction_destroy(pd->jf);
    if (pd->world) dWorldDestroy(pd->world);
    free(pd->amp);
    free(pd);
}
