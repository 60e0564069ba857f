"""Component 'pyprog' of tests/c/data/restart.yaml: a Python program attached to the simulated
board from its own process (pushpush.pynq.simulated.c_programs.attach_runtime), started again and again
against one load (tests/c/test_restart.py). Modes (argv[1]), as tests/c/src/crestart.c's:

  calls <n> <dyn> <sdyn>  "SLOW", py.slow(x, 0) through its dynamic slot at <sdyn> and its
                    static slot, checked; n calls of hw.f through the static slot and n through
                    the dynamic slot at <dyn>, each printed "pair <x> <result>"; fir.fir
                    with three lent Python functions, its output checked; counters, "ALL OK".
  hang <ms> [sdyn]  print "CALLING", then call py.slow(1, ms) (through the dynamic slot at
                    sdyn if given): the test kills us meanwhile, or our timeout
                    (RESTART_TIMEOUT_MS) ends the call: "TIMEOUT <its message>".
  claim <component> attach as <component> (owned by someone else): print the refusal.
"""

from __future__ import annotations

import os
import sys

from pushpush.protocol import CallTimeout
from pushpush.pynq.simulated.c_programs import attach_runtime
from pushpush.runtime.claim import ClaimRefused


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "calls"
    if mode == "claim":
        try:
            attach_runtime(sys.argv[2])
        except ClaimRefused as e:
            print(f"REFUSED {e}", flush=True)
            return 0
        print("NOT REFUSED", flush=True)
        return 1
    rt = attach_runtime("pyprog", timeout=float(os.environ.get("RESTART_TIMEOUT_MS", 60000)) / 1000)
    if mode == "hang":
        print("CALLING", flush=True)
        try:
            if len(sys.argv) > 3:
                rt.function(int(sys.argv[3], 0), "(x: i32, ms: u32) -> i32")(1, int(sys.argv[2]))
            else:
                rt.py.slow(1, int(sys.argv[2]))
        except CallTimeout as e:
            print(f"TIMEOUT {e}", flush=True)
            return 0
        print("returned", flush=True)
        return 0
    n = int(sys.argv[2])
    dyn = rt.function(int(sys.argv[3], 0), "(x: i32) -> i32", name="hw.f (dynamic slot)")
    x = 11
    # first (its rep is the first run-time rep, as a killed predecessor's first call through a
    # function value had): a software callee through a dynamic slot, then the static one
    print("SLOW", flush=True)
    slow_dyn = rt.function(int(sys.argv[4], 0), "(x: i32, ms: u32) -> i32", name="py.slow (dynamic)")
    assert slow_dyn(x, 0) == x + 1
    assert rt.py.slow(x, 0) == x + 1
    for i in range(n):                       # the static slot
        r = rt.hw.f(x)
        print(f"pair {x} {r}", flush=True)
        x = r ^ i
    for i in range(n):                       # a dynamic slot
        r = dyn(x)
        print(f"pair {x} {r}", flush=True)
        x = r ^ i
    coeffs = [3, -1, 4, -2]                  # lent slots: hardware calls our functions back
    xs = [(k * 7919) % 2001 - 1000 for k in range(12)]
    src, ys = iter(xs), []
    rt.fir.fir(lambda i: coeffs[i], lambda: next(src), ys.append, len(coeffs))
    want = []
    for k in range(len(xs)):
        acc = sum(coeffs[t] * xs[k - t] for t in range(len(coeffs)) if t <= k)
        want.append((acc + 2**31) % 2**32 - 2**31)
    assert ys == want, (ys, want)
    c = rt.counters
    print(f"counters c{c.collisions} d{c.duplicates} s{c.strays} w{c.write_errors}", flush=True)
    print("ALL OK", flush=True)
    rt.stop()
    rt.backend.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
