/* PNG writer of the viewer's screenshots (libpng). */
#ifndef PF_VIEWER_PNG_H
#define PF_VIEWER_PNG_H

#include <stddef.h>

/** Write an 8-bit RGB image of width x height pixels, rows top to bottom (stride 3 * width), to
 *  path. Returns 0, or -1 with a message naming the path in msg. */
int pfv_png_write_rgb(const char *path, const unsigned char *rgb, int width, int height, char *msg,
                      size_t msg_size);

#endif
