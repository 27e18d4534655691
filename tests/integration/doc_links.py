#!/usr/bin/env python3
"""doc_links: every relative link and anchor in the Markdown pages under ROOT
resolves (GitHub's heading anchors). Prints each broken one as FILE:LINE:
TARGET: why, then a count; status 1 when one is broken."""
import os, re, sys, glob

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
HEAD = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^()\s>]+(?:\([^)]*\))?)>?(?:\s+\"[^\"]*\")?\s*\)")

def strip_code_spans(line):
    out, i = [], 0
    while i < len(line):
        if line[i] == "`":
            j = i
            while j < len(line) and line[j] == "`":
                j += 1
            ticks = line[i:j]
            k = line.find(ticks, j)
            if k < 0:
                out.append(line[i:j]); i = j; continue
            out.append(" "); i = k + len(ticks); continue
        out.append(line[i]); i += 1
    return "".join(out)

def slug(text):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links -> their text
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")

def body_lines(path):
    fenced = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield n, line.rstrip("\n")

_anchors = {}
def anchors(path):
    if path not in _anchors:
        seen, out = {}, set()
        for _, line in body_lines(path):
            m = HEAD.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            if s in seen:
                seen[s] += 1
                s2 = f"{s}-{seen[s]}"
            else:
                seen[s] = 0
                s2 = s
            out.add(s2)
        for _, line in body_lines(path):   # explicit <a id=...> / <a name=...>
            for m in re.finditer(r"<a\s+(?:id|name)=\"([^\"]+)\"", line):
                out.add(m.group(1))
        _anchors[path] = out
    return _anchors[path]

files = [p for p in glob.glob(os.path.join(ROOT, "**", "*.md"), recursive=True)
         if not os.path.relpath(p, ROOT).split(os.sep)[0].startswith(("build", "results", "."))
         and "/.git/" not in p]
def chunks(path):
    """(first line number, text) of each run of lines outside fences."""
    cur, start, fenced = [], None, False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                if cur:
                    yield start, "".join(cur)
                cur, start = [], None
                fenced = not fenced
                continue
            if fenced:
                continue
            if start is None:
                start = n
            cur.append(line)
    if cur:
        yield start, "".join(cur)

bad = checked = 0
for path in sorted(files):
    for start, text in chunks(path):
        clean = strip_code_spans(text)
        for m in LINK.finditer(clean):
            n = start + clean.count("\n", 0, m.start())
            target = m.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):   # http:, mailto:
                continue
            checked += 1
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            rel = os.path.relpath(path, ROOT)
            if not os.path.exists(dest):
                print(f"{rel}:{n}: {target}: no such file"); bad += 1; continue
            if anchor:
                if not dest.endswith(".md") or os.path.isdir(dest):
                    print(f"{rel}:{n}: {target}: anchor on a non-Markdown target"); bad += 1; continue
                if anchor not in anchors(dest):
                    print(f"{rel}:{n}: {target}: no anchor #{anchor} in {os.path.relpath(dest, ROOT)}"); bad += 1
print(f"{checked} links checked in {len(files)} files, {bad} broken")
sys.exit(1 if bad else 0)
