#!/usr/bin/env bash
# The simulated clusters of tests/scale/platform.py, proven by real programs
# under smpirun: every topology and preset loads, a link gives its nominal
# rate and latency, each fault kind changes what a program measures where it
# was placed and nowhere else, random faults repeat with their seed and the
# ground truth names what was placed.
#
#   tests/scale/platform_test.sh        (BUILD_SMPI=build-smpi by default)
#
# TAP lines "ok - ..." / "not ok - ...", then "N passed, N failed"; status 0
# only when all passed. About 25 s on two cores.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_SMPI=${BUILD_SMPI:-build-smpi}
case "$BUILD_SMPI" in /*) ;; *) BUILD_SMPI="$TOP/$BUILD_SMPI" ;; esac
GEN="$TOP/tests/scale/platform.py"
T=$(mktemp -d "${TMPDIR:-/tmp}/commsweep-platform.XXXXXX")
trap 'rm -rf "$T"' EXIT
PASSED=0 FAILED=0
START=$SECONDS

ok() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
not_ok() { FAILED=$((FAILED + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && echo "#   $2"; return 0; }
check() { # DESCRIPTION COMMAND... : ok when the command succeeds
    local what=$1; shift
    if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# Within PCT percent of the expected value.
near() { awk -v v="$1" -v e="$2" -v p="$3" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(v != "" && d <= e * p / 100) }'; }

gen() { "$GEN" "$@" > "$T/gen.out" 2> "$T/gen.err"; }

read -r -a CFG <<< "$("$GEN" cfg --line)"

# smpirun NP PLATFORM HOSTFILE PROGRAM ARGS...: its output in $T/run.out
smpi() {
    local np=$1 platform=$2 hosts=$3; shift 3
    timeout 120 smpirun -np "$np" -platform "$platform" -hostfile "$hosts" "${CFG[@]}" -quiet "$@" \
        > "$T/run.out" 2> "$T/run.err"
}

# The last data line's second column of an OSU table.
osu_value() { awk '!/^#/ && NF >= 2 { v = $2 } END { print v }' "$T/run.out"; }

# bw PREFIX A B: MB/s of osu_bw from node A to node B on PREFIX.so
bw() {
    printf '%s\n%s\n' "$2" "$3" > "$T/pair.hosts"
    smpi 2 "$1.so" "$T/pair.hosts" "$BUILD_SMPI/osu/osu_bw" -m 4194304:4194304 -i 4 -x 1 && osu_value
}

# lat PREFIX A B: us of osu_latency at 8 bytes (enough iterations that the
# first one's start-up skew is under 1%)
lat() {
    printf '%s\n%s\n' "$2" "$3" > "$T/pair.hosts"
    smpi 2 "$1.so" "$T/pair.hosts" "$BUILD_SMPI/osu/osu_latency" -m 8:8 -i 200 -x 2 && osu_value
}

# expect_near DESCRIPTION VALUE EXPECTED PCT
expect_near() {
    if near "$2" "$3" "$4"; then ok "$1 ($2, expected $3)"; else not_ok "$1" "got '$2', expected $3 within $4%"; fi
}

# route SHAPE... A B: the cables from A to B, one a line
route() {
    local a=${*: -2:1} b=${*: -1}
    "$GEN" "${@:1:$#-2}" --route "$a,$b"
}

if ! command -v smpirun > /dev/null; then
    not_ok "smpirun found" "SimGrid's SMPI (libsimgrid-dev) is needed"
    echo "$PASSED passed, $FAILED failed"; exit 1
fi
for p in osu_hello osu_bw osu_latency; do
    if [ ! -x "$BUILD_SMPI/osu/$p" ]; then
        not_ok "$BUILD_SMPI/osu/$p built" "run make SMPI=1 first"
        echo "$PASSED passed, $FAILED failed"; exit 1
    fi
done

# ---------------------------------------------------------------- the generator itself

check "platform.py --help names the topologies and fault kinds" \
    bash -c "'$GEN' --help | grep -q dragonfly && '$GEN' --help | grep -q node-send"
check "platform.py cfg gives the nominal-rate settings" \
    bash -c "'$GEN' cfg | grep -qx -- '--cfg=smpi/bw-factor:0:1' && '$GEN' cfg | grep -qx -- '--cfg=network/crosstraffic:0'"
check "platform.py presets lists the Frontier-like dragonfly" bash -c "'$GEN' presets | grep -q '^frontier '"
"$GEN" preset fattree-16 --fault link:s1.0-s1.1 > /dev/null 2> "$T/e"
rc=$?
check "a cable that does not exist is refused with status 2 and one line" \
    test "$rc" = 2 -a "$(wc -l < "$T/e")" = 1
check "faults need the .so platform, not a bare .xml" \
    bash -c "! '$GEN' preset fattree-16 --platform '$T/x.xml' --fault node:node1 2> /dev/null"

# ---------------------------------------------------------------- every topology loads

# hello NAME RANKS GENERATOR-ARGS...: generates and runs osu_hello on it
hello() {
    local name=$1 ranks=$2 out="$T/hello"; shift 2
    if ! gen "$@" -o "$out"; then
        not_ok "$name generates" "$(head -3 "$T/gen.err")"; return 1
    fi
    if smpi "$ranks" "$out.so" "$out.hosts" "$BUILD_SMPI/osu/osu_hello" &&
        grep -q "This is a test with $ranks processes" "$T/run.out"; then
        ok "$name loads: osu_hello on $ranks ranks ($(head -1 "$T/gen.out" | sed 's/^# //; s/;.*//'))"
    else
        not_ok "$name loads: osu_hello on $ranks ranks" "$(head -3 "$T/run.err")"; return 1
    fi
}

