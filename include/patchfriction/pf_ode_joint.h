/** @file
 *  @brief A dynamic friction law on an ODE hinge or slider.
 *
 * patchfriction joint friction: a dynamic friction law (pf_laws.h) on an ODE hinge or slider.
 * Self-contained: works with or without a pfOdeContext (pf_ode.h).
 *
 *     pfJointFrictionDef def = pf_default_joint_friction_def();   // Dahl by default
 *     def.law.dahl.sigma = 2.5; def.law.dahl.fc = 0.025;          // N m/rad, N m for a hinge
 *     pfJointFriction *jf = NULL;
 *     if (pf_joint_friction_create(hinge, &def, &jf, &err) != PF_OK) ...   // err says why
 *     for (;;) {
 *         pf_joint_friction_update(jf, dt, &err);   // before every world step
 *         dWorldStep(world, dt);                    // or dWorldQuickStep
 *     }
 *     pf_joint_friction_destroy(jf);
 *
 * How the law is applied implicitly. The laws' step F = step(state, v, dt) gives the friction
 * force at the end of a step as a function of the end-of-step joint rate v, which ODE only
 * knows inside its solver. pf_joint_friction_update therefore
 *  1. commits the law's state over the step just taken, with the rate ODE produced for it (so
 *     the state, e.g. Dahl's F or LuGre's z, follows the true motion, never a prediction);
 *  2. takes the tangent of F(v) over the next step about the current rate (pf_law_linearize:
 *     F(v) ~ f0 + k v, |F| <= fmax, k >= 0) and turns it into the joint's motor row: target
 *     velocity -f0 / k, CFM 1 / k, bound fmax. ODE's row then delivers exactly
 *     lambda = clamp(-(f0 + k v), -fmax, fmax) with v the END-of-step rate, solved together with
 *     the rest of the system - an implicit (backward Euler) application of the law.
 * In Dahl's stiff presliding regime k = sigma dt |1 - F/Fc sgn v|^i is the law's own stiffness
 * times dt, so the row is the implicit spring of the presliding, and the force cannot overshoot
 * what the law's exact update gives for the solved motion; in gross sliding k -> 0 and the row
 * becomes a bounded force of +-Fc. When k vanishes (saturated sliding) the law's force is
 * applied as a plain joint torque/force for that step (dJointAddHingeTorque /
 * dJointAddSliderForce) and the motor is switched off.
 * The joint's motor is owned by the friction: do not set dParamVel, dParamFMax or dParamCFM on it
 * yourself (limits, dParamLoStop/HiStop, stay yours and work as usual).
 * Units: for a hinge the law's "force" is a torque [N m] and its "velocity" a rate [rad/s]; for
 * a slider they are N and m/s.
 */
#ifndef PATCHFRICTION_PF_ODE_JOINT_H
#define PATCHFRICTION_PF_ODE_JOINT_H

#include <ode/ode.h>
#include <patchfriction/pf_laws.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Joint friction definition.
typedef struct pfJointFrictionDef {
    pfLawDef law; ///< the friction law (default: Dahl with its defaults)
} pfJointFrictionDef;

/// Opaque joint friction handle.
typedef struct pfJointFriction pfJointFriction;

/** Defaults of a joint friction definition.
 *  @return Dahl's law with its defaults (pf_default_law_def(PF_LAW_DAHL)) */
pfJointFrictionDef pf_default_joint_friction_def(void);

/** Attach a law to a hinge or slider joint. The law starts at rest.
 *  @param joint a hinge or slider joint (other types: PF_ERR_ENUM, field "joint")
 *  @param def   the law (validated by pf_law_def_validate)
 *  @param out   receives the new handle on success, NULL on failure; not NULL
 *  @param err   optional error report (may be NULL)
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_ENUM, PF_ERR_NO_MEMORY or an error of the law's
 *          validation, naming the bad field */
int pf_joint_friction_create(dJointID joint, const pfJointFrictionDef *def, pfJointFriction **out,
                             pfError *err);

/** Free a joint friction handle (NULL is ignored). The joint keeps the motor parameters the last
 *  update set: set dParamFMax to 0 if it lives on without friction. Call before dJointDestroy.
 *  @param jf the handle */
void pf_joint_friction_destroy(pfJointFriction *jf);

/** Commit the step just taken and set the joint's motor row for the next one (docs/physics.md
 *  P39). Call before each world step.
 *  @param jf  the handle
 *  @param dt  the step the world is about to take [s], > 0, finite
 *  @param err optional error report (may be NULL)
 *  @return PF_OK, PF_ERR_NULL, PF_ERR_RANGE (bad dt), PF_ERR_NOT_FINITE (joint rate) or an error
 *          of the law's step */
int pf_joint_friction_update(pfJointFriction *jf, double dt, pfError *err);

/** Friction the law gave for the last committed step.
 *  @param jf the handle (NULL gives 0)
 *  @return the force [N] (slider) or torque [N m] (hinge), resisting sign: it acts on body 1 as
 *          -force along / about the axis */
double pf_joint_friction_force(const pfJointFriction *jf);

/** The law's state after the last committed step.
 *  @param jf the handle
 *  @return the state (read-only, owned by the handle), or NULL for a NULL handle */
const pfLawState *pf_joint_friction_state(const pfJointFriction *jf);

#ifdef __cplusplus
}
#endif

#endif
