# Sourced by the env files of Cray systems (frontier, perlmutter): GSL and
# hwloc, which the Cray programming environment does not load. Each is
# taken from its module where the site has one (module load gsl, hwloc),
# else from GSL_DIR / HWLOC_DIR (an install prefix: include/ and lib/ or
# lib64/), else from the system's own packages; the build's first step
# (machines/check-deps.sh) names the one still missing and how to get it.

# Adds PREFIX's headers and libraries to the compiler's and loader's paths.
cray_deps_use_prefix() { # PREFIX
    local lib
    [ -d "$1/include" ] && export CPATH="$1/include${CPATH:+:$CPATH}"
    for lib in "$1/lib64" "$1/lib"; do
        [ -d "$lib" ] || continue
        export LIBRARY_PATH="$lib${LIBRARY_PATH:+:$LIBRARY_PATH}"
        export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    done
}

# NAME (module name), VAR (the prefix variable a user may set), and the
# variables sites' modules set for the prefix (OLCF: OLCF_GSL_ROOT; NERSC
# and Spack-generated modules: GSL_DIR, GSL_ROOT).
cray_deps_load() { # NAME VAR [MODULE_VARS...]
    local name=$1 var=$2 v
    shift 2
    if [ -z "${!var:-}" ] && command -v module > /dev/null 2>&1; then
        module load "$name" > /dev/null 2>&1 ||
            echo "commsweep: no $name module here; set $var to an install of $name" \
                "(or rely on the system's packages)" >&2
    fi
    for v in "$var" "$@"; do
        if [ -n "${!v:-}" ]; then
            cray_deps_use_prefix "${!v}"
            return 0
        fi
    done
}

cray_deps_load gsl GSL_DIR OLCF_GSL_ROOT GSL_ROOT
cray_deps_load hwloc HWLOC_DIR OLCF_HWLOC_ROOT HWLOC_ROOT
