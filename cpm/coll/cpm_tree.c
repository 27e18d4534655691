/* cpm_tree: tree builders and tree predictions; see cpm_tree.h. */
#include "cpm_tree.h"

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_predict.h"

static int tree_alloc(int n, bool with_bytes, struct cpm_tree *t)
{
    t->n = n;
    t->order = malloc((size_t)n * sizeof *t->order);
    t->size = malloc((size_t)n * sizeof *t->size);
    t->bytes = with_bytes ? malloc((size_t)n * sizeof *t->bytes) : NULL;
    if (!t->order || !t->size || (with_bytes && !t->bytes)) {
        cpm_tree_free(t);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

void cpm_tree_free(struct cpm_tree *t)
{
    free(t->order);
    free(t->size);
    free(t->bytes);
    t->order = t->size = NULL;
    t->bytes = NULL;
    t->n = 0;
}

int cpm_tree_from(int n, const int *order, const int *size, const size_t *bytes,
                  struct cpm_tree *t)
{
    if (n < 1)
        return MPI_ERR_ARG;
    int rc = tree_alloc(n, bytes != NULL, t);
    if (rc != MPI_SUCCESS)
        return rc;
    memcpy(t->order, order, (size_t)n * sizeof *order);
    memcpy(t->size, size, (size_t)n * sizeof *size);
    if (bytes)
        memcpy(t->bytes, bytes, (size_t)n * sizeof *bytes);
    return MPI_SUCCESS;
}

int cpm_tree_find(const struct cpm_tree *t, int rank)
{
    for (int k = 0; k < t->n; k++)
        if (t->order[k] == rank)
            return k;
    return -1;
}

size_t cpm_tree_edge_bytes(const struct cpm_tree *t, int k, size_t m)
{
    if (!t->bytes)
        return m;
    size_t sum = 0;
    for (int j = k; j < k + t->size[k]; j++)
        sum += t->bytes[j];
    return sum;
}

/* Predicted transfer between a parent and a child process. */
static double edge_time(const struct cpm_predictor *p, enum cpm_tree_dir dir, int parent,
                        int child, size_t bytes)
{
    return dir == CPM_TREE_DOWN ? cpm_predict_p2p(p, parent, child, bytes)
                                : cpm_predict_p2p(p, child, parent, bytes);
}

double cpm_tree_predict(const struct cpm_tree *t, const struct cpm_predictor *p,
                        enum cpm_tree_dir dir, size_t m)
{
    if (t->n < 2)
        return 0.0;
    double *when = calloc((size_t)t->n, sizeof *when);
    if (!when)
        return -1.0;
    double result = 0.0;
    if (dir == CPM_TREE_DOWN) {
        /* Preorder puts a parent before its children. */
        for (int k = 0; k < t->n; k++) {
            double at = when[k];
            for (int j = k + 1; j < k + t->size[k]; j += t->size[j]) {
                at += edge_time(p, dir, t->order[k], t->order[j], cpm_tree_edge_bytes(t, j, m));
                when[j] = at;
                if (at > result)
                    result = at;
            }
        }
    } else {
        for (int k = t->n - 1; k >= 0; k--) {
            double at = 0.0;
            for (int j = k + 1; j < k + t->size[k]; j += t->size[j]) {
                if (when[j] > at)
                    at = when[j];
                at += edge_time(p, dir, t->order[k], t->order[j], cpm_tree_edge_bytes(t, j, m));
            }
            when[k] = at;
        }
        result = when[0];
    }
    free(when);
    return result;
}

void cpm_tree_dot(FILE *f, const struct cpm_tree *t, const struct cpm_predictor *p,
                  enum cpm_tree_dir dir, size_t m, const char *title)
{
    fprintf(f, "digraph tree {\n  label=\"%s\";\n  node [shape=circle];\n", title);
    fprintf(f, "  \"%d\" [shape=doublecircle];\n", t->order[0]);
    for (int k = 0; k < t->n; k++) {
        int seq = 1;
        for (int j = k + 1; j < k + t->size[k]; j += t->size[j], seq++) {
            size_t b = cpm_tree_edge_bytes(t, j, m);
            int from = dir == CPM_TREE_DOWN ? t->order[k] : t->order[j];
            int to = dir == CPM_TREE_DOWN ? t->order[j] : t->order[k];
            fprintf(f, "  \"%d\" -> \"%d\" [label=\"%d: %zu B", from, to, seq, b);
            if (p)
                fprintf(f, ", %.3g s", edge_time(p, dir, t->order[k], t->order[j], b));
            fprintf(f, "\"];\n");
        }
    }
    fprintf(f, "}\n");
}

/* Whether a tree of n processes of the predictor can have this root (the
 * predictor predicts and describes at least n processes), and
 * the bytes of all processes (bytes[rank], or m each) fit in a size_t:
 * their sum, in *total, is what the largest edge of a scatter carries. */
static bool tree_args_valid(const struct cpm_predictor *p, int n, int root, size_t m,
                            const size_t *bytes, size_t *total)
{
    /* p->n 0: a program's own predictor, which states no count. */
    return n >= 1 && root >= 0 && root < n && (p->n == 0 || n <= p->n) &&
           (p->p2p || p->predict_p2p) && cpm_bytes_total(n, m, bytes, total) == 0;
}

/* ---- binomial ---- */

/* Lowest set bit of a position, or the next power of two >= n for 0. */
static int low_mask(int v, int n)
{
    if (v)
        return v & -v;
    int mask = 1;
    while (mask < n)
        mask <<= 1;
    return mask;
}

/* Positions below the edge to position v (> 0). */
static int span(int v, int n)
{
    int s = v & -v;
    return s < n - v ? s : n - v;
}

/* Emits position v's subtree in preorder, children in communication order
 * (down: largest subtree first). */
static int emit_binomial(int v, int n, const int *proc, enum cpm_tree_dir dir,
                         const size_t *bytes, struct cpm_tree *t, int k)
{
    t->order[k] = proc[v];
    t->size[k] = v ? span(v, n) : n;
    if (bytes)
        t->bytes[k] = bytes[proc[v]];
    int next = k + 1;
    int top = low_mask(v, n);
    if (dir == CPM_TREE_DOWN) {
        for (int mask = top >> 1; mask > 0; mask >>= 1)
            if (v + mask < n)
                next = emit_binomial(v + mask, n, proc, dir, bytes, t, next);
    } else {
        for (int mask = 1; mask < top; mask <<= 1)
            if (v + mask < n)
                next = emit_binomial(v + mask, n, proc, dir, bytes, t, next);
    }
    return next;
}

struct chooser {
    const struct cpm_predictor *p;
    enum cpm_tree_dir dir;
    enum cpm_next_node next;
    int n;
    bool *used;
    size_t m; /* bytes per edge, or per process when per_process */
    bool per_process;
};

/* Fills position v (parent's process q) with the best free process; returns
 * the predicted transfer time. */
static double choose(struct chooser *c, int v, int q, int *proc)
{
    size_t b = c->per_process ? c->m * (size_t)span(v, c->n) : c->m;
    int best = -1;
    double best_t = 0.0;
    for (int r = 0; r < c->n; r++) {
        if (c->used[r])
            continue;
        double time = edge_time(c->p, c->dir, q, r, b);
        if (best < 0 || (c->next == CPM_NEXT_MIN ? time < best_t : time > best_t)) {
            best = r;
            best_t = time;
        }
    }
    c->used[best] = true;
    proc[v] = best;
    return best_t;
}

static void visit_dfs(struct chooser *c, int v, int *proc)
{
    /* Smallest subtree first: the largest ends up on the right. */
    for (int mask = 1; mask < low_mask(v, c->n); mask <<= 1)
        if (v + mask < c->n) {
            choose(c, v + mask, proc[v], proc);
            visit_dfs(c, v + mask, proc);
        }
}

static void visit_bfs(struct chooser *c, int *proc, int *queue)
{
    int head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int mask = low_mask(v, c->n) >> 1; mask > 0; mask >>= 1)
            if (v + mask < c->n) {
                choose(c, v + mask, proc[v], proc);
                queue[tail++] = v + mask;
            }
    }
}

