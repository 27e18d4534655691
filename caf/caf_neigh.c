/* caf_neigh: pairings and neighbour lists; see caf_neigh.h. */
#include "caf_neigh.h"

#include <stdbool.h>

const char *const caf_mode_names[] = {"single", "multiple", "crossing", NULL};

const char *caf_pairing_for(enum caf_mode mode, int rank, int size, struct caf_pairing *p)
{
    p->role = CAF_IDLE;
    p->partner = -1;
    if (mode == CAF_SINGLE) {
        if (size < 2)
            return "needs at least 2 images (image 1 and the last image are the same)";
        if (rank == 0 || rank == size - 1) {
            p->role = rank == 0 ? CAF_FIRST : CAF_SECOND;
            p->partner = rank == 0 ? size - 1 : 0;
        }
        return NULL;
    }
    if (size % 2 != 0)
        return "needs an even number of images";
    if (size <= 2)
        return "needs an even number of images above 2";
    int half = size / 2, pair = rank % half;
    bool lower = rank < half;
    bool reversed = mode == CAF_CROSSING && pair % 2 == 1;
    p->partner = lower ? rank + half : rank - half;
    p->role = lower != reversed ? CAF_FIRST : CAF_SECOND;
    return NULL;
}

int caf_neigh_pairwise(int rank, int size)
{
    if (size < 2 || size % 2 != 0)
        return -1;
    int half = size / 2;
    return rank < half ? rank + half : rank - half;
}

int caf_neigh_cap(int maxneigh, int size)
{
    int n = maxneigh < size - 2 ? maxneigh : size - 2;
    if (n < 0)
        return 0;
    return n - n % 2;
}

static int wrap(long v, int size) { return (int)(((v % size) + size) % size); }

size_t caf_neigh_ring(int rank, int size, int nneigh, int *out)
{
    size_t n = 0;
    for (int d = 1; d <= nneigh / 2; d++) {
        out[n++] = wrap((long)rank - d, size);
        out[n++] = wrap((long)rank + d, size);
    }
    return n;
}

/* splitmix64: a small generator whose sequence is the same everywhere. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void caf_neigh_permutation(int size, uint64_t seed, int *perm)
{
    uint64_t state = seed;
    for (int i = 0; i < size; i++)
        perm[i] = i;
    for (int i = size - 1; i > 0; i--) {
        int j = (int)(next_random(&state) % (uint64_t)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

size_t caf_neigh_random(int rank, int size, int nneigh, uint64_t seed, int *out)
{
    int perm[size];
    caf_neigh_permutation(size, seed, perm);
    int position = 0;
    for (int i = 0; i < size; i++)
        if (perm[i] == rank)
            position = i;
    size_t n = caf_neigh_ring(position, size, nneigh, out);
    for (size_t k = 0; k < n; k++)
        out[k] = perm[out[k]];
    return n;
}

void caf_grid_coords(int rank, const int dims[3], int coords[3])
{
    coords[2] = rank % dims[2];
    coords[1] = (rank / dims[2]) % dims[1];
    coords[0] = rank / (dims[2] * dims[1]);
}

int caf_grid_rank(const int coords[3], const int dims[3])
{
    return (coords[0] * dims[1] + coords[1]) * dims[2] + coords[2];
}

void caf_neigh_grid(int rank, const int dims[3], int out[6])
{
    int c[3];
    caf_grid_coords(rank, dims, c);
    for (int d = 0; d < 3; d++) {
        int saved = c[d];
        c[d] = wrap((long)saved - 1, dims[d]);
        out[2 * d] = caf_grid_rank(c, dims);
        c[d] = wrap((long)saved + 1, dims[d]);
        out[2 * d + 1] = caf_grid_rank(c, dims);
        c[d] = saved;
    }
}

void caf_neigh_halo(int rank, const int dims[3], int out[6])
{
    int grid[6];
    caf_neigh_grid(rank, dims, grid);
    for (int a = 0; a < 3; a++) {
        out[2 * a] = grid[2 * (2 - a)];
        out[2 * a + 1] = grid[2 * (2 - a) + 1];
    }
}

size_t caf_neigh_distinct(int rank, int *list, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        bool seen = list[i] == rank;
        for (size_t k = 0; k < count && !seen; k++)
            seen = list[k] == list[i];
        if (!seen)
            list[count++] = list[i];
    }
    return count;
}
