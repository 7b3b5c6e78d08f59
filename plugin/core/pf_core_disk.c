/* Uniform-pressure disk: exact distributed Coulomb friction (physics.md P3-P9) and the static
 * capacity P11, in closed form with complete elliptic integrals (Contensou 1962, Zhuravlev 1998).
 *
 * Derivation (unit disk, pressure 1/pi, all lengths in units of the radius a).
 * Let Phi(r0) = integral over the disk of |r - r0| dA. It depends on c = |r0| only.
 * Its gradient is grad Phi = integral (r0 - r)/|r - r0| dA, so by P6 (a rotation w about the CR
 * r0, unit slip directions sgn(w) (-q, p)/rho) the friction force is F = -mu N f v/|v| with
 * f = Phi'(c)/pi (by symmetry about the line centre-CR, F is parallel to v), and the moment about
 * the centre is Mz = -mu N a sgn(w) m with
 *     m = (1/pi) integral r.(r - r0)/rho dA = (Phi - r0.grad Phi)/pi = (Phi(c) - c Phi'(c))/pi.
 * c = |v|/(|w| a) is the CR distance (P5). In polar coordinates about r0, Phi = (1/3) integral
 * of R(phi)^3 over the chord lengths R; with S = sqrt(1 - c^2 sin^2 phi) and the standard
 * reductions of the integrals of S^3, S sin^2 to K(k), E(k):
 *     c <= 1, k = c:    Phi = (4/9) [(7 + k^2) E - 4 k'^2 K]
 *     c >= 1, k = 1/c:  Phi = (4/(9k)) [(1 + 7k^2)(K - D) + 4 k'^2 K]
 * with D = (K - E)/k^2, K - D = (E - k'^2 K)/k^2 (pf_ellip returns these without cancellation).
 * Differentiating (dE/dk = -k D, dK/dk = (K - D)/(k k'^2)):
 *     c <= 1:  f = (4/(3 pi)) c (E + K - D),       m = (4/(9 pi)) [(3 - c^2) E - c^2 k'^2 D]
 *     c >= 1:  f = (4/(3 pi)) (E + K - D),         m = (4/(9 pi k)) [k'^2 D - (1 - 3k^2)(K - D)]
 * Checks: c -> 0 gives f ~ c, m -> 2/3 (P9); c -> inf gives f -> 1 (P8), m ~ 1/(4c); both
 * branches meet at c = 1 (f = 8/(3 pi), m = 8/(9 pi)).
 * The only cancellation left is m for a far CR (k -> 0: k'^2 D and K - D both -> pi/4); there m
 * is summed from its Taylor series in k^2, whose coefficients follow from those of K and D:
 *     K = (pi/2) sum a_n k^2n,  a_n = (binom(2n,n)/4^n)^2,   D = (pi/2) sum a_{n+1} (2n+2)/(2n+1)
 * k^2n.
 */
#include "pf_core_internal.h"

#include <math.h>

/* AGM for K with Gauss's series for E (Abramowitz & Stegun 17.6): a_0 = 1, b_0 = k', c_0 = k,
 * K = pi/(2 a_N), K - E = K sum_{n>=0} 2^(n-1) c_n^2. The c_n are carried divided by k
 * (c_1/k = k/(2(1+k')), c_{n+1} = c_n^2/(4 a_{n+1})), so D = (K - E)/k^2 = K s has no
 * cancellation at small k. */
pfEllip pf_ellip(double k, double kp)
{
    pfEllip r;
    if (!(kp > 0.0)) {
        r.K = INFINITY;
        r.D = INFINITY;
        r.E = 1.0;
        r.K_minus_D = 1.0;
        r.kp2K = 0.0;
        return r;
    }
    double a = 0.5 * (1.0 + kp), b = sqrt(kp); /* a_1, b_1 */
    double ch = k / (2.0 * (1.0 + kp));        /* c_1 / k */
    double s = 0.5;                            /* n = 0 term: 2^-1 c_0^2 / k^2 */
    double pw = 1.0;                           /* 2^(n-1) for n = 1 */
    for (int i = 0; i < 60; ++i) {
        double term = pw * ch * ch;
        s += term;
        if (term <= 1e-17 * s && fabs(a - b) <= 1e-16 * a) break;
        double an = 0.5 * (a + b);
        double bn = sqrt(a * b);
        ch = k * ch * ch / (4.0 * an);
        a = an;
        b = bn;
        pw *= 2.0;
    }
    double k2 = k * k;
    r.K = PF_PI / (a + b);
    r.D = r.K * s;
    r.E = r.K * (1.0 - k2 * s);
    r.kp2K = kp * kp * r.K;
    r.K_minus_D = (k2 < 0.5) ? r.K * (1.0 - s) : (r.E - r.kp2K) / k2;
    return r;
}

/* k'^2 D without cancellation: directly for small k, else (k'^2 K - k'^2 E)/k^2 (finite at k=1) */
static double kp2_times_d(const pfEllip *e, double k, double kp)
{
    double k2 = k * k;
    if (k2 < 0.5) return kp * kp * e->D;
    return (e->kp2K - kp * kp * e->E) / k2;
}

