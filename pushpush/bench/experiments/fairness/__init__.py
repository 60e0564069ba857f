"""``pushpush bench fairness``: the ABE paper's fairness experiment (:mod:`.fairness`), its
cocotb side :mod:`.fairness_tb` and its harness ``pushpush/bench/rtl/pp_fairness_top.v``."""
