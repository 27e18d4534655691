#!/bin/bash
# Before anything is compiled: are the libraries the build needs there? Each
# one named is probed with the build's own compiler and flags (a header
# compiled and a symbol linked), and a missing one is named with how to get
# it, instead of a compiler error deep inside the build.
#   MPICC=... CFLAGS=... LDFLAGS=... machines/check-deps.sh hwloc gsl [cmocka]
# The Makefile runs it: hwloc and GSL for every program, cmocka only for the
# unit tests (make check). Exit status 2 when one is missing.
set -u
: "${MPICC:=mpicc}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME: the header, the test program's body, the libraries, how to get it.
probe() { # NAME
    case $1 in
    mpi)
        hdr='#include <mpi.h>'
        body='return MPI_Init(0, 0);'
        libs=
        how="MPICC=$MPICC does not compile and link an MPI program: install an MPI library
(Debian: openmpi-bin libopenmpi-dev) or give MPICC=<your MPI compiler wrapper>" ;;
    hwloc)
        hdr='#include <hwloc.h>'
        body='hwloc_topology_t t; return hwloc_topology_init(&t);'
        libs=-lhwloc
        how="hwloc (hwloc.h, -lhwloc) is missing: install libhwloc-dev (Debian, Ubuntu) or
hwloc-devel (RHEL, SLES); on a Cray system load its module (module load hwloc) or set
HWLOC_DIR to an install (machines/*/env add its include and lib folders)" ;;
    gsl)
        hdr='#include <gsl/gsl_cdf.h>'
        body='return gsl_cdf_tdist_Pinv(0.975, 3.0) > 0 ? 0 : 1;'
        libs='-lgsl -lgslcblas -lm'
        how="GSL (gsl/gsl_cdf.h, -lgsl) is missing: install libgsl-dev (Debian, Ubuntu) or
gsl-devel (RHEL, SLES); on a Cray system load its module (module load gsl) or set GSL_DIR
to an install (machines/*/env add its include and lib folders)" ;;
    cmocka)
        hdr='#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>'
        body='return _cmocka_run_group_tests("probe", 0, 0, 0, 0) ? 0 : 0;'
        libs=-lcmocka
        how="cmocka (cmocka.h, -lcmocka) is missing; only the unit tests need it (make check,
make unit-tests), a plain make does not: install libcmocka-dev (Debian, Ubuntu) or
libcmocka-devel (RHEL, SLES)" ;;
    *)
        echo "check-deps.sh: unknown library '$1'" >&2
        exit 2 ;;
    esac
    printf '%s\nint main(void) { %s }\n' "$hdr" "$body" > "$tmp/$1.c"
    # shellcheck disable=SC2086 # flags are word lists
    $MPICC ${CFLAGS:-} -o "$tmp/$1" "$tmp/$1.c" ${LDFLAGS:-} $libs > "$tmp/$1.log" 2>&1
}

bad=0
for lib in "$@"; do
    if ! probe "$lib"; then
        echo "commsweep: $how" >&2
        echo "  (probe: $(grep -m1 -iE 'error|undefined|not found' "$tmp/$lib.log"))" >&2
        bad=1
    fi
done
[ "$bad" = 0 ] || exit 2
