#!/usr/bin/env python3
"""How the frameworks that run OSU Micro-Benchmarks read their output.

Each function below takes (program, command line, stdout text, exit status) and
reads the text by the rules one framework applies to OMB output, rewritten here
from those rules (the regular expressions are the frameworks' own, verbatim).
It returns a canonical result: the keys the framework would extract (metric
names, message sizes, figure-of-merit contexts), whether their values read as
numbers, the few values that do not depend on timing (a version string, a
datatype, a rank count) and the framework's verdict on the run.  Two runs of
the same command give equal results when a framework reads them the same way;
timings are never compared.

Python 3 standard library only.

Command line use:
  parsers.py cases COMMANDS                 unique cpu cases: ID NP PROGRAM [ARGS...]
  parsers.py compare COMMANDS REFDIR TESTDIR
                                            one PASS/FAIL/SKIP line per (framework, command)
  parsers.py show FRAMEWORK CASEFILE.out PROGRAM [ARGS...]
                                            print one framework's reading of one output
"""

import os
import re
import sys

NULL_CONTEXT = "(null)"


def _is_number(text):
    try:
        float(text)
    except (TypeError, ValueError):
        return False
    return True


def _arg_after(args, flag):
    for i, a in enumerate(args):
        if a == flag and i + 1 < len(args):
            return args[i + 1]
    return None


# ---------------------------------------------------------------------------
# Ramble: var/ramble/repos/builtin/applications/osu-micro-benchmarks/application.py
# and lib/ramble/ramble/application.py (_analyze_experiments).
# Every regular expression is applied with re.match (anchored at the start of
# the line, not at its end) to each line of the log, newline included.

RAMBLE_CONTEXT = re.compile(r"(?P<msg_size>[0-9.]+)+\s+(?P<fom>[0-9.]+)")

# The header kinds in the order of the application's enum; on the first line
# that matches any of them, the last kind matching that line is the one used.
RAMBLE_HEADERS = [
    ("single_lat", r"#\s+Size\s+Latency \(us\)\s*$"),
    ("single_tail_lat", r"# Size\s+Latency \(us\)\s+P50 Tail Lat\(us\)\s+P90 Tail Lat\(us\)\s+P99 Tail Lat\(us\)$"),
    ("avg_lat", r"#\s+Size\s+Avg Latency\(us\)\s*$"),
    ("avg_tail_lat", r"# Size\s+Avg Latency\(us\)\s+P50 Tail Lat\(us\)\s+P90 Tail Lat\(us\)\s+P99 Tail Lat\(us\)$"),
    ("multi_lat", r"#\s+Size\s+Overall\(us\)\s+Compute\(us\)\s+Pure Comm\.\(us\)\s+Overlap\(%\)\s*$"),
    ("multi_tail_lat", r"# Size\s+Overall\(us\)\s+Compute\(us\)\s+Pure Comm\.\(us\)\s+Overlap\(%\)  P50 Tail Lat\(us\)  P90 Tail Lat\(us\)  P99 Tail Lat\(us\)\s*$"),
    ("single_bw", r"# Size\s+Bandwidth \(MB/s\)\s*$"),
    ("single_tail_bw", r"# Size\s+Bandwidth \(MB/s\) P50 Tail BW\(MB/s\) P90 Tail BW\(MB/s\) P99 Tail BW\(MB/s\)\s*$"),
    ("multi_bw", r"# Size\s+MB/s\s+Messages/s\s*$"),
    ("multi_tail_bw", r"# Size\s+MB/s\s+Messages/s P50 Tail BW\(MB/s\) P90 Tail BW\(MB/s\) P99 Tail BW\(MB/s\)\s*$"),
    ("single_avg_lat", r"# Avg Latency\(us\)\s*$"),
    ("single_avg_tail_lat", r"# Avg Latency\(us\)\s+P50 Tail Lat\(us\)\s+P90 Tail Lat\(us\)\s+P99 Tail Lat\(us\)\s*$"),
]
RAMBLE_HEADERS = [(k, re.compile(r)) for k, r in RAMBLE_HEADERS]

