"""``pushpush bench calls``: the PushPush paper's Table II/III (:mod:`.calls`), with its rows
of C on this host (:mod:`.c_rows`) and of C on the soft RISC-V core (:mod:`.riscv_rows`,
cocotb sides :mod:`.riscv_tb` and :mod:`.riscv_pairs_tb`, the two-core system in
``riscv_pairs/``); the Cortex-A9 estimate of the C rows is :mod:`pushpush.bench.a9`."""
