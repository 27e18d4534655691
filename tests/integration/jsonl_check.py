#!/usr/bin/env python3
"""Checks programs' --format=jsonl output: every line against
doc/jsonl.schema.json (parsed strictly: no NaN, no duplicate keys), then
what a schema cannot say: a header first, a summary last, rows in between;
each row's fields declared in its table with every key present; the
summary's row count; --samples and --stats fields where the header says;
and, with --recompute, median, P5, P95 and CV recomputed from each row's
samples. Prints one line per problem; exit status 0 when there is none.

  jsonl_check.py SCHEMA FILE [--program FAMILY/NAME] [--status N]
                 [--validation WORD] [--min-rows N] [--recompute]
  jsonl_check.py SCHEMA --batch LIST

With --batch, LIST holds one check a line, tab-separated: the output file,
the stderr file, the exit status, a description, then the options above;
each becomes a TAP line "ok - DESCRIPTION" or "not ok - ..." with the
problems and the first lines of stderr below it (one start of Python and
of the schema for all the runs of a test).
"""
import argparse
import json
import math
import shlex
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed (machines/local/install-deps.sh installs it)")
    sys.exit(1)


def strict_pairs(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise ValueError("duplicate key %r" % k)
        seen[k] = v
    return seen


def no_constant(name):
    raise ValueError("not JSON: %s" % name)


def parse(line):
    return json.loads(line, object_pairs_hook=strict_pairs, parse_constant=no_constant)


def percentile(sorted_values, p):
    """Hyndman and Fan type 7, as common/stats.h documents it."""
    n = len(sorted_values)
    h = (n - 1) * p / 100.0
    lo = math.floor(h)
    if lo + 1 >= n:
        return sorted_values[n - 1]
    return sorted_values[lo] + (h - lo) * (sorted_values[lo + 1] - sorted_values[lo])


def spread(values):
    v = sorted(values)
    n = len(v)
    mean = sum(v) / n
    cv = None
    if n >= 2 and mean != 0:
        sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1))
        cv = sd / mean
    return {"median": percentile(v, 50), "p5": percentile(v, 5), "p95": percentile(v, 95), "cv": cv}


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-300


