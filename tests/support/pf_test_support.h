/* Shared helpers of the test suite: deterministic random numbers and relative comparisons. */
#ifndef PF_TEST_SUPPORT_H
#define PF_TEST_SUPPORT_H

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

#endif
