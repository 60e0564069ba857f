"""Cycle bench of the buffer engines' path to PS memory, as a generated top has it
(cores/axi_dma/tb/pp_buf_path_tb.v): pp_buf_rd and pp_buf_wr on the top's 2 x 1 buffer
interconnect into the simulated board's PS memory port (``pp_sim_mem``, S_AXI_HP0), served
by its real Python side (:class:`pushpush.simboard.ps_model.HdlPS`), with a stream sink (rd) and
source (wr) at full speed: the path of a channel transfer (``pushpush bench channels``).

Every R and W beat at the memory port is stamped with its cycle, so each transfer is split
into data beats and the gaps between them (per burst). The exact cycle counts are asserted:
they are the numbers docs/runtime.md and cores/sim_ps/README.md quote (a read of n words
streams at one word per cycle after a fixed start, a write likewise: no gap between bursts
once the memory port keeps several bursts in flight), and the data is checked word for word.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.bench.buf_path_tb import EXPECT_1024, run_path
from pushpush.testing import sim_matrix

SETS = [
    ({"MAX_BURST": 16, "FIFO_LOG2": 5, "ACCEPT": 8}, EXPECT_1024),   # a generated top's
    ({"MAX_BURST": 16, "FIFO_LOG2": 5, "ACCEPT": 2}, EXPECT_1024),   # two in flight suffice
    # the memory firewall in the path (firewall:), both buffers allowed: not one cycle more
    ({"MAX_BURST": 16, "FIFO_LOG2": 5, "ACCEPT": 8, "FIREWALL": 1}, EXPECT_1024),
]


@pytest.mark.parametrize("simulator,params", sim_matrix([s for s, _ in SETS]))
def test_buf_path(simulator, params, tmp_path):
    expect = next(e for s, e in SETS if s == params)
    run_path(simulator, {"words": 1024, "expect": expect, "firewall": bool(params.get("FIREWALL"))},
             params, tmp_path / "buf_path.json")
