#include "pf_test_support.h"

#include <math.h>
#include <string.h>

pfTestRng pf_test_rng(uint64_t seed)
{
    pfTestRng r = {seed ? seed : 0x9E3779B97F4A7C15ull};
    return r;
}

static uint64_t next_u64(pfTestRng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double pf_test_uniform(pfTestRng *rng)
{
    return (double)(next_u64(rng) >> 11) * 0x1.0p-53;
}

double pf_test_range(pfTestRng *rng, double lo, double hi)
{
    return lo + (hi - lo) * pf_test_uniform(rng);
}

double pf_test_logsigned(pfTestRng *rng, double lo, double hi)
{
    double m = exp(pf_test_range(rng, log(lo), log(hi)));
    return pf_test_uniform(rng) < 0.5 ? -m : m;
}

int pf_test_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

pfPatchDef pf_test_rect(double length, double width)
{
    pfPatchDef d = pf_default_patch_def();
    d.shape = PF_PATCH_RECT;
    d.length = length;
    d.width = width;
    return d;
}

pfPatchDef pf_test_disk(pfPatchShape shape, double radius)
{
    pfPatchDef d = pf_default_patch_def();
    d.shape = shape;
    d.radius = radius;
    return d;
}

pfPatchDef pf_test_pentagon(void)
{
    static const double xy[10] = {-0.006, -0.004, 0.008, -0.005, 0.010,
                                  0.003,  0.002,  0.007, -0.007, 0.004};
    pfPatchDef d = pf_default_patch_def();
    d.shape = PF_PATCH_POLYGON;
    d.vertex_count = 5;
    memcpy(d.vertices, xy, sizeof xy);
    return d;
}

double pf_test_gyration(const pfPatchDef *d)
{
    double rg = 0.0;
    ck_assert_int_eq(pf_patch_gyration_radius(d, &rg, NULL), PF_OK);
    return rg;
}