# Row expression per header kind (multi_lat and multi_tail_lat have none).
RAMBLE_ROWS = {
    "single_lat": r"\s*(?P<msg_size>[0-9]+)+\s+(?P<avg_lat>[0-9\.]+)\s*$",
    "single_tail_lat": r"\s*(?P<msg_size>[0-9]+)\s+(?P<avg_lat>[0-9\.]+)\s+(?P<p50_lat>[0-9\.]+)\s+(?P<p90_lat>[0-9\.]+)\s+(?P<p99_lat>[0-9\.]+)\s*$",
    "avg_lat": r"\s*(?P<msg_size>[0-9]+)+\s+(?P<avg_lat>[0-9\.]+)\s*$",
    "avg_tail_lat": r"\s*(?P<msg_size>[0-9]+)\s+(?P<avg_lat>[0-9\.]+)\s+(?P<p50_lat>[0-9\.]+)\s+(?P<p90_lat>[0-9\.]+)\s+(?P<p99_lat>[0-9\.]+)\s*$",
    "single_bw": r"\s*(?P<msg_size>[0-9]+)\s+(?P<avg_bw>[0-9\.]+)\s*$",
    "single_tail_bw": r"\s*(?P<msg_size>[0-9]+)\s+(?P<avg_bw>[0-9\.]+)\s+(?P<p50_bw>[0-9\.]+)\s+(?P<p90_bw>[0-9\.]+)\s+(?P<p99_bw>[0-9\.]+)\s*$",
    "multi_bw": r"\s*(?P<msg_size>[0-9]+)\s+(?P<avg_bw>[0-9\.]+)\s+(?P<msg_rate>[0-9\.]+)\s*$",
    "multi_tail_bw": r"\s*(?P<msg_size>[0-9]+)\s+(?P<avg_bw>[0-9\.]+)\s+(?P<msg_rate>[0-9\.]+)\s+(?P<p50_bw>[0-9\.]+)\s+(?P<p90_bw>[0-9\.]+)\s+(?P<p99_bw>[0-9\.]+)\s*$",
    "single_avg_lat": r"\s*(?P<avg_lat>[0-9\.]+)\s*$",
    "single_avg_tail_lat": r"\s*(?P<avg_lat>[0-9\.]+)\s+(?P<p50_lat>[0-9\.]+)\s+(?P<p90_lat>[0-9\.]+)\s+(?P<p99_lat>[0-9\.]+)\s*$",
}

# Regex group -> figure-of-merit name.
RAMBLE_GROUP_NAMES = {
    "avg_lat": "Latency", "p50_lat": "P50 Tail Latency", "p90_lat": "P90 Tail Latency",
    "p99_lat": "P99 Tail Latency", "avg_bw": "Bandwidth", "p50_bw": "P50 Tail Bandwidth",
    "p90_bw": "P90 Tail Bandwidth", "p99_bw": "P99 Tail Bandwidth", "overall_lat": "Overall",
    "comp_lat": "Computation", "comm_lat": "Communication", "overlap": "Overlap",
    "msg_rate": "Message Rate",
}

_RAMBLE_INIT = r"nprocs: (?P<nprocs>[0-9]+), min: (?P<min>[0-9\.]+) ms, max: (?P<max>[0-9\.]+) ms, avg: (?P<avg>[0-9\.]+) ms"
# (name, regex, group, has the msg_size context); the values of the names in
# RAMBLE_TEXT_FOMS do not depend on timing and are compared as they are.
RAMBLE_FIXED_FOMS = [
    ("OMB Datatype", r"# Datatype: (?P<type>\S+)\.", "type"),
    ("osu_hello_nprocs", r"This is a test with (?P<nprocs>[0-9]+) processes", "nprocs"),
    ("osu_init_nprocs", _RAMBLE_INIT, "nprocs"),
    ("osu_init_min", _RAMBLE_INIT, "min"),
    ("osu_init_max", _RAMBLE_INIT, "max"),
    ("osu_init_avg", _RAMBLE_INIT, "avg"),
    ("OMB Version", r"# OSU.*Test (?P<ver>v[0-9\.]+)", "ver"),
]
RAMBLE_TEXT_FOMS = ("OMB Datatype", "osu_hello_nprocs", "osu_init_nprocs", "OMB Version")


