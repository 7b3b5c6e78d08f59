/* pf-peer-bullet: the peer-comparison cases (pf_peer_cases.h) in Bullet 3.24 (Debian's
 * libbullet-dev, single precision), set up as Bullet's user manual and examples do it:
 * btDiscreteDynamicsWorld with btDbvtBroadphase, btDefaultCollisionConfiguration and the
 * btSequentialImpulseConstraintSolver with split impulse, ERP 0.2 and warm starting 0.85 (its
 * defaults), 50 iterations (PyBullet's default; the C++ default 10 lets a resting box creep) and
 * SOLVER_USE_2_FRICTION_DIRECTIONS (see World); stepSimulation(dt, 1, dt),
 * i.e. one fixed 1 ms substep per call; the ground a static btBoxShape (box-box contacts come from
 * btBoxBoxDetector, up to 4 points), as in the manual's HelloWorld; deactivation disabled (a
 * sleeping body ignores applied impulses and would "hold" by sleeping); collision margin 1 mm on
 * shapes smaller than 5 cm (the default 4 cm exceeds their half extents). Friction coefficients
 * combine as a product (btManifoldResult), so the ground has friction 1 and each body the case's
 * mu.
 *
 * Two configurations:
 *   "default": Coulomb friction only: two friction rows per contact point (the first along the
 *     point's sliding direction), each bounded by mu times the point's normal impulse.
 *   "+ spin": plus spinning (torsional) friction: a torque about the normal up to
 *     spinning * (normal impulse), with spinning = mu times the patch's mean distance from its
 *     centre (the pure-spin capacity over N of a uniformly pressed patch; (3 pi / 16) a for a
 *     Hertz disk). Bullet 3.24's btSequentialImpulseConstraintSolver adds that row only when the
 *     combined rolling friction is > 0, so rolling friction is set to 1e-6 m (negligible
 *     rolling resistance). It adds one torsional row per manifold, at its first point, bounded by
 *     that point's normal impulse alone.
 * Loads are applied as impulses each step (F dt at the point, applyImpulse; applyCentralImpulse
 * at the mass centre): Bullet 3.24 leaves the torque of applyForce out of its friction rows.
 *
 * Usage: pf-peer-bullet --out FILE.json [--quick]. Progress on stderr. */
#include "pf_peer_json.h"

#include <btBulletDynamicsCommon.h>
#include <jansson.h>
#include <patchfriction/pf_core.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace
{

const double kRollingForSpin = 1e-6; ///< [m] the rolling friction that enables spinning friction
const double kSmallMargin = 0.001;   ///< [m] collision margin of shapes below 5 cm
const int kIterations = 50;          ///< solver iterations (PyBullet's default)
int quick = 0;                       // an int for pf_peer_parse_args

struct Config {
    const char *name;
    bool spin;
};

/// The cells, and the notes' text (pfPeerResult::notes points into it when the JSON is written).
struct Out : pfPeerResult {
    std::vector<std::string> note_text;
};

/// Mean distance of a uniformly pressed L x W rectangle's points from its centre [m] (midpoint
/// sums; the pure-spin moment over mu N).
double rect_mean_distance(double L, double W)
{
    const int nx = 400, ny = 400;
    double sum = 0.0;
    for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j)
            sum += std::hypot((i + 0.5) / nx * L - 0.5 * L, (j + 0.5) / ny * W - 0.5 * W);
    return sum / (nx * ny);
}

