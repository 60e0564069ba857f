"""Buffer parameters in signatures (issue 17 item 1): syntax, type model, codec, the
linker's checks at the YAML line, the rtl port contract and the BUFFER error status."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from pushpush.codegen.fabric import buffer_engines, buffer_port
from pushpush.codegen.ports import user_ports
from pushpush.codegen.rtl import render_rtl
from pushpush.errors import LinkError
from pushpush.link import link
from pushpush.protocol import ErrorCode, buffer_error, describe_status
from pushpush.spec import parse_system
from pushpush.types import (
    I64, U8, U32, BufferType, FunctionType, TypeSyntaxError, codec_of, decode_args, decode_value, encode_args,
    encode_value, erase_names, format_type, nested_buffer, parse_signature, parse_type, structurally_equal,
)


def test_syntax_and_layout():
    ft = parse_signature("(src: in u32[], dst: out u8[], n: u32) -> u32")
    assert ft.params[0].type == BufferType(U32, "in")
    assert ft.params[1].type == BufferType(U8, "out")
    assert [(s.name, s.offset, s.words) for s in ft.arg_layout()] == [
        ("src", 0, 2), ("dst", 2, 2), ("n", 4, 1)]
    assert ft.arg_words == 5 and ft.cep_words == 6
    assert [s.name for s in ft.buffer_params()] == ["src", "dst"]
    assert format_type(ft) == "(src: in u32[], dst: out u8[], n: u32) -> u32"
    assert format_type(ft, names=False) == "(in u32[], out u8[], u32) -> u32"
    assert parse_type(format_type(ft)) == ft
    assert structurally_equal(ft, erase_names(ft))
    assert not structurally_equal(ft, parse_signature("(out u32[], out u8[], u32) -> u32"))
    assert not structurally_equal(ft, parse_signature("(in i32[], out u8[], u32) -> u32"))
    # "in" and "out" stay usable as parameter names
    assert parse_signature("(in: u32, out: u8) -> void").param_names() == ["in", "out"]
    for elem, size in (("i8", 1), ("u16", 2), ("i16", 2), ("i32", 4), ("f32", 4)):
        assert parse_type(f"(x: out {elem}[]) -> void").params[0].type.element_bytes == size


@pytest.mark.parametrize("text,column,fragment", [
    ("(a: u32[]) -> void", 5, "a buffer needs its direction; write 'in u32[]'"),
    ("(a: in bool[]) -> void", 8, "elements are one of i8, i16, i32, u8, u16, u32, f32, not 'bool'"),
    ("(a: in u64[]) -> void", 8, "not 'u64'"),
    ("(a: in u8) -> void", 10, "expected '[' in the buffer type 'in u8[]'"),
    ("(a: in u8[) -> void", 11, "expected ']'"),
    ("() -> out u8[]", 7, "only a parameter type, not a result"),
    ("[u8] -> void", 1, "a buffer parameter as 'in u32[]'"),
])
def test_syntax_errors(text, column, fragment):
    with pytest.raises(TypeSyntaxError) as info:
        parse_type(text)
    assert fragment in info.value.message
    assert info.value.column == column


def test_model_refuses_buffer_results():
    with pytest.raises(ValueError, match="not a result type"):
        FunctionType((), BufferType(U8, "in"))
    with pytest.raises(ValueError, match="direction"):
        BufferType(U8, "inout")
    # only the listed scalars are elements, and only as Scalar objects
    with pytest.raises(ValueError, match="not i64"):
        BufferType(I64, "in")
    with pytest.raises(ValueError, match="elements are one of"):
        BufferType("u8", "in")  # type: ignore[arg-type]


def test_codec():
    ft = parse_signature("(src: in u32[], dst: out i16[], k: u32) -> u32")
    c = codec_of(ft)
    assert c.encode_args([(0x1000_0000, 5), (0x1000_0102, 3), 7]) == [0x1000_0000, 5, 0x1000_0102, 3, 7]
    assert encode_args(ft, [], {"src": (1, 2), "dst": (3, 4), "k": 5}) == [1, 2, 3, 4, 5]
    assert decode_args(ft, [1, 2, 3, 4, 5]) == [(1, 2), (3, 4), 5]

    class Buf:  # what a pynq.allocate buffer offers
        physical_address = 0x1800_0000
        size = 12
    assert c.encode_args([Buf(), Buf(), 1])[:4] == [0x1800_0000, 12, 0x1800_0000, 12]
    with pytest.raises(TypeError, match="argument 'src' .*expected a pynq.allocate buffer or a pair"):
        c.encode_args([5, (1, 2), 3])
    with pytest.raises(OverflowError, match="argument 'dst' .*run past the end"):
        c.encode_args([(0, 1), (0xFFFF_FFF0, 100), 3])
    with pytest.raises(OverflowError, match="not a 32-bit address"):
        c.encode_args([(-4, 1), (0, 1), 3])


def test_nested_buffer():
    assert not nested_buffer(parse_type("(a: in u8[], f: (u32) -> u32) -> void"))
    assert nested_buffer(parse_type("(f: (in u8[]) -> void) -> void"))
    assert nested_buffer(parse_type("() -> (out u8[]) -> void"))
    # a buffer in the result's signature of a function-typed parameter
    assert nested_buffer(parse_type("(f: (u32) -> (in u8[]) -> void) -> void"))
    # a scalar or a buffer itself has no function type inside
    assert not nested_buffer(U32)
    assert not nested_buffer(BufferType(U8, "in"))


BASE = """\
system: s
components:
  hw:
    kind: rtl
    module: m
    sources: [m.v]
    exports:
      f: "(src: in u32[], dst: out u16[], k: u32) -> u32"
      g: "(x: i32) -> i32"
  host:
    kind: python
    imports: [hw.f, hw.g]
