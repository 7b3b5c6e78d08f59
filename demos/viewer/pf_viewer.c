/* The pf-demo viewer: window, main loop, keys, side-by-side runs and the HUD (pf_viewer.h). */
#include "pf_viewer.h"

#include "pf_scene.h"
#include "pf_viewer_draw.h"
#include "pf_viewer_font.h"
#include "pf_viewer_png.h"

#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG 256
#define MAX_SCENE_GEOMS 256
/// Frames rendered per second of simulated time in screenshot mode (at speed 1).
#define SHOT_FPS 60.0
/// Largest number of physics steps per frame (keeps the window responsive at high speed).
#define MAX_STEPS_PER_FRAME 4000
/// Moving bodies whose path is traced (the first ones in the scene's geom order).
#define PATH_BODIES 32
/// Points kept per path (a ring: the oldest go first); 4096 x 2 ms is 8 s of motion.
#define PATH_CAP 4096
/// Simulated time between path samples [s].
#define PATH_DT 0.002
/// A sample is kept only if the body moved this fraction of the ground cell since the last one
/// (a body at rest does not use up its ring).
#define PATH_MIN_MOVE 0.01

/// Mass-centre path of one moving body.
typedef struct Path {
    dBodyID body;
    int start, n; ///< ring buffer: n points from start
    float p[PATH_CAP][3];
} Path;

typedef struct Side {
    pfScene *scene;
    pfOdeMode mode;
    char error[MSG]; ///< last step error ("" if none)
    Path path[PATH_BODIES];
    double path_t; ///< scene time of the last path sample [s] (negative: none yet)
} Side;

typedef struct Viewer {
    GLFWwindow *win;
    pfvCamera cam;
    Side side[2]; ///< single view: side[0]; side by side: [0] stock, [1] patch
    int split;
    pfOdeMode mode; ///< single view: the mode; side by side: the patch side's mode
    const char *scene_name, *case_name;
    pfSceneParam params[PF_CLI_MAX_SET];
    int nparams;
    double dt;
    int paused, step_once, follow, help;
    int trace, grid, overlay; ///< draw the paths, the grids, the scene's overlay
    double speed;
    double acc;   ///< simulated time owed to the scenes [s]
    double len;   ///< arrow length for |F| = N [m]
    double cell;  ///< ground checker cell [m]
    int dragging; ///< 0 none, 1 orbit, 2 pan
    double mx, my;
    double follow_target[2][3]; ///< per-view camera target while following [m]
    char status[MSG];           ///< transient message in the HUD
    double status_until;        ///< glfwGetTime() when the message goes away
} Viewer;

/* ---------------------------------------------------------------------------------------- */
/* scenes                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/* Geoms of a scene: its own list, else everything in its space (nested spaces descended). */
static int collect_space(dSpaceID sp, dGeomID *out, int n, int max)
{
    int k = dSpaceGetNumGeoms(sp);
    for (int i = 0; i < k && n < max; ++i) {
        dGeomID g = dSpaceGetGeom(sp, i);
        if (dGeomIsSpace(g))
            n = collect_space((dSpaceID)g, out, n, max);
        else
            out[n++] = g;
    }
    return n;
}

static int scene_geoms(const pfScene *s, dGeomID *out, int max)
{
    int n = pf_scene_geoms(s, out, max < PF_SCENE_MAX_GEOMS ? max : PF_SCENE_MAX_GEOMS);
    if (n > 0) return n;
    dSpaceID sp = pf_scene_space(s);
    return sp ? collect_space(sp, out, 0, max) : 0;
}

static int geom_is_dynamic(dGeomID g)
{
    dBodyID b = dGeomGetBody(g);
    return b && !dBodyIsKinematic(b);
}

/* Bounding box of the moving bodies' geoms (all placeable geoms if none move). */
static int scene_bounds(const pfScene *s, double lo[3], double hi[3])
{
    dGeomID g[MAX_SCENE_GEOMS];
    int n = scene_geoms(s, g, MAX_SCENE_GEOMS), found = 0;
    for (int pass = 0; pass < 2 && !found; ++pass)
        for (int i = 0; i < n; ++i) {
            if (dGeomGetClass(g[i]) == dPlaneClass) continue;
            if (pass == 0 && !geom_is_dynamic(g[i])) continue;
            dReal bb[6];
            dGeomGetAABB(g[i], bb);
            for (int a = 0; a < 3; ++a) {
                if (!found || bb[2 * a] < lo[a]) lo[a] = bb[2 * a];
                if (!found || bb[2 * a + 1] > hi[a]) hi[a] = bb[2 * a + 1];
            }
            found = 1;
        }
    return found;
}

