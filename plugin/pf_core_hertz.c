/* Hertzian disk with rolling resistance (physics.md §3): the exact regularised integral model P15
 * with the shifted Hertz pressure P14, the Padé-type approximants P17 and the rolling moment P18.
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
 * (b) eps = 0, d = 0: closed form. With Phi(r0) = integral sigma0 |r - r0| dA (c = |r0|, the CR
 *     distance |v|/|w|), T = f(c) v/|v| with f = Phi', and M_s = sgn(w) m, m = Phi - c Phi'
 *     (same argument as for the uniform disk, pf_core_disk.c). The 2-D Laplacian of |r - r0| is
 *     1/|r - r0|, so (1/c)(c Phi')' = U(c), U = in-plane potential of the Hertz pressure,
 *     classical (Johnson, Contact Mechanics 3.4): U = (3 pi/8)(2 - c^2) for c <= 1 and
 *     U = (3/4)[(2 - c^2) asin(1/c) + sqrt(c^2 - 1)] outside. Integrating (Phi(0) = 3 pi/16, P9):
 *       c <= 1:  f = (3 pi/8)(c - c^3/4),   m = (3 pi/16)(1 - c^2 + 3 c^4/8)
 *       c >= 1, t = 1/c:
 *           f = 3/(16 t^3) [(4t^2 - 1) asin t + t (1 + 2t^2) sqrt(1 - t^2)]
 *           m = 3/(64 t^4) [(8t^4 - 8t^2 + 3) asin t + 3t (2t^2 - 1) sqrt(1 - t^2)]
 *     Both branches give f = 9 pi/32, m = 9 pi/128 at c = 1. For t < 1/4 the brackets cancel
 *     (f -> 1, m -> t/5); there the Taylor series in t (from those of asin and sqrt) are summed.
 *
 * (c) general (eps >= 0, any d): one dimension analytically, one by graded Gauss-Legendre.
 *     Rotate to the frame (x', y') with y' pointing from the centre to the CR, so the CR is
 *     (0, y0), y0 = |v|/|w| >= 0, and u = w (y0 - y', x'). Then D = |w| sqrt(x'^2 + G^2) with
 *     G^2 = (y' - y0)^2 + e^2, e = eps/|w|. For fixed y' (X = sqrt(1 - y'^2)), the x' integrals
 *     against the Hertz weight are complete elliptic integrals (x' = X sin t):
 *       j0 = int sqrt(X^2 - x^2)/sqrt(x^2 + G^2) dx     = (2X^2/B) I1(k)
 *       j2 = int x^2 sqrt(X^2 - x^2)/sqrt(x^2 + G^2) dx = (2X^4/B) (I1 - I2)(k)
 *     with B^2 = X^2 + G^2, k = X/B, k' = G/B, I_n = int_0^pi/2 sin^2n/sqrt(1 - k^2 sin^2):
 *     I1 = (K - E)/k^2 = D(k), I1 - I2 = [K - (2 - k^2) D]/(3k^2) (series below k^2 = 0.1).
 *     Odd x' moments vanish, so (sg = sgn w, d' = the shift in the rotated frame)
 *       T'x = sg (3/(2pi)) int (1 + d'_y y)(y0 - y) j0 dy,   T'y = sg (3/(2pi)) d'_x int j2 dy,
 *       M_s = sg (3/(2pi)) int (1 + d'_y y)(j2 + y (y - y0) j0) dy.
 *     The y-integrand is analytic on [-1, 1] (it depends on X^2 only) except near two points
 *     (Landau analysis of the x'-integral): the pinch G = 0 at y = y0 +- i e (a logarithmic
 *     singularity on the real axis when eps = 0, multiplied by (y - y0)) and the end-point
 *     singularity B = 0 at the real y_s = (1 + y0^2 + e^2)/(2 y0) > 1, i.e. at distance
 *     delta_1 = ((1 - y0)^2 + e^2)/(2 y0) beyond y = 1 (tiny when the CR is near the rim).
 *     The interval is split at y0 (if inside) and every piece is cut into panels graded
 *     geometrically (ratio PF_GRADE) towards each nearby singular point, down to its distance
 *     (or PF_DELTA_FLOOR for the exactly singular eps = 0 case). Each panel then lies at a
 *     distance >= its length/(PF_GRADE - 1) from the singularity, which puts the singularity
 *     outside the Bernstein ellipse rho = 2 + sqrt(3) of the panel, so the 10-point Gauss rule
 *     errs by <~ rho^-20 = 4e-12 relative per panel (Trefethen, SIAM Rev. 2008, Thm 4.5); the
 *     innermost panel at an exact eps = 0 log point contributes O(delta^2 log delta) < 1e-12.
 *     Measured against adaptive cubature: see tests/unit/test_core_hertz.c (<= 1e-10).
 */
