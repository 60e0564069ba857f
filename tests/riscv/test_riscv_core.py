"""cores/riscv (``pp_riscv``): the real C runtime on each core (PicoRV32, VexRiscv), in cocotb.

The program is examples/pingpong/c's C callee (the generated ``callee_pp.c`` proxies and the
bare-metal ``pp_runtime.c`` of ``kind: c``, with the core's platform layer), built by
:func:`pushpush.c.riscv.build_program` for RV32I (tests/riscv/prog/pingpong_rv.c). The bench:

- plays the rtl callee ``hw.f`` behind the core's AXI master: every trigger the core writes
  into hw's window is answered (result, then status with the SEQ echo) into the core's
  window through its AXI slave, from a Python model of pingpong_callee.v (riscv -> rtl);
- is the caller of the core's ``f`` (rtl/ARM -> riscv): a cocotbext-axi master writes the
  argument and trigger into the core's window, the core's reply arrives through its master
  in the caller's rep; every result is checked against the model;
- repeats a trigger (a duplicate, dropped and counted), writes a stray status into an import
  rep (cleared and counted), and reads the counters at the window's offsets 0x0-0xC;
- runs everything under random back-pressure on both AXI ports.

Cycles per call (exact: simulated cycles of a 100 MHz clock) are printed: ``RV_CYCLES``.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from pushpush.testing import sim_matrix

GOLDEN = 0x9E3779B9
MASK = 0xFFFFFFFF


def model_f(state: int, x: int) -> int:
    """pingpong_callee.v's state machine: rotl(state, 5) ^ x + 0x9E3779B9."""
    return ((((state << 5) | (state >> 27)) & MASK) ^ (x & MASK)) + GOLDEN & MASK


def chain(n: int, x0: int) -> int:
    s, x = 0, x0
    for _ in range(n):
        s = model_f(s, x)
        x = s
    return s


# ---------------------------------------------------------------- cocotb side
try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, RisingEdge, Timer
    from cocotbext.axi import AxiBus, AxiMaster, AxiSlave
except ImportError:  # collected by pytest without cocotb's simulator context
    cocotb = None


