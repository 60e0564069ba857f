"""What the simulated board builds for a block design made outside pushpush (in Vivado).

:func:`plan_foreign` takes the netlist of a ``.hwh`` (:mod:`.hwh_read`) and the Verilog
modules the user gave, and decides for every cell of the block design what stands for it:

* the processing system: the simulated board's own PS side (not a cell of the shell);
* **the user's IPs** (HLS-exported Verilog, module references, packaged RTL): the user's
  Verilog module, by the cell's ``MODTYPE`` or ``--top-map CELL=MODULE``, instantiated by
  its ports as the ``.hwh`` lists them;
* **Xilinx IPs with a model**: ``axi_dma`` (simple mode: pushpush's register-compatible
  ``pp_axi_dma``; scatter-gather is refused), ``axi_gpio`` (``pp_axi_gpio``, PG144's
  registers) and ``axi_intc`` (the simulated board's Python model of PG099, which the PYNQ
  process runs: its inputs become the shell's interrupt outputs, in its input order);
* **plumbing**: ``axi_interconnect``, ``smartconnect`` (the shell's own GP0 interconnect
  reaches every slave at its ``.hwh`` address), ``proc_sys_reset`` (the shell's reset),
  ``xlconcat`` (followed to the interrupt controller's inputs), ``xlconstant`` (its value);
* anything else is refused (:class:`ForeignOverlayError`) with its cell name, VLNV and what
  to do: never skipped. ``--top-map CELL=MODULE`` gives any cell (a Xilinx IP without a
  model included) a Verilog module of the user's with the IP's port names.

The result (:class:`ForeignPlan`) is rendered into Verilog by :mod:`.foreign_shell`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Optional

from pushpush.errors import PushPushError

from .hwh_read import PS_TYPES, HwhBus, HwhCell, HwhDesign, HwhPort, HwhRange

__all__ = ["ForeignOverlayError", "ForeignPlan", "SlavePlan", "MasterPlan", "plan_foreign", "param",
           "net_name", "reset_active_low",
           "PLUMBING", "MODELLED", "PYTHON_MODELLED"]

#: Cells that are wiring on the simulated board (what they do, the shell does itself).
PLUMBING = ("axi_interconnect", "smartconnect", "proc_sys_reset", "xlconcat", "xlconstant")
#: Xilinx IPs that get an RTL model in the shell (MODTYPE -> the core it uses).
MODELLED = {"axi_dma": "axi_dma", "axi_gpio": "axi_gpio"}
#: Xilinx IPs that the PYNQ process models in Python.
PYTHON_MODELLED = ("axi_intc",)
#: A reset input's name that says it is active low (ap_rst_n, axi_resetn, s_axi_aresetn).
_RESET_LOW = re.compile(r"(aresetn|resetn|rstn|_n)$", re.I)


class ForeignOverlayError(PushPushError):
    """The block design cannot be simulated as it is; the message says which cell and why."""


@dataclass(frozen=True)
class SlavePlan:
    """A slave interface the PS reaches through GP0: cell, interface, address range."""

    cell: str
    bus: HwhBus
    base: int
    size: int

    @property
    def bits(self) -> int:
        return self.size.bit_length() - 1


@dataclass(frozen=True)
class MasterPlan:
    """A memory-mapped master of a cell into PS memory (one ``pp_sim_mem`` in the harness):
    ``prefix`` of the shell's AXI4 port, data and ID widths, the PS port it stands for."""

    cell: str
    buses: tuple[HwhBus, ...]
    prefix: str
    data_width: int
    id_width: int
    label: str


@dataclass
class ForeignPlan:
    """What the shell holds (see the module docstring)."""

    design: HwhDesign
    module: str
    data_width: int
    user: dict[str, str] = field(default_factory=dict)          # cell -> Verilog module
    models: dict[str, str] = field(default_factory=dict)        # cell -> MODTYPE (axi_dma, ...)
    intc: Optional[str] = None
    slaves: list[SlavePlan] = field(default_factory=list)
    masters: list[MasterPlan] = field(default_factory=list)
    #: the interrupt controller's inputs in order: a Verilog expression each
    intr: list[str] = field(default_factory=list)
    #: what the plan decided that a user may want to know (tied-off inputs, one clock)
    notes: list[str] = field(default_factory=list)

    @property
    def kept(self) -> list[str]:
        return [c for c in self.design.cells if c in self.user or c in self.models]


