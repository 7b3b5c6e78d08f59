/* Checked patch API: defaults, validation (every bad field named), dispatch with rescaling,
 * static capacity D(xi) and gyration radii. References are closed forms and cubature. */
#include <check.h>
#include <math.h>
#include <patchfriction/pf_core.h>
#include <string.h>

#include "pf_test_support.h"

static const double PI = 3.14159265358979323846;

static pfPatchDef make(pfPatchShape shape)
{
    pfPatchDef d = pf_default_patch_def();
    d.shape = shape;
    d.length = 0.03;
    d.width = 0.01;
    d.radius = 0.003;
    d.vertex_count = 6;
    for (int i = 0; i < 6; ++i) {
        d.vertices[2 * i] = 0.01 * cos(2.0 * PI * i / 6.0);
        d.vertices[2 * i + 1] = 0.01 * sin(2.0 * PI * i / 6.0);
    }
    return d;
}

START_TEST(defaults)
{
    pfPatchDef d = pf_default_patch_def();
    ck_assert_int_eq(d.shape, PF_PATCH_NONE);
    ck_assert_int_eq(d.model, PF_MODEL_EXACT);
    ck_assert_double_eq(d.pade.b_T, 0.771);
    ck_assert_double_eq(d.pade.m_T, 2.655);
    ck_assert_double_eq(d.pade.b_M, 0.419);
    ck_assert_double_eq(d.pade.m_M, 3.073);
    pfError e;
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_SHAPE);
    ck_assert_str_eq(e.field, "shape");
    ck_assert_ptr_nonnull(strstr(e.message, "PF_PATCH_NONE"));
}
END_TEST

/* Each bad field gets its own code and its name in the report. */
START_TEST(bad_fields_named)
{
    struct {
        pfPatchShape shape;
        size_t offset;
        double value;
        int code;
        const char *field;
    } cases[] = {
        {PF_PATCH_RECT, offsetof(pfPatchDef, length), 0.0, PF_ERR_RANGE, "length"},
        {PF_PATCH_RECT, offsetof(pfPatchDef, length), -1.0, PF_ERR_RANGE, "length"},
        {PF_PATCH_RECT, offsetof(pfPatchDef, width), NAN, PF_ERR_NOT_FINITE, "width"},
        {PF_PATCH_RECT, offsetof(pfPatchDef, width), INFINITY, PF_ERR_NOT_FINITE, "width"},
        {PF_PATCH_RECT, offsetof(pfPatchDef, length), 1e101, PF_ERR_RANGE, "length"},
        {PF_PATCH_RECT, offsetof(pfPatchDef, width), 1e-15, PF_ERR_RANGE, "width"}, /* aspect */
        {PF_PATCH_DISK, offsetof(pfPatchDef, radius), 1e-101, PF_ERR_RANGE, "radius"},
        {PF_PATCH_DISK, offsetof(pfPatchDef, radius), -0.5, PF_ERR_RANGE, "radius"},
        {PF_PATCH_HERTZ_DISK, offsetof(pfPatchDef, radius), NAN, PF_ERR_NOT_FINITE, "radius"},
        {PF_PATCH_HERTZ_DISK, offsetof(pfPatchDef, rolling_d), 1.5, PF_ERR_RANGE, "rolling_d"},
        {PF_PATCH_HERTZ_DISK, offsetof(pfPatchDef, rolling_d), -0.1, PF_ERR_RANGE, "rolling_d"},
        {PF_PATCH_HERTZ_DISK, offsetof(pfPatchDef, eps_t), -1.0, PF_ERR_RANGE, "eps_t"},
        {PF_PATCH_HERTZ_DISK, offsetof(pfPatchDef, eps_r), NAN, PF_ERR_NOT_FINITE, "eps_r"},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        pfPatchDef d = make(cases[i].shape);
        memcpy((char *)&d + cases[i].offset, &cases[i].value, sizeof(double));
        pfError e;
        ck_assert_int_eq(pf_patch_def_validate(&d, &e), cases[i].code);
        ck_assert_int_eq(e.status, cases[i].code);
        ck_assert_str_eq(e.field, cases[i].field);
        ck_assert_ptr_nonnull(strstr(e.message, cases[i].field));
        /* The same definition is refused by every consumer, with the same report. */
        pfWrench w;
        pfTwist t = {1, 0, 0};
        ck_assert_int_eq(pf_patch_friction(&d, 0.5, 1.0, t, t, &w, &e), cases[i].code);
        ck_assert_str_eq(e.field, cases[i].field);
    }
    pfPatchDef d = make(PF_PATCH_HERTZ_DISK);
    d.model = PF_MODEL_PADE;
    d.pade.m_T = 0.0;
    pfError e;
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "pade.m_T");
    d = make(PF_PATCH_RECT);
    d.model = (pfModel)7;
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_ENUM);
    ck_assert_str_eq(e.field, "model");
    ck_assert_ptr_nonnull(strstr(e.message, "model = 7"));
    d = make((pfPatchShape)42);
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_ENUM);
    ck_assert_str_eq(e.field, "shape");
    ck_assert_ptr_nonnull(strstr(e.message, "shape = 42"));
    ck_assert_str_eq(pf_strerror(PF_ERR_ENUM), "value is not one of the enumerators accepted");
    ck_assert_str_eq(pf_strerror(PF_ERR_SHAPE), "patch shape not set");
    ck_assert_int_eq(pf_patch_def_validate(NULL, &e), PF_ERR_NULL);
    ck_assert_int_eq(pf_patch_def_validate(NULL, NULL), PF_ERR_NULL);
}
END_TEST

