# A throw-away single-node Slurm cluster for tests (sourced, needs root).
#
#   cluster_start DIR CPUS   munged, slurmctld and slurmd with every file
#                            (key, sockets, state, spool, logs, slurm.conf)
#                            under DIR; exports SLURM_CONF for the clients.
#                            The folders above DIR must be searchable by the
#                            munge user.
#   cluster_stop             stops what cluster_start started, by PID
#   cluster_logs             the tail of every daemon log (for failures)
#
# Nothing is installed or changed outside DIR: the distribution packages do
# not start their services, and a system-wide munged or slurmctld may not
# exist. Ports are chosen among free ones so two clusters can coexist.
# Every wait is bounded by CLUSTER_WAIT seconds.

CLUSTER_WAIT=${CLUSTER_WAIT:-30}
CLUSTER_DIR=
CLUSTER_PIDS=()

# True when something listens on 127.0.0.1:PORT.
cluster_port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A free TCP port between 20000 and 59999 (random start, linear probe).
cluster_free_port() {
    local p=$((20000 + RANDOM % 40000)) tries=0
    while cluster_port_busy "$p" || [ "$p" = "${CLUSTER_PORT_TAKEN:-}" ]; do
        p=$((p + 1)); tries=$((tries + 1))
        [ "$p" -ge 60000 ] && p=20000
        [ "$tries" -ge 1000 ] && return 1
    done
    echo "$p"
}

# Waits until COMMAND succeeds, at most CLUSTER_WAIT seconds.
cluster_wait_for() { # DESCRIPTION COMMAND...
    local what=$1; shift
    local deadline=$((SECONDS + CLUSTER_WAIT))
    until "$@" >/dev/null 2>&1; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "cluster: timed out after ${CLUSTER_WAIT}s waiting for $what" >&2
            return 1
        fi
        sleep 0.5
    done
}

# Reads a daemon's PID file once it exists and remembers the PID.
cluster_track_pid() { # PIDFILE NAME
    cluster_wait_for "$2 to write $1" test -s "$1" || return 1
    CLUSTER_PIDS+=("$(cat "$1")")
}

cluster_write_conf() { # CPUS CTLD_PORT SLURMD_PORT
    local host
    host=$(hostname -s)
    cat > "$CLUSTER_DIR/slurm.conf" <<EOF
ClusterName=commsweep-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$2
SlurmdPort=$3
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$CLUSTER_DIR/munge/munged.socket
StateSaveLocation=$CLUSTER_DIR/state
SlurmdSpoolDir=$CLUSTER_DIR/spool
SlurmctldPidFile=$CLUSTER_DIR/slurmctld.pid
SlurmdPidFile=$CLUSTER_DIR/slurmd.pid
SlurmctldLogFile=$CLUSTER_DIR/log/slurmctld.log
SlurmdLogFile=$CLUSTER_DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
# The node may declare more CPUs than the machine has (tests oversubscribe).
SlurmdParameters=config_overrides
InactiveLimit=0
KillWait=5
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$1 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
}

cluster_start() { # DIR CPUS
    CLUSTER_DIR=$1
    local cpus=$2 ctld_port slurmd_port
    mkdir -p "$CLUSTER_DIR"/{munge,state,spool,log} || return 1
    # munged runs as the munge user and insists on a folder it owns that
    # nobody else may write to, on a path everyone may search.
    chmod 755 "$CLUSTER_DIR" "$CLUSTER_DIR/log" "$CLUSTER_DIR/munge"
    mungekey --create --keyfile="$CLUSTER_DIR/munge/munge.key" --bits=1024 2>/dev/null ||
        dd if=/dev/urandom of="$CLUSTER_DIR/munge/munge.key" bs=128 count=1 status=none
    chmod 600 "$CLUSTER_DIR/munge/munge.key"
    chown -R munge:munge "$CLUSTER_DIR/munge"

    runuser -u munge -- munged \
        --socket="$CLUSTER_DIR/munge/munged.socket" \
        --key-file="$CLUSTER_DIR/munge/munge.key" \
        --pid-file="$CLUSTER_DIR/munge/munged.pid" \
        --log-file="$CLUSTER_DIR/munge/munged.log" \
        --seed-file="$CLUSTER_DIR/munge/munged.seed" || {
        echo "cluster: munged did not start" >&2; return 1; }
    cluster_track_pid "$CLUSTER_DIR/munge/munged.pid" munged || return 1
    cluster_wait_for "munge to answer" \
        sh -c "munge -n -S '$CLUSTER_DIR/munge/munged.socket' | unmunge -S '$CLUSTER_DIR/munge/munged.socket'" ||
        return 1

    ctld_port=$(cluster_free_port) || return 1
    slurmd_port=$(CLUSTER_PORT_TAKEN=$ctld_port cluster_free_port) || return 1
    cluster_write_conf "$cpus" "$ctld_port" "$slurmd_port"
    export SLURM_CONF="$CLUSTER_DIR/slurm.conf"

    slurmctld -f "$SLURM_CONF" -i || { echo "cluster: slurmctld did not start" >&2; return 1; }
    cluster_track_pid "$CLUSTER_DIR/slurmctld.pid" slurmctld || return 1
    cluster_wait_for "slurmctld to answer" scontrol ping || return 1

    slurmd -f "$SLURM_CONF" || { echo "cluster: slurmd did not start" >&2; return 1; }
    cluster_track_pid "$CLUSTER_DIR/slurmd.pid" slurmd || return 1
    cluster_wait_for "the node to become idle" \
        sh -c "sinfo -h -N -o '%T' | grep -qE '^idle'"
}

cluster_logs() {
    local f
    for f in "$CLUSTER_DIR"/log/*.log "$CLUSTER_DIR"/munge/munged.log; do
        [ -s "$f" ] || continue
        echo "== $f"
        tail -n 15 "$f"
    done
}

# Stops the daemons in reverse order of start: TERM, then KILL after a bounded wait.
cluster_stop() {
    local i pid deadline
    for ((i = ${#CLUSTER_PIDS[@]} - 1; i >= 0; i--)); do
        pid=${CLUSTER_PIDS[i]}
        kill -TERM "$pid" 2>/dev/null || continue
        deadline=$((SECONDS + 10))
        while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
        kill -KILL "$pid" 2>/dev/null
    done
    CLUSTER_PIDS=()
}
