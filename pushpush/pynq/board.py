"""The runtime backend through PYNQ: the same code on a PYNQ-Z1 and on the simulated board.

:class:`PynqBackend` is a :class:`~pushpush.runtime.backend.SyncBackend` for one software
component of a loaded overlay:

* ``read_local``/``write_local``: the component's window in the ``ps`` region (the ARM's
  on-chip memory, as in the paper), mapped once with ``device.mmap`` as a uint32 numpy view
  (``/dev/mem`` on the board, shared memory on the simulated board): polling is a numpy
  read, never bus traffic.
* ``write``: a call or a return into the PL goes through a ``pynq.MMIO`` over the system
  top's address block (``ip_dict["system_top_0"]``). On the board (``MEMORY_MAPPED``) the
  words are stored through the MMIO's numpy ``array`` view in one slice assignment from a
  list (:func:`~pushpush.pynq.words.store_words`: numpy stores the items one by one in address order, so the
  trigger word, the last, lands last; ``MMIO.write`` costs about 30 us per call on a
  PYNQ-Z1, far too slow for a call path). On the simulated board (``REGISTER_RW``) the
  whole payload is one ``MMIO.write(offset, bytes)``, which PYNQ hands to the device as one
  ``write_registers`` call; the simulated device delivers it word by word, as the board's
  stores arrive (:mod:`pushpush.pynq.simulated.device`), and an SLVERR/DECERR response
  raises :class:`~pushpush.protocol.BusWriteError` (a busy slot is retried by the runtime).
  Writes into the ``ps`` region (a software callee on the ARM) are stores into the mapped
  on-chip memory, in the same one slice. So a call's or a reply's words are one uncached
  access from Python, and a local read (:func:`~pushpush.pynq.words.load_words`) one more: the runtime's
  accesses per call are counted by :mod:`pushpush.pynq.accesses`.
* with ``software_windows: ddr`` the ``ps`` region is a ``pynq.allocate`` buffer instead
  (:mod:`pushpush.pynq.windows`): same addresses (link addresses), another memory;
* before anything is mapped, the SLCR's ``OCM_CFG`` is read
  (:func:`pushpush.pynq.ocm.check_ocm_mapping`):
  when the ``ps`` region lies in the on-chip memory's high range (0xFFFC0000..) but the
  boot loader left one of its 64 KiB banks mapped low, :class:`OcmMappingError` says so
  and how to fix it, instead of the PL writing into nothing (docs/board.md).
* ``sleep``: how the runtime waits between sweeps depends on the wait mode (YAML ``wait:``
  of the component, changed at run time with ``rt.wait = ...`` or ``ol.runtime(wait=...)``;
  docs/runtime.md, "Waiting"): ``sleep`` (the default) a short ``time.sleep`` (on the
  simulated board a wait on its PL-write notification); ``poll`` returns at once (spins);
  ``yield`` calls ``os.sched_yield()`` (the PushPush paper's ARM client); ``interrupt``
  sleeps until the top's interrupt fires, through PYNQ's ``pynq.Interrupt``
  (:mod:`pushpush.pynq.irqwait`). In every mode, every 50 ms it checks that the
  overlay is still the loaded one (else :class:`OverlayReplaced`) and, on the simulated
  board, that the simulator runs (else :class:`~pushpush.pynq.simulated.bridge.SimulatorError`), so a
  call waiting for a reply fails with that error instead of timing out; a serve thread
  logs it once and idles until the overlay's ``free()`` stops it.

Example::

    import pynq
    from pushpush.pynq.board import PynqBackend
    ol = pynq.Overlay("build/hof/hof.bit")
    backend = PynqBackend(linked, "host", ol.device, pl=ol.ip_dict["system_top_0"])
    rt = SyncRuntime(linked, "host", backend)
"""

from __future__ import annotations

import logging
import os
import struct
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any, Mapping, Optional

import numpy as np

from pushpush.link import IRQ_ENABLE_CLEAR, IRQ_ENABLE_SET, WAIT_MODES, LinkedSystem
from pushpush.protocol import BusWriteError
from pushpush.runtime.backend import SyncBackend, in_serve_thread
from pushpush.runtime.claim import Claim, ClaimRefused, probe
from pushpush.runtime.firewall import FirewallTable
from pushpush.runtime.window_guard import WindowGuardView

