/* ODE adapter: collision of a geom pair, normal-only contact joints and the patch geometry.
 *
 * One patch per geom pair per step. The contact points become normal-only contact joints
 * (mu = 0 gives ODE's single normal row, contact.cpp getInfo1), so ODE supports the body where
 * the geometry touches; the patch (shape, centre, frame) is inferred here from the geometry, and
 * the friction joint at its centre is created in pf_ode_before_step. */
#include "pf_ode_internal.h"
#include "pf_ode_model.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A face counts as flat on the contact plane when its normal is within ~1.8 degrees of it. */
#define PF_ODE_FACE_COS 0.9995
/* Contact hull must cover this fraction of a box face to take the whole face as the patch. */
#define PF_ODE_FACE_COVER 0.95
/* Degenerate polygon: area below this fraction of the squared extent (an edge). */
#define PF_ODE_DEGENERATE_AREA 1e-6
/* Fraction of drift_gain used by the tilt anchor (below). At 1 the normal rows restore the tilt
 * in one step and, under QuickStep, the held friction force jitters by 1e-5 relative (the api
 * test's 1e-6 N on 0.2 N fails); 0.5 keeps it exact and still removes the tilt drift (creep at
 * QuickStep dt = 5e-3: 7.5e-10 -> 4.6e-11 m). */
#define PF_ODE_TILT_GAIN 0.5
/* Approach speed each normal row of a patch may take under dWorldStep, over stick_velocity_tol,
 * before the row's own factor (normal_row_dither): 1e-12 m/s at the default tolerance. It keeps
 * ODE's Dantzig solver off its zero steps (docs/architecture.md, "Dantzig's zero steps"). */
#define PF_ODE_NORMAL_DITHER 1e-8

