/* PNG writer of the viewer's screenshots (libpng). */
#include "pf_viewer_png.h"

#include <png.h>
#include <stdio.h>

int pfv_png_write_rgb(const char *path, const unsigned char *rgb, int width, int height, char *msg,
                      size_t msg_size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(msg, msg_size, "--screenshot %s: cannot open for writing", path);
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        fclose(f);
        snprintf(msg, msg_size, "--screenshot %s: libpng could not start", path);
        return -1;
    }
    /* libpng reports errors by longjmp; volatile keeps f valid across it. */
    FILE *volatile fv = f;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(fv);
        snprintf(msg, msg_size, "--screenshot %s: libpng write error", path);
        return -1;
    }
    png_init_io(png, fv);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height; ++y)
        png_write_row(png, (png_const_bytep)(rgb + (size_t)y * 3u * (size_t)width));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(fv) != 0) {
        snprintf(msg, msg_size, "--screenshot %s: write failed", path);
        return -1;
    }
    return 0;
}
