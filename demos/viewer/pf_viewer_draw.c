/* Drawing of the viewer: legacy (compatibility-profile) OpenGL in immediate mode, which Mesa's
 * llvmpipe under Xvfb runs as well as any desktop driver. Matrices are built here (no GLU). */
#include "pf_viewer_draw.h"

#include <GL/gl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const float pfv_col_background[3] = {0.16f, 0.18f, 0.23f};
const float pfv_col_stick[3] = {0.10f, 0.85f, 0.25f};
const float pfv_col_slip[3] = {0.95f, 0.15f, 0.12f};
const float pfv_col_stock[3] = {0.30f, 0.60f, 1.00f};
const float pfv_col_force[3] = {1.00f, 0.88f, 0.10f};
const float pfv_col_normal[3] = {0.75f, 0.85f, 1.00f};
const float pfv_col_moment[3] = {1.00f, 0.45f, 0.95f};
const float pfv_col_cr[3] = {0.10f, 0.95f, 0.95f};
const float pfv_col_ca[3] = {1.00f, 0.60f, 0.20f};
const float pfv_col_grid[3] = {0.47f, 0.51f, 0.58f};
const float pfv_col_grid_box[3] = {0.24f, 0.29f, 0.38f};
const float pfv_col_mark[3] = {0.96f, 0.94f, 0.86f};
const float pfv_col_path[PFV_PATH_COLOURS][3] = {
    {1.00f, 0.80f, 0.50f}, /* apricot, after the orange body */
    {0.55f, 0.90f, 1.00f}, /* light teal */
    {0.82f, 0.70f, 1.00f}, /* light violet */
    {0.98f, 0.93f, 0.60f}, /* light sand */
};
/* the grids' every 10th line */
static const float col_grid_major[3] = {0.60f, 0.64f, 0.71f};
static const float col_grid_box_major[3] = {0.16f, 0.20f, 0.28f};
/* grid window: lines within this many cells of the camera target */
#define GRID_CELLS 40

/* ---------------------------------------------------------------------------------------- */
/* small vector helpers                                                                      */
/* ---------------------------------------------------------------------------------------- */

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static void cross3(const double a[3], const double b[3], double out[3])
{
    double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(out, r, sizeof r);
}
static double norm3(const double a[3])
{
    return sqrt(dot3(a, a));
}
static void normalize3(double a[3])
{
    double n = norm3(a);
    if (n > 0.0)
        for (int i = 0; i < 3; ++i)
            a[i] /= n;
}
/* Unit vectors u, v completing unit n to a right-handed frame (u, v, n). */
static void perp_frame(const double n[3], double u[3], double v[3])
{
    double a[3] = {1.0, 0.0, 0.0};
    if (fabs(n[0]) > 0.8) a[0] = 0.0, a[1] = 1.0;
    cross3(a, n, v);
    normalize3(v);
    cross3(v, n, u);
    /* (u, v, n): u = v x n is right-handed with v and n */
}
static void axpy(double out[3], const double p[3], double s, const double d[3])
{
    for (int i = 0; i < 3; ++i)
        out[i] = p[i] + s * d[i];
}
static void vtx(const double p[3])
{
    glVertex3d(p[0], p[1], p[2]);
}

/* ---------------------------------------------------------------------------------------- */
/* camera                                                                                    */
/* ---------------------------------------------------------------------------------------- */

void pfv_camera_init(pfvCamera *c, const double gravity[3])
{
    memset(c, 0, sizeof *c);
    double up[3] = {-gravity[0], -gravity[1], -gravity[2]};
    if (norm3(up) < 1e-12) up[0] = 0.0, up[1] = 0.0, up[2] = 1.0;
    normalize3(up);
    memcpy(c->up, up, sizeof up);
    /* e1, e2 span the horizontal plane; for up = z they are x and y */
    double v[3];
    perp_frame(up, c->e1, v);
    cross3(up, c->e1, c->e2);
    c->yaw = -1.0;
    c->pitch = 0.45;
    c->dist = 1.0;
    c->fovy = 40.0 * M_PI / 180.0;
}

void pfv_camera_eye(const pfvCamera *c, double eye[3])
{
    double cp = cos(c->pitch), sp = sin(c->pitch), cy = cos(c->yaw), sy = sin(c->yaw);
    for (int i = 0; i < 3; ++i)
        eye[i] = c->target[i] + c->dist * (cp * cy * c->e1[i] + cp * sy * c->e2[i] + sp * c->up[i]);
}

