"""The front end: ``system.yaml`` in, a checked :class:`SystemSpec` out.

One job a module:

- :mod:`~pushpush.spec.fields`: the structure of ``system.yaml`` declared once (keys, value
  shapes, ranges, choices, which kinds may have a key); the loader checks against it and
  :mod:`pushpush.schema` turns it into the JSON Schema;
- :mod:`~pushpush.spec.model`: the dataclasses of the checked description;
- :mod:`~pushpush.spec.text`: file bytes to text (UTF-8 only, with positions when not);
- :mod:`~pushpush.spec.loader`: YAML to the model, every problem with ``file:line:column``;
- :mod:`~pushpush.spec.references`: imports against exports.

>>> from pushpush.spec import parse_system
>>> spec = parse_system("system: s\\ncomponents:\\n  a: {kind: python}\\n")
>>> spec.components[0].kind
'python'
"""

from __future__ import annotations

from .fields import (
    ARBITRATIONS, BOARDS, DATA_WIDTHS, DEFAULT_DYNAMIC_SLOTS, DEFAULT_RUNTIME_WORDS, DEFAULT_WAIT,
    GP0_RANGE, KINDS, MIN_WINDOW, SOFTWARE_KINDS, TOPOLOGIES, WAIT_MODES, is_identifier,
)
from .loader import load_system, parse_system
from .model import (
    CHANNEL_RX_SIGNATURE, CHANNEL_TX_SIGNATURE, DEFAULT_PL, DEFAULT_PS, Abe, ChannelSpec,
    ComponentSpec, Dma, ExportSpec, ImportSpec, Interconnect, Region, SystemSpec,
)
from .references import check_references

__all__ = [
    "is_identifier",
    "ChannelSpec",
    "CHANNEL_RX_SIGNATURE",
    "CHANNEL_TX_SIGNATURE",
    "KINDS",
    "SOFTWARE_KINDS",
    "BOARDS",
    "TOPOLOGIES",
    "DATA_WIDTHS",
    "ARBITRATIONS",
    "GP0_RANGE",
    "DEFAULT_PL",
    "DEFAULT_PS",
    "MIN_WINDOW",
    "DEFAULT_DYNAMIC_SLOTS",
    "DEFAULT_RUNTIME_WORDS",
    "DEFAULT_WAIT",
    "WAIT_MODES",
    "Region",
    "Interconnect",
    "Abe",
    "Dma",
    "ExportSpec",
    "ImportSpec",
    "ComponentSpec",
    "SystemSpec",
    "load_system",
    "parse_system",
    "check_references",
]
