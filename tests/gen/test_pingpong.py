"""The generated pingpong system (examples/pingpong), simulated whole.

pytest side: link the example (optionally with another topology or data width), generate
the wrappers and the top (``render_rtl``) and the system map into a temporary folder, lint
them (Icarus and Verilator, ``-Wall``, no warnings), and simulate the top with cocotb.

cocotb side: the PS is modelled as in the simulated board: a cocotbext-axi AxiMaster on
``s_axi`` (the ARM's GP0 writes) and an AxiRam on ``m_axi`` (the on-chip memory that holds
the ARM's window, region ``ps``). The "ARM" calls as the python component ``host`` does, through
its static slots: it writes the argument words and the trigger (its rep address) to the
callee's cep slot in one burst and polls its own window (the RAM) for the result.

- ``host -> callee.f`` directly: results against a Python model of the callee.
- ``host -> caller.run(n)``: the rtl caller calls ``callee.f`` n times in a dependency loop
  and returns the cycles taken; run's result word, its status word (1), and every call the
  callee saw (argument chain and results) are checked against the model; cycles per call
  are printed and, without back-pressure, asserted (<= ``PP_MAX_CPC``) and exactly n times
  the cycles of one call.
- ``host -> callee.f`` while ``run`` is in progress, and a run-time caller on callee.f's
  dynamic slot: three callers on three slots of one export.
- a one-way call (trigger bit 0): the callee runs, no result is written.

Variants: crossbar (Icarus and Verilator), crossbar with random back-pressure on every
channel of the ARM's master and RAM, shared bus, 64-bit data.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

MASK = 0xFFFF_FFFF
GOLDEN = 0x9E37_79B9


def callee_model(state: int, x: int) -> int:
    """pingpong_callee's f: the new state (also the result), as unsigned 32 bits."""
    rot = ((state << 5) | (state >> 27)) & MASK
    return ((rot ^ (x & MASK)) + GOLDEN) & MASK


# -------------------------------------------------------------------------------------
# cocotb side

try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import RisingEdge, with_timeout
except ImportError:  # collected by pytest outside a simulator
    cocotb = None


class CalleeMonitor:
    """Every call the callee module takes: (slot one-hot, x) and every result, in order."""

    def __init__(self, dut):
        self.dut = dut
        self.calls: list[tuple[int, int]] = []
        self.results: list[int] = []

    async def run(self):
        wrap = self.dut.callee_inst
        user = wrap.pp_user_inst
        while True:
            await RisingEdge(self.dut.clk)
            if int(user.f_valid.value) and int(user.f_ready.value):
                self.calls.append((int(wrap.g_f_sel.value), int(user.f_x.value)))
            if int(user.f_result_valid.value) and int(user.f_result_ready.value):
                self.results.append(int(user.f_result.value))


class Timeline:
    """Cycle of the first occurrence of each step of one hardware call (caller -> callee ->
    caller), relative to the caller module's call handshake."""

    def __init__(self, dut):
        c, e = dut.caller_inst, dut.callee_inst
        self.dut = dut
        self.steps = [
            ("caller module: call handshake (callee_f_valid & ready)",
             lambda: c.usr_callee_f_valid.value & c.usr_callee_f_ready.value),
            ("caller engine: AW + W beat 0 handshake", lambda: c.m_axi_awvalid.value & c.m_axi_awready.value),
            ("callee window: AW + W beat 0 accepted", lambda: e.s_axi_awvalid.value & e.s_axi_awready.value),
            ("callee window: trigger beat, trig_pulse", lambda: e.pp_trig_pulse),
            ("callee module: call handshake (f_valid & f_ready)",
             lambda: e.usr_f_valid.value & e.usr_f_ready.value),
            ("callee module: result handshake",
             lambda: e.usr_f_result_valid.value & e.usr_f_result_ready.value),
            ("callee engine: AW + W beat 0 handshake", lambda: e.m_axi_awvalid.value & e.m_axi_awready.value),
            ("caller window: AW + W beat 0 accepted", lambda: c.s_axi_awvalid.value & c.s_axi_awready.value),
            ("caller window: status beat, trig_pulse", lambda: c.pp_trig_pulse),
            ("caller module: result handshake",
             lambda: c.usr_callee_f_result_valid.value & c.usr_callee_f_result_ready.value),
        ]
        self.first: dict[str, int] = {}

    @staticmethod
    def _val(x) -> int:
        v = x.value if hasattr(x, "value") else x
        return int(v)

    async def run(self, cycles: int):
        n = 0
        t0 = None
        while n < cycles:
            await RisingEdge(self.dut.clk)
            if t0 is not None:
                n += 1
            for name, get in self.steps:
                if name not in self.first and self._val(get()):
                    if t0 is None and name.startswith("caller module: call"):
                        t0 = 0
                    if t0 is not None:
                        self.first[name] = n

    def lines(self) -> list[str]:
        return [f"t{self.first[name]}: {name}" for name, _ in self.steps if name in self.first]


