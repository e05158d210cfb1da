#!/usr/bin/env python3
"""The y axis of a page's plot: its tick labels (text class="tick",
anchored at the end, upright) are round values - evenly spaced by 1, 2 or
5 times a power of ten - and the x axis labels (slanted ticks) hold each
of the given words. usage: ticks.py PAGE [WORD...]; exit 1 with why."""
import math, re, sys

page = open(sys.argv[1]).read()
ys, xs = [], []
for m in re.finditer(r'<text class="(?:tick|name)"([^>]*)>([^<]*)</text>', page):
    attrs, text = m.group(1), m.group(2)
    if 'rotate(' in attrs:
        xs.append(text)
    elif 'text-anchor="end"' in attrs:
        v = re.sub(r'[%+ a-zA-Z]', '', text.replace('\u2212', '-'))
        try:
            ys.append(float(v))
        except ValueError:
            pass
if len(ys) < 3:
    sys.exit("fewer than 3 y ticks: %r" % ys)
ys.sort()
steps = [round(b - a, 12) for a, b in zip(ys, ys[1:])]
step = steps[0]
if any(abs(s - step) > 1e-9 * max(1, abs(step)) for s in steps):
    sys.exit("y ticks not evenly spaced: %r" % ys)
mant = step / 10 ** math.floor(math.log10(step))
if not any(abs(mant - k) < 1e-6 for k in (1, 2, 5, 10)):
    sys.exit("y tick step %g is not 1, 2 or 5 times a power of ten: %r" % (step, ys))
for y in ys:
    if abs(y / step - round(y / step)) > 1e-6:
        sys.exit("y tick %g is not a multiple of its step %g" % (y, step))
for w in sys.argv[2:]:
    if not any(w in x for x in xs):
        sys.exit("no x label holds %r: %r" % (w, xs[:20]))
