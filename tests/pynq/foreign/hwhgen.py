"""A small writer of Vivado-style hardware handoffs (``.hwh``) for the foreign-overlay tests.

The test overlays stand for block designs a PYNQ user makes in Vivado; no Vivado is here, so
their ``.hwh`` files are written by this module, independently of pushpush's own generator
(pushpush/codegen/hwh.py), in the structure of the Vivado-written files under
tests/pynq/hwhs/ (``resizer.hwh``: EDKSYSTEM/SYSTEMINFO/EXTERNALPORTS/MODULES; each MODULE
with PARAMETERS, PORTS whose SIGNAME names the net and CONNECTIONS list its other ends,
BUSINTERFACES with PORTMAPS, the processing system's MEMORYMAP with a MEMRANGE per slave
it reaches, each master's MEMRANGE into the PS's HP port, an HLS IP's ADDRESSBLOCK with
REGISTERS and FIELDS). ``python tests/pynq/foreign/hwhgen.py`` rewrites the checked-in
files (tests/pynq/foreign/<design>/<design>.hwh) from :mod:`designs`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional
from xml.sax.saxutils import quoteattr

AXIL = [("AWADDR", "I", "A"), ("AWVALID", "I", 1), ("AWREADY", "O", 1), ("WDATA", "I", 32),
        ("WSTRB", "I", 4), ("WVALID", "I", 1), ("WREADY", "O", 1), ("BRESP", "O", 2),
        ("BVALID", "O", 1), ("BREADY", "I", 1), ("ARADDR", "I", "A"), ("ARVALID", "I", 1),
        ("ARREADY", "O", 1), ("RDATA", "O", 32), ("RRESP", "O", 2), ("RVALID", "O", 1),
        ("RREADY", "I", 1)]
AXI4_RD = [("ARADDR", "O", 32), ("ARLEN", "O", 8), ("ARSIZE", "O", 3), ("ARBURST", "O", 2),
           ("ARPROT", "O", 3), ("ARCACHE", "O", 4), ("ARVALID", "O", 1), ("ARREADY", "I", 1),
           ("RDATA", "I", "D"), ("RRESP", "I", 2), ("RLAST", "I", 1), ("RVALID", "I", 1),
           ("RREADY", "O", 1)]
AXI4_WR = [("AWADDR", "O", 32), ("AWLEN", "O", 8), ("AWSIZE", "O", 3), ("AWBURST", "O", 2),
           ("AWPROT", "O", 3), ("AWCACHE", "O", 4), ("AWVALID", "O", 1), ("AWREADY", "I", 1),
           ("WDATA", "O", "D"), ("WSTRB", "O", "S"), ("WLAST", "O", 1), ("WVALID", "O", 1),
           ("WREADY", "I", 1), ("BRESP", "I", 2), ("BVALID", "I", 1), ("BREADY", "O", 1)]
AXIS = [("TDATA", "O", "D"), ("TKEEP", "O", "S"), ("TLAST", "O", 1), ("TVALID", "O", 1),
        ("TREADY", "I", 1)]


@dataclass
class Port:
    name: str
    dir: str
    width: int = 1
    sigis: str = "undef"
    net: str = ""
    sensitivity: str = ""
    clkfreq: Optional[int] = None


@dataclass
class Bus:
    name: str
    kind: str
    vlnv: str
    busname: str
    portmap: list[tuple[str, str]]


@dataclass
class Register:
    name: str
    offset: int
    access: str
    description: str
    fields: list[tuple[str, int, int, str]] = field(default_factory=list)   # name, bit, width, access


@dataclass
class Cell:
    instance: str
    vlnv: str
    params: dict[str, str]
    ports: list[Port] = field(default_factory=list)
    buses: list[Bus] = field(default_factory=list)
    ranges: list[dict[str, str]] = field(default_factory=list)
    block: Optional[tuple[str, str, int, list[Register]]] = None      # interface, name, range, regs
    modclass: str = "PERIPHERAL"
    is_ps: bool = False
    #: the cell's path in the block design (a hierarchy: "/stream/axi_dma", INSTANCE
    #: "stream_axi_dma", as Vivado writes it); default "/<instance>"
    fullname: str = ""

    @property
    def modtype(self) -> str:
        return self.vlnv.split(":")[2]

    def port(self, name: str, dir: str, width: int = 1, sigis: str = "undef", **kw: object) -> Port:
        p = Port(name, dir, width, sigis, **kw)   # type: ignore[arg-type]
        self.ports.append(p)
        return p


class Design:
    """Cells, and nets joining their ports (``connect``); ``render`` writes the .hwh."""

    def __init__(self, name: str, fclk_mhz: int = 100) -> None:
        self.name = name
        self.fclk = fclk_mhz * 1_000_000
        self.cells: dict[str, Cell] = {}
        self.nets: dict[str, list[tuple[str, str]]] = {}
        self.external: list[Port] = []

    def add(self, cell: Cell) -> Cell:
        self.cells[cell.instance] = cell
        return cell

    def connect(self, net: str, *ends: tuple[str, str]) -> None:
        for cell, port in ends:
            p = next(x for x in self.cells[cell].ports if x.name == port)
            p.net = net
        self.nets.setdefault(net, []).extend(ends)

    # ------------------------------------------------------------------ standard parts
    def ps7(self, *, hp: tuple[int, ...] = (), irq: bool = False) -> Cell:
        div0, div1 = {100: (10, 1), 50: (10, 2), 125: (8, 1)}[self.fclk // 1_000_000]
        params = {
            "C_FCLK_CLK0_BUF": "TRUE", "PCW_CRYSTAL_PERIPHERAL_FREQMHZ": "50",
            "PCW_APU_PERIPHERAL_FREQMHZ": "650", "PCW_USE_M_AXI_GP0": "1",
            "C_M_AXI_GP0_DATA_WIDTH": "32", "PCW_EN_CLK0_PORT": "1", "PCW_EN_RST0_PORT": "1",
            "PCW_FPGA0_PERIPHERAL_FREQMHZ": str(self.fclk // 1_000_000),
            "PCW_ACT_FPGA0_PERIPHERAL_FREQMHZ": f"{self.fclk / 1e6:.6f}",
            "PCW_CLK0_FREQ": str(self.fclk), "PCW_IO_IO_PLL_FREQMHZ": "1000.000",
            "PCW_FCLK0_PERIPHERAL_CLKSRC": "IO PLL", "PCW_FCLK0_PERIPHERAL_DIVISOR0": str(div0),
            "PCW_FCLK0_PERIPHERAL_DIVISOR1": str(div1), "PCW_FPGA_FCLK0_ENABLE": "1",
            "PCW_USE_FABRIC_INTERRUPT": "1" if irq else "0", "PCW_IRQ_F2P_INTR": "1" if irq else "0",
            "PCW_NUM_F2P_INTR_INPUTS": "1",
        }
        for i in range(1, 4):
            params |= {f"PCW_FCLK{i}_PERIPHERAL_CLKSRC": "IO PLL", f"PCW_FCLK{i}_PERIPHERAL_DIVISOR0": "1",
                       f"PCW_FCLK{i}_PERIPHERAL_DIVISOR1": "1", f"PCW_FPGA_FCLK{i}_ENABLE": "0"}
        for n in hp:
            params |= {f"PCW_USE_S_AXI_HP{n}": "1", f"PCW_S_AXI_HP{n}_DATA_WIDTH": "64"}
        c = self.add(Cell("processing_system7_0", "xilinx.com:ip:processing_system7:5.5", params,
                          is_ps=True))
        c.port("FCLK_CLK0", "O", 1, "clk", clkfreq=self.fclk)
        c.port("FCLK_RESET0_N", "O", 1, "rst")
        c.port("M_AXI_GP0_ACLK", "I", 1, "clk", clkfreq=self.fclk)
        for n in hp:
            c.port(f"S_AXI_HP{n}_ACLK", "I", 1, "clk", clkfreq=self.fclk)
        if irq:
            c.port("IRQ_F2P", "I", 1, "INTERRUPT", sensitivity="LEVEL_HIGH")
        self.connect("processing_system7_0_FCLK_CLK0", ("processing_system7_0", "FCLK_CLK0"),
                     ("processing_system7_0", "M_AXI_GP0_ACLK"),
                     *[("processing_system7_0", f"S_AXI_HP{n}_ACLK") for n in hp])
        rst = self.add(Cell("rst_ps7_0_100M", "xilinx.com:ip:proc_sys_reset:5.0",
                            {"C_EXT_RST_WIDTH": "4", "C_AUX_RST_WIDTH": "4", "C_NUM_PERP_ARESETN": "1"}))
        rst.port("slowest_sync_clk", "I", 1, "clk", clkfreq=self.fclk)
        rst.port("ext_reset_in", "I", 1, "rst")
        rst.port("peripheral_aresetn", "O", 1, "rst")
        rst.port("interconnect_aresetn", "O", 1, "rst")
        self.clock(("rst_ps7_0_100M", "slowest_sync_clk"))
        self.connect("processing_system7_0_FCLK_RESET0_N", ("processing_system7_0", "FCLK_RESET0_N"),
                     ("rst_ps7_0_100M", "ext_reset_in"))
        return c

    def clock(self, *ends: tuple[str, str]) -> None:
        self.connect("processing_system7_0_FCLK_CLK0", *ends)

    def reset(self, *ends: tuple[str, str]) -> None:
        self.connect("rst_ps7_0_100M_peripheral_aresetn", ("rst_ps7_0_100M", "peripheral_aresetn"), *ends)

    def gp0_slaves(self, slaves: list[tuple[str, str, str, int, int]]) -> None:
        """The PS's GP0 through ``ps7_0_axi_periph`` (an axi_interconnect) to each
        (cell, interface, port prefix, base, size): nets, bus names, the PS's MEMRANGEs."""
        ps = self.cells["processing_system7_0"]
        ic = self.add(Cell("ps7_0_axi_periph", "xilinx.com:ip:axi_interconnect:2.1",
                           {"NUM_SI": "1", "NUM_MI": str(len(slaves))}, modclass="BUS"))
        ic.port("ACLK", "I", 1, "clk", clkfreq=self.fclk)
        ic.port("ARESETN", "I", 1, "rst")
        self.clock(("ps7_0_axi_periph", "ACLK"))
        pm = []
        for sig, _, _ in AXIL:
            w = 32 if sig.endswith("ADDR") else next(x[2] for x in AXIL if x[0] == sig)
            d = "I" if next(x[1] for x in AXIL if x[0] == sig) == "O" else "O"
            ps.port(f"M_AXI_GP0_{sig}", "O" if d == "I" else "I", w if isinstance(w, int) else 32)
            ic.port(f"S00_AXI_{sig.lower()}", "I" if d == "I" else "O", w if isinstance(w, int) else 32)
            self.connect(f"processing_system7_0_M_AXI_GP0_{sig}",
                         ("processing_system7_0", f"M_AXI_GP0_{sig}"), ("ps7_0_axi_periph", f"S00_AXI_{sig.lower()}"))
            pm.append((sig, f"M_AXI_GP0_{sig}"))
        ps.buses.append(Bus("M_AXI_GP0", "MASTER", "xilinx.com:interface:aximm:1.0",
                            "processing_system7_0_M_AXI_GP0", pm))
        for i, (cell, iface, prefix, base, size) in enumerate(slaves):
            c = self.cells[cell]
            bus = next(b for b in c.buses if b.name == iface)
            bus.busname = f"ps7_0_axi_periph_M{i:02d}_AXI"
            for sig, phys in bus.portmap:
                p = next(x for x in c.ports if x.name == phys)
                ic.port(f"M{i:02d}_AXI_{sig.lower()}", "O" if p.dir == "I" else "I", p.width)
                self.connect(f"{cell}_{phys}", (cell, phys), ("ps7_0_axi_periph", f"M{i:02d}_AXI_{sig.lower()}"))
            block = c.block[1] if c.block else "Reg"
            ps.ranges.append({"ADDRESSBLOCK": block, "BASENAME": "C_BASEADDR", "BASEVALUE": f"0x{base:08X}",
                              "HIGHNAME": "C_HIGHADDR", "HIGHVALUE": f"0x{base + size - 1:08X}",
                              "INSTANCE": cell, "IS_DATA": "TRUE", "IS_INSTRUCTION": "TRUE",
                              "MASTERBUSINTERFACE": "M_AXI_GP0", "MEMTYPE": "REGISTER",
                              "SLAVEBUSINTERFACE": iface})
            c.params.setdefault("C_BASEADDR", f"0x{base:08X}")
            c.params.setdefault("C_HIGHADDR", f"0x{base + size - 1:08X}")

    def axil_slave(self, cell: Cell, iface: str, prefix: str, addr_width: int, upper: bool = True) -> None:
        pm = []
        for sig, d, w in AXIL:
            name = prefix + (sig if upper else sig.lower())
            cell.port(name, d, addr_width if w == "A" else w)
            pm.append((sig, name))
        cell.buses.append(Bus(iface, "SLAVE", "xilinx.com:interface:aximm:1.0", "", pm))

    def hp_master(self, cell: Cell, iface: str, prefix: str, channels: list[list[tuple[str, str, object]]],
                  dw: int, hp: int) -> None:
        """A memory-mapped master of ``cell`` into S_AXI_HP``hp`` (through an interconnect in
        Vivado: here its ports' nets go to ``axi_mem_intercon``; the MEMRANGE says where)."""
        pm = []
        for sig, d, w in [x for ch in channels for x in ch]:
            width = dw if w == "D" else dw // 8 if w == "S" else int(w)  # type: ignore[arg-type]
            name = f"{prefix}{sig.lower()}"
            cell.port(name, d, width)
            pm.append((sig, name))
        cell.buses.append(Bus(iface, "MASTER", "xilinx.com:interface:aximm:1.0",
                              f"{cell.instance}_{iface}", pm))
        cell.ranges.append({"ADDRESSBLOCK": f"HP{hp}_DDR_LOWOCM", "BASENAME": "C_BASEADDR",
                            "BASEVALUE": "0x00000000", "HIGHNAME": "C_HIGHADDR", "HIGHVALUE": "0x1FFFFFFF",
                            "INSTANCE": "processing_system7_0", "IS_DATA": "TRUE", "IS_INSTRUCTION": "FALSE",
                            "MASTERBUSINTERFACE": iface, "MEMTYPE": "MEMORY", "SLAVEBUSINTERFACE": f"S_AXI_HP{hp}"})

    def axis(self, src: Cell, src_iface: str, src_prefix: str, dst: Cell, dst_iface: str, dst_prefix: str,
             dw: int = 32, upper: bool = False) -> None:
        """An AXI4-Stream from ``src`` to ``dst`` (one net per signal)."""
        spm, dpm = [], []
        for sig, d, w in AXIS:
            width = dw if w == "D" else dw // 8 if w == "S" else int(w)  # type: ignore[arg-type]
            sname = src_prefix + (sig if upper and src.modtype != "axi_dma" else sig.lower())
            dname = dst_prefix + (sig if upper and dst.modtype != "axi_dma" else sig.lower())
            src.port(sname, d, width)
            dst.port(dname, "I" if d == "O" else "O", width)
            drv = (src.instance, sname) if d == "O" else (dst.instance, dname)
            self.connect(f"{drv[0]}_{drv[1]}", (src.instance, sname), (dst.instance, dname))
            spm.append((sig, sname))
            dpm.append((sig, dname))
        busname = f"{src.instance}_{src_iface}"
        src.buses.append(Bus(src_iface, "INITIATOR", "xilinx.com:interface:axis:1.0", busname, spm))
        dst.buses.append(Bus(dst_iface, "TARGET", "xilinx.com:interface:axis:1.0", busname, dpm))

    # ------------------------------------------------------------------ writing
    def render(self) -> str:
        out = ['\ufeff<?xml version="1.0" encoding="UTF-8" standalone="no" ?>',
               '<EDKSYSTEM EDWVERSION="1.2" TIMESTAMP="Sat Dec  5 00:00:00 2026" VIVADOVERSION="2020.2">',
               "", f'  <SYSTEMINFO ARCH="zynq" DEVICE="7z020" NAME="{self.name}" PACKAGE="clg400" SPEEDGRADE="-1"/>',
               ""]
        if self.external:
            out.append("  <EXTERNALPORTS>")
            for p in self.external:
                out += self._port(p, "external", 4)
            out.append("  </EXTERNALPORTS>")
        else:
            out.append("  <EXTERNALPORTS/>")
        out += ["", "  <EXTERNALINTERFACES/>", "", "  <MODULES>"]
        for c in sorted(self.cells.values(), key=lambda c: c.instance):
            out += self._module(c)
        out += ["  </MODULES>", "", "</EDKSYSTEM>", ""]
        return "\n".join(out)

    def _dir(self, cell: str, port: str) -> str:
        if cell not in self.cells:
            ext = next((x for x in self.external if x.name == port), None)
            return "O" if ext is not None and ext.dir == "I" else "I"
        return next(x.dir for x in self.cells[cell].ports if x.name == port)

    def _port(self, p: Port, cell: str, ind: int) -> list[str]:
        sp = " " * ind
        attrs = []
        if p.clkfreq:
            attrs.append(f'CLKFREQUENCY="{p.clkfreq}"')
        attrs.append(f'DIR="{p.dir}"')
        if p.width > 1:
            attrs.append(f'LEFT="{p.width - 1}"')
        attrs.append(f'NAME="{p.name}"')
        if p.width > 1:
            attrs.append('RIGHT="0"')
        if p.sensitivity:
            attrs.append(f'SENSITIVITY="{p.sensitivity}"')
        attrs.append(f'SIGIS="{p.sigis}"')
        if not p.net:
            return [f"{sp}<PORT {' '.join(attrs)}/>"]
        attrs.append(f'SIGNAME="{p.net}"')
        # as Vivado lists them: an input names its driver, an output its loads
        ends = [(c, n) for c, n in self.nets[p.net]
                if (c, n) != (cell, p.name) and self._dir(c, n) != p.dir]
        lines = [f"{sp}<PORT {' '.join(attrs)}>", f"{sp}  <CONNECTIONS>"]
        lines += [f'{sp}    <CONNECTION INSTANCE="{c}" PORT="{n}"/>' for c, n in ends]
        return lines + [f"{sp}  </CONNECTIONS>", f"{sp}</PORT>"]

    def _module(self, c: Cell) -> list[str]:
        v = c.vlnv.split(":")
        full = c.fullname or "/" + c.instance
        head = (f'    <MODULE COREREVISION="1" FULLNAME="{full}" HWVERSION="{v[3]}" '
                f'INSTANCE="{c.instance}" IPTYPE="{"BUS" if c.modclass == "BUS" else "PERIPHERAL"}" IS_ENABLE="1" '
                + ('IS_PL="FALSE" ' if c.is_ps else f'MODCLASS="{c.modclass}" ')
                + f'MODTYPE="{c.modtype}" VLNV="{c.vlnv}">')
        out = [head]
        if c.block:
            iface, bname, rng, regs = c.block
            out += ["      <ADDRESSBLOCKS>",
                    f'        <ADDRESSBLOCK ACCESS="read-write" INTERFACE="{iface}" NAME="{bname}" RANGE="{rng}" USAGE="register">']
            if regs:
                out.append("          <REGISTERS>")
                for r in regs:
                    out += self._register(r)
                out.append("          </REGISTERS>")
            out += ["        </ADDRESSBLOCK>", "      </ADDRESSBLOCKS>"]
        out.append("      <PARAMETERS>")
        out += [f"        <PARAMETER NAME={quoteattr(k)} VALUE={quoteattr(v)}/>" for k, v in c.params.items()]
        out.append("      </PARAMETERS>")
        out.append("      <PORTS>")
        for p in c.ports:
            out += self._port(p, c.instance, 8)
        out.append("      </PORTS>")
        if c.buses:
            out.append("      <BUSINTERFACES>")
            for b in c.buses:
                bn = f' BUSNAME="{b.busname}"' if b.busname else ""
                out += [f'        <BUSINTERFACE{bn} NAME="{b.name}" TYPE="{b.kind}" VLNV="{b.vlnv}">',
                        "          <PORTMAPS>"]
                out += [f'            <PORTMAP LOGICAL="{lg}" PHYSICAL="{ph}"/>' for lg, ph in b.portmap]
                out += ["          </PORTMAPS>", "        </BUSINTERFACE>"]
            out.append("      </BUSINTERFACES>")
        if c.ranges:
            out.append("      <MEMORYMAP>")
            for r in c.ranges:
                out.append("        <MEMRANGE " + " ".join(f'{k}="{v}"' for k, v in r.items()) + "/>")
            out.append("      </MEMORYMAP>")
        out.append("    </MODULE>")
        return out

    @staticmethod
    def _register(r: Register) -> list[str]:
        sp = " " * 12
        out = [f'{sp}<REGISTER NAME="{r.name}">',
               f'{sp}  <PROPERTY NAME="DESCRIPTION" VALUE={quoteattr(r.description)}/>',
               f'{sp}  <PROPERTY NAME="ADDRESS_OFFSET" VALUE="0x{r.offset:x}"/>',
               f'{sp}  <PROPERTY NAME="SIZE" VALUE="32"/>',
               f'{sp}  <PROPERTY NAME="ACCESS" VALUE="{r.access}"/>',
               f'{sp}  <PROPERTY NAME="IS_ENABLED" VALUE="true"/>',
               f'{sp}  <PROPERTY NAME="RESET_VALUE" VALUE="0x0"/>',
               f"{sp}  <FIELDS>"]
        for name, bit, width, access in r.fields or [(r.name, 0, 32, r.access)]:
            out += [f'{sp}    <FIELD NAME="{name}">',
                    f'{sp}      <PROPERTY NAME="DESCRIPTION" VALUE="{name}"/>',
                    f'{sp}      <PROPERTY NAME="ADDRESS_OFFSET" VALUE="{bit}"/>',
                    f'{sp}      <PROPERTY NAME="ACCESS" VALUE="{access}"/>',
                    f'{sp}      <PROPERTY NAME="MODIFIED_READ_VALUES" VALUE=""/>',
                    f'{sp}      <PROPERTY NAME="WRITE_CONSTRAINT" VALUE="0"/>',
                    f'{sp}      <PROPERTY NAME="READ_ACTION" VALUE=""/>',
                    f'{sp}      <PROPERTY NAME="BIT_OFFSET" VALUE="{bit}"/>',
                    f'{sp}      <PROPERTY NAME="BIT_WIDTH" VALUE="{width}"/>',
                    f"{sp}    </FIELD>"]
        return out + [f"{sp}  </FIELDS>", f"{sp}</REGISTER>"]


if __name__ == "__main__":
    import designs   # noqa: E402 (run as a script from this folder)
    designs.write_all()
