"""A PYNQ notebook for the 'dma_scale' overlay (an AXI DMA streaming through an HLS stream
accelerator and back), exactly as it would run on a PYNQ-Z1 next to dma_scale.bit and
dma_scale.hwh: no pushpush import. tests/pynq/test_foreign.py runs it unchanged on the
simulated board."""
import asyncio

import numpy as np
from pynq import Overlay, allocate

ol = Overlay("dma_scale.bit")
dma = ol.stream.axi_dma          # a hierarchy of the block design
scale = ol.stream.scale
scale.register_map.gain = 3
assert int(scale.register_map.gain) == 3

n = 1000
src = allocate(shape=(n,), dtype=np.uint32)
dst = allocate(shape=(n,), dtype=np.uint32)
src[:] = np.arange(n, dtype=np.uint32) * 7 + 1
src.flush()
dma.sendchannel.transfer(src)
dma.recvchannel.transfer(dst)
dma.sendchannel.wait()
dma.recvchannel.wait()
dst.invalidate()
assert np.array_equal(dst, src * 3), (dst[:8], src[:8])

# again with another gain, sleeping on the DMA's interrupts (axi_intc) instead of polling
scale.write(0x10, 5)
dst[:] = 0
dst.flush()


async def both() -> None:
    dma.recvchannel.transfer(dst)
    dma.sendchannel.transfer(src)
    await asyncio.wait_for(asyncio.gather(dma.sendchannel.wait_async(),
                                          dma.recvchannel.wait_async()), timeout=60)

asyncio.run(both())
dst.invalidate()
assert np.array_equal(dst, src * 5), (dst[:8], src[:8])
print("dma_scale: ok", int(dst[-1]))
del src, dst
ol.free()
