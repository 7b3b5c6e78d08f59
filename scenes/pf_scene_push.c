/* push: a kinematic finger pushes a block or a disk across a plane at an offset (quasi-static
 * pushing, the robotics use of limit surfaces; docs/physics.md §11, P58-P61).
 *
 *   block: an aluminium block 60 x 100 x 30 mm (x along the push, 0.486 kg at 2700 kg/m^3); the
 *          finger touches its -x face (the 100 mm face).
 *   disk:  an aluminium disk of radius 50 mm, 30 mm high (0.636 kg; an upright dCylinder).
 * The object stands on the ground plane with its mass centre G at the origin, turned by yaw
 * (degrees about +z, key yaw, default 0; the block's finger must still meet its -x face, so
 * |yaw| <= 30). The finger, a kinematic sphere of radius 5 mm whose centre is 5.5 mm above the
 * ground (so it never touches it), moves at constant velocity speed (key, default 5 mm/s) along
 * +x on the line y = offset (key, default 20 mm; |offset| <= 45 mm, and for the block the
 * finger must meet the face: an error names offset and yaw otherwise), starting in contact (2e-5 m
 * deep, inside ODE's surface layer). mu (default 0.5) is the object-ground coefficient (mu_s =
 * mu_k): patch friction in exact / pade mode (a uniform rectangle or disk under the object), ODE's
 * point friction in stock mode, as in the other scenes. The finger-object contact is ODE's point
 * contact (the adapter's STOCK pair material) with coefficient mu_f (key, default 0.5; 0 is a
 * frictionless finger) in every mode: its first friction direction is the horizontal tangent, so
 * its cone in the plane is mu_f. In stock mode it is ODE's dContactApprox1; next to the patch
 * (exact / pade, adapter coupling) its friction rows are bounded by mu_f times the last step's
 * normal force (pf_ode_normal_contacts: ODE's Dantzig solver would bound them by the normal force
 * before the finger's friction acts, 20 % low here; metric stock_lagged counts those steps).
 * stepper=world (default) or quick; iterations=N
 * (QuickStep). Metrics over the window 0.1 .. 0.3 s (the finger has moved 0.5 .. 1.5 mm at the
 * defaults): ratio, the mean of w_z / |v_G| [rad/m] (the object's twist direction: its rotation per
 * unit travel of G, negative when it turns clockwise seen from above); finger_slip, the mean speed
 * of the finger relative to the object's material point under it, along the contact's horizontal
 * tangent [m/s], finger_slip_ratio = finger_slip / speed, and finger_sticking (1 when that ratio
 * is below 1e-3); x, y, yaw at the end; ground_slip_fraction (patch-steps of the object-ground
 * patch in slip over the window; 0 in stock mode). The quasi-static reference (the limit surface
 * by cubature, the motion cone of Mason; tests/support/pf_ref_push.c, `pf-reference push`) has
 * the same metric names; test_scene_push and pf-report compare them (the scene itself never sees
 * the reference: it links only the plugin).
 * What you should see: the finger pushes the object along +x; pushed above its centre line
 * (offset > 0) it turns clockwise while it advances, at a rate set by its support's limit
 * surface: the quasi-static reference turns the block by 0.13 rad per 10 mm of travel at 20 mm
 * offset with mu_f = 0.5, and so does patch friction under both steppers (within 0.1 %, dt 0.5 to
 * 5 ms, docs/physics.md §11). With mu_f = 0 the finger slides along the block's face; the disk
 * pushed by a frictionless finger never turns. The viewer's overlay (pu_overlay) marks the
 * finger's contact with its friction cone (cyan dashed lines at +-atan(mu_f) about the normal,
 * drawn back over the finger) and Mason's motion cone (white dashed arrows, the finger velocities
 * for which it sticks, P60), labelled "motion cone: sticks" when the push (+x) lies between its
 * edges: at 20 mm on the block it does for mu_f = 0.5 (edges at +39 and -6 degrees from +x) and
 * not for 0.45 or 0.3 (both edges to the left of +x: the finger slides along the face, towards
 * where it sticks), as in the reference.
 */
#include "pf_scene_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { C_BLOCK, C_DISK };
static const char *const cases[] = {"block", "disk", NULL};
static const char *const keys[] = {"offset",  "mu_f",       "speed",    "mu", "yaw",
                                   "stepper", "iterations", "coupling", NULL};

