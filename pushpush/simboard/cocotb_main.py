"""The cocotb test module the simulated board runs (see :mod:`pushpush.simboard.child`)."""

import cocotb


@cocotb.test()
async def simulated_board(dut):
    """Serve the PYNQ process's GP0 accesses until it stops or goes away."""
    from pushpush.simboard.hdl import serve_hdl
    await serve_hdl(dut)