from .irqwait import IRQ_PIN, hub_for
from .windows import SoftwareWindows
from .words import load_words, store_words

__all__ = ["PynqBackend", "OverlayReplaced", "DEFAULT_POLL_S", "Pacing", "PacedDevice"]

log = logging.getLogger("pushpush.pynq")

#: Longest sleep of the ``interrupt`` mode before the runtime sweeps anyway and checks the
#: overlay (seconds): a bound on the delay of a lost interrupt, never the way calls arrive.
IRQ_WAIT_S = 0.1
#: Pause between two polling sweeps (seconds).
DEFAULT_POLL_S = 20e-6


#: This process's claim holders by claim file (to hand a replaced overlay's claim on).
_HOLDERS: "dict[str, weakref.ref[PynqBackend]]" = {}


class OverlayReplaced(RuntimeError):
    """The overlay a runtime was made for is no longer the one loaded."""


class Pacing:
    """How the machine under a :class:`PynqBackend` paces its waits. On a board: not at all
    (this class: the PL runs on its own, so every method does nothing, and the backend
    sleeps its poll interval). A device under which the PL runs only when software waits for
    it (the simulated board) is a :class:`PacedDevice` and gives the backend its own
    (:class:`pushpush.pynq.simulated.pacing.SimPacing`)."""

    #: A write checks first that the overlay is still the loaded one (a freed overlay's
    #: runtime must not write into the next one's PL or memory).
    guard_writes = False
    #: The default pause between two polling sweeps (seconds).
    poll_s = DEFAULT_POLL_S
    #: Waits on the interrupt that ended at :data:`IRQ_WAIT_S`, not by the interrupt.
    irq_fallbacks = 0

    @property
    def memory_file(self) -> Optional[str]:
        """The file the windows are mapped from, which names the board in claim files
        (None: ``/dev/mem`` when it exists)."""
        return None

    def check(self) -> None:
        """Raise if what runs the PL failed (checked every 50 ms of waiting)."""

    def check_interrupts(self, component: str) -> None:
        """Raise ``ValueError`` (saying why) if ``component`` cannot wait for interrupts here."""

    def watch(self, base: int, size: int) -> None:
        """The software windows are at ``base`` .. ``base + size`` in DDR."""

    def ps_written(self) -> None:
        """Software of this process wrote into PS memory (a window)."""

    def handling(self, delta: int) -> None:
        """The runtime took (> 0) or answered (< 0) calls of the PL (its ``handling`` hook)."""

    def wait_report(self, waited: float) -> Optional[str]:
        """What the PL did during the last ``waited`` seconds of a wait, or None."""
        return None

    def progress_clock(self, cycles: float) -> Optional[Any]:
        """A clock of the PL's progress for one call answered within ``cycles`` cycles (the
        runtime's ``progress_clock`` hook), or None: on a board the PL always runs, the wall
        clock serves."""
        return None

    def irq_runtimes(self, delta: int) -> None:
        """A runtime enters (1, before it enables its pending bit) or leaves (-1, after it
        disabled it) wait mode ``interrupt``."""

    def spinning(self) -> None:
        """(Every 50 ms in wait modes poll and yield.) The calling thread spins."""

    def between_sweeps(self) -> None:
        """(Wait modes poll, yield, interrupt.) The calling thread waits between sweeps."""

    def sleep(self, poll_s: float) -> bool:
        """(Wait mode sleep.) Wait for the PL's next write, at most ``poll_s``; False: not
        here (the backend sleeps ``poll_s``)."""
        return False

    def irq_wait(self, hub: Any, generation: int, wait_s: float) -> bool:
        """(Wait mode interrupt, after the sweep that followed the clear.) Wait for the
        interrupt here; False: not here (the backend waits on ``hub``)."""
        return False

    def wait_over(self) -> None:
        """A caller's wait for a reply ended (the runtime's ``wait_over`` hook)."""

    def serve_paused(self) -> None:
        """The serve thread stands down (the runtime's ``serve_paused`` hook)."""


class PacedDevice:
    """A ``pynq.Device`` that paces the waits of the backends over it (the simulated board,
    :class:`pushpush.pynq.simulated.device.SimDevice`): it gives each its :class:`Pacing`."""

    def pacing(self) -> Pacing:
        """The pacing of a new backend over this device (the overlay loaded now)."""
        raise NotImplementedError


