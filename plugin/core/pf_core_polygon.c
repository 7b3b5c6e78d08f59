/* Exact distributed Coulomb friction of a uniform-pressure convex polygon (docs/physics.md P6, P8,
 * P11), by edge integrals.
 *
 * Units. Lengths are taken relative to the vertex mean g and divided by the polygon radius
 * s = max |V_k - g|; forces come out in mu N, moments in mu N s, and the moment is moved from g
 * to the patch origin at the end (Mz_origin = Mz_g + (g x F)).
 *
 * Near branch (triangle fan from the CR, P6). The polygon is the signed sum of the triangles
 * (CR, V_k, V_k+1). For an edge with unit direction e, outward normal n = (e_y, -e_x) (vertices
 * counter-clockwise), signed distance h = (V_k - c).n of the CR c (h > 0 when c is on the inner
 * side) and along-edge coordinate s (point = c + h n + s e, R = sqrt(h^2 + s^2)), the triangle
 * is {t (h n + s e): 0 <= t <= 1, s in [s_a, s_b]} with dA = h t dt ds, so
 *   int rho dA   = h/3 int R ds          = h/6 [ s R + h^2 asinh(s/|h|) ]
 *   int r^ dA    = h/2 int (h n + s e)/R ds = h/2 [ h n asinh(s/|h|) + e R ]
 * evaluated between s_a and s_b (r^ = (r - c)/|r - c|, so int r^ = (int p/rho, int q/rho)).
 * As in pf_core_rect.c the differences are formed without cancellation: with l = s_b - s_a,
 *   dR = R_b - R_a = l (s_a + s_b) / (R_a + R_b),  [s R] = l (R_a + R_b)/2 + (s_a + s_b) dR / 2,
 * and the asinh difference is one log1p (pf_asinh_diff). An edge with h == 0 (CR on its line)
 * contributes nothing. Then (P6) with c = sgn(w)/A:
 *   Fx = c int q/rho,  Fy = -c int p/rho,  Mz = -c int rho + xc Fy - yc Fx.
 *
 * Far branch. The edge sums cancel like (distance/size)^2 (and the moment transfer once more),
 * exactly as the rectangle's corner sums. When the CR is far, the polygon is split into the fan
 * of triangles from V_0, each mapped from the unit square by r = V_0 + u ((1 - t)(V_i - V_0)
 * + t (V_i+1 - V_0)) (Jacobian u * 2 * area), and integrated with a tensor Gauss-Legendre rule.
 * Along either parameter a point moves on a segment no longer than the diameter 2s, and the
 * branch points of the integrand are at least the CR's distance d from the polygon away, so the
 * Bernstein ellipse has alpha^2 >= 1 + (d/s)^2; the rule is chosen from that bound with
 * pf_gauss_legendre_select (pf_core_rect.c).
 */
#include "pf_core_internal.h"

#include <math.h>

/* Same rule as the rectangle: far-field quadrature when the edge sums would lose more than
 * ~3e-14 (loss ~ rho_max^3 / A in s units) and the rule is at most this many points a side. */
#define PF_POLY_FAR_LOSS 300.0
#define PF_POLY_GAUSS_MAX 12

/* Polygon in local, scaled coordinates. */
typedef struct pfPoly {
    int n;
    double x[PF_POLYGON_MAX_VERTICES], y[PF_POLYGON_MAX_VERTICES];
    double gx, gy, size, area;
} pfPoly;

static pfPoly poly_local(const double *xy, int n)
{
    pfPoly p;
    p.n = n;
    double gx = 0.0, gy = 0.0;
    for (int k = 0; k < n; ++k) {
        gx += xy[2 * k];
        gy += xy[2 * k + 1];
    }
    gx /= n;
    gy /= n;
    double r2 = 0.0;
    for (int k = 0; k < n; ++k) {
        const double dx = xy[2 * k] - gx, dy = xy[2 * k + 1] - gy;
        r2 = fmax(r2, dx * dx + dy * dy);
    }
    const double size = sqrt(r2), inv = 1.0 / size;
    double a2 = 0.0;
    for (int k = 0; k < n; ++k) {
        p.x[k] = (xy[2 * k] - gx) * inv;
        p.y[k] = (xy[2 * k + 1] - gy) * inv;
    }
    for (int k = 0; k < n; ++k) {
        const int j = k + 1 == n ? 0 : k + 1;
        a2 += p.x[k] * p.y[j] - p.x[j] * p.y[k];
    }
    p.gx = gx;
    p.gy = gy;
    p.size = size;
    p.area = 0.5 * a2;
    return p;
}

