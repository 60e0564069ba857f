"""The DMA-driver form on the simulated board (issue 17, item 3): PYNQ's own, unmodified
``pynq.lib.dma.DMA`` drives the system's AXI DMA (``dma:`` in ``examples/dma_stream``:
``pp_axi_dma`` on the simulated board, the Xilinx AXI DMA 7.1 in the block design) against
the user's stream core ``stream_scale`` (y = gain * x + offset per 32-bit word, TLAST and
TKEEP passed through), with PushPush calls (``set_gain``, ``set_stall``) into the same core.

Checked against numpy: lengths from one word to 256 KiB, byte lengths and start addresses
that are not word aligned (DRE), the user core stalling its input at random (back-pressure
on MM2S, and S2MM waiting on the core), and transfers that never complete: PYNQ's
``wait()`` has no timeout, the simulated board's DMA watchdog (``pushpush.pynq.simulated.dma``)
raises naming the DMA and channel, and the system goes on serving calls and transfers.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402
from pynq.lib.dma import DMA  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.link import load  # noqa: E402
from pushpush.pynq.simulated.dma import DmaTimeoutError  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
YAML = REPO / "examples" / "dma_stream" / "system.yaml"


@pytest.fixture(scope="module")
def ol(tmp_path_factory):
    linked = load(YAML)
    bit = ppq.write_sim_overlay(linked, tmp_path_factory.mktemp("dma_stream"))
    overlay = ppq.load(str(bit))
    yield overlay
    overlay.free()


def _stream(ol, src, dst, nbytes: int = 0, start: int = 0):
    dma = ol.axi_dma_0
    dma.recvchannel.transfer(dst, start=start, nbytes=nbytes)
    dma.sendchannel.transfer(src, start=start, nbytes=nbytes)
    dma.sendchannel.wait()
    dma.recvchannel.wait()
    return dma.recvchannel.transferred


def _model(x: np.ndarray, gain: int, offset: int) -> np.ndarray:
    return ((x.astype(np.int64) * gain + offset + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)


def test_overlay_binds_pynqs_dma_driver_by_vlnv(ol):
    linked = ol.system.linked
    (d,) = linked.dmas
    assert type(ol.axi_dma_0) is DMA                     # PYNQ's own class, from the .hwh
    assert ol.ip_dict["axi_dma_0"]["type"] == "xilinx.com:ip:axi_dma:7.1"
    assert ol.ip_dict["axi_dma_0"]["phys_addr"] == d.base == 0x4040_0000
    params = ol.ip_dict["axi_dma_0"]["parameters"]
    assert params["c_include_sg"] == "0" and params["c_sg_length_width"] == "26"
    assert ol.axi_dma_0.sendchannel._dre and ol.axi_dma_0.recvchannel._dre


@pytest.mark.parametrize("words", [1, 2, 17, 256, 4099, 65536])
def test_words_through_the_core_match_numpy(ol, words):
    gain, offset = -3 + words % 7, 1000 - words
    ol.scaler.set_gain(gain, offset)
    rng = np.random.default_rng(words)
    src = pynq.allocate((words,), np.int32)
    dst = pynq.allocate((words + 4,), np.int32)
    src[:] = rng.integers(-2**31, 2**31, words, dtype=np.int64).astype(np.int32)
    dst[:] = 0x5A5A5A5A
    assert _stream(ol, src, dst, nbytes=4 * words) == 4 * words
    assert (dst[:words] == _model(src, gain, offset)).all()
    assert (dst[words:] == 0x5A5A5A5A).all()             # nothing written past the packet
    del src, dst


@pytest.mark.parametrize("nbytes,start", [(1, 0), (3, 1), (5, 2), (1023, 3), (4097, 1)])
def test_unaligned_lengths_and_addresses(ol, nbytes, start):
    ol.scaler.set_gain(1, 0)                              # the identity: bytes pass unchanged
    rng = np.random.default_rng(nbytes)
    src = pynq.allocate((nbytes + 8,), np.uint8)
    dst = pynq.allocate((nbytes + 8,), np.uint8)
    src[:] = rng.integers(0, 256, nbytes + 8)
    dst[:] = 0xEE
    assert _stream(ol, src, dst, nbytes=nbytes, start=start) == nbytes
    assert (dst[start:start + nbytes] == src[start:start + nbytes]).all()
    assert (dst[:start] == 0xEE).all() and (dst[start + nbytes:] == 0xEE).all()


def test_back_pressure_from_a_stalling_core(ol):
    cycle = lambda: int(ol.device.bridge.info()["cycle"])  # noqa: E731
    words = 1000
    src = pynq.allocate((words,), np.int32)
    dst = pynq.allocate((words,), np.int32)
    src[:] = np.arange(words, dtype=np.int32) * 7 - 5000
    ol.scaler.set_gain(5, -1)
    spans = []
    for mask in (0, 0x1, 0x3):      # the core's input stalls never, in 1/2, in 3/4 of the cycles
        ol.scaler.set_stall(mask)
        dst[:] = 0
        c0 = cycle()
        assert _stream(ol, src, dst) == 4 * words
        spans.append(cycle() - c0)
        assert (dst == _model(src, 5, -1)).all(), hex(mask)
    ol.scaler.set_stall(0)
    assert spans[0] < spans[1] < spans[2]                   # the stalls really slowed it


def test_the_channels_have_the_dma_interrupts(ol):
    # the .hwh wires mm2s_introut/s2mm_introut through xlconcat_0 into axi_intc_0 (inputs 1
    # and 2; the top's irq keeps input 0), so PYNQ's driver gives each channel its interrupt
    intr = ol.ip_dict["axi_dma_0"]["interrupts"]
    assert {k: v["index"] for k, v in intr.items()} == {"mm2s_introut": 1, "s2mm_introut": 2}
    assert ol.interrupt_pins["system_top_0/irq"]["index"] == 0
    assert ol.axi_dma_0.sendchannel._interrupt is not None
    assert ol.axi_dma_0.recvchannel._interrupt is not None
    assert ol.device.interrupts.intc.inputs == 3


def test_wait_async_on_both_channels(ol):
    """PYNQ's ``wait_async()`` on both channels in one asyncio loop: each sleeps on its
    channel's interrupt (the DMA's IOC through axi_intc_0 and the simulated GIC/UIO) until
    the channel is idle, then clears the DMA's interrupt; results checked against numpy."""
    dma = ol.axi_dma_0
    irq = ol.device.interrupts
    ol.scaler.set_gain(3, -7)
    ol.scaler.set_stall(0x3)              # the core takes 1 word in 4 cycles: the waits sleep
    rounds = []

    async def main() -> None:
        for words in (1, 1000, 4099):
            src = pynq.allocate((words,), np.int32)
            dst = pynq.allocate((words,), np.int32)
            src[:] = np.arange(words, dtype=np.int32) * 11 - 300
            dst[:] = 0
            fired = irq.uio.count
            dma.recvchannel.transfer(dst)
            dma.sendchannel.transfer(src)
            await asyncio.wait_for(asyncio.gather(dma.sendchannel.wait_async(),
                                                  dma.recvchannel.wait_async()), 120)
            rounds.append((words, src, dst, dma.recvchannel.transferred, irq.uio.count - fired,
                           ol.device.bridge.irq_state()[0]))

    try:
        asyncio.run(main())
    finally:
        ol.scaler.set_stall(0)
    for words, src, dst, transferred, fired, lines in rounds:
        assert transferred == 4 * words
        assert (dst == _model(src, 3, -7)).all(), words
        assert lines & 0b110 == 0          # PYNQ cleared both channels' IOC: lines 1, 2 low
    assert rounds[-1][4] >= 1              # the long transfer woke its waiters by interrupt
    for off in (0x04, 0x34):               # DMASR: IOC_Irq cleared, channel idle
        sr = dma.mmio.read(off)
        assert sr & 0x1000 == 0 and sr & 0x2