class PynqBackend(SyncBackend):
    """Backend of software component ``component`` over PYNQ (see the module docstring).

    ``pl`` is the system top's ``ip_dict`` entry (``phys_addr``, ``addr_range``); without it
    the backend covers only the ``ps`` region (a system of software components only).
    ``windows``: the overlay's :class:`~pushpush.pynq.windows.SoftwareWindows` (the ``ps``
    region's memory, shared by all software components); by default one is opened here."""

    def __init__(self, linked: LinkedSystem, component: str, device: Any,
                 pl: Optional[Mapping[str, Any]] = None, *, poll_s: Optional[float] = None,
                 windows: Any = None, wait: Optional[str] = None) -> None:
        self.linked = linked
        self.component = linked.component(component)
        if not self.component.is_software:
            raise ValueError(f"component '{component}' is {self.component.kind}, not software: "
                             "only software components run on the ARM")
        self.device = device
        #: How this machine paces the waits (nothing to pace on a board)
        self.pacing: Pacing = device.pacing() if isinstance(device, PacedDevice) else Pacing()
        #: The component's claim (one live runtime per component, in any process:
        #: :mod:`pushpush.runtime.claim`); ``ClaimRefused`` names the owner. Released by
        #: :meth:`close`, or by the kernel when the process ends.
        self.claim = self._claim()
        try:
            self._open(linked, component, device, pl, poll_s, windows, wait)
        except BaseException:
            if self.claim is not None:
                self.claim.release()
            raise

    def _claim_key(self) -> Optional[str]:
        """The file the windows are mapped from, which names the board in claim files: the
        simulated board's shared memory, else ``/dev/mem`` (None: neither, e.g. a stand-in
        device of a test: nothing to share with another process)."""
        key = self.pacing.memory_file
        if key is None and os.path.exists("/dev/mem"):
            key = "/dev/mem"
        return key

    def _claim(self) -> Any:
        key = self._claim_key()
        if key is None:
            return None
        args = (key, self.component.base, self.component.name, "python")
        try:
            claim = Claim.acquire(*args, nimports=len(self.component.imports),
                                 runtime_words=self.component.runtime_words)
        except ClaimRefused as e:
            # this process's own runtime of an overlay that was replaced or freed without
            # free(): it can never call again, so its claim goes to the new runtime
            ref = _HOLDERS.get(e.path)
            other = ref() if ref is not None else None
            if e.owner.pid != os.getpid() or other is None or not other._stale():
                raise
            other.close()
            claim = Claim.acquire(*args, nimports=len(self.component.imports),
                                 runtime_words=self.component.runtime_words)
        _HOLDERS[str(claim.path)] = weakref.ref(self)
        return claim

    def _stale(self) -> bool:
        """Whether this backend's overlay was freed or replaced by another download."""
        return getattr(self.device, "timestamp", None) != getattr(self, "_timestamp", None)

    @property
    def restart_record(self) -> Any:
        """The caller's memory of the component's imports, kept in its claim file (one byte
        per import; docs/architecture.md §2.2, "Restarts and owners"), or None."""
        return self.claim.record if self.claim is not None and self.claim.held else None

    @property
    def restart_journal(self) -> Any:
        """The journal of the run-time area's slots in use, in the claim file, or None."""
        return self.claim.journal if self.claim is not None and self.claim.held else None

    def owner_of(self, component: str) -> Optional[tuple[Optional[bool], Any]]:
        """(live now?, :class:`~pushpush.runtime.claim.OwnerInfo`) of another software
        component's runtime on this board, from its claim; None if it never had one;
        ``LookupError`` where nothing keeps claims."""
        key = self._claim_key()
        if key is None:
            raise LookupError("this device keeps no claims (no memory file to key them by)")
        live, owner = probe(key, self.linked.component(component).base)
        return None if owner is None else (live, owner)

    def _open(self, linked: LinkedSystem, component: str, device: Any, pl: Optional[Mapping[str, Any]],
              poll_s: Optional[float], windows: Any, wait: Optional[str]) -> None:
        from pynq import MMIO   # PYNQ is an optional dependency: imported where it is used

        ps = linked.ps
        self.ps_base, self.ps_size = ps.base, ps.size
        # the ps region's memory: the OCM (checked against OCM_CFG) or, with software_windows:
        # ddr, a pynq.allocate buffer (pass the overlay's `windows` so that every component
        # shares it; a backend made alone opens its own)
        self.windows = windows if windows is not None else SoftwareWindows.open(linked, device)
        self.ps = self.windows.view
        self.pl_base = self.pl_size = 0
        self.pl_mmio = None
        self.pl_array: Optional[np.ndarray] = None
        if pl is not None:
            self.pl_base, self.pl_size = int(pl["phys_addr"]), int(pl["addr_range"])
            self.pl_mmio = MMIO(self.pl_base, self.pl_size, device=device)
            if device.has_capability("MEMORY_MAPPED"):
                self.pl_array = self.pl_mmio.array
        if self.windows.buffer is not None:   # windows in DDR (software_windows: ddr)
            self.pacing.watch(int(self.windows.phys_base), int(self.ps_size))
        self._seen = _Cleared()
        self.poll_s = self.pacing.poll_s if poll_s is None else poll_s
        self._next_check = 0.0
        self._reported = False
        self._timestamp = getattr(device, "timestamp", None)
        self._wait = "sleep"
        self._hub: Any = None
        #: The serve thread's stop event (SyncRuntime.start sets it): its sleep on the
        #: interrupt ends when it is set (:meth:`wake`), not at IRQ_WAIT_S
        self.stopping: Optional[threading.Event] = None
        self.set_wait(wait or self.component.wait or "sleep")
        self._window_guard = None
        if linked.window_guard is not None:   # firewall: the PL's writes into the windows
            gregs = MMIO(linked.window_guard.base, linked.window_guard.size, device=device)
            self._window_guard = WindowGuardView(linked, lambda o: int(gregs.read(o)),
                                                 lambda o, v: gregs.write(o, v))
        self._firewall = None
        if linked.firewall is not None:   # firewall: this component's entries of its table
            regs = MMIO(linked.firewall.base, linked.firewall.size, device=device)
            fw_base = linked.firewall.base
            self._firewall = FirewallTable(linked, component, lambda o: int(regs.read(o)),
                                           lambda o, v: regs.write(o, v),
                                           lambda o, ws: self.write(fw_base + o, ws))

    # ------------------------------------------------------------------ buffers

    def window_guard(self) -> Any:
        """The window guard's registers, or None without one (:mod:`pushpush.runtime.window_guard`)."""
        return self._window_guard

    def firewall(self) -> Any:
        """This component's entries of the memory firewall's table, or None without
        ``firewall:`` (:mod:`pushpush.runtime.firewall`)."""
        return self._firewall

    def allocate(self, n: int, dtype: str) -> Any:
        """A physically contiguous buffer of ``n`` elements (``pynq.allocate`` on this
        backend's device): where the runtime copies a numpy array passed for a buffer
        parameter (docs/runtime.md, "Buffers")."""
        import pynq

        return pynq.allocate(shape=(n,), dtype=dtype, target=self.device)

    # ------------------------------------------------------------------ wait modes

    @property
    def wait(self) -> str:
        """The wait mode (see the module docstring); set it with :meth:`set_wait`."""
        return self._wait

    def set_wait(self, mode: str) -> None:
        """Change how this backend waits between sweeps: ``sleep``, ``poll``, ``yield`` or
        ``interrupt`` (needs the top's interrupt: ``ValueError`` says why not)."""
        if mode not in WAIT_MODES:
            raise ValueError(f"wait mode {mode!r}: use one of {', '.join(WAIT_MODES)}")
        if mode == "interrupt" and self._hub is None:
            irq = self.linked.irq
            if irq is None or self.pl_mmio is None:
                raise ValueError(
                    f"component '{self.component.name}' cannot wait for interrupts: system "
                    f"'{self.linked.name}' has no interrupt (its top gets one when it has an rtl "
                    "component and a free page in regions.pl; see docs/architecture.md §2.3)"
                    if irq is None else
                    f"component '{self.component.name}': no PL block to reach the pending "
                    "register through (make the backend with pl=ip_dict['system_top_0'])")
            pins = getattr(self.device, "interrupt_pins", None) or {}
            if IRQ_PIN not in pins:
                raise ValueError(
                    f"component '{self.component.name}' cannot wait for interrupts: the loaded "
                    f"overlay has no interrupt pin {IRQ_PIN} in its .hwh (a top without the "
                    "interrupt block, e.g. a stand-in or a bitstream built before it existed); "
                    "rebuild it with this pushpush, or use wait 'sleep', 'poll' or 'yield'")
            self.pacing.check_interrupts(self.component.name)
            self._irq_bit = 1 << irq.bit(self.component.name)
            self._irq_offset = irq.pending_address - self.pl_base
            self._hub = hub_for(self.device)
        if mode == "interrupt" and self._wait != "interrupt":
            self._irq_enable(True)
        elif mode != "interrupt" and self._wait == "interrupt":
            self._irq_enable(False)
        self._wait = mode

    def _irq_enable(self, on: bool) -> None:
        """Set (0x4) or clear (0x8) this component's enable bit in the interrupt block: only
        a runtime that sleeps on the interrupt lets its pending bit raise it, so the bits of
        components in other modes never hold the shared line (docs/architecture.md §2.3).
        Leaving interrupt mode also clears the pending bit. The pacing counts runtimes in
        this mode (:meth:`Pacing.irq_runtimes`: the simulated board then pauses after a PL
        write only once ``irq`` has risen for it)."""
        assert self.pl_mmio is not None
        if on:
            self.pacing.irq_runtimes(1)   # before the bit can raise irq
        try:
            self.pl_mmio.write(self._irq_offset + (IRQ_ENABLE_SET if on else IRQ_ENABLE_CLEAR),
                               self._irq_bit)
            if not on:
                self.clear_pending()
        finally:
            if not on:
                self.pacing.irq_runtimes(-1)

    def wake(self) -> None:
        """The serve thread is told to stop (:attr:`stopping` is set): end its sleep on the
        interrupt now. Before, ``SyncRuntime.stop`` waited for it until IRQ_WAIT_S (with
        IRQ_WAIT_S 30 s its 5 s join timed out: ``ol.free()`` took 5 s)."""
        hub = self._hub
        if hub is not None:
            hub.wake()

    def clear_pending(self) -> None:
        """Write-1-to-clear this component's pending bit in the top's interrupt block."""
        assert self.pl_mmio is not None
        self.pl_mmio.write(self._irq_offset, self._irq_bit)

    def pending(self) -> int:
        """The top's pending register (every software component's bit)."""
        irq = self.linked.irq
        if irq is None or self.pl_mmio is None:
            return 0
        return int(self.pl_mmio.read(irq.pending_address - self.pl_base))

    def close(self) -> None:
        """Stop the interrupt waiter of this backend's overlay (if one runs); release the
        component's claim."""
        try:
            self._close()
        finally:
            if self.claim is not None:
                self.claim.release()

    def _close(self) -> None:
        hub, self._hub = self._hub, None
        if self._wait == "interrupt":
            try:
                self._irq_enable(False)
            except Exception:   # the overlay is gone already: nothing to tidy
                pass
            self._wait = "sleep"
        if hub is not None:
            hub.release()

    # ------------------------------------------------------------------ backend interface

    def write(self, address: int, words: Sequence[int]) -> None:
        n = len(words)
        if n == 0:
            return
        if self.pacing.guard_writes and getattr(self.device, "timestamp", None) != self._timestamp:
            # a runtime of a freed or replaced overlay (e.g. its serve thread answering a call
            # taken just before the download) must not write into the next overlay's PL or
            # memory: seen beside busy loops as a stray answer into a new hof's mapper
            raise OverlayReplaced("the overlay of this runtime was freed or replaced by another "
                                  "download; load it again")
        if self.ps_base <= address and address + 4 * n <= self.ps_base + self.ps_size:
            store_words(self.ps, (address - self.ps_base) >> 2, words)
            self.pacing.ps_written()   # (wakes a runtime of this process waiting on it)
            return
        if self.pl_mmio is not None and self.pl_base <= address and address + 4 * n <= self.pl_base + self.pl_size:
            off = address - self.pl_base
            if self.pl_array is not None:
                store_words(self.pl_array, off >> 2, words)
            else:
                self.pl_mmio.write(off, struct.pack(f"<{n}I", *words))
            return
        raise BusWriteError(address, n, "DECERR")

    def slot_pending(self, trigger_address: int) -> bool:
        """Whether the word at ``trigger_address`` of a software window (a cep slot's
        trigger) holds a call not taken yet: the runtime then waits before writing there, as
        an RTL window would refuse the write (docs/architecture.md §2.2, "Collision")."""
        i = (trigger_address - self.ps_base) >> 2
        return 0 <= i < len(self.ps) and bool(self.ps[i])

    def read_local(self, address: int, count: int) -> list[int]:
        return load_words(self.ps, (address - self.ps_base) >> 2, count)

    def write_local(self, address: int, words: Sequence[int]) -> None:
        store_words(self.ps, (address - self.ps_base) >> 2, words)
        self.pacing.ps_written()

    def handling(self, delta: int) -> None:
        """The runtime took (``delta`` > 0) or answered (< 0) calls of the PL: on the
        simulated board the simulator need not run while they are answered
        (:meth:`pushpush.pynq.simulated.pacing.Pacer.handling`); nothing on the board."""
        self.pacing.handling(delta)

    def wait_report(self, waited: float) -> Optional[str]:
        """What the simulated board did during the last ``waited`` seconds of a wait (cycles,
        the simulator's state; :meth:`pushpush.pynq.simulated.bridge.SimBridge.wait_report`), for a
        call timeout's message; None on the board."""
        return self.pacing.wait_report(waited)

    def progress_clock(self, cycles: float) -> Optional[Any]:
        """The clock of one call the hardware answers within ``cycles`` clock cycles while
        the PL runs (a channel's call: infinite): on the simulated board the seconds in which
        its cycle count stood still, endless once ``cycles`` passed
        (:class:`pushpush.pynq.simulated.pacing.StallClock`); None on the board (the wall
        clock: the PL always runs)."""
        return self.pacing.progress_clock(cycles)

    def wait_over(self) -> None:
        """The runtime's wait for a reply ended (returned, failed or timed out): on the
        simulated board a polling caller is no longer counted (:class:`Pacing`)."""
        self.pacing.wait_over()

    def serve_paused(self) -> None:
        """The serve thread stops sweeping for a while (a waiting caller serves instead): on
        the simulated board it no longer counts as a thread that must look at every write
        into PS memory before simulated time may pass (:class:`Pacing`)."""
        self.pacing.serve_paused()

    @property
    def irq_fallbacks(self) -> int:
        """(Simulated board) waits of a caller on its interrupt that ended at IRQ_WAIT_S, not
        by the interrupt: with IRQ_WAIT_S above the longest stretch without a PL write for
        the caller (e.g. a callback it waits through), each is a lost wake-up."""
        return self.pacing.irq_fallbacks

    def _check(self) -> None:
        if getattr(self.device, "timestamp", None) != self._timestamp:
            raise OverlayReplaced("the overlay of this runtime was freed or replaced by another "
                                  "download; load it again")
        self.pacing.check()

    def sleep(self) -> None:
        mode = self._wait
        now = time.monotonic()
        if now >= self._next_check:
            self._next_check = now + 0.05
            try:
                self._check()
            except Exception as e:
                # a serve thread idles (the overlay's free() stops it); a caller waiting
                # for a reply gets the error (the simulator's, or OverlayReplaced)
                if not in_serve_thread():
                    raise
                if not self._reported:
                    self._reported = True
                    log.error("%s: serving stops: %s", self.component.name,
                              str(e).splitlines()[0])
                time.sleep(0.2)
                return
            if mode in ("poll", "yield"):
                self.pacing.spinning()
        if mode != "sleep":
            self.pacing.between_sweeps()
            if mode == "poll":
                return
            if mode == "yield":
                os.sched_yield()
                return
            self._irq_sleep()
            return
        if not self.pacing.sleep(self.poll_s):
            time.sleep(self.poll_s)

    def _irq_sleep(self) -> None:
        """``interrupt`` mode (pushpush.pynq.irqwait): clear the bit and return for one more
        sweep, or, after that sweep, sleep until the interrupt fires."""
        hub = self._hub
        if hub is None or not hub.alive:      # closed meanwhile: poll gently
            time.sleep(self.poll_s)
            return
        seen = self._seen
        g = hub.generation
        if seen.cleared_at != g:
            self.clear_pending()
            seen.cleared_at = g
            hub.cleared(g)
            return
        if self.pacing.irq_wait(hub, g, IRQ_WAIT_S):   # (the simulated board's callers)
            return
        stopping = self.stopping
        hub.wait_beyond(g, IRQ_WAIT_S, stopping.is_set if stopping is not None else None)


class _Cleared(threading.local):
    """Per thread: the interrupt generation it last cleared its pending bit in."""

    cleared_at: Optional[int] = None