/* Smallest body size of the moving bodies (for arrow and grid scales). */
static double body_size(const pfScene *s)
{
    dGeomID g[MAX_SCENE_GEOMS];
    int n = scene_geoms(s, g, MAX_SCENE_GEOMS);
    double best = 0.0;
    for (int i = 0; i < n; ++i) {
        if (dGeomGetClass(g[i]) == dPlaneClass || !geom_is_dynamic(g[i])) continue;
        dReal bb[6];
        dGeomGetAABB(g[i], bb);
        double e = fmax(bb[1] - bb[0], fmax(bb[3] - bb[2], bb[5] - bb[4]));
        if (e > 0.0 && (best == 0.0 || e < best)) best = e;
    }
    return best > 0.0 ? best : 0.1;
}

/* The moving bodies in the order of their first geom (the order of the body colours). */
static int dynamic_bodies(const pfScene *s, dBodyID *out, int max)
{
    dGeomID g[MAX_SCENE_GEOMS];
    int n = scene_geoms(s, g, MAX_SCENE_GEOMS), nb = 0;
    for (int i = 0; i < n && nb < max; ++i) {
        if (dGeomGetClass(g[i]) == dPlaneClass || !geom_is_dynamic(g[i])) continue;
        dBodyID b = dGeomGetBody(g[i]);
        int k = 0;
        while (k < nb && out[k] != b)
            k++;
        if (k == nb) out[nb++] = b;
    }
    return nb;
}

static void path_clear(Side *sd)
{
    for (int k = 0; k < PATH_BODIES; ++k)
        sd->path[k].body = 0, sd->path[k].start = sd->path[k].n = 0;
    sd->path_t = -1.0;
}

/* One sample of every traced body's mass centre, at most every PATH_DT of simulated time. */
static void path_sample(Side *sd, double min_move)
{
    double t = pf_scene_time(sd->scene);
    if (sd->path_t >= 0.0 && t - sd->path_t < PATH_DT - 1e-12) return;
    sd->path_t = t;
    dBodyID b[PATH_BODIES];
    int nb = dynamic_bodies(sd->scene, b, PATH_BODIES);
    for (int k = 0; k < nb; ++k) {
        Path *pa = &sd->path[k];
        if (pa->body != b[k]) pa->body = b[k], pa->start = pa->n = 0;
        const dReal *x = dBodyGetPosition(b[k]);
        if (pa->n > 0) {
            const float *l = pa->p[(pa->start + pa->n - 1) % PATH_CAP];
            if (hypot(hypot(x[0] - l[0], x[1] - l[1]), x[2] - l[2]) < min_move) continue;
        }
        int i = (pa->start + pa->n) % PATH_CAP;
        if (pa->n < PATH_CAP)
            pa->n++;
        else
            pa->start = (pa->start + 1) % PATH_CAP;
        for (int a = 0; a < 3; ++a)
            pa->p[i][a] = (float)x[a];
    }
}

static void side_free(Side *sd)
{
    pf_scene_destroy(sd->scene);
    sd->scene = NULL;
    path_clear(sd);
}

static int side_create(Viewer *v, Side *sd, pfOdeMode mode, char *msg)
{
    pfError err;
    memset(&err, 0, sizeof err);
    side_free(sd);
    sd->mode = mode;
    sd->error[0] = '\0';
    sd->scene = NULL;
    if (pf_scene_create(v->scene_name, v->case_name, mode, v->params, v->nparams, &sd->scene,
                        &err) != PF_OK) {
        snprintf(msg, MSG, "%s", err.message[0] ? err.message : "cannot create the scene");
        return -1;
    }
    return 0;
}

/* (Re)create the scenes of the current layout and mode; keeps the camera. */
static int build_sides(Viewer *v, char *msg)
{
    if (v->split) {
        if (v->mode == PF_ODE_MODE_STOCK) v->mode = PF_ODE_MODE_EXACT;
        if (side_create(v, &v->side[0], PF_ODE_MODE_STOCK, msg)) return -1;
        if (side_create(v, &v->side[1], v->mode, msg)) return -1;
    } else {
        side_free(&v->side[1]);
        if (side_create(v, &v->side[0], v->mode, msg)) return -1;
    }
    v->acc = 0.0;
    if (v->dt <= 0.0) v->dt = pf_scene_default_dt(v->side[0].scene);
    return 0;
}

