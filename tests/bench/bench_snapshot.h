/* A scene's dynamic state, saved once and restored into the same scene or into another built by
 * the same builder with the same parameters (pf_scene_create: the stock and the patch-friction
 * run of one benchmark line), so that both runs step from one state: pf-bench's fixed-state
 * replay lines (bench_scenes.c).
 *
 * Saved: every dynamic body's position, quaternion, linear and angular velocity and enabled
 * flag; the order of the geoms in the scene's space (ODE's spaces list a moved geom first, so
 * the order after a step depends on the islands of that step, and the collision order and hence
 * the order of the solver's rows follow it); and ODE's random seed (QuickStep shuffles its rows
 * with dRand). Restoring also forgets the adapter's pairs (pf_ode_reset_pairs). Not saved: the
 * bodies' auto-disable counters (the scenes run with auto-disable off, pf_scene.c), joints
 * other than the contacts (the bin and the pyramid have none), the scene's own time and
 * metrics.
 *
 * Every restore of one snapshot gives the same state, so the runs restored from it repeat each
 * other bit for bit (test_bench_snapshot); each of the three parts is needed for that (measured:
 * without the space order, the pair reset or, under QuickStep, the seed, the bin's and the
 * pyramid's repeats differ, the stock runs' too). The restored state is not the saved run's
 * own, though: dBodySetQuaternion renormalises, which moves some quaternions by their last bit
 * (35 of the bin's 120 bodies at 1.0 s), and the pairs' history is forgotten, so a restored run
 * is not the saved run's continuation bit for bit. */
#ifndef PF_BENCH_SNAPSHOT_H
#define PF_BENCH_SNAPSHOT_H

#include "pf_scene.h"

#include <stddef.h>

/// One dynamic body's state.
typedef struct pfBenchBodyState {
    double pos[3];  ///< position of the mass centre, world [m]
    double q[4];    ///< orientation (w, x, y, z), as dBodyGetQuaternion
    double lvel[3]; ///< linear velocity, world [m/s]
    double avel[3]; ///< angular velocity, world [rad/s]
    int enabled;    ///< dBodyIsEnabled
} pfBenchBodyState;

/// A scene's saved state (pf_bench_snapshot_take).
typedef struct pfBenchSnapshot {
    int ngeoms;                          ///< the scene's geoms (pf_scene_geoms), all in its space
    int geom_class[PF_SCENE_MAX_GEOMS];  ///< their classes (dGeomGetClass), checked on restore
    int geom_body[PF_SCENE_MAX_GEOMS];   ///< index of each geom's body in body[], -1: none
    int space_order[PF_SCENE_MAX_GEOMS]; ///< the space's geom list, as indices of the geoms
    int nbodies;                         ///< dynamic bodies, in the order of their first geom
    pfBenchBodyState body[PF_SCENE_MAX_GEOMS];
    unsigned long seed; ///< dRandGetSeed
} pfBenchSnapshot;

/** Save s's state into *out. Returns 0, or -1 with a reason in why (size n): a scene without
 *  an ODE world, more geoms than PF_SCENE_MAX_GEOMS, or a space holding geoms the scene does not
 *  list. */
int pf_bench_snapshot_take(const pfScene *s, pfBenchSnapshot *out, char *why, size_t n);

/** Restore snap into s (the scene it was taken of, or one built alike): bodies, space order,
 *  ODE's random seed, and the adapter's pairs forgotten. Call between steps. Returns 0, or -1
 *  with a reason in why (size n) and s unchanged: the geoms differ in count, class or bodies
 *  from the snapshot's, or a pair reset is refused. */
int pf_bench_snapshot_restore(pfScene *s, const pfBenchSnapshot *snap, char *why, size_t n);

#endif