void pfv_camera_apply(pfvCamera *c, int x, int y, int w, int h, int win_h)
{
    c->vp[0] = x, c->vp[1] = y, c->vp[2] = w, c->vp[3] = h;
    c->win_h = win_h;
    glViewport(x, y, w, h);
    double aspect = h > 0 ? (double)w / h : 1.0;
    double zn = c->dist * 0.01, zf = c->dist * 200.0;
    double f = 1.0 / tan(0.5 * c->fovy);
    memset(c->proj, 0, sizeof c->proj);
    c->proj[0] = f / aspect;
    c->proj[5] = f;
    c->proj[10] = (zf + zn) / (zn - zf);
    c->proj[11] = -1.0;
    c->proj[14] = 2.0 * zf * zn / (zn - zf);
    /* look-at: rows of the rotation are the camera's side, up and back axes */
    double eye[3], fwd[3], side[3], upv[3];
    pfv_camera_eye(c, eye);
    for (int i = 0; i < 3; ++i)
        fwd[i] = c->target[i] - eye[i];
    normalize3(fwd);
    cross3(fwd, c->up, side);
    if (norm3(side) < 1e-9) memcpy(side, c->e2, sizeof side);
    normalize3(side);
    cross3(side, fwd, upv);
    double *m = c->view;
    memset(m, 0, sizeof c->view);
    for (int i = 0; i < 3; ++i) {
        m[4 * i + 0] = side[i];
        m[4 * i + 1] = upv[i];
        m[4 * i + 2] = -fwd[i];
    }
    m[12] = -dot3(side, eye);
    m[13] = -dot3(upv, eye);
    m[14] = dot3(fwd, eye);
    m[15] = 1.0;
    glMatrixMode(GL_PROJECTION);
    glLoadMatrixd(c->proj);
    glMatrixMode(GL_MODELVIEW);
    glLoadMatrixd(c->view);
    /* key light from above and behind the default eye, fixed in the world */
    GLfloat pos[4];
    for (int i = 0; i < 3; ++i)
        pos[i] = (GLfloat)(0.9 * c->up[i] - 0.3 * c->e1[i] - 0.5 * c->e2[i]);
    pos[3] = 0.0f;
    glLightfv(GL_LIGHT0, GL_POSITION, pos);
}

int pfv_camera_project(const pfvCamera *c, const double p[3], double *sx, double *sy)
{
    double e[4], q[4];
    for (int r = 0; r < 4; ++r)
        e[r] = c->view[r] * p[0] + c->view[4 + r] * p[1] + c->view[8 + r] * p[2] + c->view[12 + r];
    for (int r = 0; r < 4; ++r)
        q[r] = c->proj[r] * e[0] + c->proj[4 + r] * e[1] + c->proj[8 + r] * e[2] +
               c->proj[12 + r] * e[3];
    if (q[3] <= 1e-12) return 0;
    double nx = q[0] / q[3], ny = q[1] / q[3];
    *sx = c->vp[0] + 0.5 * (nx + 1.0) * c->vp[2];
    *sy = c->win_h - (c->vp[1] + 0.5 * (ny + 1.0) * c->vp[3]);
    return 1;
}

void pfv_camera_pan(pfvCamera *c, double dx, double dy)
{
    /* side and screen-up axes from the view matrix rows */
    double side[3] = {c->view[0], c->view[4], c->view[8]};
    double upv[3] = {c->view[1], c->view[5], c->view[9]};
    double s = 2.0 * c->dist * tan(0.5 * c->fovy);
    for (int i = 0; i < 3; ++i)
        c->target[i] += s * (-dx * side[i] + dy * upv[i]);
}

void pfv_label(pfvLabels *l, const pfvCamera *c, const double p[3], const float rgb[3],
               const char *text)
{
    double sx, sy;
    if (l->n >= PFV_MAX_LABELS || !pfv_camera_project(c, p, &sx, &sy)) return;
    l->x[l->n] = (float)sx;
    l->y[l->n] = (float)sy;
    memcpy(l->rgb[l->n], rgb, sizeof l->rgb[0]);
    snprintf(l->text[l->n], sizeof l->text[0], "%s", text);
    l->n++;
}

/* ---------------------------------------------------------------------------------------- */
/* geoms                                                                                     */
/* ---------------------------------------------------------------------------------------- */

