/* Joint friction for ODE hinges and sliders (see pf_ode_joint.h for the scheme). */
#include <patchfriction/pf_ode_joint.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pfJointFriction {
    dJointID joint;
    int slider; /* 0 hinge, 1 slider */
    pfLawDef law;
    pfLawState state;
    double pending_dt; /* > 0: a step was taken with our row and is not committed yet */
    double force;
};

static int set_err(pfError *err, int status, const char *field, const char *msg)
{
    if (err) {
        err->status = status;
        snprintf(err->field, sizeof err->field, "%s", field);
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return status;
}

pfJointFrictionDef pf_default_joint_friction_def(void)
{
    pfJointFrictionDef d;
    d.law = pf_default_law_def(PF_LAW_DAHL);
    return d;
}

pfJointFriction *pf_joint_friction_create(dJointID joint, const pfJointFrictionDef *def,
                                          pfError *err)
{
    if (!joint || !def) {
        set_err(err, PF_ERR_NULL, joint ? "def" : "joint", "NULL argument");
        return NULL;
    }
    int type = dJointGetType(joint);
    if (type != dJointTypeHinge && type != dJointTypeSlider) {
        set_err(err, PF_ERR_SHAPE, "joint", "joint friction needs a hinge or a slider joint");
        return NULL;
    }
    if (pf_law_def_validate(&def->law, err) != PF_OK) return NULL;
    pfJointFriction *jf = calloc(1, sizeof *jf);
    if (!jf) {
        set_err(err, PF_ERR_NO_MEMORY, "joint", "out of memory");
        return NULL;
    }
    jf->joint = joint;
    jf->slider = type == dJointTypeSlider;
    jf->law = def->law;
    if (pf_law_init(&jf->law, 0.0, &jf->state, err) != PF_OK) {
        free(jf);
        return NULL;
    }
    return jf;
}

void pf_joint_friction_destroy(pfJointFriction *jf)
{
    free(jf);
}

static double joint_rate(const pfJointFriction *jf)
{
    return jf->slider ? dJointGetSliderPositionRate(jf->joint) : dJointGetHingeAngleRate(jf->joint);
}

static void set_param(pfJointFriction *jf, int param, double value)
{
    if (jf->slider)
        dJointSetSliderParam(jf->joint, param, value);
    else
        dJointSetHingeParam(jf->joint, param, value);
}

int pf_joint_friction_update(pfJointFriction *jf, double dt, pfError *err)
{
    if (!jf) return set_err(err, PF_ERR_NULL, "jf", "jf is NULL");
    if (!(dt > 0.0) || !isfinite(dt)) {
        if (err) {
            set_err(err, PF_ERR_RANGE, "dt", "");
            snprintf(err->message, sizeof err->message, "dt = %g must be > 0 and finite", dt);
        }
        return PF_ERR_RANGE;
    }
    double v = joint_rate(jf);
    if (!isfinite(v)) return set_err(err, PF_ERR_NOT_FINITE, "joint", "joint rate is not finite");
    int s;
    /* 1. commit the step just taken with the rate ODE solved for */
    if (jf->pending_dt > 0.0) {
        double f;
        if ((s = pf_law_step(&jf->law, &jf->state, v, jf->pending_dt, &f, err)) != PF_OK) return s;
        jf->force = f;
        jf->pending_dt = 0.0;
    }
    /* 2. tangent of the law over the next step -> motor row */
    pfLawRow row;
    if ((s = pf_law_linearize(&jf->law, &jf->state, v, dt, &row, err)) != PF_OK) return s;
    double fmax = isfinite(row.fmax) ? row.fmax : dInfinity;
    if (row.k > 0.0 && fabs(row.f0) < 1e9 * row.k) {
        set_param(jf, dParamVel, -row.f0 / row.k);
        set_param(jf, dParamCFM, 1.0 / row.k);
        set_param(jf, dParamFMax, fmax);
    } else {
        /* saturated sliding: the law's force does not depend on v over the step */
        set_param(jf, dParamFMax, 0.0);
        double f = row.f0;
        if (jf->slider)
            dJointAddSliderForce(jf->joint, -f);
        else
            dJointAddHingeTorque(jf->joint, -f);
    }
    jf->pending_dt = dt;
    return PF_OK;
}

double pf_joint_friction_force(const pfJointFriction *jf)
{
    return jf ? jf->force : 0.0;
}

const pfLawState *pf_joint_friction_state(const pfJointFriction *jf)
{
    return jf ? &jf->state : NULL;
}
