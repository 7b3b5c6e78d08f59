/* pf-sweep: a parameter sweep of a pf-demo scene over MPI ranks, or in one process.
 *
 * Usage: [mpirun -np N] pf-sweep SPEC [--out FILE.csv] [--checkpoint FILE] [--restart] [--quiet]
 *        pf-sweep SPEC --check | --estimate [K] | --bench [K]
 *
 * The spec (format in pf_sweep.h, examples in tools/sweeps/) gives the scene, case, friction
 * modes, the design (grid, list, uniform, normal, derived parameters) and the metrics. Rank 0
 * reads and checks it (every key, range, point value and metric name) before any run starts and
 * sends it to the other ranks, so on a cluster only rank 0 needs the file. Every point is run in
 * process through the scene API (a fresh scene per point).
 *
 * Scheduling: dynamic, master/worker. Rank 0 hands out one point at a time to whichever rank
 * asks (runs differ in cost: stock friction is twice as fast as exact, a breakaway run stops
 * early), and runs points itself in between, answering requests every PF_SWEEP_POLL_STEPS steps.
 * Rank 0 alone writes files.
 *
 * Output: one CSV, rows in index order whatever the number of ranks (byte-identical for any N: a
 * point's row depends only on the spec and its index). Checkpoint: every finished row is appended
 * to FILE.ckpt (default OUT.ckpt) at once, in one write(2) (fsync every few seconds); a sweep
 * killed at any moment (SIGTERM, SIGKILL, a rank lost) is resumed by the same command: the rows in
 * the checkpoint are kept, the others run, and the CSV is written (to a temporary, then renamed)
 * when all are done; the checkpoint is then removed. A checkpoint of another spec is refused.
 *
 * --check: check the spec and print the design's size. --estimate [K]: run K points spread over
 * the design (default 8) and print the cost of the whole sweep. --bench [K]: the scaling benchmark
 * (K points, default 24): the same points on rank 0 alone, then on all ranks, in one run; prints
 * runs per second for each and the parallel efficiency as JSON lines.
 *
 * Exit status: 0 done, 1 a run or file failed, 2 bad spec or arguments (nothing run), 128 + signal
 * when interrupted (the checkpoint holds what was finished).
 */
#define _POSIX_C_SOURCE 200809L

#include "pf_sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef PF_SWEEP_HAVE_MPI
#include <mpi.h>
#endif

enum { TAG_RESULT = 1, TAG_WORK = 2, TAG_STOP = 3 };

static volatile sig_atomic_t g_stop;
static int g_rank, g_size = 1;

static void on_signal(int sig)
{
    g_stop = sig;
}

/* CPU time of this process [s]: with wall time, tells load from other programs apart from
 * pf-sweep's own overhead in the benchmark. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void nap(void)
{
    struct timespec ts = {0, 200000}; /* 0.2 ms: idle ranks must not spin on a shared core */
    nanosleep(&ts, NULL);
}

/* Leave the program from any rank: interrupted or failed after MPI_Init. */
static void finish(int status, int abort_all)
{
#ifdef PF_SWEEP_HAVE_MPI
    if (abort_all && g_size > 1) MPI_Abort(MPI_COMM_WORLD, status);
    MPI_Finalize();
#else
    (void)abort_all;
#endif
    exit(status);
}

/* ------------------------------------------------------------------------------------------ */
/* master state: which points are done, their rows, the checkpoint                             */
/* ------------------------------------------------------------------------------------------ */

typedef struct Master {
    const pfSweepSpec *sp;
    long first, end;    ///< the points of this sweep: [first, end)
    char **row;         ///< row[i - first]: finished row or NULL
    char *assigned;     ///< handed out, not returned yet
    long cursor;        ///< next candidate for next_point
    long done, resumed; ///< rows held (resumed: read from the checkpoint)
    long run_here;      ///< rows computed by this invocation
    int fd;             ///< checkpoint (append), -1 if none
    double t0, last_sync, last_progress;
    long next_progress;
    int active; ///< workers still working (not sent TAG_STOP)
    int quiet;
    int failed; ///< rows with status "error"
    long own;   ///< rows rank 0 computed itself
} Master;

static long next_point(Master *M)
{
    while (M->cursor < M->end &&
           (M->row[M->cursor - M->first] || M->assigned[M->cursor - M->first]))
        M->cursor++;
    if (M->cursor == M->end) return -1;
    M->assigned[M->cursor - M->first] = 1;
    return M->cursor++;
}

