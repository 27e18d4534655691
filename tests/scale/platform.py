#!/usr/bin/env python3
"""Simulated clusters for the scale tests: SimGrid 3.32 platforms with faults.

Writes a platform (fat tree, dragonfly or torus, up to thousands of nodes),
a host file for smpirun's -hostfile, and the ground truth of the faults
placed in it: nodes whose link runs at a fraction of its rate (both ways or
only when sending), slowed switch-to-switch links, extra latency. The tests
compare the culprits the programs name with that truth.

The platform smpirun takes is PREFIX.so, a few lines of C compiled here (cc,
or $CC): it loads PREFIX.xml and then sets the faulty links, which SimGrid
3.32's XML cannot do for its own clusters. Give smpirun a path with a '/'.

    platform.py preset fattree-64 -o /tmp/ft --fault node:node3:0.5
    platform.py dragonfly --nodes 1024 -o /tmp/df --seed 7 --random-faults node=2,link=1
    platform.py cfg          # the smpirun --cfg arguments every run must use

Run `platform.py --help` and `platform.py TOPOLOGY --help` for the details.
"""

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
from xml.sax.saxutils import quoteattr

DEFAULT_BW = 25e9        # B/s: a 200 Gb/s NIC
DEFAULT_LAT = 500e-9     # s per link: a switch hop plus its cable
DEFAULT_LOOPBACK_BW = 100e9
DEFAULT_LOOPBACK_LAT = 100e-9
DEFAULT_FACTOR = 0.5
DEFAULT_EXTRA_LAT = 5e-6
HOST_SPEED = "1Gf"       # unused: computation is not simulated (see CFG)

# Why each setting (see `platform.py cfg --why`): SMPI's defaults model a
# TCP cluster of 2011, not the links described here. Each was measured on a
# fat tree of 25 GB/s, 0.5 us links (osu_bw 4 MiB, osu_latency 8 B, 4 links).
CFG = [
    ("smpi/bw-factor:0:1",
     "a message gets the link's rate, not 0.94 of it (23.46 -> 24.99 GB/s)"),
    ("smpi/lat-factor:0:1",
     "a message pays the route's latency, not twice it (4.04 -> 2.01 us)"),
    ("network/crosstraffic:0",
     "no acknowledgements taking 5% of the way back (osu_bibw 47.6 -> 50.0 GB/s)"),
    ("network/solver:fairbottleneck",
     "flows on one link get equal shares: SimGrid's max-min weights them by "
     "their routes' latency, so a pair 2 links apart got twice the share of "
     "one 4 links apart (16.7 and 8.3 GB/s of a 25 GB/s link, now 12.5 each)"),
    ("smpi/simulate-computation:no",
     "time between MPI calls is not measured on the real machine and "
     "injected: runs are deterministic and only the network is simulated"),
    # The collectives: SMPI's default selector runs linear algorithms (the
    # root posts a request per rank and waits on them one by one), whose
    # simulation costs N^2 per call: 3 MPI_Reduce took 10 s at 1,024 ranks,
    # 0.7 s with a binomial tree. Its "ompi" selector picks linear ones too
    # at some sizes (a 4-byte MPI_Bcast at 1,024 ranks: 50 s). These are the
    # logarithmic algorithms MPI libraries use at scale, one per collective.
    ("smpi/barrier:ompi_tree",
     "a tree, 2 log2 N steps (the dissemination barrier, all N ranks sending "
     "in each of its log2 N rounds: 4 times the real time)"),
    ("smpi/bcast:binomial_tree", "binomial tree"),
    ("smpi/reduce:binomial",
     "binomial tree (ompi_binomial leaves the result unwritten on 1 rank)"),
    ("smpi/allreduce:redbcast",
     "a binomial reduction then a binomial broadcast, 2 log2 N steps "
     "(recursive doubling, all N ranks sending in each of its rounds: 4 times "
     "the real time, 100 calls of 8 bytes at 1,024 ranks in 50 s against 12.5)"),
    ("smpi/gather:ompi_binomial", "binomial tree"),
    ("smpi/scatter:ompi_binomial", "binomial tree"),
    ("smpi/allgather:bruck", "Bruck, log2 N rounds"),
    ("smpi/allgatherv:ompi_bruck", "Bruck, log2 N rounds"),
    ("smpi/alltoall:bruck", "Bruck, log2 N rounds"),
    ("smpi/alltoallv:ring",
     "N - 1 rounds of exchanges (Bruck's posts every request at once: 9 s at "
     "256 ranks where this takes 5; pair's stops on a count not a power of 2)"),
    ("smpi/reduce_scatter:mpich_rdb",
     "recursive doubling (ompi_basic_recursivehalving gives wrong sums at 5, 6 "
     "and 8 ranks; the rings take 100 s for one call at 1,024)"),
]
# smpi_mpi warns of MPI_Win_sync, which SMPI leaves undone: its ranks share
# one address space and see each other's stores at once.
LOG_CFG = ["--log=xbt_cfg.thres:warning", "--log=smpi_config.thres:warning",
           "--log=smpi_mpi.thres:error", "--log=smpi_coll.thres:warning"]

FAULT_KINDS = ("node", "node-send", "link", "uplink", "latency")


class UsageError(Exception):
    pass


# ---------------------------------------------------------------- units

NUMBER_UNIT = re.compile(r"\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z]*)\s*")
# SimGrid's own units, case and all: Gbps and GBps differ by 8.
BW_UNITS = {
    "Bps": 1, "kBps": 1e3, "KBps": 1e3, "MBps": 1e6, "GBps": 1e9, "TBps": 1e12,
    "KiBps": 2 ** 10, "MiBps": 2 ** 20, "GiBps": 2 ** 30,
    "bps": 1 / 8, "kbps": 1e3 / 8, "Kbps": 1e3 / 8, "Mbps": 1e6 / 8, "Gbps": 1e9 / 8, "Tbps": 1e12 / 8,
}
LAT_UNITS = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}


def _with_unit(text, units, what):
    m = NUMBER_UNIT.fullmatch(text)
    if not m or m.group(2) and m.group(2) not in units:
        raise UsageError(f"bad {what} '{text}' (a number and one of {', '.join(units)})")
    return float(m.group(1)) * units.get(m.group(2), 1)


def parse_bw(text):
    return _with_unit(text, BW_UNITS, "bandwidth")


def parse_lat(text):
    return _with_unit(text, LAT_UNITS, "latency")


def fmt_bw(bps):
    return f"{bps / 1e9:g} GB/s"


def fmt_lat(sec):
    return f"{sec * 1e6:g} us"


def xml_bw(bps):
    return f"{bps:.17g}Bps"


def xml_lat(sec):
    return f"{sec:.17g}s"


# ---------------------------------------------------------------- cables

class Cable:
    """A physical link as SimGrid holds it: one link per direction.

    fwd is the SimGrid name of the direction leaving end_names[0]; ends
    holds the host names attached behind each end (empty where the far
    side is the rest of the machine, as above a fat-tree switch)."""

    def __init__(self, name, fwd, back, bw, lat, end_names, ends):
        self.name, self.fwd, self.back = name, fwd, back
        self.bw, self.lat = bw, lat
        self.end_names, self.ends = end_names, ends


class Topology:
    """What every topology offers the generator: its hosts, its cables by
    name, routes, and the XML. Hosts are named PREFIX<index> in node order."""

    kind = None

    def __init__(self, nodes, prefix, bw, lat, loopback):
        self.nodes, self.prefix = nodes, prefix
        self.bw, self.lat, self.loopback = bw, lat, loopback

    def host(self, i):
        return f"{self.prefix}{i}"

    def host_index(self, name):
        if name.startswith(self.prefix) and name[len(self.prefix):].isdigit():
            i = int(name[len(self.prefix):])
            if i < self.nodes and self.host(i) == name:
                return i
        return None

    def hosts(self):
        return [self.host(i) for i in range(self.nodes)]

    def nic(self, i):
        """(sending link, receiving link, rate, latency) for each of node i's ports."""
        raise NotImplementedError

    def cable(self, name):
        """(Cable, True when name runs against the cable's forward direction)."""
        raise NotImplementedError

    def cable_names(self):
        raise NotImplementedError

    def route(self, a, b):
        """The cables from node a to node b, each named from the end the
        traffic enters (the name an uplink fault on that direction takes)."""
        raise NotImplementedError

    def far_pair(self):
        raise NotImplementedError

    def place(self, i):
        """(leaf switch or router, group) of node i, as the topology files
        name them: what netmap/locate's --topology takes."""
        raise NotImplementedError

    def describe(self):
        raise NotImplementedError

    def write_xml(self, out):
        raise NotImplementedError


