/* What to run: the scenes and cases pf-demo lists. */
#include "report.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

/* The comparison scenes, with their cases, for when pf-demo lists none. */
static const struct {
    const char *name;
    const char *cases[8];
} KNOWN[] = {
    {"sliding-blocks",
     {"no-slip-circle", "zero-stop-circle", "multi-stop", "general-motion", "eccentric-push",
      "free-slide", NULL}},
    {"coupled-masses", {"stick", "slip", NULL}},
    {"shaking-table", {NULL}},
};
#define NKNOWN (sizeof KNOWN / sizeof KNOWN[0])

static void add_case(pfrScene *sc, const char *c, size_t len)
{
    if (sc->ncases >= PFR_MAX_CASES || !len) return;
    char *s = pfr_alloc(len + 1);
    memcpy(s, c, len);
    for (int i = 0; i < sc->ncases; ++i)
        if (!strcmp(sc->cases[i], s)) return;
    sc->cases[sc->ncases++] = s;
}

static pfrScene *add_scene(pfrReport *r, const char *name, size_t len)
{
    pfrScene *sc = &r->scenes[r->nscenes++];
    memset(sc, 0, sizeof *sc);
    sc->name = pfr_alloc(len + 1);
    memcpy(sc->name, name, len);
    return sc;
}

/* Cases from a "--case a|b|c" or "cases: a b c" / "cases: a, b" fragment of one help line. */
static void parse_cases(pfrScene *sc, const char *line)
{
    const char *p = strstr(line, "--case ");
    if (p)
        p += 7;
    else if ((p = strstr(line, "cases:")))
        p += 6;
    else
        return;
    sc->listed = 1;
    for (;;) {
        p += strspn(p, " \t|,");
        size_t n = strcspn(p, " \t|,\n()");
        if (!n || !strncmp(p, "--", 2) || memchr(p, '=', n)) break;
        if (n != 4 || strncmp(p, "none", 4)) /* "cases: none": a scene not implemented yet */
            add_case(sc, p, n);
        p += n;
    }
}

/* `pf-demo --list`: lines "SCENE CASE1 CASE2 ..." or "SCENE: a, b". */
static void from_list(pfrReport *r, char *text)
{
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && r->nscenes < PFR_MAX_SCENES;
         line = strtok_r(NULL, "\n", &save)) {
        line += strspn(line, " \t");
        size_t L = strcspn(line, " \t:");
        if (!L) continue;
        pfrScene *sc = add_scene(r, line, L);
        const char *p = line + L;
        while (*p) {
            p += strspn(p, " \t:,|");
            size_t k = strcspn(p, " \t,|");
            if (!strncmp(p, "--", 2)) break;
            add_case(sc, p, k);
            p += k;
        }
    }
}

/* The "scenes:" sections of `pf-demo --help`: a line at column 0 naming "scenes" ("scenes:",
 * "literature scenes (...):") opens one; indented lines list scenes (indent <= 3) with
 * continuation lines (deeper indent) that may give the cases; any other line at column 0
 * closes it. */
static void from_help(pfrReport *r, char *text)
{
    char *save = NULL;
    int in_scenes = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] != ' ') {
            in_scenes = strstr(line, "scenes") != NULL && strchr(line, ':') != NULL;
            continue;
        }
        if (!in_scenes) continue;
        const char *p = line + strspn(line, " ");
        if (p - line > 3) {
            if (r->nscenes) parse_cases(&r->scenes[r->nscenes - 1], p);
            continue;
        }
        size_t L = strcspn(p, " \t:");
        if (!L || r->nscenes >= PFR_MAX_SCENES) continue;
        int dup = 0;
        for (int i = 0; i < r->nscenes; ++i)
            dup |= strlen(r->scenes[i].name) == L && !strncmp(r->scenes[i].name, p, L);
        if (dup) continue;
        parse_cases(add_scene(r, p, L), p + L);
    }
    /* the cases the help text does not list, from the table above */
    for (int i = 0; i < r->nscenes; ++i)
        for (size_t k = 0; k < NKNOWN; ++k)
            if (!strcmp(r->scenes[i].name, KNOWN[k].name) && r->scenes[i].ncases == 0 &&
                !r->scenes[i].listed)
                for (int c = 0; KNOWN[k].cases[c]; ++c)
                    add_case(&r->scenes[i], KNOWN[k].cases[c], strlen(KNOWN[k].cases[c]));
}

void pfr_discover(pfrReport *r)
{
    char *argv[3] = {(char *)r->demo, (char *)"--list", NULL};
    char *text = pfr_capture(r->runs, argv);
    if (text) from_list(r, text);
    if (r->nscenes) {
        snprintf(r->how, sizeof r->how, "`pf-demo --list`");
    } else {
        argv[1] = (char *)"--help";
        text = pfr_capture(r->runs, argv);
        if (!text) pfr_die("'%s --help' failed: is pf-demo built?", r->demo);
        from_help(r, text);
        snprintf(r->how, sizeof r->how, "`pf-demo --help`");
    }
    r->have_ref = r->reference && access(r->reference, X_OK) == 0;
    if (r->have_ref) {
        char *hargv[3] = {(char *)r->reference, (char *)"--help", NULL};
        char *help = pfr_capture(r->runs, hargv);
        r->ref_takes_duration = help && strstr(help, "--duration") != NULL;
        r->ref_takes_friction = help && strstr(help, "--friction") != NULL;
    }
    if (!r->have_ref)
        pfr_note(r,
                 "- **pf-reference is not built** (%s): no errors against the reference; the "
                 "modes are shown against each other only.\n",
                 r->reference ? r->reference : "no --reference given");
    for (size_t k = 0; k < NKNOWN; ++k)
        if (!pfr_has_scene(r, KNOWN[k].name))
            pfr_note(r, "- scene **%s** is not in pf-demo yet (%s does not list it): skipped.\n",
                     KNOWN[k].name, r->how);
}

void pfr_note(pfrReport *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = r->nnotes < sizeof r->notes ? sizeof r->notes - r->nnotes : 0;
    int n = vsnprintf(r->notes + r->nnotes, room, fmt, ap);
    va_end(ap);
    if (n > 0) r->nnotes += (size_t)n;
}

int pfr_has_scene(const pfrReport *r, const char *scene)
{
    for (int i = 0; i < r->nscenes; ++i)
        if (!strcmp(r->scenes[i].name, scene)) return 1;
    return 0;
}

const char *pfr_solver_demo(const pfrReport *r)
{
    return r->solver_ok ? r->demo : r->patched_ok ? r->demo_patched : NULL;
}

int pfr_has_case(const pfrReport *r, const char *scene, const char *cas)
{
    for (int i = 0; i < r->nscenes; ++i)
        if (!strcmp(r->scenes[i].name, scene))
            for (int c = 0; c < r->scenes[i].ncases; ++c)
                if (!strcmp(r->scenes[i].cases[c], cas)) return 1;
    return 0;
}
