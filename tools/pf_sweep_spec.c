/* Sweep specs: parsing, checking against the scene registry and the design (pf_sweep.h). */
#include "pf_sweep.h"

#include <ctype.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Largest design accepted (points over all modes).
#define MAX_POINTS 1000000000L
/// Points per mode checked one by one against the scene before any run; beyond, an even subset.
#define CHECK_ALL_POINTS 20000L

static int fail(char *msg, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail(char *msg, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, n, fmt, ap);
    va_end(ap);
    return -1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        ++s;
    size_t k = strlen(s);
    while (k > 0 && isspace((unsigned char)s[k - 1]))
        s[--k] = 0;
    return s;
}

/* Split s in place at white space into at most max tokens; returns the count or -1 if more. */
static int split(char *s, char **tok, int max)
{
    int n = 0;
    for (char *p = strtok(s, " \t"); p; p = strtok(NULL, " \t")) {
        if (n == max) return -1;
        tok[n++] = p;
    }
    return n;
}

static int parse_num(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == 0 && isfinite(*v) ? 0 : -1;
}

static int parse_long(const char *s, long *v)
{
    char *end;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end != 0 || x < 0 || x > MAX_POINTS) return -1;
    *v = (long)x;
    return 0;
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) >= PF_SWEEP_NAME) return 0;
    for (const char *c = s; *c; ++c)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-') return 0;
    return 1;
}

static int find_param(const pfSweepSpec *sp, const char *name)
{
    for (int i = 0; i < sp->nparam; ++i)
        if (!strcmp(sp->param[i].name, name)) return i;
    return -1;
}

static int is_random(pfSweepKind k)
{
    return k == PF_SWEEP_UNIFORM || k == PF_SWEEP_NORMAL;
}

static const char *const KEYS = "scene, case, friction, set, duration, dt, samples, seed, metrics, "
                                "until; parameters: grid, list, uniform, normal, derived";

