"""A PYNQ device that is the simulated board.

PYNQ picks its device from the ``pynq.Device`` subclasses that are defined (each has a
``_probe_`` returning the devices it finds and a ``_probe_priority_``, lowest first).
:class:`SimDevice` registers with priority 25 (before PYNQ's own Zynq device, 50) and
offers itself when there is no board: no ``/sys/class/fpga_manager/fpga0`` and no
``PYNQ_REMOTE_DEVICES``, or when forced with ``PUSHPUSH_BOARD=sim`` (``PUSHPUSH_BOARD=pynq``
keeps it out). Importing :mod:`pushpush.pynq` defines it, so do that before the first
``Overlay``/``MMIO``/``allocate`` (PYNQ probes once per process).

It has PYNQ's ``REGISTER_RW`` capability, so every MMIO access of PYNQ (``MMIO.read``,
``MMIO.write``, the ``array`` view, register maps, ``Clocks``) arrives here, a bytes write as
one call:

* PL addresses go over the bridge to the simulator as the board's ARM delivers them: each
  32-bit word its own single-beat AXI write on the top's ``s_axi``, in order, so a call's
  trigger word (the last word the runtime writes) arrives last, after every argument word
  was accepted (``pl_writes="words"``, the default). ``PUSHPUSH_SIM_PL_WRITES=burst`` (or
  ``device.pl_writes = "burst"``) sends each ``write_registers`` as one AXI burst instead,
  as a DMA-capable master would. An SLVERR/DECERR response raises
  :class:`~pushpush.protocol.BusWriteError` for the word that got it (the words before it
  were written), where the board would take a bus fault;
* the ``ps`` region (the on-chip memory holding the software windows) and the DDR area of
  ``pynq.allocate`` are shared memory, read and written in place (``mmap`` gives numpy
  views of them, as ``/dev/mem`` does on the board); ``pynq.allocate`` takes PYNQ's own
  path (``Device.allocate``) and models ``cacheable=1`` buffers' write-back cache, so their
  ``flush()``/``invalidate()`` matter where they do on the board (:class:`_SimMemory`);
* the Zynq SLCR clock registers are modelled, so ``Overlay.download`` programs FCLK0 and
  ``Clocks.fclk0_mhz`` reads it back (PYNQ-Z1: 50 MHz crystal, IO PLL 1000 MHz); so is
  ``OCM_CFG`` (0x1F: the on-chip memory mapped high), which the runtime checks
  (:func:`pushpush.pynq.ocm.check_ocm_mapping`) and tests set to other mappings.

``download`` (from ``Overlay(...)``) starts the simulator of a simulation bitstream
(:mod:`pushpush.pynq.simulated.simbit`); ``Overlay.free()`` (``close``/``remove_device_tree``), the
next download and interpreter exit stop it.
"""

from __future__ import annotations

import os
import struct
import threading
import weakref
from pathlib import Path
from typing import Any, Optional

import logging

import numpy as np
from pynq.pl_server.device import Device

from pushpush.protocol import BusWriteError

from ..board import PacedDevice

from .bridge import SharedMemory, SimBridge, SimConfig, SimulatorError
from .pacing import SimPacing
from .simbit import read_manifest

log = logging.getLogger("pushpush.pynq")

__all__ = ["SimDevice", "SimBo", "sim_wanted", "SLCR_BASE", "DDR_BASE", "DDR_SIZE", "PL_WRITE_MODES"]

SLCR_BASE = 0xF8000000
SLCR_SIZE = 0x1000
#: Where ``pynq.allocate`` buffers of the simulated board live (physical addresses).
DDR_BASE = 0x18000000
DDR_SIZE = int(os.environ.get("PUSHPUSH_SIM_DDR_BYTES", 64 << 20))
#: How writes into the PL reach the simulated PL (see the module docstring).
PL_WRITE_MODES = ("words", "burst")
#: The ps region when no overlay is loaded (the Zynq's high on-chip memory).
OCM_BASE, OCM_SIZE = 0xFFFC0000, 0x40000


def sim_wanted() -> bool:
    """Whether the simulated board should be PYNQ's device here (see the module doc)."""
    choice = os.environ.get("PUSHPUSH_BOARD", "auto").lower()
    if choice == "sim":
        return True
    if choice in ("pynq", "board", "none"):
        return False
    if os.environ.get("PYNQ_REMOTE_DEVICES"):
        return False
    return not Path("/sys/class/fpga_manager/fpga0/firmware").exists()


