"""The simulated board's PL for a block design made outside pushpush: the shell Verilog.

:func:`render_foreign_shell` turns a :class:`~.foreign_plan.ForeignPlan` into one Verilog
module that the simulated board's harness (``pushpush_simboard``) runs as its top:

* ``s_axi_*`` (the ARM's GP0 master) into a 1 x N ``pp_axi_interconnect`` that decodes the
  ``.hwh`` address map (unmapped addresses answer DECERR, as the SmartConnect does), then a
  ``pp_axi_axil_bridge`` (AXI4 to AXI4-Lite, as the SmartConnect converts) per slave;
* the user's cells, instantiated by the ports the ``.hwh`` lists; their AXI4-Lite slave
  interface on their bridge, each memory-mapped master on a shell port ``<cell>_<bus>_*``
  that the harness serves as PS memory (one ``pp_sim_mem`` each: S_AXI_HP*/ACP);
* the modelled Xilinx IPs (``pp_axi_dma``: its one AXI4 master on ``<dma>_axi_*``;
  ``pp_axi_gpio``);
* every other port by the ``.hwh``'s nets: AXI4-Stream data paths, interrupt lines, user
  wires between cells; clocks on the one PL clock, resets on the harness reset with the
  polarity of the port (``ap_rst_n``: active low), ``xlconstant`` outputs as constants,
  inputs from outside the design (board pins) tied to 0;
* ``irq_in<i>``: the interrupt controller's input i (through ``xlconcat``), which the PYNQ
  process's ``axi_intc`` model reads; ``m_axi_*``: idle (the harness's PS memory port for a
  pushpush top; a foreign design's masters have their own).
"""

from __future__ import annotations

from typing import Optional

from .fabric import axi_signals
from .foreign_plan import ForeignOverlayError, ForeignPlan, SlavePlan, net_name, param, reset_active_low
from .hwh_read import HwhCell, HwhPort
from pushpush import __version__

__all__ = ["render_foreign_shell", "shell_cores", "S_ID_WIDTH", "intr_ports"]

#: ID width of the shell's s_axi (the harness's GP0 master).
S_ID_WIDTH = 12
#: The AXI4-Lite signals of a slave: logical name -> (width, driven by the slave).
_LITE = {"AWADDR": (32, False), "AWPROT": (3, False), "AWVALID": (1, False), "AWREADY": (1, True),
         "WDATA": (32, False), "WSTRB": (4, False), "WVALID": (1, False), "WREADY": (1, True),
         "BRESP": (2, True), "BVALID": (1, True), "BREADY": (1, False),
         "ARADDR": (32, False), "ARPROT": (3, False), "ARVALID": (1, False), "ARREADY": (1, True),
         "RDATA": (32, True), "RRESP": (2, True), "RVALID": (1, True), "RREADY": (1, False)}
_LITE_NEEDED = ("AWADDR", "AWVALID", "AWREADY", "WDATA", "WVALID", "WREADY", "BVALID", "BREADY",
                "ARADDR", "ARVALID", "ARREADY", "RDATA", "RVALID", "RREADY")
#: pp_axi_dma's AXI4 master signals (no AxLOCK)
_DMA_AXI = ("awid", "awaddr", "awlen", "awsize", "awburst", "awcache", "awprot", "awvalid",
            "awready", "wdata", "wstrb", "wlast", "wvalid", "wready", "bid", "bresp", "bvalid",
            "bready", "arid", "araddr", "arlen", "arsize", "arburst", "arcache", "arprot",
            "arvalid", "arready", "rid", "rdata", "rresp", "rlast", "rvalid", "rready")
_DMA_STREAM = (("m_axis_mm2s_tdata", "O"), ("m_axis_mm2s_tkeep", "O"), ("m_axis_mm2s_tlast", "O"),
               ("m_axis_mm2s_tvalid", "O"), ("m_axis_mm2s_tready", "I"),
               ("s_axis_s2mm_tdata", "I"), ("s_axis_s2mm_tkeep", "I"), ("s_axis_s2mm_tlast", "I"),
               ("s_axis_s2mm_tvalid", "I"), ("s_axis_s2mm_tready", "O"),
               ("mm2s_introut", "O"), ("s2mm_introut", "O"))