def _refuse(design: HwhDesign, cell: HwhCell, why: str, fix: str) -> ForeignOverlayError:
    return ForeignOverlayError(f"{design.path}: cell '{cell.instance}' ({cell.vlnv}): {why}. {fix}")


def param(c: HwhCell, name: str, default: str = "") -> str:
    """A cell's parameter by its HDL name (``C_INCLUDE_SG``) or, as Vivado also lists an IP's
    configuration, in lower case."""
    return c.params.get(name, c.params.get(name.lower(), default))


def _check_dma(design: HwhDesign, c: HwhCell) -> None:
    p = {k.upper(): v for k, v in c.params.items()}
    if p.get("C_INCLUDE_SG", "0") not in ("0", "false", "FALSE"):
        raise _refuse(design, c, "the AXI DMA is in scatter-gather mode (C_INCLUDE_SG=1); the "
                      "simulated board models its simple (direct register) mode only, as "
                      "pp_axi_dma", "Uncheck 'Enable Scatter Gather Engine' in the block design "
                      "(PYNQ's DMA driver uses simple mode), or give your own model with "
                      f"--top-map {c.instance}=MODULE")
    widths = {p.get(k) for k in ("C_M_AXI_MM2S_DATA_WIDTH", "C_M_AXIS_MM2S_TDATA_WIDTH",
                                 "C_M_AXI_S2MM_DATA_WIDTH", "C_S_AXIS_S2MM_TDATA_WIDTH") if p.get(k)}
    if len(widths) > 1 or not widths <= {"32", "64"}:
        raise _refuse(design, c, f"its memory and stream data widths are {sorted(widths)}; "
                      "pp_axi_dma has one width for both, 32 or 64 bits",
                      "Set the DMA's memory-map and stream widths to the same 32 or 64 bits")
    if p.get("C_ENABLE_MULTI_CHANNEL", "0") not in ("0", "false"):
        raise _refuse(design, c, "multi-channel mode is not modelled", "Use simple mode")


def _classify(design: HwhDesign, modules: set[str], top_map: Mapping[str, str],
              plan: ForeignPlan) -> None:
    unknown = sorted(set(top_map) - set(design.cells))
    if unknown:
        raise ForeignOverlayError(f"{design.path}: --top-map names cell(s) {', '.join(unknown)} "
                                  f"that the block design does not have (its cells: "
                                  f"{', '.join(design.cells)})")
    for c in design.cells.values():
        if c.modtype in PS_TYPES or not c.is_pl:
            continue
        mod = top_map.get(c.instance)
        if mod is not None:
            if mod not in modules:
                raise ForeignOverlayError(f"{design.path}: --top-map {c.instance}={mod}: no module "
                                          f"'{mod}' in the RTL given (modules found: "
                                          f"{', '.join(sorted(modules)) or 'none'})")
            plan.user[c.instance] = mod
        elif c.modtype in PLUMBING:
            continue
        elif c.modtype in PYTHON_MODELLED:
            if plan.intc is not None:
                raise _refuse(design, c, f"a second interrupt controller (the first is "
                              f"'{plan.intc}'); the simulated board models one axi_intc, on "
                              "the PS's IRQ_F2P", "Use one axi_intc (PYNQ's default design)")
            plan.intc = c.instance
        elif c.modtype in MODELLED and c.vendor_library == "xilinx.com:ip":
            if c.modtype == "axi_dma":
                _check_dma(design, c)
            plan.models[c.instance] = c.modtype
        elif c.modtype in modules:
            plan.user[c.instance] = c.modtype
        elif c.vendor_library == "xilinx.com:ip":
            raise _refuse(design, c, "this Xilinx IP has no model on the simulated board (models: "
                          f"{', '.join(sorted(MODELLED) + list(PYTHON_MODELLED))}; wiring: "
                          f"{', '.join(PLUMBING)})",
                          f"Give a Verilog model with the IP's port names: --rtl model.v "
                          f"--top-map {c.instance}=MODULE, or take the IP out of the design")
        else:
            raise _refuse(design, c, f"no Verilog module '{c.modtype}' in the RTL given "
                          f"(modules found: {', '.join(sorted(modules)) or 'none'})",
                          f"Add its Verilog (for HLS IP: solution/impl/verilog/*.v) with --rtl, "
                          f"or name its module with --top-map {c.instance}=MODULE")


