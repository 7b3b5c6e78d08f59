/* The peer programs' common part (pf_peer_json.h): the JSON object of one configuration, the
 * command line and the file. */
#include "pf_peer_json.h"

#include <math.h>
#include <string.h>

void pf_peer_note(pfPeerResult *r, const char *text)
{
    if (r->nnotes < PF_PEER_MAX_NOTES) r->notes[r->nnotes++] = text;
}

json_t *pf_peer_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *pf_peer_num_array(const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; ++i)
        json_array_append_new(a, pf_peer_num(v[i]));
    return a;
}

json_t *pf_peer_result_json(const char *engine, const char *config, const char *version,
                            const char *settings, const pfPeerResult *r)
{
    json_t *j = json_object();
    json_object_set_new(j, "engine", json_string(engine));
    json_object_set_new(j, "config", json_string(config));
    json_object_set_new(j, "version", json_string(version));
    json_object_set_new(j, "settings", json_string(settings));
    json_object_set_new(j, "push_breakaway_N", pf_peer_num_array(r->push, 3));
    json_object_set_new(j, "dir_breakaway_N", pf_peer_num_array(r->dir, PF_PEER_DIR_N));
    json_object_set_new(j, "dir_spread", pf_peer_num(r->dir_spread));
    json_object_set_new(j, "disk_eps", pf_peer_num(r->disk_eps));
    json_object_set_new(j, "disk_stop_trans_s", pf_peer_num(r->disk_stop_trans));
    json_object_set_new(j, "disk_stop_spin_s", pf_peer_num(r->disk_stop_spin));
    json_object_set_new(j, "creep_incline_m", pf_peer_num(r->creep_incline));
    json_object_set_new(j, "creep_push_m", pf_peer_num(r->creep_push));
    json_object_set_new(j, "pinch_ratio", pf_peer_num(r->pinch_ratio));
    json_object_set_new(j, "cost_bodies", json_integer(r->cost_bodies));
    json_object_set_new(j, "cost_step_us", pf_peer_num(r->cost_step_us));
    json_t *notes = json_array();
    for (int i = 0; i < r->nnotes; ++i)
        json_array_append_new(notes, json_string(r->notes[i]));
    json_object_set_new(j, "notes", notes);
    return j;
}

int pf_peer_parse_args(const char *prog, int argc, char **argv, void (*usage)(FILE *),
                       const char **out, int *quick)
{
    *out = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--quick")) {
            *quick = 1;
        } else if (!strcmp(argv[i], "--out")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: --out needs a file name\n", prog);
                return 2;
            }
            *out = argv[++i];
        } else {
            fprintf(stderr, "%s: unknown argument '%s'\n", prog, argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!*out) {
        fprintf(stderr, "%s: --out FILE.json is required\n", prog);
        usage(stderr);
        return 2;
    }
    return -1;
}

int pf_peer_write_json(const char *prog, json_t *all, const char *out)
{
    int rc = json_dump_file(all, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(all);
    if (rc != 0) {
        fprintf(stderr, "%s: cannot write '%s'\n", prog, out);
        return 1;
    }
    fprintf(stderr, "%s: wrote %s\n", prog, out);
    return 0;
}