def test_a_receive_that_never_completes_raises_and_the_system_goes_on(ol):
    dma = ol.axi_dma_0
    ol.device.dma_timeout_cycles = 20_000
    try:
        dst = pynq.allocate((64,), np.int32)
        dma.recvchannel.transfer(dst)                      # nothing is sent: no TLAST ever
        with pytest.raises(DmaTimeoutError) as e:
            dma.recvchannel.wait()
        msg = str(e.value)
        assert "axi_dma_0.recvchannel" in msg and "S2MM" in msg and "256 bytes" in msg
        assert "'scaler'" in msg and "TLAST" in msg and "stop" in msg
        # the system still serves PushPush calls, and the channel works after stop/start
        ol.scaler.set_gain(2, 1)
        dma.recvchannel.stop()
        dma.recvchannel.start()
        src = pynq.allocate((64,), np.int32)
        src[:] = np.arange(64)
        assert _stream(ol, src, dst) == 256
        assert (dst == 2 * src + 1).all()
    finally:
        ol.device.dma_timeout_cycles = None


def test_a_send_the_core_never_takes_raises_then_drains(ol):
    dma = ol.axi_dma_0
    ol.device.dma_timeout_cycles = 20_000
    try:
        ol.scaler.set_gain(1, 1)
        ol.scaler.set_stall(0xFFFF_FFFF)                    # the core takes nothing
        src = pynq.allocate((100,), np.int32)
        dst = pynq.allocate((100,), np.int32)
        src[:] = np.arange(100)
        dma.sendchannel.transfer(src)
        with pytest.raises(DmaTimeoutError, match=r"axi_dma_0\.sendchannel \(MM2S"):
            dma.sendchannel.wait()
        # let the core take the stream again: the same transfer finishes into a receive
        ol.scaler.set_stall(0)
        dma.recvchannel.transfer(dst)
        dma.sendchannel.wait()
        dma.recvchannel.wait()
        assert dma.recvchannel.transferred == 400
        assert (dst == src + 1).all()
    finally:
        ol.device.dma_timeout_cycles = None
        ol.scaler.set_stall(0)
