"""Both forms of bulk data in one system on the simulated board (issue 17): examples/dma_stream
has an AXI DMA for PYNQ's driver (``dma: {name: axi_dma_0}``, on S_AXI_HP2) and, in the same
core, buffer parameters (``scale(src: in i32[], dst: out i32[]) -> u32``, the same
``gain * x + offset``, through the wrapper's engines and the top's ``buf_axi`` on S_AXI_HP0,
which the generated DMA shell passes through).

Checked against numpy: both forms on the same data agree; a buffer call while a DMA transfer
is in flight (the receive channel armed and waiting, and a long transfer both ways under way);
a buffer timeout (``stuck``: its module never reads the stream; the engines' timeout is
shortened to 3000 cycles, ``BUFFER_TIMEOUT``) fails that call with the BUFFER status, and the
system goes on serving calls, buffer calls and DMA transfers.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402
from pynq.lib.dma import DMA  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.codegen.fabric import buffer_port  # noqa: E402
from pushpush.link import load  # noqa: E402
from pushpush.protocol import CallError, ErrorCode  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
YAML = REPO / "examples" / "dma_stream" / "system.yaml"


#: The longest call here in clock cycles: a buffer call of 3,001 words (a word a cycle each
#: way) beside a 16,384-word DMA transfer each way on the other HP port, both served by the
#: one simulated memory: 4 cycles a word of either, plus the engines' start
CALL_CYCLES = 4 * (3001 + 16384) + 10_000


@pytest.fixture(scope="module")
def ol(tmp_path_factory):
    linked = load(YAML)
    bit = ppq.write_sim_overlay(linked, tmp_path_factory.mktemp("dma_buffers"),
                                parameters={"BUFFER_TIMEOUT": 3000})
    overlay = ppq.load(str(bit))
    # every call here is bounded in clock cycles, not wall time (which Icarus beside busy
    # loops stretches many times): on the simulated board each waits until CALL_CYCLES passed
    # or rt.timeout (5 s) went by without simulated progress
    overlay.runtime().cycles = CALL_CYCLES
    yield overlay
    overlay.free()


def _model(x: np.ndarray, gain: int, offset: int) -> np.ndarray:
    return ((x.astype(np.int64) * gain + offset + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)


def _alloc(x: np.ndarray):
    buf = pynq.allocate((len(x),), np.int32)
    buf[:] = x
    return buf


def _wait(dma) -> int:
    dma.sendchannel.wait()
    dma.recvchannel.wait()
    return int(dma.recvchannel.transferred)


def test_one_overlay_has_both_forms(ol):
    linked = ol.system.linked
    (d,) = linked.dmas
    assert d.hp_port == "S_AXI_HP2" and buffer_port(linked) == "S_AXI_HP0"
    assert type(ol.axi_dma_0) is DMA
    assert ol.ip_dict["axi_dma_0"]["type"] == "xilinx.com:ip:axi_dma:7.1"
    rng = np.random.default_rng(17)
    x = rng.integers(-2**31, 2**31, 3001, dtype=np.int64).astype(np.int32)
    ol.scaler.set_gain(-7, 12345)
    want = _model(x, -7, 12345)
    src, dst_dma, dst_buf = _alloc(x), _alloc(np.zeros(3001, np.int32)), _alloc(np.zeros(3001, np.int32))
    dma = ol.axi_dma_0
    dma.recvchannel.transfer(dst_dma)
    dma.sendchannel.transfer(src)
    assert _wait(dma) == 4 * 3001
    assert ol.scaler.scale(src, dst_buf) == 3001
    assert np.array_equal(dst_dma, want) and np.array_equal(dst_buf, want)
    # a numpy array (copied by pushpush) and a part of a buffer: the same numbers
    y = np.zeros(100, np.int32)
    assert ol.scaler.scale(x[:100].copy(), y) == 100 and np.array_equal(y, want[:100])
    assert ol.scaler.scale((src, 10), dst_buf) == 10 and np.array_equal(dst_buf[:10], want[:10])
    assert ol.counters()["scaler"] == {k: 0 for k in ol.counters()["scaler"]}


def test_buffer_call_while_the_receive_channel_waits(ol):
    """S2MM armed (in flight, nothing sent yet): a buffer call runs to completion meanwhile,
    the DMA's receive still waits, then completes with the right data."""
    ol.scaler.set_gain(3, -1)
    x = np.arange(-500, 1500, dtype=np.int32)
    src, dst = _alloc(x), _alloc(np.zeros(len(x), np.int32))
    bsrc, bdst = _alloc(x[::-1].copy()), _alloc(np.zeros(len(x), np.int32))
    dma = ol.axi_dma_0
    dma.recvchannel.transfer(dst)
    assert not dma.recvchannel.idle
    assert ol.scaler.scale(bsrc, bdst) == len(x)
    assert np.array_equal(bdst, _model(x[::-1], 3, -1))
    assert not dma.recvchannel.idle and (dst == 0).all()   # untouched by the buffer call
    dma.sendchannel.transfer(src)
    assert _wait(dma) == 4 * len(x)
    assert np.array_equal(dst, _model(x, 3, -1))


