"""Write the notebooks in notebooks/ (unexecuted) from the cell sources below.

    python scripts/make_notebooks.py        # rewrites notebooks/*.ipynb

The notebooks run unchanged on a PYNQ-Z1 (with the overlays built and pushpush installed:
``pynq get-notebooks pushpush``) and on the simulated board anywhere else; tests/notebooks
executes them against the simulated board.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

OUT = Path(__file__).resolve().parent.parent / "notebooks"

LOAD_NOTE = """\
`pushpush.apps.open_system(name)` picks where the system runs: on a PYNQ-Z1 it loads the
Vivado build shipped in the `pynq_overlays/<system>/` folder (`<system>.bit`, `.hwh`,
`.map.json`); on any other machine it generates the system, compiles it with Icarus
(`PUSHPUSH_SIM=verilator` for Verilator) and starts the **simulated board**, a PYNQ device
that PYNQ talks to exactly as to the real one (`PUSHPUSH_BOARD=sim|pynq` forces the
choice). Either way you get a `PushPushOverlay`, a `pynq.Overlay` whose attributes are
the system's functions.

On a board without that build (e.g. right after `pynq get-notebooks pushpush` from a wheel made without Vivado) the next cell stops with what to do: run `pushpush build <system.yaml> --target pynq_z1` on a machine with Vivado and copy the three files it writes into the folder it names."""

GETTING_STARTED = [
    new_markdown_cell("""\
# Getting started with pushpush

pushpush builds Zynq systems whose Verilog, Python and C components call each other's
typed functions over AXI, using the PushPush protocol: one AXI burst carries a call to the
callee, one burst carries the result back, nobody polls the bus.

This notebook goes through the four steps: **describe** a system in YAML, **generate** its
hardware, **load** it through PYNQ, and **call** functions both ways: Python calling
Verilog, and Verilog calling Python."""),
    new_code_cell("""\
import pushpush, pushpush.apps as apps
import pushpush.pynq          # registers the simulated board with PYNQ (import before pynq.Overlay)
print("pushpush", pushpush.__version__, "- running on", "a board" if apps.on_board() else "the simulated board")"""),
    new_markdown_cell("""\
## 1. Describe

The `pingpong` example: a Verilog `callee` exporting `f(x: i32) -> i32`, a Verilog `caller`
that calls `callee.f` in a loop, and Python on the ARM (`host`) importing both."""),
    new_code_cell("""\
example = apps.find_example("pingpong")
print((example / "system.yaml").read_text())"""),
    new_markdown_cell("""\
Loading checks the description (every mistake reported as `file:line:column`), linking
gives every component an endpoint window and every function a slot in it:"""),
    new_code_cell("""\
from pushpush.spec import load_system
from pushpush.link import link
from pushpush.cli import main as pushpush_cli

linked = link(load_system(str(example / "system.yaml")))
_ = pushpush_cli(["map", str(example / "system.yaml")])   # the same as `pushpush map` in a shell"""),
    new_markdown_cell("""\
## 2. Generate

`pushpush generate` writes the Verilog wrappers and system top, the system map, a C header,
a FuseSoC core and the Vivado block design (`pushpush build --target pynq_z1` turns that
into a bitstream for the board)."""),
    new_code_cell("""\
import tempfile
from pathlib import Path
from pushpush.codegen.generate import generate

out = Path(tempfile.mkdtemp(prefix="pingpong-"))
for f in generate(linked, out):
    print(f.relative_to(out))"""),
    new_markdown_cell("## 3. Load\n\n" + LOAD_NOTE),
    new_code_cell("""\
ol = apps.open_system("pingpong", progress=print)
ol"""),
    new_markdown_cell("""\
## 4. Call: Python -> Verilog

An import of the python component is a Python function; arguments and results are
converted from and to the declared types (`i32`, `u32`, ...)."""),
    new_code_cell("""\
print("callee.f(41) =", ol.callee.f(41))
print("callee.f(41) =", ol.callee.f(41), "(the callee keeps a running state)")
cycles = ol.caller.run(10)
print(f"caller.run(10): 10 calls of callee.f from Verilog to Verilog in {cycles} cycles")"""),
    new_code_cell("ol.free()   # on the simulated board this stops the simulator"),
    new_markdown_cell("""\
## 5. Call: Verilog -> Python

In `audio_fir` a Verilog FIR filter exports
`fir(coeff: (u32) -> i32, src: () -> i32, sink: (i32) -> void, taps: u32)`: it takes
*functions* and calls them. Python exports its own `coeff`, `source` and `sink`
(`ol.export(name, fn)` serves them) and passes them to the hardware, which then calls
Python for every coefficient and every sample. The stream ends when `source` raises."""),
    new_code_cell("""\
import logging
logging.getLogger("pushpush.runtime").setLevel(logging.CRITICAL)   # the end of the stream is logged as an error

ol = apps.open_system("audio_fir", progress=print)
coeffs = [3, -1, 4, 1]
samples = iter([1, 0, 0, 0, 2])
out = []

def source():
    return next(samples)          # StopIteration after the last sample ends the stream

ol.export("coeff", lambda i: coeffs[i])
ol.export("source", source)
ol.export("sink", out.append)
exports = ol.runtime().exports
ol.fir.fir(coeff=exports["coeff"], src=exports["source"], sink=exports["sink"], taps=len(coeffs),
           timeout=120)
print("hardware output:", out)"""),
    new_code_cell("""\
import numpy as np
expected = np.convolve([1, 0, 0, 0, 2], coeffs)[:5].tolist()
print("np.convolve:    ", expected)
assert out == expected
ol.free()"""),
    new_markdown_cell("""\
Next: `02_audio_fir.ipynb` (higher-order functions, a real filter and a plot) and
`03_calls_per_second.ipynb` (how fast calls are)."""),
]