/* One `kind name = args` line. */
static int parse_param(pfSweepSpec *sp, int line, const char *kind, char *name, char *args,
                       char *msg, size_t n)
{
    if (!valid_name(name))
        return fail(msg, n, "line %d: %s '%s': expected a scene parameter name", line, kind, name);
    if (find_param(sp, name) >= 0)
        return fail(msg, n, "line %d: parameter '%s' is swept twice", line, name);
    if (sp->nparam == PF_SWEEP_MAX_PARAMS)
        return fail(msg, n, "line %d: too many swept parameters (at most %d)", line,
                    PF_SWEEP_MAX_PARAMS);
    pfSweepParam *p = &sp->param[sp->nparam];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", args);
    char *tok[PF_SWEEP_MAX_LEVELS + 1];
    int nt = split(args, tok, PF_SWEEP_MAX_LEVELS + 1);
    double v[3];
    if (!strcmp(kind, "grid")) {
        long count;
        if (nt != 3 || parse_num(tok[0], &v[0]) || parse_num(tok[1], &v[1]) ||
            parse_long(tok[2], &count))
            return fail(msg, n,
                        "line %d: grid %s = %s: expected lo hi count (finite numbers, count "
                        "a whole number)",
                        line, name, copy);
        if (v[0] > v[1])
            return fail(msg, n, "line %d: grid %s = %s: lo %g > hi %g", line, name, copy, v[0],
                        v[1]);
        if (count < 1 || count > 1000000)
            return fail(msg, n, "line %d: grid %s = %s: count %ld: expected 1 to 1000000", line,
                        name, copy, count);
        if (count > 1 && v[0] == v[1])
            return fail(msg, n, "line %d: grid %s = %s: lo = hi with count %ld > 1", line, name,
                        copy, count);
        if (count == 1 && v[0] != v[1])
            return fail(msg, n, "line %d: grid %s = %s: count 1 needs lo = hi", line, name, copy);
        p->kind = PF_SWEEP_GRID;
        p->a = v[0];
        p->b = v[1];
        p->count = (int)count;
    } else if (!strcmp(kind, "list")) {
        if (nt < 1 || nt > PF_SWEEP_MAX_LEVELS)
            return fail(msg, n, "line %d: list %s: expected 1 to %d values", line, name,
                        PF_SWEEP_MAX_LEVELS);
        for (int i = 0; i < nt; ++i)
            if (parse_num(tok[i], &p->level[i]))
                return fail(msg, n, "line %d: list %s: value '%s' is not a finite number", line,
                            name, tok[i]);
        p->kind = PF_SWEEP_LIST;
        p->count = nt;
    } else if (!strcmp(kind, "uniform")) {
        if (nt != 2 || parse_num(tok[0], &v[0]) || parse_num(tok[1], &v[1]))
            return fail(msg, n, "line %d: uniform %s = %s: expected lo hi (finite numbers)", line,
                        name, copy);
        if (!(v[0] < v[1]))
            return fail(msg, n, "line %d: uniform %s = %s: lo %g >= hi %g", line, name, copy, v[0],
                        v[1]);
        p->kind = PF_SWEEP_UNIFORM;
        p->a = v[0];
        p->b = v[1];
    } else if (!strcmp(kind, "normal")) {
        if (nt != 2 || parse_num(tok[0], &v[0]) || parse_num(tok[1], &v[1]))
            return fail(msg, n, "line %d: normal %s = %s: expected mean sd (finite numbers)", line,
                        name, copy);
        if (!(v[1] > 0.0))
            return fail(msg, n, "line %d: normal %s = %s: sd %g: expected sd > 0", line, name, copy,
                        v[1]);
        p->kind = PF_SWEEP_NORMAL;
        p->a = v[0];
        p->b = v[1];
    } else { /* derived: factor * name */
        if (nt != 3 || parse_num(tok[0], &v[0]) || strcmp(tok[1], "*"))
            return fail(msg, n, "line %d: derived %s = %s: expected FACTOR * PARAMETER", line, name,
                        copy);
        int src = find_param(sp, tok[2]);
        if (src < 0)
            return fail(msg, n, "line %d: derived %s = %s: '%s' is not a parameter declared above",
                        line, name, copy, tok[2]);
        p->kind = PF_SWEEP_DERIVED;
        p->a = v[0];
        p->source = src;
    }
    sp->nparam++;
    return 0;
}

