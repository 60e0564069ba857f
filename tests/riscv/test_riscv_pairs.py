"""Every pairing with C on the soft RISC-V core, in one generated system in cocotb (Icarus):
tests/riscv/pairs/system.yaml, two riscv components (a, b), the Verilog hof_mapper and Python
on the ARM model. Every result is checked against a model:

- riscv -> riscv (a.to_rv: a calls b.g), and back (b.back: b calls a.g);
- riscv -> python (a.to_py: a calls host.p, served by the Python runtime);
- python -> riscv (host calls a.g and b.g);
- higher order: a.hof(x) lends a's C function dbl to the Verilog mapper, which calls it back
  twice: apply(dbl, x) = dbl(dbl(x)) + 1;
- the counters of both windows read over AXI (no fault in a clean run);
- errors and timeouts as for kind: c: a call of a Python function that raises returns
  PP_ECALLEE on the core, one that answers too late PP_ETIMEOUT, and the next call gets its own answer.
"""

from __future__ import annotations

from pathlib import Path

try:
    import cocotb
    from cocotb.triggers import Timer
except ImportError:  # collected by pytest outside the simulator
    cocotb = None

from pushpush.bench.experiments.calls.riscv_tb import MASK, chain, model_f

N = 4


def _i32(v: int) -> int:
    v &= MASK
    return v - (1 << 32) if v >> 31 else v


if cocotb is not None:
    @cocotb.test()
    async def riscv_pairs(dut):
        from pushpush.sim import cocotb_system

        py_state = [0]

        async def p(x: int) -> int:
            if x == 666:
                raise ValueError("p refuses 666")
            if x == 777:  # answers after the core's 100 us timeout: a late reply, a stray there
                await Timer(300, "us")
                return 0
            py_state[0] = model_f(py_state[0], x)
            return _i32(py_state[0])

        cs = cocotb_system(dut, "host")
        async with cs as rt:
            rt.export("p", p)
            # riscv -> riscv: a calls b.g n times (b's state from 0)
            assert (await rt.a.to_rv(N)) & MASK == chain(N, 3)
            # python -> riscv: b.g goes on from there
            b_state = model_f(chain(N, 3), 11)
            assert (await rt.b.g(11)) & MASK == b_state
            # riscv -> riscv, the other way: b calls a.g n times (a's state from 0)
            assert (await rt.b.back(N)) & MASK == chain(N, 7)
            # python -> riscv: a.g goes on from there
            assert (await rt.a.g(13)) & MASK == model_f(chain(N, 7), 13)
            # riscv -> python: a calls host.p n times
            assert (await rt.a.to_py(N)) & MASK == chain(N, 5)
            # higher order: the Verilog mapper calls a's lent C function back twice
            for x in (0, 5, -3, 1000):
                dbl = lambda v: (2 * v + 1) & MASK  # noqa: E731
                assert (await rt.a.hof(x)) & MASK == (dbl(dbl(x & MASK)) + 1) & MASK, x
            # the windows' counters over AXI (offsets 0x0-0xC, as an rtl window's): a clean run
            for comp in ("a", "b"):
                assert await counters(cs, comp) == [0, 0, 0, 0], comp
            # errors and timeouts as for kind: c: the callee raised -> PP_ECALLEE (-1)
            assert await rt.a.try_p(666, 100000) == -1
            assert [n for n, _ in rt.errors] == ["host.p"]
            rt.errors.clear()
            # no answer within the core's timeout -> PP_ETIMEOUT (-100); the next call through
            # that rep gets its own answer
            assert await rt.a.try_p(777, 100) == -100
            await Timer(400, "us")
            assert py_state[0] == chain(N, 5)  # neither 666 nor 777 changed p's state
            assert (await rt.a.try_p(9, 100000)) & MASK == model_f(chain(N, 5), 9)
            col, dup, stray, werr = await counters(cs, "a")
            # a late reply, if Python's runtime sends one, is cleared and counted; never delivered
            assert (col, dup, werr) == (0, 0, 0) and stray <= 1, (col, dup, stray, werr)


async def counters(cs, comp: str) -> list[int]:
    """collisions, duplicates, strays, write_errors of comp's window, read over AXI."""
    data = (await cs.ps.master.read(cs.ps.linked.component(comp).base, 16)).data
    return [int.from_bytes(data[k:k + 4], "little") for k in range(0, 16, 4)]


def test_riscv_pairs(tmp_path):
    from pushpush.bench.experiments.calls.riscv_rows import simulate_riscv_system

    sizes = simulate_riscv_system(Path(__file__).with_name("pairs") / "system.yaml", tmp_path,
                                  Path(__file__), {})
    assert set(sizes) == {"a", "b"}