void pfv_draw_plane(const pfvCamera *c, dGeomID plane, double cell, int grid)
{
    dVector4 prm;
    dGeomPlaneGetParams(plane, prm);
    double n[3] = {prm[0], prm[1], prm[2]}, u[3], v[3], o[3];
    double nn = norm3(n);
    if (!(nn > 0.0) || !(cell > 0.0)) return;
    for (int i = 0; i < 3; ++i)
        n[i] /= nn, o[i] = n[i] * prm[3] / nn;
    perp_frame(n, u, v);
    /* cells snapped to the plane's own grid, centred under the camera target */
    double rel[3] = {c->target[0] - o[0], c->target[1] - o[1], c->target[2] - o[2]};
    long iu0 = lround(dot3(rel, u) / cell), iv0 = lround(dot3(rel, v) / cell);
    const int K = GRID_CELLS;
    glDisable(GL_LIGHTING);
    glBegin(GL_QUADS);
    for (long i = iu0 - K; i < iu0 + K; ++i)
        for (long j = iv0 - K; j < iv0 + K; ++j) {
            /* fade towards the border so the board has no hard edge */
            double r = hypot((double)(i - iu0), (double)(j - iv0)) / K;
            double fade = r < 0.6 ? 1.0 : fmax(0.0, 1.0 - (r - 0.6) / 0.4);
            double base = ((i + j) & 1) ? 0.30 : 0.36;
            double g = pfv_col_background[1] + fade * (base - pfv_col_background[1]);
            glColor3d(g * 0.95, g, g * 1.02);
            double p[3];
            double cu[4] = {(double)i, (double)i + 1, (double)i + 1, (double)i};
            double cv[4] = {(double)j, (double)j, (double)j + 1, (double)j + 1};
            for (int k = 0; k < 4; ++k) {
                for (int a = 0; a < 3; ++a)
                    p[a] = o[a] + cell * (cu[k] * u[a] + cv[k] * v[a]);
                vtx(p);
            }
        }
    glEnd();
    if (!grid) return;
    /* grid lines on the cell edges, drawn over the cells without depth test (no z-fighting; the
     * viewer clears depth after the ground anyway), fading out with the checkerboard */
    glDisable(GL_DEPTH_TEST);
    for (int major = 0; major < 2; ++major) {
        const float *gc = major ? col_grid_major : pfv_col_grid;
        glLineWidth(major ? 2.0f : 1.5f);
        glBegin(GL_LINES);
        for (int dir = 0; dir < 2; ++dir)
            for (long i = -K; i <= K; ++i) {
                long line = (dir ? iv0 : iu0) + i;
                if ((line % 10 == 0) != major) continue;
                for (long j = -K; j < K; ++j)
                    for (int e = 0; e < 2; ++e) {
                        double r = hypot((double)i, (double)(j + e)) / K;
                        double fade = r < 0.6 ? 1.0 : fmax(0.0, 1.0 - (r - 0.6) / 0.4);
                        glColor3d(pfv_col_background[0] + fade * (gc[0] - pfv_col_background[0]),
                                  pfv_col_background[1] + fade * (gc[1] - pfv_col_background[1]),
                                  pfv_col_background[2] + fade * (gc[2] - pfv_col_background[2]));
                        double a = (double)line, b = (double)((dir ? iu0 : iv0) + j + e), p[3];
                        for (int k = 0; k < 3; ++k)
                            p[k] = o[k] + cell * (dir ? b * u[k] + a * v[k] : a * u[k] + b * v[k]);
                        vtx(p);
                    }
            }
        glEnd();
    }
    glEnable(GL_DEPTH_TEST);
}

static void box_faces(double lx, double ly, double lz)
{
    static const int face_axis[6] = {0, 0, 1, 1, 2, 2};
    double h[3] = {0.5 * lx, 0.5 * ly, 0.5 * lz};
    glBegin(GL_QUADS);
    for (int f = 0; f < 6; ++f) {
        int a = face_axis[f], b = (a + 1) % 3, c = (a + 2) % 3;
        double s = (f & 1) ? -1.0 : 1.0;
        double nrm[3] = {0, 0, 0};
        nrm[a] = s;
        glNormal3dv(nrm);
        double q[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int k = 0; k < 4; ++k) {
            int kk = s > 0 ? k : 3 - k; /* counter-clockwise seen from outside */
            double p[3];
            p[a] = s * h[a];
            p[b] = q[kk][0] * h[b];
            p[c] = q[kk][1] * h[c];
            vtx(p);
        }
    }
    glEnd();
}

/* Sphere of radius r centred at z0 on the local z axis, latitudes [lat0, lat1]. With marks (rgb
 * given), its octants alternate between rgb and pfv_col_mark (a beach ball: spin about any axis
 * shows); slices a multiple of 4 and an even number of stacks over the full sphere keep the
 * octant edges on quad edges. */
static void sphere_band(double r, double z0, double lat0, double lat1, int stacks, int slices,
                        const float *rgb)
{
    glBegin(GL_QUADS);
    for (int i = 0; i < stacks; ++i) {
        double a0 = lat0 + (lat1 - lat0) * i / stacks, a1 = lat0 + (lat1 - lat0) * (i + 1) / stacks;
        for (int j = 0; j < slices; ++j) {
            double t0 = 2.0 * M_PI * j / slices, t1 = 2.0 * M_PI * (j + 1) / slices;
            if (rgb) {
                double am = 0.5 * (a0 + a1), tm = 0.5 * (t0 + t1);
                int odd = (cos(tm) > 0.0) ^ (sin(tm) > 0.0) ^ (sin(am) > 0.0);
                glColor3fv(odd ? pfv_col_mark : rgb);
            }
            double a[4] = {a0, a0, a1, a1}, t[4] = {t0, t1, t1, t0};
            for (int k = 0; k < 4; ++k) {
                double n[3] = {cos(a[k]) * cos(t[k]), cos(a[k]) * sin(t[k]), sin(a[k])};
                glNormal3dv(n);
                glVertex3d(r * n[0], r * n[1], z0 + r * n[2]);
            }
        }
    }
    glEnd();
}

