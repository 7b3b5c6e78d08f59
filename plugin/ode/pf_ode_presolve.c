/* ODE adapter: the face presolve (docs/physics.md P36e; docs/architecture.md, "Face presolve").
 *
 * QuickStep's sweeps carry a force one body further per sweep, and the face rows of a ten-box tower
 * form a chain that twenty sweeps do not converge: the tower rocked by 1e-4 m at 5 ms with every
 * face stuck. Here, before the step, the six rows of every face (along n, t1, t2 at its centre;
 * about n, t1, t2) are solved together as equalities at their targets, with the bodies' present
 * forces and velocities and the rows' own compliance:
 *
 *     (h J M^-1 J^T + C) lambda = t - J (v + h M^-1 f_ext)
 *
 * h the step, C the rows' CFM (pf_ode_rows.c), t the rows' targets; the system QuickStep's sweeps
 * converge to while no row is at a bound. Where the faces close a loop (a box on two boxes, a
 * body on two feet) the targets' position corrections need not agree around it, and the solution
 * of such a part grows as 1/C; the solve is repeated for the velocities its first solution reaches,
 * t - C lambda_1, which removes that part (for a chain, t - C lambda_1 differs from t by the
 * compliance alone). The rows' bounds are kept by active sets: a normal force below zero or a
 * moment past P36c is held at that bound and the rest solved again; a face that would slide is let
 * go by its stick test, and its island is not presolved. The adapter then starts each row from its
 * value (create_face_rows in pf_ode_step.c) and moves the rows' targets to what the start reaches
 * without compliance (QuickStep applies a row's compliance to what the row adds): the start is the
 * sweeps' fixed point. Only islands that their faces alone hold are presolved (held_by_faces).
 *
 * The matrix couples two faces that share a dynamic body, in 6 x 6 blocks. It is factored per
 * island of faces by a block Cholesky in a minimum-degree order: a chain has no fill, and a
 * pyramid's blocks stay sparse. Islands of more than PF_ODE_PRESOLVE_MAX faces are left to the
 * measured preload (P36d). Reads the world; creates nothing. */
#include "pf_ode_internal.h"

#include <math.h>
#include <string.h>

/* Largest island of faces solved together: its ordering and block map are quadratic in it. */
#define PF_ODE_PRESOLVE_MAX 256
/* Most active-set passes of the bounded solve (solve_island). */
#define PF_ODE_PRESOLVE_PASSES 4
/* Smallest relative compliance of a presolve row (a row whose CFM is 0 or not finite). */
#define PF_ODE_PRESOLVE_EPS 1e-9

typedef struct psFace {
    pfOdePair *p;
    int body[2];         /* island body index of body 1 / body 2, or -1 (static or kinematic) */
    double J[2][36];     /* the six rows' Jacobian on body 1 / body 2 (row-major, 6 x 6) */
    double MJ[2][36];    /* M^-1 J^T of those rows, stored as rows (row r: M^-1 J_r^T) */
    double t[6];         /* rhs: target - J v_pred */
    double c[6];         /* the rows' CFM */
    double shift[6];     /* how far the rows' targets are moved (solve_fixed) */
    double lo[6], hi[6]; /* the rows' bounds */
    int fixed[6];        /* the row is held at fixv (a bound it passed) */
    double fixv[6];
    int root; /* island (union-find root of its bodies) */
} psFace;

/* a growable buffer of the context's scratch (grown, never shrunk) */
typedef struct psBuf {
    void *p;
    int cap; /* elements */
} psBuf;

enum {
    PS_FACE,   /* psFace [faces] */
    PS_BODY,   /* dBodyID [bodies] */
    PS_MOB,    /* const pfOdeMobility * [bodies] */
    PS_PARENT, /* int [bodies]: union-find */
    PS_ADJS,   /* int [bodies + 1]: each body's faces, CSR start */
    PS_ADJ,    /* int [2 faces]: the faces */
    PS_FILL,   /* int [bodies] */
    PS_OTHER,  /* unsigned char [bodies] */
    PS_VP,     /* double [6 bodies]: predicted velocities */
    PS_LIST,   /* int [faces]: faces grouped by island */
    PS_POS,    /* int [faces]: island-local index of each face */
    PS_ORDER,  /* int [island]: elimination order */
    PS_RANK,   /* int [island]: elimination position of each island face */
    PS_DEG,    /* int [island] */
    PS_GRAPH,  /* unsigned char [island^2]: the filled elimination graph */
    PS_MAP,    /* int [island^2]: the factor's block of (i, j), or -1 */
    PS_BLK,    /* double [36 blocks] */
    PS_BLK0,   /* double [36 blocks]: A before the factor */
    PS_X,      /* double [6 island] */
    PS_Y,      /* double [12 island] */
    PS_COUNT
};

