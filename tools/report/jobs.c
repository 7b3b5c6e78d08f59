/* The process pool: every program pf-report runs (pf-demo, pf-reference, pf-limit-surfaces,
 * pf-sweep, pf-inverse, gnuplot, the --help / --list probes) goes through spawn() here. */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

pfrJob *pfr_job_new(pfrJobList *jl, const char *label, const char *out_path, const char *err_path)
{
    pfrJob *j = pfr_alloc(sizeof *j);
    j->label = pfr_strdup(label);
    j->out_path = pfr_strdup(out_path);
    j->err_path = pfr_strdup(err_path);
    if (jl->n == jl->cap)
        jl->v = pfr_realloc(jl->v, sizeof *jl->v * (size_t)(jl->cap = jl->cap * 2 + 16));
    jl->v[jl->n++] = j;
    return j;
}

void pfr_job_arg(pfrJob *j, const char *a)
{
    if (j->argc >= PFR_MAX_ARGS) pfr_die("internal: too many arguments for '%s'", j->label);
    j->argv[j->argc++] = pfr_strdup(a);
    j->argv[j->argc] = NULL;
}

char *pfr_job_cmdline(const pfrJob *j)
{
    size_t n = 1;
    for (int i = 0; i < j->argc; ++i)
        n += strlen(j->argv[i]) + 3;
    char *s = pfr_alloc(n);
    for (int i = 0; i < j->argc; ++i) {
        if (i) strcat(s, " ");
        strcat(s, j->argv[i]);
    }
    return s;
}

static pid_t spawn(const char *cwd, char *const argv[], const char *out_path, const char *err_path)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) pfr_die("fork failed: %s", strerror(errno));
    if (pid == 0) {
        if (cwd && chdir(cwd) != 0) _exit(125);
        int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0664);
        int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0664);
        if (fo < 0 || fe < 0) _exit(126);
        dup2(fo, 1);
        dup2(fe, 2);
        close(fo);
        close(fe);
        execvp(argv[0], argv); /* a bare name (mpiexec, gnuplot) is looked up on PATH */
        fprintf(stderr, "cannot execute %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

int pfr_run_wait(const char *cwd, char *const argv[], const char *out_path, const char *err_path)
{
    pid_t pid = spawn(cwd, argv, out_path, err_path);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) pfr_die("waitpid: %s", strerror(errno));
    return status;
}

char *pfr_capture(const char *tmpdir, char *const argv[])
{
    char *out = pfr_fmt("%s/probe.out", tmpdir), *err = pfr_fmt("%s/probe.err", tmpdir);
    int status = pfr_run_wait(NULL, argv, out, err);
    char *s = pfr_read_file(out);
    unlink(out);
    unlink(err);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? s : NULL;
}

static void fail_job(const pfrJob *j, int status, double timeout)
{
    char *cmd = pfr_job_cmdline(j);
    if (j->timed_out)
        fprintf(stderr, "\npf-report: FAILED (timed out after %.0f s, killed): %s\n", timeout, cmd);
    else
        fprintf(stderr, "\npf-report: FAILED (%s %d): %s\n",
                WIFEXITED(status) ? "exit status" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), cmd);
    char *err = pfr_read_file(j->err_path);
    if (err) {
        size_t n = strlen(err);
        fprintf(stderr, "pf-report: end of its stderr (%s):\n%s\n", j->err_path,
                n > 1500 ? err + n - 1500 : err);
    }
    fprintf(stderr, "pf-report: the report is incomplete; no README.md written\n");
    exit(1);
}

/* Nothing ended yet: kill what ran too long, note every 30 s what runs long. */
static void watch_clocks(pfrJobList *jl, int started, double timeout)
{
    double t = pfr_now();
    for (int i = 0; i < started; ++i) {
        pfrJob *j = jl->v[i];
        if (j->done || j->timed_out) continue;
        if (t - j->t0 > timeout) {
            j->timed_out = 1;
            kill(j->pid, SIGKILL);
        } else if (t > j->next_note) {
            fprintf(stderr, "       ... %s still running (%.0f s)\n", j->label, t - j->t0);
            j->next_note += 30.0;
        }
    }
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
}

void pfr_jobs_run(pfrJobList *jl, int par, double timeout)
{
    /* the long runs first (a stable partition): the pool then ends on short ones */
    pfrJob **order = pfr_alloc(sizeof *order * (size_t)(jl->n + 1));
    int k = 0;
    for (int pass = 1; pass >= 0; --pass)
        for (int i = 0; i < jl->n; ++i)
            if (!jl->v[i]->first == !pass) order[k++] = jl->v[i];
    memcpy(jl->v, order, sizeof *order * (size_t)jl->n);
    int next = 0, running = 0, counter = 0;
    while (next < jl->n || running > 0) {
        while (running < par && next < jl->n) {
            pfrJob *j = jl->v[next++];
            j->t0 = pfr_now();
            j->next_note = j->t0 + 30.0;
            j->pid = spawn(NULL, j->argv, j->out_path, j->err_path);
            running++;
        }
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid < 0) {
            if (errno == EINTR) continue;
            pfr_die("waitpid: %s", strerror(errno));
        }
        if (pid == 0) {
            watch_clocks(jl, next, timeout);
            continue;
        }
        pfrJob *j = NULL;
        for (int i = 0; i < next; ++i)
            if (jl->v[i]->pid == pid && !jl->v[i]->done) j = jl->v[i];
        if (!j) continue;
        running--;
        j->done = 1;
        j->elapsed = pfr_now() - j->t0;
        fprintf(stderr, "[%d/%d] %s ... %.1f s\n", ++counter, jl->n, j->label, j->elapsed);
        if (j->timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            while (running-- > 0)
                wait(NULL);
            fail_job(j, status, timeout);
        }
        char *out = pfr_read_file(j->out_path);
        char *ll = out ? pfr_last_line(out) : NULL;
        j->json_line = ll ? pfr_strdup(ll) : NULL;
    }
}
