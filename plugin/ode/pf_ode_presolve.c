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
 * compliance alone). The adapter then starts each row from its value (create_face_rows in
 * pf_ode_step.c) and QuickStep takes what the presolve did not see: other contacts, joints,
 * bounds.
 *
 * The matrix couples two faces that share a dynamic body, in 6 x 6 blocks. It is factored per
 * island of faces by a block Cholesky in a minimum-degree order: a chain has no fill, and a
 * pyramid's blocks stay sparse. Islands of more than PF_ODE_PRESOLVE_MAX faces are left to the
 * measured preload (P36d). Reads the world; creates nothing. */
#include "pf_ode_internal.h"

#include <math.h>
#include <stdlib.h>
#include <stdlib.h>
#include <string.h>

/* Largest island of faces solved together: its ordering and block map are quadratic in it. */
#define PF_ODE_PRESOLVE_MAX 256
/* Smallest relative compliance of a presolve row (a row whose CFM is 0 or not finite). */
#define PF_ODE_PRESOLVE_EPS 1e-9

typedef struct psFace {
    pfOdePair *p;
    int body[2];      /* island body index of body 1 / body 2, or -1 (static or kinematic) */
    double J[2][36];  /* the six rows' Jacobian on body 1 / body 2 (row-major, 6 x 6) */
    double MJ[2][36]; /* M^-1 J^T of those rows, stored as rows (row r: M^-1 J_r^T) */
    double t[6];      /* rhs: target - J v_pred */
    double c[6];      /* the rows' CFM */
    double shift[6];  /* C lambda_1: how far the rows' targets are moved (solve_island) */
    int root;         /* island (union-find root of its bodies) */
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
    PS_VP,     /* double [6 bodies]: predicted velocities */
    PS_LIST,   /* int [faces]: faces grouped by island */
    PS_POS,    /* int [faces]: island-local index of each face */
    PS_ORDER,  /* int [island]: elimination order */
    PS_RANK,   /* int [island]: elimination position of each island face */
    PS_DEG,    /* int [island] */
    PS_GRAPH,  /* unsigned char [island^2]: the filled elimination graph */
    PS_MAP,    /* int [island^2]: the factor's block of (i, j), or -1 */
    PS_BLK,    /* double [36 blocks] */
    PS_X,      /* double [6 island] */
    PS_Y,      /* double [6 island] */
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
    double *y = buf(ctx, s, PS_Y, 6 * k, sizeof(double));
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
    /* block Cholesky, right-looking, on the filled pattern */
    for (int j = 0; j < k; ++j) {
        double *Ljj = block(&F, j, j);
        if (!chol6(Ljj)) return; /* not positive: the island keeps the measured preload */
        for (int i = j + 1; i < k; ++i) {
            double *Lij = block(&F, i, j);
            if (Lij) solve_xlt(Lij, Ljj);
        }
        for (int i = j + 1; i < k; ++i) {
            const double *Lij = block(&F, i, j);
            if (!Lij) continue;
            for (int l = j + 1; l <= i; ++l) {
                const double *Llj = block(&F, l, j);
                if (Llj) mul_abt(block(&F, i, l), Lij, Llj, -1.0);
            }
        }
    }
    /* lambda_1 for t, then lambda for t - C lambda_1, the velocities lambda_1 reaches; the
     * rows then aim at those (P36e): the targets a loop cannot meet all at once are replaced by
     * the nearest it can */
    for (int a = 0; a < k; ++a)
        memcpy(x + 6 * rank[a], st->f[fl[a]].t, sizeof(double) * 6);
    factor_solve(&F, x, y);
    for (int a = 0; a < k; ++a) {
        psFace *fa = &st->f[fl[a]];
        double *xa = x + 6 * rank[a];
        for (int r = 0; r < 6; ++r) {
            fa->shift[r] = fa->c[r] * xa[r];
            xa[r] = fa->t[r] - fa->shift[r];
        }
    }
    factor_solve(&F, x, y);
    for (int a = 0; a < k; ++a) {
        psFace *fa = &st->f[fl[a]];
        const double *xa = x + 6 * rank[a];
        for (int r = 0; r < 6; ++r)
            fa->shift[r] += fa->c[r] * xa[r];
    }
    /* the island's solution holds where each face's lies inside what it can carry: a pressing
     * normal force, friction and moments within the rows' bounds. Elsewhere a face would slide,
     * tip or lift (or a load the presolve does not see holds it), and the island keeps the
     * measured preload and its rows' own start (P36d) */
    for (int a = 0; a < k; ++a) {
        const pfOdePair *p = st->f[fl[a]].p;
        const pfOdeRows *rs = &p->step.face_rows;
        const double *xa = x + 6 * rank[a];
        const double B[5] = {rs->b1, rs->b2, rs->bspin, rs->broll1, rs->broll2};
        if (!(xa[0] > 0.0) || !isfinite(xa[0])) return;
        for (int r = 0; r < 5; ++r)
            if (!(fabs(xa[1 + r]) < B[r]) && !(B[r] == 0.0 && xa[1 + r] == 0.0)) return;
    }
    for (int a = 0; a < k; ++a) {
        const psFace *fa = &st->f[fl[a]];
        pfOdePair *p = fa->p;
        pfOdeRows *rs = &p->step.face_rows;
        memcpy(p->step.ps, x + 6 * rank[a], sizeof p->step.ps);
        p->step.has_ps = 1;
        p->step.face_tgt[0] -= fa->shift[0];
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
    const pfOdeRows *rs = &p->step.face_rows;
    const pfOdeMobility *mb[2];
    pf_ode_pair_mobility(ctx, p, &mb[0], &mb[1]);
    const double *c = p->step.c, *n = p->step.n;
    const double *dir[3] = {n, rs->t1, rs->t2};
    const double bound[6] = {1.0, rs->b1, rs->b2, rs->bspin, rs->broll1, rs->broll2};
    const double target[6] = {
        p->step.face_tgt[0], rs->m1,       rs->m2, rs->spin_motor ? rs->spin_vel : 0.0,
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
    psStep st = {buf(ctx, s, PS_FACE, nf, sizeof(psFace)),
                 0,
                 buf(ctx, s, PS_BODY, mb, sizeof(dBodyID)),
                 0,
                 buf(ctx, s, PS_MOB, mb, sizeof(const pfOdeMobility *)),
                 buf(ctx, s, PS_PARENT, mb, sizeof(int)),
                 buf(ctx, s, PS_ADJS, mb + 1, sizeof(int)),
                 buf(ctx, s, PS_ADJ, mb, sizeof(int)),
                 buf(ctx, s, PS_POS, nf, sizeof(int)),
                 buf(ctx, s, PS_VP, 6 * mb, sizeof(double)),
                 h};
    int *fill = buf(ctx, s, PS_FILL, mb, sizeof(int)),
        *list = buf(ctx, s, PS_LIST, nf, sizeof(int));
    if (!st.f || !st.body || !st.mob || !st.parent || !st.adj_start || !st.adj || !st.pos ||
        !st.vp || !fill || !list)
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
    for (int i = 0; i < st.nb; ++i)
        st.parent[i] = i;
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
        if (end - start <= PF_ODE_PRESOLVE_MAX)
            solve_island(ctx, s, &st, list + start, end - start);
        start = end;
    }
}