#define DENSITY 2700.0 /* aluminium [kg/m^3] */
#define BLOCK_A 0.06   /* along the push (body x) [m] */
#define BLOCK_B 0.10   /* across (body y) [m] */
#define HEIGHT 0.03    /* block and disk [m] */
#define DISK_R 0.05    /* [m] */
#define FINGER_R 0.005 /* [m] */
#define FINGER_Z 0.0055
#define DEPTH 2e-5 /* the finger's initial overlap with the object [m] */
#define WIN_FROM 0.1
#define WIN_TO 0.3
#define STICK_TOL 1e-3 /* finger_slip / speed below this: sticking */

typedef struct Push {
    double offset, mu_f, speed, mu, yaw;
    int quick;
    dBodyID obj, finger;
    dGeomID obj_geom, finger_geom, ground;
    double fx0; ///< the finger centre's x at t = 0
    /* window sums */
    long n;
    double ratio_sum, slip_sum;
    long ground_steps, ground_slip;
    /* the overlay's motion cone (cone_at): computed for the contact at body y cone_yb (block; the
     * disk's is the same wherever the finger touches its rim) */
    pfPatchDef support; ///< the object's footprint, as the adapter builds it (uniform)
    int cone_n;         ///< edges (2; 1 for a frictionless finger; 0: not found, none drawn)
    double cone[2][2];  ///< unit edge directions, components along the contact's (n, t)
    double cone_yb;     ///< the block's contact body y the cone is for [m]
} Push;

/* The finger's centre x at t = 0: touching the block's -x face (body frame x = -A/2 - r) or the
 * disk's rim, on the line y = offset, DEPTH deep. */
static double finger_start(const Push *k, int disk)
{
    if (disk) return -sqrt(pow(DISK_R + FINGER_R - DEPTH, 2) - k->offset * k->offset);
    const double c = cos(k->yaw), s = sin(k->yaw);
    /* body x of the world point (X, offset): X c + offset s = -(A/2 + r - DEPTH) */
    return (-(0.5 * BLOCK_A + FINGER_R - DEPTH) - k->offset * s) / c;
}

static void finger_contact(const pfScene *s, const Push *k, double c[2], double n[2]);
static double contact_yb(const Push *k, const double c[2]);
static void cone_at(Push *k, int disk, double yb);