class _Bench:
    """The world outside the core: hw's window (a model of the rtl callee), the caller's rep,
    and the mailbox the program reports into."""

    def __init__(self, dut, cfg: dict) -> None:
        self.dut = dut
        self.cfg = cfg
        self.win = cfg["win_base"]
        self.master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        self.slave = AxiSlave(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, target=self)
        self.hw_state = 0
        self.hw_calls = 0
        self.mailbox: dict[int, int] = {}
        self.rep: dict[int, int] = {}
        self.rep_event = None
        self.cycle = 0

    async def count(self) -> None:
        while True:
            await RisingEdge(self.dut.clk)
            self.cycle += 1

    async def write(self, address: int, data: bytes) -> None:
        words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
        for k, w in enumerate(words):
            a = address + 4 * k
            if self.cfg["hw_f_arg"] <= a <= self.cfg["hw_f_trig"]:
                await self._hw(a, w)
            elif self.cfg["mailbox"] <= a < self.cfg["mailbox"] + 64:
                self.mailbox[(a - self.cfg["mailbox"]) // 4] = w
                if self.rep_event is not None:
                    self.rep_event.set()
            else:
                self.rep[a] = w
                if self.rep_event is not None:
                    self.rep_event.set()

    async def read(self, address: int, length: int) -> bytes:
        if self.cfg["mailbox"] <= address < self.cfg["mailbox"] + 64:
            first = (address - self.cfg["mailbox"]) // 4
            return _words(*(self.mailbox.get(first + k, 0) for k in range((length + 3) // 4)))[:length]
        return bytes(length)

    async def _hw(self, a: int, w: int) -> None:
        """hw.f's static slot of importer 'callee': argument then trigger."""
        if a == self.cfg["hw_f_arg"]:
            self.hw_arg = w
            return
        if w == 0:
            return
        self.hw_calls += 1
        self.hw_state = model_f(self.hw_state, self.hw_arg)
        status = 1 | (0x40000000 if w & 2 else 0)
        rep = w & ~3
        cocotb.start_soon(self.master.write(rep - self.win, _words(self.hw_state, status)))

    async def call_f(self, slot_arg: int, x: int, seq: int, rep: int) -> int:
        """Call the core's f through its static slot at slot_arg (argument, trigger)."""
        import cocotb.triggers as t
        self.rep.pop(rep + 4, None)
        self.rep_event = t.Event()
        start = self.cycle
        await self.master.write(slot_arg - self.win, _words(x & MASK, rep | (seq << 1)))
        for _ in range(1000):
            if rep + 4 in self.rep:
                break
            self.rep_event.clear()
            await t.First(self.rep_event.wait(), Timer(200, "us"))
        else:
            raise AssertionError(f"no reply from the core to f({x}) within the timeout")
        status = self.rep.pop(rep + 4)
        assert status == (1 | (seq << 30)), hex(status)
        self._last_cycles = self.cycle - start
        return self.rep[rep]


def _words(*ws: int) -> bytes:
    return b"".join((w & MASK).to_bytes(4, "little") for w in ws)


if cocotb is not None:
    @cocotb.test()
    async def test_pingpong_on_core(dut):
        cfg = json.loads(os.environ["RV_CFG"])
        random.seed(cfg["seed"])
        cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
        b = _Bench(dut, cfg)
        if cfg["backpressure"]:
            def pause():
                while True:
                    yield random.random() < 0.3
            b.master.write_if.aw_channel.set_pause_generator(pause())
            b.master.write_if.w_channel.set_pause_generator(pause())
            b.slave.write_if.b_channel.set_pause_generator(pause())
            b.slave.write_if.aw_channel.set_pause_generator(pause())
            b.slave.write_if.w_channel.set_pause_generator(pause())
        dut.rst.value = 1
        await ClockCycles(dut.clk, 5)
        dut.rst.value = 0
        cocotb.start_soon(b.count())

        # riscv -> rtl: the program's chained calls of hw.f, timed by the core's counter
        for _ in range(400):
            await ClockCycles(dut.clk, 500)
            if b.mailbox.get(0):
                break
        assert b.mailbox.get(0) == 1, f"no report from the program: {b.mailbox}, trap={int(dut.trap.value)}"
        n, cycles, r, err = (b.mailbox[i] for i in (1, 2, 3, 4))
        assert err == 0, f"hw.f failed on the core: {err - (1 << 32) if err >> 31 else err}"
        assert n == cfg["n_calls"] and b.hw_calls == n
        assert r == chain(n, 3), (hex(r), hex(chain(n, 3)))
        print(f"RV_CYCLES riscv_to_rtl {n} {cycles} {cycles / n:.1f}")

        # rtl/ARM -> riscv: calls of f through the caller's static slot, checked against the model
        state, x, seq, total = 0, 7, 0, 0
        for i in range(cfg["n_calls"]):
            seq ^= 1
            got = await b.call_f(cfg["f_arg"], x, seq, cfg["caller_rep"])
            state = model_f(state, x)
            assert got == state, (i, hex(got), hex(state))
            total += b._last_cycles
            x = got
        print(f"RV_CYCLES rtl_to_riscv {cfg['n_calls']} {total} {total / cfg['n_calls']:.1f}")

        # a duplicate: the same trigger again (same SEQ) is dropped and counted
        await b.master.write(cfg["f_arg"] - b.win, _words(x, cfg["caller_rep"] | (seq << 1)))
        await ClockCycles(dut.clk, 3000)
        assert cfg["caller_rep"] + 4 not in b.rep, "a duplicate call was answered"
        # a stray: a status nobody waits for, in the core's rep of hw.f
        await b.master.write(cfg["hw_rep"] - b.win, _words(123, 1))
        await ClockCycles(dut.clk, 3000)
        # the next call still gets its own answer
        seq ^= 1
        got = await b.call_f(cfg["f_arg"], x, seq, cfg["caller_rep"])
        assert got == model_f(state, x)
        for _ in range(100):
            if b.mailbox.get(5):
                break
            await ClockCycles(dut.clk, 500)
        assert b.mailbox.get(5) == 1 and b.mailbox[7] == 0, b.mailbox
        assert b.mailbox[6] == model_f(chain(n, 3), 11), (hex(b.mailbox[6]), "hw.f after the stray")
        await ClockCycles(dut.clk, 200)
        counters = await b.master.read(0, 16)
        col, dup, stray, werr = (int.from_bytes(counters.data[i:i + 4], "little") for i in range(0, 16, 4))
        assert (col, dup, stray, werr) == (0, 1, 1, 0), (col, dup, stray, werr)
        assert int(dut.trap.value) == 0


# ---------------------------------------------------------------- pytest side
REPO = Path(__file__).resolve().parents[2]


def _program(tmp: Path, n_calls: int, cpu: str = "picorv32"):
    from pushpush.c.riscv import build_program
    from pushpush.codegen.c import render_c
    from pushpush.link import load

    linked = load(str(REPO / "examples" / "pingpong" / "c" / "system.yaml"))
    for name, text in render_c(linked).items():
        p = tmp / "gen" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    prog = build_program(tmp / "gen" / "c", [REPO / "tests" / "riscv" / "prog" / "pingpong_rv.c"],
                         components=["callee"], out_dir=tmp / "rv", memory_bytes=16384,
                         flags=[f"-DN_CALLS={n_calls}"], cpu=cpu)
    return linked, prog


def _slot(linked, comp: str, pred):
    c = next(c for c in linked.components if c.name == comp)
    return next(s for s in c.slots if pred(s))


@pytest.mark.parametrize("simulator,params", sim_matrix([{"backpressure": True, "cpu": "picorv32"},
                                                        {"backpressure": False, "cpu": "picorv32"},
                                                        {"backpressure": True, "cpu": "vexriscv"},
                                                        {"backpressure": False, "cpu": "vexriscv"}]))
def test_riscv_core(tmp_path, simulator, params):
    from pushpush.build.sim import run_cocotb
    from pushpush.codegen.riscv import core_sources

    n_calls = 6
    linked, prog = _program(tmp_path, n_calls, params["cpu"])
    callee = next(c for c in linked.components if c.name == "callee")
    hw_f = _slot(linked, "hw", lambda s: s.function == "f" and s.importer == "callee")
    f_host = _slot(linked, "callee", lambda s: s.function == "f" and s.importer == "host")
    hw_rep = _slot(linked, "callee", lambda s: s.kind.value == "rep_import" and s.function == "hw.f")
    host_rep = _slot(linked, "host", lambda s: s.kind.value == "rep_import" and s.function == "callee.f")
    cfg = {"seed": 1, "n_calls": n_calls, "backpressure": params["backpressure"], "win_base": callee.base,
           "hw_f_arg": hw_f.address, "hw_f_trig": hw_f.address + 4, "mailbox": 0x2000_0000,
           "f_arg": f_host.address, "hw_rep": hw_rep.address, "caller_rep": host_rep.address}
    params = {"MEM_BYTES": prog.memory_bytes, "WIN_BYTES": callee.size,
              "WIN_BASE": f"32'h{callee.base:08X}", "MEM_INIT": f'"{prog.hex_path}"', "CPU": f'"{params["cpu"]}"'}
    from pushpush.build.cores import cores_rtl

    # the core alone: its window's AXI front end (cores/axi_slave), then the component's files
    run_cocotb(toplevel="pp_riscv", sources=cores_rtl(["axi_slave"]) + core_sources(), test_module="test_riscv_core",
               test_dir=Path(__file__).parent, parameters=params, simulator=simulator,
               build_dir=tmp_path / "sim", extra_env={"RV_CFG": json.dumps(cfg)}, cache=False)