/// One Bullet world as the manual builds it, with a static ground box whose top is z = 0 (none
/// if ground_half is 0).
class World
{
  public:
    explicit World(const btVector3 &gravity, double ground_half = 5.0)
        : dispatcher(&config), world(&dispatcher, &broadphase, &solver, &config)
    {
        world.setGravity(gravity);
        /* the second friction row of every contact point, as Bullet's CCDPhysicsDemo and its
         * multibody world set it: by default a point has one friction row only, along its
         * sliding direction or, at rest, along an arbitrary tangent, so a resting block creeps
         * sideways and an eccentric push turns it at a fraction of the force */
        world.getSolverInfo().m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;
        /* 50 iterations, PyBullet's documented default (numSolverIterations): at the C++ API's
         * 10 a box resting on four points does not converge (the creeping cube moves 0.1 mm
         * in 10 s; 2e-9 m at 50) */
        world.getSolverInfo().m_numIterations = kIterations;
        if (ground_half <= 0.0) return;
        ground_shape = new btBoxShape(btVector3(ground_half, ground_half, 0.5));
        shapes.push_back(ground_shape);
        btTransform t;
        t.setIdentity();
        t.setOrigin(btVector3(0, 0, -0.5));
        ground = add(ground_shape, 0.0, t);
        ground->setFriction(1.0);
    }
    ~World()
    {
        for (int i = world.getNumCollisionObjects() - 1; i >= 0; --i) {
            btCollisionObject *o = world.getCollisionObjectArray()[i];
            btRigidBody *b = btRigidBody::upcast(o);
            if (b && b->getMotionState()) delete b->getMotionState();
            world.removeCollisionObject(o);
            delete o;
        }
        for (btCollisionShape *s : shapes)
            delete s;
    }
    World(const World &) = delete;
    World &operator=(const World &) = delete;

    btCollisionShape *keep(btCollisionShape *s)
    {
        shapes.push_back(s);
        return s;
    }
    btRigidBody *add(btCollisionShape *shape, double mass, const btTransform &t)
    {
        btVector3 inertia(0, 0, 0);
        if (mass > 0.0) shape->calculateLocalInertia(mass, inertia);
        btRigidBody::btRigidBodyConstructionInfo info(mass, new btDefaultMotionState(t), shape,
                                                      inertia);
        btRigidBody *b = new btRigidBody(info);
        if (mass > 0.0) b->setActivationState(DISABLE_DEACTIVATION);
        world.addRigidBody(b);
        return b;
    }
    /// A dynamic body with friction mu (the ground's is 1) and, with spin, spinning friction
    /// mu * rho (rho: the patch's mean contact distance) and the rolling friction that enables it.
    void friction(btRigidBody *b, double mu, bool spin, double rho)
    {
        b->setFriction(mu);
        if (spin) {
            b->setRollingFriction(kRollingForSpin);
            b->setSpinningFriction(mu * rho);
        }
    }
    void step() { world.stepSimulation(PF_PEER_DT, 1, PF_PEER_DT); }

    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher;
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world;
    btBoxShape *ground_shape = nullptr;
    btRigidBody *ground = nullptr;
    std::vector<btCollisionShape *> shapes;
};

btTransform at(double x, double y, double z)
{
    btTransform t;
    t.setIdentity();
    t.setOrigin(btVector3(x, y, z));
    return t;
}

double ramp_rate()
{
    return quick ? 10.0 * PF_PEER_PUSH_RAMP : PF_PEER_PUSH_RAMP;
}

/// Breakaway of the push block: force along the body's (cos a, sin a) at body point (px, py, 0),
/// growing after the settling; the force when that point has moved PF_PEER_BREAK_DIST.
double push_breakaway(bool spin, double a, double px, double py)
{
    World w(btVector3(0, 0, -PF_PEER_G));
    const double mass = PF_PEER_PUSH_RHO * PF_PEER_PUSH_L * PF_PEER_PUSH_W * PF_PEER_PUSH_H;
    btCollisionShape *shape = w.keep(new btBoxShape(
        btVector3(0.5 * PF_PEER_PUSH_L, 0.5 * PF_PEER_PUSH_W, 0.5 * PF_PEER_PUSH_H)));
    shape->setMargin(kSmallMargin);
    btRigidBody *b = w.add(shape, mass, at(0, 0, 0.5 * PF_PEER_PUSH_H));
    w.friction(b, PF_PEER_PUSH_MU_S, spin, rect_mean_distance(PF_PEER_PUSH_L, PF_PEER_PUSH_W));
    const double fmax = 2.0 * PF_PEER_PUSH_MU_S * mass * PF_PEER_G, ramp = ramp_rate();
    const long settle = std::lround(PF_PEER_SETTLE / PF_PEER_DT);
    const long n_max = settle + (long)std::ceil(fmax / ramp / PF_PEER_DT);
    const btVector3 local(px, py, 0);
    btVector3 p0(0, 0, 0);
    for (long k = 0; k < n_max; ++k) {
        double F = k > settle ? ramp * (double)(k - settle) * PF_PEER_DT : 0.0;
        if (k == settle) p0 = b->getWorldTransform() * local;
        if (F > 0.0) {
            const btMatrix3x3 &R = b->getWorldTransform().getBasis();
            btVector3 f = R * btVector3(F * std::cos(a), F * std::sin(a), 0);
            b->applyImpulse(f * PF_PEER_DT, R * local); /* rel_pos: from the mass centre, world */
        }
        w.step();
        if (k >= settle) {
            btVector3 p = b->getWorldTransform() * local;
            if (std::hypot(p.x() - p0.x(), p.y() - p0.y()) > PF_PEER_BREAK_DIST) return F;
        }
    }
    return NAN;
}