for p in fattree-16 fattree-64 torus-64; do
    hello "$p" "${p#*-}" preset "$p"
done
for p in fattree-256 dragonfly-256 torus-256; do
    hello "$p" 256 preset "$p"
done
for p in fattree-1024 fattree-4096 dragonfly-1024 torus-1024; do
    hello "$p" 256 preset "$p" --use-nodes 256 --spread
done
hello "fat tree of 1000 nodes" 256 fattree --nodes 1000 --use-nodes 256 --spread
hello "fat tree of 997 nodes (rounded up)" 256 fattree --nodes 997 --use-nodes 256 --spread
hello "3-level fat tree with a 4:1 taper" 128 fattree --down 8,4,4 --up 1,2,4 --ports 1,1,1
hello "dragonfly of 300 nodes" 300 dragonfly --nodes 300
hello "2-D torus of 400 nodes" 256 torus --nodes 400 --ndims 2 --use-nodes 256 --spread
hello "fattree-64 with 2 ranks a node" 128 preset fattree-64 --ranks-per-node 2
t0=$SECONDS
hello "frontier (9,408 nodes)" 256 preset frontier --use-nodes 256 --spread &&
    check "frontier generates and loads in under 15 s" test $((SECONDS - t0)) -lt 15
check "frontier has 9,408 nodes in 74 groups" \
    bash -c "'$GEN' preset frontier --json | grep -q '\"nodes\": 9408' && '$GEN' preset frontier --json | grep -q '\"groups\": 74'"

# ---------------------------------------------------------------- nominal rate and latency

# nominal NAME LINKS_ON_ROUTE GENERATOR-ARGS...: far pair at the link rate,
# latency the links' sum
nominal() {
    local name=$1 links=$2; shift 2
    gen "$@" --far-pair -o "$T/n" || { not_ok "$name generates" "$(head -3 "$T/gen.err")"; return; }
    local a b
    { read -r a; read -r b; } < "$T/n.hosts"
    local hops
    hops=$(route "$@" "$a" "$b" | wc -l)
    check "$name: the far pair $a, $b is $links links apart" test "$hops" = "$links"
    expect_near "$name: osu_bw $a to $b gives the link rate" "$(bw "$T/n" "$a" "$b")" 25000 2
    expect_near "$name: osu_latency $a to $b is $links x 0.5 us" "$(lat "$T/n" "$a" "$b")" \
        "$(awk -v n="$links" 'BEGIN { print n * 0.5 }')" 3
}

nominal "fattree-64" 4 preset fattree-64
nominal "fattree-1024" 6 preset fattree-1024
nominal "dragonfly-256" 5 preset dragonfly-256
nominal "torus-64" 6 preset torus-64

