"""The simulated board's harness: the Verilog module the simulator runs around a system top.

:func:`render_simboard` renders ``templates/verilog/simboard.v.j2``: the module
``pushpush_simboard`` with the PL clock and reset, the system top (or a stand-in with the
same ports), the ARM's GP0 master (``cores/sim_ps/pp_sim_gp0.v``) on the top's ``s_axi`` and
the PS memory port (``cores/sim_ps/pp_sim_mem.v``) on its ``m_axi`` (S_AXI_GP0, or S_AXI_HP0
with ``software_windows: ddr``), and one more ``pp_sim_mem`` per :class:`PsMemPort` (the
top's other masters into PS memory, e.g. a DMA engine on S_AXI_HP0). The Python side of the
simulated board (:mod:`pushpush.simboard.hdl`) drives them through VPI; see there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .render import generated_header, render_template
from .fabric import axi_signals

__all__ = ["HARNESS_TOP", "HARNESS_CORES", "SimboardPorts", "PsMemPort", "render_simboard"]

#: The harness's module name (the simulator's toplevel on the simulated board).
HARNESS_TOP = "pushpush_simboard"
#: The cores the harness instantiates.
HARNESS_CORES = ("sim_ps",)
#: Reset cycles at the start of a simulation.
RESET_CYCLES = 8


@dataclass(frozen=True)
class SimboardPorts:
    """The widths of a system top's AXI ports (``s_axi``: GP0 into the PL, ``m_axi``: the
    PL into PS memory)."""

    data_width: int = 32
    s_id_width: int = 12
    m_id_width: int = 12

    def to_json(self) -> dict[str, int]:
        return {"data_width": self.data_width, "s_id_width": self.s_id_width,
                "m_id_width": self.m_id_width}


@dataclass(frozen=True)
class PsMemPort:
    """Another master of the top into PS memory (besides ``m_axi``), e.g. a DMA engine's
    ``hp0_axi_*`` on S_AXI_HP0: the harness gives it its own ``pp_sim_mem`` instance
    ``name`` (Python serves it into the same simulated memory: OCM and DDR) with answer
    registers ``<name>_wr_ack``, ``<name>_wr_resp``, ``<name>_rd_ack``, ``<name>_rd_resp``.
    The top must have the AXI4 master port ``<prefix>_*`` (the signals of ``m_axi``).

    >>> PsMemPort("hp0", "hp0_axi", 64, 6).to_json()["prefix"]
    'hp0_axi'
    """

    name: str
    prefix: str
    data_width: int = 64
    id_width: int = 6
    #: The Zynq port it stands for (a comment in the harness).
    label: str = "S_AXI_HP0"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "prefix": self.prefix, "data_width": self.data_width,
                "id_width": self.id_width, "label": self.label}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "PsMemPort":
        return cls(str(d["name"]), str(d["prefix"]), int(d.get("data_width", 64)),
                   int(d.get("id_width", 6)), str(d.get("label", "S_AXI_HP0")))


#: AXI signals a stand-in top may leave out (the harness then leaves them unconnected).
OPTIONAL = frozenset({"awlock", "awcache", "awprot", "arlock", "arcache", "arprot", "bid", "rid",
                      "wlast", "rlast"})


def render_simboard(top: str, ports: SimboardPorts, *, clock_mhz: float = 100.0,
                    parameters: Mapping[str, Any] | None = None,
                    timeout_cycles: int = 1_000_000,
                    port_names: Sequence[str] = (),
                    mem_ports: Sequence[PsMemPort] = (),
                    m_axi_label: str = "S_AXI_GP0", irq: bool = False,
                    intr: Sequence[str] = ()) -> str:
    """The harness Verilog for ``top`` (its parameters overridden by ``parameters``).

    ``port_names``: the ports ``top`` has, when it is a stand-in that may lack optional AXI
    signals (:data:`OPTIONAL`); empty: every AXI4 signal (a generated top). ``mem_ports``:
    the top's other masters into PS memory (:class:`PsMemPort`, all AXI4 signals each).
    ``m_axi_label``: the Zynq port the top's ``m_axi`` stands for (a comment). ``irq``: the
    top has the interrupt output ``irq``. ``intr``: the top's interrupt outputs in the order
    of the interrupt controller's inputs (default ``["irq"]`` with ``irq``; a DMA shell adds
    its DMAs' ``<dma>_mm2s_introut``/``<dma>_s2mm_introut``): the harness wire
    ``pp_intr`` holds them, bit i = input i, watched by the simulator's Python
    (:mod:`pushpush.simboard.hdl`)."""
    if not top.isidentifier():
        raise ValueError(f"'{top}' is not a Verilog module name")
    if ports.data_width not in (32, 64):
        raise ValueError(f"data width {ports.data_width}: the simulated board's ports are 32 or 64 bits")
    half_ps = round(1e6 / clock_mhz / 2)
    have = set(port_names)
    s_sig = axi_signals(ports.data_width, ports.s_id_width)
    m_sig = axi_signals(ports.data_width, ports.m_id_width)
    if have:
        missing = [f"{p}_axi_{n}" for p, sig in (("s", s_sig), ("m", m_sig)) for n, _, _ in sig
                   if n not in OPTIONAL and f"{p}_axi_{n}" not in have]
        missing += [n for n in ("clk", "rst") if n not in have]
        if missing:
            raise ValueError(f"module '{top}' cannot stand in for a system top on the simulated "
                             f"board: it has no {', '.join(missing)} (it needs clk, rst and AXI4 "
                             "ports s_axi_* and m_axi_* as a generated top has)")
        s_sig = [x for x in s_sig if f"s_axi_{x[0]}" in have]
        m_sig = [x for x in m_sig if f"m_axi_{x[0]}" in have]
    wires = [{"name": f"s_axi_{n}", "width": w} for n, w, _ in s_sig]
    wires += [{"name": f"m_axi_{n}", "width": w} for n, w, _ in m_sig]
    extra = []
    for mp in mem_ports:
        if not (mp.name.isidentifier() and mp.prefix.isidentifier()) or mp.name in ("mem", "gp0", "dut"):
            raise ValueError(f"PS memory port {mp.name!r} ({mp.prefix!r}): use Verilog names "
                             "other than mem, gp0 and dut")
        if mp.data_width not in (32, 64):
            raise ValueError(f"PS memory port {mp.name}: data width {mp.data_width}, not 32 or 64")
        sig = axi_signals(mp.data_width, mp.id_width)
        wires += [{"name": f"{mp.prefix}_{n}", "width": w} for n, w, _ in sig]
        extra.append({"port": mp, "signals": [n for n, _, _ in sig]})
    lines = list(intr) or (["irq"] if irq else [])
    for name in lines:
        if not name.isidentifier() or any(w["name"] == name for w in wires):
            raise ValueError(f"interrupt output {name!r}: not a Verilog name, or one the "
                             "harness already uses")
        wires.append({"name": name, "width": 1})
    return render_template(
        "verilog/simboard.v.j2",
        header=generated_header("//", f"{top} (simulated board)"),
        top=top,
        clock_mhz=float(clock_mhz),
        half_period_ps=half_ps,
        reset_cycles=RESET_CYCLES,
        parameters=sorted((str(k), v) for k, v in (parameters or {}).items()),
        ports=wires,
        s_ports=[n for n, _, _ in s_sig],
        m_ports=[n for n, _, _ in m_sig],
        data_width=ports.data_width,
        s_id_width=ports.s_id_width,
        m_id_width=ports.m_id_width,
        timeout_cycles=int(timeout_cycles),
        mem_ports=extra,
        m_axi_label=m_axi_label,
        intr=lines,
    )
