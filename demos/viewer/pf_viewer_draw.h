/* Drawing of the viewer (legacy OpenGL, immediate mode): orbit camera, ODE geoms from their
 * poses, arrows and markers, and the patch diagnostics of the adapter (pf_ode.h). */
#ifndef PF_VIEWER_DRAW_H
#define PF_VIEWER_DRAW_H

#include "pf_scene.h"

#include <ode/ode.h>
#include <patchfriction/pf_ode.h>

/// Orbit camera about a target point, z of the orbit = the world's up (against gravity).
typedef struct pfvCamera {
    double target[3];           ///< point looked at [m]
    double yaw, pitch;          ///< [rad]; pitch > 0 looks down on the target
    double dist;                ///< eye distance from the target [m]
    double fovy;                ///< vertical field of view [rad]
    double up[3], e1[3], e2[3]; ///< orthonormal frame, up first
    /* set by pfv_camera_apply */
    double view[16], proj[16]; ///< column-major, as OpenGL
    int vp[4];                 ///< viewport x, y (from the bottom), w, h [pixels]
    int win_h;                 ///< window height, to turn GL y into window y (down)
} pfvCamera;

/// Camera looking at the origin from 1 m; up = -gravity (z if gravity is zero).
void pfv_camera_init(pfvCamera *c, const double gravity[3]);
/// Eye position [m].
void pfv_camera_eye(const pfvCamera *c, double eye[3]);
/** Viewport (x, y from the bottom, w, h) of a window win_h pixels high: sets the viewport,
 *  projection, view and the world-fixed light. */
void pfv_camera_apply(pfvCamera *c, int x, int y, int w, int h, int win_h);
/** Window coordinates (pixels, y down) of world point p; returns 0 if p is behind the eye. */
int pfv_camera_project(const pfvCamera *c, const double p[3], double *sx, double *sy);
/// Pan by a fraction of the view (dx, dy in viewport heights).
void pfv_camera_pan(pfvCamera *c, double dx, double dy);

/// Text labels queued by the 3-D pass and drawn by the HUD pass.
#define PFV_MAX_LABELS 32
typedef struct pfvLabels {
    int n;
    float x[PFV_MAX_LABELS], y[PFV_MAX_LABELS];
    float rgb[PFV_MAX_LABELS][3];
    char text[PFV_MAX_LABELS][32];
} pfvLabels;
void pfv_label(pfvLabels *l, const pfvCamera *c, const double p[3], const float rgb[3],
               const char *text);

/// Colours shared with the HUD legend and the screenshot test (tests/viewer/png_check.c).
extern const float pfv_col_background[3];
extern const float pfv_col_stick[3];
extern const float pfv_col_slip[3];
extern const float pfv_col_stock[3];
extern const float pfv_col_force[3];
extern const float pfv_col_normal[3];
extern const float pfv_col_moment[3];
extern const float pfv_col_cr[3];
extern const float pfv_col_ca[3];
/// Grid lines on the ground plane (light on its dark checker) and on static / kinematic boxes'
/// top faces (dark on their lit grey-blue).
extern const float pfv_col_grid[3];
extern const float pfv_col_grid_box[3];
/// The second colour of a sphere's octants and a cylinder's cap quadrants (the spin marks).
extern const float pfv_col_mark[3];
/// Path colours, one per moving body in the order of the body colours (cycled).
#define PFV_PATH_COLOURS 4
extern const float pfv_col_path[PFV_PATH_COLOURS][3];

/** Ground plane geom (dPlaneClass) as a checkerboard of cells of size cell [m] around the
 *  camera target; with grid, also grid lines on the cell edges (brighter every 10th). */
void pfv_draw_plane(const pfvCamera *c, dGeomID plane, double cell, int grid);
/** A placeable geom (box, sphere, cylinder, capsule; others as their bounding box) in colour rgb.
 *  Spheres are drawn in octants of rgb and pfv_col_mark, cylinders with their caps in quadrants,
 *  so that spin shows. Filled faces are pushed back in depth (polygon offset) so that lines drawn
 *  on them afterwards (pfv_draw_box_grid) do not fight with them. */
void pfv_draw_geom(dGeomID g, const float rgb[3]);
/** Grid lines of spacing cell [m] on the face of box g that looks most along the camera's up
 *  (none if no face looks up), fixed to the box (they move with it), over a window around the
 *  camera target. */
void pfv_draw_box_grid(const pfvCamera *c, dGeomID g, double cell);
/** A body's path: the ring buffer pts[cap] holding n points from index start (oldest first),
 *  then the point last (the body now, marked with a dot; NULL for none), as a line strip in rgb
 *  drawn over the bodies. */
void pfv_draw_path(const float (*pts)[3], int cap, int start, int n, const double last[3],
                   const float rgb[3]);
/** A scene's overlay items (pf_scene_overlay), over the bodies (no depth test); size [m] scales
 *  markers and arrow heads. Labels are queued in labels. */
void pfv_draw_overlay(const pfvCamera *c, const pfSceneOverlay *o, int n, double size,
                      pfvLabels *labels);

/** A patch: outline (from the shape and radius, or the convex hull of the pair's contact points
 *  for rectangles / polygons / point patches), fill in the stick / slip colour, friction force
 *  and normal force arrows, moment arc, CR and CA markers with labels. len is the length [m] an
 *  arrow of |F| = N gets. Drawn over the bodies (no depth test) so it shows through the block. */
void pfv_draw_patch(const pfvCamera *c, const pfOdePatchInfo *p, double len, pfvLabels *labels);

/// Window-pixel orthographic projection over the viewport (x, y from the top, y down).
void pfv_begin_2d(int x, int y, int w, int h, int win_h);
/// Filled rectangle in 2-D mode.
void pfv_rect(float x, float y, float w, float h, const float rgba[4]);

#endif