def _bit_key(bitfile: str | os.PathLike[str]) -> str:
    """One name per simulation bitstream file (its resolved path)."""
    return str(Path(bitfile).resolve())


def _slcr_reset() -> bytearray:
    regs = bytearray(SLCR_SIZE)

    def put(off: int, val: int) -> None:
        struct.pack_into("<I", regs, off, val)

    put(0x100, 26 << 12)           # ARM_PLL_CTRL: 50 MHz x 26 = 1300 MHz
    put(0x104, 21 << 12)           # DDR_PLL_CTRL: 1050 MHz
    put(0x108, 20 << 12)           # IO_PLL_CTRL: 1000 MHz
    put(0x120, (2 << 8) | (0 << 4))  # ARM_CLK_CTRL: ARM PLL / 2 = 650 MHz
    for i, off in enumerate((0x170, 0x180, 0x190, 0x1A0)):
        put(off, (1 << 20) | (10 << 8))  # FPGAi_CLK_CTRL: IO PLL / 10 / 1 = 100 MHz
    # OCM_CFG: RAM_HI = 0xF, all four 64 KiB OCM banks at 0xFFFC0000.. (the BootROM leaves
    # 0x18, only the top bank high; U-Boot's Zynq SPL writes 0x1F). Tests write other values.
    put(0x910, 0x1F)
    return regs


class SimBo:
    """A buffer object of the simulated board (what XRT's ``pyxrt.bo`` is on the board):
    ``nbytes`` at byte ``offset`` of the simulated DDR, and for a cacheable buffer the
    ARM's view of it (``cache``, see :class:`_SimMemory`)."""

    def __init__(self, offset: int, nbytes: int, cache: Optional[np.ndarray]) -> None:
        self.offset = offset
        self.nbytes = nbytes
        self.cache = cache

    @property
    def physical_address(self) -> int:
        return DDR_BASE + self.offset