static void normalize(double *v)
{
    double l = sqrt(pf_ode_dot(v, v));
    if (l > 0.0) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

/* Andrew's monotone chain on 2D points; writes the CCW hull to out (n <= PF_ODE_MAX_CONTACTS).
 * Returns the hull vertex count. */
static int convex_hull(double (*pts)[2], int n, double *out)
{
    /* insertion sort by x then y (n is tiny) */
    for (int i = 1; i < n; ++i) {
        double px = pts[i][0], py = pts[i][1];
        int j = i - 1;
        while (j >= 0 && (pts[j][0] > px || (pts[j][0] == px && pts[j][1] > py))) {
            pts[j + 1][0] = pts[j][0];
            pts[j + 1][1] = pts[j][1];
            --j;
        }
        pts[j + 1][0] = px;
        pts[j + 1][1] = py;
    }
    double h[2 * PF_ODE_MAX_CONTACTS + 2][2];
    int k = 0;
    for (int i = 0; i < n; ++i) {
        while (k >= 2 && (h[k - 1][0] - h[k - 2][0]) * (pts[i][1] - h[k - 2][1]) -
                                 (h[k - 1][1] - h[k - 2][1]) * (pts[i][0] - h[k - 2][0]) <=
                             0.0)
            --k;
        h[k][0] = pts[i][0];
        h[k][1] = pts[i][1];
        ++k;
    }
    for (int i = n - 2, lo = k + 1; i >= 0; --i) {
        while (k >= lo && (h[k - 1][0] - h[k - 2][0]) * (pts[i][1] - h[k - 2][1]) -
                                  (h[k - 1][1] - h[k - 2][1]) * (pts[i][0] - h[k - 2][0]) <=
                              0.0)
            --k;
        h[k][0] = pts[i][0];
        h[k][1] = pts[i][1];
        ++k;
    }
    int m = k > 1 ? k - 1 : k;
    for (int i = 0; i < m; ++i) {
        out[2 * i] = h[i][0];
        out[2 * i + 1] = h[i][1];
    }
    return m;
}

static double polygon_area_centroid(const double *xy, int n, double *cx, double *cy)
{
    double a = 0.0, sx = 0.0, sy = 0.0;
    for (int i = 0; i < n; ++i) {
        int j = (i + 1) % n;
        double cr = xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
        a += cr;
        sx += (xy[2 * i] + xy[2 * j]) * cr;
        sy += (xy[2 * i + 1] + xy[2 * j + 1]) * cr;
    }
    a *= 0.5;
    if (fabs(a) > 0.0) {
        *cx = sx / (6.0 * a);
        *cy = sy / (6.0 * a);
    }
    return a;
}

/* Projected contact hull in the frame (x, y) about origin o. Returns its area and vertex count. */
static double contact_hull(const pfOdePair *p, const double *o, const double *x, const double *y,
                           double *xy, int *nv)
{
    double pts[PF_ODE_MAX_CONTACTS][2];
    for (int i = 0; i < p->step.ncontacts; ++i) {
        double d[3] = {p->step.contacts[i].pos[0] - o[0], p->step.contacts[i].pos[1] - o[1],
                       p->step.contacts[i].pos[2] - o[2]};
        pts[i][0] = pf_ode_dot(d, x);
        pts[i][1] = pf_ode_dot(d, y);
    }
    *nv = p->step.ncontacts >= 3 ? convex_hull(pts, p->step.ncontacts, xy) : 0;
    if (*nv < 3) return 0.0;
    double cx = 0, cy = 0;
    return polygon_area_centroid(xy, *nv, &cx, &cy);
}

static void frame_from_normal(pfOdePair *p)
{
    dVector3 nn = {p->step.n[0], p->step.n[1], p->step.n[2], 0}, a, b;
    dPlaneSpace(nn, a, b);
    for (int k = 0; k < 3; ++k) {
        p->step.x[k] = a[k];
        p->step.y[k] = b[k];
    }
}

static void project_to_plane(const double *pt, const double *o, const double *n, double *out)
{
    double d[3] = {pt[0] - o[0], pt[1] - o[1], pt[2] - o[2]};
    double s = pf_ode_dot(d, n);
    for (int k = 0; k < 3; ++k)
        out[k] = pt[k] - s * n[k];
}

/* A box face flat on the contact plane (its normal within PF_ODE_FACE_COS of n). side: +1 when
 * the box is body 1 (its touching face looks along -n), -1 when it is body 2. Writes the face
 * centre (world), its half extents and in-plane axes (long side first). 0 if no face is flat. */
typedef struct boxface {
    double c[3];       /* face centre, world */
    double nf[3];      /* its outward normal, world */
    double u[3], v[3]; /* in-plane unit axes (u along the longer side), projected on the plane */
    double hu, hv;     /* half lengths along u, v [m] */
} boxface;

static int flat_box_face(const pfOdePair *p, dGeomID g, double side, boxface *f)
{
    if (!g || dGeomGetClass(g) != dBoxClass) return 0;
    dVector3 len;
    dGeomBoxGetLengths(g, len);
    const dReal *R = dGeomGetRotation(g);
    const dReal *pos = dGeomGetPosition(g);
    int k = 0;
    double best = 0.0;
    for (int i = 0; i < 3; ++i) {
        double a =
            fabs(R[0 + i] * p->step.n[0] + R[4 + i] * p->step.n[1] + R[8 + i] * p->step.n[2]);
        if (a > best) {
            best = a;
            k = i;
        }
    }
    if (best < PF_ODE_FACE_COS) return 0;
    double ak[3] = {R[0 + k], R[4 + k], R[8 + k]};
    double sgn = pf_ode_dot(ak, p->step.n) > 0 ? 1.0 : -1.0;
    for (int j = 0; j < 3; ++j) {
        f->c[j] = pos[j] - side * sgn * 0.5 * len[k] * ak[j];
        f->nf[j] = -side * sgn * ak[j];
    }
    int i1 = (k + 1) % 3, i2 = (k + 2) % 3;
    if (len[i2] > len[i1]) {
        int t = i1;
        i1 = i2;
        i2 = t;
    }
    double e1[3] = {R[0 + i1], R[4 + i1], R[8 + i1]};
    double s1 = pf_ode_dot(e1, p->step.n);
    for (int j = 0; j < 3; ++j)
        f->u[j] = e1[j] - s1 * p->step.n[j];
    normalize(f->u);
    pf_ode_cross(p->step.n, f->u, f->v);
    f->hu = 0.5 * len[i1];
    f->hv = 0.5 * len[i2];
    return 1;
}

/* The face f, centred at c (its centre projected on the contact plane), as the pair's patch.
 * Called by try_box only, where p->step.def still holds the defaults pf_ode_build_patch set. */
static int rect_patch(pfOdePair *p, const double *c, const boxface *f)
{
    memcpy(p->step.c, c, sizeof p->step.c);
    memcpy(p->step.x, f->u, sizeof p->step.x);
    memcpy(p->step.y, f->v, sizeof p->step.y);
    p->step.def.shape = PF_PATCH_RECT;
    p->step.def.length = 2.0 * f->hu;
    p->step.def.width = 2.0 * f->hv;
    p->step.kind = PF_ODE_KIND_PATCH;
    return 1;
}

/* Clip the convex CCW polygon poly (n vertices, 2-D) by the half plane a x + b y <= d
 * (Sutherland-Hodgman); returns the new count (<= n + 1). */
static int clip_half_plane(double *poly, int n, double a, double b, double d)
{
    double out[2 * 2 * PF_ODE_MAX_CONTACTS];
    int m = 0;
    for (int i = 0; i < n; ++i) {
        const double *P = poly + 2 * i, *Q = poly + 2 * ((i + 1) % n);
        double sp = a * P[0] + b * P[1] - d, sq = a * Q[0] + b * Q[1] - d;
        if (sp <= 0.0) {
            out[2 * m] = P[0];
            out[2 * m + 1] = P[1];
            ++m;
        }
        if ((sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0)) {
            double t = sp / (sp - sq);
            out[2 * m] = P[0] + t * (Q[0] - P[0]);
            out[2 * m + 1] = P[1] + t * (Q[1] - P[1]);
            ++m;
        }
    }
    memcpy(poly, out, sizeof(double) * 2 * (size_t)m);
    return m;
}

/* A patch vertex closer than this fraction of the patch's extent to one of ODE's contact points
 * (in the contact plane) is taken as supported by it (face_contacts). */
#define PF_ODE_VERTEX_COVER 0.01

/* Where the line P + t n meets the plane through fc with normal nf: t. */
static double plane_along(const double *P, const double *n, const double *fc, const double *nf)
{
    double d[3] = {fc[0] - P[0], fc[1] - P[1], fc[2] - P[2]};
    return pf_ode_dot(d, nf) / pf_ode_dot(n, nf);
}

/* The support of a face resting on a face: ODE's contact points, and one more contact at each
 * vertex (x, y about P0 along ax, ay) of the patch polygon that none of them covers, on body 1's
 * face (through c1, outward normal nf1), with depth the two faces' signed penetration along n
 * (body 2's face through c2, nf2): negative where they are apart.
 * Why: ODE returns a contact only where the faces already interpenetrate (and for faces turned
 * against each other by a few degrees its set flickers with micro-radians of tilt: 8, 3, 1
 * points), so an edge that comes down in a rocking stack first sinks in and is then pushed out
 * by the ERP correction (ERP depth / dt): a bounce. The bounces kept a tower of boxes placed
 * with small offsets rocking for good (with ERP = 0 it came to rest). A vertex that is apart
 * gets a row that lets it approach by its gap within the step (pf_ode_normal_contacts), so it
 * lands without sinking in. all = 0 adds only those: a vertex that interpenetrates and that ODE
 * left out (its box-box points flicker at 5 ms) is a row coplanar with ODE's, and Debian's
 * Dantzig gives up on such sets now and then ("LCP internal error", every force of the step
 * zero: a resting two-box stack got one, the offset tower four and 1 mm of creep at 5 ms); with
 * patches/0004 (ODE_EXT_lcp_zero_step) it takes them, and the tower rests to 1e-12 m at 5 ms
 * instead of 7e-7 m. */
/* Keeps the face support of this step's patch for the next (pf_ode_carry_support): the polygon's
 * vertices and centre on body 1's face and the patch axis in body 1's frame, body 2's face plane
 * in body 2's frame (the world's if body 2 is static), and the patch. */
static void record_support(pfOdePair *p, const double *P0, const double *ax, const double *ay,
                           const double *xy, int nv, const double *c1, const double *nf1,
                           const double *c2, const double *nf2)
{
    pfOdePairPersist *s = &p->persist;
    const double *n = p->step.n;
    dBodyID b1 = p->step.b1, b2 = p->step.b2;
    if (!b1 || nv < 3 || nv > PF_ODE_MAX_CONTACTS) return;
    for (int i = 0; i < nv; ++i) {
        double P[3];
        for (int k = 0; k < 3; ++k)
            P[k] = P0[k] + xy[2 * i] * ax[k] + xy[2 * i + 1] * ay[k];
        const double t1 = plane_along(P, n, c1, nf1);
        dVector3 l;
        dBodyGetPosRelPoint(b1, P[0] + t1 * n[0], P[1] + t1 * n[1], P[2] + t1 * n[2], l);
        pf_ode_to3(l, s->support_v1[i]);
    }
    const double t0 = plane_along(P0, n, c1, nf1);
    dVector3 l;
    dBodyGetPosRelPoint(b1, P0[0] + t0 * n[0], P0[1] + t0 * n[1], P0[2] + t0 * n[2], l);
    pf_ode_to3(l, s->support_c1);
    pf_ode_to_body_vec(b1, ax, s->support_x1);
    if (b2) {
        dBodyGetPosRelPoint(b2, c2[0], c2[1], c2[2], l);
        pf_ode_to3(l, s->support_c2);
        pf_ode_to_body_vec(b2, nf2, s->support_n2);
    } else {
        memcpy(s->support_c2, c2, sizeof s->support_c2);
        memcpy(s->support_n2, nf2, sizeof s->support_n2);
    }
    pf_ode_def_copy(&s->support_def, &p->step.def);
    s->support_nv = nv;
    s->has_support = 1;
}

static void face_contacts(pfOdePair *p, int all, const double *P0, const double *ax,
                          const double *ay, const double *xy, int nv, const double *c1,
                          const double *nf1, const double *c2, const double *nf2)
{
    const double *n = p->step.n;
    if (fabs(pf_ode_dot(n, nf1)) < PF_ODE_FACE_COS || fabs(pf_ode_dot(n, nf2)) < PF_ODE_FACE_COS)
        return;
    record_support(p, P0, ax, ay, xy, nv, c1, nf1, c2, nf2);
    /* a vertex is covered by a contact of ODE's within this distance in the contact plane */
    double ext2 = 0.0;
    for (int i = 0; i < nv; ++i)
        ext2 = fmax(ext2, xy[2 * i] * xy[2 * i] + xy[2 * i + 1] * xy[2 * i + 1]);
    const double cover = PF_ODE_VERTEX_COVER * sqrt(ext2);
    const int n_ode = p->step.ncontacts; /* ODE's own points */
    const dContactGeom proto = p->step.contacts[0];
    for (int i = 0; i < nv && p->step.ncontacts < PF_ODE_MAX_CONTACTS; ++i) {
        double P[3];
        for (int k = 0; k < 3; ++k)
            P[k] = P0[k] + xy[2 * i] * ax[k] + xy[2 * i + 1] * ay[k];
        int covered = 0;
        for (int j = 0; j < n_ode && !covered; ++j) {
            double d[3] = {p->step.contacts[j].pos[0] - P[0], p->step.contacts[j].pos[1] - P[1],
                           p->step.contacts[j].pos[2] - P[2]};
            double t = pf_ode_dot(d, n);
            covered = pf_ode_dot(d, d) - t * t <= cover * cover;
        }
        if (covered) continue;
        double t1 = plane_along(P, n, c1, nf1), t2 = plane_along(P, n, c2, nf2);
        if (!all && !(t2 - t1 < 0.0)) continue;
        dContactGeom g = proto;
        for (int k = 0; k < 3; ++k) {
            g.pos[k] = P[k] + t1 * n[k];
            g.normal[k] = n[k];
        }
        g.depth = t2 - t1; /* body 1 lies on the +n side */
        p->step.contacts[p->step.ncontacts++] = g;
    }
}

/* The rectangle patch's corners as a polygon about its centre (x, y along its axes). */
static void rect_corners(const pfOdePair *p, double *xy)
{
    const double hx = 0.5 * p->step.def.length, hy = 0.5 * p->step.def.width;
    const double v[8] = {-hx, -hy, hx, -hy, hx, hy, -hx, hy};
    memcpy(xy, v, sizeof v);
}

/* face_contacts for a box face f (this geom's, body 1 when side > 0) on a box face o. */
static void box_face_contacts(pfOdePair *p, int all, double side, const boxface *f,
                              const boxface *o, const double *xy, int nv)
{
    if (side > 0)
        face_contacts(p, all, p->step.c, p->step.x, p->step.y, xy, nv, f->c, f->nf, o->c, o->nf);
    else
        face_contacts(p, all, p->step.c, p->step.x, p->step.y, xy, nv, o->c, o->nf, f->c, f->nf);
}

/* Patch of a box face lying flat on the other geom (why: the contact points ODE returns for a
 * resting face vary from step to step, 2 to 8, as the solver rocks the box by micro-radians;
 * a patch taken from their hull would flip between a rectangle, a polygon and a point and lose
 * its stick anchor). The patch is the face's overlap with what it rests on, from the geometry:
 *  - on a plane: the whole face (a rectangle);
 *  - on a box face flat the other way: the two rectangles intersected in the contact plane (the
 *    smaller face whole is a rectangle; a partial overlap, as in a pyramid, is a polygon).
 * The contact points must lie in the face (within 5 % of its smaller side, along n), so a box
 * that merely has a face parallel to the plane while touching by an edge is not taken. */
static int try_box(pfOdePair *p, dGeomID g, dGeomID other, double side, const double *c0, int all)
{
    boxface f;
    if (!flat_box_face(p, g, side, &f)) return 0;
    double tol = 0.05 * 2.0 * fmin(f.hu, f.hv);
    for (int i = 0; i < p->step.ncontacts; ++i) {
        double d[3] = {p->step.contacts[i].pos[0] - f.c[0], p->step.contacts[i].pos[1] - f.c[1],
                       p->step.contacts[i].pos[2] - f.c[2]};
        if (fabs(pf_ode_dot(d, p->step.n)) > tol) return 0;
        if (fabs(pf_ode_dot(d, f.u)) > f.hu + tol || fabs(pf_ode_dot(d, f.v)) > f.hv + tol)
            return 0;
    }
    double c[3];
    project_to_plane(f.c, c0, p->step.n, c);
    int ocls = other ? dGeomGetClass(other) : -1;
    boxface o;
    if (ocls == dPlaneClass) {
        /* whole face, supported at its corners */
        dVector4 pl;
        dGeomPlaneGetParams(other, pl);
        double pn[3] = {pl[0], pl[1], pl[2]}, pc[3] = {pl[3] * pl[0], pl[3] * pl[1], pl[3] * pl[2]};
        rect_patch(p, c, &f);
        double xy[8];
        rect_corners(p, xy);
        if (side > 0)
            face_contacts(p, all, p->step.c, p->step.x, p->step.y, xy, 4, f.c, f.nf, pc, pn);
        else
            face_contacts(p, all, p->step.c, p->step.x, p->step.y, xy, 4, pc, pn, f.c, f.nf);
        return 1;
    } else if (ocls == dBoxClass && flat_box_face(p, other, -side, &o)) {
        /* both faces in the frame (u, v) of this face about c */
        double oc[3];
        project_to_plane(o.c, c0, p->step.n, oc);
        double dc[3] = {oc[0] - c[0], oc[1] - c[1], oc[2] - c[2]};
        double ox = pf_ode_dot(dc, f.u), oy = pf_ode_dot(dc, f.v);
        double ux = pf_ode_dot(o.u, f.u), uy = pf_ode_dot(o.u, f.v);
        double vx = -uy, vy = ux; /* o.v in this frame (both frames right-handed about n) */
        double poly[2 * 2 * PF_ODE_MAX_CONTACTS] = {-f.hu, -f.hv, f.hu,  -f.hv,
                                                    f.hu,  f.hv,  -f.hu, f.hv};
        int nv = 4;
        nv = clip_half_plane(poly, nv, ux, uy, ux * ox + uy * oy + o.hu);
        nv = clip_half_plane(poly, nv, -ux, -uy, -(ux * ox + uy * oy) + o.hu);
        nv = clip_half_plane(poly, nv, vx, vy, vx * ox + vy * oy + o.hv);
        nv = clip_half_plane(poly, nv, -vx, -vy, -(vx * ox + vy * oy) + o.hv);
        double cx = 0.0, cy = 0.0;
        double area = nv >= 3 ? polygon_area_centroid(poly, nv, &cx, &cy) : 0.0;
        double fa = 4.0 * f.hu * f.hv, oa = 4.0 * o.hu * o.hv;
        if (!(area > PF_ODE_DEGENERATE_AREA * fmin(fa, oa))) return 0;
        if (area < PF_ODE_FACE_COVER * fa) {
            if (area >= PF_ODE_FACE_COVER * oa) {
                /* the other face lies whole inside this one: its rectangle */
                rect_patch(p, oc, &o);
                double xy[8];
                rect_corners(p, xy);
                box_face_contacts(p, all, side, &f, &o, xy, 4);
                return 1;
            }
            if (nv > PF_POLYGON_MAX_VERTICES) return 0;
            for (int i = 0; i < nv; ++i) {
                poly[2 * i] -= cx;
                poly[2 * i + 1] -= cy;
            }
            for (int k = 0; k < 3; ++k)
                p->step.c[k] = c[k] + cx * f.u[k] + cy * f.v[k];
            memcpy(p->step.x, f.u, sizeof f.u);
            memcpy(p->step.y, f.v, sizeof f.v);
            pf_ode_def_reset(&p->step.def);
            p->step.def.shape = PF_PATCH_POLYGON;
            p->step.def.vertex_count = nv;
            memcpy(p->step.def.vertices, poly, sizeof(double) * 2 * (size_t)nv);
            p->step.kind = PF_ODE_KIND_PATCH;
            box_face_contacts(p, all, side, &f, &o, poly, nv);
            return 1;
        }
        /* this face lies whole inside the other */
        rect_patch(p, c, &f);
        double xy[8];
        rect_corners(p, xy);
        box_face_contacts(p, all, side, &f, &o, xy, 4);
        return 1;
    } else {
        /* anything else: the face counts only if the contacts cover it */
        double xy[2 * PF_ODE_MAX_CONTACTS];
        int nv = 0;
        double area = contact_hull(p, c, f.u, f.v, xy, &nv);
        if (fabs(area) < PF_ODE_FACE_COVER * 4.0 * f.hu * f.hv) return 0;
    }
    return rect_patch(p, c, &f);
}

/* Cylinder end flat on the plane -> uniform disk at the end centre. */
static int try_cylinder(pfOdePair *p, dGeomID g, double side, const double *c0)
{
    if (dGeomGetClass(g) != dCylinderClass) return 0;
    dReal r, l;
    dGeomCylinderGetParams(g, &r, &l);
    const dReal *R = dGeomGetRotation(g);
    const dReal *pos = dGeomGetPosition(g);
    double az[3] = {R[2], R[6], R[10]};
    double d = pf_ode_dot(az, p->step.n);
    if (fabs(d) < PF_ODE_FACE_COS || p->step.ncontacts < 3) return 0;
    double sgn = d > 0 ? 1.0 : -1.0;
    double ec[3];
    for (int j = 0; j < 3; ++j)
        ec[j] = pos[j] - side * sgn * 0.5 * l * az[j];
    double c[3];
    project_to_plane(ec, c0, p->step.n, c);
    /* the contact points must lie on the rim (not an edge contact of a tilted cylinder, nor a
     * smaller body resting somewhere on the end face) and span it: their hull at least r^2 / 2
     * (the four rim points of ODE's cylinder-plane contact span 2 r^2, any three of them r^2) */
    for (int i = 0; i < p->step.ncontacts; ++i) {
        double dd[3] = {p->step.contacts[i].pos[0] - c[0], p->step.contacts[i].pos[1] - c[1],
                        p->step.contacts[i].pos[2] - c[2]};
        double t = pf_ode_dot(dd, p->step.n);
        double rr = sqrt(fmax(pf_ode_dot(dd, dd) - t * t, 0.0));
        if (rr > 1.05 * r || rr < 0.9 * r) return 0;
    }
    frame_from_normal(p);
    double xy[2 * PF_ODE_MAX_CONTACTS];
    int nv = 0;
    if (!(fabs(contact_hull(p, c, p->step.x, p->step.y, xy, &nv)) >= 0.5 * r * r)) return 0;
    memcpy(p->step.c, c, sizeof c);
    pf_ode_def_reset(&p->step.def);
    p->step.def.shape = PF_PATCH_DISK;
    p->step.def.radius = r;
    p->step.kind = PF_ODE_KIND_PATCH;
    return 1;
}

static double curvature_radius(dGeomID g)
{
    int cls = dGeomGetClass(g);
    if (cls == dSphereClass) return dGeomSphereGetRadius(g);
    if (cls == dCapsuleClass) {
        dReal r, l;
        dGeomCapsuleGetParams(g, &r, &l);
        return r;
    }
    return INFINITY;
}

/* A line contact's points lie within this fraction of the segment's length of its line. */
#define PF_ODE_LINE_OFFSET 1e-2
/* An axis within ~2.6 degrees of the segment counts as along it (a cylinder's or capsule's side
 * lying along the contact segment). */
#define PF_ODE_LINE_AXIS_COS 0.999

/* Radius of curvature of geom g across a contact segment along u (unit, world), for P46:
 * INFINITY for a flat side (a plane, a box face flat on the contact plane), 0 for a sharp edge
 * (a box touching by an edge, a cylinder by its rim), the radius for a cylinder's or capsule's
 * side along u. A class the adapter cannot read (a trimesh, a heightfield, a convex) is taken as
 * flat: the other geom decides, and if neither is curved the segment is an edge (pf_ode_build
 * patch's caller floors b, P46). */
static double line_radius(const pfOdePair *p, dGeomID g, double side, const double *u)
{
    if (!g) return INFINITY;
    const int cls = dGeomGetClass(g);
    if (cls == dCylinderClass || cls == dCapsuleClass) {
        dReal r, l;
        if (cls == dCylinderClass)
            dGeomCylinderGetParams(g, &r, &l);
        else
            dGeomCapsuleGetParams(g, &r, &l);
        const dReal *R = dGeomGetRotation(g);
        double az[3] = {R[2], R[6], R[10]};
        if (fabs(pf_ode_dot(az, u)) >= PF_ODE_LINE_AXIS_COS || cls == dCapsuleClass) return r;
        return 0.0; /* a cylinder's rim */
    }
    if (cls == dSphereClass) return dGeomSphereGetRadius(g);
    if (cls == dBoxClass) {
        boxface f;
        return flat_box_face(p, g, side, &f) ? INFINITY : 0.0;
    }
    return INFINITY;
}

/* A line contact spans at least this fraction of the smaller geom's size (smaller_extent). */
#define PF_ODE_LINE_MIN_SPAN 0.1

/* The largest side of the smaller of the two geoms' bounding boxes (a plane's is infinite).
 * Why a line needs a span of it: a real line contact runs along a body's side or edge, a sizeable
 * part of the body; two contact points closer than that are one point reported twice (a
 * cylinder's rim crossing a face, a vertex on two triangles of a trimesh). Such a point keeps
 * ODE's point friction, whose bound follows this step's normal force inside the solver; as a
 * strip of a fraction of a millimetre it took the previous step's N, and in the bin at 5 ms a
 * cylinder spinning on its rim against a box dragged the box off the pile (0.66 m/s after 3 s,
 * stock friction's fastest 0.53 m/s). Measured in the bin (seed 1, QuickStep, 1 ms, first 4 s)
 * without the rule: of 156k strip-steps, 74k spanned at least 0.3 of the smaller geom (cylinders
 * and capsules on their sides, box edges) and 80k less than 0.1, most of them less than 0.03 (40k
 * of them a cylinder's rim on a box face). */
static double smaller_extent(const pfOdePair *p)
{
    double e = INFINITY;
    dGeomID g[2] = {p->g1, p->g2};
    for (int i = 0; i < 2; ++i) {
        if (!g[i] || dGeomGetClass(g[i]) == dPlaneClass) continue;
        dReal aabb[6];
        dGeomGetAABB(g[i], aabb);
        const double s = fmax(aabb[1] - aabb[0], fmax(aabb[3] - aabb[2], aabb[5] - aabb[4]));
        if (isfinite(s)) e = fmin(e, s);
    }
    return isfinite(e) ? e : 0.0;
}

/* Contact points on a segment (an edge of the hull's degenerate case): the strip patch of a line
 * contact (docs/physics.md §10). Length L: the extreme points' projections on the segment; x along
 * the segment, y = n x x; centre the segment's midpoint; R' across the line from both geoms
 * (1/R' = 1/R1 + 1/R2; a sharp edge, or no curved side at all, gives R' = 0). The width 2b is
 * set in before_step from the step's N (P46). */
static int try_line(pfOdePair *p, const double *c0)
{
    const int n = p->step.ncontacts;
    if (n < 2) return 0;
    const double *nn = p->step.n;
    double pts[PF_ODE_MAX_CONTACTS][3];
    for (int i = 0; i < n; ++i)
        project_to_plane(p->step.contacts[i].pos, c0, nn, pts[i]);
    int ia = 0, ib = 0;
    double best = 0.0;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            double d[3] = {pts[j][0] - pts[i][0], pts[j][1] - pts[i][1], pts[j][2] - pts[i][2]};
            double dd = pf_ode_dot(d, d);
            if (dd > best) {
                best = dd;
                ia = i;
                ib = j;
            }
        }
    const double L = sqrt(best);
    if (!(L > 1e-9) || !isfinite(L) || L < PF_ODE_LINE_MIN_SPAN * smaller_extent(p)) return 0;
    double u[3] = {pts[ib][0] - pts[ia][0], pts[ib][1] - pts[ia][1], pts[ib][2] - pts[ia][2]};
    normalize(u);
    double v[3];
    pf_ode_cross(nn, u, v);
    double tmin = INFINITY, tmax = -INFINITY;
    for (int i = 0; i < n; ++i) {
        double d[3] = {pts[i][0] - c0[0], pts[i][1] - c0[1], pts[i][2] - c0[2]};
        if (fabs(pf_ode_dot(d, v)) > PF_ODE_LINE_OFFSET * L) return 0;
        double t = pf_ode_dot(d, u);
        tmin = fmin(tmin, t);
        tmax = fmax(tmax, t);
    }
    const double r1 = line_radius(p, p->g1, 1.0, u), r2 = line_radius(p, p->g2, -1.0, u);
    double rstar = 0.0;
    if (r1 > 0.0 && r2 > 0.0) {
        const double inv = (isfinite(r1) ? 1.0 / r1 : 0.0) + (isfinite(r2) ? 1.0 / r2 : 0.0);
        rstar = inv > 0.0 ? 1.0 / inv : 0.0;
    }
    for (int k = 0; k < 3; ++k) {
        p->step.c[k] = c0[k] + 0.5 * (tmin + tmax) * u[k];
        p->step.x[k] = u[k];
        p->step.y[k] = v[k];
    }
    p->step.hertz_rstar = rstar;
    pf_ode_def_reset(&p->step.def);
    p->step.def.shape = PF_PATCH_RECT;
    p->step.def.length = tmax - tmin;
    p->step.def.width = 2.0 * PF_LINE_HALF_WIDTH_MIN * (tmax - tmin); /* set from N later */
    p->step.kind = PF_ODE_KIND_LINE;
    return 1;
}