"""


def _link(text: str):
    return link(parse_system(textwrap.dedent(text), file="sys.yaml"))


def test_linked_rtl_ports_and_top():
    linked = _link(BASE)
    hw = linked.component("hw")
    ports = {p.name: p for p in user_ports(hw)}
    assert ports["f_src_len"].direction == "input" and ports["f_src_len"].width == 32
    assert ports["f_dst_len"].width == 32
    assert "f_src" not in ports and "f_dst" not in ports
    assert (ports["f_src_tdata"].direction, ports["f_src_tdata"].width) == ("input", 32)
    assert ports["f_src_tready"].direction == "output"
    assert (ports["f_dst_tdata"].direction, ports["f_dst_tdata"].width) == ("output", 16)
    assert ports["f_dst_tready"].direction == "input"
    assert ports["f_dst_tlast"].direction == "output"
    assert [(b.group, b.local, b.param_index) for b in buffer_engines(hw)] == [
        ("f_src", 0, 0), ("f_dst", 1, 1)]
    assert buffer_port(linked) == "S_AXI_HP0"
    rtl = render_rtl(linked)
    top = rtl["rtl/s_top.v"]
    assert "buf_axi_araddr" in top and "pp_buf_interconnect" in top
    wrapper = rtl["rtl/hw_wrapper.v"]
    assert "pp_buf_rd" in wrapper and "pp_buf_wr" in wrapper and "b1_axi_awaddr" in wrapper
    # without buffers the top has no buf_axi port
    plain = _link(BASE.replace('f: "(src: in u32[], dst: out u16[], k: u32) -> u32"', 'f: "(k: u32) -> u32"'))
    assert buffer_port(plain) is None
    assert "buf_axi" not in render_rtl(plain)["rtl/s_top.v"]


@pytest.mark.parametrize("edit,line,fragment", [
    # a python export taking a buffer
    (lambda t: t + '    exports:\n      h: "(a: in u8[]) -> void"\n', 14,
     "buffers are supported for rtl exports only"),
    # a buffer inside a function-typed parameter
    (lambda t: t.replace('g: "(x: i32) -> i32"', 'g: "(cb: (in u8[]) -> void) -> i32"'), 9,
     "a buffer inside a function-typed parameter or a result"),
    # a c importer
    # an rtl importer
    (lambda t: t + '  r2:\n    kind: rtl\n    module: m2\n    sources: [m2.v]\n    imports: [hw.f]\n', 17,
     "only python and c components can pass so far"),
])
def test_link_errors_at_the_yaml_line(edit, line, fragment):
    with pytest.raises(LinkError) as info:
        _link(edit(BASE))
    text = str(info.value)
    assert fragment in text
    assert f"sys.yaml:{line}:" in text


def test_buffer_error_status():
    status = 0x8000_0000 | 0x4000_0000 | (1 << 16) | (2 << 8) | 6
    assert buffer_error(status) == (2, 1)
    assert buffer_error(ErrorCode.BUFFER) is None
    assert buffer_error(0x8000_0001) is None
    assert "buffer parameter 2 failed: timed out" in describe_status(status)


def test_codec_buffer_edges():
    """The 2 words of a buffer at the edges of the 32-bit address space, and the errors'
    whole messages (the label says which argument, the type which buffer)."""
    src, dst = BufferType(U32, "in"), BufferType(U8, "out")
    assert encode_value(src, (0x1000, 0)) == [0x1000, 0]  # an empty buffer
    assert encode_value(src, (0xFFFF_FFFF, 0)) == [0xFFFF_FFFF, 0]  # empty at the last address
    assert encode_value(dst, (0, 0xFFFF_FFFF)) == [0, 0xFFFF_FFFF]  # the longest length
    assert encode_value(src, (0xFFFF_FF00, 0x40)) == [0xFFFF_FF00, 0x40]  # ends at 2**32 exactly
    with pytest.raises(OverflowError) as info:
        encode_value(src, (0xFFFF_FF00, 0x41))
    assert str(info.value) == ("value: 65 elements of 4 bytes from 0xFFFFFF00 run past the end of the 32-bit "
                               "address space")
    with pytest.raises(OverflowError, match=r"^src: length 4294967296 is out of range"):
        encode_value(dst, (0, 1 << 32), "src")
    with pytest.raises(TypeError) as info:
        encode_value(src, ("x", 4), "src")
    assert str(info.value) == "src: expected a physical address (int) for in u32[], got str 'x'"
    with pytest.raises(TypeError) as info:
        encode_value(src, (0x1000, 2.5), "src")
    assert str(info.value) == "src: expected a length in elements (int) for in u32[], got float 2.5"


def test_codec_refuses_an_array_without_an_address():
    """A numpy array has a size but no physical address: refused as not a buffer (the runtime
    copies plain arrays into a pynq.allocate buffer before the codec sees them)."""
    class SizeOnly:
        size = 4

    for value in (np.zeros(4, np.uint32), SizeOnly()):
        with pytest.raises(TypeError, match=r"^src: expected a pynq.allocate buffer or a pair"):
            encode_value(BufferType(U32, "in"), value, "src")


def test_codec_buffer_words_checked():
    assert decode_value(BufferType(U8, "in"), [0x1000, 3]) == (0x1000, 3)
    with pytest.raises(ValueError) as info:
        decode_value(BufferType(U8, "in"), [1])
    assert str(info.value) == "value of type in u8[]: expected 2 words, got 1"
