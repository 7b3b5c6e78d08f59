/* Closed forms the adapter and scene tests compute their expected values from. They are written
 * out here, independently of the plugin (no pf_core call), so a test compares the plugin against
 * the formula, not against itself. */
#ifndef PF_TEST_CLOSED_FORMS_H
#define PF_TEST_CLOSED_FORMS_H

/// K(p, q) of docs/physics.md P7: antiderivative of rho = sqrt(p^2 + q^2) [m^3] (p, q in m).
double pf_test_k_anti(double p, double q);

/// Mean distance [m] of a uniform L x W rectangle (centred at the origin, L along x) from the
/// point (px, py): the corner sum of K of P7 over the area. P11 is M_max = mu_s N <|r - r0|>.
double pf_test_rect_mean_dist(double L, double W, double px, double py);

#endif