/* First child of v in send order, or next sibling after child w: -1 if none. */
static int first_child(int v, int n)
{
    for (int mask = low_mask(v, n) >> 1; mask > 0; mask >>= 1)
        if (v + mask < n)
            return v + mask;
    return -1;
}
static int next_sibling(int w, int n)
{
    int parent = w & (w - 1);
    for (int mask = (w & -w) >> 1; mask > 0; mask >>= 1)
        if (parent + mask < n)
            return parent + mask;
    return -1;
}

/* Uniform cost search: the frontier holds the positions whose transfer can
 * start (parent placed, earlier siblings placed) with their start time; the
 * earliest is placed next. */
static void visit_ucs(struct chooser *c, int *proc, double *start, bool *open)
{
    int n = c->n;
    for (int v = 0; v < n; v++)
        open[v] = false;
    int f = first_child(0, n);
    if (f < 0)
        return;
    open[f] = true;
    start[f] = 0.0;
    for (;;) {
        int w = -1;
        for (int v = 0; v < n; v++)
            if (open[v] && (w < 0 || start[v] < start[w]))
                w = v;
        if (w < 0)
            return;
        open[w] = false;
        double arrival = start[w] + choose(c, w, proc[w & (w - 1)], proc);
        int s = next_sibling(w, n), ch = first_child(w, n);
        if (s >= 0) {
            open[s] = true;
            start[s] = arrival;
        }
        if (ch >= 0) {
            open[ch] = true;
            start[ch] = arrival;
        }
    }
}