START_TEST(bad_polygons)
{
    pfError e;
    pfPatchDef d = make(PF_PATCH_POLYGON);
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_OK);
    d.vertex_count = 2;
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "vertex_count");
    d.vertex_count = PF_POLYGON_MAX_VERTICES + 1;
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_RANGE);
    d = make(PF_PATCH_POLYGON);
    d.vertices[3] = NAN;
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "vertices");
    ck_assert_ptr_nonnull(strstr(e.message, "vertex 1"));
    /* Clockwise order (negative area). */
    d = make(PF_PATCH_POLYGON);
    for (int i = 0; i < 6; ++i)
        d.vertices[2 * i + 1] = -d.vertices[2 * i + 1];
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_DEGENERATE);
    ck_assert_ptr_nonnull(strstr(e.message, "counter-clockwise"));
    /* A dent: move vertex 1 to the centre. */
    d = make(PF_PATCH_POLYGON);
    d.vertices[2] = 0.0;
    d.vertices[3] = 0.0;
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_DEGENERATE);
    ck_assert_ptr_nonnull(strstr(e.message, "convex"));
    /* All vertices on one line. */
    d = make(PF_PATCH_POLYGON);
    d.vertex_count = 3;
    double line[6] = {0, 0, 1, 1, 2, 2};
    memcpy(d.vertices, line, sizeof line);
    ck_assert_int_eq(pf_patch_def_validate(&d, &e), PF_ERR_DEGENERATE);
}
END_TEST

START_TEST(bad_call_arguments)
{
    pfPatchDef d = make(PF_PATCH_RECT);
    pfWrench w;
    pfError e;
    pfTwist t = {1, 0, 0}, z = {0, 0, 0};
    ck_assert_int_eq(pf_patch_friction(&d, -0.2, 1.0, t, z, &w, &e), PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "mu");
    ck_assert_int_eq(pf_patch_friction(&d, 0.2, NAN, t, z, &w, &e), PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "normal_force");
    pfTwist bad = {0, INFINITY, 0};
    ck_assert_int_eq(pf_patch_friction(&d, 0.2, 1.0, bad, z, &w, &e), PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "twist.vy");
    ck_assert_int_eq(pf_patch_friction(&d, 0.2, 1.0, t, bad, &w, &e), PF_ERR_NOT_FINITE);
    ck_assert_str_eq(e.field, "rolling.vy");
    ck_assert_int_eq(pf_patch_friction(&d, 0.2, 1.0, t, z, NULL, &e), PF_ERR_NULL);
    double D;
    ck_assert_int_eq(pf_patch_dissipation(&d, 0.2, -1.0, t, &D, &e), PF_ERR_RANGE);
    ck_assert_str_eq(e.field, "normal_force");
    ck_assert_int_eq(pf_patch_gyration_radius(&d, NULL, &e), PF_ERR_NULL);
    ck_assert_str_eq(pf_strerror(PF_OK), "ok");
    ck_assert_str_eq(pf_strerror(12345), "unknown status");
    for (int c = PF_ERR_STATE; c <= PF_OK; ++c)
        ck_assert_ptr_nonnull(pf_strerror(c));
}
END_TEST

/* Rescaling in the checked layer must not change the answer, and huge or tiny finite twists
 * must still give the translation / spin limits (P8, P9) instead of overflow. */
START_TEST(extreme_twists_scale_free)
{
    const pfPatchShape shapes[] = {PF_PATCH_RECT, PF_PATCH_DISK, PF_PATCH_HERTZ_DISK,
                                   PF_PATCH_POLYGON};
    const double mags[] = {1e-300, 1e-150, 1e-8, 1.0, 1e8, 1e150, 1e300};
    for (unsigned s = 0; s < 4; ++s) {
        pfPatchDef d = make(shapes[s]);
        pfTwist z = {0, 0, 0};
        for (unsigned m = 0; m < sizeof mags / sizeof mags[0]; ++m) {
            pfTwist slide = {0.6 * mags[m], -0.8 * mags[m], 0.0};
            pfWrench w;
            ck_assert_int_eq(pf_patch_friction(&d, 0.5, 2.0, slide, z, &w, NULL), PF_OK);
            ck_assert_double_eq_tol(w.fx, -0.5 * 2.0 * 0.6, 1e-12);
            ck_assert_double_eq_tol(w.fy, 0.5 * 2.0 * 0.8, 1e-12);
            pfTwist spin = {0.0, 0.0, mags[m]};
            ck_assert_int_eq(pf_patch_friction(&d, 0.5, 2.0, spin, z, &w, NULL), PF_OK);
            ck_assert(isfinite(w.mz) && w.mz < 0.0);
            ck_assert_double_eq_tol(w.fx, 0.0, 1e-12);
        }
    }
}
END_TEST