def ramble(program, args, stdout, rc=0):
    lines = stdout.splitlines(keepends=True)
    kind = None
    for line in lines:
        for name, rx in RAMBLE_HEADERS:
            if rx.match(line):
                kind = name
        if kind is not None:
            break
    foms = [(n, re.compile(r), g, False) for n, r, g in RAMBLE_FIXED_FOMS]
    row = RAMBLE_ROWS.get(kind)
    if row is not None:
        rx = re.compile(row)
        for group in rx.groupindex:
            if group in RAMBLE_GROUP_NAMES:
                foms.append((RAMBLE_GROUP_NAMES[group], rx, group, True))
    uses_context = any(f[3] for f in foms)

    active = None
    values = {}
    for line in lines:
        if uses_context:
            m = RAMBLE_CONTEXT.match(line)
            if m:
                active = "Message Size: " + m.group("msg_size")
        for name, rx, group, with_context in foms:
            m = rx.match(line)
            if m:
                context = active if (with_context and active is not None) else NULL_CONTEXT
                values[(context, name)] = m.group(group)
    text = {n: v for (c, n), v in values.items() if n in RAMBLE_TEXT_FOMS}
    numeric = all(_is_number(v) for (c, n), v in values.items()
                  if n not in ("OMB Datatype", "OMB Version"))
    return {
        "header kind": kind,
        "figures of merit (context, name)": sorted(values),
        "text values": text,
        "values are numbers": numeric,
        # success: at least one figure of merit of the application's own, and
        # the only success criterion (evaluate_success) is always true
        "success": bool(values),
    }


def benchpark(program, args, stdout, rc=0):
    """Benchpark's application subclasses Ramble's and adds tags only."""
    return ramble(program, args, stdout, rc)


# ---------------------------------------------------------------------------
# ReFrame: sn.assert_found, sn.extractsingle search the whole stdout with
# re.MULTILINE; extractsingle takes the first match and converts it with float.

def _rf_extract(pattern, stdout, group=1):
    m = re.search(pattern, stdout, re.MULTILINE)
    if m is None:
        return "missing"
    return "number" if _is_number(m.group(group)) else "not a number: %r" % m.group(group)


def _rf_found(pattern, stdout):
    return re.search(pattern, stdout, re.MULTILINE) is not None


def _rf_verdict(sanity, perf):
    return {"sanity": sanity, "performance": perf,
            "pass": sanity and all(v == "number" for v in perf.values())}


def _reframe_osu_benchmark(program, args, stdout):
    """hpctestlib osu_benchmark (and CSCS osu_tests.py): -m SIZE on its line."""
    size = _arg_after(args, "-m")
    metric = "bandwidth" if program == "osu_bw" else "latency"
    sanity = _rf_found(r"^%s.*Pass" % size, stdout)
    perf = {metric: _rf_extract(r"^%s\s+(\S+)" % size, stdout)}
    return _rf_verdict(sanity, perf)


def reframe_hpctestlib(program, args, stdout, rc=0):
    return _reframe_osu_benchmark(program, args, stdout)


def reframe_tutorial(program, args, stdout, rc=0):
    sanity = _rf_found(r"^8", stdout)
    if program == "osu_latency":
        perf = {"latency": _rf_extract(r"^8\s+(\S+)", stdout)}
    else:
        perf = {"bandwidth": _rf_extract(r"^1048576\s+(\S+)", stdout)}
    return _rf_verdict(sanity, perf)