int cpm_tree_binomial(const struct cpm_predictor *p, int n, int root, enum cpm_tree_dir dir,
                      enum cpm_tree_search search, enum cpm_next_node next, size_t m,
                      const size_t *bytes, struct cpm_tree *t)
{
    size_t total = 0;
    if (!tree_args_valid(p, n, root, m, bytes, &total))
        return MPI_ERR_ARG;
    int *proc = malloc((size_t)n * sizeof *proc);
    int *queue = malloc((size_t)n * sizeof *queue);
    bool *used = calloc((size_t)n, sizeof *used);
    bool *open = malloc((size_t)n * sizeof *open);
    double *start = malloc((size_t)n * sizeof *start);
    int rc = MPI_ERR_NO_MEM;
    if (proc && queue && used && open && start) {
        struct chooser c = {p, dir, next, n, used, m, bytes != NULL};
        if (bytes)
            c.m = total / (size_t)n;
        proc[0] = root;
        used[root] = true;
        if (search == CPM_TREE_DFS)
            visit_dfs(&c, 0, proc);
        else if (search == CPM_TREE_BFS)
            visit_bfs(&c, proc, queue);
        else
            visit_ucs(&c, proc, start, open);
        rc = tree_alloc(n, bytes != NULL, t);
        if (rc == MPI_SUCCESS)
            emit_binomial(0, n, proc, dir, bytes, t, 0);
    }
    free(proc);
    free(queue);
    free(used);
    free(open);
    free(start);
    return rc;
}

/* ---- sorted flat ---- */

struct keyed {
    int rank;
    double time;
};
static int by_time(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->rank - y->rank;
}
static int by_time_desc(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->time != y->time)
        return x->time > y->time ? -1 : 1;
    return x->rank - y->rank;
}

