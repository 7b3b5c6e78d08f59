/* libFuzzer harness over the core. Invariants asserted for every input:
 *  - fast path, inputs mapped onto its documented domain (PF_FAST_PATH_DOMAIN in pf_core.h:
 *    lengths 1e-100..1e100, aspect <= 1e6, finite mu N, twists up to 1e100): outputs finite, |F|
 * <= mu N (P2's bound) and friction power <= 0 (P2), for the rectangle, uniform disk, Hertz disk
 * (exact and Padé) and a convex polygon;
 *  - checked API, raw bytes as inputs (NaN, Inf, negative sizes, garbage enums): never crashes;
 *    either an error status with a named field, or PF_OK with the same invariants;
 *  - the stick test: PF_OK results are finite and consistent (margin = capacity - demand);
 *  - pf_patch_project: PF_OK results are finite within PF_PROJECT_MAX_EVALS, errors name a field.
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
static void check_wrench_bound(pfWrench w, double mu, double n, pfTwist t, double size,
                               double bound_factor);
static void check_wrench(pfWrench w, double mu, double n, pfTwist t, double size)
{
    check_wrench_bound(w, mu, n, t, size, 1.0);
}

/* bound_factor > 1 only for the Padé approximant with rolling shift d: P17's force numerator
 * adds b_T c w with |c| <= (3 pi/32) d while its denominator is at least max(|v_s|, b_T |w|), so
 * |T| <= 1 + (3 pi/32) d. That excess over mu N is a property of the published approximant
 * (documented in pf_core.h), not of the exact model. */