def _bus_width(c: HwhCell, b: HwhBus, logical: tuple[str, ...], default: int) -> int:
    for name in logical:
        p = c.port(b.portmap.get(name, ""))
        if p is not None:
            return p.width
    return default


def _slaves(design: HwhDesign, plan: ForeignPlan) -> None:
    for r in design.ps_slaves():
        if r.instance == plan.intc:
            continue
        c = design.cells.get(r.instance)
        if c is None:
            raise ForeignOverlayError(f"{design.path}: the PS's address map names cell "
                                      f"'{r.instance}', which the .hwh has no MODULE for")
        if r.instance not in plan.user and r.instance not in plan.models:
            continue
        b = c.bus(r.slave)
        if b is None:
            raise _refuse(design, c, f"the PS's address map names its interface '{r.slave}', "
                          "which the cell does not list", "Re-export the .hwh from Vivado")
        if r.size & (r.size - 1) or r.base % r.size:
            raise _refuse(design, c, f"its range 0x{r.base:08X}-0x{r.high:08X} is not a "
                          "power-of-two size at a multiple of it", "Assign it such a range "
                          "(the Address Editor's defaults are)")
        if plan.user.get(r.instance) and not b.is_lite:
            raise _refuse(design, c, f"its slave interface '{r.slave}' is full AXI4 (bursts); "
                          "the simulated board reaches user IP through AXI4-Lite only",
                          "Make the interface AXI4-Lite (HLS: s_axilite)")
        if _bus_width(c, b, ("WDATA",), 32) != 32:
            raise _refuse(design, c, f"its slave interface '{r.slave}' is not 32 bits wide",
                          "Use a 32-bit AXI4-Lite interface")
        plan.slaves.append(SlavePlan(r.instance, b, r.base, r.size))
    if not plan.slaves:
        raise ForeignOverlayError(f"{design.path}: the PS reaches no simulated cell through "
                                  "its master ports (M_AXI_GP0, ...): nothing for PYNQ to drive")
    taken: list[SlavePlan] = []
    for s in plan.slaves:
        for t in taken:
            if s.base < t.base + t.size and t.base < s.base + s.size:
                raise ForeignOverlayError(f"{design.path}: {s.cell}/{s.bus.name} and "
                                          f"{t.cell}/{t.bus.name} overlap in the address map")
        taken.append(s)


def _ident(text: str) -> str:
    return re.sub(r"\W", "_", text).lower()


def _masters(design: HwhDesign, plan: ForeignPlan) -> None:
    ps = design.ps.instance
    for cell in plan.kept:
        c = design.cells[cell]
        reach: dict[str, HwhRange] = {r.master: r for r in c.ranges if r.instance == ps}
        mm = [b for b in c.buses if b.is_aximm and b.kind == "MASTER"]
        if plan.models.get(cell) == "axi_dma":
            got = [b for b in mm if b.name in reach]
            if got:
                dw = int(param(c, "C_M_AXI_MM2S_DATA_WIDTH") or param(c, "C_M_AXI_S2MM_DATA_WIDTH") or 32)
                plan.masters.append(MasterPlan(cell, tuple(got), f"{_ident(cell)}_axi", dw, 6,
                                               reach[got[0].name].slave))
            continue
        for b in mm:
            if b.name not in reach:
                if b.busname:
                    raise _refuse(design, c, f"its master '{b.name}' reaches no PS memory port "
                                  "(S_AXI_HP*/ACP/GP*) in the address map", "Connect it to the "
                                  "PS's memory through an interconnect, as PYNQ's buffers need")
                plan.notes.append(f"{cell}/{b.name}: not connected; its inputs are tied to 0")
                continue
            dw = _bus_width(c, b, ("WDATA", "RDATA"), 32)
            if dw not in (32, 64):
                raise _refuse(design, c, f"its master '{b.name}' is {dw} bits wide; the "
                              "simulated board's PS memory ports are 32 or 64 bits",
                              "Set the interface to 32 or 64 bits (HLS: max_widen_bitwidth)")
            idw = max(1, _bus_width(c, b, ("AWID", "ARID"), 1))
            plan.masters.append(MasterPlan(cell, (b,), f"{_ident(cell)}_{_ident(b.name)}", dw, idw,
                                           reach[b.name].slave))


