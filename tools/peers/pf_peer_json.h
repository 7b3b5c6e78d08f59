/* The peer programs' common part: the measured cells of the cases of pf_peer_cases.h, their JSON
 * object (schema at the end of pf_peer_cases.h), the command line and the writing of the file.
 * Plain C with C linkage, so that pf_peer_ode.c and the C++ pf_peer_bullet.cpp share one
 * definition of the JSON keys. */
#ifndef PF_PEER_JSON_H
#define PF_PEER_JSON_H

#include "pf_peer_cases.h"

#include <jansson.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PF_PEER_MAX_NOTES 16 ///< notes one configuration may carry; more are dropped

/// One engine configuration's cells; NAN where a cell could not be measured (written as null).
typedef struct pfPeerResult {
    double push[3];                       ///< eccentric push breakaway at pf_peer_push_h [N]
    double dir[PF_PEER_DIR_N];            ///< breakaway per push direction, 0 to 90 deg [N]
    double dir_spread;                    ///< (max - min) / min of dir [-]
    double disk_eps;                      ///< v / (R w) while both still move [-]
    double disk_stop_trans;               ///< stop time of translation after the launch [s]
    double disk_stop_spin;                ///< stop time of spin after the launch [s]
    double creep_incline;                 ///< creep on the incline over the creep time [m]
    double creep_push;                    ///< creep under the push over the creep time [m]
    double pinch_ratio;                   ///< largest holding offset over d* [-]
    int cost_bodies;                      ///< boxes in the cost case
    double cost_step_us;                  ///< wall-clock time per step [us]
    const char *notes[PF_PEER_MAX_NOTES]; ///< not owned; must outlive pf_peer_result_json
    int nnotes;
} pfPeerResult;

/// Appends a note (the text is not copied); past PF_PEER_MAX_NOTES it is dropped.
void pf_peer_note(pfPeerResult *r, const char *text);

/// A finite number, or null.
json_t *pf_peer_num(double v);

/// An array of n numbers, each as pf_peer_num.
json_t *pf_peer_num_array(const double *v, int n);

/// The JSON object of one configuration, keys in the order of pf_peer_cases.h's schema.
json_t *pf_peer_result_json(const char *engine, const char *config, const char *version,
                            const char *settings, const pfPeerResult *r);

/// Parses `--out FILE.json [--quick] [--help]` for the program prog (messages name it). Returns
/// -1 to go on (*out set, *quick set when --quick is given), else the exit status for main.
int pf_peer_parse_args(const char *prog, int argc, char **argv, void (*usage)(FILE *),
                       const char **out, int *quick);

/// Writes the array all to out (2-space indent, 10 significant digits), releases it and says so
/// on stderr. Returns main's exit status: 0, or 1 when the file cannot be written.
int pf_peer_write_json(const char *prog, json_t *all, const char *out);

#ifdef __cplusplus
}
#endif

#endif
