"""Wire records (:mod:`.monitor`) and the system map (docs/system-map.md) into a
:class:`~pushpush.trace.model.Trace`.

How the words become calls (docs/architecture.md §2):

* the words one master writes into one window form a *sequence* (an engine's burst; the
  ARM's single stores up to the one that ends it);
* a sequence that starts at the rep address of an open call and ends on its status word is
  that call's **return** (a rep slot of the map knows where its status word is; a rep in a
  software component's run-time area is written by an engine in one burst, its last word is
  the status);
* a sequence that ends on a cep slot's trigger word (a slot of the map, or the last word of
  an engine's burst into a software window's run-time area, a lent function, named
  ``comp.@<slot address>`` until the runtime's events name it) with a non-zero
  trigger is a **call**: its trigger names the caller's rep (bits 31..2, whose window is the
  caller), the SEQ and one-way bits;
* a user module's ``take`` handshake is the oldest call into that export not taken yet, its
  ``result`` the oldest taken without a result.

Calls are joined to their returns by the rep address, in order; nesting is
:func:`~pushpush.trace.model.nest`. DMA bursts of the PS memory ports become ``dma`` spans
(a transfer: bursts of one port and direction back to back), channel sends (calls of a
channel's ``<c>_rx``) ``send`` spans with the bytes of their buffer.

Example::

    trace = decode(records, sysmap, start=0, end=400)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Optional

from .model import Call, Span, Trace, nest

__all__ = ["decode", "SystemView"]

def _int(v: Any) -> int:
    return int(v, 0) if isinstance(v, str) else int(v)


@dataclass
class _Slot:
    component: str
    kind: str           # cep_static, cep_dynamic, rep_import, rep_param, ...
    function: str       # the export (cep) or the imported "callee.f" / parameter (rep)
    address: int
    trigger: int
    signature: str


class SystemView:
    """The facts of a system map the decoder needs: windows, slots, signatures."""

    def __init__(self, sysmap: dict[str, Any]) -> None:
        self.system = str(sysmap.get("system", "system"))
        self.clock_mhz = float(sysmap.get("clock_mhz", 100))
        self.windows: list[tuple[int, int, str]] = []
        self.kinds: dict[str, str] = {}
        self.runtime: dict[str, tuple[int, int]] = {}
        self.by_trigger: dict[int, _Slot] = {}
        self.exports: dict[str, dict[str, str]] = {}
        self.channels: dict[str, str] = {}
        #: rep slot address -> (rtl component, its call port: ``callee_f`` or ``f_param``)
        self.call_ports: dict[int, tuple[str, str]] = {}
        for c in sysmap.get("components", []):
            name = c["name"]
            self.kinds[name] = c["kind"]
            w = c["window"]
            base = _int(w["base"])
            self.windows.append((base, _int(w["end"]), name))
            rt = c.get("runtime") or {}
            if rt.get("words"):
                a = _int(rt["address"])
                self.runtime[name] = (a, a + 4 * int(rt["words"]))
            self.exports[name] = {e["name"]: e["signature"] for e in c.get("exports", [])}
            for s in c.get("slots", []):
                slot = _Slot(name, s["kind"], s["function"], _int(s["address"]),
                             _int(s["trigger_address"]), s.get("signature", ""))
                self.by_trigger[slot.trigger] = slot
                if s["kind"] == "rep_import":
                    self.call_ports[slot.address] = (name, s["function"].replace(".", "_"))
                elif s["kind"] == "rep_callback":
                    self.call_ports[slot.address] = (name, f"{s['function']}_{s['param']}")

        for ch in sysmap.get("channels", []) or []:
            self.channels[f"{ch['component']}.{ch['rx']}"] = f"{ch['component']}.{ch['name']}"

    def component_at(self, address: int) -> Optional[str]:
        for lo, hi, name in self.windows:
            if lo <= address < hi:
                return name
        return None

    def rtl_ports(self) -> dict[str, dict[str, list[str]]]:
        """rtl component -> ``{"exports": [...], "calls": [...]}``: the user-module ports
        whose handshakes the monitor watches."""
        out: dict[str, dict[str, list[str]]] = {}
        for c, k in self.kinds.items():
            if k == "rtl":
                calls = sorted({p for (comp, p) in self.call_ports.values() if comp == c})
                out[c] = {"exports": list(self.exports[c]), "calls": calls}
        return out

    def buffer_bytes(self, function: str, args: list[int]) -> int:
        """Bytes the buffer parameters of a call of ``function`` (``comp.f``) with argument
        words ``args`` move (element count x element size), 0 without buffers."""
        comp, _, fn = function.partition(".")
        sig = self.exports.get(comp, {}).get(fn)
        if not sig or "[]" not in sig:
            return 0
        from pushpush.types import BufferType, parse_signature
        total, i = 0, 0
        for p in parse_signature(sig).params:
            if isinstance(p.type, BufferType) and i + 1 < len(args):
                total += args[i + 1] * p.type.element_bytes
            i += p.type.words
        return total


@dataclass
class _Open:
    call: Call
    rep: int
    status_at: Optional[int]
    args: list[int]


def decode(records: list[list[Any]], sysmap: dict[str, Any], *, start: int, end: int,
           first_id: int = 1) -> Trace:
    """The trace of ``records`` (see :mod:`.monitor`) of the system ``sysmap`` (a system
    map, as JSON data) between cycles ``start`` and ``end``."""
    view = SystemView(sysmap)
    trace = Trace(clock_mhz=view.clock_mhz, start=start, end=end,
                  components=dict(view.kinds), meta={"system": view.system, "source": "wire"})
    seqs: dict[tuple[int, int, str], list[tuple[int, int, int]]] = {}   # (master, slave, comp)
    open_by_rep: dict[int, deque[_Open]] = {}
    waiting_take: dict[tuple[str, str], deque[Call]] = {}
    waiting_result: dict[tuple[str, str], deque[Call]] = {}
    next_id = first_id
    module_calls: dict[tuple[str, str], deque[int]] = {}
    sends: dict[int, tuple[str, int]] = {}
    waiting_reply: dict[tuple[str, str], deque[Call]] = {}
    mem_open: dict[tuple[str, str], list[tuple[int, int]]] = {}
    transfers: dict[tuple[str, str], list[int]] = {}   # [start, end, bytes, bursts open]

    def finish_call(words: list[tuple[int, int, int]], slot: Optional[_Slot], comp: str,
                    master: int) -> None:
        nonlocal next_id
        first_cyc, _, _ = words[0]
        trig_cyc, _, trigger = words[-1]
        rep = trigger & ~3
        caller = view.component_at(rep) or ("ps" if master == 0 else f"master {master}")
        if slot is not None:
            function = f"{comp}.{slot.function}"
        else:
            function = f"{comp}.@{words[0][1]:#x}"   # a lent function's slot
        c = Call(id=next_id, caller=caller, callee=comp, function=function, issued=first_cyc,
                 trigger=trig_cyc, one_way=bool(trigger & 1), bytes=4 * len(words))
        next_id += 1
        port = view.call_ports.get(rep)
        if port is not None and view.kinds.get(port[0]) == "rtl":
            q = module_calls.get(port)
            if q:   # the module's own handshake on its call port started the call
                c.issued = q.popleft()
            waiting_reply.setdefault(port, deque()).append(c)
        args = [d for _, _, d in words[:-1]]
        trace.calls.append(c)
        if slot is not None:
            waiting_take.setdefault((comp, slot.function), deque()).append(c)
        if not c.one_way:
            status_at = next((s.trigger for s in view.by_trigger.values()
                              if s.address == rep and s.kind.startswith("rep")), None)
            open_by_rep.setdefault(rep, deque()).append(_Open(c, rep, status_at, args))
        if function in view.channels:   # a channel send: a span once it returned
            sends[c.id] = (view.channels[function], view.buffer_bytes(function, args))

    for r in sorted(records, key=lambda r: r[1]):
        kind, cyc = r[0], r[1]
        if kind == "w":
            _, _, slave, master, addr, data, first, last = r
            comp = view.component_at(addr)
            if comp is None:
                continue
            key = (master, slave, comp)
            seq = seqs.setdefault(key, [])
            if master != 0 and first:
                seq.clear()
            seq.append((cyc, addr, data))
            base = seq[0][1]
            # a return: the sequence began at the rep of an open call and reached its status
            op = open_by_rep.get(base)
            if op:
                o = op[0]
                at_status = (addr == o.status_at) if o.status_at is not None else (master != 0 and last)
                if at_status:
                    op.popleft()
                    o.call.returned = cyc
                    o.call.status = data
                    o.call.bytes += 4 * len(seq)
                    if o.call.id in sends:
                        ch, nbytes = sends.pop(o.call.id)
                        trace.spans.append(Span(track=o.call.callee, name=f"send {ch}", kind="send",
                                                start=cyc if o.call.issued is None else o.call.issued,
                                                end=cyc, bytes=nbytes, call=o.call.id))
                    seq.clear()
                    continue
            slot = view.by_trigger.get(addr)
            if slot is not None and slot.kind.startswith("cep") and data:
                finish_call(list(seq), slot, comp, master)
                seq.clear()
            elif slot is None and master != 0 and last and comp in view.runtime \
                    and data and view.component_at(data & ~3) is not None:
                lo, hi = view.runtime[comp]
                if lo <= addr < hi:   # a call of a lent function (a run-time cep slot)
                    finish_call(list(seq), None, comp, master)
                seq.clear()
            elif master != 0 and last:
                seq.clear()
        elif kind == "u":
            _, _, comp, what, fn = r
            if what == "take":
                q = waiting_take.get((comp, fn))
                if q:
                    c = q.popleft()
                    c.taken = cyc
                    waiting_result.setdefault((comp, fn), deque()).append(c)
            elif what == "result":
                q = waiting_result.get((comp, fn))
                if q:
                    q.popleft().result = cyc
            elif what == "call":
                module_calls.setdefault((comp, fn), deque()).append(cyc)
            elif what == "reply":
                q = waiting_reply.get((comp, fn))
                if q:
                    q.popleft().seen = cyc
        elif kind == "m":
            _, _, port, d, addr, n, edge = r
            k = (str(port), d)
            if edge == "start":
                t = transfers.get(k)
                if t is None or (t[3] == 0 and cyc > t[1] + 16):
                    if t is not None:
                        _close_transfer(trace, k, t)
                    t = transfers[k] = [cyc, cyc, 0, 0]
                t[2] += n
                t[3] += 1
            else:
                t = transfers.get(k)
                if t is not None and t[3] > 0:
                    t[3] -= 1
                    t[1] = cyc
    for k, t in transfers.items():
        _close_transfer(trace, k, t)
    nest(trace)
    _attach_spans(trace)
    by_id = {c.id: c for c in trace.calls}
    for sp in trace.spans:   # what a call's buffers moved: its DMA engine's bursts
        if sp.kind == "dma" and sp.call in by_id:
            by_id[sp.call].bytes += sp.bytes
    return trace


def _close_transfer(trace: Trace, key: tuple[str, str], t: list[int]) -> None:
    port, d = key
    trace.spans.append(Span(track=f"dma {port}", name=f"{'read' if d == 'r' else 'write'} "
                            f"{t[2]} B", kind="dma", start=t[0], end=max(t[0], t[1]), bytes=t[2]))


def _attach_spans(trace: Trace) -> None:
    """A DMA span belongs to the innermost call into an rtl component open around it."""
    for s in trace.spans:
        if s.kind != "dma" or s.call is not None:
            continue
        best: Optional[Call] = None
        for c in trace.calls:
            if c.taken is not None and c.returned is not None and c.taken <= s.start \
                    and s.end <= c.returned and trace.components.get(c.callee) == "rtl":
                if best is None or c.taken >= (best.taken or 0):
                    best = c
        if best is not None:
            s.call = best.id
