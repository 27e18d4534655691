/* host: see host.h. */
#include "host.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

/* Room for any name Linux gives (HOST_NAME_MAX is 64) and more. */
static char name[256];
static int error;
static bool read_already;

static void read_once(void)
{
    if (read_already)
        return;
    read_already = true;
    if (gethostname(name, sizeof name) != 0) {
        error = errno;
        snprintf(name, sizeof name, "?");
    }
    /* gethostname need not terminate a name that it cut. */
    name[sizeof name - 1] = '\0';
}

const char *host_name(void)
{
    read_once();
    return name;
}

int host_name_error(void)
{
    read_once();
    return error;
}
