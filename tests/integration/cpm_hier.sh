#!/usr/bin/env bash
# CPM hierarchy tools on one machine, whose ranks play hosts through the
# test hook COMMSWEEP_FAKE_HOSTS (the r-th name for rank r): ranks2hosts
# and generate_hierarchy_input_file against their exact output (the
# seed's grouping, with and without prefixes), hierarchical_model --plan on
# the generated file, hierarchical_model for three models, with the seed's
# two processes for a one-group hierarchy and, spawning helpers on the
# hosts the run lacks, for one of two groups, the models read by prediction
# and the pairs that share a link equal; bad input refused. Across real
# hosts: tests/cluster (check_cpm_hier).
. "$(dirname "$0")/../lib.sh"
GEN="$BUILD/cpm/generate_hierarchy_input_file"
R2H="$BUILD/cpm/ranks2hosts"
HM="$BUILD/cpm/hierarchical_model"
PRED="$BUILD/cpm/prediction"
export COMMSWEEP_FAKE_HOSTS=fast1.east.lab,fast2.east.lab,slow1.west.lab,slow2.west.lab,fast1.east.lab
SMALL="-m 0 -M 65536 -S 32768 -r 3 -R 5"

# same WANT_FILE: data lines of $OUT are exactly those of WANT_FILE.
same() { diff <(data_lines) "$1" > "$TMPD/diff" && return 0; cat "$TMPD/diff"; return 1; }

cat > "$TMPD/r2h" <<'DOT'
digraph ranks2hosts {
    "fast1.east.lab" [shape=box];
    "fast1.east.lab" -> 0;
    "fast1.east.lab" -> 4;
    "fast2.east.lab" [shape=box];
    "fast2.east.lab" -> 1;
    "slow1.west.lab" [shape=box];
    "slow1.west.lab" -> 2;
    "slow2.west.lab" [shape=box];
    "slow2.west.lab" -> 3;
}
DOT
run 5 "$R2H"
expect_success "ranks2hosts at 5 ranks: 4 hosts, ranks 0 and 4 on fast1, as a DOT list" same "$TMPD/r2h"
expect 'grep -q "^# host names: from COMMSWEEP_FAKE_HOSTS" "$OUT"' "ranks2hosts says the names come from the test hook"

cat > "$TMPD/gen" <<'DOT'
digraph hierarchy {
    "all hosts" [type=1, model_data=""];
    "*.east.lab" [type=1, model_data=""];
    "fas*.east.lab" [type=1, model_data=""];
    "fast1.east.lab" [type=0, model_data="fast1.east.lab"];
    "fast2.east.lab" [type=0, model_data="fast2.east.lab"];
    "*.west.lab" [type=1, model_data=""];
    "slo*.west.lab" [type=1, model_data=""];
    "slow1.west.lab" [type=0, model_data="slow1.west.lab"];
    "slow2.west.lab" [type=0, model_data="slow2.west.lab"];
    "all hosts" -> "*.east.lab";
    "*.east.lab" -> "fas*.east.lab";
    "fas*.east.lab" -> "fast1.east.lab";
    "fas*.east.lab" -> "fast2.east.lab";
    "all hosts" -> "*.west.lab";
    "*.west.lab" -> "slo*.west.lab";
    "slo*.west.lab" -> "slow1.west.lab";
    "slo*.west.lab" -> "slow2.west.lab";
}
DOT
run 5 "$GEN"
expect_success "generate_hierarchy_input_file at 5 ranks: domains, then three characters" same "$TMPD/gen"
cp "$OUT" "$TMPD/h.out"
COMMSWEEP_FAKE_HOSTS=node01,nodeb1,node02,other run 4 "$GEN" node0 nodeb no
expect '[ "$RC" = 0 ] && grep -qx "    \"node0\*\" -> \"node02\";" "$OUT" && grep -qx "    \"nodeb\*\" -> \"nodeb1\";" "$OUT" &&
        grep -qx "    \"all hosts\" -> \"oth\*\";" "$OUT"' \
    "generate_hierarchy_input_file node0 nodeb no: the longest prefix groups, else three characters"

