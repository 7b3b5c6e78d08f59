/* Hertzian disk with rolling resistance (docs/physics.md §3): the exact regularised integral model
 * P15 with the shifted Hertz pressure P14, the Padé-type approximants P17 and the rolling moment
 * P18.
 *
 * Conventions: lengths in units of the contact radius a, velocities divided by a (1/s);
 * F = -mu N T, M_spin = -a mu N M_s, M_roll = +a N M_r.
 *
 * ---- Exact P15, method ----------------------------------------------------------------------
 * Write sigma = sigma0 (1 + d_c x + d_s y), sigma0 = (3/(2 pi)) sqrt(1 - x^2 - y^2).
 *
 * (a) w = 0: D = sqrt(|v|^2 + eps^2) is constant, so T = v/D (the integral of sigma is 1 and of
 *     sigma x, sigma y is 0) and M_s = (v_y d_c - v_x d_s) c_200 / D with
 *     c_200 = integral sigma0 x^2 = 1/5 (P16's c_100/d_c).
 *
 * (b) eps = 0, d = 0 is not a separate code path: (c) covers it (it agrees with the elementary
 *     closed form derived from the in-plane Hertz potential, f = (3 pi/8)(c - c^3/4),
 *     m = (3 pi/16)(1 - c^2 + 3 c^4/8) for c <= 1 and the asin/sqrt forms outside, to 4e-15
 *     over 2e5 random CR distances 1e-8..1e12; likewise for eps >> |u|, where P15 is linear in u,
 *     to 3e-16 relative).
 *
 * (c) general (eps >= 0, any d): closed forms from the potentials of the Hertz pressure.
 *     Rotate to the frame (x', y') with y' pointing from the centre to the CR, so the CR is
 *     (0, y0), y0 = |v|/|w| >= 0, and u = w (y0 - y', x'). Then D = |w| R, where
 *     R = sqrt(x^2 + (y - y0)^2 + e^2), e = eps/|w|, is the distance from the point
 *     P = (0, y0, e) above the plane to (x, y, 0). With V = int sigma0/R, Psi = int sigma0 R,
 *     Phi3 = int sigma0 R^3 (functions of c = |P_xy| and e only; subscript c: d/dc at c = y0),
 *     d/dy0 R = (y0 - y)/R, x^2 + y (y - y0) = R^2 - e^2 + y0 (y - y0), and
 *     (x - x0) R = -(1/3) d/dx0 R^3, (y0 - y)^2/R = (1/3) d2/dy0^2 R^3 - R give
 *     (sg = sgn w, d' = the shift (d_c, d_s) in the rotated frame)
 *       T'x = sg [Psi_c + d'_y (y0 Psi_c - Phi3_cc/3 + Psi)],
 *       T'y = sg d'_x [Phi3_c/(3 c) - Psi],
 *       M_s = sg [Psi - e^2 V - y0 Psi_c + d'_y (y0 Phi3_cc/3 - Phi3_c/3 - e^2 y0 V
 *                 + (e^2 - y0^2) Psi_c)].
 *     sigma0 is the flattened limit of a homogeneous ellipsoid (semi-axes 1, 1, h -> 0, density
 *     3/(4 pi h)), whose potentials are single integrals over the ellipsoidal coordinate
 *     (Ferrers/Dyson; Eshelby's biharmonic potential): with U(s) = 1 - c^2/(1+s) - e^2/s and
 *     lambda >= 0 the root of U(lambda) = 0, and u = 1/sqrt(s), m = 1/sqrt(lambda),
 *       V = (3/2) int_0^m U/(1+u^2) du,  Psi = -(3/8) FP int_0^m U^2/(u^2 (1+u^2)) du,
 *       Phi3 = (3/16) FP int_0^m U^3/(u^4 (1+u^2)) du
 *     (FP: Hadamard finite part at u = 0; the constants check against Psi(0,0) = 3 pi/16 (P9)
 *     and Phi3(0,0) = 3 pi/32; the whole assembly was checked against 30-digit quadrature and
 *     the former elliptic/Gauss method). U(m) = 0, so c-derivatives go under the integral.
 *     With p = c^2/(1+lambda), q = e^2/lambda (p + q = 1) and v = u/m, U = (1 - v^2)(1 + q m^2
 *     v^2)/(1 + m^2 v^2) factorises, and every combination above is an integral over v in [0, 1]
 *     of a rational function with denominators v^2 and W^k = (1 + m^2 v^2)^k:
 *       T'x = sg [A + d'_y B], T'y = sg d'_x C, M_s = sg [M0 + d'_y M1],
 *       A = (3/2) sqrt(S) int U/W^2,      C = (3/8) m int U^2/W^2,     (S = p (1 + m^2))
 *       B = m [(3/2) S int U v^2/W^3 - (3/8) int U^2/W^2],
 *       M0 = -(3/(8m)) FP int [U^2/(v^2 W) + 4 q U/W + 4 S U/W^2],
 *       M1 = -(3/2) sqrt(S) int U v^2 [S/W^3 + q/W^2].
 *     For m >= HZ_M_SERIES these are summed from G(n, k) = int_0^m u^2n/(1+u^2)^k du (atan m and
 *     the usual recursions; measured <= 2e-14 down to the switch). For small m (CR or P far
 *     away: m ~ 1/|P|) the closed forms cancel (M0 ~ m is a difference of O(1/m) terms), so the
 *     binomial series in m^2 is summed instead, its cancelling leading term removed exactly
 *     beforehand (tables below). e -> 0 is continuous: lambda, p, q are computed in forms without
 *     cancellation (q = (rt - s)/2 inside), and lambda = 0 (CR on the plane inside the disk) is
 *     taken as m = 1/HZ_MU_MIN, an O(1e-20) perturbation. Max error against adaptive cubature:
 *     tests/unit/test_core_hertz.c (<= 1e-10 required; measured ~1e-14 against 50-digit
 *     quadrature of the v-integrals).
 */
