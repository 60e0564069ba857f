"""Seeded random pushpush systems with generated user Verilog and an exact Python model.

``random_system(seed, workdir)`` builds one system:

- ``w0`` .. ``w{K-1}`` (K = 1..4): rtl workers, each with 1..3 exports of random signatures
  over every type (bool, i8..u64, f32, f64, function values as arguments and results).
  An export may take a function-typed parameter (its type is the signature of an export of a
  *later* worker, so the call graph is acyclic) and calls it once; a worker may import
  exports of later workers, each import called once by one of its exports (passing function
  values where the callee wants them). Simple exports (no calls) answer combinationally in
  the cycle they are called (the fast path) or after a random 0..3 cycle delay.
- ``drv``: the rtl driver. It imports every worker export and ``host.report``, and exports
  ``run() -> u32``: one lane per worker export, all lanes at once, each calling its export
  with ``vectors`` constant test vectors one after the other (function values: addresses
  of dynamic slots of matching exports of later workers) and reporting each result as
  ``report(idx, lo, hi, err)`` (the result's raw bits, zero extended, and
  ``result_error``) to the ARM; the lanes share the report import through an arbiter.
  ``run`` returns the number of steps (plus failed reports << 16).
- ``host``: python; exports ``report`` and 0..2 functions ``h<i>`` of random value-typed
  signatures that hardware calls (through static imports of workers and through function
  values: hardware -> software, the ARM answering with the same model function), and
  imports ``drv.run`` and (software -> hardware calls, checked too) every worker export.

Every place that passes a function value (a call site in a worker, a driver lane, the ARM)
gets a dynamic slot of its own in the target export (``dynamic_slots`` in the YAML), so
concurrent callers never share a slot. Exports that answer in the cycle of the call hold
the result when the wrapper cannot take it in that cycle (docs/rtl-ports.md).

What an export computes (Verilog and :meth:`RandSystem.call` alike, on raw bits):
``acc = K0``; for every argument ``v`` (its port bits, zero-extended to 64; a function value
is its 32-bit address): ``acc = mix(acc, v, K_i)`` with
``mix(a, v, k) = rotl64(a, 7) ^ (v + k)``; then, for every call in its fixed order: the
callee's value arguments are ``(acc ^ C_j)`` cut to their width (function-typed arguments:
constant handles), and after the result ``r`` arrives ``acc = mix(acc, r, Kr)`` (``r`` = 0
for void), or ``acc ^= ERR`` if it came back with ``result_error``. The result is ``acc`` cut
to the result width (a function-typed result: a constant handle). The ARM's functions
compute the same from their arguments' bits, a float NaN counting as the quiet NaN (a NaN's
payload need not survive a Python float).

Everything is derived from the linked system (addresses, port names from
``pushpush.codegen.ports.user_ports``), so the module ports are exactly those the wrapper
expects.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import yaml

from pushpush.codegen.ports import user_ports
from pushpush.link import LinkedSystem, link
from pushpush.spec import parse_system
from pushpush.types import FunctionType, Scalar

M64 = (1 << 64) - 1
ERR = 0x5555_AAAA_5555_AAAA
VALUE_TYPES = ["bool", "i8", "u8", "i16", "u16", "i32", "u32", "f32", "i64", "u64", "f64"]


def width(t) -> int:
    """Port width of a type (a function value: 32)."""
    if isinstance(t, FunctionType):
        return 32
    return {"bool": 1, "i8": 8, "u8": 8, "i16": 16, "u16": 16, "i64": 64, "u64": 64,
            "f64": 64}.get(t.name, 32)


HOST_INDEX = 99


def canonical_nan(t, bits: int) -> int:
    """``bits`` of a value of type ``t``, with any float NaN replaced by the quiet NaN."""
    name = getattr(t, "name", "")
    if name == "f32" and (bits >> 23) & 0xFF == 0xFF and bits & 0x7F_FFFF:
        return 0x7FC0_0000
    if name == "f64" and (bits >> 52) & 0x7FF == 0x7FF and bits & ((1 << 52) - 1):
        return 0x7FF8_0000_0000_0000
    return bits


def has_value(t) -> bool:
    """A result that carries words (not void)."""
    return isinstance(t, FunctionType) or (isinstance(t, Scalar) and t.name != "void")


def mix(acc: int, v: int, k: int) -> int:
    rot = ((acc << 7) | (acc >> 57)) & M64
    return rot ^ ((v + k) & M64)


def cut(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def vhex(v: int, w: int) -> str:
    return f"{w}'h{cut(v, w):X}"


def port_name(prefix: str, params, i: int) -> str:
    p = params[i]
    return f"{prefix}_{p.name if p.name is not None else f'arg{i}'}"


# ------------------------------------------------------------------------------------
# the random description


@dataclass
class Call:
    """A call an export makes: through its function parameter ``param`` or its
    component's import ``target`` ("comp.fn")."""
    group: str
    sig: FunctionType
    param: Optional[int] = None          # index of the function parameter
    target: Optional[str] = None         # "comp.fn" for an import
    consts: list = field(default_factory=list)   # per callee parameter: C_j, or (export, slot)
    kr: int = 0


