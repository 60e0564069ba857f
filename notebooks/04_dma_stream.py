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
# # dma_stream: a block of data through your own Verilog, both ways, in both forms
#
# The Verilog component `scaler` computes `y = gain * x + offset` on every 32-bit word. It
# takes the data in the two forms of bulk data pushpush has:
#
# 1. **PYNQ's DMA driver, unchanged**: its AXI4-Stream ports are on an AXI DMA, declared in
#    `system.yaml` with one line, `dma: {name: axi_dma_0}`. The data path is PYNQ code exactly
#    as a PYNQ notebook writes it: `pynq.allocate`, `ol.axi_dma_0.sendchannel.transfer(...)`,
#    `.wait()`. On a PYNQ-Z1 the DMA is the Xilinx AXI DMA of the block design (on
#    S_AXI_HP2); here, on the simulated board, it is pushpush's register-compatible
#    `pp_axi_dma`, and PYNQ's driver cannot tell.
# 2. **Buffer parameters**: the same core exports `scale: "(src: in i32[], dst: out i32[]) ->
#    u32"`; one call `ol.scaler.scale(src, dst)` streams `src` in and `dst` out through the
#    wrapper's own DMA engines (on S_AXI_HP0) and returns when `dst` is written.

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
# ## The same block as buffer parameters: one call
#
# `scale(src, dst)` uses the coefficients of the last `set_gain`; it returns the number of
# elements it streamed. The DMA and the buffer engines use different HP ports, so both forms
# can be busy at once.

# %%
ol.scaler.set_gain(GAIN, OFFSET)
buf_out = pynq.allocate(shape=(n,), dtype=np.int32)
count = ol.scaler.scale(in_buffer, buf_out)
y_buf = np.array(buf_out)
assert count == n and np.array_equal(y_buf, expected)
print(f"scaler.scale(src, dst): {count} words, equal to numpy and to the DMA's output")

# %%
fig, ax = plt.subplots(figsize=(10, 3.5))
ax.plot(expected, label=f"numpy: {GAIN} x {OFFSET:+d}", lw=6, alpha=0.35)
ax.plot(y, label="DMA driver (recvchannel)", lw=2)
ax.plot(y_buf, "--", label="buffer parameters (scaler.scale)", lw=1.5)
ax.set_xlabel("word"); ax.set_ylabel("int32 value"); ax.legend(loc="upper left")
ax.set_title("dma_stream: both forms of bulk data give numpy's result")
plt.show()

# %% [markdown]
# ## The whole check, as `pushpush run examples/dma_stream` prints it

# %%
result = dma_app.main(ol, words=1024)
assert result["ok"]

# %%
del in_buffer, out_buffer, buf_out
ol.free()