static void progress(Master *M, int force)
{
    if (M->quiet) return;
    double t = now_s(), el = t - M->t0;
    long total = M->end - M->first;
    if (el < 2.0 || (!force && M->done < M->next_progress && t - M->last_progress < 30.0))
        return; /* short sweeps stay quiet */
    while (M->next_progress <= M->done)
        M->next_progress += total / 10 > 0 ? total / 10 : 1;
    M->last_progress = t;
    double rate = M->run_here > 0 ? (double)M->run_here / el : 0.0;
    double eta = rate > 0 ? (double)(total - M->done) / rate : 0.0;
    fprintf(stderr, "pf-sweep: %ld/%ld points (%.0f%%), %.1f runs/s on %d rank%s, %.0f s left\n",
            M->done, total, 100.0 * (double)M->done / (double)total, rate, g_size,
            g_size > 1 ? "s" : "", eta);
}

static void record(Master *M, long index, const char *row)
{
    long k = index - M->first;
    M->assigned[k] = 0;
    if (M->row[k]) return; /* cannot happen: a point is handed out once */
    size_t len = strlen(row);
    M->row[k] = malloc(len + 1);
    if (!M->row[k]) {
        fprintf(stderr, "pf-sweep: out of memory\n");
        finish(1, 1);
    }
    memcpy(M->row[k], row, len + 1);
    M->done++;
    M->run_here++;
    if (strstr(row, ",error: ")) {
        M->failed++;
        fprintf(stderr, "pf-sweep: point %ld failed: %s", index, strstr(row, ",error: ") + 8);
    }
    if (M->fd >= 0) {
        if (write(M->fd, row, len) != (ssize_t)len) {
            fprintf(stderr, "pf-sweep: cannot write the checkpoint: %s\n", strerror(errno));
            finish(1, 1);
        }
        double t = now_s();
        if (t - M->last_sync > 5.0) {
            fsync(M->fd);
            M->last_sync = t;
        }
    }
    progress(M, 0);
}