/* Two round geoms along one line are a line contact when their surfaces are apart by less than
 * this fraction of the common length at both ends of it. */
#define PF_ODE_LINE_GAP 1e-3

/* Axis (unit, world), centre, half-length of the straight part and radius of a cylinder or
 * capsule; 0 for other classes. */
static int round_geom(dGeomID g, double *a, double *pc, double *h, double *r)
{
    if (!g) return 0;
    const int cls = dGeomGetClass(g);
    if (cls != dCylinderClass && cls != dCapsuleClass) return 0;
    dReal rr, l;
    if (cls == dCylinderClass)
        dGeomCylinderGetParams(g, &rr, &l);
    else
        dGeomCapsuleGetParams(g, &rr, &l);
    const dReal *R = dGeomGetRotation(g), *pos = dGeomGetPosition(g);
    for (int k = 0; k < 3; ++k) {
        a[k] = R[4 * k + 2];
        pc[k] = pos[k];
    }
    *h = 0.5 * l;
    *r = rr;
    return 1;
}

/* Two cylinders or capsules side by side with parallel axes: ODE's colliders for a cylinder and a
 * cylinder or a capsule report one point (their GJK finds the deepest point only), so the line
 * is taken from the geometry. The straight parts' common stretch along the axis is the strip's
 * length L, provided the two surfaces are apart by at most PF_ODE_LINE_GAP L at both ends of it
 * (else they cross, or one is tilted onto an end: a point contact); 1/R' = 1/r1 + 1/r2. */
static int try_round_pair(pfOdePair *p, const double *c0)
{
    double a1[3], p1[3], h1, r1, a2[3], p2[3], h2, r2;
    if (!round_geom(p->g1, a1, p1, &h1, &r1) || !round_geom(p->g2, a2, p2, &h2, &r2)) return 0;
    if (fabs(pf_ode_dot(a1, a2)) < PF_ODE_LINE_AXIS_COS) return 0;
    const double *nn = p->step.n;
    double u[3];
    const double an = pf_ode_dot(a1, nn);
    for (int k = 0; k < 3; ++k)
        u[k] = a1[k] - an * nn[k];
    normalize(u);
    const double u1 = pf_ode_dot(a1, u), u2 = pf_ode_dot(a2, u);
    if (!(fabs(u1) > 0.5) || !(fabs(u2) > 0.5)) return 0;
    double d1[3] = {p1[0] - c0[0], p1[1] - c0[1], p1[2] - c0[2]};
    double d2[3] = {p2[0] - c0[0], p2[1] - c0[1], p2[2] - c0[2]};
    const double s1 = pf_ode_dot(d1, u), s2 = pf_ode_dot(d2, u);
    const double t0 = fmax(s1 - h1 * fabs(u1), s2 - h2 * fabs(u2));
    const double t1 = fmin(s1 + h1 * fabs(u1), s2 + h2 * fabs(u2));
    const double L = t1 - t0;
    if (!(L > 1e-9) || !isfinite(L) || L < PF_ODE_LINE_MIN_SPAN * smaller_extent(p)) return 0;
    for (int e = 0; e < 2; ++e) {
        const double t = e ? t1 : t0;
        double q1[3], q2[3], dq[3];
        for (int k = 0; k < 3; ++k) {
            q1[k] = p1[k] + (t - s1) / u1 * a1[k];
            q2[k] = p2[k] + (t - s2) / u2 * a2[k];
            dq[k] = q1[k] - q2[k];
        }
        if (!(sqrt(pf_ode_dot(dq, dq)) - r1 - r2 <= PF_ODE_LINE_GAP * L)) return 0;
    }
    double v[3];
    pf_ode_cross(nn, u, v);
    for (int k = 0; k < 3; ++k) {
        p->step.c[k] = c0[k] + 0.5 * (t0 + t1) * u[k];
        p->step.x[k] = u[k];
        p->step.y[k] = v[k];
    }
    p->step.hertz_rstar = 1.0 / (1.0 / r1 + 1.0 / r2);
    pf_ode_def_reset(&p->step.def);
    p->step.def.shape = PF_PATCH_RECT;
    p->step.def.length = L;
    p->step.def.width = 2.0 * PF_LINE_HALF_WIDTH_MIN * L; /* set from N later */
    p->step.kind = PF_ODE_KIND_LINE;
    return 1;
}

/* A cylinder or capsule lying on a flat face is a line contact when both ends of its generatrix
 * nearest the face are within this fraction of the line's length L of the face: PF_ODE_LINE_GAP,
 * the rule of two round geoms side by side, an axis tilted off the face by at most 1e-3 rad
 * (0.057 degrees). The tilts it must cover are the solver's: the skid-steer wheels (driven on
 * hinges, scrubbed sideways) tilt their axes by 2e-5 L, and their far ends, whose rims ODE did
 * not report, stood at most 2.2e-6 L (dWorldStep) and 6.0e-4 L (QuickStep, while an axle swung on
 * its hinge's error correction) above the ground; with this rule, 2.0e-6 L and 5.3e-6 L. A tilt
 * of 1e-3 rad is 45 times below the one at which line_radius stops taking the side as along the
 * segment (PF_ODE_LINE_AXIS_COS): a cylinder tipped onto its rim, or standing on an end, keeps
 * ODE's point (or try_cylinder's disk). */
#define PF_ODE_FACE_LINE_GAP PF_ODE_LINE_GAP

/* The face a round geom lies on: a plane, or the box face flat on the contact plane (its centre,
 * outward normal and in-plane half extents; a plane's are infinite). side: +1 when the face's
 * geom is body 1. 0 if the geom has no such face. */
static int flat_face(const pfOdePair *p, dGeomID g, double side, boxface *f)
{
    if (!g) return 0;
    if (dGeomGetClass(g) == dPlaneClass) {
        dVector4 pl;
        dGeomPlaneGetParams(g, pl);
        for (int k = 0; k < 3; ++k) {
            f->nf[k] = pl[k];
            f->c[k] = pl[3] * pl[k];
        }
        f->hu = f->hv = INFINITY;
        dVector3 nn = {pl[0], pl[1], pl[2], 0}, a, b;
        dPlaneSpace(nn, a, b);
        for (int k = 0; k < 3; ++k) {
            f->u[k] = a[k];
            f->v[k] = b[k];
        }
        return fabs(pf_ode_dot(f->nf, p->step.n)) >= PF_ODE_FACE_COS;
    }
    return flat_box_face(p, g, side, f);
}

/* Clip the parameter interval [*t0, *t1] of the line P + t a to q . (x - c) <= h (q unit). */
static void clip_interval(const double *P, const double *a, const double *c, const double *q,
                          double h, double *t0, double *t1)
{
    if (!isfinite(h)) return;
    const double d[3] = {P[0] - c[0], P[1] - c[1], P[2] - c[2]};
    const double s0 = pf_ode_dot(d, q), s1 = pf_ode_dot(a, q); /* q.(x - c) = s0 + s1 t */
    if (fabs(s1) < 1e-12) {
        if (s0 > h) *t1 = *t0 - 1.0; /* empty */
        return;
    }
    const double t = (h - s0) / s1;
    if (s1 > 0)
        *t1 = fmin(*t1, t);
    else
        *t0 = fmax(*t0, t);
}

/* A cylinder or capsule lying on a flat face (a plane, or a box face flat on the contact plane):
 * the line is taken from the geometry, like try_round_pair's. ODE's cylinder-plane collider
 * reports a rim point only where it touches or sinks in (depth >= 0), so an axis tilted by a
 * micro-radian off the face gives one point and no line. The line is the round geom's generatrix
 * nearest the face, on its straight part, clipped to a box face's rectangle; it is taken when
 * both of its ends are within PF_ODE_FACE_LINE_GAP L of the face and it spans at least
 * PF_ODE_LINE_MIN_SPAN of the smaller geom. Each end no contact of ODE's covers (within
 * PF_ODE_VERTEX_COVER of L / 2 in the contact plane) and that is apart from the face gets a
 * speculative normal row, depth = -gap (pf_ode_normal_contacts lets it approach by
 * the gap within the step), so the strip's normal rows hold both ends; an uncovered end that
 * sinks in gets one only with all (face_contacts says why). R' is the round geom's radius. */
