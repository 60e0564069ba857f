"""``pushpush bench callpath``'s first part: the Python runtime's CPU cost per call, against the in-memory bus.

No simulator and no board: two software components of one linked system share a
:class:`~pushpush.runtime.MemoryBus` (the runtime's test double of the bus). ``host`` imports
``callee.f``, ``int f(int)`` (``"(x: i32) -> i32"``). Three measurements, each over ``calls``
calls (default 10,000) after a warm-up, in CPU time of this process
(``time.process_time_ns``):

- **sync call**: ``SyncRuntime`` ``host`` calls ``rt.callee.f(i)``. The callee is *instant*:
  a backend wrapper that, within the call's bus write, answers it as an RTL callee would
  (reads the argument, writes result + status with the echo to the rep, re-arms the cep), so
  every call finds its reply at the first poll and the numbers are the caller's own work;
- **async call**: the same with ``AsyncRuntime`` (``await rt.callee.f(i)`` in one
  coroutine; the in-memory async backend's ``write`` yields to the event loop once);
- **served call**: ``SyncRuntime`` ``callee`` serves its export ``f`` (a Python function):
  a fake caller writes the call burst into ``callee``'s cep slot, ``callee.poll()`` (one
  sweep, inline) takes it, runs ``f`` and writes the reply, the fake caller takes it.

For each: the mean (total CPU of an uninstrumented loop / calls), the median and the 99th
percentile of per-call samples (each call timed on its own, the timer's own cost
subtracted), and the **bus** share: the same backend operations one call makes (recorded
once, through a wrapper) replayed ``calls`` times without the runtime. ``runtime`` = mean
minus bus: what the pushpush runtime itself costs per call.

``--board`` adds what a Python call costs on a PYNQ-Z1: its uncached accesses per call kind,
counted on the simulated board, and the estimate they give
(:mod:`pushpush.bench.experiments.callpath.board`).

``--rounds N`` (default 3) repeats everything, the trees alternating, and the table shows each
tree's and path's best round (the least disturbed by other processes; all rounds are in the
JSON). ``--tree PATH`` measures another checkout as well (e.g. a ``git worktree`` of an older
commit), in a subprocess, with this same file: the measurement uses only the runtime's public
API (``SyncRuntime``, ``AsyncRuntime``, ``MemoryBus``, ``link``), which every version has.

Example::

    from pushpush.bench.experiments.callpath import run_callpath, format_table
    print(format_table(run_callpath(calls=10_000)))
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

__all__ = ["SYSTEM", "TARGET_US", "run_callpath", "run_tree", "run_rounds", "best_rows", "format_table",
           "check_target", "run"]

#: The measured system: ``host`` calls ``callee.f``, ``int f(int)``.
SYSTEM = """
system: callpath
board: none
components:
  host:
    kind: python
    imports: [callee.f]
  callee:
    kind: python
    exports:
      f: "(x: i32) -> i32"
"""

#: Issue 45's target (issue 16's was 7): runtime CPU per sync ``int f(int)`` call, microseconds.
TARGET_US = 4.0

_TRIGGER_FLAGS = 0x3  # one-way and seq bits of a trigger word (docs/architecture.md §2)
_ECHO_BIT = 0x4000_0000


def _linked() -> Any:
    import tempfile

    from pushpush.link import load

    with tempfile.TemporaryDirectory(prefix="pushpush-bench-callpath-") as tmp:
        path = Path(tmp) / "callpath.yaml"
        path.write_text(textwrap.dedent(SYSTEM))
        return load(path)


class _Recorder:
    """Wraps a backend; records the operations made on it (to replay them without a runtime)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.ops: Optional[list[tuple[str, tuple[Any, ...]]]] = None

    def _rec(self, name: str, *args: Any) -> None:
        if self.ops is not None:
            self.ops.append((name, args))

    def write(self, address: int, words: Sequence[int]) -> Any:
        self._rec("write", address, list(words))
        return self.inner.write(address, words)

    def read_local(self, address: int, count: int) -> list[int]:
        self._rec("read_local", address, count)
        return self.inner.read_local(address, count)

    def write_local(self, address: int, words: Sequence[int]) -> None:
        self._rec("write_local", address, list(words))
        self.inner.write_local(address, words)

    def sleep(self) -> Any:
        self._rec("sleep")
        return self.inner.sleep()


