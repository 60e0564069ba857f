"""Which interconnect masters may address which slaves: the system top's ``M_CONNECT``.

In a generated system not every master reaches every slave. The ARM's GP0 port (master 0)
reaches every slave. A component's call engine writes only:

- **calls of its imports**: into the callee's window (an rtl window, or the ``ps`` port
  for a python/c callee);
- **calls through function values** it receives (its exports' function-typed parameters,
  the ``rep_callback`` slots): a value of type ``T`` points at a dynamic slot of some export
  of type ``T`` (up to parameter names), in any component, or at a slot a software runtime
  lends for a Python/C callable (in the ``ps`` region). So such a component reaches the
  window of every component exporting a function of type ``T``, and ``ps``;
- **returns of its exports**: into the rep slot of the caller, which is a static importer,
  or any holder of a function value of that export's type: an rtl component with a
  function-typed parameter of that type (its ``rep_callback`` slot is in its own window),
  or software (Python/C through handles or ``rt.function``, the ARM's programs): so every
  exporter reaches the windows of its static importers and of the rtl components that may
  hold its type, and ``ps``.

Nothing else of a component's goes through this interconnect (buffer engines have their
own, ``pp_buf_interconnect``; AXI DMAs stream). The interrupt block and the windows' base
register (``software_windows: ddr``) are written by the ARM only.

The derivation is **sound** for every call the protocol allows (a missing connection would
make a call fail at run time with a bus error): when in doubt it connects. What it does not
cover, on purpose: a function value whose address points at an export of another type (a
type error the linker and runtimes reject where they see it), which a crossbar system now
answers with DECERR (status ``0x80000005``, bus error) as it answers an address in no window.

Example::

    from pushpush.link import load
    from pushpush.codegen.connect import connectivity
    c = connectivity(load("examples/pingpong/system.yaml"), ["caller", "callee", "irq", "ps"])
    c.reach["caller"]      # {'callee', 'ps'}
    hex(c.mask)            # '0xe5d' (M_CONNECT: bit j*S_COUNT+i = master i reaches slave j;
                           # templates/verilog/top.v.j2 writes it as 12'he5d)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pushpush.link import LinkedComponent, LinkedSystem
from pushpush.link.window_rules import callback_types
from pushpush.types import Type, erase_names

__all__ = ["Connectivity", "connectivity", "PS_MASTER", "PS_SLAVE"]

#: the ARM's GP0 port, master 0 of the system top's interconnect
PS_MASTER = "ps"
#: the slave port that reaches the ARM's windows (every python/c component's)
PS_SLAVE = "ps"


@dataclass(frozen=True)
class Connectivity:
    """Masters (``"ps"`` then rtl components, the top's order), slaves (the top's order),
    and for every master the set of slave names it may address."""

    masters: tuple[str, ...]
    slaves: tuple[str, ...]
    reach: dict[str, frozenset[str]]

    def connected(self, master: str, slave: str) -> bool:
        return slave in self.reach[master]

    @property
    def mask(self) -> int:
        """``M_CONNECT``: bit ``j * S_COUNT + i`` set when master i may address slave j."""
        s_count = len(self.masters)
        return sum(1 << (j * s_count + i)
                   for i, m in enumerate(self.masters)
                   for j, s in enumerate(self.slaves) if s in self.reach[m])

    @property
    def connections(self) -> int:
        return sum(len(r) for r in self.reach.values())


def _key(t: Type) -> Type:
    return erase_names(t)


def _slave_of(linked: LinkedSystem, component: str) -> str:
    """The slave a write into ``component``'s window goes to."""
    return PS_SLAVE if linked.component(component).is_software else component


def _targets(linked: LinkedSystem, comp: LinkedComponent) -> set[str]:
    """The components (and ``ps``) whose windows ``comp``'s call engine may write."""
    out: set[str] = set()
    # calls of its imports
    for imp in comp.imports:
        out.add(_slave_of(linked, imp.component))
    # calls through function values of the types it may hold
    held = callback_types(comp)
    if held:
        out.add(PS_SLAVE)  # a software runtime's lent slot, or a software export
        for other in linked.components:
            if any(_key(e.signature) in held for e in other.exports):
                out.add(_slave_of(linked, other.name))
    # returns of its exports
    for e in comp.exports:
        out.add(PS_SLAVE)  # software callers (imports, handles, the ARM's programs)
        for who in e.importers:
            out.add(_slave_of(linked, who))
        t = _key(e.signature)
        for other in linked.components:
            if not other.is_software and t in callback_types(other):
                out.add(other.name)
    return out


def connectivity(linked: LinkedSystem, slaves: Sequence[str]) -> Connectivity:
    """The connectivity of the system top's interconnect: masters ``"ps"`` then every rtl
    component in declaration order (the top's order), ``slaves`` as the top lists them
    (rtl windows by component name, then the top's own blocks, ``"ps"`` last). The ARM
    reaches every slave; an rtl component the slaves its engine may write (see the module
    documentation). Raises ValueError when a target has no slave in ``slaves``."""
    rtl = [c for c in linked.components if not c.is_software]
    masters = (PS_MASTER, *(c.name for c in rtl))
    known = set(slaves)
    reach: dict[str, frozenset[str]] = {PS_MASTER: frozenset(slaves)}
    for c in rtl:
        t = _targets(linked, c)
        missing = sorted(t - known)
        if missing:
            raise ValueError(f"component '{c.name}' writes into {missing}, which the interconnect "
                             f"has no slave port for (slaves: {list(slaves)})")
        reach[c.name] = frozenset(t)
    return Connectivity(masters, tuple(slaves), reach)
