"""The simulated board's interrupt controller model and UIO stand-in, without a simulator:
axi_intc register semantics (PG099: level input, IAR while still high, SIE/CIE, MER) and the
UIO device's masking (one event per enable, as uio_pdrv_genirq), driven through PYNQ's own
UioController code (add_event, _uio_callback) on an asyncio loop."""

from __future__ import annotations

import asyncio
import os
import struct

import pytest

pytest.importorskip("pynq.uio")

from pushpush.pynq.siminterrupt import CIE, IAR, IER, IPR, ISR, IVR, MER, SIE, SimIntc, SimUio  # noqa: E402


def _w(intc: SimIntc, off: int, v: int) -> None:
    intc.write(off, struct.pack("<I", v))


def _r(intc: SimIntc, off: int) -> int:
    return struct.unpack("<I", intc.read(off, 4))[0]


def _events(uio: SimUio) -> list[int]:
    out = []
    while True:
        try:
            data = os.read(uio._r, 4)
        except BlockingIOError:
            return out
        out.append(struct.unpack("<I", data)[0])


def test_axi_intc_registers_and_uio_masking():
    uio = SimUio()
    intc = SimIntc(uio)
    try:
        uio.control(struct.pack("<I", 1))             # user space enabled the interrupt
        intc.set_input(1)
        assert _r(intc, ISR) == 1 and _r(intc, IPR) == 0 and _r(intc, IVR) == 0xFFFFFFFF
        assert _events(uio) == []                     # not enabled in the controller
        _w(intc, SIE, 1)
        assert _events(uio) == []                     # master enable still off
        _w(intc, MER, 3)
        assert _r(intc, IPR) == 1 and _r(intc, IVR) == 0
        assert _events(uio) == [1]                    # fired once, then masked
        _w(intc, IAR, 1)                              # acknowledged while the input is high:
        assert _r(intc, ISR) == 1                     # set again (level input)
        assert _events(uio) == []
        uio.control(struct.pack("<I", 1))             # re-enabled: still high, fires again
        assert _events(uio) == [2]
        intc.set_input(0)
        _w(intc, IAR, 1)
        assert _r(intc, ISR) == 0
        uio.control(struct.pack("<I", 1))
        assert _events(uio) == []                     # low: nothing
        _w(intc, CIE, 1)
        intc.set_input(1)
        assert _r(intc, IER) == 0 and _events(uio) == []
        _w(intc, MER, 0)
        assert _r(intc, MER) == 2                     # HIE stays set
    finally:
        uio.close()


def test_pynq_uiocontroller_code_waits_on_it():
    uio = SimUio()
    intc = SimIntc(uio)

    async def main() -> bool:
        loop = asyncio.get_running_loop()
        ev = asyncio.Event()
        uio.add_event(ev, 0)                          # PYNQ's add_event: enables (writes 1)
        _w(intc, SIE, 1)
        _w(intc, MER, 3)
        loop.call_later(0.05, intc.set_input, 1)
        await asyncio.wait_for(ev.wait(), 5)          # PYNQ's _uio_callback set it
        return uio.count == 1

    try:
        assert asyncio.run(main())
    finally:
        uio.close()