run1 "$HM" -i "$TMPD/h.out" --plan
expect '[ "$RC" = 0 ] && [ "$(data_lines | tr "\n" " ")" = "fast1.east.lab fast2.east.lab slow1.west.lab slow2.west.lab " ] &&
        grep -q "^# links to measure: 3 for the 6 pairs of 4 hosts" "$OUT"' \
    "hierarchical_model --plan on the generated file: 3 links, the 4 hosts a run needs"

# A chain of 200,000 nested groups (11 MB, inside the reader's limits) over
# two hosts: the plan is linear in the nodes. Finding each group's first
# host by walking down from it took minutes here, so a bound of 30 s
# tells the two apart (the plan itself takes about a second).
awk 'BEGIN { n = 200000; print "digraph chain {"
    for (i = 0; i < n; i++) print "  g" i " [type=1, model_data=\"\"];"
    print "  a [type=0, model_data=\"a\"];"; print "  b [type=0, model_data=\"b\"];"
    for (i = 0; i < n - 1; i++) print "  g" i " -> g" i + 1 ";"
    print "  g" n - 1 " -> a;"; print "  g" n - 1 " -> b;"; print "}" }' > "$TMPD/chain.dot"
TEST_TIMEOUT=30 run1 "$HM" -i "$TMPD/chain.dot" --plan
expect '[ "$RC" = 0 ] && [ "$(data_lines | tr "\n" " ")" = "a b " ] && grep -q "^# links to measure: 1 for the 1 pairs of 2 hosts" "$OUT"' \
    "hierarchical_model --plan on 200,000 nested groups: one link, in seconds (status $RC)"

# Pairs i-j of a Hockney file whose parameters are the same as those of k-l.
same_pair() { # FILE I J K L
    awk -v a="$2 $3" -v b="$4 $5" '$1 " " $2 == a { x = $3 " " $4 } $1 " " $2 == b { y = $3 " " $4 }
        END { exit !(x != "" && x == y) }' "$1"
}
run 5 "$HM" -C Hockney -i "$TMPD/h.out" -o "$TMPD/hm.model" $SMALL
expect '[ "$RC" = 0 ] && grep -q "^processes 4$" "$TMPD/hm.model" && grep -q "^# link 0: fast1.east.lab - slow1.west.lab (ranks 0, 2), between the parts of \"all hosts\", for 4 pairs$" "$OUT"' \
    "hierarchical_model -C Hockney at 5 ranks: a model of the 4 hosts from 3 links"
expect 'same_pair "$TMPD/hm.model" 0 2 1 3 && same_pair "$TMPD/hm.model" 0 3 1 2 && same_pair "$TMPD/hm.model" 0 2 0 3' \
    "hierarchical_model: the 4 pairs across the domains share the link between them"
run1 "$PRED" -n 4 -O p2p -i "$TMPD/hm.model" -C Hockney -m 1024 -M 1024
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 12 ]' "prediction reads the hierarchical model: every ordered pair"
for model in PLogP LinInterp; do
    run 4 "$HM" -C $model -i "$TMPD/h.out" -o "$TMPD/hm.$model" $SMALL -p
    run1 "$PRED" -n 4 -O p2p -i "$TMPD/hm.$model" -C $model -m 1024 -M 1024
    expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 12 ]' \
        "hierarchical_model -C $model -p at 4 ranks, read by prediction"
done

# The seed's example runs two processes: one group of four hosts, one link.
cat > "$TMPD/one.h" <<'DOT'
digraph cluster { "c" [type=1, model_data=""];
  "n1" [type=0, model_data="node1"]; "n2" [type=0, model_data="node2"];
  "n3" [type=0, model_data="node3"]; "n4" [type=0, model_data="node4"];
  "c" -> "n1"; "c" -> "n2"; "c" -> "n3"; "c" -> "n4" }