@dataclass
class Export:
    comp: str
    name: str
    sig_text: str
    k0: int = 0
    ks: list = field(default_factory=list)
    calls: list = field(default_factory=list)
    comb: bool = False
    delay: int = 0
    ret_target: Optional[str] = None     # "comp.fn" whose handle a function-typed result is
    sig: Optional[FunctionType] = None


@dataclass
class RandSystem:
    seed: int
    yaml_text: str
    linked: LinkedSystem
    exports: dict                         # "comp.fn" -> Export
    steps: list                           # (target "comp.fn", [arg bits])
    handles: dict                         # handle address -> "comp.fn"
    sources: dict                         # component -> Verilog text
    topology: str
    data_width: int
    arbitration: str = "round_robin"
    arm_handles: dict = field(default_factory=dict)   # (export, param index) -> handle for the ARM

    def handle(self, ref) -> int:
        return linked_handle(self.linked, ref)

    # --- the model
    def call(self, key: str, args: list[int]) -> Optional[int]:
        """Raw result bits of export ``key`` called with raw argument bits (None: void)."""
        e = self.exports[key]
        if e.comp == "host":
            # the ARM sees floats as Python floats: a NaN's payload need not survive
            args = [canonical_nan(p.type, v) for p, v in zip(e.sig.params, args)]
        acc = e.k0
        for v, k in zip(args, e.ks):
            acc = mix(acc, v, k)
        for c in e.calls:
            sub = []
            for p, const in zip(c.sig.params, c.consts):
                if isinstance(p.type, FunctionType):
                    sub.append(self.handle(const))
                else:
                    sub.append(cut(acc ^ const, width(p.type)))
            target = c.target if c.target is not None else self.handles[args[c.param]]
            r = self.call(target, sub)
            if has_value(c.sig.result):
                acc = mix(acc, r, c.kr)
            else:
                acc = mix(acc, 0, c.kr)
        res = e.sig.result
        if isinstance(res, FunctionType):
            return self.handle(e.ret_target)
        if has_value(res):
            return cut(acc, width(res))
        return None

    def expected_reports(self) -> list[tuple[int, int, int, bool]]:
        out = []
        for i, (key, args) in enumerate(self.steps):
            r = self.call(key, args)
            r = 0 if r is None else r
            out.append((i, r & 0xFFFF_FFFF, r >> 32, False))
        return out

    def describe(self) -> str:
        lines = [f"seed {self.seed}: {self.topology} {self.data_width}-bit {self.arbitration}"]
        for key, e in self.exports.items():
            calls = ", ".join(c.target or f"param {c.param}" for c in e.calls)
            lines.append(f"  {key}: {e.sig_text}  calls [{calls}]"
                         f"{' comb' if e.comb else f' delay {e.delay}'}")
        return "\n".join(lines)


def _rand_value_type(rng: random.Random) -> str:
    return rng.choice(VALUE_TYPES)


