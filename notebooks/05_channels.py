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
# # channels: RIFFA-style send and receive between Python and Verilog
#
# A **channel** is the simplest interface for a streaming accelerator (RIFFA 2.1): software
# calls `send(data, offset, last)` and `recv()`, the Verilog core sees a FIFO-style port group
# per direction (`CHNL_RX`, `CHNL_RX_ACK`, `CHNL_RX_LEN`, ..., `CHNL_TX_DATA_REN`). In
# pushpush one line of `system.yaml`, `channels: [loop, acc, stuck]`, gives the rtl component
# `hw` three channels; each is two ordinary PushPush exports with buffer parameters, so a
# send is one call (its data moved by the buffer DMA engines) and its completion the return.
# The core, `examples/channels/chnl_demo.v`, is written like RIFFA's tutorial cores.

# %%
import asyncio
import tempfile
from pathlib import Path

import numpy as np
import matplotlib.pyplot as plt
import pushpush.apps as apps
from pushpush.runtime.channels import ChannelTimeout

ol = apps.open_system("channels", progress=print)
rt = ol.runtime()
rt.timeout = 120.0

# %% [markdown]
# ## Loopback: what is sent comes back, at the offset the hardware chose
#
# The `loop` channel echoes each receive transaction (LEN, OFF, LAST) as a transmit
# transaction with the same values: `recv` places the words at that offset.

# %%
loop = rt.channel("hw.loop")
x = np.arange(20, dtype=np.uint32) ** 2
print("sent", loop.send(x, offset=5, last=True), "words")
y = loop.recv()
print(loop.last_recv)
print(y)
assert np.array_equal(y[5:], x) and not y[:5].any()

# %% [markdown]
# ## Both directions at once, from one coroutine
#
# RIFFA's blocking calls need two threads to stream through a core that answers while it
# still receives. Here `asend` and `arecv` run together in one `asyncio.gather` (top-level
# `await` works in Jupyter). The core's FIFO holds 512 words; 8192 go through.

# %%
big = np.random.default_rng(0).integers(0, 2**32, 8192, dtype=np.uint64).astype(np.uint32)
sent, back = await asyncio.gather(loop.asend(big), loop.arecv(capacity=big.size))
assert sent == big.size and np.array_equal(back, big)
print(f"{sent} words there and back, equal")

# %% [markdown]
# ## Grouped transfers: `last`
#
# `last=False` tells the core more is coming. The `acc` channel sums transactions until one
# with `last`, then sends back (sum, count), like the RIFFA paper's Figure 2.

# %%
acc = rt.channel("hw.acc")
acc.send([1, 2, 3], last=False)
acc.send(np.array([100, 200], np.uint32), last=True)
print("(sum, count) =", acc.recv().tolist())

# %% [markdown]
# ## A core that stops reading
#
# `stuck` takes 3 words and then never reads again. The channel's adapter notices that
# nothing moved for 16384 cycles, ends the transfer and reports the words taken: the error
# names the channel, and everything else keeps working.

# %%
try:
    rt.channel("hw.stuck").send(np.arange(40, dtype=np.uint32))
except ChannelTimeout as e:
    print(e)
    print("words taken:", e.words)
print("hw.add(20, 22) =", rt.hw.add(20, 22))
assert loop.send([1, 2, 3]) == 3 and loop.recv().tolist() == [1, 2, 3]

# %%
ol.free()

# %% [markdown]
# ## Bandwidth against transfer size
#
# `pushpush bench channels` measures a channel at full speed (a sink and a source core with
# cycle stamps, `pushpush/bench/rtl/bench_chnl.v`): exact cycles, as a fraction of the bus
# limit (the buffer engines' 32-bit port: 4 bytes per cycle each way). Here a few sizes; the
# full sweep goes to 4 MiB. (On a board this needs the bench overlay; it runs on the
# simulated board.)

# %%
import io

from IPython.display import Image, display
from pushpush.bench.experiments.channels import run_channels

if apps.on_board():
    print("run 'pushpush bench channels' on a PC: it measures the simulated board")
else:
    res = run_channels(Path(tempfile.mkdtemp()), sizes=[4, 64, 1024, 16384, 65536], log=print)
    fig, ax = plt.subplots(figsize=(8, 4))
    for kind, style in (("send", "o-"), ("recv", "s-"), ("both", "^-")):
        pts = [r for r in res["rows"] if r["kind"] == kind]
        ax.semilogx([r["size"] for r in pts], [100 * r["of_limit"] for r in pts], style, label=kind)
    ax.axhline(97, color="grey", ls="--", lw=1, label="RIFFA 2.1: 97 % of achievable")
    ax.set_xlabel("transfer size (bytes)"); ax.set_ylabel("% of the bus limit (exact cycles)")
    ax.set_title("pushpush channels, simulated board"); ax.legend()
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=90)
    display(Image(png.getvalue()))   # (the benchmark switched matplotlib to its file backend)
    plt.close(fig)
    rt_row = next(r for r in res["rows"] if r["kind"] == "round trip")
    print(f"1-word send + 1-word reply: {rt_row['cycles']} cycles in the PL")
