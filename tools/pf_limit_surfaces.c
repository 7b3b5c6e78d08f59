/* pf-limit-surfaces: the friction limit surfaces of every patch model, as CSV and gnuplot PNGs.
 *
 * For each model the kinetic wrench W(xi) is evaluated over unit twist directions xi. Twists
 * are made dimensionless with the patch's pressure radius of gyration rho_g, xi = (vx, vy,
 * w rho_g), and wrenches with mu N: (fx, fy, mz / rho_g) / (mu N). In these units pure
 * translation maps to the unit circle |F| = 1 and pure spin to M / (mu N rho_g), which is
 * (2/3) a / rho_g for a uniform disk (P9). The sections through the force-moment plane show the
 * coupling of sliding and spinning that point friction lacks (ODE's pyramid is a box: |fx|, |fy|
 * <= mu N independently, with no spin moment at all).
 *
 * Usage: pf-limit-surfaces [--out DIR] [--quick] [--no-plots]
 * Writes DIR/limit_sections.csv, DIR/limit_surfaces.csv, DIR/limit_sections.png,
 * DIR/limit_surfaces.png (gnuplot) and DIR/limit_surfaces.md. Progress goes to stderr.
 */
#include "pf_demo_cli.h"

#include <errno.h>
#include <math.h>
#include <patchfriction/pf_core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const double PI = 3.14159265358979323846;

typedef struct {
    const char *name;
    const char *label;
    pfPatchDef def;
} Model;

static int make_dir(const char *path)
{
    if (mkdir(path, 0775) == 0 || errno == EEXIST) return 0;
    fprintf(stderr, "pf-limit-surfaces: cannot create directory '%s': %s\n", path, strerror(errno));
    return -1;
}

static FILE *open_out(const char *dir, const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "pf-limit-surfaces: cannot write '%s': %s\n", path, strerror(errno));
    return f;
}

/* Normalised wrench for the normalised twist (ux, uy, uw) = (vx, vy, w rho_g). */
static int eval(const Model *m, double rho, double ux, double uy, double uw, double out[3])
{
    pfTwist t = {ux, uy, uw / rho}, zero = {0, 0, 0};
    pfWrench w;
    pfError e;
    int s = pf_patch_friction(&m->def, 1.0, 1.0, t, zero, &w, &e);
    if (s != PF_OK) {
        fprintf(stderr, "pf-limit-surfaces: model %s: %s\n", m->name, e.message);
        return s;
    }
    out[0] = w.fx;
    out[1] = w.fy;
    out[2] = w.mz / rho;
    return PF_OK;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: pf-limit-surfaces [--out DIR] [--quick] [--no-plots]\n"
               "  writes the friction limit surfaces of every patch model as CSV and PNG\n");
}

