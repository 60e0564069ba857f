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

from pushpush.pynq.simulated.interrupt import CIE, IAR, IER, IPR, ISR, IVR, MER, SIE, SimIntc, SimUio  # noqa: E402


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


def test_n_input_controller_masks_and_acknowledges_per_input():
    """Three level inputs, as dma_stream's axi_intc_0 has them (0: the top's irq, 1 and 2:
    axi_dma_0's mm2s_introut and s2mm_introut): each bit pends, is enabled, acknowledged
    and prioritised on its own; bits above the inputs do not exist."""
    uio = SimUio()
    intc = SimIntc(uio, inputs=3)
    try:
        uio.control(struct.pack("<I", 1))
        _w(intc, MER, 3)
        intc.set_inputs(0b100)                        # s2mm high, not enabled
        assert _r(intc, ISR) == 0b100 and _r(intc, IPR) == 0 and _r(intc, IVR) == 0xFFFFFFFF
        assert _events(uio) == []
        _w(intc, SIE, 0b010)                          # mm2s enabled: still nothing pending
        assert _r(intc, IER) == 0b010 and _events(uio) == []
        intc.set_inputs(0b110)                        # mm2s rises
        assert _r(intc, IPR) == 0b010 and _r(intc, IVR) == 1
        assert _events(uio) == [1]
        _w(intc, SIE, 0b101)                          # input 0 and 2 enabled too
        assert _r(intc, IER) == 0b111
        assert _r(intc, IPR) == 0b110 and _r(intc, IVR) == 1   # the lowest input first
        intc.set_inputs(0b000)                        # every input falls: ISR stays set
        assert _r(intc, ISR) == 0b110
        _w(intc, IAR, 0b010)                          # acknowledge mm2s only
        assert _r(intc, ISR) == 0b100 and _r(intc, IVR) == 2
        _w(intc, CIE, 0b100)                          # disable s2mm: nothing pending
        assert _r(intc, IER) == 0b011 and _r(intc, IPR) == 0 and _r(intc, IVR) == 0xFFFFFFFF
        uio.control(struct.pack("<I", 1))
        assert _events(uio) == []                     # the line is low
        intc.set_input(1)                             # input 0 (the top's irq) alone
        assert _r(intc, ISR) == 0b101 and _r(intc, IPR) == 0b001 and _r(intc, IVR) == 0
        assert _events(uio) == [2]
        _w(intc, IAR, 0b001)                          # acknowledged while high: set again
        assert _r(intc, ISR) & 1
        intc.set_inputs(0b1000 | 0b001)               # a bit above the inputs is ignored
        assert _r(intc, ISR) == 0b101
        _w(intc, IAR, 0xFFFFFFFF)
        _w(intc, SIE, 0xFFFFFFF8)                     # no such inputs: no enable bits
        assert _r(intc, IER) == 0b011
        assert _r(intc, ISR) == 0b001                 # input 0 still high
        intc.set_input(0)
        _w(intc, IAR, 1)
        assert _r(intc, ISR) == 0
    finally:
        uio.close()


def test_software_interrupts_until_hardware_enable():
    uio = SimUio()
    intc = SimIntc(uio, inputs=3)
    try:
        _w(intc, ISR, 0xFF)                           # MER.HIE clear: ISR writes set bits
        assert _r(intc, ISR) == 0b111
        _w(intc, IAR, 0b111)
        _w(intc, MER, 3)
        _w(intc, ISR, 0b010)                          # HIE set: ignored
        assert _r(intc, ISR) == 0
        with pytest.raises(ValueError, match="1 to 32 inputs"):
            SimIntc(uio, inputs=33)
    finally:
        uio.close()


def test_a_pulse_between_two_looks_latches_isr():
    """A line high for a few cycles and low again before the PYNQ process's interrupt
    thread looks (a runtime cleared its pending bit right after the PL set it) sets its ISR
    bit, as axi_intc samples every cycle on the board: the simulator counts rises in the
    control page (SimulatedPSMemory.set_irq), the thread feeds them in. Sampling only the
    level lost such a wake-up, and an interrupt-mode call waited for its timeout."""
    import time
    from types import SimpleNamespace

    from pushpush.pynq.simulated.interrupt import SimInterrupts
    from pushpush.simboard.ipc import CTL_IRQ_LEVEL, CTL_IRQ_RISES, CTL_SIZE, SimulatedPSMemory

    ctl = bytearray(CTL_SIZE)
    sim = SimpleNamespace(control=ctl)          # the simulator's side of the control page
    r, w = os.pipe()
    os.set_blocking(r, False)
    bridge = SimpleNamespace(
        irq_r=r, alive=True,
        irq_state=lambda: struct.unpack_from("<QQQQ", ctl, CTL_IRQ_LEVEL),
        irq_rises=lambda n: struct.unpack_from(f"<{n}I", ctl, CTL_IRQ_RISES))
    ints = SimInterrupts(bridge, 0x41800000, 0x10000, inputs=2)
    try:
        intc = ints.intc
        SimulatedPSMemory.set_irq(sim, 0b01, 840)   # input 0 up ...
        SimulatedPSMemory.set_irq(sim, 0b00, 844)   # ... and down before the thread looked
        os.write(w, b"\1\1")
        deadline = time.monotonic() + 5
        while not intc.isr & 1 and time.monotonic() < deadline:
            time.sleep(0.001)
        assert intc.isr == 0b01 and intc.input == 0       # latched; input 1 untouched
        _w(intc, IAR, 1)                                  # acknowledged while low: gone
        assert _r(intc, ISR) == 0
        SimulatedPSMemory.set_irq(sim, 0b10, 900)         # a level seen high as before
        os.write(w, b"\1")
        deadline = time.monotonic() + 5
        while not intc.isr & 2 and time.monotonic() < deadline:
            time.sleep(0.001)
        assert intc.isr == 0b10 and intc.input == 0b10
    finally:
        ints.stop()
        os.close(w)
