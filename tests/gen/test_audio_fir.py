"""The audio_fir example (examples/audio_fir), generated and simulated whole, with the real
Python runtime as the ARM.

pytest side: link the example (optionally with another topology or data width), generate the
wrapper and the top into a temporary folder, lint them (Icarus and Verilator ``-Wall``, no
warnings) and simulate the top with cocotb.

cocotb side: the ARM is ``pushpush.runtime.AsyncRuntime`` for the python component ``host``
over ``CocotbBackend`` (an AxiMaster on the top's ``s_axi``, the ARM's GP0 writes; an AxiRam on
``m_axi``, the on-chip memory holding host's window). host exports ``coeff``, ``source`` and
``sink`` as Python functions and calls ``fir.fir(coeff, src, sink, taps)``; the hardware calls
back into Python for every coefficient, every input sample and every output sample. The
stream ends when ``source`` raises (fir_core sees an error answer from src(); see
examples/audio_fir/rtl/fir_core.v). Every output sample is checked exactly against
``np.convolve`` (32-bit wraparound), and the coefficient calls against the expected indices.

Cases, all in one simulation, one fir call each: 4 taps; 32 taps of 16-bit audio and 2 taps
(measured: cycles per sample are printed); full-range 32-bit values (wraparound); 0 taps;
more taps than MAX_TAPS (32); an empty stream; Python callables passed instead of host's
exports (lent run-time slots; the source an iterator ending with StopIteration); 1 tap (each
call starts with an empty delay line).
"""

from __future__ import annotations

import json
import logging
import os
import random
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
MASK = 0xFFFF_FFFF
MAX_TAPS = 32


def i32(v: int) -> int:
    v = int(v) & MASK
    return v - (1 << 32) if v >> 31 else v


def fir_model(coeffs: list[int], samples: list[int]) -> list[int]:
    """What fir_core sends to sink: y[n] = sum_k c[k] x[n-k] over the first MAX_TAPS
    coefficients, modulo 2**32 as int32 (np.convolve over Python ints: exact)."""
    c = coeffs[:MAX_TAPS]
    if not samples:
        return []
    if not c:
        return [0] * len(samples)
    full = np.convolve(np.array(samples, dtype=object), np.array(c, dtype=object))
    return [i32(v) for v in full[:len(samples)]]


class EndOfStream(Exception):
    """Raised by the source when the samples are exhausted: fir_core ends the stream."""


def make_cases(rng: random.Random) -> list[dict]:
    cases = [
        {"name": "4 taps", "coeffs": [3, -1, 4, 1], "samples": [1, 0, 0, 0, 2, -5, 100, 7, 0, -1]},
        {"name": "32 taps, 16-bit audio", "coeffs": [rng.randint(-32768, 32767) for _ in range(32)],
         "samples": [rng.randint(-32768, 32767) for _ in range(int(os.environ.get("PP_N", "96")))],
         "measure": True},
        {"name": "full-range 32-bit (wraparound)",
         "coeffs": [rng.randint(-(1 << 31), (1 << 31) - 1) for _ in range(7)],
         "samples": [rng.randint(-(1 << 31), (1 << 31) - 1) for _ in range(20)] + [-(1 << 31), (1 << 31) - 1]},
        {"name": "2 taps, 64 samples", "coeffs": [1, -1],
         "samples": [rng.randint(-32768, 32767) for _ in range(64)], "measure": True},
        {"name": "0 taps", "coeffs": [], "samples": [5, -6, 7]},
        {"name": "40 taps > MAX_TAPS", "coeffs": [rng.randint(-100, 100) for _ in range(40)],
         "samples": [rng.randint(-1000, 1000) for _ in range(40)]},
        {"name": "empty stream", "coeffs": [1, 2, 3], "samples": []},
        {"name": "lambdas", "coeffs": [2, 0, -3], "samples": [1, 2, 3, 4, 5, -6], "lambdas": True},
        {"name": "1 tap (again: delay line starts empty)", "coeffs": [-2], "samples": [9, -9, 1 << 30]},
    ]
    return cases


try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles
    from cocotb.utils import get_sim_time
except ImportError:  # collected by pytest outside a simulator
    cocotb = None

