/* png_check: checks a pf-demo viewer screenshot (tests/CMakeLists.txt, viewer section).
 *
 *   png_check FILE.png [--expect-stock] [--expect-path] [--expect-mark] [--expect-grid]
 *                      [--expect-overlay] [--no-patch] [--no-sky]
 *
 * Asserts that the picture shows the scene and not a blank or broken frame:
 *   1. it is a PNG of at least 320 x 240 pixels;
 *   2. not blank: the standard deviation of the luminance is above 10 (of 255);
 *   3. the viewer's background colour (pfv_col_background) covers at least 0.05 % of the image
 *      (the sky above the ground's horizon; --no-sky: not this check, for scenes whose camera
 *      looks down on small bodies and frames the ground only, such as the push);
 *   4. in the scene band (rows 20 %..88 %, below the HUD panel and above the legend, which use the
 *      same colours), a body's orange (the first moving body's colour, any shading) covers at
 *      least 0.5 %, and the stick green or slip red patch colour at least 150 pixels;
 *      (--no-patch: not the patch colours, for scenes whose patch is a few pixels);
 *   5. with --expect-stock, also the stock / point patch blue, at least 150 pixels;
 *   6. with --expect-path, the first body's path colour (pfv_col_path[0], drawn unlit) at least
 *      150 pixels in the scene band;
 *   7. with --expect-mark, a ball's cream octants (pfv_col_mark under any lighting: bright, nearly
 *      grey, warm) at least 0.3 % of the image in the scene band;
 *   8. with --expect-grid, the grid line colours (pfv_col_grid on the ground, pfv_col_grid_box on
 *      boxes; unlit) at least 1500 pixels in the scene band;
 *   9. with --expect-overlay, the overlay's white (a closed-form prediction, dashed) at least 150
 *      pixels in the scene band.
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
static const double path0[3] = {1.00, 0.80, 0.50};    /* pfv_col_path[0] */
static const double grid[3] = {0.47, 0.51, 0.58};     /* pfv_col_grid */
static const double grid_box[3] = {0.24, 0.29, 0.38}; /* pfv_col_grid_box */
static const double white[3] = {1.00, 1.00, 1.00};    /* the scenes' predictions */

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

/* The mark cream (0.96, 0.94, 0.86) under any lighting that leaves it bright: all channels at
 * least 150, red at least 8 above blue (warm), spread at most 45. Excludes the ground's greys
 * (below 150), the kinematic table's blue-grey, the pale-blue normal arrow (blue > red), the
 * overlay's and the labels' white (red = blue) and the body colours. */
static int is_mark(const unsigned char *px)
{
    int r = px[0], g = px[1], b = px[2];
    int hi = r > g ? (r > b ? r : b) : (g > b ? g : b),
        lo = r < g ? (r < b ? r : b) : (g < b ? g : b);
    return lo >= 150 && r - b >= 8 && hi - lo <= 45;
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
    int expect_stock = 0, expect_path = 0, expect_mark = 0, expect_grid = 0, expect_overlay = 0;
    int no_patch = 0, no_sky = 0, bad = argc < 2;
    for (int i = 2; i < argc; ++i) {
        if (!strcmp(argv[i], "--expect-stock"))
            expect_stock = 1;
        else if (!strcmp(argv[i], "--expect-path"))
            expect_path = 1;
        else if (!strcmp(argv[i], "--expect-mark"))
            expect_mark = 1;
        else if (!strcmp(argv[i], "--expect-grid"))
            expect_grid = 1;
        else if (!strcmp(argv[i], "--expect-overlay"))
            expect_overlay = 1;
        else if (!strcmp(argv[i], "--no-patch"))
            no_patch = 1;
        else if (!strcmp(argv[i], "--no-sky"))
            no_sky = 1;
        else
            bad = 1;
    }
    if (bad) {
        fprintf(stderr,
                "usage: png_check FILE.png [--expect-stock] [--expect-path] "
                "[--expect-mark] [--expect-grid] [--expect-overlay] [--no-patch] [--no-sky]\n");
        return 2;
    }
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
    long n_path = 0, n_mark = 0, n_grid = 0, n_white = 0;
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
            n_path += near_colour(p, path0, 10);
            n_mark += is_mark(p);
            n_grid += near_colour(p, grid, 4) || near_colour(p, grid_box, 4);
            n_white += near_colour(p, white, 8);
        }
    double npx = (double)w * h, mean = sum / npx;
    double sd = sqrt(fmax(0.0, sum2 / npx - mean * mean));
    printf("%s: %d x %d, luminance mean %.1f sd %.1f\n", argv[1], w, h, mean, sd);
    printf("background %ld px (%.2f %%), body orange %ld px (%.2f %%), stick %ld, slip %ld, "
           "stock %ld px in the scene band\n",
           n_bg, 100.0 * n_bg / npx, n_orange, 100.0 * n_orange / npx, n_stick, n_slip, n_stock);
    printf(
        "path %ld px, ball mark %ld px (%.2f %%), grid %ld px, overlay white %ld px in the scene "
        "band\n",
        n_path, n_mark, 100.0 * n_mark / npx, n_grid, n_white);
    if (!(sd > 10.0)) printf("FAIL blank: luminance sd %.2f <= 10\n", sd), fail = 1;
    if (!no_sky && n_bg < 0.0005 * npx) printf("FAIL background colour below 0.05 %%\n"), fail = 1;
    if (n_orange < 0.005 * npx) printf("FAIL body colour below 0.5 %%\n"), fail = 1;
    if (!no_patch && n_stick < 150 && n_slip < 150)
        printf("FAIL no stick (green) or slip (red) patch: fewer than 150 px each\n"), fail = 1;
    if (expect_stock && n_stock < 150)
        printf("FAIL no stock (blue) patch: fewer than 150 px\n"), fail = 1;
    if (expect_path && n_path < 150) printf("FAIL no path: fewer than 150 px\n"), fail = 1;
    if (expect_mark && n_mark < 0.003 * npx) printf("FAIL no ball marks: below 0.3 %%\n"), fail = 1;
    if (expect_grid && n_grid < 1500) printf("FAIL no grid: fewer than 1500 px\n"), fail = 1;
    if (expect_overlay && n_white < 150)
        printf("FAIL no overlay (white): fewer than 150 px\n"), fail = 1;
    free(px);
    if (!fail) printf("PASS\n");
    return fail;
}
