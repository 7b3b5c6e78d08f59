/* pf-demo: viewer and headless runner of the patchfriction scenes (the pf-demo contract:
 * docs/architecture.md).
 *
 *   pf-demo SCENE [--case NAME] [--friction stock|exact|pade] [--headless] [--duration S]
 *           [--dt S] [--csv FILE] [--json] [--screenshot FILE.png --frames N] [--set k=v]...
 *
 * Scenes here: friction-rig (docs/physics.md §5 rigs, --set law=dahl|lugre|bristle|sawtooth|hybrid,
 * --case wall|pull), pendulum (Dahl's wire pendulum with joint friction, P24a), and the literature
 * scenes behind the generic interface scenes/pf_scene.h: sliding-blocks (§6), coupled-masses (§4)
 * and shaking-table (§3), where --friction stock|exact|pade selects the adapter mode. Each scene's
 * source (scenes/pf_scene_*.c) says in its header comment what you should see. Without
 * --headless the literature scenes open the GLFW viewer (demos/viewer/, keys in pf_viewer.h);
 * --screenshot FILE.png --frames N renders N frames and writes a PNG (works under xvfb-run). */
#include "pf_demo_cli.h"
#ifdef PF_DEMO_HAVE_VIEWER
#include "pf_viewer.h"
#endif
#include "pf_scenes.h"
#include "pf_scene.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MSG 256
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static void usage(FILE *f)
{
    fputs("usage: pf-demo SCENE [options]\n"
          "scenes:\n"
          "  friction-rig  --set law=dahl|lugre|bristle|sawtooth|hybrid  --case wall|pull\n"
          "  pendulum      --set law=dahl (wire pendulum, joint friction on an ODE hinge)\n"
          "options:\n"
          "  --case NAME            scene case\n"
          "  --friction MODE        stock|exact|pade (accepted; these scenes pick a law with "
          "--set law=)\n"
          "  --headless             run without a window (required by friction-rig, pendulum)\n"
          "  --duration SECONDS     simulated time (default: per scene)\n"
          "  --dt SECONDS           step (default 1e-3)\n"
          "  --csv FILE             time series, header row, first column t\n"
          "  --json                 last stdout line: one JSON object with the metrics\n"
          "  --screenshot FILE.png  with --frames N: render N frames, write a PNG, exit\n"
          "  --set key=value        scene parameter, docs/physics.md §5 symbols in ASCII\n"
          "friction-rig keys: law, m, K, c (spring damper), U, omega, v_p, g and the law's own:\n"
          "  dahl: sigma, Fc, i     lugre: sigma0, sigma1, sigma2, Fc, Fs, vs\n"
          "  bristle: l_S, kappa, w, N_b     sawtooth: F_h, F_l, Delta\n"
          "  hybrid: kappa, h, sigma, theta1, theta2, eps\n"
          "pendulum keys: law, m, l, g, k_ratio (k_n/sigma), x_c, u0, i\n",
          f);
    fputs("literature scenes (--friction stock|exact|pade selects the adapter mode):\n", f);
    for (int i = 0; i < pf_scene_count(); ++i) {
        const pfSceneInfo *in = pf_scene_info(i);
        fprintf(f, "  %s: %s\n    cases:", in->name, in->summary);
        for (const char *const *c = in->cases; *c; ++c)
            fprintf(f, " %s", *c);
        fputs("\n    keys:", f);
        for (const char *const *k = in->params; k && *k; ++k)
            fprintf(f, " %s", *k);
        fputs("\n", f);
    }
}

/* --set keys of each law mapped onto its definition. */
typedef struct LawKey {
    pfLawKind law;
    const char *key;
    size_t offset; /* into pfLawDef */
} LawKey;

#define LK(kind, key, member)                                                                      \
    {                                                                                              \
        kind, key, offsetof(pfLawDef, member)                                                      \
    }
