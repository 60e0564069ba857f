"""The runtime backend through PYNQ: the same code on a PYNQ-Z1 and on the simulated board.

:class:`PynqBackend` is a :class:`~pushpush.runtime.backend.SyncBackend` for one software
component of a loaded overlay:

* ``read_local``/``write_local``: the component's window in the ``ps`` region (the ARM's
  on-chip memory, as in the paper), mapped once with ``device.mmap`` as a uint32 numpy view
  (``/dev/mem`` on the board, shared memory on the simulated board): polling is a numpy
  read, never bus traffic.
* ``write``: a call or a return into the PL goes through a ``pynq.MMIO`` over the system
  top's address block (``ip_dict["system_top_0"]``). On the board (``MEMORY_MAPPED``) the
  words are stored through the MMIO's numpy ``array`` view: the argument words as one
  slice assignment, then the trigger word last (one store each; ``MMIO.write`` costs about
  30 us per call on a PYNQ-Z1, far too slow for a call path). On the simulated board
  (``REGISTER_RW``) the whole payload is one ``MMIO.write(offset, bytes)``, which PYNQ hands
  to the device as one ``write_registers`` call; the simulated device delivers it word by
  word, as the board's stores arrive (:mod:`pushpush.pynq.simulated.device`), and an SLVERR/DECERR
  response raises :class:`~pushpush.protocol.BusWriteError` (a busy slot is retried by the
  runtime).
  Writes into the ``ps`` region (a software callee on the ARM) are stores into the mapped
  on-chip memory.
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
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any, Mapping, Optional

import numpy as np

from pushpush.link import IRQ_ENABLE_CLEAR, IRQ_ENABLE_SET, LinkedSystem
from pushpush.protocol import BusWriteError
from pushpush.runtime.backend import SyncBackend, in_serve_thread

__all__ = ["PynqBackend", "OverlayReplaced", "DEFAULT_POLL_S"]

log = logging.getLogger("pushpush.pynq")

#: Longest sleep of the ``interrupt`` mode before the runtime sweeps anyway and checks the
#: overlay (seconds): a bound on the delay of a lost interrupt, never the way calls arrive.
IRQ_WAIT_S = 0.1
#: Pause between two polling sweeps (seconds).
DEFAULT_POLL_S = 20e-6
#: The simulated board's poll interval. A PL write into PS memory wakes a waiting runtime at
#: once; this bounds the wait for writes that do not come from the PL nor from this process
#: (a C component attached to the simulated board answering in the on-chip memory).
SIM_POLL_S = 5e-4


#: This process's claim holders by claim file (to hand a replaced overlay's claim on).
_HOLDERS: "dict[str, weakref.ref[PynqBackend]]" = {}


class OverlayReplaced(RuntimeError):
    """The overlay a runtime was made for is no longer the one loaded."""


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
        #: The component's claim (one live runtime per component, in any process:
        #: :mod:`pushpush.runtime.claim`); ``ClaimRefused`` names the owner. Released by
        #: :meth:`close`, or by the kernel when the process ends.
        self.claim = self._claim(device)
        try:
            self._open(linked, component, device, pl, poll_s, windows, wait)
        except BaseException:
            if self.claim is not None:
                self.claim.release()
            raise

    @staticmethod
    def _claim_key(device: Any) -> Optional[str]:
        """The file the windows are mapped from, which names the board in claim files: the
        simulated board's shared memory, else ``/dev/mem`` (None: neither, e.g. a stand-in
        device of a test: nothing to share with another process)."""
        mem = getattr(device, "ps_mem", None) if hasattr(device, "check") else None
        key = getattr(mem, "path", None)
        if key is None and os.path.exists("/dev/mem"):
            key = "/dev/mem"
        return key

    def _claim(self, device: Any) -> Any:
        from pushpush.runtime.claim import Claim, ClaimRefused
        key = self._claim_key(device)
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
        from pushpush.runtime.claim import probe
        key = self._claim_key(self.device)
        if key is None:
            raise LookupError("this device keeps no claims (no memory file to key them by)")
        live, owner = probe(key, self.linked.component(component).base)
        return None if owner is None else (live, owner)

    def _open(self, linked: LinkedSystem, component: str, device: Any, pl: Optional[Mapping[str, Any]],
              poll_s: Optional[float], windows: Any, wait: Optional[str]) -> None:
        from pynq import MMIO

        ps = linked.ps
        self.ps_base, self.ps_size = ps.base, ps.size
        # the ps region's memory: the OCM (checked against OCM_CFG) or, with software_windows:
        # ddr, a pynq.allocate buffer (pass the overlay's `windows` so that every component
        # shares it; a backend made alone opens its own)
        from .windows import SoftwareWindows
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
        self.simulated = hasattr(device, "check")
        # the simulated board wakes a waiting runtime when the PL writes into PS memory
        # (wait_pl_write): the poll interval there is only a fallback
        self._wait_pl = getattr(device, "wait_pl_write", None) if self.simulated else None
        # this runtime's own simulator: its waits, counts and kicks never reach the simulator
        # of a later download (a runtime of a replaced overlay waits on its stopped bridge,
        # which returns at once, until its next check raises OverlayReplaced)
        self._bridge = getattr(device, "bridge", None) if self.simulated else None
        if self._bridge is not None and self._wait_pl is not None:
            self._wait_pl = self._bridge.wait_pl_write
        if self._bridge is not None and getattr(self.windows, "buffer", None) is not None:
            # windows in DDR: the simulator pauses after PL writes there, not after DMA data
            self._bridge.watch(int(self.windows.phys_base), int(self.ps_size))
        self._seen = threading.local()
        self.poll_s = ((SIM_POLL_S if self._wait_pl else DEFAULT_POLL_S * 25) if self.simulated
                       else DEFAULT_POLL_S) if poll_s is None else poll_s
        self._next_check = 0.0
        self._reported = False
        self._timestamp = getattr(device, "timestamp", None)
        self._wait = "sleep"
        self._hub: Any = None
        #: (Simulated board) waits of a caller on its interrupt that ended at IRQ_WAIT_S, not
        #: by the interrupt: with IRQ_WAIT_S above the longest stretch without a PL write for
        #: the caller (e.g. a callback it waits through), each is a lost wake-up
        self.irq_fallbacks = 0
        #: The serve thread's stop event (SyncRuntime.start sets it): its sleep on the
        #: interrupt ends when it is set (:meth:`wake`), not at IRQ_WAIT_S
        self.stopping: Optional[threading.Event] = None
        self.set_wait(wait or self.component.wait or "sleep")

    # ------------------------------------------------------------------ buffers

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
        from pushpush.link import WAIT_MODES
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
            from .irqwait import IRQ_PIN, hub_for
            pins = getattr(self.device, "interrupt_pins", None) or {}
            if IRQ_PIN not in pins:
                raise ValueError(
                    f"component '{self.component.name}' cannot wait for interrupts: the loaded "
                    f"overlay has no interrupt pin {IRQ_PIN} in its .hwh (a top without the "
                    "interrupt block, e.g. a stand-in or a bitstream built before it existed); "
                    "rebuild it with this pushpush, or use wait 'sleep', 'poll' or 'yield'")
            if self.simulated and not getattr(getattr(self.device, "interrupts", None),
                                              "watching", False):
                self.device.check()   # no overlay loaded (freed or replaced): say that
                raise ValueError(
                    f"component '{self.component.name}' cannot wait for interrupts: the "
                    "loaded overlay has no interrupt path on the simulated board (its top has no "
                    "irq output); use wait 'sleep', 'poll' or 'yield'")
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
        Leaving interrupt mode also clears the pending bit. On the simulated board the
        bridge counts runtimes in this mode (:meth:`~pushpush.pynq.simulated.bridge.SimBridge.irq_runtimes`:
        the simulator then pauses after a PL write only once ``irq`` has risen for it)."""
        assert self.pl_mmio is not None
        if on and self._bridge is not None:
            self._bridge.irq_runtimes(1)   # before the bit can raise irq
        try:
            self.pl_mmio.write(self._irq_offset + (IRQ_ENABLE_SET if on else IRQ_ENABLE_CLEAR),
                               self._irq_bit)
            if not on:
                self.clear_pending()
        finally:
            if not on and self._bridge is not None:
                self._bridge.irq_runtimes(-1)

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
        if self.simulated and getattr(self.device, "timestamp", None) != self._timestamp:
            # a runtime of a freed or replaced overlay (e.g. its serve thread answering a call
            # taken just before the download) must not write into the next overlay's PL or
            # memory: seen beside busy loops as a stray answer into a new hof's mapper
            raise OverlayReplaced("the overlay of this runtime was freed or replaced by another "
                                  "download; load it again")
        if self.ps_base <= address and address + 4 * n <= self.ps_base + self.ps_size:
            i = (address - self.ps_base) >> 2
            self._store(self.ps, i, words)
            if self._wait_pl is not None:
                self.device.note_ps_write()   # wakes a runtime of this process waiting on it
            return
        if self.pl_mmio is not None and self.pl_base <= address and address + 4 * n <= self.pl_base + self.pl_size:
            off = address - self.pl_base
            if self.pl_array is not None:
                self._store(self.pl_array, off >> 2, words)
            else:
                self.pl_mmio.write(off, np.asarray(words, dtype="<u4").tobytes())
            return
        raise BusWriteError(address, n, "DECERR")

    def slot_pending(self, trigger_address: int) -> bool:
        """Whether the word at ``trigger_address`` of a software window (a cep slot's
        trigger) holds a call not taken yet: the runtime then waits before writing there, as
        an RTL window would refuse the write (docs/architecture.md §2.2, "Collision")."""
        i = (trigger_address - self.ps_base) >> 2
        return 0 <= i < len(self.ps) and bool(self.ps[i])

    @staticmethod
    def _store(array: np.ndarray, i: int, words: Sequence[int]) -> None:
        n = len(words)
        if n > 1:
            array[i:i + n - 1] = np.asarray(words[:-1], dtype=np.uint32)
        array[i + n - 1] = np.uint32(words[-1])   # the trigger word last

    def read_local(self, address: int, count: int) -> list[int]:
        i = (address - self.ps_base) >> 2
        return self.ps[i:i + count].tolist()

    def write_local(self, address: int, words: Sequence[int]) -> None:
        i = (address - self.ps_base) >> 2
        self.ps[i:i + len(words)] = np.asarray(words, dtype=np.uint32)
        if self._wait_pl is not None:
            self.device.note_ps_write()

    def handling(self, delta: int) -> None:
        """The runtime took (``delta`` > 0) or answered (< 0) calls of the PL: on the
        simulated board the simulator need not run while they are answered
        (:meth:`pushpush.pynq.simulated.bridge.SimBridge.handling`); nothing on the board."""
        if self._bridge is not None:
            self._bridge.handling(delta)

    def wait_report(self, waited: float) -> Optional[str]:
        """What the simulated board did during the last ``waited`` seconds of a wait (cycles,
        the simulator's state; :meth:`pushpush.pynq.simulated.bridge.SimBridge.wait_report`), for a
        call timeout's message; None on the board."""
        return self._bridge.wait_report(waited) if self._bridge is not None else None

    def _check(self) -> None:
        if getattr(self.device, "timestamp", None) != self._timestamp:
            raise OverlayReplaced("the overlay of this runtime was freed or replaced by another "
                                  "download; load it again")
        if self.simulated:
            self.device.check()

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
            if mode in ("poll", "yield") and self.simulated:
                if self._bridge is not None and not in_serve_thread():
                    self._bridge.note_waiting()   # a caller spins here: the simulator must run
        if mode != "sleep":
            if self._bridge is not None:
                self._caller_waits()
                if threading.get_ident() in self._bridge._servers:
                    self._bridge.server_leaves()   # a serve thread that waited in mode sleep
            if mode == "poll":
                return
            if mode == "yield":
                os.sched_yield()
                return
            self._irq_sleep()
            return
        if self._wait_pl is not None:
            # the simulated board: a PL write into PS memory ends the wait at once
            serving = in_serve_thread()
            n = getattr(self._seen, "n", -1)
            if not serving and self._bridge is not None:
                # counted as a caller from its first wait to the end of the call, with the
                # writes it looked after (n), not only while inside wait_pl_write: between
                # two of its 0.5 ms waits it was not counted, and the simulator could go
                # idle there (issue 28)
                self._caller_tell(max(0, n))
            self._seen.n = self._wait_pl(n, self.poll_s, waiting=not serving)
            return
        time.sleep(self.poll_s)

    def _caller_key(self) -> tuple[str, int]:
        """This thread's key in the bridge's callers (not its bare ident: a caller in wait
        mode sleep is also counted by ``wait_pl_write`` under that)."""
        return ("runtime", threading.get_ident())

    def _caller_tell(self, seen_writes: int) -> None:
        """Count this thread in the bridge as a caller that looked at PS memory after
        ``seen_writes`` writes (told again only when that changes), until :meth:`wait_over`."""
        seen = self._seen
        if not getattr(seen, "polling", False) or seen.told != seen_writes:
            seen.polling = True
            seen.told = seen_writes
            self._bridge.caller_waits(self._caller_key(), seen_writes)

    def _caller_waits(self) -> None:
        """(Simulated board, wait modes poll, yield, interrupt.) A caller waits between its
        sweeps: counted as one in the bridge until :meth:`wait_over` (the runtime calls it
        when the call's wait ends), with the writes it had seen before its last sweep, so the
        simulator runs for it and is resumed as for a caller in ``wait_pl_write``."""
        seen = self._seen
        if in_serve_thread():
            return
        now = self._bridge.pl_writes
        if not getattr(seen, "polling", False):
            self._caller_tell(0)   # swept nothing yet
        else:   # its last sweep looked after seen.looked writes
            self._caller_tell(seen.looked)
        seen.looked = now

    def serve_paused(self) -> None:
        """The serve thread stops sweeping for a while (a waiting caller serves instead):
        the simulated board no longer counts it as a thread that must look at every write
        into PS memory before simulated time may pass."""
        if self._bridge is not None and threading.get_ident() in self._bridge._servers:
            self._bridge.server_leaves()

    def wait_over(self) -> None:
        """The runtime's wait for a reply ended (returned, failed or timed out): a polling
        caller (:meth:`_caller_waits`) is no longer counted."""
        seen = self._seen
        if getattr(seen, "polling", False):
            seen.polling = False
            if self._bridge is not None:
                self._bridge.caller_done(self._caller_key())

    def _irq_sleep(self) -> None:
        """``interrupt`` mode (pushpush.pynq.irqwait): clear the bit and return for one more
        sweep, or, after that sweep, sleep until the interrupt fires."""
        hub = self._hub
        if hub is None or not hub.alive:      # closed meanwhile: poll gently
            time.sleep(self.poll_s)
            return
        seen = self._seen
        g = hub.generation
        if getattr(seen, "cleared_at", None) != g:
            self.clear_pending()
            seen.cleared_at = g
            hub.cleared(g)
            return
        caller = (self._bridge is not None
                  and not in_serve_thread())
        if not caller:
            stopping = self.stopping
            hub.wait_beyond(g, IRQ_WAIT_S, stopping.is_set if stopping is not None else None)
            return
        self._bridge.note_waiting()   # a reply is awaited: the simulator runs at full speed
        # blocked until its interrupt fires, it has seen every write there is now, and
        # every later write of this process's software: a PL write for it (a reply, a call
        # into this component) sets its pending bit after the clear above and wakes it.
        # Counted with the writes of its last sweep, it was behind as soon as a serve
        # thread took a call of the PL (taking it writes PS memory), and did not wake for
        # that: the simulator, counting it as behind, blocked as idle while the call needed
        # simulated time (issue 28: mapper.apply timed out beside busy loops, the
        # simulator ran 0.1 s of 20 s). The PL's later writes still count against it: the
        # simulator pauses after a reply as before, once the reply's write is answered (its
        # B response raises irq: SimBridge.irq_runtimes; paused at the store, it stood still
        # with irq low and this wait ended only at IRQ_WAIT_S)
        seen = self._seen
        told = seen.told
        seen.told = -1
        self._bridge.caller_waits(self._caller_key(), self._bridge.pl_only_writes,
                                  pl_only=True)
        try:
            if hub.wait_beyond(g, IRQ_WAIT_S) == g and hub.alive:
                self.irq_fallbacks += 1   # not woken by the interrupt
        finally:
            self._caller_tell(told)   # awake: behind again until its next sweep
