"""Component 'prog' of tests/pynq/systems/fir_reply_timeout.yaml, attached to the simulated
board from its own process (tests/pynq/test_rtl_reply_timeout.py). Modes (argv[1]):

  die exit   fir.fir with lent functions; inside the first coeff() callback print "IN COEFF"
             and exit at once (os._exit): the call fir made is never answered
  die hang   the same, but the callback blocks: the test kills us (kill -9)
  calls      fir.fir([3, -1], [1, 2, 3, 4]); print "YS <outputs>" and "ALL OK"
"""

from __future__ import annotations

import os
import sys
import time

from pushpush.pynq.simulated.c_programs import attach_runtime


def main() -> int:
    rt = attach_runtime("prog", timeout=600.0)   # the bound that matters is in cycles
    if sys.argv[1] == "die":
        how = sys.argv[2]

        def coeff(i: int) -> int:
            print("IN COEFF", flush=True)
            if how == "exit":
                os._exit(3)
            time.sleep(3600)
            return 0
        rt.fir.fir(coeff, lambda: 1, lambda y: None, 2)
        print("returned", flush=True)
        return 1
    xs, ys = iter([1, 2, 3, 4]), []
    rt.fir.fir(lambda i: [3, -1][i], lambda: next(xs), ys.append, 2)
    print("YS " + " ".join(str(y) for y in ys), flush=True)
    print("ALL OK", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