DOT
COMMSWEEP_FAKE_HOSTS=node3,node2 run 2 "$HM" -C Hockney -i "$TMPD/one.h" -o "$TMPD/one.model" $SMALL
expect '[ "$RC" = 0 ] && grep -q "^processes 4$" "$TMPD/one.model" && [ "$(grep -c "^[0-9]" "$TMPD/one.model")" = 6 ] &&
        [ "$(awk "/^[0-9]/ {print \$3, \$4}" "$TMPD/one.model" | sort -u | wc -l)" = 1 ] &&
        grep -q "^# link 0: node2 - node3 (ranks 1, 0)" "$OUT"' \
    "hierarchical_model at 2 ranks: 4 hosts of one group from one link, its hosts found by name"

refused 3 hierarchical_model "hierarchical_model --no-spawn refused when the run misses a host a link needs" \
    "$HM" -C Hockney -i "$TMPD/h.out" -o "$TMPD/x.model" $SMALL --no-spawn
expect 'grep -q "line 16: the links among the 2 hosts directly below \"slo\*.west.lab\"" "$ERR"' \
    "... naming the group and its line"
# The seed's two processes on a hierarchy of two groups: helpers spawned on
# the two hosts the run lacks (under the test hook without a host key, each
# taking the name it was spawned for), three links measured.
# MPICH's launcher here (Hydra) refuses MPI_Comm_spawn ("Error in spawn
# call"): there the refusal is what is checked, one line and no file.
COMMSWEEP_FAKE_HOSTS=fast1.east.lab,fast2.east.lab run 2 "$HM" -C Hockney -i "$TMPD/h.out" \
    -o "$TMPD/spawn.model" $SMALL
case "$MPIEXEC" in
*mpich*)
    expect '[ "$RC" != 0 ] && [ ! -e "$TMPD/spawn.model" ] && [ "$(wc -l < "$ERR")" = 1 ] &&
            grep -q "^hierarchical_model: MPI_Comm_spawn of a helper on hosts slow1.west.lab, slow2.west.lab was refused: " "$ERR"' \
        "hierarchical_model at 2 ranks on 4 hosts of two groups under MPICH: the spawn refused in one line (status $RC)"
    ;;
*)
expect '[ "$RC" = 0 ] && grep -q "^processes 4$" "$TMPD/spawn.model" && [ "$(grep -c "^[0-9]" "$TMPD/spawn.model")" = 6 ] &&
        grep -q "^# spawned: 2 helpers (MPI_Comm_spawn), ranks 2 to 3 of the measurement$" "$OUT" &&
        grep -q "^# process 3: slow2.west.lab (a helper spawned there)$" "$OUT" &&
        grep -q "^# link 2: slow1.west.lab - slow2.west.lab (ranks 2, 3), within" "$OUT" &&
        same_pair "$TMPD/spawn.model" 0 2 1 3' \
    "hierarchical_model at 2 ranks on 4 hosts of two groups: helpers spawned on the 2 others, 3 links"
    ;;
esac
COMMSWEEP_FAKE_HOSTS=fast1.east.lab,fast2.east.lab run 2 "$HM" -C Hockney -i "$TMPD/h.out" \
    -o "$TMPD/spawn-x.model" $SMALL --spawn-host slow1.west.lab=nosuchhost.invalid --spawn-timeout 20
expect '[ "$RC" != 0 ] && [ "$(grep -c "^hierarchical_model: MPI_Comm_spawn of a helper on hosts slow1.west.lab (as nosuchhost.invalid), slow2.west.lab \(was refused\|did not return\)" "$ERR")" = 1 ] &&
        [ ! -e "$TMPD/spawn-x.model" ]' \
    "a helper the launcher cannot place: one line naming the hosts, no model file (status $RC)"