def _instant_callee(bus: Any, cep_address: int) -> Callable[[int], None]:
    """What an RTL ``f(x) = x + 1`` does when its trigger word lands: answer at once."""
    mask = 0xFFFF_FFFF

    def answer(address: int) -> None:
        if address != cep_address:
            return
        x, trig = bus.read(cep_address, 2)
        if not trig:
            return
        if not trig & 1:  # two-way: result, then the status with the echo of the seq bit
            bus.write(trig & ~_TRIGGER_FLAGS & mask,
                      [(x + 1) & mask, 1 | (_ECHO_BIT if trig & 2 else 0)])
        bus.write_raw(cep_address + 4, [0])  # re-arm the cep slot
    return answer


class _InstantSync:
    """The host's sync backend; the callee answers within the call's write."""

    def __init__(self, inner: Any, answer: Callable[[int], None]) -> None:
        self.inner, self.answer = inner, answer
        self.read_local, self.write_local, self.sleep = inner.read_local, inner.write_local, inner.sleep

    def write(self, address: int, words: Sequence[int]) -> None:
        self.inner.write(address, words)
        self.answer(address)


class _InstantAsync:
    """The host's async backend; the callee answers within the call's write."""

    def __init__(self, inner: Any, answer: Callable[[int], None]) -> None:
        self.inner, self.answer = inner, answer
        self.read_local, self.write_local, self.sleep = inner.read_local, inner.write_local, inner.sleep

    async def write(self, address: int, words: Sequence[int]) -> None:
        self.inner.bus.write(address, words)
        self.answer(address)
        await asyncio.sleep(0)  # as MemoryAsyncBackend.write: one turn of the event loop


_BLOCK = 500  # calls per block; call and bus blocks alternate, so load drifts hit both alike


def _summary(name: str, samples_ns: list[int], overhead_ns: int, total_ns: int, calls: int) -> dict[str, float]:
    s = sorted(max(0, x - overhead_ns) for x in samples_ns)
    return {f"{name}mean_us": round(total_ns / calls / 1000, 3),
            f"{name}median_us": round(statistics.median(s) / 1000, 3),
            f"{name}p99_us": round(s[min(len(s) - 1, int(0.99 * len(s)))] / 1000, 3)}


def _timer_overhead() -> int:
    clock = time.process_time_ns
    d = []
    for _ in range(2000):
        t0 = clock()
        d.append(clock() - t0)
    return int(statistics.median(d))


def _measure(call: Callable[[int], Any], replay: Callable[[], Any], calls: int,
             overhead: int) -> dict[str, Any]:
    """Time ``call(i)`` (one call) and ``replay()`` (its bus operations alone), interleaved."""
    clock = time.process_time_ns
    for i in range(min(calls, 500)):  # warm-up
        call(i)
        replay()
    gc.collect()
    total = bus = 0
    for first in range(0, calls, _BLOCK):
        n = min(_BLOCK, calls - first)
        t0 = clock()
        for i in range(first, first + n):
            call(i)
        t1 = clock()
        for _ in range(n):
            replay()
        t2 = clock()
        total += t1 - t0
        bus += t2 - t1
    samples, bus_samples = [], []
    for i in range(calls):
        a = clock()
        call(i)
        b = clock()
        replay()
        c = clock()
        samples.append(b - a)
        bus_samples.append(c - b)
    return {**_summary("", samples, overhead, total, calls),
            **_summary("bus_", bus_samples, overhead, bus, calls)}