class _SimMemory:
    """``pynq.allocate`` on the simulated board: buffers in the shared DDR area (first fit,
    64-byte granules, page-aligned when at least a page is asked for, as CMA gives; freed when
    the last view of a buffer goes away).

    As on the board (PYNQ 3.1's ``_xrt_allocate``) every buffer is a ``PynqBuffer`` with
    ``coherent=False``, so its ``flush()``/``invalidate()`` call :meth:`SimDevice.flush` /
    :meth:`SimDevice.invalidate` with its buffer object, and ``cacheable`` (default 0) says
    what the ARM's mapping is:

    * ``cacheable=0``: an uncached mapping; the array *is* the simulated DDR (shared memory
      the simulated PL reads and writes through the HP port), flush/invalidate do nothing.
    * ``cacheable=1``: the ARM sees DDR through a write-back data cache. The array is the
      cache (private memory): the PL sees the ARM's writes only after ``flush()`` (a sync of
      the whole buffer object to DDR, as XRT's ``bo.sync(TO_DEVICE)`` does), and the ARM
      sees the PL's writes only after ``invalidate()`` (DDR into the cache, the whole object,
      as ``bo.sync(FROM_DEVICE)``; data written by the ARM and not flushed is lost, as on the
      board). The model never evicts a line by itself, so code that forgets a flush or an
      invalidate fails every time here, where on the board it fails sometimes.
    """

    def __init__(self, device: "SimDevice") -> None:
        self.device = device
        self._lock = threading.Lock()
        self._free: list[tuple[int, int]] = [(0, DDR_SIZE)]

    @staticmethod
    def _granule(nbytes: int) -> int:
        return 4096 if nbytes >= 4096 else 64

    def _take(self, nbytes: int) -> int:
        g = self._granule(nbytes)
        need = max(64, (nbytes + 63) // 64 * 64)
        with self._lock:
            for i, (off, size) in enumerate(self._free):
                start = (off + g - 1) // g * g
                if start + need <= off + size:
                    rest = [(off, start - off)] if start > off else []
                    if off + size > start + need:
                        rest.append((start + need, off + size - start - need))
                    self._free[i:i + 1] = rest
                    return start
        raise MemoryError(f"the simulated DDR area ({DDR_SIZE} bytes) has no room for {nbytes} "
                          "bytes; set PUSHPUSH_SIM_DDR_BYTES")

    def _give(self, off: int, nbytes: int) -> None:
        need = max(64, (nbytes + 63) // 64 * 64)
        with self._lock:
            self._free.append((off, need))
            self._free.sort()
            merged: list[tuple[int, int]] = []
            for o, s in self._free:
                if merged and merged[-1][0] + merged[-1][1] == o:
                    merged[-1] = (merged[-1][0], merged[-1][1] + s)
                else:
                    merged.append((o, s))
            self._free = merged

    def allocate(self, shape: Any, dtype: Any, cacheable: int = 0, **kwargs: Any) -> Any:
        from pynq.buffer import PynqBuffer

        dt = np.dtype(dtype)
        count = int(np.prod(shape)) if np.ndim(shape) else int(shape)
        nbytes = max(1, count * dt.itemsize)
        off = self._take(nbytes)
        ddr = self.device.ddr_mem
        ddr.mem[off:off + nbytes] = bytes(nbytes)
        cache = np.zeros(nbytes, np.uint8) if cacheable else None
        bo = SimBo(off, nbytes, cache)
        buf = PynqBuffer(shape, dt, buffer=ddr.mem if cache is None else cache,
                         offset=off if cache is None else 0, device_address=DDR_BASE + off,
                         bo=bo, coherent=False, device=self.device)
        weakref.finalize(buf, self._give, off, nbytes)
        return buf


class SimDevice(Device, PacedDevice):
    """The simulated PYNQ-Z1 (see the module docstring)."""

    _probe_priority_ = 25

    @classmethod
    def _probe_(cls) -> list["SimDevice"]:
        return [cls()] if sim_wanted() else []

    def __init__(self, tag: str = "pushpush_sim") -> None:
        super().__init__(tag)
        self.capabilities = {"REGISTER_RW": True, "MEMORY_MAPPED": False, "CALLABLE": False}
        self.arch = "armv7l"            # a Zynq-7000: PYNQ's Clocks use the SLCR model
        self.name = "Pynq-Z1 (pushpush simulated board)"
        self.timestamp = ""
        self.bitfile_name = ""
        self.bridge: Optional[SimBridge] = None
        self.manifest: Optional[dict[str, Any]] = None
        self._slcr = _slcr_reset()
        #: The ZynqMP PS registers (pushpush.pynq.simulated.zynqmp) when the loaded design's PS is
        #: a zynq_ultra_ps_e, else None (the Zynq SLCR above).
        self._zu: Optional[Any] = None
        self._ps_mem: Optional[SharedMemory] = None
        self._ddr_mem: Optional[SharedMemory] = None
        self.ps_base, self.ps_size = OCM_BASE, OCM_SIZE
        self._memory = _SimMemory(self)
        self.simulator: Optional[str] = None
        #: Why that simulator runs (the "auto" choice explained), and that in a few words
        #: ("cached build", "Verilator build in progress", ...).
        self.simulator_reason = ""
        self.simulator_note = ""
        #: The simulator asked for per simulation bitstream (``pushpush.pynq.load(bit,
        #: simulator=...)``, see :meth:`request_simulator`): a download of that bitstream uses
        #: it, then ``$PUSHPUSH_SIM``, then the bitstream's own choice. Per bitstream, so that
        #: one load's request never carries over to another system's load.
        self._simulator_requests: dict[str, str] = {}
        self._free_seen = False
        #: The interrupt path of the loaded overlay (pushpush.pynq.simulated.interrupt), if its
        #: top has an interrupt.
        self.interrupts: Optional[Any] = None
        #: The DMAs' watchdog of the loaded overlay (pushpush.pynq.simulated.dma), if it has DMAs,
        #: and the cycle budget of a DMA transfer (None: by its length, see .dma).
        self.dma_watch: Optional[Any] = None
        self.dma_timeout_cycles: Optional[int] = None
        #: single register writes are posted (the loaded overlay's manifest, "pacing"; env
        #: PUSHPUSH_SIM_POSTED_WRITES=0/1): a Vivado overlay's (pushpush.pynq.foreign)
        self.posted_writes = False
        #: the loaded overlay paces the PL by register accesses (SimConfig.mmio_gap_us)
        self.mmio_handoff = False
        self.pl_writes = os.environ.get("PUSHPUSH_SIM_PL_WRITES", "words")
        if self.pl_writes not in PL_WRITE_MODES:
            raise ValueError(f"PUSHPUSH_SIM_PL_WRITES={self.pl_writes!r}: use one of "
                             f"{', '.join(PL_WRITE_MODES)} (words: 32-bit stores as the board's "
                             "ARM makes them, the default; burst: one AXI burst per write)")

    # ------------------------------------------------------------------ memories

    @property
    def ddr_mem(self) -> SharedMemory:
        if self._ddr_mem is None:
            self._ddr_mem = SharedMemory(DDR_SIZE, "pushpush-ddr")
        return self._ddr_mem

    @property
    def ps_mem(self) -> SharedMemory:
        if self._ps_mem is None or self._ps_mem.size != self.ps_size:
            self._ps_mem = SharedMemory(self.ps_size, "pushpush-ocm")
        return self._ps_mem

    def _local(self, address: int, length: int) -> Optional[tuple[Any, int]]:
        """(memory, offset) when [address, address+length) is simulated-board memory."""
        if self.ps_base <= address and address + length <= self.ps_base + self.ps_size:
            return self.ps_mem.mem, address - self.ps_base
        if DDR_BASE <= address and address + length <= DDR_BASE + DDR_SIZE:
            return self.ddr_mem.mem, address - DDR_BASE
        return None

    @property
    def default_memory(self) -> _SimMemory:
        return self._memory

    def allocate(self, shape: Any, dtype: Any = "u4", **kwargs: Any) -> Any:
        return self._memory.allocate(shape, dtype, **kwargs)

    def get_memory(self, description: Any) -> _SimMemory:
        return self._memory

    def mmap(self, base_addr: int, length: int) -> np.ndarray:
        """A uint32 numpy view of simulated memory (ps region or DDR area), as PYNQ's
        Zynq device maps ``/dev/mem``; PL addresses cannot be mapped (use MMIO)."""
        hit = self._local(base_addr, length)
        if hit is None:
            raise ValueError(f"0x{base_addr:08X}+{length} is not memory of the simulated board "
                             f"(on-chip memory 0x{self.ps_base:08X}+0x{self.ps_size:X}, DDR "
                             f"0x{DDR_BASE:08X}+0x{DDR_SIZE:X}); PL addresses are reached "
                             "through pynq.MMIO")
        mem, off = hit
        return np.frombuffer(mem, np.uint32, length >> 2, off)

    def flush(self, bo: Any, offset: int = 0, ptr: int = 0, size: int = 0) -> None:
        """``PynqBuffer.flush()``: write a cacheable buffer object's cache back to DDR (the
        whole object, as XRT's ``bo.sync`` does); nothing for an uncached one."""
        if isinstance(bo, SimBo) and bo.cache is not None:
            self.ddr_mem.mem[bo.offset:bo.offset + bo.nbytes] = bo.cache.tobytes()

    def invalidate(self, bo: Any, offset: int = 0, ptr: int = 0, size: int = 0) -> None:
        """``PynqBuffer.invalidate()``: reload a cacheable buffer object's cache from DDR
        (the whole object); nothing for an uncached one."""
        if isinstance(bo, SimBo) and bo.cache is not None:
            bo.cache[:] = np.frombuffer(self.ddr_mem.mem, np.uint8, bo.nbytes, bo.offset)

    # ------------------------------------------------------------------ MMIO (REGISTER_RW)

    def read_registers(self, address: int, length: int) -> bytes:
        if self._zu is not None and self._zu.contains(address, length):
            return self._zu.read(address, length)
        if SLCR_BASE <= address < SLCR_BASE + SLCR_SIZE:
            off = address - SLCR_BASE
            return bytes(self._slcr[off:off + length])
        irq = self.interrupts
        if irq is not None and irq.contains(address, length):
            return irq.intc.read(address - irq.base, length)
        hit = self._local(address, length)
        if hit is not None:
            mem, off = hit
            return bytes(mem[off:off + length])
        status, data = self._bridge().read(address, length)
        if status not in (0, 1):
            raise BusWriteError(address, max(1, length // 4), "SLVERR" if status == 2 else "DECERR")
        if self.dma_watch is not None:
            self.dma_watch.read(address, data)   # PYNQ's DMA wait(): a timeout (.dma)
            if self.mmio_handoff:
                self._dma_pacing(address, data, wrote=False)
        return data

    def write_registers(self, address: int, data: bytes) -> None:
        data = bytes(data)
        if self._zu is not None and self._zu.contains(address, len(data)):
            self._zu.write(address, data)
            return
        if SLCR_BASE <= address < SLCR_BASE + SLCR_SIZE:
            off = address - SLCR_BASE
            self._slcr[off:off + len(data)] = data
            return
        irq = self.interrupts
        if irq is not None and irq.contains(address, len(data)):
            irq.intc.write(address - irq.base, data)
            return
        hit = self._local(address, len(data))
        if hit is not None:
            mem, off = hit
            mem[off:off + len(data)] = data
            return
        bridge = self._bridge()
        if self.dma_watch is not None:
            self.dma_watch.wrote(address, data)
            if self.mmio_handoff:
                self._dma_pacing(address, data, wrote=True)
        if self.posted_writes and len(data) == 4 and address % 4 == 0:
            # a register store as the ARM makes it to device memory: posted (its response,
            # and an error's imprecise abort, come with the next access)
            bridge.post_write(address, data)
            return
        if self.pl_writes == "words" and len(data) > 4 and len(data) % 4 == 0 and address % 4 == 0:
            # the board: one 32-bit store per word, in order (the trigger word last), all in
            # one request to the simulator
            status, done = bridge.write_words(address, data)
            if status not in (0, 1):
                raise BusWriteError(address + 4 * done, 1, "SLVERR" if status == 2 else "DECERR")
            return
        status = bridge.write(address, data)
        if status not in (0, 1):
            raise BusWriteError(address, max(1, len(data) // 4), "SLVERR" if status == 2 else "DECERR")

    def _dma_pacing(self, address: int, data: bytes, *, wrote: bool) -> None:
        """With the MMIO hand-off (a Vivado overlay): a DMA channel's transfer, from its
        LENGTH write until software reads its DMASR halted, idle or in error (PYNQ's
        ``wait()`` polls it; ``wait_async()`` reads it after the interrupt), counts as a
        caller waiting for the PL, so the PL runs at full speed meanwhile instead of a
        hand-off's cycles per status read."""
        hit = self.dma_watch.owner(address) if self.dma_watch is not None else None
        if hit is None or len(data) < 4 or self.bridge is None:
            return
        d, channel, off = hit
        key = ("dma", d["name"], channel)
        cr, sr, _, length = (0x00, 0x04, 0x18, 0x28) if channel == "sendchannel" else (0x30, 0x34, 0x48, 0x58)
        value = struct.unpack_from("<I", data)[0]
        if wrote and off == length:
            self.bridge.caller_waits(key, (1 << 64) - 1)
        elif (wrote and off == cr) or (not wrote and off == sr and value & 0x73):
            self.bridge.caller_done(key)

    def _bridge(self) -> SimBridge:
        if self.bridge is None:
            raise SimulatorError("no overlay is loaded on the simulated board: load one with "
                                 "pynq.Overlay('<system>.bit') (or pushpush.pynq.load)")
        self.bridge.check()
        return self.bridge

    def check(self) -> None:
        """Raise :class:`SimulatorError` if the loaded overlay's simulator failed."""
        self._bridge()

    def pacing(self) -> "SimPacing":
        """A runtime backend's pacing on this board (:mod:`.pacing`): over the simulator of
        the overlay loaded now."""
        return SimPacing(self)

    def wait_pl_write(self, seen: int, timeout: float, *, waiting: bool = True) -> int:
        """Wait (at most ``timeout`` s) until the PL writes into PS memory after the
        ``seen``-th write; returns the count to pass next time. A runtime's poll loop
        sleeps here on the simulated board, so a reply wakes it at once; ``waiting`` says
        that software waits for a reply (the simulator then stays at full speed). The
        board has no such thing: its runtime sleeps its poll interval."""
        bridge = self.bridge
        if bridge is None:
            import time
            time.sleep(timeout)
            return seen
        return bridge.wait_pl_write(seen, timeout, waiting=waiting)

    def note_ps_write(self) -> None:
        """Software of this process wrote into PS memory (a call or reply between two
        software components): wake the runtimes waiting in :meth:`wait_pl_write`."""
        if self.bridge is not None:
            self.bridge.note_write()

    # ------------------------------------------------------------------ bitstreams

    def get_bitfile_metadata(self, bitfile_name: str, partial: bool = False) -> Any:
        from pynqmetadata.frontends import Metadata
        try:
            from pynq.metadata.runtime_metadata_parser import RuntimeMetadataParser
        except ImportError:  # pragma: no cover - PYNQ 4.0 moved it
            from pynqmetadata.views.runtime import RuntimeMetadataParser

        hwh = Path(bitfile_name).with_suffix(".hwh")
        if not hwh.exists():
            raise RuntimeError(f"no {hwh.name} next to {bitfile_name}: PYNQ needs the hardware "
                               "handoff (pushpush.pynq.write_sim_overlay writes one)")
        parser = RuntimeMetadataParser(Metadata(input=hwh))
        self._set_ps_family(parser)
        # PYNQ 4.0 programs PL clocks in MHz and reads no frequency from a Zynq-7000 PS:
        # give it the rate the divisors make, as PYNQ 3.x does from the divisors.
        for clk in parser.clock_dict.values():
            if "frequency" in clk and clk.get("frequency") is None and clk.get("divisor0"):
                clk["frequency"] = round(1000.0 / (clk["divisor0"] * (clk.get("divisor1") or 1)), 6)
        parser.bin_data = None
        parser.xclbin_data = None
        parser.dtbo_data = None
        return parser

    def request_simulator(self, bitfile: str | os.PathLike[str], simulator: Optional[str]) -> None:
        """Downloads of ``bitfile`` run on ``simulator`` (``None``: no request of its own,
        ``$PUSHPUSH_SIM`` or the bitstream's choice), whatever other bitstreams asked for."""
        key = _bit_key(bitfile)
        if simulator:
            self._simulator_requests[key] = simulator
        else:
            self._simulator_requests.pop(key, None)

    def download(self, bitstream: Any, parser: Any = None) -> None:
        """Start the simulator of ``bitstream`` (a simulation bitstream), stopping the
        previous one."""
        manifest = read_manifest(bitstream.bitfile_name)
        self.stop()
        ps = manifest["ps"]
        self.ps_base, self.ps_size = int(ps["base"]), int(ps["size"])
        simulator = (self._simulator_requests.get(_bit_key(bitstream.bitfile_name))
                     or os.environ.get("PUSHPUSH_SIM") or manifest.get("simulator", "auto"))
        cfg = SimConfig(top=manifest["top"], sources=manifest["sources"], simulator=simulator,
                        clock_mhz=(self._zu.pl_clk_mhz(0) if self._zu is not None else self._fclk0_mhz())
                        or float(manifest.get("clock_mhz", 100.0)),
                        parameters=manifest.get("parameters", {}), ps_base=self.ps_base,
                        ps_size=self.ps_size, ddr_base=DDR_BASE)
        if manifest.get("mem_dir"):   # kind: riscv: where the cores' programs are
            cfg.defines["PP_RISCV_MEM_DIR"] = f'"{manifest["mem_dir"]}"'
        if os.environ.get("PUSHPUSH_SIM_WAVES"):
            cfg.waves = True
        if os.environ.get("PUSHPUSH_SIM_PS", "hdl") != "hdl":   # refused, not ignored
            raise ValueError(f"PUSHPUSH_SIM_PS={os.environ['PUSHPUSH_SIM_PS']!r}: the simulated "
                             "board has one PS side, in HDL (the cocotbext-axi one was retired); "
                             "unset PUSHPUSH_SIM_PS")
        ports = manifest.get("ports") or {}
        cfg.data_width = int(ports.get("data_width", 32))
        if self._zu is not None:
            self._program_zu_ports(parser, bitstream.bitfile_name, cfg.data_width)
        cfg.s_id_width = int(ports.get("s_id_width", 12))
        cfg.m_id_width = int(ports.get("m_id_width", 12))
        cfg.port_names = list(ports.get("names", []))
        cfg.mem_ports = list(ports.get("mem_ports", []))
        cfg.m_axi_label = str(ports.get("m_axi", "S_AXI_GP0"))
        # the interrupt lines in the controller's input order (a manifest without "intr":
        # the top's irq only)
        cfg.intr = [str(n) for n in ports.get("intr") or (["irq"] if ports.get("irq") else [])]
        cfg.irq = bool(cfg.intr)
        if os.environ.get("PUSHPUSH_SIM_POLL_US"):
            cfg.poll_us = float(os.environ["PUSHPUSH_SIM_POLL_US"])
        if os.environ.get("PUSHPUSH_SIM_HANDOFF_US"):
            cfg.handoff_us = float(os.environ["PUSHPUSH_SIM_HANDOFF_US"])
        # a design driven by plain register accesses (a Vivado overlay): the MMIO hand-off
        pacing = manifest.get("pacing") or {}
        cfg.mmio_gap_us = float(os.environ.get("PUSHPUSH_SIM_MMIO_GAP_US")
                                or pacing.get("mmio_gap_us", 0.0))
        self.mmio_handoff = cfg.mmio_gap_us > 0
        posted = os.environ.get("PUSHPUSH_SIM_POSTED_WRITES")
        self.posted_writes = (posted == "1") if posted in ("0", "1") else bool(pacing.get("posted_writes"))
        if os.environ.get("PUSHPUSH_SIM_IDLE_MS"):
            cfg.idle_ms = float(os.environ["PUSHPUSH_SIM_IDLE_MS"])
        cfg.simulator, self.simulator_note, self.simulator_reason = \
            self._pick_simulator(simulator, cfg)
        log.info("simulated board: %s (%s)", cfg.simulator, self.simulator_reason)
        self.manifest = manifest
        self.simulator = cfg.simulator
        self._free_seen = False
        self.bridge = SimBridge(cfg, self.ps_mem, self.ddr_mem).start()
        self.dma_watch = None
        if manifest.get("dmas"):
            from .dma import DmaWatch
            bridge = self.bridge
            self.dma_watch = DmaWatch(manifest["dmas"], lambda: int(bridge.info()["cycle"]),
                                      lambda: self.dma_timeout_cycles)
        if cfg.irq:
            self._start_interrupts(bitstream, parser, cfg.intr)
        self.post_download(bitstream, parser, self.name)

    def _start_interrupts(self, bitstream: Any, parser: Any, lines: list[str]) -> None:
        """The interrupt path (pushpush.pynq.simulated.interrupt) of an overlay with interrupt
        lines (``lines``, in the controller's input order): the axi_intc of its .hwh,
        modelled with as many inputs as the .hwh gives it, and the UIO device PYNQ looks up."""
        from .interrupt import SimInterrupts, install

        if parser is None:
            parser = self.get_bitfile_metadata(bitstream.bitfile_name)
        for name, entry in (parser.interrupt_controllers or {}).items():
            ip = parser.ip_dict.get(name)
            if entry.get("parent", "") == "" and ip is not None:
                assert self.bridge is not None
                params = ip.get("parameters") or {}
                inputs = int(params.get("C_NUM_INTR_INPUTS", 1))
                if inputs != len(lines):
                    raise ValueError(
                        f"{bitstream.bitfile_name}: the .hwh gives {name} {inputs} interrupt "
                        f"input(s), the simulated PL has {len(lines)} ({', '.join(lines)}); "
                        "regenerate the overlay (pushpush.pynq.write_sim_overlay) so both "
                        "come from the same system")
                self.interrupts = SimInterrupts(self.bridge, int(ip["phys_addr"]),
                                                int(ip["addr_range"]), inputs=inputs)
                install(parser, self.interrupts)
                return

    @staticmethod
    def _pick_simulator(requested: str, cfg: SimConfig) -> tuple[str, str, str]:
        """(simulator, note, why) for ``requested``: "icarus", "verilator" or "auto"
        (pushpush.simboard.autosim: Verilator when this system's Verilator build is cached,
        else Icarus while that build runs in the background)."""
        from pushpush.simboard.autosim import choose

        pick = choose(requested, cfg)
        return pick.simulator, pick.note, pick.detail

    def _set_ps_family(self, parser: Any) -> None:
        """Take the PS family of the design PYNQ is about to load from its .hwh: a
        zynq_ultra_ps_e makes this device an ``aarch64`` one with the ZynqMP PS registers
        (.zynqmp), so PYNQ's ``Clocks`` (which asks ``device.arch``) programs the PL clocks
        through CRL_APB as on a ZCU104/KV260; a processing_system7 keeps ``armv7l`` and the
        SLCR. ``platform.machine()`` (and PYNQ's ``CPU_ARCH``) stay what they are: PYNQ's
        metadata parser reads the PS family from the .hwh, not from the host."""
        zu = getattr(parser, "family_ps", "") == "zynq_ultra_ps_e"
        arch = "aarch64" if zu else "armv7l"
        if zu:
            from .zynqmp import ZynqMpRegs
            params = parser.ip_dict[parser.ps_name]["parameters"]
            ref = float(params.get("PSU__PSS_REF_CLK__FREQMHZ", 33.333))
            fbdiv = int(params.get("PSU__CRL_APB__IOPLL_CTRL__FBDIV", 90))
            div2 = params.get("PSU__CRL_APB__IOPLL_CTRL__DIV2", "1") == "1"
            pll = ref * fbdiv / (2 if div2 else 1)
            # a new board (another IOPLL) gets its own reset registers; the same board keeps
            # what PYNQ programmed (this runs again for a design already loaded)
            if self._zu is None or (self._zu.pll_mhz, self._zu.ref_mhz) != (pll, ref):
                self._zu = ZynqMpRegs(pll, ref)
        else:
            self._zu = None
        if arch != self.arch:
            self.arch = arch
            from pynq.ps import Clocks
            if hasattr(Clocks, "_real_instance"):     # built for the other PS family
                del Clocks._real_instance

    def _program_zu_ports(self, parser: Any, bitfile: str, data_width: int) -> None:
        """What PYNQ does at load on a ZynqMP board: program the PS-PL AXI port widths from
        the .hwh (its own ``EmbeddedDevice.set_axi_port_width``, run against this device's
        registers); then the HPM0_FPD master must have the simulated PL's width."""
        from pynq.pl_server.embedded_device import EmbeddedDevice
        if parser is None:
            parser = self.get_bitfile_metadata(bitfile)
        EmbeddedDevice.set_axi_port_width(self, parser)
        got = self._zu.port_width("MAXIGP0")
        if got != data_width:
            raise ValueError(f"{bitfile}: PYNQ set M_AXI_HPM0_FPD to {got} bits from the .hwh "
                             f"(C_MAXIGP0_DATA_WIDTH), the simulated PL's s_axi is {data_width} "
                             "bits; regenerate the overlay (pushpush.pynq.write_sim_overlay)")

    def _fclk0_mhz(self) -> Optional[float]:
        ctrl = struct.unpack_from("<I", self._slcr, 0x170)[0]
        fdiv = (struct.unpack_from("<I", self._slcr, 0x108)[0] >> 12) & 0x7F
        d0, d1 = (ctrl >> 8) & 0x3F, (ctrl >> 20) & 0x3F
        if not (fdiv and d0 and d1):
            return None
        return round(50.0 * fdiv / (d0 * d1), 6)

    def gen_cache(self, bitstream: Any, parser: Any = None) -> None:
        pass

    def insert_device_tree(self, abs_dtbo: str) -> None:
        """The simulated board has no device tree (the .dtbo is a marker, see simbit)."""

    def remove_device_tree(self, abs_dtbo: str) -> None:
        """Called by ``Overlay.free()`` (PYNQ 3.x and 4.0): stop the simulator, if the
        overlay being freed is the loaded one (freeing a replaced overlay changes nothing)."""
        self._free_seen = True
        loaded = Path(self.bitfile_name).with_suffix("") if self.bitfile_name else None
        if loaded is not None and Path(abs_dtbo).with_suffix("") == loaded:
            self.stop()

    def shutdown(self) -> None:
        pass

    def stop(self) -> None:
        """Stop the simulator of the loaded overlay (if any)."""
        bridge, self.bridge = self.bridge, None
        irq, self.interrupts = self.interrupts, None
        self.dma_watch = None
        if irq is not None:
            irq.stop()
        if bridge is not None:
            # the claim files of this board's memory go with it (docs/architecture.md §2.2):
            # before the memory file is deleted, as its device and inode name them
            mem = getattr(bridge, "ps_mem", None)
            if getattr(mem, "path", None):
                from pushpush.runtime.claim import forget
                forget(mem.path)
            bridge.stop()

    def close(self) -> None:
        """``Overlay.free()`` on PYNQ 3.x calls this after ``remove_device_tree``, which has
        decided already; without a device tree (a hand-made overlay) it stops the simulator."""
        if self._free_seen:
            self._free_seen = False
            return
        self.stop()

    def __repr__(self) -> str:
        return f"<SimDevice {self.tag}: {self.manifest['top'] if self.manifest else 'no overlay'}>"