def cscs(program, args, stdout, rc=0):
    checks = {}
    if "-c" in args:  # osu_tests.py: osu_pt2pt_check, osu_collective_check
        checks["osu_tests"] = _reframe_osu_benchmark(program, args, stdout)
    elif program == "osu_latency":  # osu_run.py OSULatency
        checks["osu_run.OSULatency"] = _rf_verdict(
            _rf_found(r"4194304", stdout),
            {"latency_256": _rf_extract(r"256\s+(?P<latency_256>\S+)", stdout, "latency_256"),
             "latency_4M": _rf_extract(r"4194304\s+(?P<latency_4M>\S+)", stdout, "latency_4M")})
    elif program == "osu_bw":  # osu_run.py OSUBandwidth, omb.py pt2pt/osu_bw
        checks["osu_run.OSUBandwidth"] = _rf_verdict(
            _rf_found(r"4194304", stdout),
            {"bandwidth_256": _rf_extract(r"256\s+(?P<bandwidth_256>\S+)", stdout, "bandwidth_256"),
             "bandwidth_4M": _rf_extract(r"4194304\s+(?P<bandwidth_4M>\S+)", stdout, "bandwidth_4M")})
        checks["omb.OMB_CE pt2pt/osu_bw"] = _rf_verdict(
            _rf_found(r"4194304", stdout),
            {"bw_4M": _rf_extract(r"4194304\s+(?P<bw_4M>\S+)", stdout, "bw_4M")})
    elif program == "osu_alltoall":  # omb.py collective/osu_alltoall
        checks["omb.OMB_CE collective/osu_alltoall"] = _rf_verdict(
            _rf_found(r"1048576", stdout),
            {"latency_1M": _rf_extract(r"1048576\s+(?P<latency_1M>\S+)", stdout, "latency_1M")})
    return checks


# ---------------------------------------------------------------------------
# NVIDIA cloudai: workloads/osu_bench (report_generation_strategy.py, osu_bench.py).

CLOUDAI_HEADERS = [
    ("latency", re.compile(r"#\s*Size\s+Avg Latency\(us\)"
                           r"(?:\s+Min Latency\(us\)\s+Max Latency\(us\)\s+Iterations)?")),
    ("multiple_bandwidth", re.compile(r"#\s*Size\s+MB/s\s+Messages/s")),
    ("bandwidth", re.compile(r"#\s*Size\s+Bandwidth\s*\(MB/s\)")),
]
CLOUDAI_COLUMNS = {"latency": ["size", "avg_lat"], "bandwidth": ["size", "mb_sec"],
                   "multiple_bandwidth": ["size", "mb_sec", "messages_sec"]}


def cloudai(program, args, stdout, rc=0):
    # was_run_successful
    if not stdout.strip():
        success = False
    elif program in ("osu_hello", "osu_init"):
        success = True
    else:
        success = "# Size" in stdout
    # extract_osu_bench_data: the first line matching a header sets the kind;
    # every later line split on whitespace is a row when its first field is an
    # int and the next one (two for multiple_bandwidth) floats.
    kind = None
    sizes = []
    for line in stdout.splitlines():
        if kind is None:
            for name, rx in CLOUDAI_HEADERS:
                if rx.match(line):
                    kind = name
                    break
            continue
        parts = line.split()
        if len(parts) < 2:
            continue
        try:
            size = int(parts[0])
            float(parts[1])
            if kind == "multiple_bandwidth":
                if len(parts) < 3:
                    continue
                float(parts[2])
        except ValueError:
            continue
        sizes.append(size)
    return {
        "success": success,
        "header kind": kind,
        "csv columns": CLOUDAI_COLUMNS.get(kind),
        "csv sizes": sizes,
        "report written": bool(sizes),
    }


# ---------------------------------------------------------------------------
# converged-computing metrics-operator: sdk/python/v1alpha2/metricsoperator/
# metrics/network/osu_benchmark.py.  A section of the log is the echoed
# launcher line followed by the program's output; lines are stripped and the
# empty ones dropped.

_MO_LAT = ["Size", "Latency(us)"]
_MO_BW = ["Size", "Bandwidth (MB/s)"]
MO_COLUMNS = {
    "osu_ibarrier": ["Overall(us)", "Compute(us)", "Pure Comm.(us)", "Overlap(%)"],
    "osu_barrier": ["Avg Latency(us)"],
    "osu_mbw_mr": ["Size", "MB/s", "Messages/s"],
    "osu_init": ["nprocs", "min", "max", "avg"],
    "osu_allgather": ["Size", "Avg Latency(us)"],
    "osu_allreduce": ["Size", "Avg Latency(us)"],
}
for _p in ("osu_multi_lat osu_get_acc_latency osu_latency osu_fop_latency osu_put_latency "
           "osu_get_latency osu_acc_latency osu_mt_latency osu_cas_latency osu_latency_mp "
           "osu_latency_mt").split():
    MO_COLUMNS[_p] = _MO_LAT
