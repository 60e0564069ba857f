"""The block designs of the foreign-overlay tests, as a PYNQ user would make them in Vivado.

* ``hls_mac``: an HLS AXI-Lite accelerator (``mac``, rtl/mac.v) on GP0 at 0x40000000;
* ``dma_scale``: an AXI DMA (simple mode, on S_AXI_HP0) streaming through an HLS stream
  accelerator (``scale``, rtl/scale.v: control at 0x43C00000) and back, both in the
  hierarchy ``stream`` (``ol.stream.axi_dma``); the DMA's interrupts through an ``xlconcat``
  into an ``axi_intc``;
* ``irq_mac``: ``mac`` with its ``interrupt`` (ap_done) and an ``axi_gpio`` (4 LEDs out, 4
  buttons in, its ``ip2intc_irpt``) into an ``axi_intc`` on the PS's IRQ_F2P.

``write_all()`` writes ``<design>/<design>.hwh`` beside this file (hwhgen.Design.render).
"""

from __future__ import annotations

from pathlib import Path

from hwhgen import AXI4_RD, AXI4_WR, Cell, Design, Port, Register

HERE = Path(__file__).resolve().parent
NAMES = ("hls_mac", "dma_scale", "irq_mac")
#: the AXI DMA's configuration parameters (as resizer.hwh lists them in lower case)
_DMA_CONFIG = ("c_include_sg", "c_enable_multi_channel", "c_num_mm2s_channels", "c_num_s2mm_channels",
               "c_sg_length_width", "c_dlytmr_resolution", "c_prmry_is_aclk_async",
               "c_sg_include_stscntrl_strm", "c_micro_dma", "c_include_mm2s", "c_m_axi_mm2s_data_width",
               "c_m_axis_mm2s_tdata_width", "c_include_mm2s_dre", "c_mm2s_burst_size", "c_include_s2mm",
               "c_sg_use_stsapp_length", "c_m_axi_s2mm_data_width", "c_s_axis_s2mm_tdata_width",
               "c_include_s2mm_dre", "c_s2mm_burst_size", "c_addr_width", "c_increase_throughput")


def _hls_ctrl_regs(args: list[tuple[str, int, str]]) -> list[Register]:
    """The registers Vitis HLS lists in an s_axilite bundle's ADDRESSBLOCK."""
    return [Register("CTRL", 0x0, "read-write", "Control signals",
                     [("AP_START", 0, 1, "read-write"), ("AP_DONE", 1, 1, "read-only"),
                      ("AP_IDLE", 2, 1, "read-only"), ("AP_READY", 3, 1, "read-only"),
                      ("RESERVED_1", 4, 3, "read-only"), ("AUTO_RESTART", 7, 1, "read-write"),
                      ("RESERVED_2", 8, 24, "read-only")]),
            Register("GIER", 0x4, "read-write", "Global Interrupt Enable Register",
                     [("Enable", 0, 1, "read-write"), ("RESERVED", 1, 31, "read-only")]),
            Register("IP_IER", 0x8, "read-write", "IP Interrupt Enable Register",
                     [("CHAN0_INT_EN", 0, 1, "read-write"), ("CHAN1_INT_EN", 1, 1, "read-write"),
                      ("RESERVED", 2, 30, "read-only")]),
            Register("IP_ISR", 0xC, "read-write", "IP Interrupt Status Register",
                     [("CHAN0_INT_ST", 0, 1, "read-write"), ("CHAN1_INT_ST", 1, 1, "read-write"),
                      ("RESERVED", 2, 30, "read-only")])] + \
        [Register(n, off, acc, f"Data signal of {n}") for n, off, acc in args]