static const LawKey law_keys[] = {
    LK(PF_LAW_DAHL, "sigma", dahl.sigma),
    LK(PF_LAW_DAHL, "Fc", dahl.fc),
    LK(PF_LAW_DAHL, "i", dahl.exponent),
    LK(PF_LAW_LUGRE, "sigma0", lugre.sigma0),
    LK(PF_LAW_LUGRE, "sigma1", lugre.sigma1),
    LK(PF_LAW_LUGRE, "sigma2", lugre.sigma2),
    LK(PF_LAW_LUGRE, "Fc", lugre.fc),
    LK(PF_LAW_LUGRE, "Fs", lugre.fs),
    LK(PF_LAW_LUGRE, "vs", lugre.vs),
    LK(PF_LAW_BRISTLE, "l_S", bristle.length),
    LK(PF_LAW_BRISTLE, "kappa", bristle.kappa),
    LK(PF_LAW_BRISTLE, "w", bristle.width),
    LK(PF_LAW_SAWTOOTH, "F_h", sawtooth.f_high),
    LK(PF_LAW_SAWTOOTH, "F_l", sawtooth.f_low),
    LK(PF_LAW_SAWTOOTH, "Delta", sawtooth.spacing),
    LK(PF_LAW_HYBRID, "kappa", hybrid.kappa),
    LK(PF_LAW_HYBRID, "h", hybrid.h),
    LK(PF_LAW_HYBRID, "sigma", hybrid.sigma),
    LK(PF_LAW_HYBRID, "theta1", hybrid.theta1),
    LK(PF_LAW_HYBRID, "theta2", hybrid.theta2),
    LK(PF_LAW_HYBRID, "eps", hybrid.eps),
};
#define N_LAW_KEYS (sizeof law_keys / sizeof law_keys[0])

/* Apply the law's --set keys; reject keys that belong to another law only. */
static int apply_law_keys(pfCliOptions *o, pfLawDef *law, char *msg)
{
    for (size_t k = 0; k < N_LAW_KEYS; ++k) {
        if (law_keys[k].law != law->kind) continue;
        double v;
        int r = pf_cli_set_double(o, law_keys[k].key, &v, msg, MSG);
        if (r < 0) return -1;
        if (r > 0) *(double *)((char *)law + law_keys[k].offset) = v;
    }
    if (law->kind == PF_LAW_BRISTLE) {
        double nb;
        int r = pf_cli_set_double(o, "N_b", &nb, msg, MSG);
        if (r < 0) return -1;
        if (r > 0) {
            if (nb != floor(nb) || nb < 2.0 || nb > 1e7) {
                snprintf(msg, MSG, "--set N_b=%g: expected an integer >= 2", nb);
                return -1;
            }
            law->bristle.count = (int)nb;
        }
    }
    const char *bad = pf_cli_unused_set(o);
    if (bad) {
        for (size_t k = 0; k < N_LAW_KEYS; ++k)
            if (!strcmp(law_keys[k].key, bad)) {
                snprintf(msg, MSG, "--set %s: key does not apply to law=%s", bad,
                         pf_law_name(law->kind));
                return -1;
            }
        snprintf(msg, MSG, "unknown --set key '%s' (see --help)", bad);
        return -1;
    }
    return 0;
}

static int get_law(pfCliOptions *o, pfLawKind dflt, pfLawKind *out, char *msg)
{
    const char *name = pf_cli_set_string(o, "law");
    *out = dflt;
    if (name) {
        *out = pf_law_from_name(name);
        if (*out == PF_LAW_NONE) {
            snprintf(msg, MSG, "--set law=%s: expected dahl, lugre, bristle, sawtooth or hybrid",
                     name);
            return -1;
        }
    }
    return 0;
}

