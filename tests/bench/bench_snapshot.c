/* A scene's dynamic state saved and restored (bench_snapshot.h). */
#include "bench_snapshot.h"

#include <stdio.h>
#include <string.h>

/* The scene's geoms, or -1 with a reason. */
static int scene_geoms(const pfScene *s, dGeomID *g, char *why, size_t n)
{
    if (!pf_scene_world(s) || !pf_scene_space(s)) {
        snprintf(why, n, "%s: no ODE world", pf_scene_name(s));
        return -1;
    }
    int ng = pf_scene_geoms(s, g, PF_SCENE_MAX_GEOMS);
    if (ng > PF_SCENE_MAX_GEOMS) {
        snprintf(why, n, "%s: %d geoms, more than %d", pf_scene_name(s), ng, PF_SCENE_MAX_GEOMS);
        return -1;
    }
    if (dSpaceGetNumGeoms(pf_scene_space(s)) != ng) {
        snprintf(why, n, "%s: its space holds %d geoms, the scene lists %d", pf_scene_name(s),
                 dSpaceGetNumGeoms(pf_scene_space(s)), ng);
        return -1;
    }
    return ng;
}

static int geom_index(const dGeomID *g, int ng, dGeomID x)
{
    for (int i = 0; i < ng; ++i)
        if (g[i] == x) return i;
    return -1;
}

int pf_bench_snapshot_take(const pfScene *s, pfBenchSnapshot *out, char *why, size_t n)
{
    dGeomID g[PF_SCENE_MAX_GEOMS];
    int ng = scene_geoms(s, g, why, n);
    if (ng < 0) return -1;
    memset(out, 0, sizeof *out);
    out->ngeoms = ng;
    dBodyID body[PF_SCENE_MAX_GEOMS];
    for (int i = 0; i < ng; ++i) {
        out->geom_class[i] = dGeomGetClass(g[i]);
        dBodyID b = dGeomGetBody(g[i]);
        out->geom_body[i] = -1;
        if (!b || dBodyIsKinematic(b)) continue;
        int k = 0;
        while (k < out->nbodies && body[k] != b)
            ++k;
        out->geom_body[i] = k;
        if (k < out->nbodies) continue;
        body[out->nbodies++] = b;
        pfBenchBodyState *st = &out->body[k];
        const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
        const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
        for (int c = 0; c < 3; ++c) {
            st->pos[c] = p[c];
            st->lvel[c] = v[c];
            st->avel[c] = w[c];
        }
        for (int c = 0; c < 4; ++c)
            st->q[c] = q[c];
        st->enabled = dBodyIsEnabled(b);
    }
    dSpaceID space = pf_scene_space(s);
    for (int i = 0; i < ng; ++i) {
        int k = geom_index(g, ng, dSpaceGetGeom(space, i));
        if (k < 0) {
            snprintf(why, n, "%s: its space's geom %d is not one of the scene's", pf_scene_name(s),
                     i);
            return -1;
        }
        out->space_order[i] = k;
    }
    out->seed = dRandGetSeed();
    return 0;
}

int pf_bench_snapshot_restore(pfScene *s, const pfBenchSnapshot *snap, char *why, size_t n)
{
    dGeomID g[PF_SCENE_MAX_GEOMS];
    int ng = scene_geoms(s, g, why, n);
    if (ng < 0) return -1;
    if (ng != snap->ngeoms) {
        snprintf(why, n, "%s: %d geoms, the snapshot has %d", pf_scene_name(s), ng, snap->ngeoms);
        return -1;
    }
    /* the same bodies behind the same geoms (a body's index is that of its first geom) */
    dBodyID body[PF_SCENE_MAX_GEOMS];
    int nb = 0;
    for (int i = 0; i < ng; ++i) {
        dBodyID b = dGeomGetBody(g[i]);
        int k = -1;
        if (b && !dBodyIsKinematic(b)) {
            k = 0;
            while (k < nb && body[k] != b)
                ++k;
            if (k == nb) body[nb++] = b;
        }
        if (dGeomGetClass(g[i]) != snap->geom_class[i] || k != snap->geom_body[i]) {
            snprintf(why, n,
                     "%s: geom %d (class %d, body %d) is not the snapshot's (class %d, body %d)",
                     pf_scene_name(s), i, dGeomGetClass(g[i]), k, snap->geom_class[i],
                     snap->geom_body[i]);
            return -1;
        }
    }
    pfOdeContext *pf = pf_scene_ode_context(s);
    pfError err;
    if (pf && pf_ode_reset_pairs(pf, &err) != PF_OK) {
        snprintf(why, n, "%s: %s", pf_scene_name(s), err.message);
        return -1;
    }
    for (int k = 0; k < nb; ++k) {
        const pfBenchBodyState *st = &snap->body[k];
        dBodyID b = body[k];
        dQuaternion q = {st->q[0], st->q[1], st->q[2], st->q[3]};
        dBodySetPosition(b, st->pos[0], st->pos[1], st->pos[2]);
        dBodySetQuaternion(b, q);
        dBodySetLinearVel(b, st->lvel[0], st->lvel[1], st->lvel[2]);
        dBodySetAngularVel(b, st->avel[0], st->avel[1], st->avel[2]);
        dBodySetForce(b, 0, 0, 0);
        dBodySetTorque(b, 0, 0, 0);
        if (st->enabled)
            dBodyEnable(b);
        else
            dBodyDisable(b);
    }
    /* The space's list in the snapshot's order, every geom marked moved: ODE's spaces keep the
     * moved (dirty) geoms at the front of the list and recompute their boxes from the front up
     * to the first clean one, and dSpaceAdd puts a geom first without marking it. So each geom,
     * last to first, is taken out, put first and marked (dGeomMoved moves a clean geom to the
     * front, where it already is). */
    dSpaceID space = pf_scene_space(s);
    for (int i = ng - 1; i >= 0; --i) {
        dGeomID x = g[snap->space_order[i]];
        dSpaceRemove(space, x);
        dSpaceAdd(space, x);
        dGeomMoved(x);
    }
    dRandSetSeed(snap->seed);
    return 0;
}