static void cylinder_side(double r, double l, int slices)
{
    glBegin(GL_QUAD_STRIP);
    for (int j = 0; j <= slices; ++j) {
        double t = 2.0 * M_PI * j / slices;
        glNormal3d(cos(t), sin(t), 0.0);
        glVertex3d(r * cos(t), r * sin(t), 0.5 * l);
        glVertex3d(r * cos(t), r * sin(t), -0.5 * l);
    }
    glEnd();
}

/* A cap; with marks (rgb given) its quadrants alternate between rgb and pfv_col_mark (slices a
 * multiple of 4), so that spin about the axis shows. */
static void cylinder_cap(double r, double z, double s, int slices, const float *rgb)
{
    glBegin(GL_TRIANGLES);
    glNormal3d(0.0, 0.0, s);
    for (int j = 0; j < slices; ++j) {
        double t0 = s * 2.0 * M_PI * j / slices, t1 = s * 2.0 * M_PI * (j + 1) / slices;
        if (rgb) glColor3fv((4 * j / slices) & 1 ? pfv_col_mark : rgb);
        glVertex3d(0.0, 0.0, z);
        glVertex3d(r * cos(t0), r * sin(t0), z);
        glVertex3d(r * cos(t1), r * sin(t1), z);
    }
    glEnd();
}

void pfv_draw_geom(dGeomID g, const float rgb[3])
{
    int cls = dGeomGetClass(g);
    if (cls == dPlaneClass) return;
    const dReal *pos = dGeomGetPosition(g), *R = dGeomGetRotation(g);
    double m[16] = {R[0], R[4], R[8],  0, R[1],   R[5],   R[9],   0,
                    R[2], R[6], R[10], 0, pos[0], pos[1], pos[2], 1};
    glEnable(GL_LIGHTING);
    glColor3fv(rgb);
    glEnable(GL_POLYGON_OFFSET_FILL); /* lines on the faces (grids, edges) win the depth test */
    glPolygonOffset(1.0f, 1.0f);
    glPushMatrix();
    switch (cls) {
    case dBoxClass: {
        dVector3 l;
        dGeomBoxGetLengths(g, l);
        glMultMatrixd(m);
        box_faces(l[0], l[1], l[2]);
        break;
    }
    case dSphereClass:
        glMultMatrixd(m);
        sphere_band(dGeomSphereGetRadius(g), 0.0, -0.5 * M_PI, 0.5 * M_PI, 16, 32, rgb);
        break;
    case dCylinderClass: {
        dReal r, l;
        dGeomCylinderGetParams(g, &r, &l);
        glMultMatrixd(m);
        cylinder_side(r, l, 40);
        cylinder_cap(r, 0.5 * l, 1.0, 40, rgb);
        cylinder_cap(r, -0.5 * l, -1.0, 40, rgb);
        break;
    }
    case dCapsuleClass: {
        dReal r, l;
        dGeomCapsuleGetParams(g, &r, &l);
        glMultMatrixd(m);
        cylinder_side(r, l, 32);
        sphere_band(r, 0.5 * l, 0.0, 0.5 * M_PI, 8, 32, NULL);
        sphere_band(r, -0.5 * l, -0.5 * M_PI, 0.0, 8, 32, NULL);
        break;
    }
    case dTriMeshClass: { /* its triangles (dGeomTriMeshGetTriangle gives them in world), front
                           * faces only: a wall seen from behind does not hide what stands at it */
        const int nt = dGeomTriMeshGetTriangleCount(g);
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        glBegin(GL_TRIANGLES);
        for (int t = 0; t < nt; ++t) {
            dVector3 v[3];
            dGeomTriMeshGetTriangle(g, t, &v[0], &v[1], &v[2]);
            double e1[3] = {v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]};
            double e2[3] = {v[2][0] - v[0][0], v[2][1] - v[0][1], v[2][2] - v[0][2]}, nrm[3];
            cross3(e1, e2, nrm);
            normalize3(nrm);
            glNormal3dv(nrm);
            for (int k = 0; k < 3; ++k)
                glVertex3d(v[k][0], v[k][1], v[k][2]);
        }
        glEnd();
        glDisable(GL_CULL_FACE);
        break;
    }
    default: { /* anything else (heightfield, ...) as its bounding box */
        dReal aabb[6];
        dGeomGetAABB(g, aabb);
        glTranslated(0.5 * (aabb[0] + aabb[1]), 0.5 * (aabb[2] + aabb[3]),
                     0.5 * (aabb[4] + aabb[5]));
        box_faces(aabb[1] - aabb[0], aabb[3] - aabb[2], aabb[5] - aabb[4]);
        break;
    }
    }
    glPopMatrix();
    glDisable(GL_POLYGON_OFFSET_FILL);
    /* dark silhouette edges of boxes make their orientation readable */
    if (cls == dBoxClass) {
        dVector3 l;
        dGeomBoxGetLengths(g, l);
        glDisable(GL_LIGHTING);
        glPushMatrix();
        glMultMatrixd(m);
        glColor3f(0.25f * rgb[0], 0.25f * rgb[1], 0.25f * rgb[2]);
        glLineWidth(1.5f);
        glBegin(GL_LINES);
        for (int a = 0; a < 3; ++a)
            for (int s1 = -1; s1 <= 1; s1 += 2)
                for (int s2 = -1; s2 <= 1; s2 += 2) {
                    double p[3];
                    int b = (a + 1) % 3, c = (a + 2) % 3;
                    p[b] = 0.5 * s1 * l[b];
                    p[c] = 0.5 * s2 * l[c];
                    p[a] = -0.5 * l[a];
                    vtx(p);
                    p[a] = 0.5 * l[a];
                    vtx(p);
                }
        glEnd();
        glPopMatrix();
    }
}