static void fit_camera(Viewer *v)
{
    double lo[3], hi[3];
    const pfScene *s = v->side[0].scene;
    double size = body_size(s);
    v->len = 2.0 * size;
    /* ground cells: the largest 1-2-5 length not above half the body size */
    double half = 0.5 * size, p = pow(10.0, floor(log10(half)));
    v->cell = half >= 5.0 * p ? 5.0 * p : half >= 2.0 * p ? 2.0 * p : p;
    if (scene_bounds(s, lo, hi)) {
        double r = 0.0;
        for (int a = 0; a < 3; ++a) {
            v->cam.target[a] = 0.5 * (lo[a] + hi[a]);
            r = fmax(r, hi[a] - lo[a]);
        }
        v->cam.dist = fmax(3.0 * r, 4.0 * size);
    }
    for (int k = 0; k < 2; ++k)
        memcpy(v->follow_target[k], v->cam.target, sizeof v->cam.target);
}

static int n_sides(const Viewer *v)
{
    return v->split ? 2 : 1;
}

static void step_all(Viewer *v, long steps)
{
    for (int k = 0; k < n_sides(v); ++k) {
        Side *sd = &v->side[k];
        pfError err;
        memset(&err, 0, sizeof err);
        if (sd->path_t < 0.0) path_sample(sd, 0.0); /* the start point */
        for (long i = 0; i < steps && !sd->error[0]; ++i) {
            if (pf_scene_step(sd->scene, v->dt, &err) != PF_OK)
                snprintf(sd->error, sizeof sd->error, "step failed: %s", err.message);
            else
                path_sample(sd, PATH_MIN_MOVE * v->cell);
        }
    }
}

/* ---------------------------------------------------------------------------------------- */
/* input                                                                                     */
/* ---------------------------------------------------------------------------------------- */

static void set_status(Viewer *v, const char *s)
{
    snprintf(v->status, sizeof v->status, "%s", s);
    v->status_until = glfwGetTime() + 3.0;
}

/* Flips one of the view's switches and says in the status line which way it now stands. */
static void toggle(Viewer *v, int *flag, const char *on, const char *off)
{
    *flag = !*flag;
    set_status(v, *flag ? on : off);
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    Viewer *v = glfwGetWindowUserPointer(w);
    if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
    char msg[MSG] = "";
    switch (key) {
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q:
        glfwSetWindowShouldClose(w, 1);
        break;
    case GLFW_KEY_SPACE:
        v->paused = !v->paused;
        v->acc = 0.0;
        break;
    case GLFW_KEY_S:
    case GLFW_KEY_PERIOD:
        v->paused = 1;
        v->step_once = 1;
        break;
    case GLFW_KEY_R:
        for (int k = 0; k < n_sides(v); ++k) {
            pfError err;
            memset(&err, 0, sizeof err);
            v->side[k].error[0] = '\0';
            if (pf_scene_reset(v->side[k].scene, &err) != PF_OK)
                snprintf(v->side[k].error, MSG, "reset failed: %s", err.message);
            path_clear(&v->side[k]);
        }
        v->acc = 0.0;
        set_status(v, "reset");
        break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
        if (v->speed < 64.0) v->speed *= 2.0;
        break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
        if (v->speed > 1.0 / 256.0) v->speed *= 0.5;
        break;
    case GLFW_KEY_F:
        /* single: stock -> exact -> pade -> stock; side by side: the patch side exact <-> pade */
        if (v->split)
            v->mode = v->mode == PF_ODE_MODE_PADE ? PF_ODE_MODE_EXACT : PF_ODE_MODE_PADE;
        else
            v->mode = v->mode == PF_ODE_MODE_STOCK   ? PF_ODE_MODE_EXACT
                      : v->mode == PF_ODE_MODE_EXACT ? PF_ODE_MODE_PADE
                                                     : PF_ODE_MODE_STOCK;
        if (build_sides(v, msg))
            set_status(v, msg);
        else {
            snprintf(msg, MSG, "friction: %s (scene restarted)", pf_scene_mode_name(v->mode));
            set_status(v, msg);
        }
        break;
    case GLFW_KEY_TAB:
    case GLFW_KEY_V:
        v->split = !v->split;
        if (build_sides(v, msg))
            set_status(v, msg);
        else
            set_status(v, v->split ? "side by side: stock | patch (restarted)" : "single view");
        break;
    case GLFW_KEY_C:
        toggle(v, &v->follow, "camera follows the bodies", "camera fixed");
        break;
    case GLFW_KEY_T:
        toggle(v, &v->trace, "paths shown", "paths hidden (still recorded)");
        break;
    case GLFW_KEY_G:
        toggle(v, &v->grid, "grids shown", "grids hidden");
        break;
    case GLFW_KEY_O:
        toggle(v, &v->overlay, "closed-form overlay shown", "closed-form overlay hidden");
        break;
    case GLFW_KEY_H:
        v->help = !v->help;
        break;
    default:
        break;
    }
}

