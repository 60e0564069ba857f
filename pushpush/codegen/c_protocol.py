"""The protocol's words for C: ``c/pp_protocol.h``, rendered from the Python constants.

The C runtime (``c/runtime/pp_runtime.h``, hand-written) includes this generated header for
every value it shares with the Python runtime, so the two are written once, in Python:

* the trigger and status bits and the error statuses of :mod:`pushpush.protocol`
  (``PP_TRIGGER_*``, ``PP_STATUS_*``: ``ErrorCode.CALLEE_RAISED`` is
  ``PP_STATUS_CALLEE_RAISED``);
* the claim file's record and journal of :mod:`pushpush.protocol` (``PP_RECORD_*``,
  ``PP_JOURNAL_*``, ``PP_CLAIM_*``; :mod:`pushpush.runtime.claim` keeps the file);
* the interrupt block's enable registers of :mod:`pushpush.link` (``PP_IRQ_ENABLE_SET``,
  ``PP_IRQ_ENABLE_CLEAR``, byte offsets from the pending register).

The header is the same for every system. ``tests/c/test_c_constants.py`` compiles a program
printing these and the runtime's other shared values and compares them with Python.

Example::

    from pushpush.codegen.c_protocol import PROTOCOL_HEADER, render_protocol_header
    files = {PROTOCOL_HEADER: render_protocol_header()}
"""

from __future__ import annotations

from dataclasses import dataclass

from pushpush.link import IRQ_ENABLE_CLEAR, IRQ_ENABLE_SET
from pushpush.protocol import (BUFFER_CAUSES, CLAIM_BYTES, ECHO_BIT, ERROR_BIT, JOURNAL_LENT, JOURNAL_OFFSET,
                               MAX_JOURNAL_WORDS, ONE_WAY_BIT, OWNER_BYTES, RECORD_OFFSET, RECORD_SEQ,
                               RECORD_VALID, RECORD_WRITING, SEQ_BIT, STATUS_OK, TRIGGER_IDLE, WORD_MASK,
                               ErrorCode)

from .render import generated_header, render_template

__all__ = ["PROTOCOL_HEADER", "CDefine", "protocol_defines", "claim_defines", "irq_defines",
           "render_protocol_header"]

#: Where the header goes in the output folder (beside pp_runtime.h, which includes it).
PROTOCOL_HEADER = "c/pp_protocol.h"

_TEMPLATE = "c/pp_protocol.h.j2"


@dataclass(frozen=True)
class CDefine:
    """``#define name value`` with an optional comment; ``source``: the Python constant it is
    (in :mod:`pushpush.protocol` or, for the interrupt block, :mod:`pushpush.link`)."""

    name: str
    value: str
    source: str
    comment: str = ""


def _hex(v: int) -> str:
    return f"0x{v:08X}u"


def protocol_defines() -> list[CDefine]:
    """The protocol words, in the header's order (triggers, statuses, error statuses)."""
    out = [
        CDefine("PP_TRIGGER_IDLE", _hex(TRIGGER_IDLE), "TRIGGER_IDLE"),
        CDefine("PP_TRIGGER_ONEWAY", _hex(ONE_WAY_BIT), "ONE_WAY_BIT"),
        CDefine("PP_TRIGGER_SEQ", _hex(SEQ_BIT), "SEQ_BIT"),
        CDefine("PP_TRIGGER_REP_MASK", _hex(WORD_MASK & ~(ONE_WAY_BIT | SEQ_BIT)),
                "~(ONE_WAY_BIT | SEQ_BIT)"),
        CDefine("PP_STATUS_OK", _hex(STATUS_OK), "STATUS_OK"),
        CDefine("PP_STATUS_ECHO", _hex(ECHO_BIT), "ECHO_BIT"),
        CDefine("PP_STATUS_ERROR_BIT", _hex(ERROR_BIT), "ERROR_BIT"),
        CDefine("PP_STATUS_CODE_MASK", _hex(WORD_MASK & ~(ERROR_BIT | ECHO_BIT)),
                "~(ERROR_BIT | ECHO_BIT)"),
    ]
    for code in ErrorCode:
        out.append(CDefine(f"PP_STATUS_{code.name}", _hex(code), f"ErrorCode.{code.name}",
                           code.description))
    return out


def claim_defines() -> list[CDefine]:
    """The claim file's record bits, journal and sizes (the sizes plain ``int``: the Linux
    layer compares them with signed values)."""
    return [
        CDefine("PP_RECORD_SEQ", f"0x{RECORD_SEQ:02X}u", "RECORD_SEQ"),
        CDefine("PP_RECORD_WRITING", f"0x{RECORD_WRITING:02X}u", "RECORD_WRITING"),
        CDefine("PP_RECORD_VALID", f"0x{RECORD_VALID:02X}u", "RECORD_VALID"),
        CDefine("PP_RECORD_JOURNAL", f"{JOURNAL_OFFSET - RECORD_OFFSET}u", "JOURNAL_OFFSET - RECORD_OFFSET"),
        CDefine("PP_JOURNAL_LENT", f"0x{JOURNAL_LENT:02X}u", "JOURNAL_LENT"),
        CDefine("PP_JOURNAL_WORDS", f"{MAX_JOURNAL_WORDS}u", "MAX_JOURNAL_WORDS"),
        CDefine("PP_CLAIM_OWNER", f"{OWNER_BYTES}", "OWNER_BYTES"),
        CDefine("PP_CLAIM_BYTES", f"{CLAIM_BYTES}", "CLAIM_BYTES"),
    ]


def irq_defines() -> list[CDefine]:
    """The interrupt block's enable registers (byte offsets from the pending register)."""
    return [CDefine("PP_IRQ_ENABLE_SET", f"0x{IRQ_ENABLE_SET:X}u", "IRQ_ENABLE_SET"),
            CDefine("PP_IRQ_ENABLE_CLEAR", f"0x{IRQ_ENABLE_CLEAR:X}u", "IRQ_ENABLE_CLEAR")]


def render_protocol_header() -> str:
    """The text of ``c/pp_protocol.h``."""
    head = generated_header("/*", "pushpush/protocol.py and pushpush/link") + " */"
    return render_template(_TEMPLATE, header=head, protocol=protocol_defines(), claim=claim_defines(),
                           irq=irq_defines(), causes=sorted(BUFFER_CAUSES.items()))