struct pfOdePresolve {
    psBuf b[PS_COUNT];
};

static void *buf(pfOdeContext *ctx, struct pfOdePresolve *s, int which, int n, size_t elem)
{
    psBuf *b = &s->b[which];
    if (n > b->cap) {
        int c = b->cap ? b->cap : 16;
        while (c < n)
            c *= 2;
        void *q = realloc(b->p, (size_t)c * elem);
        if (!q) return NULL;
        b->p = q;
        b->cap = c;
        ctx->counters.allocations++;
    }
    return b->p;
}

void pf_ode_presolve_free(struct pfOdePresolve *s)
{
    if (!s) return;
    for (int i = 0; i < PS_COUNT; ++i)
        free(s->b[i].p);
    free(s);
}

static int find(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

static int body_cmp(const void *a, const void *b)
{
    const uintptr_t x = (uintptr_t) * (const dBodyID *)a, y = (uintptr_t) * (const dBodyID *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

/* the step's faces and bodies (pointers into the scratch buffers) */
typedef struct psStep {
    psFace *f;
    int nf;
    dBodyID *body;
    int nb;
    const pfOdeMobility **mob;
    int *parent, *adj_start, *adj, *pos;
    unsigned char *other; /* the body is also held by a pair that is not a face (held_by_faces) */
    double *vp;
    double h;
} psStep;

static int body_index(const psStep *st, dBodyID b)
{
    int lo = 0, hi = st->nb - 1;
    while (lo <= hi) {
        const int m = (lo + hi) / 2;
        if (st->body[m] == b) return m;
        if ((uintptr_t)st->body[m] < (uintptr_t)b)
            lo = m + 1;
        else
            hi = m - 1;
    }
    return -1;
}

/* ---- 6 x 6 blocks ---------------------------------------------------------------------------- */

/* C += s A B^T */
static void mul_abt(double *C, const double *A, const double *B, double s)
{
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) {
            double v = 0.0;
            for (int k = 0; k < 6; ++k)
                v += A[6 * i + k] * B[6 * j + k];
            C[6 * i + j] += s * v;
        }
}

/* In place: the lower triangle of A becomes L with L L^T = A. 0 where A is not positive. */
static int chol6(double *A)
{
    for (int j = 0; j < 6; ++j) {
        double d = A[7 * j];
        for (int k = 0; k < j; ++k)
            d -= A[6 * j + k] * A[6 * j + k];
        if (!(d > 0.0) || !isfinite(d)) return 0;
        d = sqrt(d);
        A[7 * j] = d;
        for (int i = j + 1; i < 6; ++i) {
            double v = A[6 * i + j];
            for (int k = 0; k < j; ++k)
                v -= A[6 * i + k] * A[6 * j + k];
            A[6 * i + j] = v / d;
        }
    }
    return 1;
}

/* X L^T = A for X, in place in A (L lower, from chol6) */
static void solve_xlt(double *A, const double *L)
{
    for (int r = 0; r < 6; ++r)
        for (int j = 0; j < 6; ++j) {
            double v = A[6 * r + j];
            for (int k = 0; k < j; ++k)
                v -= A[6 * r + k] * L[6 * j + k];
            A[6 * r + j] = v / L[7 * j];
        }
}

/* ---- one island ------------------------------------------------------------------------------ */

/* The island's factor: k faces, map[i k + j] the block of positions (i, j), i >= j, or -1. */
typedef struct psFactor {
    int k;
    const int *map;
    double *blk;
} psFactor;

static double *block(const psFactor *F, int i, int j)
{
    const int b = F->map[i * F->k + j];
    return b < 0 ? NULL : F->blk + 36 * (size_t)b;
}

/* In place: the blocks become the factor L (L L^T = A), right-looking on the filled pattern. 0
 * where A is not positive. */
static int factor(const psFactor *F)
{
    const int k = F->k;
    for (int j = 0; j < k; ++j) {
        double *Ljj = block(F, j, j);
        if (!chol6(Ljj)) return 0;
        for (int i = j + 1; i < k; ++i) {
            double *Lij = block(F, i, j);
            if (Lij) solve_xlt(Lij, Ljj);
        }
        for (int i = j + 1; i < k; ++i) {
            const double *Lij = block(F, i, j);
            if (!Lij) continue;
            for (int l = j + 1; l <= i; ++l) {
                const double *Llj = block(F, l, j);
                if (Llj) mul_abt(block(F, i, l), Lij, Llj, -1.0);
            }
        }
    }
    return 1;
}

/* x <- A^-1 x, A = L L^T (x by positions, 6 each; y scratch) */
static void factor_solve(const psFactor *F, double *x, double *y)
{
    const int k = F->k;
    for (int j = 0; j < k; ++j) { /* L y = x */
        double *yj = y + 6 * j;
        memcpy(yj, x + 6 * j, sizeof(double) * 6);
        for (int l = 0; l < j; ++l) {
            const double *Ljl = block(F, j, l);
            if (!Ljl) continue;
            for (int r = 0; r < 6; ++r)
                for (int q = 0; q < 6; ++q)
                    yj[r] -= Ljl[6 * r + q] * y[6 * l + q];
        }
        const double *L = block(F, j, j);
        for (int r = 0; r < 6; ++r) {
            for (int q = 0; q < r; ++q)
                yj[r] -= L[6 * r + q] * yj[q];
            yj[r] /= L[7 * r];
        }
    }
    for (int j = k - 1; j >= 0; --j) { /* L^T x = y */
        double *xj = x + 6 * j;
        memcpy(xj, y + 6 * j, sizeof(double) * 6);
        for (int i = j + 1; i < k; ++i) {
            const double *Lij = block(F, i, j);
            if (!Lij) continue;
            for (int r = 0; r < 6; ++r)
                for (int q = 0; q < 6; ++q)
                    xj[r] -= Lij[6 * q + r] * x[6 * i + q];
        }
        const double *L = block(F, j, j);
        for (int r = 5; r >= 0; --r) {
            for (int q = r + 1; q < 6; ++q)
                xj[r] -= L[6 * q + r] * xj[q];
            xj[r] /= L[7 * r];
        }
    }
}

/* The rows held at a bound (fixed) leave the system: their column moves to the right-hand side at
 * their value, and row and column become the identity. Then the factor, and the two solves:
 * lambda_1 for t, lambda for t - C lambda_1, the velocities lambda_1 reaches; the free rows then
 * aim at those (shift, P36e): the targets a loop cannot meet all at once are replaced by the
 * nearest it can. x: the solution by positions (rank), y scratch. 0 where the factor fails. */
static int solve_fixed(const psFactor *F, const psStep *st, const int *fl, int k, const int *rank,
                       double *x, double *y)
{
    for (int a = 0; a < k; ++a)
        memcpy(x + 6 * rank[a], st->f[fl[a]].t, sizeof(double) * 6);
    for (int a = 0; a < k; ++a) {
        const psFace *fa = &st->f[fl[a]];
        const int j = rank[a];
        for (int r = 0; r < 6; ++r) {
            if (!fa->fixed[r]) continue;
            const double v = fa->fixv[r];
            /* column (j, r): in blocks (i, j), i >= j, at column r; in blocks (j, l), l < j,
             * at row r */
            for (int i = j; i < k; ++i) {
                double *Bij = block(F, i, j);
                if (!Bij) continue;
                for (int q = 0; q < 6; ++q) {
                    if (i == j && q == r) continue;
                    x[6 * i + q] -= Bij[6 * q + r] * v;
                    Bij[6 * q + r] = 0.0;
                    if (i == j) Bij[6 * r + q] = 0.0;
                }
            }
            for (int l = 0; l < j; ++l) {
                double *Bjl = block(F, j, l);
                if (!Bjl) continue;
                for (int q = 0; q < 6; ++q) {
                    x[6 * l + q] -= Bjl[6 * r + q] * v;
                    Bjl[6 * r + q] = 0.0;
                }
            }
            block(F, j, j)[7 * r] = 1.0;
            x[6 * j + r] = v;
        }
    }
    /* (x now holds the reduced right-hand side; keep it for the second solve) */
    double *t0 = y + 6 * k;
    memcpy(t0, x, sizeof(double) * 6 * (size_t)k);
    if (!factor(F)) return 0;
    factor_solve(F, x, y);
    for (int a = 0; a < k; ++a) {
        psFace *fa = &st->f[fl[a]];
        double *xa = x + 6 * rank[a];
        const double *ta = t0 + 6 * rank[a];
        for (int r = 0; r < 6; ++r) {
            fa->shift[r] = fa->fixed[r] ? 0.0 : fa->c[r] * xa[r];
            xa[r] = fa->fixed[r] ? fa->fixv[r] : ta[r] - fa->shift[r];
        }
    }
    factor_solve(F, x, y);
    for (int a = 0; a < k; ++a) {
        psFace *fa = &st->f[fl[a]];
        const double *xa = x + 6 * rank[a];
        for (int r = 0; r < 6; ++r)
            if (!fa->fixed[r]) fa->shift[r] += fa->c[r] * xa[r];
    }
    return 1;
}

/* Solves the island of faces fl[0..k-1] (indices into st->f) into each face's ps. */
static void solve_island(pfOdeContext *ctx, struct pfOdePresolve *s, const psStep *st,
                         const int *fl, int k)
{
    int *order = buf(ctx, s, PS_ORDER, k, sizeof(int));
    int *rank = buf(ctx, s, PS_RANK, k, sizeof(int));
    int *deg = buf(ctx, s, PS_DEG, k, sizeof(int));
    unsigned char *g = buf(ctx, s, PS_GRAPH, k * k, 1);
    int *map = buf(ctx, s, PS_MAP, k * k, sizeof(int));
    if (!order || !rank || !deg || !g || !map) return;
    for (int a = 0; a < k; ++a)
        st->pos[fl[a]] = a;
    /* the graph of faces that share a body, then a minimum-degree elimination order with its
     * fill (g keeps the filled graph; its diagonal marks an eliminated face) */
    memset(g, 0, (size_t)k * k);
    for (int a = 0; a < k; ++a)
        for (int side = 0; side < 2; ++side) {
            const int b = st->f[fl[a]].body[side];
            if (b < 0) continue;
            for (int q = st->adj_start[b]; q < st->adj_start[b + 1]; ++q) {
                const int c = st->pos[st->adj[q]];
                if (c != a) g[a * k + c] = 1;
            }
        }
    for (int a = 0; a < k; ++a) {
        int d = 0;
        for (int c = 0; c < k; ++c)
            d += g[a * k + c];
        deg[a] = d;
    }
    for (int j = 0; j < k; ++j) {
        int v = -1;
        for (int a = 0; a < k; ++a)
            if (!g[a * k + a] && (v < 0 || deg[a] < deg[v])) v = a;
        order[j] = v;
        rank[v] = j;
        g[v * k + v] = 1;
        for (int a = 0; a < k; ++a) {
            if (a == v || !g[v * k + a] || g[a * k + a]) continue;
            deg[a]--;
            for (int c = a + 1; c < k; ++c) {
                if (c == v || !g[v * k + c] || g[c * k + c] || g[a * k + c]) continue;
                g[a * k + c] = g[c * k + a] = 1;
                deg[a]++;
                deg[c]++;
            }
        }
    }
    int nblk = 0;
    for (int i = 0; i < k; ++i)
        for (int j = 0; j <= i; ++j)
            map[i * k + j] = (i == j || g[order[i] * k + order[j]]) ? nblk++ : -1;
    double *blk = buf(ctx, s, PS_BLK, 36 * nblk, sizeof(double));
    double *x = buf(ctx, s, PS_X, 6 * k, sizeof(double));
    double *y = buf(ctx, s, PS_Y, 12 * k, sizeof(double));
    if (!blk || !x || !y) return;
    const psFactor F = {k, map, blk};
    memset(blk, 0, sizeof(double) * 36 * (size_t)nblk);
    /* A = h J M^-1 J^T + C: faces a, c that share a body couple through it */
    for (int a = 0; a < k; ++a) {
        const psFace *fa = &st->f[fl[a]];
        for (int sa = 0; sa < 2; ++sa) {
            const int b = fa->body[sa];
            if (b < 0) continue;
            for (int q = st->adj_start[b]; q < st->adj_start[b + 1]; ++q) {
                const psFace *fc = &st->f[st->adj[q]];
                const int i = rank[a], j = rank[st->pos[st->adj[q]]];
                if (i < j) continue; /* the block (i, j), i >= j, only */
                mul_abt(block(&F, i, j), fa->J[sa], fc->MJ[fc->body[0] == b ? 0 : 1], st->h);
            }
        }
        double *D = block(&F, rank[a], rank[a]);
        for (int r = 0; r < 6; ++r) {
            const double floor = PF_ODE_PRESOLVE_EPS * D[7 * r];
            D[7 * r] += fa->c[r] > floor ? fa->c[r] : floor;
        }
    }
    /* the rows' bounds: the normal force pushes (>= 0), the others within +-B */
    for (int a = 0; a < k; ++a) {
        psFace *fa = &st->f[fl[a]];
        const pfOdeRows *rs = &fa->p->step.rows;
        const double B[6] = {INFINITY, rs->b1, rs->b2, rs->bspin, rs->broll1, rs->broll2};
        for (int r = 0; r < 6; ++r) {
            fa->hi[r] = B[r];
            fa->lo[r] = r == 0 ? 0.0 : -B[r];
            fa->fixed[r] = 0;
        }
    }
    double *blk0 = buf(ctx, s, PS_BLK0, 36 * nblk, sizeof(double));
    if (!blk0) return;
    memcpy(blk0, blk, sizeof(double) * 36 * (size_t)nblk);
    /* a bounded solve by active sets: a row whose value falls outside its bounds is held at the
     * bound it passed and the rest solved again, until none does */
    for (int pass = 0;; ++pass) {
        if (pass > 0) memcpy(blk, blk0, sizeof(double) * 36 * (size_t)nblk);
        if (!solve_fixed(&F, st, fl, k, rank, x, y)) return;
        int more = 0;
        for (int a = 0; a < k; ++a) {
            psFace *fa = &st->f[fl[a]];
            const double *xa = x + 6 * rank[a];
            for (int r = 0; r < 6; ++r) {
                if (fa->fixed[r]) continue;
                if (!isfinite(xa[r])) return;
                if (xa[r] < fa->lo[r] || xa[r] > fa->hi[r]) {
                    /* a face that would slide or spin: its stick test lets it go, and no start
                     * of the island is the step's */
                    if (r >= 1 && r <= 3) return;
                    fa->fixed[r] = 1;
                    fa->fixv[r] = xa[r] < fa->lo[r] ? fa->lo[r] : fa->hi[r];
                    more = 1;
                }
            }
        }
        if (!more) break;
        if (pass + 1 >= PF_ODE_PRESOLVE_PASSES) return; /* the island keeps the measured preload */
    }
    for (int a = 0; a < k; ++a) {
        const psFace *fa = &st->f[fl[a]];
        pfOdePair *p = fa->p;
        pfOdeRows *rs = &p->step.rows;
        memcpy(p->step.ps, x + 6 * rank[a], sizeof p->step.ps);
        p->step.has_ps = 1;
        p->step.face_target -= fa->shift[0];
        rs->m1 -= fa->shift[1];
        rs->m2 -= fa->shift[2];
        if (rs->spin_motor) rs->spin_vel -= fa->shift[3];
        rs->roll_vel1 -= fa->shift[4];
        rs->roll_vel2 -= fa->shift[5];
    }
}

/* ---- the faces of the step ------------------------------------------------------------------- */

/* Face f's rows: Jacobian, M^-1 J^T, rhs and compliance, as create_rows and pf_ode_face_joint
 * will create them. A row without a bound (none is created) is left out: J = 0, and its unit
 * diagonal gives it lambda = 0. */
static void face_rows(const pfOdeContext *ctx, const psStep *st, psFace *f)
{
    pfOdePair *p = f->p;
    const pfOdeRows *rs = &p->step.rows;
    const pfOdeMobility *mb[2];
    pf_ode_pair_mobility(ctx, p, &mb[0], &mb[1]);
    const double *c = p->step.c, *n = p->step.n;
    const double *dir[3] = {n, rs->t1, rs->t2};
    const double bound[6] = {1.0, rs->b1, rs->b2, rs->bspin, rs->broll1, rs->broll2};
    const double target[6] = {
        p->step.face_target, rs->m1,       rs->m2, rs->spin_motor ? rs->spin_vel : 0.0,
        rs->roll_vel1,       rs->roll_vel2};
    const dBodyID bd[2] = {p->step.b1, p->step.b2};
    memset(f->J, 0, sizeof f->J);
    memset(f->MJ, 0, sizeof f->MJ);
    for (int side = 0; side < 2; ++side) {
        if (!bd[side]) continue;
        const double sg = side == 0 ? 1.0 : -1.0;
        const dReal *G = dBodyGetPosition(bd[side]);
        const double r[3] = {c[0] - G[0], c[1] - G[1], c[2] - G[2]};
        for (int row = 0; row < 6; ++row) {
            if (!(bound[row] > 0.0)) continue;
            double *J = f->J[side] + 6 * row;
            const double *d = dir[row % 3];
            double rx[3] = {0.0, 0.0, 0.0};
            if (row < 3) pf_ode_cross(r, d, rx);
            for (int q = 0; q < 3; ++q) {
                J[q] = row < 3 ? sg * d[q] : 0.0;
                J[3 + q] = sg * (row < 3 ? rx[q] : d[q]);
            }
            if (f->body[side] < 0) continue;
            const pfOdeMobility *m = mb[side];
            double *MJ = f->MJ[side] + 6 * row;
            for (int q = 0; q < 3; ++q) {
                MJ[q] = m->im * J[q];
                MJ[3 + q] =
                    m->iinv[3 * q] * J[3] + m->iinv[3 * q + 1] * J[4] + m->iinv[3 * q + 2] * J[5];
            }
        }
    }
    /* rhs: target - J v_pred, a kinematic body at its own velocity */
    for (int row = 0; row < 6; ++row) {
        const int on = bound[row] > 0.0;
        double jv = 0.0, mob = 0.0;
        for (int side = 0; side < 2; ++side) {
            const double *J = f->J[side] + 6 * row, *MJ = f->MJ[side] + 6 * row;
            double v[6];
            if (f->body[side] >= 0) {
                memcpy(v, st->vp + 6 * f->body[side], sizeof v);
            } else if (bd[side]) {
                const dReal *lv = dBodyGetLinearVel(bd[side]), *av = dBodyGetAngularVel(bd[side]);
                for (int q = 0; q < 3; ++q) {
                    v[q] = lv[q];
                    v[3 + q] = av[q];
                }
            } else {
                continue;
            }
            for (int q = 0; q < 6; ++q) {
                jv += J[q] * v[q];
                mob += J[q] * MJ[q];
            }
        }
        f->t[row] = on ? target[row] - jv : 0.0;
        /* the rows' CFM, relative to their mobility (pf_ode_row_cfm); an absent row: unit */
        f->c[row] = on ? pf_ode_row_cfm(mob, st->h) : 1.0;
    }
}

/* 1 where the island's bodies are held by its faces alone: no other pair of the adapter's (one
 * that is not a face, of any kind) and no enabled joint (the user's joints and motors; the
 * adapter's joints of this step are not created yet, and its body sentinels are disabled) acts
 * on any of them, and no face has contacts off its plane. Those would carry part of the load in
 * the step, and the presolve, which does not see them, would start the faces from a wrench that
 * is not the step's (a box sliding on a stuck one: the stuck face started without the slider's
 * weight, and the slider's acceleration came out 4.6 % above its closed form at 1 ms). */
static int held_by_faces(const psStep *st, const int *fl, int k)
{
    for (int a = 0; a < k; ++a) {
        const psFace *f = &st->f[fl[a]];
        if (f->p->step.noff > 0) return 0;
        for (int side = 0; side < 2; ++side) {
            if (f->body[side] < 0) continue;
            if (st->other[f->body[side]]) return 0;
            const dBodyID b = st->body[f->body[side]];
            const int nj = dBodyGetNumJoints(b);
            for (int j = 0; j < nj; ++j)
                if (dJointIsEnabled(dBodyGetJoint(b, j))) return 0;
        }
    }
    return 1;
}

void pf_ode_face_presolve(pfOdeContext *ctx, double h)
{
    if (!ctx->scratch) return;
    if (!ctx->scratch->presolve) {
        ctx->scratch->presolve = calloc(1, sizeof *ctx->scratch->presolve);
        if (!ctx->scratch->presolve) return;
        ctx->counters.allocations++;
    }
    struct pfOdePresolve *s = ctx->scratch->presolve;
    int nf = 0;
    for (int a = 0; a < ctx->alive_count; ++a)
        nf += pf_ode_pair_at(ctx, ctx->alive[a])->step.face;
    if (nf == 0) return;
    const int mb = 2 * nf;
    psStep st = {.f = buf(ctx, s, PS_FACE, nf, sizeof(psFace)),
                 .body = buf(ctx, s, PS_BODY, mb, sizeof(dBodyID)),
                 .mob = buf(ctx, s, PS_MOB, mb, sizeof(const pfOdeMobility *)),
                 .parent = buf(ctx, s, PS_PARENT, mb, sizeof(int)),
                 .adj_start = buf(ctx, s, PS_ADJS, mb + 1, sizeof(int)),
                 .adj = buf(ctx, s, PS_ADJ, mb, sizeof(int)),
                 .pos = buf(ctx, s, PS_POS, nf, sizeof(int)),
                 .other = buf(ctx, s, PS_OTHER, mb, 1),
                 .vp = buf(ctx, s, PS_VP, 6 * mb, sizeof(double)),
                 .h = h};
    int *fill = buf(ctx, s, PS_FILL, mb, sizeof(int)),
        *list = buf(ctx, s, PS_LIST, nf, sizeof(int));
    if (!st.f || !st.body || !st.mob || !st.parent || !st.adj_start || !st.adj || !st.pos ||
        !st.other || !st.vp || !fill || !list)
        return;
    /* the faces' dynamic bodies, sorted and unique; islands by union-find over the faces */
    for (int a = 0; a < ctx->alive_count; ++a) {
        pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (!p->step.face) continue;
        st.f[st.nf++].p = p;
        if (pf_ode_is_dynamic(p->step.b1)) st.body[st.nb++] = p->step.b1;
        if (pf_ode_is_dynamic(p->step.b2)) st.body[st.nb++] = p->step.b2;
    }
    qsort(st.body, (size_t)st.nb, sizeof *st.body, body_cmp);
    int u = 0;
    for (int i = 0; i < st.nb; ++i)
        if (u == 0 || st.body[u - 1] != st.body[i]) st.body[u++] = st.body[i];
    st.nb = u;
    for (int i = 0; i < st.nb; ++i) {
        st.parent[i] = i;
        st.other[i] = 0;
    }
    for (int a = 0; a < ctx->alive_count; ++a) {
        const pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (p->step.face) continue;
        const dBodyID bd[2] = {p->step.b1, p->step.b2};
        for (int side = 0; side < 2; ++side) {
            const int i = pf_ode_is_dynamic(bd[side]) ? body_index(&st, bd[side]) : -1;
            if (i >= 0) st.other[i] = 1;
        }
    }
    for (int i = 0; i < nf; ++i) {
        psFace *f = &st.f[i];
        const pfOdeMobility *m[2];
        pf_ode_pair_mobility(ctx, f->p, &m[0], &m[1]);
        const dBodyID bd[2] = {f->p->step.b1, f->p->step.b2};
        for (int side = 0; side < 2; ++side) {
            f->body[side] = pf_ode_is_dynamic(bd[side]) ? body_index(&st, bd[side]) : -1;
            if (f->body[side] >= 0) st.mob[f->body[side]] = m[side];
        }
        if (f->body[0] >= 0 && f->body[1] >= 0) {
            const int r0 = find(st.parent, f->body[0]), r1 = find(st.parent, f->body[1]);
            if (r0 != r1) st.parent[r0] = r1;
        }
    }
    /* the bodies' velocities at the step's end without constraints: forces, gravity */
    dVector3 g;
    dWorldGetGravity(ctx->world, g);
    for (int i = 0; i < st.nb; ++i) {
        const pfOdeMobility *m = st.mob[i];
        const dBodyID b = st.body[i];
        const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
        const dReal *F = dBodyGetForce(b), *T = dBodyGetTorque(b);
        const int grav = dBodyGetGravityMode(b);
        double *vp = st.vp + 6 * i;
        for (int q = 0; q < 3; ++q) {
            vp[q] = v[q] + h * (m->im * F[q] + (grav ? g[q] : 0.0));
            vp[3 + q] = w[q] + h * (m->iinv[3 * q] * T[0] + m->iinv[3 * q + 1] * T[1] +
                                    m->iinv[3 * q + 2] * T[2]);
        }
    }
    /* and the friction every pair applies explicitly this step (its drive: pf_ode_angular_rows,
     * drive_components), which the bodies feel as a force */
    for (int a = 0; a < ctx->alive_count; ++a) {
        const pfOdePair *p = pf_ode_pair_at(ctx, ctx->alive[a]);
        if (!p->step.has_drive) continue;
        const dBodyID bd[2] = {p->step.b1, p->step.b2};
        for (int side = 0; side < 2; ++side) {
            const int i = pf_ode_is_dynamic(bd[side]) ? body_index(&st, bd[side]) : -1;
            if (i < 0) continue;
            const double sg = side == 0 ? h : -h;
            const pfOdeMobility *m = st.mob[i];
            const dReal *G = dBodyGetPosition(bd[side]);
            const double r[3] = {p->step.c[0] - G[0], p->step.c[1] - G[1], p->step.c[2] - G[2]};
            double T[3];
            pf_ode_cross(r, p->step.drive_f, T);
            for (int q = 0; q < 3; ++q)
                T[q] += p->step.drive_t[q];
            double *vp = st.vp + 6 * i;
            for (int q = 0; q < 3; ++q) {
                vp[q] += sg * m->im * p->step.drive_f[q];
                vp[3 + q] += sg * (m->iinv[3 * q] * T[0] + m->iinv[3 * q + 1] * T[1] +
                                   m->iinv[3 * q + 2] * T[2]);
            }
        }
    }
    /* each body's faces (CSR) */
    memset(st.adj_start, 0, sizeof(int) * (size_t)(st.nb + 1));
    for (int i = 0; i < nf; ++i)
        for (int side = 0; side < 2; ++side)
            if (st.f[i].body[side] >= 0) st.adj_start[st.f[i].body[side] + 1]++;
    for (int i = 0; i < st.nb; ++i)
        st.adj_start[i + 1] += st.adj_start[i];
    memcpy(fill, st.adj_start, sizeof(int) * (size_t)st.nb);
    for (int i = 0; i < nf; ++i)
        for (int side = 0; side < 2; ++side)
            if (st.f[i].body[side] >= 0) st.adj[fill[st.f[i].body[side]]++] = i;
    int m = 0;
    for (int i = 0; i < nf; ++i) {
        psFace *f = &st.f[i];
        const int b = f->body[0] >= 0 ? f->body[0] : f->body[1];
        f->root = b >= 0 ? find(st.parent, b) : -1;
        if (f->root < 0) continue; /* (no dynamic body: nothing to solve) */
        face_rows(ctx, &st, f);
        list[m++] = i;
    }
    /* each island: its faces gathered at the front of what is left of the list */
    for (int start = 0; start < m;) {
        const int r = st.f[list[start]].root;
        int end = start;
        for (int i = start; i < m; ++i)
            if (st.f[list[i]].root == r) {
                const int t = list[end];
                list[end++] = list[i];
                list[i] = t;
            }
        if (end - start <= PF_ODE_PRESOLVE_MAX && held_by_faces(&st, list + start, end - start))
            solve_island(ctx, s, &st, list + start, end - start);
        start = end;
    }
}