void disk_case(bool spin, Out &o)
{
    o.disk_eps = o.disk_stop_trans = o.disk_stop_spin = NAN;
    World w(btVector3(0, 0, -PF_PEER_G));
    btCollisionShape *shape = w.keep(
        new btCylinderShapeZ(btVector3(PF_PEER_DISK_R, PF_PEER_DISK_R, 0.5 * PF_PEER_DISK_HEIGHT)));
    shape->setMargin(0.5 * kSmallMargin); /* below half the disk's 5 mm height */
    btRigidBody *b = w.add(shape, PF_PEER_DISK_MASS, at(0, 0, 0.5 * PF_PEER_DISK_HEIGHT));
    w.friction(b, PF_PEER_DISK_MU, spin, 2.0 / 3.0 * PF_PEER_DISK_R);
    const long settle = std::lround(PF_PEER_SETTLE / PF_PEER_DT);
    const long n_max = settle + std::lround(3.0 / PF_PEER_DT);
    for (long k = 0; k < n_max; ++k) {
        if (k == settle) {
            b->setLinearVelocity(btVector3(PF_PEER_DISK_V0, 0, 0));
            b->setAngularVelocity(btVector3(0, 0, PF_PEER_DISK_W0));
        }
        w.step();
        if (k < settle) continue;
        double t = (double)(k + 1 - settle) * PF_PEER_DT;
        btVector3 v = b->getLinearVelocity(), om = b->getAngularVelocity();
        double speed = std::hypot(v.x(), v.y()), rate = std::fabs(om.z());
        if (speed >= 0.05 * PF_PEER_DISK_V0 && rate >= 0.05 * PF_PEER_DISK_W0)
            o.disk_eps = speed / (PF_PEER_DISK_R * rate);
        if (std::isnan(o.disk_stop_trans) && speed < 1e-3) o.disk_stop_trans = t;
        if (std::isnan(o.disk_stop_spin) && PF_PEER_DISK_R * rate < 1e-3) o.disk_stop_spin = t;
        if (!std::isnan(o.disk_stop_trans) && !std::isnan(o.disk_stop_spin)) break;
    }
}

/// Creep of the 0.1 m cube over PF_PEER_CREEP_T after the settling: on the incline (gravity
/// tilted about y) or on the level under the push at its mass centre along x.
double creep(bool spin, bool push)
{
    const double alpha = std::atan(PF_PEER_CREEP_FRACTION * PF_PEER_CREEP_MU);
    btVector3 g(0, 0, -PF_PEER_G);
    if (!push) g = btVector3(PF_PEER_G * std::sin(alpha), 0, -PF_PEER_G * std::cos(alpha));
    World w(g);
    const double a = PF_PEER_CREEP_SIDE;
    btCollisionShape *shape = w.keep(new btBoxShape(btVector3(0.5 * a, 0.5 * a, 0.5 * a)));
    btRigidBody *b = w.add(shape, PF_PEER_CREEP_MASS, at(0, 0, 0.5 * a));
    w.friction(b, PF_PEER_CREEP_MU, spin, rect_mean_distance(a, a));
    const double F = PF_PEER_CREEP_FRACTION * PF_PEER_CREEP_MU * PF_PEER_CREEP_MASS * PF_PEER_G;
    const long settle = std::lround(PF_PEER_SETTLE / PF_PEER_DT);
    const long n = settle + std::lround((quick ? 1.0 : PF_PEER_CREEP_T) / PF_PEER_DT);
    btVector3 p0(0, 0, 0);
    for (long k = 0; k < n; ++k) {
        if (k == settle) p0 = b->getCenterOfMassPosition();
        if (push && k >= settle) b->applyCentralImpulse(btVector3(F * PF_PEER_DT, 0, 0));
        w.step();
    }
    btVector3 p = b->getCenterOfMassPosition();
    return std::hypot((double)p.x() - p0.x(), (double)p.y() - p0.y());
}

