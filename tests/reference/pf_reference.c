/* pf-reference: reference trajectories of the literature scenes (tests/support/pf_ref_scenes.h),
 * with the same CSV columns and JSON metric keys as pf-demo, for the comparison report.
 *
 *   pf-reference SCENE [--case NAME] [--set k=v]... [--duration S] [--dt S] [--csv FILE] [--json]
 *                [--friction exact|pade]
 *
 * --dt is the output sampling interval (default: the scene's default step); the integration
 * itself is adaptive (rk8pd, tolerances 1e-12 abs / 1e-11 rel, events to 1e-13 s). --friction
 * selects the Hertz model of shaking-table (pade = P17, exact = P15); the other scenes ignore it.
 * The varying-normal-load cases (shaking-table vertical, sliding-blocks slope-drop,
 * coupled-masses vertical) come from tests/support/pf_ref_varying.c.
 */
#include "pf_demo_cli.h"
#include "pf_ref_push.h"
#include "pf_ref_scenes.h"
#include "pf_ref_varying.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MSG 256

/* push: the quasi-static reference (tests/support/pf_ref_push.h), metrics only (JSON or text). */
static int push_reference(const pfCliOptions *o)
{
    char msg[MSG] = "";
    pfRefPush p;
    const char *cn = o->case_name ? o->case_name : "block";
    if (pf_ref_push_default(cn, &p)) {
        fprintf(stderr, "pf-reference: --case %s: unknown push case (block, disk)\n", cn);
        return 1;
    }
    for (int i = 0; i < o->nset; ++i)
        if (pf_ref_push_set(&p, o->set_key[i], o->set_val[i], msg, MSG)) {
            fprintf(stderr, "pf-reference: %s\n", msg);
            return 1;
        }
    pfRefPushResult r;
    if (pf_ref_push_run(&p, &r)) {
        fprintf(stderr, "pf-reference: push: the quasi-static solve failed\n");
        return 1;
    }
    const char *names[] = {"ratio", "finger_slip", "finger_slip_ratio", "finger_sticking", "x",
                           "y",     "yaw",         "window_from",       "window_to"};
    const double vals[] = {
        r.ratio,  r.finger_slip, r.finger_slip_ratio, r.finger_sticking, r.x, r.y, r.yaw,
        p.t_from, p.t_to};
    const int n = (int)(sizeof vals / sizeof vals[0]);
    if (o->json) {
        pfJson j;
        pf_json_begin(&j, stdout);
        pf_json_str(&j, "scene", "push");
        pf_json_str(&j, "case", cn);
        pf_json_str(&j, "friction", "reference");
        pf_json_num(&j, "sim_time", p.t_to);
        for (int i = 0; i < n; ++i)
            pf_json_num(&j, names[i], vals[i]);
        pf_json_end(&j);
    } else {
        printf("push %s quasi-static reference over %g .. %g s\n", cn, p.t_from, p.t_to);
        for (int i = 0; i < n; ++i)
            printf("  %-24s %.9g\n", names[i], vals[i]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    pfCliOptions o;
    char msg[MSG] = "";
    if (pf_cli_args(argc, argv, "pf-reference", &o)) return 2;
    if (o.help || !o.scene) {
        fputs("usage: pf-reference sliding-blocks|coupled-masses|shaking-table|push [--case NAME] "
              "[--set k=v]... [--duration S] [--dt S] [--csv FILE] [--json] "
              "[--friction exact|pade]\n",
              o.help ? stdout : stderr);
        return o.help ? 0 : 2;
    }
    if (!strcmp(o.scene, "push")) return push_reference(&o);
    pfRefResult r;
    double T = o.duration, dt = o.dt > 0 ? o.dt : 1e-3;
    int rc = 0;
    const char *cn = o.case_name;
    int vertical = cn && !strcmp(cn, "vertical");
    if (!strcmp(o.scene, "sliding-blocks") && cn && !strcmp(cn, "slope-drop")) {
        pfRefSlopeDrop p;
        pf_ref_slope_drop_default(&p);
        for (int i = 0; i < o.nset; ++i)
            if (pf_ref_slope_drop_set(&p, o.set_key[i], o.set_val[i], msg, MSG)) {
                fprintf(stderr, "pf-reference: %s\n", msg);
                return 1;
            }
        if (!(T > 0)) T = pf_ref_slope_drop_duration(&p);
        rc = pf_ref_slope_drop_run(&p, T, dt, &r);
    } else if (!strcmp(o.scene, "coupled-masses") && vertical) {
        pfRefCoupledVertical p;
        pf_ref_coupled_vertical_default(&p);
        for (int i = 0; i < o.nset; ++i)
            if (pf_ref_coupled_vertical_set(&p, o.set_key[i], o.set_val[i], msg, MSG)) {
                fprintf(stderr, "pf-reference: %s\n", msg);
                return 1;
            }
        if (!(T > 0)) T = pf_ref_coupled_vertical_duration(&p);
        rc = pf_ref_coupled_vertical_run(&p, T, dt, &r);
    } else if (!strcmp(o.scene, "shaking-table") && vertical) {
        pfRefTableVertical p;
        pf_ref_table_vertical_default(&p);
        p.t.pade = !strcmp(o.friction, "pade");
        for (int i = 0; i < o.nset; ++i)
            if (pf_ref_table_vertical_set(&p, o.set_key[i], o.set_val[i], msg, MSG)) {
                fprintf(stderr, "pf-reference: %s\n", msg);
                return 1;
            }
        if (!(o.dt > 0)) dt = 5e-5;
        if (!(T > 0)) T = pf_ref_table_duration(&p.t);
        rc = pf_ref_table_vertical_run(&p, T, dt, &r);
    } else if (!strcmp(o.scene, "sliding-blocks")) {
        pfRefSliding p;
        if (pf_ref_sliding_default(cn, &p)) {
            fprintf(stderr, "pf-reference: --case %s: unknown sliding-blocks case\n", cn);
            return 1;
        }
        for (int i = 0; i < o.nset; ++i)
            if (pf_ref_sliding_set(&p, o.set_key[i], o.set_val[i], msg, MSG)) {
                fprintf(stderr, "pf-reference: %s\n", msg);
                return 1;
            }
        if (!cn) cn = "no-slip-circle";
        if (!(T > 0)) T = pf_ref_sliding_duration(&p);
        rc = pf_ref_sliding_run(&p, T, dt, &r);
    } else if (!strcmp(o.scene, "coupled-masses")) {
        pfRefCoupled p;
        if (pf_ref_coupled_default(cn, &p)) {
            fprintf(stderr, "pf-reference: --case %s: unknown coupled-masses case\n", cn);
            return 1;
        }
        for (int i = 0; i < o.nset; ++i)
            if (pf_ref_coupled_set(&p, o.set_key[i], o.set_val[i], msg, MSG)) {
                fprintf(stderr, "pf-reference: %s\n", msg);
                return 1;
            }
        if (!cn) cn = "stick";
        if (!(T > 0)) T = pf_ref_coupled_duration(&p);
        rc = pf_ref_coupled_run(&p, T, dt, &r);
    } else if (!strcmp(o.scene, "shaking-table")) {
        pfRefTable p;
        if (pf_ref_table_default(cn, &p)) {
            fprintf(stderr, "pf-reference: --case %s: unknown shaking-table case\n", cn);
            return 1;
        }
        p.pade = !strcmp(o.friction, "pade");
        for (int i = 0; i < o.nset; ++i)
            if (pf_ref_table_set(&p, o.set_key[i], o.set_val[i], msg, MSG)) {
                fprintf(stderr, "pf-reference: %s\n", msg);
                return 1;
            }
        if (!cn) cn = "excitation-1";
        if (!(o.dt > 0)) dt = 5e-5;
        if (!(T > 0)) T = pf_ref_table_duration(&p);
        rc = pf_ref_table_run(&p, T, dt, &r);
    } else {
        fprintf(stderr,
                "pf-reference: unknown scene '%s' (sliding-blocks, coupled-masses, "
                "shaking-table)\n",
                o.scene);
        return 1;
    }
    if (rc) {
        fprintf(stderr, "pf-reference: integration failed\n");
        return 1;
    }
    if (o.csv) {
        FILE *f = fopen(o.csv, "w");
        if (!f) {
            fprintf(stderr, "pf-reference: --csv %s: cannot open for writing\n", o.csv);
            pf_ref_result_free(&r);
            return 1;
        }
        for (int c = 0; c < r.ncol; ++c)
            fprintf(f, "%s%s", c ? "," : "", r.cols[c]);
        fputc('\n', f);
        for (long i = 0; i < r.n; ++i) {
            for (int c = 0; c < r.ncol; ++c)
                fprintf(f, "%s%.10g", c ? "," : "", r.rows[i * r.ncol + c]);
            fputc('\n', f);
        }
        fclose(f);
    }
    double sim_time = r.n ? r.rows[(r.n - 1) * r.ncol] : 0.0;
    if (o.json) {
        pfJson j;
        pf_json_begin(&j, stdout);
        pf_json_str(&j, "scene", o.scene);
        pf_json_str(&j, "case", cn);
        pf_json_str(&j, "friction", "reference");
        pf_json_int(&j, "steps", r.n - 1);
        pf_json_num(&j, "sim_time", sim_time);
        pf_json_num(&j, "dt", dt);
        pf_json_int(&j, "switches", r.switches);
        for (int i = 0; i < r.nmetric; ++i)
            pf_json_num(&j, r.metric_name[i], r.metric[i]);
        pf_json_end(&j);
    } else {
        printf("%s %s reference: %ld samples, t = %g s, %ld stick/slip switches\n", o.scene, cn,
               r.n, sim_time, r.switches);
        for (int i = 0; i < r.nmetric; ++i)
            printf("  %-24s %.9g\n", r.metric_name[i], r.metric[i]);
    }
    pf_ref_result_free(&r);
    return 0;
}