# Hosts the job lacks, under the machine's own host name (no test hook):
# the launcher cannot place the helpers. At 1, 3 and 5 ranks the run ends
# within 20 s with one line naming the hosts, every rank with status 2
# (Open MPI's mpirun itself says 1 after a refused spawn), and leaves no
# file, not even a temporary one; an output folder that does not exist is
# refused before anything is spawned.
mkdir -p "$TMPD/lacking"
for np in 1 3 5; do
    env -u COMMSWEEP_FAKE_HOSTS $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$HM" -C Hockney -i "$TMPD/h.out" \
        -o "$TMPD/lacking/x.model" $SMALL > "$OUT" 2> "$ERR" &
    pid=$! t0=$SECONDS
    while kill -0 "$pid" 2> /dev/null && [ $((SECONDS - t0)) -lt 60 ]; do sleep 0.5; done
    took=$((SECONDS - t0))
    kill -9 "$pid" 2> /dev/null
    wait "$pid"
    RC=$?
    expect "[ \"\$RC\" != 0 ] && [ $took -le 20 ] && [ \"\$(grep -c '^hierarchical_model: MPI_Comm_spawn of a helper on hosts fast1.east.lab' '$ERR')\" = 1 ] && [ -z \"\$(ls -A '$TMPD/lacking')\" ]" \
        "hierarchical_model at $np ranks, the hierarchy's hosts not in the job: one line naming them, no file, within 20 s (status $RC after $took s)"
done
env -u COMMSWEEP_FAKE_HOSTS $MPIEXEC $MPIEXEC_FLAGS -n 3 "$HM" -C Hockney -i "$TMPD/h.out" \
    -o "$TMPD/none/x.model" $SMALL > "$OUT" 2> "$ERR"
RC=$?
expect_usage_error "hierarchical_model -o in a folder that does not exist: refused before spawning" hierarchical_model
refused 0 hierarchical_model "--spawn-host without NAME refused" \
    "$HM" -C Hockney -i "$TMPD/h.out" -o "$TMPD/x.model" --spawn-host slow1.west.lab
refused 0 hierarchical_model "--spawn-host naming no host of the hierarchy refused" \
    "$HM" -C Hockney -i "$TMPD/h.out" -o "$TMPD/x.model" --spawn-host other=x
printf 'digraph h {\n  "a" [type=0, model_data="a"];\n  "b" [type=1];\n}\n' > "$TMPD/bad.h"
refused 0 hierarchical_model "hierarchical_model refuses a malformed hierarchy" \
    "$HM" -C Hockney -i "$TMPD/bad.h" -o "$TMPD/x.model"
expect 'grep -q "bad.h, line 3: \"b\" has no model_data" "$ERR"' "... with its line and why"
printf 'digraph h { "a" [type=0, model_data="node1"] }\n' > "$TMPD/lone.h"
refused 0 hierarchical_model "hierarchical_model refuses a hierarchy of one host" "$HM" -C Hockney -i "$TMPD/lone.h" -o "$TMPD/x.model"
refused 0 hierarchical_model "hierarchical_model refuses LMO" "$HM" -C LMO -i "$TMPD/h.out" -o "$TMPD/x.model"
refused 0 hierarchical_model "hierarchical_model refuses an adaptive set for LinInterp" "$HM" -C LinInterp -S 0 -i "$TMPD/h.out" -o "$TMPD/x.model"
refused 0 hierarchical_model "hierarchical_model without -i refused" "$HM" -C Hockney -o "$TMPD/x.model"
refused 0 hierarchical_model "hierarchical_model with a missing file refused" "$HM" -C Hockney -i "$TMPD/none" -o "$TMPD/x.model"
refused 0 hierarchical_model "hierarchical_model with an unknown option refused" "$HM" -C Hockney -i "$TMPD/h.out" -o "$TMPD/x.model" --bogus
refused 0 generate_hierarchy_input_file "generate_hierarchy_input_file refuses a prefix with a blank" "$GEN" "a b"
refused 0 ranks2hosts "ranks2hosts refuses an argument" "$R2H" extra
COMMSWEEP_FAKE_HOSTS=a.x,b.x refused 3 ranks2hosts "ranks2hosts refuses a test hook that names no host for a rank" "$R2H"
COMMSWEEP_FAKE_HOSTS='a x,b' refused 0 generate_hierarchy_input_file "a host name a hierarchy cannot hold is refused" "$GEN"