#ifdef PF_SWEEP_HAVE_MPI
/* Answer every waiting worker: take its result, hand it the next point or tell it to stop. */
static void serve(void *ctx)
{
    Master *M = ctx;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
        if (!flag) return;
        int nbytes;
        MPI_Get_count(&st, MPI_CHAR, &nbytes);
        char buf[sizeof(long) + PF_SWEEP_ROW];
        if (nbytes < (int)sizeof(long) || nbytes > (int)sizeof buf) {
            fprintf(stderr, "pf-sweep: bad message of %d bytes from rank %d\n", nbytes,
                    st.MPI_SOURCE);
            finish(1, 1);
        }
        MPI_Recv(buf, nbytes, MPI_CHAR, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        long index;
        memcpy(&index, buf, sizeof index);
        if (index >= 0) {
            buf[nbytes - 1] = 0;
            record(M, index, buf + sizeof(long));
        }
        long next = g_stop ? -1 : next_point(M);
        if (next >= 0) {
            MPI_Send(&next, 1, MPI_LONG, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
        } else {
            MPI_Send(&next, 1, MPI_LONG, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
            M->active--;
        }
    }
}

/* Wait for a request without spinning; stop on a signal. */
static void wait_request(MPI_Request *req, MPI_Status *st)
{
    for (;;) {
        int flag = 0;
        MPI_Test(req, &flag, st);
        if (flag) return;
        if (g_stop) {
            fprintf(stderr, "pf-sweep: rank %d interrupted (signal %d)\n", g_rank, (int)g_stop);
            finish(128 + g_stop, 1);
        }
        nap();
    }
}

/* Worker: ask for points, run them, send the rows, until told to stop. Rows discarded by the
 * master (the benchmark) are computed the same way. */
static void worker(const pfSweepSpec *sp)
{
    char buf[sizeof(long) + PF_SWEEP_ROW];
    long index = -1;
    memcpy(buf, &index, sizeof index);
    MPI_Send(buf, (int)sizeof(long), MPI_CHAR, 0, TAG_RESULT, MPI_COMM_WORLD);
    pfSweepHooks hooks = {NULL, NULL, NULL, &g_stop};
    for (;;) {
        MPI_Request req;
        MPI_Status st;
        MPI_Irecv(&index, 1, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
        wait_request(&req, &st);
        if (st.MPI_TAG == TAG_STOP) return;
        char *row = buf + sizeof(long);
        if (pf_sweep_run_point(sp, index, &hooks, row, PF_SWEEP_ROW) != PF_OK) {
            fprintf(stderr, "pf-sweep: rank %d interrupted (signal %d)\n", g_rank, (int)g_stop);
            finish(128 + g_stop, 1);
        }
        memcpy(buf, &index, sizeof index);
        MPI_Send(buf, (int)(sizeof(long) + strlen(row) + 1), MPI_CHAR, 0, TAG_RESULT,
                 MPI_COMM_WORLD);
    }
}
#endif

/* Rank 0's loop: run points itself and serve the workers until every point is done. */
static void master_loop(Master *M, int use_workers)
{
    pfSweepHooks hooks = {NULL, NULL, M, &g_stop};
#ifdef PF_SWEEP_HAVE_MPI
    if (use_workers) hooks.poll = serve;
    M->active = use_workers ? g_size - 1 : 0;
#else
    (void)use_workers;
    M->active = 0;
#endif
    char row[PF_SWEEP_ROW];
    for (;;) {
#ifdef PF_SWEEP_HAVE_MPI
        if (use_workers) serve(M);
#endif
        if (g_stop) return;
        long index = next_point(M);
        if (index >= 0) {
            if (pf_sweep_run_point(M->sp, index, &hooks, row, sizeof row) != PF_OK) return;
            M->own++;
            record(M, index, row);
        } else if (M->active > 0) {
            nap();
        } else {
            return;
        }
    }
}

static void master_init(Master *M, const pfSweepSpec *sp, long first, long end, int quiet)
{
    memset(M, 0, sizeof *M);
    M->sp = sp;
    M->first = M->cursor = first;
    M->end = end;
    M->row = calloc((size_t)(end - first), sizeof *M->row);
    M->assigned = calloc((size_t)(end - first), 1);
    if (!M->row || !M->assigned) {
        fprintf(stderr, "pf-sweep: out of memory for %ld points\n", end - first);
        finish(1, 1);
    }
    M->fd = -1;
    M->quiet = quiet;
    M->t0 = M->last_sync = M->last_progress = now_s();
}

static void master_free(Master *M)
{
    for (long i = 0; i < M->end - M->first; ++i)
        free(M->row[i]);
    free(M->row);
    free(M->assigned);
}

/* ------------------------------------------------------------------------------------------ */
/* checkpoint                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static char *slurp(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0, len = 0, k;
    do {
        if (len + 65536 + 1 > cap) {
            cap = 2 * cap + 65536 + 1;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        k = fread(buf + len, 1, cap - len - 1, f);
        len += k;
    } while (k > 0);
    fclose(f);
    buf[len] = 0;
    if (size) *size = (long)len;
    return buf;
}

/* Open (resume) or create the checkpoint. Rows whose line is complete are taken; a torn last
 * line (killed mid-write) is cut off. Returns 0 or -1 with a message. */
static int checkpoint_open(Master *M, const char *path, const char *ident, int restart)
{
    char head[128];
    snprintf(head, sizeof head, "# pf-sweep checkpoint v1 %016llx %ld\n", pf_sweep_hash(ident),
             M->sp->npoints);
    if (restart) unlink(path);
    long size = 0;
    char *text = slurp(path, &size);
    if (text) {
        if (strncmp(text, head, strlen(head)) != 0) {
            fprintf(stderr,
                    "pf-sweep: checkpoint %s belongs to another spec or design (its first line "
                    "is not '%.*s'); delete it or pass --restart\n",
                    path, (int)strlen(head) - 1, head);
            free(text);
            return -1;
        }
        long keep = (long)strlen(head);
        char *p = text + keep;
        for (;;) {
            char *eol = strchr(p, '\n');
            if (!eol) break; /* torn last line: dropped, run again */
            char *end;
            long index = strtol(p, &end, 10);
            if (end == p || *end != ',' || index < M->first || index >= M->end) {
                fprintf(stderr,
                        "pf-sweep: checkpoint %s: bad line at byte %ld; delete it or "
                        "pass --restart\n",
                        path, (long)(p - text));
                free(text);
                return -1;
            }
            size_t len = (size_t)(eol - p) + 1;
            if (!M->row[index - M->first]) {
                char *r = malloc(len + 1);
                if (!r) {
                    free(text);
                    return -1;
                }
                memcpy(r, p, len);
                r[len] = 0;
                M->row[index - M->first] = r;
                M->done++;
                M->resumed++;
            }
            p = eol + 1;
            keep = (long)(p - text);
        }
        free(text);
        M->fd = open(path, O_WRONLY | O_APPEND);
        if (M->fd < 0 || ftruncate(M->fd, keep) != 0) {
            fprintf(stderr, "pf-sweep: cannot reopen checkpoint %s: %s\n", path, strerror(errno));
            return -1;
        }
        if (!M->quiet)
            fprintf(stderr, "pf-sweep: resuming from %s: %ld of %ld points done\n", path, M->done,
                    M->end - M->first);
        return 0;
    }
    M->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    if (M->fd < 0 || write(M->fd, head, strlen(head)) != (ssize_t)strlen(head)) {
        fprintf(stderr, "pf-sweep: cannot create checkpoint %s: %s\n", path, strerror(errno));
        return -1;
    }
    fsync(M->fd);
    return 0;
}

static int write_csv(const Master *M, const char *path)
{
    char tmp[4096], header[PF_SWEEP_ROW];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "pf-sweep: cannot write %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    pf_sweep_csv_header(M->sp, header, sizeof header);
    fputs(header, f);
    for (long i = 0; i < M->end - M->first; ++i)
        fputs(M->row[i], f);
    int bad = fflush(f) != 0 || fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "pf-sweep: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* modes                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int do_sweep(const pfSweepSpec *sp, const char *out, const char *ckpt, int restart,
                    int quiet)
{
    int status = 0;
    if (g_rank == 0) {
        Master M;
        master_init(&M, sp, 0, sp->npoints, quiet);
        char ident[8192];
        pf_sweep_canonical(sp, ident, sizeof ident);
        if (checkpoint_open(&M, ckpt, ident, restart)) {
            status = 1;
#ifdef PF_SWEEP_HAVE_MPI
            if (g_size > 1) { /* release the workers */
                M.active = g_size - 1;
                g_stop = 0;
                M.cursor = M.end;
                while (M.active > 0) {
                    serve(&M);
                    nap();
                }
            }
#endif
        } else {
            master_loop(&M, g_size > 1);
            if (g_stop) {
                if (M.fd >= 0) fsync(M.fd);
                fprintf(stderr,
                        "pf-sweep: interrupted (signal %d): %ld of %ld points are in %s; run the "
                        "same command to resume\n",
                        (int)g_stop, M.done, sp->npoints, ckpt);
                finish(128 + g_stop, 1);
            }
            if (M.fd >= 0) fsync(M.fd);
            progress(&M, 1);
            if (write_csv(&M, out) == 0) {
                if (M.fd >= 0) close(M.fd);
                M.fd = -1;
                unlink(ckpt);
                double el = now_s() - M.t0;
                fprintf(stderr,
                        "pf-sweep: wrote %s: %ld points (%ld from the checkpoint, %ld run in "
                        "%.1f s, %.1f runs/s on %d rank%s)%s\n",
                        out, sp->npoints, M.resumed, M.run_here, el,
                        el > 0 ? (double)M.run_here / el : 0.0, g_size, g_size > 1 ? "s" : "",
                        M.failed ? "; some runs failed (status column)" : "");
                if (M.failed) status = 1;
            } else {
                status = 1;
            }
        }
        if (M.fd >= 0) close(M.fd);
        master_free(&M);
    }
#ifdef PF_SWEEP_HAVE_MPI
    else {
        worker(sp);
    }
#endif
    return status;
}

/* Run points [0, k) on rank 0 alone, then on every rank; runs/s and efficiency as JSON lines. */
static int do_bench(const pfSweepSpec *sp, long k)
{
    if (k > sp->npoints) k = sp->npoints;
    double rate1 = 0.0;
    Master A;
    if (g_rank == 0) {
        master_init(&A, sp, 0, k, 1);
        double t = now_s(), c = cpu_s();
        master_loop(&A, 0);
        if (g_stop) finish(128 + g_stop, 1);
        rate1 = (double)k / (now_s() - t);
        printf("{\"name\": \"sweep_ranks\", \"ranks\": 1, \"points\": %ld, \"seconds\": %.3f, "
               "\"runs_per_s\": %.3f, \"rank0_cpu_s_per_run\": %.4f, \"rank0_wall_s_per_run\": "
               "%.4f}\n",
               k, (double)k / rate1, rate1, (cpu_s() - c) / (double)k, 1.0 / rate1);
        fflush(stdout);
    }
    if (g_size == 1) {
        printf("{\"name\": \"sweep_scaling\", \"ranks\": 1, \"note\": \"one rank: run under "
               "mpirun -np 2 (or more) for the parallel efficiency\"}\n");
        master_free(&A);
        return 0;
    }
#ifdef PF_SWEEP_HAVE_MPI
    /* the other ranks wait (without spinning) until rank 0 is done alone */
    int go = 1;
    MPI_Request req;
    MPI_Ibcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    wait_request(&req, MPI_STATUS_IGNORE);
    if (g_rank != 0) {
        worker(sp);
        return 0;
    }
    Master B;
    master_init(&B, sp, 0, k, 1);
    double t = now_s(), c = cpu_s();
    master_loop(&B, 1);
    if (g_stop) finish(128 + g_stop, 1);
    double el = now_s() - t, rateN = (double)k / el;
    int same = 1;
    for (long i = 0; i < k; ++i)
        same &= !strcmp(A.row[i], B.row[i]);
    /* rank 0's CPU per run against its wall time per run: far apart, other programs took the
     * cores; a CPU time per run above the 1-rank figure would be pf-sweep's own overhead */
    printf("{\"name\": \"sweep_ranks\", \"ranks\": %d, \"points\": %ld, \"seconds\": %.3f, "
           "\"runs_per_s\": %.3f, \"rank0_runs\": %ld, \"rank0_cpu_s_per_run\": %.4f, "
           "\"rank0_wall_s_per_run\": %.4f}\n",
           g_size, k, el, rateN, B.own, B.own ? (cpu_s() - c) / (double)B.own : NAN,
           B.own ? el / (double)B.own : NAN);
    printf("{\"name\": \"sweep_scaling\", \"ranks\": %d, \"speedup\": %.3f, \"efficiency\": %.3f, "
           "\"rows_identical\": %s}\n",
           g_size, rateN / rate1, rateN / rate1 / g_size, same ? "true" : "false");
    fflush(stdout);
    master_free(&A);
    master_free(&B);
    return same ? 0 : 1;
#else
    return 0;
#endif
}

/* K points spread over the design, on rank 0: the cost of the whole sweep, from the CPU time
 * of the runs (the wall time too: on a busy machine it is longer). */
static int do_estimate(const pfSweepSpec *sp, long k)
{
    if (g_rank != 0) return 0;
    if (k > sp->npoints) k = sp->npoints;
    double sum = 0, lo = HUGE_VAL, hi = 0, wall = 0;
    char row[PF_SWEEP_ROW];
    pfSweepHooks hooks = {NULL, NULL, NULL, &g_stop};
    for (long i = 0; i < k; ++i) {
        long index = (long)((double)i * (double)sp->npoints / (double)k);
        double t = now_s(), c = cpu_s();
        if (pf_sweep_run_point(sp, index, &hooks, row, sizeof row) != PF_OK)
            finish(128 + g_stop, 1);
        double el = cpu_s() - c;
        wall += now_s() - t;
        sum += el;
        lo = fmin(lo, el);
        hi = fmax(hi, el);
    }
    double mean = sum / (double)k, cpu = mean * (double)sp->npoints;
    printf("points: %ld; measured %ld runs spread over the design: mean %.4f CPU-s (min %.4f, "
           "max %.4f; wall %.4f s)\n",
           sp->npoints, k, mean, lo, hi, wall / (double)k);
    printf("estimated cost: %.0f CPU-seconds = %.2f CPU-hours; on %d rank%s about %.0f s wall "
           "at full efficiency\n",
           cpu, cpu / 3600.0, g_size, g_size > 1 ? "s" : "", cpu / g_size);
    return 0;
}

static void usage(FILE *f)
{
    fputs("usage: [mpirun -np N] pf-sweep SPEC [--out FILE.csv] [--checkpoint FILE] [--restart]\n"
          "                                 [--quiet]\n"
          "       pf-sweep SPEC --check | --estimate [K] | --bench [K]\n"
          "       pf-sweep --version | --help\n"
          "Runs the sweep SPEC (format: tools/pf_sweep.h, examples: tools/sweeps/) and writes one\n"
          "CSV in point order (default OUT: the spec's name with .csv). A killed sweep resumes\n"
          "from OUT.ckpt when run again.\n"
          "  --check        check the spec against the scene, print the design size, run nothing\n"
          "  --estimate K   time K runs spread over the design (default 8): cost of the sweep\n"
          "  --bench K      runs/s of K points (default 24) on 1 rank, then on all: efficiency\n",
          f);
}

static void version(void)
{
#ifdef PF_SWEEP_HAVE_MPI
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl) *nl = 0;
    printf("pf-sweep: MPI yes (%s)\n", lib);
#else
    printf("pf-sweep: MPI no (one process; built without MPI)\n");
#endif
}

int main(int argc, char **argv)
{
#ifdef PF_SWEEP_HAVE_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
#endif
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    const char *spec = NULL, *out = NULL, *ckpt = NULL;
    int restart = 0, quiet = 0, check = 0, bad = 0;
    long estimate = 0, bench = 0;
    for (int i = 1; i < argc && !bad; ++i) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            if (g_rank == 0) usage(stdout);
            finish(0, 0);
        } else if (!strcmp(a, "--version")) {
            if (g_rank == 0) version();
            finish(0, 0);
        } else if (!strcmp(a, "--out") && has) {
            out = argv[++i];
        } else if (!strcmp(a, "--checkpoint") && has) {
            ckpt = argv[++i];
        } else if (!strcmp(a, "--restart")) {
            restart = 1;
        } else if (!strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (!strcmp(a, "--check")) {
            check = 1;
        } else if (!strcmp(a, "--estimate") || !strcmp(a, "--bench")) {
            long k = !strcmp(a, "--bench") ? 24 : 8;
            if (has && argv[i + 1][0] != '-') {
                char *end;
                k = strtol(argv[++i], &end, 10);
                if (*end || k < 1) {
                    if (g_rank == 0)
                        fprintf(stderr, "pf-sweep: %s %s: expected a whole number >= 1\n", a,
                                argv[i]);
                    bad = 1;
                }
            }
            if (!strcmp(a, "--bench"))
                bench = k;
            else
                estimate = k;
        } else if (a[0] != '-' && !spec) {
            spec = a;
        } else {
            if (g_rank == 0)
                fprintf(stderr, "pf-sweep: unknown or incomplete argument '%s' (see --help)\n", a);
            bad = 1;
        }
    }
    if (!bad && !spec) {
        if (g_rank == 0) usage(stderr);
        bad = 1;
    }
    if (bad) finish(2, 0);

    /* rank 0 reads and checks the spec; everyone gets its text */
    char *text = NULL;
    long len = 0;
    int ok = 1;
    char msg[2048] = "";
    pfSweepSpec *sp = calloc(1, sizeof *sp);
    if (!sp) finish(1, 1);
    if (g_rank == 0) {
        text = slurp(spec, &len);
        if (!text) {
            snprintf(msg, sizeof msg, "cannot read spec %s: %s", spec, strerror(errno));
            ok = 0;
        } else if (pf_sweep_parse(text, sp, msg, sizeof msg) ||
                   pf_sweep_check(sp, msg, sizeof msg)) {
            ok = 0;
        }
    }
#ifdef PF_SWEEP_HAVE_MPI
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok && g_size > 1) {
        MPI_Bcast(&len, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        if (g_rank != 0) text = calloc((size_t)len + 1, 1);
        MPI_Bcast(text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
        if (g_rank != 0 && pf_sweep_parse(text, sp, msg, sizeof msg)) finish(1, 1);
    }
#endif
    if (!ok) {
        if (g_rank == 0) fprintf(stderr, "pf-sweep: %s: %s (nothing was run)\n", spec, msg);
        finish(2, 0);
    }
    free(text);

    int status = 0;
    if (check) {
        if (g_rank == 0) {
            char ident[8192];
            pf_sweep_canonical(sp, ident, sizeof ident);
            printf("%s: ok: %ld points (%d friction mode%s x %ld cells x %ld samples)\n%s\n", spec,
                   sp->npoints, sp->nmodes, sp->nmodes > 1 ? "s" : "", sp->cells, sp->samples,
                   ident);
        }
    } else if (bench) {
        status = do_bench(sp, bench);
    } else if (estimate) {
        status = do_estimate(sp, estimate);
    } else {
        char outbuf[4096], ckbuf[4200];
        if (!out) { /* the spec's name with .csv, in the working directory */
            const char *base = strrchr(spec, '/');
            base = base ? base + 1 : spec;
            snprintf(outbuf, sizeof outbuf, "%s", base);
            char *dot = strrchr(outbuf, '.');
            if (dot && dot != outbuf) *dot = 0;
            strncat(outbuf, ".csv", sizeof outbuf - strlen(outbuf) - 1);
            out = outbuf;
        }
        if (!ckpt) {
            snprintf(ckbuf, sizeof ckbuf, "%s.ckpt", out);
            ckpt = ckbuf;
        }
        status = do_sweep(sp, out, ckpt, restart, quiet);
    }
    free(sp);
#ifdef PF_SWEEP_HAVE_MPI
    MPI_Finalize();
#endif
    return status;
}