int cpm_tree_sorted_flat(const struct cpm_predictor *p, int n, int root, enum cpm_tree_dir dir,
                         enum cpm_sort_order order, size_t m, const size_t *bytes,
                         struct cpm_tree *t)
{
    size_t total = 0;
    if (!tree_args_valid(p, n, root, m, bytes, &total))
        return MPI_ERR_ARG;
    struct keyed *k = malloc((size_t)n * sizeof *k);
    if (!k)
        return MPI_ERR_NO_MEM;
    int count = 0;
    for (int r = 0; r < n; r++)
        if (r != root) {
            k[count].rank = r;
            k[count++].time = edge_time(p, dir, root, r, bytes ? bytes[r] : m);
        }
    qsort(k, (size_t)count, sizeof *k, order == CPM_SORT_ASC ? by_time : by_time_desc);
    int rc = tree_alloc(n, bytes != NULL, t);
    if (rc == MPI_SUCCESS) {
        t->order[0] = root;
        t->size[0] = n;
        for (int j = 0; j < count; j++) {
            t->order[j + 1] = k[j].rank;
            t->size[j + 1] = 1;
        }
        if (bytes)
            for (int j = 0; j < n; j++)
                t->bytes[j] = bytes[t->order[j]];
    }
    free(k);
    return rc;
}

/* ---- Traff ---- */

struct traff {
    int *kids;  /* n x slots: children of each process in merge order */
    int *nkids; /* n */
    int slots;
};

static int emit_traff(const struct traff *tr, int proc, enum cpm_tree_dir dir,
                      const size_t *bytes, struct cpm_tree *t, int k)
{
    t->order[k] = proc;
    if (bytes)
        t->bytes[k] = bytes[proc];
    int next = k + 1, nk = tr->nkids[proc];
    for (int i = 0; i < nk; i++) {
        /* Up: receive in merge order; down: send the last merged first. */
        int child = tr->kids[(size_t)proc * (size_t)tr->slots + (size_t)(dir == CPM_TREE_UP ? i : nk - 1 - i)];
        next = emit_traff(tr, child, dir, bytes, t, next);
    }
    t->size[k] = next - k;
    return next;
}

int cpm_tree_traff(const struct cpm_predictor *p, int n, int root, enum cpm_tree_dir dir,
                   size_t m, const size_t *bytes, struct cpm_tree *t)
{
    size_t total = 0;
    if (!tree_args_valid(p, n, root, m, bytes, &total))
        return MPI_ERR_ARG;
    int slots = 1;
    while ((1 << (slots - 1)) < n)
        slots++;
    struct traff tr = {malloc((size_t)n * (size_t)slots * sizeof(int)),
                       calloc((size_t)n, sizeof(int)), slots};
    int *roots = malloc((size_t)n * sizeof *roots);
    size_t *part = malloc((size_t)n * sizeof *part);
    int rc = MPI_ERR_NO_MEM;
    if (tr.kids && tr.nkids && roots && part) {
        int count = n;
        for (int r = 0; r < n; r++) {
            roots[r] = (r + root) % n;
            part[r] = bytes ? bytes[roots[r]] : m;
        }
        while (count > 1) {
            int merged = 0;
            for (int i = 0; i < count; i += 2) {
                if (i + 1 == count) {
                    roots[merged] = roots[i];
                    part[merged++] = part[i];
                    continue;
                }
                int a = roots[i], b = roots[i + 1];
                /* The cost of a keeping the tree: b's data moves between b and a. */
                double a_keeps = edge_time(p, dir, a, b, part[i + 1]);
                double b_keeps = edge_time(p, dir, b, a, part[i]);
                bool keep_a = i == 0 || a_keeps <= b_keeps;
                int winner = keep_a ? a : b, loser = keep_a ? b : a;
                tr.kids[(size_t)winner * (size_t)slots + (size_t)tr.nkids[winner]++] = loser;
                roots[merged] = winner;
                part[merged++] = part[i] + part[i + 1];
            }
            count = merged;
        }
        rc = tree_alloc(n, bytes != NULL, t);
        if (rc == MPI_SUCCESS)
            emit_traff(&tr, root, dir, bytes, t, 0);
    }
    free(tr.kids);
    free(tr.nkids);
    free(roots);
    free(part);
    return rc;
}