void pfv_draw_box_grid(const pfvCamera *c, dGeomID g, double cell)
{
    if (dGeomGetClass(g) != dBoxClass || !(cell > 0.0)) return;
    dVector3 l;
    dGeomBoxGetLengths(g, l);
    const dReal *pos = dGeomGetPosition(g), *R = dGeomGetRotation(g);
    double ax[3][3], h[3] = {0.5 * l[0], 0.5 * l[1], 0.5 * l[2]};
    for (int a = 0; a < 3; ++a)
        for (int i = 0; i < 3; ++i)
            ax[a][i] = R[4 * i + a]; /* the box's axis a in world: column a of R */
    /* the face looking most along up */
    int fa = 0;
    double best = 0.0;
    for (int a = 0; a < 3; ++a)
        if (fabs(dot3(ax[a], c->up)) > fabs(best)) best = dot3(ax[a], c->up), fa = a;
    if (fabs(best) < 0.5) return;
    int b = (fa + 1) % 3, e = (fa + 2) % 3;
    double face[3], rel[3];
    axpy(face, pos, (best > 0.0 ? 1.0 : -1.0) * h[fa], ax[fa]);
    for (int i = 0; i < 3; ++i)
        rel[i] = c->target[i] - pos[i];
    /* a window of GRID_CELLS cells around the target, on the box's own grid (lines at multiples
     * of cell from its centre), clipped to the face */
    double ub = dot3(rel, ax[b]), ue = dot3(rel, ax[e]);
    long b0 = (long)ceil(fmax(-h[b], ub - GRID_CELLS * cell) / cell);
    long b1 = (long)floor(fmin(h[b], ub + GRID_CELLS * cell) / cell);
    long e0 = (long)ceil(fmax(-h[e], ue - GRID_CELLS * cell) / cell);
    long e1 = (long)floor(fmin(h[e], ue + GRID_CELLS * cell) / cell);
    double lo[2] = {fmax(-h[b], ub - GRID_CELLS * cell), fmax(-h[e], ue - GRID_CELLS * cell)};
    double hi[2] = {fmin(h[b], ub + GRID_CELLS * cell), fmin(h[e], ue + GRID_CELLS * cell)};
    if (b0 > b1 && e0 > e1) return;
    glDisable(GL_LIGHTING);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    const double win = GRID_CELLS * cell;
    for (int major = 0; major < 2; ++major) {
        const float *gc = major ? col_grid_box_major : pfv_col_grid_box;
        glLineWidth(major ? 2.0f : 1.5f);
        glBegin(GL_LINES);
        for (int dir = 0; dir < 2; ++dir) {
            long k0 = dir ? e0 : b0, k1 = dir ? e1 : b1;
            const double *along = dir ? ax[b] : ax[e], *across = dir ? ax[e] : ax[b];
            double s0 = dir ? lo[0] : lo[1], s1 = dir ? hi[0] : hi[1];
            double tk = dir ? ue : ub, ts = dir ? ub : ue; /* the target across and along */
            for (long k = k0; k <= k1; ++k) {
                if ((k % 10 == 0) != major) continue;
                /* segments of one cell, fading out towards the window's edge like the ground */
                for (double sa = s0; sa < s1; sa += cell)
                    for (int end = 0; end < 2; ++end) {
                        double sv = end ? fmin(sa + cell, s1) : sa, p[3];
                        double r = hypot(k * cell - tk, sv - ts) / win;
                        double fade = r < 0.6 ? 1.0 : fmax(0.0, 1.0 - (r - 0.6) / 0.4);
                        glColor4f(gc[0], gc[1], gc[2], (float)fade);
                        for (int i = 0; i < 3; ++i)
                            p[i] = face[i] + k * cell * across[i] + sv * along[i];
                        vtx(p);
                    }
            }
        }
        glEnd();
    }
    glDisable(GL_BLEND);
    glDepthFunc(GL_LESS);
}