#include "pf_core_internal.h"

#include <math.h>

pfPadeParams pf_default_pade_params(void)
{
    pfPadeParams p = {0.771, 2.655, 0.419, 3.073};
    return p;
}

/* Rolling direction (cos g, sin g) regularised by eps_r (P17 note, P18); zero if undefined. */
static void rolling_dir(double radius, pfTwist rolling, double eps_r, double *cg, double *sg)
{
    double rx = rolling.vx / radius, ry = rolling.vy / radius;
    double den = sqrt(rx * rx + ry * ry + eps_r * eps_r);
    if (den > 0.0 && isfinite(den)) {
        *cg = rx / den;
        *sg = ry / den;
    } else if (den > 0.0) { /* |v_r| overflowed: the direction is still v_r/|v_r| */
        double h = hypot(rolling.vx, rolling.vy);
        *cg = rolling.vx / h;
        *sg = rolling.vy / h;
    } else {
        *cg = 0.0;
        *sg = 0.0;
    }
}

pfVec2 pf_hertz_rolling_moment(double radius, double normal_force, double d, pfTwist rolling,
                               double eps_r)
{
    double cg, sg;
    rolling_dir(radius, rolling, eps_r, &cg, &sg);
    /* P18: M_r = (d_s/5, -d_c/5), dimensional a N M_r */
    pfVec2 m = {radius * normal_force * d * sg / 5.0, -radius * normal_force * d * cg / 5.0};
    return m;
}

/* (|p|^m + |q|^m)^(2/m), scaled by the larger magnitude so it neither overflows nor underflows */
static double pnorm_sq(double p, double q, double m)
{
    p = fabs(p);
    q = fabs(q);
    double big = p > q ? p : q;
    if (big == 0.0) return 0.0;
    double s = p > q ? q / p : p / q;
    double r = pow(1.0 + pow(s, m), 1.0 / m);
    return (big * r) * (big * r);
}

/* P15 and P17 are homogeneous of degree 0 in (v_s, w_s, eps_t), and the rolling direction of
 * P14 in (v_r, eps_r): divide each group by its largest member so that no square below under- or
 * overflows anywhere in the fast path's domain (pf_core.h). Velocities stay in m/s (they are
 * divided by the radius later), spins and eps in 1/s. */
