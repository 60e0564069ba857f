"""pushpush.runtime.buffers without a board: what each kind of buffer argument becomes, the
cache maintenance and copies around the call, and the errors (end to end on the simulated
board: tests/pynq/test_buffers.py)."""

from __future__ import annotations

import numpy as np
import pytest

from pushpush.runtime.buffers import prepare_buffers
from pushpush.types import codec_of, parse_signature

CODEC = codec_of(parse_signature("(src: in u16[], dst: out u16[], k: u32) -> u32"))


class FakeBuffer(np.ndarray):
    """What a pynq.allocate buffer offers: physical_address, flush, invalidate, freebuffer."""

    log: list = []

    def __new__(cls, n, dtype, phys):
        self = np.zeros(n, dtype).view(cls)
        self.phys = phys
        return self

    def __array_finalize__(self, obj):
        self.phys = getattr(obj, "phys", 0)

    @property
    def physical_address(self):
        return self.phys

    def flush(self):
        FakeBuffer.log.append(("flush", self.phys))

    def invalidate(self):
        FakeBuffer.log.append(("invalidate", self.phys))

    def freebuffer(self):
        FakeBuffer.log.append(("free", self.phys))


def allocator():
    made = []

    def allocate(n, dtype):
        made.append(FakeBuffer(n, dtype, 0x1000_0000 + 0x1000 * len(made)))
        return made[-1]
    return allocate, made


def test_allocated_buffers_pass_through_with_cache_maintenance():
    FakeBuffer.log = []
    src, dst = FakeBuffer(8, np.uint16, 0x2000_0000), FakeBuffer(8, np.uint16, 0x2100_0000)
    args, kwargs, after = prepare_buffers(CODEC, "hw.f", [src], {"dst": (dst, 5), "k": 3}, None, True)
    assert args == [(0x2000_0000, 8)] and kwargs == {"dst": (0x2100_0000, 5), "k": 3}
    assert FakeBuffer.log == [("flush", 0x2000_0000)]        # in: flushed before the call
    after(True)
    assert FakeBuffer.log[-1] == ("invalidate", 0x2100_0000)  # out: invalidated after it
    assert CODEC.encode_args(args, kwargs) == [0x2000_0000, 8, 0x2100_0000, 5, 3]


def test_numpy_arrays_are_copied_in_and_back():
    FakeBuffer.log = []
    allocate, made = allocator()
    src = np.arange(6, dtype=np.uint16)
    dst = np.zeros((2, 3), dtype=np.uint16)
    args, _, after = prepare_buffers(CODEC, "hw.f", [src, dst, 1], {}, allocate, True)
    assert args[:2] == [(0x1000_0000, 6), (0x1000_1000, 6)]
    assert list(made[0]) == list(range(6)) and ("flush", 0x1000_0000) in FakeBuffer.log
    made[1][:] = [9, 8, 7, 6, 5, 4]       # what the PL wrote
    after(True)
    assert dst.tolist() == [[9, 8, 7], [6, 5, 4]]
    assert ("free", 0x1000_0000) in FakeBuffer.log and ("free", 0x1000_1000) in FakeBuffer.log


def test_failed_call_frees_without_copying_back():
    allocate, made = allocator()
    dst = np.ones(4, dtype=np.uint16)
    _, _, after = prepare_buffers(CODEC, "hw.f", [np.zeros(4, np.uint16), dst, 1], {}, allocate, True)
    made[1][:] = 7
    FakeBuffer.log = []
    after(False)
    assert dst.tolist() == [1, 1, 1, 1]
    assert sorted(FakeBuffer.log) == [("free", 0x1000_0000), ("free", 0x1000_1000)]


@pytest.mark.parametrize("args,copy,alloc,exc,fragment", [
    ([np.zeros(4, np.int16), (0, 0), 1], True, True, TypeError,
     "argument 'src' (in u16[]) is an array of int16; pass one of uint16"),
    ([(0, 0), np.zeros(4, np.uint16), 1], False, True, ValueError,
     "argument 'dst' (out u16[]) is a numpy array, not physically contiguous"),
    ([np.zeros(4, np.uint16), (0, 0), 1], True, False, ValueError,
     "cannot allocate DMA buffers"),
    ([(FakeBuffer(4, np.uint16, 0x3000_0000), 5), (0, 0), 1], True, True, ValueError,
     "holds 4 elements, too small for n=5"),
    ([FakeBuffer(8, np.uint16, 0x3000_0000)[::2], (0, 0), 1], True, True, ValueError,
     "strided view"),
    ([(0, 0), np.frombuffer(bytes(8), np.uint16), 1], True, True, ValueError, "read-only array"),
])
def test_errors_name_the_argument(args, copy, alloc, exc, fragment):
    allocate = allocator()[0] if alloc else None
    with pytest.raises(exc) as info:
        prepare_buffers(CODEC, "hw.f", args, {}, allocate, copy)
    assert fragment in str(info.value)
    assert str(info.value).startswith("hw.f: argument")


def test_a_backend_without_the_firewalls_table_is_refused_in_a_system_with_one(tmp_path):
    """A system with ``firewall:`` whose runtime's backend gives no table (the cocotb
    runtime) would have every buffer transfer refused: the call is refused before anything
    is written, naming the system and what to do."""
    from pushpush.link import link
    from pushpush.runtime.firewall import guard_buffers
    from pushpush.spec import parse_system
    text = ("system: fw\nfirewall: true\ncomponents:\n"
            "  hw: {kind: rtl, module: m, sources: [m.v], exports: {f: '(src: in u16[], dst: out u16[], k: u32) -> u32'}}\n"
            "  py: {kind: python, imports: [hw.f]}\n")
    linked = link(parse_system(text, file="fw.yaml", base_dir=tmp_path))
    done = []
    src, dst = FakeBuffer(8, np.uint16, 0x2000_0000), FakeBuffer(8, np.uint16, 0x2100_0000)
    prepared = ([(0x2000_0000, 8), (0x2100_0000, 8), 3], {}, done.append)
    with pytest.raises(ValueError, match="system 'fw' has a memory firewall.*simulated board"):
        guard_buffers(None, linked, linked.component("hw").base, CODEC, [src, dst, 3], {}, prepared)
    assert done == [False]      # the buffers' after-work ran (temporaries freed)
    plain = link(parse_system(text.replace("firewall: true\n", ""), file="fw.yaml", base_dir=tmp_path))
    assert guard_buffers(None, plain, 0, CODEC, [src, dst, 3], {}, prepared)[3] is None