async def _ameasure(call: Callable[[int], Any], replay: Callable[[], Any], calls: int,
                    overhead: int) -> dict[str, Any]:
    """:func:`_measure` for coroutines."""
    clock = time.process_time_ns
    for i in range(min(calls, 500)):
        await call(i)
        await replay()
    gc.collect()
    total = bus = 0
    for first in range(0, calls, _BLOCK):
        n = min(_BLOCK, calls - first)
        t0 = clock()
        for i in range(first, first + n):
            await call(i)
        t1 = clock()
        for _ in range(n):
            await replay()
        t2 = clock()
        total += t1 - t0
        bus += t2 - t1
    samples, bus_samples = [], []
    for i in range(calls):
        a = clock()
        await call(i)
        b = clock()
        await replay()
        c = clock()
        samples.append(b - a)
        bus_samples.append(c - b)
    return {**_summary("", samples, overhead, total, calls),
            **_summary("bus_", bus_samples, overhead, bus, calls)}


def _replayer(backend: Any, ops: list[tuple[str, tuple[Any, ...]]]) -> Callable[[], None]:
    """One call's backend operations (recorded by :class:`_Recorder`), without the runtime."""
    fns = [(getattr(backend, name), args) for name, args in ops if name != "sleep"]

    def replay() -> None:
        for fn, args in fns:
            fn(*args)
    return replay


def _sync_call(calls: int, overhead: int) -> dict[str, Any]:
    from pushpush.runtime import MemoryBus, SyncRuntime

    linked = _linked()
    bus = MemoryBus(linked)
    imp = linked.component("host").imports[0]
    backend = _Recorder(_InstantSync(bus.sync_backend("host"), _instant_callee(bus, imp.cep_address)))
    rt = SyncRuntime(linked, "host", backend)
    f = rt.callee.f
    assert f(41) == 42 and f(-1) == 0
    backend.ops = []
    f(1)
    ops, backend.ops = backend.ops, None
    res = _measure(f, _replayer(backend.inner, ops), calls, overhead)
    assert f(-5) == -4 and rt.counters.strays == 0
    return {**res, "bus_ops": len(ops)}


def _async_call(calls: int, overhead: int) -> dict[str, Any]:
    from pushpush.runtime import AsyncRuntime, MemoryBus

    linked = _linked()
    bus = MemoryBus(linked)
    imp = linked.component("host").imports[0]
    answer = _instant_callee(bus, imp.cep_address)
    backend = _Recorder(_InstantAsync(bus.async_backend("host"), answer))
    rt = AsyncRuntime(linked, "host", backend)
    f = rt.callee.f

    async def main() -> dict[str, Any]:
        assert await f(41) == 42
        backend.ops = []
        await f(1)
        ops, backend.ops = backend.ops, None
        inner = backend.inner
        steps = [(name == "write", getattr(inner, name), args) for name, args in ops if name != "sleep"]

        async def replay() -> None:  # the same operations, the write with its event-loop turn
            for is_write, fn, args in steps:
                if is_write:
                    await fn(*args)
                else:
                    fn(*args)
        res = await _ameasure(f, replay, calls, overhead)
        assert await f(-5) == -4 and rt.counters.strays == 0
        return {**res, "bus_ops": len(ops)}

    return asyncio.run(main())


def _served_call(calls: int, overhead: int) -> dict[str, Any]:
    from pushpush.runtime import MemoryBus, SyncRuntime

    linked = _linked()
    bus = MemoryBus(linked)
    imp = linked.component("host").imports[0]
    backend = _Recorder(bus.sync_backend("callee"))
    rt = SyncRuntime(linked, "callee", backend, workers=0)
    rt.export("f", lambda x: x + 1)
    seq = [0]
    cep, rep, rep_status = imp.cep_address, imp.rep_address, imp.rep_trigger_address

    def call(x: int) -> int:
        """The fake caller (an RTL caller's part: write the call, take the reply) + one sweep."""
        seq[0] ^= 1
        bus.write(cep, [x & 0xFFFF_FFFF, rep | (2 if seq[0] else 0)])
        rt.poll()
        y, status = bus.read(rep, 2)
        bus.write_raw(rep_status, [0])
        return y

    assert call(41) == 42 and call(-1) == 0
    backend.ops = []
    seq[0] ^= 1
    bus.write(cep, [1, rep | (2 if seq[0] else 0)])
    rt.poll()
    ops, backend.ops = backend.ops, None
    bus.write_raw(rep_status, [0])
    own = _replayer(bus.sync_backend("callee"), ops)

    def replay() -> None:  # the fake caller's bus operations and the callee's own
        bus.write(cep, [1, rep])
        own()
        bus.read(rep, 2)
        bus.write_raw(rep_status, [0])
        bus.write_raw(imp.cep_trigger_address, [0])  # what the sweep's clear did in call()

    res = _measure(call, replay, calls, overhead)
    assert call(5) == 6 and rt.counters.duplicates == 0 and rt.counters.strays == 0
    return {**res, "bus_ops": len(ops) + 3}


