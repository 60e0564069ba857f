"""The typed model of the system top, which ``templates/verilog/top.v.j2`` turns into Verilog.

Everything here is data: slave and master names, base addresses, address bits, port
widths, indices, the interconnect's connectivity mask as an integer. No Verilog text is
built in Python: the address and size vectors, the ``M_CONNECT`` literal, the AXI and
stream port declarations are macros of ``templates/verilog/wrapper_macros.v.j2`` (the
macros every generated Verilog template imports).

Example::

    from pushpush.codegen.top_model import top_model
    m = top_model(load("examples/pingpong/system.yaml"))
    [(s.name, hex(s.base), s.bits) for s in m.slaves]   # [('caller', '0x43c00000', 12), ...]
    m.masters                                            # ('ps', 'caller', 'callee')
    hex(m.connect_mask)                                  # M_CONNECT, e.g. '0xe5d'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pushpush.link import IRQ_BLOCK_BYTES, DmaBlock, LinkedComponent, LinkedSystem
from pushpush.link import trace_pulses as link_trace_pulses
from pushpush.link.window_rules import guard_entries

from .connect import connectivity
from .render import GenerateError
from .fabric import (ARBITRATION, BUF_DATA_WIDTH, BUF_ID_WIDTH, BUFFER_TIMEOUT_CYCLES, CROSSBAR_READ_TOPOLOGY,
                     CROSSBAR_SKID_BUFFERS, axi_signals, buf_id_width, buffer_port, clog2,
                     system_buffers, top_id_widths, top_module_name, wrapper_module_name, pl_components)
from .ports import stream_ports

__all__ = ["Slave", "PsWindow", "TopRiscv", "riscv_mem_init", "IrqBlock", "TopBufferEngine", "TopBuffers", "StreamPort", "TopDma",
           "TopAbe", "TopComponent", "TopModel", "dma_stream_ports", "top_model"]

#: An AXI4 signal of a port: (name without prefix, width, "out"/"in" seen from the master),
#: as :func:`pushpush.codegen.fabric.axi_signals` gives them.
AxiSignal = tuple[str, int, str]


@dataclass(frozen=True)
class Slave:
    """A slave port of the interconnect: ``base`` byte address, ``bits`` address bits."""

    name: str
    base: int
    bits: int


@dataclass(frozen=True)
class PsWindow:
    """``software_windows: ddr``: the windows' base register (``pp_ps_window``) at slave
    ``slave``, register page ``base``; the link addresses of the ``ps`` region."""

    slave: int
    base: int
    link_base: int
    link_bits: int


@dataclass(frozen=True)
class TopFirewall:
    """The memory firewall (``pp_mem_firewall``, ``firewall:``) between the buffer engines'
    interconnect and ``buf_axi``: its register page at slave ``slave`` (``base``), its table's
    ``entries``, and where the engine's index sits in the AXI ID (``tag_lsb``, ``tag_bits``:
    at least 1 bit; with one engine the runtime allows ANY)."""

    slave: int
    base: int
    entries: int
    tag_lsb: int
    tag_bits: int


@dataclass(frozen=True)
class TopWindowGuard:
    """The window guard (``pp_mem_firewall`` with constant entries; ``firewall:`` with
    ``windows: true``) between the interconnect's ``ps`` port and ``m_axi``: its register page
    at slave ``slave`` (``base``), where the master's index sits in the AXI ID (``tag_lsb``,
    ``tag_bits``), and its constant table: ``(tag, first byte, last byte)`` per entry, every
    entry write-only (nothing in the protocol reads a software window through the PL), the
    ARM's included (tag 0: the whole region, unchecked)."""

    slave: int
    base: int
    tag_lsb: int
    tag_bits: int
    entries: tuple[tuple[int, int, int], ...]

    @property
    def bases(self) -> list[int]:
        return [e[1] for e in self.entries]

    @property
    def limits(self) -> list[int]:
        return [e[2] for e in self.entries]

    @staticmethod
    def packed(bits: int, values: list[int]) -> int:
        """``values`` as one integer, entry i at bits ``bits * i`` (the parameters' layout)."""
        v = 0
        for i, x in enumerate(values):
            v |= x << (bits * i)
        return v

    @property
    def attrs(self) -> list[int]:
        """Each entry's ATTR (cores/mem_firewall: [0] READ, [1] WRITE, [15:8] OWNER): WRITE only."""
        return [(tag << 8) | 0b10 for tag, _, _ in self.entries]


