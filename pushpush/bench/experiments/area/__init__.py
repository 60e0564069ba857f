"""``pushpush bench area``: the PushPush paper's Fig. 4 with Yosys (:mod:`.area`), the
interconnect alone against verilog-axi's crossbar (:mod:`.xbar_area`) and the soft RISC-V
core's area (:mod:`.riscv_area`)."""
