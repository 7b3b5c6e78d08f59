/* pf-peer-check: the tests' checker of a peer program's JSON (pf_peer_cases.h's schema).
 *
 *   pf-peer-check FILE.json [--ode-physics] [--bullet-physics]
 *
 * Always: the file is a non-empty JSON array of objects with every key of the schema, each cell
 * a finite number or null, the breakaway arrays of the right length, notes an array of strings.
 * --ode-physics: the "patchfriction" config's h = 5 mm breakaway is within 1 % of the limit-set
 *   breakaway of a uniformly pressed 30 x 10 mm patch, from the cubature of tests/support
 *   (pf_ref_wrench: independent of the plugin's closed forms), and its direction spread < 0.5 %.
 * --bullet-physics: every config's h = 0 breakaway is within 5 % of mu_s m g, and in "default"
 *   the eccentric pushes break away at no more than that force (a lever cannot raise the force
 *   that slides; "+ spin", with independent force and torsion bounds, can and does).
 * Exit 0 when all holds, 1 with a message per failure. */
#include "pf_peer_cases.h"
#include "pf_ref_quad.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "pf-peer-check: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    failures++;
}

static const char *const number_keys[] = {
    "dir_spread",   "disk_eps",    "disk_stop_trans_s", "disk_stop_spin_s", "creep_incline_m",
    "creep_push_m", "pinch_ratio", "cost_bodies",       "cost_step_us",     NULL};

static void check_cell(const char *config, const char *key, json_t *v)
{
    if (!v) {
        fail("%s: key %s is missing", config, key);
    } else if (!json_is_null(v) && !json_is_number(v)) {
        fail("%s: %s is neither a number nor null", config, key);
    } else if (json_is_number(v) && !isfinite(json_number_value(v))) {
        fail("%s: %s is not finite", config, key);
    }
}

static void check_array(const char *config, json_t *o, const char *key, size_t n)
{
    json_t *a = json_object_get(o, key);
    if (!json_is_array(a) || json_array_size(a) != n) {
        fail("%s: %s is not an array of %zu cells", config, key, n);
        return;
    }
    for (size_t i = 0; i < n; ++i)
        check_cell(config, key, json_array_get(a, i));
}