@dataclass(frozen=True)
class IrqBlock:
    """The interrupt block (``pp_irq_pending``) at slave ``slave``: one pending bit per
    software component (``components``), whose window is ``window_bases[i]``/``window_bits[i]``."""

    slave: int
    base: int
    components: tuple[str, ...]
    window_bases: tuple[int, ...]
    window_bits: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.components)


@dataclass(frozen=True)
class TraceEvent:
    """Event ``k`` of the PL trace buffer: the trigger word of ``component``'s slot
    ``slot`` (``kind``, ``function``) written at ``address`` through interconnect slave
    ``port`` (a cep slot: a call arriving; a rep slot: a return's status word)."""

    component: str
    slot: int
    kind: str
    function: str
    address: int
    port: int


@dataclass(frozen=True)
class TracePulse:
    """A pulse event of the PL trace buffer: rtl component ``component``'s user module's
    handshake ``kind`` (``take``/``result`` of export ``port``, ``call``/``reply`` of call
    port ``port``), one cycle per handshake (the wrapper's ``pp_trace_ev`` bit)."""

    component: str
    kind: str
    port: str

    @property
    def expr(self) -> str:
        """The wrapper's Verilog expression of the pulse."""
        stem = f"usr_{self.port}" + ("_result" if self.kind in ("result", "reply") else "")
        return f"{stem}_valid && {stem}_ready"


def trace_pulses(comp: LinkedComponent) -> tuple[TracePulse, ...]:
    """The pulse events of a component (:func:`pushpush.link.trace_pulses`)."""
    return tuple(TracePulse(comp.name, k, port) for k, port in link_trace_pulses(comp))


@dataclass(frozen=True)
class TopTrace:
    """The PL trace buffer (``pp_trace``, cores/trace) at slave ``slave``, page ``base``:
    ``depth_log2``, and its events (one per slot of every component; bit k of a record's
    mask is ``events[k]``)."""

    slave: int
    base: int
    depth_log2: int
    events: tuple[TraceEvent, ...]
    #: the pulse events after them (bit ``len(events) + i``), by component
    pulses: tuple[TracePulse, ...] = ()

    def pulses_of(self, component: str) -> tuple[TracePulse, ...]:
        return tuple(p for p in self.pulses if p.component == component)

    @property
    def pulse_components(self) -> tuple[str, ...]:
        """The components with pulses, in pulse order."""
        return tuple(dict.fromkeys(p.component for p in self.pulses))

    @property
    def match_addrs(self) -> tuple[int, ...]:
        return tuple(e.address for e in self.events)

    @property
    def match_ports(self) -> tuple[int, ...]:
        return tuple(e.port for e in self.events)


#: Events the PL trace buffer records at most (cores/trace: a 64-bit mask per record).
TRACE_MAX_EVENTS = 64


def trace_events(linked: LinkedSystem, slave_of: dict[str, int], ps_slave: int) -> tuple[TraceEvent, ...]:
    """The PL trace buffer's events of ``linked``: every slot's trigger word (cep: a call
    accepted into the window; rep: a return written), components in declaration order,
    slots in window order; the port is the component's interconnect slave (``ps`` for a
    software window)."""
    out = []
    for c in linked.components:
        port = slave_of.get(c.name, ps_slave)
        for s in c.slots:
            out.append(TraceEvent(c.name, s.index, str(s.kind),
                                  s.function, s.trigger_address, port))
    pulses = [p for c in linked.components for p in trace_pulses(c)]
    if len(out) + len(pulses) > TRACE_MAX_EVENTS:
        raise GenerateError(f"trace: the system has {len(out)} slots and {len(pulses)} module "
                            f"handshakes to record, the PL trace buffer records at most "
                            f"{TRACE_MAX_EVENTS} events; remove 'trace:' or use fewer "
                            f"dynamic_slots (they are slots too)")
    return tuple(out)


