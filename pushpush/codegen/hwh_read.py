"""Read a Vivado block design's hardware handoff (``.hwh``) into a netlist model.

A ``.hwh`` (``<EDKSYSTEM>``) lists every cell of the block design as a ``<MODULE>``: its
instance name, VLNV and parameters, its ports (direction, ``LEFT``/``RIGHT`` bounds, the net
``SIGNAME`` each is on, ``SIGIS`` clk/rst/INTERRUPT), its bus interfaces (``<BUSINTERFACE>``
with the logical-to-physical ``<PORTMAP>``) and, for a master, the address ranges it reaches
(``<MEMORYMAP>``/``<MEMRANGE>``: the processing system's lists every slave it addresses,
with base and high address). :func:`read_hwh` returns that as a :class:`HwhDesign`; the
simulated board's shell for a design made outside pushpush (:mod:`.foreign_shell`) is built
from it. PYNQ reads the same file with its own parser; nothing here replaces that.

>>> d = read_hwh("design_1.hwh")                      # doctest: +SKIP
>>> [(r.instance, hex(r.base)) for r in d.ps_slaves()]  # doctest: +SKIP
[('accel_0', '0x40000000'), ('axi_intc_0', '0x41800000')]
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from pushpush.errors import PushPushError

__all__ = ["HwhReadError", "HwhPort", "HwhBus", "HwhRange", "HwhCell", "HwhDesign", "read_hwh",
           "PS_TYPES"]

#: The processing systems' MODTYPEs (the PS is not simulated as a cell: the board's PS is).
PS_TYPES = ("processing_system7", "zynq_ultra_ps_e")


class HwhReadError(PushPushError):
    """A ``.hwh`` that cannot be read; the message names the file, the place and the fix."""


@dataclass(frozen=True)
class HwhPort:
    """A port of a cell: ``dir`` is "I", "O" or "IO"; ``signame`` the net ("" if none)."""

    name: str
    dir: str
    width: int
    signame: str
    sigis: str
    #: (instance, port) of every other end of the net, as the .hwh lists them
    connections: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class HwhBus:
    """A bus interface: ``kind`` SLAVE/MASTER (memory-mapped) or TARGET/INITIATOR (stream),
    ``vlnv`` the interface type (``xilinx.com:interface:aximm:1.0``, ``...:axis:1.0``),
    ``portmap`` logical (upper case) -> physical port name."""

    name: str
    kind: str
    vlnv: str
    busname: str
    portmap: dict[str, str]

    @property
    def is_aximm(self) -> bool:
        return ":aximm:" in self.vlnv

    @property
    def is_lite(self) -> bool:
        """A memory-mapped interface without bursts (AXI4-Lite)."""
        return self.is_aximm and "AWLEN" not in self.portmap and "ARLEN" not in self.portmap


@dataclass(frozen=True)
class HwhRange:
    """A ``<MEMRANGE>``: ``master`` (the interface of the cell that owns the map) reaches
    ``instance``'s ``slave`` interface at [``base``, ``high``]."""

    master: str
    instance: str
    slave: str
    base: int
    high: int
    memtype: str

    @property
    def size(self) -> int:
        return self.high - self.base + 1


@dataclass
class HwhCell:
    """A ``<MODULE>`` of the block design."""

    instance: str
    vlnv: str
    modtype: str
    params: dict[str, str]
    ports: list[HwhPort]
    buses: list[HwhBus]
    ranges: list[HwhRange]
    is_pl: bool = True

    @property
    def vendor_library(self) -> str:
        """``vendor:library`` of the VLNV (``xilinx.com:ip``, ``xilinx.com:hls``, ...)."""
        return ":".join(self.vlnv.split(":")[:2])

    def port(self, name: str) -> Optional[HwhPort]:
        return next((p for p in self.ports if p.name == name), None)

    def bus(self, name: str) -> Optional[HwhBus]:
        return next((b for b in self.buses if b.name == name), None)

    def bus_of_port(self) -> dict[str, tuple[HwhBus, str]]:
        """physical port -> (its bus interface, its logical name)."""
        return {phys: (b, log) for b in self.buses for log, phys in b.portmap.items()}


@dataclass
class HwhDesign:
    """The cells of a ``.hwh`` (in file order) and the file it came from."""

    path: Path
    name: str
    cells: dict[str, HwhCell] = field(default_factory=dict)
    #: the design's external ports (``<EXTERNALPORTS>``): name -> (dir, width, net)
    external: dict[str, tuple[str, int, str]] = field(default_factory=dict)

    @property
    def ps(self) -> HwhCell:
        for c in self.cells.values():
            if c.modtype in PS_TYPES:
                return c
        raise HwhReadError(f"{self.path}: no processing system (a MODULE of MODTYPE "
                           f"{' or '.join(PS_TYPES)}): is this a Zynq block design's .hwh?")

    def ps_slaves(self) -> list[HwhRange]:
        """What the PS's masters (M_AXI_GP0, M_AXI_HPM0_FPD, ...) reach, by base address."""
        ps = self.ps
        return sorted((r for r in ps.ranges if r.instance != ps.instance), key=lambda r: r.base)

    def drivers(self) -> dict[str, tuple[str, HwhPort]]:
        """net -> (instance, output port driving it)."""
        out: dict[str, tuple[str, HwhPort]] = {}
        for c in self.cells.values():
            for p in c.ports:
                if p.signame and p.dir == "O":
                    out.setdefault(p.signame, (c.instance, p))
        return out