static int try_round_on_face(pfOdePair *p, const double *c0, int all)
{
    double a[3], pc[3], h, r;
    double side = 1.0; /* +1: the round geom is body 1 */
    dGeomID face_geom = p->g2;
    if (!round_geom(p->g1, a, pc, &h, &r)) {
        if (!round_geom(p->g2, a, pc, &h, &r)) return 0;
        side = -1.0;
        face_geom = p->g1;
    }
    boxface f;
    if (!flat_face(p, face_geom, -side, &f)) return 0;
    /* nf: the face's outward normal, towards the round geom */
    const double *nf = f.nf, *nn = p->step.n;
    const double an = pf_ode_dot(a, nf);
    if (!(fabs(an) <= PF_ODE_FACE_LINE_GAP) || p->step.ncontacts < 1) return 0;
    /* the generatrix nearest the face: pc + t a - r e, e the unit part of nf across the axis */
    double e[3], P[3];
    for (int k = 0; k < 3; ++k)
        e[k] = nf[k] - an * a[k];
    normalize(e);
    for (int k = 0; k < 3; ++k)
        P[k] = pc[k] - r * e[k];
    double t0 = -h, t1 = h;
    double mu[3] = {-f.u[0], -f.u[1], -f.u[2]}, mv[3] = {-f.v[0], -f.v[1], -f.v[2]};
    clip_interval(P, a, f.c, f.u, f.hu, &t0, &t1);
    clip_interval(P, a, f.c, mu, f.hu, &t0, &t1);
    clip_interval(P, a, f.c, f.v, f.hv, &t0, &t1);
    clip_interval(P, a, f.c, mv, f.hv, &t0, &t1);
    /* the span in the contact plane */
    double u[3];
    const double ann = pf_ode_dot(a, nn);
    for (int k = 0; k < 3; ++k)
        u[k] = a[k] - ann * nn[k];
    const double L = (t1 - t0) * sqrt(pf_ode_dot(u, u));
    if (!(L > 1e-9) || !isfinite(L) || L < PF_ODE_LINE_MIN_SPAN * smaller_extent(p)) return 0;
    normalize(u);
    double E[2][3], gap[2];
    for (int i = 0; i < 2; ++i) {
        const double t = i ? t1 : t0;
        for (int k = 0; k < 3; ++k)
            E[i][k] = P[k] + t * a[k];
        const double d[3] = {E[i][0] - f.c[0], E[i][1] - f.c[1], E[i][2] - f.c[2]};
        gap[i] = pf_ode_dot(d, nf); /* negative: sunk in */
        if (!(gap[i] <= PF_ODE_FACE_LINE_GAP * L)) return 0;
    }
    /* the strip, centred on the segment's midpoint in the contact plane */
    double mid[3], c[3], v[3];
    for (int k = 0; k < 3; ++k)
        mid[k] = 0.5 * (E[0][k] + E[1][k]);
    project_to_plane(mid, c0, nn, c);
    pf_ode_cross(nn, u, v);
    memcpy(p->step.c, c, sizeof c);
    memcpy(p->step.x, u, sizeof u);
    memcpy(p->step.y, v, sizeof v);
    p->step.hertz_rstar = r;
    pf_ode_def_reset(&p->step.def);
    p->step.def.shape = PF_PATCH_RECT;
    p->step.def.length = L;
    p->step.def.width = 2.0 * PF_LINE_HALF_WIDTH_MIN * L; /* set from N later */
    p->step.kind = PF_ODE_KIND_LINE;
    /* a speculative row at each end none of ODE's points covers */
    const double cover = PF_ODE_VERTEX_COVER * 0.5 * L;
    const int n_ode = p->step.ncontacts;
    const dContactGeom proto = p->step.contacts[0];
    for (int i = 0; i < 2 && p->step.ncontacts < PF_ODE_MAX_CONTACTS; ++i) {
        int covered = 0;
        for (int j = 0; j < n_ode && !covered; ++j) {
            double d[3] = {p->step.contacts[j].pos[0] - E[i][0],
                           p->step.contacts[j].pos[1] - E[i][1],
                           p->step.contacts[j].pos[2] - E[i][2]};
            const double t = pf_ode_dot(d, nn);
            covered = pf_ode_dot(d, d) - t * t <= cover * cover;
        }
        if (covered || (!all && !(gap[i] > 0.0))) continue;
        /* on body 1's surface: the round geom's end, or the face below (above) it along n;
         * the depth is the distance along n from body 1's surface to body 2's, negative
         * where apart (face_contacts) */
        const double tf = plane_along(E[i], nn, f.c, nf); /* E + tf n lies on the face */
        dContactGeom g = proto;
        for (int k = 0; k < 3; ++k) {
            g.pos[k] = side > 0 ? E[i][k] : E[i][k] + tf * nn[k];
            g.normal[k] = nn[k];
        }
        g.depth = side > 0 ? tf : -tf;
        p->step.contacts[p->step.ncontacts++] = g;
    }
    return 1;
}

/* A FIXED patch's frame: x the material's patch_axis (in the frame of the body of the geom whose
 * material gave the patch; the world's without a body) projected into the contact plane, or
 * dPlaneSpace's without one; y = n x x. An axis within PF_ODE_AXIS_MIN_SIN of the normal has no
 * direction in the plane: dPlaneSpace's, counted (pfOdeMaterial.patch_axis). */
#define PF_ODE_AXIS_MIN_SIN 1e-6
static void fixed_frame(pfOdeContext *ctx, pfOdePair *p)
{
    frame_from_normal(p);
    const pfOdePairMaterial *m = &p->persist.mat;
    if (!m->has_axis) return;
    dGeomID g = m->axis_geom == 2 ? p->g2 : p->g1;
    dBodyID b = g ? dGeomGetBody(g) : 0;
    double a[3];
    if (b) {
        dVector3 w;
        dBodyVectorToWorld(b, m->patch_axis[0], m->patch_axis[1], m->patch_axis[2], w);
        pf_ode_to3(w, a);
    } else {
        memcpy(a, m->patch_axis, sizeof a);
    }
    const double *nn = p->step.n;
    const double an = pf_ode_dot(a, nn), al = sqrt(pf_ode_dot(a, a));
    for (int k = 0; k < 3; ++k)
        a[k] -= an * nn[k];
    const double l = sqrt(pf_ode_dot(a, a));
    if (!(l > PF_ODE_AXIS_MIN_SIN * al) || !pf_ode_finite3(a)) {
        ctx->counters.axis_fallbacks++;
        return;
    }
    normalize(a);
    memcpy(p->step.x, a, sizeof p->step.x);
    pf_ode_cross(nn, p->step.x, p->step.y);
}

void pf_ode_build_patch(pfOdeContext *ctx, pfOdePair *p)
{
    int n = p->step.ncontacts;
    p->persist.has_support = 0; /* set again by face_contacts */
    p->persist.support_run = 0;
    double c0[3] = {0, 0, 0}, nn[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            c0[k] += p->step.contacts[i].pos[k] / n;
            nn[k] += p->step.contacts[i].normal[k];
        }
    normalize(nn);
    memcpy(p->step.n, nn, sizeof nn);
    memcpy(p->step.c, c0, sizeof c0);
    p->step.kind = PF_ODE_KIND_POINT;
    pf_ode_def_reset(&p->step.def);

    if (p->persist.mat.fixed) {
        fixed_frame(ctx, p);
        p->step.def = p->persist.mat.patch;
        p->step.kind = PF_ODE_KIND_PATCH;
        return;
    }
    /* every uncovered vertex where dWorldStep's Dantzig takes degenerate sets (face_contacts) */
    const int all = ctx->lcp_zero_step;
    if (try_box(p, p->g1, p->g2, 1.0, c0, all) || try_box(p, p->g2, p->g1, -1.0, c0, all)) return;
    if (try_cylinder(p, p->g1, 1.0, c0) || try_cylinder(p, p->g2, -1.0, c0)) return;
    if (try_round_pair(p, c0)) return;
    if (try_round_on_face(p, c0, all)) return;
    double r1 = curvature_radius(p->g1), r2 = curvature_radius(p->g2);
    /* a sphere touches at one point however many contacts a collider reports (a trimesh gives
     * one per triangle met, at one place: 2 to 5 at a trimesh cube's edge) */
    const int sphere = (p->g1 && dGeomGetClass(p->g1) == dSphereClass) ||
                       (p->g2 && dGeomGetClass(p->g2) == dSphereClass);
    if ((isfinite(r1) || isfinite(r2)) && (n <= 1 || sphere)) {
        /* sphere, or a capsule end: Hertzian disk at the contact point */
        frame_from_normal(p);
        double inv = (isfinite(r1) ? 1.0 / r1 : 0.0) + (isfinite(r2) ? 1.0 / r2 : 0.0);
        p->step.hertz_rstar = 1.0 / inv;
        p->step.def.shape = PF_PATCH_HERTZ_DISK;
        p->step.def.radius = p->persist.mat.hertz_radius; /* 0: computed from N in before_step */
        p->step.def.rolling_d = p->persist.mat.rolling_d;
        p->step.def.eps_t = p->persist.mat.eps_t;
        p->step.def.eps_r = p->persist.mat.eps_r;
        p->step.def.model =
            p->persist.mat.mode == PF_ODE_MODE_PADE ? PF_MODEL_PADE : PF_MODEL_EXACT;
        p->step.kind = PF_ODE_KIND_HERTZ;
        return;
    }
    /* polygon from the contact points */
    frame_from_normal(p);
    double xy[2 * PF_ODE_MAX_CONTACTS];
    int nv = 0;
    double area = contact_hull(p, c0, p->step.x, p->step.y, xy, &nv);
    double ext2 = 0.0;
    for (int i = 0; i < nv; ++i)
        ext2 = fmax(ext2, xy[2 * i] * xy[2 * i] + xy[2 * i + 1] * xy[2 * i + 1]);
    if (nv >= 3 && area > PF_ODE_DEGENERATE_AREA * ext2 && ext2 > 1e-18 &&
        nv <= PF_POLYGON_MAX_VERTICES) {
        double cx = 0.0, cy = 0.0;
        polygon_area_centroid(xy, nv, &cx, &cy);
        for (int i = 0; i < nv; ++i) {
            xy[2 * i] -= cx;
            xy[2 * i + 1] -= cy;
        }
        for (int k = 0; k < 3; ++k)
            p->step.c[k] = c0[k] + cx * p->step.x[k] + cy * p->step.y[k];
        p->step.def.shape = PF_PATCH_POLYGON;
        p->step.def.vertex_count = nv;
        memcpy(p->step.def.vertices, xy, sizeof(double) * 2 * (size_t)nv);
        p->step.kind = PF_ODE_KIND_PATCH;
        return;
    }
    /* points on a segment: a line contact's strip */
    if (try_line(p, c0)) return;
    /* a single point: point friction (counted in before_step) */
    p->step.kind = PF_ODE_KIND_POINT;
}

/* A stuck face whose faces have come apart by a gap keeps its support for the step.
 * Why: ODE reports contacts only where faces interpenetrate, and its spaces do not even call the
 * near callback for geoms whose bounding boxes are apart (an axis-aligned ground plane's box ends
 * at its surface). QuickStep's unconverged rows lift a resting face to a gap of about 1e-7 m
 * every few steps; its pair then vanished for a step: no normal row, the box fell freely for the
 * step (g dt, 9.8 mm/s at 1 ms), landed with that speed on whichever corner came first, and its
 * stick anchor was lost. Carried, the pair keeps a speculative row at each vertex of the last
 * patch, which lets the faces approach by their gap within the step and no further
 * (pf_ode_normal_contacts), and keeps its state and anchor. Only from the bodies (no geom is
 * read: one may have been destroyed), for a stuck face patch collided in the last step, while
 * the largest gap is below PF_ODE_CARRY_GAP of the patch's size and for at most
 * PF_ODE_CARRY_STEPS steps in a row (a face lifted for good, or a geom destroyed without
 * pf_ode_forget_geom, lets go within them). The in-solver coupling under dWorldStep does not
 * carry: the pyramid of the stack scene, whose cubes are set down exactly touching and carried
 * for their first steps, toppled at 5 ms (0.67 m in 20 s; not yet understood). Under QuickStep it
 * does, its stuck patches taking the adapter's rows (pf_ode_step.c, solver_stuck_rows). */
#define PF_ODE_CARRY_STEPS 4
#define PF_ODE_CARRY_SINK 1e-6
int pf_ode_carry_support(pfOdeContext *ctx, pfOdePair *p)
{
    pfOdePairPersist *s = &p->persist;
    if (!pf_ode_adapter_holds_stuck(ctx) || !s->has_support || p->fresh || p->forgotten ||
        p->seen + 1 != ctx->frame || s->state != PF_ODE_STATE_STICK ||
        s->mat.mode == PF_ODE_MODE_STOCK || s->mat.fixed || s->mat.has_motion ||
        s->mat.soft_cfm > 0.0 || s->support_run >= PF_ODE_CARRY_STEPS ||
        ctx->frame_group_frame != ctx->frame || !ctx->frame_group ||
        !pf_ode_pair_bodies_alive(ctx, p))
        return 0;
    dBodyID b1 = p->step.b1, b2 = p->step.b2;
    double c2[3], n2[3], c1[3], x1[3];
    dVector3 w;
    if (b2) {
        dBodyGetRelPointPos(b2, s->support_c2[0], s->support_c2[1], s->support_c2[2], w);
        pf_ode_to3(w, c2);
        dBodyVectorToWorld(b2, s->support_n2[0], s->support_n2[1], s->support_n2[2], w);
        pf_ode_to3(w, n2);
    } else {
        memcpy(c2, s->support_c2, sizeof c2);
        memcpy(n2, s->support_n2, sizeof n2);
    }
    dBodyGetRelPointPos(b1, s->support_c1[0], s->support_c1[1], s->support_c1[2], w);
    pf_ode_to3(w, c1);
    dBodyVectorToWorld(b1, s->support_x1[0], s->support_x1[1], s->support_x1[2], w);
    pf_ode_to3(w, x1);
    /* the patch normal: body 2's face normal, which points into body 1 */
    normalize(n2);
    double xn = pf_ode_dot(x1, n2);
    for (int k = 0; k < 3; ++k)
        x1[k] -= xn * n2[k];
    normalize(x1);
    double size2 = 0.0, gap = 0.0;
    dContactGeom cg[PF_ODE_MAX_CONTACTS];
    for (int i = 0; i < s->support_nv; ++i) {
        double P[3];
        dBodyGetRelPointPos(b1, s->support_v1[i][0], s->support_v1[i][1], s->support_v1[i][2], w);
        pf_ode_to3(w, P);
        double d[3] = {c2[0] - P[0], c2[1] - P[1], c2[2] - P[2]}, r[3];
        for (int k = 0; k < 3; ++k)
            r[k] = P[k] - c1[k];
        size2 = fmax(size2, pf_ode_dot(r, r));
        memset(&cg[i], 0, sizeof cg[i]);
        for (int k = 0; k < 3; ++k) {
            cg[i].pos[k] = P[k];
            cg[i].normal[k] = n2[k];
        }
        cg[i].depth = pf_ode_dot(d, n2); /* negative where apart */
        cg[i].g1 = 0;                    /* no geom is read or handed on: one may be gone */
        cg[i].g2 = 0;
        cg[i].side1 = cg[i].side2 = -1;
        gap = fmax(gap, fabs(cg[i].depth));
    }
    if (!(gap <= PF_ODE_CARRY_GAP * sqrt(size2)) || !pf_ode_finite3(c1) || !pf_ode_finite3(x1) ||
        !pf_ode_finite3(n2))
        return 0;
    /* let the faces close the gap and meet by PF_ODE_CARRY_SINK of the patch's size, so that ODE
     * reports the contact again (landing at a zero gap, no contact is reported) */
    for (int i = 0; i < s->support_nv; ++i)
        cg[i].depth -= PF_ODE_CARRY_SINK * sqrt(size2);
    memcpy(p->step.contacts, cg, sizeof(dContactGeom) * (size_t)s->support_nv);
    p->step.ncontacts = s->support_nv;
    p->step.noff = 0;    /* (a carried support has no off-plane contacts) */
    p->step.has_sib = 0; /* (its siblings were not collided with it) */
    memcpy(p->step.c, c1, sizeof c1);
    memcpy(p->step.n, n2, sizeof n2);
    memcpy(p->step.x, x1, sizeof x1);
    pf_ode_cross(n2, x1, p->step.y);
    pf_ode_def_copy(&p->step.def, &s->support_def);
    p->step.kind = PF_ODE_KIND_PATCH;
    p->step.group = ctx->frame_group;
    p->seen = ctx->frame;
    s->support_run++;
    ctx->counters.supports_carried++;
    return 1;
}