# ---------------------------------------------------------------- fat tree

class FatTree(Topology):
    """SimGrid's own FAT_TREE cluster: routes are computed on demand (d-mod-k:
    going up, the destination's index picks the parent), so 9,408 nodes load
    in about a second with no route tables, and traffic spreads over the
    uplinks as in a real fat tree. Its links all get one rate; the fault
    loader then sets single links by their names, which follow
    FatTreeZone.cpp (3.32): link_from_<child id>_<parent id>_<creation
    index>_UP (upwards) or _DOWN, hosts numbered 0..N-1, switches from 2N-1
    downwards level by level."""

    kind = "fattree"

    def __init__(self, down, up, ports, **kw):
        if not (len(down) == len(up) == len(ports)) or not down:
            raise UsageError("fat tree: --down, --up and --ports need one value per level")
        if min(down + up + ports) < 1:
            raise UsageError("fat tree: counts must be at least 1")
        self.down, self.up, self.ports = down, up, ports
        self.levels = len(down)
        super().__init__(math.prod(down), **kw)
        self.count = [self.nodes] + [
            math.prod(up[:i + 1]) * math.prod(down[i + 1:]) for i in range(self.levels)]
        self.first_uid = [0]
        for lvl in range(self.levels):
            self.first_uid.append(self.first_uid[-1] + self.count[lvl] * up[lvl] * ports[lvl])

    def radices(self, lvl):
        return [self.down[j] if j + 1 > lvl else self.up[j] for j in range(self.levels)]

    def label(self, lvl, pos):
        digits = []
        for r in self.radices(lvl):
            digits.append(pos % r)
            pos //= r
        return digits

    def position(self, lvl, label):
        pos, scale = 0, 1
        for digit, r in zip(label, self.radices(lvl)):
            pos += digit * scale
            scale *= r
        return pos

    def node_id(self, lvl, pos):
        if lvl == 0:
            return pos
        return 2 * self.nodes - 1 - (sum(self.count[1:lvl]) + pos)

    def parent(self, lvl, pos, choice):
        lab = self.label(lvl, pos)
        lab[lvl] = choice
        return self.position(lvl + 1, lab)

    def link_name(self, lvl, pos, choice, port):
        """SimGrid's name (without _UP/_DOWN) of a child's port-th link to its choice-th parent."""
        uid = (self.first_uid[lvl] + pos * self.up[lvl] * self.ports[lvl]
               + choice * self.ports[lvl] + port)
        par = self.parent(lvl, pos, choice)
        return f"link_from_{self.node_id(lvl, pos)}_{self.node_id(lvl + 1, par)}_{uid}"

    def subtree(self, lvl, pos):
        """The hosts under a switch: a contiguous block in node order."""
        if lvl == 0:
            return [pos]
        lab = self.label(lvl, pos)
        width = math.prod(self.down[:lvl])
        base, scale = 0, 1
        for j in range(self.levels):
            if j >= lvl:
                base += lab[j] * scale
            scale *= self.down[j]
        return list(range(base, base + width))

    def switch_name(self, lvl, pos):
        return f"s{lvl}.{pos}"

    def cable_name(self, lvl, pos, choice, port):
        lower = self.host(pos) if lvl == 0 else self.switch_name(lvl, pos)
        name = f"{lower}-{self.switch_name(lvl + 1, self.parent(lvl, pos, choice))}"
        return name + (f"#{port}" if self.ports[lvl] > 1 else "")

    def cable_at(self, lvl, pos, choice, port):
        upper = self.switch_name(lvl + 1, self.parent(lvl, pos, choice))
        lower = self.host(pos) if lvl == 0 else self.switch_name(lvl, pos)
        base = self.link_name(lvl, pos, choice, port)
        below = [self.host(h) for h in self.subtree(lvl, pos)]
        return Cable(self.cable_name(lvl, pos, choice, port), base + "_UP", base + "_DOWN", self.bw, self.lat,
                     (lower, upper), (below, []))

    def nic(self, i):
        return [(c.fwd, c.back, c.bw, c.lat) for c in
                (self.cable_at(0, i, v, p) for v in range(self.up[0]) for p in range(self.ports[0]))]

    _CABLE = re.compile(r"s(\d+)\.(\d+)-s(\d+)\.(\d+)(?:#(\d+))?")

    def cable(self, name):
        m = self._CABLE.fullmatch(name)
        if not m:
            raise UsageError(f"fat tree: no cable '{name}' (names look like s1.0-s2.3, lower switch first)")
        l1, p1, l2, p2 = (int(g) for g in m.groups()[:4])
        port = int(m.group(5) or 0)
        against = l1 > l2
        if against:
            l1, p1, l2, p2 = l2, p2, l1, p1
        if not (1 <= l1 and l2 == l1 + 1 <= self.levels and p1 < self.count[l1] and p2 < self.count[l2]
                and port < self.ports[l1]):
            raise UsageError(f"fat tree: no cable '{name}'")
        lab1, lab2 = self.label(l1, p1), self.label(l2, p2)
        if any(a != b for j, (a, b) in enumerate(zip(lab1, lab2)) if j != l1):
            raise UsageError(f"fat tree: switches of '{name}' are not connected")
        return self.cable_at(l1, p1, lab2[l1], port), against

    def cable_names(self):
        for lvl in range(1, self.levels):
            for pos in range(self.count[lvl]):
                for v in range(self.up[lvl]):
                    for p in range(self.ports[lvl]):
                        yield self.cable_name(lvl, pos, v, p)

    def _in_subtree(self, lvl, pos, host):
        lab, hlab = self.label(lvl, pos), self.label(0, host)
        return all(lab[j] == hlab[j] for j in range(lvl, self.levels))

    def route(self, a, b):
        """FatTreeZone::get_local_route (3.32) step by step. Going down, its
        loop over a switch's ports carries on into the next switch's ports
        from where it stood, which picks the parallel cable: kept as it is."""
        if a == b:
            return [f"loopback of {self.host(a)}"]
        hops = []
        lvl, pos = 0, a
        while lvl == 0 or not self._in_subtree(lvl, pos, b):
            d = b
            for i in range(lvl):
                d //= self.up[i]
            d %= self.up[lvl] * self.ports[lvl]
            choice, port = d % self.up[lvl], d // self.up[lvl]
            hops.append(self.cable_name(lvl, pos, choice, port))
            lvl, pos = lvl + 1, self.parent(lvl, pos, choice)
        target = self.label(0, b)
        while lvl > 0:
            i = (a % self.ports[lvl - 1]) * self.down[lvl - 1]
            while lvl > 0 and i < self.down[lvl - 1] * self.ports[lvl - 1]:
                if i % self.down[lvl - 1] == target[lvl - 1]:
                    here = self.label(lvl, pos)
                    lab = list(here)
                    lab[lvl - 1] = i % self.down[lvl - 1]
                    child = self.position(lvl - 1, lab)
                    name = self.cable_name(lvl - 1, child, here[lvl - 1], i // self.down[lvl - 1])
                    hops.append(_flip(name))
                    lvl, pos = lvl - 1, child
                i += 1
        return hops

    def far_pair(self):
        return 0, self.nodes - 1

    def place(self, i):
        """The leaf of its first port, and the pod: the level-2 switch above
        that leaf by its first uplink (one group, 'tree', in 2 levels)."""
        leaf = self.parent(0, i, 0)
        if self.levels < 3:
            return self.switch_name(1, leaf), "tree"
        return self.switch_name(1, leaf), "pod-" + self.switch_name(2, self.parent(1, leaf, 0))

    def describe(self):
        taper = []
        for lvl in range(1, self.levels):
            if self.down[lvl - 1] != self.up[lvl] * self.ports[lvl]:
                taper.append(f"level {lvl} {self.down[lvl - 1]}:{self.up[lvl] * self.ports[lvl]}")
        return (f"fat tree, {self.levels} level{'s' if self.levels > 1 else ''}, {self.nodes} nodes, "
                f"switches per level {','.join(str(c) for c in self.count[1:])}, "
                f"down {','.join(map(str, self.down))} up {','.join(map(str, self.up))} "
                f"ports {','.join(map(str, self.ports))}"
                + (f", oversubscribed {' '.join(taper)}" if taper else "")
                + ", d-mod-k routing")

    def params(self):
        return {"down": self.down, "up": self.up, "ports": self.ports}

    def write_xml(self, out):
        vectors = [",".join(map(str, v)) for v in (self.down, self.up, self.ports)]
        topo = ";".join([str(self.levels)] + vectors)
        out.write(f'  <cluster id="fattree" prefix={quoteattr(self.prefix)} suffix="" '
                  f'radical="0-{self.nodes - 1}" speed="{HOST_SPEED}" bw="{xml_bw(self.bw)}" '
                  f'lat="{xml_lat(self.lat)}" sharing_policy="SPLITDUPLEX" topology="FAT_TREE" '
                  f'topo_parameters="{topo}" loopback_bw="{xml_bw(self.loopback[0])}" '
                  f'loopback_lat="{xml_lat(self.loopback[1])}"/>\n')


# ---------------------------------------------------------------- torus

class Torus(Topology):
    """SimGrid's own TORUS cluster: one host per router, dimension-order
    routing (the lower dimension first), links named by TorusZone.cpp (3.32):
    <cluster>_link_from_<i>_to_<+neighbour>_UP (towards the neighbour) and
    _DOWN. A torus node has no separate NIC: its ports are its torus links,
    so a slow node slows what passes through it as well."""

    kind = "torus"
    AXES = "xyzwvu"

    def __init__(self, dims, **kw):
        if not dims or min(dims) < 1 or len(dims) > len(self.AXES):
            raise UsageError(f"torus: 1 to {len(self.AXES)} dimensions of at least 1")
        self.dims = dims
        super().__init__(math.prod(dims), **kw)
        self.stride = [math.prod(dims[:j]) for j in range(len(dims))]

    def coords(self, i):
        return [(i // s) % d for s, d in zip(self.stride, self.dims)]

    def neighbour(self, i, axis, step):
        c = self.coords(i)
        return i + (((c[axis] + step) % self.dims[axis]) - c[axis]) * self.stride[axis]

    def cable_at(self, i, axis):
        nb = self.neighbour(i, axis, 1)
        base = f"torus_link_from_{i}_to_{nb}"
        return Cable(f"{self.host(i)}+{self.AXES[axis]}", base + "_UP", base + "_DOWN", self.bw, self.lat,
                     (self.host(i), self.host(nb)), ([self.host(i)], [self.host(nb)]))

    def nic(self, i):
        ports = []
        for axis in range(len(self.dims)):
            own = self.cable_at(i, axis)
            ports.append((own.fwd, own.back, own.bw, own.lat))
            if self.dims[axis] > 1:
                theirs = self.cable_at(self.neighbour(i, axis, -1), axis)
                ports.append((theirs.back, theirs.fwd, theirs.bw, theirs.lat))
        return ports

    def cable(self, name):
        m = re.fullmatch(r"(.+)([-+])([a-z])", name)
        i = self.host_index(m.group(1)) if m else None
        axis = self.AXES.find(m.group(3)) if m else -1
        if i is None or not 0 <= axis < len(self.dims):
            raise UsageError(f"torus: no cable '{name}' (names look like {self.prefix}5+x, {self.prefix}6-x)")
        if m.group(2) == "+":
            return self.cable_at(i, axis), False
        return self.cable_at(self.neighbour(i, axis, -1), axis), True

    def cable_names(self):
        for i in range(self.nodes):
            for axis in range(len(self.dims)):
                yield f"{self.host(i)}+{self.AXES[axis]}"

    def route(self, a, b):
        """TorusZone::get_local_route (3.32): the direction of each dimension
        is chosen from the source's coordinates."""
        if a == b:
            return [f"loopback of {self.host(a)}"]
        mine, target = self.coords(a), self.coords(b)
        hops, cur = [], a
        while cur != b:
            for j, dim in enumerate(self.dims):
                cc = self.coords(cur)[j]
                if cc == target[j]:
                    continue
                right = (mine[j] < target[j] <= mine[j] + dim // 2) or \
                        (mine[j] > dim // 2 and (mine[j] + dim // 2) % dim >= target[j])
                if right:
                    nxt = self.neighbour(cur, j, 1)
                    hops.append(f"{self.host(cur)}+{self.AXES[j]}")
                else:
                    nxt = self.neighbour(cur, j, -1)
                    hops.append(f"{self.host(cur)}-{self.AXES[j]}")
                cur = nxt
                break
        return hops

    def far_pair(self):
        far = sum((d // 2) * s for d, s in zip(self.dims, self.stride))
        return 0, far

    def place(self, i):
        """Each node is its own router; one group."""
        return f"r{self.host(i)}", "torus"

    def describe(self):
        return (f"torus {'x'.join(map(str, self.dims))}, {self.nodes} nodes, one per router, "
                f"dimension-order routing")

    def params(self):
        return {"dims": self.dims}

    def write_xml(self, out):
        out.write(f'  <cluster id="torus" prefix={quoteattr(self.prefix)} suffix="" '
                  f'radical="0-{self.nodes - 1}" speed="{HOST_SPEED}" bw="{xml_bw(self.bw)}" '
                  f'lat="{xml_lat(self.lat)}" sharing_policy="SPLITDUPLEX" topology="TORUS" '
                  f'topo_parameters="{",".join(map(str, self.dims))}" '
                  f'loopback_bw="{xml_bw(self.loopback[0])}" loopback_lat="{xml_lat(self.loopback[1])}"/>\n')


# ---------------------------------------------------------------- dragonfly

class Dragonfly(Topology):
    """Written out zone by zone, since SimGrid's own DRAGONFLY needs at least
    as many routers per chassis as groups (Frontier has 74 groups of 32).

    A group is a zone of its routers, joined all-to-all by local links,
    and of its hosts, each on its own split-duplex link to its router; the
    top is a Full zone of the groups, each pair joined by one global link
    (the bundle of --global-links cables, carrying their summed rate) from
    a gateway router on each side. Routing is minimal and deterministic:
    source router, local hop to the gateway, global hop, local hop to the
    destination router. Nodes fill routers in order; routers past the last
    node stay, without hosts."""

    kind = "dragonfly"

    def __init__(self, groups, routers, per_router, nodes=None, global_links=None, local_links=1, **kw):
        if min(groups, routers, per_router, local_links) < 1:
            raise UsageError("dragonfly: groups, routers, nodes per router and links must be at least 1")
        full = groups * routers * per_router
        nodes = full if nodes is None else nodes
        if not 1 <= nodes <= full or nodes <= (groups - 1) * routers * per_router:
            raise UsageError(f"dragonfly: {nodes} nodes do not fill {groups} groups of "
                             f"{routers}x{per_router} (every group needs a node)")
        self.groups, self.routers, self.per_router = groups, routers, per_router
        if global_links is None:
            global_links = max(1, (routers * max(1, routers // 2)) // max(1, groups - 1))
        self.global_links, self.local_links = global_links, local_links
        super().__init__(nodes, **kw)

    def router_of(self, i):
        r = i // self.per_router
        return r // self.routers, r % self.routers

    def router_hosts(self, g, r):
        first = (g * self.routers + r) * self.per_router
        return [self.host(i) for i in range(first, min(first + self.per_router, self.nodes))]

    def group_hosts(self, g):
        first = g * self.routers * self.per_router
        return [self.host(i) for i in range(first, min(first + self.routers * self.per_router, self.nodes))]

    def gateway(self, g, other):
        """The router of group g that holds its global link to group other."""
        return ((other - g - 1) % self.groups) % self.routers

    @staticmethod
    def rname(g, r):
        return f"g{g}r{r}"

    def local_cable(self, g, r1, r2):
        name = f"{self.rname(g, r1)}-{self.rname(g, r2)}"
        return Cable(name, f"{name}_UP", f"{name}_DOWN", self.bw * self.local_links, self.lat,
                     (self.rname(g, r1), self.rname(g, r2)),
                     (self.router_hosts(g, r1), self.router_hosts(g, r2)))

    def global_cable(self, g1, g2):
        name = f"g{g1}-g{g2}"
        return Cable(name, f"{name}_UP", f"{name}_DOWN", self.bw * self.global_links, self.lat,
                     (f"g{g1}", f"g{g2}"), (self.group_hosts(g1), self.group_hosts(g2)))

    def nic(self, i):
        return [(f"nic-{self.host(i)}_UP", f"nic-{self.host(i)}_DOWN", self.bw, self.lat)]

    def cable(self, name):
        m = re.fullmatch(r"g(\d+)r(\d+)-g(\d+)r(\d+)", name)
        if m:
            g1, r1, g2, r2 = map(int, m.groups())
            if g1 != g2 or r1 == r2 or g1 >= self.groups or max(r1, r2) >= self.routers:
                raise UsageError(f"dragonfly: no local link '{name}' (routers of one group)")
            return self.local_cable(g1, min(r1, r2), max(r1, r2)), r1 > r2
        m = re.fullmatch(r"g(\d+)-g(\d+)", name)
        if m:
            g1, g2 = map(int, m.groups())
            if g1 == g2 or max(g1, g2) >= self.groups:
                raise UsageError(f"dragonfly: no global link '{name}'")
            return self.global_cable(min(g1, g2), max(g1, g2)), g1 > g2
        raise UsageError(f"dragonfly: no cable '{name}' (names look like g0r1-g0r5 or g0-g3)")

    def cable_names(self):
        for g in range(self.groups):
            for r1 in range(self.routers):
                for r2 in range(r1 + 1, self.routers):
                    yield f"{self.rname(g, r1)}-{self.rname(g, r2)}"
        for g1 in range(self.groups):
            for g2 in range(g1 + 1, self.groups):
                yield f"g{g1}-g{g2}"

    def route(self, a, b):
        if a == b:
            return [f"loopback of {self.host(a)}"]
        (ga, ra), (gb, rb) = self.router_of(a), self.router_of(b)
        hops = [f"{self.host(a)}-{self.rname(ga, ra)}"]

        def local(g, r1, r2):
            if r1 != r2:
                hops.append(f"{self.rname(g, r1)}-{self.rname(g, r2)}")

        if ga == gb:
            local(ga, ra, rb)
        else:
            local(ga, ra, self.gateway(ga, gb))
            hops.append(f"g{ga}-g{gb}")
            local(gb, self.gateway(gb, ga), rb)
        hops.append(f"{self.rname(gb, rb)}-{self.host(b)}")
        return hops

    def far_pair(self):
        last = self.router_of(self.nodes - 1)[0]
        if last == 0:
            return 0, self.nodes - 1
        src_r = 1 if self.gateway(0, last) == 0 and self.routers > 1 else 0
        dst = next((i for i in range(self.nodes - 1, -1, -1)
                    if self.router_of(i)[0] == last and self.router_of(i)[1] != self.gateway(last, 0)),
                   self.nodes - 1)
        return min(src_r * self.per_router, self.nodes - 1), dst

    def place(self, i):
        g, r = self.router_of(i)
        return self.rname(g, r), f"g{g}"

    def describe(self):
        partial = "" if self.nodes == self.groups * self.routers * self.per_router else \
            f" (the last group holds {len(self.group_hosts(self.groups - 1))})"
        return (f"dragonfly, {self.groups} groups x {self.routers} routers x {self.per_router} nodes, "
                f"{self.nodes} nodes{partial}, routers all-to-all in a group "
                f"({self.local_links} link{'s' if self.local_links > 1 else ''} a pair), "
                f"{self.global_links} global link{'s' if self.global_links > 1 else ''} a group pair, "
                f"minimal routing")

    def params(self):
        return {"groups": self.groups, "routers": self.routers, "per_router": self.per_router,
                "global_links": self.global_links, "local_links": self.local_links}

    def _link(self, out, ind, name, bw):
        out.write(f'{ind}<link id="{name}" bandwidth="{xml_bw(bw)}" latency="{xml_lat(self.lat)}" '
                  f'sharing_policy="SPLITDUPLEX"/>\n')

    def _zone_route(self, out, ind, z1, z2, gw1, gw2, link):
        out.write(f'{ind}<zoneRoute src="{z1}" dst="{z2}" gw_src="{gw1}" gw_dst="{gw2}">'
                  f'<link_ctn id="{link}" direction="UP"/></zoneRoute>\n')

    def write_xml(self, out):
        # Every link lives in the first zone, and a group is one zone (not
        # one per router): SimGrid finds a link or host by name by searching
        # zone after zone, and seals each zone by scanning every host, which
        # over 2,400 router zones made Frontier take 14 s to load.
        out.write('  <zone id="dragonfly" routing="Full">\n')
        # The DTD reads a zone that starts with links as a leaf: hence a
        # zone of links of its own.
        out.write('    <zone id="links" routing="None">\n')
        ind = "      "
        for g in range(self.groups):
            for h in self.group_hosts(g):
                self._link(out, ind, f"nic-{h}", self.bw)
            out.write(f'{ind}<link id="lo-g{g}" bandwidth="{xml_bw(self.loopback[0])}" '
                      f'latency="{xml_lat(self.loopback[1])}" sharing_policy="FATPIPE"/>\n')
            for r1 in range(self.routers):
                for r2 in range(r1 + 1, self.routers):
                    self._link(out, ind, self.local_cable(g, r1, r2).name, self.bw * self.local_links)
        for g1 in range(self.groups):
            for g2 in range(g1 + 1, self.groups):
                self._link(out, ind, f"g{g1}-g{g2}", self.bw * self.global_links)
        out.write('    </zone>\n')
        for g in range(self.groups):
            self._write_group(out, g)
        for g1 in range(self.groups):
            for g2 in range(g1 + 1, self.groups):
                self._zone_route(out, "    ", f"z-g{g1}", f"z-g{g2}", self.rname(g1, self.gateway(g1, g2)),
                                 self.rname(g2, self.gateway(g2, g1)), f"g{g1}-g{g2}")
        out.write('  </zone>\n')

    def _write_group(self, out, g):
        """A group's routers and hosts, one link a route: SimGrid's shortest
        paths (in links) are the minimal routes, unique in an all-to-all group."""
        out.write(f'    <zone id="z-g{g}" routing="DijkstraCache">\n')
        for r in range(self.routers):
            out.write(f'      <router id="{self.rname(g, r)}"/>\n')
        hosts = self.group_hosts(g)
        for h in hosts:
            out.write(f'      <host id="{h}" speed="{HOST_SPEED}"/>\n')
        for h in hosts:
            rn = self.rname(*self.router_of(self.host_index(h)))
            out.write(f'      <route src="{h}" dst="{rn}"><link_ctn id="nic-{h}" direction="UP"/></route>\n')
            out.write(f'      <route src="{h}" dst="{h}" symmetrical="NO"><link_ctn id="lo-g{g}"/></route>\n')
        for r1 in range(self.routers):
            for r2 in range(r1 + 1, self.routers):
                a, b = self.rname(g, r1), self.rname(g, r2)
                out.write(f'      <route src="{a}" dst="{b}">'
                          f'<link_ctn id="{a}-{b}" direction="UP"/></route>\n')
        out.write('    </zone>\n')


# ---------------------------------------------------------------- shapes for N nodes

def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def fat_tree_shape(n, radix=64, taper=1):
    """Two levels while the spines' ports suffice, about as many nodes per
    leaf as leaves; else three, with leaves of half the radix. A count that
    divides badly (a large prime) is rounded up to one that divides well."""
    half = max(2, radix // 2)
    if n <= half:
        return [n], [1], [1], n
    m = n
    while True:
        if m <= half * radix:
            h = max(d for d in divisors(m) if d <= min(half, math.isqrt(m)))
            if h * 2 >= math.isqrt(m):
                return [h, m // h], [1, max(1, h // taper)], [1, 1], m
        else:
            h = max(d for d in divisors(m) if d <= half)
            leaves = m // h
            p = max(d for d in divisors(leaves) if d <= half)
            if h * 2 >= half and p * 4 >= half and leaves // p <= radix:
                return [h, p, leaves // p], [1, max(1, h // taper), p], [1, 1, 1], m
        m += 1


def torus_shape(n, ndims=3):
    """The most nearly cubic (or square) dimensions whose product is the node
    count, rounded up to a count that has no dimension over 4 times another."""
    m = n
    while True:
        best = None
        for dims in _factorizations(m, ndims):
            ratio = dims[-1] / dims[0]
            if best is None or ratio < best[0]:
                best = (ratio, dims)
        if best and (best[0] <= 4 or m < 2 ** ndims):
            return list(best[1]), m
        m += 1


def _factorizations(m, k, least=1):
    if k == 1:
        if m >= least:
            yield (m,)
        return
    for d in divisors(m):
        if d >= least and d ** k <= m:
            for rest in _factorizations(m // d, k - 1, d):
                yield (d,) + rest


def dragonfly_shape(n, per_router=4):
    """A balanced dragonfly: a routers per group with a/2 global ports each,
    so at most a*a/2+1 groups; the smallest power-of-two a that holds n."""
    a = 2
    while True:
        per_group = a * per_router
        groups = -(-n // per_group)
        if groups <= a * (a // 2) + 1:
            if groups == 1:
                a = max(1, -(-n // per_router))
            return groups, a, per_router
        a *= 2


# ---------------------------------------------------------------- presets

PRESETS = {
    "fattree-16": ("fattree", dict(down=[4, 4], up=[1, 2], ports=[1, 1]),
                   "2 levels, 4 leaves of 4 nodes, 2 spines: 2:1 taper at the leaves"),
    "fattree-64": ("fattree", dict(down=[8, 8], up=[1, 8], ports=[1, 1]),
                   "2 levels, 8 leaves of 8 nodes, 8 spines: full bisection"),
    "fattree-256": ("fattree", dict(down=[16, 16], up=[1, 8], ports=[1, 1]),
                    "2 levels, 16 leaves of 16 nodes, 8 spines: 2:1 taper at the leaves"),
    "fattree-1024": ("fattree", dict(down=[16, 8, 8], up=[1, 8, 8], ports=[1, 1, 1]),
                     "3 levels, 8 pods of 8 leaves of 16 nodes: 2:1 at the leaves, 1:1 above"),
    "fattree-4096": ("fattree", dict(down=[32, 16, 8], up=[1, 16, 16], ports=[1, 1, 1]),
                     "3 levels, 8 pods of 16 leaves of 32 nodes: 2:1 at the leaves, 1:1 above"),
    "dragonfly-256": ("dragonfly", dict(groups=8, routers=8, per_router=4),
                      "8 groups of 8 routers of 4 nodes"),
    "dragonfly-1024": ("dragonfly", dict(groups=16, routers=16, per_router=4),
                       "16 groups of 16 routers of 4 nodes, 8 global links a group pair"),
    "torus-64": ("torus", dict(dims=[4, 4, 4]), "3-D 4x4x4"),
    "torus-256": ("torus", dict(dims=[16, 16]), "2-D 16x16"),
    "torus-1024": ("torus", dict(dims=[8, 8, 16]), "3-D 8x8x16"),
    "frontier": ("dragonfly", dict(groups=74, routers=32, per_router=4, nodes=9408),
                 "Frontier-like Slingshot dragonfly: 74 groups of 32 switches with 4 nodes each "
                 "(73 full groups of 128 nodes and one of 64: 9,408 nodes), switches all-to-all "
                 "in a group, 7 global links a group pair (512 global ports a group over 73 peers)"),
}


def build(kind, shape, common):
    if kind == "fattree":
        return FatTree(**shape, **common)
    if kind == "torus":
        return Torus(**shape, **common)
    return Dragonfly(**shape, **common)


# ---------------------------------------------------------------- faults

class Fault:
    def __init__(self, kind, element, value, origin):
        self.kind, self.element, self.value, self.origin = kind, element, value, origin
        self.links, self.nodes, self.ends, self.where = [], [], [], ""


def parse_fault(text):
    parts = text.split(":")
    if len(parts) not in (2, 3) or parts[0] not in FAULT_KINDS:
        raise UsageError(f"bad --fault '{text}' (KIND:ELEMENT[:VALUE], KIND one of {', '.join(FAULT_KINDS)})")
    kind, element = parts[0], parts[1]
    value = parts[2] if len(parts) == 3 else None
    return kind, element, parse_value(kind, value)


def parse_value(kind, text):
    if kind == "latency":
        return DEFAULT_EXTRA_LAT if text is None else parse_lat(text)
    try:
        value = DEFAULT_FACTOR if text is None else float(text)
    except ValueError:
        raise UsageError(f"a {kind} factor must be a number, not '{text}'")
    if not 0 < value <= 1:
        raise UsageError(f"a {kind} factor must be in (0, 1], not {value}")
    return value


def resolve(topo, fault):
    """Fills in the SimGrid links a fault changes and the nodes behind it."""
    kind, el = fault.kind, fault.element
    node = topo.host_index(el)
    if kind in ("node", "node-send") or (kind == "latency" and node is not None):
        if node is None:
            raise UsageError(f"{kind} fault: no node '{el}'")
        for send, recv, bw, lat in topo.nic(node):
            for link in (send,) if kind == "node-send" else (send, recv):
                fault.links.append((link, bw, lat))
        fault.nodes, fault.ends = [el], [[el]]
        fault.where = {"node": "its link, both ways", "node-send": "its link, sending only",
                       "latency": "its link, both ways"}[kind]
        if topo.kind == "torus":
            fault.where = fault.where.replace("its link", "its torus ports")
        return fault
    cable, against = topo.cable(el)
    both = kind in ("link", "latency")
    if kind == "uplink":
        fault.links.append((cable.back if against else cable.fwd, cable.bw, cable.lat))
    else:
        fault.links += [(cable.fwd, cable.bw, cable.lat), (cable.back, cable.bw, cable.lat)]
    ends = list(reversed(cable.ends)) if against else list(cable.ends)
    names = list(reversed(cable.end_names)) if against else list(cable.end_names)
    fault.ends = ends
    fault.nodes = sorted(set(ends[0]) | set(ends[1]), key=topo.host_index)
    fault.where = (f"between {names[0]} and {names[1]}, both ways" if both
                   else f"from {names[0]} to {names[1]} only")
    return fault


def random_spec(text):
    items = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = re.fullmatch(r"([a-z-]+)=(\d+)(?:@(.+))?", part)
        if not m or m.group(1) not in FAULT_KINDS:
            raise UsageError(f"bad --random-faults item '{part}' (KIND=COUNT[@VALUE])")
        items.append((m.group(1), int(m.group(2)), parse_value(m.group(1), m.group(3))))
    return items


def draw_faults(topo, items, seed, used_hosts, taken):
    """Faults at random but reproducible: the same seed, platform and host
    file give the same faults. Only elements that the listed hosts' traffic
    can cross are drawn, each at most once."""
    rng = random.Random(seed)
    used = set(used_hosts)
    nodes = [h for h in topo.hosts() if h in used]
    cables = None
    faults = []
    for kind, count, value in items:
        if kind in ("node", "node-send"):
            pool = nodes
        else:
            if cables is None:
                cables = list(topo.cable_names())
            pool = cables if kind != "latency" else nodes + cables
        order = list(range(len(pool)))
        rng.shuffle(order)
        picked = []
        for k in order:
            if len(picked) == count:
                break
            el = pool[k]
            if el not in taken and (el in used or _cable_in_use(topo, el, used)):
                picked.append(el)
                taken.add(el)
        if len(picked) < count:
            raise UsageError(f"random faults: {count} {kind} asked, {len(picked)} elements left")
        for el in picked:
            if kind == "uplink" and topo.kind != "fattree" and rng.random() < 0.5:
                el = _reversed_name(topo, el)
            faults.append(Fault(kind, el, value, "random"))
    return faults


def _cable_in_use(topo, name, used):
    cable, _ = topo.cable(name)
    near = set(cable.ends[0])
    if not cable.ends[1]:
        return bool(used & near) and len(used - near) > 0
    return bool(used & (near | set(cable.ends[1])))


def _reversed_name(topo, name):
    if topo.kind == "torus":
        cable, _ = topo.cable(name)
        return f"{cable.end_names[1]}-{name[-1]}"
    return _flip(name)


def _flip(name):
    base, sep, port = name.partition("#")
    left, right = base.split("-")
    return f"{right}-{left}{sep}{port}"


def link_changes(faults):
    """A link has one rate and one latency: faults on one link combine
    (factors multiply, added latencies add)."""
    bw, lat = {}, {}
    for f in faults:
        for link, base_bw, base_lat in f.links:
            if f.kind == "latency":
                lat[link] = lat.get(link, base_lat) + f.value
            else:
                bw[link] = bw.get(link, base_bw) * f.value
    return bw, lat


def fault_json(f):
    out = {"kind": f.kind, "element": f.element, "origin": f.origin}
    if f.kind == "latency":
        out["added_latency"] = f.value
    else:
        out["factor"] = f.value
    out.update({"where": f.where, "links": [l for l, _, _ in f.links], "nodes": f.nodes, "ends": f.ends})
    return out


def fault_line(f):
    value = f"+{fmt_lat(f.value)}" if f.kind == "latency" else f"x{f.value:g}"
    shown = f.nodes if len(f.nodes) <= 8 else f.nodes[:4] + ["..."] + f.nodes[-2:]
    return (f"fault {f.kind} {f.element} {value} ({f.where}; {len(f.nodes)} node"
            f"{'s' if len(f.nodes) != 1 else ''}: {' '.join(shown)})")


# ---------------------------------------------------------------- host files

def host_list(topo, args):
    if args.pair and args.far_pair:
        raise UsageError("--pair and --far-pair exclude each other")
    if args.pair:
        names = args.pair.split(",")
        if len(names) != 2 or any(topo.host_index(n) is None for n in names):
            raise UsageError(f"--pair needs two node names, got '{args.pair}'")
        return names
    if args.far_pair:
        a, b = topo.far_pair()
        return [topo.host(a), topo.host(b)]
    count = args.ranks_nodes or topo.nodes
    if count > topo.nodes:
        raise UsageError(f"{count} nodes asked, the platform has {topo.nodes}")
    if args.spread:
        picks = [i * topo.nodes // count for i in range(count)]
    else:
        picks = range(count)
    return [topo.host(i) for i in picks]


def hostfile_lines(hosts, per_node, ranks):
    lines = [h for h in hosts for _ in range(per_node)]
    if ranks is not None:
        if ranks > len(lines):
            raise UsageError(f"--ranks {ranks}: only {len(lines)} slots")
        lines = lines[:ranks]
    return lines


# ---------------------------------------------------------------- output

def write_platform(topo, faults, path):
    with open(path, "w") as out:
        out.write("<?xml version='1.0'?>\n"
                  '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
                  '<platform version="4.1">\n')
        out.write(f"  <!-- {topo.describe()}; links {fmt_bw(topo.bw)}, {fmt_lat(topo.lat)} each -->\n")
        topo.write_xml(out)
        out.write("</platform>\n")


# SimGrid 3.32 gives every link of its own clusters one rate, and refuses
# rate or latency profiles on links once created (sealed), which they all
# are by the end of the XML. Its C API can still set a link's rate and
# latency before the simulation starts, and smpirun loads a platform from a
# shared object's load_platform(): this one loads the XML of the same name
# beside it and then sets the faulty links.
FAULT_LOADER = r"""/* Generated by tests/scale/platform.py: %(what)s */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <simgrid/engine.h>
#include <simgrid/link.h>

static const struct change {
    const char *link;
    double bandwidth; /* B/s, or < 0 to keep */
    double latency;   /* s, or < 0 to keep */
} changes[] = {
%(changes)s    {NULL, -1, -1}
};

void load_platform(const void *engine);

void load_platform(const void *engine)
{
    Dl_info self;
    (void)engine;
    if (!dladdr((void *)load_platform, &self) || !self.dli_fname) {
        fprintf(stderr, "fault loader: cannot find its own file name\n");
        exit(1);
    }
    size_t n = strlen(self.dli_fname);
    char *xml = malloc(n + 2);
    if (!xml || n < 3 || strcmp(self.dli_fname + n - 3, ".so") != 0) {
        fprintf(stderr, "fault loader: %%s is not a .so\n", self.dli_fname);
        exit(1);
    }
    memcpy(xml, self.dli_fname, n - 2);
    strcpy(xml + n - 2, "xml");
    simgrid_load_platform(xml);
    free(xml);
    for (const struct change *c = changes; c->link; c++) {
        sg_link_t link = sg_link_by_name(c->link);
        if (c->bandwidth >= 0)
            sg_link_set_bandwidth(link, c->bandwidth);
        if (c->latency >= 0)
            sg_link_set_latency(link, c->latency);
    }
}
"""


def write_loader(topo, faults, so_path):
    bw, lat = link_changes(faults)
    rows = "".join(f'    {{"{link}", {bw.get(link, -1):.17g}, {lat.get(link, -1):.17g}}},\n'
                   for link in sorted(set(bw) | set(lat)))
    c_path = so_path[:-3] + ".loader.c"
    with open(c_path, "w") as out:
        out.write(FAULT_LOADER % {"what": f"{len(faults)} fault(s) on {topo.describe()}", "changes": rows})
    cc = os.environ.get("CC", "cc")
    cmd = [cc, "-shared", "-fPIC", "-O1", "-o", so_path, c_path, "-lsimgrid"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise UsageError(f"cannot run the C compiler '{cc}' (set CC): {e}")
    if done.returncode != 0:
        raise UsageError(f"'{' '.join(cmd)}' failed:\n{done.stderr.strip()}")


def truth_json(topo, args, faults, hosts_used):
    return {
        "topology": topo.kind, "preset": getattr(args, "name", None), "description": topo.describe(),
        "nodes": topo.nodes, "bandwidth": topo.bw, "latency": topo.lat,
        "params": topo.params(), "hosts_used": len(hosts_used),
        "seed": args.seed, "random_faults": args.random_faults,
        "faults": [fault_json(f) for f in faults],
    }


# ---------------------------------------------------------------- command line

def common_parser():
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("files")
    g.add_argument("-o", "--out", metavar="PREFIX",
                   help="write PREFIX.so (the platform for smpirun), PREFIX.xml (what it loads), "
                        "PREFIX.hosts, PREFIX.truth.json and PREFIX.topology (and .topology.conf, "
                        "Slurm's form): each node's leaf switch and group")
    g.add_argument("--platform", metavar="FILE",
                   help="the platform: FILE.so (and FILE.xml beside it), "
                        "or FILE.xml where there are no faults")
    g.add_argument("--hostfile", metavar="FILE", help="the host file (one host name a line, one line a rank)")
    g.add_argument("--truth", metavar="FILE", help="the ground truth as JSON ('-': standard output)")
    g.add_argument("--json", action="store_true", help="print the ground truth as JSON instead of lines")
    g = p.add_argument_group("links")
    g.add_argument("--bw", type=parse_bw, default=DEFAULT_BW, metavar="RATE",
                   help="every link's rate, e.g. 25GBps, 200Gbps (default 25GBps)")
    g.add_argument("--lat", type=parse_lat, default=DEFAULT_LAT, metavar="TIME",
                   help="every link's latency, e.g. 500ns, 1us (default 500ns)")
    g.add_argument("--loopback-bw", type=parse_bw, default=DEFAULT_LOOPBACK_BW, metavar="RATE",
                   help="between two ranks of one node (default 100GBps; SimGrid's clusters make it "
                        "a fat pipe, where each message gets it whole)")
    g.add_argument("--loopback-lat", type=parse_lat, default=DEFAULT_LOOPBACK_LAT, metavar="TIME",
                   help="between two ranks of one node (default 100ns)")
    g.add_argument("--prefix", default="node", help="host names are PREFIX<index> (default node)")
    g = p.add_argument_group("placement")
    g.add_argument("--ranks-per-node", type=int, default=1, metavar="K",
                   help="K ranks on each node (default 1)")
    g.add_argument("--ranks", type=int, metavar="R", help="only the first R ranks")
    g.add_argument("--spread", action="store_true",
                   help="with --use-nodes: nodes evenly spread over the machine, not the first ones")
    g.add_argument("--use-nodes", dest="ranks_nodes", type=int, metavar="N",
                   help="only N nodes in the host file (default all)")
    g.add_argument("--far-pair", action="store_true",
                   help="two nodes as far apart as the topology allows (different pods or groups)")
    g.add_argument("--pair", metavar="A,B", help="these two nodes")
    g = p.add_argument_group("faults")
    g.add_argument("--fault", action="append", default=[], metavar="KIND:ELEMENT[:VALUE]",
                   help="place a fault (repeatable); see the list of kinds below")
    g.add_argument("--seed", type=int, default=None, help="seed of --random-faults (default 1)")
    g.add_argument("--random-faults", metavar="SPEC",
                   help="draw faults: KIND=COUNT[@VALUE],... "
                        "e.g. node=2,node-send=1@0.25,link=1,latency=1@10us")
    g = p.add_argument_group("inspection")
    g.add_argument("--elements", action="store_true", help="list the nodes and cables, one name a line")
    g.add_argument("--route", metavar="A,B", help="print the cables the route from node A to node B crosses")
    g.add_argument("--pair-through", metavar="CABLE",
                   help="print two nodes whose route crosses CABLE in the direction named "
                        "(from its first end)")
    return p


FAULT_HELP = """\
fault kinds (VALUE: a factor in (0,1], default 0.5, or for latency a time, default 5us):
  node       a node's link at VALUE of its rate, both ways      ELEMENT: a host, e.g. node3
  node-send  a node's link at VALUE only when the node sends    ELEMENT: a host
  link       a switch-to-switch cable at VALUE, both ways       ELEMENT: a cable
  uplink     one direction of a cable, from the end named first ELEMENT: a cable
  latency    VALUE added to a node's link or to a cable, both ways
cables: fat tree s1.4-s2.0 (leaf 4 to level-2 switch 0; lower end first, so
an uplink fault on it slows traffic leaving the leaf; s2.0-s1.4 goes down),
dragonfly g0r1-g0r5 (local) and g0-g3 (global), torus node5+x (node5 to its
+x neighbour; node6-x is the same cable the other way). --elements lists them.
Each fault's nodes are the hosts behind it: the node; the hosts under a
fat-tree cable's lower switch; the hosts of both routers or groups of a
dragonfly cable; both ends of a torus cable. Transit traffic of other nodes
may cross a cable too: --route shows whose.
"""


def main(argv=None):
    common = common_parser()
    top = argparse.ArgumentParser(
        prog="platform.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="\n\n".join(__doc__.split("\n\n")[:3]),
        epilog=(
            "topologies:\n"
            "  fattree    SimGrid's FAT_TREE: --down, --up, --ports per level (2 or 3 levels;\n"
            "             fewer uplinks than downlinks give a taper), or --nodes N\n"
            "  dragonfly  groups of routers all-to-all, global links between groups:\n"
            "             --groups, --routers, --per-router, or --nodes N\n"
            "  torus      SimGrid's TORUS: --dims 16x8x8, or --nodes N\n"
            "  preset     a named platform; `platform.py presets` lists them\n"
            "  cfg        the smpirun --cfg arguments that give links their nominal rate\n"
            "defaults: links 25 GB/s (a 200 Gb/s NIC) and 500 ns each, so 2 us between\n"
            "nodes on different leaves of a 2-level fat tree.\n\n" + FAULT_HELP))
    sub = top.add_subparsers(dest="command", required=True)

    ft = sub.add_parser("fattree", parents=[common], help="a fat tree",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=FAULT_HELP)
    ft.add_argument("--down", type=_int_list, metavar="D1,D2[,D3]",
                    help="children of a switch per level: nodes per leaf first")
    ft.add_argument("--up", type=_int_list, metavar="U1,U2[,U3]",
                    help="parents per level: 1 for the nodes, then uplinks of a leaf, ...")
    ft.add_argument("--ports", type=_int_list, metavar="P1,P2[,P3]",
                    help="parallel cables per level (default 1s)")
    ft.add_argument("--nodes", type=int, metavar="N", help="a shape for N nodes")
    ft.add_argument("--radix", type=int, default=64, help="switch ports for --nodes (default 64)")
    ft.add_argument("--taper", type=int, default=1, help="leaf downlinks per uplink for --nodes (default 1)")

    df = sub.add_parser("dragonfly", parents=[common], help="a dragonfly",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=FAULT_HELP)
    df.add_argument("--groups", type=int, help="groups")
    df.add_argument("--routers", type=int, help="routers per group")
    df.add_argument("--per-router", type=int, default=4, help="nodes per router (default 4)")
    df.add_argument("--nodes", type=int, metavar="N",
                    help="N nodes: with the counts above, fewer than they hold; alone, a balanced shape")
    df.add_argument("--global-links", type=int,
                    help="cables between two groups (default: routers x routers/2 global ports a group, "
                         "as in a balanced dragonfly, shared among the other groups)")
    df.add_argument("--local-links", type=int, default=1, help="cables between two routers of a group")

    to = sub.add_parser("torus", parents=[common], help="a torus",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=FAULT_HELP)
    to.add_argument("--dims", type=_dims, metavar="XxYxZ")
    to.add_argument("--nodes", type=int, metavar="N", help="a near-cubic shape for N nodes")
    to.add_argument("--ndims", type=int, default=3, help="dimensions for --nodes (default 3)")

    pr = sub.add_parser("preset", parents=[common], help="a named platform",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=FAULT_HELP)
    pr.add_argument("name", choices=sorted(PRESETS))

    sub.add_parser("presets", help="list the presets")
    cf = sub.add_parser("cfg", help="print the smpirun arguments for nominal link rates")
    cf.add_argument("--line", action="store_true", help="all on one line")
    cf.add_argument("--why", action="store_true", help="each with its reason")
    cf.add_argument("--no-log", action="store_true", help="leave out the settings that quiet SimGrid's log")
    cf.add_argument("--ranks", type=int, default=0,
                    help="the run's ranks: the cheaper privatization where they fit "
                         "(default: the one that holds at any count)")

    args = top.parse_args(argv)
    try:
        return run(args)
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except UsageError as e:
        print(f"platform.py: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"platform.py: {e}", file=sys.stderr)
        return 4


def _int_list(text):
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of integers: '{text}'")


def _dims(text):
    try:
        return [int(x) for x in re.split(r"[x,]", text)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not dimensions: '{text}'")


# Each rank's copy of the program's globals: dlopen maps a copy of the
# program per rank, and switching ranks is a jump; mmap keeps one copy and
# remaps it at every switch (2.4 times the real time: 200 barriers of 1,024
# ranks, 13 s against 31 s). dlopen's copies take about 8.5 memory mappings
# a rank, so it stops at vm.max_map_count (65,530 by default: near 7,700
# ranks), and mmap is taken where dlopen's would not fit.
MAPS_PER_RANK = 10
MAPS_SPARE = 2000


def privatization(ranks):
    try:
        with open("/proc/sys/vm/max_map_count") as f:
            limit = int(f.read())
    except (OSError, ValueError):
        limit = 65530
    if ranks and ranks * MAPS_PER_RANK + MAPS_SPARE <= limit:
        return ("smpi/privatization:dlopen",
                f"a copy of the program per rank ({ranks} ranks fit in "
                f"vm.max_map_count {limit})")
    return ("smpi/privatization:mmap",
            "one copy of the globals, remapped at each switch of rank: dlopen's "
            f"copies per rank would pass vm.max_map_count {limit}"
            + ("" if ranks else " (no --ranks given)"))


def cfg_list(ranks=0):
    return CFG + [privatization(ranks)]


def cfg_args(log=True, ranks=0):
    return [f"--cfg={c}" for c, _ in cfg_list(ranks)] + (LOG_CFG if log else [])


def run(args):
    if args.command == "presets":
        for name in sorted(PRESETS):
            kind, shape, text = PRESETS[name]
            print(f"{name:15} {kind:10} {text}")
        return 0
    if args.command == "cfg":
        if args.why:
            for c, why in cfg_list(args.ranks):
                print(f"--cfg={c:32} {why}")
            return 0
        items = cfg_args(not args.no_log, args.ranks)
        print(" ".join(items) if args.line else "\n".join(items))
        return 0

    topo, asked = make_topology(args)
    if args.route:
        return print_route(topo, args.route)
    if args.pair_through:
        return print_pair_through(topo, args.pair_through)
    if args.elements:
        for h in topo.hosts():
            print(h)
        for c in topo.cable_names():
            print(c)
        return 0

    hosts = host_list(topo, args) if asked is None or args.pair or args.far_pair or args.ranks_nodes \
        else [topo.host(i) for i in range(asked)]
    if args.ranks_per_node < 1:
        raise UsageError("--ranks-per-node must be at least 1")
    lines = hostfile_lines(hosts, args.ranks_per_node, args.ranks)

    faults = [Fault(k, e, v, "placed") for k, e, v in map(parse_fault, args.fault)]
    taken = {f.element for f in faults}
    if args.random_faults:
        seed = 1 if args.seed is None else args.seed
        args.seed = seed
        faults += draw_faults(topo, random_spec(args.random_faults), seed, hosts, taken)
    for f in faults:
        resolve(topo, f)

    write_outputs(topo, args, faults, hosts, lines, asked)
    return 0


def write_outputs(topo, args, faults, hosts, lines, asked):
    platform, hostfile, truth = args.platform, args.hostfile, args.truth
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        platform = platform or args.out + ".so"
        hostfile = hostfile or args.out + ".hosts"
        truth = truth or args.out + ".truth.json"
    if platform:
        if platform.endswith(".so"):
            write_platform(topo, faults, platform[:-3] + ".xml")
            write_loader(topo, faults, platform)
        elif platform.endswith(".xml") and not faults:
            write_platform(topo, faults, platform)
        else:
            raise UsageError(f"--platform {platform}: a .so (loads the .xml beside it, then the faults)"
                             + ("" if faults else " or, without faults, a .xml"))
    if hostfile:
        with open(hostfile, "w") as out:
            out.write("".join(h + "\n" for h in lines))
    if args.out:
        write_topology(topo, hosts, args.out + ".topology", args.out + ".topology.conf")
    doc = truth_json(topo, args, faults, hosts)
    if truth and truth != "-":
        with open(truth, "w") as out:
            json.dump(doc, out, indent=1)
            out.write("\n")
    if args.json or truth == "-":
        json.dump(doc, sys.stdout, indent=1)
        print()
        return
    note = f" ({asked} asked)" if asked is not None and asked != topo.nodes else ""
    print(f"# {topo.describe()}{note}; links {fmt_bw(topo.bw)}, {fmt_lat(topo.lat)} each; "
          f"{len(lines)} ranks on {len(set(lines))} nodes")
    if platform and hostfile:
        print(f"# smpirun -np {len(lines)} -platform {os.path.abspath(platform)} "
              f"-hostfile {os.path.abspath(hostfile)} "
              f"$({os.path.abspath(sys.argv[0])} cfg --line --ranks {len(lines)}) PROGRAM")
    for f in faults:
        print(fault_line(f))


def write_topology(topo, hosts, path, slurm_path):
    """Where each node of the host file sits, twice: 'HOST SWITCH GROUP'
    lines, and Slurm's topology.conf (leaves with their nodes, each group a
    switch over its leaves, one top switch over the groups)."""
    places = [(h,) + topo.place(topo.host_index(h)) for h in dict.fromkeys(hosts)]
    with open(path, "w") as out:
        out.write(f"# {topo.describe()}: node, leaf switch (router), group\n")
        out.write("".join(f"{h} {sw} {g}\n" for h, sw, g in places))
    leaves, groups = {}, {}
    for h, sw, g in places:
        leaves.setdefault(sw, []).append(h)
        groups.setdefault(g, [])
        if sw not in groups[g]:
            groups[g].append(sw)
    with open(slurm_path, "w") as out:
        out.write(f"# {topo.describe()} (Slurm's tree plugin)\n")
        for sw, members in leaves.items():
            out.write(f"SwitchName={sw} Nodes={hostlist(members)}\n")
        for g, sws in groups.items():
            out.write(f"SwitchName={g} Switches={','.join(sws)}\n")
        out.write(f"SwitchName=top Switches={','.join(groups)}\n")


def hostlist(names):
    """Slurm's compressed form of names that share a prefix: node[0-3,7]."""
    runs, prefix = [], None
    for n in names:
        m = re.fullmatch(r"(.*?)(\d+)", n)
        if not m or (prefix is not None and m.group(1) != prefix) or m.group(2) != str(int(m.group(2))):
            return ",".join(names)
        prefix = m.group(1)
        v = int(m.group(2))
        if runs and runs[-1][1] == v - 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    body = ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)
    return f"{prefix}[{body}]"


def make_topology(args):
    """The topology asked for, and the node count asked for where the shape
    chosen for it holds more nodes."""
    common = dict(prefix=args.prefix, bw=args.bw, lat=args.lat,
                  loopback=(args.loopback_bw, args.loopback_lat))
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.]*", args.prefix) or re.fullmatch(r"g\d*|s\d*", args.prefix):
        raise UsageError(f"--prefix '{args.prefix}': letters, digits, '_' or '.', not g or s alone")
    if args.command == "preset":
        kind, shape, _ = PRESETS[args.name]
        return build(kind, dict(shape), common), None
    args.name = None
    if args.command == "fattree":
        if args.nodes:
            if args.down or args.up:
                raise UsageError("fat tree: --nodes or --down/--up, not both")
            down, up, ports, m = fat_tree_shape(args.nodes, args.radix, args.taper)
            return FatTree(down, up, ports, **common), args.nodes
        if not (args.down and args.up):
            raise UsageError("fat tree: give --down and --up, or --nodes")
        return FatTree(args.down, args.up, args.ports or [1] * len(args.down), **common), None
    if args.command == "torus":
        if args.nodes:
            if args.dims:
                raise UsageError("torus: --nodes or --dims, not both")
            dims, m = torus_shape(args.nodes, args.ndims)
            return Torus(dims, **common), args.nodes
        if not args.dims:
            raise UsageError("torus: give --dims or --nodes")
        return Torus(args.dims, **common), None
    if args.groups or args.routers:
        if not (args.groups and args.routers):
            raise UsageError("dragonfly: give --groups and --routers together")
        return Dragonfly(args.groups, args.routers, args.per_router, args.nodes,
                         args.global_links, args.local_links, **common), None
    if not args.nodes:
        raise UsageError("dragonfly: give --groups and --routers, or --nodes")
    g, r, p = dragonfly_shape(args.nodes, args.per_router)
    return Dragonfly(g, r, p, args.nodes, args.global_links, args.local_links, **common), None


def print_route(topo, text):
    names = text.split(",")
    idx = [topo.host_index(n) for n in names]
    if len(names) != 2 or None in idx:
        raise UsageError(f"--route needs two node names, got '{text}'")
    for element in topo.route(*idx):
        print(element)
    return 0


def print_pair_through(topo, name):
    """The first pair in node order, senders behind the cable's first end
    first, whose route takes the cable in the direction named."""
    cable, against = topo.cable(name)
    first = [topo.host_index(h) for h in (cable.ends[1] if against else cable.ends[0])]
    seen = set(first)
    for a in first + [i for i in range(topo.nodes) if i not in seen]:
        for b in range(topo.nodes):
            if a != b and name in topo.route(a, b):
                print(topo.host(a), topo.host(b))
                return 0
    raise UsageError(f"no route crosses {name} in that direction")


if __name__ == "__main__":
    sys.exit(main())
