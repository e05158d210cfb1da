#!/bin/sh
# The HTML report in a real browser: Debian's chromium, headless, renders
# pages made from the committed fixture store and from runs made here.
# The DOM it builds holds the plots the model calls for - a dot plot per
# load with a group per config, the forest plot's effects, the timeline's
# runs (counted against the store), oltp's tps and latency -
# the screenshot is not blank, and labels written to attack the page come
# out as text: no script or img element of theirs exists.
. "$CT_TESTLIB"
plan 19

if ! command -v chromium >/dev/null 2>&1; then
	for i in $(seq 19); do skip "html report in chromium" "chromium is not installed (make check installs it)"; done
	exit 0
fi

# dom FILE OUT: the DOM chromium builds from FILE
dom() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$T/chrome" \
		--dump-dom "file://$1" >"$2" 2>"$T/chrome.err"
}
# q OUT SELECTOR...: how many elements match each "tag.class[attr=value]>tag.class[attr=value]" (a
# child anywhere below its parent), one number per selector
q() {
	python3 - "$@" <<'EOF'
import re, sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.all = [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        node = (tag, set((a.get("class") or "").split()), a, list(self.stack))
        self.all.append(node)
        if tag not in ("circle", "line", "rect", "polyline", "text", "title", "meta", "br", "i"):
            self.stack.append(node)
    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

def match(node, sel):
    m = re.fullmatch(r"([a-z0-9]*)((?:\.[a-z-]+)*)((?:\[[a-z-]+=[^\]]*\])*)", sel)
    tag, cls, attrs = m.group(1), m.group(2), m.group(3)
    if tag and node[0] != tag:
        return False
    if any(c not in node[1] for c in cls.split(".")[1:]):
        return False
    return all(node[2].get(k) == v for k, v in re.findall(r"\[([a-z-]+)=([^\]]*)\]", attrs))

p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
for sel in sys.argv[2:]:
    parts = sel.split(">")
    n = 0
    for node in p.all:
        if not match(node, parts[-1]):
            continue
        anc, k = node[3], len(parts) - 2
        for a in reversed(anc):
            if k >= 0 and match(a, parts[k]):
                k -= 1
        n += k < 0
    print(n)
EOF
}
expect_eq() { # expect_eq DESC GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got '$2', expected '$3'" "$(tail -3 "$T/chrome.err" 2>/dev/null)"; fi
}

load_fixture "$CT_FIXTURES/store/v5.db"
k10=k+sysctl.vm.swappiness=10
k60=k+sysctl.vm.swappiness=60
run report "$k10" "$k60" -o "$T/vary.html"
expect_rc "report -o FILE.html: exit 0" 0
dom "$T/vary.html" "$T/vary.dom"
expect_eq "chromium renders it" "$(grep -c '</html>' "$T/vary.dom")" 1
# the loads and runs of the two configs, from the store itself
loads=$(sql "select distinct r.load from runs r join configs c on c.id = r.config_id where c.label = '$k10' order by r.load")
for l in $loads; do
	expect_eq "dot plot of $l: a group per config" \
		"$(q "$T/vary.dom" "svg.dotplot[data-load=$l]>g.config[data-config=$k10]" "svg.dotplot[data-load=$l]>g.config[data-config=$k60]" | tr '\n' ' ')" "1 1 "
	expect_eq "dot plot of $l: a dot per ok run" \
		"$(q "$T/vary.dom" "svg.dotplot[data-load=$l]>circle.run")" \
		"$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label in ('$k10', '$k60') and r.load = '$l' and r.status = 'ok'")"
	expect_eq "forest plot: the effect of $k60 under $l" \
		"$(q "$T/vary.dom" "svg.forest>g.effect[data-load=$l][data-config=$k60]")" 1
done
expect_eq "timeline: a bar per stored run" "$(q "$T/vary.dom" "svg.timeline>rect")" \
	"$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label in ('$k10', '$k60')")"
check "the config diff names the sysctl that differs" grep -q '<td class="l">vm.swappiness</td>' "$T/vary.dom"
expect_eq "no script element at all" "$(q "$T/vary.dom" "script")" 0

# oltp: tps per second and latency percentiles per load
run report oa ob -o "$T/oltp.html"
expect_rc "oltp report: exit 0" 0
dom "$T/oltp.html" "$T/oltp.dom"
expect_eq "oltp: a tps plot and a latency plot, a group per config in each" \
	"$(q "$T/oltp.dom" "svg.tps>g.config" "svg.latency>g.config" | tr '\n' ' ')" "2 2 "

# the screenshot is not blank: the pixels vary
timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$T/chrome" \
	--hide-scrollbars --window-size=1000,1600 --screenshot="$T/shot.png" "file://$T/vary.html" \
	>/dev/null 2>"$T/chrome.err"
colours=$(python3 - "$T/shot.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        bpp = {2: 3, 6: 4}[ctype]
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride, prev, seen = zlib.decompress(idat), w * bpp, None, set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    prev = prev or bytearray(stride)
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        seen.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp * 4))
    prev = line
print(len(seen))
EOF
)
if [ "${colours:-0}" -gt 20 ]; then ok "the screenshot is not blank ($colours colours)"; else
	not_ok "the screenshot is not blank" "$colours colours" "$(tail -3 "$T/chrome.err")"; fi

# labels that attack the page
xss1='<script>alert(1)</script>'
xss2='"><img src=x onerror=alert(1)>'
# (-L refuses them; a store from elsewhere - an older contend, a fleet's
# push - may hold them: named so here)
run run -w selftest -l none -n 2 -L xss1
run run -w selftest -l none -n 2 -L xss2
sql "update configs set label = '$xss1' where label = 'xss1'"
sql "update configs set label = '$(echo "$xss2" | sed "s/'/''/g")' where label = 'xss2'"
run report "$xss1" "$xss2" -o "$T/xss.html"
expect_rc "a report of hostile labels: exit 0" 0
dom "$T/xss.html" "$T/xss.dom"
# a page whose script ran (an alert blocks headless chromium) or that broke
# comes back short: the whole page must be there before its absences count
expect_eq "chromium built the whole page: both configs in the timeline" \
	"$(q "$T/xss.dom" "svg.timeline>g.config" | tr -d ' ')$(grep -c '</html>' "$T/xss.dom")" 21
expect_eq "no script element of theirs" "$(q "$T/xss.dom" "script")" 0
expect_eq "no img element of theirs" "$(q "$T/xss.dom" "img")" 0
expect_eq "the labels are shown as text" \
	"$(python3 -c 'import html, sys; t = html.unescape(open(sys.argv[1]).read()); print(int(sys.argv[2] in t and sys.argv[3] in t))' "$T/xss.dom" "$xss1" "$xss2")" 1