_GPIO_PINS = ("gpio_io_i", "gpio_io_o", "gpio_io_t", "gpio2_io_i", "gpio2_io_o", "gpio2_io_t",
              "ip2intc_irpt")


def shell_cores(plan: ForeignPlan) -> list[str]:
    """The cores (cores/<name>) the shell instantiates."""
    out = ["interconnect", "axil_bridge"]
    out += sorted({m for m in plan.models.values()})
    return out


def intr_ports(plan: ForeignPlan) -> list[str]:
    """The shell's interrupt outputs, in the interrupt controller's input order."""
    return [f"irq_in{i}" for i in range(len(plan.intr))]


def _rng(w: int) -> str:
    return f"[{w - 1}:0] " if w > 1 else ""


class _Writer:
    """The shell's text, and the nets, adapters and tie-offs it needs."""

    def __init__(self, plan: ForeignPlan) -> None:
        self.plan = plan
        self.design = plan.design
        self.drivers = self.design.drivers()
        self.decl: list[str] = []
        self.body: list[str] = []
        self.assigns: list[str] = []
        self.nets: dict[str, int] = {}
        #: nets some kept cell reads (the others: outputs to board pins, nobody's in here)
        self.loaded: set[str] = set()

    # ------------------------------------------------------------------ nets
    def kept(self, cell: str) -> bool:
        return cell in self.plan.user or cell in self.plan.models

    def net(self, signame: str) -> Optional[tuple[str, int]]:
        """The shell wire of a net driven by a kept cell (declared on first use)."""
        d = self.drivers.get(signame)
        if d is None or not self.kept(d[0]):
            return None
        w = d[1].width
        if signame not in self.nets:
            self.nets[signame] = w
            self.decl.append(f"wire {_rng(w)}{net_name(signame)};")
        return net_name(signame), w

    @staticmethod
    def fit(expr: str, have: int, want: int) -> str:
        """``expr`` (``have`` bits) read as ``want`` bits (low bits, or zero-extended)."""
        if have == want:
            return expr
        if want < have:
            return f"{expr}[{want - 1}:0]" if want > 1 else f"{expr}[0]"
        return f"{{{{{want - have}{{1'b0}}}}, {expr}}}"

    def wire_for(self, c: HwhCell, p: HwhPort) -> str:
        """What a port not on a routed bus connects to (see the module docstring)."""
        sig = p.sigis.lower()
        if p.dir == "I" and sig == "clk":
            return "clk"
        if p.dir == "I" and sig == "rst":
            return "!rst" if reset_active_low(p.name) else "rst"
        if p.dir == "O":
            if p.signame and self.net(p.signame) is not None:
                return net_name(p.signame)
            return ""
        zero = f"{p.width}'d0"
        if not p.signame:
            return zero
        got = self.net(p.signame)
        if got is not None:
            self.loaded.add(p.signame)
            return self.fit(got[0], got[1], p.width)
        d = self.drivers.get(p.signame)
        if d is None:
            ext = [n for n, (_, _, s) in self.design.external.items() if s == p.signame or n == p.signame]
            self.plan.notes.append(f"{c.instance}/{p.name}: driven from outside the design "
                                   f"({', '.join(ext) or p.signame}); tied to 0")
            return zero
        src = self.design.cells[d[0]]
        if src.modtype == "xlconstant":
            v = int(src.params.get("CONST_VAL", "0"), 0)
            return f"{p.width}'d{v & ((1 << p.width) - 1)}"
        if src.modtype == "proc_sys_reset" or d[1].sigis.lower() == "rst" or "reset" in d[1].name.lower():
            return "!rst" if reset_active_low(d[1].name) else "rst"
        if d[1].sigis.lower() == "clk" or d[1].name.upper().startswith("FCLK_CLK"):
            return "clk"
        raise ForeignOverlayError(
            f"{self.design.path}: {c.instance}/{p.name} is driven by {src.instance}/{d[1].name} "
            f"({src.vlnv}), which the simulated board has as wiring only: it cannot drive a "
            "signal here. Take that path out of the design or give the cell a Verilog model "
            f"with --top-map {src.instance}=MODULE")

    # ------------------------------------------------------------------ the GP0 side
    def interconnect(self) -> None:
        plan, dw = self.plan, self.plan.data_width
        sig = axi_signals(dw, S_ID_WIDTH)
        m = len(plan.slaves)
        for n, w, _ in sig:
            self.decl.append(f"wire [{m * w - 1}:0] gp_m_axi_{n};")
        self.decl.append(f"wire [{m * 4 - 1}:0] gp_m_axi_awqos;")
        self.decl.append(f"wire [{m * 4 - 1}:0] gp_m_axi_arqos;")
        bases = ", ".join(f"32'h{s.base:08X}" for s in reversed(plan.slaves))
        bits = ", ".join(f"32'd{s.bits}" for s in reversed(plan.slaves))
        b = self.body
        b.append("// the GP0 interconnect: every slave at its .hwh address")
        for i, s in enumerate(plan.slaves):
            b.append(f"//   {i}: {s.cell}/{s.bus.name} 0x{s.base:08X} (0x{s.size:X} bytes)")
        b.append(f"pp_axi_interconnect #(.S_COUNT(1), .M_COUNT({m}), .DATA_WIDTH({dw}), "
                 f".ADDR_WIDTH(32), .S_ID_WIDTH({S_ID_WIDTH}), .M_ID_WIDTH({S_ID_WIDTH}),")
        b.append(f"    .M_BASE_ADDR({{{bases}}}), .M_ADDR_WIDTH({{{bits}}}), .TOPOLOGY(0), .ARBITRATION(0))")
        conns = [".clk(clk)", ".rst(rst)"]
        for n, _, _ in sig:
            conns.append(f".s_axi_{n}(s_axi_{n})")
        conns += [".s_axi_awqos(4'd0)", ".s_axi_arqos(4'd0)"]
        for n, _, _ in sig:
            conns.append(f".m_axi_{n}(gp_m_axi_{n})")
        conns += [".m_axi_awqos(gp_m_axi_awqos)", ".m_axi_arqos(gp_m_axi_arqos)"]
        b.append("gp0_ic (\n    " + ",\n    ".join(conns) + "\n);\n")
        self.unused = ["gp_m_axi_awqos", "gp_m_axi_arqos"]
        for j, s in enumerate(plan.slaves):
            self.bridge(j, s, sig)

    def bridge(self, j: int, s: SlavePlan, sig: list[tuple[str, int, str]]) -> None:
        p = f"sl{j}"
        for name, (w, _) in _LITE.items():
            self.decl.append(f"wire {_rng(w)}{p}_{name.lower()};")
        conns = [".clk(clk)", ".rst(rst)"]
        for n, w, _ in sig:
            conns.append(f".s_axi_{n}(gp_m_axi_{n}[{(j + 1) * w - 1}:{j * w}])")
        for name in _LITE:
            conns.append(f".m_axil_{name.lower()}({p}_{name.lower()})")
        self.body.append(f"// {s.cell}/{s.bus.name}: AXI4 to AXI4-Lite")
        self.body.append(f"pp_axi_axil_bridge #(.DATA_WIDTH({self.plan.data_width}), .ADDR_WIDTH(32), "
                         f".ID_WIDTH({S_ID_WIDTH})) {p}_bridge (\n    " + ",\n    ".join(conns) + "\n);\n")
        self.unused += [f"{p}_awprot", f"{p}_arprot", f"{p}_awaddr", f"{p}_araddr", f"{p}_wstrb"]

    # ------------------------------------------------------------------ cells
    def routed(self, cell: str) -> dict[str, str]:
        """physical port -> connection, for a user cell's GP0 slave and PS-memory masters."""
        c = self.design.cells[cell]
        out: dict[str, str] = {}
        for j, s in enumerate(self.plan.slaves):
            if s.cell != cell:
                continue
            missing = [x for x in _LITE_NEEDED if x not in s.bus.portmap]
            if missing:
                raise ForeignOverlayError(f"{self.design.path}: {cell}/{s.bus.name} has no "
                                          f"{', '.join(missing)} in its PORTMAP: not AXI4-Lite")
            driven = set()
            for log, phys in s.bus.portmap.items():
                if log not in _LITE:
                    continue
                w, by_slave = _LITE[log]
                port = c.port(phys)
                pw = port.width if port is not None else w
                target = f"sl{j}_{log.lower()}"
                if by_slave:
                    out[phys] = self.adapt_out(cell, phys, pw, target, w)
                    driven.add(log)
                else:
                    out[phys] = self.fit(target, w, pw)
            for log in ("BRESP", "RRESP"):
                if log not in driven:
                    self.assigns.append(f"assign sl{j}_{log.lower()} = 2'b00;")
        for m in self.plan.masters:
            if m.cell != cell or cell in self.plan.models:
                continue
            sig = axi_signals(m.data_width, m.id_width)
            bus = m.buses[0]
            driven = set()
            for n, w, d in sig:
                phys = bus.portmap.get(n.upper())
                port = c.port(phys) if phys else None
                target = f"{m.prefix}_{n}"
                if port is None:
                    if d == "out":
                        self.assigns.append(f"assign {target} = {w}'d{1 if n in ('bready', 'rready') else 0};")
                    continue
                if d == "out":
                    out[port.name] = self.adapt_out(cell, port.name, port.width, target, w)
                else:
                    out[port.name] = self.fit(target, w, port.width)
                driven.add(n)
            for log, phys in bus.portmap.items():      # AxQOS, AxREGION, xUSER: inputs to 0
                port = c.port(phys)
                if port is not None and phys not in out:
                    out[phys] = f"{port.width}'d0" if port.dir == "I" else ""
        return out

    def adapt_out(self, cell: str, port: str, pw: int, target: str, tw: int) -> str:
        """An output of ``pw`` bits driving ``target`` (``tw`` bits)."""
        if pw == tw:
            return target
        a = f"a_{cell}_{port}"
        self.decl.append(f"wire {_rng(pw)}{a};")
        self.assigns.append(f"assign {target} = {self.fit(a, pw, tw)};")
        if pw > tw:
            self.unused.append(f"{a}[{pw - 1}:{tw}]")
        return a

    def instance(self, module: str, name: str, conns: list[tuple[str, str]], params: str = "") -> None:
        text = ",\n    ".join(f".{p}({e})" for p, e in conns)
        self.body.append(f"{module} {params}{name} (\n    {text}\n);\n")

    def user_cell(self, cell: str, module: str) -> None:
        c = self.design.cells[cell]
        routed = self.routed(cell)
        conns = []
        for p in c.ports:
            conns.append((p.name, routed[p.name] if p.name in routed else self.wire_for(c, p)))
        self.body.append(f"// {cell}: {c.vlnv} (the user's {module})")
        self.instance(module, cell, conns)

    def slave_of(self, cell: str) -> int:
        for j, s in enumerate(self.plan.slaves):
            if s.cell == cell:
                return j
        raise ForeignOverlayError(f"{self.design.path}: {cell} is not in the PS's address map: "
                                  "assign it an address (Vivado's Address Editor)")

    def lite_conns(self, j: int, bits: int, prefix: str = "s_axil") -> list[tuple[str, str]]:
        p = f"sl{j}"
        out = []
        for log, (w, _) in _LITE.items():
            if log in ("AWPROT", "ARPROT"):
                continue
            e = f"{p}_{log.lower()}"
            if log in ("AWADDR", "ARADDR"):
                e = f"{e}[{bits - 1}:0]"
            out.append((f"{prefix}_{log.lower()}", e))
        return out

    def model_port(self, c: HwhCell, name: str, d: str, width: int, tie: str) -> str:
        p = c.port(name)
        if p is None:
            return "" if d == "O" else tie
        e = self.wire_for(c, p)
        if d == "I" and (e == f"{p.width}'d0" and not p.signame):
            return tie
        return e

    def dma(self, cell: str) -> None:
        c = self.design.cells[cell]
        j = self.slave_of(cell)
        dw = int(param(c, "C_M_AXI_MM2S_DATA_WIDTH") or param(c, "C_M_AXI_S2MM_DATA_WIDTH") or 32)
        burst = int(param(c, "C_MM2S_BURST_SIZE", "16"))
        lw = int(param(c, "C_SG_LENGTH_WIDTH", "14"))
        m = next((x for x in self.plan.masters if x.cell == cell), None)
        prefix = m.prefix if m is not None else f"{cell}_axi"
        if m is None:
            for n, w, _ in axi_signals(dw, 6):
                self.decl.append(f"wire {_rng(w)}{prefix}_{n};")
            for n in ("awready", "wready", "bid", "bresp", "bvalid", "arready", "rid", "rdata",
                      "rresp", "rlast", "rvalid"):
                self.assigns.append(f"assign {prefix}_{n} = 0;")
            self.plan.notes.append(f"{cell}: its memory masters reach no PS port; it reads zeros")
        self.assigns += [f"assign {prefix}_awlock = 1'b0;", f"assign {prefix}_arlock = 1'b0;"]
        conns = [("clk", "clk"), ("rst", "rst")] + self.lite_conns(j, 10)
        conns += [(f"m_axi_{n}", f"{prefix}_{n}") for n in _DMA_AXI]
        for name, d in _DMA_STREAM:
            tie = f"{dw // 8}'h{(1 << (dw // 8)) - 1:X}" if name.endswith("tkeep") else "1'b0"
            conns.append((name, self.model_port(c, name, d, 0, tie)))
        self.body.append(f"// {cell}: {c.vlnv} in simple mode (pp_axi_dma, register-compatible)")
        self.instance("pp_axi_dma", cell, conns,
                      f"#(.DATA_WIDTH({dw}), .ADDR_WIDTH(32), .LEN_WIDTH({max(8, min(26, lw))}), "
                      f".MAX_BURST({max(2, burst)}), .FIFO_LOG2({max(6, (2 * max(2, burst)).bit_length() - 1)}), "
                      ".ID_WIDTH(6)) ")

    def gpio(self, cell: str) -> None:
        c = self.design.cells[cell]
        j = self.slave_of(cell)
        p = {k: param(c, k, d) for k, d in (
            ("C_GPIO_WIDTH", "32"), ("C_GPIO2_WIDTH", "32"), ("C_IS_DUAL", "0"), ("C_ALL_INPUTS", "0"),
            ("C_ALL_INPUTS_2", "0"), ("C_ALL_OUTPUTS", "0"), ("C_ALL_OUTPUTS_2", "0"),
            ("C_DOUT_DEFAULT", "0"), ("C_TRI_DEFAULT", "0xFFFFFFFF"), ("C_DOUT_DEFAULT_2", "0"),
            ("C_TRI_DEFAULT_2", "0xFFFFFFFF"))}
        w1, w2 = int(p.get("C_GPIO_WIDTH", "32")), int(p.get("C_GPIO2_WIDTH", "32"))
        params = (f"#(.GPIO_WIDTH({w1}), .GPIO2_WIDTH({w2}), .IS_DUAL({int(p.get('C_IS_DUAL', '0'))}), "
                  f".ALL_INPUTS({int(p.get('C_ALL_INPUTS', '0'))}), .ALL_INPUTS_2({int(p.get('C_ALL_INPUTS_2', '0'))}), "
                  f".ALL_OUTPUTS({int(p['C_ALL_OUTPUTS'])}), .ALL_OUTPUTS_2({int(p['C_ALL_OUTPUTS_2'])}), "
                  f".DOUT_DEFAULT(32'h{int(p.get('C_DOUT_DEFAULT', '0'), 0):08X}), "
                  f".TRI_DEFAULT(32'h{int(p.get('C_TRI_DEFAULT', '0xFFFFFFFF'), 0):08X}), "
                  f".DOUT_DEFAULT_2(32'h{int(p.get('C_DOUT_DEFAULT_2', '0'), 0):08X}), "
                  f".TRI_DEFAULT_2(32'h{int(p.get('C_TRI_DEFAULT_2', '0xFFFFFFFF'), 0):08X})) ")
        conns = [("clk", "clk"), ("rst", "rst")] + self.lite_conns(j, 9)
        for name in _GPIO_PINS:
            w = w2 if name.startswith("gpio2") else (1 if name == "ip2intc_irpt" else w1)
            d = "I" if name.endswith("_i") else "O"
            conns.append((name, self.model_port(c, name, d, w, f"{w}'d0")))
        self.body.append(f"// {cell}: {c.vlnv} (pp_axi_gpio, PG144's registers)")
        self.instance("pp_axi_gpio", cell, conns, params)

    # ------------------------------------------------------------------ the module
    def render(self) -> str:
        plan = self.plan
        self.interconnect()
        for cell in plan.kept:
            if cell in plan.user:
                self.user_cell(cell, plan.user[cell])
            elif plan.models[cell] == "axi_dma":
                self.dma(cell)
            else:
                self.gpio(cell)
        dw = plan.data_width
        ports = ["input  wire clk", "input  wire rst"]
        for n, w, d in axi_signals(dw, S_ID_WIDTH):
            ports.append(f"{'input ' if d == 'out' else 'output'} wire {_rng(w)}s_axi_{n}")
        for n, w, d in axi_signals(dw, S_ID_WIDTH):
            ports.append(f"{'output' if d == 'out' else 'input '} wire {_rng(w)}m_axi_{n}")
            if d == "out":
                self.assigns.append(f"assign m_axi_{n} = {w}'d{1 if n in ('bready', 'rready') else 0};")
            else:
                self.unused.append(f"m_axi_{n}")
        for m in plan.masters:
            for n, w, d in axi_signals(m.data_width, m.id_width):
                ports.append(f"{'output' if d == 'out' else 'input '} wire {_rng(w)}{m.prefix}_{n}")
        self.unused += [net_name(n) for n in self.nets if n not in self.loaded
                        and not any(e.startswith(net_name(n)) for e in plan.intr)]
        for i, e in enumerate(plan.intr):
            ports.append(f"output wire irq_in{i}")
            self.assigns.append(f"assign irq_in{i} = {e};")
        header = (f"// Generated by pushpush {__version__} from {plan.design.path.name} by "
                  "pushpush.codegen.foreign_shell. Do not edit: regenerate.")
        lines = [header, f"// {plan.module}: the PL of the block design '{plan.design.name}' "
                 f"({plan.design.path.name}) on the simulated board",
                 "// (pushpush.codegen.foreign_shell). Notes:"]
        lines += [f"//   {n}" for n in plan.notes] or ["//   none"]
        lines += ["", "`timescale 1ns / 1ps", "`default_nettype none", "",
                  "// outputs of the design's cells that nothing reads are left open, as in the block design",
                  "/* verilator lint_off PINCONNECTEMPTY */",
                  f"module {plan.module} (", "    " + ",\n    ".join(ports), ");", ""]
        lines += self.decl + [""] + self.body + self.assigns
        lines.append("")
        lines.append("// outputs nobody reads")
        lines.append("wire pp_unused = &{1'b0, " + ", ".join(self.unused) + "};")
        lines += ["", "endmodule", "/* verilator lint_on PINCONNECTEMPTY */", "", "`default_nettype wire", ""]
        return "\n".join(lines)


def render_foreign_shell(plan: ForeignPlan) -> str:
    """The shell module's Verilog text for ``plan``."""
    return _Writer(plan).render()
