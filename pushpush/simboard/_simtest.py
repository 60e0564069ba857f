"""The cocotb test module the simulated board runs (see :mod:`pushpush.simboard.child`)."""

import json
import os

import cocotb


@cocotb.test()
async def simulated_board(dut):
    """Serve the PYNQ process's GP0 accesses until it stops or goes away."""
    with open(os.environ["PUSHPUSH_SIM_CONFIG"]) as f:
        model = json.load(f).get("ps_model", "hdl")
    if model == "hdl":
        from pushpush.simboard.hdl import serve_hdl
        await serve_hdl(dut)
    else:
        from pushpush.simboard.legacy import serve_simulation
        await serve_simulation(dut)
