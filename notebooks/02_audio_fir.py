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
# # audio_fir: a hardware FIR filter with higher-order callbacks
#
# The Verilog component `fir` exports one function,
#
# ```
# fir: "(coeff: (u32) -> i32, src: () -> i32, sink: (i32) -> void, taps: u32) -> void"
# ```
#
# Its configuration, its input and its output are **functions** passed at call time: a
# function value travels as one word (the address of a call endpoint), so the hardware can
# call Python functions, another component's exports, or a lambda lent for one call, with
# no rebuild. Here Python feeds a two-tone test signal through a 32-tap low-pass filter
# and gets the filtered signal back, one callback per coefficient and per sample.

# %%
import logging
import numpy as np
import matplotlib.pyplot as plt
import pushpush.apps as apps
import pushpush.pynq

logging.getLogger("pushpush.runtime").setLevel(logging.CRITICAL)   # the end of a stream is logged as an error
fir_app = apps.load_app("audio_fir")      # examples/audio_fir/app.py: signal, filter design, checks
ol = apps.open_system("audio_fir", progress=print)

# %% [markdown]
# ## The test signal and the filter
#
# A 440 Hz tone plus a 6 kHz tone at 48 kHz (16-bit), and a Hamming-windowed sinc low-pass
# (cut-off 2 kHz) with Q15 coefficients.

# %%
N, TAPS = 480, 32
x = fir_app.test_signal(N)
c = fir_app.lowpass_q15(TAPS)
print("coefficients (Q15):", c.tolist())

# %% [markdown]
# ## Python functions as the filter's input, output and configuration
#
# `ol.export` serves a function of the `host` component; `ol.runtime().exports[name]` is
# the function value the hardware gets.

# %%
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
assert np.array_equal(y, expected)

# %%
t_ms = np.arange(N) / fir_app.FS * 1e3
fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(t_ms, x / 32768, label="input: 440 Hz + 6 kHz", alpha=0.6)
ax.plot(t_ms, y / 32768 ** 2, label="output of the hardware filter (low-pass 2 kHz)", lw=2)
ax.set_xlabel("time (ms)"); ax.set_ylabel("amplitude (full scale)"); ax.legend(loc="upper right")
ax.set_title("audio_fir: samples from Python, through Verilog, back to Python")
plt.show()


# %% [markdown]
# ## Higher-order: lambdas lent for one call, a different filter, no rebuild
#
# Any Python callable can be passed where the signature asks for a function: the runtime
# lends it a slot for the duration of the call. Here a 2-tap difference filter (a high-pass)
# and a moving average, applied to the same hardware.

# %%
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
ax.set_xlabel("sample"); ax.set_ylabel("value (16-bit)"); plt.show()

# %% [markdown]
# ## Every call on a timeline
#
# `with ol.trace(path):` records every call while the block runs, from the wires of the
# simulated board in exact clock cycles, plus the Python runtime's events (docs/trace.md).
# The file opens in [ui.perfetto.dev](https://ui.perfetto.dev); here it is drawn with
# matplotlib: the `coeff()`, `src()` and `sink()` calls nest under `fir.fir`.

# %%
from pushpush.trace.plot import plot_timeline

with ol.trace("audio_fir.trace") as traced:
    run([1, 2, 1], x[:8])
print(traced.summary.text())
fir_call = next(c for c in traced.trace.calls if c.function == "fir.fir")
inner = traced.trace.children(fir_call.id)
assert len(inner) == len(traced.trace.calls) - 1          # every callback under fir.fir
assert sum(c.function.startswith("host.<lambda>") for c in inner) == len(inner)
plot_timeline(traced.trace)
plt.show()

# %% [markdown]
# ## The whole check, as `pushpush run examples/audio_fir` prints it

# %%
result = fir_app.main(ol, samples=240)
assert result["ok"]

# %%
ol.free()