gen preset fattree-16 --bw 100Gbps --lat 1us --far-pair -o "$T/slow"
expect_near "--bw 100Gbps: osu_bw gives 12.5 GB/s" "$(bw "$T/slow" node0 node15)" 12500 2
expect_near "--lat 1us: osu_latency across 4 links gives 4 us" "$(lat "$T/slow" node0 node15)" 4 3

# SMPI's own defaults fit an Ethernet cluster of 2011: the reason for cfg.
printf 'node0\nnode15\n' > "$T/pair.hosts"
timeout 60 smpirun -np 2 -platform "$T/slow.so" -hostfile "$T/pair.hosts" --cfg=smpi/privatization:mmap \
    --log=xbt_cfg.thres:warning --log=smpi_config.thres:warning -quiet \
    "$BUILD_SMPI/osu/osu_latency" -m 8:8 -i 200 -x 2 > "$T/run.out" 2> /dev/null
default_lat=$(osu_value)
check "without the cfg settings SMPI scales latency ($default_lat us instead of 4)" \
    awk -v v="$default_lat" 'BEGIN { exit !(v != "" && (v < 3.8 || v > 4.2)) }'

# ---------------------------------------------------------------- placed faults, fat tree

# In fattree-64 node0..7 are on leaf s1.0, node56..63 on s1.7. Routes go
# up by destination (d-mod-k): node0 to node57 leaves s1.0 by one uplink,
# node0 to another destination may leave by another, and the way back
# comes down a cable that the one-way fault leaves alone.
up_cable=$(route preset fattree-64 node0 node57 | sed -n 2p)
gen preset fattree-64 -o "$T/f" --fault node:node1:0.5 --fault node-send:node2:0.5 \
    --fault "uplink:$up_cable:0.5" --fault latency:node3:5us --fault link:s1.5-s2.0:0.25
expect_near "node fault: osu_bw from node1 is halved" "$(bw "$T/f" node1 node60)" 12500 2
expect_near "node fault: osu_bw to node1 is halved" "$(bw "$T/f" node60 node1)" 12500 2
expect_near "node-send fault: osu_bw from node2 is halved" "$(bw "$T/f" node2 node60)" 12500 2
expect_near "node-send fault: osu_bw to node2 is not" "$(bw "$T/f" node60 node2)" 25000 2
expect_near "uplink fault on $up_cable: node0 to node57 (up through it) is halved" \
    "$(bw "$T/f" node0 node57)" 12500 2
expect_near "uplink fault on $up_cable: node57 to node0 (down, or elsewhere) is not" \
    "$(bw "$T/f" node57 node0)" 25000 2
other=$(for d in $(seq 8 55); do route preset fattree-64 node0 "node$d" | grep -qx "$up_cable" || { echo "node$d"; break; }; done)
expect_near "uplink fault on $up_cable: node0 to $other (another uplink) is not" "$(bw "$T/f" node0 "$other")" 25000 2
read -r la lb <<< "$("$GEN" preset fattree-64 --pair-through s1.5-s2.0)"
expect_near "link fault x0.25 on s1.5-s2.0: $la to $lb is quartered" "$(bw "$T/f" "$la" "$lb")" 6250 2
expect_near "link fault x0.25 on s1.5-s2.0: $lb to $la (down it) too" "$(bw "$T/f" "$lb" "$la")" 6250 2
expect_near "latency fault: osu_latency from node3 gains 5 us" "$(lat "$T/f" node3 node60)" 7 3
expect_near "latency fault: other pairs keep 2 us" "$(lat "$T/f" node4 node60)" 2 3

# ---------------------------------------------------------------- placed faults, dragonfly and torus

# dragonfly-256: 8 groups of 32 nodes; the global link g0-g7 is a bundle of
# 4 cables (100 GB/s), so a tenth of it is 10 GB/s.
gen preset dragonfly-256 -o "$T/d" --fault link:g0-g7:0.1 --fault uplink:g1r0-g1r2:0.5 \
    --fault latency:g2r1-g2r5:10us
