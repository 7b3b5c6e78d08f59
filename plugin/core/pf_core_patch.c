/* Checked API over the patch models: definitions, validation, dispatch, static capacity.
 *
 * Everything here validates its inputs and reports the first bad field; the fast-path functions
 * it dispatches to are only ever called inside their documented preconditions. Twists are
 * rescaled before dispatch: every kinetic model without regularisation is homogeneous of degree
 * 0 in the twist (P3 uses u/|u| only), and the regularised Hertz model is homogeneous of degree 0
 * in (twist, eps_t) jointly, so dividing by the largest component keeps the fast path far from
 * overflow and underflow for any finite input without changing the result.
 */
#include "pf_core_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

pfPatchDef pf_default_patch_def(void)
{
    pfPatchDef def;
    memset(&def, 0, sizeof def);
    def.shape = PF_PATCH_NONE;
    def.model = PF_MODEL_EXACT;
    def.pade = pf_default_pade_params();
    return def;
}

/* Twice the signed area of the polygon (shoelace), > 0 for counter-clockwise vertices. */
static double polygon_twice_area(const double *xy, int n)
{
    double a2 = 0.0;
    for (int i = 0; i < n; ++i) {
        int j = (i + 1) % n;
        a2 += xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
    }
    return a2;
}

/* A length inside the fast path's domain [PF_LENGTH_MIN, PF_LENGTH_MAX]. */
static int check_length(pfError *err, const char *field, double v)
{
    int s = pf_check_positive(err, field, v);
    if (s != PF_OK) return s;
    return pf_check_range(err, field, v, PF_LENGTH_MIN, PF_LENGTH_MAX);
}

static int validate_polygon(const pfPatchDef *def, pfError *err)
{
    int n = def->vertex_count;
    if (n < 3 || n > PF_POLYGON_MAX_VERTICES)
        return pf_error_set(err, PF_ERR_RANGE, "vertex_count",
                            "vertex_count = %d must be in [3, %d]", n, PF_POLYGON_MAX_VERTICES);
    double extent = 0.0;
    for (int i = 0; i < 2 * n; ++i) {
        if (!isfinite(def->vertices[i]))
            return pf_error_set(err, PF_ERR_NOT_FINITE, "vertices",
                                "vertices[%d] (%s of vertex %d) = %g is not finite", i,
                                (i % 2) ? "y" : "x", i / 2, def->vertices[i]);
        extent = fmax(extent, fabs(def->vertices[i]));
    }
    if (extent > PF_LENGTH_MAX)
        return pf_error_set(err, PF_ERR_RANGE, "vertices", "polygon extent %g exceeds %g m", extent,
                            PF_LENGTH_MAX);
    double a2 = polygon_twice_area(def->vertices, n);
    /* Area at least 1e-6 of the extent squared: aspect ratios up to ~PF_ASPECT_MAX. */
    if (!(a2 > 2e-6 * extent * extent) || extent < PF_LENGTH_MIN)
        return pf_error_set(err, PF_ERR_DEGENERATE, "vertices",
                            "polygon area %g is not positive or too thin for its extent %g: "
                            "vertices must be counter-clockwise and span an area",
                            0.5 * a2, extent);
    /* Convexity: every turn is a left turn (collinear vertices are tolerated). */
    for (int i = 0; i < n; ++i) {
        const double *p0 = def->vertices + 2 * i;
        const double *p1 = def->vertices + 2 * ((i + 1) % n);
        const double *p2 = def->vertices + 2 * ((i + 2) % n);
        double cross = (p1[0] - p0[0]) * (p2[1] - p1[1]) - (p1[1] - p0[1]) * (p2[0] - p1[0]);
        if (cross < -1e-12 * extent * extent)
            return pf_error_set(err, PF_ERR_DEGENERATE, "vertices",
                                "polygon is not convex at vertex %d (%g, %g)", (i + 1) % n, p1[0],
                                p1[1]);
    }
    return PF_OK;
}

