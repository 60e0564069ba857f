"""Faults in a generated system (docs/architecture.md §2.2): duplicates, strays, counters.

The system is ``tests/gen/fixtures/faults/system.yaml``: ``slow.f(x) = 3x + 1`` answers 64
cycles after the call (so a duplicate can arrive while it still executes), ``cli.run(x) =
host.h(x) + 1`` waits for the ARM, which answers ``h`` when the test says so (so a stray can
arrive while ``cli`` waits). The ARM is the model of ``ps_model.py`` (cocotbext-axi master on
GP0, AxiRam as on-chip memory).

- a stray status with the wrong echo into ``cli``'s return slot while it waits: re-armed,
  not delivered; the real answer that follows is;
- stray statuses (either echo) into the same slot while ``cli`` does not wait: re-armed at
  once (the slot is free again a cycle later), never handed to the next call;
- a duplicate trigger into ``slow.f``'s static slot while the call executes and again after
  it was answered (same SEQ): not run, not answered; the next call (flipped SEQ) runs;
- a duplicate trigger into its dynamic slot while the call executes: not run; a different
  trigger word in that slot meanwhile is a new call and runs after it;
- the counters of both windows read over AXI (0x0 collisions, 0x4 duplicates, 0x8 strays,
  0xC write_errors; other offsets 0).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

MASK = 0xFFFF_FFFF
HERE = Path(__file__).resolve().parent

try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
except ImportError:  # collected by pytest outside a simulator
    cocotb = None


if cocotb is not None:

    async def read_counters(arm, base: int) -> list[int]:
        resp = await arm.master.read(base, 16)
        assert int(resp.resp) == 0, f"counter read at {base:#x}: resp {resp.resp}"
        return [int.from_bytes(resp.data[4 * k:4 * k + 4], "little") for k in range(4)]

    @cocotb.test()
    async def faults(dut):
        from ps_model import Arm

        from pushpush.sysmap import from_json

        linked = from_json(Path(os.environ["PP_MAP"]).read_text())
        pause = float(os.environ.get("PP_PAUSE", "0"))
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        arm = Arm(dut, linked, pause, seed=7)
        dut.rst.value = 1
        await ClockCycles(dut.clk, 5)
        dut.rst.value = 0
        await RisingEdge(dut.clk)
        cocotb.start_soon(arm.count())

        host = linked.component("host")
        cli = linked.component("cli")
        slow = linked.component("slow")
        cli_rep = cli.import_("host.h")
        cli_rep_slot = cli_rep.rep_slot
        h_slot = host.slots[host.export("h").static_slots[0]]
        slow_user = dut.slow_inst.pp_user_inst
        cli_wrap = dut.cli_inst

        # the ARM's h: answers h(x) = 5x, after injecting a stray first when asked
        inject = {"waiting": False}
        served: list[int] = []

        async def serve_h():
            while True:
                await RisingEdge(dut.clk)
                trig = arm.ocm_word(h_slot.trigger_address)
                if trig == 0:
                    continue
                x = arm.ocm_word(h_slot.address)
                arm.ocm_write(h_slot.trigger_address, [0])
                served.append(x)
                seq = (trig >> 1) & 1
                rep = trig & ~3
                if inject["waiting"]:
                    inject["waiting"] = False
                    # wrong echo while cli waits: a stray
                    await arm.write_words(rep, [0xBAD0BAD0, 1 | ((seq ^ 1) << 30)])
                    await ClockCycles(dut.clk, 12)
                    assert int(cli_wrap.pp_user_inst.st_reg.value) == 2, "cli took a stray answer"
                    assert not (int(cli_wrap.pp_trig_pending.value) >> cli_rep_slot) & 1, \
                        "the stray was not re-armed"
                await arm.write_words(rep, [(5 * x) & MASK, 1 | (seq << 30)])

        cocotb.start_soon(serve_h())

        async def run(x: int) -> int:
            res, status = await with_timeout(arm.call("cli.run", x), 50, "us")
            assert status == 1, f"cli.run status {status:#x}"
            return res

        # 1. a normal call, then a stray while cli waits for h
        assert await run(7) == 36
        inject["waiting"] = True
        assert await run(8) == 41
        assert (await read_counters(arm, cli.base))[2] == 1

        # 2. strays while cli does not wait (either echo): re-armed at once, not kept
        for k, status in enumerate((0x00000001, 0x40000001, 0x80000001)):
            await arm.write_words(cli_rep.rep_address, [0x1111 * (k + 1), status])
            await ClockCycles(dut.clk, 6)
            assert not (int(cli_wrap.pp_trig_pending.value) >> cli_rep_slot) & 1, \
                "a stray status is still pending"
        for x in (9, 10):
            assert await run(x) == 5 * x + 1, "a call got a stray answer"
        assert served == [7, 8, 9, 10]
        assert await read_counters(arm, cli.base) == [0, 0, 4, 0]

        # 3. duplicates into slow.f's static slot (the ARM's): while the call executes and
        # after it was answered; neither runs nor is answered
        imp = host.import_("slow.f")

        async def wait_status(address: int, seq: int) -> int:
            for _ in range(2000):
                await RisingEdge(dut.clk)
                st = arm.ocm_word(address)
                if st:
                    assert (st >> 30) & 1 == seq, f"status {st:#x} echoes the wrong SEQ"
                    arm.ocm_write(address, [0])
                    return st
            raise AssertionError(f"no status at {address:#x} after 2000 cycles")

        trig = arm.next_trigger(imp.cep_trigger_address, imp.rep_address)
        await arm.write_words(imp.cep_address, [100, trig])
        await ClockCycles(dut.clk, 4)
        assert int(slow_user.busy_reg.value) == 1
        await arm.write_words(imp.cep_trigger_address, [trig])           # while executing
        await wait_status(imp.rep_trigger_address, (trig >> 1) & 1)
        assert arm.ocm_word(imp.rep_address) == 301
        await arm.write_words(imp.cep_address, [100, trig])              # after the answer
        await ClockCycles(dut.clk, 60)
        assert arm.ocm_word(imp.rep_trigger_address) == 0, "a duplicate was answered"
        assert int(slow_user.calls_reg.value) == 1, "a duplicate ran"
        res, status = await with_timeout(arm.call("slow.f", 5), 50, "us")
        assert (res, status) == (16, 1)
        assert int(slow_user.calls_reg.value) == 2

        # 4. the dynamic slot: a duplicate while the call executes is dropped; another
        # trigger word (another caller's rep) meanwhile is a new call
        dyn = slow.slots[slow.export("f").dynamic_slots[0]]
        rep_a = host.runtime_address
        rep_b = host.runtime_address + 8
        trig = arm.next_trigger(dyn.trigger_address, rep_a)
        await arm.write_words(dyn.address, [1000, trig])
        await ClockCycles(dut.clk, 4)
        await arm.write_words(dyn.trigger_address, [trig])                # duplicate
        await ClockCycles(dut.clk, 2)
        await arm.write_words(dyn.trigger_address, [rep_b])               # a new caller
        # the new call is pending in the slot until f is free, so its argument is the one
        # written first; both answered
        await wait_status(rep_a + 4, (trig >> 1) & 1)
        assert arm.ocm_word(rep_a) == 3001
        await wait_status(rep_b + 4, 0)
        assert arm.ocm_word(rep_b) == 3001
        assert int(slow_user.calls_reg.value) == 4
        res, status = await with_timeout(arm.call_at(dyn, [6], rep_a), 50, "us")
        assert (res, status) == (19, 1)
        assert int(slow_user.calls_reg.value) == 5

        # 5. counters over AXI: other offsets read 0
        assert await read_counters(arm, slow.base) == [0, 3, 0, 0]
        assert await read_counters(arm, cli.base) == [0, 0, 4, 0]
        assert await read_counters(arm, slow.base + 0x10) == [0, 0, 0, 0]
        assert await read_counters(arm, slow.base + 0x100) == [0, 0, 0, 0]
        # and the ARM's own model saw no strays
        assert arm.strays == 0


# -------------------------------------------------------------------------------------
# pytest side

from pushpush.build.sim import run_cocotb  # noqa: E402
from pushpush.testing import sim_matrix  # noqa: E402

VARIANTS = [
    {"topology": "crossbar", "data_width": 32, "pause": 0.0},
    {"topology": "shared", "data_width": 64, "pause": 0.0},
    {"topology": "crossbar", "data_width": 32, "pause": 0.4},
]


def _generate(tmp_path: Path, topology: str, data_width: int):
    from gensim import generate_system

    from pushpush.link import link
    from pushpush.spec import parse_system

    path = HERE / "fixtures" / "faults" / "system.yaml"
    data = yaml.safe_load(path.read_text())
    data["interconnect"].update(topology=topology, data_width=data_width)
    linked = link(parse_system(yaml.safe_dump(data, sort_keys=False), file="system.yaml",
                               base_dir=path.parent))
    return generate_system(linked, tmp_path / "gen")


def test_faults_lint(tmp_path):
    from gensim import lint

    gen = _generate(tmp_path, "crossbar", 64)
    assert lint(gen.sources, gen.top) == []


@pytest.mark.parametrize("simulator,params", sim_matrix(VARIANTS))
def test_faults(simulator, params, tmp_path):
    gen = _generate(tmp_path, params["topology"], params["data_width"])
    run_cocotb(toplevel=gen.top, sources=gen.sources, test_module="test_faults",
               test_dir=HERE, simulator=simulator, build_dir=tmp_path / "sim",
               extra_env={"PP_MAP": str(gen.map_path), "PP_PAUSE": str(params["pause"])})
