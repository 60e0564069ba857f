# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Getting started with pushpush
#
# pushpush builds Zynq systems whose Verilog, Python and C components call each other's
# typed functions over AXI, using the PushPush protocol: one AXI burst carries a call to the
# callee, one burst carries the result back, nobody polls the bus.
#
# This notebook goes through the four steps: **describe** a system in YAML, **generate** its
# hardware, **load** it through PYNQ, and **call** functions both ways: Python calling
# Verilog, and Verilog calling Python.

# %%
import pushpush, pushpush.apps as apps
import pushpush.pynq          # registers the simulated board with PYNQ (import before pynq.Overlay)
print("pushpush", pushpush.__version__, "- running on", "a board" if apps.on_board() else "the simulated board")

# %% [markdown]
# ## 1. Describe
#
# The `pingpong` example: a Verilog `callee` exporting `f(x: i32) -> i32`, a Verilog `caller`
# that calls `callee.f` in a loop, and Python on the ARM (`host`) importing both.

# %%
example = apps.find_example("pingpong")
print((example / "system.yaml").read_text())

# %% [markdown]
# Loading checks the description (every mistake reported as `file:line:column`), linking
# gives every component an endpoint window and every function a slot in it:

# %%
from pushpush.spec import load_system
from pushpush.link import link
from pushpush.cli import main as pushpush_cli

linked = link(load_system(str(example / "system.yaml")))
_ = pushpush_cli(["map", str(example / "system.yaml")])   # the same as `pushpush map` in a shell

# %% [markdown]
# ## 2. Generate
#
# `pushpush generate` writes the Verilog wrappers and system top, the system map, a C header,
# a FuseSoC core and the Vivado block design (`pushpush build --target pynq_z1` turns that
# into a bitstream for the board).

# %%
import tempfile
from pathlib import Path
from pushpush.codegen.generate import generate

out = Path(tempfile.mkdtemp(prefix="pingpong-"))
for f in generate(linked, out):
    print(f.relative_to(out))

# %% [markdown]
# ## 3. Load
#
# `pushpush.apps.open_system(name)` picks where the system runs: on a PYNQ-Z1 it loads the
# Vivado build (`<system>.bit`, `.hwh`, `.map.json`) from the system folder's
# `pynq_overlays/<system>/`, else the current folder, else the installed overlays; on any
# other machine it generates the system, compiles it (on Verilator
# when its build is cached, else on Icarus while Verilator builds in the background for
# the next load; `PUSHPUSH_SIM=icarus|verilator` pins one) and starts the **simulated
# board**, a PYNQ device
# that PYNQ talks to exactly as to the real one (`PUSHPUSH_BOARD=sim|pynq` forces the
# choice). Either way you get a `PushPushOverlay`, a `pynq.Overlay` whose attributes are
# the system's functions.
#
# On a board without that build (e.g. right after `pynq get-notebooks pushpush` from a wheel made without Vivado) the next cell stops with what to do: run `pushpush build <system.yaml> --target pynq_z1` on a machine with Vivado and copy the three files it writes into the folder it names.

# %%
ol = apps.open_system("pingpong", progress=print)
ol

# %% [markdown]
# ## 4. Call: Python -> Verilog
#
# An import of the python component is a Python function; arguments and results are
# converted from and to the declared types (`i32`, `u32`, ...).

# %%
print("callee.f(41) =", ol.callee.f(41))
print("callee.f(41) =", ol.callee.f(41), "(the callee keeps a running state)")
cycles = ol.caller.run(10)
print(f"caller.run(10): 10 calls of callee.f from Verilog to Verilog in {cycles} cycles")

# %%
ol.free()   # on the simulated board this stops the simulator

# %% [markdown]
# ## 5. Call: Verilog -> Python
#
# In `audio_fir` a Verilog FIR filter exports
# `fir(coeff: (u32) -> i32, src: () -> i32, sink: (i32) -> void, taps: u32)`: it takes
# *functions* and calls them. Python exports its own `coeff`, `source` and `sink`
# (`ol.export(name, fn)` serves them) and passes them to the hardware, which then calls
# Python for every coefficient and every sample. The stream ends when `source` raises.

# %%
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
print("hardware output:", out)

# %%
import numpy as np
expected = np.convolve([1, 0, 0, 0, 2], coeffs)[:5].tolist()
print("np.convolve:    ", expected)
assert out == expected
ol.free()

# %% [markdown]
# Next: `02_audio_fir.ipynb` (higher-order functions, a real filter and a plot) and
# `03_calls_per_second.ipynb` (how fast calls are).
