"""Where the FIR cell's wall time goes (issue 28): hand-offs between the PYNQ process's threads
and the simulator per Python callback, and each thread's CPU and run-queue wait.

The cell of scripts/fir_cell_bench.py (96 samples through the Verilog FIR, 8 taps, every
callback sleeping a random 0-4 ms), N runs. Per thread of this process and of the simulator
process it prints, summed over the runs: the CPU it ran (schedstat), the time it waited
runnable for a CPU (schedstat: run-queue wait), its voluntary context switches (blocks, each
ended by a wake-up) and involuntary ones (preempted). Then per callback: blocks of every thread
of both processes, the wall time, and the simulator's share of a CPU while a run was going.

    PYTHONPATH=. python scripts/handoff_bench.py 10
    ../shared/tools/busy-host -- python scripts/handoff_bench.py 10     # beside busy loops
"""
from __future__ import annotations

import logging
import os
import random
import sys
import time
from collections import defaultdict
from typing import Any

import numpy as np

os.environ.setdefault("PUSHPUSH_BOARD", "sim")
logging.getLogger("pushpush.runtime").setLevel(logging.CRITICAL)


def threads(pid: int) -> dict[str, dict[str, int]]:
    """name/tid -> {run_ns, wait_ns, slices, vol, invol} of every thread of ``pid``."""
    out: dict[str, dict[str, int]] = {}
    base = f"/proc/{pid}/task"
    named = {}
    if pid == os.getpid():
        import threading
        named = {str(t.native_id): t.name for t in threading.enumerate()}
    for tid in os.listdir(base):
        try:
            with open(f"{base}/{tid}/comm") as f:
                name = named.get(tid) or f.read().strip()
            with open(f"{base}/{tid}/schedstat") as f:
                run_ns, wait_ns, slices = (int(v) for v in f.read().split())
            vol = invol = 0
            with open(f"{base}/{tid}/status") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches"):
                        vol = int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches"):
                        invol = int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
        out[f"{name}/{tid}"] = {"run_ns": run_ns, "wait_ns": wait_ns, "slices": slices,
                                "vol": vol, "invol": invol}
    return out


def delta(a: dict[str, dict[str, int]], b: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {k: {f: v[f] - a.get(k, {}).get(f, 0) for f in v} for k, v in b.items()}


def main(runs: int) -> dict[str, Any]:
    import pushpush.apps as apps
    import pushpush.pynq  # noqa: F401
    fir_app = apps.load_app("audio_fir")
    ol = apps.open_system("audio_fir", progress=lambda *a: None)
    b = ol.device.bridge
    sim_pid = int(b.info()["pid"])
    print(f"simulator pid {sim_pid}", flush=True)
    rng = random.Random(1)
    x = fir_app.test_signal(480)[:96]
    coeffs = [1] * 8
    want = fir_app.fir_reference(np.array(coeffs), x)
    me = os.getpid()
    totals: dict[str, dict[str, dict[str, int]]] = {"pynq": defaultdict(dict), "sim": defaultdict(dict)}
    times, cycles, wrong, callbacks = [], [], 0, 0
    sim_counts: dict[str, int] = {}
    from pushpush.simboard.ipc import read_status
    force = float(os.environ.get("HANDOFF_FORCE_SLICE_US", "0"))
    for r in range(runs):
        if force and r == 1:   # experiment: every thread of both processes, from outside
            import ctypes
            from pushpush.simboard.slice import _ATTR, _SYS_SCHED_SETATTR
            libc = ctypes.CDLL(None, use_errno=True)
            for pid in (me, sim_pid):
                for tid in os.listdir(f"/proc/{pid}/task"):
                    buf = ctypes.create_string_buffer(_ATTR.pack(_ATTR.size, 0, 0, 0, 0,
                                                                 int(force * 1000), 0, 0, 0, 0))
                    print("slice", pid, tid, libc.syscall(_SYS_SCHED_SETATTR, int(tid), buf, 0))
        it, out = iter(x.tolist()), []
        count = [0]

        def d() -> None:
            count[0] += 1
            time.sleep(rng.uniform(0, 0.004))

        def c(i: int) -> int:
            d()
            return int(coeffs[i])

        def s() -> int:
            d()
            return next(it)

        def k(v: int) -> None:
            d()
            out.append(v)

        c0 = b.info()["cycle"]
        k0 = dict(read_status(b.ctl.mem)["counts"])
        p0, s0 = threads(me), threads(sim_pid)
        t = time.monotonic()
        ol.fir.fir(c, s, k, len(coeffs), timeout=600)
        wall = time.monotonic() - t
        p1, s1 = threads(me), threads(sim_pid)
        cycles.append(b.info()["cycle"] - c0)
        for name, n in read_status(b.ctl.mem)["counts"].items():
            sim_counts[name] = sim_counts.get(name, 0) + n - k0.get(name, 0)
        times.append(wall)
        callbacks += count[0]
        wrong += not np.array_equal(np.array(out), want)
        for key, d0, d1 in (("pynq", p0, p1), ("sim", s0, s1)):
            for name, v in delta(d0, d1).items():
                acc = totals[key][name]
                for f, n in v.items():
                    acc[f] = acc.get(f, 0) + n
    ol.free()
    total_wall = sum(times)
    print(f"{'process':5} {'thread':34} {'cpu_s':>7} {'runq_s':>7} {'blocks':>7} {'preempt':>7}")
    blocks = 0
    sim_cpu = 0.0
    for key in ("pynq", "sim"):
        for name, v in sorted(totals[key].items(), key=lambda kv: -kv[1].get("vol", 0)):
            if not any(v.values()):
                continue
            blocks += v["vol"]
            if key == "sim":
                sim_cpu += v["run_ns"] / 1e9
            print(f"{key:5} {name:34} {v['run_ns'] / 1e9:7.3f} {v['wait_ns'] / 1e9:7.3f} "
                  f"{v['vol']:7d} {v['invol']:7d}")
    print("simulator counts:", " ".join(f"{k}={v}" for k, v in sorted(sim_counts.items()) if v))
    ts = sorted(times)
    res = {"runs": runs, "median_s": ts[len(ts) // 2], "max_s": ts[-1], "wrong": wrong,
           "cycles_median": sorted(cycles)[len(cycles) // 2], "callbacks_per_run": callbacks / runs,
           "blocks_per_callback": blocks / callbacks, "ms_per_callback": 1e3 * total_wall / callbacks,
           "sim_cpu_share": sim_cpu / total_wall,
           "sim_runq_s": sum(v["wait_ns"] for v in totals["sim"].values()) / 1e9,
           "load": os.getloadavg()[0]}
    print("RESULT " + " ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                              for k, v in res.items()), flush=True)
    return res


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