int main(int argc, char **argv)
{
    const char *out = "report";
    int quick = 0, plots = 1;
    const pfCliFlag flags[] = {
        {"--out", NULL, 0, &out}, {"--quick", &quick, 1, NULL}, {"--no-plots", &plots, 0, NULL}};
    int rc = pf_cli_tool(argc, argv, "pf-limit-surfaces", flags, 3, usage);
    if (rc >= 0) return rc;
    if (make_dir(out) != 0) return 1;

    Model models[6];
    int nm = 0;
    pfPatchDef d = pf_default_patch_def();
    d.shape = PF_PATCH_RECT;
    d.length = 0.03;
    d.width = 0.01;
    models[nm++] = (Model){"rect_3x1", "rectangle 30 x 10 mm", d};
    d.length = d.width = 0.02;
    models[nm++] = (Model){"square", "square 20 x 20 mm", d};
    d = pf_default_patch_def();
    d.shape = PF_PATCH_DISK;
    d.radius = 0.01;
    models[nm++] = (Model){"disk_uniform", "uniform disk", d};
    d.shape = PF_PATCH_HERTZ_DISK;
    d.radius = 0.003;
    models[nm++] = (Model){"hertz_exact", "Hertz disk, exact P15", d};
    d.model = PF_MODEL_PADE;
    models[nm++] = (Model){"hertz_pade", "Hertz disk, Pade P17", d};
    d = pf_default_patch_def();
    d.shape = PF_PATCH_POLYGON;
    d.vertex_count = 6;
    for (int k = 0; k < 6; ++k) {
        d.vertices[2 * k] = 0.01 * cos(k * PI / 3.0);
        d.vertices[2 * k + 1] = 0.01 * sin(k * PI / 3.0);
    }
    models[nm++] = (Model){"hexagon", "regular hexagon", d};

    const int nsec = quick ? 90 : 720, nth = quick ? 12 : 48, nph = quick ? 24 : 96;
    FILE *fs = open_out(out, "limit_sections.csv");
    FILE *fu = open_out(out, "limit_surfaces.csv");
    if (!fs || !fu) return 1;
    fprintf(fs, "model,section,angle,force,moment\n");
    fprintf(fu, "model,polar,azimuth,fx,fy,mz\n");
    for (int k = 0; k < nm; ++k) {
        double rho;
        pfError e;
        if (pf_patch_gyration_radius(&models[k].def, &rho, &e) != PF_OK) {
            fprintf(stderr, "pf-limit-surfaces: %s\n", e.message);
            return 1;
        }
        fprintf(stderr, "pf-limit-surfaces: [%d/%d] %s\n", k + 1, nm, models[k].label);
        /* Sections: twists in the (vx, w) and (vy, w) planes; force along that axis vs moment. */
        for (int axis = 0; axis < 2; ++axis) {
            for (int i = 0; i <= nsec; ++i) {
                double a = 2.0 * PI * i / nsec, w[3];
                double c = cos(a), s = sin(a);
                if (eval(&models[k], rho, axis == 0 ? c : 0.0, axis == 1 ? c : 0.0, s, w) != PF_OK)
                    return 1;
                fprintf(fs, "%s,%s,%.6f,%.9f,%.9f\n", models[k].name, axis == 0 ? "x" : "y", a,
                        w[axis], w[2]);
            }
            fprintf(fs, "\n");
        }
        for (int i = 0; i <= nth; ++i) {
            double th = PI * i / nth;
            for (int j = 0; j <= nph; ++j) {
                double ph = 2.0 * PI * j / nph, w[3];
                if (eval(&models[k], rho, sin(th) * cos(ph), sin(th) * sin(ph), cos(th), w) !=
                    PF_OK)
                    return 1;
                fprintf(fu, "%s,%.6f,%.6f,%.9f,%.9f,%.9f\n", models[k].name, th, ph, w[0], w[1],
                        w[2]);
            }
            fprintf(fu, "\n");
        }
        fprintf(fu, "\n");
    }
    fclose(fs);
    fclose(fu);

    FILE *md = open_out(out, "limit_surfaces.md");
    if (!md) return 1;
    fprintf(md, "# Friction limit surfaces of the patch models\n\n"
                "Written by `pf-limit-surfaces`. Twists are normalised with the pressure radius "
                "of gyration rho_g, xi = (vx, vy, w rho_g); wrenches with mu N: "
                "(fx, fy, mz/rho_g)/(mu N). Pure sliding lies on |F| = 1, pure spin on the "
                "moment axis (P9: 2/3 a/rho_g = 0.943 for a uniform disk, 3pi/16 a/rho_g = "
                "0.931 for a Hertzian disk).\n\n"
                "![sections](limit_sections.png)\n\n![surfaces](limit_surfaces.png)\n\n"
                "Data: `limit_sections.csv` (model, section axis, twist angle, force along the "
                "axis, moment), `limit_surfaces.csv` (model, polar and azimuth angle of the "
                "twist direction, fx, fy, mz).\n");
    fclose(md);

    if (!plots) return 0;
    FILE *gp = open_out(out, "limit_surfaces.gp");
    if (!gp) return 1;
    fprintf(gp,
            "set datafile separator ','\nset terminal pngcairo size 1400,650 font ',10'\n"
            "set output '%s/limit_sections.png'\nset multiplot layout 1,2 title "
            "'Friction limit curves (force along the axis vs spin moment, normalised)'\n"
            "set size ratio -1\nset grid\nset key outside bottom center horizontal\n",
            out);
    for (int axis = 0; axis < 2; ++axis) {
        fprintf(gp,
                "set title 'section through %s: f_%s/(mu N) vs m_z/(mu N rho_g)'\n"
                "set xlabel 'f_%s / (mu N)'\nset ylabel 'm_z / (mu N rho_g)'\nplot ",
                axis == 0 ? "(v_x, w)" : "(v_y, w)", axis == 0 ? "x" : "y", axis == 0 ? "x" : "y");
        for (int k = 0; k < nm; ++k)
            fprintf(gp,
                    "'%s/limit_sections.csv' using ((strcol(1) eq '%s' && strcol(2) eq '%s') ? "
                    "$4 : NaN):5 with lines lw 2 title '%s'%s",
                    out, models[k].name, axis == 0 ? "x" : "y", models[k].label,
                    k + 1 < nm ? ", \\\n  " : "\n");
    }
    fprintf(gp,
            "unset multiplot\nset terminal pngcairo size 1400,650 font ',10'\n"
            "set output '%s/limit_surfaces.png'\nset multiplot layout 1,2 title "
            "'Limit surfaces (fx, fy, mz/rho_g) / (mu N)'\nset view equal xyz\n"
            "set xlabel 'f_x'\nset ylabel 'f_y'\nset zlabel 'm_z'\nunset key\n"
            "set xyplane relative 0\n",
            out);
    const char *show[2] = {"rect_3x1", "hertz_exact"};
    for (int k = 0; k < 2; ++k)
        fprintf(gp,
                "set title '%s' noenhanced\nsplot '%s/limit_surfaces.csv' using ((strcol(1) eq "
                "'%s') ? $4 : "
                "NaN):5:6 with lines lc rgb '#3060c0'\n",
                show[k], out, show[k]);
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "gnuplot '%s/limit_surfaces.gp'", out);
    fprintf(stderr, "pf-limit-surfaces: plotting with gnuplot\n");
    rc = system(cmd);
    if (rc != 0) {
        fprintf(stderr, "pf-limit-surfaces: gnuplot failed (exit %d); CSVs are written\n", rc);
        return 1;
    }
    fprintf(stderr, "pf-limit-surfaces: wrote %s/limit_surfaces.md\n", out);
    return 0;
}
