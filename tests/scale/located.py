#!/usr/bin/env python3
"""What netmap/locate named against the ground truth of a platform.

    located.py PREFIX OUTPUT       (PREFIX.truth.json and PREFIX.topology)

Prints one line per problem (nothing when the findings are exactly the
faults) and, with --summary, one line "faults F found H false N" on
stdout. A finding matches a fault when:
  - a node finding names the fault's node (a node slow only when sending:
    as sender);
  - a route finding's near side (the switch of an uplink or downlink, the
    group of a group uplink, either switch or group of the links between
    two, either node of a pair's route) lies within one side of the
    fault's cable: the nodes behind its lower switch (a fat tree), a
    router's or a group's nodes (a dragonfly).
Every fault must be matched by a finding, and every finding must match a
fault; a finding that matches none is a false name. netmap/pairs' culprit
lines are read too (a link's near sides: its two nodes).
"""
import json
import re
import sys

NODE = re.compile(r"# culprit \((\w+)\): node (\S+) \(endpoint \d+, switch \S+\) as "
                  r"(sender|receiver|round trips):")
# netmap/pairs' lines, so that the two can be tabled side by side.
PAIRS_NODE = re.compile(r"# culprit \((\w+), \w+\): endpoint \d+ \((\S+)\) as (sender|receiver):")
PAIRS_LINK = re.compile(r"# culprit \((\w+), \w+\): link \d+ -> \d+ \((\S+) -> (\S+)\):")
ROUTE = re.compile(r"# culprit \((\w+)\): (.*?): slow from (.+?) to (.+?); ")
SHAPES = [
    (re.compile(r"an uplink of switch (\S+) "), "switch"),
    (re.compile(r"an uplink out of group (\S+) "), "group"),
    (re.compile(r"a downlink of switch (\S+) "), "switch"),
    (re.compile(r"the links between switches (\S+) and (\S+?)(?:,|$)"), "switch"),
    (re.compile(r"the links between groups (\S+) and (\S+?)(?:,|$)"), "group"),
    (re.compile(r"the route from (\S+) to (\S+) only"), "node"),
]


def read_topology(path):
    switch, group = {}, {}
    for line in open(path):
        line = line.split("#")[0].split()
        if len(line) >= 2:
            switch.setdefault(line[1], set()).add(line[0])
            group.setdefault(line[2] if len(line) > 2 else line[1], set()).add(line[0])
    return switch, group


def near_sides(words, switch, group):
    """The node sets a route finding's element may lie in."""
    for pattern, kind in SHAPES:
        m = pattern.search(words)
        if not m:
            continue
        table = {"switch": switch, "group": group}.get(kind)
        return [table.get(name, set()) if table else {name} for name in m.groups()]
    return []


def main(argv):
    summary = "--summary" in argv
    argv = [a for a in argv if a != "--summary"]
    prefix, output = argv[1], argv[2]
    truth = json.load(open(prefix + ".truth.json"))
    switch, group = read_topology(prefix + ".topology")
    faults = truth["faults"]
    matched = [False] * len(faults)
    problems = []
    false_names = 0
    for line in open(output):
        m = NODE.match(line) or PAIRS_NODE.match(line)
        if m:
            metric, host, role = m.groups()
            hit = False
            for i, f in enumerate(faults):
                if f["kind"] in ("node", "node-send") and host in f["nodes"] and \
                        (f["kind"] == "node" or role == "sender") and metric == "bandwidth":
                    matched[i] = hit = True
                elif f["kind"] == "latency" and host in f["nodes"] and metric == "latency":
                    matched[i] = hit = True
            if not hit:
                false_names += 1
                problems.append("a false name: " + line.strip()[:200])
            continue
        m = ROUTE.match(line)
        p = PAIRS_LINK.match(line)
        if not m and not p:
            continue
        metric = (m or p).group(1)
        sides = near_sides(m.group(2), switch, group) if m else [{p.group(2)}, {p.group(3)}]
        hit = False
        for i, f in enumerate(faults):
            if f["kind"] not in ("link", "uplink", "latency") or f["kind"] == "latency" and f["element"] in f["nodes"]:
                continue
            ends = [set(e) for e in f["ends"] if e]
            if any(s and any(s <= e for e in ends) for s in sides):
                matched[i] = hit = True
        if not hit:
            false_names += 1
            problems.append("a false name: " + line.strip()[:200])
    for i, f in enumerate(faults):
        if not matched[i]:
            problems.append("not found: %s %s (%s)" % (f["kind"], f["element"], f["where"]))
    for p in problems:
        print(p)
    if summary:
        print("faults %d found %d false %d" % (len(faults), sum(matched), false_names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
