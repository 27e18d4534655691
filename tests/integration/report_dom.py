#!/usr/bin/env python3
"""Reads the DOM of tools/report's page as Chromium left it (--dump-dom)
and prints one TAP line per property a reader relies on:

  report_dom.py DOM [--columns ID=NAME,NAME...] [--tables ID=N] [--min-images N]

  - every table heads its columns with names (no made-up c1, c2...), and
    the section ID's tables with the program's own words (--columns);
  - one table per gnuplot block: section ID has N tables (--tables);
  - a headline of at most 12 figures, among them latency, bandwidth and
    the seeds' peaks;
  - nothing meant for tests on the page (no 'page check', no script);
  - a summary (the verdict, system, MPI, nodes, ranks, date) and a table of
    contents whose links all lead to an element of the page;
  - every image a data: URI of a PNG that decodes (the browser's word,
    data-decoded, where the test marked it, and the bytes themselves);
  - the network map's heatmaps inline, and its figures with units.
Python 3 standard library only.
"""
import argparse
import base64
import re
import struct
import sys
import zlib
from html.parser import HTMLParser

HEADINGS = ("h1", "h2", "h3", "h4")


class Page(HTMLParser):
    """Tables, images, links, ids and text, each with the section (the id
    of the last heading before it) it sits in."""

    def __init__(self):
        super().__init__()
        self.section = ""
        self.ids, self.links, self.images, self.tables = set(), [], [], []
        self.scripts = 0
        self.text = {}          # section -> its text
        self.toc_links = []
        self.summary = []       # the summary's row names
        self.verdict = []       # the summary's verdict
        self.stack = []         # open elements that matter
        self.table = None
        self.cell = None
        self.skip = 0           # inside <style> or <script>

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag in HEADINGS:
            self.section = a.get("id", self.section if tag == "h1" else "")
        if tag in ("style", "script"):
            self.skip += 1
            # (the test's own probe, which marks the decoded images, is no part of the page)
            self.scripts += tag == "script" and a.get("id") != "test-probe"
        if tag == "nav" and a.get("id") == "contents":
            self.stack.append("nav")
        if tag == "div" and a.get("id") == "summary":
            self.stack.append("summary")
        if "summary" in self.stack and "verdict" in (a.get("class") or "").split():
            self.cell = []
            self.stack.append("verdict")
        if tag == "a" and (a.get("href") or "").startswith("#"):
            self.links.append(a["href"][1:])
            if "nav" in self.stack:
                self.toc_links.append(a["href"][1:])
        if tag == "img":
            self.images.append((self.section, a.get("src") or "", a.get("data-decoded")))
        if tag == "table":
            self.table = {"section": self.section, "columns": [], "rows": 0, "part": "",
                          "id": a.get("id", ""), "cells": []}
            self.tables.append(self.table)
        elif self.table is not None:
            if tag in ("thead", "tbody"):
                self.table["part"] = tag
            elif tag == "tr" and self.table["part"] == "tbody":
                self.table["rows"] += 1
                self.table["cells"].append([])
            elif tag in ("th", "td"):
                self.cell = []

    def handle_endtag(self, tag):
        if tag in ("style", "script") and self.skip:
            self.skip -= 1
        if tag == "nav" and "nav" in self.stack:
            self.stack.remove("nav")
        if tag == "div" and "summary" in self.stack:
            self.stack.remove("summary")
        if tag == "p" and "verdict" in self.stack:
            self.stack.remove("verdict")
            self.verdict.append("".join(self.cell).strip())
            self.cell = None
        if tag == "table":
            self.table = None
        elif tag in ("th", "td") and self.cell is not None and self.table is not None:
            text = "".join(self.cell).strip()
            if self.table["part"] == "thead":
                self.table["columns"].append(text)
            elif "summary" in self.stack and tag == "th":
                self.summary.append(text)
            elif self.table["cells"]:
                self.table["cells"][-1].append(text)
            self.cell = None

    def handle_data(self, data):
        if self.skip:
            return
        if self.cell is not None:
            self.cell.append(data)
        self.text.setdefault(self.section, []).append(data)