#include "pf_core_internal.h"

#include <math.h>

#define PF_GRADE 3.0
#define PF_DELTA_FLOOR 1e-7

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

/* Taylor coefficients: asin t = sum al_n t^(2n+1), al_n = beta_n/(2n+1); sqrt(1 - t^2) =
 * sum s_n t^2n, s_0 = 1, s_n = -beta_n/(2n-1); beta_n = binom(2n, n)/4^n. */
static void hertz_far_series(double t, double *f, double *m)
{
    double t2 = t * t;
    /* keep al_{n-2}, al_{n-1}, al_n and s_{n-1}, s_n while walking n upwards */
    double beta = 1.0;                           /* beta_0 */
    double al_m2 = 0.0, al_m1 = 1.0, s_m1 = 1.0; /* al_{-1} = 0, al_0, s_0 */
    double fsum = 0.0, msum = 0.0, pf = 1.0, pm = 1.0;
    for (int n = 1; n < 60; ++n) {
        beta *= (2.0 * n - 1.0) / (2.0 * n);
        double al = beta / (2.0 * n + 1.0);
        double sn = -beta / (2.0 * n - 1.0);
        /* f = (3/16) sum_{n>=1} C_n t^(2n-2), C_n = 4 al_{n-1} - al_n + s_n + 2 s_{n-1} */
        double cf = (4.0 * al_m1 - al + sn + 2.0 * s_m1) * pf;
        fsum += cf;
        pf *= t2;
        /* m = (3/64) sum_{n>=2} M_n t^(2n-3), M_n = 8 al_{n-2} - 8 al_{n-1} + 3 al_n
         *     + 6 s_{n-1} - 3 s_n (M_0 = M_1 = 0) */
        double cm = 0.0;
        if (n >= 2) {
            cm = (8.0 * al_m2 - 8.0 * al_m1 + 3.0 * al + 6.0 * s_m1 - 3.0 * sn) * pm;
            msum += cm;
            pm *= t2;
        }
        if (n >= 3 && fabs(cf) <= 1e-18 * fabs(fsum) && fabs(cm) <= 1e-18 * fabs(msum)) break;
        al_m2 = al_m1;
        al_m1 = al;
        s_m1 = sn;
    }
    *f = (3.0 / 16.0) * fsum;
    *m = (3.0 / 64.0) * t * msum;
}

/* f(c), m(c) of case (b), c given as num/den = |v| / |w| */
static void hertz_fm(double num, double den, double *f, double *m)
{
    if (num <= den) {
        double c = num / den, c2 = c * c;
        *f = (3.0 * PF_PI / 8.0) * c * (1.0 - 0.25 * c2);
        *m = (3.0 * PF_PI / 16.0) * (1.0 - c2 + 0.375 * c2 * c2);
        return;
    }
    double t = den / num;
    if (t < 0.25) {
        hertz_far_series(t, f, m);
        return;
    }
    double t2 = t * t, as = asin(t), sq = sqrt((1.0 - t) * (1.0 + t));
    *f = 3.0 / (16.0 * t2 * t) * ((4.0 * t2 - 1.0) * as + t * (1.0 + 2.0 * t2) * sq);
    *m = 3.0 / (64.0 * t2 * t2) *
         ((8.0 * t2 * t2 - 8.0 * t2 + 3.0) * as + 3.0 * t * (2.0 * t2 - 1.0) * sq);
}

