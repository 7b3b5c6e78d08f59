/* Contacts off the plane of a pair's one patch (physics.md §8.3, P50): a contact whose normal is
 * more than 20 degrees from the pair's dominant group of normals is left out of the patch (its
 * normal, contacts and measured N) and keeps ODE's point friction in its own tangent plane.
 * The contacts are fed through the public API by a geom class of the test's own, whose collider
 * against a plane reports a box face's four corners (normal +z) and, optionally, one contact
 * at the box's side with the normal +x (90 degrees off), as ODE's trimesh-trimesh collider
 * reports next to a face's contacts. */
#include "pf_test_support.h"

#include <patchfriction/pf_ode.h>

#include <check.h>
#include <math.h>
#include <ode/ode.h>
#include <string.h>

#define G 9.81
#define HALF 0.05          /* the box's half size [m] */
#define MASS 1.0           /* [kg] */
#define FORCE_REL_TOL 1e-3 /* measured N of a resting box vs m g (as in test_ode_lifecycle) */
#define NORMAL_TOL 1e-12   /* the patch normal is the face contacts' normal to rounding */
#define HOLD_TOL 1e-6      /* speed along the side contact's normal while pushed into it [m/s] */
#define HOLD_SPEED 1e-3    /* a resting box's speed next to a deep off-plane contact [m/s] */

/* what the test collider reports */
static struct {
    int side;          /* 1: the side contact too */
    double side_depth; /* its depth [m] */
} fake;

static int fake_class = -1;

static int fake_collide(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip)
{
    const int max = flags & 0xffff;
    const dReal *p = dGeomGetPosition(o1);
    int n = 0;
    for (int i = 0; i < 4 && n < max; ++i) {
        dContactGeom *k = (dContactGeom *)((char *)c + (size_t)n * (size_t)skip);
        memset(k, 0, sizeof *k);
        k->pos[0] = p[0] + (i & 1 ? HALF : -HALF);
        k->pos[1] = p[1] + (i & 2 ? HALF : -HALF);
        k->pos[2] = p[2] - HALF;
        k->normal[2] = 1.0;
        k->depth = HALF - p[2] > 0.0 ? HALF - p[2] : 0.0;
        k->g1 = o1;
        k->g2 = o2;
        k->side1 = k->side2 = -1;
        n++;
    }
    if (fake.side && n < max) {
        dContactGeom *k = (dContactGeom *)((char *)c + (size_t)n * (size_t)skip);
        memset(k, 0, sizeof *k);
        k->pos[0] = p[0] - HALF;
        k->pos[1] = p[1];
        k->pos[2] = p[2];
        k->normal[0] = 1.0;
        k->depth = fake.side_depth;
        k->g1 = o1;
        k->g2 = o2;
        k->side1 = k->side2 = -1;
        n++;
    }
    return n;
}

static dColliderFn *fake_collider(int num)
{
    return num == dPlaneClass ? fake_collide : NULL;
}

static void fake_aabb(dGeomID g, dReal aabb[6])
{
    (void)g;
    for (int k = 0; k < 3; ++k) {
        aabb[2 * k] = -dInfinity;
        aabb[2 * k + 1] = dInfinity;
    }
}

typedef struct scene {
    dWorldID world;
    dJointGroupID group;
    dGeomID plane, box;
    dBodyID body;
    pfOdeContext *pf;
} scene;

/* coupling: the context's pfOdeConfig.coupling (scene_make: AUTO, the in-solver coupling where
 * the ODE has the patch series) */
static void scene_make_coupled(scene *s, int side, double side_depth, pfOdeCoupling coupling)
{
    static int ready;
    if (!ready) {
        dInitODE2(0);
        dGeomClass gc = {0, fake_collider, fake_aabb, NULL, NULL};
        fake_class = dCreateGeomClass(&gc);
        ready = 1;
    }
    fake.side = side;
    fake.side_depth = side_depth;
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -G);
    dWorldSetQuickStepNumIterations(s->world, 20);
    s->group = dJointGroupCreate(0);
    s->plane = dCreatePlane(0, 0, 0, 1, 0);
    s->body = dBodyCreate(s->world);
    dMass m;
    dMassSetBoxTotal(&m, MASS, 2 * HALF, 2 * HALF, 2 * HALF);
    dBodySetMass(s->body, &m);
    dBodySetPosition(s->body, 0, 0, HALF);
    s->box = dCreateGeom(fake_class);
    dGeomSetBody(s->box, s->body);
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = coupling;
    ck_assert_int_eq(pf_ode_create(s->world, &cfg, &s->pf, NULL), PF_OK);
}