static void hertz_normalise(double radius, pfTwist *t, double *eps_t, pfTwist *rolling,
                            double *eps_r)
{
    double s = fmax(fmax(fabs(t->vx) / radius, fabs(t->vy) / radius), fmax(fabs(t->w), *eps_t));
    if (s > 0.0 && isfinite(s)) {
        t->vx /= s;
        t->vy /= s;
        t->w /= s;
        *eps_t /= s;
    }
    double r = fmax(fmax(fabs(rolling->vx), fabs(rolling->vy)) / radius, *eps_r);
    if (r > 0.0 && isfinite(r)) {
        rolling->vx /= r;
        rolling->vy /= r;
        *eps_r /= r;
    }
}

pfWrench pf_hertz_disk_pade_ex(double radius, double mu, double normal_force, double d, pfTwist t,
                               pfTwist rolling, double eps_t, double eps_r,
                               const pfPadeParams *params)
{
    pfWrench out = {0.0, 0.0, 0.0};
    hertz_normalise(radius, &t, &eps_t, &rolling, &eps_r);
    double cg, sg;
    rolling_dir(radius, rolling, eps_r, &cg, &sg);
    double dc = d * cg, ds = d * sg;
    double vx = t.vx / radius, vy = t.vy / radius, w = t.w;
    /* P16 moments of the pressure P14 */
    double c011 = (3.0 * PF_PI / 32.0) * ds, c101 = (3.0 * PF_PI / 32.0) * dc;
    double c00m1 = 3.0 * PF_PI / 16.0, c010 = ds / 5.0, c100 = dc / 5.0;
    double vs = hypot(vx, vy);
    /* P17 */
    double den_t = sqrt(pnorm_sq(vs, params->b_T * w, params->m_T) + eps_t * eps_t);
    double den_m = sqrt(pnorm_sq(params->b_M * w, vs, params->m_M) + eps_t * eps_t);
    double muN = mu * normal_force;
    if (den_t > 0.0) {
        out.fx = -muN * (vx - params->b_T * c011 * w) / den_t;
        out.fy = -muN * (vy + params->b_T * c101 * w) / den_t;
    }
    if (den_m > 0.0)
        out.mz = -radius * muN * (params->b_M * c00m1 * w - c010 * vx + c100 * vy) / den_m;
    return out;
}

pfWrench pf_hertz_disk_pade(double radius, double mu, double normal_force, double d, pfTwist t,
                            pfTwist rolling, double eps_t, double eps_r)
{
    pfPadeParams p = pf_default_pade_params();
    return pf_hertz_disk_pade_ex(radius, mu, normal_force, d, t, rolling, eps_t, eps_r, &p);
}

/* ---- exact P15 ------------------------------------------------------------------------------ */

/* ---- exact P15 by potentials (case (c)) --------------------------------------------------- */

#define HZ_NS 22        /* terms of the far series (m < HZ_M_SERIES) */
#define HZ_M_SERIES 0.4 /* m below which the series is summed: its terms fall like m^2j */
#define HZ_MU_MIN 1e-20 /* 1/m floor: the CR on the plane inside the disk (lambda = 0) */

/* Coefficients of z^j p^i (z = m^2, q = 1 - p substituted) of the v-integrals of case (c):
 * A/sqrt(p(1+z)), C/m, B/m, M1/sqrt(p(1+z)) and M0/m (M0's z^0 term vanishes identically;
 * row j holds z^(j+1)/m). Generated with exact rational arithmetic from the binomial series
 * 1/W^k = sum_j binom(k+j-1, j) (-z v^2)^j and int_0^1 v^2n dv = 1/(2n+1) (FP: -1 for n = -1). */
