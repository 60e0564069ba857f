"""The full HLS participant on the simulated board (docs/hls.md, "The full HLS participant"):
examples/hls_callback's worker.apply(f, x) = f(x) + 1 is HLS C++ (hls/apply.cpp) around the
generated worker_pp.hpp, compiled with g++ and attached as the component (C simulation: its
local memory is its window on the board, its m_axi bursts the board's writes). Python calls
it with Python functions, the Verilog driver with its own export g; the HLS function calls
each back through the function value it was passed. Every result checked against the model."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "hls_callback"
MASK = 0xFFFF_FFFF


def i32(v: int) -> int:
    v &= MASK
    return v - (1 << 32) if v & 0x8000_0000 else v


def g_model(x: int) -> int:
    """driver.g, the Verilog export: 3x + 1 (32-bit)."""
    return i32(3 * x + 1)


def _reader(proc: subprocess.Popen, marker: str) -> tuple[list[str], threading.Thread, threading.Event]:
    """Read the program's lines in a thread; the event is set once ``marker`` (or the end) came."""
    got: list[str] = []
    seen = threading.Event()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            got.append(line.rstrip("\n"))
            if marker in line:
                seen.set()
        seen.set()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    return got, reader, seen


@pytest.mark.slow   # an Icarus build of the system, g++, the board: 20-60 s
def test_python_and_verilog_call_the_hls_function_and_it_calls_back(tmp_path: Path) -> None:
    import pushpush.pynq as ppq
    from pushpush.c.hls_csim import build_csim
    from pushpush.link import link
    from pushpush.pynq.simulated.c_programs import CAttach
    from pushpush.spec import load_system
    from pushpush.spec.hls import csim_spec

    linked = link(csim_spec(load_system(EXAMPLE / "system.yaml")))
    worker = linked.component("worker")
    assert (worker.kind, worker.region, worker.hls_top) == ("c", "ps", "worker_top")
    bit = ppq.write_sim_overlay(linked, tmp_path / "ol", simulator="icarus")
    exe = build_csim(tmp_path / "ol" / "c", linked, "worker", tmp_path / "csim")
    ol = ppq.load(str(bit))
    try:
        with CAttach(ol.device) as att:
            proc = att.popen([str(exe)])
            lines, reader, serving = _reader(proc, "SERVING")
            try:
                assert serving.wait(300) and "SERVING" in lines, f"the C simulation program did not serve: {lines}"
                ol.runtime(timeout=120)
                seen: list[int] = []

                def square(v: int) -> int:
                    seen.append(v)
                    return v * v

                for x in (0, 3, -7, 46340):                   # python -> hls -> python
                    assert ol.worker.apply(square, x) == i32(x * x + 1), x
                assert seen == [0, 3, -7, 46340]
                assert ol.worker.apply(lambda v: v - 10, 4) == -5
                x = 5
                for n in (1, 4):                              # rtl -> hls -> rtl, chained
                    want = x
                    for _ in range(n):
                        want = i32(g_model(want) + 1)
                    assert ol.driver.run(n, x, timeout=120) == want, (n, x)
                    x = want
                assert ol.worker.apply(square, 9) == 82       # Python again after Verilog
            finally:
                proc.terminate()
                proc.wait(timeout=30)
                reader.join(timeout=30)   # its last lines: the counters
            summary = [ln for ln in lines if ln.startswith("served ")]
            assert summary and summary[-1].startswith("served 11 "), lines
            assert summary[-1].endswith("collisions 0 duplicates 0 strays 0 write_errors 0"), lines
            # the callbacks the HLS side timed: 5 into the PL (driver.g), 6 into Python
            timed = [ln.split() for ln in lines if ln.startswith("timed ")]
            assert timed and (timed[-1][2], timed[-1][5]) == ("5", "6"), lines
    finally:
        ol.free()


@pytest.mark.slow   # an Icarus build of the system with the IP model: 10-30 s
def test_the_ip_in_the_pl_is_called_and_calls_back(tmp_path: Path) -> None:
    """The system as loaded: worker's IP (the hand-written model, hls/worker_top.v) placed in
    the PL by the generated worker_hls_place; the same calls, and rtl -> hls -> rtl in exact
    simulated cycles (the model's schedule, not Vitis's)."""
    import pushpush.pynq as ppq
    from pushpush.link import load

    linked = load(EXAMPLE / "system.yaml")
    assert (linked.component("worker").kind, linked.component("worker").region) == ("hls", "pl")
    bit = ppq.write_sim_overlay(linked, tmp_path / "ol", simulator="icarus")
    ol = ppq.load(str(bit))
    try:
        ol.runtime(timeout=120)
        seen: list[int] = []

        def square(v: int) -> int:
            seen.append(v)
            return v * v

        for x in (0, 3, -7, 46340):
            assert ol.worker.apply(square, x) == i32(x * x + 1), x
        assert seen == [0, 3, -7, 46340]
        cycles = {}
        for n in (10, 30):
            c0 = ol.system.cycles()
            want = 5
            for _ in range(n):
                want = i32(g_model(want) + 1)
            assert ol.driver.run(n, 5, timeout=120) == want, n
            cycles[n] = ol.system.cycles() - c0
        # the slope: cycles per chained call, the PL idle while Python waits aside
        per_call = (cycles[30] - cycles[10]) / 20
        assert 20 <= per_call <= 80, cycles
        assert ol.worker.apply(square, 9) == 82
    finally:
        ol.free()