if cocotb is not None:

    @cocotb.test()
    async def audio_fir(dut):
        from cocotbext.axi import AxiBus, AxiMaster, AxiRam

        from pushpush.runtime import AsyncRuntime
        from pushpush.runtime.cocotb_backend import CocotbBackend
        from pushpush.sysmap import from_json

        linked = from_json(Path(os.environ["PP_MAP"]).read_text())
        pause = float(os.environ.get("PP_PAUSE", "0"))
        rng = random.Random(int(os.environ.get("PP_SEED", "1")))
        report_path = os.environ.get("PP_REPORT")

        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        # the ARM's ports drive the top's inputs from before the reset (else X get in)
        master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=linked.ps.size)
        for port in (master, ram):
            for lg in (port.write_if.log, port.read_if.log):
                lg.setLevel(logging.WARNING)
        # the end of every stream is an exception in `source`: the runtime logs it
        logging.getLogger("pushpush.runtime").setLevel(logging.CRITICAL)
        if pause:
            prng = random.Random(7)

            def gen(seed):
                r = random.Random(seed)
                while True:
                    yield r.random() < pause

            for p in (master, ram):
                for ch in (p.write_if.aw_channel, p.write_if.w_channel, p.write_if.b_channel,
                           p.read_if.ar_channel, p.read_if.r_channel):
                    ch.set_pause_generator(gen(prng.getrandbits(32)))
        await ClockCycles(dut.clk, 5)
        dut.rst.value = 0
        await ClockCycles(dut.clk, 2)

        backend = CocotbBackend(master, ram, ram_base=linked.ps.base, clock=dut.clk, poll_cycles=1)
        rt = AsyncRuntime(linked, "host", backend, timeout=2e-3)

        state: dict = {}

        def coeff(i):
            state["coeff_calls"].append(i)
            return state["coeffs"][i]

        def source():
            if not state["samples"]:
                state["ends"] += 1
                raise EndOfStream()
            return state["samples"].pop(0)

        def sink(y):
            state["out"].append(y)
            state["t_out"].append(get_sim_time(unit="ns") / 10)

        coeff_f = rt.export("coeff", coeff)
        source_f = rt.export("source", source)
        sink_f = rt.export("sink", sink)

        user = dut.fir_inst.pp_user_inst

        report: dict = {}
        total_samples = 0
        async with rt:
            for case in make_cases(rng):
                coeffs, samples = case["coeffs"], case["samples"]
                state.update(coeffs=coeffs, samples=list(samples), coeff_calls=[], out=[], t_out=[],
                             ends=0)
                t0 = get_sim_time(unit="ns") / 10
                if case.get("lambdas"):
                    # Python callables lent for the call; the source is an iterator whose
                    # StopIteration ends the stream
                    it = iter(samples)

                    def iter_source():
                        try:
                            return next(it)
                        except StopIteration:
                            state["ends"] += 1
                            raise

                    res = await rt.fir.fir(lambda i: coeff(i), iter_source, lambda y: sink(y),
                                           len(coeffs))
                else:
                    res = await rt.fir.fir(coeff=coeff_f, src=source_f, sink=sink_f, taps=len(coeffs))
                t1 = get_sim_time(unit="ns") / 10
                want = fir_model(coeffs, samples)
                name = case["name"]
                assert res is None
                assert state["coeff_calls"] == list(range(min(len(coeffs), MAX_TAPS))), \
                    f"{name}: coeff calls {state['coeff_calls']}"
                assert state["ends"] == 1, f"{name}: source called {state['ends']} times past the end"
                assert len(state["out"]) == len(want), \
                    f"{name}: {len(state['out'])} output samples, want {len(want)}"
                bad = [(n, g, w) for n, (g, w) in enumerate(zip(state["out"], want)) if g != w]
                assert not bad, f"{name}: first mismatches (n, got, want) {bad[:5]}"
                total_samples += len(samples)
                dut._log.info("%s: %d taps, %d samples ok, %d cycles", name, len(coeffs),
                              len(samples), t1 - t0)
                if case.get("measure") and len(state["t_out"]) > 1:
                    t = state["t_out"]
                    cps = (t[-1] - t[0]) / (len(t) - 1)
                    report.setdefault("measured", []).append(
                        {"taps": len(coeffs), "samples": len(samples), "cycles_per_sample": cps,
                         "call_cycles": t1 - t0})
                    dut._log.info("%s: %.2f cycles per sample (steady state, %d samples), "
                                  "whole call %d cycles", name, cps, len(samples), t1 - t0)

        assert int(user.calls_reg.value) == len(make_cases(random.Random(0)))
        assert int(user.samples_reg.value) == total_samples
        # every call ends with exactly one error answer: its end of stream
        assert int(user.errors_reg.value) == int(user.calls_reg.value)
        assert int(dut.fir_inst.pp_collisions.value) == 0, "collisions in fir's window"
        assert int(dut.fir_inst.pp_err_count.value) == 0, "fir: write errors"
        if report_path:
            Path(report_path).write_text(json.dumps(report))


# -------------------------------------------------------------------------------------
# pytest side

from pushpush.build.sim import run_cocotb  # noqa: E402
from pushpush.testing import sim_matrix  # noqa: E402

VARIANTS = [
    {"topology": "crossbar", "data_width": 32, "pause": 0.0},
    {"topology": "shared", "data_width": 32, "pause": 0.3},
    {"topology": "crossbar", "data_width": 64, "pause": 0.0},
]


def test_fir_model():
    assert fir_model([3, -1, 4, 1], [1, 0, 0, 0, 2]) == [3, -1, 4, 1, 6]
    assert fir_model([1 << 31], [2]) == [0]
    assert fir_model([], [1, 2]) == [0, 0]
    assert fir_model(list(range(1, 41)), [1]) == [1]


@pytest.mark.parametrize("simulator,params", sim_matrix(VARIANTS))
def test_audio_fir(simulator, params, tmp_path):
    from gensim import generate_system, lint, load_example

    linked = load_example("audio_fir", topology=params["topology"], data_width=params["data_width"])
    gen = generate_system(linked, tmp_path / "gen")
    assert lint(gen.sources, gen.top) == []
    report = tmp_path / "report.json"
    run_cocotb(toplevel=gen.top, sources=gen.sources, test_module="test_audio_fir", test_dir=HERE,
               simulator=simulator, build_dir=tmp_path / "sim",
               extra_env={"PP_MAP": str(gen.map_path), "PP_PAUSE": str(params["pause"]),
                          "PP_REPORT": str(report)})
    data = json.loads(report.read_text())
    for m in data["measured"]:
        print(f"\n{simulator} {params}: {m['cycles_per_sample']:.2f} cycles per sample "
              f"({m['taps']} taps, {m['samples']} samples, whole fir call {m['call_cycles']:.0f} cycles)")