int pf_patch_def_validate(const pfPatchDef *def, pfError *err)
{
    pf_error_clear(err);
    if (!def) return pf_error_set(err, PF_ERR_NULL, "def", "patch definition pointer is NULL");
    if (def->model != PF_MODEL_EXACT && def->model != PF_MODEL_PADE)
        return pf_error_set(err, PF_ERR_ENUM, "model", "model = %d is not a pfModel value",
                            (int)def->model);
    int s;
    switch (def->shape) {
    case PF_PATCH_RECT:
        if ((s = check_length(err, "length", def->length)) != PF_OK ||
            (s = check_length(err, "width", def->width)) != PF_OK)
            return s;
        if (def->length > PF_ASPECT_MAX * def->width || def->width > PF_ASPECT_MAX * def->length)
            return pf_error_set(err, PF_ERR_RANGE, "width",
                                "aspect ratio of length = %g and width = %g exceeds %g",
                                def->length, def->width, PF_ASPECT_MAX);
        return PF_OK;
    case PF_PATCH_DISK:
        return check_length(err, "radius", def->radius);
    case PF_PATCH_HERTZ_DISK:
        if ((s = check_length(err, "radius", def->radius)) != PF_OK ||
            (s = pf_check_range(err, "rolling_d", def->rolling_d, 0.0, 1.0)) != PF_OK ||
            (s = pf_check_range(err, "eps_t", def->eps_t, 0.0, 1e100)) != PF_OK ||
            (s = pf_check_range(err, "eps_r", def->eps_r, 0.0, 1e100)) != PF_OK)
            return s;
        if (def->model == PF_MODEL_PADE) {
            if ((s = pf_check_positive(err, "pade.b_T", def->pade.b_T)) != PF_OK ||
                (s = pf_check_positive(err, "pade.m_T", def->pade.m_T)) != PF_OK ||
                (s = pf_check_positive(err, "pade.b_M", def->pade.b_M)) != PF_OK ||
                (s = pf_check_positive(err, "pade.m_M", def->pade.m_M)) != PF_OK)
                return s;
        }
        return PF_OK;
    case PF_PATCH_POLYGON:
        return validate_polygon(def, err);
    case PF_PATCH_NONE:
        return pf_error_set(err, PF_ERR_SHAPE, "shape",
                            "shape is PF_PATCH_NONE: set a patch shape before use");
    default:
        return pf_error_set(err, PF_ERR_ENUM, "shape", "shape = %d is not a pfPatchShape value",
                            (int)def->shape);
    }
}

/* Characteristic size of the patch [m]: converts spin into a velocity scale. */
static double patch_size(const pfPatchDef *def)
{
    switch (def->shape) {
    case PF_PATCH_RECT:
        return 0.5 * hypot(def->length, def->width);
    case PF_PATCH_DISK:
    case PF_PATCH_HERTZ_DISK:
        return def->radius;
    case PF_PATCH_POLYGON: {
        double r = 0.0;
        for (int i = 0; i < def->vertex_count; ++i)
            r = fmax(r, hypot(def->vertices[2 * i], def->vertices[2 * i + 1]));
        return r;
    }
    default:
        return 1.0;
    }
}

static int check_twist(pfError *err, const char *name, pfTwist t)
{
    const double v[3] = {t.vx, t.vy, t.w};
    static const char *const comp[3] = {"vx", "vy", "w"};
    for (int i = 0; i < 3; ++i)
        if (!isfinite(v[i])) { /* (the field's name is formatted only for the error) */
            char field[40];
            snprintf(field, sizeof field, "%s.%s", name, comp[i]);
            return pf_check_finite(err, field, v[i]);
        }
    return PF_OK;
}

static int check_scalars(pfError *err, double mu, const char *mu_name, double normal_force)
{
    int s = pf_check_nonnegative(err, mu_name, mu);
    if (s != PF_OK || (s = pf_check_nonnegative(err, "normal_force", normal_force)) != PF_OK)
        return s;
    if (!isfinite(mu * normal_force))
        return pf_error_set(err, PF_ERR_RANGE, "normal_force",
                            "%s * normal_force = %g * %g overflows", mu_name, mu, normal_force);
    return PF_OK;
}