/* --- pinch ------------------------------------------------------------------------------------ */
/* The pinch scene's grasp (scenes/pf_scene_pinch.c): bar 0.2 x 0.02 x 0.02 m, 0.1 kg; fingertip
 * spheres R 15 mm, 0.05 kg, that move only along y (linear factor (0, 1, 0), no rotation) and are
 * pushed inward with N each step; no gravity, the bar's weight applied to it alone from 0.5 s.
 * Holding: the bar's centre moves less than 1 mm over the 2 s under load. */
const double kBarL = 0.2, kBarW = 0.02, kBarM = 0.1, kTipR = 0.015, kTipM = 0.05;
const double kTipE = 1e6, kTipNu = 0.45, kBarE = 2.1e11, kBarNu = 0.3;

double hertz_radius()
{
    double estar = 1.0 / ((1.0 - kTipNu * kTipNu) / kTipE + (1.0 - kBarNu * kBarNu) / kBarE);
    return std::cbrt(3.0 * PF_PEER_PINCH_N * kTipR / (4.0 * estar));
}

/// The closed-form limit d* (docs/physics.md P40-P42, as the pinch scene computes it): the ICR
/// distance c of a Hertz disk where F(c) = m g / 2, then d* = M(c) / F(c).
double pinch_limit()
{
    const double a = hertz_radius(), muN = PF_PEER_PINCH_N, load = 0.5 * kBarM * PF_PEER_G;
    auto icr = [&](double c, double *F, double *M) {
        pfTwist t = {0.0, -c, 1.0}, zero = {0.0, 0.0, 0.0};
        pfWrench w = pf_hertz_disk_friction(a, 1.0, muN, 0.0, t, zero, 0.0, 0.0);
        *F = std::hypot(w.fx, w.fy);
        *M = std::fabs(w.mz);
    };
    double lo = 0.0, hi = a, F, M;
    for (icr(hi, &F, &M); F < load; icr(hi, &F, &M))
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * a; ++i) {
        double c = 0.5 * (lo + hi);
        icr(c, &F, &M);
        (F < load ? lo : hi) = c;
    }
    icr(0.5 * (lo + hi), &F, &M);
    return M / F;
}

bool pinch_holds(bool spin, double d)
{
    World w(btVector3(0, 0, 0), 0.0); /* no ground: only the fingertips carry the bar */
    btCollisionShape *bar_shape =
        w.keep(new btBoxShape(btVector3(0.5 * kBarL, 0.5 * kBarW, 0.5 * kBarW)));
    bar_shape->setMargin(kSmallMargin);
    btRigidBody *bar = w.add(bar_shape, kBarM, at(0, 0, 0));
    bar->setFriction(1.0);
    btCollisionShape *tip_shape = w.keep(new btSphereShape(kTipR));
    btRigidBody *tips[2];
    for (int s = 0; s < 2; ++s) {
        double side = s ? 1.0 : -1.0;
        tips[s] = w.add(tip_shape, kTipM, at(d, side * (0.5 * kBarW + kTipR), 0));
        tips[s]->setLinearFactor(btVector3(0, 1, 0));
        tips[s]->setAngularFactor(btVector3(0, 0, 0));
        w.friction(tips[s], 1.0, spin, 3.0 * M_PI / 16.0 * hertz_radius());
    }
    const long settle = std::lround(PF_PEER_SETTLE / PF_PEER_DT);
    const long n = settle + std::lround(2.0 / PF_PEER_DT);
    btVector3 p0(0, 0, 0);
    for (long k = 0; k < n; ++k) {
        for (int s = 0; s < 2; ++s)
            tips[s]->applyCentralImpulse(
                btVector3(0, (s ? -1.0 : 1.0) * PF_PEER_PINCH_N * PF_PEER_DT, 0));
        if (k == settle) p0 = bar->getCenterOfMassPosition();
        if (k >= settle) bar->applyCentralImpulse(btVector3(0, 0, -kBarM * PF_PEER_G * PF_PEER_DT));
        w.step();
        if (k >= settle && (bar->getCenterOfMassPosition() - p0).length() >= 1e-3) return false;
    }
    return true;
}