AUDIO_FIR = [
    new_markdown_cell("""\
# audio_fir: a hardware FIR filter with higher-order callbacks

The Verilog component `fir` exports one function,

```
fir: "(coeff: (u32) -> i32, src: () -> i32, sink: (i32) -> void, taps: u32) -> void"
```

Its configuration, its input and its output are **functions** passed at call time: a
function value travels as one word (the address of a call endpoint), so the hardware can
call Python functions, another component's exports, or a lambda lent for one call, with
no rebuild. Here Python feeds a two-tone test signal through a 32-tap low-pass filter
and gets the filtered signal back, one callback per coefficient and per sample."""),
    new_code_cell("""\
import logging
import numpy as np
import matplotlib.pyplot as plt
import pushpush.apps as apps
import pushpush.pynq

logging.getLogger("pushpush.runtime").setLevel(logging.CRITICAL)   # the end of a stream is logged as an error
fir_app = apps.load_app("audio_fir")      # examples/audio_fir/app.py: signal, filter design, checks
ol = apps.open_system("audio_fir", progress=print)"""),
    new_markdown_cell("""\
## The test signal and the filter

A 440 Hz tone plus a 6 kHz tone at 48 kHz (16-bit), and a Hamming-windowed sinc low-pass
(cut-off 2 kHz) with Q15 coefficients."""),
    new_code_cell("""\
N, TAPS = 480, 32
x = fir_app.test_signal(N)
c = fir_app.lowpass_q15(TAPS)
print("coefficients (Q15):", c.tolist())"""),
    new_markdown_cell("""\
## Python functions as the filter's input, output and configuration

`ol.export` serves a function of the `host` component; `ol.runtime().exports[name]` is
the function value the hardware gets."""),
    new_code_cell("""\
samples = iter(x.tolist())
y = []

class EndOfStream(Exception):
    pass

def coeff(i):
    return int(c[i])

def source():
    for v in samples:
        return v
    raise EndOfStream      # fir sees an error answer from src() and finishes

ol.export("coeff", coeff)
ol.export("source", source)
ol.export("sink", y.append)
ex = ol.runtime().exports
ol.fir.fir(coeff=ex["coeff"], src=ex["source"], sink=ex["sink"], taps=TAPS, timeout=600)
y = np.array(y)
expected = fir_app.fir_reference(c, x)
print(len(y), "output samples; equal to np.convolve (int32):", np.array_equal(y, expected))
assert np.array_equal(y, expected)"""),
    new_code_cell("""\
t_ms = np.arange(N) / fir_app.FS * 1e3
fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(t_ms, x / 32768, label="input: 440 Hz + 6 kHz", alpha=0.6)
ax.plot(t_ms, y / 32768 ** 2, label="output of the hardware filter (low-pass 2 kHz)", lw=2)
ax.set_xlabel("time (ms)"); ax.set_ylabel("amplitude (full scale)"); ax.legend(loc="upper right")
ax.set_title("audio_fir: samples from Python, through Verilog, back to Python")
plt.show()"""),
    new_markdown_cell("""\
## Higher-order: lambdas lent for one call, a different filter, no rebuild

Any Python callable can be passed where the signature asks for a function: the runtime
lends it a slot for the duration of the call. Here a 2-tap difference filter (a high-pass)
and a moving average, applied to the same hardware."""),
    new_code_cell("""\
def run(coeffs, signal):
    it, out = iter(signal.tolist()), []
    ol.fir.fir(lambda i: int(coeffs[i]), lambda: next(it), lambda v: out.append(v), len(coeffs),
               timeout=600)
    return np.array(out)

short = x[:96]
diff = run([1, -1], short)
avg = run([1] * 8, short)
assert np.array_equal(diff, fir_app.fir_reference(np.array([1, -1]), short))
assert np.array_equal(avg, fir_app.fir_reference(np.array([1] * 8), short))

fig, ax = plt.subplots(figsize=(10, 3))
ax.plot(short, label="input"); ax.plot(diff, label="x[n] - x[n-1] (high-pass)")
ax.plot(avg / 8, label="8-sample moving average"); ax.legend(loc="upper right")
ax.set_xlabel("sample"); ax.set_ylabel("value (16-bit)"); plt.show()"""),
    new_markdown_cell("## The whole check, as `pushpush run examples/audio_fir` prints it"),
    new_code_cell("""\
result = fir_app.main(ol, samples=240)
assert result["ok"]"""),
    new_code_cell("ol.free()"),
]

