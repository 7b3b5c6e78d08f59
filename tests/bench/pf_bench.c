/* pf-bench: speed of the patch models, as ratios measured within one run (a program, not
 * timed tests: absolute times depend on the machine, ratios much less).
 *
 * Prints one JSON object per line, each with "name" and its figures, then a "targets" line with
 * the speed targets of the core (rect_exact <= 1.5 x disk_pade, rect_quad64 >= 100 x
 * rect_exact, disk_exact <= 2 x disk_pade). Every benchmark runs over the same pre-generated,
 * realistic inputs; rounds are interleaved and the fastest round of each is kept, so load from
 * other processes inflates all of them alike rather than biasing one. Usage:
 *   pf-bench [--quick] [--cpu-clock] [--only NAME[,NAME...]]
 *     --quick: few evaluations, for the ctest smoke run
 *     --cpu-clock: time with the thread's CPU time instead of the wall clock (shared machines)
 *     --only NAME[,NAME...]: only the ODE lines named (scene_cubes_*, scaling_*, scene_bin_*,
 *                  scene_pyramid_*, and the fixed-state replays scene_bin_replay_* and
 *                  scene_pyramid_replay_*), e.g. to profile one scene or to compare a replay
 *                  with its side-by-side line in one run
 * The scene lines (bench_scenes.c) come in two kinds: scene_bin_<stepper> and
 * scene_pyramid_<stepper> step a stock and a patch run side by side from the start, so the bin's
 * chaotic pile differs between them by the time it is timed; their replays
 * (scene_bin_replay_<stepper>, scene_pyramid_replay_<stepper>) restore both runs to one saved
 * state of the stock run before every round (bench_snapshot.h), so both time the same pile.
 *     --patch-only: with --only, step the patch run alone and print nothing (profiling)
 *     --stock-only: with --only, step the stock run alone and print nothing (its profile)
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC */
#include "bench_phases.h"
#include "pf_demo_cli.h"

#include <math.h>
#include <patchfriction/pf_core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* scene_1000_boxes: patch vs stock step time (bench_ode.c) */
void pf_bench_ode(int quick);

enum { NIN = 1024 };

static pfTwist g_rect[NIN], g_ball[NIN], g_roll[NIN];
static volatile double g_sink;

/* Kardan's block (docs/physics.md §6) and the shaking-table ball contact (§3). */
static const double RL = 0.03, RW = 0.01, MU = 0.4, NF = 0.23;
static const double HA = 0.003, HD = 1.0, HEPS = 0.01;

static double now_ns(void)
{
    return 1e9 * pf_bench_now();
}

static unsigned long long g_rng = 0x2545F4914F6CDD1Dull;
static double urand(double lo, double hi)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return lo + (hi - lo) * (double)(g_rng >> 11) * 0x1.0p-53;
}

/* The same P6 integral as pf_rect_friction by 64 x 64 midpoint quadrature of P3/P4. */
static pfWrench rect_quad64(double length, double width, double mu, double n, pfTwist t)
{
    enum { Q = 64 };
    double dx = length / Q, dy = width / Q, fx = 0, fy = 0, mz = 0;
    for (int i = 0; i < Q; ++i) {
        double x = -0.5 * length + (i + 0.5) * dx;
        for (int j = 0; j < Q; ++j) {
            double y = -0.5 * width + (j + 0.5) * dy;
            double ux = t.vx - t.w * y, uy = t.vy + t.w * x, um = sqrt(ux * ux + uy * uy);
            if (um > 0) {
                ux /= um;
                uy /= um;
                fx -= ux;
                fy -= uy;
                mz -= x * uy - y * ux;
            }
        }
    }
    double s = mu * n / (Q * Q);
    pfWrench w = {fx * s, fy * s, mz * s};
    return w;
}

typedef double (*bench_fn)(int i);