void pfv_draw_path(const float (*pts)[3], int cap, int start, int n, const double last[3],
                   const float rgb[3])
{
    if (n + (last != NULL) < 2) return;
    /* over the bodies (no depth test): the papers' trajectories are often shorter than the block
     * that traces them, and would otherwise hide inside it */
    glDisable(GL_LIGHTING);
    glDisable(GL_DEPTH_TEST);
    glColor3fv(rgb);
    glLineWidth(3.0f);
    glBegin(GL_LINE_STRIP);
    for (int i = 0; i < n; ++i)
        glVertex3fv(pts[(start + i) % cap]);
    if (last) vtx(last);
    glEnd();
    glPointSize(7.0f); /* the body's mass centre now */
    glBegin(GL_POINTS);
    if (last) vtx(last);
    glEnd();
    glEnable(GL_DEPTH_TEST);
}

/* ---------------------------------------------------------------------------------------- */
/* arrows, markers, patches                                                                   */
/* ---------------------------------------------------------------------------------------- */

/* Arrow from p along d (length |d|) with a cone head of length head. */
static void arrow(const double p[3], const double d[3], double head, const float rgb[3])
{
    double L = norm3(d);
    if (!(L > 1e-12)) return;
    double a[3] = {d[0] / L, d[1] / L, d[2] / L}, u[3], v[3], q[3], tip[3];
    head = fmin(head, 0.35 * L);
    perp_frame(a, u, v);
    axpy(tip, p, L, a);
    axpy(q, p, L - head, a);
    glColor3fv(rgb);
    glLineWidth(3.0f);
    glBegin(GL_LINES);
    vtx(p);
    vtx(q);
    glEnd();
    glBegin(GL_TRIANGLE_FAN);
    vtx(tip);
    for (int j = 0; j <= 12; ++j) {
        double t = 2.0 * M_PI * j / 12, r = 0.35 * head, w[3];
        for (int i = 0; i < 3; ++i)
            w[i] = q[i] + r * (cos(t) * u[i] + sin(t) * v[i]);
        vtx(w);
    }
    glEnd();
}

/* Point of the patch plane: c + x ex + y ey. */
static void patch_point(const double c[3], const double ex[3], const double ey[3], double x,
                        double y, double out[3])
{
    for (int i = 0; i < 3; ++i)
        out[i] = c[i] + x * ex[i] + y * ey[i];
}

/* Convex hull (Andrew's monotone chain) of n 2-D points in place; returns the vertex count. */
static int hull2(double (*pt)[2], int n)
{
    for (int i = 1; i < n; ++i) /* insertion sort by x, then y */
        for (int j = i; j > 0 && (pt[j][0] < pt[j - 1][0] ||
                                  (pt[j][0] == pt[j - 1][0] && pt[j][1] < pt[j - 1][1]));
             --j) {
            double t0 = pt[j][0], t1 = pt[j][1];
            pt[j][0] = pt[j - 1][0], pt[j][1] = pt[j - 1][1];
            pt[j - 1][0] = t0, pt[j - 1][1] = t1;
        }
    if (n < 3) return n;
    double h[2 * PF_ODE_MAX_CONTACTS + 2][2];
    int k = 0;
#define PFV_CROSS(o, a, b)                                                                         \
    (((a)[0] - (o)[0]) * ((b)[1] - (o)[1]) - ((a)[1] - (o)[1]) * ((b)[0] - (o)[0]))
    for (int i = 0; i < n; ++i) {
        while (k >= 2 && PFV_CROSS(h[k - 2], h[k - 1], pt[i]) <= 0.0)
            k--;
        h[k][0] = pt[i][0], h[k][1] = pt[i][1], k++;
    }
    for (int i = n - 2, t = k + 1; i >= 0; --i) {
        while (k >= t && PFV_CROSS(h[k - 2], h[k - 1], pt[i]) <= 0.0)
            k--;
        h[k][0] = pt[i][0], h[k][1] = pt[i][1], k++;
    }
#undef PFV_CROSS
    k--; /* the last point repeats the first */
    for (int i = 0; i < k; ++i)
        pt[i][0] = h[i][0], pt[i][1] = h[i][1];
    return k;
}

static const float *state_colour(pfOdePatchState s)
{
    switch (s) {
    case PF_ODE_STATE_STICK:
        return pfv_col_stick;
    case PF_ODE_STATE_SLIP:
        return pfv_col_slip;
    default:
        return pfv_col_stock;
    }
}