static int run_rig(pfCliOptions *o, char *msg)
{
    pfRigCase rc;
    const char *cn = o->case_name ? o->case_name : "wall";
    if (!strcmp(cn, "wall"))
        rc = PF_RIG_WALL;
    else if (!strcmp(cn, "pull"))
        rc = PF_RIG_PULL;
    else {
        snprintf(msg, MSG, "--case %s: friction-rig has cases wall and pull", cn);
        return -1;
    }
    pfLawKind kind;
    if (get_law(o, PF_LAW_LUGRE, &kind, msg)) return -1;
    pfRigParams p = pf_rig_default_params(kind, rc);
    struct {
        const char *key;
        double *dst;
    } keys[] = {{"m", &p.m},         {"K", &p.K},     {"c", &p.c}, {"U", &p.U},
                {"omega", &p.omega}, {"v_p", &p.v_p}, {"g", &p.g}};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
        if (pf_cli_set_double(o, keys[k].key, keys[k].dst, msg, MSG) < 0) return -1;
    if (apply_law_keys(o, &p.law, msg)) return -1;
    pf_rig_sync_params(&p);
    pfRig rig;
    pfError err;
    if (pf_rig_init(&rig, &p, &err) != PF_OK) {
        snprintf(msg, MSG, "bad parameter: %s", err.message);
        return -1;
    }
    double dt = o->dt > 0.0 ? o->dt : 1e-3;
    double T = o->duration > 0.0 ? o->duration : pf_rig_default_duration(&p);
    long n = (long)ceil(T / dt - 1e-9);
    FILE *csv = NULL;
    if (o->csv) {
        csv = fopen(o->csv, "w");
        if (!csv) {
            snprintf(msg, MSG, "--csv %s: cannot open for writing", o->csv);
            pf_rig_free(&rig);
            return -1;
        }
        fprintf(csv, "t,x,v,input,friction,spring_length,released_energy\n");
    }
    long stride = n > 100000 ? n / 100000 : 1;
    pfProgress prog;
    pf_progress_begin(&prog, n);
    double vmax = 0.0;
    for (long i = 0; i < n; ++i) {
        if (pf_rig_step(&rig, dt, &err) != PF_OK) {
            snprintf(msg, MSG, "step %ld failed: %s", i, err.message);
            if (csv) fclose(csv);
            pf_rig_free(&rig);
            return -1;
        }
        if (rig.t > 0.5 * T) vmax = fmax(vmax, fabs(rig.v));
        if (csv && (i % stride == 0 || i == n - 1))
            fprintf(csv, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", rig.t, rig.x, rig.v, rig.input,
                    rig.friction, rc == PF_RIG_PULL ? p.v_p * rig.t - rig.x : NAN,
                    kind == PF_LAW_BRISTLE ? rig.law.bristle.released_energy : 0.0);
        pf_progress_step(&prog, i + 1);
    }
    if (csv) fclose(csv);
    pfJson j;
    FILE *out = stdout;
    if (!o->json) out = stdout;
    pfRigCycle cyc = {0};
    if (rc == PF_RIG_PULL) cyc = pf_rig_pull_cycle(&rig, 0.5 * T);
    if (!o->json) {
        printf("friction-rig %s law=%s: %ld steps, t = %g s\n", cn, pf_law_name(kind), n, rig.t);
        if (rc == PF_RIG_WALL)
            printf("  energy per cycle (last complete cycle): %.6g J%s\n", rig.last_cycle_energy,
                   rig.complete_cycles ? "" : " (no complete cycle: increase --duration)");
        else
            printf("  stick-slip cycle over the second half: period %.6g s, amplitude %.6g m "
                   "(%d cycles)\n",
                   cyc.period, cyc.amplitude, cyc.cycles);
    } else {
        pf_json_begin(&j, out);
        pf_json_str(&j, "scene", "friction-rig");
        pf_json_str(&j, "case", cn);
        pf_json_str(&j, "friction", o->friction);
        pf_json_str(&j, "law", pf_law_name(kind));
        pf_json_int(&j, "steps", n);
        pf_json_num(&j, "sim_time", rig.t);
        pf_json_num(&j, "dt", dt);
        if (rc == PF_RIG_WALL) {
            pf_json_num(&j, "energy_per_cycle", rig.last_cycle_energy);
            pf_json_int(&j, "complete_cycles", rig.complete_cycles);
            if (kind == PF_LAW_BRISTLE)
                pf_json_num(&j, "released_energy_per_cycle", rig.last_cycle_released);
        } else {
            pf_json_num(&j, "period", cyc.cycles ? cyc.period : NAN);
            pf_json_num(&j, "amplitude", cyc.cycles ? cyc.amplitude : NAN);
            pf_json_int(&j, "cycles", cyc.cycles);
            pf_json_num(&j, "v_max", vmax);
        }
        pf_json_end(&j);
    }
    pf_rig_free(&rig);
    return 0;
}

/* Mean per-cycle change of the three P24a envelope measures over consecutive cycles that both
 * lie in region r: decrement of ubar, ratio ubar_{N+1}/ubar_N, increment of 1/ubar. */