static void check_wrench_bound(pfWrench w, double mu, double n, pfTwist t, double size,
                               double bound_factor)
{
    REQUIRE(isfinite(w.fx) && isfinite(w.fy) && isfinite(w.mz));
    double fmag = hypot(w.fx, w.fy), bound = mu * n * bound_factor;
    if (!(fmag <= bound * (1.0 + 1e-12) + 1e-300))
        fprintf(stderr, "fuzz_core: |F| = %.17g > mu N = %.17g for twist (%g, %g, %g), size %g\n",
                fmag, bound, t.vx, t.vy, t.w, size);
    REQUIRE(fmag <= bound * (1.0 + 1e-12) + 1e-300);
    /* Compare in scaled units so products cannot overflow. */
    double tm = fmax(fmax(fabs(t.vx), fabs(t.vy)), fabs(t.w));
    if (tm > 0.0) {
        t.vx /= tm;
        t.vy /= tm;
        t.w /= tm;
    }
    double ts = fmax(fmax(fabs(t.vx), fabs(t.vy)), fabs(t.w) * size);
    /* Below ~1e-290 the wrench itself is subnormal and carries too few bits for a relative test. */
    if (ts > 0.0 && bound > 1e-290) {
        double p = (w.fx / bound) * (t.vx / ts) + (w.fy / bound) * (t.vy / ts) +
                   (w.mz == 0.0 ? 0.0 : w.mz / bound / size) * (t.w * size / ts);
        REQUIRE(p <= 1e-9);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Reader r = {data, size};
    double a = pos(take(&r));
    double b = a * pow(10.0, -6.0 + 12.0 * frac(take(&r))); /* aspect <= 1e6 */
    if (b < 1e-100 || b > 1e100) b = a;
    double mu = fabs(fin(take(&r))), n = fabs(fin(take(&r)));
    /* Outside the domain the moments overflow: scale mu back inside. */
    if (!isfinite(mu * n * 4.0 * fmax(a, b))) mu = 1.0 / (n * 4.0 * fmax(a, b));
    if (!isfinite(mu * n * 4.0 * fmax(a, b))) mu = n = 1.0;
    pfTwist t = {fin(take(&r)), fin(take(&r)), fin(take(&r))};
    pfTwist roll = {fin(take(&r)), fin(take(&r)), 0.0};
    double d = frac(take(&r)), et = fabs(fin(take(&r))), er = fabs(fin(take(&r)));

#ifdef PF_FUZZ_VERBOSE /* reproducer builds: print the mapped inputs */
    fprintf(stderr,
            "a=%.17g b=%.17g mu=%.17g n=%.17g t=(%.17g,%.17g,%.17g) roll=(%.17g,%.17g) "
            "d=%.17g et=%.17g er=%.17g\n",
            a, b, mu, n, t.vx, t.vy, t.w, roll.vx, roll.vy, d, et, er);
#endif
    check_wrench(pf_rect_friction(a, b, mu, n, t), mu, n, t, 0.5 * hypot(a, b));
    double mm = pf_rect_max_moment(a, b, mu, n, t.vx, t.vy);
    /* P11 is mu N times a distance: it may overflow to +inf only when that product does. */
    REQUIRE(mm >= 0.0 && (isfinite(mm) || !isfinite(mu * n * (hypot(a, b) + hypot(t.vx, t.vy)))));
    check_wrench(pf_disk_friction(a, mu, n, t), mu, n, t, a);
    check_wrench(pf_hertz_disk_friction(a, mu, n, d, t, roll, et, er), mu, n, t, a);
    check_wrench_bound(pf_hertz_disk_pade(a, mu, n, d, t, roll, et, er), mu, n, t, a,
                       1.0 + 3.0 * 3.14159265358979323846 / 32.0 * d);
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
        double bf = (def.shape == PF_PATCH_HERTZ_DISK && def.model == PF_MODEL_PADE)
                        ? 1.0 + 3.0 * 3.14159265358979323846 / 32.0 * def.rolling_d
                        : 1.0;
        check_wrench_bound(w, rmu, rn, rt, sz, bf);
        double D;
        int ds = pf_patch_dissipation(&def, rmu, rn, rt, &D, NULL);
        /* D is degree 1 in the twist: a huge twist times a huge force may overflow, reported. */
        REQUIRE(ds == PF_ERR_RANGE || (ds == PF_OK && isfinite(D) && D >= 0.0));
        pfPlanarBody body = {fabs(take(&raw)), fabs(take(&raw)), take(&raw), take(&raw)};
        pfStickResult st;
        int ss = pf_stick_planar(&(pfPlanarStickInput){&def, rmu, rn, body, rt.vx, rt.vy, rt.w},
                                 &st, &e);
        if (ss == PF_OK) {
            REQUIRE(isfinite(st.capacity) && st.capacity >= 0.0);
            REQUIRE(st.sticks == (st.demand <= st.capacity));
        }
        /* The exact limit-set test: same validation, bounded cost, never sticks where CA slips
         * (pf_core.h). */
        pfStickResult sl;
        int sls = pf_stick_planar_limit(
            &(pfPlanarStickInput){&def, rmu, rn, body, rt.vx, rt.vy, rt.w}, &sl, &e);
        /* Same validation; for loads whose holding wrench overflows, the limit test may report
         * PF_ERR_RANGE where CA's normalised arithmetic still answers. */
        REQUIRE(sls == ss || (ss == PF_OK && sls == PF_ERR_RANGE && e.message[0] != '\0'));
        if (sls == PF_OK) {
            REQUIRE(sl.evaluations <= PF_LIMIT_MAX_EVALS);
            REQUIRE(!sl.sticks || st.sticks);
            REQUIRE(isfinite(sl.incipient.vx) && isfinite(sl.incipient.vy) &&
                    isfinite(sl.incipient.w));
        }
        pfWrench hold = {rt.vx, rt.vy, rt.w};
        int hs = pf_limit_set_test(&def, rmu, rn, hold, &sl, &e);
        REQUIRE(hs == PF_OK || (hs < 0 && e.message[0] != '\0'));
        if (hs == PF_OK) REQUIRE(sl.evaluations <= PF_LIMIT_MAX_EVALS && !isnan(sl.margin));
        /* The implicit friction step: raw A (any bits; L L^T of raw entries half the time so
         * that valid blocks occur), the loads as the free wrench, a raw guess. PF_OK results
         * are finite with a bounded cost; errors name a field. */
        double A[9], L[6];
        for (int k = 0; k < 9; ++k)
            A[k] = take(&raw);
        if (size % 2) {
            for (int k = 0; k < 6; ++k)
                L[k] = A[k];
            const double l[3][3] = {{L[0], 0, 0}, {L[1], L[2], 0}, {L[3], L[4], L[5]}};
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    A[3 * i + j] = l[i][0] * l[j][0] + l[i][1] * l[j][1] + l[i][2] * l[j][2];
        }
        pfTwist guess = {take(&raw), take(&raw), take(&raw)};
        pfProjectResult pr;
        int ps = pf_patch_project(
            &(pfProjectInput){&def, rmu, rn, A, hold, roll, (size % 3) ? &guess : NULL}, &pr, &e);
        REQUIRE(ps == PF_OK || (ps < 0 && e.message[0] != '\0' && e.field[0] != '\0'));
        if (ps == PF_OK) {
            REQUIRE(isfinite(pr.wrench.fx) && isfinite(pr.wrench.fy) && isfinite(pr.wrench.mz));
            REQUIRE(isfinite(pr.velocity.vx) && isfinite(pr.velocity.vy) &&
                    isfinite(pr.velocity.w) && isfinite(pr.residual));
            REQUIRE(pr.evaluations >= 0 && pr.evaluations <= PF_PROJECT_MAX_EVALS);
        }
    } else {
        REQUIRE(s < 0 && e.message[0] != '\0');
        REQUIRE(strcmp(pf_strerror(s), "unknown status") != 0);
    }
    return 0;
}