/// The largest holding offset by bisection over [0, 0.085 m] (the tip stays on the face), over
/// d*; the bracket is tol of d*.
double pinch_ratio(bool spin, Out &o)
{
    const double dstar = pinch_limit(), tol = quick ? 0.05 : 0.002;
    double lo = 0.0, hi = 0.5 * kBarL - kTipR;
    if (!pinch_holds(spin, 0.0)) {
        o.note_text.push_back("pinch: null, the bar slips even at offset 0");
        return NAN;
    }
    if (pinch_holds(spin, hi)) {
        o.note_text.push_back(
            "pinch: holds at the widest offset 0.085 m; the ratio is a lower bound");
        return hi / dstar;
    }
    while (hi - lo > tol * dstar) {
        double mid = 0.5 * (lo + hi);
        (pinch_holds(spin, mid) ? lo : hi) = mid;
    }
    return lo / dstar;
}

/// 1000 boxes sliding: wall-clock time of stepSimulation.
void cost_case(bool spin, Out &o)
{
    World w(btVector3(0, 0, -PF_PEER_G), 50.0);
    btCollisionShape *shape = w.keep(new btBoxShape(btVector3(0.05, 0.05, 0.05)));
    const double rho = rect_mean_distance(0.1, 0.1);
    for (int i = 0; i < PF_PEER_COST_BODIES; ++i) {
        btRigidBody *b = w.add(shape, 1.0, at(0.3 * (i % 10), 0.3 * (i / 10), 0.05));
        w.friction(b, 0.5, spin, rho);
        b->setLinearVelocity(btVector3(1.0, 0, 0));
    }
    for (int k = 0; k < 10; ++k)
        w.step();
    const int steps = quick ? 20 : PF_PEER_COST_STEPS;
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k)
        w.step();
    auto t1 = std::chrono::steady_clock::now();
    o.cost_bodies = PF_PEER_COST_BODIES;
    o.cost_step_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / steps;
}

