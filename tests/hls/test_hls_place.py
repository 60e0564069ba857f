"""The Verilog placing a full HLS participant's IP in a system (``<comp>_hls_place.v``,
pushpush.codegen.hls_pp.render_place, docs/hls.md) around a hand-written model of that IP
(examples/hls_callback/hls/worker_top.v: the ports Vitis HLS gives worker_top.cpp's top
function, m_axi bundle gmem, ap_memory 'mem', ap_ctrl_none, ap_rst_n; the behaviour of
pp::serve_one for apply(f, x) = f(x) + 1, one INCR burst per call and per return).

The bench is the rest of the system: cocotbext-axi's AxiMaster writes calls into the window
through s_axi_* (the interconnect's writes), an AxiRam on m_axi_* takes the IP's bursts, and a
responder answers every call the IP makes into the function value f (g(x) = 3x + 1, written
back into the window's return slot with the SEQ echoed). Random back-pressure on every channel
in the second set. Checked: every result and status, every m_axi write is ONE two-beat INCR
burst (AWLEN 1, size 4, WSTRB all ones), duplicates into a static slot are dropped without an
answer, f == 0 and a failed callback answer CALLEE_RAISED; the exact cycles of a call without
back-pressure (the model's schedule, not Vitis's). Icarus for both sets, Verilator for the first
(``slow``); the place module and the model lint clean under ``verilator --lint-only -Wall`` and
``iverilog -Wall``.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
except ImportError:  # collected by pytest outside a simulator
    cocotb = None

HERE = Path(__file__).parent
REPO = HERE.parents[1]
EXAMPLE = REPO / "examples" / "hls_callback"
BASE = 0x43C0_0000            # the model's BASE (its parameter default: the link's)
VALUE_REP = 9                 # the function values' rep slot (word offset), as the linker gave it
FN = 0x1000                   # the function value f the bench passes (a cep slot in the AxiRam)
CALLER_REP = 0x2000           # the caller's rep slot (in the AxiRam)
MASK = 0xFFFF_FFFF
SEQ, ECHO, OK, RAISED = 0x2, 0x4000_0000, 0x1, 0x8000_0001


def g(x: int) -> int:
    return (3 * x + 1) & MASK


if cocotb is not None:
    from cocotbext.axi import AxiBus, AxiMaster, AxiRam

    @cocotb.test()
    async def calls_and_callbacks(dut):
        cfg = json.loads(os.environ["PLACE_CFG"])
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=0x10000)
        for port in (master, ram):
            for lg in (port.write_if.log, port.read_if.log):
                lg.setLevel(logging.WARNING)
        prng = random.Random(cfg["seed"])
        if cfg["pause"]:
            def gen(s):
                r = random.Random(s)
                while True:
                    yield r.random() < cfg["pause"]

            for port in (master, ram):
                for ch in (port.write_if.aw_channel, port.write_if.w_channel, port.write_if.b_channel):
                    ch.set_pause_generator(gen(prng.getrandbits(32)))
        await ClockCycles(dut.clk, 5)
        dut.rst.value = 0
        await ClockCycles(dut.clk, 2)

        cycle = [0]
        bursts: list[tuple[int, int, int]] = []   # (cycle, address, awlen) of every m_axi AW
        bad: list[str] = []

        async def watch():
            while True:
                await RisingEdge(dut.clk)
                await ReadOnly()
                cycle[0] += 1
                if dut.m_axi_awvalid.value and dut.m_axi_awready.value:
                    bursts.append((cycle[0], int(dut.m_axi_awaddr.value), int(dut.m_axi_awlen.value)))
                    if int(dut.m_axi_awsize.value) != 2 or int(dut.m_axi_awburst.value) != 1:
                        bad.append("a burst not INCR of 4-byte beats")
                if dut.m_axi_wvalid.value and dut.m_axi_wready.value and int(dut.m_axi_wstrb.value) != 0xF:
                    bad.append("a beat without all strobes")

        cocotb.start_soon(watch())
        answer = {"error": False}

        async def responder():
            """The callee of f: answers each call the IP writes into the AxiRam at FN."""
            while True:
                await RisingEdge(dut.clk)
                trig = int.from_bytes(ram.read(FN + 4, 4), "little")
                if trig == 0:
                    continue
                x = int.from_bytes(ram.read(FN, 4), "little")
                ram.write(FN + 4, bytes(4))
                rep = trig & ~0x3
                assert BASE <= rep < BASE + 0x1000, hex(rep)
                echo = ECHO if trig & SEQ else 0
                status = (RAISED if answer["error"] else OK) | echo
                await master.write(rep, (g(x)).to_bytes(4, "little") + status.to_bytes(4, "little"))

        cocotb.start_soon(responder())

        async def call(slot: int, f: int, x: int, seq: int, want_reply: bool = True) -> tuple[int, int, int]:
            first = BASE + 4 * 3 * slot
            trig = CALLER_REP | (SEQ if seq else 0)
            start = cycle[0]
            await master.write(first, f.to_bytes(4, "little") + (x & MASK).to_bytes(4, "little")
                               + trig.to_bytes(4, "little"))
            landed = cycle[0]
            for _ in range(4000 if want_reply else 400):
                await RisingEdge(dut.clk)
                status = int.from_bytes(ram.read(CALLER_REP + 4, 4), "little")
                if status:
                    result = int.from_bytes(ram.read(CALLER_REP, 4), "little")
                    ram.write(CALLER_REP + 4, bytes(4))
                    assert want_reply, "a duplicate was answered"
                    return result, status, cycle[0] - landed
            assert not want_reply, (f"no reply to a call into slot {slot} (started at cycle {start}); "
                                    f"the IP's bursts since: {[b for b in bursts if b[0] >= start]}")
            return 0, 0, 0

        seqs = [0, 0, 0]
        lat: list[int] = []
        for i in range(cfg["calls"]):
            slot = prng.randrange(3)
            x = prng.getrandbits(32)
            seqs[slot] ^= 1
            n0 = len(bursts)
            r, st, c = await call(slot, FN, x, seqs[slot])
            assert r == (g(x) + 1) & MASK, (i, hex(r), hex(x))
            assert st == OK | (ECHO if seqs[slot] else 0), hex(st)
            # one burst into f (2 beats: x, trigger), one return burst (result, status)
            new = bursts[n0:]
            assert [(a, n) for _, a, n in new] == [(FN, 1), (CALLER_REP, 1)], new
            lat.append(c)
        # a duplicate into a static slot: the same SEQ again is dropped, no answer
        await call(0, FN, 5, seqs[0], want_reply=False)
        seqs[0] ^= 1
        r, st, _ = await call(0, FN, 5, seqs[0])
        assert r == g(5) + 1
        # no function (f == 0), and a callback that fails: CALLEE_RAISED, result 0
        seqs[2] ^= 1
        n0 = len(bursts)
        r, st, _ = await call(2, 0, 7, seqs[2])
        assert (r, st & ~ECHO) == (0, RAISED) and [a for _, a, _ in bursts[n0:]] == [CALLER_REP]
        answer["error"] = True
        seqs[2] ^= 1
        r, st, _ = await call(2, FN, 7, seqs[2])
        assert (r, st & ~ECHO) == (0, RAISED), (hex(r), hex(st))
        answer["error"] = False
        assert not bad, bad[:3]
        if not cfg["pause"]:
            # without back-pressure the cycles depend only on where the sweep was when the
            # call landed (4 cycles per slot looked at)
            assert max(lat) - min(lat) <= 4 * 3, lat
            dut._log.info("cycles from a call landing to its reply landing: %d..%d", min(lat), max(lat))
            Path(os.environ["PLACE_OUT"]).write_text(json.dumps({"min": min(lat), "max": max(lat)}))


CONFIGS = [{"pause": 0.0, "seed": 1, "calls": 40}, {"pause": 0.4, "seed": 7, "calls": 120}]


def _sources(tmp: Path) -> list[Path]:
    from pushpush.codegen.hls_pp import render_place
    from pushpush.link import link
    from pushpush.spec import load_system

    linked = link(load_system(EXAMPLE / "system.yaml"))
    w = linked.component("worker")
    assert (w.runtime_offset, [s.offset for s in w.slots]) == (VALUE_REP, [0, 3, 6])  # the model's layout
    place = tmp / "worker_hls_place.v"
    place.write_text(render_place(linked, "worker"))
    return [REPO / "cores" / "axi_slave" / "pp_axi_slave.v", EXAMPLE / "hls" / "worker_top.v", place]


def _matrix():
    from pushpush.testing import sim_matrix

    return sim_matrix([{"cfg": i} for i in range(len(CONFIGS))], verilator_sets=1)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_hls_place(simulator, params, tmp_path):
    from pushpush.build.sim import run_cocotb

    cfg = CONFIGS[params["cfg"]]
    out = tmp_path / "out.json"
    run_cocotb(toplevel="worker_hls_place", sources=_sources(tmp_path), test_module="test_hls_place",
               test_dir=HERE, simulator=simulator,
               extra_env={"PLACE_CFG": json.dumps(cfg), "PLACE_OUT": str(out)})
    if not cfg["pause"]:
        got = json.loads(out.read_text())
        assert 0 < got["min"] <= got["max"]


def test_the_place_module_and_the_model_lint_clean(tmp_path):
    srcs = [str(p) for p in _sources(tmp_path)]
    r = subprocess.run(["verilator", "--lint-only", "-Wall", "--top-module", "worker_hls_place", *srcs],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and not r.stderr.strip(), r.stderr
    iverilog = shutil.which("iverilog")
    assert iverilog, "iverilog is missing (bootstrap.sh installs it)"
    r = subprocess.run([iverilog, "-Wall", "-g2005", "-s", "worker_hls_place", "-o", str(tmp_path / "a"), *srcs],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and not (r.stdout + r.stderr).strip(), r.stdout + r.stderr