void pfv_draw_patch(const pfvCamera *c, const pfOdePatchInfo *p, double len, pfvLabels *labels)
{
    double ez[3] = {p->normal[0], p->normal[1], p->normal[2]};
    double ex[3] = {p->xaxis[0], p->xaxis[1], p->xaxis[2]}, ey[3];
    normalize3(ez);
    normalize3(ex);
    if (fabs(dot3(ex, ez)) > 0.5 || norm3(ex) < 0.5) perp_frame(ez, ex, ey); /* stock: no x axis */
    cross3(ez, ex, ey);
    /* outline in the patch frame */
    double pt[48][2]; /* a 48-gon for disks, else at most PF_ODE_MAX_CONTACTS hull points */
    int n = 0;
    if ((p->shape == PF_PATCH_DISK || p->shape == PF_PATCH_HERTZ_DISK) && p->radius > 0.0) {
        for (n = 0; n < 48; ++n) {
            double t = 2.0 * M_PI * n / 48;
            pt[n][0] = p->radius * cos(t), pt[n][1] = p->radius * sin(t);
        }
    } else if (p->geom1 && p->geom2) {
        /* the diagnostics carry no rectangle / polygon vertices: collide the pair again (read
         * only) and take the convex hull of its contact points in the patch plane */
        dContactGeom cg[PF_ODE_MAX_CONTACTS];
        int k = dCollide(p->geom1, p->geom2, PF_ODE_MAX_CONTACTS, cg, sizeof cg[0]);
        for (int i = 0; i < k; ++i) {
            double r[3] = {cg[i].pos[0] - p->centre[0], cg[i].pos[1] - p->centre[1],
                           cg[i].pos[2] - p->centre[2]};
            pt[n][0] = dot3(r, ex), pt[n][1] = dot3(r, ey), n++;
        }
        n = hull2(pt, n);
    }
    double size = p->radius;
    for (int i = 0; i < n; ++i)
        size = fmax(size, hypot(pt[i][0], pt[i][1]));
    if (!(size > 0.0)) size = 0.15 * len;
    const float *col = state_colour(p->state);
    double w[3];
    glDisable(GL_LIGHTING);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    if (n >= 3) {
        glColor4f(col[0], col[1], col[2], 0.35f);
        glBegin(GL_POLYGON);
        for (int i = 0; i < n; ++i) {
            patch_point(p->centre, ex, ey, pt[i][0], pt[i][1], w);
            vtx(w);
        }
        glEnd();
    }
    glDisable(GL_BLEND);
    glColor3fv(col);
    glLineWidth(4.0f);
    glBegin(n >= 3 ? GL_LINE_LOOP : GL_LINES);
    for (int i = 0; i < n; ++i) {
        patch_point(p->centre, ex, ey, pt[i][0], pt[i][1], w);
        vtx(w);
    }
    glEnd();
    glPointSize(9.0f);
    glBegin(GL_POINTS);
    vtx(p->centre);
    glEnd();

    double N = fabs(p->normal_force_measured) > 0.0 ? fabs(p->normal_force_measured)
                                                    : fabs(p->normal_force);
    double head = 0.3 * size;
    /* normal force: fixed length, it points into body 1 */
    double d[3];
    for (int i = 0; i < 3; ++i)
        d[i] = ez[i] * 0.5 * len;
    if (N > 0.0) arrow(p->centre, d, head, pfv_col_normal);
    /* friction force on body 1, length |F| / N * len */
    double F = hypot(p->wrench.fx, p->wrench.fy);
    if (N > 0.0 && F > 1e-9 * N) {
        for (int i = 0; i < 3; ++i)
            d[i] = (p->wrench.fx * ex[i] + p->wrench.fy * ey[i]) / N * len;
        arrow(p->centre, d, head, pfv_col_force);
        double tip[3];
        axpy(tip, p->centre, 1.0, d);
        pfv_label(labels, c, tip, pfv_col_force, "F");
    }
    /* moment about the normal: an arc of radius 0.6 size, sweep |M| / (N size) * 540 deg
     * (capped), counter-clockwise about z for Mz > 0, arrow head at the end */
    if (N > 0.0 && fabs(p->wrench.mz) > 1e-9 * N * size) {
        double sweep = fmin(1.8 * M_PI, fabs(p->wrench.mz) / (N * size) * 3.0 * M_PI);
        sweep = fmax(sweep, 0.35 * M_PI);
        double s = p->wrench.mz > 0.0 ? 1.0 : -1.0, r = 0.6 * size, t = 0.0;
        glColor3fv(pfv_col_moment);
        glLineWidth(3.0f);
        glBegin(GL_LINE_STRIP);
        for (int j = 0; j <= 40; ++j) {
            t = s * sweep * j / 40;
            patch_point(p->centre, ex, ey, r * cos(t), r * sin(t), w);
            vtx(w);
        }
        glEnd();
        /* head: tangent direction at the end */
        double tan2[2] = {-s * sin(t), s * cos(t)}, base[3], dir[3];
        patch_point(p->centre, ex, ey, r * cos(t), r * sin(t), base);
        for (int i = 0; i < 3; ++i)
            dir[i] = (tan2[0] * ex[i] + tan2[1] * ey[i]) * 0.35 * size;
        arrow(base, dir, 0.35 * size, pfv_col_moment);
        pfv_label(labels, c, base, pfv_col_moment, "M");
    }
    /* CR and CA, if defined and not too far out (CR runs off to infinity as w -> 0; a stuck
     * patch's CR comes from round-off velocities and is not drawn) */
    const double far = 25.0 * size;
    if (p->has_cr && p->state != PF_ODE_STATE_STICK && hypot(p->cr[0], p->cr[1]) < far) {
        patch_point(p->centre, ex, ey, p->cr[0], p->cr[1], w);
        glColor3fv(pfv_col_cr);
        glLineWidth(3.0f);
        glBegin(GL_LINE_LOOP);
        for (int j = 0; j < 24; ++j) {
            double t = 2.0 * M_PI * j / 24, q[3];
            patch_point(w, ex, ey, 0.18 * size * cos(t), 0.18 * size * sin(t), q);
            vtx(q);
        }
        glEnd();
        glBegin(GL_LINES);
        double q[3];
        patch_point(w, ex, ey, -0.3 * size, 0.0, q), vtx(q);
        patch_point(w, ex, ey, 0.3 * size, 0.0, q), vtx(q);
        patch_point(w, ex, ey, 0.0, -0.3 * size, q), vtx(q);
        patch_point(w, ex, ey, 0.0, 0.3 * size, q), vtx(q);
        glEnd();
        pfv_label(labels, c, w, pfv_col_cr, "CR");
    }
    if (p->has_ca && hypot(p->ca[0], p->ca[1]) < far) {
        patch_point(p->centre, ex, ey, p->ca[0], p->ca[1], w);
        double r = 0.22 * size, q[3];
        glColor3fv(pfv_col_ca);
        glLineWidth(3.0f);
        glBegin(GL_LINE_LOOP);
        patch_point(w, ex, ey, r, 0.0, q), vtx(q);
        patch_point(w, ex, ey, 0.0, r, q), vtx(q);
        patch_point(w, ex, ey, -r, 0.0, q), vtx(q);
        patch_point(w, ex, ey, 0.0, -r, q), vtx(q);
        glEnd();
        glBegin(GL_LINES);
        patch_point(w, ex, ey, -0.7 * r, -0.7 * r, q), vtx(q);
        patch_point(w, ex, ey, 0.7 * r, 0.7 * r, q), vtx(q);
        patch_point(w, ex, ey, -0.7 * r, 0.7 * r, q), vtx(q);
        patch_point(w, ex, ey, 0.7 * r, -0.7 * r, q), vtx(q);
        glEnd();
        pfv_label(labels, c, w, pfv_col_ca, "CA");
    }
    glEnable(GL_DEPTH_TEST);
}