/* GLFW key of a character of --set keys=... (0 if none). */
static int key_of_char(char c)
{
    if (c >= 'a' && c <= 'z') return GLFW_KEY_A + (c - 'a');
    if (c >= 'A' && c <= 'Z') return GLFW_KEY_A + (c - 'A');
    switch (c) {
    case ' ':
        return GLFW_KEY_SPACE;
    case '.':
        return GLFW_KEY_PERIOD;
    case '+':
        return GLFW_KEY_EQUAL;
    case '-':
        return GLFW_KEY_MINUS;
    default:
        return 0;
    }
}

static void on_mouse_button(GLFWwindow *w, int button, int action, int mods)
{
    (void)mods;
    Viewer *v = glfwGetWindowUserPointer(w);
    if (action == GLFW_PRESS) {
        v->dragging = button == GLFW_MOUSE_BUTTON_LEFT ? 1 : 2;
        glfwGetCursorPos(w, &v->mx, &v->my);
    } else {
        v->dragging = 0;
    }
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    Viewer *v = glfwGetWindowUserPointer(w);
    int ww, wh;
    glfwGetWindowSize(w, &ww, &wh);
    double dx = x - v->mx, dy = y - v->my;
    v->mx = x, v->my = y;
    if (v->dragging == 1) {
        v->cam.yaw -= 0.008 * dx;
        v->cam.pitch = fmin(1.55, fmax(-1.55, v->cam.pitch + 0.008 * dy));
    } else if (v->dragging == 2 && wh > 0) {
        v->follow = 0;
        pfv_camera_pan(&v->cam, dx / wh, dy / wh);
    }
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    Viewer *v = glfwGetWindowUserPointer(w);
    v->cam.dist *= pow(0.88, dy);
}

/* ---------------------------------------------------------------------------------------- */
/* drawing                                                                                   */
/* ---------------------------------------------------------------------------------------- */

static const float body_palette[][3] = {
    {0.95f, 0.55f, 0.15f}, /* orange */
    {0.20f, 0.65f, 0.80f}, /* teal */
    {0.65f, 0.50f, 0.95f}, /* violet */
    {0.90f, 0.80f, 0.35f}, /* sand */
};
static const float col_static[3] = {0.55f, 0.57f, 0.60f};
static const float col_kinematic[3] = {0.45f, 0.55f, 0.70f};

static void draw_scene_3d(Viewer *v, const Side *sd, pfvLabels *labels)
{
    dGeomID g[MAX_SCENE_GEOMS];
    int n = scene_geoms(sd->scene, g, MAX_SCENE_GEOMS);
    for (int i = 0; i < n; ++i)
        if (dGeomGetClass(g[i]) == dPlaneClass) pfv_draw_plane(&v->cam, g[i], v->cell, v->grid);
    glClear(GL_DEPTH_BUFFER_BIT); /* the checkerboard never hides a body */
    dBodyID seen[MAX_SCENE_GEOMS];
    int nseen = 0;
    for (int i = 0; i < n; ++i) {
        if (dGeomGetClass(g[i]) == dPlaneClass) continue;
        dBodyID b = dGeomGetBody(g[i]);
        const float *col = col_static;
        if (b && dBodyIsKinematic(b))
            col = col_kinematic;
        else if (b) {
            int k = 0;
            while (k < nseen && seen[k] != b)
                k++;
            if (k == nseen) seen[nseen++] = b;
            col = body_palette[k % (int)(sizeof body_palette / sizeof body_palette[0])];
        }
        pfv_draw_geom(g[i], col);
        /* tables and floors made of boxes (static or kinematic) get a grid fixed to them */
        if (v->grid && (!b || dBodyIsKinematic(b))) pfv_draw_box_grid(&v->cam, g[i], v->cell);
    }
    if (v->trace)
        for (int k = 0; k < PATH_BODIES; ++k) {
            const Path *pa = &sd->path[k];
            if (!pa->body) continue;
            const dReal *x = dBodyGetPosition(pa->body);
            double now[3] = {x[0], x[1], x[2]};
            pfv_draw_path((const float(*)[3])pa->p, PATH_CAP, pa->start, pa->n, now,
                          pfv_col_path[k % PFV_PATH_COLOURS]);
        }
    pfOdeContext *ctx = pf_scene_ode_context(sd->scene);
    int np = ctx ? pf_ode_patch_count(ctx) : 0;
    for (int i = 0; i < np; ++i) {
        pfOdePatchInfo p;
        if (pf_ode_get_patch(ctx, i, &p) == PF_OK) pfv_draw_patch(&v->cam, &p, v->len, labels);
    }
    if (v->overlay) {
        pfSceneOverlay ov[PF_SCENE_MAX_OVERLAY];
        int no = pf_scene_overlay(sd->scene, ov, PF_SCENE_MAX_OVERLAY);
        pfv_draw_overlay(&v->cam, ov, no, 0.5 * v->len, labels);
    }
}