if cocotb is not None:

    @cocotb.test()
    async def pingpong(dut):
        from ps_model import Arm

        from pushpush.sysmap import from_json

        linked = from_json(Path(os.environ["PP_MAP"]).read_text())
        pause = float(os.environ.get("PP_PAUSE", "0"))
        max_cpc = int(os.environ.get("PP_MAX_CPC", "8"))
        runs = [int(n) for n in os.environ.get("PP_RUNS", "1,2,7,25").split(",")]
        report_path = os.environ.get("PP_REPORT")

        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        arm = Arm(dut, linked, pause, seed=int(os.environ.get("PP_SEED", "1")))
        mon = CalleeMonitor(dut)
        dut.rst.value = 1
        for _ in range(5):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        await RisingEdge(dut.clk)
        cocotb.start_soon(arm.count())
        cocotb.start_soon(mon.run())

        state = 0
        host_slot = 1 << 1   # callee.f's slots: 0 caller (static), 1 host (static), 2 dynamic
        caller_slot = 1 << 0
        expected_calls: list[tuple[int, int]] = []
        expected_results: list[int] = []

        async def host_f(x):
            nonlocal state
            t0 = arm.cycle
            res, status = await with_timeout(arm.call("callee.f", x), 20000, "ns")
            state = callee_model(state, x)
            expected_calls.append((host_slot, x & MASK))
            expected_results.append(state)
            assert status == 1, f"callee.f status {status:#x}"
            assert res & MASK == state, f"callee.f({x}) = {res & MASK:#x}, model {state:#x}"
            return arm.cycle - t0

        # 1. the ARM calls the callee directly
        arm_latency = []
        for x in (5, -1, 0x1234_5678, 0):
            arm_latency.append(await host_f(x))
        dut._log.info("ARM -> callee.f round trips (cycles, incl. the ARM model): %s", arm_latency)

        # 2. the rtl caller calls the callee n times per run
        timeline = Timeline(dut)
        trace = cocotb.start_soon(timeline.run(12))
        await with_timeout(arm.call("caller.run", 1), 20, "us")
        await trace
        state = callee_model(state, 1)
        expected_calls.append((caller_slot, 1))
        expected_results.append(state)
        for line in timeline.lines():
            dut._log.info("run(1) timeline: %s", line)
        cpc = {}
        total_calls = 1
        for n in runs:
            cycles, status = await with_timeout(arm.call("caller.run", n), 200 + 60 * n, "us")
            assert status == 1, f"caller.run status {status:#x}"
            x = n
            for _ in range(n):
                state = callee_model(state, x)
                expected_calls.append((caller_slot, x & MASK))
                expected_results.append(state)
                x = state
            total_calls += n
            assert mon.calls == expected_calls, "callee saw other calls than the model"
            assert mon.results == expected_results, "callee returned other results than the model"
            cpc[n] = cycles / n
            dut._log.info("caller.run(%d) = %d cycles: %.2f cycles per call", n, cycles, cycles / n)
            if not pause:
                assert cycles <= max_cpc * n, f"{cycles / n:.2f} cycles per call > {max_cpc}"
        if os.environ.get("PP_EXACT") == "1":
            per = set(cpc.values())
            assert len(per) == 1, f"cycles per call differ between runs: {cpc}"

        # 3. three callers of callee.f at once: the rtl caller (static slot 0), the host
        # (static slot 1) and a run-time caller on the dynamic slot 2 (rep in host's
        # run-time area)
        n = int(os.environ.get("PP_CONCURRENT_RUN", "40"))
        host = linked.component("host")
        callee = linked.component("callee")
        dyn_slot = callee.slots[callee.export("f").dynamic_slots[0]]
        run_task = cocotb.start_soon(arm.call("caller.run", n))
        sw_results = {host_slot: [], 1 << 2: []}

        async def host_caller(xs):
            for x in xs:
                res, status = await with_timeout(arm.call("callee.f", x), 50, "us")
                assert status == 1
                sw_results[host_slot].append((x & MASK, res & MASK))

        async def dynamic_caller(xs):
            for x in xs:
                res, status = await with_timeout(
                    arm.call_at(dyn_slot, [x], host.runtime_address), 50, "us")
                assert status == 1
                sw_results[1 << 2].append((x & MASK, res & MASK))

        n_sw = int(os.environ.get("PP_CONCURRENT_SW", "4"))
        t1 = cocotb.start_soon(host_caller([7 + i for i in range(n_sw)]))
        t2 = cocotb.start_soon(dynamic_caller([-100 - i for i in range(n_sw)]))
        await t1
        await t2
        cycles, status = await with_timeout(run_task, 200 + 60 * n, "us")
        assert status == 1
        total_calls += n
        # replay the callee's observed order through the model
        new_calls = mon.calls[len(expected_calls):]
        assert len(new_calls) == n + 2 * n_sw, new_calls
        chain_x = n
        sw_iter = {k: iter(v) for k, v in sw_results.items()}
        for sel, x in new_calls:
            state = callee_model(state, x)
            expected_calls.append((sel, x))
            expected_results.append(state)
            if sel == caller_slot:
                assert x == chain_x & MASK, "the caller's argument is not the previous result"
                chain_x = state
            else:
                assert sel in sw_iter, f"unexpected slot {sel:#x}"
                assert next(sw_iter[sel]) == (x, state), "software call answered out of model order"
        assert mon.results == expected_results
        dut._log.info("concurrent: run(%d) took %d cycles with %d software calls interleaved",
                      n, cycles, 2 * n_sw)

        # 4. a one-way call (trigger bit 0 set): the callee runs, nothing is written back
        imp = linked.component("host").import_("callee.f")
        await arm.write_words(imp.cep_address, [0x55, arm.next_trigger(imp.cep_trigger_address, imp.rep_address, oneway=True)])
        for _ in range(30):
            await RisingEdge(dut.clk)
        assert arm.ocm_word(imp.rep_trigger_address) == 0, "a one-way call was answered"
        state = callee_model(state, 0x55)
        expected_calls.append((host_slot, 0x55))
        expected_results.append(state)
        assert mon.calls == expected_calls and mon.results == expected_results

        # 5. state continues: one more direct call, and the caller's counters
        await host_f(11)
        assert int(dut.caller_inst.pp_user_inst.calls_reg.value) == total_calls
        assert int(dut.caller_inst.pp_user_inst.errors_reg.value) == 0
        assert int(dut.callee_inst.pp_user_inst.calls_reg.value) == len(expected_calls)
        for comp in ("caller", "callee"):
            wrap = getattr(dut, f"{comp}_inst")
            assert int(wrap.pp_collisions.value) == 0, f"{comp}: collisions in its window"
            assert int(wrap.pp_err_count.value) == 0, f"{comp}: write errors"

        if report_path:
            Path(report_path).write_text(json.dumps(
                {"cycles_per_call": cpc, "arm_round_trip": arm_latency,
                 "timeline": timeline.lines()}))