def _mac(d: Design, irq: bool) -> Cell:
    c = d.add(Cell("mac_0", "xilinx.com:hls:mac:1.0",
                   {"C_S_AXI_CONTROL_ADDR_WIDTH": "6", "C_S_AXI_CONTROL_DATA_WIDTH": "32"}))
    c.block = ("s_axi_control", "Reg", 65536, _hls_ctrl_regs(
        [("ap_return", 0x10, "read-only"), ("a", 0x18, "write-only"), ("b", 0x20, "write-only"),
         ("c", 0x28, "write-only")]))
    c.port("ap_clk", "I", 1, "clk", clkfreq=d.fclk)
    c.port("ap_rst_n", "I", 1, "rst")
    d.axil_slave(c, "s_axi_control", "s_axi_control_", 6)
    c.port("interrupt", "O", 1, "INTERRUPT", sensitivity="LEVEL_HIGH")
    d.clock(("mac_0", "ap_clk"))
    d.reset(("mac_0", "ap_rst_n"))
    return c


def _intc(d: Design, inputs: list[tuple[str, str]]) -> None:
    """xlconcat_0 of ``inputs`` into axi_intc_0 (on GP0 at 0x41800000) into IRQ_F2P."""
    n = len(inputs)
    cat = d.add(Cell("xlconcat_0", "xilinx.com:ip:xlconcat:2.1",
                     {"NUM_PORTS": str(n), **{f"IN{i}_WIDTH": "1" for i in range(n)},
                      "dout_width": str(n)}))
    for i, (cell, pin) in enumerate(inputs):
        cat.port(f"In{i}", "I", 1, "INTERRUPT", sensitivity="LEVEL_HIGH")
        d.connect(f"{cell}_{pin}", (cell, pin), ("xlconcat_0", f"In{i}"))
    cat.port("dout", "O", n, "INTERRUPT", sensitivity=":".join(["LEVEL_HIGH"] * n))
    intc = d.add(Cell("axi_intc_0", "xilinx.com:ip:axi_intc:4.1",
                      {"C_NUM_INTR_INPUTS": str(n), "C_KIND_OF_INTR": "0xFFFFFFFF",
                       "C_IRQ_IS_LEVEL": "1", "C_IRQ_CONNECTION": "1", "C_HAS_IPR": "1",
                       "C_HAS_SIE": "1", "C_HAS_CIE": "1", "C_HAS_IVR": "1"},
                      modclass="INTERRUPT_CNTLR"))
    intc.block = ("s_axi", "Reg", 512, [])
    intc.port("s_axi_aclk", "I", 1, "clk", clkfreq=d.fclk)
    intc.port("s_axi_aresetn", "I", 1, "rst")
    d.axil_slave(intc, "s_axi", "s_axi_", 9, upper=False)
    intc.port("intr", "I", n, "INTERRUPT", sensitivity=":".join(["LEVEL_HIGH"] * n))
    intc.port("irq", "O", 1, "INTERRUPT", sensitivity="LEVEL_HIGH")
    d.clock(("axi_intc_0", "s_axi_aclk"))
    d.reset(("axi_intc_0", "s_axi_aresetn"))
    d.connect("xlconcat_0_dout", ("xlconcat_0", "dout"), ("axi_intc_0", "intr"))
    d.connect("axi_intc_0_irq", ("axi_intc_0", "irq"), ("processing_system7_0", "IRQ_F2P"))


def hls_mac() -> Design:
    d = Design("hls_mac")
    d.ps7()
    _mac(d, irq=False)
    d.gp0_slaves([("mac_0", "s_axi_control", "s_axi_control_", 0x40000000, 0x10000)])
    return d


