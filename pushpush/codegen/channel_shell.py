"""RIFFA-style channels on the RTL side (docs/rtl-ports.md, "Channels").

A component with ``channels:`` exports, per channel ``c``, ``c_rx(data: in u32[], off: u32,
last: bool) -> u32`` and ``c_tx(data: out u32[]) -> u64`` (added by the loader,
:mod:`pushpush.spec`). Its wrapper does not instantiate the user's module directly but a
generated **channel shell** ``<component>_chnl_shell`` (``rtl/<component>_chnl_shell.v``)
with the wrapper's port list (:func:`~pushpush.codegen.ports.user_ports`): per channel a
``pp_chnl_rx`` and a ``pp_chnl_tx`` (cores/chnl) turn the two call groups and their buffer
streams into RIFFA 2.1's CHNL_RX*/CHNL_TX* signals, and every other port passes through. So
the user's module has, per channel, exactly RIFFA's ports prefixed ``<c>_``
(:func:`channel_ports`), plus the usual groups of its other exports and imports. The shell
is a typed model (:func:`channel_shell`: ports, signals' widths, connections by name) that
``templates/verilog/chnl_shell.v.j2`` turns into Verilog.

>>> from pushpush.spec import parse_system
>>> from pushpush.link import link
>>> linked = link(parse_system('''
... system: s
... board: none
... components:
...   hw: {kind: rtl, module: m, sources: [m.v], channels: [audio]}
... '''))
>>> [p.name for p in module_ports(linked, linked.component("hw"))][:4]
['clk', 'rst', 'audio_CHNL_RX_CLK', 'audio_CHNL_RX']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..link import ChannelInfo, LinkedComponent, LinkedSystem
from .render import generated_header, render_template
from .fabric import channel_shell_name
from .ports import UserPort, user_ports

__all__ = ["CHANNEL_TIMEOUT_CYCLES", "ShellChannel", "ChannelShell", "channel_ports", "module_ports",
           "channel_shell", "render_channel_shell"]

#: Cycles without progress after which a channel adapter ends a call (cores/chnl TIMEOUT):
#: a send whose core stops reading, a receive with nothing to take. Shorter than the buffer
#: engines' BUFFER_TIMEOUT, so the adapter (which drains the rest) always ends first.
CHANNEL_TIMEOUT_CYCLES = 16384

#: RIFFA's signals per direction, seen from the user core: (suffix, direction, width).
_RX = [("CHNL_RX_CLK", "output", 1), ("CHNL_RX", "input", 1), ("CHNL_RX_ACK", "output", 1),
       ("CHNL_RX_LAST", "input", 1), ("CHNL_RX_LEN", "input", 32), ("CHNL_RX_OFF", "input", 31),
       ("CHNL_RX_DATA", "input", 32), ("CHNL_RX_DATA_VALID", "input", 1),
       ("CHNL_RX_DATA_REN", "output", 1)]
_TX = [("CHNL_TX_CLK", "output", 1), ("CHNL_TX", "output", 1), ("CHNL_TX_ACK", "input", 1),
       ("CHNL_TX_LAST", "output", 1), ("CHNL_TX_LEN", "output", 32), ("CHNL_TX_OFF", "output", 31),
       ("CHNL_TX_DATA", "output", 32), ("CHNL_TX_DATA_VALID", "output", 1),
       ("CHNL_TX_DATA_REN", "input", 1)]


def channel_ports(ch: ChannelInfo) -> list[UserPort]:
    """RIFFA's ports of one channel on the user's module, ``<c>_CHNL_RX`` ... ``<c>_CHNL_TX_DATA_REN``
    (the ``_CLK`` outputs are optional: one clock drives everything, so they are ignored)."""
    return [UserPort(f"{ch.name}_{s}", d, w, ch.name, optional=s.endswith("_CLK"))
            for s, d, w in _RX + _TX]


def _channel_groups(linked: LinkedSystem, comp: LinkedComponent) -> set[str]:
    """The port groups the adapters take (the channel exports and their buffer streams)."""
    out: set[str] = set()
    for ch in linked.channels_of(comp.name):
        out |= {ch.rx, ch.tx, f"{ch.rx}_data", f"{ch.tx}_data"}
    return out


def module_ports(linked: LinkedSystem, comp: LinkedComponent) -> list[UserPort]:
    """The ports of the user's module: :func:`~pushpush.codegen.ports.user_ports` without
    the channels' call groups and streams, and with each channel's RIFFA ports (after
    ``clk``/``rst``, in channel order). A component without channels: ``user_ports``."""
    ports = user_ports(comp, linked.dma_of(comp.name))
    chans = linked.channels_of(comp.name)
    if not chans:
        return ports
    taken = _channel_groups(linked, comp)
    rest = [p for p in ports if p.group not in taken]
    riffa = [p for ch in chans for p in channel_ports(ch)]
    return rest[:2] + riffa + rest[2:]


@dataclass(frozen=True)
class ShellChannel:
    """A channel in the shell: its index and name, the rx and tx export groups, RIFFA's
    signals of each direction as (suffix, width) without the ``_CLK`` ones, and the
    ``_CLK`` outputs the user's module declares (``clk_wires``: wires it drives, unread)."""

    index: int
    name: str
    rx: str
    tx: str
    rx_signals: tuple[tuple[str, int], ...]
    tx_signals: tuple[tuple[str, int], ...]
    clk_wires: tuple[str, ...]


