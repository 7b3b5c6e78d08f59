/* Tiny headless ODE scenes for the adapter tests: one box (or sphere / cylinder) on a ground
 * plane, stepped with pf_ode hooks around dWorldStep or dWorldQuickStep. */
#ifndef PF_ODE_TEST_SCENE_H
#define PF_ODE_TEST_SCENE_H

#include <patchfriction/pf_ode.h>

typedef struct pfOdeTestScene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    dGeomID plane;
    dBodyID body;
    dGeomID geom;
    pfOdeContext *pf;
    int quick;   ///< 1: dWorldQuickStep, 0: dWorldStep
    double dt;   ///< step [s]
    double time; ///< simulated time [s]
} pfOdeTestScene;

/// The coupling of the contexts the scenes below create (default PF_ODE_COUPLING_AUTO: the
/// in-solver one on the patched ODE); a test of the adapter's own rows sets ADAPTER.
extern pfOdeCoupling pf_ode_test_coupling;
/// 1: the contexts the scenes below create declare their stepper (pfOdeConfig.stepper QUICK or
/// WORLD, as the user of QuickStep is told to); 0 (default): left unspecified.
extern int pf_ode_test_declare_stepper;
/// The step sizes every adapter test runs (1e-4, 1e-3, 5e-3: fine, typical, coarse) [s].
extern const double PF_ODE_TEST_DTS[3];
/// "QuickStep" or "WorldStep", for messages.
const char *pf_ode_test_stepper_name(int quick);
/// Default material with the given coefficients.
pfOdeMaterial pf_ode_test_material(double mu_s, double mu_k);

/// Gravity magnitude used by every scene [m/s^2].
#define PF_ODE_TEST_G 9.81

/** Box lx*ly*lz of the given mass resting on the plane z = 0 (its lx side along world x).
 *  Gravity is tilted by incline [rad] about the y axis (same as tilting the plane), so it pulls
 *  down-slope along +x. mat is applied to both the box and the plane. */
void pf_ode_test_box(pfOdeTestScene *s, double lx, double ly, double lz, double mass,
                     const pfOdeMaterial *mat, int quick, double dt, double incline);
/** Sphere of radius r and the given mass resting on the plane z = 0 (1 um deep); ball is the
 *  sphere's material, ground the plane's. */
void pf_ode_test_sphere(pfOdeTestScene *s, double r, double mass, const pfOdeMaterial *ball,
                        const pfOdeMaterial *ground, int quick, double dt);
/** One step: collide, pf_ode_before_step, the chosen stepper, pf_ode_after_step, empty. */
void pf_ode_test_step(pfOdeTestScene *s);
/// Destroy everything.
void pf_ode_test_free(pfOdeTestScene *s);
/// Planar displacement of the body from (x0, y0) [m].
double pf_ode_test_planar_dist(const pfOdeTestScene *s, double x0, double y0);

/// Largest mesh pf_ode_test_mesh_world keeps (vertices, triangle indices).
#define PF_ODE_TEST_MESH_MAXV 8
#define PF_ODE_TEST_MESH_MAXI 36

/// A world with one static trimesh and room for one dynamic box (the test places it).
typedef struct pfOdeTestMeshWorld {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    pfOdeContext *pf;
    double v[3 * PF_ODE_TEST_MESH_MAXV];  ///< the mesh's vertices (ODE keeps a pointer to them)
    dTriIndex idx[PF_ODE_TEST_MESH_MAXI]; ///< and its triangles
    dTriMeshDataID data;
    dGeomID mesh;
    dBodyID body; ///< the test's box body (0 until it makes one)
    dGeomID box;  ///< and its geom, in space
} pfOdeTestMeshWorld;

/** A world with gravity PF_ODE_TEST_G along -z, a hash space, a contact group and an adapter
 *  context (adapter coupling, default material in the given mode), and one static trimesh of nv
 *  vertices v (x, y, z each) and ni triangle indices idx, at the origin. nv and ni are at most
 *  PF_ODE_TEST_MESH_MAXV and PF_ODE_TEST_MESH_MAXI. */
void pf_ode_test_mesh_world(pfOdeTestMeshWorld *s, pfOdeMode mode, const double *v, int nv,
                            const dTriIndex *idx, int ni);
/// Destroy everything (the box too).
void pf_ode_test_mesh_world_free(pfOdeTestMeshWorld *s);

#endif