def dma_scale() -> Design:
    d = Design("dma_scale")
    d.ps7(hp=(0,), irq=True)
    dma = d.add(Cell("stream_axi_dma", "xilinx.com:ip:axi_dma:7.1", {
        "C_S_AXI_LITE_ADDR_WIDTH": "10", "C_S_AXI_LITE_DATA_WIDTH": "32", "C_DLYTMR_RESOLUTION": "125",
        "C_PRMRY_IS_ACLK_ASYNC": "0", "C_ENABLE_MULTI_CHANNEL": "0", "C_NUM_MM2S_CHANNELS": "1",
        "C_NUM_S2MM_CHANNELS": "1", "C_INCLUDE_SG": "0", "C_SG_INCLUDE_STSCNTRL_STRM": "0",
        "C_SG_USE_STSAPP_LENGTH": "0", "C_SG_LENGTH_WIDTH": "14", "C_M_AXI_SG_ADDR_WIDTH": "32",
        "C_M_AXI_SG_DATA_WIDTH": "32", "C_INCLUDE_MM2S": "1", "C_INCLUDE_MM2S_DRE": "0",
        "C_MM2S_BURST_SIZE": "16", "C_M_AXI_MM2S_ADDR_WIDTH": "32", "C_M_AXI_MM2S_DATA_WIDTH": "32",
        "C_M_AXIS_MM2S_TDATA_WIDTH": "32", "C_INCLUDE_S2MM": "1", "C_INCLUDE_S2MM_DRE": "0",
        "C_S2MM_BURST_SIZE": "16", "C_M_AXI_S2MM_ADDR_WIDTH": "32", "C_M_AXI_S2MM_DATA_WIDTH": "32",
        "C_S_AXIS_S2MM_TDATA_WIDTH": "32", "C_MICRO_DMA": "0", "C_ADDR_WIDTH": "32",
        "C_FAMILY": "zynq", "c_increase_throughput": "0"}, fullname="/stream/axi_dma"))
    # Vivado lists the IP's configuration (lower case) before its HDL generics (C_*); PYNQ's
    # DMA driver reads the lower-case ones
    lower = {k.lower(): v for k, v in dma.params.items() if k.startswith("C_") and k.lower() in _DMA_CONFIG}
    dma.params = {**lower, **dma.params}
    dma.block = ("S_AXI_LITE", "Reg", 4096, [])
    for clk in ("s_axi_lite_aclk", "m_axi_mm2s_aclk", "m_axi_s2mm_aclk"):
        dma.port(clk, "I", 1, "clk", clkfreq=d.fclk)
        d.clock(("stream_axi_dma", clk))
    dma.port("axi_resetn", "I", 1, "rst")
    d.reset(("stream_axi_dma", "axi_resetn"))
    d.axil_slave(dma, "S_AXI_LITE", "s_axi_lite_", 10, upper=False)
    d.hp_master(dma, "M_AXI_MM2S", "m_axi_mm2s_", [AXI4_RD], 32, 0)
    d.hp_master(dma, "M_AXI_S2MM", "m_axi_s2mm_", [AXI4_WR], 32, 0)
    dma.port("mm2s_prmry_reset_out_n", "O", 1, "rst")
    dma.port("s2mm_prmry_reset_out_n", "O", 1, "rst")
    sc = d.add(Cell("stream_scale", "xilinx.com:hls:scale:1.0",
                    {"C_S_AXI_CONTROL_ADDR_WIDTH": "5", "C_S_AXI_CONTROL_DATA_WIDTH": "32"},
                    fullname="/stream/scale"))
    sc.block = ("s_axi_control", "Reg", 65536, [Register("gain", 0x10, "read-write", "Data signal of gain")])
    sc.port("ap_clk", "I", 1, "clk", clkfreq=d.fclk)
    sc.port("ap_rst_n", "I", 1, "rst")
    d.clock(("stream_scale", "ap_clk"))
    d.reset(("stream_scale", "ap_rst_n"))
    d.axis(dma, "M_AXIS_MM2S", "m_axis_mm2s_", sc, "in_r", "in_r_", upper=True)
    sc.port("in_r_TSTRB", "I", 4)
    d.axis(sc, "out_r", "out_r_", dma, "S_AXIS_S2MM", "s_axis_s2mm_", upper=True)
    sc.port("out_r_TSTRB", "O", 4)
    d.axil_slave(sc, "s_axi_control", "s_axi_control_", 5)
    dma.port("mm2s_introut", "O", 1, "INTERRUPT", sensitivity="LEVEL_HIGH")
    dma.port("s2mm_introut", "O", 1, "INTERRUPT", sensitivity="LEVEL_HIGH")
    _intc(d, [("stream_axi_dma", "mm2s_introut"), ("stream_axi_dma", "s2mm_introut")])
    d.gp0_slaves([("stream_axi_dma", "S_AXI_LITE", "s_axi_lite_", 0x40400000, 0x10000),
                  ("axi_intc_0", "s_axi", "s_axi_", 0x41800000, 0x10000),
                  ("stream_scale", "s_axi_control", "s_axi_control_", 0x43C00000, 0x10000)])
    return d