static void region_fit(const double *u, long n, pfPendulumRegion r, double *dec, double *ratio,
                       double *inc, long *count)
{
    double a = 0.0, b = 0.0, c = 0.0;
    long k = 0;
    for (long i = 0; i + 1 < n; ++i)
        if (pf_pendulum_region(u[i]) == r && pf_pendulum_region(u[i + 1]) == r) {
            a += u[i + 1] - u[i];
            b += u[i + 1] / u[i];
            c += 1.0 / u[i + 1] - 1.0 / u[i];
            k++;
        }
    *count = k;
    *dec = k ? a / k : NAN;
    *ratio = k ? b / k : NAN;
    *inc = k ? c / k : NAN;
}

static int run_pendulum(pfCliOptions *o, char *msg)
{
    if (o->case_name && strcmp(o->case_name, "wire")) {
        snprintf(msg, MSG, "--case %s: pendulum has the case wire", o->case_name);
        return -1;
    }
    pfLawKind kind;
    if (get_law(o, PF_LAW_DAHL, &kind, msg)) return -1;
    pfPendulumParams p = pf_pendulum_default_params();
    double i_exp = p.law.dahl.exponent;
    struct {
        const char *key;
        double *dst;
    } keys[] = {{"m", &p.m},     {"l", &p.l},   {"g", &p.g},  {"k_ratio", &p.k_ratio},
                {"x_c", &p.x_c}, {"u0", &p.u0}, {"i", &i_exp}};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
        if (pf_cli_set_double(o, keys[k].key, keys[k].dst, msg, MSG) < 0) return -1;
    const char *bad = pf_cli_unused_set(o);
    if (bad) {
        snprintf(msg, MSG, "unknown --set key '%s' for pendulum (see --help)", bad);
        return -1;
    }
    if (kind != PF_LAW_DAHL) {
        /* other laws keep their defaults; the envelope analysis is Dahl's */
        p.law = pf_default_law_def(kind);
    } else {
        p.law.dahl.exponent = i_exp;
        pf_pendulum_sync_params(&p);
    }
    pfError err;
    pfPendulum *pd = NULL;
    if (pf_pendulum_create(&p, &pd, &err) != PF_OK) {
        snprintf(msg, MSG, "bad parameter: %s", err.message);
        return -1;
    }
    double dt = o->dt > 0.0 ? o->dt : 1e-3;
    double period = 2.0 * M_PI * sqrt(p.l / p.g);
    double T = o->duration > 0.0 ? o->duration : 60.0 * period;
    long n = (long)ceil(T / dt - 1e-9);
    FILE *csv = NULL;
    if (o->csv && !(csv = fopen(o->csv, "w"))) {
        snprintf(msg, MSG, "--csv %s: cannot open for writing", o->csv);
        pf_pendulum_destroy(pd);
        return -1;
    }
    if (csv) fprintf(csv, "t,angle,rate,friction\n");
    long stride = n > 100000 ? n / 100000 : 1;
    pfProgress prog;
    pf_progress_begin(&prog, n);
    for (long k = 0; k < n; ++k) {
        if (pf_pendulum_step(pd, dt, &err) != PF_OK) {
            snprintf(msg, MSG, "step %ld failed: %s", k, err.message);
            if (csv) fclose(csv);
            pf_pendulum_destroy(pd);
            return -1;
        }
        if (csv && (k % stride == 0 || k == n - 1))
            fprintf(csv, "%.9g,%.9g,%.9g,%.9g\n", pf_pendulum_time(pd), pf_pendulum_angle(pd),
                    pf_pendulum_rate(pd), pf_pendulum_friction(pd));
        pf_progress_step(&prog, k + 1);
    }
    if (csv) fclose(csv);
    const double *amp;
    long na = pf_pendulum_amplitudes(pd, &amp);
    double *u = malloc((size_t)(na ? na : 1) * sizeof *u);
    if (!u) {
        pf_pendulum_destroy(pd);
        snprintf(msg, MSG, "out of memory");
        return -1;
    }
    for (long k = 0; k < na; ++k)
        u[k] = amp[k] / p.x_c;
    double fit[3][3];
    long cnt[3];
    for (int r = 0; r < 3; ++r)
        region_fit(u, na, (pfPendulumRegion)r, &fit[r][0], &fit[r][1], &fit[r][2], &cnt[r]);
    double sk = 1.0 / p.k_ratio;
    if (!o->json) {
        printf("pendulum law=%s: %ld steps, t = %g s, %ld cycles\n", pf_law_name(kind), n,
               pf_pendulum_time(pd), na);
        printf("cycle  amplitude[rad]  ubar      region\n");
        for (long k = 0; k < na; ++k)
            printf("%5ld  %14.6g  %8.4f  %s\n", k + 1, amp[k], u[k],
                   pf_pendulum_region_name(pf_pendulum_region(u[k])));
        printf("coulomb:    mean d(ubar)/cycle %.4g (P24a: %.4g) over %ld cycles\n", fit[2][0],
               -4.0 * sk, cnt[2]);
        printf("viscous:    mean ubar ratio/cycle %.4g (P24a: %.4g) over %ld cycles\n", fit[1][1],
               exp(-sk), cnt[1]);
        printf("structural: mean d(1/ubar)/cycle %.4g (P24a: %.4g) over %ld cycles\n", fit[0][2],
               4.0 * p.law.dahl.exponent / 3.0 * sk, cnt[0]);
    } else {
        pfJson j;
        pf_json_begin(&j, stdout);
        pf_json_str(&j, "scene", "pendulum");
        pf_json_str(&j, "case", "wire");
        pf_json_str(&j, "friction", o->friction);
        pf_json_str(&j, "law", pf_law_name(kind));
        pf_json_int(&j, "steps", n);
        pf_json_num(&j, "sim_time", pf_pendulum_time(pd));
        pf_json_num(&j, "dt", dt);
        pf_json_num(&j, "x_c", p.x_c);
        pf_json_int(&j, "cycles", na);
        pf_json_array(&j, "amplitudes", amp, na);
        pf_json_array(&j, "ubar", u, na);
        pf_json_int(&j, "coulomb_cycles", cnt[2]);
        pf_json_num(&j, "coulomb_mean_decrement", fit[2][0]);
        pf_json_num(&j, "coulomb_p24a_decrement", -4.0 * sk);
        pf_json_int(&j, "viscous_cycles", cnt[1]);
        pf_json_num(&j, "viscous_mean_ratio", fit[1][1]);
        pf_json_num(&j, "viscous_p24a_ratio", exp(-sk));
        pf_json_int(&j, "structural_cycles", cnt[0]);
        pf_json_num(&j, "structural_mean_inv_increment", fit[0][2]);
        pf_json_num(&j, "structural_p24a_inv_increment", 4.0 * p.law.dahl.exponent / 3.0 * sk);
        pf_json_end(&j);
    }
    free(u);
    pf_pendulum_destroy(pd);
    return 0;
}