/* I1 - I2 = int_0^pi/2 sin^2 cos^2 / sqrt(1 - k^2 sin^2): series (pi/2) sum beta_n beta_{n+1}
 * k^2n/(2n+4) for small k (the closed form cancels there), closed form otherwise. */
static double ellip_h(double k, const pfEllip *e)
{
    double k2 = k * k;
    if (k2 < 0.1) {
        double bn = 1.0, bn1 = 0.5, p = 1.0, sum = 0.0;
        for (int n = 0; n < 40; ++n) {
            double term = bn * bn1 * p / (2.0 * n + 4.0);
            sum += term;
            if (term <= 1e-17 * sum) break;
            p *= k2;
            bn = bn1;
            bn1 *= (2.0 * n + 3.0) / (2.0 * n + 4.0);
        }
        return 0.5 * PF_PI * sum;
    }
    return (e->K - (2.0 - k2) * e->D) / (3.0 * k2);
}

typedef struct hertzQuad {
    double y0, e2, dpx, dpy;
    double tx, ty, ms; /* accumulated integrals (without the 3/(2 pi) sgn(w) factor) */
} hertzQuad;

static const double pf_gl10[5][2] = {
    {0.97390652851717172, 0.066671344308688138}, {0.86506336668898451, 0.14945134915058059},
    {0.67940956829902441, 0.21908636251598204},  {0.43339539412924719, 0.26926671930999636},
    {0.14887433898163121, 0.29552422471475287},
};

static void hertz_node(hertzQuad *q, double y, double wq)
{
    double X2 = (1.0 - y) * (1.0 + y);
    double dy = y - q->y0;
    double G2 = dy * dy + q->e2;
    double B = sqrt(X2 + G2);
    double X = sqrt(X2);
    double k = X / B, kp = sqrt(G2) / B;
    pfEllip el = pf_ellip(k, kp);
    double j0 = 2.0 * X2 / B * el.D;
    double j2 = 2.0 * X2 * X2 / B * ellip_h(k, &el);
    double sh = 1.0 + q->dpy * y;
    q->tx += wq * sh * (-dy) * j0;
    q->ty += wq * q->dpx * j2;
    q->ms += wq * sh * (j2 + y * dy * j0);
}

static void gauss_panel(hertzQuad *q, double lo, double hi)
{
    double mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
    for (int i = 0; i < 5; ++i) {
        double dx = half * pf_gl10[i][0], wq = half * pf_gl10[i][1];
        hertz_node(q, mid - dx, wq);
        hertz_node(q, mid + dx, wq);
    }
}

/* Integrate over [p, p + dir*len] with panels graded towards p: edges at distance
 * delta (g^j - 1) from p, the first edge beyond len clipped. */
static void graded(hertzQuad *q, double p, double dir, double len, double delta)
{
    double inner = 0.0;
    double edge = delta * (PF_GRADE - 1.0);
    while (inner < len) {
        double outer = edge < len ? edge : len;
        /* merge a last sliver when the merged panel still keeps L <= (g - 1) * distance */
        if (outer < len && len - inner <= (PF_GRADE - 1.0) * (delta + inner)) outer = len;
        if (dir > 0)
            gauss_panel(q, p + inner, p + outer);
        else
            gauss_panel(q, p - outer, p - inner);
        inner = outer;
        edge = delta * (PF_GRADE - 1.0) + PF_GRADE * edge;
    }
}