for _p in "osu_bibw osu_get_bw osu_put_bw osu_put_bibw osu_bw".split():
    MO_COLUMNS[_p] = _MO_BW
MO_TABLE = set(("osu_bw osu_bibw osu_barrier osu_get_bw osu_put_bw osu_put_bibw osu_mbw_mr "
                "osu_multi_lat osu_allgather osu_latency osu_cas_latency osu_put_latency "
                "osu_get_latency osu_latency_mp osu_latency_mt osu_fop_latency osu_acc_latency "
                "osu_get_acc_latency osu_allreduce").split())
_MO_TIME = re.compile("^(real|user|sys\t)")


def _mo_header(section):
    header = []
    while section and section[0].startswith("#"):
        header.append(section.pop(0))
    return header


def _mo_matrix(section):
    rows = []
    for line in section:
        if not line:
            continue
        if _MO_TIME.search(line):
            kind, value = line.strip().split("\t")
            continue
        rows.append([float(x.strip()) for x in line.split(" ") if x])
    return rows


def _mo_parse(section):
    program = os.path.basename(section[0])
    section.pop(0)
    if program == "osu_ibarrier":
        # its column line was not commented in the OMB the parser was written
        # for: the first line after the '#' lines is dropped as the header
        header = _mo_header(section)
        section.pop(0)
        result = {"matrix": _mo_matrix(section), "header": header}
    elif program in MO_TABLE:
        header = _mo_header(section)
        header.pop()
        result = {"matrix": _mo_matrix(section), "header": header}
    elif program == "osu_init":
        header = _mo_header(section)
        data = {}
        for entry in [x.strip() for x in section.pop(0).split(",")]:
            field, value = [x.strip() for x in entry.split(":")]
            unit = ""
            if " " in value:
                value, unit = [x.strip() for x in value.split(" ")]
            if unit:
                field = "%s-%s" % (field, unit)
            data[field] = float(value)
        result = {"matrix": [list(data.values())], "columns": list(data.keys()),
                  "header": header}
    elif program == "osu_hello":
        header = _mo_header(section)
        result = {"matrix": [[section.pop(0)]], "columns": ["message"], "header": header}
    else:
        result = None
    if "columns" not in result:  # TypeError for the programs it has no reader for
        result["columns"] = MO_COLUMNS[program]
    return result


def metrics_operator(program, args, stdout, rc=0):
    launcher = "mpirun --hostfile ./hostlist.txt --allow-run-as-root -np 2 /opt/osu-benchmark/%s" % program
    section = [x.strip() for x in ([launcher] + stdout.split("\n")) if x.strip()]
    try:
        result = _mo_parse(section)
    except Exception as e:  # the operator's parse_log does not catch either
        return {"parsed": False, "error": "%s: %s" % (type(e).__name__, str(e)[:80])}
    columns = result["columns"]
    matrix = result["matrix"]
    out = {
        "parsed": True,
        "columns": columns,
        "header": [" ".join(h.split()) for h in result["header"]],
        "rows": len(matrix),
        "row widths": sorted(set(len(r) for r in matrix)),
        # the example plots build a DataFrame with these columns row by row
        "rows fit columns": all(len(r) == len(columns) for r in matrix),
    }
    if program == "osu_hello":
        out["message"] = matrix[0][0]
    elif program == "osu_init":
        out["nprocs"] = matrix[0][0]
    elif columns and columns[0] == "Size":
        out["sizes"] = [r[0] for r in matrix]
    return out


# ---------------------------------------------------------------------------
# BlueBrain hpcbench: hpcbench/benchmark/osu.py.  Lines are skipped up to the
# one equal (once stripped) to the header string; each later stripped line is
# searched with the row regex.  No row: no metrics, which fails the run.

