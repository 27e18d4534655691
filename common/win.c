/* win: see win.h. */
#include "win.h"

#include <string.h>

size_t win_padded_size(size_t bytes)
{
    return bytes == 0 ? WIN_ALIGN : (bytes + WIN_ALIGN - 1) / WIN_ALIGN * WIN_ALIGN;
}

int win_allocate(size_t bytes, int disp_unit, MPI_Info info, MPI_Comm comm, void *base_ptr,
                 MPI_Win *win)
{
    size_t padded = win_padded_size(bytes);
    int rc = MPI_Win_allocate((MPI_Aint)padded, disp_unit, info, comm, base_ptr, win);
    if (rc == MPI_SUCCESS)
        memset(*(void **)base_ptr, 0, padded);
    return rc;
}
