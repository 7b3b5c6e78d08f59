/* Exact distributed Coulomb friction of a uniform-pressure rectangle (physics.md P6, P7, P8, P11).
 *
 * Units. Everything is made dimensionless with the half-diagonal hd = sqrt(L^2 + W^2) / 2: the
 * half-sides become a = L / (2 hd), b = W / (2 hd) (a^2 + b^2 = 1), lengths are in hd, forces in
 * mu N and moments in mu N hd. This keeps every intermediate O(1) for any physical size.
 *
 * Near branch (closed form, P7). With the centre of rotation (CR, P5) at (xc, yc) the rectangle
 * is [p1, p2] x [q1, q2] = [-a - xc, a - xc] x [-b - yc, b - yc] in CR coordinates, and each P6
 * integral is a corner sum S[Phi] = Phi(p2,q2) - Phi(p1,q2) - Phi(p2,q1) + Phi(p1,q1) of P7's
 * G, H, K. Grouping the corner sum by edges, with rho_ij = |(p_i, q_j)|:
 *
 *   S[G] = ( q2 Dp_2 - q1 Dp_1 + p2^2 Aq_2 - p1^2 Aq_1 ) / 2
 *   S[H] = ( p2 Dq_2 - p1 Dq_1 + q2^2 Ap_2 - q1^2 Ap_1 ) / 2
 *   S[K] = ( 2 (q2 X_2 - q1 X_1) + p2^3 Aq_2 - p1^3 Aq_1 + q2^3 Ap_2 - q1^3 Ap_1 ) / 6
 *
 *   Dp_j = rho_2j - rho_1j = (p2^2 - p1^2) / (rho_1j + rho_2j) = -4 a xc / (rho_1j + rho_2j)
 *   Dq_i = rho_i2 - rho_i1 = -4 b yc / (rho_i1 + rho_i2)
 *   X_j  = p2 rho_2j - p1 rho_1j = a (rho_1j + rho_2j) - xc Dp_j
 *   Aq_i = asinh(q2/|p_i|) - asinh(q1/|p_i|) = integral of dq / rho over the edge p = p_i
 *   Ap_j = asinh(p2/|q_j|) - asinh(p1/|q_j|)
 *
 * The differences of rho are formed without subtraction, so a symmetric configuration (pure spin,
 * CR on an axis) gives exact zeros. Each asinh difference is ONE logarithm, shared by S[G]/S[K]
 * (Aq) and S[H]/S[K] (Ap), because asinh(s/|h|) = sgn(s) log((|s| + R)/|h|), R = sqrt(s^2 + h^2):
 *   both ends >= 0:  log1p((s2 - s1 + R2 - R1) / (s1 + R1))
 *   both ends <  0:  log1p((s2 - s1 - (R2 - R1)) / (R2 - s2))
 *   s1 < 0 <= s2:    log((s2 + R2)(R1 - s1) / h^2), evaluated as a log1p (pf_asinh_diff)
 * so the whole near branch costs 4 sqrt + 4 log. Terms whose factor p_i (or q_j) is zero vanish
 * (P7: "terms with a zero factor vanish"): CR on an edge or corner needs no special case beyond
 * skipping the logarithm when h^2 is negligible.
 * Then (P6), with c = sgn(w) / A and A = 4ab:
 *   Fx = c S[H],  Fy = -c S[G],  Mz = M_CR + xc Fy - yc Fx = -c (S[K] + xc S[G] + yc S[H]).
 *
 * Far branch (Gauss-Legendre). Each corner term is O(rho^2) (O(rho^3) for K) while the sums are
 * O(A) (O(A rho)), and moving M_CR to the centre cancels another O(rho / hd): the near branch loses
 * ~ (distance / size)^3 digits relative to mu N hd and cannot reach w -> 0 at all (the CR goes to
 * infinity). But far from the CR the integrand u/|u| of P3/P4 is analytic on the rectangle, with
 * branch points at x = xc +- i|y - yc| (for fixed y) and y = yc +- i|x - xc|. A tensor
 * Gauss-Legendre rule whose size per direction is chosen from the Bernstein ellipse through the
 * nearest branch point (pf_gauss_legendre_select) integrates it to ~1e-16. Points are taken in
 * pairs r, -r (the rule and the rectangle are centrally symmetric) and the pair is combined
 * without cancellation:
 *   u_+- = v +- t,  t = w z x r,  s_+- = 1/|u_+-|,
 *   s_+ - s_- = -4 (v.t) s_+ s_- / (|u_+| + |u_-|)        (exact rewriting of |u_-|^2 - |u_+|^2)
 *   f_+ + f_- = v (s_+ + s_-) + t (s_+ - s_-),   r x (f_+ - f_-) = (r x v)(s_+ - s_-) + w r^2 (s_+
 * + s_-) so Mz keeps full relative accuracy as w -> 0 (it is O(w)), F -> -mu N v/|v| (P8)
 * continuously, and w = 1e-300 needs no special case. The branch is taken when the CR is at least
 * 1/2 hd away from the rectangle and the rule needs at most PF_RECT_GAUSS_BUDGET points; elsewhere
 * the corner sums lose at most ~1e3 ulp (measured against quad precision; see the report of the
 * commit that introduced this file and tests/unit/test_core_rect.c).
 */
