/* png_check: checks a pf-demo viewer screenshot (tests/CMakeLists.txt, viewer section).
 *
 *   png_check FILE.png [--expect-stock]
 *
 * Asserts that the picture shows the scene and not a blank or broken frame:
 *   1. it is a PNG of at least 320 x 240 pixels;
 *   2. not blank: the standard deviation of the luminance is above 10 (of 255);
 *   3. the viewer's background colour (pfv_col_background) covers at least 0.05 % of the image
 *      (the sky above the ground's horizon);
 *   4. in the scene band (rows 20 %..88 %, below the HUD panel and above the legend, which use the
 *      same colours), a body's orange (the first moving body's colour, any shading) covers at
 *      least 0.5 %, and the stick green or slip red patch colour at least 150 pixels;
 *   5. with --expect-stock, also the stock / point patch blue, at least 150 pixels.
 * Prints what it measured; exit status 0 if every check passes, 1 otherwise, 2 on bad usage. */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Must match demos/viewer/pf_viewer_draw.c and pf_viewer.c (0..1 floats there). */
static const double background[3] = {0.16, 0.18, 0.23};
static const double stick[3] = {0.10, 0.85, 0.25};
static const double slip[3] = {0.95, 0.15, 0.12};
static const double stock[3] = {0.30, 0.60, 1.00};

static int near_colour(const unsigned char *px, const double ref[3], int tol)
{
    for (int k = 0; k < 3; ++k)
        if (abs((int)px[k] - (int)lround(255.0 * ref[k])) > tol) return 0;
    return 1;
}

/* The body orange (0.95, 0.55, 0.15) under any lighting: red dominant, green about half of red,
 * little blue. Excludes the slip red (g/r 0.16), the force yellow (g/r 0.88) and the greys. */
static int is_orange(const unsigned char *px)
{
    double r = px[0], g = px[1], b = px[2];
    return r >= 90.0 && g >= 0.38 * r && g <= 0.72 * r && b <= 0.45 * r;
}

static unsigned char *read_png(const char *path, int *w, int *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        fprintf(stderr, "png_check: %s: %s\n", path, img.message);
        return NULL;
    }
    img.format = PNG_FORMAT_RGB;
    unsigned char *buf = malloc(PNG_IMAGE_SIZE(img));
    if (!buf || !png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        fprintf(stderr, "png_check: %s: %s\n", path, buf ? img.message : "out of memory");
        free(buf);
        png_image_free(&img);
        return NULL;
    }
    *w = (int)img.width;
    *h = (int)img.height;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--expect-stock"))) {
        fprintf(stderr, "usage: png_check FILE.png [--expect-stock]\n");
        return 2;
    }
    int expect_stock = argc == 3;
    int w = 0, h = 0;
    unsigned char *px = read_png(argv[1], &w, &h);
    if (!px) return 1;
    int fail = 0;
    if (w < 320 || h < 240) {
        printf("FAIL size %d x %d (expected at least 320 x 240)\n", w, h);
        free(px);
        return 1;
    }
    double sum = 0.0, sum2 = 0.0;
    long n_bg = 0, n_orange = 0, n_stick = 0, n_slip = 0, n_stock = 0;
    int y0 = h / 5, y1 = (int)(0.88 * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const unsigned char *p = px + 3 * ((size_t)y * (size_t)w + (size_t)x);
            double lum = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
            sum += lum;
            sum2 += lum * lum;
            n_bg += near_colour(p, background, 3);
            if (y < y0 || y >= y1) continue;
            n_orange += is_orange(p);
            n_stick += near_colour(p, stick, 12);
            n_slip += near_colour(p, slip, 12);
            n_stock += near_colour(p, stock, 12);
        }
    double npx = (double)w * h, mean = sum / npx;
    double sd = sqrt(fmax(0.0, sum2 / npx - mean * mean));
    printf("%s: %d x %d, luminance mean %.1f sd %.1f\n", argv[1], w, h, mean, sd);
    printf("background %ld px (%.2f %%), body orange %ld px (%.2f %%), stick %ld, slip %ld, "
           "stock %ld px in the scene band\n",
           n_bg, 100.0 * n_bg / npx, n_orange, 100.0 * n_orange / npx, n_stick, n_slip, n_stock);
    if (!(sd > 10.0)) printf("FAIL blank: luminance sd %.2f <= 10\n", sd), fail = 1;
    if (n_bg < 0.0005 * npx) printf("FAIL background colour below 0.05 %%\n"), fail = 1;
    if (n_orange < 0.005 * npx) printf("FAIL body colour below 0.5 %%\n"), fail = 1;
    if (n_stick < 150 && n_slip < 150)
        printf("FAIL no stick (green) or slip (red) patch: fewer than 150 px each\n"), fail = 1;
    if (expect_stock && n_stock < 150)
        printf("FAIL no stock (blue) patch: fewer than 150 px\n"), fail = 1;
    free(px);
    if (!fail) printf("PASS\n");
    return fail;
}
