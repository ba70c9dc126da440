#!/usr/bin/env python3
"""What a slot model for Extrae's hardware counters (types 42000000-42999999) could save.

Replays the counter values of a .prv per (thread, type) through coding 5's slot models
(docs/mtf-format.md 10.6: Previous, Linear, TwoBack, Zero, chosen by the decayed cost of
past misses) and through the same set plus one candidate model, and prints the sum of the
residuals' bit lengths (before zstd: an upper bound on what the value streams hold) with
and without the candidate. Candidates:
  rate   the last value scaled by the time since the thread's previous read of the type
         over the interval before it (counters count per interval: cycles ~ elapsed time)
  ratio  the last value scaled as the record's first counter moved (IPC-like ratios)
Usage: bench/corpus/paraver_counter_models.py TRACE.prv [TRACE.prv ...]
Slots are approximated per (thread, type); mtf's are per DAG context (finer).
"""
import collections
import sys

COUNTERS = range(42000000, 43000000)


def miss(actual, predicted):
    d = actual - predicted
    return ((d << 1) if d >= 0 else ((-d) << 1) - 1).bit_length()


def decay(cost, m):
    return cost - cost // 4 + 4 * m


class Slot:
    def __init__(self):
        self.last = self.step = self.dt = 0
        self.time = None
        self.costs = [0] * 5


def scaled(value, num, den):
    return (value * num + den // 2) // den if den > 0 else value


def candidate(kind, slot, time, lead):
    if kind == "rate":
        return scaled(slot.last, time - slot.time, slot.dt) if slot.time is not None else slot.last
    return scaled(slot.last, lead[0], lead[1]) if lead else slot.last


def replay(path, kind):
    slots = collections.defaultdict(Slot)
    bits = [0, 0]  # the four models of coding 5 (without the time offset), plus the candidate
    count = 0
    for line in open(path, errors="replace"):
        if not line.startswith("2:"):
            continue
        f = line.strip().split(":")
        thread, time, lead = tuple(f[2:5]), int(f[5]), None
        for i in range(6, len(f) - 1, 2):
            kind_of, value = int(f[i]), int(f[i + 1])
            if kind_of not in COUNTERS:
                continue
            s = slots[(thread, kind_of)]
            predictions = [s.last, s.last + s.step, s.last - s.step, 0,
                           candidate(kind, s, time, lead)]
            if lead is None:
                lead = (value, s.last)
            misses = [miss(value, p) for p in predictions]
            for j, models in enumerate((4, 5)):
                best = min(range(models), key=lambda m: (s.costs[m], m))
                bits[j] += misses[best]
            s.costs = [decay(c, m) for c, m in zip(s.costs, misses)]
            s.step, s.last = value - s.last, value
            if s.time is not None:
                s.dt = time - s.time
            s.time = time
            count += 1
    return count, bits


for path in sys.argv[1:]:
    for kind in ("rate", "ratio"):
        count, (old, new) = replay(path, kind)
        change = 100.0 * (new - old) / old if old else 0.0
        print(f"{path}: {count} counter values, {kind}: {old // 8} -> {new // 8} bytes ({change:+.1f}%)")
