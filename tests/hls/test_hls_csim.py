"""C simulation of a kind: hls component on the simulated board (docs/hls.md): the system of
pushpush.spec.hls.csim_spec (the hls component as kind: c, same exports), its generated C and
the program pushpush.c.hls_csim builds from the example's HLS C++ (pingpong_step.cpp, g++)
attached to the simulated board as C programs attach; the Verilog caller (caller.run) and
Python call the C++ function through the PushPush protocol, every result checked against the
model the example's Verilog is checked against too."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import threading
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "hls_pingpong"


def _wait_for(proc: subprocess.Popen, marker: str, timeout: float) -> list[str]:
    got: list[str] = []
    seen = threading.Event()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            got.append(line.rstrip("\n"))
            if marker in line:
                seen.set()
        seen.set()

    threading.Thread(target=pump, daemon=True).start()
    assert seen.wait(timeout), f"the C simulation program printed no {marker!r} in {timeout} s: {got}"
    return got


@pytest.mark.slow   # an Icarus build of the C simulation system, g++, the board: 20-50 s
def test_the_hls_function_runs_as_c_on_the_simulated_board(tmp_path: Path) -> None:
    import pushpush.pynq as ppq
    from pushpush.c.hls_csim import build_csim
    from pushpush.link import link
    from pushpush.pynq.simulated.c_programs import CAttach
    from pushpush.spec import load_system
    from pushpush.spec.hls import csim_spec

    linked = link(csim_spec(load_system(EXAMPLE / "system.yaml")))
    callee = linked.component("callee")
    assert (callee.kind, callee.region, callee.hls_top) == ("c", "ps", "pingpong_step")
    bit = ppq.write_sim_overlay(linked, tmp_path / "ol", simulator="icarus")
    exe = build_csim(tmp_path / "ol" / "c", linked, "callee", tmp_path / "csim")
    # the example's app.py by its path: another example's `app` may be in sys.modules already
    spec = importlib.util.spec_from_file_location("hls_pingpong_app", EXAMPLE / "app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    i32, step_model = app.i32, app.step_model
    ol = ppq.load(str(bit))
    try:
        with CAttach(ol.device) as att:
            proc = att.popen([str(exe)])
            try:
                lines = _wait_for(proc, "SERVING", 300)
                assert "SERVING" in lines, lines
                ol.runtime(timeout=120)
                state = 0
                for x in (0, 1, 12345, -5000):           # the testbench's arguments
                    got = ol.callee.f(x)
                    state = step_model(state, x)
                    assert got == i32(state), (x, got, i32(state))
                n = 12
                cycles = ol.caller.run(n, timeout=120)   # Verilog -> the C++ function, chained
                assert cycles > 0
                x = n
                for _ in range(n):
                    state = step_model(state, x)
                    x = i32(state)
                assert ol.callee.f(7) == i32(step_model(state, 7))
            finally:
                proc.terminate()
                proc.wait(timeout=30)
    finally:
        ol.free()


def test_a_system_without_hls_sources_has_nothing_to_simulate() -> None:
    from pushpush.spec import load_system
    from pushpush.spec.hls import csim_spec

    with pytest.raises(ValueError, match="no kind: hls component with hls_sources"):
        csim_spec(load_system(REPO / "examples" / "pingpong" / "system.yaml"))