static const char *state_name(pfOdePatchState s)
{
    switch (s) {
    case PF_ODE_STATE_STICK:
        return "stick";
    case PF_ODE_STATE_SLIP:
        return "slip";
    case PF_ODE_STATE_POINT:
        return "point";
    case PF_ODE_STATE_STOCK:
        return "stock";
    default:
        return "-";
    }
}

static const float col_text[3] = {0.93f, 0.94f, 0.96f};
static const float col_dim[3] = {0.65f, 0.68f, 0.74f};
static const float col_panel[4] = {0.05f, 0.06f, 0.08f, 0.72f};

static void text_rgb(float x, float y, float scale, const float rgb[3], const char *s)
{
    glColor3f(0.0f, 0.0f, 0.0f); /* 1-pixel shadow keeps text readable over anything */
    pfv_text(x + scale * 0.5f, y + scale * 0.5f, scale, s);
    glColor3fv(rgb);
    pfv_text(x, y, scale, s);
}

static void draw_hud(Viewer *v, const Side *sd, int x0, int y0, int w, int h,
                     const pfvLabels *labels)
{
    int win_w, win_h;
    glfwGetFramebufferSize(v->win, &win_w, &win_h);
    pfv_begin_2d(x0, y0, w, h, win_h);
    for (int i = 0; i < labels->n; ++i)
        text_rgb(labels->x[i] + 8.0f, labels->y[i] - 20.0f, 2.0f, labels->rgb[i], labels->text[i]);

    float s = 2.0f;
    float lh = PFV_FONT_LINE * s + 4.0f;
    char line[6][160];
    int nl = 0;
    const pfScene *sc = sd->scene;
    const char *mode = pf_scene_mode_name(sd->mode);
    snprintf(line[nl++], sizeof line[0], "%s / %s   friction: %s", pf_scene_name(sc),
             pf_scene_case(sc), mode);
    snprintf(line[nl++], sizeof line[0], "t = %.3f s   speed x%g   %s", pf_scene_time(sc), v->speed,
             v->paused ? "PAUSED" : "running");
    pfOdeContext *ctx = pf_scene_ode_context(sc);
    int np = ctx ? pf_ode_patch_count(ctx) : 0;
    if (np == 0) snprintf(line[nl++], sizeof line[0], "no contact");
    for (int i = 0; i < np && i < 3; ++i) {
        pfOdePatchInfo p;
        if (pf_ode_get_patch(ctx, i, &p) != PF_OK) continue;
        double N = p.normal_force_measured != 0.0 ? p.normal_force_measured : p.normal_force;
        double M = fabs(p.wrench.mz) > 1e-9 * fabs(N) * v->len ? p.wrench.mz : 0.0;
        static const char *const tags[3] = {"1: ", "2: ", "3: "};
        const char *tag = np > 1 ? tags[i] : "";
        double F = hypot(p.wrench.fx, p.wrench.fy);
        if (F < 1e-9 * fabs(N)) F = 0.0; /* round-off of a resting patch */
        if (p.state == PF_ODE_STATE_STOCK && F == 0.0 && M == 0.0) /* adapter reports N only */
            snprintf(line[nl++], sizeof line[0], "%s%-5s N=%.4g N  |F|, M: not reported", tag,
                     state_name(p.state), N);
        else
            snprintf(line[nl++], sizeof line[0], "%s%-5s N=%.4g N  |F|=%.4g N  M=%.3g N m", tag,
                     state_name(p.state), N, F, M);
    }
    char scene_line[160];
    pf_scene_state_string(sc, scene_line, (int)sizeof scene_line);

    float panel_w = 0.0f;
    for (int i = 0; i < nl; ++i)
        panel_w = fmaxf(panel_w, pfv_text_width(s, line[i]));
    float s2 = pfv_text_width(s, scene_line) + 24.0f <= (float)w ? s : 1.0f;
    panel_w = fmaxf(panel_w, pfv_text_width(s2, scene_line));
    panel_w = fminf(panel_w + 20.0f, (float)w - 8.0f);
    float panel_h = nl * lh + PFV_FONT_LINE * s2 + 16.0f + (sd->error[0] ? lh : 0.0f);
    pfv_rect((float)x0 + 4.0f, (float)y0 + 4.0f, panel_w, panel_h, col_panel);
    float tx = (float)x0 + 14.0f, ty = (float)y0 + 12.0f;
    for (int i = 0; i < nl; ++i, ty += lh) {
        const float *c = col_text;
        if (i >= 2 && np > 0) {
            /* patch lines in the state colour */
            pfOdePatchInfo p;
            if (pf_ode_get_patch(ctx, i - 2, &p) == PF_OK)
                c = p.state == PF_ODE_STATE_STICK  ? pfv_col_stick
                    : p.state == PF_ODE_STATE_SLIP ? pfv_col_slip
                                                   : pfv_col_stock;
        }
        text_rgb(tx, ty, s, c, line[i]);
    }
    text_rgb(tx, ty, s2, col_dim, scene_line);
    if (sd->error[0]) text_rgb(tx, ty + lh, s2, pfv_col_slip, sd->error);
}