static void scene_make(scene *s, int side, double side_depth)
{
    scene_make_coupled(s, side, side_depth, PF_ODE_COUPLING_AUTO);
}

static void scene_free(scene *s)
{
    pf_ode_destroy(s->pf);
    dJointGroupDestroy(s->group);
    dGeomDestroy(s->box);
    dGeomDestroy(s->plane);
    dWorldDestroy(s->world);
}

/* quick: dWorldQuickStep (20 iterations), else dWorldStep. */
static void scene_step(scene *s, double push_x, int quick)
{
    dBodyAddForce(s->body, push_x, 0, 0);
    ck_assert_int_eq(pf_ode_collide(s->pf, s->box, s->plane, s->group), 4 + fake.side);
    ck_assert_int_eq(pf_ode_before_step(s->pf, 1e-3), PF_OK);
    if (quick)
        dWorldQuickStep(s->world, 1e-3);
    else
        dWorldStep(s->world, 1e-3);
    ck_assert_int_eq(pf_ode_after_step(s->pf), PF_OK);
    dJointGroupEmpty(s->group);
}

static void patch_of(const scene *s, pfOdePatchInfo *pi)
{
    ck_assert_int_eq(pf_ode_patch_count(s->pf), 1);
    ck_assert_int_eq(pf_ode_find_patch(s->pf, s->box, s->plane, pi), PF_OK);
}

/* The face's contacts alone: one patch of four, nothing off-plane (the rule changes nothing). */
START_TEST(test_agreeing_contacts_are_one_patch)
{
    scene s;
    scene_make(&s, 0, 0.0);
    for (int i = 0; i < 100; ++i)
        scene_step(&s, 0.0, 1);
    pfOdePatchInfo pi;
    patch_of(&s, &pi);
    ck_assert_int_eq(pi.contact_count, 4);
    ck_assert_double_eq_tol(pi.normal[2], 1.0, NORMAL_TOL);
    ck_assert_double_eq_tol(pi.normal_force_measured, MASS * G, FORCE_REL_TOL * MASS * G);
    ck_assert_int_eq(pf_ode_get_counters(s.pf).offplane_contacts, 0);
    scene_free(&s);
}
END_TEST

/* A side contact 90 degrees off: the patch is the face's four contacts with their normal, its N
 * the weight, and the side contact is counted every step. Averaged in, the patch's normal was
 * (1, 0, 4)/sqrt(17) (0.97 in z). Under dWorldStep: its Dantzig solver gives the side contact
 * no force (and reports "LCP internal error, s <= 0" for that degenerate row, at depth 0 and
 * carrying nothing). QuickStep settles on a stressed solution instead, as for any redundant
 * contacts: the side row pushing +x against the stuck patch's friction, its friction along -z
 * (N = 9.937 N, +1.3 %), which is rigid-body statics' indeterminacy, not the rule's. */
START_TEST(test_offplane_contact_left_out_of_the_patch)
{
    scene s;
    scene_make(&s, 1, 0.0);
    for (int i = 0; i < 100; ++i)
        scene_step(&s, 0.0, 0);
    pfOdePatchInfo pi;
    patch_of(&s, &pi);
    ck_assert_int_eq(pi.contact_count, 4);
    ck_assert_double_eq_tol(pi.normal[0], 0.0, NORMAL_TOL);
    ck_assert_double_eq_tol(pi.normal[2], 1.0, NORMAL_TOL);
    ck_assert_double_eq_tol(pi.normal_force_measured, MASS * G, FORCE_REL_TOL * MASS * G);
    ck_assert_int_eq(pf_ode_get_counters(s.pf).offplane_contacts, 100);
    scene_free(&s);
}
END_TEST

/* Pushed into the side contact (along -x), the box is held by that contact's own joint (a
 * contact joint of its own next to the patch: left out of the patch and given no joint, the
 * push would accelerate the box at F/m = 3 m/s^2), and the patch keeps the face's normal. */
