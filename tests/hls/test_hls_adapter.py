"""The ``ap_ctrl_hs`` adapter of ``kind: hls`` (pushpush.codegen.hls, docs/hls.md) against
models of Vitis HLS top functions written to UG1399's block-protocol timing
(tests/hls/hls_models.py): sequential functions of latency 0 (combinational) to 7, a
pipelined one (ap_ready before ap_done), a void one, 64-bit and narrow arguments.

The adapter is generated from a system description (``kind: hls``) exactly as ``pushpush
generate`` writes it. The bench plays the wrapper's side of the rtl port contract
(docs/rtl-ports.md): a call presented at random, its arguments held until taken, the next
call only after the completion; ``<f>_result_ready`` at random (back-pressure). Every cycle
it checks:

- the model never sees ``ap_start`` fall before ``ap_ready``, nor an input change before
  ``ap_ready`` (``violation``), nor a call started while one runs (``overlap``);
- a result is offered only for a taken call, with the function's value of that call's
  arguments, stable while it is not taken; one completion per call;
- the adapter adds no cycle: a call whose result is taken at once completes r + d cycles
  after it was presented (the model's latency of that call, ``last_lat``), in the same cycle
  for latency 0;
- the calls the model started equal the calls completed.

Icarus for every set, Verilator for the first (``slow``, sim_matrix).
"""

from __future__ import annotations

import json
import os
import random
import struct
from pathlib import Path

import pytest

try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ReadOnly, RisingEdge
except ImportError:  # collected by pytest outside a simulator
    cocotb = None

HERE = Path(__file__).parent


def _mask(w: int) -> int:
    return (1 << w) - 1


def _sx(v: int, w: int) -> int:
    v &= _mask(w)
    return v - (1 << w) if v >> (w - 1) else v


def _expect(name: str, args: dict[str, int]) -> int:
    """The function each model computes (the same as its Verilog expression)."""
    if name == "mac":
        a, b, c = args["a"], args["b"], args["c"]
        return (_sx(a, 32) * _sx(b, 16)) & _mask(64) if c else (_sx(a, 32) - _sx(b, 16)) & _mask(64)
    if name == "pipe":
        return (args["x"] * 3 + 1) & _mask(32)
    if name in ("comb", "xor0"):
        return (args["p"] ^ args["q"]) & _mask(32)
    if name == "neg64":
        return args["v"] ^ (1 << 63)
    if name == "sink":
        return 0
    raise KeyError(name)


#: name, signature, the model's (name, width) ports, result width, Verilog expression,
#: MAX_R, MAX_D, bench probabilities: presenting a call, result_ready
CONFIGS = [
    dict(name="mac", sig="(a: i32, b: i16, c: bool) -> i64", args=[["a", 32], ["b", 16], ["c", 1]],
         rw=64, expr="c ? {{32{a[31]}}, a} * {{48{b[15]}}, b} : {{32{a[31]}}, a} - {{48{b[15]}}, b}",
         max_r=7, max_d=0, p_call=0.6, p_rr=0.6, seed=1),
    dict(name="pipe", sig="(x: u32) -> u32", args=[["x", 32]], rw=32, expr="x * 32'd3 + 32'd1",
         max_r=2, max_d=6, p_call=0.8, p_rr=0.4, seed=2),
    dict(name="xor0", sig="(p: u32, q: u32) -> u32", args=[["p", 32], ["q", 32]], rw=32,
         expr="p ^ q", max_r=0, max_d=0, p_call=0.9, p_rr=0.5, seed=3),
    dict(name="sink", sig="(a: i8, b: u8) -> void", args=[["a", 8], ["b", 8]], rw=0, expr="",
         max_r=4, max_d=3, p_call=0.7, p_rr=0.3, seed=4),
    dict(name="neg64", sig="(v: f64) -> f64", args=[["v", 64]], rw=64, expr="v ^ {1'b1, 63'd0}",
         max_r=3, max_d=0, p_call=1.0, p_rr=0.9, seed=5),
    # a latency-0 top in the form Vitis HLS writes it: no ap_clk, no ap_rst, all assigns
    # (tests/hls/hls_models.py: combinational_top); the bench checks the protocol itself
    dict(name="comb", sig="(p: u32, q: u32) -> u32", args=[["p", 32], ["q", 32]], rw=32,
         expr="p ^ q", max_r=0, max_d=0, p_call=0.7, p_rr=0.5, seed=6, clockless=True),
]