/* Scenes behind the generic interface (pf_scene.h): sliding-blocks, coupled-masses,
 * shaking-table. */
static int run_scene(pfCliOptions *o, char *msg)
{
    pfOdeMode mode = PF_ODE_MODE_EXACT;
    if (o->friction && pf_scene_mode_from_name(o->friction, &mode)) {
        snprintf(msg, MSG, "--friction %s: expected stock, exact or pade", o->friction);
        return -1;
    }
    pfSceneParam kv[PF_CLI_MAX_SET];
    for (int i = 0; i < o->nset; ++i) {
        kv[i].key = o->set_key[i];
        kv[i].value = o->set_val[i];
    }
    pfError err;
    pfScene *sc = NULL;
    if (pf_scene_create(o->scene, o->case_name, mode, kv, o->nset, &sc, &err) != PF_OK) {
        snprintf(msg, MSG, "%s", err.message);
        return -1;
    }
    double dt = o->dt > 0.0 ? o->dt : pf_scene_default_dt(sc);
    double T = o->duration > 0.0 ? o->duration : pf_scene_default_duration(sc);
    long n = (long)ceil(T / dt - 1e-9);
    FILE *csv = NULL;
    const char *const *cols;
    int ncol = pf_scene_csv_header(sc, &cols);
    if (o->csv) {
        if (!(csv = fopen(o->csv, "w"))) {
            snprintf(msg, MSG, "--csv %s: cannot open for writing", o->csv);
            pf_scene_destroy(sc);
            return -1;
        }
        for (int c = 0; c < ncol; ++c)
            fprintf(csv, "%s%s", c ? "," : "", cols[c]);
        fputc('\n', csv);
    }
    long stride = n > 200000 ? n / 200000 : 1;
    double row[PF_SCENE_MAX_COLUMNS];
    pfProgress prog;
    pf_progress_begin(&prog, n);
    for (long i = 0; i <= n; ++i) {
        if (csv && (i % stride == 0 || i == n)) {
            int k = pf_scene_csv_row(sc, row, PF_SCENE_MAX_COLUMNS);
            for (int c = 0; c < k; ++c)
                fprintf(csv, "%s%.10g", c ? "," : "", row[c]);
            fputc('\n', csv);
        }
        if (i == n) break;
        if (pf_scene_step(sc, dt, &err) != PF_OK) {
            snprintf(msg, MSG, "step %ld failed: %s", i, err.message);
            if (csv) fclose(csv);
            pf_scene_destroy(sc);
            return -1;
        }
        pf_progress_step(&prog, i + 1);
    }
    if (csv) fclose(csv);
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int nm = pf_scene_metrics(sc, m, PF_SCENE_MAX_METRICS);
    if (!o->json) {
        char st[160];
        pf_scene_state_string(sc, st, sizeof st);
        printf("%s %s friction=%s coupling=%s: %ld steps, t = %g s\n  %s\n", pf_scene_name(sc),
               pf_scene_case(sc), pf_scene_mode_name(mode),
               pf_scene_coupling_name(pf_scene_coupling(sc)), n, pf_scene_time(sc), st);
        for (int i = 0; i < nm; ++i)
            printf("  %-24s %.9g\n", m[i].name, m[i].value);
    } else {
        pfJson j;
        pf_json_begin(&j, stdout);
        pf_json_str(&j, "scene", pf_scene_name(sc));
        pf_json_str(&j, "case", pf_scene_case(sc));
        pf_json_str(&j, "friction", pf_scene_mode_name(mode));
        pf_json_str(&j, "coupling", pf_scene_coupling_name(pf_scene_coupling(sc)));
        for (int i = 0; i < o->nset; ++i) /* coupled-masses: a 1-D law replaces the contact */
            if (!strcmp(o->set_key[i], "law")) pf_json_str(&j, "law", o->set_val[i]);
        pf_json_int(&j, "steps", pf_scene_steps(sc));
        pf_json_num(&j, "sim_time", pf_scene_time(sc));
        pf_json_num(&j, "dt", dt);
        for (int i = 0; i < nm; ++i)
            pf_json_num(&j, m[i].name, m[i].value);
        pf_json_end(&j);
    }
    pf_scene_destroy(sc);
    return 0;
}