START_TEST(test_offplane_contact_has_its_own_joint)
{
    scene s;
    scene_make(&s, 1, 0.0);
    for (int i = 0; i < 200; ++i)
        scene_step(&s, -3.0 * MASS, 0);
    pfOdePatchInfo pi;
    patch_of(&s, &pi);
    ck_assert_double_eq_tol(dBodyGetLinearVel(s.body)[0], 0.0, HOLD_TOL);
    ck_assert_int_eq(pi.contact_count, 4);
    ck_assert_double_eq_tol(pi.normal[2], 1.0, NORMAL_TOL);
    /* the patch's contacts carry the weight and none of the push (the side contact's friction
     * along z, bounded by mu times its 3 N, may share the weight: N is at most m g) */
    ck_assert_double_le(pi.normal_force_measured, MASS * G * (1.0 + FORCE_REL_TOL));
    ck_assert_int_eq(pf_ode_get_counters(s.pf).offplane_contacts, 200);
    scene_free(&s);
}
END_TEST

/* The dominant group is the one of most contacts, not the deepest: a lone side contact 2 cm deep
 * (ODE's trimesh-trimesh collider reports such contacts next to a face's) does not become the
 * patch. */
START_TEST(test_dominant_group_has_the_most_contacts)
{
    scene s;
    scene_make(&s, 1, 0.02);
    scene_step(&s, 0.0, 0);
    pfOdePatchInfo pi;
    patch_of(&s, &pi);
    ck_assert_int_eq(pi.contact_count, 4);
    ck_assert_double_eq_tol(pi.normal[2], 1.0, NORMAL_TOL);
    ck_assert_int_eq(pf_ode_get_counters(s.pf).offplane_contacts, 1);
    scene_free(&s);
}
END_TEST

/* An off-plane contact deeper than the patch is the collider's artefact, not overlap: ODE's
 * trimesh-trimesh test reports two cubes lying face to face a contact 40-57 mm deep at right
 * angles to their face contacts, step after step. The box rests on its face (depth 0 at rest), so
 * moving it along the face normal by the face's depth separates it; the side contact, 50 mm deep
 * here, may keep it from moving along -x but must not push it along +x. Corrected at its own
 * depth (ODE's ERP 0.2 at 1 ms) it sent the box off at 10 m/s in one step; with either stepper the
 * box now stays within the speed the face's own depth corrects at. */
START_TEST(test_deep_offplane_contact_corrects_no_more_than_the_patch)
{
    /* both couplings: the adapter's on any ODE, the in-solver one where the ODE has it */
    const pfOdeCoupling couplings[2] = {PF_ODE_COUPLING_ADAPTER, PF_ODE_COUPLING_SOLVER};
    const int ncouplings = pf_ode_solver_coupling_available() ? 2 : 1;
    for (int c = 0; c < ncouplings; ++c)
        for (int quick = 0; quick < 2; ++quick) {
            scene s;
            scene_make_coupled(&s, 1, 0.05, couplings[c]);
            double vmax = 0.0;
            for (int i = 0; i < 50; ++i) {
                scene_step(&s, 0.0, quick);
                const dReal *v = dBodyGetLinearVel(s.body);
                const double sp = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
                if (sp > vmax) vmax = sp;
            }
            /* the face's depth at rest is the sag of ODE's CFM under m g, micrometres: its
             * correction ERP depth / h is below 1 mm/s */
            ck_assert_msg(vmax <= HOLD_SPEED, "coupling %d, %s: fastest %g m/s", c,
                          quick ? "QuickStep" : "dWorldStep", vmax);
            ck_assert_int_eq(pf_ode_get_counters(s.pf).offplane_contacts, 50);
            scene_free(&s);
        }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ode_offplane");
    TCase *tc = tcase_create("offplane");
    tcase_add_test(tc, test_agreeing_contacts_are_one_patch);
    tcase_add_test(tc, test_offplane_contact_left_out_of_the_patch);
    tcase_add_test(tc, test_offplane_contact_has_its_own_joint);
    tcase_add_test(tc, test_dominant_group_has_the_most_contacts);
    tcase_add_test(tc, test_deep_offplane_contact_corrects_no_more_than_the_patch);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pf_test_run_suite(suite());
}