@dataclass(frozen=True)
class ChannelShell:
    """The channel shell ``module`` of component ``component`` (``templates/verilog/chnl_shell.v.j2``):
    the wrapper's ports (``ports``), the channels, and the user's module with its ports
    ``conns`` in its own order, each connected to the signal of the same name;
    ``clk_sinks``: the ``_CLK`` outputs nobody reads."""

    module: str
    component: str
    user_module: str
    timeout: int
    ports: tuple[UserPort, ...]
    channels: tuple[ShellChannel, ...]
    conns: tuple[str, ...]
    clk_sinks: tuple[str, ...]


def _signals(sigs: list[tuple[str, str, int]]) -> tuple[tuple[str, int], ...]:
    return tuple((s, w) for s, _, w in sigs if not s.endswith("_CLK"))


def channel_shell(linked: LinkedSystem, comp: LinkedComponent,
                  present: Optional[set[str]] = None) -> ChannelShell:
    """The model of ``comp``'s channel shell (see :func:`render_channel_shell`)."""
    chans = linked.channels_of(comp.name)
    if not chans:
        raise ValueError(f"component '{comp.name}' has no channels: no channel shell")
    assert comp.module is not None
    outer = [p for p in user_ports(comp, linked.dma_of(comp.name))
             if not p.optional or (present is not None and p.name in present)]
    taken = _channel_groups(linked, comp)
    conns: list[str] = []
    clk_sinks: list[str] = []
    channels = []
    for ch in chans:
        clk_wires = []
        for p in channel_ports(ch):
            if p.optional:
                if present is not None and p.name in present:
                    clk_wires.append(p.name)
                    conns.append(p.name)
                    clk_sinks.append(p.name)
            else:
                conns.append(p.name)
        channels.append(ShellChannel(ch.index, ch.name, ch.rx, ch.tx, _signals(_RX), _signals(_TX),
                                     tuple(clk_wires)))
    conns += [p.name for p in outer if p.group not in taken]
    order = {p.name: i for i, p in enumerate(module_ports(linked, comp))}
    conns.sort(key=lambda n: order.get(n, len(order)))
    return ChannelShell(channel_shell_name(comp), comp.name, comp.module, CHANNEL_TIMEOUT_CYCLES,
                        tuple(outer), tuple(channels), tuple(conns), tuple(clk_sinks))


def render_channel_shell(linked: LinkedSystem, comp: LinkedComponent,
                         present: Optional[set[str]] = None) -> str:
    """``<component>_chnl_shell`` (Verilog text): the wrapper's ports, an adapter pair per
    channel, the user's module. ``present`` (the ports the user's module declares) decides
    which optional ports are connected (none by default). The model of
    :func:`channel_shell` rendered by ``templates/verilog/chnl_shell.v.j2``."""
    return render_template("verilog/chnl_shell.v.j2",
                           header=generated_header("//", linked.source_file),
                           m=channel_shell(linked, comp, present))