/* D(xi) closed forms: translation gives mu_s N |v| for every shape; a unit spin about the centre
 * gives (2/3) mu_s N a (uniform disk) and (3 pi/16) mu_s N a (Hertz) (P9); positive
 * homogeneity of degree 1. */
START_TEST(dissipation_closed_forms)
{
    const pfPatchShape shapes[] = {PF_PATCH_RECT, PF_PATCH_DISK, PF_PATCH_HERTZ_DISK,
                                   PF_PATCH_POLYGON};
    for (unsigned s = 0; s < 4; ++s) {
        pfPatchDef d = make(shapes[s]);
        double D;
        pfTwist v = {0.3, -0.4, 0.0};
        ck_assert_int_eq(pf_patch_dissipation(&d, 0.4, 3.0, v, &D, NULL), PF_OK);
        ck_assert_double_eq_tol(D, 0.4 * 3.0 * 0.5, 1e-12);
        pfTwist xi = {0.2, 0.1, 30.0}, xi2 = {0.6, 0.3, 90.0};
        double D1, D2;
        ck_assert_int_eq(pf_patch_dissipation(&d, 0.4, 3.0, xi, &D1, NULL), PF_OK);
        ck_assert_int_eq(pf_patch_dissipation(&d, 0.4, 3.0, xi2, &D2, NULL), PF_OK);
        ck_assert_double_eq_tol(D2, 3.0 * D1, 1e-12 * D2);
    }
    double D;
    pfTwist spin = {0, 0, 1.0};
    pfPatchDef disk = make(PF_PATCH_DISK);
    ck_assert_int_eq(pf_patch_dissipation(&disk, 0.4, 3.0, spin, &D, NULL), PF_OK);
    ck_assert_double_eq_tol(D, 2.0 / 3.0 * 0.4 * 3.0 * 0.003, 1e-12);
    pfPatchDef hz = make(PF_PATCH_HERTZ_DISK);
    hz.rolling_d = 1.0;       /* ignored at rest: documented */
    hz.model = PF_MODEL_PADE; /* the limit set is always the exact one */
    ck_assert_int_eq(pf_patch_dissipation(&hz, 0.4, 3.0, spin, &D, NULL), PF_OK);
    ck_assert_double_eq_tol(D, 3.0 * PI / 16.0 * 0.4 * 3.0 * 0.003, 1e-11);
}
END_TEST

START_TEST(gyration_radii)
{
    double r;
    pfPatchDef d = make(PF_PATCH_RECT);
    ck_assert_int_eq(pf_patch_gyration_radius(&d, &r, NULL), PF_OK);
    ck_assert_double_eq_tol(r, sqrt((0.03 * 0.03 + 0.01 * 0.01) / 12.0), 1e-15);
    d = make(PF_PATCH_DISK);
    ck_assert_int_eq(pf_patch_gyration_radius(&d, &r, NULL), PF_OK);
    ck_assert_double_eq_tol(r, 0.003 / sqrt(2.0), 1e-15);
    d = make(PF_PATCH_HERTZ_DISK);
    ck_assert_int_eq(pf_patch_gyration_radius(&d, &r, NULL), PF_OK);
    ck_assert_double_eq_tol(r, 0.003 * sqrt(0.4), 1e-15);
    d = make(PF_PATCH_POLYGON);
    ck_assert_int_eq(pf_patch_gyration_radius(&d, &r, NULL), PF_OK);
    /* Regular hexagon of circumradius R: J = (5 sqrt3/8) R^4, A = (3 sqrt3/2) R^2. */
    ck_assert_double_eq_tol(r, 0.01 * sqrt(5.0 / 12.0), 1e-14);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("core_patch");
    TCase *tc = tcase_create("checked_api");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, bad_fields_named);
    tcase_add_test(tc, bad_polygons);
    tcase_add_test(tc, bad_call_arguments);
    tcase_add_test(tc, extreme_twists_scale_free);
    tcase_add_test(tc, dissipation_closed_forms);
    tcase_add_test(tc, gyration_radii);
    suite_add_tcase(s, tc);
    return pf_test_run_suite(s);
}