static int pu_build(pfScene *s, pfError *err)
{
    Push *k = calloc(1, sizeof *k);
    if (!k) return pfs_fail(err, PF_ERR_NO_MEMORY, "push: out of memory");
    s->impl = k;
    const int disk = s->case_index == C_DISK;
    k->offset = 0.02;
    k->mu_f = 0.5;
    k->speed = 0.005;
    k->mu = 0.5;
    double yaw_deg = 0.0;
    int rc;
    PD("offset", &k->offset, -0.045, 0, 0.045, 0);
    PD("mu_f", &k->mu_f, 0.0, 0, 10.0, 0);
    PD("speed", &k->speed, 0.0, 1, 1.0, 0);
    PD("mu", &k->mu, 0.0, 1, 10.0, 0);
    PD("yaw", &yaw_deg, -30.0, 0, 30.0, 0);
    k->yaw = yaw_deg * M_PI / 180.0;
    if (!disk) {
        /* the finger's line must meet the -x face inside its width */
        const double yb = k->offset / cos(k->yaw) + (0.5 * BLOCK_A + FINGER_R) * tan(k->yaw);
        if (fabs(yb) > 0.5 * BLOCK_B - FINGER_R)
            return pfs_fail(err, PF_ERR_RANGE,
                            "push: --set offset=%g with yaw=%g: the finger meets the block's face "
                            "%.4g m from its middle (at most %g)",
                            k->offset, yaw_deg, yb, 0.5 * BLOCK_B - FINGER_R);
    }
    if ((rc = pfs_param_stepper(s, "push", &k->quick, err)) != PF_OK) return rc;
    if ((rc = pfs_param_check_unused(s, err)) != PF_OK) return rc;
    s->quick = k->quick;
    if ((rc = pfs_ode_begin(s, err)) != PF_OK) return rc;
    dRandSetSeed(1); /* QuickStep's row order: repeatable runs */

    pfOdeMaterial m = pf_ode_default_material();
    m.mu_s = m.mu_k = k->mu;
    if (s->mode == PF_ODE_MODE_STOCK) m.mode = PF_ODE_MODE_STOCK;
    if (s->mode == PF_ODE_MODE_PADE) m.mode = PF_ODE_MODE_PADE;
    pfError e2;
    if (pf_ode_set_default_material(s->pf, &m, &e2) != PF_OK)
        return pfs_fail(err, e2.status, "push: %s", e2.message);

    k->ground = dCreatePlane(s->space, 0, 0, 1, 0);
    pfs_add_geom(s, k->ground);
    k->obj = dBodyCreate(s->world);
    dMass ms;
    if (disk) {
        dMassSetCylinderTotal(&ms, DENSITY * M_PI * DISK_R * DISK_R * HEIGHT, 3, DISK_R, HEIGHT);
        k->obj_geom = dCreateCylinder(s->space, DISK_R, HEIGHT);
    } else {
        dMassSetBoxTotal(&ms, DENSITY * BLOCK_A * BLOCK_B * HEIGHT, BLOCK_A, BLOCK_B, HEIGHT);
        k->obj_geom = dCreateBox(s->space, BLOCK_A, BLOCK_B, HEIGHT);
    }
    dBodySetMass(k->obj, &ms);
    dBodySetPosition(k->obj, 0, 0, 0.5 * HEIGHT);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, k->yaw);
    dBodySetRotation(k->obj, R);
    dGeomSetBody(k->obj_geom, k->obj);
    pfs_add_geom(s, k->obj_geom);

    k->finger = dBodyCreate(s->world);
    dBodySetKinematic(k->finger);
    k->fx0 = finger_start(k, disk);
    dBodySetPosition(k->finger, k->fx0, k->offset, FINGER_Z);
    dBodySetLinearVel(k->finger, k->speed, 0, 0);
    k->finger_geom = dCreateSphere(s->space, FINGER_R);
    dGeomSetBody(k->finger_geom, k->finger);
    pfs_add_geom(s, k->finger_geom);
    pfOdeMaterial fm = pf_ode_default_material();
    fm.mu_s = fm.mu_k = k->mu_f;
    fm.mode = PF_ODE_MODE_STOCK;
    if (pf_ode_set_pair_material(s->pf, k->finger_geom, k->obj_geom, &fm, &e2) != PF_OK)
        return pfs_fail(err, e2.status, "push: finger material: %s", e2.message);
    /* the overlay's motion cone (pu_overlay): the footprint the adapter builds, uniform */
    k->support = pf_default_patch_def();
    if (disk) {
        k->support.shape = PF_PATCH_DISK;
        k->support.radius = DISK_R;
    } else {
        k->support.shape = PF_PATCH_RECT;
        k->support.length = BLOCK_A;
        k->support.width = BLOCK_B;
    }
    double c[2], n[2];
    finger_contact(s, k, c, n);
    cone_at(k, disk, disk ? 0.0 : contact_yb(k, c));
    s->default_duration = WIN_TO;
    return PF_OK;
}

static void pu_free(pfScene *s)
{
    free(s->impl);
}

/* Contact point c (world, in the horizontal plane of G) and the unit normal n into the object:
 * the block's -x face at the finger's body y, or the disk's rim towards the finger. */
static void finger_contact(const pfScene *s, const Push *k, double c[2], double n[2])
{
    const dReal *g = dBodyGetPosition(k->obj), *f = dBodyGetPosition(k->finger);
    const double dx = f[0] - g[0], dy = f[1] - g[1];
    if (s->case_index == C_DISK) {
        const double d = hypot(dx, dy);
        n[0] = -dx / d;
        n[1] = -dy / d;
        c[0] = g[0] - DISK_R * n[0];
        c[1] = g[1] - DISK_R * n[1];
        return;
    }
    const dReal *R = dBodyGetRotation(k->obj);
    const double ex[2] = {R[0], R[4]}, ey[2] = {R[1], R[5]}; /* body x, y in the world */
    const double yb = dx * ey[0] + dy * ey[1];
    n[0] = ex[0];
    n[1] = ex[1];
    c[0] = g[0] - 0.5 * BLOCK_A * ex[0] + yb * ey[0];
    c[1] = g[1] - 0.5 * BLOCK_A * ex[1] + yb * ey[1];
}

/* The finger's velocity relative to the object's material point at the contact, along the
 * contact's horizontal tangent [m/s]. */