static double b_rect_exact(int i)
{
    pfWrench w = pf_rect_friction(RL, RW, MU, NF, g_rect[i]);
    return w.fx + w.fy + w.mz;
}
static double b_rect_quad64(int i)
{
    pfWrench w = rect_quad64(RL, RW, MU, NF, g_rect[i]);
    return w.fx + w.fy + w.mz;
}
static double b_disk_exact(int i)
{
    pfWrench w = pf_hertz_disk_friction(HA, MU, NF, HD, g_ball[i], g_roll[i], HEPS, HEPS);
    return w.fx + w.fy + w.mz;
}
static double b_disk_pade(int i)
{
    pfWrench w = pf_hertz_disk_pade(HA, MU, NF, HD, g_ball[i], g_roll[i], HEPS, HEPS);
    return w.fx + w.fy + w.mz;
}
static double b_disk_exact_eps0(int i)
{
    pfWrench w = pf_hertz_disk_friction(HA, MU, NF, 0.0, g_ball[i], g_roll[i], 0.0, 0.0);
    return w.fx + w.fy + w.mz;
}
static double b_uniform_disk(int i)
{
    pfWrench w = pf_disk_friction(HA, MU, NF, g_ball[i]);
    return w.fx + w.fy + w.mz;
}
static double g_hex[12];
static double b_polygon6(int i)
{
    pfWrench w = pf_polygon_friction(g_hex, 6, MU, NF, g_rect[i]);
    return w.fx + w.fy + w.mz;
}

/* pf_patch_project: one implicit friction step per call, Kardan's block (A = its inverse mass
 * at the patch centre, a little coupling) and the shaking-table ball (contact-point mobility
 * 3.5/m, spin 1/(0.4 m r^2)); free wrenches up to 2 x the limit (a stick / slip mix). Warm:
 * guess = the velocity of the same patch with a 1 % different free wrench (the previous solver
 * iteration). */
static pfPatchDef g_prect, g_phertz;
static double g_arect[9], g_ahertz[9];
static pfWrench g_frect[NIN], g_fhertz[NIN];
static pfTwist g_grect[NIN], g_ghertz[NIN];
static long g_proj_evals[4], g_proj_calls[4];
static double proj(int which, const pfPatchDef *d, const double *A, pfWrench f, pfTwist roll,
                   const pfTwist *guess)
{
    pfProjectResult r;
    pf_patch_project(&(pfProjectInput){d, MU, NF, A, f, roll, guess}, &r, NULL);
    g_proj_evals[which] += r.evaluations;
    g_proj_calls[which]++;
    return r.wrench.fx + r.wrench.fy + r.wrench.mz;
}
static double b_project_rect(int i)
{
    return proj(0, &g_prect, g_arect, g_frect[i], g_roll[0], NULL);
}
static double b_project_rect_warm(int i)
{
    return proj(1, &g_prect, g_arect, g_frect[i], g_roll[0], &g_grect[i]);
}
static double b_project_hertz(int i)
{
    return proj(2, &g_phertz, g_ahertz, g_fhertz[i], g_roll[i], NULL);
}
static double b_project_hertz_warm(int i)
{
    return proj(3, &g_phertz, g_ahertz, g_fhertz[i], g_roll[i], &g_ghertz[i]);
}

typedef struct {
    const char *name;
    bench_fn fn;
    int evals_per_round; /* before the --quick divisor */
    const char *what;
    double best_ns;
} Bench;

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: pf-bench [--quick] [--cpu-clock] [--only NAME[,NAME...] [--patch-only | "
        "--stock-only]]\n"
        "  prints one JSON object per line; ratios are measured within this run\n"
        "  --cpu-clock: time by the thread's CPU time, not the wall clock (a shared "
        "machine's load then does not inflate either side)\n  --only NAME[,NAME...]: only the ODE "
        "lines named "
        "(scene_cubes_*, scaling_*, scene_bin_*, scene_pyramid_*; the fixed-state replays "
        "scene_bin_replay_*, scene_pyramid_replay_*: both runs from one saved state each "
        "round)\n  --patch-only: "
        "with --only, step the patch run alone, print nothing (for profiling)\n"
        "  --stock-only: likewise the stock run alone\n");
}