static void draw_global_hud(Viewer *v, int win_w, int win_h)
{
    pfv_begin_2d(0, 0, win_w, win_h, win_h);
    /* at most 104 characters: the line fits 1280 pixels at scale 2 (Esc quit is in the help) */
    const char *keys = "Space pause  S step  R reset  +/- speed  F friction  V split  C follow  "
                       "T path  G grid  O overlay  H help";
    if (v->split) {
        glColor3f(0.0f, 0.0f, 0.0f);
        glLineWidth(3.0f);
        glBegin(GL_LINES);
        glVertex2f(0.5f * (float)win_w, 0.0f);
        glVertex2f(0.5f * (float)win_w, (float)win_h);
        glEnd();
    }
    float s = pfv_text_width(2.0f, keys) + 20.0f <= (float)win_w ? 2.0f : 1.0f;
    float y = (float)win_h - PFV_FONT_LINE * s - 8.0f;
    pfv_rect(0.0f, y - 6.0f, (float)win_w, (float)win_h - y + 6.0f, col_panel);
    text_rgb(10.0f, y, s, col_dim, keys);
    /* colour legend above the key line, right-aligned */
    static const char *names[] = {"stick",    "slip",     "stock/point", "friction F",
                                  "normal N", "moment M", "CR",          "CA"};
    const float *cols[] = {pfv_col_stick,  pfv_col_slip,   pfv_col_stock, pfv_col_force,
                           pfv_col_normal, pfv_col_moment, pfv_col_cr,    pfv_col_ca};
    float lx = (float)win_w - 10.0f, ly = y - PFV_FONT_LINE * 2.0f - 8.0f;
    float lw = 0.0f;
    for (int i = 0; i < 8; ++i)
        lw += pfv_text_width(2.0f, names[i]) + 34.0f;
    pfv_rect(lx - lw - 4.0f, ly - 6.0f, lw + 14.0f, PFV_FONT_LINE * 2.0f + 8.0f, col_panel);
    for (int i = 7; i >= 0; --i) {
        lx -= pfv_text_width(2.0f, names[i]);
        text_rgb(lx, ly, 2.0f, cols[i], names[i]);
        lx -= 16.0f;
        float sw[4] = {cols[i][0], cols[i][1], cols[i][2], 1.0f};
        pfv_rect(lx, ly + 2.0f, 10.0f, 10.0f, sw);
        lx -= 18.0f;
    }
    if (v->status[0]) text_rgb(10.0f, ly, 2.0f, col_text, v->status);
    if (v->help) {
        const char *help = "Mouse: left drag orbit, right drag pan, wheel zoom\n"
                           "Space  pause / run          S or .  one physics step\n"
                           "Esc/Q  quit\n"
                           "R      reset the scene      + / -   speed x2 / x0.5\n"
                           "F      friction mode (stock, exact, pade; restarts)\n"
                           "V/Tab  side by side: stock | patch, lock-step\n"
                           "C      camera follows the bodies on / off\n"
                           "T      mass-centre paths on / off   G  grids on / off\n"
                           "O      the scene's closed-form overlay on / off\n"
                           "Arrows: yellow friction force on the body (|F|/N scaled),\n"
                           "pale blue normal, pink arc friction moment about the normal.\n"
                           "Patch: green stick, red slip, blue stock / point friction.\n"
                           "CR centre of rotation, CA centre of zero acceleration.\n"
                           "Paths: a light tint of each body's colour. Balls: octants.\n"
                           "Overlay: dashed = prediction (pinch d*, CA, push cones).";
        float hw = pfv_text_width(2.0f, help) + 30.0f, hh = 16 * PFV_FONT_LINE * 2.0f + 30.0f;
        float hx = 0.5f * ((float)win_w - hw), hy = 0.5f * ((float)win_h - hh);
        const float opaque[4] = {col_panel[0], col_panel[1], col_panel[2], 0.92f};
        pfv_rect(hx, hy, hw, hh, opaque);
        text_rgb(hx + 15.0f, hy + 15.0f, 2.0f, col_text, help);
    }
}