def random_system(seed: int, workdir: Path, max_workers: int = 4, vectors: int = 3) -> RandSystem:
    """Build, link and write (Verilog under ``workdir/rtl``) one random system."""
    rng = random.Random(seed)
    k = rng.randint(1, max_workers)
    workers = [f"w{i}" for i in range(k)]
    topology = rng.choice(["crossbar", "shared"])
    data_width = rng.choice([32, 64])
    # from a stream of its own, so adding it left every seed's system as it was
    arbitration = random.Random(seed * 7919 + 1).choice(["round_robin", "fair"])

    # signatures, built from the last worker to the first so function types can refer to
    # later workers' exports
    sig_of: dict[str, str] = {}          # "comp.fn" -> signature text
    first_order: list[str] = []          # exports without function-typed parameters
    comps: dict[str, dict] = {}
    fparam_src: dict[tuple[str, int], str] = {}   # (export key, param index) -> "comp.fn"

    def windex(key: str) -> int:
        """Position in the call order: w<i> is i, the ARM's functions come last."""
        comp_ = key.split(".")[0]
        return HOST_INDEX if comp_ == "host" else int(comp_[1:])

    # the ARM's own functions (value types only; no floats as results): hardware calls
    # them through imports and through function values
    host_exports = {}
    for hi in range(rng.randint(0, 2)):
        params = [(f"p{pi}", _rand_value_type(rng)) for pi in range(rng.randint(0, 3))]
        result = rng.choice(["void"] + [t for t in VALUE_TYPES if not t.startswith("f")])
        text = f"({', '.join(f'{n}: {t}' for n, t in params)}) -> {result}"
        host_exports[f"h{hi}"] = text
        sig_of[f"host.h{hi}"] = text
        first_order.append(f"host.h{hi}")
    for wi in reversed(range(k)):
        w = workers[wi]
        later = [key for key in first_order if windex(key) > wi]
        exports = {}
        for ei in range(rng.randint(1, 3)):
            name = f"e{ei}"
            named = rng.random() < 0.7
            params = []
            nparams = rng.randint(0, 4)
            fpos = rng.randint(0, nparams) if later and rng.random() < 0.6 else None
            for pi in range(nparams + (1 if fpos is not None else 0)):
                if fpos is not None and pi == fpos:
                    src = rng.choice(later)
                    params.append(("cb", f"{sig_of[src]}"))
                    fparam_src[(f"{w}.{name}", pi)] = src
                else:
                    params.append((f"p{pi}", _rand_value_type(rng)))
            r = rng.random()
            if r < 0.15:
                result = "void"
            elif r < 0.25 and later:
                result = sig_of[rng.choice(later)]
            else:
                result = _rand_value_type(rng)
            ptext = ", ".join(f"{n}: {t}" if named else t for n, t in params)
            text = f"({ptext}) -> {result}"
            exports[name] = text
            sig_of[f"{w}.{name}"] = text
            if fpos is None:
                first_order.append(f"{w}.{name}")
        # static imports of later workers' exports
        cand = [key for key in sig_of if windex(key) > wi]
        imports = sorted(set(rng.sample(cand, min(len(cand), rng.randint(0, 2))))) if cand else []
        comps[w] = {"exports": exports, "imports": imports}

    # --- behaviour of every export, decided before linking (it decides how many dynamic
    # slots each export needs: every place that passes a function value gets its own slot,
    # so concurrent callers never share one)
    from pushpush.types import parse_signature, structurally_equal
    sigs = {key: parse_signature(t) for key, t in sig_of.items()}
    exports: dict[str, Export] = {}
    for key in sorted(sig_of):
        comp_, fn = key.split(".")
        exports[key] = Export(comp_, fn, sig_of[key], sig=sigs[key])
    uses: dict[str, int] = {key: 0 for key in sig_of}

    def matching(ft: FunctionType, after: int, default: Optional[str]) -> Optional[str]:
        """A first-order export of a worker after index ``after`` whose signature is ``ft``."""
        opts = [key for key, e in exports.items()
                if windex(key) > after and structurally_equal(e.sig, ft)
                and not any(isinstance(p.type, FunctionType) for p in e.sig.params)]
        return rng.choice(opts) if opts else default

    def slot_of(key: str) -> tuple[str, int]:
        """A dynamic slot of export ``key`` of its own."""
        uses[key] += 1
        return (key, uses[key] - 1)

    for w in workers:
        wi = int(w[1:])
        my_imports = comps[w]["imports"]
        names = sorted(comps[w]["exports"])
        owners = [rng.choice(names) for _ in my_imports]
        for fn in names:
            key = f"{w}.{fn}"
            e = exports[key]
            sig = e.sig
            e.k0 = rng.getrandbits(64)
            e.ks = [rng.getrandbits(64) for _ in sig.params]
            calls = []
            for pi, p in enumerate(sig.params):
                if isinstance(p.type, FunctionType):
                    calls.append(Call(group=port_name(fn, sig.params, pi), sig=p.type, param=pi))
            for imp, owner in zip(my_imports, owners):
                if owner == fn:
                    calls.append(Call(group=imp.replace(".", "_"), sig=sigs[imp], target=imp))
            rng.shuffle(calls)
            for c in calls:
                c.kr = rng.getrandbits(64)
                callee = c.target if c.target else fparam_src[(key, c.param)]
                for p in c.sig.params:
                    if isinstance(p.type, FunctionType):
                        c.consts.append(slot_of(matching(p.type, windex(callee), None)))
                    else:
                        c.consts.append(rng.getrandbits(64))
            e.calls = calls
            e.comb = not calls and rng.random() < 0.5
            e.delay = rng.randint(0, 3)
            if isinstance(sig.result, FunctionType):
                e.ret_target = matching(sig.result, -1, None)
                assert e.ret_target is not None, (seed, key)

    for key in sig_of:
        if key.startswith("host."):
            e = exports[key]
            e.k0 = rng.getrandbits(64)
            e.ks = [rng.getrandbits(64) for _ in e.sig.params]

    worker_keys = sorted(key for key in sig_of if not key.startswith("host."))
    # the driver's function values: one slot per (export called, parameter); the ARM's too
    drv_refs = {}
    arm_refs = {}
    for key in worker_keys:
        e = exports[key]
        for pi, p in enumerate(e.sig.params):
            if isinstance(p.type, FunctionType):
                drv_refs[(key, pi)] = slot_of(matching(p.type, windex(key), fparam_src[(key, pi)]))
                arm_refs[(key, pi)] = slot_of(matching(p.type, windex(key), fparam_src[(key, pi)]))

    data = {
        "system": f"rand{seed}",
        "board": "none",
        "interconnect": {"topology": topology, "data_width": data_width, "arbitration": arbitration},
        "components": {},
    }
    for w in workers:
        ex = {}
        for fn, t in sorted(comps[w]["exports"].items()):
            n = max(1, uses[f"{w}.{fn}"])
            ex[fn] = t if n == 1 else {"signature": t, "dynamic_slots": n}
        c = {"kind": "rtl", "module": f"rnd_{w}", "sources": [f"rtl/rnd_{w}.v"], "exports": ex}
        if comps[w]["imports"]:
            c["imports"] = comps[w]["imports"]
        data["components"][w] = c
    data["components"]["drv"] = {
        "kind": "rtl", "module": "rnd_drv", "sources": ["rtl/rnd_drv.v"],
        "exports": {"run": "() -> u32"}, "imports": worker_keys + ["host.report"]}
    hx: dict = {"report": "(idx: u32, lo: u32, hi: u32, err: bool) -> void"}
    for fn, t in host_exports.items():
        n = max(1, uses[f"host.{fn}"])
        hx[fn] = t if n == 1 else {"signature": t, "dynamic_slots": n}
    data["components"]["host"] = {"kind": "python", "exports": hx,
                                  "imports": ["drv.run"] + worker_keys}
    text = yaml.safe_dump(data, sort_keys=False)
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "system.yaml").write_text(text)
    linked = link(parse_system(text, file=str(workdir / "system.yaml"), base_dir=workdir))

    handles = {}
    for w in workers + ["host"]:
        comp = linked.component(w)
        for info in comp.exports:
            if w == "host" and info.name == "report":
                continue
            assert structurally_equal(info.signature, exports[f"{w}.{info.name}"].sig)
            for i in info.dynamic_slots:
                handles[comp.slots[i].address] = f"{w}.{info.name}"

    # the driver's test vectors
    steps = []
    for _ in range(vectors):
        for key in worker_keys:
            e = exports[key]
            args = []
            for pi, p in enumerate(e.sig.params):
                if isinstance(p.type, FunctionType):
                    args.append(linked_handle(linked, drv_refs[(key, pi)]))
                else:
                    w_ = width(p.type)
                    edge = rng.random()
                    if edge < 0.15:
                        args.append((1 << w_) - 1)
                    elif edge < 0.25:
                        args.append(1 << (w_ - 1))
                    elif edge < 0.3:
                        args.append(0)
                    else:
                        args.append(rng.getrandbits(w_))
            steps.append((key, args))
    rng.shuffle(steps)
    arm_handles = {k: linked_handle(linked, ref) for k, ref in arm_refs.items()}

    rs = RandSystem(seed=seed, yaml_text=text, linked=linked, exports=exports, steps=steps,
                    handles=handles, sources={}, topology=topology, data_width=data_width,
                    arbitration=arbitration, arm_handles=arm_handles)
    for w in workers:
        rs.sources[w] = worker_verilog(rs, w)
    rs.sources["drv"] = driver_verilog(rs)
    (workdir / "rtl").mkdir(exist_ok=True)
    for comp, src in rs.sources.items():
        (workdir / "rtl" / f"rnd_{comp}.v").write_text(src)
    return rs