if cocotb is not None:

    @cocotb.test()
    async def random_calls(dut):
        cfg = json.loads(os.environ["HLS_CFG"])
        rng = random.Random(cfg["seed"])
        g = cfg["name"]
        n_calls = int(os.environ.get("HLS_CALLS", "300"))
        sig = lambda s: getattr(dut, f"{g}_{s}")  # noqa: E731
        top = dut.hls_top
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        sig("valid").value = 0
        sig("result_ready").value = 0
        for name, _w in cfg["args"]:
            sig(name).value = 0
        for _ in range(3):
            await RisingEdge(dut.clk)
        dut.rst.value = 0

        done = 0
        cycle = 0
        presented = None       # (args, cycle presented) while f_valid is high
        busy = None            # (args, cycle presented) of the taken call
        held = None            # a result offered and not taken: its value
        lat_checked = 0
        starts = 0
        while done < n_calls:
            cycle += 1
            assert cycle < 100 * n_calls + 1000, f"only {done} of {n_calls} calls completed"
            if presented is None and busy is None and rng.random() < cfg["p_call"]:
                args = {name: rng.getrandbits(w) for name, w in cfg["args"]}
                if g == "neg64":
                    args["v"] = struct.unpack("<Q", struct.pack("<d", rng.uniform(-1e9, 1e9)))[0]
                presented = (args, cycle)
                sig("valid").value = 1
                for name, v in args.items():
                    sig(name).value = v
            rr = rng.random() < cfg["p_rr"]
            sig("result_ready").value = int(rr)
            await ReadOnly()
            clockless = cfg.get("clockless", False)
            if clockless:
                # UG1399's latency 0: ap_start only with a presented call and no call in flight
                assert int(top.ap_start.value) == int(presented is not None and busy is None)
                starts += int(top.ap_start.value)
            else:
                assert int(top.violation.value) == 0, "ap_start fell or an input changed before ap_ready"
                assert int(top.overlap.value) == 0, "a call started while one was in flight"
            taken = presented is not None and int(sig("ready").value) == 1
            if taken:
                busy, presented = presented, None
            rv = int(sig("result_valid").value)
            if rv:
                assert busy is not None, f"cycle {cycle}: a result offered with no call taken"
                want = _expect(g, busy[0])
                if cfg["rw"]:
                    got = int(sig("result").value)
                    assert got == want, f"cycle {cycle}: result {got:#x}, want {want:#x} for {busy[0]}"
                    if held is not None:
                        assert got == held, "a result changed while it waited for result_ready"
                    held = got
                if rr:
                    if busy[1] is not None:
                        # taken in the cycle it was first offered (the model's ap_done):
                        # r + d cycles after presenting, the model's latency of this call
                        start_now = 1 if clockless else int(top.start_now.value)
                        lat = 0 if start_now else int(top.lat.value)
                        assert cycle - busy[1] == lat, (
                            f"call presented in cycle {busy[1]} completed in {cycle}, model "
                            f"latency {lat}: the adapter added cycles")
                        if not clockless:
                            seen = int((top.args_now if start_now else top.cap).value)
                            assert seen == _pack(cfg["args"], busy[0]), "the model read other arguments"
                        lat_checked += 1
                    await RisingEdge(dut.clk)
                    busy, held = None, None
                    done += 1
                    sig("valid").value = 0
                    continue
                busy = (busy[0], None)  # offered, not taken: latency no longer measured
            elif held is not None:
                raise AssertionError(f"cycle {cycle}: result_valid fell before the result was taken")
            await RisingEdge(dut.clk)
            if taken:
                sig("valid").value = 0
        for _ in range(4):
            await RisingEdge(dut.clk)
        calls = starts if cfg.get("clockless", False) else int(top.calls.value)
        assert calls == n_calls, f"the function started {calls} calls"
        assert lat_checked > 0
        dut._log.info("%d calls, %d with their latency checked", done, lat_checked)

    def _pack(args: list[list], values: dict[str, int]) -> int:
        v = 0
        for name, w in args:
            v = (v << w) | (values[name] & _mask(w))
        return v


def _generate(cfg: dict, tmp: Path) -> list[Path]:
    """The adapter as ``pushpush generate`` writes it, and the model, for one config."""
    import sys
    sys.path.insert(0, str(HERE))
    from hls_models import combinational_top, hls_model
    from pushpush.codegen.generate import generate_files
    from pushpush.link import link
    from pushpush.spec import load_system

    g = cfg["name"]
    (tmp / "hls").mkdir(parents=True, exist_ok=True)
    model = tmp / "hls" / f"{g}.v"
    if cfg.get("clockless"):
        model.write_text(combinational_top(g, [tuple(a) for a in cfg["args"]], cfg["rw"], cfg["expr"]))
    else:
        model.write_text(hls_model(g, [tuple(a) for a in cfg["args"]], cfg["rw"], cfg["expr"],
                                   cfg["max_r"], cfg["max_d"], seed=0x1D + cfg["seed"]))
    (tmp / "system.yaml").write_text(
        f"system: hls_{g}\nboard: none\ncomponents:\n  {g}:\n    kind: hls\n    module: {g}\n"
        f"    sources: [hls/{g}.v]\n    exports: {{{g}: \"{cfg['sig']}\"}}\n"
        f"  host:\n    kind: python\n    imports: [{g}.{g}]\n")
    # as pushpush generate writes it: the HLS top's ports read (pyslang) decide the clock
    rel = f"rtl/{g}_hls_adapter.v"
    text = generate_files(link(load_system(tmp / "system.yaml")))[rel]
    adapter = tmp / Path(rel).name
    adapter.write_text(text)
    return [adapter, model]


def _matrix():
    from pushpush.testing import sim_matrix

    return sim_matrix([{"cfg": i} for i in range(len(CONFIGS))], verilator_sets=1)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_hls_adapter(simulator, params, tmp_path):
    from pushpush.build.sim import run_cocotb

    cfg = CONFIGS[params["cfg"]]
    sources = _generate(cfg, tmp_path)
    run_cocotb(toplevel=f"{cfg['name']}_hls_adapter", sources=sources, test_module="test_hls_adapter",
               test_dir=HERE, simulator=simulator, extra_env={"HLS_CFG": json.dumps(cfg)})