@dataclass(frozen=True)
class TopBufferEngine:
    """A buffer engine on the top's buffer interconnect (its master index is its position)."""

    comp: str
    local: int
    group: str
    dir: str


@dataclass(frozen=True)
class TopBuffers:
    """The buffer engines' interconnect and the top's ``buf_axi`` port (``port``: the Zynq
    port it stands for; ``id``: its ID width)."""

    id: int
    port: str
    timeout: int
    engines: tuple[TopBufferEngine, ...]
    s_sig: tuple[AxiSignal, ...]
    m_sig: tuple[AxiSignal, ...]

    @property
    def n(self) -> int:
        return len(self.engines)


@dataclass(frozen=True)
class StreamPort:
    """A top port of a DMA's stream: ``<iface>_<signal>`` (``iface`` is ``<dma>_mm2s`` or
    ``<dma>_s2mm``), connected to the component's ``port``; ``direction`` seen from the top."""

    iface: str
    signal: str
    port: str
    direction: str
    width: int

    @property
    def top_port(self) -> str:
        return f"{self.iface}_{self.signal}"


@dataclass(frozen=True)
class TopDma:
    """A DMA's streams on the top (``name``: the DMA, ``component``: the rtl component)."""

    name: str
    component: str
    ports: tuple[StreamPort, ...]


@dataclass(frozen=True)
class TopAbe:
    """A component's AXI burst equalizer (``pp_abe``, ``abe:`` in the YAML)."""

    nominal_burst: int
    max_outstanding: int


@dataclass(frozen=True)
class TopRiscv:
    """A riscv component's core (cores/riscv ``pp_riscv``): its local memory in bytes and the
    ``$readmemh`` file of its program (``mem_init``, found in the simulator's working
    directory; pushpush.c.riscv builds it), the clock for its microsecond counter, the core."""

    memory: int
    mem_init: str
    clock_mhz: int
    cpu: str = "picorv32"


@dataclass(frozen=True)
class TopComponent:
    """An rtl component in the top: its wrapper, window (slave ``slave``, ``base``,
    ``size`` bytes), engine (master ``master``), its buffer engines' indices on the buffer
    interconnect, its ABE and its DMA."""

    name: str
    wrapper: str
    base: int
    size: int
    master: int
    slave: int
    abe: Optional[TopAbe]
    dma: Optional[TopDma]
    engines: tuple[int, ...]
    #: a riscv component: the core in place of a wrapper (docs/riscv.md)
    riscv: Optional[TopRiscv] = None
    #: an hls participant: its IP's placement (``<name>_hls_place``) in place of a wrapper
    hls_place: bool = False


@dataclass(frozen=True)
class TopModel:
    """The system top: the interconnect's masters and slaves (``reach[i]``: the slave
    indices master i may address; ``connect_mask``: ``M_CONNECT``, bit ``j * s_count + i``
    set when master i reaches slave j), the components, the blocks, the port signals."""

    module: str
    masters: tuple[str, ...]
    slaves: tuple[Slave, ...]
    reach: tuple[tuple[int, ...], ...]
    connect_mask: int
    components: tuple[TopComponent, ...]
    dmas: tuple[TopDma, ...]
    bufs: Optional[TopBuffers]
    ps_window: Optional[PsWindow]
    irq: Optional[IrqBlock]
    data_width: int
    s_id: int
    m_id: int
    topology: int
    arbitration: int
    read_topology: int
    skid_buffers: int
    s_sig: tuple[AxiSignal, ...]
    m_sig: tuple[AxiSignal, ...]
    #: the PL trace buffer (``trace:``), None without
    trace: Optional[TopTrace] = None
    #: the memory firewall on ``buf_axi`` (``firewall:``), None without
    firewall: Optional[TopFirewall] = None
    #: the window guard on ``m_axi`` (``firewall:`` with ``windows: true``), None without
    window_guard: Optional[TopWindowGuard] = None

    @property
    def s_count(self) -> int:
        return len(self.masters)

    @property
    def m_count(self) -> int:
        return len(self.slaves)

    @property
    def ps_slave(self) -> int:
        return len(self.slaves) - 1

    @property
    def connections(self) -> int:
        return sum(len(r) for r in self.reach)


