#!/usr/bin/env python3
"""Writes a run of osu_latency as the suite would, with made-up times, for
the tests of compare (tests/integration/compare.sh): the same seed gives the
same times on every machine (random.random() of a seeded generator, which
Python keeps stable across versions), --scale multiplies every time (a
planted shift). Per size: a base latency, each iteration's time the base
times a lognormal factor (sd 5%), one iteration in fifty three times slower
(the tail real runs have).

  compare_gen.py --format jsonl|text [--stats] [--samples] [--seed N]
                 [--scale F] [--rows N] [--iterations N] [--program NAME]
"""
import argparse
import json
import math
import random
import sys


def percentile(xs, p):
    """Type 7 (stats.h): linear between the closest ranks of sorted xs."""
    h = (len(xs) - 1) * p / 100.0
    lo = int(math.floor(h))
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def times(rng, base, n, scale):
    out = []
    for _ in range(n):
        # Box-Muller from two uniforms: random.gauss may change between versions.
        u1, u2 = 1.0 - rng.random(), rng.random()
        z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
        t = base * math.exp(0.05 * z)
        if rng.random() < 0.02:
            t *= 3.0
        out.append(t * scale)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--format", choices=["jsonl", "text"], required=True)
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("--samples", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--rows", type=int, default=8)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--program", default="osu_latency")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    command = ["build/osu/" + a.program, "-i", str(a.iterations)] + \
        (["--stats"] if a.stats else []) + (["--samples"] if a.samples else []) + \
        (["--format=jsonl"] if a.format == "jsonl" else [])
    stats_fields = {"median": "us", "p5": "us", "p95": "us", "cv": "ratio"} if a.stats else {}
    if a.format == "jsonl":
        units = {"datatype": "text", "size_bytes": "B", "latency_us": "us", "iterations": "count"}
        units.update(stats_fields)
        print(json.dumps({"type": "header", "format": "commsweep-jsonl", "format_version": 1,
                          "program": "osu/" + a.program, "family": "osu", "version": "0.1.0",
                          "command": command, "date": "2026-01-01T00:00:00+0000",
                          "title": "OSU MPI Latency Test", "stats": a.stats,
                          "samples": a.samples,
                          "tables": {"osu": {"main": "latency_us", "better": "lower",
                                             "stats_of": "latency_us",
                                             "keys": ["datatype", "size_bytes"],
                                             "units": units}}}))
    else:
        print("\n# OSU MPI Latency Test (commsweep 0.1.0)\n# Datatype: MPI_CHAR.")
        print("# command: " + " ".join(command))
        print("# date: 2026-01-01T00:00:00+0000\n# iterations: %d" % a.iterations)
        heads = ["Avg Latency(us)"] + (["Median(us)", "P5(us)", "P95(us)", "CV(%)"]
                                       if a.stats else [])
        print("%-10s" % "# Size" + "".join("%18s" % h for h in heads))
    for i in range(a.rows):
        size = 1 << i
        xs = times(rng, 2.0 + i, a.iterations, a.scale)
        s = sorted(xs)
        mean = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
        spread = [percentile(s, 50), percentile(s, 5), percentile(s, 95), sd / mean]
        if a.format == "jsonl":
            row = {"type": "row", "table": "osu", "datatype": "MPI_CHAR", "size_bytes": size,
                   "latency_us": mean, "iterations": a.iterations}
            if a.stats:
                row.update(zip(["median", "p5", "p95", "cv"], spread))
            if a.samples:
                row["samples"] = xs
            print(json.dumps(row))
        else:
            values = [mean] + (spread[:3] + [100 * spread[3]] if a.stats else [])
            print("%-10d" % size + "".join("%18.2f" % v for v in values))
    if a.format == "jsonl":
        print(json.dumps({"type": "summary", "status": 0, "validation": "off", "rows": a.rows,
                          "elapsed_s": 1.0, "message": None, "notes": []}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
