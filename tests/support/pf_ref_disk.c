/* Reference integrals for the disk models (see pf_ref_disk.h). Coordinates:
 *  - CR inside (c = |r_CR| < 1): polar (rho, phi) about the CR, rho = R+(phi) (1 - s^2),
 *    s in [0, 1]: the slip direction (-sin phi, cos phi) is smooth (no kink at the CR) and the
 * Hertz factor sqrt(1 - r^2) = sqrt((R+ - rho)(rho - R-)) = s sqrt(R+ (rho - R-)) is smooth at the
 * rim.
 *  - CR outside or on the rim (c >= 1): rays from the CR at angle phi' from the direction to the
 *    centre, sin phi' = sin psi / c (psi in [-pi/2, pi/2]) and rho = c cos phi' - cos psi cos theta
 *    (theta in [0, pi]); the chord ends are rho = c cos phi' +- cos psi, and the Hertz factor is
 *    cos psi sin theta: smooth, including the tangent rays and a CR exactly on the rim.
 *  - w = 0 or centred integrands: polar about the centre with r = sin alpha.
 * The velocity field is evaluated in the CR form u = w rho (-sin phi, cos phi) (P1/P5) and the
 * integrands are P15 literally: T = int sigma u/D, M_s = int sigma (x u_y - y u_x)/D. */
#include "pf_ref_disk.h"

#include <cubature.h>
#include <math.h>

#define REF_PI 3.14159265358979323846
#define REF_MAX_EVAL 20000000u

typedef enum { MODE_INSIDE, MODE_OUTSIDE, MODE_CENTRE } refMode;
typedef enum { WANT_P15, WANT_DISTANCE, WANT_MOMENT } refWant;

typedef struct refCtx {
    refMode mode;
    refWant want;
    pfRefPressure pressure;
    double r0x, r0y, c; /* CR (or the P11 point) and its distance */
    double vx, vy, w, eps;
    double dc, ds;
    int mi, mj, mk;
} refCtx;

static double pressure_factor(const refCtx *q, double x, double y)
{
    if (q->pressure == PF_REF_UNIFORM) return 1.0 / REF_PI;
    return 3.0 / (2.0 * REF_PI) * (1.0 + q->dc * x + q->ds * y); /* times the sqrt factor */
}

/* Evaluate the wanted integrand at the point r = r0 + rho e (or the centre form), with area weight
 * jac (which already contains the Hertz sqrt factor when pressure == HERTZ: hz). */
static void eval_point(const refCtx *q, double x, double y, double ux, double uy, double jac,
                       double *fval)
{
    double s = pressure_factor(q, x, y) * jac;
    switch (q->want) {
    case WANT_P15: {
        double D = sqrt(ux * ux + uy * uy + q->eps * q->eps);
        if (!(D > 0.0)) {
            fval[0] = fval[1] = fval[2] = 0.0;
            return;
        }
        fval[0] = s * ux / D;
        fval[1] = s * uy / D;
        fval[2] = s * (x * uy - y * ux) / D;
        break;
    }
    case WANT_DISTANCE:
        fval[0] = s * hypot(x - q->r0x, y - q->r0y);
        break;
    case WANT_MOMENT: {
        double r = hypot(x, y);
        fval[0] = s * pow(x, q->mi) * pow(y, q->mj) * pow(r, -q->mk);
        break;
    }
    }
}

static int ref_integrand(unsigned ndim, const double *xx, void *data, unsigned fdim, double *fval)
{
    (void)ndim;
    (void)fdim;
    const refCtx *q = data;
    int hz = q->pressure == PF_REF_HERTZ;
    if (q->mode == MODE_INSIDE) {
        double s = xx[0], phi = xx[1];
        double ex = cos(phi), ey = sin(phi);
        double b = q->r0x * ex + q->r0y * ey;
        double h = sqrt((1.0 - q->c) * (1.0 + q->c) + b * b);
        double rp = -b + h, rm = -b - h;
        double rho = rp * (1.0 - s * s);
        double jac = rho * 2.0 * rp * s; /* rho drho dphi */
        if (hz) jac *= s * sqrt(rp * (rho - rm));
        double x = q->r0x + rho * ex, y = q->r0y + rho * ey;
        eval_point(q, x, y, -q->w * rho * ey, q->w * rho * ex, jac, fval);
    } else if (q->mode == MODE_OUTSIDE) {
        double psi = xx[0], th = xx[1];
        double sp = sin(psi) / q->c;
        double cp = sqrt((1.0 - sp) * (1.0 + sp));
        double ux = -q->r0x / q->c, uy = -q->r0y / q->c; /* towards the centre */
        double ex = ux * cp - uy * sp, ey = ux * sp + uy * cp;
        double rho = q->c * cp - cos(psi) * cos(th);
        double jac = rho * cos(psi) * sin(th) * cos(psi) / (q->c * cp);
        if (hz) jac *= cos(psi) * sin(th);
        double x = q->r0x + rho * ex, y = q->r0y + rho * ey;
        eval_point(q, x, y, -q->w * rho * ey, q->w * rho * ex, jac, fval);
    } else {
        double al = xx[0], th = xx[1];
        double r = sin(al);
        double jac = r * cos(al);
        if (hz) jac *= cos(al);
        double x = r * cos(th), y = r * sin(th);
        eval_point(q, x, y, q->vx - q->w * y, q->vy + q->w * x, jac, fval);
    }
    return 0;
}