/* Largest component of the twist as a velocity (spin times patch size) [m/s]. */
static double twist_scale(pfTwist t, double size)
{
    return fmax(fmax(fabs(t.vx), fabs(t.vy)), fabs(t.w) * size);
}

/* Evaluate the model for an already validated definition and inputs. */
static pfWrench eval_model(const pfPatchDef *def, double mu, double n, pfTwist t, pfTwist rolling,
                           double eps_t, double eps_r)
{
    switch (def->shape) {
    case PF_PATCH_RECT:
        return pf_rect_friction(def->length, def->width, mu, n, t);
    case PF_PATCH_DISK:
        return pf_disk_friction(def->radius, mu, n, t);
    case PF_PATCH_HERTZ_DISK:
        if (def->model == PF_MODEL_PADE)
            return pf_hertz_disk_pade_ex(def->radius, mu, n, def->rolling_d, t, rolling, eps_t,
                                         eps_r, &def->pade);
        return pf_hertz_disk_friction(def->radius, mu, n, def->rolling_d, t, rolling, eps_t, eps_r);
    case PF_PATCH_POLYGON:
        return pf_polygon_friction(def->vertices, def->vertex_count, mu, n, t);
    default: {
        pfWrench z = {0.0, 0.0, 0.0};
        return z;
    }
    }
}

/* P3 uses u/|u| only, so every model without regularisation is homogeneous of degree 0 in the
 * twist, and the regularised Hertz model in (twist, eps_t) jointly, its rolling direction in
 * (rolling, eps_r): dividing each group by its largest member keeps the fast path far from
 * overflow and underflow without changing the result. Stage 1 divides by the largest raw
 * component so that |w| * size cannot overflow; stage 2 by the largest velocity. eps is in 1/s,
 * i.e. velocity / a: its velocity scale is eps * a. */
pfWrench pf_patch_eval(const pfPatchDef *def, double mu, double normal_force, pfTwist t,
                       pfTwist rolling)
{
    double size = patch_size(def);
    int hertz = def->shape == PF_PATCH_HERTZ_DISK;
    double eps_def = hertz ? def->eps_t : 0.0, eps_t = 0.0, eps_r = 0.0;
    double m = fmax(fmax(fabs(t.vx), fabs(t.vy)), fmax(fabs(t.w), eps_def));
    if (m > 0.0) {
        t.vx /= m;
        t.vy /= m;
        t.w /= m;
        eps_def /= m;
    }
    double ts = twist_scale(t, size);
    if (hertz) {
        ts = fmax(ts, eps_def * size);
        double rs = fmax(fmax(fabs(rolling.vx), fabs(rolling.vy)), def->eps_r * size);
        if (rs > 0.0) {
            rolling.vx /= rs;
            rolling.vy /= rs;
            eps_r = def->eps_r / rs;
        }
    }
    if (ts > 0.0) {
        t.vx /= ts;
        t.vy /= ts;
        t.w /= ts;
        eps_t = eps_def / ts;
    }
    rolling.w = 0.0;
    return eval_model(def, mu, normal_force, t, rolling, eps_t, eps_r);
}

int pf_patch_friction(const pfPatchDef *def, double mu, double normal_force, pfTwist t,
                      pfTwist rolling, pfWrench *out, pfError *err)
{
    int s = pf_patch_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "output pointer is NULL");
    if ((s = check_scalars(err, mu, "mu", normal_force)) != PF_OK ||
        (s = check_twist(err, "twist", t)) != PF_OK ||
        (s = check_twist(err, "rolling", rolling)) != PF_OK)
        return s;
    double size = patch_size(def);
    if (!isfinite(mu * normal_force * 4.0 * size))
        return pf_error_set(err, PF_ERR_RANGE, "normal_force",
                            "friction moment mu * normal_force * size = %g * %g * %g overflows", mu,
                            normal_force, size);
    pfWrench w = pf_patch_eval(def, mu, normal_force, t, rolling);
    if (!isfinite(w.fx) || !isfinite(w.fy) || !isfinite(w.mz))
        return pf_error_set(err, PF_ERR_NOT_FINITE, "result",
                            "model returned a non-finite wrench (%g, %g, %g)", w.fx, w.fy, w.mz);
    *out = w;
    return PF_OK;
}

