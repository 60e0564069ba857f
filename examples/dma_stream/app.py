"""dma_stream: a block of data streamed through a Verilog core and back with PYNQ's DMA
driver and as buffer parameters of a call, on a PYNQ-Z1 or the simulated board.

The rtl component ``scaler`` (``rtl/stream_scale.v``) computes ``y = gain * x + offset`` on
every 32-bit word of an AXI4-Stream. Its stream ports are on an AXI DMA (``dma:`` in
``system.yaml``): the Xilinx AXI DMA 7.1 in simple mode in the block design, pushpush's
register-compatible ``pp_axi_dma`` on the simulated board. The data path is PYNQ code as a
PYNQ user writes it, unchanged::

    dma = ol.axi_dma_0                      # pynq.lib.dma.DMA, bound by the .hwh's VLNV
    src = pynq.allocate((n,), np.int32)
    dst = pynq.allocate((n,), np.int32)
    dma.sendchannel.transfer(src)
    dma.recvchannel.transfer(dst)
    dma.sendchannel.wait()
    dma.recvchannel.wait()

and the coefficients are a PushPush call into the same core: ``ol.scaler.set_gain(3, -100)``.

The same transform in the other form of bulk data, **buffer parameters**: the core also
exports ``scale: "(src: in i32[], dst: out i32[]) -> u32"``; the call passes two
``pynq.allocate`` buffers, the wrapper's DMA engines stream ``src`` into the core and its
output into ``dst`` over the top's ``buf_axi`` (S_AXI_HP0; the AXI DMA is on S_AXI_HP2), and
the call returns when ``dst`` is written::

    count = ol.scaler.scale(src, dst)       # dst[i] = gain * src[i] + offset; count = n

Checks: both forms equal ``gain * x + offset`` in int32 arithmetic (numpy); the DMA form for
the whole block and for the same block sent in pieces (``recvchannel.transferred`` is the
byte count); the buffer form returns the element count (:func:`run_buffer_args`).

Run: ``pushpush run examples/dma_stream`` (or in a notebook: ``r = main(ol)`` and plot
``r["x"]``, ``r["y"]``, ``r["y_buf"]``).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Optional

import numpy as np


def signal(n: int) -> np.ndarray:
    """``n`` int32 samples: a ramp plus a sine, so a plot shows both."""
    t = np.arange(n)
    return (t * 17 + 20000 * np.sin(2 * np.pi * t / 256)).astype(np.int32)


def model(x: np.ndarray, gain: int, offset: int) -> np.ndarray:
    """What stream_scale computes: gain * x + offset, int32 wraparound."""
    y = np.asarray(x, dtype=np.int64) * gain + offset
    return ((y + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)


def _dma_cycles(ol: Any) -> Optional[Callable[[], int]]:
    """On the simulated board: the exact cycles of the last transfer both ways, from the
    send's LENGTH write to the receive's last write response (the DMA shell's cycle probe
    at page offset 0x1000, docs/pynq.md); None on a board (the Xilinx IP has no probe)."""
    if getattr(getattr(ol, "device", None), "bridge", None) is None:
        return None
    mmio = ol.axi_dma_0.mmio
    return lambda: (mmio.read(0x100C) - mmio.read(0x1000)) % (1 << 32)


def stream(dma: Any, src: Any, dst: Any) -> int:
    """One block through the core with PYNQ's DMA driver; the bytes received."""
    dma.recvchannel.transfer(dst)
    dma.sendchannel.transfer(src)
    dma.sendchannel.wait()
    dma.recvchannel.wait()
    return int(dma.recvchannel.transferred)


def run_buffer_args(ol: Any, x: np.ndarray) -> tuple[np.ndarray, int]:
    """The buffer-parameter form: ``x`` in a ``pynq.allocate`` buffer as ``scale``'s ``src``,
    the core's output in ``dst``; returns (a copy of ``dst``, the count ``scale`` returned).
    Uses the coefficients of the last ``set_gain``."""
    import pynq

    src = pynq.allocate((len(x),), np.int32)
    dst = pynq.allocate((len(x),), np.int32)
    try:
        src[:] = x
        dst[:] = 0
        count = ol.scaler.scale(src, dst)
        return np.array(dst), int(count)
    finally:
        src.freebuffer()
        dst.freebuffer()


def main(ol: Any, *, words: int = 4096, gain: int = 3, offset: int = -100, blocks: int = 4,
         out: Callable[[str], None] = print) -> dict[str, Any]:
    """Stream ``words`` int32 words through the core with the DMA (whole, then in ``blocks``
    pieces) and as buffer parameters of ``scale``, check both against numpy; returns
    ``{"ok", "x", "y" (DMA), "y_buf" (buffers), "cycles", "mb_s", "lines"}``."""
    import pynq

    lines: list[str] = []

    def say(s: str) -> None:
        lines.append(s)
        out(s)

    dma = ol.axi_dma_0
    cycles_of = _dma_cycles(ol)
    linked = ol.system.linked
    clock = float(linked.clock_mhz)
    limit = linked.dmas[0].data_width / 8 * clock     # MB/s per direction: a beat per cycle
    ol.scaler.set_gain(gain, offset)                   # a PushPush call into the core

    x = signal(words)
    src = pynq.allocate((words,), np.int32)
    dst = pynq.allocate((words,), np.int32)
    src[:] = x
    dst[:] = 0
    t0 = time.perf_counter()
    got = stream(dma, src, dst)
    wall = time.perf_counter() - t0
    cycles = cycles_of() if cycles_of else None
    y = np.array(dst)
    want = model(x, gain, offset)
    ok_whole = got == 4 * words and bool((y == want).all())
    rate = (f"{cycles} cycles, {4 * words / (cycles / clock):.1f} MB/s each way at {clock:g} MHz "
            f"(the port's limit: {limit:.0f} MB/s)" if cycles else f"{wall * 1e3:.2f} ms")
    say(f"whole block: {words} words ({4 * words} bytes) each way, {rate}: "
        f"{'matches numpy' if ok_whole else 'MISMATCH'}")

    # the same block in pieces: PYNQ's transfer(buf, start, nbytes)
    dst[:] = 0
    piece = 4 * words // blocks
    for b in range(blocks):
        dma.recvchannel.transfer(dst, start=b * piece, nbytes=piece)
        dma.sendchannel.transfer(src, start=b * piece, nbytes=piece)
        dma.sendchannel.wait()
        dma.recvchannel.wait()
    ok_blocks = bool((np.array(dst) == want).all())
    say(f"in {blocks} blocks of {piece} bytes: {'matches numpy' if ok_blocks else 'MISMATCH'}")

    # the buffer-parameter form of the same transform: one call
    t0 = time.perf_counter()
    y_buf, count = run_buffer_args(ol, x)
    wall = time.perf_counter() - t0
    ok_buf = count == words and bool((y_buf == want).all())
    say(f"buffer parameters: scaler.scale(src, dst) on {words} words in {wall * 1e3:.1f} ms "
        f"(wall), returned {count}: {'matches numpy' if ok_buf else 'MISMATCH'}")
    del src, dst
    return {"ok": ok_whole and ok_blocks and ok_buf, "x": x, "y": y, "y_buf": y_buf,
            "cycles": cycles, "mb_s": (4 * words / (cycles / clock)) if cycles else None,
            "lines": lines}