def test_buffer_call_during_a_long_transfer_both_ways(ol):
    """A 64 KiB transfer each way is started (it takes at least 16384 cycles), then buffer
    calls run at the same time through the other HP port; all results match numpy."""
    ol.scaler.set_gain(-2, 5)
    n = 16384
    rng = np.random.default_rng(4)
    x = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    src, dst = _alloc(x), _alloc(np.zeros(n, np.int32))
    dma = ol.axi_dma_0
    dma.recvchannel.transfer(dst)
    dma.sendchannel.transfer(src)
    assert not dma.recvchannel.idle
    outs = []
    for k in range(3):
        b = _alloc(x[k * 700:(k + 1) * 700])
        o = _alloc(np.zeros(700, np.int32))
        assert ol.scaler.scale(b, o) == 700
        outs.append(o)
    assert _wait(dma) == 4 * n
    want = _model(x, -2, 5)
    assert np.array_equal(dst, want)
    for k, o in enumerate(outs):
        assert np.array_equal(o, want[k * 700:(k + 1) * 700])


def test_buffer_timeout_then_both_forms_still_serve(ol):
    """``stuck`` never reads its stream: the engine times out (3000 cycles), the call fails
    with BUFFER naming the buffer; then calls, buffer calls and DMA transfers all work, also
    with a DMA receive armed across the failing call."""
    dma = ol.axi_dma_0
    x = np.arange(64, dtype=np.int32) * 1000 - 7
    src = _alloc(x)
    dst = _alloc(np.zeros(64, np.int32))
    dma.recvchannel.transfer(dst)                     # in flight across the failing call
    with pytest.raises(CallError) as info:
        ol.scaler.stuck(src)
    e = info.value
    assert int(e.code) & 0xFF == ErrorCode.BUFFER & 0xFF and (int(e.code) >> 16) & 7 == 1
    msg = str(e)
    assert "buffer 'src' (in i32[])" in msg and "timed out" in msg and "pp_buf_rd" in msg
    assert "stuck_src_tdata" in msg and "'scaler'" in msg
    ol.scaler.set_gain(5, 1)
    dma.sendchannel.transfer(src)
    assert _wait(dma) == 4 * 64 and np.array_equal(dst, _model(x, 5, 1))
    out = _alloc(np.zeros(64, np.int32))
    assert ol.scaler.scale(src, out) == 64 and np.array_equal(out, _model(x, 5, 1))
    assert ol.scaler.stuck((src, 0)) == 0             # nothing to read: no timeout
    with pytest.raises(CallError, match="timed out"):
        ol.scaler.stuck(src)                           # and again: the engine recovered
    assert ol.scaler.scale(src, out) == 64
    assert ol.counters()["scaler"]["collisions"] == 0