def irq_mac() -> Design:
    d = Design("irq_mac")
    d.ps7(irq=True)
    _mac(d, irq=True)
    g = d.add(Cell("axi_gpio_0", "xilinx.com:ip:axi_gpio:2.0", {
        "C_FAMILY": "zynq", "C_S_AXI_ADDR_WIDTH": "9", "C_S_AXI_DATA_WIDTH": "32",
        "C_GPIO_WIDTH": "4", "C_GPIO2_WIDTH": "4", "C_ALL_INPUTS": "0", "C_ALL_INPUTS_2": "1",
        "C_ALL_OUTPUTS": "1", "C_ALL_OUTPUTS_2": "0", "C_INTERRUPT_PRESENT": "1",
        "C_DOUT_DEFAULT": "0x00000000", "C_TRI_DEFAULT": "0xFFFFFFFF", "C_IS_DUAL": "1",
        "C_DOUT_DEFAULT_2": "0x00000000", "C_TRI_DEFAULT_2": "0xFFFFFFFF"}))
    g.block = ("S_AXI", "Reg", 512, [])
    g.port("s_axi_aclk", "I", 1, "clk", clkfreq=d.fclk)
    g.port("s_axi_aresetn", "I", 1, "rst")
    d.clock(("axi_gpio_0", "s_axi_aclk"))
    d.reset(("axi_gpio_0", "s_axi_aresetn"))
    d.axil_slave(g, "S_AXI", "s_axi_", 9, upper=False)
    g.port("ip2intc_irpt", "O", 1, "INTERRUPT", sensitivity="LEVEL_HIGH")
    g.port("gpio_io_o", "O", 4, net="axi_gpio_0_gpio_io_o")
    g.port("gpio2_io_i", "I", 4, net="btns_4bits_tri_i")
    d.nets["axi_gpio_0_gpio_io_o"] = [("axi_gpio_0", "gpio_io_o"), ("External_Ports", "leds_4bits_tri_o")]
    d.nets["btns_4bits_tri_i"] = [("axi_gpio_0", "gpio2_io_i"), ("External_Ports", "btns_4bits_tri_i")]
    d.external = [Port("btns_4bits_tri_i", "I", 4, "undef", "btns_4bits_tri_i"),
                  Port("leds_4bits_tri_o", "O", 4, "undef", "axi_gpio_0_gpio_io_o")]
    _intc(d, [("mac_0", "interrupt"), ("axi_gpio_0", "ip2intc_irpt")])
    d.gp0_slaves([("mac_0", "s_axi_control", "s_axi_control_", 0x40000000, 0x10000),
                  ("axi_gpio_0", "S_AXI", "s_axi_", 0x41200000, 0x10000),
                  ("axi_intc_0", "s_axi", "s_axi_", 0x41800000, 0x10000)])
    return d


def render(name: str) -> str:
    return {"hls_mac": hls_mac, "dma_scale": dma_scale, "irq_mac": irq_mac}[name]().render()


def write_all() -> None:
    for name in NAMES:
        folder = HERE / name
        folder.mkdir(exist_ok=True)
        (folder / f"{name}.hwh").write_text(render(name), encoding="utf-8")