int pf_sweep_parse(const char *text, pfSweepSpec *sp, char *msg, size_t n)
{
    memset(sp, 0, sizeof *sp);
    sp->samples = 0;
    sp->seed = 1;
    int have_seed = 0, have_duration = 0, have_dt = 0;
    const char *p = text;
    for (int line = 1; *p; ++line) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char buf[2048];
        if (len >= sizeof buf)
            return fail(msg, n, "line %d: longer than %zu bytes", line, sizeof buf);
        memcpy(buf, p, len);
        buf[len] = 0;
        p = eol ? eol + 1 : p + len;
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *s = trim(buf);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        if (!eq) return fail(msg, n, "line %d: '%s': expected key = value", line, s);
        *eq = 0;
        char *lhs = trim(s), *rhs = trim(eq + 1);
        char *lt[3];
        char lcopy[256];
        snprintf(lcopy, sizeof lcopy, "%s", lhs);
        int nl = split(lcopy, lt, 3);
        if (nl == 2) {
            const char *k = lt[0];
            if (strcmp(k, "grid") && strcmp(k, "list") && strcmp(k, "uniform") &&
                strcmp(k, "normal") && strcmp(k, "derived"))
                return fail(msg, n, "line %d: unknown parameter kind '%s' (keys: %s)", line, k,
                            KEYS);
            if (parse_param(sp, line, k, lt[1], rhs, msg, n)) return -1;
            continue;
        }
        if (nl != 1) return fail(msg, n, "line %d: '%s': unknown key (keys: %s)", line, lhs, KEYS);
        const char *key = lt[0];
        if (!*rhs) return fail(msg, n, "line %d: %s: empty value", line, key);
        char *tok[64];
        int nt;
        if (!strcmp(key, "scene") || !strcmp(key, "case")) {
            char *dst = !strcmp(key, "scene") ? sp->scene : sp->case_name;
            if (!valid_name(rhs))
                return fail(msg, n, "line %d: %s = %s: expected one name", line, key, rhs);
            snprintf(dst, PF_SWEEP_NAME, "%s", rhs);
        } else if (!strcmp(key, "friction")) {
            if ((nt = split(rhs, tok, 3)) < 1)
                return fail(msg, n, "line %d: friction: expected 1 to 3 of stock, exact, pade",
                            line);
            sp->nmodes = 0;
            for (int i = 0; i < nt; ++i) {
                pfOdeMode m;
                if (pf_scene_mode_from_name(tok[i], &m))
                    return fail(msg, n, "line %d: friction '%s': expected stock, exact or pade",
                                line, tok[i]);
                for (int j = 0; j < sp->nmodes; ++j)
                    if (sp->mode[j] == m)
                        return fail(msg, n, "line %d: friction '%s' given twice", line, tok[i]);
                sp->mode[sp->nmodes++] = m;
            }
        } else if (!strcmp(key, "set")) {
            if ((nt = split(rhs, tok, 64)) < 1)
                return fail(msg, n, "line %d: set: expected key=value ...", line);
            for (int i = 0; i < nt; ++i) {
                char *e = strchr(tok[i], '=');
                if (!e || e == tok[i] || !e[1])
                    return fail(msg, n, "line %d: set %s: expected key=value", line, tok[i]);
                *e = 0;
                if (!valid_name(tok[i]) || strlen(e + 1) >= sizeof sp->set_val[0])
                    return fail(msg, n, "line %d: set %s=%s: bad key or value too long", line,
                                tok[i], e + 1);
                if (sp->nset == PF_SWEEP_MAX_SETS)
                    return fail(msg, n, "line %d: too many set values (at most %d)", line,
                                PF_SWEEP_MAX_SETS);
                snprintf(sp->set_key[sp->nset], PF_SWEEP_NAME, "%s", tok[i]);
                snprintf(sp->set_val[sp->nset], sizeof sp->set_val[0], "%s", e + 1);
                sp->nset++;
            }
        } else if (!strcmp(key, "duration") || !strcmp(key, "dt")) {
            double v;
            if (parse_num(rhs, &v) || !(v > 0.0))
                return fail(msg, n, "line %d: %s = %s: expected a finite value > 0 [s]", line, key,
                            rhs);
            if (!strcmp(key, "dt")) {
                sp->dt = v;
                have_dt = 1;
            } else {
                sp->duration = v;
                have_duration = 1;
            }
        } else if (!strcmp(key, "samples") || !strcmp(key, "seed")) {
            long v;
            if (parse_long(rhs, &v))
                return fail(msg, n, "line %d: %s = %s: expected a whole number 0 to %ld", line, key,
                            rhs, MAX_POINTS);
            if (!strcmp(key, "samples")) {
                if (v < 1)
                    return fail(msg, n, "line %d: samples = %s: expected at least 1", line, rhs);
                sp->samples = v;
            } else {
                sp->seed = (unsigned long)v;
                have_seed = 1;
            }
        } else if (!strcmp(key, "metrics") || !strcmp(key, "until")) {
            int m = !strcmp(key, "metrics");
            if ((nt = split(rhs, tok, PF_SWEEP_MAX_METRICS)) < 1)
                return fail(msg, n, "line %d: %s: expected 1 to %d names", line, key,
                            PF_SWEEP_MAX_METRICS);
            for (int i = 0; i < nt; ++i) {
                if (!valid_name(tok[i]))
                    return fail(msg, n, "line %d: %s: bad name '%s'", line, key, tok[i]);
                snprintf(m ? sp->metric[i] : sp->until[i], PF_SWEEP_NAME, "%s", tok[i]);
            }
            if (m)
                sp->nmetric = nt;
            else
                sp->nuntil = nt;
        } else {
            return fail(msg, n, "line %d: unknown key '%s' (keys: %s)", line, key, KEYS);
        }
    }
    (void)have_duration;
    (void)have_dt;
    if (!sp->scene[0]) return fail(msg, n, "no scene = ... line");
    if (sp->nmetric == 0) return fail(msg, n, "no metrics = ... line");
    if (sp->nmodes == 0) {
        sp->nmodes = 1;
        sp->mode[0] = PF_ODE_MODE_EXACT;
    }
    if (sp->dt > 0.0 && sp->duration > 0.0 && sp->dt > sp->duration)
        return fail(msg, n, "dt = %g > duration = %g", sp->dt, sp->duration);
    int nrandom = 0;
    sp->cells = 1;
    for (int i = 0; i < sp->nparam; ++i) {
        const pfSweepParam *q = &sp->param[i];
        nrandom += is_random(q->kind);
        if (q->kind == PF_SWEEP_GRID || q->kind == PF_SWEEP_LIST) {
            if (sp->cells > MAX_POINTS / q->count)
                return fail(msg, n, "the design has more than %ld points", MAX_POINTS);
            sp->cells *= q->count;
        }
        for (int j = 0; j < sp->nset; ++j)
            if (!strcmp(sp->set_key[j], q->name))
                return fail(msg, n, "'%s' is both set and swept", q->name);
    }
    if (nrandom && sp->samples == 0) return fail(msg, n, "random parameters need samples = N");
    if (!nrandom && sp->samples)
        return fail(msg, n, "samples = %ld but no uniform or normal parameter", sp->samples);
    if (!nrandom && have_seed) return fail(msg, n, "seed given but no uniform or normal parameter");
    if (!sp->samples) sp->samples = 1;
    if (sp->cells > MAX_POINTS / sp->samples / sp->nmodes)
        return fail(msg, n, "the design has more than %ld points", MAX_POINTS);
    sp->npoints = sp->nmodes * sp->cells * sp->samples;
    return 0;
}