static const double hz_ser_A[HZ_NS][3] = {
    {1, 0, 0},
    {-0.40000000000000002, -0.20000000000000001, 0},
    {0.25714285714285712, 0.25714285714285712, 0},
    {-0.19047619047619047, -0.2857142857142857, 0},
    {0.15151515151515152, 0.30303030303030304, 0},
    {-0.12587412587412589, -0.31468531468531469, 0},
    {0.1076923076923077, 0.32307692307692309, 0},
    {-0.094117647058823528, -0.32941176470588235, 0},
    {0.083591331269349839, 0.33436532507739936, 0},
    {-0.075187969924812026, -0.33834586466165412, 0},
    {0.068322981366459631, 0.34161490683229812, 0},
    {-0.062608695652173918, -0.34434782608695652, 0},
    {0.057777777777777775, 0.34666666666666668, 0},
    {-0.053639846743295021, -0.34865900383141762, 0},
    {0.050055617352614018, 0.3503893214682981, 0},
    {-0.046920821114369501, -0.35190615835777128, 0},
    {0.044155844155844157, 0.35324675324675325, 0},
    {-0.0416988416988417, -0.35444015444015442, 0},
    {0.039501039501039503, 0.35550935550935553, 0},
    {-0.037523452157598502, -0.35647279549718575, 0},
    {0.035734543391945546, 0.35734543391945545, 0},
    {-0.034108527131782945, -0.35813953488372091, 0},
};
static const double hz_ser_Cq[HZ_NS][3] = {
    {0.20000000000000001, 0, 0},
    {-0.057142857142857141, -0.057142857142857141, 0},
    {0.028571428571428571, 0.057142857142857141, 0.0095238095238095247},
    {-0.017316017316017316, -0.051948051948051951, -0.017316017316017316},
    {0.011655011655011656, 0.046620046620046623, 0.023310023310023312},
    {-0.0083916083916083916, -0.04195804195804196, -0.027972027972027972},
    {0.0063348416289592761, 0.038009049773755653, 0.031674208144796379},
    {-0.0049535603715170282, -0.034674922600619197, -0.034674922600619197},
    {0.0039805395842547548, 0.031844316674038038, 0.037151702786377708},
    {-0.0032690421706440013, -0.029421379535796013, -0.039228506047728012},
    {0.002732919254658385, 0.02732919254658385, 0.040993788819875775},
    {-0.0023188405797101449, -0.025507246376811593, -0.042512077294685993},
    {0.0019923371647509579, 0.023908045977011495, 0.043831417624521071},
    {-0.0017303176368804844, -0.022494129279446298, -0.044988258558892595},
    {0.001516836889473152, 0.021235716452624127, 0.046010718980685608},
    {-0.0013405948889819858, -0.020108923334729786, -0.046920821114369501},
    {0.0011934011934011935, 0.019094419094419095, 0.047736047736047733},
    {-0.0010692010692010692, -0.018176418176418175, -0.048470448470448471},
    {0.00096343998783023175, 0.017341919780944171, 0.049135439379341818},
    {-0.00087263842226973254, -0.016580130023124917, -0.049740390069374751},
    {0.0007941009642654566, 0.015882019285309131, 0.050293061070145584},
    {-0.00072571334322942438, -0.015239980207817912, -0.050799934026059708},
};
static const double hz_ser_B[HZ_NS][3] = {
    {-0.20000000000000001, 0.20000000000000001, 0},
    {0.057142857142857141, 0, -0.085714285714285715},
    {-0.028571428571428571, -0.028571428571428571, 0.095238095238095233},
    {0.017316017316017316, 0.034632034632034632, -0.095238095238095233},
    {-0.011655011655011656, -0.034965034965034968, 0.093240093240093247},
    {0.0083916083916083916, 0.033566433566433566, -0.090909090909090912},
    {-0.0063348416289592761, -0.031674208144796379, 0.088687782805429868},
    {0.0049535603715170282, 0.029721362229102165, -0.086687306501547989},
    {-0.0039805395842547548, -0.027863777089783281, 0.084918177797434768},
    {0.0032690421706440013, 0.026152337365152011, -0.083360575351422037},
    {-0.002732919254658385, -0.024596273291925465, 0.081987577639751549},
    {0.0023188405797101449, 0.02318840579710145, -0.080772946859903383},
    {-0.0019923371647509579, -0.021915708812260536, 0.079693486590038318},
    {0.0017303176368804844, 0.020763811642565813, -0.07872945247806204},
    {-0.001516836889473152, -0.019718879563150975, 0.077864293659621803},
    {0.0013405948889819858, 0.018768328445747801, -0.077084206116464188},
    {-0.0011934011934011935, -0.017901017901017901, 0.076377676377676382},
    {0.0010692010692010692, 0.017107217107217108, -0.075735075735075735},
    {-0.00096343998783023175, -0.01637847979311394, 0.07514831905075807},
    {0.00087263842226973254, 0.015707491600855186, -0.074610585104062127},
    {-0.0007941009642654566, -0.015087918321043675, 0.074116089998109286},
    {0.00072571334322942438, 0.014514266864588487, -0.073659904337786575},
};
static const double hz_ser_M1[HZ_NS][3] = {
    {-0.20000000000000001, 0, 0},
    {0.17142857142857143, -0.028571428571428571, 0},
    {-0.14285714285714285, -0.028571428571428571, 0.038095238095238099},
    {0.12121212121212122, 0.07792207792207792, -0.069264069264069264},
    {-0.1048951048951049, -0.11655011655011654, 0.093240093240093247},
    {0.092307692307692313, 0.14685314685314685, -0.11188811188811189},
    {-0.082352941176470587, -0.17104072398190046, 0.12669683257918551},
    {0.074303405572755415, 0.19071207430340556, -0.13869969040247679},
    {-0.067669172932330823, -0.20698805838124723, 0.14860681114551083},
    {0.062111801242236024, 0.22066034651847008, -0.15691402419091205},
    {-0.057391304347826085, -0.23229813664596274, 0.1639751552795031},
    {0.053333333333333337, 0.24231884057971015, -0.17004830917874397},
    {-0.049808429118773943, -0.25103448275862067, 0.17532567049808429},
    {0.046718576195773083, 0.25868248671363242, -0.17995303423557038},
    {-0.04398826979472141, -0.26544645565780162, 0.18404287592274243},
    {0.041558441558441558, 0.27147046501885214, -0.18768328445747801},
    {-0.039382239382239385, -0.27686907686907686, 0.19094419094419093},
    {0.037422037422037424, 0.28173448173448173, -0.19388179388179388},
    {-0.035647279549718573, -0.2861416763855788, 0.19654175751736727},
    {0.034032898468519569, 0.29015227540468608, -0.19896156027749901},
    {-0.03255813953488372, -0.29381735677821896, 0.20117224428058234},
    {0.031205673758865248, 0.2971796140524493, -0.20319973610423883},
};
static const double hz_ser_M0[HZ_NS][3] = {
    {0.40000000000000002, -0.20000000000000001, 0},
    {-0.11428571428571428, -0.057142857142857141, 0.085714285714285715},
    {0.057142857142857141, 0.085714285714285715, -0.085714285714285715},
    {-0.034632034632034632, -0.086580086580086577, 0.07792207792207792},
    {0.023310023310023312, 0.081585081585081584, -0.069930069930069935},
    {-0.016783216783216783, -0.075524475524475526, 0.062937062937062943},
    {0.012669683257918552, 0.069683257918552038, -0.057013574660633483},
    {-0.0099071207430340563, -0.064396284829721359, 0.052012383900928792},
    {0.0079610791685095095, 0.059708093763821316, -0.047766475011057054},
    {-0.0065380843412880026, -0.05557371690094802, 0.044132069303694017},
    {0.00546583850931677, 0.051925465838509315, -0.040993788819875775},
    {-0.0046376811594202897, -0.048695652173913043, 0.03826086956521739},
    {0.0039846743295019159, 0.045823754789272031, -0.035862068965517239},
    {-0.0034606352737609689, -0.043257940922012114, 0.033741193919169445},
    {0.0030336737789463039, 0.040954596015775106, -0.031853574678936195},
    {-0.0026811897779639715, -0.038877251780477587, 0.030163385002094679},
    {0.0023868023868023869, 0.036995436995436996, -0.028641628641628641},
    {-0.0021384021384021385, -0.035283635283635283, 0.027264627264627264},
    {0.0019268799756604635, 0.033720399574058112, -0.026012879671416255},
    {-0.0017452768445394651, -0.032287621623980106, 0.024870195034687376},
    {0.0015882019285309132, 0.030969937606352808, -0.023823028927963699},
    {-0.0014514266864588488, -0.029754247072406398, 0.022859970311726867},
};