def _intr(design: HwhDesign, plan: ForeignPlan) -> None:
    if plan.intc is None:
        return
    c = design.cells[plan.intc]
    n = int(param(c, "C_NUM_INTR_INPUTS", "1"))
    port = c.port("intr")
    bits: list[str] = []
    drivers = design.drivers()
    if port is not None and port.signame in drivers:
        cell, out = drivers[port.signame]
        src = design.cells[cell]
        if src.modtype == "xlconcat":
            for i in range(int(src.params.get("NUM_PORTS", "2"))):
                p = src.port(f"In{i}")
                w = p.width if p is not None else int(src.params.get(f"IN{i}_WIDTH", "1"))
                for k in range(w):
                    bits.append(_source_bit(design, plan, p, k, drivers))
        else:
            bits = [_source_bit(design, plan, port, k, drivers) for k in range(port.width)]
    plan.intr = (bits + ["1'b0"] * n)[:n]


def _source_bit(design: HwhDesign, plan: ForeignPlan, p: Optional[HwhPort], k: int,
                drivers: Mapping[str, tuple[str, HwhPort]]) -> str:
    if p is None or not p.signame or p.signame not in drivers:
        return "1'b0"
    cell, out = drivers[p.signame]
    if cell in plan.user or cell in plan.models:
        return f"{net_name(p.signame)}[{k}]" if out.width > 1 else net_name(p.signame)
    src = design.cells[cell]
    if src.modtype == "xlconstant":
        return f"1'b{(int(src.params.get('CONST_VAL', '0'), 0) >> k) & 1}"
    raise ForeignOverlayError(f"{design.path}: interrupt input from {cell}/{out.name} "
                              f"({src.vlnv}): only the design's simulated cells and constants "
                              "can drive the interrupt controller here")


def net_name(signame: str) -> str:
    """The shell's wire for the .hwh net ``signame``."""
    return "n_" + re.sub(r"\W", "_", signame)


def reset_active_low(port: str) -> bool:
    """Whether a reset input is active low, by its name (ap_rst_n, axi_resetn, aresetn)."""
    return bool(_RESET_LOW.search(port))


def plan_foreign(design: HwhDesign, modules: set[str], top_map: Optional[Mapping[str, str]] = None,
                 *, module: Optional[str] = None) -> ForeignPlan:
    """Decide what stands for every cell of ``design`` (see the module docstring);
    ``modules``: the Verilog modules the user's RTL defines."""
    ps = design.ps
    dw = int(ps.params.get("C_M_AXI_GP0_DATA_WIDTH", ps.params.get("C_MAXIGP0_DATA_WIDTH", "32")) or 32)
    if dw not in (32, 64):
        raise ForeignOverlayError(f"{design.path}: the PS's master port is {dw} bits wide; the "
                                  "simulated board's is 32 or 64 bits: set it in the PS's "
                                  "PS-PL configuration")
    plan = ForeignPlan(design, module or f"{_ident(design.name)}_foreign_shell", dw)
    _classify(design, modules, dict(top_map or {}), plan)
    _slaves(design, plan)
    _masters(design, plan)
    _intr(design, plan)
    if ps.modtype == "processing_system7" and ps.params.get("PCW_FPGA1_PERIPHERAL_FREQMHZ") \
            and ps.params.get("PCW_FPGA_FCLK1_ENABLE") == "1":
        plan.notes.append("the PS's FCLK1..3 run at FCLK0's rate here: one clock drives the PL")
    return plan