#include "pf_core_internal.h"

#include <math.h>

/* Branch choice. The corner sums lose about E = rho_max^3 / A ulps of mu N hd (rho_max the
 * largest corner distance from the CR, A the area, hd units; measured against quad precision the
 * actual loss is 2-5 times smaller). The far-field rule is used when E > PF_RECT_FAR_LOSS, i.e.
 * when the corner sums would lose more than ~3e-14, and the rule needs at most
 * PF_RECT_GAUSS_BUDGET points; elsewhere the closed form is both accurate and cheaper. */
#define PF_RECT_FAR_LOSS 300.0
#define PF_RECT_GAUSS_BUDGET 128

/* Gauss-Legendre nodes and weights on [-1, 1], nonnegative nodes only (generated in quad
 * precision by Newton iteration on P_n), and per rule the alpha^2 its accuracy needs. The error of
 * an n-point rule is ~ M rho^(-2n) with M the integrand's size on the ellipse; the moment integrand
 * r x u/|u| grows like rho there while Mz itself is O(1/distance), so for 1e-16 relative accuracy
 * of Mz as well: rho_n = 1.3 * 1e16^(1/(2n - 2)) (the factor 1.3 covers the branch point sitting
 * on the ellipse), alpha_n = (rho_n + 1/rho_n) / 2. No one-point rule: it would give Mz = 0. */
typedef struct pfGaussRule {
    int n;         /* number of nodes */
    int offset;    /* first row of this rule in pf_gl_nw */
    double alpha2; /* smallest Bernstein alpha^2 of the singularity for ~1e-16 accuracy */
} pfGaussRule;

