/* Against other engines: the canonical cases of tools/peers/pf_peer_cases.h in ODE (stock and
 * patch friction), MuJoCo and Bullet, each run by its pf-peer-* program (--peer, repeatable),
 * next to an independent reference, in one table of measured cells; then each configuration's
 * settings and notes.
 *
 * The reference column comes from closed forms and quadrature here, never from an engine or the
 * plugin's core: h = 0 push mu_s m g; h = 5, 10 mm the limit-set breakaway of the uniformly
 * pressed 30 x 10 mm rectangle (midpoint quadrature of the pointwise Coulomb law below, which
 * shares no code with pf_core); direction spread and creep 0; the disk's eps at the programs'
 * sample and its stop times from the disk's equations of motion, integrated here with the same
 * quadrature (ref_disk; eps tends to the literature value 0.653 of Farkas, Bender, Wolf, Phys.
 * Rev. Lett. 90, 248302, 2003, only as both motions stop); the pinch ratio 1 (the program's
 * measured offset over the closed-form soft-finger limit). */
#include "report.h"
#include "../peers/pf_peer_cases.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define MAX_PEERS 8
#define MAX_COLS 12

static const char *g_prog[MAX_PEERS];
static pfrJob *g_job[MAX_PEERS];
static json_t *g_js[MAX_PEERS];
static int g_nprog;

/* The table's columns in the order; a configuration that matches none is appended. */
enum { COL_ODE_STOCK, COL_ODE_PATCH, COL_MJ3, COL_MJ4, COL_BULLET, COL_BULLET_SPIN, NFIXED };
static const char *const FIXED_NAME[NFIXED] = {
    "ODE stock", "patchfriction", "MuJoCo condim 3", "MuJoCo condim 4", "Bullet", "Bullet + spin"};
static const char *const FIXED_PROG[NFIXED] = {"pf-peer-ode",    "pf-peer-ode",
                                               "pf-peer-mujoco", "pf-peer-mujoco",
                                               "pf-peer-bullet", "pf-peer-bullet"};
static const json_t *g_col[MAX_COLS];
static const char *g_col_name[MAX_COLS];
static int g_ncol;

