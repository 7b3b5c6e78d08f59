/* Command line, JSON and CSV helpers of pf-demo. */
#include "pf_demo_cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int need_value(int i, int argc, char **argv, char *msg, size_t n)
{
    if (i + 1 >= argc) {
        snprintf(msg, n, "option %s needs a value", argv[i]);
        return -1;
    }
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int pf_cli_parse(int argc, char **argv, pfCliOptions *o, char *msg, size_t n)
{
    memset(o, 0, sizeof *o);
    o->friction = "exact";
    o->frames = 1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
        } else if (!strcmp(a, "--headless")) {
            o->headless = 1;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--case") || !strcmp(a, "--friction") || !strcmp(a, "--csv") ||
                   !strcmp(a, "--screenshot")) {
            if (need_value(i, argc, argv, msg, n)) return -1;
            const char *v = argv[++i];
            if (!strcmp(a, "--case"))
                o->case_name = v;
            else if (!strcmp(a, "--friction"))
                o->friction = v;
            else if (!strcmp(a, "--csv"))
                o->csv = v;
            else
                o->screenshot = v;
        } else if (!strcmp(a, "--duration") || !strcmp(a, "--dt") || !strcmp(a, "--frames")) {
            if (need_value(i, argc, argv, msg, n)) return -1;
            double v;
            if (parse_double(argv[++i], &v) || !(v > 0.0)) {
                snprintf(msg, n, "%s %s: expected a positive number", a, argv[i]);
                return -1;
            }
            if (!strcmp(a, "--duration"))
                o->duration = v;
            else if (!strcmp(a, "--dt"))
                o->dt = v;
            else
                o->frames = (int)v;
        } else if (!strcmp(a, "--set")) {
            if (need_value(i, argc, argv, msg, n)) return -1;
            char *kv = argv[++i];
            char *eq = strchr(kv, '=');
            if (!eq || eq == kv || !eq[1]) {
                snprintf(msg, n, "--set %s: expected key=value", kv);
                return -1;
            }
            if (o->nset == PF_CLI_MAX_SET) {
                snprintf(msg, n, "too many --set options (max %d)", PF_CLI_MAX_SET);
                return -1;
            }
            *eq = '\0';
            o->set_key[o->nset] = kv;
            o->set_val[o->nset] = eq + 1;
            o->nset++;
        } else if (a[0] == '-') {
            snprintf(msg, n, "unknown option '%s' (see --help)", a);
            return -1;
        } else if (!o->scene) {
            o->scene = a;
        } else {
            snprintf(msg, n, "unexpected argument '%s' (scene already given: %s)", a, o->scene);
            return -1;
        }
    }
    if (strcmp(o->friction, "stock") && strcmp(o->friction, "exact") &&
        strcmp(o->friction, "pade")) {
        snprintf(msg, n, "--friction %s: expected stock, exact or pade", o->friction);
        return -1;
    }
    return 0;
}

static int find_set(pfCliOptions *o, const char *key)
{
    int found = -1;
    for (int i = 0; i < o->nset; ++i)
        if (!strcmp(o->set_key[i], key)) {
            o->set_used[i] = 1;
            found = i; /* the last one wins */
        }
    return found;
}

int pf_cli_set_double(pfCliOptions *o, const char *key, double *out, char *msg, size_t n)
{
    int i = find_set(o, key);
    if (i < 0) return 0;
    if (parse_double(o->set_val[i], out)) {
        snprintf(msg, n, "--set %s=%s: not a finite number", key, o->set_val[i]);
        return -1;
    }
    return 1;
}

const char *pf_cli_set_string(pfCliOptions *o, const char *key)
{
    int i = find_set(o, key);
    return i < 0 ? NULL : o->set_val[i];
}

const char *pf_cli_unused_set(const pfCliOptions *o)
{
    for (int i = 0; i < o->nset; ++i)
        if (!o->set_used[i]) return o->set_key[i];
    return NULL;
}

void pf_json_begin(pfJson *j, FILE *f)
{
    j->f = f;
    j->first = 1;
    fputc('{', f);
}

static void json_key(pfJson *j, const char *key)
{
    fprintf(j->f, "%s\"%s\": ", j->first ? "" : ", ", key);
    j->first = 0;
}

void pf_json_str(pfJson *j, const char *key, const char *val)
{
    json_key(j, key);
    fputc('"', j->f);
    for (const char *c = val; *c; ++c) {
        if (*c == '"' || *c == '\\') fputc('\\', j->f);
        fputc(*c, j->f);
    }
    fputc('"', j->f);
}

void pf_json_num(pfJson *j, const char *key, double val)
{
    json_key(j, key);
    if (isfinite(val))
        fprintf(j->f, "%.9g", val);
    else
        fputs("null", j->f);
}

void pf_json_int(pfJson *j, const char *key, long val)
{
    json_key(j, key);
    fprintf(j->f, "%ld", val);
}

void pf_json_array(pfJson *j, const char *key, const double *v, long n)
{
    json_key(j, key);
    fputc('[', j->f);
    for (long i = 0; i < n; ++i) {
        if (isfinite(v[i]))
            fprintf(j->f, "%s%.9g", i ? ", " : "", v[i]);
        else
            fprintf(j->f, "%snull", i ? ", " : "");
    }
    fputc(']', j->f);
}

void pf_json_end(pfJson *j)
{
    fputs("}\n", j->f);
    fflush(j->f);
}

void pf_progress_begin(pfProgress *p, long total)
{
    p->total = total;
    p->enabled = total >= 200000;
    p->next = total / 10;
}

void pf_progress_step(pfProgress *p, long done)
{
    if (p->enabled && done >= p->next) {
        fprintf(stderr, "progress: %3.0f%%\n", 100.0 * (double)done / (double)p->total);
        p->next += p->total / 10;
    }
}