static double finger_slip(const pfScene *s, const Push *k)
{
    double c[2], n[2];
    finger_contact(s, k, c, n);
    const dReal *g = dBodyGetPosition(k->obj), *v = dBodyGetLinearVel(k->obj);
    const double w = dBodyGetAngularVel(k->obj)[2];
    const double vc[2] = {v[0] - w * (c[1] - g[1]), v[1] + w * (c[0] - g[0])};
    const double rel[2] = {k->speed - vc[0], -vc[1]};
    return -rel[0] * n[1] + rel[1] * n[0];
}

/* ---- overlay: the finger's friction cone and Mason's motion cone ------------------------- */

#define CONE_ITER 64        /* golden-section steps per coordinate (interval x 0.618^64 ~ 4e-14) */
#define CONE_ANGLE_TOL 1e-4 /* [rad] the found twist's friction against the balancing wrench */
#define CONE_REFRESH 5e-4   /* [m] the block's contact moved along its face: recompute */
#define FRICTION_LEN 0.06   /* [m] drawn length of the friction cone's edges */
#define MOTION_LEN 0.12     /* [m] drawn length of the motion cone's edges */

/* The support's dissipation D (pf_patch_dissipation, per unit mu N) at the twist x0 + a e1 + b e2,
 * twists scaled as (vx, vy, rho w). */
typedef struct ConeSearch {
    const pfPatchDef *def;
    double rho, x0[3], e1[3], e2[3];
} ConeSearch;

static double cone_d(const ConeSearch *cs, double a, double b)
{
    double x[3], d;
    for (int j = 0; j < 3; ++j)
        x[j] = cs->x0[j] + a * cs->e1[j] + b * cs->e2[j];
    const pfTwist t = {x[0], x[1], x[2] / cs->rho};
    return pf_patch_dissipation(cs->def, 1.0, 1.0, t, &d, NULL) == PF_OK ? d : NAN;
}

/* Golden-section minimum over b in [-B, B] of cone_d(a, b) (convex in b); *at = the minimiser. */
static double cone_min_b(const ConeSearch *cs, double a, double B, double *at)
{
    const double r = 0.5 * (sqrt(5.0) - 1.0);
    double lo = -B, hi = B, x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
    double f1 = cone_d(cs, a, x1), f2 = cone_d(cs, a, x2);
    for (int i = 0; i < CONE_ITER; ++i) {
        if (f1 <= f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - r * (hi - lo), f1 = cone_d(cs, a, x1);
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + r * (hi - lo), f2 = cone_d(cs, a, x2);
        }
    }
    *at = 0.5 * (lo + hi);
    return cone_d(cs, a, *at);
}

/* One edge of Mason's motion cone (docs/physics.md P59, P60): the unit velocity u of the object's
 * material point at the contact c (body frame, from G) under the twist whose support friction
 * balances the finger force f through c. The support's friction W(xi) = -grad D(xi) (D the
 * dissipation, convex and of degree 1), so the twist balancing g = (f, c x f) is the minimiser of
 * D on the plane g . xi = 1, where grad D is parallel to g. D is minimised by nested golden
 * sections over that plane (convex, so unimodal along every line and its partial minimum too) in
 * twists scaled by rho = D of a unit spin (the mean |r| of the footprint), in a box of half-size
 * 2 D(xi0) about xi0 = g/|g|^2: for a footprint symmetric about G, D >= max(|v|, rho |w|) >=
 * |xi|/sqrt(2), so the minimiser lies inside. The result is checked with pf_patch_friction: -W
 * within CONE_ANGLE_TOL of g. Returns 0, or -1 (nothing found: no edge drawn). */