CALLS = [
    new_markdown_cell("""\
# Calls per second

How fast is a PushPush call? The `pingpong` example measures calls of a Verilog function
`callee.f` made from Verilog (`caller.run(n)`: n chained calls, returns the clock cycles)
and from Python, for the table *caller kind x callee kind*, as in the PushPush paper's
Table II.

On a PYNQ-Z1 every number is real. On the simulated board the hardware numbers are exact
simulated clock cycles (the same as the board's), while Python's calls per second measure
the speed of the simulation on this machine, not of the board."""),
    new_code_cell("""\
import pushpush.apps as apps
import pushpush.pynq

pingpong = apps.load_app("pingpong")
ol = apps.open_system("pingpong", progress=print)"""),
    new_code_cell("""\
result = pingpong.main(ol, hw_n=(10, 200), sw_calls=200)
assert result["ok"]"""),
    new_markdown_cell("## The table as data"),
    new_code_cell("""\
from IPython.display import Markdown
clock = result["clock_mhz"]
lines = ["| caller | callee | cycles per call | MCalls/s at %g MHz | calls/s (wall clock) |" % clock,
         "| --- | --- | --- | --- | --- |"]
for r in result["rows"]:
    cpc = "%.2f" % r["cycles_per_call"] if r["cycles_per_call"] is not None else "-"
    if r["caller"] == "rtl":
        lines.append(f"| rtl | rtl | {cpc} | {clock / r['cycles_per_call']:.2f} | - |")
    else:
        note = " (simulation speed)" if result["simulated"] else ""
        mcps = "-" if result["simulated"] else "%.4f" % r["mcalls_per_s"]
        lines.append(f"| python | rtl | {cpc} | {mcps} | {result['sw_calls_per_s']:,.0f}{note} |")
for a, b, why in pingpong.NOT_MEASURED:
    lines.append(f"| {a} | {b} | not measured yet | | {why} |")
Markdown("\\n".join(lines))"""),
    new_markdown_cell("""\
## Cycles per call against the number of calls

`caller.run(n)` includes starting and returning; the slope is the cost of one call."""),
    new_code_cell("""\
import matplotlib.pyplot as plt
ns = [1, 5, 20, 50]
cycles = [ol.caller.run(n, timeout=120) for n in ns]
plt.figure(figsize=(6, 3))
plt.plot(ns, cycles, "o-")
plt.xlabel("n (chained calls)"); plt.ylabel("clock cycles"); plt.title("caller.run(n)")
plt.show()
print("cycles:", dict(zip(ns, cycles)))"""),
    new_code_cell("ol.free()"),
]


def write(name: str, cells: list) -> Path:
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })
    nbformat.validate(nb)
    path = OUT / name
    nbformat.write(nb, path)
    return path


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, cells in (("01_getting_started.ipynb", GETTING_STARTED),
                        ("02_audio_fir.ipynb", AUDIO_FIR),
                        ("03_calls_per_second.ipynb", CALLS)):
        print(write(name, cells))


if __name__ == "__main__":
    main()
