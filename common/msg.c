/* msg: int-count descriptions of messages of any size; see msg.h. */
#include "msg.h"

/* Chunks of 2^30 elements: a multiple of every page size and far below INT_MAX. */
#define MSG_CHUNK ((size_t)1 << 30)

int msg_type_make(size_t count, MPI_Datatype base, struct msg_type *m)
{
    m->derived = 0;
    if (count <= MSG_INT_LIMIT) {
        m->type = base;
        m->count = (int)count;
        return 0;
    }
    size_t chunks = count / MSG_CHUNK, rest = count % MSG_CHUNK;
    MPI_Datatype chunk, body;
    MPI_Aint lb, extent;
    if (MPI_Type_get_extent(base, &lb, &extent) != MPI_SUCCESS)
        return -1;
    if (MPI_Type_contiguous((int)MSG_CHUNK, base, &chunk) != MPI_SUCCESS)
        return -1;
    if (MPI_Type_contiguous((int)chunks, chunk, &body) != MPI_SUCCESS) {
        MPI_Type_free(&chunk);
        return -1;
    }
    MPI_Type_free(&chunk);
    if (rest == 0) {
        m->type = body;
    } else {
        int lens[2] = {1, (int)rest};
        MPI_Aint displs[2] = {0, (MPI_Aint)(chunks * MSG_CHUNK) * extent};
        MPI_Datatype types[2] = {body, base};
        int rc = MPI_Type_create_struct(2, lens, displs, types, &m->type);
        MPI_Type_free(&body);
        if (rc != MPI_SUCCESS)
            return -1;
    }
    if (MPI_Type_commit(&m->type) != MPI_SUCCESS)
        return -1;
    m->count = 1;
    m->derived = 1;
    return 0;
}

void msg_type_free(struct msg_type *m)
{
    if (m->derived)
        MPI_Type_free(&m->type);
    m->derived = 0;
}