HPCBENCH_ROW2 = re.compile(r'^(\d+)[\s]+(\d*\.?\d+)')
HPCBENCH_ROW3 = re.compile(r'^(\d+)[\s]+(\d*\.?\d+)[\s]+(\d*\.?\d+)')
HPCBENCH_KIND = {"osu_bw": "bw", "osu_latency": "lat", "osu_mbw_mr": "mbw"}
for _p in "osu_allgather osu_allgatherv osu_alltoall osu_alltoallv osu_reduce osu_allreduce".split():
    HPCBENCH_KIND[_p] = "coll"
HPCBENCH_HEADER = {
    "bw": "# Size      Bandwidth (MB/s)",
    "mbw": "# Size                  MB/s        Messages/s",
    "lat": "# Size          Latency (us)",
    "coll": "# Size       Avg Latency(us)",
}


def hpcbench(program, args, stdout, rc=0):
    kind = HPCBENCH_KIND.get(program)
    if kind is None:
        return {"extractor": None}
    lines = iter(stdout.splitlines())
    for line in lines:
        if line.strip() == HPCBENCH_HEADER[kind]:
            break
    raw = []
    for line in lines:
        line = line.strip()
        m = (HPCBENCH_ROW3 if kind == "mbw" else HPCBENCH_ROW2).search(line)
        if m is None:
            continue
        size = int(m.group(1))
        if kind in ("lat", "coll") and size <= 0:
            continue
        raw.append(size)
    if not raw:
        metrics = []
    elif kind == "bw":
        metrics = ["max_bw", "max_bw_bytes", "maxb_bw", "maxb_bw_bytes", "raw"]
    elif kind == "mbw":
        metrics = ["max_bw", "max_bw_bytes", "max_mr", "maxb_bw", "maxb_bw_bytes", "maxb_mr", "raw"]
    else:
        metrics = ["min_lat", "min_lat_bytes", "minb_lat", "minb_lat_bytes", "raw"]
    out = {"extractor": kind, "command succeeded": rc == 0, "metrics": metrics,
           "raw bytes": raw}
    if raw:
        out["maxb_bw_bytes" if kind in ("bw", "mbw") else "minb_lat_bytes"] = \
            raw[-1] if kind in ("bw", "mbw") else raw[0]
    out["pass"] = rc == 0 and bool(metrics)
    return out


PARSERS = {
    "ramble": ramble,
    "benchpark": benchpark,
    "reframe_hpctestlib": reframe_hpctestlib,
    "reframe_tutorial": reframe_tutorial,
    "cscs": cscs,
    "cloudai": cloudai,
    "metrics_operator": metrics_operator,
    "hpcbench": hpcbench,
}


# ---------------------------------------------------------------------------
# commands.txt

def case_id(np_, program, args):
    cid = "%s.np%s" % (program, np_)
    if args:
        cid += "." + "_".join(args)
    return re.sub(r"[^A-Za-z0-9._=:+-]", "_", cid)


def read_commands(path):
    entries = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            if len(words) < 4 or words[1] not in ("cpu", "gpu") or not words[2].isdigit():
                sys.exit("%s:%d: expected FRAMEWORK DEVICE NP PROGRAM [ARGS...]" % (path, n))
            fw, device, np_, program, args = words[0], words[1], words[2], words[3], words[4:]
            if fw not in PARSERS:
                sys.exit("%s:%d: no parser named %s" % (path, n, fw))
            entries.append({"framework": fw, "device": device, "np": np_, "program": program,
                            "args": args, "case": case_id(np_, program, args)})
    return entries


def _read(path):
    with open(path, errors="replace") as f:
        return f.read()


def _rc(path):
    try:
        return int(_read(path).strip() or "0")
    except (OSError, ValueError):
        return None