def _int(text: Optional[str], what: str, path: Path) -> int:
    try:
        return int(str(text), 0)
    except ValueError:
        raise HwhReadError(f"{path}: {what} is {text!r}, not a number: is the .hwh complete "
                           "(re-export it from Vivado: File > Export > Export Hardware)?") from None


def _ports(m: ET.Element, path: Path) -> list[HwhPort]:
    out = []
    for p in m.findall("./PORTS/PORT"):
        name = p.get("NAME", "")
        left, right = p.get("LEFT"), p.get("RIGHT")
        width = 1
        if left is not None and right is not None:
            width = abs(_int(left, f"port {name}'s LEFT", path) - _int(right, f"port {name}'s RIGHT", path)) + 1
        conns = tuple((c.get("INSTANCE", ""), c.get("PORT", ""))
                      for c in p.findall("./CONNECTIONS/CONNECTION"))
        out.append(HwhPort(name, p.get("DIR", "I"), width, p.get("SIGNAME", ""),
                           p.get("SIGIS", "undef"), conns))
    return out


def _buses(m: ET.Element) -> list[HwhBus]:
    out = []
    for b in m.findall("./BUSINTERFACES/BUSINTERFACE"):
        pm = {x.get("LOGICAL", "").upper(): x.get("PHYSICAL", "")
              for x in b.findall("./PORTMAPS/PORTMAP")}
        out.append(HwhBus(b.get("NAME", ""), b.get("TYPE", ""), b.get("VLNV", ""),
                          b.get("BUSNAME", ""), pm))
    return out


def _ranges(m: ET.Element, path: Path) -> list[HwhRange]:
    out = []
    for r in m.findall("./MEMORYMAP/MEMRANGE"):
        inst = r.get("INSTANCE", "")
        out.append(HwhRange(r.get("MASTERBUSINTERFACE", ""), inst, r.get("SLAVEBUSINTERFACE", ""),
                            _int(r.get("BASEVALUE"), f"{inst}'s BASEVALUE", path),
                            _int(r.get("HIGHVALUE"), f"{inst}'s HIGHVALUE", path),
                            r.get("MEMTYPE", "")))
    return out


def read_hwh(path: str | os.PathLike[str]) -> HwhDesign:
    """The netlist model of the ``.hwh`` at ``path`` (:class:`HwhReadError` if unreadable)."""
    p = Path(path)
    try:
        root = ET.fromstring(p.read_bytes())
    except OSError as e:
        raise HwhReadError(f"{p}: cannot read the hardware handoff ({e.strerror}); give the "
                           "<design>.hwh Vivado wrote beside the bitstream") from None
    except ET.ParseError as e:
        raise HwhReadError(f"{p}:{e.position[0]}:{e.position[1]}: not valid XML ({e}); give "
                           "the .hwh exactly as Vivado wrote it") from None
    if root.tag != "EDKSYSTEM":
        raise HwhReadError(f"{p}: the root element is <{root.tag}>, a .hwh has <EDKSYSTEM>: "
                           "give the hardware handoff (<design>.hwh), not another file")
    info = root.find("SYSTEMINFO")
    design = HwhDesign(p, info.get("NAME", p.stem) if info is not None else p.stem)
    for e in root.findall("./EXTERNALPORTS/PORT"):
        left, right = e.get("LEFT"), e.get("RIGHT")
        w = abs(int(left or 0) - int(right or 0)) + 1 if left is not None else 1
        design.external[e.get("NAME", "")] = (e.get("DIR", "I"), w, e.get("SIGNAME", ""))
    for m in root.findall("./MODULES/MODULE"):
        inst = m.get("INSTANCE", "")
        if not inst:
            raise HwhReadError(f"{p}: a <MODULE> without INSTANCE: re-export the .hwh from Vivado")
        params = {x.get("NAME", ""): x.get("VALUE", "") for x in m.findall("./PARAMETERS/PARAMETER")}
        design.cells[inst] = HwhCell(inst, m.get("VLNV", ""), m.get("MODTYPE", ""), params,
                                     _ports(m, p), _buses(m), _ranges(m, p),
                                     m.get("IS_PL", "TRUE").upper() != "FALSE")
    return design
