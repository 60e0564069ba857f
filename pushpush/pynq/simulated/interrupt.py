"""The simulated board's interrupt path, from the simulated PL's interrupt lines (the top's
``irq``, the AXI DMAs' interrupts) up to PYNQ's own ``pynq.Interrupt``.

On the board: the top's ``irq`` -> ``axi_intc_0`` (an AXI interrupt controller, PG099) ->
the PS's ``IRQ_F2P[0]`` (GIC interrupt 61) -> the kernel's ``uio_pdrv_genirq`` driver ->
``/dev/uioN``, which PYNQ finds through ``/proc/interrupts`` and opens with its
``UioController`` (read blocks until the interrupt fires; the driver then masks the
interrupt until user space writes a non-zero 32-bit word to re-enable it).
``pynq.Interrupt("system_top_0/irq")`` drives the controller's registers over MMIO and waits
on that file with asyncio.

On the simulated board the top's ``irq`` (and, in a system with ``dma:``, the DMAs'
interrupts) are the simulated RTL's own outputs: the simulator writes their levels into the
control page and a byte on the interrupt pipe at every change
(:mod:`pushpush.simboard.hdl`). Here:

* :class:`SimIntc` models ``axi_intc`` v4.1's registers (ISR, IPR, IER, IAR, SIE, CIE, IVR,
  MER) with N level-sensitive inputs ``intr[N-1:0]`` (the .hwh's ``C_NUM_INTR_INPUTS``: the
  top's ``irq`` at input 0, then each AXI DMA's ``mm2s_introut``/``s2mm_introut``; an ISR bit
  acknowledged while its input is still high is set again, as PG099 describes for level
  inputs). PYNQ's MMIO accesses to
  its address block (``ip_dict["axi_intc_0"]``) reach it through the simulated device.
* :class:`SimUio` stands in for the GIC and ``uio_pdrv_genirq``: a
  :class:`pynq.uio.UioController` whose "file" is a pipe. A level-high controller output
  while enabled writes one 32-bit event count into the pipe and masks the line; PYNQ's own
  ``UioController`` code reads it (its ``_uio_callback``) and re-enables it by writing
  ``1`` (its ``add_event``). What is stood in: ``/proc/interrupts`` and ``/dev/uioN`` (there
  is no kernel): :func:`install` puts the :class:`SimUio` into PYNQ's table of UIO devices
  by raw IRQ (``pynq.interrupt._InterruptController._uio_devices``), where PYNQ would put
  the one it found, so ``pynq.Interrupt`` and ``_InterruptController`` run unchanged.
* :class:`SimInterrupts` ties them to a running simulator: a thread blocks on the interrupt
  pipe (no CPU while the line is quiet) and feeds the line's level into the controller,
  and every rise the simulator counted since it last looked (a line high for a few cycles,
  low again by the time this thread runs, latches ISR as on the board).
* Other openers of the same device (C programs attached through
  :mod:`pushpush.pynq.simulated.c_programs`, each reading its own stand-in file) are added with
  :meth:`SimUio.attach`: like the kernel's UIO device, there is one mask for everyone
  (masked when it fires, any opener's non-zero write re-enables it) and every opener
  gets every event's count.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import select
import struct
import termios
import threading
from typing import Any, Optional

from pynq.uio import UioController

__all__ = ["SimIntc", "SimUio", "SimInterrupts", "install",
           "ISR", "IPR", "IER", "IAR", "SIE", "CIE", "IVR", "MER"]

#: axi_intc register offsets (PG099, table 2-4).
ISR, IPR, IER, IAR, SIE, CIE, IVR, MER = 0x00, 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18, 0x1C


class SimUio(UioController):
    """A UIO device whose file is a pipe (see the module docstring). PYNQ's
    ``UioController`` methods ``_uio_callback`` and ``add_event`` run as they are; only
    opening the device (a pipe instead of ``/dev/uioN``) and binding it to the event loop
    that waits (the loop of the first ``add_event``, not the constructor's) differ."""

    def __init__(self) -> None:  # noqa: D401 - no super().__init__: there is no /dev/uioN
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        os.set_blocking(self._w, False)
        self.uio = _PipeFile(self)
        self.wait_events: list[Any] = []
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._lock = threading.Lock()
        self._enabled = False
        self._line = False
        #: Interrupts delivered (the count a read of /dev/uioN returns).
        self.count = 0
        #: Other open files of the device (objects with ``event(count)``), see :meth:`attach`.
        self.openers: list[Any] = []

    def _unread(self) -> bool:
        """Whether the pipe holds a count nobody has read yet."""
        buf = bytearray(4)
        try:
            fcntl.ioctl(self._r, termios.FIONREAD, buf)
        except OSError:  # pragma: no cover - closed
            return False
        return struct.unpack("<i", buf)[0] > 0

    def attach(self, opener: Any) -> None:
        """Another open file of this device: ``opener.event(count)`` is called (under the
        device's lock, so it must not block) every time the interrupt fires."""
        with self._lock:
            self.openers.append(opener)

    def detach(self, opener: Any) -> None:
        with self._lock:
            if opener in self.openers:
                self.openers.remove(opener)

    def add_event(self, event: Any, number: int) -> None:
        loop = asyncio.get_event_loop()
        if loop is not self._loop:
            if self._loop is not None and not self._loop.is_closed():
                try:
                    self._loop.remove_reader(self._r)
                except (RuntimeError, ValueError):  # pragma: no cover - a loop of another thread
                    pass
            loop.add_reader(self._r, self._uio_callback)
            self._loop = loop
        super().add_event(event, number)

    # the "kernel" side ------------------------------------------------------------------

    def control(self, data: bytes) -> None:
        """A 32-bit write to the device: non-zero enables the interrupt, zero masks it."""
        with self._lock:
            self._enabled = any(data[:4])
            self._fire()

    def set_line(self, level: bool) -> None:
        """The GIC input (the interrupt controller's ``irq`` output) is now ``level``."""
        with self._lock:
            self._line = bool(level)
            self._fire()

    def _fire(self) -> None:
        if self._enabled and self._line:
            self._enabled = False            # uio_pdrv_genirq masks it until re-enabled
            self.count += 1
            if not self._unread():   # a read returns the latest count once, as the kernel's
                try:
                    os.write(self._w, struct.pack("<I", self.count & 0xFFFFFFFF))
                except OSError:  # pragma: no cover - closed
                    pass
            for opener in self.openers:
                opener.event(self.count & 0xFFFFFFFF)

    def close(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            try:
                loop.remove_reader(self._r)
            except (RuntimeError, ValueError):  # pragma: no cover
                pass
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._r = self._w = -1

    def __del__(self) -> None:
        if getattr(self, "_r", -1) >= 0 and (self._loop is None or self._loop.is_closed()):
            self.close()


class _PipeFile:
    """The ``uio`` file object PYNQ's UioController reads and writes."""

    def __init__(self, dev: SimUio) -> None:
        self.dev = dev

    def read(self, n: int) -> bytes:
        try:
            return os.read(self.dev._r, n)
        except BlockingIOError:
            return b""

    def write(self, data: bytes) -> int:
        self.dev.control(bytes(data))
        return len(data)

    def fileno(self) -> int:
        return self.dev._r

    def close(self) -> None:
        self.dev.close()


class SimIntc:
    """``axi_intc`` v4.1 registers with ``inputs`` level-sensitive, active-high inputs
    ``intr[inputs-1:0]`` (PG099; no fast interrupt mode, no nesting, as the block design
    configures it); its ``irq`` output drives ``uio`` (the GIC line).

    Per input bit i (bits at and above ``inputs`` read 0 and ignore writes):

    * ISR bit i is set while input i is high (level); it stays set when the input falls, until
      an acknowledge (a 1 in IAR) clears it, and an acknowledge while the input is still high
      leaves it set (PG099: a level input is sampled again). Before MER.HIE is set, writes to
      ISR set its bits (software interrupts); from then on they are ignored.
    * IER bit i enables it; SIE sets and CIE clears IER bits (reading SIE/CIE/IAR gives 0).
    * IPR = ISR & IER; IVR = the lowest pending input (input 0 has the highest priority), or
      0xFFFFFFFF when none is.
    * MER: ME (bit 0) enables the ``irq`` output, HIE (bit 1) cannot be cleared once set.
    * ``irq`` = ME and any IPR bit (level, active high, as C_IRQ_IS_LEVEL = 1).
    """

    def __init__(self, uio: SimUio, inputs: int = 1) -> None:
        if not 1 <= inputs <= 32:
            raise ValueError(f"axi_intc has 1 to 32 inputs, not {inputs}")
        self.uio = uio
        self.inputs = inputs
        self.mask = (1 << inputs) - 1
        self._lock = threading.Lock()
        self.isr = self.ier = self.mer = 0
        #: The levels of the inputs (bit i = input i).
        self.input = 0

    def set_input(self, level: int) -> None:
        """Input 0 (the only one of a one-input controller) is now ``level``."""
        with self._lock:
            self.input = (self.input & ~1) | (1 if level else 0)
            self._update()

    def set_inputs(self, levels: int, rose: int = 0) -> None:
        """All inputs at once: bit i of ``levels`` is input i's level; bit i of ``rose``:
        input i was high since the last call (a pulse that ended before this look), which
        sets its ISR bit as the sampled level would have."""
        with self._lock:
            self.isr |= rose & self.mask
            self.input = levels & self.mask
            self._update()

    def _update(self) -> None:
        self.isr |= self.input                 # level inputs: set while high
        self.uio.set_line(bool(self.mer & 1) and bool(self.isr & self.ier))

    def _reg(self, off: int) -> int:
        if off == ISR:
            return self.isr
        if off == IPR:
            return self.isr & self.ier
        if off == IER:
            return self.ier
        if off == IVR:
            p = self.isr & self.ier
            return (p & -p).bit_length() - 1 if p else 0xFFFFFFFF
        if off == MER:
            return self.mer
        return 0                               # IAR, SIE, CIE read 0

    def read(self, offset: int, length: int) -> bytes:
        with self._lock:
            out = b"".join(struct.pack("<I", self._reg(o)) for o in range(offset & ~3, offset + length, 4))
        skip = offset & 3
        return out[skip:skip + length]

    def write(self, offset: int, data: bytes) -> None:
        data = bytes(data)
        with self._lock:
            for i in range(0, len(data) - len(data) % 4, 4):
                self._write_reg(offset + i, struct.unpack_from("<I", data, i)[0])
            self._update()

    def _write_reg(self, off: int, v: int) -> None:
        v &= 0xFFFFFFFF
        if off == ISR and not self.mer & 2:     # software interrupts until HIE is set
            self.isr = v & self.mask
        elif off == IER:
            self.ier = v & self.mask
        elif off == IAR:
            self.isr &= ~v                       # a level input still high sets it again
        elif off == SIE:
            self.ier |= v & self.mask
        elif off == CIE:
            self.ier &= ~v
        elif off == MER:
            self.mer = (v & 3) | (self.mer & 2)  # HIE cannot be cleared once set


class SimInterrupts:
    """The interrupt path of one simulator run: a thread reads the interrupt pipe of
    ``bridge`` and feeds the interrupt lines (bit i of the control page's level: input i)
    into :attr:`intc` (``inputs`` inputs) at ``base`` (``size`` bytes)."""

    def __init__(self, bridge: Any, base: int, size: int, inputs: int = 1) -> None:
        self.bridge = bridge
        self.base, self.size = base, size
        self.uio = SimUio()
        self.intc = SimIntc(self.uio, inputs)
        self.watching = True   # until stop()
        self._fd = bridge.irq_r
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True, name="pushpush-sim-irq")
        self._thread.start()

    def contains(self, address: int, length: int) -> bool:
        return self.base <= address and address + length <= self.base + self.size

    def _look(self, seen: tuple[int, ...]) -> tuple[int, ...]:
        """Feed the lines into the controller: the inputs that rose since the rise counts
        ``seen`` (read before the levels, so a rise after this read shows in the level or
        at the next look), and the levels now. Returns the counts read."""
        rises = self.bridge.irq_rises(self.intc.inputs)
        rose = sum(1 << i for i, (a, b) in enumerate(zip(rises, seen)) if a != b)
        self.intc.set_inputs(self.bridge.irq_state()[0], rose)
        return rises

    def _run(self) -> None:
        fd = self._fd
        try:
            seen = self._look(self.bridge.irq_rises(self.intc.inputs))
            while not self._stop:
                r, _, _ = select.select([fd], [], [], 1.0)
                if not r:
                    continue
                try:
                    if not os.read(fd, 4096):
                        break
                except BlockingIOError:
                    continue
                if self._stop or not self.bridge.alive:
                    break
                seen = self._look(seen)
        except (OSError, ValueError):  # the pipe closed: the simulator stopped
            pass
        finally:
            try:
                os.close(fd)
            except OSError:
                pass

    def stop(self) -> None:
        self._stop = True


def install(parser: Any, interrupts: SimInterrupts) -> None:
    """Put ``interrupts``' UIO device where PYNQ looks up the UIO device of the raw IRQ of
    every interrupt controller wired to the PS (``parser.interrupt_controllers`` entries
    with parent ""), as PYNQ would after finding it in ``/proc/interrupts``."""
    from pynq.interrupt import _InterruptController

    from ..intcshare import install as keep_shared_input

    keep_shared_input()  # PYNQ gives the C programs' input back (pushpush.pynq.intcshare)
    for entry in (getattr(parser, "interrupt_controllers", None) or {}).values():
        if entry.get("parent", "") == "" and "raw_irq" in entry:
            old = _InterruptController._uio_devices.get(entry["raw_irq"])
            if isinstance(old, SimUio) and old is not interrupts.uio:
                old.close()
            _InterruptController._uio_devices[entry["raw_irq"]] = interrupts.uio
