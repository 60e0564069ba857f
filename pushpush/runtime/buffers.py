"""Buffer arguments of a call (``in u32[]`` / ``out u32[]``): Python values into the
(physical address, length in elements) pairs the codec encodes, and what must happen after
the call (docs/runtime.md, "Buffers").

What a caller may pass for a buffer parameter:

* a ``pynq.allocate`` buffer (anything with ``physical_address``) of the element's dtype,
  C-contiguous: passed as it is, its ``size`` elements. An ``in`` buffer is flushed before
  the call, an ``out`` buffer invalidated after the result arrived (PYNQ's cache rules for
  cacheable buffers; no-ops for the default uncached ones).
* a pair ``(buffer, n)``: the first ``n`` elements of such a buffer (``n`` <= its size).
* a numpy array (no physical address): copied into a temporary ``pynq.allocate`` buffer
  (the backend's ``allocate``), and for ``out`` copied back into the array after the call,
  when the runtime's ``copy_buffers`` is true (the default); with it false, an error.
* a pair of integers ``(physical address, n)``: passed unchecked (the caller owns it).

Every error names the argument and says what to pass instead.

>>> import numpy as np
>>> from pushpush.types import codec_of, parse_signature
>>> c = codec_of(parse_signature("(src: in u32[]) -> u32"))
>>> args, kw, after = prepare_buffers(c, "f", [np.zeros(4, np.int16)], {}, None, True)
Traceback (most recent call last):
...
TypeError: f: argument 'src' (in u32[]) is an array of int16; pass one of uint32 (e.g. np.asarray(x, dtype=np.uint32))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional

from ..types import BufferType, SignatureCodec

__all__ = ["NUMPY_DTYPES", "prepare_buffers"]

#: numpy dtype names of the buffer element types.
NUMPY_DTYPES: dict[str, str] = {
    "i8": "int8", "i16": "int16", "i32": "int32", "u8": "uint8", "u16": "uint16",
    "u32": "uint32", "f32": "float32",
}

Allocate = Callable[[int, str], Any]


def _is_array(value: Any) -> bool:
    return hasattr(value, "dtype") and hasattr(value, "shape") and hasattr(value, "size")


def prepare_buffers(codec: SignatureCodec, function: str, args: Sequence[Any],
                    kwargs: Mapping[str, Any], allocate: Optional[Allocate],
                    copy: bool) -> tuple[list[Any], dict[str, Any], Callable[[bool], None]]:
    """The call's arguments with every buffer argument replaced by its (address, length)
    pair, and ``after(ok)``: run it once the call returned (``ok``: with a result), it
    invalidates ``out`` buffers, copies temporaries back and frees them.

    ``allocate(n, dtype)``: a physically contiguous buffer (``pynq.allocate``), or None when
    the backend has none (the backend's ``allocate`` hook; ``allocate`` None or a None buffer:
    numpy arrays are then refused)."""
    import numpy as np

    args = list(args)
    kwargs = dict(kwargs)
    finish: list[Callable[[bool], None]] = []
    temps: list[Any] = []

    def after(ok: bool) -> None:
        try:
            for f in finish:
                f(ok)
        finally:
            for t in temps:
                free = getattr(t, "freebuffer", None)
                if free is not None:
                    free()

    try:
        for slot in codec.buffer_params:
            t = slot.type
            assert isinstance(t, BufferType)
            name = slot.name
            if slot.index < len(args):
                value, put = args[slot.index], ("args", slot.index)
            elif name in kwargs:
                value, put = kwargs[name], ("kwargs", name)
            else:
                continue  # the codec reports the missing argument
            label = f"{function}: argument '{name}' ({t})"
            pair = _one(np, t, label, value, allocate, copy, finish, temps)
            if put[0] == "args":
                args[put[1]] = pair  # type: ignore[index]
            else:
                kwargs[put[1]] = pair  # type: ignore[index]
    except BaseException:
        after(False)
        raise
    return args, kwargs, after


def _one(np: Any, t: BufferType, label: str, value: Any, allocate: Optional[Allocate],
         copy: bool, finish: list[Callable[[bool], None]], temps: list[Any]) -> Any:
    want = NUMPY_DTYPES[t.element.name]
    n: Optional[int] = None
    if isinstance(value, tuple) and len(value) == 2 and _is_array(value[0]):
        value, n = value
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise TypeError(f"{label}: in (buffer, n), n must be a count of elements (int >= 0), "
                            f"not {n!r}")
        n = int(n)
    if not _is_array(value):
        return value  # (address, n) or something the codec refuses with its own message
    if np.dtype(value.dtype) != np.dtype(want):
        raise TypeError(f"{label} is an array of {np.dtype(value.dtype).name}; pass one of {want} "
                        f"(e.g. np.asarray(x, dtype=np.{want}))")
    size = int(value.size)
    if n is not None and n > size:
        raise ValueError(f"{label}: the buffer holds {size} elements, too small for n={n}; "
                         f"allocate at least {n}")
    count = size if n is None else n
    phys = getattr(value, "physical_address", None)
    if phys is not None:
        if not value.flags.c_contiguous:
            raise ValueError(f"{label} is a strided view: its elements are not physically "
                             "contiguous; pass a contiguous pynq.allocate buffer (or a copy of "
                             "the view, which pushpush then copies into one)")
        if t.is_in:
            flush = getattr(value, "flush", None)
            if flush is not None:
                flush()
        else:
            def invalidate(ok: bool, buf: Any = value) -> None:
                if ok and hasattr(buf, "invalidate"):
                    buf.invalidate()
            finish.append(invalidate)
        return (int(phys), count)
    # a plain numpy array
    if not copy:
        raise ValueError(f"{label} is a numpy array, not physically contiguous memory the PL "
                         "can reach; pass a pynq.allocate buffer, or let pushpush copy it "
                         "(rt.copy_buffers = True)")
    tmp = allocate(max(1, count), want) if allocate is not None else None
    if tmp is None:
        raise ValueError(f"{label} is a numpy array, and this runtime's backend cannot allocate "
                         "DMA buffers to copy it into; pass a pynq.allocate buffer")
    temps.append(tmp)
    flat = value.reshape(-1) if value.flags.c_contiguous else value.ravel()
    if t.is_in:
        tmp[:count] = flat[:count]
        if hasattr(tmp, "flush"):
            tmp.flush()
    else:
        if not value.flags.writeable:
            raise ValueError(f"{label} is a read-only array; an 'out' buffer is written: pass a "
                             "writeable array")

        def copy_back(ok: bool, src: Any = tmp, dst: Any = value, k: int = count) -> None:
            if not ok:
                return
            if hasattr(src, "invalidate"):
                src.invalidate()
            if dst.flags.c_contiguous:
                dst.reshape(-1)[:k] = src[:k]
            else:
                whole = dst.ravel()
                whole[:k] = src[:k]
                dst[...] = whole.reshape(dst.shape)
        finish.append(copy_back)
    return (int(tmp.physical_address), count)