def linked_handle(linked: LinkedSystem, ref) -> int:
    """Address of dynamic slot ``ref[1]`` of export ``ref[0]`` ("comp.fn"; a bare key: slot 0)."""
    key, idx = (ref, 0) if isinstance(ref, str) else ref
    comp, fn = key.split(".")
    c = linked.component(comp)
    return c.slots[c.export(fn).dynamic_slots[idx]].address


# ------------------------------------------------------------------------------------
# Verilog


def _zext(sig: str, w: int) -> str:
    return sig if w == 64 else f"{{{64 - w}'d0, {sig}}}"


def _header(module: str, ports) -> list[str]:
    lines = [f"// Generated by tests/gen/randsys.py (random pushpush system). Do not edit.",
             "`default_nettype none", "", f"module {module}", "("]
    decls = []
    for p in ports:
        if p.optional:
            continue
        rng_ = "" if p.width == 1 else f" [{p.width - 1}:0]"
        kind = "wire"
        decls.append(f"    {p.direction:<6} {kind}{rng_} {p.name}")
    lines.append(",\n".join(decls))
    lines += [");", "",
              "function [63:0] mix;",
              "    input [63:0] a;",
              "    input [63:0] v;",
              "    input [63:0] k;",
              "    begin",
              "        mix = {a[56:0], a[63:57]} ^ (v + k);",
              "    end",
              "endfunction", ""]
    return lines