/* [a, b] with singular scales da at a and db at b (INFINITY: none) */
static void segment(hertzQuad *q, double a, double b, double da, double db)
{
    double len = b - a;
    if (!(len > 0.0)) return;
    /* one plain panel only if it keeps L/dist <= PF_GRADE - 1, like the graded panels */
    int ga = da * (PF_GRADE - 1.0) < len, gb = db * (PF_GRADE - 1.0) < len;
    if (ga && gb) {
        double mid = 0.5 * (a + b);
        graded(q, a, 1.0, mid - a, da);
        graded(q, b, -1.0, b - mid, db);
    } else if (ga) {
        graded(q, a, 1.0, len, da);
    } else if (gb) {
        graded(q, b, -1.0, len, db);
    } else {
        gauss_panel(q, a, b);
    }
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
    if (eps_t > 1e8 * (vs + fabs(w))) {
        /* eps-dominated: |u| <= |v_s| + |w| < 1e-8 eps on the whole disk, so 1/D = (1/eps)(1 -
         * O(|u|^2/eps^2)) is exact to 1e-16 relative and P15 is linear in u with the moments of
         * P16: int sigma = 1, int sigma (x, y) = (d_c, d_s)/5, int sigma r^2 = 2/5. */
        Tx = (vx - w * ds / 5.0) / eps_t;
        Ty = (vy + w * dc / 5.0) / eps_t;
        Ms = (0.4 * w + (vy * dc - vx * ds) / 5.0) / eps_t;
    } else if (w == 0.0 || vs > 1e16 * fabs(w)) { /* (a) */
        double den = sqrt(vs * vs + eps_t * eps_t);
        if (!(den > 0.0)) return out;
        Tx = vx / den;
        Ty = vy / den;
        Ms = (vy * dc - vx * ds) / (5.0 * den);
    } else if (eps_t == 0.0 && dc == 0.0 && ds == 0.0) { /* (b) */
        double f, m;
        if (vs == 0.0) {
            f = 0.0;
            m = 3.0 * PF_PI / 16.0;
        } else {
            hertz_fm(vs, fabs(w), &f, &m);
        }
        Tx = vs > 0.0 ? f * vx / vs : 0.0;
        Ty = vs > 0.0 ? f * vy / vs : 0.0;
        Ms = w > 0.0 ? m : -m;
    } else { /* (c) */
        double aw = fabs(w), sgw = w > 0.0 ? 1.0 : -1.0;
        /* unit vectors of the rotated frame: x' = sgn(w) v/|v|, y' towards the CR */
        double ex = 1.0, ey = 0.0;
        if (vs > 0.0) {
            ex = sgw * vx / vs;
            ey = sgw * vy / vs;
        }
        hertzQuad q;
        q.y0 = vs / aw;
        double e = eps_t / aw;
        q.e2 = e * e;
        q.dpx = dc * ex + ds * ey;
        q.dpy = -dc * ey + ds * ex;
        q.tx = q.ty = q.ms = 0.0;
        double y0 = q.y0;
        /* distance of y_s beyond the rim point y = 1; written to stay finite for y0 -> 0 */
        double d1 = y0 > 0.0 ? ((1.0 - y0) * (1.0 - y0) + q.e2) / (2.0 * y0) : INFINITY;
        /* grading scale at a breakpoint = distance to the nearest singular point (floored) */
        if (y0 < 1.0) {
            double s0 = fmax(fmin(e, (1.0 - y0) + d1), PF_DELTA_FLOOR);
            double s1 = fmax(fmin(d1, hypot(1.0 - y0, e)), PF_DELTA_FLOOR);
            segment(&q, -1.0, y0, INFINITY, s0);
            segment(&q, y0, 1.0, s0, s1);
        } else {
            double s1 = fmax(fmin(d1, hypot(y0 - 1.0, e)), PF_DELTA_FLOOR);
            segment(&q, -1.0, 1.0, INFINITY, s1);
        }
        double s = sgw * 3.0 / (2.0 * PF_PI);
        double tpx = s * q.tx, tpy = s * q.ty;
        /* back to the patch frame: x' = (ex, ey), y' = (-ey, ex) */
        Tx = tpx * ex - tpy * ey;
        Ty = tpx * ey + tpy * ex;
        Ms = s * q.ms;
    }
    out.fx = -muN * Tx;
    out.fy = -muN * Ty;
    out.mz = -radius * muN * Ms;
    return out;
}