/* D(xi) = mu_s * integral of p |u_xi| dA. Maximum dissipation gives, for the kinetic wrench W of
 * the same patch evaluated with mu_s, xi . W(xi) = -mu_s * integral of p u.u/|u| dA = -D(xi)
 * (P3/P4 with u from P1), so D follows exactly from the wrench. The exact (unregularised) model
 * is always used: the limit set is a physical property of the patch, not of the approximant. */
pfPatchDef pf_patch_static(const pfPatchDef *def)
{
    pfPatchDef st = *def;
    st.model = PF_MODEL_EXACT;
    st.rolling_d = 0.0;
    st.eps_t = 0.0;
    st.eps_r = 0.0;
    return st;
}

double pf_patch_dissipation_eval(const pfPatchDef *def, double mu_s, double normal_force,
                                 pfTwist xi)
{
    /* Scaled as pf_patch_eval; D is degree 1 in xi, so the scales multiply back. */
    double m = fmax(fmax(fabs(xi.vx), fabs(xi.vy)), fabs(xi.w));
    if (m == 0.0) return 0.0;
    pfTwist u = {xi.vx / m, xi.vy / m, xi.w / m}, zero = {0.0, 0.0, 0.0};
    double ts = twist_scale(u, patch_size(def));
    u.vx /= ts;
    u.vy /= ts;
    u.w /= ts;
    pfPatchDef st = pf_patch_static(def);
    pfWrench w = eval_model(&st, mu_s, normal_force, u, zero, 0.0, 0.0);
    double d = -(u.vx * w.fx + u.vy * w.fy + u.w * w.mz) * ts * m;
    if (!isfinite(d)) return INFINITY;
    return d > 0.0 ? d : 0.0;
}

/* A lower bound of D(xi) from the pressure's moments alone (no quadrature). With s(r) = |v + w z x
 * r| the speed of the patch point r (patch frame, centre at the origin) and p the static pressure
 * (integral N, centroid rc, polar second moment N rho_g^2 about the centre, support within
 * size = patch_size of the centre), D = mu integral p s dA, and for any p >= 0:
 *   Jensen:          integral p s >= |integral p (v + w z x r)| = N |v + w z x rc|,
 *   s <= s_max:      integral p s >= integral p s^2 / s_max, s_max <= |v| + |w| size,
 *                    integral p s^2 = N (|v|^2 + 2 w v.(z x rc) + w^2 rho_g^2).
 * The first is exact for a translation, the second within a factor rho_g^2 / (size mean|r|) of a
 * spin about the centre (0.62 for a square, 0.68 for the Hertz disk). rc is 0 but for a polygon
 * (its area centroid). Homogeneous of degree 1 in xi, like D. 0 where D might overflow. */