/* The axes of a point patch's contact c (P49a): sliding, its own slip's direction and no row
 * across it (the contacts of a short edge that turns slip each their own way); at rest, or where a
 * sliding patch's contact does not slip, the patch's friction direction with both rows. */
static void point_axis(const pfOdeContext *ctx, const pfOdePair *p, dContact *c, double mu)
{
    double cn[3], d[3] = {p->step.point_dir[0], p->step.point_dir[1], p->step.point_dir[2]};
    pf_ode_to3(c->geom.normal, cn);
    int own = 0;
    if (p->step.point_slide) {
        double P[3], v[3];
        pf_ode_to3(c->geom.pos, P);
        pf_ode_rel_point_vel(p->step.b1, p->step.b2, P, v);
        const double vn = pf_ode_dot(v, cn);
        for (int k = 0; k < 3; ++k)
            v[k] -= vn * cn[k];
        const double vt = sqrt(pf_ode_dot(v, v));
        if (vt > ctx->cfg.stick_velocity_tol && isfinite(vt)) {
            for (int k = 0; k < 3; ++k)
                d[k] = v[k] / vt;
            own = 1;
        }
    }
    const double dn = pf_ode_dot(d, cn);
    double t[3] = {d[0] - dn * cn[0], d[1] - dn * cn[1], d[2] - dn * cn[2]};
    const double l = sqrt(pf_ode_dot(t, t));
    if (l > 1e-6) {
        c->surface.mode |= dContactFDir1 | dContactMu2;
        for (int k = 0; k < 3; ++k)
            c->fdir1[k] = t[k] / l;
        c->surface.mu2 = own ? 0.0 : mu;
    }
}

/* The friction bound of a STOCK pair's contact: mu times the normal force of the last step
 * (returned, > 0), or 0 for ODE's own bound, mu times this step's normal force (dContactApprox1).
 *
 * ODE's Dantzig solver (dWorldStep, lcp.cpp) sets the bounds of all friction rows with an findex
 * once, from the normal forces before the first of them is driven, and keeps them while it drives
 * the friction rows. Where a contact's friction changes its own normal force, the friction stops
 * at mu times the wrong force: a finger (mu 0.5) pushing a block 20 mm off its centre line
 * presses about 20 % harder once its friction acts, so its friction stopped at 84 % of mu N, the
 * finger slid where it sticks and the block turned 10.6 % too fast (docs/physics.md §11).
 * QuickStep bounds the rows by the current normal force in every sweep. A patch next to such a
 * contact is bounded by the last step's measured normal force (the adapter coupling), so a STOCK
 * contact that shares a dynamic body with a patch gets the same coupling: constant bounds
 * +-mu N_last on its friction rows (and rhoN N_last on its spin row), no findex. In the last step
 * that bound is the force the contact ended with, its friction's effect included; it lags by one
 * step's change of N, which for a steady push is far below the findex rule's error. Only:
 *  - with the adapter coupling (the in-solver coupling's dWorldStep re-solves the findex rows of
 *    an island with patches until their bounds agree with their forces, patches/0003);
 *  - for the pair's single contact point, in the step measured and now (several points' forces
 *    cannot be matched from step to step: ODE's contact order is not stable);
 *  - when the pair shared a dynamic body with a patch in the last step (pf_ode_before_step): a
 *    world of STOCK pairs only keeps ODE's own friction, bit for bit;
 *  - while N_last lies within PF_ODE_STOCK_LAG_BAND of the force of the pair's last step on
 *    ODE's rule, and after two such steps that agree (pf_ode_after_step). An impact, a contact
 *    that lets go, or a loop in which the held friction presses the contact on harder (a wedge:
 *    2.3x per step for a point patch, below) gets ODE's rule for a step, which re-anchors the
 *    band; the bound never exceeds PF_ODE_STOCK_LAG_BAND mu times a force of ODE's rule.
 * Only under dWorldStep (pfOdeConfig.stepper WORLD): QuickStep re-bounds the findex rows by the
 * current normal force in every sweep, and there the lagged bound made things worse where its
 * normal force differs from findex's (a finger with mu_f >= 1 on the push scene's block: the rows'
 * N alternated between the two rules' answers, 2.4 and 4.3 N, and the block turned 4 to 20 %
 * too slowly). */
static double stock_lag_force(const pfOdeContext *ctx, const pfOdePair *p, double mu)
{
    const pfOdePairPersist *s = &p->persist;
    if (ctx->cfg.stepper != PF_ODE_STEPPER_WORLD || ctx->solver || !s->lag_island || !s->lag_ok ||
        !s->has_n || p->step.ncontacts != 1 || !(mu > 0.0))
        return 0.0;
    const double N = s->n_meas, rho = s->mat.stock_spin_rho;
    if (!(N > 0.0) || !isfinite(mu * N) || !isfinite(rho * N)) return 0.0;
    return N;
}

/* The approach speed the patch's contact row i may take under dWorldStep [m/s] (0 under
 * QuickStep, and on an ODE whose Dantzig solver takes zero steps, ODE_EXT_lcp_zero_step: there
 * a row that allows an approach, beside a joint that also holds the body up (a slider to the
 * world), left the whole weight to the joint and the patch without a normal force). ODE's
 * Dantzig solver (Debian's, unpatched) gives up on a pivot of step zero ("LCP
 * internal error, s <= 0"), and a resting face hands it exact zeros: a row whose right-hand side
 * is 0 (two bodies that touch and fall together at the start), and among a face's coplanar rows,
 * which carry three independent constraints, the last row's w once the others are clamped. A
 * small allowed approach puts each row strictly inside its region (w > 0 until pressed), and a
 * factor of its own per row, 1/2 + the fraction of the square root of the i-th prime (square
 * roots of distinct primes are linearly independent over the rationals), leaves no set of the
 * face's rows exactly consistent, whatever ODE's order of the points. (Scaled with the bodies'
 * speeds at the point instead, it cured one randomised scene of tiny fast bodies and broke
 * another: tests/fuzz, docs/architecture.md.) */
static double normal_row_dither(const pfOdeContext *ctx, int i)
{
    static const double prime[PF_ODE_MAX_CONTACTS] = {2,  3,  5,  7,  11, 13, 17, 19,
                                                      23, 29, 31, 37, 41, 43, 47, 53};
    if (ctx->cfg.stepper == PF_ODE_STEPPER_QUICK || ctx->lcp_zero_step) return 0.0;
    const double r = sqrt(prime[i % PF_ODE_MAX_CONTACTS]);
    return PF_ODE_NORMAL_DITHER * ctx->cfg.stick_velocity_tol * (0.5 + (r - floor(r)));
}

/* The contacts of points first .. ncontacts-1 as ODE contacts: dContactApprox1 point friction in
 * STOCK mode (bounded by the last step's normal force next to a patch, stock_lag_force), else
 * normal rows only (the friction rows come from pf_ode_before_step), with the tilt anchor's
 * target velocity while stuck. out has room for ncontacts - first entries. */
void pf_ode_normal_contacts(pfOdeContext *ctx, pfOdePair *p, int first, dContact *out)
{
    dBodyID b1 = p->step.b1, b2 = p->step.b2;
    const int stock = p->persist.mat.mode == PF_ODE_MODE_STOCK;
    /* A degenerate patch (an edge, a single point: PF_ODE_STATE_POINT) gets ODE's point friction
     * on its contacts, mu_s while the pair is at rest and mu_k while it slides. Its bound then
     * follows this step's normal force inside the solver (dContactApprox1). A friction row of
     * its own would take mu N from the last step's feedback, and in a wedge (a capsule between a
     * box and a wall) that lag is a loop: the held friction drives the normal force up, which
     * raises the next step's bound; in a bin N grew 2.3x per step, from 9 N to 283 N in five
     * steps, and launched the bodies at 2 m/s. */
    const int point = !stock && p->persist.state == PF_ODE_STATE_POINT;
    double mu =
        (stock && ctx->cfg.stock_mu_kinetic != 0) ? p->persist.mat.mu_k : p->persist.mat.mu_s;
    if (point && !p->step.solver_at_rest) mu = p->persist.mat.mu_k;
    const double n_lag = stock ? stock_lag_force(ctx, p, mu) : 0.0;
    if (stock) {
        p->step.lag_used = n_lag > 0.0;
        ctx->counters.stock_lagged += n_lag > 0.0;
    }
    /* Tilt anchor of a stuck patch. Inside the contact surface layer ODE corrects no penetration,
     * so a tilt of body 1 about the patch's tangent axes that the solver leaves (QuickStep's
     * unconverged iterations; rocking excited by the load's moment) is never undone, and it
     * random-walks: 4e-8 rad in 10 s at dt = 5e-3, which moves a mass centre 2 cm up by
     * 8e-10 m. While stuck, each normal row gets the target velocity that restores the tilt
     * anchored with the patch: theta = n2 x n1 (anchored normals now, in world), and the point r
     * of body 1 has moved along the normal by (theta x (r - c)).n. The rows stay unilateral, so
     * this cannot hold a corner down (tipping is unchanged); it only removes the solver's
     * drift. Clamped like the tangential correction. A soft contact (surface.soft_cfm > 0) has
     * none: its points sit below the surface layer, where ERP restores them, and the tilt its
     * springs take under a moment is physics the anchor must not undo. */
    double theta[3] = {0, 0, 0}, tilt_gain = 0.0;
    if (!stock && p->persist.state == PF_ODE_STATE_STICK && p->step.dt > 0.0 &&
        !(p->persist.mat.soft_cfm > 0.0)) {
        dVector3 n1, n2 = {p->persist.nrm2[0], p->persist.nrm2[1], p->persist.nrm2[2], 0};
        dBodyVectorToWorld(b1, p->persist.nrm1[0], p->persist.nrm1[1], p->persist.nrm1[2], n1);
        if (b2)
            dBodyVectorToWorld(b2, p->persist.nrm2[0], p->persist.nrm2[1], p->persist.nrm2[2], n2);
        double a1[3] = {n1[0], n1[1], n1[2]}, a2[3] = {n2[0], n2[1], n2[2]};
        pf_ode_cross(a2, a1, theta);
        if (pf_ode_finite3(theta)) tilt_gain = PF_ODE_TILT_GAIN * ctx->cfg.drift_gain / p->step.dt;
    }
    /* the bodies' mobility, once for all the pair's rows (their relative CFM, pf_ode_rows.c) */
    const pfOdeMobility *mb1 = NULL, *mb2 = NULL;
    if (!stock && !point) pf_ode_pair_mobility(ctx, p, &mb1, &mb2);
    /* the points that share the patch's soft compliance: those in contact (a support vertex that
     * is apart, depth < 0, carries nothing) */
    int loaded = 0;
    for (int i = 0; i < p->step.ncontacts; ++i)
        loaded += p->step.contacts[i].depth >= 0.0;
    for (int i = first; i < p->step.ncontacts; ++i) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.geom = p->step.contacts[i];
        if (stock || point) {
            /* (bounds +-mu N_lag without findex, or +-mu N of this step with it) */
            c.surface.mode = n_lag > 0.0 ? 0 : dContactApprox1;
            c.surface.mu = n_lag > 0.0 ? mu * n_lag : mu;
            if (point && p->step.point_dir_ok) point_axis(ctx, p, &c, mu);
            if (stock && p->persist.mat.stock_spin_rho > 0) {
                /* spin row only: rho, rho2 < 0 are not counted by getInfo1 (contact.cpp) */
                c.surface.mode |= dContactRolling | dContactAxisDep | dContactMu2;
                c.surface.mu2 = c.surface.mu;
                c.surface.rho = -1;
                c.surface.rho2 = -1;
                c.surface.rhoN = p->persist.mat.stock_spin_rho * (n_lag > 0.0 ? n_lag : 1.0);
            }
        } else {
            c.surface.mode = 0;
            c.surface.mu = 0; /* normal row only */
            double P[3] = {c.geom.pos[0], c.geom.pos[1], c.geom.pos[2]};
            double nn[3] = {c.geom.normal[0], c.geom.normal[1], c.geom.normal[2]};
            double cfm = pf_ode_row_cfm(pf_ode_point_row_mobility(mb1, mb2, P, nn), p->step.dt);
            if (cfm > 0.0) {
                c.surface.mode |= dContactSoftCFM;
                c.surface.soft_cfm = cfm;
            }
            /* a vertex of a face's support that is apart by a gap (face_contacts: depth < 0,
             * which ODE takes as 0) may approach by the gap within the step, no further */
            double vn = c.geom.depth < 0.0 && p->step.dt > 0.0 ? c.geom.depth / p->step.dt : 0.0;
            if (tilt_gain > 0.0) {
                double r[3], tr[3];
                for (int k = 0; k < 3; ++k)
                    r[k] = c.geom.pos[k] - p->step.c[k];
                pf_ode_cross(theta, r, tr);
                double v = -tilt_gain * pf_ode_dot(tr, nn), lim = ctx->cfg.stick_velocity_tol;
                v = v > lim ? lim : (v < -lim ? -lim : v);
                if (isfinite(v)) vn += v;
            }
            vn -= normal_row_dither(ctx, i);
            if (isfinite(vn) && vn != 0.0) {
                c.surface.mode |= dContactMotionN;
                c.surface.motionN = vn;
            }
        }
        pf_ode_surface_contact(ctx, p, loaded, stock || point, &c);
        out[i - first] = c;
    }
}

