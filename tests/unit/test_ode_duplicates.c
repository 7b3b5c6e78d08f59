/* Adapter: contacts that ODE's collider reports twice are one contact.
 *
 * ODE's trimesh colliders report a contact once per triangle that finds it: a box corner on the
 * edge between a face's two triangles comes twice, with the same normal and depth and positions
 * equal to the last bit or two. Two equal normal rows are one constraint twice, a degenerate
 * pivot for dWorldStep's Dantzig solver (docs/architecture.md). The scene is one such contact
 * recorded in the bin (pf-demo bin, seed 4, 40 bodies, dWorldStep, 1 ms, t = 0.999 s): a box of
 * 0.094 x 0.098 x 0.068 m with a corner on a trimesh cube of side 0.07 m (the bin's mesh: the same
 * vertices and triangles), their poses as the scene had them, both fixed in space but the box,
 * which has a body.
 *
 * Expected, counted here from dCollide's own output: in the patch modes the pair's patch has one
 * contact per distinct point (equal normals, positions within 1e-12 m) and the counter
 * merged_contacts grows by the rest; in STOCK mode every contact of the collider stays. */
#include "pf_ode_test_scene.h"
#include "pf_test_support.h"

#include <check.h>
#include <math.h>
#include <patchfriction/pf_ode.h>
#include <string.h>

#define CUBE 0.07 /* trimesh cube side [m] */
#define MAXC 16
#define SAME_POINT 1e-12 /* [m] two contacts closer than this are one point here */

/* the bin's cube mesh (pf_scene_bin.c, mesh_build): vertex i at +-h/2 by its bits */
static const int tri[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                               {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};

/* the recorded poses: position, quaternion (w, x, y, z); the box's sides */
static const double mesh_p[3] = {-0.22553120509567429, -0.2230730954455466, 0.16171281403794957};
static const double mesh_q[4] = {0.49730271231623308, -0.059683576280872931, 0.72993981042981992,
                                 -0.46509757706842741};
static const double box_p[3] = {-0.23993584361089695, -0.2267181595354853, 0.062063093406871765};
static const double box_q[4] = {-0.56751488475562872, -0.10920564685773437, -0.7961539202669986,
                                0.17927609299256547};
static const double box_l[3] = {0.093649139779868704, 0.098479879654612065, 0.068445331395667663};

typedef pfOdeTestMeshWorld DupScene;

static void dup_make(DupScene *s, pfOdeMode mode)
{
    double v[8 * 3];
    dTriIndex idx[36];
    for (int i = 0; i < 8; ++i)
        for (int k = 0; k < 3; ++k)
            v[3 * i + k] = ((i >> k) & 1) ? 0.5 * CUBE : -0.5 * CUBE;
    for (int t = 0; t < 12; ++t)
        for (int k = 0; k < 3; ++k)
            idx[3 * t + k] = (dTriIndex)tri[t][k];
    pf_ode_test_mesh_world(s, mode, v, 8, idx, 36);
    dGeomSetPosition(s->mesh, mesh_p[0], mesh_p[1], mesh_p[2]);
    dQuaternion q = {mesh_q[0], mesh_q[1], mesh_q[2], mesh_q[3]};
    dGeomSetQuaternion(s->mesh, q);
    s->body = dBodyCreate(s->world);
    dMass ms;
    dMassSetBoxTotal(&ms, 1.0, box_l[0], box_l[1], box_l[2]);
    dBodySetMass(s->body, &ms);
    dBodySetPosition(s->body, box_p[0], box_p[1], box_p[2]);
    dQuaternion qb = {box_q[0], box_q[1], box_q[2], box_q[3]};
    dBodySetQuaternion(s->body, qb);
    s->box = dCreateBox(s->space, box_l[0], box_l[1], box_l[2]);
    dGeomSetBody(s->box, s->body);
}

/* the collider's contacts for (mesh, box), the order the bin met them in, and how many of them
 * are distinct: a contact is a repeat of an earlier one with the same normal whose position is
 * within SAME_POINT */
static int distinct_contacts(const DupScene *s, int *raw)
{
    dContactGeom c[MAXC];
    int n = dCollide(s->mesh, s->box, MAXC, c, sizeof c[0]);
    int distinct = 0;
    for (int i = 0; i < n; ++i) {
        int seen = 0;
        for (int j = 0; j < i && !seen; ++j) {
            double d = 0.0;
            for (int k = 0; k < 3; ++k)
                d += (c[i].pos[k] - c[j].pos[k]) * (c[i].pos[k] - c[j].pos[k]);
            seen = sqrt(d) <= SAME_POINT && !memcmp(c[i].normal, c[j].normal, 3 * sizeof(dReal));
        }
        distinct += !seen;
    }
    *raw = n;
    return distinct;
}

START_TEST(test_repeated_points_are_one_contact)
{
    const pfOdeMode modes[2] = {PF_ODE_MODE_EXACT, PF_ODE_MODE_PADE};
    for (int k = 0; k < 2; ++k) {
        DupScene s;
        dup_make(&s, modes[k]);
        int raw, distinct = distinct_contacts(&s, &raw);
        /* the case holds repeated points at all */
        ck_assert_msg(raw > distinct && distinct >= 1, "collider: %d contacts, %d distinct", raw,
                      distinct);
        ck_assert_int_eq(pf_ode_collide(s.pf, s.mesh, s.box, s.group), distinct);
        ck_assert_int_eq(pf_ode_before_step(s.pf, 1e-3), PF_OK);
        pfOdePatchInfo info;
        ck_assert_int_eq(pf_ode_find_patch(s.pf, s.mesh, s.box, &info), PF_OK);
        ck_assert_int_eq(info.contact_count, distinct);
        ck_assert_int_eq(pf_ode_get_counters(s.pf).merged_contacts, raw - distinct);
        pf_ode_test_mesh_world_free(&s);
    }
}
END_TEST

START_TEST(test_stock_keeps_the_colliders_contacts)
{
    DupScene s;
    dup_make(&s, PF_ODE_MODE_STOCK);
    int raw, distinct = distinct_contacts(&s, &raw);
    ck_assert_int_gt(raw, distinct);
    ck_assert_int_eq(pf_ode_collide(s.pf, s.mesh, s.box, s.group), raw);
    int contacts = 0; /* (the adapter keeps a disabled sentinel joint on the body too) */
    for (int i = 0; i < dBodyGetNumJoints(s.body); ++i)
        contacts += dJointGetType(dBodyGetJoint(s.body, i)) == dJointTypeContact;
    ck_assert_int_eq(contacts, raw);
    ck_assert_int_eq(pf_ode_get_counters(s.pf).merged_contacts, 0);
    pf_ode_test_mesh_world_free(&s);
}
END_TEST

static Suite *suite(void)
{
    Suite *su = suite_create("ode_duplicates");
    TCase *tc = tcase_create("duplicates");
    tcase_add_test(tc, test_repeated_points_are_one_contact);
    tcase_add_test(tc, test_stock_keeps_the_colliders_contacts);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
