/* Built-in 5x8 bitmap font of the viewer's HUD: no font library, drawn as GL quads. */
#ifndef PF_VIEWER_FONT_H
#define PF_VIEWER_FONT_H

/// Glyph cell in font pixels (5 columns + 1 spacing, 8 rows + 2 line spacing).
#define PFV_FONT_ADVANCE 6
#define PFV_FONT_LINE 10

/** Draw ASCII text (other bytes as '?') with its top-left corner at (x, y) in window pixels,
 *  y down, each font pixel scale x scale window pixels, in the current colour. Needs an
 *  orthographic projection in window pixels (pfv_begin_2d). '\n' starts a new line. */
void pfv_text(float x, float y, float scale, const char *s);
/// Width in window pixels of the longest line of s at scale.
float pfv_text_width(float scale, const char *s);

#endif
