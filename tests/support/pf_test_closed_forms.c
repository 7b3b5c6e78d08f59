#include "pf_test_closed_forms.h"

#include <math.h>

double pf_test_k_anti(double p, double q)
{
    double r = hypot(p, q), s = 2.0 * p * q * r;
    if (p != 0.0) s += p * p * p * asinh(q / fabs(p));
    if (q != 0.0) s += q * q * q * asinh(p / fabs(q));
    return s / 6.0;
}

double pf_test_rect_mean_dist(double L, double W, double px, double py)
{
    double p1 = -0.5 * L - px, p2 = 0.5 * L - px, q1 = -0.5 * W - py, q2 = 0.5 * W - py;
    double s = pf_test_k_anti(p2, q2) - pf_test_k_anti(p1, q2) - pf_test_k_anti(p2, q1) +
               pf_test_k_anti(p1, q1);
    return s / (L * W);
}
