"""The cocotb test module the simulated board runs (see :mod:`pushpush.pynq.bridge`)."""

import cocotb

from pushpush.pynq.bridge import serve_simulation


@cocotb.test()
async def simulated_board(dut):
    """Serve the PYNQ process's GP0 accesses until it stops or goes away."""
    await serve_simulation(dut)
