/* libFuzzer harness over the core. Invariants asserted for every input:
 *  - fast path, inputs mapped onto its documented domain (PF_FAST_PATH_DOMAIN in pf_core.h:
 *    lengths 1e-100..1e100, aspect <= 1e12, finite mu N, twists up to 1e100): outputs finite, |F|
 * <= mu N (P2's bound) and friction power <= 0 (P2), for the rectangle, uniform disk, Hertz disk
 * (exact and Padé) and a convex polygon;
 *  - checked API, raw bytes as inputs (NaN, Inf, negative sizes, garbage enums): never crashes;
 *    either an error status with a named field, or PF_OK with the same invariants;
 *  - the stick test: PF_OK results are finite and consistent (margin = capacity - demand).
 * The bytes are read as doubles verbatim, so the whole double range (subnormals to 1e308) is
 * exercised. A violated invariant aborts, which libFuzzer reports with the reproducer.
 */
#include <math.h>
#include <patchfriction/pf_core.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    const uint8_t *p;
    size_t n;
} Reader;

static double take(Reader *r)
{
    double v = 0.0;
    if (r->n >= sizeof v) {
        memcpy(&v, r->p, sizeof v);
        r->p += sizeof v;
        r->n -= sizeof v;
    }
    return v;
}

/* Map any double onto the fast path's documented domain (PF_FAST_PATH_DOMAIN in pf_core.h)
 * without losing its reach: the bits of v pick a log-uniform magnitude over the whole domain, so
 * both extremes, exact zeros and every order of magnitude in between are exercised. */
static double frac(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return (double)(u >> 11) * 0x1.0p-53;
}
/* A length in [1e-100, 1e100]. */
static double pos(double v)
{
    return pow(10.0, -100.0 + 200.0 * frac(v));
}
/* A signed magnitude in [1e-100, 1e100], or exactly 0 (1 in 16). */
static double fin(double v)
{
    double f = frac(v);
    if (f < 1.0 / 16.0) return 0.0;
    double m = pow(10.0, -100.0 + 200.0 * (f * 16.0 - 1.0) / 15.0);
    return (f * 1e6 - floor(f * 1e6)) < 0.5 ? -m : m;
}

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "fuzz_core: invariant failed at line %d: %s\n", __LINE__, #c);         \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* P2 with rounding: |F| <= mu N (1 + 1e-12) and power <= tiny positive slack relative to the
 * magnitudes involved. */
static void check_wrench(pfWrench w, double mu, double n, pfTwist t, double size)
{
    REQUIRE(isfinite(w.fx) && isfinite(w.fy) && isfinite(w.mz));
    double fmag = hypot(w.fx, w.fy), bound = mu * n;
    if (!(fmag <= bound * (1.0 + 1e-12) + 1e-300))
        fprintf(stderr, "fuzz_core: |F| = %.17g > mu N = %.17g for twist (%g, %g, %g), size %g\n",
                fmag, bound, t.vx, t.vy, t.w, size);
    REQUIRE(fmag <= bound * (1.0 + 1e-12) + 1e-300);
    /* Compare in scaled units so products cannot overflow. */
    double ts = fmax(fmax(fabs(t.vx), fabs(t.vy)), fabs(t.w) * size);
    if (ts > 0.0 && bound > 0.0) {
        double p = (w.fx / bound) * (t.vx / ts) + (w.fy / bound) * (t.vy / ts) +
                   (w.mz / (bound * size)) * (t.w * size / ts);
        REQUIRE(p <= 1e-9);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Reader r = {data, size};
    double a = pos(take(&r));
    double b = a * pow(10.0, -12.0 + 24.0 * frac(take(&r))); /* aspect <= 1e12 */
    if (b < 1e-100 || b > 1e100) b = a;
    double mu = fabs(fin(take(&r))), n = fabs(fin(take(&r)));
    if (!isfinite(mu * n)) mu = 1.0;
    pfTwist t = {fin(take(&r)), fin(take(&r)), fin(take(&r))};
    pfTwist roll = {fin(take(&r)), fin(take(&r)), 0.0};
    double d = frac(take(&r)), et = fabs(fin(take(&r))), er = fabs(fin(take(&r)));

    check_wrench(pf_rect_friction(a, b, mu, n, t), mu, n, t, 0.5 * hypot(a, b));
    double mm = pf_rect_max_moment(a, b, mu, n, t.vx, t.vy);
    REQUIRE(isfinite(mm) && mm >= 0.0);
    check_wrench(pf_disk_friction(a, mu, n, t), mu, n, t, a);
    check_wrench(pf_hertz_disk_friction(a, mu, n, d, t, roll, et, er), mu, n, t, a);
    check_wrench(pf_hertz_disk_pade(a, mu, n, d, t, roll, et, er), mu, n, t, a);
    double hex[12];
    for (int k = 0; k < 6; ++k) {
        hex[2 * k] = a * cos(k * 1.0471975511965976);
        hex[2 * k + 1] = a * sin(k * 1.0471975511965976);
    }
    check_wrench(pf_polygon_friction(hex, 6, mu, n, t), mu, n, t, a);

    /* Checked API with raw, unsanitised inputs. */
    Reader raw = {data, size};
    pfPatchDef def = pf_default_patch_def();
    def.shape = (pfPatchShape)(size % 6);
    def.model = (pfModel)((size / 6) % 3);
    def.length = take(&raw);
    def.width = take(&raw);
    def.radius = take(&raw);
    def.rolling_d = take(&raw);
    def.eps_t = take(&raw);
    def.eps_r = take(&raw);
    def.vertex_count = 6;
    memcpy(def.vertices, hex, sizeof hex);
    double rmu = take(&raw), rn = take(&raw);
    pfTwist rt = {take(&raw), take(&raw), take(&raw)};
    pfWrench w;
    pfError e;
    int s = pf_patch_friction(&def, rmu, rn, rt, roll, &w, &e);
    REQUIRE(s == e.status);
    if (s == PF_OK) {
        double sz;
        REQUIRE(pf_patch_gyration_radius(&def, &sz, NULL) == PF_OK);
        check_wrench(w, rmu, rn, rt, sz);
        double D;
        REQUIRE(pf_patch_dissipation(&def, rmu, rn, rt, &D, NULL) == PF_OK);
        REQUIRE(isfinite(D) && D >= 0.0);
        pfPlanarBody body = {fabs(take(&raw)), fabs(take(&raw)), take(&raw), take(&raw)};
        pfStickResult st;
        int ss = pf_stick_planar(&def, rmu, rn, &body, rt.vx, rt.vy, rt.w, &st, &e);
        if (ss == PF_OK) {
            REQUIRE(isfinite(st.capacity) && st.capacity >= 0.0);
            REQUIRE(st.sticks == (st.demand <= st.capacity));
        }
    } else {
        REQUIRE(s < 0 && e.message[0] != '\0');
        REQUIRE(strcmp(pf_strerror(s), "unknown status") != 0);
    }
    return 0;
}