/* Edge sums of the fan from c = (cx, cy): int rho dA and int (r - c)/|r - c| dA. */
static void poly_edge_sums(const pfPoly *p, double cx, double cy, double *irho, double *irx,
                           double *iry)
{
    double sr = 0.0, sx = 0.0, sy = 0.0;
    for (int k = 0; k < p->n; ++k) {
        const int j = k + 1 == p->n ? 0 : k + 1;
        const double ax = p->x[k] - cx, ay = p->y[k] - cy, bx = p->x[j] - cx, by = p->y[j] - cy;
        const double ex0 = bx - ax, ey0 = by - ay, len = sqrt(ex0 * ex0 + ey0 * ey0);
        if (!(len > 0.0)) continue; /* a repeated vertex: no edge, an empty triangle */
        const double ex = ex0 / len, ey = ey0 / len, nx = ey, ny = -ex;
        const double h = ax * nx + ay * ny;
        if (h == 0.0) continue; /* CR on this edge's line: empty triangle */
        const double sa = ax * ex + ay * ey, sb = sa + len, h2 = h * h;
        const double ra = sqrt(sa * sa + h2), rb = sqrt(sb * sb + h2);
        const double dr = len * (sa + sb) / (ra + rb);
        const double srd = 0.5 * (len * (ra + rb) + (sa + sb) * dr);
        const double as = pf_asinh_diff(sa, sb, ra, rb, dr, h, h2);
        sr += h * (srd + h2 * as);
        sx += h * (h * as * nx + dr * ex);
        sy += h * (h * as * ny + dr * ey);
    }
    *irho = sr / 6.0;
    *irx = 0.5 * sx;
    *iry = 0.5 * sy;
}

/* Distance from c to the polygon (0 inside) in local units, and the largest vertex distance. */
static void poly_distances(const pfPoly *p, double cx, double cy, double *dist, double *rmax)
{
    int inside = 1;
    double best2 = INFINITY, far2 = 0.0;
    for (int k = 0; k < p->n; ++k) {
        const int j = k + 1 == p->n ? 0 : k + 1;
        const double ax = p->x[k] - cx, ay = p->y[k] - cy;
        const double ex = p->x[j] - p->x[k], ey = p->y[j] - p->y[k];
        if (ex * (-ay) - ey * (-ax) < 0.0) inside = 0;
        double t = -(ax * ex + ay * ey) / (ex * ex + ey * ey);
        t = fmin(fmax(t, 0.0), 1.0);
        const double qx = ax + t * ex, qy = ay + t * ey;
        best2 = fmin(best2, qx * qx + qy * qy);
        far2 = fmax(far2, ax * ax + ay * ay);
    }
    *dist = inside ? 0.0 : sqrt(best2);
    *rmax = sqrt(far2);
}

/* Far-field rule for a point at distance dist (local units) or 0 if the edge sums suffice. */
static int poly_far_rule(const pfPoly *p, double dist, double rmax, const double (**nw)[2])
{
    if (!(rmax * rmax * rmax > PF_POLY_FAR_LOSS * p->area)) return 0;
    const int n = pf_gauss_legendre_select(1.0 + dist * dist, nw);
    return n <= PF_POLY_GAUSS_MAX ? n : 0;
}

/* Expand a half rule to n nodes on [0, 1] (u = (1 + x)/2, weights halved). */
static void gauss01(const double (*nw)[2], int n, double *u, double *wt)
{
    for (int k = 0; k < n / 2; ++k) {
        u[k] = 0.5 * (1.0 - nw[k][0]);
        u[n - 1 - k] = 0.5 * (1.0 + nw[k][0]);
        wt[k] = wt[n - 1 - k] = 0.5 * nw[k][1];
    }
    if (n % 2) {
        u[n / 2] = 0.5;
        wt[n / 2] = 0.5 * nw[n / 2][1];
    }
}

/* Far branch: integrate P3/P4 (mode 0: -u/|u| and its moment about g, per unit area) or P11
 * (mode 1: |r - r0| per unit area, in out[0]) over the fan from V_0. (vx, vy, w) scaled so the
 * largest of |v|, |w| is 1; r0 in local units. */