expect_near "dragonfly global link fault: group 0 to group 7 at 10 GB/s" "$(bw "$T/d" node5 node250)" 10000 2
expect_near "dragonfly global link fault: group 7 to group 0 too" "$(bw "$T/d" node250 node5)" 10000 2
expect_near "dragonfly global link fault: group 0 to group 6 is not" "$(bw "$T/d" node5 node200)" 25000 2
expect_near "dragonfly local uplink: g1r0 to g1r2 halved" "$(bw "$T/d" node32 node40)" 12500 2
expect_near "dragonfly local uplink: g1r2 to g1r0 not" "$(bw "$T/d" node40 node32)" 25000 2
expect_near "dragonfly local latency: g2r1 to g2r5 gains 10 us" "$(lat "$T/d" node68 node84)" 11.5 3

gen preset torus-64 -o "$T/t" --fault node-send:node21:0.5 --fault link:node40+z:0.25
expect_near "torus node-send fault: node21 to node22 halved" "$(bw "$T/t" node21 node22)" 12500 2
expect_near "torus node-send fault: node22 to node21 not" "$(bw "$T/t" node22 node21)" 25000 2
expect_near "torus link fault: node56 to node40 quartered" "$(bw "$T/t" node56 node40)" 6250 2

# ---------------------------------------------------------------- random faults and the ground truth

rnd() { gen preset fattree-256 --seed "$1" --random-faults node=2,node-send=1,uplink=1,link=1,latency=1@10us -o "$T/r$1"; }
rnd 11 && cp "$T/r11.truth.json" "$T/first.json" && cp "$T/r11.loader.c" "$T/first.c" && rnd 11
check "the same seed draws the same faults" cmp -s "$T/first.json" "$T/r11.truth.json"
check "the same seed writes the same platform" cmp -s "$T/first.c" "$T/r11.loader.c"
rnd 12
check "another seed draws other faults" bash -c "! cmp -s '$T/r11.truth.json' '$T/r12.truth.json'"

# Every link the truth names is set in the loader to the value the fault
# gives, and the loader sets no other link.
check "the ground truth names exactly the links the platform changes" python3 - "$T/r11.truth.json" "$T/r11.loader.c" <<'EOF'
import json, re, sys
truth = json.load(open(sys.argv[1]))
rows = re.findall(r'\{"([^"]+)", ([-0-9.e+]+), ([-0-9.e+]+)\}', open(sys.argv[2]).read())
placed = {name: (float(bw), float(lat)) for name, bw, lat in rows}
kinds = sorted(f["kind"] for f in truth["faults"])
assert kinds == sorted(["node", "node", "node-send", "uplink", "link", "latency"]), kinds
named = set()
for f in truth["faults"]:
    assert f["nodes"] and f["element"], f
    for link in f["links"]:
        bw, lat = placed[link]
        if f["kind"] == "latency":
            assert abs(lat - (truth["latency"] + f["added_latency"])) < 1e-12, (link, lat)
        else:
            assert abs(bw - truth["bandwidth"] * f["factor"]) < 1, (link, bw)
        named.add(link)
    if f["kind"] == "node":
        assert len(f["links"]) == 2 and f["nodes"] == [f["element"]]
    if f["kind"] in ("node-send", "uplink"):
        assert len(f["links"]) == 1 and f["links"][0].endswith("_UP"), f
assert named == set(placed), set(placed) ^ named
EOF

# What the truth names is what a program measures.
read -r rnode rfactor < <(python3 -c "
import json; t = json.load(open('$T/r11.truth.json'))
f = next(f for f in t['faults'] if f['kind'] == 'node'); print(f['element'], f['factor'])")
far=$( [ "$rnode" = node255 ] && echo node0 || echo node255 )
expect_near "random node fault on $rnode: osu_bw from it at x$rfactor" "$(bw "$T/r11" "$rnode" "$far")" \
    "$(awk -v f="$rfactor" 'BEGIN { print 25000 * f }')" 2
rup=$(python3 -c "
import json; t = json.load(open('$T/r11.truth.json'))
print(next(f['element'] for f in t['faults'] if f['kind'] == 'uplink'))")
read -r rsrc rdst <<< "$("$GEN" preset fattree-256 --pair-through "$rup")"
# Every factor drawn is 0.5, so another fault on the same route leaves the
# expected rate as it is.
expect_near "random uplink fault on $rup: $rsrc to $rdst at x0.5" "$(bw "$T/r11" "$rsrc" "$rdst")" 12500 2

echo "# $((SECONDS - START)) s"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