# -------------------------------------------------------------------------------------
# pytest side

from pushpush.build.sim import run_cocotb  # noqa: E402
from pushpush.testing import sim_matrix  # noqa: E402

VARIANTS = [
    {"topology": "crossbar", "data_width": 32, "pause": 0.0},
    {"topology": "crossbar", "data_width": 32, "pause": 0.3},
    {"topology": "shared", "data_width": 32, "pause": 0.0},
    {"topology": "crossbar", "data_width": 64, "pause": 0.0},
]

def _generate(tmp_path: Path, topology: str, data_width: int):
    from gensim import generate_system, load_example

    linked = load_example("pingpong", topology=topology, data_width=data_width)
    return generate_system(linked, tmp_path / "gen")

@pytest.mark.parametrize("topology,data_width", [("crossbar", 32), ("shared", 32), ("crossbar", 64)])
def test_pingpong_lint(tmp_path, topology, data_width):
    from gensim import lint

    gen = _generate(tmp_path, topology, data_width)
    assert lint(gen.sources, gen.top) == []

@pytest.mark.parametrize("simulator,params", sim_matrix(VARIANTS))
def test_pingpong(simulator, params, tmp_path):
    gen = _generate(tmp_path, params["topology"], params["data_width"])
    report = tmp_path / "report.json"
    env = {
        "PP_MAP": str(gen.map_path),
        "PP_PAUSE": str(params["pause"]),
        "PP_REPORT": str(report),
        # the 8-cycle budget holds on both topologies: the shared bus is pipelined (the
        # callee's result burst does not wait for the B of the call burst), so one pair's
        # call takes the same 6 cycles as on the crossbar
        "PP_MAX_CPC": "8",
        # without back-pressure a call always takes the same number of cycles
        "PP_EXACT": "0" if params["pause"] else "1",
    }
    run_cocotb(toplevel=gen.top, sources=gen.sources, test_module="test_pingpong",
               test_dir=Path(__file__).parent, simulator=simulator,
               build_dir=tmp_path / "sim", extra_env=env)
    data = json.loads(report.read_text())
    print(f"\n{simulator} {params}: cycles per call {data['cycles_per_call']}, "
          f"ARM round trips {data['arm_round_trip']}")
    print("  one hardware call, cycle by cycle:\n    " + "\n    ".join(data["timeline"]))


@pytest.mark.long
@pytest.mark.parametrize("topology,pause,seed", [("crossbar", 0.5, 2), ("shared", 0.5, 3),
                                                 ("crossbar", 0.0, 4)])
def test_pingpong_long(topology, pause, seed, tmp_path):
    """Longer concurrent runs (300 hardware calls against 2 x 40 software calls on the other
    slots), with heavy back-pressure on the ARM's ports. Icarus."""
    gen = _generate(tmp_path, topology, 32)
    env = {"PP_MAP": str(gen.map_path), "PP_PAUSE": str(pause), "PP_SEED": str(seed),
           "PP_RUNS": "1,50,200", "PP_CONCURRENT_RUN": "300", "PP_CONCURRENT_SW": "40",
           "PP_MAX_CPC": "1000", "PP_EXACT": "0"}
    run_cocotb(toplevel=gen.top, sources=gen.sources, test_module="test_pingpong",
               test_dir=Path(__file__).parent, simulator="icarus",
               build_dir=tmp_path / "sim", extra_env=env)
