"""Compare two test runs test by test: the tests both runs have, their time before and after.

Run each tree's suite with ``--durations=0`` into a log, then::

    python scripts/compare_durations.py old.log new.log

Prints the totals, the tests present in both runs (same node id) with their summed
setup + call + teardown time in each run, by folder, and the largest tests only the second
run has. pytest hides durations under 5 ms, so counts are of tests that took longer.
"""

from __future__ import annotations

import collections
import re
import sys


def load(path: str) -> dict[str, float]:
    """Seconds per test node id (setup + call + teardown) from a ``--durations=0`` log."""
    out: dict[str, float] = collections.defaultdict(float)
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*([\d.]+)s (call|setup|teardown)\s+(\S+)", line)
            if m:
                out[m.group(3)] += float(m.group(1))
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    old, new = load(argv[0]), load(argv[1])
    common = set(old) & set(new)
    so = sum(old[k] for k in common)
    sn = sum(new[k] for k in common)
    print(f"first: {len(old)} tests {sum(old.values()):.0f} s; second: {len(new)} tests "
          f"{sum(new.values()):.0f} s")
    print(f"in both: {len(common)} tests: first {so:.0f} s, second {sn:.0f} s, "
          f"second/first {sn / so if so else 0:.2f}")
    by_dir: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0])
    for k in common:
        d = k.split("::")[0].rsplit("/", 1)[0]
        by_dir[d][0] += old[k]
        by_dir[d][1] += new[k]
        by_dir[d][2] += 1
    for d, (a, b, n) in sorted(by_dir.items(), key=lambda x: -x[1][0]):
        print(f"  {d:28s} {int(n):4d} tests  first {a:7.0f} s  second {b:7.0f} s  "
              f"{b / a if a else 0:.2f}")
    only = sorted(((new[k], k) for k in set(new) - common), reverse=True)
    print(f"only in the second: {len(only)} tests, {sum(v for v, _ in only):.0f} s; the largest:")
    for v, k in only[:8]:
        print(f"  {v:6.1f} s {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