static int cone_edge(const pfPatchDef *def, const double c[2], const double f[2], double u[2])
{
    ConeSearch cs = {def, 0.0, {0}, {0}, {0}};
    const pfTwist spin = {0.0, 0.0, 1.0};
    if (pf_patch_dissipation(def, 1.0, 1.0, spin, &cs.rho, NULL) != PF_OK || !(cs.rho > 0.0))
        return -1;
    const double g[3] = {f[0], f[1], (c[0] * f[1] - c[1] * f[0]) / cs.rho};
    const double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    if (!(gn > 0.0) || !isfinite(gn)) return -1;
    double e0[3], *e1 = cs.e1, *e2 = cs.e2;
    for (int j = 0; j < 3; ++j)
        e0[j] = g[j] / gn, cs.x0[j] = g[j] / (gn * gn);
    /* e1: the axis least along e0, made orthogonal to it; e2 = e0 x e1 */
    int m = 0;
    for (int j = 1; j < 3; ++j)
        if (fabs(e0[j]) < fabs(e0[m])) m = j;
    for (int j = 0; j < 3; ++j)
        e1[j] = (j == m) - e0[m] * e0[j];
    const double n1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int j = 0; j < 3; ++j)
        e1[j] /= n1;
    e2[0] = e0[1] * e1[2] - e0[2] * e1[1];
    e2[1] = e0[2] * e1[0] - e0[0] * e1[2];
    e2[2] = e0[0] * e1[1] - e0[1] * e1[0];
    const double B = 2.0 * cone_d(&cs, 0.0, 0.0);
    if (!(B > 0.0) || !isfinite(B)) return -1;
    /* outer golden section over a of the inner minimum over b */
    const double r = 0.5 * (sqrt(5.0) - 1.0);
    double lo = -B, hi = B, a1 = hi - r * (hi - lo), a2 = lo + r * (hi - lo), b;
    double f1 = cone_min_b(&cs, a1, B, &b), f2 = cone_min_b(&cs, a2, B, &b);
    for (int i = 0; i < CONE_ITER; ++i) {
        if (f1 <= f2) {
            hi = a2, a2 = a1, f2 = f1;
            a1 = hi - r * (hi - lo), f1 = cone_min_b(&cs, a1, B, &b);
        } else {
            lo = a1, a1 = a2, f1 = f2;
            a2 = lo + r * (hi - lo), f2 = cone_min_b(&cs, a2, B, &b);
        }
    }
    const double a = 0.5 * (lo + hi);
    cone_min_b(&cs, a, B, &b);
    if (fabs(a) > 0.99 * B || fabs(b) > 0.99 * B) return -1; /* on the box: not the minimum */
    double x[3];
    for (int j = 0; j < 3; ++j)
        x[j] = cs.x0[j] + a * e1[j] + b * e2[j];
    const pfTwist xi = {x[0], x[1], x[2] / cs.rho}, none = {0.0, 0.0, 0.0};
    pfWrench w;
    if (pf_patch_friction(def, 1.0, 1.0, xi, none, &w, NULL) != PF_OK) return -1;
    const double h[3] = {-w.fx, -w.fy, -w.mz / cs.rho};
    const double hn = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    const double cr[3] = {h[1] * g[2] - h[2] * g[1], h[2] * g[0] - h[0] * g[2],
                          h[0] * g[1] - h[1] * g[0]};
    const double sn = sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]) / (hn * gn);
    if (!(sn < CONE_ANGLE_TOL) || !(h[0] * g[0] + h[1] * g[1] + h[2] * g[2] > 0.0)) return -1;
    /* the contact point's velocity v + w z x c */
    const double uc[2] = {xi.vx - xi.w * c[1], xi.vy + xi.w * c[0]}, un = hypot(uc[0], uc[1]);
    if (!(un > 0.0) || !isfinite(un)) return -1;
    u[0] = uc[0] / un, u[1] = uc[1] / un;
    return 0;
}

/* The motion cone for the block's contact at body y yb (the disk's is the same wherever the
 * finger touches its rim: computed at (-R, 0)), in the contact's (n, t) components: the contact's
 * normal n into the object is body x there, t = z x n body y. Edge i uses the friction cone's
 * edge f = n + s mu_f t, s = +1 then -1; one edge (f = n) for a frictionless finger. */
static void cone_at(Push *k, int disk, double yb)
{
    const double c[2] = {disk ? -DISK_R : -0.5 * BLOCK_A, disk ? 0.0 : yb};
    const int ne = k->mu_f > 0.0 ? 2 : 1;
    k->cone_yb = yb;
    k->cone_n = 0;
    for (int i = 0; i < ne; ++i) {
        const double f[2] = {1.0, (i ? -1.0 : 1.0) * k->mu_f};
        if (cone_edge(&k->support, c, f, k->cone[i]) != 0) return;
    }
    k->cone_n = ne;
}

/* The block's contact body y of the current finger position. */
static double contact_yb(const Push *k, const double c[2])
{
    const dReal *g = dBodyGetPosition(k->obj), *R = dBodyGetRotation(k->obj);
    return (c[0] - g[0]) * R[1] + (c[1] - g[1]) * R[5];
}

