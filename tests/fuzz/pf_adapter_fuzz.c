/* Adapter fuzz harness: randomised ODE scenes, each run twice in forked children -
 * once with every material in STOCK mode (ODE's own point friction through the adapter) and once
 * with patch friction - and every failure of the patch run that the stock run of the same scene
 * does not also show is reported as a patch defect.
 *
 * A scene, drawn from its seed (splitmix64, so a seed replays on any machine):
 *  - 1..12 bodies: boxes, spheres, capsules and cylinders, each on the ground plane or on top of an
 *    earlier body, upright, slightly tilted or randomly oriented, touching with a small gap or
 *    overlap; sizes 1e-4..1e2 m and masses 1e-6..1e6 kg (log-uniform around a per-scene scale,
 *    some bodies independent of it); linear speeds 0 or up to 1e4 m/s, angular speeds up to
 *    1e4 m/s over the body's size;
 *  - up to two kinematic bodies (dBodySetKinematic, moving at their initial velocity);
 *  - up to four hinge / slider / ball joints, to the world or between two bodies;
 *  - per geom (plane included) mu_s in 0..10, mu_k in 0..mu_s, exact or Pade mode, CA or LIMIT
 *    stick criterion, Young's modulus, Poisson ratio, sometimes rolling resistance or a given
 *    Hertz radius; the stock run uses the same materials with mode STOCK;
 *  - dt 1e-6..0.1 s (log-uniform), dWorldStep or dWorldQuickStep (ODE's default 20 iterations,
 *    ERP and CFM), gravity 9.81 m/s^2.
 *
 * Each child installs ODE's error, debug and message handlers and reports through a shared
 * anonymous mapping, so the parent reads what the child saw even when it died by a signal:
 *  - end: the run completed its steps; nan: a body's position, orientation or velocity turned
 *    NaN / Inf (the run stops there); abort: ODE's debug handler (internal assertion, dIASSERT /
 *    dUASSERT, which abort by default) or its error handler (dError) fired - the child records the
 *    message and exits; crash: any other signal (SIGSEGV, SIGABRT from elsewhere, ...);
 *    sanitizer: an ASan / UBSan / LSan report (the child's sanitizer exit code is 66, see
 *    __asan_default_options below; UBSan halts on its first report); timeout: the child exceeded
 *    --time-limit (alarm); status: pf_ode_before_step / pf_ode_after_step returned an error;
 *  - the number of "LCP internal error" messages and of other ODE messages (first text of each);
 *  - the largest body speed seen, and the adapter's counters.
 * Attribution: crash and sanitizer reports are patch defects unless the stock run shows the same
 * class (memory errors are never excused by the scene); nan, abort, timeout and status are patch
 * defects unless the stock run also ended in any of the fatal classes (the scene breaks ODE
 * either way); LCP and other ODE messages are patch defects when the patch run has them and the
 * stock run has none and ran clean. One line per defective seed with the scene's parameters and
 * the replay command, a summary line, exit status 1 if any patch defect was found.
 *
 * Usage: pf-adapter-fuzz [--seeds A-B | --seed N] [--steps N] [--time-limit S] [--verbose]
 *                        [--replay] [--inline stock|patch] [--inject KIND]
 *                        [--coupling auto|adapter|solver] [--mixed]
 * --mixed keeps about 30 % of the geoms (plane included, drawn per seed from a stream of its own)
 * in mode STOCK in the patch run as well, so STOCK pairs meet patched bodies (and
 * pfOdeConfig.stepper is the scene's stepper, as a user declares it, in every run).
 * --coupling sets pfOdeConfig.coupling of the patch run (default auto: the in-solver coupling on
 * an ODE with the patch series, else the adapter's rows).
 * --replay lists the scene body by body and the two runs in full; --inline runs one of the two in
 * this process (no fork, no handlers: for a debugger). --inject KIND tests the harness itself: the
 * patch run of every scene fails on purpose with KIND (nan, abort, crash, sanitizer - ASan builds
 * only -, timeout, status, lcp, message) and the exit status is 0 only if every scene is
 * attributed exactly KIND.
 * Besides the defects, the summary counts the scenes whose patch run reached more than 10 times
 * the stock run's largest body speed (an energy blow-up; reported, not counted as a defect).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <patchfriction/pf_ode.h>

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* Sanitizer runtimes read these at start-up (environment variables still override them): a
 * sanitizer report in a child ends it with exit code 66, which no other path of the child uses. */
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);
const char *__asan_default_options(void)
{
    return "exitcode=66";
}
const char *__ubsan_default_options(void)
{
    return "exitcode=66:halt_on_error=1:print_stacktrace=1";
}

#define FZ_SANITIZER_EXIT 66
#define FZ_ABORT_EXIT 67 /* the child's ODE debug / error handler fired */
#define FZ_MAX_BODIES 12
#define FZ_MIXED_STOCK 0.3 /* --mixed: the share of geoms kept in mode STOCK in the patch run */
#define FZ_MAX_JOINTS 4
#define FZ_TEXT 200

/* ------------------------------------------------------------------------------------------ */
/* random numbers: splitmix64                                                                  */
/* ------------------------------------------------------------------------------------------ */

