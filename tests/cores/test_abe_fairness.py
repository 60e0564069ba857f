"""The ABE paper's fairness experiment (Table 1) in simulation.

`pp_abe_fairness_top` (tests/cores/pp_abe_fairness_top.v): N pp_traffic_gen masters, each
behind a pp_abe or wired directly, share one AxiRam through pp_axi_interconnect (round
robin). Master 1 is the victim issuing 16-beat read bursts; the others issue 256-beat read
bursts continuously. The victim's share of the bus is its beats divided by its busy cycles.

Table 1 (Eq. 2) predicts 16 / (16 + (N-1) * 256): 5.88% with one interferer, 3.03% with two;
with ABEs (nominal 16) the fair share 1/N (50%, 33.3%). Every read beat is also checked
against the address pattern by the generators (data_errors must be 0).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import numpy as np
import pytest

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiBus, AxiRam

from pushpush.build.sim import run_cocotb
from pushpush.build.synth import core_sources
from pushpush.testing import sim_matrix

SOURCES = [Path(__file__).parent / "pp_abe_fairness_top.v",
           *(src for core in ("abe", "traffic_gen", "interconnect") for src in core_sources(core)[0])]

VICTIM = 1
VICTIM_BURSTS = 16
WINDOW = 0x10000
MEM_SIZE = 0x80000


def _pack(values, width):
    """Flatten per-master values, master i at [i*width +: width]."""
    return sum(v << (i * width) for i, v in enumerate(values))


def _get(sig, i, width):
    return (int(sig.value) >> (i * width)) & ((1 << width) - 1)


@cocotb.test(timeout_time=300, timeout_unit="us")
async def fairness(dut):
    p = json.loads(os.environ["PP_PARAMS"])
    n, use_abe = p["N"], p["USE_ABE"]
    ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM_SIZE)
    logging.getLogger(f"cocotb.{dut._name}.m_axi").setLevel(logging.WARNING)
    ram.write(0, np.arange(0, MEM_SIZE, 4, dtype="<u4").tobytes())   # the seed-0 pattern

    Clock(dut.clk, 10, unit="ns").start()
    for s in ("start", "stop", "cfg_write", "cfg_addr", "cfg_len", "cfg_count",
              "cfg_outstanding", "cfg_span"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    for _ in range(4):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)

    masters = range(n)
    dut.cfg_addr.value = _pack([2 * i * WINDOW for i in masters], 32)
    dut.cfg_span.value = _pack([WINDOW for i in masters], 32)
    dut.cfg_len.value = _pack([15 if i == VICTIM else 255 for i in masters], 8)
    dut.cfg_count.value = _pack([VICTIM_BURSTS if i == VICTIM else 0 for i in masters], 32)
    dut.cfg_outstanding.value = _pack([4 for i in masters], 8)
    dut.start.value = (1 << n) - 1
    await RisingEdge(dut.clk)
    dut.start.value = 0
    await RisingEdge(dut.clk)
    while _get(dut.busy, VICTIM, 1):
        await RisingEdge(dut.clk)
    victim_cycles = _get(dut.cycles, VICTIM, 32)
    victim_beats = _get(dut.beats, VICTIM, 32)
    dut.stop.value = (1 << n) - 1
    await RisingEdge(dut.clk)
    dut.stop.value = 0
    while int(dut.busy.value):
        await RisingEdge(dut.clk)

    share = victim_beats / victim_cycles
    theory = 1 / n if use_abe else 16 / (16 + (n - 1) * 256)
    others = {i: (_get(dut.beats, i, 32), _get(dut.cycles, i, 32)) for i in range(n) if i != VICTIM}
    dut._log.info("N=%d %s: victim %d beats in %d cycles = %.2f%% of the bus (Table 1 / fair "
                  "share: %.2f%%); interferers (beats, cycles): %s", n,
                  "with ABEs" if use_abe else "without ABEs", victim_beats, victim_cycles,
                  100 * share, 100 * theory, others)
    assert victim_beats == 16 * VICTIM_BURSTS
    for i in range(n):
        assert _get(dut.data_errors, i, 32) == 0, f"master {i}: read data errors"
        assert _get(dut.resp_errors, i, 32) == 0, f"master {i}: error responses"
    # within one round-robin round of the prediction (start-up and pipeline included)
    assert abs(share - theory) / theory < 0.12, f"share {share:.4f}, expected about {theory:.4f}"


PARAM_SETS = [{"N": 3, "USE_ABE": 1}, {"N": 3, "USE_ABE": 0},
              {"N": 2, "USE_ABE": 1}, {"N": 2, "USE_ABE": 0}]


@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS, verilator_sets=0))
def test_abe_fairness(simulator, params):
    run_cocotb(toplevel="pp_abe_fairness_top", sources=SOURCES, test_module="test_abe_fairness",
               test_dir=Path(__file__).parent, parameters=params, simulator=simulator,
               extra_env={"PP_PARAMS": json.dumps(params)})
