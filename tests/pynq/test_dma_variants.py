"""The DMA-driver form with the other system options: a 64-bit shared interconnect (the DMA
shell's GP0 bridge on a 64-bit bus) and the software windows in DDR (``software_windows:
ddr``: the top's m_axi on S_AXI_HP0, the DMA on S_AXI_HP2), a 64-bit DMA with bursts of 256.
PYNQ's driver moves the data, a PushPush call sets the core, numpy checks the result. And
both forms of bulk data with the windows in DDR: the windows on HP0, the buffer engines on
HP1, the DMA on HP2."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.codegen.fabric import buffer_port  # noqa: E402
from pushpush.link import link  # noqa: E402
from pushpush.spec import load_system  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "dma_stream"


def test_wide_bus_ddr_windows_and_a_64_bit_dma(tmp_path):
    text = (EXAMPLE / "system.yaml").read_text()
    text = text.replace("system: dma_stream", "system: dma_wide\nsoftware_windows: ddr\n"
                        "interconnect: {topology: shared, data_width: 64}")
    text = text.replace("dma: {name: axi_dma_0}", "dma: {name: axi_dma_0, data_width: 64, max_burst: 256}")
    rtl = (EXAMPLE / "rtl" / "stream_scale.v").read_text()
    # the same core on a 64-bit stream: two int32 lanes per beat
    (tmp_path / "rtl").mkdir()
    (tmp_path / "rtl" / "stream_scale.v").write_text(_widen(rtl))
    (tmp_path / "system.yaml").write_text(text)
    linked = link(load_system(tmp_path / "system.yaml"))
    assert linked.software_windows == "ddr" and linked.dmas[0].hp_port == "S_AXI_HP2"
    bit = ppq.write_sim_overlay(linked, tmp_path / "overlay")
    ol = ppq.load(str(bit))
    try:
        ol.scaler.set_gain(5, 3)
        src = pynq.allocate((3001,), np.int32)
        dst = pynq.allocate((3001,), np.int32)
        src[:] = np.arange(3001) - 1500
        dma = ol.axi_dma_0
        dma.recvchannel.transfer(dst)
        dma.sendchannel.transfer(src)
        dma.sendchannel.wait()
        dma.recvchannel.wait()
        assert dma.recvchannel.transferred == 4 * 3001
        assert (dst == 5 * src + 3).all()
        ol.scaler.set_gain(-1, 0)                       # calls still go both ways
        assert ol.counters()["scaler"]["collisions"] == 0
    finally:
        ol.free()


def test_ddr_windows_buffers_on_hp1_and_a_dma_on_hp2(tmp_path):
    text = (EXAMPLE / "system.yaml").read_text()
    text = text.replace("system: dma_stream", "system: dma_ddr_bufs\nsoftware_windows: ddr")
    (tmp_path / "rtl").mkdir()
    (tmp_path / "rtl" / "stream_scale.v").write_text((EXAMPLE / "rtl" / "stream_scale.v").read_text())
    (tmp_path / "system.yaml").write_text(text)
    linked = link(load_system(tmp_path / "system.yaml"))
    assert linked.software_windows == "ddr"
    assert buffer_port(linked) == "S_AXI_HP1" and linked.dmas[0].hp_port == "S_AXI_HP2"
    bit = ppq.write_sim_overlay(linked, tmp_path / "overlay")
    ol = ppq.load(str(bit))
    # bounded in clock cycles, not wall time: 2,600 cycles of this DMA-shell design take ~0.9 s
    # of Icarus CPU, many times that beside busy loops. The longest call, scale of 2,500 words
    # beside a 2,500-word DMA transfer on HP2 through the one simulated memory: 4 cycles a
    # word of either, plus the engines' start; on the simulated board each call waits until
    # then or rt.timeout (5 s) without simulated progress
    ol.runtime().cycles = 4 * (2500 + 2500) + 10_000
    try:
        ol.scaler.set_gain(-3, 11)
        n = 2500
        x = (np.arange(n) * 7919 - 10_000_000).astype(np.int32)
        want = (x.astype(np.int64) * -3 + 11).astype(np.int32)
        src = pynq.allocate((n,), np.int32)
        dst = pynq.allocate((n,), np.int32)
        out = pynq.allocate((n,), np.int32)
        src[:] = x
        dma = ol.axi_dma_0
        dma.recvchannel.transfer(dst)
        dma.sendchannel.transfer(src)
        assert ol.scaler.scale(src, out) == n        # while the DMA transfer runs
        dma.sendchannel.wait()
        dma.recvchannel.wait()
        assert dma.recvchannel.transferred == 4 * n
        assert (dst == want).all() and (out == want).all()
        assert ol.counters()["scaler"]["collisions"] == 0
    finally:
        ol.free()


def _widen(v: str) -> str:
    """stream_scale on 64-bit beats: each 32-bit half scaled alike. Every replacement must
    find its text (an edit of the example fails here, not as a half-widened core)."""
    for old, new in (
            ("input  wire [31:0] s_axis_tdata", "input  wire [63:0] s_axis_tdata"),
            ("input  wire [3:0]  s_axis_tkeep", "input  wire [7:0]  s_axis_tkeep"),
            ("output wire [31:0] m_axis_tdata", "output wire [63:0] m_axis_tdata"),
            ("output wire [3:0]  m_axis_tkeep", "output wire [7:0]  m_axis_tkeep"),
            ("reg [31:0] data_reg;", "reg [63:0] data_reg;"),
            ("reg [3:0]  keep_reg;", "reg [7:0]  keep_reg;"),
            ("data_reg = 32'd0;", "data_reg = 64'd0;"),
            ("keep_reg = 4'd0;", "keep_reg = 8'd0;"),
            ("data_reg <= gain_reg * s_axis_tdata + offset_reg;",
             "data_reg <= {gain_reg * s_axis_tdata[63:32] + offset_reg, "
             "gain_reg * s_axis_tdata[31:0] + offset_reg};")):
        assert v.count(old) == 1, f"stream_scale.v: {old!r} not found once; update _widen"
        v = v.replace(old, new)
    return v
