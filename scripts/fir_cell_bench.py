"""The audio FIR cell of issue 28: 96 samples through the Verilog FIR, whose coefficient, sample
and sink callbacks (Python) each sleep a random 0-4 ms; N runs on the simulated board, printing
the median/max/min wall time, the wrong outputs and the median simulated cycles per run.

    PYTHONPATH=. python scripts/fir_cell_bench.py 20
    ../shared/tools/busy-host -- python scripts/fir_cell_bench.py 20     # beside busy loops
"""
import os, random, sys, time
import numpy as np
os.environ.setdefault("PUSHPUSH_BOARD", "sim")
import logging
logging.getLogger("pushpush.runtime").setLevel(logging.CRITICAL)
import pushpush.apps as apps
import pushpush.pynq
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
fir_app = apps.load_app("audio_fir")
ol = apps.open_system("audio_fir", progress=lambda *a: None)
b = ol.device.bridge
if os.environ.get("SWW"):
    ol.runtime().serve_while_waiting = os.environ["SWW"] == "1"
rng = random.Random(1)
x = fir_app.test_signal(480)[:96]
coeffs = [1] * 8
times, wrong, cyc = [], 0, []
for r in range(runs):
    it, out = iter(x.tolist()), []
    def d(): time.sleep(rng.uniform(0, 0.004))
    def c(i): d(); return int(coeffs[i])
    def s():
        d(); return next(it)
    def k(v): d(); out.append(v)
    c0 = b.info()["cycle"]
    t = time.monotonic()
    ol.fir.fir(c, s, k, len(coeffs), timeout=600)
    times.append(time.monotonic() - t)
    cyc.append(b.info()["cycle"] - c0)
    wrong += not np.array_equal(np.array(out), fir_app.fir_reference(np.array(coeffs), x))
ts = sorted(times)
print(f"RESULT {os.environ.get('TAG','')} runs={runs} median={ts[len(ts)//2]:.3f} max={ts[-1]:.3f} min={ts[0]:.3f} wrong={wrong} cycles_median={sorted(cyc)[len(cyc)//2]} load={os.getloadavg()[0]:.1f}", flush=True)
ol.free()