static void render(Viewer *v)
{
    int win_w, win_h;
    glfwGetFramebufferSize(v->win, &win_w, &win_h);
    glViewport(0, 0, win_w, win_h);
    glClearColor(pfv_col_background[0], pfv_col_background[1], pfv_col_background[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    int ns = n_sides(v);
    for (int k = 0; k < ns; ++k) {
        int vx = k * win_w / ns, vw = win_w / ns;
        pfvLabels labels;
        labels.n = 0;
        glEnable(GL_DEPTH_TEST);
        if (v->follow) memcpy(v->cam.target, v->follow_target[k], sizeof v->cam.target);
        pfv_camera_apply(&v->cam, vx, 0, vw, win_h, win_h);
        draw_scene_3d(v, &v->side[k], &labels);
        draw_hud(v, &v->side[k], vx, 0, vw, win_h, &labels);
    }
    draw_global_hud(v, win_w, win_h);
}

/* While following, each view keeps its own bodies centred (side by side: the two runs drift
 * apart, and the checkerboard shows how far each has gone). */
static void follow_bodies(Viewer *v, double rate)
{
    double lo[3], hi[3];
    if (!v->follow) return;
    for (int k = 0; k < n_sides(v); ++k)
        if (scene_bounds(v->side[k].scene, lo, hi))
            for (int a = 0; a < 3; ++a)
                v->follow_target[k][a] += rate * (0.5 * (lo[a] + hi[a]) - v->follow_target[k][a]);
}

static int save_screenshot(Viewer *v, const char *path)
{
    int w, h;
    glfwGetFramebufferSize(v->win, &w, &h);
    unsigned char *px = malloc((size_t)w * (size_t)h * 3u), *flip = malloc((size_t)w * 3u);
    if (!px || !flip) {
        free(px);
        free(flip);
        fprintf(stderr, "pf-demo: out of memory for the screenshot\n");
        return -1;
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px);
    size_t row = (size_t)w * 3u;
    for (int y = 0; y < h / 2; ++y) { /* OpenGL rows are bottom-up, PNG rows top-down */
        memcpy(flip, px + (size_t)y * row, row);
        memcpy(px + (size_t)y * row, px + (size_t)(h - 1 - y) * row, row);
        memcpy(px + (size_t)(h - 1 - y) * row, flip, row);
    }
    char msg[MSG];
    int rc = pfv_png_write_rgb(path, px, w, h, msg, sizeof msg);
    if (rc) fprintf(stderr, "pf-demo: %s\n", msg);
    free(px);
    free(flip);
    return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* entry                                                                                     */
/* ---------------------------------------------------------------------------------------- */

static void on_glfw_error(int code, const char *desc)
{
    fprintf(stderr, "pf-demo: GLFW error %d: %s\n", code, desc);
}

int pf_viewer_main(pfCliOptions *o)
{
    static Viewer vw; /* callbacks reach it through the window user pointer */
    Viewer *v = &vw;
    memset(v, 0, sizeof *v);
    char msg[MSG] = "";
    if (!pf_scene_find(o->scene)) {
        fprintf(stderr, "pf-demo: scene '%s' has no viewer (3-D scenes:", o->scene);
        for (int i = 0; i < pf_scene_count(); ++i)
            fprintf(stderr, " %s", pf_scene_info(i)->name);
        fprintf(stderr, "); run it with --headless\n");
        return 2;
    }
    if (pf_scene_mode_from_name(o->friction, &v->mode)) {
        fprintf(stderr, "pf-demo: --friction %s: expected stock, exact or pade\n", o->friction);
        return 2;
    }
    const char *view = pf_cli_set_string(o, "view");
    if (view && strcmp(view, "single") && strcmp(view, "split")) {
        fprintf(stderr, "pf-demo: --set view=%s: expected single or split\n", view);
        return 2;
    }
    v->split = view && !strcmp(view, "split");
    const char *keys = pf_cli_set_string(o, "keys");
    for (const char *k = keys; k && *k; ++k)
        if (!key_of_char(*k)) {
            fprintf(stderr,
                    "pf-demo: --set keys=%s: no key for '%c' (use space . s r + - f v c t g o h)\n",
                    keys, *k);
            return 2;
        }
    for (int i = 0; i < o->nset; ++i)
        if (strcmp(o->set_key[i], "view") && strcmp(o->set_key[i], "keys")) {
            v->params[v->nparams].key = o->set_key[i];
            v->params[v->nparams].value = o->set_val[i];
            v->nparams++;
        }
    v->scene_name = o->scene;
    v->case_name = o->case_name;
    v->dt = o->dt;
    v->speed = 1.0;
    v->follow = 1;
    v->trace = v->grid = v->overlay = 1;
    if (build_sides(v, msg)) {
        fprintf(stderr, "pf-demo: %s\n", msg);
        for (int k = 0; k < 2; ++k)
            side_free(&v->side[k]);
        return 2;
    }

    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        fprintf(stderr, "pf-demo: cannot initialise GLFW (no display? try xvfb-run -a)\n");
        side_free(&v->side[0]);
        side_free(&v->side[1]);
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 2);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
    glfwWindowHint(GLFW_SAMPLES, 4);
    char title[MSG];
    snprintf(title, sizeof title, "pf-demo %s / %s", o->scene, pf_scene_case(v->side[0].scene));
    v->win = glfwCreateWindow(1280, 720, title, NULL, NULL);
    if (!v->win) {
        fprintf(stderr, "pf-demo: cannot open a window with an OpenGL 2.1 context\n");
        glfwTerminate();
        side_free(&v->side[0]);
        side_free(&v->side[1]);
        return 1;
    }
    glfwMakeContextCurrent(v->win);
    glfwSwapInterval(o->screenshot ? 0 : 1);
    glfwSetWindowUserPointer(v->win, v);
    glfwSetKeyCallback(v->win, on_key);
    glfwSetMouseButtonCallback(v->win, on_mouse_button);
    glfwSetCursorPosCallback(v->win, on_cursor);
    glfwSetScrollCallback(v->win, on_scroll);

    glEnable(GL_DEPTH_TEST);
    glEnable(GL_LIGHT0);
    glEnable(GL_COLOR_MATERIAL);
    glColorMaterial(GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE);
    glEnable(GL_NORMALIZE);
    GLfloat amb[4] = {0.35f, 0.35f, 0.38f, 1.0f}, dif[4] = {0.75f, 0.75f, 0.72f, 1.0f};
    glLightModelfv(GL_LIGHT_MODEL_AMBIENT, amb);
    glLightfv(GL_LIGHT0, GL_DIFFUSE, dif);

    dVector3 grav = {0, 0, -9.81, 0};
    dWorldGetGravity(pf_scene_world(v->side[0].scene), grav);
    double gv[3] = {grav[0], grav[1], grav[2]};
    pfv_camera_init(&v->cam, gv);
    fit_camera(v);

    int rc = 0, frame = 0;
    double last = glfwGetTime();
    double shot_step = o->duration > 0.0 ? o->duration / o->frames : 1.0 / SHOT_FPS;
    while (!glfwWindowShouldClose(v->win)) {
        glfwPollEvents();
        double now = glfwGetTime(), real = fmin(now - last, 0.1);
        last = now;
        long steps = 0;
        /* scripted key presses (--set keys=...), one per frame from the second frame on */
        if (keys && frame >= 1 && (size_t)(frame - 1) < strlen(keys))
            on_key(v->win, key_of_char(keys[frame - 1]), 0, GLFW_PRESS, 0);
        if (o->screenshot && !v->paused) {
            v->acc += shot_step * v->speed;
        } else if (!o->screenshot && !v->paused) {
            v->acc += real * v->speed;
        }
        if (v->acc > 0.0) {
            steps = (long)floor(v->acc / v->dt + 1e-9);
            if (steps > MAX_STEPS_PER_FRAME) steps = MAX_STEPS_PER_FRAME, v->acc = 0.0;
            v->acc -= steps * v->dt;
        }
        if (v->step_once) steps = 1, v->step_once = 0;
        if (steps > 0) step_all(v, steps);
        follow_bodies(v, o->screenshot ? 1.0 : 0.1);
        if (v->status[0] && !o->screenshot && now > v->status_until) v->status[0] = '\0';
        render(v);
        frame++;
        if (o->screenshot && frame >= o->frames) {
            glFinish();
            rc = save_screenshot(v, o->screenshot) ? 1 : 0;
            if (!rc)
                fprintf(stderr, "pf-demo: wrote %s (%d frames, t = %.3f s)\n", o->screenshot, frame,
                        pf_scene_time(v->side[0].scene));
            break;
        }
        glfwSwapBuffers(v->win);
    }
    glfwDestroyWindow(v->win);
    glfwTerminate();
    side_free(&v->side[0]);
    side_free(&v->side[1]);
    return rc;
}