def _diff(a, b, prefix=""):
    """Short description of how canonical result b differs from a."""
    out = []
    if isinstance(a, dict) and isinstance(b, dict) and a.get("parsed") != b.get("parsed"):
        return ["%sparse: OMB %s, commsweep %s" % (prefix, a.get("error", "ok"), b.get("error", "ok"))]
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in b:
                out.append("%s%s: only in OMB" % (prefix, k))
            elif k not in a:
                out.append("%s%s: only in commsweep (%r)" % (prefix, k, b[k]))
            elif a[k] != b[k]:
                out.extend(_diff(a[k], b[k], "%s%s." % (prefix, k)))
        return out
    if isinstance(a, list) and isinstance(b, list):
        sa = [repr(x) for x in a]
        sb = [repr(x) for x in b]
        missing = [x for x in sa if x not in sb]
        extra = [x for x in sb if x not in sa]
        if not missing and not extra:
            return ["%s order/count %d vs %d" % (prefix.rstrip("."), len(a), len(b))]
        msg = "%s %d vs %d items" % (prefix.rstrip("."), len(a), len(b))
        if missing:
            msg += "; OMB only: " + ", ".join(missing[:4]) + (" ..." if len(missing) > 4 else "")
        if extra:
            msg += "; commsweep only: " + ", ".join(extra[:4]) + (" ..." if len(extra) > 4 else "")
        return [msg]
    return ["%s OMB %r, commsweep %r" % (prefix.rstrip("."), a, b)]


# The one difference kept on purpose (osu/README.md): commsweep's name after
# OMB's title, "# OSU MPI Latency Test v7.4 (commsweep 0.1.0)". Every parser
# reads past it (Ramble's version pattern included) but metrics-operator,
# which keeps the leading '#' lines as text (its plots' titles). A pair that
# differs in nothing else reads the same, and is counted apart.
COMMSWEEP_TITLE = re.compile(r" \(commsweep [0-9][^)]*\)$")


def _without_our_name(result):
    if not isinstance(result, dict) or not isinstance(result.get("header"), list):
        return result, False
    header = [COMMSWEEP_TITLE.sub("", h) for h in result["header"]]
    if header == result["header"]:
        return result, False
    return dict(result, header=header), True


def compare(commands, refdir, testdir):
    entries = [e for e in read_commands(commands) if e["device"] == "cpu"]
    same = total = skipped = named = 0
    for e in entries:
        label = "%-18s %s" % (e["framework"], " ".join(["-np", e["np"], e["program"]] + e["args"]))
        ref = os.path.join(refdir, e["case"] + ".out")
        test = os.path.join(testdir, e["case"] + ".out")
        if not os.path.exists(ref):
            print("SKIP %s  (no OMB 7.4 output recorded)" % label)
            skipped += 1
            continue
        if not os.path.exists(test):
            print("SKIP %s  (commsweep did not run)" % label)
            skipped += 1
            continue
        parse = PARSERS[e["framework"]]
        a = parse(e["program"], e["args"], _read(ref), _rc(os.path.join(refdir, e["case"] + ".rc")))
        b = parse(e["program"], e["args"], _read(test), _rc(os.path.join(testdir, e["case"] + ".rc")))
        total += 1
        b_plain, ours = _without_our_name(b)
        if a == b:
            same += 1
            print("PASS %s" % label)
        elif a == b_plain:
            same += 1
            named += 1
            print("PASS %s  (the title read with commsweep's name)" % label)
        else:
            print("FAIL %s  %s" % (label, " | ".join(_diff(a, b))))
    print("pairs read the same: %d / %d%s%s" % (
        same, total, (" (%d skipped)" % skipped) if skipped else "",
        ("; %d of them read the title with commsweep's name" % named) if named else ""))
    return 0 if same == total else 1


def main(argv):
    if len(argv) >= 2 and argv[0] == "cases":
        seen = set()
        for e in read_commands(argv[1]):
            if e["device"] != "cpu" or e["case"] in seen:
                continue
            seen.add(e["case"])
            print(" ".join([e["case"], e["np"], e["program"]] + e["args"]))
        return 0
    if len(argv) == 4 and argv[0] == "compare":
        return compare(argv[1], argv[2], argv[3])
    if len(argv) >= 4 and argv[0] == "show":
        import json
        out = argv[2]
        rc = _rc(out[:-4] + ".rc") if out.endswith(".out") else 0
        print(json.dumps(PARSERS[argv[1]](argv[3], argv[4:], _read(out), rc), indent=1, default=str))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
