/* Shared helpers of the test suite: deterministic random numbers, relative comparisons and the
 * Check runner every unit test's main() ends with. */
#ifndef PF_TEST_SUPPORT_H
#define PF_TEST_SUPPORT_H

#include <check.h>
#include <patchfriction/pf_core.h>
#include <stdint.h>

/// Deterministic 64-bit generator (splitmix64) so failures reproduce exactly.
typedef struct pfTestRng {
    uint64_t state;
} pfTestRng;

/// Seeded generator.
pfTestRng pf_test_rng(uint64_t seed);
/// Uniform double in [0, 1).
double pf_test_uniform(pfTestRng *rng);
/// Uniform double in [lo, hi).
double pf_test_range(pfTestRng *rng, double lo, double hi);
/// Log-uniform magnitude in [lo, hi] (lo > 0) with a random sign.
double pf_test_logsigned(pfTestRng *rng, double lo, double hi);

/// Uniform-pressure rectangle patch (length along x, width along y) [m].
pfPatchDef pf_test_rect(double length, double width);
/// Disk patch of the given shape (PF_PATCH_DISK or PF_PATCH_HERTZ_DISK) and radius [m].
pfPatchDef pf_test_disk(pfPatchShape shape, double radius);
/// A convex, not centrally symmetric pentagon (CCW), offset from the patch origin, ~1 cm.
pfPatchDef pf_test_pentagon(void);
/// The patch's radius of gyration (pf_patch_gyration_radius, asserted to succeed) [m].
double pf_test_gyration(const pfPatchDef *d);

/// Run every test of s (CK_NORMAL output), free the runner (and with it s); 0 when all passed,
/// 1 otherwise: the exit status of a unit test's main().
int pf_test_run_suite(Suite *s);

#endif