double pf_patch_dissipation_lower(const pfPatchDef *def, double mu_s, double normal_force,
                                  pfTwist xi)
{
    double m = fmax(fmax(fabs(xi.vx), fabs(xi.vy)), fabs(xi.w));
    if (!(m > 0.0)) return 0.0;
    const double size = patch_size(def), rho = pf_patch_gyration(def);
    /* D <= mu_s N (|v| + |w| size) <= mu_s N m (2 + size): where that is not safely finite, D
     * may overflow, and no bound is given */
    if (!isfinite(4.0 * mu_s * normal_force * m * (2.0 + size))) return 0.0;
    double cx = 0.0, cy = 0.0;
    if (def->shape == PF_PATCH_POLYGON) { /* area centroid, in units of size */
        const double *v = def->vertices;
        const int n = def->vertex_count;
        double a2 = 0.0, sx = 0.0, sy = 0.0;
        for (int i = 0; i < n; ++i) {
            const int k = i + 1 == n ? 0 : i + 1;
            const double x0 = v[2 * i] / size, y0 = v[2 * i + 1] / size, x1 = v[2 * k] / size,
                         y1 = v[2 * k + 1] / size, c = x0 * y1 - x1 * y0;
            a2 += c;
            sx += c * (x0 + x1);
            sy += c * (y0 + y1);
        }
        if (!(a2 > 0.0)) return 0.0;
        cx = size * sx / (3.0 * a2);
        cy = size * sy / (3.0 * a2);
    }
    /* in units of m (|v|, |w| size <= 1 after scaling: no square overflows) */
    const double vx = xi.vx / m, vy = xi.vy / m, w = xi.w / m;
    const double ux = vx - w * cy, uy = vy + w * cx; /* v + w z x rc */
    const double jensen = hypot(ux, uy), vv = hypot(vx, vy);
    const double second = vx * vx + vy * vy + 2.0 * w * (vy * cx - vx * cy) + (w * rho) * (w * rho);
    const double smax = vv + fabs(w) * size;
    double lower = jensen;
    if (smax > 0.0 && second / smax > lower) lower = second / smax;
    const double d = mu_s * normal_force * lower * m;
    return isfinite(d) && d > 0.0 ? d : 0.0;
}

int pf_patch_dissipation(const pfPatchDef *def, double mu_s, double normal_force, pfTwist xi,
                         double *out, pfError *err)
{
    int s = pf_patch_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "output pointer is NULL");
    if ((s = check_scalars(err, mu_s, "mu_s", normal_force)) != PF_OK ||
        (s = check_twist(err, "xi", xi)) != PF_OK)
        return s;
    double d = pf_patch_dissipation_eval(def, mu_s, normal_force, xi);
    if (!isfinite(d))
        return pf_error_set(err, PF_ERR_RANGE, "xi",
                            "D(xi) overflows: twist (%g, %g, %g) times friction %g is not "
                            "representable",
                            xi.vx, xi.vy, xi.w, mu_s * normal_force);
    *out = d;
    return PF_OK;
}

double pf_patch_gyration(const pfPatchDef *def)
{
    switch (def->shape) {
    case PF_PATCH_RECT: /* J/A = (L^2 + W^2)/12 */
        return sqrt((def->length * def->length + def->width * def->width) / 12.0);
    case PF_PATCH_DISK: /* a^2/2 */
        return def->radius / sqrt(2.0);
    case PF_PATCH_HERTZ_DISK: /* 3 * int_0^1 r^3 sqrt(1-r^2) dr = 2/5 (P14 with d = 0) */
        return def->radius * sqrt(0.4);
    default: { /* polygon: polar second moment about the origin over the area */
        const double *v = def->vertices;
        int n = def->vertex_count;
        double sc = patch_size(def); /* divide out so fourth powers cannot overflow */
        double a2 = 0.0, j12 = 0.0;
        for (int i = 0; i < n; ++i) {
            int k = (i + 1) % n;
            double x0 = v[2 * i] / sc, y0 = v[2 * i + 1] / sc, x1 = v[2 * k] / sc,
                   y1 = v[2 * k + 1] / sc;
            double c = x0 * y1 - x1 * y0;
            a2 += c;
            j12 += c * (x0 * x0 + x0 * x1 + x1 * x1 + y0 * y0 + y0 * y1 + y1 * y1);
        }
        /* J = j12/12, A = a2/2 */
        return sc * sqrt(j12 / (6.0 * a2));
    }
    }
}

int pf_patch_gyration_radius(const pfPatchDef *def, double *out, pfError *err)
{
    int s = pf_patch_def_validate(def, err);
    if (s != PF_OK) return s;
    if (!out) return pf_error_set(err, PF_ERR_NULL, "out", "output pointer is NULL");
    *out = pf_patch_gyration(def);
    return PF_OK;
}