void pfr_add_peer(pfrReport *r, const char *prog)
{
    if (r->npeers >= PFR_MAX_PEERS) pfr_die("at most %d --peer programs", PFR_MAX_PEERS);
    r->peers[r->npeers++] = prog;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static void plan(pfrReport *r)
{
    for (int i = 0; i < r->npeers && g_nprog < MAX_PEERS; ++i) {
        const char *p = r->peers[i];
        if (access(p, X_OK) != 0) {
            pfr_note(r,
                     "- peer program `%s` not found: its columns of \"Against other engines\" "
                     "are n/a\n",
                     p);
            continue;
        }
        const char *name = base_name(p);
        const char *stem = pfr_fmt("%s/peer__%s", r->runs, name);
        pfrJob *j = pfr_job_new(&r->jobs_list, pfr_fmt("peers %s", name), pfr_fmt("%s.log", stem),
                                pfr_fmt("%s.err", stem));
        pfr_job_arg(j, p);
        pfr_job_arg(j, "--out");
        pfr_job_arg(j, pfr_fmt("%s.json", stem));
        if (r->quick) pfr_job_arg(j, "--quick");
        j->first = 1; /* the cost case runs for a while: start it before the short runs */
        g_prog[g_nprog] = p;
        g_job[g_nprog++] = j;
    }
}

/* s lower-cased (a copy). */
static char *lower(const char *s)
{
    char *t = pfr_strdup(s);
    for (char *p = t; *p; ++p)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    return t;
}

/* Column of a configuration (engine, config, any case), or -1 for an extra column. */
static int fixed_col(const char *engine_in, const char *config_in)
{
    const char *engine = lower(engine_in), *config = lower(config_in);
    if (strstr(engine, "patch")) return COL_ODE_PATCH;
    if (strstr(engine, "ode")) return strstr(config, "stock") ? COL_ODE_STOCK : COL_ODE_PATCH;
    if (strstr(engine, "mujoco")) return strstr(config, "4") ? COL_MJ4 : COL_MJ3;
    if (strstr(engine, "bullet")) return strstr(config, "spin") ? COL_BULLET_SPIN : COL_BULLET;
    return -1;
}

static void analyse(pfrReport *r)
{
    (void)r;
    g_ncol = NFIXED;
    for (int c = 0; c < NFIXED; ++c)
        g_col_name[c] = FIXED_NAME[c];
    for (int i = 0; i < g_nprog; ++i) {
        const char *path = g_job[i]->argv[2];
        json_error_t err;
        g_js[i] = json_load_file(path, 0, &err);
        if (!json_is_array(g_js[i]))
            pfr_die("%s wrote no JSON array to %s: %s", g_prog[i], path, err.text);
        size_t k;
        json_t *o;
        json_array_foreach(g_js[i], k, o)
        {
            const char *engine = json_string_value(json_object_get(o, "engine"));
            const char *config = json_string_value(json_object_get(o, "config"));
            if (!engine || !config) pfr_die("%s: a configuration without engine/config", path);
            int c = fixed_col(engine, config);
            if (c < 0 || g_col[c]) {
                if (g_ncol == MAX_COLS) continue;
                c = g_ncol++;
                g_col_name[c] = pfr_fmt("%s %s", engine, config);
            }
            g_col[c] = o;
        }
    }
}

/* --- the reference ------------------------------------------------------------------------- */

/* Friction force along y and moment about the centre, per unit mu N, of the uniformly pressed
 * L x W rectangle turning about (c, 0) (pointwise Coulomb law, midpoint quadrature). By the
 * rectangle's symmetry about x, the force along x vanishes. */
static void rect_turning(double L, double W, double c, double *fy, double *mz)
{
    const int nx = 900, ny = 300;
    double sf = 0.0, sm = 0.0;
    for (int i = 0; i < nx; ++i) {
        const double x = ((i + 0.5) / nx - 0.5) * L;
        for (int j = 0; j < ny; ++j) {
            const double y = ((j + 0.5) / ny - 0.5) * W;
            /* sliding direction of (x, y) turning about (c, 0) with w > 0: (-y, x - c) */
            double ux = -y, uy = x - c, n = hypot(ux, uy);
            if (n == 0.0) continue;
            ux /= n;
            uy /= n;
            sf += uy;
            sm += x * uy - y * ux;
        }
    }
    *fy = sf / ((double)nx * ny);
    *mz = sm / ((double)nx * ny);
}

/* Limit-set breakaway of the push (0, F) with moment h F about the centre: the turning centre c
 * on the x axis whose friction wrench has lever mz / fy = h (bisection on c; the lever falls
 * from L/2-ish at c -> 0+ to 0 as c -> infinity), F = mu_s m g |fy(c)|. */
static double ref_push(double h)
{
    const double N =
        PF_PEER_PUSH_RHO * PF_PEER_PUSH_L * PF_PEER_PUSH_W * PF_PEER_PUSH_H * PF_PEER_G;
    if (h == 0.0) return PF_PEER_PUSH_MU_S * N;
    double lo = 1e-6 * PF_PEER_PUSH_L, hi = 1e3 * PF_PEER_PUSH_L, fy, mz;
    for (int it = 0; it < 60; ++it) {
        const double c = sqrt(lo * hi); /* the centre spans decades: bisect its logarithm */
        rect_turning(PF_PEER_PUSH_L, PF_PEER_PUSH_W, c, &fy, &mz);
        if (fabs(mz / fy) > h)
            lo = c;
        else
            hi = c;
    }
    rect_turning(PF_PEER_PUSH_L, PF_PEER_PUSH_W, sqrt(lo * hi), &fy, &mz);
    return PF_PEER_PUSH_MU_S * N * fabs(fy);
}

/* Friction force along x and moment about the centre, per unit mu m g (and R), of the uniformly
 * pressed disk of radius 1 sliding at v along x and spinning at w about z (R = 1; pointwise
 * Coulomb law, midpoint quadrature in polar cells, weights r dr dtheta). */
static void disk_friction(double v, double w, double *fx, double *mz)
{
    enum { NR = 90, NT = 180 };
    static double ct[NT], st[NT];
    static int have;
    for (int j = 0; !have && j < NT; ++j) {
        ct[j] = cos((j + 0.5) / NT * 2.0 * M_PI);
        st[j] = sin((j + 0.5) / NT * 2.0 * M_PI);
    }
    have = 1;
    double sf = 0.0, sm = 0.0, sw = 0.0;
    for (int i = 0; i < NR; ++i) {
        const double r = (i + 0.5) / NR;
        for (int j = 0; j < NT; ++j) {
            const double x = r * ct[j], y = r * st[j];
            const double ux = v - w * y, uy = w * x, n = hypot(ux, uy);
            sw += r;
            if (n == 0.0) continue;
            sf += r * ux / n;
            sm += r * (x * uy - y * ux) / n;
        }
    }
    *fx = -sf / sw;
    *mz = -sm / sw;
}

/* The sliding-spinning disk of pf_peer_cases.h (I = m R^2 / 2), integrated by the midpoint rule
 * in the units v0 = R w0 = 1 and time v0 / (mu g): eps = v / (R w) at the last instant with
 * v >= 0.05 v0 and w >= 0.05 w0 (the programs' sample; the ratio tends to 0.653 only as both
 * stop), and the stop times of translation (v < 1e-3 m/s) and spin (R w < 1e-3 m/s) [s]. */
static void ref_disk(double *eps, double *t_trans, double *t_spin)
{
    const double v0 = PF_PEER_DISK_V0, tol = 1e-3 / v0, h = 1e-3;
    const double t_unit = v0 / (PF_PEER_DISK_MU * PF_PEER_G);
    double v = 1.0, w = PF_PEER_DISK_R * PF_PEER_DISK_W0 / v0, t = 0.0, fx, mz;
    *eps = *t_trans = *t_spin = NAN;
    for (int k = 0; k < 100000 && (isnan(*t_trans) || isnan(*t_spin)); ++k) {
        if (v >= 0.05 && w >= 0.05 * PF_PEER_DISK_R * PF_PEER_DISK_W0 / v0) *eps = v / w;
        if (isnan(*t_trans) && v < tol) *t_trans = t * t_unit;
        if (isnan(*t_spin) && w < tol) *t_spin = t * t_unit;
        disk_friction(v, w, &fx, &mz);
        const double vm = fmax(v + 0.5 * h * fx, 0.0), wm = fmax(w + 0.5 * h * 2.0 * mz, 0.0);
        disk_friction(vm, wm, &fx, &mz);
        v = fmax(v + h * fx, 0.0);
        w = fmax(w + h * 2.0 * mz, 0.0);
        t += h;
    }
}

/* --- the table ------------------------------------------------------------------------------- */

typedef struct {
    const char *label;
    const char *key;
    int index;    ///< array element, or -1
    double scale; ///< displayed = value * scale
} Row;

enum {
    R_H0,
    R_H5,
    R_H10,
    R_SPREAD,
    R_EPS,
    R_TSTOP,
    R_WSTOP,
    R_INCL,
    R_PUSH,
    R_PINCH,
    R_COST,
    NROW
};
static const Row ROWS[NROW] = {
    {"eccentric push h = 0: breakaway [mN]", "push_breakaway_N", 0, 1e3},
    {"eccentric push h = 5 mm [mN]", "push_breakaway_N", 1, 1e3},
    {"eccentric push h = 10 mm [mN]", "push_breakaway_N", 2, 1e3},
    {"breakaway spread over push direction [%]", "dir_spread", -1, 100.0},
    {"disk eps = v / (R w) near the stop", "disk_eps", -1, 1.0},
    {"disk stop time, translation [s]", "disk_stop_trans_s", -1, 1.0},
    {"disk stop time, spin [s]", "disk_stop_spin_s", -1, 1.0},
    {"creep on the 0.9 mu incline, 10 s [m]", "creep_incline_m", -1, 1.0},
    {"creep under a 0.9 mu m g push, 10 s [m]", "creep_push_m", -1, 1.0},
    {"pinch: largest holding offset / closed form", "pinch_ratio", -1, 1.0},
    {"cost per step [µs] (bodies)", "cost_step_us", -1, 1.0},
};

/* Footnotes: each distinct reason once, numbered in order of first use. */
static char *g_foot[64];
static int g_nfoot;

static int footnote(const char *why)
{
    for (int i = 0; i < g_nfoot; ++i)
        if (!strcmp(g_foot[i], why)) return i + 1;
    if (g_nfoot == 64) return 64;
    g_foot[g_nfoot++] = pfr_strdup(why);
    return g_nfoot;
}

static const char *na(const char *why)
{
    return pfr_fmt("n/a [%d]", footnote(why));
}

static const char *reference_cell(int row)
{
    char b[32];
    switch (row) {
    case R_H0:
    case R_H5:
    case R_H10:
        return pfr_fmt("%s", pfr_fmt_num(b, sizeof b, 1e3 * ref_push(pf_peer_push_h[row - R_H0])));
    case R_SPREAD:
    case R_INCL:
    case R_PUSH:
        return "0";
    case R_EPS:
    case R_TSTOP:
    case R_WSTOP: {
        static double d[3];
        static int have;
        if (!have) ref_disk(&d[0], &d[1], &d[2]);
        have = 1;
        return pfr_fmt("%s", pfr_fmt_num(b, sizeof b, d[row - R_EPS]));
    }
    case R_PINCH:
        return "1";
    default:
        return na("reference: a cost has no reference");
    }
}

static const char *cell(int c, int row)
{
    const json_t *o = g_col[c];
    if (!o)
        return na(pfr_fmt("`%s` was not built (its engine's Debian package missing) or not given "
                          "to pf-report (--peer), or wrote no configuration for this column",
                          c < NFIXED ? FIXED_PROG[c] : "its program"));
    const Row *rw = &ROWS[row];
    const json_t *v = json_object_get(o, rw->key);
    if (rw->index >= 0) v = json_array_get(v, (size_t)rw->index);
    const double x = pfr_json_num(v);
    if (!isfinite(x))
        return na(pfr_fmt("%s: not measured (null or absent in its JSON); see its notes below",
                          g_col_name[c]));
    char b[32];
    const char *s = pfr_fmt_num(b, sizeof b, x * rw->scale);
    if (row == R_COST) return pfr_fmt("%.0f (%.0f)", x, pfr_json_get(o, "cost_bodies"));
    return pfr_strdup(s);
}

static void write_section(pfrReport *r, FILE *md)
{
    fprintf(md,
            "## Against other engines\n\n"
            "The canonical cases of `tools/peers/pf_peer_cases.h` in each engine, set up as its "
            "documentation advises (settings and what could not be expressed below), each cell "
            "measured in this run by the engine's `pf-peer-*` program%s. Eccentric push: an "
            "aluminium block 30 x 10 x 10 mm, mu_s 0.55, pushed at half height on a long side at "
            "offset h, the force growing at %g N/s; breakaway when the pushed point has moved "
            "0.1 mm. Spread: (max - min) / min over seven push directions through the mass "
            "centre. Disk: R = 5 cm, mu 0.3, v0 = R w0 = 1 m/s. Creep: a 1 kg cube, mu 0.6, 10 s "
            "under 0.9 of the friction limit. Pinch: the largest offset of a bar held between two "
            "soft fingertips over the closed-form soft-finger limit. Cost: boxes sliding on a "
            "plane, dt 1 ms, wall-clock time per step while the report's other runs share the "
            "machine (%d at a time), so compare it within one report only.\n\n"
            "Reference: mu_s m g at h = 0; at h = 5 and 10 mm the limit-set breakaway of the "
            "uniformly pressed rectangle by quadrature of the pointwise Coulomb law (in "
            "pf-report, independent of the plugin's core; the plugin's limit-set criterion "
            "agrees, while the CA criterion, which pf-reference and the section \"Stick "
            "criteria\" use, holds more at h = 5 mm); 0 spread and creep; the disk's eps at the "
            "programs' sample (the last instant with v >= 0.05 v0 and w >= 0.05 w0) and its stop "
            "times from the uniform disk's equations of motion, integrated in pf-report with the "
            "same quadrature (eps tends to 0.653, the value of Farkas, Bender and Wolf, Phys. "
            "Rev. Lett. 90, 248302, 2003, only as both motions stop; at the sample it is 0.688); "
            "pinch ratio 1.\n\n",
            r->quick ? " (**--quick**: creep over 1 s, at most 100 boxes, coarse bisections)" : "",
            PF_PEER_PUSH_RAMP, r->jobs);
    fprintf(md, "| case | reference |");
    for (int c = 0; c < g_ncol; ++c)
        fprintf(md, " %s |", g_col_name[c]);
    fprintf(md, "\n|---|---|");
    for (int c = 0; c < g_ncol; ++c)
        fprintf(md, "---|");
    fputc('\n', md);
    for (int row = 0; row < NROW; ++row) {
        fprintf(md, "| %s | %s |", ROWS[row].label, reference_cell(row));
        for (int c = 0; c < g_ncol; ++c)
            fprintf(md, " %s |", cell(c, row));
        fputc('\n', md);
    }
    fputc('\n', md);
    for (int i = 0; i < g_nfoot; ++i)
        fprintf(md, "[%d] %s  \n", i + 1, g_foot[i]);
    fprintf(md, "\n### Settings and notes of each configuration\n\n");
    for (int c = 0; c < g_ncol; ++c) {
        const json_t *o = g_col[c];
        if (!o) continue;
        const char *ver = json_string_value(json_object_get(o, "version"));
        const char *set = json_string_value(json_object_get(o, "settings"));
        fprintf(md, "- **%s** (%s): %s\n", g_col_name[c], ver ? ver : "version not given",
                set ? set : "settings not given");
        size_t k;
        json_t *n;
        json_array_foreach(json_object_get(o, "notes"), k, n)
        {
            if (json_is_string(n)) fprintf(md, "  - %s\n", json_string_value(n));
        }
    }
    fputc('\n', md);
}

const pfrSection pfr_section_peers = {"peers", plan, analyse, write_section};