static void overlay_segment(pfSceneOverlay *o, pfSceneOverlayKind kind, const double c[2],
                            const double d[2], double len, const float rgb[3])
{
    o->kind = kind;
    o->p[0] = c[0], o->p[1] = c[1], o->p[2] = FINGER_Z;
    o->q[0] = c[0] + len * d[0], o->q[1] = c[1] + len * d[1], o->q[2] = FINGER_Z;
    memcpy(o->rgb, rgb, sizeof o->rgb);
    o->dashed = 1;
}

/* Overlay, at the finger's contact c on the object (at the finger centre's height): the finger's
 * friction cone, the lines of action n +- mu_f t of the forces it can press on with (half angle
 * atan(mu_f); a single line along n for a frictionless finger; cyan, dashed), drawn from c back
 * over the finger so that they do not hide the motion cone, and Mason's motion cone (white
 * dashed arrows from c): the finger velocities for which it sticks (docs/physics.md §11, P60),
 * computed from the support's limit surface through the plugin's pf_patch_dissipation /
 * pf_patch_friction (cone_edge) once for a contact point and again only when the block's contact
 * has slid CONE_REFRESH along its face. The label says whether the finger's velocity (+x) lies in
 * the motion cone: "sticks" or "slides" in the quasi-static prediction. Nothing is drawn of the
 * motion cone if its search failed. */
static int pu_overlay(const pfScene *s, pfSceneOverlay *out, int max)
{
    Push *k = s->impl; /* the cone is a cache, refreshed as the contact moves */
    const int disk = s->case_index == C_DISK;
    const float fric[3] = {0.45f, 0.9f, 1.0f}, pred[3] = {1.0f, 1.0f, 1.0f};
    double c[2], n[2];
    finger_contact(s, k, c, n);
    if (!isfinite(c[0]) || !isfinite(c[1]) || !isfinite(n[0]) || !isfinite(n[1])) return 0;
    const double t[2] = {-n[1], n[0]};
    if (!disk) {
        const double yb = contact_yb(k, c);
        if (fabs(yb - k->cone_yb) > CONE_REFRESH) cone_at(k, disk, yb);
    }
    int cnt = 0;
    const int nf = k->mu_f > 0.0 ? 2 : 1;
    const double h = 1.0 / hypot(1.0, k->mu_f);
    for (int i = 0; i < nf && cnt < max; ++i) {
        const double sg = (i ? -1.0 : 1.0) * k->mu_f;
        const double d[2] = {h * (n[0] + sg * t[0]), h * (n[1] + sg * t[1])};
        overlay_segment(&out[cnt], PF_SCENE_OVERLAY_LINE, c, d, -FRICTION_LEN, fric);
        if (i == 0) snprintf(out[cnt].label, sizeof out[0].label, "friction cone");
        cnt++;
    }
    /* the finger's velocity (+x) inside the motion cone: between its edges (or along the one) */
    double d[2][2] = {{0}};
    for (int i = 0; i < k->cone_n && cnt < max; ++i) {
        const double *e = k->cone[i];
        d[i][0] = e[0] * n[0] + e[1] * t[0];
        d[i][1] = e[0] * n[1] + e[1] * t[1];
        overlay_segment(&out[cnt++], PF_SCENE_OVERLAY_ARROW, c, d[i], MOTION_LEN, pred);
    }
    if (k->cone_n > 0 && cnt > 0) {
        /* +x between the edges: on opposite sides of it ((d x x).z = -d_y), their sum forward */
        const int sticks = k->cone_n == 2 && d[0][1] * d[1][1] < 0.0 && d[0][0] + d[1][0] > 0.0;
        snprintf(out[cnt - 1].label, sizeof out[0].label, "motion cone: %s",
                 sticks ? "sticks" : "slides");
    }
    return cnt;
}