static int run(refCtx *q, unsigned fdim, double tol, double *val, double *err)
{
    double lo[2], hi[2];
    if (q->mode == MODE_INSIDE) {
        lo[0] = 0.0, hi[0] = 1.0, lo[1] = 0.0, hi[1] = 2.0 * REF_PI;
    } else if (q->mode == MODE_OUTSIDE) {
        lo[0] = -0.5 * REF_PI, hi[0] = 0.5 * REF_PI, lo[1] = 0.0, hi[1] = REF_PI;
    } else {
        lo[0] = 0.0, hi[0] = 0.5 * REF_PI, lo[1] = 0.0, hi[1] = 2.0 * REF_PI;
    }
    return hcubature(fdim, ref_integrand, q, 2, lo, hi, REF_MAX_EVAL, tol, 0.0, ERROR_INDIVIDUAL,
                     val, err);
}

pfRefDisk pf_ref_disk_p15(pfRefPressure pressure, double vx, double vy, double w, double eps,
                          double dc, double ds, double tol)
{
    refCtx q = {0};
    q.want = WANT_P15;
    q.pressure = pressure;
    q.vx = vx, q.vy = vy, q.w = w, q.eps = eps, q.dc = dc, q.ds = ds;
    if (w == 0.0) {
        q.mode = MODE_CENTRE;
    } else {
        q.r0x = -vy / w; /* P5 */
        q.r0y = vx / w;
        q.c = hypot(q.r0x, q.r0y);
        q.mode = q.c < 1.0 ? MODE_INSIDE : MODE_OUTSIDE;
    }
    double val[3] = {0}, err[3] = {0};
    pfRefDisk out;
    out.status = run(&q, 3, tol, val, err);
    out.tx = val[0], out.ty = val[1], out.ms = val[2];
    out.err = fmax(err[0], fmax(err[1], err[2]));
    return out;
}

double pf_ref_disk_distance(pfRefPressure pressure, double x0, double y0, double tol)
{
    refCtx q = {0};
    q.want = WANT_DISTANCE;
    q.pressure = pressure;
    q.r0x = x0, q.r0y = y0, q.c = hypot(x0, y0);
    q.mode = q.c < 1.0 ? MODE_INSIDE : MODE_OUTSIDE;
    double val = 0.0, err = 0.0;
    run(&q, 1, tol, &val, &err);
    return val;
}

double pf_ref_disk_moment(int i, int j, int k, double dc, double ds, double tol)
{
    refCtx q = {0};
    q.want = WANT_MOMENT;
    q.pressure = PF_REF_HERTZ;
    q.mode = MODE_CENTRE;
    q.dc = dc, q.ds = ds, q.mi = i, q.mj = j, q.mk = k;
    double val = 0.0, err = 0.0;
    run(&q, 1, tol, &val, &err);
    return val;
}

int pf_ref_disk_polar_integrand(unsigned ndim, const double *x, void *data, unsigned fdim,
                                double *f)
{
    (void)ndim;
    (void)fdim;
    const double *tw = data;
    const double r = x[0], px = r * cos(x[1]), py = r * sin(x[1]);
    const double ux = tw[0] - tw[2] * py, uy = tw[1] + tw[2] * px, um = hypot(ux, uy);
    const double jac = r / REF_PI;
    f[0] = -jac * ux / um;
    f[1] = -jac * uy / um;
    f[2] = -jac * (px * uy - py * ux) / um;
    return 0;
}