def run_callpath(calls: int = 10_000, label: str = "this tree") -> list[dict[str, Any]]:
    """Measure the three call paths in this process (see the module docstring)."""
    import pushpush

    overhead = _timer_overhead()
    rows = []
    for kind, fn in (("sync call", _sync_call), ("async call", _async_call),
                     ("served call", _served_call)):
        r = fn(calls, overhead)
        r["runtime_mean_us"] = round(r["mean_us"] - r["bus_mean_us"], 3)
        r["runtime_median_us"] = round(r["median_us"] - r["bus_median_us"], 3)
        rows.append({"tree": label, "path": kind, "calls": calls, **r,
                     "source": str(Path(pushpush.__file__).resolve().parents[1])})
    return rows


def _one(args: dict[str, Any]) -> None:
    rows = run_callpath(int(args["calls"]), args["label"])
    print("PUSHPUSH-BENCH " + json.dumps(rows), flush=True)


def run_tree(tree: str, calls: int = 10_000, label: str = "before") -> list[dict[str, Any]]:
    """The same measurement of another checkout, in a subprocess (its pushpush first on the path)."""
    root = Path(tree).resolve()
    if not (root / "pushpush" / "runtime").is_dir():
        raise FileNotFoundError(f"--tree {tree}: no pushpush/runtime there; give the root of a "
                                "pushpush checkout (e.g. a git worktree of an older commit)")
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = ("import json, sys; sys.path.insert(0, %r); "
            "import importlib.util as u; s = u.spec_from_file_location('pushpush_bench_callpath', %r); "
            "m = u.module_from_spec(s); s.loader.exec_module(m); m._one(json.loads(%r))"
            % (str(root), __file__, json.dumps({"calls": calls, "label": label})))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=3600, cwd=str(root))
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("PUSHPUSH-BENCH ")]
    if proc.returncode or not lines:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-15:])
        raise RuntimeError(f"the callpath bench failed for the tree {tree}:\n{tail}")
    rows: list[dict[str, Any]] = json.loads(lines[-1][len("PUSHPUSH-BENCH "):])
    return rows


def run_rounds(rounds: int = 3, calls: int = 10_000, tree: Optional[str] = None, label: str = "before",
               log: Callable[[str], None] = lambda m: None) -> list[dict[str, Any]]:
    """``rounds`` rounds of the measurement, the other tree (if any) and this one alternating,
    so that a change of the machine's load between two runs hits both trees alike. Every row
    gets its ``round``; :func:`best_rows` picks the least disturbed one per tree and path."""
    rows: list[dict[str, Any]] = []
    for r in range(1, rounds + 1):
        if tree:
            log(f"callpath bench, round {r}/{rounds}: {tree} ({label}) ...")
            rows += [dict(x, round=r) for x in run_tree(tree, calls, label)]
        log(f"callpath bench, round {r}/{rounds}: this tree ...")
        rows += [dict(x, round=r) for x in run_callpath(calls)]
    return rows


def best_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (tree, path), the round with the smallest median runtime share (the machine's
    other load only ever adds CPU time), in first-seen order."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        key = (r["tree"], r["path"])
        if key not in best or r["runtime_median_us"] < best[key]["runtime_median_us"]:
            best[key] = r
    return list(best.values())