static int pu_step(pfScene *s, double dt, pfError *err)
{
    Push *k = s->impl;
    /* kinematic: ODE moves it at its velocity; set both each step so it stays on its line */
    dBodySetPosition(k->finger, k->fx0 + k->speed * s->t, k->offset, FINGER_Z);
    dBodySetLinearVel(k->finger, k->speed, 0, 0);
    int rc = pfs_ode_step(s, dt, err);
    if (rc != PF_OK) return rc;
    s->t += dt;
    s->steps++;
    if (s->t < WIN_FROM - 0.5 * dt || s->t > WIN_TO + 0.5 * dt) return PF_OK;
    const dReal *v = dBodyGetLinearVel(k->obj);
    const double vg = hypot(v[0], v[1]);
    if (vg > 0.0) k->ratio_sum += dBodyGetAngularVel(k->obj)[2] / vg;
    k->slip_sum += fabs(finger_slip(s, k));
    k->n++;
    pfOdePatchInfo pi;
    if (s->mode != PF_ODE_MODE_STOCK &&
        pf_ode_find_patch(s->pf, k->obj_geom, k->ground, &pi) == PF_OK) {
        k->ground_steps++;
        if (pi.state == PF_ODE_STATE_SLIP) k->ground_slip++;
    }
    return PF_OK;
}

static double yaw_of(const Push *k)
{
    const dReal *R = dBodyGetRotation(k->obj);
    return atan2(R[4], R[0]);
}

static const char *const columns[] = {"t", "x", "y", "yaw", "vx", "vy", "wz", "finger_slip"};

static int pu_header(const char *const **names)
{
    *names = columns;
    return (int)(sizeof columns / sizeof *columns);
}

static int pu_row(const pfScene *s, double *row, int max)
{
    const Push *k = s->impl;
    const dReal *p = dBodyGetPosition(k->obj), *v = dBodyGetLinearVel(k->obj);
    const double r[8] = {
        s->t, p[0], p[1], yaw_of(k), v[0], v[1], dBodyGetAngularVel(k->obj)[2], finger_slip(s, k)};
    int n = 8 < max ? 8 : max;
    memcpy(row, r, (size_t)n * sizeof *row);
    return n;
}

static int pu_metrics(const pfScene *s, pfSceneMetric *out, int max)
{
    const Push *k = s->impl;
    const dReal *p = dBodyGetPosition(k->obj);
    const double slip = k->n ? k->slip_sum / (double)k->n : NAN;
    const pfOdeCounters c = pf_ode_get_counters(s->pf);
    const pfSceneMetric m[] = {
        {"ratio", k->n ? k->ratio_sum / (double)k->n : NAN},
        {"finger_slip", slip},
        {"finger_slip_ratio", slip / k->speed},
        {"finger_sticking", isfinite(slip) ? (double)(slip / k->speed < STICK_TOL) : NAN},
        {"x", p[0]},
        {"y", p[1]},
        {"yaw", yaw_of(k)},
        {"ground_slip_fraction",
         k->ground_steps ? (double)k->ground_slip / (double)k->ground_steps : 0.0},
        {"window_from", WIN_FROM},
        {"window_to", WIN_TO},
        {"stick_steps", (double)c.stick_steps},
        {"slip_steps", (double)c.slip_steps},
        {"point_fallbacks", (double)c.point_fallbacks},
        {"stock_lagged", (double)c.stock_lagged},
        {"breakaways", (double)c.breakaways},
        {"ode_messages", (double)(s->lcp_messages + s->ode_messages)},
    };
    return pfs_metrics_copy(m, (int)(sizeof m / sizeof m[0]), out, max);
}

static int pu_state(const pfScene *s, char *buf, int size)
{
    const Push *k = s->impl;
    const dReal *v = dBodyGetLinearVel(k->obj);
    const double vg = hypot(v[0], v[1]), w = dBodyGetAngularVel(k->obj)[2];
    const double slip = finger_slip(s, k);
    return snprintf(buf, (size_t)size,
                    "t=%.3f s  %s  |v|=%.5f m/s  w=%.5f rad/s  w/|v|=%.3f rad/m  finger %s "
                    "(slip %.2g m/s)",
                    s->t, k->quick ? "QuickStep" : "dWorldStep", vg, w, vg > 0 ? w / vg : 0.0,
                    fabs(slip) < STICK_TOL * k->speed ? "sticks" : "slides", slip);
}

static double pu_dt(const pfScene *s)
{
    (void)s;
    return 1e-3;
}

const pfSceneClass pf_scene_class_push = {
    {"push", "a kinematic finger pushes a block or a disk at an offset (quasi-static pushing)",
     cases, keys},
    pu_dt,
    pu_build,
    pu_free,
    pu_step,
    pu_header,
    pu_row,
    pu_metrics,
    pu_state,
    pu_overlay,
};
