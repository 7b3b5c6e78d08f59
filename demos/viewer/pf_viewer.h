/* The pf-demo viewer (GLFW + OpenGL): runs a pf_scene.h scene in a window, or renders N frames
 * and writes a PNG (--screenshot FILE.png --frames N). Drawing code lives in demos/ only.
 *
 * What you should see: the bodies on a checkered ground; under each body its contact patch
 * (outline and translucent fill, green while it sticks, red while it slips, blue for stock /
 * point friction), the friction force on the body (yellow arrow, length |F|/N times the arrow
 * scale), the normal force (pale blue arrow, fixed length), the friction moment about the normal
 * (pink arc, counter-clockwise for Mz > 0), the centre of rotation CR (cyan ring) and the centre
 * of zero acceleration CA (orange diamond) when defined. Behind each moving body its mass-centre
 * path (a line in a light tint of the body's colour, the last PATH_CAP samples taken every 2 ms
 * of simulated time while it moves); balls in octants of their colour and cream, and cylinder
 * caps in quadrants, so that spin shows; grid lines on the ground plane (the checker's cells,
 * every 10th brighter) and on static or kinematic boxes such as the shaking table, moving with
 * them; the scene's overlay (pf_scene_overlay), e.g. the pinch's closed-form holding offset d*
 * (dashed white ticks on the bar) beside the grip point, the eccentric push and the CA its
 * closed form predicts, or the push scene's friction and motion cones at the finger. The HUD shows
 * time, state, N, |F|, M, friction mode and speed. Keys: Space pause, S or . single step, R reset
 * (clears the paths), + / - speed, F cycle friction mode, V or Tab side-by-side stock vs patch, C
 * camera follow, T paths, G grids, O overlay, H help, Esc quit. Mouse: left drag orbits, right drag
 * pans, wheel zooms. */
#ifndef PF_VIEWER_H
#define PF_VIEWER_H

#include "pf_demo_cli.h"

/** Open the viewer for o->scene (a pf_scene.h scene) with o's case, friction mode, --dt and
 *  --set keys. The viewer's own --set keys: view=single|split (side-by-side from the start) and
 *  keys=STRING, key presses replayed one per frame from the second frame (letters, space, '.',
 *  '+', '-'; e.g. keys=vf: side by side with Pade on the patch side; keys=h: the help; keys=t:
 *  no paths), for
 *  screenshots and tests of the key bindings.
 *  With o->screenshot: render o->frames frames (1/60 s of simulated time each, or
 *  --duration / frames if --duration is given), write the PNG and return. Prints errors to
 *  stderr. Returns the process exit code: 0, 1 (runtime failure), 2 (bad arguments). */
int pf_viewer_main(pfCliOptions *o);

#endif