int main(int argc, char **argv)
{
    int quick = 0;
    int patch_only = 0, stock_only = 0, cpu_clock = 0;
    const char *only = NULL;
    const pfCliFlag flags[] = {{"--quick", &quick, 1, NULL},
                               {"--only", NULL, 0, &only},
                               {"--patch-only", &patch_only, 1, NULL},
                               {"--stock-only", &stock_only, 1, NULL},
                               {"--cpu-clock", &cpu_clock, 1, NULL}};
    int rc = pf_cli_tool(argc, argv, "pf-bench", flags, 5, usage);
    if (rc >= 0) return rc;
    pf_bench_set_cpu_clock(cpu_clock);
    if (patch_only && stock_only) {
        fprintf(stderr, "pf-bench: --patch-only and --stock-only exclude each other\n");
        usage(stderr);
        return 2;
    }
    if (only) {
        pf_bench_set_only(only);
        pf_bench_set_patch_only(patch_only);
        pf_bench_set_stock_only(stock_only);
        pf_bench_ode(quick);
        char missing[128];
        if (pf_bench_unselected(missing, sizeof missing)) {
            fprintf(stderr, "pf-bench: --only %s: no such line\n", missing);
            usage(stderr);
            return 2;
        }
        return 0;
    }
    /* Realistic inputs: block sliding up to 0.5 m/s and spinning up to 50 rad/s (CR inside and
     * outside the patch); ball slipping up to 0.4 m/s with spin up to 100 rad/s. */
    for (int i = 0; i < NIN; ++i) {
        g_rect[i] = (pfTwist){urand(-0.5, 0.5), urand(-0.5, 0.5), urand(-50.0, 50.0)};
        g_ball[i] = (pfTwist){urand(-0.4, 0.4), urand(-0.4, 0.4), urand(-100.0, 100.0)};
        g_roll[i] = (pfTwist){urand(-0.4, 0.4), urand(-0.4, 0.4), 0.0};
    }
    for (int k = 0; k < 6; ++k) {
        g_hex[2 * k] = 0.01 * cos(k * 3.14159265358979 / 3.0);
        g_hex[2 * k + 1] = 0.01 * sin(k * 3.14159265358979 / 3.0);
    }

    {
        const double m = 0.0234, J = 1.95e-6, mb = 0.26, rb = 0.02;
        g_prect = pf_default_patch_def();
        g_prect.shape = PF_PATCH_RECT;
        g_prect.length = RL;
        g_prect.width = RW;
        g_phertz = pf_default_patch_def();
        g_phertz.shape = PF_PATCH_HERTZ_DISK;
        g_phertz.radius = HA;
        g_phertz.rolling_d = HD;
        g_phertz.eps_t = HEPS;
        g_phertz.eps_r = HEPS;
        const double ar[9] = {1 / m, 0.1 / m, 0, 0.1 / m, 1 / m, 0, 0, 0, 1 / J};
        const double ah[9] = {3.5 / mb, 0, 0, 0, 3.5 / mb, 0, 0, 0, 1 / (0.4 * mb * rb * rb)};
        memcpy(g_arect, ar, sizeof ar);
        memcpy(g_ahertz, ah, sizeof ah);
        const double mun = MU * NF, rmz = 0.36 * mun * hypot(RL, RW), hmz = 0.59 * mun * HA;
        for (int i = 0; i < NIN; ++i) {
            g_frect[i] = (pfWrench){urand(-2, 2) * mun, urand(-2, 2) * mun, urand(-2, 2) * rmz};
            g_fhertz[i] = (pfWrench){urand(-2, 2) * mun, urand(-2, 2) * mun, urand(-2, 2) * hmz};
            pfProjectResult r;
            pfWrench f = {g_frect[i].fx * 1.01, g_frect[i].fy * 0.99, g_frect[i].mz * 1.01};
            pf_patch_project(&(pfProjectInput){&g_prect, MU, NF, g_arect, f, g_roll[0], NULL}, &r,
                             NULL);
            g_grect[i] = r.velocity;
            f = (pfWrench){g_fhertz[i].fx * 1.01, g_fhertz[i].fy * 0.99, g_fhertz[i].mz * 1.01};
            pf_patch_project(&(pfProjectInput){&g_phertz, MU, NF, g_ahertz, f, g_roll[i], NULL}, &r,
                             NULL);
            g_ghertz[i] = r.velocity;
        }
    }

    Bench benches[] = {
        {"rect_exact", b_rect_exact, 200000, "pf_rect_friction, 30x10 mm block", 0},
        {"rect_quad64", b_rect_quad64, 2000, "64x64 midpoint quadrature of P6", 0},
        {"disk_exact", b_disk_exact, 200000,
         "pf_hertz_disk_friction, a=3 mm, d=1, eps_t=eps_r=0.01", 0},
        {"disk_pade", b_disk_pade, 200000, "pf_hertz_disk_pade, same inputs", 0},
        {"disk_exact_eps0", b_disk_exact_eps0, 200000, "pf_hertz_disk_friction, d=0, eps=0", 0},
        {"uniform_disk_exact", b_uniform_disk, 200000, "pf_disk_friction", 0},
        {"polygon6_exact", b_polygon6, 200000, "pf_polygon_friction, hexagon", 0},
        {"project_rect", b_project_rect, 20000, "pf_patch_project, block, cold start", 0},
        {"project_rect_warm", b_project_rect_warm, 20000,
         "pf_patch_project, block, guess from a 1% different free wrench", 0},
        {"project_hertz", b_project_hertz, 20000,
         "pf_patch_project, ball a=3 mm, d=1, eps=0.01 (regularised), cold start", 0},
        {"project_hertz_warm", b_project_hertz_warm, 20000,
         "pf_patch_project, ball, guess from a 1% different free wrench", 0},
    };
    const int nb = (int)(sizeof benches / sizeof benches[0]);
    const int rounds = quick ? 2 : 7;
    const int div = quick ? 100 : 1;
    for (int b = 0; b < nb; ++b)
        benches[b].best_ns = INFINITY;
    for (int r = 0; r < rounds; ++r) {
        for (int b = 0; b < nb; ++b) {
            int n = benches[b].evals_per_round / div;
            if (n < 8) n = 8;
            double acc = 0.0, t0 = now_ns();
            for (int k = 0; k < n; ++k)
                acc += benches[b].fn(k & (NIN - 1));
            double ns = (now_ns() - t0) / n;
            g_sink += acc;
            if (ns < benches[b].best_ns) benches[b].best_ns = ns;
        }
        fprintf(stderr, "pf-bench: round %d/%d done\n", r + 1, rounds);
    }
    for (int b = 0; b < nb; ++b)
        printf("{\"name\":\"%s\",\"ns_per_eval\":%.2f,\"what\":\"%s\"}\n", benches[b].name,
               benches[b].best_ns, benches[b].what);

    for (int b = 0; b < nb; ++b)
        if (strncmp(benches[b].name, "project", 7) == 0) {
            int w = (int)(strstr(benches[b].name, "hertz") != NULL) * 2 +
                    (int)(strstr(benches[b].name, "warm") != NULL);
            printf("{\"name\":\"%s_ratio\",\"ns_per_call\":%.1f,\"over_rect_exact\":%.2f,"
                   "\"evaluations_per_call\":%.2f}\n",
                   benches[b].name, benches[b].best_ns, benches[b].best_ns / benches[0].best_ns,
                   (double)g_proj_evals[w] / (double)g_proj_calls[w]);
        }
    double rect = benches[0].best_ns, quad = benches[1].best_ns, dexact = benches[2].best_ns,
           pade = benches[3].best_ns;
    double r1 = rect / pade, r2 = quad / rect, r3 = dexact / pade;
    printf("{\"name\":\"targets\",\"rect_exact_over_disk_pade\":%.3f,\"target1_max\":1.5,"
           "\"target1_met\":%s,\"rect_quad64_over_rect_exact\":%.1f,\"target2_min\":100,"
           "\"target2_met\":%s,\"disk_exact_over_disk_pade\":%.3f,\"target3_max\":2.0,"
           "\"target3_met\":%s,\"quick\":%s}\n",
           r1, r1 <= 1.5 ? "true" : "false", r2, r2 >= 100.0 ? "true" : "false", r3,
           r3 <= 2.0 ? "true" : "false", quick ? "true" : "false");
    fflush(stdout);
    pf_bench_ode(quick);
    return 0;
}
