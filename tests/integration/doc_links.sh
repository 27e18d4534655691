#!/usr/bin/env bash
# The documentation's links: every relative link and anchor in the Markdown
# pages (README.md, doc/, the families' READMEs, CONTRIBUTING.md, tests/)
# resolves, so a section that moves takes its links along. The checker is
# shown to catch a missing file and a missing anchor on a page made here.
. "$(dirname "$0")/../lib.sh"
check="$TOP/tests/integration/doc_links.py"
out=$(python3 "$check" "$TOP" 2>&1)
rc=$?
if [ "$rc" = 0 ]; then
    ok "every relative link and anchor of the Markdown pages resolves ($(tail -n 1 <<< "$out"))"
else
    not_ok "every relative link and anchor of the Markdown pages resolves" "$(head -n 20 <<< "$out")"
fi
page="$TMPD/docs"
mkdir -p "$page"
printf '# Title\n\n## A section\n\n[fine](#a-section) [gone](#no-such-section) [lost](missing.md)\n' > "$page/page.md"
out=$(python3 "$check" "$page" 2>&1)
rc=$?
if [ "$rc" = 1 ] && grep -q "page.md:5: #no-such-section: no anchor" <<< "$out" &&
    grep -q "page.md:5: missing.md: no such file" <<< "$out" && ! grep -q "#a-section" <<< "$out"; then
    ok "the checker names a missing anchor and a missing file, and passes a good anchor"
else
    not_ok "the checker names a missing anchor and a missing file, and passes a good anchor" "status $rc
$out"
fi
summary