/* m for the far CR, k^2 < 0.1: m = (4/(9 pi k)) B(k), B = (3k^2 - 1) K + (2 - 4k^2) D, whose
 * k^0 coefficient vanishes; B = (pi/2) sum_{j>=1} [3 a_{j-1} - a_j + 2 d_j - 4 d_{j-1}] k^2j with
 * d_n = a_{n+1} (2n+2)/(2n+1). Terms shrink by ~k^2 <= 0.1 each, 20 terms reach 1e-20. */
static double disk_far_moment_series(double k)
{
    double k2 = k * k;
    double a_prev = 1.0, a = 0.25;            /* a_0, a_1 */
    double d_prev = 0.5, a_next = 9.0 / 64.0; /* d_0 = 2 a_1, a_2 */
    double sum = 0.0, kp = 1.0;
    for (int j = 1; j < 40; ++j) {
        double d = a_next * (2.0 * j + 2.0) / (2.0 * j + 1.0);
        double term = (3.0 * a_prev - a + 2.0 * d - 4.0 * d_prev) * kp;
        sum += term;
        if (fabs(term) <= 1e-18 * fabs(sum)) break;
        kp *= k2;
        a_prev = a;
        a = a_next;
        double r = (2.0 * j + 3.0) / (2.0 * j + 4.0);
        a_next *= r * r;
        d_prev = d;
    }
    /* B = (pi/2) k^2 sum, m = (4/(9 pi k)) B = (2/9) k sum */
    return (2.0 / 9.0) * k * sum;
}

/* Dimensionless force f and moment m of the unit uniform disk as functions of the CR distance,
 * given as the pair (num, den) = (|v|, |w| a) so that c = num/den never over- or underflows. */
static void disk_fm(double num, double den, double *f, double *m)
{
    if (num <= den) { /* CR inside or on the rim, k = c */
        double c = num / den;
        double kp = sqrt((1.0 - c) * (1.0 + c));
        pfEllip e = pf_ellip(c, kp);
        *f = (4.0 / (3.0 * PF_PI)) * c * (e.E + e.K_minus_D);
        *m = (4.0 / (9.0 * PF_PI)) * ((3.0 - c * c) * e.E - c * c * kp2_times_d(&e, c, kp));
    } else { /* CR outside, k = 1/c */
        double k = den / num;
        double kp = sqrt((1.0 - k) * (1.0 + k));
        pfEllip e = pf_ellip(k, kp);
        *f = (4.0 / (3.0 * PF_PI)) * (e.E + e.K_minus_D);
        if (k * k < 0.1)
            *m = disk_far_moment_series(k);
        else
            *m = (4.0 / (9.0 * PF_PI * k)) *
                 (kp2_times_d(&e, k, kp) - (1.0 - 3.0 * k * k) * e.K_minus_D);
    }
}

pfWrench pf_disk_friction(double radius, double mu, double normal_force, pfTwist t)
{
    pfWrench out = {0.0, 0.0, 0.0};
    double muN = mu * normal_force;
    double sp = hypot(t.vx, t.vy);
    double aw = fabs(t.w) * radius;
    if (sp == 0.0 && aw == 0.0) return out;
    double f, m;
    if (aw == 0.0) { /* P8: translation, CR at infinity */
        f = 1.0;
        m = 0.0;
    } else if (sp == 0.0) { /* P9: pure spin */
        f = 0.0;
        m = 2.0 / 3.0;
    } else {
        disk_fm(sp, aw, &f, &m);
    }
    if (sp > 0.0) {
        out.fx = -muN * f * t.vx / sp;
        out.fy = -muN * f * t.vy / sp;
    }
    if (t.w != 0.0) out.mz = -muN * radius * m * (t.w > 0.0 ? 1.0 : -1.0);
    return out;
}

double pf_disk_max_moment(double radius, double mu_s, double normal_force, double x, double y)
{
    double dist = hypot(x, y);
    double phi; /* Phi(c) / pi: mean distance from the point, in units of a */
    if (dist <= radius) {
        double c = dist / radius;
        double kp = sqrt((1.0 - c) * (1.0 + c));
        pfEllip e = pf_ellip(c, kp);
        phi = (4.0 / (9.0 * PF_PI)) * ((7.0 + c * c) * e.E - 4.0 * e.kp2K);
    } else {
        double k = radius / dist;
        double kp = sqrt((1.0 - k) * (1.0 + k));
        pfEllip e = pf_ellip(k, kp);
        /* (4/(9k)) [...] / pi, written as dist/a times a bounded factor to avoid 1/k overflow */
        phi = (dist / radius) * (4.0 / (9.0 * PF_PI)) *
              ((1.0 + 7.0 * k * k) * e.K_minus_D + 4.0 * e.kp2K);
    }
    return mu_s * normal_force * radius * phi;
}
