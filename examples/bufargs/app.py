"""bufargs: buffer parameters, on a PYNQ-Z1 or the simulated board.

``main(ol)`` takes the loaded overlay (``pushpush.pynq.load`` / ``pushpush.apps.open_system``)
and calls the rtl module ``hw`` with buffers:

* ``hw.scale(src, dst, k)``: two ``pynq.allocate`` buffers (u32); the module streams ``src``
  into ``dst`` times ``k`` through its DMA engines (S_AXI_HP0);
* ``hw.widen(a, b)``: plain numpy arrays (u8 in, i16 out), which pushpush copies into
  temporary ``pynq.allocate`` buffers and back;
* ``hw.stuck(src)``: a module that never reads its stream: the call fails after the
  engine's timeout, naming the buffer and the engine, and the component keeps serving.

Every result is checked. Run: ``pushpush run examples/bufargs`` (or ``main(ol)``).
"""

from __future__ import annotations

import time
from typing import Any


def main(ol: Any) -> dict[str, Any]:
    import numpy as np
    import pynq

    from pushpush.protocol import CallError

    rt = ol.runtime()
    rt.timeout = 120.0
    ok = True
    n = 4096
    src = pynq.allocate(shape=(n,), dtype=np.uint32)
    dst = pynq.allocate(shape=(n,), dtype=np.uint32)
    src[:] = np.arange(n, dtype=np.uint32) * np.uint32(2654435761)
    t = time.monotonic()
    count = rt.hw.scale(src, dst, 3)
    dt = time.monotonic() - t
    good = count == n and bool(np.array_equal(dst, src * np.uint32(3)))
    ok &= good
    print(f"scale: {n} words in and out in {dt * 1e3:.1f} ms ({8 * n / dt / 1e6:.2f} MB/s wall) "
          f"{'ok' if good else 'WRONG'}")

    a = np.arange(1000, dtype=np.uint8)
    b = np.zeros(1000, dtype=np.int16)
    count = rt.hw.widen(a, b)
    good = count == 1000 and bool(np.array_equal(b, a.astype(np.int16) - 128))
    ok &= good
    print(f"widen: 1000 bytes -> 1000 int16 through numpy copies {'ok' if good else 'WRONG'}")

    try:
        rt.hw.stuck(src)
        print("stuck: answered, but its module never reads its stream: WRONG")
        ok = False
    except CallError as e:
        print(f"stuck: {e}")
    good = rt.hw.add(20, 22) == 42
    ok &= good
    print(f"add after it: {'ok' if good else 'WRONG'}")
    return {"ok": ok}