typedef struct Rng {
    uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/// Uniform in [0, 1).
static double uni(Rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}
static double uni_in(Rng *r, double lo, double hi)
{
    return lo + (hi - lo) * uni(r);
}
/// Log-uniform in [lo, hi], lo > 0.
static double logu(Rng *r, double lo, double hi)
{
    return exp(uni_in(r, log(lo), log(hi)));
}
static int below(Rng *r, int n)
{
    return (int)(uni(r) * n);
}
static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}
static void unit_vec(Rng *r, double v[3])
{
    for (;;) {
        double x = uni_in(r, -1, 1), y = uni_in(r, -1, 1), z = uni_in(r, -1, 1);
        double n = sqrt(x * x + y * y + z * z);
        if (n > 0.1 && n <= 1.0) {
            v[0] = x / n;
            v[1] = y / n;
            v[2] = z / n;
            return;
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* the scene                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef enum FzShape { FZ_BOX = 0, FZ_SPHERE, FZ_CAPSULE, FZ_CYLINDER } FzShape;
static const char *const shape_names[] = {"box", "sphere", "capsule", "cylinder"};

typedef enum FzJointType { FZ_HINGE = 0, FZ_SLIDER, FZ_BALL } FzJointType;
static const char *const joint_names[] = {"hinge", "slider", "ball"};

typedef struct FzBody {
    FzShape shape;
    double dims[3]; ///< box: sides; sphere: r; capsule / cylinder: r, length (axis = local z)
    double mass;
    double pos[3], quat[4]; ///< quat w, x, y, z
    double vel[3], avel[3];
    int kinematic;
    int on; ///< -1: placed on the ground, else the body it was stacked on
    pfOdeMaterial mat;
    int stock; ///< --mixed: this geom keeps mode STOCK in the patch run too
} FzBody;

typedef struct FzJoint {
    FzJointType type;
    int b1, b2; ///< b2 = -1: to the world
    double anchor[3], axis[3];
} FzJoint;

typedef struct FzScene {
    unsigned long long seed;
    double dt;
    int quick;
    double size_scale, mass_scale, speed_max; ///< the draw's scales, for the report line
    pfOdeMaterial ground;
    int ground_stock; ///< --mixed: the plane keeps mode STOCK in the patch run too
    int nbodies, njoints, nkinematic;
    FzBody body[FZ_MAX_BODIES];
    FzJoint joint[FZ_MAX_JOINTS];
} FzScene;

static double size_draw(Rng *r, double scale, int independent)
{
    double s = independent ? logu(r, 1e-4, 1e2) : scale * logu(r, 0.3, 3.0);
    return clampd(s, 1e-4, 1e2);
}

static void material_draw(Rng *r, pfOdeMaterial *m)
{
    *m = pf_ode_default_material();
    double u = uni(r);
    m->mu_s = u < 0.1 ? 0.0 : (u < 0.15 ? 10.0 : (u < 0.75 ? uni_in(r, 0, 2) : uni_in(r, 0, 10)));
    m->mu_k = uni(r) < 0.3 ? m->mu_s : m->mu_s * uni(r);
    m->mode = uni(r) < 0.5 ? PF_ODE_MODE_EXACT : PF_ODE_MODE_PADE;
    m->criterion = uni(r) < 0.5 ? PF_ODE_CRITERION_CA : PF_ODE_CRITERION_LIMIT;
    m->youngs_modulus = logu(r, 1e5, 3e11);
    m->poisson_ratio = uni_in(r, 0.0, 0.49);
    if (uni(r) < 0.2) m->rolling_d = uni(r);
    if (uni(r) < 0.1) m->hertz_radius = logu(r, 1e-5, 1e-1);
}

/* Half height of a body along world z in its drawn orientation (for stacking). */
static double half_height(const FzBody *b)
{
    const double *q = b->quat;
    /* third row of the rotation matrix: world z in body axes */
    double rz[3] = {2 * (q[1] * q[3] - q[0] * q[2]), 2 * (q[2] * q[3] + q[0] * q[1]),
                    1 - 2 * (q[1] * q[1] + q[2] * q[2])};
    double c = fabs(rz[2]), s = sqrt(fmax(0.0, 1 - c * c));
    switch (b->shape) {
    case FZ_BOX:
        return 0.5 * (fabs(rz[0]) * b->dims[0] + fabs(rz[1]) * b->dims[1] + c * b->dims[2]);
    case FZ_SPHERE:
        return b->dims[0];
    case FZ_CAPSULE:
        return 0.5 * c * b->dims[1] + b->dims[0];
    case FZ_CYLINDER:
        return 0.5 * c * b->dims[1] + s * b->dims[0];
    }
    return 0.0;
}

static double body_size(const FzBody *b)
{
    double s = b->dims[0];
    for (int k = 1; k < 3; ++k)
        if (b->dims[k] > s) s = b->dims[k];
    return s;
}

static void velocity_draw(Rng *r, double size, double v[3], double w[3])
{
    double u = uni(r), speed = u < 0.5 ? 0.0 : (u < 0.8 ? logu(r, 1e-3, 1.0) : logu(r, 1.0, 1e4));
    unit_vec(r, v);
    for (int k = 0; k < 3; ++k)
        v[k] *= speed;
    u = uni(r);
    double tip = u < 0.5 ? 0.0 : (u < 0.8 ? logu(r, 1e-3, 1.0) : logu(r, 1.0, 1e4));
    unit_vec(r, w);
    for (int k = 0; k < 3; ++k)
        w[k] *= tip / size;
}

static void scene_draw(unsigned long long seed, FzScene *sc)
{
    Rng r = {seed * 0xD1342543DE82EF95ull + 1};
    memset(sc, 0, sizeof *sc);
    sc->seed = seed;
    sc->dt = logu(&r, 1e-6, 0.1);
    sc->quick = uni(&r) < 0.5;
    sc->size_scale = logu(&r, 1e-4, 1e2);
    sc->mass_scale = logu(&r, 1e-6, 1e6);
    material_draw(&r, &sc->ground);
    sc->nbodies = 1 + below(&r, FZ_MAX_BODIES);
    double spread = sc->size_scale * (1.0 + sqrt((double)sc->nbodies)) * 2.0;
    for (int i = 0; i < sc->nbodies; ++i) {
        FzBody *b = &sc->body[i];
        b->shape = (FzShape)below(&r, 4);
        int indep = uni(&r) < 0.3;
        for (int k = 0; k < 3; ++k)
            b->dims[k] = size_draw(&r, sc->size_scale, indep);
        b->mass = uni(&r) < 0.3 ? logu(&r, 1e-6, 1e6)
                                : clampd(sc->mass_scale * logu(&r, 0.2, 5.0), 1e-6, 1e6);
        double u = uni(&r);
        b->quat[0] = 1.0;
        if (u >= 0.5) {
            double axis[3], a = u < 0.75 ? uni_in(&r, -0.035, 0.035) : uni_in(&r, -M_PI, M_PI);
            unit_vec(&r, axis);
            b->quat[0] = cos(0.5 * a);
            for (int k = 0; k < 3; ++k)
                b->quat[k + 1] = sin(0.5 * a) * axis[k];
        }
        double gap = half_height(b) * uni_in(&r, -0.02, 0.02);
        b->on = (i > 0 && uni(&r) < 0.5) ? below(&r, i) : -1;
        if (b->on < 0) {
            b->pos[0] = uni_in(&r, -spread, spread);
            b->pos[1] = uni_in(&r, -spread, spread);
            b->pos[2] = half_height(b) + gap;
        } else {
            const FzBody *under = &sc->body[b->on];
            double off = 0.3 * body_size(under);
            b->pos[0] = under->pos[0] + uni_in(&r, -off, off);
            b->pos[1] = under->pos[1] + uni_in(&r, -off, off);
            b->pos[2] = under->pos[2] + half_height(under) + half_height(b) + gap;
        }
        velocity_draw(&r, body_size(b), b->vel, b->avel);
        if (sc->nkinematic < 2 && uni(&r) < 0.12) {
            b->kinematic = 1;
            sc->nkinematic++;
        }
        material_draw(&r, &b->mat);
    }
    sc->speed_max = 0.0;
    for (int i = 0; i < sc->nbodies; ++i) {
        double v =
            sqrt(sc->body[i].vel[0] * sc->body[i].vel[0] + sc->body[i].vel[1] * sc->body[i].vel[1] +
                 sc->body[i].vel[2] * sc->body[i].vel[2]);
        if (v > sc->speed_max) sc->speed_max = v;
    }
    sc->njoints = below(&r, FZ_MAX_JOINTS + 1);
    if (uni(&r) < 0.4) sc->njoints = 0;
    for (int j = 0; j < sc->njoints; ++j) {
        FzJoint *jt = &sc->joint[j];
        jt->type = (FzJointType)below(&r, 3);
        jt->b1 = below(&r, sc->nbodies);
        jt->b2 = (sc->nbodies > 1 && uni(&r) < 0.5) ? below(&r, sc->nbodies) : -1;
        if (jt->b2 == jt->b1) jt->b2 = -1;
        const FzBody *b = &sc->body[jt->b1];
        double reach = 0.5 * body_size(b);
        for (int k = 0; k < 3; ++k)
            jt->anchor[k] = b->pos[k] + uni_in(&r, -reach, reach);
        unit_vec(&r, jt->axis);
    }
}

/* --mixed: the patch run keeps some geoms in mode STOCK (ODE's point friction through the adapter)
 * next to the patched ones. Drawn from a stream of its own, so the scene itself is the same as
 * without --mixed. */
static int fz_mixed = 0;

static void mixed_draw(FzScene *sc)
{
    Rng r = {sc->seed * 0x9E3779B97F4A7C15ull + 7};
    sc->ground_stock = uni(&r) < FZ_MIXED_STOCK;
    for (int i = 0; i < sc->nbodies; ++i)
        sc->body[i].stock = uni(&r) < FZ_MIXED_STOCK;
}

static const char *stepper_name(int quick)
{
    return quick ? "quick" : "world";
}

/* One line with the scene's parameters (printed with every defect). */
static void scene_line(const FzScene *sc, char *buf, size_t n)
{
    int count[4] = {0, 0, 0, 0};
    for (int i = 0; i < sc->nbodies; ++i)
        count[sc->body[i].shape]++;
    int nstock = sc->ground_stock;
    for (int i = 0; i < sc->nbodies; ++i)
        nstock += sc->body[i].stock;
    int k =
        snprintf(buf, n,
                 "bodies=%d (box %d, sphere %d, capsule %d, cylinder %d) joints=%d kinematic=%d "
                 "dt=%.3g stepper=%s size=%.3g m mass=%.3g kg v0max=%.3g m/s",
                 sc->nbodies, count[0], count[1], count[2], count[3], sc->njoints, sc->nkinematic,
                 sc->dt, stepper_name(sc->quick), sc->size_scale, sc->mass_scale, sc->speed_max);
    if (fz_mixed && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, " stock_geoms=%d of %d", nstock, sc->nbodies + 1);
}

static void material_print(const char *what, const pfOdeMaterial *m)
{
    printf("  %-9s mu_s %.4g mu_k %.4g %s %s E %.3g nu %.3g d %.3g a %.3g\n", what, m->mu_s,
           m->mu_k, m->mode == PF_ODE_MODE_PADE ? "pade" : "exact",
           m->criterion == PF_ODE_CRITERION_LIMIT ? "limit" : "ca", m->youngs_modulus,
           m->poisson_ratio, m->rolling_d, m->hertz_radius);
}

static void scene_print(const FzScene *sc)
{
    char line[512];
    scene_line(sc, line, sizeof line);
    printf("seed %llu: %s%s\n", sc->seed, line,
           fz_mixed ? " (* : mode STOCK in the patch run as well)" : "");
    material_print(sc->ground_stock ? "ground*" : "ground", &sc->ground);
    for (int i = 0; i < sc->nbodies; ++i) {
        const FzBody *b = &sc->body[i];
        printf("  body %d: %s dims %.3g %.3g %.3g mass %.3g%s on %d pos %.4g %.4g %.4g "
               "quat %.3f %.3f %.3f %.3f v %.3g %.3g %.3g w %.3g %.3g %.3g\n",
               i, shape_names[b->shape], b->dims[0], b->dims[1], b->dims[2], b->mass,
               b->kinematic ? " kinematic" : "", b->on, b->pos[0], b->pos[1], b->pos[2], b->quat[0],
               b->quat[1], b->quat[2], b->quat[3], b->vel[0], b->vel[1], b->vel[2], b->avel[0],
               b->avel[1], b->avel[2]);
        char what[32];
        snprintf(what, sizeof what, "body %d%s", i, b->stock ? "*" : "");
        material_print(what, &b->mat);
    }
    for (int j = 0; j < sc->njoints; ++j) {
        const FzJoint *jt = &sc->joint[j];
        printf(
            "  joint %d: %s body %d to %d (-1 world) anchor %.4g %.4g %.4g axis %.3f %.3f %.3f\n",
            j, joint_names[jt->type], jt->b1, jt->b2, jt->anchor[0], jt->anchor[1], jt->anchor[2],
            jt->axis[0], jt->axis[1], jt->axis[2]);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* one run (in the child)                                                                      */
/* ------------------------------------------------------------------------------------------ */

typedef enum FzKind {
    FZ_OK = 0,    ///< the run completed its steps
    FZ_NAN,       ///< non-finite body state
    FZ_ABORT,     ///< ODE debug handler (internal assertion) or error handler (dError)
    FZ_CRASH,     ///< killed by another signal / unexpected exit
    FZ_SANITIZER, ///< ASan / UBSan / LSan report (exit code 66)
    FZ_TIMEOUT,   ///< --time-limit exceeded
    FZ_STATUS,    ///< pf_ode_before_step / after_step returned an error
    FZ_LCP,       ///< "LCP internal error" messages (not fatal)
    FZ_MESSAGE,   ///< other ODE messages (not fatal)
    FZ_KIND_COUNT
} FzKind;
static const char *const kind_names[] = {"ok",      "nan",    "abort", "crash",  "sanitizer",
                                         "timeout", "status", "lcp",   "message"};

static int kind_fatal(FzKind k)
{
    return k >= FZ_NAN && k <= FZ_STATUS;
}

/// What a child reports (in a shared anonymous mapping, written as the run goes).
typedef struct FzReport {
    int started;
    FzKind kind;         ///< fatal outcome seen by the child itself (OK / NAN / ABORT / STATUS)
    long steps;          ///< steps completed
    long lcp_messages;   ///< "LCP internal error" messages
    long other_messages; ///< any other dMessage
    double max_speed;    ///< largest linear body speed seen [m/s]
    pfOdeCounters counters;
    char abort_text[FZ_TEXT], lcp_text[FZ_TEXT], message_text[FZ_TEXT], status_text[FZ_TEXT];
} FzReport;

static FzReport *child_report; /* the mapping, in the child */

/* --inject KIND (the harness's own test): the patch run fails on purpose at its second step, so
 * the parent must attribute exactly KIND to every seed. */
static FzKind inject = FZ_OK;

#if defined(__SANITIZE_ADDRESS__)
#define FZ_HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FZ_HAVE_ASAN 1
#endif
#endif
#ifndef FZ_HAVE_ASAN
#define FZ_HAVE_ASAN 0
#endif

static volatile int fz_sink, fz_four = 4;

static void inject_fault(dBodyID body)
{
    switch (inject) {
    case FZ_NAN:
        dBodySetLinearVel(body, NAN, 0, 0);
        break;
    case FZ_ABORT:
        dDebug(0, "injected internal error");
        break;
    case FZ_CRASH:
        raise(SIGSEGV);
        break;
    case FZ_SANITIZER: {
        volatile int *a = calloc(4, sizeof *a);
        fz_sink = a[fz_four]; /* heap-buffer-overflow: ASan reports it */
        free((void *)a);
        break;
    }
    case FZ_TIMEOUT:
        for (;;)
            pause();
    case FZ_LCP:
        dMessage(3, "LCP internal error, s <= 0 (injected)");
        break;
    case FZ_MESSAGE:
        dMessage(1, "injected message");
        break;
    default:
        break;
    }
}

static void text_into(char *dst, const char *prefix, int num, const char *msg, va_list ap)
{
    int k = snprintf(dst, FZ_TEXT, "%s %d: ", prefix, num);
    if (k >= 0 && k < FZ_TEXT) vsnprintf(dst + k, FZ_TEXT - (size_t)k, msg, ap);
}

/* dDebug (internal assertions) aborts after its handler, dError exits: record and leave with our
 * own code, so the parent attributes it. */
static void on_ode_debug(int num, const char *msg, va_list ap)
{
    text_into(child_report->abort_text, "ODE INTERNAL ERROR", num, msg, ap);
    child_report->kind = FZ_ABORT;
    _exit(FZ_ABORT_EXIT);
}
static void on_ode_error(int num, const char *msg, va_list ap)
{
    text_into(child_report->abort_text, "ODE Error", num, msg, ap);
    child_report->kind = FZ_ABORT;
    _exit(FZ_ABORT_EXIT);
}
static void on_ode_message(int num, const char *msg, va_list ap)
{
    if (strstr(msg, "LCP internal error")) {
        if (child_report->lcp_messages++ == 0)
            text_into(child_report->lcp_text, "ODE Message", num, msg, ap);
    } else if (child_report->other_messages++ == 0) {
        text_into(child_report->message_text, "ODE Message", num, msg, ap);
    }
}

typedef struct FzWorld {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    pfOdeContext *pf;
    dBodyID body[FZ_MAX_BODIES];
} FzWorld;

static void near_cb(void *data, dGeomID a, dGeomID b)
{
    FzWorld *w = data;
    pf_ode_collide(w->pf, a, b, w->group);
}

static void set_material(FzWorld *w, dGeomID g, const pfOdeMaterial *m, int stock)
{
    pfOdeMaterial mm = *m;
    if (stock) mm.mode = PF_ODE_MODE_STOCK;
    pfError err;
    if (pf_ode_set_material(w->pf, g, &mm, &err) != PF_OK && child_report->kind == FZ_OK) {
        child_report->kind = FZ_STATUS;
        snprintf(child_report->status_text, FZ_TEXT, "pf_ode_set_material: %.150s", err.message);
    }
}

/* --coupling: where the patch run couples friction to the normal force */
static pfOdeCoupling fz_coupling = PF_ODE_COUPLING_AUTO;

static void world_build(const FzScene *sc, int stock, FzWorld *w)
{
    memset(w, 0, sizeof *w);
    w->world = dWorldCreate();
    dWorldSetGravity(w->world, 0, 0, -9.81);
    w->space = dHashSpaceCreate(0);
    w->group = dJointGroupCreate(0);
    pfError err;
    pfOdeConfig cfg = pf_ode_default_config();
    cfg.coupling = fz_coupling;
    /* the stepper the scene uses, as a user declares it (it matters only for STOCK geoms next
     * to patched ones, --mixed) */
    cfg.stepper = sc->quick ? PF_ODE_STEPPER_QUICK : PF_ODE_STEPPER_WORLD;
    if (pf_ode_create(w->world, &cfg, &w->pf, &err) != PF_OK) {
        child_report->kind = FZ_STATUS;
        snprintf(child_report->status_text, FZ_TEXT, "pf_ode_create: %.150s", err.message);
        return;
    }
    set_material(w, dCreatePlane(w->space, 0, 0, 1, 0), &sc->ground, stock || sc->ground_stock);
    for (int i = 0; i < sc->nbodies; ++i) {
        const FzBody *b = &sc->body[i];
        dBodyID body = dBodyCreate(w->world);
        dMass m;
        dGeomID g = 0;
        switch (b->shape) {
        case FZ_BOX:
            dMassSetBoxTotal(&m, b->mass, b->dims[0], b->dims[1], b->dims[2]);
            g = dCreateBox(w->space, b->dims[0], b->dims[1], b->dims[2]);
            break;
        case FZ_SPHERE:
            dMassSetSphereTotal(&m, b->mass, b->dims[0]);
            g = dCreateSphere(w->space, b->dims[0]);
            break;
        case FZ_CAPSULE:
            dMassSetCapsuleTotal(&m, b->mass, 3, b->dims[0], b->dims[1]);
            g = dCreateCapsule(w->space, b->dims[0], b->dims[1]);
            break;
        case FZ_CYLINDER:
            dMassSetCylinderTotal(&m, b->mass, 3, b->dims[0], b->dims[1]);
            g = dCreateCylinder(w->space, b->dims[0], b->dims[1]);
            break;
        }
        dBodySetMass(body, &m);
        dGeomSetBody(g, body);
        dBodySetPosition(body, b->pos[0], b->pos[1], b->pos[2]);
        dQuaternion q = {b->quat[0], b->quat[1], b->quat[2], b->quat[3]};
        dBodySetQuaternion(body, q);
        dBodySetLinearVel(body, b->vel[0], b->vel[1], b->vel[2]);
        dBodySetAngularVel(body, b->avel[0], b->avel[1], b->avel[2]);
        if (b->kinematic) dBodySetKinematic(body);
        set_material(w, g, &b->mat, stock || b->stock);
        w->body[i] = body;
    }
    for (int j = 0; j < sc->njoints; ++j) {
        const FzJoint *jt = &sc->joint[j];
        dJointID joint = 0;
        dBodyID b2 = jt->b2 < 0 ? 0 : w->body[jt->b2];
        const double *a = jt->anchor, *x = jt->axis;
        switch (jt->type) {
        case FZ_HINGE:
            joint = dJointCreateHinge(w->world, 0);
            dJointAttach(joint, w->body[jt->b1], b2);
            dJointSetHingeAnchor(joint, a[0], a[1], a[2]);
            dJointSetHingeAxis(joint, x[0], x[1], x[2]);
            break;
        case FZ_SLIDER:
            joint = dJointCreateSlider(w->world, 0);
            dJointAttach(joint, w->body[jt->b1], b2);
            dJointSetSliderAxis(joint, x[0], x[1], x[2]);
            break;
        case FZ_BALL:
            joint = dJointCreateBall(w->world, 0);
            dJointAttach(joint, w->body[jt->b1], b2);
            dJointSetBallAnchor(joint, a[0], a[1], a[2]);
            break;
        }
    }
}

static int finite_n(const dReal *v, int n)
{
    for (int k = 0; k < n; ++k)
        if (!isfinite(v[k])) return 0;
    return 1;
}

/* Run the scene for steps steps; rep is filled as it goes. */
static void run_scene(const FzScene *sc, int stock, long steps, FzReport *rep)
{
    FzWorld w;
    world_build(sc, stock, &w);
    for (long s = 0; s < steps && rep->kind == FZ_OK; ++s) {
        dSpaceCollide(w.space, &w, near_cb);
        int bad_dt = !stock && s == 2 && inject == FZ_STATUS; /* --inject status */
        int st = pf_ode_before_step(w.pf, bad_dt ? -1.0 : sc->dt);
        if (st != PF_OK) {
            rep->kind = FZ_STATUS;
            snprintf(rep->status_text, FZ_TEXT, "pf_ode_before_step at step %ld: %s", s,
                     pf_strerror(st));
        }
        if (sc->quick)
            dWorldQuickStep(w.world, sc->dt);
        else
            dWorldStep(w.world, sc->dt);
        st = pf_ode_after_step(w.pf);
        if (st != PF_OK && rep->kind == FZ_OK) {
            rep->kind = FZ_STATUS;
            snprintf(rep->status_text, FZ_TEXT, "pf_ode_after_step at step %ld: %s", s,
                     pf_strerror(st));
        }
        dJointGroupEmpty(w.group);
        if (!stock && s == 1 && inject != FZ_OK) inject_fault(w.body[0]);
        for (int i = 0; i < sc->nbodies; ++i) {
            dBodyID b = w.body[i];
            const dReal *v = dBodyGetLinearVel(b);
            if (!finite_n(dBodyGetPosition(b), 3) || !finite_n(dBodyGetQuaternion(b), 4) ||
                !finite_n(v, 3) || !finite_n(dBodyGetAngularVel(b), 3)) {
                if (rep->kind == FZ_OK) rep->kind = FZ_NAN;
                continue;
            }
            double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if (speed > rep->max_speed) rep->max_speed = speed;
        }
        rep->counters = pf_ode_get_counters(w.pf);
        rep->steps = s + 1;
    }
    pf_ode_destroy(w.pf);
    dJointGroupDestroy(w.group);
    dSpaceDestroy(w.space);
    dWorldDestroy(w.world);
}

/* ------------------------------------------------------------------------------------------ */
/* the parent                                                                                  */
/* ------------------------------------------------------------------------------------------ */

typedef struct FzRun {
    FzReport rep;
    FzKind fatal; ///< the run's fatal class (OK if none)
    int term_signal, exit_code;
} FzRun;

static void run_forked(const FzScene *sc, int stock, long steps, unsigned time_limit,
                       FzReport *shared, FzRun *out)
{
    memset(shared, 0, sizeof *shared);
    memset(out, 0, sizeof *out);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("pf-adapter-fuzz: fork");
        exit(2);
    }
    if (pid == 0) {
        child_report = shared;
        shared->started = 1;
        alarm(time_limit);
        dInitODE2(0);
        dSetErrorHandler(on_ode_error);
        dSetDebugHandler(on_ode_debug);
        dSetMessageHandler(on_ode_message);
        run_scene(sc, stock, steps, shared);
        dCloseODE();
        exit(0); /* exit, not _exit: LeakSanitizer checks the child at exit */
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        ;
    out->rep = *shared;
    out->fatal = kind_fatal(shared->kind) ? shared->kind : FZ_OK;
    if (WIFSIGNALED(status)) {
        out->term_signal = WTERMSIG(status);
        out->fatal = out->term_signal == SIGALRM ? FZ_TIMEOUT : FZ_CRASH;
    } else if (WIFEXITED(status)) {
        out->exit_code = WEXITSTATUS(status);
        if (out->exit_code == FZ_SANITIZER_EXIT)
            out->fatal = FZ_SANITIZER;
        else if (out->exit_code == FZ_ABORT_EXIT)
            out->fatal = FZ_ABORT;
        else if (out->exit_code != 0)
            out->fatal = FZ_CRASH;
    }
}

static void run_inline(const FzScene *sc, int stock, long steps)
{
    static FzReport rep;
    child_report = &rep;
    dInitODE2(0);
    run_scene(sc, stock, steps, &rep);
    dCloseODE();
    printf("%s run: %s after %ld steps, max speed %.4g m/s\n", stock ? "stock" : "patch",
           kind_names[rep.kind], rep.steps, rep.max_speed);
}

/* The failure classes a run shows (bit per FzKind). */
static unsigned run_classes(const FzRun *r)
{
    unsigned c = 0;
    if (r->fatal != FZ_OK) c |= 1u << r->fatal;
    if (r->rep.lcp_messages > 0) c |= 1u << FZ_LCP;
    if (r->rep.other_messages > 0) c |= 1u << FZ_MESSAGE;
    return c;
}

/* The most severe class of the patch run that the stock run does not excuse (FZ_OK if none). */
static FzKind attribute(const FzRun *stock, const FzRun *patch)
{
    unsigned ps = run_classes(patch), ss = run_classes(stock);
    int stock_fatal = stock->fatal != FZ_OK;
    const FzKind order[] = {FZ_SANITIZER, FZ_CRASH,  FZ_ABORT, FZ_NAN,
                            FZ_TIMEOUT,   FZ_STATUS, FZ_LCP,   FZ_MESSAGE};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i) {
        FzKind k = order[i];
        if (!(ps & (1u << k))) continue;
        if (k == FZ_SANITIZER || k == FZ_CRASH) {
            if (!(ss & (1u << k))) return k;
        } else if (!stock_fatal && !(ss & (1u << k))) {
            return k;
        }
    }
    return FZ_OK;
}

static void run_describe(const FzRun *r, char *buf, size_t n)
{
    const FzReport *p = &r->rep;
    int k =
        snprintf(buf, n, "%s after %ld steps, vmax %.3g m/s, lcp %ld, msgs %ld",
                 kind_names[r->fatal], p->steps, p->max_speed, p->lcp_messages, p->other_messages);
    if (k < 0 || (size_t)k >= n) return;
    if (r->term_signal)
        k +=
            snprintf(buf + k, n - k, ", signal %d (%s)", r->term_signal, strsignal(r->term_signal));
    else if (r->exit_code && r->fatal != FZ_ABORT)
        k += snprintf(buf + k, n - k, ", exit %d", r->exit_code);
    if (k < 0 || (size_t)k >= n) return;
    if (r->fatal == FZ_ABORT)
        k += snprintf(buf + k, n - k, ", \"%s\"", p->abort_text);
    else if (r->fatal == FZ_STATUS)
        k += snprintf(buf + k, n - k, ", \"%s\"", p->status_text);
    if (k < 0 || (size_t)k >= n) return;
    if (p->lcp_messages) k += snprintf(buf + k, n - k, ", first \"%s\"", p->lcp_text);
    if (k < 0 || (size_t)k >= n) return;
    if (p->other_messages) snprintf(buf + k, n - k, ", first \"%s\"", p->message_text);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: pf-adapter-fuzz [--seeds A-B | --seed N] [--steps N] [--time-limit S] "
               "[--verbose] [--replay] [--inline stock|patch] [--inject KIND] "
               "[--coupling auto|adapter|solver] [--mixed]\n");
}

int main(int argc, char **argv)
{
    unsigned long long first = 1, last = 50;
    long steps = 200;
    unsigned time_limit = 60;
    int verbose = 0, replay = 0, inline_run = -1;
    long speed_blowups = 0, lagged_scenes = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seeds") && v) {
            if (sscanf(v, "%llu-%llu", &first, &last) != 2 || last < first) {
                fprintf(stderr, "pf-adapter-fuzz: --seeds %s: expected A-B with A <= B\n", v);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--seed") && v) {
            if (sscanf(v, "%llu", &first) != 1) {
                fprintf(stderr, "pf-adapter-fuzz: --seed %s: expected a number\n", v);
                return 2;
            }
            last = first;
            ++i;
        } else if (!strcmp(a, "--steps") && v) {
            steps = strtol(v, NULL, 10);
            if (steps < 1) {
                fprintf(stderr, "pf-adapter-fuzz: --steps %s: expected >= 1\n", v);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--time-limit") && v) {
            long t = strtol(v, NULL, 10);
            if (t < 1) {
                fprintf(stderr, "pf-adapter-fuzz: --time-limit %s: expected >= 1 s\n", v);
                return 2;
            }
            time_limit = (unsigned)t;
            ++i;
        } else if (!strcmp(a, "--verbose")) {
            verbose = 1;
        } else if (!strcmp(a, "--mixed")) {
            fz_mixed = 1;
        } else if (!strcmp(a, "--replay")) {
            replay = 1;
            verbose = 1;
        } else if (!strcmp(a, "--inline") && v) {
            inline_run = !strcmp(v, "stock") ? 1 : (!strcmp(v, "patch") ? 0 : -2);
            if (inline_run == -2) {
                usage(stderr);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--coupling") && v) {
            if (!strcmp(v, "auto"))
                fz_coupling = PF_ODE_COUPLING_AUTO;
            else if (!strcmp(v, "adapter"))
                fz_coupling = PF_ODE_COUPLING_ADAPTER;
            else if (!strcmp(v, "solver"))
                fz_coupling = PF_ODE_COUPLING_SOLVER;
            else {
                fprintf(stderr,
                        "pf-adapter-fuzz: --coupling %s: expected auto, adapter or solver\n", v);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--inject") && v) {
            for (int k = 1; k < FZ_KIND_COUNT; ++k)
                if (!strcmp(v, kind_names[k])) inject = (FzKind)k;
            if (inject == FZ_OK) {
                fprintf(stderr, "pf-adapter-fuzz: --inject %s: unknown kind\n", v);
                return 2;
            }
            if (inject == FZ_SANITIZER && !FZ_HAVE_ASAN) {
                fprintf(stderr, "pf-adapter-fuzz: --inject sanitizer needs an ASan build\n");
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "pf-adapter-fuzz: unknown or incomplete option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (inline_run >= 0) {
        FzScene sc;
        scene_draw(first, &sc);
        if (fz_mixed) mixed_draw(&sc);
        scene_print(&sc);
        run_inline(&sc, inline_run, steps);
        return 0;
    }

    FzReport *shared =
        mmap(NULL, sizeof(FzReport), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        perror("pf-adapter-fuzz: mmap");
        return 2;
    }
    long scenes = 0, defects = 0, misattributed = 0;
    char defect_seeds[4096] = "";
    size_t nds = 0;
    long stock_by[FZ_KIND_COUNT] = {0}, patch_by[FZ_KIND_COUNT] = {0},
         defect_by[FZ_KIND_COUNT] = {0};
    for (unsigned long long seed = first; seed <= last; ++seed) {
        FzScene sc;
        scene_draw(seed, &sc);
        if (fz_mixed) mixed_draw(&sc);
        if (replay) scene_print(&sc);
        FzRun stock, patch;
        run_forked(&sc, 1, steps, time_limit, shared, &stock);
        run_forked(&sc, 0, steps, time_limit, shared, &patch);
        ++scenes;
        unsigned ss = run_classes(&stock), ps = run_classes(&patch);
        for (int k = 1; k < FZ_KIND_COUNT; ++k) {
            stock_by[k] += (ss >> k) & 1u;
            patch_by[k] += (ps >> k) & 1u;
        }
        FzKind d = attribute(&stock, &patch);
        char sdesc[768], pdesc[768], line[512];
        run_describe(&stock, sdesc, sizeof sdesc);
        run_describe(&patch, pdesc, sizeof pdesc);
        scene_line(&sc, line, sizeof line);
        if (inject != FZ_OK) {
            /* under ASan a SIGSEGV is ASan's report (handle_segv): exit 66, "sanitizer" */
            FzKind expect = inject == FZ_CRASH && FZ_HAVE_ASAN ? FZ_SANITIZER : inject;
            if (d != expect) {
                ++misattributed;
                printf("INJECT seed=%llu: injected %s, attributed %s | patch: %s | stock: %s\n",
                       seed, kind_names[inject], kind_names[d], pdesc, sdesc);
            }
        } else if (d != FZ_OK) {
            ++defects;
            defect_by[d]++;
            if (nds < sizeof defect_seeds) {
                int k = snprintf(defect_seeds + nds, sizeof defect_seeds - nds, " %llu(%s)", seed,
                                 kind_names[d]);
                nds += k > 0 ? (size_t)k : 0;
            }
            printf("DEFECT seed=%llu kind=%s | patch: %s | stock: %s | %s | replay: "
                   "pf-adapter-fuzz --seed %llu --steps %ld%s --replay\n",
                   seed, kind_names[d], pdesc, sdesc, line, seed, steps,
                   fz_mixed ? " --mixed" : "");
        } else if (verbose) {
            printf("ok     seed=%llu | patch: %s | stock: %s | %s\n", seed, pdesc, sdesc, line);
        }
        lagged_scenes += patch.rep.counters.stock_lagged > 0;
        if (patch.rep.max_speed > 10.0 * stock.rep.max_speed + 1.0) {
            ++speed_blowups;
            if (verbose)
                printf("  seed=%llu: patch max speed %.3g m/s > 10 x stock's %.3g m/s\n", seed,
                       patch.rep.max_speed, stock.rep.max_speed);
        }
        if (replay) {
            printf("  patch counters: patches %lld stick %lld slip %lld point %lld breakaways %lld "
                   "dropped_nonfinite %lld stock %lld stock_lagged %lld\n",
                   patch.rep.counters.patches, patch.rep.counters.stick_steps,
                   patch.rep.counters.slip_steps, patch.rep.counters.point_fallbacks,
                   patch.rep.counters.breakaways, patch.rep.counters.dropped_nonfinite,
                   patch.rep.counters.stock_steps, patch.rep.counters.stock_lagged);
        }
        fflush(stdout);
    }
    printf("pf-adapter-fuzz: seeds %llu-%llu, %ld steps: %ld scenes; stock failures:", first, last,
           steps, scenes);
    for (int k = 1; k < FZ_KIND_COUNT; ++k)
        printf(" %s %ld", kind_names[k], stock_by[k]);
    printf("; patch failures:");
    for (int k = 1; k < FZ_KIND_COUNT; ++k)
        printf(" %s %ld", kind_names[k], patch_by[k]);
    printf("; patch defects: %ld (", defects);
    for (int k = 1; k < FZ_KIND_COUNT; ++k)
        printf("%s%s %ld", k > 1 ? ", " : "", kind_names[k], defect_by[k]);
    printf("); patch max speed > 10 x stock's (not counted as a defect): %ld", speed_blowups);
    if (fz_mixed)
        printf("; --mixed: scenes whose STOCK contacts took the lagged bound: %ld", lagged_scenes);
    printf("\n");
    if (defects) printf("pf-adapter-fuzz: patch defect seeds:%s\n", defect_seeds);
    munmap(shared, sizeof(FzReport));
    if (inject != FZ_OK) {
        printf("pf-adapter-fuzz: --inject %s: %ld of %ld scenes misattributed\n",
               kind_names[inject], misattributed, scenes);
        return misattributed ? 1 : 0;
    }
    return defects ? 1 : 0;
}
