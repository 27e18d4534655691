/* fabric_load: --topology for the network-map programs; see fabric_load.h. */
#include "fabric_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "infile.h"
#include "out.h"

#define TOPOLOGY_MAX_BYTES ((size_t)256 << 20)

static const char *slurm_topology(void)
{
    static char path[4096];
    const char *conf = getenv("SLURM_CONF");
    if (conf && *conf) {
        const char *slash = strrchr(conf, '/');
        int dir = slash ? (int)(slash - conf) : 1;
        snprintf(path, sizeof path, "%.*s/topology.conf", dir, slash ? conf : ".");
    } else {
        snprintf(path, sizeof path, "/etc/slurm/topology.conf");
    }
    return path;
}

/* The whole file, or NULL with the reason in err. */
static char *read_text(const char *path, char *err, size_t errlen)
{
    FILE *in = infile_open(path, err, errlen);
    if (!in)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    while (text) {
        if (len + 1 == cap) {
            if (cap >= TOPOLOGY_MAX_BYTES) {
                snprintf(err, errlen, "larger than %zu MiB", TOPOLOGY_MAX_BYTES >> 20);
                free(text);
                text = NULL;
                break;
            }
            char *more = realloc(text, cap * 2);
            if (!more) {
                free(text);
                text = NULL;
                break;
            }
            text = more;
            cap *= 2;
        }
        size_t got = fread(text + len, 1, cap - 1 - len, in);
        len += got;
        if (got == 0) {
            if (ferror(in)) {
                snprintf(err, errlen, "%s", strerror(errno));
                free(text);
                text = NULL;
            }
            break;
        }
    }
    const char *nul = text ? memchr(text, '\0', len) : NULL;
    if (nul) {
        /* Read as a C string, it would end there without a word. */
        snprintf(err, errlen, "a NUL byte at offset %zu: not a text file", (size_t)(nul - text));
        free(text);
        text = NULL;
    }
    if (text)
        text[len] = '\0';
    else if (!err[0])
        snprintf(err, errlen, "out of memory");
    fclose(in);
    return text;
}

/* The printing rank reads and parses the topology; every rank gets the
 * switch and group numbers. Collective over the world. */
void netmap_load_fabric(const struct netmap *nm, const char *topology_path, struct fabric *f,
                        const char *none_text)
{
    size_t n = (size_t)nm->endpoints;
    char err[600] = "", why[256] = "";
    bool bad = false;
    bool xnames = topology_path && strcmp(topology_path, "xname") == 0;
    if (xnames && nm->hosts) {
        const char **hosts = malloc((n ? n : 1) * sizeof *hosts);
        for (size_t e = 0; hosts && e < n; e++)
            hosts[e] = netmap_host(nm, (int)e);
        if (!hosts || fabric_from_xnames(hosts, n, f, why, sizeof why)) {
            snprintf(err, sizeof err, "--topology=xname: %.255s", hosts ? why : "out of memory");
            bad = true;
        }
        free(hosts);
    } else if (topology_path && nm->hosts) {
        const char *path = strcmp(topology_path, "slurm") == 0 ? slurm_topology() : topology_path;
        char *text = read_text(path, why, sizeof why);
        const char **hosts = malloc((n ? n : 1) * sizeof *hosts);
        if (text && hosts) {
            for (size_t e = 0; e < n; e++)
                hosts[e] = netmap_host(nm, (int)e);
            if (fabric_parse(text, hosts, n, f, why, sizeof why)) {
                snprintf(err, sizeof err, "%.300s: %.255s", path, why);
                bad = true;
            }
        } else {
            snprintf(err, sizeof err, "cannot read the topology %.300s: %.255s", path,
                     why[0] ? why : "out of memory");
            bad = true;
        }
        free(text);
        free(hosts);
    }
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_USAGE, "%s", err);
    if (!nm->hosts && fabric_alloc(n, f))
        err_fatal("cannot allocate the topology of %zu endpoints", n);
    if (!topology_path && nm->hosts && fabric_none(n, f))
        err_fatal("cannot allocate the topology of %zu endpoints", n);
    MPI_CHECK(MPI_Bcast(f->sw, (int)n, MPI_INT, 0, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Bcast(f->group, (int)n, MPI_INT, 0, MPI_COMM_WORLD));
    if (topology_path && nm->hosts)
        out_comment("topology: %s (%zu of %d endpoints placed, %zu switch%s, %zu group%s)",
                    xnames ? "the host names (xnames: cabinet as group, chassis as switch)"
                    : strcmp(topology_path, "slurm") == 0 ? slurm_topology()
                                                          : topology_path,
                    f->placed, nm->endpoints, f->nswitches, f->nswitches == 1 ? "" : "es",
                    f->ngroups, f->ngroups == 1 ? "" : "s");
    else
        out_comment("topology: %s", none_text);
}