/* One contact joint per contact point from index first on (pf_ode_normal_contacts). */
void pf_ode_create_normal_joints(pfOdeContext *ctx, pfOdePair *p, int first)
{
    dContact c[PF_ODE_MAX_CONTACTS];
    if (first >= p->step.ncontacts) return;
    pf_ode_normal_contacts(ctx, p, first, c);
    for (int i = first; i < p->step.ncontacts; ++i) {
        dJointID j = dJointCreateContact(ctx->world, p->step.group, &c[i - first]);
        dJointAttach(j, p->step.b1, p->step.b2);
        dJointSetFeedback(j, &p->step.fb[i]);
        dJointSetData(j, ctx); /* tags the adapter's joints (pf_ode_classify_joint) */
    }
}

int pf_ode_face_extent(const pfOdePair *p, double *L, double *W)
{
    const pfPatchDef *d = &p->step.def;
    *L = *W = 0.0;
    if (d->shape == PF_PATCH_RECT) {
        *L = d->length;
        *W = d->width;
        return *L > 0.0 && *W > 0.0 && isfinite(*L) && isfinite(*W);
    }
    const int nv = d->vertex_count;
    if (d->shape != PF_PATCH_POLYGON || nv < 3 || nv > PF_POLYGON_MAX_VERTICES) return 0;
    /* (the vertices are about the centroid, counter-clockwise) */
    double hx = 0.0, hy = 0.0;
    for (int i = 0; i < nv; ++i) {
        hx = fmax(hx, fabs(d->vertices[2 * i]));
        hy = fmax(hy, fabs(d->vertices[2 * i + 1]));
    }
    /* the box s (hx, hy) lies inside edge i (outward normal m, offset e > 0) while its corner
     * farthest along m does: s (|m_x| hx + |m_y| hy) <= e */
    double s = 1.0;
    for (int i = 0; i < nv; ++i) {
        const double *a = d->vertices + 2 * i, *b = d->vertices + 2 * ((i + 1) % nv);
        const double mx = b[1] - a[1], my = a[0] - b[0];
        const double e = mx * a[0] + my * a[1], reach = fabs(mx) * hx + fabs(my) * hy;
        if (!(e > 0.0) || !(reach > 0.0)) return 0;
        s = fmin(s, e / reach);
    }
    *L = 2.0 * s * hx;
    *W = 2.0 * s * hy;
    if (!(*L > 0.0) || !(*W > 0.0) || !isfinite(*L) || !isfinite(*W)) return 0;
    /* within PF_ODE_CARRY_GAP of its size the polygon is its bounding box (the tolerance of a
     * face that touches): the box is the face */
    if (s >= 1.0 - PF_ODE_CARRY_GAP) {
        *L = 2.0 * hx;
        *W = 2.0 * hy;
        return 1;
    }
    return 2;
}

/* The face rows' normal row (docs/physics.md P36c; docs/architecture.md, "Face rows"): one contact
 * joint at the patch centre c, normal row only, in place of one per contact point. The contacts'
 * depths are fitted by a plane over the patch, depth = d0 + a x + b y (least squares in the patch
 * frame); the row takes d0, the depth at c, so that ODE's error reduction (k = ERP / h, the pair's
 * soft ERP if it has one) pushes the centre out as it would the points. The slope is the face's
 * tilt, and the tilt rows restore it at the same rate: body 1 turning about the patch's x axis at
 * w_x changes the depth at y by -w_x y per second, so w_x = k b and w_y = -k a (each capped, as ODE
 * caps a point's push-out, at the world's largest correcting velocity over the face's half extent).
 * Sets up the row (p->step.face_contact, its target face_target) and returns 1 with those two rates
 * in tilt; 0 where the fit is singular or not finite, and the caller creates the point rows.
 * pf_ode_face_joint creates it once the preload is known. */
int pf_ode_face_setup(pfOdeContext *ctx, pfOdePair *p, double tilt[2])
{
    const int n = p->step.ncontacts;
    double M[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, r[3] = {0, 0, 0}, fit[3];
    for (int i = 0; i < n; ++i) {
        const dReal *P = p->step.contacts[i].pos;
        const double d[3] = {P[0] - p->step.c[0], P[1] - p->step.c[1], P[2] - p->step.c[2]};
        const double u[3] = {1.0, pf_ode_dot(d, p->step.x), pf_ode_dot(d, p->step.y)};
        for (int a = 0; a < 3; ++a) {
            r[a] += u[a] * p->step.contacts[i].depth;
            for (int b = 0; b < 3; ++b)
                M[3 * a + b] += u[a] * u[b];
        }
    }
    if (!pf_ode_spd_solve3(M, r, fit) || !pf_ode_finite3(fit)) return 0;
    dContact c[PF_ODE_MAX_CONTACTS];
    pf_ode_normal_contacts(ctx, p, 0, c);
    dContact f = c[0];
    for (int k = 0; k < 3; ++k)
        f.geom.pos[k] = p->step.c[k];
    f.geom.depth = fit[0];
    const pfOdeMobility *mb1, *mb2;
    pf_ode_pair_mobility(ctx, p, &mb1, &mb2);
    const double P[3] = {f.geom.pos[0], f.geom.pos[1], f.geom.pos[2]};
    const double nn[3] = {f.geom.normal[0], f.geom.normal[1], f.geom.normal[2]};
    const double cfm = pf_ode_row_cfm(pf_ode_point_row_mobility(mb1, mb2, P, nn), p->step.dt);
    /* the point rows' own targets (the tilt anchor) are the tilt rows' now */
    f.surface.mode &= ~(dContactMotionN | dContactSoftCFM);
    f.surface.motionN = 0.0;
    if (cfm > 0.0) {
        f.surface.mode |= dContactSoftCFM;
        f.surface.soft_cfm = cfm;
    }
    const double erp =
        (f.surface.mode & dContactSoftERP) ? f.surface.soft_erp : dWorldGetERP(ctx->world);
    const double k = erp / p->step.dt, vmax = dWorldGetContactMaxCorrectingVel(ctx->world);
    double L, W;
    if (!pf_ode_face_extent(p, &L, &W)) return 0;
    const double wmax[2] = {vmax / (0.5 * W), vmax / (0.5 * L)};
    const double w[2] = {k * fit[2], -k * fit[1]};
    for (int a = 0; a < 2; ++a)
        tilt[a] = w[a] > wmax[a] ? wmax[a] : (w[a] < -wmax[a] ? -wmax[a] : w[a]);
    if (!isfinite(tilt[0]) || !isfinite(tilt[1])) return 0;
    /* a face apart by a gap at its centre (ODE reads a negative depth as 0) may approach by the
     * gap within the step, as the point rows' vertices may (pf_ode_normal_contacts) */
    const double gap_vel = fit[0] < 0.0 ? fit[0] / p->step.dt : 0.0;
    if (gap_vel < 0.0) {
        f.surface.mode |= dContactMotionN;
        f.surface.motionN = gap_vel;
    }
    /* the normal velocity the face's support aims at: ODE's push-out of the centre's depth, less
     * the carried support's sink, which keeps a resting face 1e-6 of its half diagonal deep (at
     * depth 0 ODE stops reporting it) */
    const double depth = fit[0] - dWorldGetContactSurfaceLayer(ctx->world);
    double target = k * (depth > 0.0 ? depth : 0.0);
    if (target > vmax) target = vmax;
    target += gap_vel - k * PF_ODE_CARRY_SINK * 0.5 * hypot(W, L);
    if (!isfinite(target)) return 0;
    p->step.face_contact = f;
    p->step.face_gap_vel = gap_vel;
    p->step.face_target = target;
    return 1;
}

double pf_ode_face_measured_preload(const pfOdePair *p)
{
    double n0 = p->persist.n_meas;
    for (int i = 0; i < PF_ODE_N_RECENT; ++i)
        if (p->persist.n_recent[i] < n0) n0 = p->persist.n_recent[i];
    return n0 > 0.0 && isfinite(n0) ? n0 : 0.0;
}

/* The face rows' normal row (pf_ode_face_setup) with its preload n0 (P36d, P36e): QuickStep starts
 * each step's iterations from zero forces, and a contact joint's normal row cannot start
 * elsewhere; twenty sweeps do not carry a ten-box tower's weight down its chain of faces (the
 * measured N wandered by 20-25 % step to step and the tower rocked). So n0 is applied explicitly
 * at c (pf_ode_before_step), and the row that may take it back is the joint's first friction
 * row, turned along n: bounded by +-n0, with the normal target and compliance. The total, n0 +
 * that row + the normal row, ranges over [0, inf) as the normal row's alone did, and the
 * iterations start from n0 instead of 0. n0 <= 0: the normal row alone. */
void pf_ode_face_joint(pfOdeContext *ctx, pfOdePair *p, double n0)
{
    dContact f = p->step.face_contact;
    p->step.preload = 0.0;
    if (n0 > 0.0 && isfinite(n0)) {
        f.surface.mode |= dContactFDir1 | dContactMu2 | dContactAxisDep | dContactMotion1;
        for (int a = 0; a < 3; ++a)
            f.fdir1[a] = f.geom.normal[a];
        f.surface.mu = n0;
        f.surface.mu2 = 0.0;
        f.surface.motion1 = p->step.face_target;
        if (f.surface.mode & dContactSoftCFM) {
            f.surface.mode |= dContactSlip1;
            f.surface.slip1 = f.surface.soft_cfm;
        }
        /* the normal row stays out of the way (two rows along one direction each take the whole
         * error in a sweep and overshoot) until the bounded row is at +n0: it allows the
         * approach the stick test resolves */
        f.surface.mode |= dContactMotionN;
        f.surface.motionN = p->step.face_gap_vel - ctx->cfg.stick_velocity_tol;
        p->step.preload = n0;
    } else {
        f.surface.mode &= ~(dContactFDir1 | dContactMotion1 | dContactSlip1);
        f.surface.mu = 0.0;
    }
    dJointID j = dJointCreateContact(ctx->world, p->step.group, &f);
    dJointAttach(j, p->step.b1, p->step.b2);
    memset(p->step.fb, 0, sizeof p->step.fb);
    dJointSetFeedback(j, &p->step.fb[0]);
    dJointSetData(j, ctx); /* tags the adapter's joints (pf_ode_classify_joint) */
}

/* The off-plane contacts of p (pf_ode_group_contacts) as ODE contact joints with point friction
 * in their own tangent planes, exactly as a degenerate patch's contacts get it
 * (pf_ode_normal_contacts): dContactApprox1, mu_s while the pair is at rest and mu_k while it
 * slides, the pair's surface parameters, each contact its own point of the pair's compliance.
 * Tagged with the context and given feedback in the pair, so that pf_ode_classify_joint reads
 * them as the adapter's contacts, whose last force is a load on the patch (its stick test) like
 * another pair's; the patch's normal force N is summed over its own contacts only. */
void pf_ode_create_offplane_joints(pfOdeContext *ctx, pfOdePair *p)
{
    if (p->step.noff == 0) return; /* most pairs: no scan of their contacts */
    const pfOdePairMaterial *mt = &p->persist.mat;
    const double mu = p->step.solver_at_rest ? mt->mu_s : mt->mu_k;
    /* The pair's overlap, as ODE's error reduction corrects it, is at most the patch's deepest
     * contact: off-plane contacts come only from pairs that touch in one place (convex geoms,
     * pf_ode_group_contacts), and moving body 1 along the patch normal by that depth separates
     * them. An off-plane contact that reports more along its own normal is the collider's
     * artefact, not overlap: ODE's trimesh-trimesh test gives two trimesh cubes lying face to
     * face a contact 40-57 mm deep at right angles to their 0.4 mm face contacts, and corrected
     * at ERP depth / h (11 m/s at 1 ms) it fed 44 J into the bin's pile in one step, repeated
     * over six steps while the cubes stayed jammed against a wall. Such a contact still keeps
     * the bodies from closing along its normal; it removes at most the patch's depth. Both
     * couplings: in the adapter's, the bin (100 bodies, QuickStep, 1 ms, 10 s) had one-step gains
     * of 2.8-3.9 J in four of seeds 1-5, the one traced (seed 1) set off by such a contact (9.5
     * mm at right angles to a trimesh cube's 0.03 mm edge contacts); with the cap its largest
     * gains are 0.6-1.1 J (stock friction 0.8-16 J; tests/CMakeLists.txt has the seeds). */
    double depth = 0.0;
    for (int i = 0; i < p->step.ncontacts; ++i)
        if (p->step.contacts[i].depth > depth) depth = p->step.contacts[i].depth;
    for (int i = 0; i < p->step.noff; ++i) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.geom = p->step.off[i];
        if (c.geom.depth > depth) c.geom.depth = depth;
        c.surface.mode = dContactApprox1;
        c.surface.mu = mu;
        pf_ode_surface_contact(ctx, p, 1, 1, &c);
        dJointID j = dJointCreateContact(ctx->world, p->step.group, &c);
        dJointAttach(j, p->step.b1, p->step.b2);
        memset(&p->step.fb_off[i], 0, sizeof p->step.fb_off[i]);
        dJointSetFeedback(j, &p->step.fb_off[i]);
        dJointSetData(j, ctx); /* tags the adapter's joints (pf_ode_classify_joint) */
    }
}