def check(args, validator):
    problems = []
    with open(args.file, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return ["not UTF-8: %s" % e]
    if not text:
        return ["no output"]
    if not text.endswith("\n"):
        problems.append("the last line has no newline (half written?)")
    objects = []
    for number, line in enumerate(text.split("\n")[:-1], 1):
        try:
            obj = parse(line)
        except ValueError as e:
            problems.append("line %d is not JSON (%s): %.120s" % (number, e, line))
            continue
        for error in validator.iter_errors(obj):
            # The top level is a oneOf: say what is wrong in the closest branch.
            while error.context:
                error = jsonschema.exceptions.best_match(error.context)
            where = "/".join(str(p) for p in error.absolute_path)
            problems.append("line %d %s: %s" % (number, where or "(object)", error.message[:300]))
        objects.append(obj)
    if problems:
        return problems

    types = [o.get("type") for o in objects]
    if types[0] != "header" or types.count("header") != 1:
        problems.append("want exactly one header, first; got %s" % types[:3])
    if types[-1] != "summary" or types.count("summary") != 1:
        problems.append("want exactly one summary, last; got %s" % types[-3:])
    if problems:
        return problems
    header, summary, rows = objects[0], objects[-1], objects[1:-1]
    tables = header["tables"]

    if args.program and header["program"] != args.program:
        problems.append("program %s, want %s" % (header["program"], args.program))
    if header["program"].split("/")[0] != header["family"]:
        problems.append("program %s is not of family %s" % (header["program"], header["family"]))
    if args.status is not None and summary["status"] != args.status:
        problems.append("summary status %s, want %s (message: %s)"
                        % (summary["status"], args.status, summary["message"]))
    if summary["status"] != 0 and not summary["message"]:
        problems.append("summary status %s without the message" % summary["status"])
    if args.validation and summary["validation"] != args.validation:
        problems.append("summary validation %s, want %s" % (summary["validation"], args.validation))
    if summary["rows"] != len(rows):
        problems.append("summary counts %d rows, there are %d" % (summary["rows"], len(rows)))
    if len(rows) < args.min_rows:
        problems.append("%d rows, want at least %d" % (len(rows), args.min_rows))

    for name, t in tables.items():
        units = t["units"]
        for field in [t["main"]] + t["keys"] + ([t["stats_of"]] if t["stats_of"] else []):
            if field not in units:
                problems.append("table %s names field %s that it does not declare" % (name, field))
        wanted = []
        if t["stats_of"] and header["stats"]:
            wanted += ["median", "p5", "p95", "cv"]
        if t["stats_of"] and header["samples"]:
            wanted += ["samples"]
        for field in wanted:
            if field not in units:
                problems.append("table %s lacks %s although the header says it is on" % (name, field))

    for i, row in enumerate(rows, 2):
        t = tables.get(row["table"])
        if t is None:
            problems.append("line %d: table %s is not in the header" % (i, row["table"]))
            continue
        fields = set(row) - {"type", "table"}
        undeclared = fields - set(t["units"])
        if undeclared:
            problems.append("line %d: fields %s not declared in table %s"
                            % (i, sorted(undeclared), row["table"]))
        missing = [k for k in t["keys"] + [t["main"]] if k not in row]
        if missing:
            problems.append("line %d: no %s" % (i, missing))
        for field in fields & set(t["units"]):
            unit = t["units"][field]
            value = row[field]
            if unit == "text" and not isinstance(value, str):
                problems.append("line %d: %s is text in the header, not %r" % (i, field, value))
            if unit == "bool" and not isinstance(value, bool):
                problems.append("line %d: %s is bool in the header, not %r" % (i, field, value))
        if not t["stats_of"]:
            continue
        if header["stats"] and not all(k in row for k in ("median", "p5", "p95", "cv")):
            problems.append("line %d: --stats but no median, p5, p95 or cv" % i)
        if header["samples"]:
            samples = row.get("samples")
            if samples is None or len(samples) != row.get("iterations"):
                problems.append("line %d: --samples but %s samples for %s iterations"
                                % (i, None if samples is None else len(samples), row.get("iterations")))
            elif args.recompute and header["stats"]:
                want = spread(samples)
                for k in ("median", "p5", "p95", "cv"):
                    if not close(row[k], want[k]):
                        problems.append("line %d: %s is %r, the samples give %r" % (i, k, row[k], want[k]))
    return problems


def options():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--program")
    ap.add_argument("--status", type=int)
    ap.add_argument("--validation")
    ap.add_argument("--min-rows", type=int, default=0)
    ap.add_argument("--recompute", action="store_true")
    ap.add_argument("--batch")
    return ap


def shown(problems):
    lines = problems[:20]
    if len(problems) > 20:
        lines.append("... and %d more" % (len(problems) - 20))
    return lines


def batch(listing, validator):
    failed = 0
    with open(listing) as f:
        for entry in f:
            out, err, rc, desc, opts = (entry.rstrip("\n").split("\t") + [""])[:5]
            args = options().parse_args([out] + shlex.split(opts))
            problems = check(args, validator)
            if not problems:
                print("ok - %s" % desc)
                continue
            failed += 1
            print("not ok - %s" % desc)
            with open(err, errors="replace") as e:
                stderr = e.read(800).splitlines()
            for line in ["exit status %s" % rc] + shown(problems) + stderr:
                print("#   %s" % line)
    return 1 if failed else 0


def main():
    schema, rest = sys.argv[1], sys.argv[2:]
    with open(schema) as f:
        validator = jsonschema.Draft7Validator(json.load(f))
    args = options().parse_args(rest)
    if args.batch:
        return batch(args.batch, validator)
    problems = check(args, validator)
    for line in shown(problems):
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