/* The five series sum_j z^j (t[j][0] + t[j][1] p + t[j][2] p^2), t = A, B, Cq, M0, M1, in
 * out[0..4]. Each of the 15 Horner chains (a table and a power of p) takes the operations one
 * series alone would, from the highest term down; summed in one loop, the chains' independent
 * multiply-adds overlap instead of each waiting on its own last step (the series are the
 * costliest part of a far-CR Hertz evaluation). */
static void hz_series5(double z, double p, double out[5])
{
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, b0 = 0.0, b1 = 0.0, b2 = 0.0, c0 = 0.0, c1 = 0.0, c2 = 0.0,
           d0 = 0.0, d1 = 0.0, d2 = 0.0, e0 = 0.0, e1 = 0.0, e2 = 0.0;
    for (int j = HZ_NS - 1; j >= 0; --j) {
        a0 = a0 * z + hz_ser_A[j][0];
        a1 = a1 * z + hz_ser_A[j][1];
        a2 = a2 * z + hz_ser_A[j][2];
        b0 = b0 * z + hz_ser_B[j][0];
        b1 = b1 * z + hz_ser_B[j][1];
        b2 = b2 * z + hz_ser_B[j][2];
        c0 = c0 * z + hz_ser_Cq[j][0];
        c1 = c1 * z + hz_ser_Cq[j][1];
        c2 = c2 * z + hz_ser_Cq[j][2];
        d0 = d0 * z + hz_ser_M0[j][0];
        d1 = d1 * z + hz_ser_M0[j][1];
        d2 = d2 * z + hz_ser_M0[j][2];
        e0 = e0 * z + hz_ser_M1[j][0];
        e1 = e1 * z + hz_ser_M1[j][1];
        e2 = e2 * z + hz_ser_M1[j][2];
    }
    out[0] = a0 + p * (a1 + p * a2);
    out[1] = b0 + p * (b1 + p * b2);
    out[2] = c0 + p * (c1 + p * c2);
    out[3] = d0 + p * (d1 + p * d2);
    out[4] = e0 + p * (e1 + p * e2);
}