/* ---- several patches per pair ---------------------------------------------------------------
 * A pair's contacts that face different ways belong to different patches: a box in the concave
 * corner of one trimesh touches the floor and the wall, and one patch with their averaged normal
 * ((0.71, 0, 0.71) for as many floor as wall contacts) has neither the floor's nor the wall's
 * plane, normal force or capacity: it slid at 4-6 N where mu (m g + P) = 7.4 N holds. So the
 * contacts are grouped by normal (docs/architecture.md, patches of a pair; docs/physics.md
 * P50-P52):
 *  - two contacts belong together when their normals are within PF_ODE_GROUP_ANGLE (P50), and
 *    groups are closed under it (single linkage: the partition does not depend on the order in
 *    which ODE lists the contacts, and a finely tessellated curved face, whose neighbouring
 *    facets differ by a few degrees, stays one patch as before);
 *  - a group becomes one slot of the pair, a full pair record (key g1, g2, slot) with its own
 *    state, anchor, normal-force history and rows; pf_ode_build_patch builds each unchanged;
 *  - slots are matched to the last step's by normal (P51), in body 2's frame (world without
 *    body 2; the geom whose faces give the normals is usually body 2's, a static mesh), so a
 *    stuck patch keeps its anchor when the contact points change a little, whatever their order;
 *  - a pair with one group and one slot last step continues that slot whatever its normal did
 *    (exactly the single-patch behaviour of before).
 * Contacts far apart on one plane stay one patch (their hull): split by connectivity they would
 * no longer be recognised as one box face lying on a plane (try_box), whose whole-face patch
 * keeps a resting box's anchor while ODE's points flicker. */
/* 20 degrees: a box face's contacts share its normal to rounding, an edge or vertex contact of a
 * tilted box (sphere-like ODE normals) departs from the face's by its tilt, and a rocking box
 * tilts by micro-radians: far below. A concave mesh's faces meet at their dihedral angle,
 * 90 degrees at a floor and a wall, 45 at a chamfer: far above. cos(20 deg). */
#define PF_ODE_GROUP_COS 0.93969262078590838
/* A group continues a slot of the last step when its normal is within the same angle of the
 * slot's (P51): a patch's normal turns by at most its body's rotation in one step. */
#define PF_ODE_MATCH_COS PF_ODE_GROUP_COS
/* Concave corner: a triangle's centroid lies in front of another's plane by more than this
 * fraction of their distance (sin 6 degrees). */
#define PF_ODE_CONCAVE 0.1

static int find_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* 1 if every two groups lie on triangles of the trimesh `mesh` that face each other: each
 * group's first triangle (its contact's side1 / side2: mesh_side 1 / 2) has the other's centroid
 * in front of its plane, on the side its normal points to, by more than PF_ODE_CONCAVE of the
 * centroids' distance (a floor and a wall of one mesh: each has the other in front; the faces of
 * a convex mesh have each other behind). */
static int concave_groups(const dContactGeom *cg, int m, dGeomID mesh, int mesh_side, const int *of,
                          int count)
{
    int tri[PF_ODE_MAX_CONTACTS];
    const int ntri = dGeomTriMeshGetTriangleCount(mesh);
    for (int g = 0; g < count; ++g)
        tri[g] = -1;
    for (int i = 0; i < m; ++i) {
        const int t = mesh_side == 1 ? cg[i].side1 : cg[i].side2;
        if (tri[of[i]] < 0) tri[of[i]] = t;
    }
    double c[PF_ODE_MAX_CONTACTS][3], nt[PF_ODE_MAX_CONTACTS][3];
    for (int g = 0; g < count; ++g) {
        if (tri[g] < 0 || tri[g] >= ntri) return 0;
        dVector3 v0, v1, v2;
        dGeomTriMeshGetTriangle(mesh, tri[g], &v0, &v1, &v2);
        double e1[3], e2[3];
        for (int k = 0; k < 3; ++k) {
            c[g][k] = (v0[k] + v1[k] + v2[k]) / 3.0;
            e1[k] = v1[k] - v0[k];
            e2[k] = v2[k] - v0[k];
        }
        pf_ode_cross(e1, e2, nt[g]);
        normalize(nt[g]);
    }
    for (int g = 0; g < count; ++g)
        for (int h = 0; h < count; ++h) {
            if (g == h) continue;
            const double d[3] = {c[h][0] - c[g][0], c[h][1] - c[g][1], c[h][2] - c[g][2]};
            if (!(pf_ode_dot(d, nt[g]) > PF_ODE_CONCAVE * sqrt(pf_ode_dot(d, d)))) return 0;
        }
    return 1;
}

void pf_ode_group_contacts(const dContactGeom *cg, int m, int by_normal, dGeomID mesh,
                           int mesh_side, pfOdeGroups *gr)
{
    const int split = by_normal != 0;
    int parent[PF_ODE_MAX_CONTACTS], label[PF_ODE_MAX_CONTACTS], size[PF_ODE_MAX_CONTACTS];
    double sum[PF_ODE_MAX_CONTACTS][3];
    if (m > PF_ODE_MAX_CONTACTS) m = PF_ODE_MAX_CONTACTS;
    for (int i = 0; i < m; ++i)
        parent[i] = i;
    for (int i = 0; split && i < m; ++i)
        for (int j = i + 1; j < m; ++j) {
            const double d = cg[i].normal[0] * cg[j].normal[0] + cg[i].normal[1] * cg[j].normal[1] +
                             cg[i].normal[2] * cg[j].normal[2];
            int ri = find_root(parent, i), rj = find_root(parent, j);
            if (ri != rj && d >= PF_ODE_GROUP_COS) parent[rj > ri ? rj : ri] = rj > ri ? ri : rj;
        }
    /* groups numbered by their first contact (P50: the sum of the members' normals) */
    int count = 0;
    for (int i = 0; i < m; ++i) {
        const int r = split ? find_root(parent, i) : 0;
        if (r == i || (!split && i == 0)) {
            label[i] = count;
            size[count] = 0;
            memset(sum[count], 0, sizeof sum[count]);
            count++;
        }
        gr->of[i] = split ? label[r] : 0;
        size[gr->of[i]]++;
        for (int k = 0; k < 3; ++k)
            sum[gr->of[i]][k] += cg[i].normal[k];
    }
    /* the groups as linked, before any merge: the dominant plane of a pair of one patch */
    int link_of[PF_ODE_MAX_CONTACTS], link_size[PF_ODE_MAX_CONTACTS];
    const int link_count = count;
    memcpy(link_of, gr->of, sizeof(int) * (size_t)m);
    memcpy(link_size, size, sizeof(int) * (size_t)count);
    /* more groups than slots: the smallest (the last of equal ones) joins the group of the
     * nearest normal, until they fit */
    while (count > PF_ODE_MAX_PAIR_PATCHES) {
        int s = 0;
        for (int g = 1; g < count; ++g)
            if (size[g] <= size[s]) s = g;
        int t = -1;
        double best = -INFINITY;
        for (int g = 0; g < count; ++g) {
            if (g == s) continue;
            const double d =
                pf_ode_dot(sum[g], sum[s]) / (sqrt(pf_ode_dot(sum[g], sum[g])) + 1e-300);
            if (d > best) {
                best = d;
                t = g;
            }
        }
        for (int i = 0; i < m; ++i)
            if (gr->of[i] == s)
                gr->of[i] = t;
            else if (gr->of[i] > s)
                gr->of[i]--;
        size[t] += size[s];
        for (int k = 0; k < 3; ++k)
            sum[t][k] += sum[s][k];
        for (int g = s; g + 1 < count; ++g) {
            size[g] = size[g + 1];
            memcpy(sum[g], sum[g + 1], sizeof sum[g]);
        }
        count--;
    }
    /* Groups are separate patches only across a concave corner of a trimesh (P50), the only
     * geom ODE collides whose faces can meet concavely: see concave_groups. Two convex geoms
     * touch in one place, and where their contacts still differ in normal (an edge on an edge,
     * the triangles of a convex trimesh at its edges) the pair stays one patch, as before:
     * split there, the tumbling trimesh cubes of the bin scene rattled (QuickStep at 1 ms: the
     * largest one-step energy gain 11 J, above stock friction's 3.76 J; 1.33 J unsplit). */
    /* The one patch is then the dominant plane's contacts, and a contact more than P50's
     * angle from it is off-plane: a patch is the contacts that share its plane. Averaged in,
     * such a contact tilted the patch's plane and its normal force raised the bound of friction
     * rows that then pushed partly along its normal (the bin: a trimesh-trimesh contact 57 mm
     * deep with its normal 80 degrees from the face contacts' put 1.7 kN into N; the largest
     * one-step energy gain 10.5 J against stock friction's 3.8 J). It keeps ODE's point
     * friction in its own tangent plane instead (pf_ode_create_offplane_joints). Dominant: the
     * most contacts (a plane is where the points are; a lone deep contact, such as that one, is
     * a point), then the largest summed depth, then the first listed. */
    gr->noff = 0;
    if (count > 1 && !(mesh && concave_groups(cg, m, mesh, mesh_side, gr->of, count))) {
        double depth[PF_ODE_MAX_CONTACTS];
        for (int g = 0; g < link_count; ++g)
            depth[g] = 0.0;
        for (int i = 0; i < m; ++i)
            depth[link_of[i]] += cg[i].depth;
        int d = 0;
        for (int g = 1; g < link_count; ++g)
            if (link_size[g] > link_size[d] ||
                (link_size[g] == link_size[d] && depth[g] > depth[d]))
                d = g;
        memset(sum[0], 0, sizeof sum[0]);
        for (int i = 0; i < m; ++i) {
            if (link_of[i] != d) {
                gr->of[i] = -1;
                gr->noff++;
                continue;
            }
            gr->of[i] = 0;
            for (int k = 0; k < 3; ++k)
                sum[0][k] += cg[i].normal[k];
        }
        count = 1;
    }
    gr->count = count;
    for (int g = 0; g < count; ++g) {
        memcpy(gr->n[g], sum[g], sizeof gr->n[g]);
        normalize(gr->n[g]);
    }
}

/* A sibling of group k (P51a): the other group whose normal has the largest part in k's plane,
 * if that part exceeds sin 20 degrees and the sibling does not lift k's face (n_j . n_k <= 0, up
 * to rounding: its normal force never unloads patch k). Sets p->step.has_sib and sib. */
#define PF_ODE_SIB_SIN 0.34202014332566873
static void sibling_of(const pfOdeGroups *gr, const int *slot_of, int k, pfOdePair *p)
{
    const double *nk = gr->n[k];
    double best = PF_ODE_SIB_SIN;
    p->step.has_sib = 0;
    for (int j = 0; j < gr->count; ++j) {
        if (j == k) continue;
        const double c = pf_ode_dot(gr->n[j], nk);
        if (c > 1e-6) continue;
        double t[3];
        for (int i = 0; i < 3; ++i)
            t[i] = gr->n[j][i] - c * nk[i];
        const double l = sqrt(pf_ode_dot(t, t));
        if (l >= best) {
            best = l;
            for (int i = 0; i < 3; ++i)
                p->step.sib[i] = t[i] / l;
            p->step.has_sib = 1;
            p->step.sib_slot = slot_of[j];
            p->step.sib_perp = fabs(c) <= 1e-6;
        }
    }
}

/* The slot of each group (P51). The records of the pair's slots from the last step are matched
 * to the groups, the closest normals first (cosine >= PF_ODE_MATCH_COS); a group left over takes
 * the lowest slot without a record (reset: a slot whose record is left over is taken over, when
 * none is free, and starts afresh). One group and one record: the record, as before. */
static void assign_slots(const pfOdeContext *ctx, dGeomID g1, dGeomID g2, dBodyID b2,
                         const pfOdeGroups *gr, int *slot_of, int *reset)
{
    int rec[PF_ODE_MAX_PAIR_PATCHES], nrec = 0, taken[PF_ODE_MAX_PAIR_PATCHES];
    double on[PF_ODE_MAX_PAIR_PATCHES][3];
    for (int s = 0; s < PF_ODE_MAX_PAIR_PATCHES; ++s) {
        taken[s] = 0;
        rec[s] = s < ctx->slots_used ? pf_ode_pair_lookup(ctx, g1, g2, s) : -1;
        nrec += rec[s] >= 0;
    }
    for (int k = 0; k < gr->count; ++k) {
        slot_of[k] = -1;
        reset[k] = 0;
    }
    if (gr->count == 1 && nrec == 1) {
        for (int s = 0; s < PF_ODE_MAX_PAIR_PATCHES; ++s)
            if (rec[s] >= 0) slot_of[0] = s;
        return;
    }
    /* the slots' last normals in world (several groups or records: the match by normal) */
    for (int s = 0; s < PF_ODE_MAX_PAIR_PATCHES; ++s) {
        if (rec[s] < 0) continue;
        const double *sn = pf_ode_pair_at(ctx, rec[s])->slot_n;
        if (b2) {
            dVector3 w;
            dBodyVectorToWorld(b2, sn[0], sn[1], sn[2], w);
            pf_ode_to3(w, on[s]);
        } else {
            memcpy(on[s], sn, sizeof on[s]);
        }
    }
    for (;;) {
        int bk = -1, bs = -1;
        double best = PF_ODE_MATCH_COS;
        for (int k = 0; k < gr->count; ++k) {
            if (slot_of[k] >= 0) continue;
            for (int s = 0; s < PF_ODE_MAX_PAIR_PATCHES; ++s) {
                if (rec[s] < 0 || taken[s]) continue;
                const double d = pf_ode_dot(gr->n[k], on[s]);
                if (d >= best) {
                    best = d;
                    bk = k;
                    bs = s;
                }
            }
        }
        if (bk < 0) break;
        slot_of[bk] = bs;
        taken[bs] = 1;
    }
    for (int k = 0; k < gr->count; ++k) {
        if (slot_of[k] >= 0) continue;
        int s = 0;
        while (s < PF_ODE_MAX_PAIR_PATCHES && (rec[s] >= 0 || taken[s]))
            ++s;
        if (s == PF_ODE_MAX_PAIR_PATCHES) {
            /* every slot has a record: take over one that no group continues */
            s = 0;
            while (taken[s])
                ++s;
            reset[k] = 1;
        }
        slot_of[k] = s;
        taken[s] = 1;
    }
}

/* 1 if body 1 of the call (b1, b2) must be the other body: b1 is the static world, or kinematic
 * where b2 is dynamic. */
static int body1_turns(dBodyID b1, dBodyID b2)
{
    return !b1 || (dBodyIsKinematic(b1) && b2 && !dBodyIsKinematic(b2));
}