def png_problem(data):
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "no PNG signature"
    pos, idat, ihdr = 8, [], None
    while True:
        if pos + 8 > len(data):
            return "cut before IEND"
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk, crc = data[pos + 8:pos + 8 + length], data[pos + 8 + length:pos + 12 + length]
        if len(chunk) != length or len(crc) != 4 or \
                zlib.crc32(kind + chunk) != struct.unpack(">I", crc)[0]:
            return f"damaged {kind!r} chunk"
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if not ihdr or not ihdr[0] or not ihdr[1]:
        return "no size"
    w, h, depth, colour, _, _, interlace = ihdr
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error:
        return "image data does not decompress"
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    if interlace == 0 and len(raw) != h * ((w * channels * depth + 7) // 8 + 1):
        return "image data of the wrong size"
    return None


def tap(ok, what, detail=""):
    print(("ok - " if ok else "not ok - ") + what)
    if not ok and detail:
        for line in str(detail).split("\n")[:10]:
            print("#   " + line[:300])
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dom")
    ap.add_argument("--columns", action="append", default=[])
    ap.add_argument("--tables", action="append", default=[])
    ap.add_argument("--min-images", type=int, default=1)
    a = ap.parse_args()
    p = Page()
    p.feed(open(a.dom, encoding="utf-8").read())
    text = {k: " ".join("".join(v).split()) for k, v in p.text.items()}
    everything = " ".join(text.values())

    named = [t for t in p.tables if t["columns"]]
    made_up = sorted({c for t in named for c in t["columns"] if re.fullmatch(r"c\d+", c)})
    tap(named and not made_up, f"every table's columns are named ({len(named)} tables with "
        "headings, none c1, c2...)", f"made-up names: {made_up}")
    for spec in a.columns:
        sid, words = spec.split("=", 1)
        words = words.split(",")
        ts = [t for t in p.tables if t["section"] == sid]
        missing = [t["columns"] for t in ts if not all(w in t["columns"] for w in words)]
        tap(ts and not missing, f"{sid}: its {len(ts)} tables are headed by its own words "
            f"({', '.join(words)})", f"tables: {[t['columns'] for t in ts][:3]}")
    for spec in a.tables:
        sid, n = spec.split("=", 1)
        ts = [t for t in p.tables if t["section"] == sid]
        rows = [t["rows"] for t in ts]
        tap(len(ts) == int(n), f"{sid}: one table per gnuplot block ({n} blocks, "
            f"{len(ts)} tables, rows {rows})")
    empty = [t["columns"][:3] for t in p.tables if t["rows"] == 0]
    tap(p.tables and not empty, f"every table has rows ({len(p.tables)} tables)",
        f"empty: {empty[:5]}")

    head = [t for t in p.tables if t["section"] == "headline"]
    rows = head[0]["rows"] if head else 0
    firsts = [row[0] for row in head[0]["cells"] if row] if head else []
    tap(head and 5 <= rows <= 12, f"the headline holds {rows} figures (5 to 12)",
        f"figures: {firsts}")
    wanted = ["latency", "bandwidth peak", "bidirectional bandwidth peak", "bus bandwidth",
              "network map", "alltoall/all peak", "always/all peak"]
    absent = [w for w in wanted if not any(w in f for f in firsts)]
    tap(head and not absent, "the headline has latency, bandwidth, bidirectional bandwidth, a "
        "collective's bus bandwidth, the network map and the seeds' peaks",
        f"missing: {absent}; figures: {firsts}")

    tap("page check" not in everything.lower() and p.scripts == 0,
        "nothing meant for tests on the page (no 'page check' text, no script)",
        f"scripts: {p.scripts}")
    want_summary = ["system", "MPI", "nodes", "ranks", "date"]
    tap(p.summary == want_summary and len(p.verdict) == 1 and
        re.match(r"Verdict: (PASS|FAIL|NO REFERENCES): \d+ passed", p.verdict[0]),
        "a summary at the top: the verdict, " + ", ".join(want_summary),
        f"got: {p.summary}, {p.verdict}")
    dangling = [x for x in p.links if x not in p.ids]
    sections = ["headline", "network-map", "system", "programs"]
    tap(all(s in p.toc_links for s in sections) and not dangling and len(p.toc_links) > 4,
        f"a table of contents ({len(p.toc_links)} links) whose links, and the page's "
        f"{len(p.links)}, all lead to an id", f"dangling: {dangling[:5]}; toc: {p.toc_links[:8]}")

    bad = []
    for i, (section, src, decoded) in enumerate(p.images, 1):
        m = re.match(r"^data:image/png;base64,(.+)$", src, re.S)
        why = None if m else f"not a data: URI of a PNG: {src[:40]}"
        if m:
            try:
                why = png_problem(base64.b64decode(m.group(1), validate=True))
            except ValueError:
                why = "not base64"
        if not why and decoded == "0":
            why = "the browser did not decode it"
        if why:
            bad.append(f"image {i} ({section}): {why}")
    browser = sum(1 for _, _, d in p.images if d == "1")
    tap(len(p.images) >= a.min_images and not bad,
        f"every image is an inline PNG that decodes ({len(p.images) - len(bad)} of "
        f"{len(p.images)}; the browser decoded {browser})", "\n".join(bad))

    nm = text.get("network-map", "")
    maps = [s for s, _, _ in p.images if s == "network-map"]
    bare = re.findall(r"\b(?:min|median|max|MAD) -?[0-9][0-9.]*(?![0-9.]| ?(?:MB/s|us|GB/s))", nm)
    tap(nm and maps and not bare and "MB/s" in nm and " us" in nm,
        f"the network map shows {len(maps)} heatmaps and its figures with units",
        f"bare figures: {bare[:5]}")


if __name__ == "__main__":
    main()
