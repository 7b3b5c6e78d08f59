#include "pf_ref_quad.h"

#include <cubature.h>
#include <math.h>
#include <string.h>

pfRefRegion pf_ref_rect_region(double length, double width)
{
    const double a = 0.5 * length, b = 0.5 * width;
    const double xy[8] = {-a, -b, a, -b, a, b, -a, b};
    return pf_ref_polygon_region(xy, 4);
}

pfRefRegion pf_ref_polygon_region(const double *xy, int n)
{
    pfRefRegion r;
    memset(&r, 0, sizeof r);
    r.n = n < PF_REF_MAX_VERTICES ? n : PF_REF_MAX_VERTICES;
    memcpy(r.xy, xy, (size_t)(2 * r.n) * sizeof(double));
    return r;
}

double pf_ref_region_area(const pfRefRegion *reg)
{
    double s = 0.0;
    for (int i = 0; i < reg->n; ++i) {
        const int j = (i + 1) % reg->n;
        s += reg->xy[2 * i] * reg->xy[2 * j + 1] - reg->xy[2 * j] * reg->xy[2 * i + 1];
    }
    return 0.5 * s;
}

double pf_ref_region_size(const pfRefRegion *reg)
{
    double m = 0.0;
    for (int i = 0; i < reg->n; ++i)
        m = fmax(m, hypot(reg->xy[2 * i], reg->xy[2 * i + 1]));
    return m;
}

/* Apex of the fan: the point itself if it lies in the (closed) region, else the closest point of
 * the boundary. */
static void fan_apex(const pfRefRegion *reg, double px, double py, double *cx, double *cy)
{
    int inside = 1;
    double best = INFINITY;
    for (int i = 0; i < reg->n; ++i) {
        const int j = (i + 1) % reg->n;
        const double ax = reg->xy[2 * i], ay = reg->xy[2 * i + 1];
        const double ex = reg->xy[2 * j] - ax, ey = reg->xy[2 * j + 1] - ay;
        if (ex * (py - ay) - ey * (px - ax) < 0.0) inside = 0;
        double s = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey);
        s = fmin(fmax(s, 0.0), 1.0);
        const double qx = ax + s * ex, qy = ay + s * ey, d = hypot(px - qx, py - qy);
        if (d < best) {
            best = d;
            *cx = qx;
            *cy = qy;
        }
    }
    if (inside) {
        *cx = px;
        *cy = py;
    }
}

typedef struct RefTri {
    double cx, cy, ax, ay, bx, by, jac; /* apex, edge A->B relative to the apex, 2 * area */
    double vx, vy, w;                   /* twist, scaled */
    double px, py;                      /* P11 point */
    double inv_size;
} RefTri;

static void tri_point(const RefTri *t, const double *st, double *x, double *y, double *jac)
{
    const double s = st[0], u = st[1];
    *x = t->cx + s * ((1.0 - u) * t->ax + u * t->bx);
    *y = t->cy + s * ((1.0 - u) * t->ay + u * t->by);
    *jac = s * t->jac;
}

/* P3/P4 integrand: -u/|u| and its moment about the origin (divided by size). */
static int wrench_integrand(unsigned ndim, const double *st, void *data, unsigned fdim, double *f)
{
    (void)ndim;
    (void)fdim;
    const RefTri *t = data;
    double x, y, jac;
    tri_point(t, st, &x, &y, &jac);
    const double ux = t->vx - t->w * y, uy = t->vy + t->w * x, um = hypot(ux, uy);
    if (um == 0.0 || jac == 0.0) {
        f[0] = f[1] = f[2] = 0.0;
        return 0;
    }
    const double fx = -ux / um, fy = -uy / um;
    f[0] = jac * fx;
    f[1] = jac * fy;
    f[2] = jac * (x * fy - y * fx) * t->inv_size;
    return 0;
}

static int distance_integrand(unsigned ndim, const double *st, void *data, unsigned fdim, double *f)
{
    (void)ndim;
    (void)fdim;
    const RefTri *t = data;
    double x, y, jac;
    tri_point(t, st, &x, &y, &jac);
    f[0] = jac * hypot(x - t->px, y - t->py) * t->inv_size;
    return 0;
}

/* Sum the fan integrals of one integrand; fdim outputs, each wanted to abs_err in total. */
static int fan_integrate(const pfRefRegion *reg, RefTri proto, integrand fn, unsigned fdim,
                         double abs_err, double *sum)
{
    const double xmin[2] = {0.0, 0.0}, xmax[2] = {1.0, 1.0};
    for (unsigned k = 0; k < fdim; ++k)
        sum[k] = 0.0;
    for (int i = 0; i < reg->n; ++i) {
        const int j = (i + 1) % reg->n;
        RefTri t = proto;
        t.ax = reg->xy[2 * i] - t.cx;
        t.ay = reg->xy[2 * i + 1] - t.cy;
        t.bx = reg->xy[2 * j] - t.cx;
        t.by = reg->xy[2 * j + 1] - t.cy;
        t.jac = t.ax * t.by - t.ay * t.bx;
        if (!(t.jac > 0.0)) continue; /* apex on this edge: empty triangle */
        double val[3], err[3];
        if (hcubature(fdim, fn, &t, 2, xmin, xmax, 5000000, abs_err / reg->n, 0.0, ERROR_INDIVIDUAL,
                      val, err) != 0)
            return 1;
        for (unsigned k = 0; k < fdim; ++k)
            sum[k] += val[k];
    }
    return 0;
}

int pf_ref_wrench(const pfRefRegion *reg, double mu, double normal_force, pfTwist tw, pfWrench *out)
{
    const double area = pf_ref_region_area(reg), size = pf_ref_region_size(reg);
    RefTri proto;
    memset(&proto, 0, sizeof proto);
    const double sc = fmax(fmax(fabs(tw.vx), fabs(tw.vy)), fabs(tw.w) * size);
    out->fx = out->fy = out->mz = 0.0;
    if (sc == 0.0) return 0;
    proto.vx = tw.vx / sc;
    proto.vy = tw.vy / sc;
    proto.w = tw.w / sc;
    proto.inv_size = 1.0 / size;
    /* P5; a CR at infinity (w = 0) leaves the fan at the region's first vertex. */
    double px = reg->xy[0], py = reg->xy[1];
    if (proto.w != 0.0) {
        px = -proto.vy / proto.w;
        py = proto.vx / proto.w;
    }
    fan_apex(reg, px, py, &proto.cx, &proto.cy);
    double s[3];
    if (fan_integrate(reg, proto, wrench_integrand, 3, 1e-13 * area, s)) return 1;
    const double k = mu * normal_force / area;
    out->fx = k * s[0];
    out->fy = k * s[1];
    out->mz = k * s[2] * size;
    return 0;
}

int pf_ref_max_moment(const pfRefRegion *reg, double mu_s, double normal_force, double x, double y,
                      double *out)
{
    const double area = pf_ref_region_area(reg);
    const double size = fmax(pf_ref_region_size(reg), hypot(x, y));
    RefTri proto;
    memset(&proto, 0, sizeof proto);
    proto.px = x;
    proto.py = y;
    proto.inv_size = 1.0 / size;
    fan_apex(reg, x, y, &proto.cx, &proto.cy);
    double s;
    if (fan_integrate(reg, proto, distance_integrand, 1, 1e-13 * area, &s)) return 1;
    *out = mu_s * normal_force / area * s * size;
    return 0;
}
