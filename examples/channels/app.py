"""channels: RIFFA-style send/recv between Python and an rtl core, on a PYNQ-Z1 or the
simulated board (docs/rtl-ports.md and docs/runtime.md, "Channels").

``main(ol)`` takes the loaded overlay (``pushpush.pynq.load`` / ``pushpush.apps.open_system``)
and drives the three channels of ``hw`` (examples/channels/chnl_demo.v, written like RIFFA
2.1's tutorial cores):

* ``loop``: what is sent comes back, at the offset and with the ``last`` of the send; a
  transfer larger than the core's FIFO streams both ways at once with ``asend``/``arecv``;
* ``acc``: sends grouped with ``last=False`` are summed; the one with ``last=True`` makes
  the core send back (sum, count), the RIFFA paper's Figure 2 idea;
* ``stuck``: a core that takes 3 words and stops reading: the send fails after the
  adapter's timeout with a ``ChannelTimeout`` naming the channel and the 3 words, and the
  system keeps serving (``add`` and ``loop`` after it).

Every result is checked. Run: ``pushpush run examples/channels`` (or ``main(ol)``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any


def main(ol: Any) -> dict[str, Any]:
    import numpy as np

    from pushpush.runtime.channels import ChannelTimeout

    rt = ol.runtime()
    rt.timeout = 120.0
    ok = True

    loop = rt.channel("hw.loop")
    x = np.arange(300, dtype=np.uint32) * np.uint32(2654435761)
    n = loop.send(x, offset=4, last=True)
    y = loop.recv()
    good = n == 300 and len(y) == 304 and bool(np.array_equal(y[4:], x))
    ok &= good
    print(f"loop: sent {n} words at offset 4, received {loop.last_recv} {'ok' if good else 'WRONG'}")

    big = np.random.default_rng(1).integers(0, 1 << 32, 1 << 12, dtype=np.uint64).astype(np.uint32)

    async def both() -> tuple[int, Any]:
        return await asyncio.gather(loop.asend(big), loop.arecv(capacity=big.size))

    t = time.monotonic()
    sent, back = asyncio.run(both())
    dt = time.monotonic() - t
    good = sent == big.size and bool(np.array_equal(back, big))
    ok &= good
    print(f"loop: {big.size} words both ways at once (asyncio) in {dt:.2f} s "
          f"({8 * big.size / dt / 1e6:.2f} MB/s wall) {'ok' if good else 'WRONG'}")

    acc = rt.channel("hw.acc")
    acc.send([1, 2, 3], last=False)
    acc.send([10, 20], last=True)
    r = acc.recv().tolist()
    good = r == [36, 5]
    ok &= good
    print(f"acc: [1, 2, 3] + [10, 20] -> (sum, count) = {r} {'ok' if good else 'WRONG'}")

    try:
        rt.channel("hw.stuck").send(np.arange(40, dtype=np.uint32))
        print("stuck: the send completed, but the core stops reading after 3 words: WRONG")
        ok = False
    except ChannelTimeout as e:
        good = e.words == 3
        ok &= good
        print(f"stuck: {e} {'ok' if good else 'WRONG'}")
    good = rt.hw.add(20, 22) == 42 and loop.send([5]) == 1 and loop.recv().tolist() == [5]
    ok &= good
    print(f"add and loop after it: {'ok' if good else 'WRONG'}")
    return {"ok": ok}