static void turn_pair(dGeomID *g1, dGeomID *g2, dBodyID *b1, dBodyID *b2)
{
    dGeomID tg = *g1;
    *g1 = *g2;
    *g2 = tg;
    dBodyID tb = *b1;
    *b1 = *b2;
    *b2 = tb;
}

/* The records of the pair {g1, g2} take the order (g1, g2). Their bodies are then not those of
 * their past (step.b1, step.b2), so the collide below starts them afresh, as for a geom moved
 * to another body. */
static void turn_records(pfOdeContext *ctx, dGeomID g1, dGeomID g2)
{
    for (int slot = 0; slot < ctx->slots_used; ++slot) {
        const int idx = pf_ode_pair_lookup(ctx, g1, g2, slot);
        if (idx < 0) continue;
        pfOdePair *p = pf_ode_pair_at(ctx, idx);
        p->g1 = g1;
        p->g2 = g2;
    }
}

/* Contacts closer than this, relative to their distance from the origin plus 1 m, and with normals
 * equal to this, are one contact (merge_duplicates). */
#define PF_ODE_DUPLICATE_TOL 1e-12

/* 1 if contacts a and b have the same normal and point (PF_ODE_DUPLICATE_TOL): the normal
 * first, then each coordinate, and out at the first that differs (a face's contacts share one
 * normal and differ in their points). */
static int same_contact(const dContactGeom *a, const dContactGeom *b)
{
    for (int k = 0; k < 3; ++k)
        if (!(fabs(a->normal[k] - b->normal[k]) <= PF_ODE_DUPLICATE_TOL)) return 0;
    double mag = 0.0;
    for (int k = 0; k < 3; ++k)
        if (fabs(b->pos[k]) > mag) mag = fabs(b->pos[k]);
    const double tol = PF_ODE_DUPLICATE_TOL * (1.0 + mag);
    for (int k = 0; k < 3; ++k)
        if (!(fabs(a->pos[k] - b->pos[k]) <= tol)) return 0;
    return 1;
}

/* ODE's trimesh colliders report a contact once per triangle that finds it: a box corner on a
 * shared edge or vertex of a mesh comes twice, with the same point, normal and depth (a bin of 40
 * bodies, 4 s at 1 ms: 3927 such pairs in 12334 box-trimesh collisions, 218 sphere-trimesh, none
 * from any other pair of classes). Two equal normal rows are one constraint twice: the Dantzig
 * solver of dWorldStep meets them as an index in N with w = 0 whose delta_w is rounding (-2e-8 of
 * the driving index's), a step s <= 0 on which Debian's solver gives up ("LCP internal error, s
 * <= 0"). A point equal to an earlier one (its coordinates within PF_ODE_DUPLICATE_TOL (1 + |p|)
 * and its normal's within PF_ODE_DUPLICATE_TOL) is dropped, and the kept one takes the larger
 * depth. Returns the number of contacts kept (in order). Patch modes only: STOCK keeps ODE's own
 * contacts as they come. */
static int merge_duplicates(pfOdeContext *ctx, dContactGeom *cg, int n)
{
    int m = 0;
    for (int i = 0; i < n; ++i) {
        int dup = -1;
        for (int j = 0; j < m && dup < 0; ++j)
            if (same_contact(&cg[i], &cg[j])) dup = j;
        if (dup < 0) {
            cg[m++] = cg[i];
        } else {
            if (cg[i].depth > cg[dup].depth) cg[dup].depth = cg[i].depth;
            ctx->counters.merged_contacts++;
        }
    }
    return m;
}

int pf_ode_collide(pfOdeContext *ctx, dGeomID g1, dGeomID g2, dJointGroupID group)
{
    if (!ctx || !g1 || !g2 || !group) return PF_ERR_NULL;
    /* a group the user passed this frame: alive this step (pf_ode_carry_support) */
    ctx->frame_group = group;
    ctx->frame_group_frame = ctx->frame;
    if (dGeomIsSpace(g1) || dGeomIsSpace(g2)) return PF_ERR_STATE;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (!b1 && !b2) return 0;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return 0;
    /* (the sentinels that track bodies must be attached in the context's world) */
    if ((b1 && dBodyGetWorld(b1) != ctx->world) || (b2 && dBodyGetWorld(b2) != ctx->world))
        return PF_ERR_STATE;
    /* Neither body dynamic (kinematic on kinematic or on the static world): no force can act, and
     * rows with no mobility on either side are a zero pivot for ODE's LDLT (dWorldStep aborts in
     * dxLDLTRemove, "d[i] != 0"). Stock mode keeps ODE's own behaviour. */
    if ((!b1 || dBodyIsKinematic(b1)) && (!b2 || dBodyIsKinematic(b2))) {
        pfOdePairMaterial pm; /* the pair's own material, if it has one, decides */
        pf_ode_resolve_material(ctx, g1, g2, &pm);
        if (pm.mode != PF_ODE_MODE_STOCK) return 0;
    }
    /* Body 1 is the dynamic one: the stick test models body 1's motion under its loads, and a
     * kinematic body 1 (a finger driven by the user) would leave the patch in slip for good. */
    if (body1_turns(b1, b2)) turn_pair(&g1, &g2, &b1, &b2);
    /* A pair is collided once per step: a second call in either geom order (a sub-space
     * descended twice, the user's callback reaching the pair twice) is a no-op, so no contact
     * point or joint is doubled. Any of the pair's patch slots collided this step marks the
     * pair. A geom pair is one pair whichever order it comes in (the table's key is unordered,
     * pf_ode_pair_lookup): its records keep the order of its first call (body 1 is that call's
     * first geom's body, as documented), and a call in the turned order (ODE's spaces turn a
     * pair when a geom moves to the head of their list) is turned back here, before dCollide,
     * so that its contacts, normals, patch frame, anchors, rows and bodies are all in the
     * records' order. Only where body 1 must be the other body now (a body made kinematic or
     * dynamic since) are the records turned instead, and start afresh. */
    int turned = 0;
    for (int slot = 0; slot < ctx->slots_used; ++slot) {
        const int known = pf_ode_pair_lookup(ctx, g1, g2, slot);
        if (known < 0) continue;
        const pfOdePair *q = pf_ode_pair_at(ctx, known);
        if (q->seen == ctx->frame) return 0;
        turned |= q->g1 != g1;
    }
    if (turned) {
        if (!body1_turns(b2, b1))
            turn_pair(&g1, &g2, &b1, &b2);
        else
            turn_records(ctx, g1, g2);
    }
    dContactGeom cg[PF_ODE_MAX_CONTACTS];
    int n = dCollide(g1, g2, PF_ODE_MAX_CONTACTS, cg, sizeof(dContactGeom));
    if (n <= 0) return 0;
    /* drop contacts with non-finite data: nothing non-finite reaches ODE */
    int m = 0;
    for (int i = 0; i < n; ++i) {
        double pos[3] = {cg[i].pos[0], cg[i].pos[1], cg[i].pos[2]};
        double nor[3] = {cg[i].normal[0], cg[i].normal[1], cg[i].normal[2]};
        if (pf_ode_finite3(pos) && pf_ode_finite3(nor) && isfinite(cg[i].depth))
            cg[m++] = cg[i];
        else
            ctx->counters.dropped_nonfinite++;
    }
    if (m == 0) return 0;

    /* the bodies' generations: 0 for a body that cannot be tracked */
    const unsigned long gen1 = pf_ode_body_track(ctx, b1), gen2 = pf_ode_body_track(ctx, b2);
    if (!gen1 || (b2 && !gen2)) return PF_ERR_NO_MEMORY;
    /* the pair's own material or the geoms' combined (pf_ode_surface.c) */
    pfOdePairMaterial mat;
    pf_ode_resolve_material(ctx, g1, g2, &mat);
    if (mat.mode != PF_ODE_MODE_STOCK) m = merge_duplicates(ctx, cg, m);
    /* the patches: the contacts grouped by normal (one group in STOCK mode, whose contacts are
     * ODE's own, and for a FIXED patch, which the user gave for the whole pair), each group
     * given a slot of the pair by its normal */
    pfOdeGroups gr;
    const int split = mat.mode != PF_ODE_MODE_STOCK && !mat.fixed;
    const int mesh_side = dGeomGetClass(g1) == dTriMeshClass   ? 1
                          : dGeomGetClass(g2) == dTriMeshClass ? 2
                                                               : 0;
    pf_ode_group_contacts(cg, m, split, split && mesh_side ? (mesh_side == 1 ? g1 : g2) : 0,
                          mesh_side, &gr);
    int slot_of[PF_ODE_MAX_PAIR_PATCHES], reset[PF_ODE_MAX_PAIR_PATCHES];
    assign_slots(ctx, g1, g2, b2, &gr, slot_of, reset);
    ctx->counters.split_patches += gr.count - 1;
    ctx->counters.offplane_contacts += gr.noff;
    int total = 0;
    for (int k = 0; k < gr.count; ++k) {
        int idx = -1;
        if (pf_ode_pair_acquire(ctx, g1, g2, slot_of[k], &idx) != PF_OK) return PF_ERR_NO_MEMORY;
        pfOdePair *p = pf_ode_pair_at(ctx, idx);
        sibling_of(&gr, slot_of, k, p);
        if (reset[k] || (!p->fresh && (p->forgotten || p->gen1 != gen1 || p->gen2 != gen2 ||
                                       p->step.b1 != b1 || p->step.b2 != b2))) {
            /* forgotten, or not the bodies of the pair's past (a geom moved to another body, or
             * a geom destroyed and a new one made at its address), or a slot taken over by a
             * new group of normals: nothing of the past carries over */
            memset(&p->persist, 0, sizeof p->persist);
            p->fresh = 1;
        }
        p->forgotten = 0;
        p->gen1 = gen1;
        p->gen2 = gen2;
        p->step.ncontacts = 0;
        p->step.noff = 0;
        p->seen = ctx->frame;
        p->step.b1 = b1;
        p->step.b2 = b2;
        p->step.group = group;
        /* the group's normal in body 2's frame (world without body 2), for the next step's match */
        if (b2)
            pf_ode_to_body_vec(b2, gr.n[k], p->slot_n);
        else
            memcpy(p->slot_n, gr.n[k], sizeof p->slot_n);
        /* the material, and the surfaces' motion in world coordinates (pf_ode_surface.c; read
         * here, as no geom is read after collide). The FIXED patch, the material's large last
         * member, is read for a FIXED pair only (pf_ode_build_patch): copied only for one */
        if (mat.fixed)
            p->persist.mat = mat;
        else
            memcpy(&p->persist.mat, &mat, offsetof(pfOdePairMaterial, patch));
        pf_ode_surface_capture(p);
        for (int i = 0; i < m && p->step.ncontacts < PF_ODE_MAX_CONTACTS; ++i)
            if (gr.of[i] == k) p->step.contacts[p->step.ncontacts++] = cg[i];
        /* the off-plane contacts (a pair of one patch only) go with it */
        for (int i = 0; i < m && gr.count == 1 && p->step.noff < PF_ODE_MAX_CONTACTS; ++i)
            if (gr.of[i] < 0) p->step.off[p->step.noff++] = cg[i];
        total += p->step.ncontacts + p->step.noff;

        /* Stock mode: ODE's own contact joints now. Patch modes: the patch is built now, while
         * the geoms surely exist (a geom may be destroyed after the near callback: the adapter
         * reads no geom after pf_ode_collide returns); the normal rows are created in
         * pf_ode_before_step (their CFM depends on the step, pf_ode_rows.c; with the in-solver
         * coupling they are part of the patch joint). */
        if (p->persist.mat.mode == PF_ODE_MODE_STOCK)
            pf_ode_create_normal_joints(ctx, p, 0);
        else
            pf_ode_build_patch(ctx, p);
    }
    return total;
}

static void near_cb(void *data, dGeomID g1, dGeomID g2);

void pf_ode_near_callback(void *data, dGeomID g1, dGeomID g2)
{
    near_cb(data, g1, g2);
}

/* The pairs inside sub-space s, once per step: dSpaceCollide reports a sub-space once for every
 * geom or space it overlaps, and descending it each time collided its inner pairs as often. */
static void collide_inside(pfOdeContext *ctx, dSpaceID s)
{
    if (ctx->spaces_frame != ctx->frame) {
        ctx->spaces_frame = ctx->frame;
        ctx->spaces_done_count = 0;
    }
    for (int i = 0; i < ctx->spaces_done_count; ++i)
        if (ctx->spaces_done[i] == s) return;
    if (ctx->spaces_done_count == ctx->spaces_done_cap) {
        int ncap = ctx->spaces_done_cap ? 2 * ctx->spaces_done_cap : 8;
        dSpaceID *ns = realloc(ctx->spaces_done, (size_t)ncap * sizeof *ns);
        if (ns) {
            ctx->spaces_done = ns;
            ctx->spaces_done_cap = ncap;
            ctx->counters.allocations++;
        }
    }
    /* (out of memory: collided again; pf_ode_collide still makes a repeated pair a no-op) */
    if (ctx->spaces_done_count < ctx->spaces_done_cap)
        ctx->spaces_done[ctx->spaces_done_count++] = s;
    dSpaceCollide(s, ctx, near_cb);
}

static void near_cb(void *data, dGeomID g1, dGeomID g2)
{
    pfOdeContext *ctx = data;
    if (!ctx) return;
    if (!ctx->near_group) {
        /* refused (reported by pf_ode_before_step): joints outside a group are never emptied */
        ctx->near_no_group = 1;
        return;
    }
    if (dGeomIsSpace(g1) || dGeomIsSpace(g2)) {
        dSpaceCollide2(g1, g2, data, near_cb);
        if (dGeomIsSpace(g1)) collide_inside(ctx, (dSpaceID)g1);
        if (dGeomIsSpace(g2)) collide_inside(ctx, (dSpaceID)g2);
        return;
    }
    pf_ode_collide(ctx, g1, g2, ctx->near_group);
}