json_t *run_config(const Config &c)
{
    Out o{};
    for (int i = 0; i < 3; ++i) {
        o.push[i] = push_breakaway(c.spin, 0.5 * M_PI, pf_peer_push_h[i], -0.5 * PF_PEER_PUSH_W);
        std::fprintf(stderr, "pf-peer-bullet %s: push h = %g m: %.6g N\n", c.name,
                     pf_peer_push_h[i], o.push[i]);
    }
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    bool all = true;
    for (int i = 0; i < PF_PEER_DIR_N; ++i) {
        double th = i * PF_PEER_DIR_STEP_DEG * M_PI / 180.0;
        o.dir[i] = push_breakaway(c.spin, th, 0, 0);
        all = all && std::isfinite(o.dir[i]);
        lo = std::fmin(lo, o.dir[i]);
        hi = std::fmax(hi, o.dir[i]);
        std::fprintf(stderr, "pf-peer-bullet %s: direction %g deg: %.6g N\n", c.name,
                     i * PF_PEER_DIR_STEP_DEG, o.dir[i]);
    }
    o.dir_spread = all ? (hi - lo) / lo : NAN;
    disk_case(c.spin, o);
    std::fprintf(stderr, "pf-peer-bullet %s: disk eps %.4g, stops %.4g / %.4g s\n", c.name,
                 o.disk_eps, o.disk_stop_trans, o.disk_stop_spin);
    o.creep_incline = creep(c.spin, false);
    o.creep_push = creep(c.spin, true);
    std::fprintf(stderr, "pf-peer-bullet %s: creep incline %.3g m, push %.3g m\n", c.name,
                 o.creep_incline, o.creep_push);
    o.pinch_ratio = pinch_ratio(c.spin, o);
    std::fprintf(stderr, "pf-peer-bullet %s: pinch ratio %.4g\n", c.name, o.pinch_ratio);
    cost_case(c.spin, o);
    std::fprintf(stderr, "pf-peer-bullet %s: cost %.1f us/step (%d bodies)\n", c.name,
                 o.cost_step_us, o.cost_bodies);

    if (quick)
        o.note_text.push_back(
            "--quick: ramp 10x faster, creep over 1 s, pinch tol 0.05, cost over 20 steps");
    o.note_text.push_back(
        "two friction rows per contact point (SOLVER_USE_2_FRICTION_DIRECTIONS, as "
        "Bullet's demos set it) and 50 solver iterations (PyBullet's default): with "
        "the C++ defaults (one row, 10 iterations) the h = 5 mm push broke away at "
        "20 mN and the creeping cube moved 0.2 um in 10 s (measured once)");
    o.note_text.push_back("loads as impulses each step (applyImpulse(F dt, rel_pos)): Bullet 3.24 "
                          "leaves applyForce's torque out of its friction rows");
    o.note_text.push_back("single precision (Debian's libbullet-dev); no Hertz contact: the pinch "
                          "fingertips are rigid spheres with one contact point each");
    if (c.spin) {
        char text[512];
        std::snprintf(
            text, sizeof text,
            "+ spin: spinning friction mu * (mean distance of the patch from its "
            "centre): block %.3g mm, disk %.3g mm (2R/3 mu), cube %.3g mm, cost boxes "
            "%.3g mm, fingertips %.3g mm ((3 pi/16) mu a, Hertz radius a = %.3g mm at "
            "5 N); rolling friction %g m (Bullet adds the torsional row only when "
            "rolling friction > 0)",
            1e3 * PF_PEER_PUSH_MU_S * rect_mean_distance(PF_PEER_PUSH_L, PF_PEER_PUSH_W),
            1e3 * PF_PEER_DISK_MU * 2.0 / 3.0 * PF_PEER_DISK_R,
            1e3 * PF_PEER_CREEP_MU * rect_mean_distance(PF_PEER_CREEP_SIDE, PF_PEER_CREEP_SIDE),
            1e3 * 0.5 * rect_mean_distance(0.1, 0.1), 1e3 * 3.0 * M_PI / 16.0 * hertz_radius(),
            1e3 * hertz_radius(), kRollingForSpin);
        o.note_text.push_back(text);
        o.note_text.push_back(
            "+ spin: one torsional row per contact manifold, at its first point and "
            "bounded by that point's normal impulse (a quarter of a box's load on "
            "four points); force and torsion are bounded independently (no "
            "coupled limit surface)");
        if (o.push[1] > o.push[0]) {
            char t2[256];
            std::snprintf(t2, sizeof t2,
                          "+ spin: the h = 5 mm push breaks away at %.4g N, above the central "
                          "push's %.4g N: the independent bounds hold a force and a moment that "
                          "no Coulomb patch can",
                          o.push[1], o.push[0]);
            o.note_text.push_back(t2);
        }
    } else {
        o.note_text.push_back(
            "default: no torsional friction; the pinch holds only while the bar's "
            "swing about the grasp moves its centre less than 1 mm");
    }

    std::string settings =
        "btDiscreteDynamicsWorld, btSequentialImpulseConstraintSolver 50 iterations, "
        "SOLVER_USE_2_FRICTION_DIRECTIONS, split impulse (threshold -0.04 m), ERP 0.2, warm "
        "starting 0.85, stepSimulation(1 ms, 1, 1 ms), "
        "btDbvtBroadphase, static box ground (friction 1; combined = product), deactivation off, "
        "margin 1 mm below 5 cm (disk 0.5 mm)";
    if (c.spin) settings += ", spinning friction mu * mean patch radius, rolling friction 1e-6 m";
    for (const std::string &n : o.note_text)
        pf_peer_note(&o, n.c_str());
    return pf_peer_result_json("bullet", c.name, PF_PEER_BULLET_VERSION, settings.c_str(), &o);
}

void usage(FILE *f)
{
    std::fprintf(f, "usage: pf-peer-bullet --out FILE.json [--quick]\n"
                    "  Runs the peer-comparison cases (tools/peers/pf_peer_cases.h) in Bullet,\n"
                    "  without and with spinning friction; writes a JSON array of both.\n"
                    "  --quick  shortened runs (smoke test)\n");
}

} // namespace

int main(int argc, char **argv)
{
    const char *out;
    int rc = pf_peer_parse_args("pf-peer-bullet", argc, argv, usage, &out, &quick);
    if (rc >= 0) return rc;
    const Config configs[] = {{"default", false}, {"+ spin", true}};
    json_t *all = json_array();
    for (const Config &c : configs)
        json_array_append_new(all, run_config(c));
    return pf_peer_write_json("pf-peer-bullet", all, out);
}