int main(int argc, char **argv)
{
    pfCliOptions o;
    char msg[MSG] = "";
    if (pf_cli_args(argc, argv, "pf-demo", &o)) return 2;
    if (o.help) {
        usage(stdout);
        return 0;
    }
    if (!o.scene) {
        usage(stderr);
        return 2;
    }
    if (o.screenshot || !o.headless) {
#ifdef PF_DEMO_HAVE_VIEWER
        return pf_viewer_main(&o); /* window, or --screenshot FILE.png --frames N */
#else
        fprintf(stderr,
                "pf-demo: viewer not built (needs GLFW, OpenGL and libpng): %s needs a window; "
                "run with --headless (and without --screenshot)\n",
                o.screenshot ? "--screenshot" : "running without --headless");
        return 3;
#endif
    }
    int rc;
    if (!strcmp(o.scene, "friction-rig"))
        rc = run_rig(&o, msg);
    else if (!strcmp(o.scene, "pendulum"))
        rc = run_pendulum(&o, msg);
    else if (pf_scene_find(o.scene))
        rc = run_scene(&o, msg);
    else {
        snprintf(msg, sizeof msg,
                 "unknown scene '%s' (scenes: friction-rig, pendulum, sliding-blocks, "
                 "coupled-masses, shaking-table)",
                 o.scene);
        rc = -1;
    }
    if (rc) {
        fprintf(stderr, "pf-demo: %s\n", msg);
        return 1;
    }
    return 0;
}