def worker_verilog(rs: RandSystem, w: str) -> str:
    comp = rs.linked.component(w)
    ports = user_ports(comp)
    names = {p.name for p in ports}
    out = _header(f"rnd_{w}", ports)
    used: set[str] = {"clk", "rst"}
    partial: list[str] = []   # wires of which only some bits are used
    for info in comp.exports:
        e = rs.exports[f"{w}.{info.name}"]
        f = info.name
        sig = info.signature
        # the input mix, combinational from the argument ports
        out.append(f"// export {f}: {e.sig_text}")
        out.append(f"wire [63:0] {f}_m0 = 64'h{e.k0:016X};")
        for pi, p in enumerate(sig.params):
            pn = port_name(f, sig.params, pi)
            assert pn in names, (pn, names)
            used.add(pn)
            out.append(f"wire [63:0] {f}_m{pi + 1} = mix({f}_m{pi}, {_zext(pn, width(p.type))}, "
                       f"64'h{e.ks[pi]:016X});")
        mfinal = f"{f}_m{len(sig.params)}"
        res = sig.result
        used |= {f"{f}_valid", f"{f}_result_ready"}
        if e.comb:
            # answered in the cycle of the call; if the wrapper cannot take the result in
            # that cycle (f_result_ready low), it is held until taken
            out += [f"reg        {f}_hold;",
                    f"initial {f}_hold = 1'b0;",
                    f"assign {f}_ready = !{f}_hold;",
                    f"assign {f}_result_valid = {f}_hold || {f}_valid;",
                    "always @(posedge clk) begin",
                    f"    if ({f}_valid && {f}_ready && !{f}_result_ready) {f}_hold <= 1'b1;",
                    f"    else if ({f}_hold && {f}_result_ready) {f}_hold <= 1'b0;",
                    f"    if (rst) {f}_hold <= 1'b0;",
                    "end"]
            if isinstance(res, FunctionType):
                out.append(f"assign {f}_result = 32'h{rs.handle(e.ret_target):08X};")
            elif has_value(res):
                wr = width(res)
                out += [f"reg [{wr - 1}:0] {f}_held;" if wr > 1 else f"reg {f}_held;",
                        f"initial {f}_held = {wr}'d0;",
                        f"always @(posedge clk) if ({f}_valid && {f}_ready) {f}_held <= {mfinal}[{wr - 1}:0];",
                        f"assign {f}_result = {f}_hold ? {f}_held : {mfinal}[{wr - 1}:0];"]
            partial.append(mfinal)
            out.append("")
            continue
        n = len(e.calls)
        # states: 0 idle, 2j+1 call j, 2j+2 wait j, 2n+1 delay, 2n+2 done
        sdone = 2 * n + 2
        sdelay = 2 * n + 1
        partial.append(f"{f}_acc")
        out += [f"reg [7:0]  {f}_st;", f"reg [63:0] {f}_acc;", f"reg [1:0]  {f}_dly;",
                f"initial begin {f}_st = 8'd0; {f}_acc = 64'd0; {f}_dly = 2'd0; end",
                f"assign {f}_ready = {f}_st == 8'd0;",
                f"assign {f}_result_valid = {f}_st == 8'd{sdone};"]
        if isinstance(res, FunctionType):
            out.append(f"assign {f}_result = 32'h{rs.handle(e.ret_target):08X};")
        elif has_value(res):
            out.append(f"assign {f}_result = {f}_acc[{width(res) - 1}:0];")
        for j, c in enumerate(e.calls):
            g = c.group
            used |= {f"{g}_ready", f"{g}_result_valid", f"{g}_result_error"}
            out.append(f"assign {g}_valid = {f}_st == 8'd{2 * j + 1};")
            out.append(f"assign {g}_result_ready = {f}_st == 8'd{2 * j + 2};")
            for pi, (p, const) in enumerate(zip(c.sig.params, c.consts)):
                pn = port_name(g, c.sig.params, pi)
                assert pn in names, (pn, names)
                if isinstance(p.type, FunctionType):
                    out.append(f"assign {pn} = 32'h{rs.handle(const):08X};")
                else:
                    wp = width(p.type)
                    out.append(f"assign {pn} = {f}_acc[{wp - 1}:0] ^ {vhex(const, wp)};")
            if has_value(c.sig.result):
                used.add(f"{g}_result")
                rv = _zext(f"{g}_result", width(c.sig.result))
            else:
                rv = "64'd0"
            out.append(f"wire [63:0] {g}_next = {g}_result_error ? {f}_acc ^ 64'h{ERR:016X} "
                       f": mix({f}_acc, {rv}, 64'h{c.kr:016X});")
        out.append("always @(posedge clk) begin")
        out.append(f"    case ({f}_st)")
        out.append(f"        8'd0: if ({f}_valid) begin {f}_acc <= {mfinal}; "
                   f"{f}_dly <= 2'd{e.delay}; {f}_st <= 8'd{1 if n else sdelay}; end")
        for j, c in enumerate(e.calls):
            g = c.group
            out.append(f"        8'd{2 * j + 1}: if ({g}_ready) {f}_st <= 8'd{2 * j + 2};")
            out.append(f"        8'd{2 * j + 2}: if ({g}_result_valid) begin {f}_acc <= {g}_next; "
                       f"{f}_st <= 8'd{2 * j + 3 if j + 1 < n else sdelay}; end")
        out.append(f"        8'd{sdelay}: if ({f}_dly == 2'd0) {f}_st <= 8'd{sdone}; "
                   f"else {f}_dly <= {f}_dly - 2'd1;")
        out.append(f"        default: if ({f}_result_ready) {f}_st <= 8'd0;")
        out.append("    endcase")
        out.append(f"    if (rst) {f}_st <= 8'd0;")
        out.append("end")
        out.append("")
    # every input (harmless for the used ones) and the partly used wires
    rest = [p.name for p in ports if not p.optional and p.direction == "input"] + partial
    out.append(f"wire unused = &{{1'b0{''.join(', ' + r for r in rest)}}};")
    out += ["", "endmodule", "", "`default_nettype wire", ""]
    return "\n".join(out)