static double cell(json_t *o, const char *key, size_t i)
{
    json_t *v = json_object_get(o, key);
    if (json_is_array(v)) v = json_array_get(v, i);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Limit-set breakaway of the push block for a push along y at (h, -W/2): the friction wrench of
 * a rotation about a centre on the patch's x axis, v = (0, s, 1) at the centre, balances the
 * load (0, F, h F) when mz / fy = h; bisection on log s (mz / fy falls as s grows). */
static double limit_breakaway(double h, double N, double *c)
{
    pfRefRegion reg = pf_ref_rect_region(PF_PEER_PUSH_L, PF_PEER_PUSH_W);
    *c = -HUGE_VAL;
    if (h == 0.0) return PF_PEER_PUSH_MU_S * N;
    double lo = -12.0, hi = 6.0; /* log10 s [m] */
    pfWrench w = {0, 0, 0};
    for (int k = 0; k < 80; ++k) {
        double mid = 0.5 * (lo + hi);
        pfTwist t = {0.0, pow(10.0, mid), 1.0};
        if (pf_ref_wrench(&reg, PF_PEER_PUSH_MU_S, N, t, &w) != 0) return NAN;
        if (w.mz / w.fy > h)
            lo = mid;
        else
            hi = mid;
    }
    *c = -pow(10.0, 0.5 * (lo + hi));
    return fabs(w.fy);
}

/* CA breakaway (P10-P12, the adapter's default test) of the same push: the frictionless
 * acceleration turns about r_CA = (-J / (m h), 0) (P10); the block sticks while the load's moment
 * about it, (h - c) F, is at most M_max(r_CA) of P11 (cubature). Sets *c to the centre. */
static double ca_breakaway(double h, double N, double *c)
{
    const double mass = N / PF_PEER_G;
    const double J =
        mass * (PF_PEER_PUSH_L * PF_PEER_PUSH_L + PF_PEER_PUSH_W * PF_PEER_PUSH_W) / 12;
    *c = -HUGE_VAL;
    if (h == 0.0) return PF_PEER_PUSH_MU_S * N;
    *c = -J / (mass * h);
    pfRefRegion reg = pf_ref_rect_region(PF_PEER_PUSH_L, PF_PEER_PUSH_W);
    double M;
    if (pf_ref_max_moment(&reg, PF_PEER_PUSH_MU_S, N, *c, 0.0, &M) != 0) return NAN;
    return M / (h - *c);
}

/* The header's breakaway force (the pushed point has moved PF_PEER_BREAK_DIST) of the same block
 * as a planar rigid body: at rest up to the breakaway force F_b, then sliding under the growing
 * push against the kinetic (mu_k) wrench of the cubature, semi-implicit Euler at 0.1 ms; the
 * first step, from rest, slides about the breakaway's centre. ca: the breakaway of the CA test
 * (the adapter's default), else of the limit set. Rotation stays below 1e-2 rad: the push keeps its
 * body direction through the small-angle position of the pushed point. */
static double reference_breakaway(double h, int ca)
{
    const double mass = PF_PEER_PUSH_RHO * PF_PEER_PUSH_L * PF_PEER_PUSH_W * PF_PEER_PUSH_H;
    const double N = mass * PF_PEER_G,
                 J = mass * (PF_PEER_PUSH_L * PF_PEER_PUSH_L + PF_PEER_PUSH_W * PF_PEER_PUSH_W) /
                     12.0;
    double cr = 0.0;
    const double Fb = ca ? ca_breakaway(h, N, &cr) : limit_breakaway(h, N, &cr);
    const double dt = 1e-4, ry = -0.5 * PF_PEER_PUSH_W;
    pfRefRegion reg = pf_ref_rect_region(PF_PEER_PUSH_L, PF_PEER_PUSH_W);
    double x = 0, y = 0, th = 0, vx = 0, vy = 0, w = 0;
    for (long k = 1; k < 100000; ++k) {
        double F = Fb + PF_PEER_PUSH_RAMP * (double)k * dt, c = cos(th), s = sin(th);
        double fx = -s * F, fy = c * F, m = h * F; /* body-fixed push at (h, ry) */
        pfWrench fr;
        pfTwist tw = {c * vx + s * vy, -s * vx + c * vy, w}; /* body frame */
        if (k == 1) /* from rest: the breakaway's rotation about (cr, 0), or the translation */
            tw = isinf(cr) ? (pfTwist){0.0, 1.0, 0.0} : (pfTwist){0.0, -cr, 1.0};
        if (pf_ref_wrench(&reg, PF_PEER_PUSH_MU_K, N, tw, &fr) != 0) return NAN;
        double bx = fr.fx, by = fr.fy; /* patch frame to world */
        fr.fx = c * bx - s * by;
        fr.fy = s * bx + c * by;
        vx += dt * (fx + fr.fx) / mass;
        vy += dt * (fy + fr.fy) / mass;
        w += dt * (m + fr.mz) / J;
        x += dt * vx;
        y += dt * vy;
        th += dt * w;
        /* the pushed point's displacement: mass centre plus the turn of (h, ry) */
        double px = x + (cos(th) - 1.0) * h - sin(th) * ry,
               py = y + sin(th) * h + (cos(th) - 1.0) * ry;
        if (hypot(px, py) > PF_PEER_BREAK_DIST) return F;
    }
    return NAN;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: pf-peer-check FILE.json [--ode-physics] [--bullet-physics]\n");
        return argc < 2 ? 2 : 0;
    }
    int ode = 0, bullet = 0;
    for (int i = 2; i < argc; ++i) {
        if (!strcmp(argv[i], "--ode-physics"))
            ode = 1;
        else if (!strcmp(argv[i], "--bullet-physics"))
            bullet = 1;
        else {
            fprintf(stderr, "pf-peer-check: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    json_error_t jerr;
    json_t *root = json_load_file(argv[1], 0, &jerr);
    if (!root) {
        fprintf(stderr, "pf-peer-check: %s: line %d: %s\n", argv[1], jerr.line, jerr.text);
        return 1;
    }
    if (!json_is_array(root) || json_array_size(root) == 0) {
        fprintf(stderr, "pf-peer-check: %s: expected a non-empty array\n", argv[1]);
        return 1;
    }
    const double mass = PF_PEER_PUSH_RHO * PF_PEER_PUSH_L * PF_PEER_PUSH_W * PF_PEER_PUSH_H;
    const double limit0 = PF_PEER_PUSH_MU_S * mass * PF_PEER_G;
    size_t i;
    json_t *o;
    json_array_foreach(root, i, o)
    {
        const char *config = json_string_value(json_object_get(o, "config"));
        if (!json_is_object(o) || !config) {
            fail("%s: entry %zu has no config name", argv[1], i);
            continue;
        }
        for (const char *const *k = (const char *const[]){"engine", "version", "settings", NULL};
             *k; ++k)
            if (!json_is_string(json_object_get(o, *k))) {
                fail("%s: %s is not a string", config, *k);
            }
        check_array(config, o, "push_breakaway_N", 3);
        check_array(config, o, "dir_breakaway_N", PF_PEER_DIR_N);
        for (const char *const *k = number_keys; *k; ++k)
            check_cell(config, *k, json_object_get(o, *k));
        json_t *notes = json_object_get(o, "notes"), *n;
        size_t j;
        if (!json_is_array(notes)) fail("%s: notes is not an array", config);
        json_array_foreach(notes, j, n) if (!json_is_string(n))
            fail("%s: note %zu is not a string", config, j);
        if (ode && !strcmp(config, "patchfriction")) {
            double ref = reference_breakaway(pf_peer_push_h[1], 1),
                   f = cell(o, "push_breakaway_N", 1);
            fprintf(stderr,
                    "pf-peer-check: %s: h = 5 mm breakaway %.6g N; reference %.6g N (CA test, then "
                    "%g mm of sliding); with the limit-set test the reference would be %.6g N\n",
                    config, f, ref, 1e3 * PF_PEER_BREAK_DIST,
                    reference_breakaway(pf_peer_push_h[1], 0));
            if (!(fabs(f - ref) <= 0.01 * ref))
                fail("%s: h = 5 mm breakaway %.6g N not within 1 %% of the reference's %.6g N",
                     config, f, ref);
            double spread = cell(o, "dir_spread", 0);
            if (!(spread < 0.005))
                fail("%s: direction spread %.4g not below 0.005", config, spread);
        }
        if (bullet) {
            double f0 = cell(o, "push_breakaway_N", 0);
            fprintf(stderr, "pf-peer-check: %s: h = 0 breakaway %.6g N, mu_s m g %.6g N\n", config,
                    f0, limit0);
            if (!(fabs(f0 - limit0) <= 0.05 * limit0))
                fail("%s: h = 0 breakaway %.6g N not within 5 %% of mu_s m g = %.6g N", config, f0,
                     limit0);
            /* "+ spin" bounds force and torsion independently and may hold more */
            for (int k = 1; k < 3 && !strcmp(config, "default"); ++k) {
                double f = cell(o, "push_breakaway_N", (size_t)k);
                if (!(f <= 1.01 * f0))
                    fail("%s: an eccentric push breaks away at %.6g N, above h = 0's %.6g N",
                         config, f, f0);
            }
        }
    }
    json_decref(root);
    if (failures) fprintf(stderr, "pf-peer-check: %s: %d failure(s)\n", argv[1], failures);
    return failures ? 1 : 0;
}