static const double pf_gl_nw[][2] = {
    /* n = 2 */
    {0.57735026918962573, 1},
    /* n = 3 */
    {0.7745966692414834, 0.55555555555555558},
    {0, 0.88888888888888884},
    /* n = 4 */
    {0.86113631159405257, 0.34785484513745385},
    {0.33998104358485626, 0.65214515486254609},
    /* n = 5 */
    {0.90617984593866396, 0.23692688505618908},
    {0.53846931010568311, 0.47862867049936647},
    {0, 0.56888888888888889},
    /* n = 6 */
    {0.93246951420315205, 0.17132449237917036},
    {0.66120938646626448, 0.36076157304813861},
    {0.2386191860831969, 0.46791393457269104},
    /* n = 7 */
    {0.94910791234275849, 0.1294849661688697},
    {0.74153118559939446, 0.27970539148927664},
    {0.40584515137739718, 0.38183005050511892},
    {0, 0.4179591836734694},
    /* n = 8 */
    {0.96028985649753629, 0.10122853629037626},
    {0.79666647741362673, 0.22238103445337448},
    {0.52553240991632899, 0.31370664587788727},
    {0.18343464249564981, 0.36268378337836199},
    /* n = 10 */
    {0.97390652851717174, 0.066671344308688138},
    {0.86506336668898454, 0.14945134915058059},
    {0.67940956829902444, 0.21908636251598204},
    {0.43339539412924721, 0.26926671930999635},
    {0.14887433898163122, 0.29552422471475287},
    /* n = 12 */
    {0.98156063424671924, 0.047175336386511828},
    {0.90411725637047491, 0.10693932599531843},
    {0.76990267419430469, 0.16007832854334622},
    {0.58731795428661748, 0.20316742672306592},
    {0.36783149899818018, 0.23349253653835481},
    {0.12523340851146891, 0.24914704581340277},
    /* n = 14 */
    {0.98628380869681231, 0.03511946033175186},
    {0.92843488366357352, 0.080158087159760208},
    {0.82720131506976502, 0.12151857068790319},
    {0.68729290481168548, 0.15720316715819355},
    {0.5152486363581541, 0.18553839747793782},
    {0.31911236892788974, 0.2051984637212956},
    {0.10805494870734367, 0.21526385346315779},
    /* n = 16 */
    {0.98940093499164994, 0.027152459411754096},
    {0.9445750230732326, 0.062253523938647894},
    {0.86563120238783176, 0.095158511682492786},
    {0.755404408355003, 0.12462897125553388},
    {0.61787624440264377, 0.14959598881657674},
    {0.45801677765722737, 0.16915651939500254},
    {0.28160355077925892, 0.18260341504492358},
    {0.095012509837637441, 0.1894506104550685},
    /* n = 20 */
    {0.99312859918509488, 0.017614007139152118},
    {0.96397192727791381, 0.040601429800386939},
    {0.91223442825132595, 0.062672048334109068},
    {0.83911697182221878, 0.083276741576704755},
    {0.7463319064601508, 0.10193011981724044},
    {0.63605368072651502, 0.11819453196151841},
    {0.51086700195082713, 0.13168863844917664},
    {0.37370608871541955, 0.14209610931838204},
    {0.22778585114164507, 0.14917298647260374},
    {0.076526521133497338, 0.15275338713072584},
    /* n = 24 */
    {0.99518721999702131, 0.0123412297999872},
    {0.97472855597130947, 0.028531388628933663},
    {0.9382745520027328, 0.044277438817419808},
    {0.88641552700440107, 0.059298584915436783},
    {0.82000198597390295, 0.0733464814110803},
    {0.74012419157855436, 0.086190161531953274},
    {0.64809365193697555, 0.097618652104113884},
    {0.54542147138883956, 0.10744427011596563},
    {0.43379350762604513, 0.1155056680537256},
    {0.3150426796961634, 0.12167047292780339},
    {0.19111886747361631, 0.1258374563468283},
    {0.06405689286260563, 0.12793819534675216},
    /* n = 32 */
    {0.99726386184948157, 0.0070186100094700964},
    {0.98561151154526838, 0.01627439473090567},
    {0.96476225558750639, 0.025392065309262059},
    {0.93490607593773967, 0.034273862913021431},
    {0.89632115576605209, 0.042835898022226683},
    {0.84936761373256997, 0.050998059262376175},
    {0.79448379596794239, 0.058684093478535544},
    {0.73218211874028971, 0.065822222776361849},
    {0.66304426693021523, 0.072345794108848505},
    {0.5877157572407623, 0.078193895787070311},
    {0.50689990893222936, 0.083311924226946749},
    {0.42135127613063533, 0.087652093004403811},
    {0.33186860228212767, 0.091173878695763891},
    {0.23928736225213706, 0.093844399080804566},
    {0.14447196158279649, 0.095638720079274861},
    {0.048307665687738317, 0.096540088514727798},
};

static const pfGaussRule pf_gl_rules[] = {
    {2, 0, 4225000000000001},     {3, 1, 42250000.500000007},   {4, 3, 91025.365654533671},
    {5, 5, 4225.5000147928995},   {6, 8, 670.11746715170614},   {7, 11, 196.60744692349633},
    {8, 15, 82.072745239796461},  {10, 19, 25.830677180320226}, {12, 24, 12.538145614754004},
    {14, 30, 7.696494622424936},  {16, 37, 5.4386761541355417}, {20, 45, 3.4584684083514898},
    {24, 55, 2.6262355499305872}, {32, 67, 1.9316883363565642},
};

double pf_bernstein_alpha2(double re, double im)
{
    /* alpha^2 = ((d1 + d2) / 2)^2 with d1^2 + d2^2 = 2 (|z|^2 + 1). */
    const double z2 = re * re + im * im;
    const double d1s = (re - 1.0) * (re - 1.0) + im * im;
    const double d2s = (re + 1.0) * (re + 1.0) + im * im;
    return 0.5 * (z2 + 1.0 + sqrt(d1s * d2s));
}

