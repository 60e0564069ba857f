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
# # Calls per second
#
# How fast is a PushPush call? The `pingpong` example measures calls of a Verilog function
# `callee.f` made from Verilog (`caller.run(n)`: n chained calls, returns the clock cycles)
# and from Python, for the table *caller kind x callee kind*, as in the PushPush paper's
# Table II.
#
# On a PYNQ-Z1 every number is real. On the simulated board the hardware numbers are exact
# simulated clock cycles (the same as the board's), while Python's calls per second measure
# the speed of the simulation on this machine, not of the board.

# %%
import pushpush.apps as apps
import pushpush.pynq

pingpong = apps.load_app("pingpong")
ol = apps.open_system("pingpong", progress=print)

# %%
result = pingpong.main(ol, hw_n=(10, 200), sw_calls=200)
assert result["ok"]

# %% [markdown]
# ## The table as data

# %%
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
Markdown("\n".join(lines))

# %% [markdown]
# ## Cycles per call against the number of calls
#
# `caller.run(n)` includes starting and returning; the slope is the cost of one call.

# %%
import matplotlib.pyplot as plt
ns = [1, 5, 20, 50]
cycles = [ol.caller.run(n, timeout=120) for n in ns]
plt.figure(figsize=(6, 3))
plt.plot(ns, cycles, "o-")
plt.xlabel("n (chained calls)"); plt.ylabel("clock cycles"); plt.title("caller.run(n)")
plt.show()
print("cycles:", dict(zip(ns, cycles)))

# %%
ol.free()