/* splitmix64: a well-mixed 64-bit hash of the point's (seed, cell, sample). */
static unsigned long long mix64(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

void pf_sweep_point(const pfSweepSpec *sp, long index, pfSweepPoint *pt)
{
    memset(pt, 0, sizeof *pt);
    pt->index = index;
    long per_mode = sp->cells * sp->samples;
    pt->mode = sp->mode[index / per_mode];
    long rest = index % per_mode;
    long cell = rest / sp->samples, sample = rest % sp->samples;
    double val[PF_SWEEP_MAX_PARAMS];
    /* grid / list factors: mixed radix, the last declared fastest */
    long c = cell;
    for (int i = sp->nparam - 1; i >= 0; --i) {
        const pfSweepParam *q = &sp->param[i];
        if (q->kind != PF_SWEEP_GRID && q->kind != PF_SWEEP_LIST) continue;
        int k = (int)(c % q->count);
        c /= q->count;
        if (q->kind == PF_SWEEP_LIST)
            val[i] = q->level[k];
        else
            val[i] = q->count == 1 ? q->a : q->a + (q->b - q->a) * k / (q->count - 1);
    }
    gsl_rng *r = NULL;
    for (int i = 0; i < sp->nparam; ++i) {
        const pfSweepParam *q = &sp->param[i];
        if (is_random(q->kind)) {
            if (!r) {
                r = gsl_rng_alloc(gsl_rng_mt19937);
                unsigned long long key = mix64(mix64(sp->seed) ^ mix64((unsigned long long)cell) ^
                                               mix64(~(unsigned long long)sample));
                gsl_rng_set(r, (unsigned long)(key & 0xffffffffULL));
            }
            if (q->kind == PF_SWEEP_UNIFORM)
                val[i] = q->a + (q->b - q->a) * gsl_rng_uniform(r);
            else
                val[i] = q->a + gsl_ran_gaussian(r, q->b);
        } else if (q->kind == PF_SWEEP_DERIVED) {
            val[i] = q->a * val[q->source];
        }
        /* the string is the value: round through it so derived values use what the CSV shows */
        snprintf(pt->value[i], sizeof pt->value[i], "%.15g", val[i]);
        val[i] = strtod(pt->value[i], NULL);
    }
    if (r) gsl_rng_free(r);
}

void pf_sweep_append(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    if (*len >= n) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (k > 0) *len += (size_t)k;
}

void pf_sweep_canonical(const pfSweepSpec *sp, char *buf, size_t n)
{
    static const char *const KIND[] = {"grid", "list", "uniform", "normal", "derived"};
    size_t len = 0;
    buf[0] = 0;
    pf_sweep_append(buf, n, &len, "scene=%s case=%s friction=", sp->scene, sp->case_name);
    for (int i = 0; i < sp->nmodes; ++i)
        pf_sweep_append(buf, n, &len, "%s%s", i ? "," : "", pf_scene_mode_name(sp->mode[i]));
    for (int i = 0; i < sp->nset; ++i)
        pf_sweep_append(buf, n, &len, " set:%s=%s", sp->set_key[i], sp->set_val[i]);
    pf_sweep_append(buf, n, &len, " duration=%.17g dt=%.17g samples=%ld seed=%lu", sp->duration,
                    sp->dt, sp->samples, sp->seed);
    for (int i = 0; i < sp->nparam; ++i) {
        const pfSweepParam *q = &sp->param[i];
        pf_sweep_append(buf, n, &len, " %s:%s=%.17g,%.17g,%d", KIND[q->kind], q->name, q->a, q->b,
                        q->count);
        for (int k = 0; q->kind == PF_SWEEP_LIST && k < q->count; ++k)
            pf_sweep_append(buf, n, &len, ",%.17g", q->level[k]);
        if (q->kind == PF_SWEEP_DERIVED)
            pf_sweep_append(buf, n, &len, ",%s", sp->param[q->source].name);
    }
    pf_sweep_append(buf, n, &len, " metrics=");
    for (int i = 0; i < sp->nmetric; ++i)
        pf_sweep_append(buf, n, &len, "%s%s", i ? "," : "", sp->metric[i]);
    pf_sweep_append(buf, n, &len, " until=");
    for (int i = 0; i < sp->nuntil; ++i)
        pf_sweep_append(buf, n, &len, "%s%s", i ? "," : "", sp->until[i]);
}

unsigned long long pf_sweep_hash(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (; *s; ++s) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

static int in_list(const char *const *list, const char *name)
{
    for (; list && *list; ++list)
        if (!strcmp(*list, name)) return 1;
    return 0;
}

static void join(const char *const *list, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; list && list[i]; ++i)
        pf_sweep_append(buf, n, &len, "%s%s", i ? ", " : "", list[i]);
}

/* Create (and destroy) the scene of a point: the scene's own checks of every value. */
/* The --set pairs of a point: the spec's fixed sets, then its parameters; returns the count. */
static int point_params(const pfSweepSpec *sp, const pfSweepPoint *pt, pfSceneParam *kv)
{
    int nkv = 0;
    for (int i = 0; i < sp->nset; ++i)
        kv[nkv++] = (pfSceneParam){sp->set_key[i], sp->set_val[i]};
    for (int i = 0; i < sp->nparam; ++i)
        kv[nkv++] = (pfSceneParam){sp->param[i].name, pt->value[i]};
    return nkv;
}

static int check_point(const pfSweepSpec *sp, long index, char *msg, size_t n)
{
    pfSweepPoint pt;
    pf_sweep_point(sp, index, &pt);
    pfSceneParam kv[PF_SWEEP_MAX_SETS + PF_SWEEP_MAX_PARAMS];
    int nkv = point_params(sp, &pt, kv);
    pfError err;
    pfScene *s = pf_sweep_scene(sp, pt.mode, kv, nkv, &err);
    if (!s) {
        char where[512];
        size_t len = 0;
        pf_sweep_append(where, sizeof where, &len, "friction=%s", pf_scene_mode_name(pt.mode));
        for (int i = 0; i < sp->nparam; ++i)
            pf_sweep_append(where, sizeof where, &len, " %s=%s", sp->param[i].name, pt.value[i]);
        return fail(msg, n, "point %ld (%s) is refused by the scene: %s", index, where,
                    err.message);
    }
    pf_scene_destroy(s);
    return 0;
}

int pf_sweep_check(const pfSweepSpec *sp, char *msg, size_t n)
{
    const pfSceneInfo *info = pf_scene_find(sp->scene);
    char names[1024];
    if (!info) {
        const char *list[16];
        int k = 0;
        for (int i = 0; i < pf_scene_count() && k < 15; ++i)
            list[k++] = pf_scene_info(i)->name;
        list[k] = NULL;
        join(list, names, sizeof names);
        return fail(msg, n, "scene = %s: unknown scene (scenes: %s)", sp->scene, names);
    }
    if (sp->case_name[0] && !in_list(info->cases, sp->case_name)) {
        join(info->cases, names, sizeof names);
        return fail(msg, n, "case = %s: not a case of %s (cases: %s)", sp->case_name, sp->scene,
                    names);
    }
    join(info->params, names, sizeof names);
    for (int i = 0; i < sp->nset; ++i)
        if (!in_list(info->params, sp->set_key[i]))
            return fail(msg, n, "set %s=%s: unknown key for %s (keys: %s)", sp->set_key[i],
                        sp->set_val[i], sp->scene, names);
    for (int i = 0; i < sp->nparam; ++i)
        if (!in_list(info->params, sp->param[i].name))
            return fail(msg, n, "parameter '%s': unknown key for %s (keys: %s)", sp->param[i].name,
                        sp->scene, names);
    /* the values: every point of the first mode (or an even subset), the first of the others */
    long per_mode = sp->cells * sp->samples;
    long stride = per_mode <= CHECK_ALL_POINTS ? 1 : per_mode / CHECK_ALL_POINTS;
    for (long i = 0; i < per_mode; i += stride)
        if (check_point(sp, i, msg, n)) return -1;
    if (check_point(sp, per_mode - 1, msg, n)) return -1;
    for (int m = 1; m < sp->nmodes; ++m)
        if (check_point(sp, m * per_mode, msg, n)) return -1;
    /* metric names: what the scene reports, plus the derived ones */
    pfSweepPoint pt;
    pf_sweep_point(sp, 0, &pt);
    pfSceneParam kv[PF_SWEEP_MAX_SETS + PF_SWEEP_MAX_PARAMS];
    int nkv = point_params(sp, &pt, kv);
    pfError err;
    pfScene *s = pf_sweep_scene(sp, pt.mode, kv, nkv, &err);
    if (!s) return fail(msg, n, "%s", err.message);
    pfSceneMetric m[PF_SCENE_MAX_METRICS];
    int nm = pf_scene_metrics(s, m, PF_SCENE_MAX_METRICS);
    pf_scene_destroy(s);
    const char *avail[PF_SCENE_MAX_METRICS + 5];
    int na = 0, has_x = 0, has_y = 0;
    for (int i = 0; i < nm; ++i) {
        avail[na++] = m[i].name;
        has_x |= !strcmp(m[i].name, "final_x");
        has_y |= !strcmp(m[i].name, "final_y");
    }
    int nscene = na;
    if (has_x && has_y) {
        avail[na++] = "distance";
        avail[na++] = "direction";
    }
    avail[na++] = "steps";
    avail[na++] = "sim_time";
    avail[na] = NULL;
    join(avail, names, sizeof names);
    for (int i = 0; i < sp->nmetric; ++i) {
        if (!in_list(avail, sp->metric[i]))
            return fail(msg, n, "metrics: unknown metric '%s' (metrics of %s: %s)", sp->metric[i],
                        sp->scene, names);
        for (int j = 0; j < i; ++j)
            if (!strcmp(sp->metric[i], sp->metric[j]))
                return fail(msg, n, "metrics: '%s' given twice", sp->metric[i]);
    }
    avail[nscene] = NULL;
    join(avail, names, sizeof names);
    for (int i = 0; i < sp->nuntil; ++i)
        if (!in_list(avail, sp->until[i]))
            return fail(msg, n, "until: unknown metric '%s' (metrics of %s: %s)", sp->until[i],
                        sp->scene, names);
    return 0;
}