int pf_gauss_legendre_select(double alpha2, const double (**nw)[2])
{
    const int count = (int)(sizeof pf_gl_rules / sizeof pf_gl_rules[0]);
    for (int k = 0; k < count; ++k) {
        if (alpha2 >= pf_gl_rules[k].alpha2) {
            *nw = pf_gl_nw + pf_gl_rules[k].offset;
            return pf_gl_rules[k].n;
        }
    }
    return 0;
}

/* Expand a half rule (nonnegative nodes) to all n nodes scaled to [-h, h]; weights scaled by h. */
static void gauss_expand(const double (*nw)[2], int n, double h, double *x, double *wt)
{
    for (int k = 0; k < n / 2; ++k) {
        x[k] = -h * nw[k][0];
        x[n - 1 - k] = h * nw[k][0];
        wt[k] = wt[n - 1 - k] = h * nw[k][1];
    }
    if (n % 2) {
        x[n / 2] = 0.0;
        wt[n / 2] = h * nw[n / 2][1];
    }
}

/* Pick the far-field tensor rule for a CR (or P11 point) at (xc, yc), half-sides a, b: the x rule
 * from the branch point nearest to [-a, a] over all y in [-b, b], likewise for y. Returns 0 if the
 * corner sums are accurate enough or the rule would exceed the budget (use the closed form). */
static int rect_far_rule(double a, double b, double xc, double yc, const double (**nwx)[2], int *nx,
                         const double (**nwy)[2], int *ny)
{
    const double px = fabs(xc) + a, py = fabs(yc) + b, r2 = px * px + py * py;
    const double area = 4.0 * a * b;
    /* rho_max^3 / A > E, squared; the negated form also sends NaN/inf CRs (w -> 0) far. */
    if (!(r2 * r2 * r2 > PF_RECT_FAR_LOSS * PF_RECT_FAR_LOSS * area * area)) return 0;
    const double dx = fmax(fabs(xc) - a, 0.0), dy = fmax(fabs(yc) - b, 0.0);
    *nx = pf_gauss_legendre_select(pf_bernstein_alpha2(fabs(xc) / a, dy / a), nwx);
    *ny = pf_gauss_legendre_select(pf_bernstein_alpha2(fabs(yc) / b, dx / b), nwy);
    return *nx > 0 && *ny > 0 && *nx * *ny <= PF_RECT_GAUSS_BUDGET;
}

/* Far branch of pf_rect_friction (see the file comment): returns the wrench in units of mu N and
 * mu N hd for the twist (vx, vy, w) in hd units, at least one component of size 1. */
static pfWrench rect_gauss(double a, double b, double vx, double vy, double w,
                           const double (*nwx)[2], int nx, const double (*nwy)[2], int ny)
{
    double xs[32], wxs[32], ys[32], wys[32];
    gauss_expand(nwx, nx, a, xs, wxs);
    gauss_expand(nwy, ny, b, ys, wys);
    const double v2 = vx * vx + vy * vy;
    double fx = 0.0, fy = 0.0, mz = 0.0;
    /* One point of each pair (r, -r): rows y > 0 in full, then the y = 0 row for x > 0. */
    for (int j = ny - 1; j >= 0; --j) {
        const double y = ys[j];
        if (y < 0.0) break;
        for (int i = nx - 1; i >= 0; --i) {
            const double x = xs[i];
            if (y == 0.0 && x <= 0.0) break;
            const double tx = -w * y, ty = w * x;
            const double vt = vx * tx + vy * ty, sq = v2 + tx * tx + ty * ty;
            const double up = sqrt(sq + 2.0 * vt), um = sqrt(sq - 2.0 * vt);
            const double sp = 1.0 / up, sm = 1.0 / um;
            const double ssum = sp + sm, sdif = -4.0 * vt * sp * sm / (up + um);
            const double wgt = wxs[i] * wys[j];
            fx += wgt * (vx * ssum + tx * sdif);
            fy += wgt * (vy * ssum + ty * sdif);
            mz += wgt * ((x * vy - y * vx) * sdif + w * (x * x + y * y) * ssum);
        }
    }
    if ((nx & ny) & 1) { /* the centre point, u = v */
        const double wgt = wxs[nx / 2] * wys[ny / 2] / sqrt(v2);
        fx += wgt * vx;
        fy += wgt * vy;
    }
    /* P3/P4 with p = N/A, A = 4ab: the rule's weights already carry the factor a b. */
    const double s = -1.0 / (4.0 * a * b);
    pfWrench out = {s * fx, s * fy, s * mz};
    return out;
}

