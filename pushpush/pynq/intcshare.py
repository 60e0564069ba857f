"""The system top's ``axi_intc`` input stays enabled for C programs while PYNQ runs beside them.

The top's ``irq`` (docs/architecture.md §2.3) reaches the PS through ``axi_intc_0``'s input 0,
and every runtime in wait mode ``interrupt`` sleeps on it: Python through PYNQ's
``pynq.Interrupt`` (:mod:`pushpush.pynq.irqwait`), each C program through the UIO device
(``c/runtime/pp_platform_linux.c``), which enables input 0 (``SIE``) before every sleep.
PYNQ's ``_InterruptController`` treats the controller as its own: it clears every enable when
it is made (``IER = 0``), and when it handles an interrupt it disables every input that fired
(``CIE``) until a Python waiter waits on it again (``SIE`` in ``add_event``). On a busy host
PYNQ's handling of an interrupt may run after a C program woken by the same interrupt has
served its call and gone back to sleep with input 0 enabled: input 0 is then off and the C
program's next call raises no interrupt (it was found only at its ``PP_IRQ_WAIT_US`` sweep).

:func:`install` fixes that in the process that runs PYNQ (the overlay's process: the
simulated board's :func:`pushpush.pynq.simulated.interrupt.install` calls it): after PYNQ made the
controller of the top's pin, and after every interrupt it handled, the top's input is
enabled again (``SIE``, a set-type write: nothing else changes) unless a Python waiter still
waits on it (then PYNQ keeps it as it does). An input whose line is still high is enabled again
only once until the line is seen low: a line held high by a runtime that does not clear its
bit (busy in a long call, or dead in ``interrupt`` mode) would otherwise make PYNQ handle the
same interrupt again and again whenever it waits on another input (an AXI DMA's); its owner
enables it again before its next sleep (C) or through the hub (Python). PYNQ's other inputs
(the DMAs') are handled as PYNQ does.

Example::

    from pushpush.pynq import intcshare
    intcshare.install()                 # idempotent; the simulated board does it for you
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

__all__ = ["install", "installed", "IRQ_PIN", "SIE", "ISR"]

#: The top's interrupt pin as PYNQ names it (``Overlay.interrupt_pins``).
IRQ_PIN = "system_top_0/irq"
#: axi_intc registers (PG099): interrupt status, set interrupt enables.
ISR, SIE = 0x00, 0x10

_lock = threading.Lock()
#: PYNQ's own methods, called by the wrappers.
_pynq_set: Optional[Callable[[Any], None]] = None
_pynq_init: Optional[Callable[[Any, str], None]] = None


def _shared_input(ctl: Any) -> Optional[int]:
    """The input of ``ctl`` that the top's ``irq`` drives, or None (not this controller, or
    no overlay with the pin is loaded)."""
    try:
        from pynq.pl import PL

        entry = PL.interrupt_pins.get(IRQ_PIN)
    except Exception:  # noqa: BLE001 - no overlay loaded: nothing to keep
        return None
    if not entry:
        return None
    parent = entry.get("parent") or entry.get("controller")
    if parent != getattr(ctl, "name", None):
        return None
    return int(entry["index"])


def _wrapped_init(self: Any, name: str) -> None:
    assert _pynq_init is not None
    _pynq_init(self, name)                      # writes IER = 0
    self._pp_held = False
    n = _shared_input(self)
    if n is not None:
        self.mmio.write(SIE, 1 << n)            # the C programs' enable, given back


def _wrapped_set(self: Any) -> None:
    assert _pynq_set is not None
    _pynq_set(self)                             # CIE of every input that fired, IAR, re-arm
    n = _shared_input(self)
    if n is None or self.wait_handles[n]:
        return                                  # a Python waiter: PYNQ keeps the input
    high = bool(self.mmio.read(ISR) >> n & 1)   # after PYNQ's acknowledge: the line's level
    if high and getattr(self, "_pp_held", False):
        return                                  # still held since the last enable: leave it
    self._pp_held = high
    self.mmio.write(SIE, 1 << n)


def install() -> None:
    """Wrap PYNQ's ``_InterruptController`` (once per process; see the module docstring)."""
    global _pynq_set, _pynq_init
    from pynq.interrupt import _InterruptController as C

    with _lock:
        if getattr(C, "_pp_intcshare", False):
            return
        _pynq_set, _pynq_init = C.set, C.__init__
        C.set = _wrapped_set
        C.__init__ = _wrapped_init
        C._pp_intcshare = True


def installed() -> bool:
    """Whether :func:`install` ran in this process."""
    from pynq.interrupt import _InterruptController as C

    return bool(getattr(C, "_pp_intcshare", False))
