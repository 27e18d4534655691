#!/bin/sh
# fake_node.sh PER_NODE PROGRAM ARGS...: runs PROGRAM, one MPI rank, in a UTS
# namespace of its own whose host name is node<rank / PER_NODE>, so that
# OMB 7.4's fan tests, which find nodes by host name, see blocks of PER_NODE
# ranks as nodes on one machine. For record.sh; needs unshare(1) and the
# right to use it (root).
per=$1
shift
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:?no rank variable from the launcher}}
exec unshare --uts sh -c 'hostname "$0" && exec "$@"' "node$((rank / per))" "$@"