/* asinh(s2/|h|) - asinh(s1/|h|) for s1 < s2, from R_k = sqrt(s_k^2 + h^2) and dR = R2 - R1,
 * with one logarithm (file comment). In the mixed-sign case (s2 + R2)(R1 - s1)/h^2 = (1+x)(1+y)
 * with x = (s2 + s2^2/(R2 + |h|))/|h| >= 0, likewise y for -s1, so log1p(x + y + xy) keeps full
 * relative accuracy when |s| << |h| (a plain log of a number near 1 would not). Returns 0 when
 * h^2 is below 1e-200 (hd units): every use multiplies it by h^2, so the term is negligible. */
double pf_asinh_diff(double s1, double s2, double r1, double r2, double dr, double h, double h2)
{
    if (!(h2 > 1e-200)) return 0.0;
    if (s1 >= 0.0) return log1p((s2 - s1 + dr) / (s1 + r1));
    if (s2 < 0.0) return log1p((s2 - s1 - dr) / (r2 - s2));
    const double ah = fabs(h);
    const double x = (s2 + s2 * s2 / (r2 + ah)) / ah, y = (s1 * s1 / (r1 + ah) - s1) / ah;
    return log1p(x + y + x * y);
}

/* The three corner sums S[G], S[H], S[K] of P7 (file comment) for the rectangle [-a, a] x [-b, b]
 * and the CR (or P11 point) (xc, yc), all in hd units. */
typedef struct pfRectSums {
    double g, h, k;
} pfRectSums;

static pfRectSums rect_corner_sums(double a, double b, double xc, double yc)
{
    const double p1 = -a - xc, p2 = a - xc, q1 = -b - yc, q2 = b - yc;
    const double p1s = p1 * p1, p2s = p2 * p2, q1s = q1 * q1, q2s = q2 * q2;
    const double r11 = sqrt(p1s + q1s), r12 = sqrt(p1s + q2s);
    const double r21 = sqrt(p2s + q1s), r22 = sqrt(p2s + q2s);
    const double sp1 = r11 + r21, sp2 = r12 + r22; /* along p at q1, q2 */
    const double sq1 = r11 + r12, sq2 = r21 + r22; /* along q at p1, p2 */
    const double dp1 = -4.0 * a * xc / sp1, dp2 = -4.0 * a * xc / sp2;
    const double dq1 = -4.0 * b * yc / sq1, dq2 = -4.0 * b * yc / sq2;
    const double aq1 = pf_asinh_diff(q1, q2, r11, r12, dq1, p1, p1s);
    const double aq2 = pf_asinh_diff(q1, q2, r21, r22, dq2, p2, p2s);
    const double ap1 = pf_asinh_diff(p1, p2, r11, r21, dp1, q1, q1s);
    const double ap2 = pf_asinh_diff(p1, p2, r12, r22, dp2, q2, q2s);
    const double x1 = a * sp1 - xc * dp1, x2 = a * sp2 - xc * dp2;
    const double t1 = p1s * aq1, t2 = p2s * aq2, u1 = q1s * ap1, u2 = q2s * ap2;
    pfRectSums s;
    s.g = 0.5 * (q2 * dp2 - q1 * dp1 + t2 - t1);
    s.h = 0.5 * (p2 * dq2 - p1 * dq1 + u2 - u1);
    s.k = (2.0 * (q2 * x2 - q1 * x1) + p2 * t2 - p1 * t1 + q2 * u2 - q1 * u1) / 6.0;
    return s;
}