/* The five potential combinations A, B, C, M0, M1 of case (c) at CR distance c >= 0 and
 * height e >= 0 (units of a): T'x = sg (A + d'_y B), T'y = sg d'_x C, M_s = sg (M0 + d'_y M1). */
static void hertz_potentials(double c, double e, double out[5])
{
    double e2 = e * e;
    double s = (c - 1.0) * (c + 1.0) + e2;
    double rt = sqrt(s * s + 4.0 * e2);
    double lam, q; /* lambda and q = e^2/lambda, each in its cancellation-free form */
    if (s >= 0.0) {
        lam = 0.5 * (s + rt);
        q = lam > 0.0 ? 2.0 * e2 / (s + rt) : 0.0;
    } else {
        lam = 2.0 * e2 / (rt - s);
        q = 0.5 * (rt - s);
    }
    double p = c * c / (1.0 + lam);
    double mu = sqrt(lam); /* 1/m */
    if (mu > 1.0 / HZ_M_SERIES) {
        double z = 1.0 / lam, m = 1.0 / mu, sp = sqrt(p * (1.0 + z)), ser[5];
        hz_series5(z, p, ser);
        out[0] = sp * ser[0];
        out[1] = m * ser[1];
        out[2] = m * ser[2];
        out[3] = m * ser[3];
        out[4] = sp * ser[4];
        return;
    }
    if (mu < HZ_MU_MIN) mu = HZ_MU_MIN;
    double m = 1.0 / mu, mu2 = mu * mu, m2 = m * m, w1 = 1.0 + m2;
    /* G(n, k) = int_0^m u^2n/(1 + u^2)^k du */
    double g01 = atan(m);
    double g02 = 0.5 * m / w1 + 0.5 * g01;
    double g03 = 0.25 * m / (w1 * w1) + 0.75 * g02;
    double g04 = m / (6.0 * w1 * w1 * w1) + (5.0 / 6.0) * g03;
    double g11 = m - g01, g12 = g01 - g02, g13 = g02 - g03, g14 = g03 - g04;
    double g22 = g11 - g12, g23 = g12 - g13, g24 = g13 - g14;
    double g33 = g22 - g23, g34 = g23 - g24, g44 = g33 - g34;
    double gm13 = -mu - g01 - g02 - g03; /* finite part of int du/(u^2 (1 + u^2)^3) */
    /* U (1 + u^2) = N1 = (1 - mu^2 u^2)(1 + q u^2) = 1 + a1 u^2 + a2 u^4 */
    double a1 = q - mu2, a2 = -q * mu2;
    double pp = p * (1.0 + mu2), sp = sqrt(pp);
    double hb = g14 + a1 * g24 + a2 * g34;
    double cq = 0.375 * (g04 + 2.0 * a1 * g14 + (a1 * a1 + 2.0 * a2) * g24 + 2.0 * a1 * a2 * g34 +
                         a2 * a2 * g44);
    double n3_0 = g03 + a1 * g13 + a2 * g23; /* int N1/(1+u^2)^3 */
    out[0] = 1.5 * sp * n3_0;
    out[1] = 1.5 * pp * hb - cq;
    out[2] = cq;
    out[3] =
        -0.375 * (gm13 + 2.0 * a1 * g03 + (a1 * a1 + 2.0 * a2) * g13 + 2.0 * a1 * a2 * g23 +
                  a2 * a2 * g33 + 4.0 * q * mu2 * (g02 + a1 * g12 + a2 * g22) + 4.0 * pp * n3_0);
    out[4] = -1.5 * sp * (pp * hb + q * mu2 * (g13 + a1 * g23 + a2 * g33));
}