void pfv_draw_overlay(const pfvCamera *c, const pfSceneOverlay *o, int n, double size,
                      pfvLabels *labels)
{
    glDisable(GL_LIGHTING);
    glDisable(GL_DEPTH_TEST);
    glLineStipple(2, 0x0F0F);
    for (int k = 0; k < n; ++k) {
        const pfSceneOverlay *it = &o[k];
        if (it->dashed) glEnable(GL_LINE_STIPPLE);
        glColor3fv(it->rgb);
        glLineWidth(3.0f);
        const double *at = it->p;
        if (it->kind == PF_SCENE_OVERLAY_POINT) {
            /* a ring with a cross in the horizontal plane (the camera's up as normal) */
            double r = 0.25 * size, q[3];
            glBegin(GL_LINE_LOOP);
            for (int j = 0; j < 32; ++j) {
                double t = 2.0 * M_PI * j / 32;
                for (int i = 0; i < 3; ++i)
                    q[i] = at[i] + r * (cos(t) * c->e1[i] + sin(t) * c->e2[i]);
                vtx(q);
            }
            glEnd();
            glBegin(GL_LINES);
            for (int a = 0; a < 2; ++a)
                for (int sgn = -1; sgn <= 1; sgn += 2) {
                    axpy(q, at, sgn * 1.4 * r, a ? c->e2 : c->e1);
                    vtx(q);
                }
            glEnd();
            glPointSize(7.0f);
            glBegin(GL_POINTS);
            vtx(at);
            glEnd();
        } else if (it->kind == PF_SCENE_OVERLAY_LINE) {
            glBegin(GL_LINES);
            vtx(it->p);
            vtx(it->q);
            glEnd();
            at = it->q;
        } else if (it->kind == PF_SCENE_OVERLAY_ARROW) {
            double d[3] = {it->q[0] - it->p[0], it->q[1] - it->p[1], it->q[2] - it->p[2]};
            arrow(it->p, d, 0.15 * size, it->rgb);
            at = it->q;
        } else {
            glDisable(GL_LINE_STIPPLE);
            continue;
        }
        glDisable(GL_LINE_STIPPLE);
        if (it->label[0]) pfv_label(labels, c, at, it->rgb, it->label);
    }
    glEnable(GL_DEPTH_TEST);
}

/* ---------------------------------------------------------------------------------------- */
/* 2-D                                                                                       */
/* ---------------------------------------------------------------------------------------- */

void pfv_begin_2d(int x, int y, int w, int h, int win_h)
{
    glViewport(x, win_h - y - h, w, h);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glOrtho(x, x + w, y + h, y, -1.0, 1.0);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_LIGHTING);
}

void pfv_rect(float x, float y, float w, float h, const float rgba[4])
{
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glColor4fv(rgba);
    glBegin(GL_QUADS);
    glVertex2f(x, y);
    glVertex2f(x + w, y);
    glVertex2f(x + w, y + h);
    glVertex2f(x, y + h);
    glEnd();
    glDisable(GL_BLEND);
}