def riscv_mem_init(component: str) -> str:
    """The ``$readmemh`` file of a riscv component's program: ``<component>.mem``, a bare
    name (the simulators read it from their working directory or ``PP_RISCV_MEM_DIR``;
    Vivado from the project, where Edalize's ``read_mem`` adds it: UG835 lists ``.mem``
    among the extensions ``read_mem`` takes, docs/riscv.md "Board builds")."""
    return f"{component}.mem"


def dma_stream_ports(dma: DmaBlock) -> tuple[StreamPort, ...]:
    """The top's stream ports of ``dma``, in :func:`pushpush.codegen.ports.stream_ports`'s order:
    ``<dma>_mm2s_*`` (the DMA's MM2S stream, into the top) to the component's ``s_axis_*``,
    the component's ``m_axis_*`` to ``<dma>_s2mm_*`` (out of the top)."""
    out = []
    for p in stream_ports(dma.data_width):
        side = "mm2s" if p.name.startswith("s_axis") else "s2mm"
        out.append(StreamPort(f"{dma.name}_{side}", p.name.split("_", 2)[2], p.name, p.direction, p.width))
    return tuple(out)


def top_model(linked: LinkedSystem) -> TopModel:
    """The model of ``linked``'s top (see :func:`pushpush.codegen.rtl.render_top`)."""
    # the components in the PL, in declaration order: rtl (a wrapper) and riscv (a soft core)
    rtl = pl_components(linked)   # rtl (a wrapper), riscv (a soft core), hls (its IP's placement)
    riscv = [c.name for c in rtl if c.kind == "riscv"]
    if riscv and linked.interconnect.data_width != 32:
        raise GenerateError(f"riscv component(s) {', '.join(riscv)} need a 32-bit interconnect (the "
                            f"core's window and master are 32-bit, cores/riscv), not "
                            f"{linked.interconnect.data_width}; set interconnect.data_width: 32")
    dw = linked.interconnect.data_width
    s_id, m_id = top_id_widths(linked)
    slaves = [Slave(c.name, c.base, c.window_bits) for c in rtl]
    ps_window = None
    if linked.ps_window_register is not None:
        # software_windows: ddr: the windows' base register (cores/ps_window), then the ps port
        ps_window = PsWindow(len(slaves), linked.ps_window_register, linked.ps.base, clog2(linked.ps.size))
        slaves.append(Slave("ps_window", linked.ps_window_register, 12))
    irq = None
    if linked.irq is not None:
        sw = [linked.component(n) for n in linked.irq.components]
        irq = IrqBlock(len(slaves), linked.irq.base, tuple(linked.irq.components),
                       tuple(c.base for c in sw), tuple(c.window_bits for c in sw))
        slaves.append(Slave("irq", linked.irq.base, clog2(IRQ_BLOCK_BYTES)))
    trace_slave = None
    if linked.trace is not None:
        trace_slave = len(slaves)
        slaves.append(Slave("trace", linked.trace.base, clog2(linked.trace.size)))
    firewall_slave = None
    if linked.firewall is not None:
        firewall_slave = len(slaves)
        slaves.append(Slave("firewall", linked.firewall.base, 12))
    guard_slave = None
    if linked.window_guard is not None:
        guard_slave = len(slaves)
        slaves.append(Slave("window_guard", linked.window_guard.base, 12))
    slaves.append(Slave("ps", linked.ps.base, clog2(linked.ps.size)))
    trace = None
    if linked.trace is not None and trace_slave is not None:
        slave_of = {c.name: i for i, c in enumerate(rtl)}
        trace = TopTrace(trace_slave, linked.trace.base, clog2(linked.trace.depth),
                         trace_events(linked, slave_of, len(slaves) - 1),
                         tuple(p for c in linked.components for p in trace_pulses(c)))
    masters = ("ps", *(c.name for c in rtl))
    # which master may address which slave (M_CONNECT), from the linked model
    conn = connectivity(linked, [s.name for s in slaves])
    assert conn.masters == masters
    reach = tuple(tuple(j for j, s in enumerate(conn.slaves) if s in conn.reach[m]) for m in masters)
    engines = system_buffers(linked)
    bufs = None
    if engines:
        buf_id, port = buf_id_width(linked), buffer_port(linked)
        assert port is not None
        bufs = TopBuffers(buf_id, port, BUFFER_TIMEOUT_CYCLES,
                          tuple(TopBufferEngine(c.name, b.local, b.group, b.type.direction)
                                for c, b in engines),
                          tuple(axi_signals(BUF_DATA_WIDTH, BUF_ID_WIDTH)),
                          tuple(axi_signals(BUF_DATA_WIDTH, buf_id)))
    firewall = None
    if linked.firewall is not None and firewall_slave is not None and bufs is not None:
        firewall = TopFirewall(firewall_slave, linked.firewall.base, linked.firewall.entries,
                               BUF_ID_WIDTH, max(1, clog2(len(engines))))
    window_guard = None
    if linked.window_guard is not None and guard_slave is not None:
        g = linked.window_guard
        # the ARM's own writes (master 0) are not checked: the whole region
        # whole beats of this interconnect (the guard checks from a burst's address aligned down)
        window_guard = TopWindowGuard(guard_slave, g.base, s_id, max(1, clog2(len(masters))),
                                      ((0, linked.ps.base, linked.ps.end - 1),
                                       *((e.tag, e.first, e.last) for e in guard_entries(g.rules, dw // 8))))
    dmas = {d.component: TopDma(d.name, d.component, dma_stream_ports(d)) for d in linked.dmas}
    topology = {"crossbar": 0, "shared": 1}[linked.interconnect.topology]
    comps = tuple(
        TopComponent(c.name, "pp_riscv" if c.kind == "riscv" else (c.module or "") if c.kind == "hls"
                     else wrapper_module_name(c), c.base, c.size, 1 + i, i,
                     TopAbe(c.abe.nominal_burst, c.abe.max_outstanding) if c.abe else None, dmas.get(c.name),
                     tuple(k for k, (cc, _) in enumerate(engines) if cc.name == c.name),
                     TopRiscv(c.memory, riscv_mem_init(c.name), round(linked.clock_mhz), c.cpu or "picorv32")
                     if c.kind == "riscv" else None, c.kind == "hls")
        for i, c in enumerate(rtl))
    return TopModel(
        module=top_module_name(linked),
        masters=masters,
        slaves=tuple(slaves),
        reach=reach,
        connect_mask=conn.mask,
        components=comps,
        dmas=tuple(dmas[d.component] for d in linked.dmas),
        bufs=bufs,
        ps_window=ps_window,
        irq=irq,
        data_width=dw,
        s_id=s_id,
        m_id=m_id,
        topology=topology,
        arbitration=ARBITRATION[linked.interconnect.arbitration],
        # crossbar only; the shared topology keeps its defaults (skid buffers)
        read_topology=CROSSBAR_READ_TOPOLOGY if topology == 0 else 0,
        skid_buffers=CROSSBAR_SKID_BUFFERS if topology == 0 else 1,
        s_sig=tuple(axi_signals(dw, s_id)),
        m_sig=tuple(axi_signals(dw, m_id)),
        trace=trace,
        firewall=firewall,
        window_guard=window_guard,
    )