def driver_verilog(rs: RandSystem) -> str:
    """The driver: one lane per worker export, all lanes running at once (each calls its
    export with its test vectors one after the other); the lanes share host.report through
    a lowest-lane-first arbiter."""
    comp = rs.linked.component("drv")
    ports = user_ports(comp)
    names = {p.name for p in ports}
    out = _header("rnd_drv", ports)
    keys = [f"{imp.component}.{imp.function}" for imp in comp.imports if imp.component != "host"]
    nsteps = len(rs.steps)
    lanes = []   # (key, group, [global step indices])
    for key in keys:
        lanes.append((key, key.replace(".", "_"), [i for i, (k2, _a) in enumerate(rs.steps) if k2 == key]))
    nl = len(lanes)
    unused = ["clk"]
    # lane states: 0 idle, 1 call, 2 wait, 3 want report, 4 reporting, 5 done
    out += [f"reg [{nl - 1}:0] rep_sel;", "reg [1:0]  rep_st;", "reg [15:0] report_errors;",
            "initial begin rep_sel = 0; rep_st = 2'd0; report_errors = 16'd0; end",
            "wire start = run_valid && run_ready;", ""]
    want = []
    for li, (key, g, idxs) in enumerate(lanes):
        e = rs.exports[key]
        sig = e.sig
        n = len(idxs)
        out += [f"// lane {li}: import {key}: {e.sig_text}, steps {idxs}",
                f"reg [2:0]  l{li}_st;", f"reg [15:0] l{li}_k;", f"reg [63:0] l{li}_res;",
                f"reg        l{li}_err;", f"reg [15:0] l{li}_idx;",
                f"initial begin l{li}_st = 3'd0; l{li}_k = 16'd0; l{li}_res = 64'd0; l{li}_err = 1'b0; end",
                f"assign {g}_valid = l{li}_st == 3'd1;",
                f"assign {g}_result_ready = l{li}_st == 3'd2;"]
        out.append("always @* begin")
        out.append(f"    case (l{li}_k)")
        for j, si in enumerate(idxs):
            out.append(f"        16'd{j}: l{li}_idx = 16'd{si};")
        out.append(f"        default: l{li}_idx = 16'd0;")
        out.append("    endcase")
        out.append("end")
        for pi, p in enumerate(sig.params):
            pn = port_name(g, sig.params, pi)
            assert pn in names, pn
            wp = width(p.type)
            out.append(f"reg [{wp - 1}:0] {pn}_r;" if wp > 1 else f"reg {pn}_r;")
            out.append(f"assign {pn} = {pn}_r;")
            out.append("always @* begin")
            out.append(f"    case (l{li}_k)")
            for j, si in enumerate(idxs):
                out.append(f"        16'd{j}: {pn}_r = {vhex(rs.steps[si][1][pi], wp)};")
            out.append(f"        default: {pn}_r = {wp}'d0;")
            out.append("    endcase")
            out.append("end")
        rv = (_zext(f"{g}_result", width(sig.result)) if has_value(sig.result) else "64'd0")
        if has_value(sig.result):
            unused.append(f"{g}_result")
        unused += [f"{g}_ready", f"{g}_result_valid", f"{g}_result_error"]
        out += ["always @(posedge clk) begin",
                f"    case (l{li}_st)",
                f"        3'd0: if (start) begin l{li}_k <= 16'd0; l{li}_st <= 3'd1; end",
                f"        3'd1: if ({g}_ready) l{li}_st <= 3'd2;",
                f"        3'd2: if ({g}_result_valid) begin l{li}_res <= {rv}; "
                f"l{li}_err <= {g}_result_error; l{li}_st <= 3'd3; end",
                f"        3'd3: if (grant[{li}]) l{li}_st <= 3'd4;",
                f"        3'd4: if (rep_done && rep_sel[{li}]) begin",
                f"            l{li}_k <= l{li}_k + 16'd1;",
                f"            l{li}_st <= l{li}_k + 16'd1 == 16'd{n} ? 3'd5 : 3'd1;",
                "        end",
                f"        default: if (run_result_valid && run_result_ready) l{li}_st <= 3'd0;",
                "    endcase",
                f"    if (rst) l{li}_st <= 3'd0;",
                "end", ""]
        want.append(f"l{li}_st == 3'd3")
    out.append(f"wire [{nl - 1}:0] want = {{{', '.join(reversed(want))}}};")
    out.append(f"wire [{nl - 1}:0] grant = rep_st == 2'd0 ? want & ~(want - {nl}'d1) : {nl}'d0;")
    out.append("wire rep_done = rep_st == 2'd2 && host_report_result_valid;")

    def mux(fmt: str, default: str) -> str:
        return " : ".join(f"rep_sel[{li}] ? {fmt.format(l=li)}" for li in range(nl)) + f" : {default}"

    m_idx = mux("l{l}_idx", "16'd0")
    m_lo = mux("l{l}_res[31:0]", "32'd0")
    m_hi = mux("l{l}_res[63:32]", "32'd0")
    m_err = mux("l{l}_err", "1'b0")
    all_done = " && ".join(f"l{li}_st == 3'd5" for li in range(nl))
    all_idle = " && ".join(f"l{li}_st == 3'd0" for li in range(nl))
    out += ["assign host_report_valid = rep_st == 2'd1;",
            f"assign host_report_idx = {{16'd0, {m_idx}}};",
            f"assign host_report_lo = {m_lo};",
            f"assign host_report_hi = {m_hi};",
            f"assign host_report_err = {m_err};",
            "assign host_report_result_ready = rep_st == 2'd2;",
            f"wire all_done = {all_done};",
            f"wire all_idle = {all_idle};",
            "assign run_ready = all_idle;",
            "assign run_result_valid = all_done;",
            f"assign run_result = {{report_errors, 16'd{nsteps}}};",
            "",
            "always @(posedge clk) begin",
            "    if (start) report_errors <= 16'd0;",
            "    case (rep_st)",
            "        2'd0: if (|want) begin rep_sel <= grant; rep_st <= 2'd1; end",
            "        2'd1: if (host_report_ready) rep_st <= 2'd2;",
            "        default: if (host_report_result_valid) begin",
            "            if (host_report_result_error) report_errors <= report_errors + 16'd1;",
            "            rep_st <= 2'd0;",
            "        end",
            "    endcase",
            "    if (rst) rep_st <= 2'd0;",
            "end", ""]
    got = {"host_report_valid", "host_report_idx", "host_report_lo", "host_report_hi",
           "host_report_err", "host_report_result_ready", "run_ready", "run_result_valid",
           "run_result"}
    assert got <= names, got - names
    unused += ["host_report_ready", "host_report_result_valid", "host_report_result_error",
               "run_valid", "run_result_ready"]
    out.append(f"wire unused = &{{1'b0, {', '.join(unused)}}};")
    out += ["", "endmodule", "", "`default_nettype wire", ""]
    return "\n".join(out)