pfWrench pf_rect_friction(double length, double width, double mu, double normal_force, pfTwist t)
{
    pfWrench out = {0.0, 0.0, 0.0};
    const double diag = sqrt(length * length + width * width);
    const double hd = 0.5 * diag;
    const double a = length / diag, b = width / diag;
    const double mun = mu * normal_force;
    const double ws = t.w * hd; /* spin as a velocity at distance hd */

    if (ws == 0.0) {
        /* P8: pure translation (or rest). Also taken when w * hd underflows, where the O(w hd/|v|)
         * correction is below 1e-300 relative. */
        const double vn = hypot(t.vx, t.vy);
        if (vn > 0.0) {
            out.fx = -mun * (t.vx / vn);
            out.fy = -mun * (t.vy / vn);
        }
        return out;
    }
    /* P5 in hd units. May overflow to inf for tiny w: the far branch never uses it then. */
    const double xc = -t.vy / ws, yc = t.vx / ws;

    const double(*nwx)[2], (*nwy)[2];
    int nx, ny;
    if (rect_far_rule(a, b, xc, yc, &nwx, &nx, &nwy, &ny)) {
        /* Scale the twist so that no square under- or overflows. */
        const double sc = fmax(fmax(fabs(t.vx), fabs(t.vy)), fabs(ws));
        pfWrench r = rect_gauss(a, b, t.vx / sc, t.vy / sc, ws / sc, nwx, nx, nwy, ny);
        out.fx = mun * r.fx;
        out.fy = mun * r.fy;
        out.mz = mun * hd * r.mz;
        return out;
    }
    const pfRectSums s = rect_corner_sums(a, b, xc, yc);
    const double c = (ws > 0.0 ? mun : -mun) / (4.0 * a * b);
    out.fx = c * s.h;
    out.fy = -c * s.g;
    out.mz = -(c * (s.k + xc * s.g + yc * s.h)) * hd; /* c alone may exceed DBL_MAX / hd */
    return out;
}

/* Far branch of pf_rect_max_moment: integral of |r - r0| / A by the tensor rule, pairs r, -r. */
static double rect_gauss_distance(double a, double b, double x0, double y0, const double (*nwx)[2],
                                  int nx, const double (*nwy)[2], int ny)
{
    double xs[32], wxs[32], ys[32], wys[32];
    gauss_expand(nwx, nx, a, xs, wxs);
    gauss_expand(nwy, ny, b, ys, wys);
    double sum = 0.0;
    for (int j = ny - 1; j >= 0; --j) {
        const double y = ys[j];
        if (y < 0.0) break;
        for (int i = nx - 1; i >= 0; --i) {
            const double x = xs[i];
            if (y == 0.0 && x <= 0.0) break;
            sum += wxs[i] * wys[j] *
                   (sqrt((x - x0) * (x - x0) + (y - y0) * (y - y0)) +
                    sqrt((x + x0) * (x + x0) + (y + y0) * (y + y0)));
        }
    }
    if ((nx & ny) & 1) sum += wxs[nx / 2] * wys[ny / 2] * sqrt(x0 * x0 + y0 * y0);
    return sum / (4.0 * a * b);
}

/* P11: mu_s (N/A) * integral of |r - r0| dA = mu_s (N/A) S[K] with the CR replaced by r0. The
 * corner sums of K cancel like (distance/size)^2 for a far point, where the same Gauss-Legendre
 * branch as pf_rect_friction takes over (the integrand has the same branch points). */
double pf_rect_max_moment(double length, double width, double mu_s, double normal_force, double x,
                          double y)
{
    const double diag = sqrt(length * length + width * width);
    const double hd = 0.5 * diag;
    const double a = length / diag, b = width / diag;
    /* Beyond 1e8 half-diagonals the mean distance is |r0| (1 + O(hd^2/|r0|^2)) = |r0| to double
     * precision (the O(hd/|r0|) term vanishes by central symmetry); this also keeps x / hd and
     * the squares below from overflowing for a tiny patch and a far point. */
    const double dist = hypot(x, y);
    if (dist > 1e8 * hd) return mu_s * normal_force * dist;
    const double x0 = x / hd, y0 = y / hd;
    const double(*nwx)[2], (*nwy)[2];
    int nx, ny;
    double mean; /* mean distance to r0 over the rectangle, in hd */
    if (rect_far_rule(a, b, x0, y0, &nwx, &nx, &nwy, &ny)) {
        /* Far enough that |r0| +- 1 is a safe scale: divide it out so no square overflows. */
        const double sc = fmax(fabs(x0), fabs(y0));
        if (!(sc < INFINITY)) return mu_s * normal_force * hypot(x, y);
        mean = sc * rect_gauss_distance(a / sc, b / sc, x0 / sc, y0 / sc, nwx, nx, nwy, ny);
    } else {
        mean = rect_corner_sums(a, b, x0, y0).k / (4.0 * a * b);
    }
    return mu_s * normal_force * hd * mean;
}