pfWrench pf_hertz_disk_friction(double radius, double mu, double normal_force, double d, pfTwist t,
                                pfTwist rolling, double eps_t, double eps_r)
{
    pfWrench out = {0.0, 0.0, 0.0};
    hertz_normalise(radius, &t, &eps_t, &rolling, &eps_r);
    double cg, sg;
    rolling_dir(radius, rolling, eps_r, &cg, &sg);
    double dc = d * cg, ds = d * sg;
    double vx = t.vx / radius, vy = t.vy / radius, w = t.w;
    double vs = hypot(vx, vy);
    double muN = mu * normal_force;
    double Tx, Ty, Ms;
    /* (a) also when the CR is beyond 1e16 radii: the spin corrections are O(|w|/|v_s|) < 1e-16
     * relative there, and (c)'s squares of y0 would overflow for y0 > 1e154. */
    if (w == 0.0 || vs > 1e16 * fabs(w)) { /* (a) */
        double den = sqrt(vs * vs + eps_t * eps_t);
        if (!(den > 0.0)) return out;
        Tx = vx / den;
        Ty = vy / den;
        Ms = (vy * dc - vx * ds) / (5.0 * den);
    } else { /* (c) */
        double aw = fabs(w), sgw = w > 0.0 ? 1.0 : -1.0;
        double ex = 1.0, ey = 0.0;
        if (vs > 0.0) {
            ex = sgw * vx / vs;
            ey = sgw * vy / vs;
        }
        double dpx = dc * ex + ds * ey, dpy = -dc * ey + ds * ex;
        double o[5];
        hertz_potentials(vs / aw, eps_t / aw, o);
        double tpx = sgw * (o[0] + dpy * o[1]), tpy = sgw * dpx * o[2];
        Tx = tpx * ex - tpy * ey;
        Ty = tpx * ey + tpy * ex;
        Ms = sgw * (o[3] + dpy * o[4]);
    }
    out.fx = -muN * Tx;
    out.fy = -muN * Ty;
    out.mz = -radius * muN * Ms;
    return out;
}