COLUMNS = [("tree", "tree"), ("path", "path"), ("round", "round"), ("calls", "calls"), ("mean_us", "mean"),
           ("median_us", "median"), ("p99_us", "p99"), ("bus_mean_us", "bus mean"),
           ("bus_median_us", "bus median"), ("runtime_mean_us", "runtime mean"),
           ("runtime_median_us", "runtime median")]


def format_table(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a text table (CPU microseconds per call)."""
    if not rows:
        return "(no rows)"
    head = [h for _, h in COLUMNS]
    body = [[str(r.get(k, "")) for k, _ in COLUMNS] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    fmt = "  ".join(f"{{:>{w}}}" for w in widths)
    return "\n".join([fmt.format(*head), fmt.format(*("-" * w for w in widths))]
                     + [fmt.format(*b) for b in body])


def check_target(rows: Sequence[dict[str, Any]], label: str = "this tree") -> list[str]:
    """Targets missed: the median runtime CPU of a sync call above :data:`TARGET_US` µs.

    The median, not the mean: on a shared machine the mean carries whatever the other
    processes do to the caches (the mean is printed next to it).
    """
    return [f"{r['path']} ({r['tree']}): median {r['runtime_median_us']} µs (mean "
            f"{r['runtime_mean_us']} µs) of runtime CPU per call, target {TARGET_US:g} µs"
            for r in rows if r["tree"] == label and r["path"] == "sync call"
            and r["runtime_median_us"] > TARGET_US]


def run(opts: Any, log: Callable[[str], None]) -> dict[str, Any]:
    """``pushpush bench callpath`` (registry, :mod:`pushpush.bench.registry`)."""
    from pushpush.bench.registry import OptionError, missed_targets, result

    calls = opts.calls or 10_000
    if calls < 10:
        raise OptionError(f"--calls {calls}: at least 10 calls")
    if opts.rounds < 1:
        raise OptionError(f"--rounds {opts.rounds}: at least 1")
    if getattr(opts, "board", False):
        try:
            import pynq.pl_server  # noqa: F401
        except ImportError:
            raise OptionError("--board counts on the simulated board, which needs PYNQ: "
                              "pip install 'pushpush-fpga[pynq]' (or run without --board)") from None
    try:
        all_rows = run_rounds(opts.rounds, calls, opts.tree, opts.label, log=log)
    except FileNotFoundError as exc:  # --tree is not a pushpush checkout
        raise OptionError(str(exc)) from None
    rows = best_rows(all_rows)
    out = Path(opts.output)
    out.mkdir(parents=True, exist_ok=True)
    (out / "callpath.json").write_text(json.dumps({"best": rows, "rounds": all_rows}, indent=1))
    table = format_table(rows)
    lines = [f"CPU µs per int f(int) call against the in-memory bus, best of {opts.rounds} round(s) "
             "(bus: the same bus operations alone; runtime = call - bus)", table,
             f"\nresults: {out / 'callpath.json'}"]
    missed = check_target(rows)
    if missed:
        lines.append("target missed:\n  " + "\n  ".join(missed))
    else:
        lines.append(f"target met: at most {TARGET_US:g} µs of runtime CPU per sync call (median)")
    board: Optional[list[dict[str, Any]]] = None
    if getattr(opts, "board", False):
        # (imported here: --tree runs this file against older trees, which lack the module)
        from pushpush.bench.experiments.callpath.board import board_rows, format_accesses
        board = _board(out, log)
        text = format_accesses(board)
        lines += ["", text]
        table += "\n\n" + text
        (out / "callpath_board.json").write_text(json.dumps({"rows": board, "estimate": board_rows(board)},
                                                            indent=1))
    return result("callpath", "callpath: the Python runtime's CPU time per call", "\n".join(lines),
                  rows=rows, targets=missed_targets(missed), markdown=table)


def _board(out: Path, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """``--board``: the accesses per call kind on the simulated board (PYNQ: checked in run)."""
    from pushpush.bench.experiments.callpath.board import count_accesses

    return count_accesses(out / "work" / "callpath_board", log=log)
