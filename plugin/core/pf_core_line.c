/* Line contact (docs/physics.md §10, P46-P49): the half-width of the strip a cylinder, a capsule
 * or a box edge presses into a face, modelled as a uniform-pressure rectangle L x 2b.
 *
 * Hertz's two-dimensional contact of a cylinder of effective radius R' pressed into a half-space
 * with the load per unit length N / L has the half-width (Johnson, Contact Mechanics, eq. 4.43)
 *     b = sqrt(4 (N / L) R' / (pi E*))                                            (P46)
 * and the elliptical pressure p(y) = (2 N / (pi b L)) sqrt(1 - y^2 / b^2) across the strip.
 *
 * The strip's friction is that of the uniform rectangle L x 2b (P49): its translational part is
 * exact whatever b (any pressure profile gives mu N |v|), and its spin and coupled parts differ
 * from the elliptical profile's by less than the rectangle's own departure from the uniform line,
 * (4/3) (b/L)^2 (5/6 + ln(L/b)) of mu N L / 4 (P49). Bounds on b:
 *  - floor PF_LINE_HALF_WIDTH_MIN * L: a sharp box edge (R' -> 0) gives b -> 0, a rectangle of
 *    no width. At the floor the aspect ratio L / 2b is 1e3, the largest aspect at which the exact
 *    rectangle's wrench is checked against cubature to 1e-9 (test_core_rect.c), and the strip's
 *    spin capacity exceeds the line's mu N L / 4 by 2.8e-6 relative (P49's bound at b/L = 5e-4);
 *  - cap L / 2: a strip wider than long is no longer a line contact (b grows like sqrt(N)); at
 *    the cap the patch is the square L x L. */
#include <patchfriction/pf_core.h>

#include <math.h>

double pf_line_half_width(double normal_force, double r_eff, double length, double e_star)
{
    const double lo = PF_LINE_HALF_WIDTH_MIN * length, hi = 0.5 * length;
    double b = 0.0;
    if (normal_force > 0.0 && r_eff > 0.0 && e_star > 0.0 && length > 0.0)
        b = sqrt(4.0 * normal_force * r_eff / (3.14159265358979323846 * length * e_star)); /* P46 */
    if (!(b >= lo)) b = lo; /* also NaN, and R' = inf (no curvature) caught below */
    if (b > hi) b = hi;
    return b;
}
