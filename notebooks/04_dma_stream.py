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
# # dma_stream: PYNQ's DMA driver, unchanged, against your own stream core
#
# The Verilog component `scaler` computes `y = gain * x + offset` on every 32-bit word of an
# AXI4-Stream. Its stream ports are on an AXI DMA, declared in `system.yaml` with one line,
# `dma: {name: axi_dma_0}`. The data path below is PYNQ code exactly as a PYNQ notebook
# writes it: `pynq.allocate`, `ol.axi_dma_0.sendchannel.transfer(...)`, `.wait()`. On a
# PYNQ-Z1 the DMA is the Xilinx AXI DMA of the block design; here, on the simulated board,
# it is pushpush's register-compatible `pp_axi_dma`, and PYNQ's driver cannot tell.

# %%
import numpy as np
import matplotlib.pyplot as plt
import pynq
import pushpush.apps as apps
import pushpush.pynq

dma_app = apps.load_app("dma_stream")     # examples/dma_stream/app.py: signal, model, checks
ol = apps.open_system("dma_stream", progress=print)

# %% [markdown]
# ## The DMA is PYNQ's own driver
#
# `Overlay` binds `pynq.lib.dma.DMA` to `axi_dma_0` by the VLNV in the `.hwh`
# (`xilinx.com:ip:axi_dma:7.1`, simple mode: `c_include_sg = 0`).

# %%
dma = ol.axi_dma_0
print(type(dma), hex(ol.ip_dict["axi_dma_0"]["phys_addr"]), ol.ip_dict["axi_dma_0"]["type"])

# %% [markdown]
# ## Configure the core with a PushPush call, stream a block both ways

# %%
GAIN, OFFSET = 3, -100
ol.scaler.set_gain(GAIN, OFFSET)

n = 2048
x = dma_app.signal(n)
in_buffer = pynq.allocate(shape=(n,), dtype=np.int32)
out_buffer = pynq.allocate(shape=(n,), dtype=np.int32)
in_buffer[:] = x

dma.sendchannel.transfer(in_buffer)
dma.recvchannel.transfer(out_buffer)
dma.sendchannel.wait()
dma.recvchannel.wait()

y = np.array(out_buffer)
expected = dma_app.model(x, GAIN, OFFSET)
assert dma.recvchannel.transferred == 4 * n
assert np.array_equal(y, expected)
print(f"{n} words through the hardware and back: all equal to {GAIN} * x {OFFSET:+d} (numpy)")

# %%
fig, ax = plt.subplots(figsize=(10, 3.5))
ax.plot(x, label="x: sent by sendchannel (MM2S)")
ax.plot(y, label=f"y: received by recvchannel (S2MM) = {GAIN} x {OFFSET:+d}", lw=2)
ax.set_xlabel("word"); ax.set_ylabel("int32 value"); ax.legend(loc="upper left")
ax.set_title("dma_stream: a block through Verilog with PYNQ's DMA driver")
plt.show()

# %% [markdown]
# ## Another gain, no rebuild; the same block in pieces
#
# `transfer(buffer, start, nbytes)` sends part of a buffer; four pieces give the same
# result as one whole transfer.

# %%
ol.scaler.set_gain(-2, 7)
piece = 4 * n // 4
for k in range(4):
    dma.recvchannel.transfer(out_buffer, start=k * piece, nbytes=piece)
    dma.sendchannel.transfer(in_buffer, start=k * piece, nbytes=piece)
    dma.sendchannel.wait()
    dma.recvchannel.wait()
assert np.array_equal(np.array(out_buffer), dma_app.model(x, -2, 7))
print("in 4 pieces: equal to -2 * x + 7")

# %% [markdown]
# ## The whole check, as `pushpush run examples/dma_stream` prints it
#
# (The buffer-argument form of the same computation, a buffer passed as a function
# argument, comes with buffer arguments in signatures.)

# %%
result = dma_app.main(ol, words=1024)
assert result["ok"]

# %%
del in_buffer, out_buffer
ol.free()