static void poly_gauss(const pfPoly *p, const double (*nw)[2], int n, int mode, double vx,
                       double vy, double w, double x0, double y0, double out[3])
{
    double u[32], wt[32];
    gauss01(nw, n, u, wt);
    double fx = 0.0, fy = 0.0, mz = 0.0;
    for (int k = 1; k + 1 < p->n; ++k) {
        const double e1x = p->x[k] - p->x[0], e1y = p->y[k] - p->y[0];
        const double e2x = p->x[k + 1] - p->x[0], e2y = p->y[k + 1] - p->y[0];
        const double jac = e1x * e2y - e1y * e2x; /* 2 * triangle area */
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                const double s = u[i], t = u[j], wgt = wt[i] * wt[j] * s * jac;
                const double x = p->x[0] + s * ((1.0 - t) * e1x + t * e2x);
                const double y = p->y[0] + s * ((1.0 - t) * e1y + t * e2y);
                if (mode) {
                    fx += wgt * sqrt((x - x0) * (x - x0) + (y - y0) * (y - y0));
                } else {
                    const double ux = vx - w * y, uy = vy + w * x;
                    const double inv = 1.0 / sqrt(ux * ux + uy * uy);
                    fx -= wgt * ux * inv;
                    fy -= wgt * uy * inv;
                    mz -= wgt * (x * uy - y * ux) * inv;
                }
            }
        }
    }
    out[0] = fx / p->area;
    out[1] = fy / p->area;
    out[2] = mz / p->area;
}

pfWrench pf_polygon_friction(const double *xy, int n, double mu, double normal_force, pfTwist t)
{
    pfWrench out = {0.0, 0.0, 0.0};
    const pfPoly p = poly_local(xy, n);
    const double mun = mu * normal_force;
    const double ws = t.w * p.size; /* spin as a velocity at distance s */
    double fx, fy, mz;              /* mu N and mu N s units, moment about g */
    if (ws == 0.0) {
        /* P8 about g: F = -mu N v/|v|, Mz = -mu N (centroid - g) x v/|v|. */
        const double vn = hypot(t.vx, t.vy);
        if (!(vn > 0.0)) return out;
        const double vx = t.vx / vn, vy = t.vy / vn;
        double cx = 0.0, cy = 0.0; /* area centroid, local units */
        for (int k = 0; k < n; ++k) {
            const int j = k + 1 == n ? 0 : k + 1;
            const double c = p.x[k] * p.y[j] - p.x[j] * p.y[k];
            cx += (p.x[k] + p.x[j]) * c;
            cy += (p.y[k] + p.y[j]) * c;
        }
        cx /= 6.0 * p.area;
        cy /= 6.0 * p.area;
        fx = -vx;
        fy = -vy;
        mz = -(cx * vy - cy * vx);
    } else {
        /* P5 relative to g in s units. */
        const double xc = -(t.vy + t.w * p.gx) / ws, yc = (t.vx - t.w * p.gy) / ws;
        double dist, rmax;
        poly_distances(&p, xc, yc, &dist, &rmax);
        const double(*nw)[2];
        const int ng = poly_far_rule(&p, dist, rmax, &nw);
        if (ng) {
            /* twist at g, scaled */
            const double vgx = t.vx - t.w * p.gy, vgy = t.vy + t.w * p.gx;
            const double sc = fmax(fmax(fabs(vgx), fabs(vgy)), fabs(ws));
            double r[3];
            poly_gauss(&p, nw, ng, 0, vgx / sc, vgy / sc, ws / sc, 0.0, 0.0, r);
            fx = r[0];
            fy = r[1];
            mz = r[2];
        } else {
            double irho, irx, iry;
            poly_edge_sums(&p, xc, yc, &irho, &irx, &iry);
            const double c = (ws > 0.0 ? 1.0 : -1.0) / p.area;
            fx = c * iry;
            fy = -c * irx;
            mz = -c * irho + xc * fy - yc * fx;
        }
    }
    out.fx = mun * fx;
    out.fy = mun * fy;
    out.mz = mun * (p.size * mz + (p.gx * fy - p.gy * fx));
    return out;
}

double pf_polygon_max_moment(const double *xy, int n, double mu_s, double normal_force, double x,
                             double y)
{
    const pfPoly p = poly_local(xy, n);
    const double x0 = (x - p.gx) / p.size, y0 = (y - p.gy) / p.size;
    double dist, rmax, mean;
    poly_distances(&p, x0, y0, &dist, &rmax);
    const double(*nw)[2];
    const int ng = poly_far_rule(&p, dist, rmax, &nw);
    if (ng) {
        double r[3];
        poly_gauss(&p, nw, ng, 1, 0.0, 0.0, 0.0, x0, y0, r);
        mean = r[0];
    } else {
        double irho, irx, iry;
        poly_edge_sums(&p, x0, y0, &irho, &irx, &iry);
        mean = irho / p.area;
    }
    return mu_s * normal_force * p.size * mean;
}
