/* Command line, JSON and CSV helpers of pf-demo (architecture.md: the pf-demo contract). */
#ifndef PF_DEMO_CLI_H
#define PF_DEMO_CLI_H

#include <stdio.h>

#define PF_CLI_MAX_SET 64

typedef struct pfCliOptions {
    const char *scene;
    const char *case_name; ///< NULL: the scene's default case
    const char *friction;  ///< stock | exact | pade (default exact)
    const char *csv;       ///< CSV output path or NULL
    const char *screenshot;
    int frames;
    int headless, json, help;
    double duration; ///< <= 0: scene default
    double dt;       ///< <= 0: scene default
    int nset;
    const char *set_key[PF_CLI_MAX_SET];
    const char *set_val[PF_CLI_MAX_SET];
    int set_used[PF_CLI_MAX_SET];
} pfCliOptions;

/** Parse argv. Returns 0 or writes a message naming the bad argument into msg and returns -1. */
int pf_cli_parse(int argc, char **argv, pfCliOptions *o, char *msg, size_t msg_size);

/** Value of --set key=... as a double. Returns 1 if present and parsed, 0 if absent, -1 (with a
 *  message naming key and value) if not a finite number. Marks the key used. */
int pf_cli_set_double(pfCliOptions *o, const char *key, double *out, char *msg, size_t n);
/** Value of --set key=... as a string (NULL if absent). Marks the key used. */
const char *pf_cli_set_string(pfCliOptions *o, const char *key);
/** First --set key nobody used, or NULL. */
const char *pf_cli_unused_set(const pfCliOptions *o);

/// One-line JSON object writer (no nesting).
typedef struct pfJson {
    FILE *f;
    int first;
} pfJson;
void pf_json_begin(pfJson *j, FILE *f);
void pf_json_str(pfJson *j, const char *key, const char *val);
void pf_json_num(pfJson *j, const char *key, double val); ///< non-finite values become null
void pf_json_int(pfJson *j, const char *key, long val);
/** "key": [v0, v1, ...] */
void pf_json_array(pfJson *j, const char *key, const double *v, long n);
void pf_json_end(pfJson *j);

/// Progress on stderr for long runs (prints every 10 %).
typedef struct pfProgress {
    long total, next;
    int enabled;
} pfProgress;
void pf_progress_begin(pfProgress *p, long total);
void pf_progress_step(pfProgress *p, long done);

#endif
