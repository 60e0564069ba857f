"""``pushpush bench scaling``: N pingpong pairs calling at once (the PushPush paper's Fig. 3).

:mod:`.scaling` measures (the generated system, the simulation, the table), with its cocotb
side :mod:`.scaling_tb`; :mod:`.scaling_report` puts a run in the common results format (the
paper evaluation's form); :mod:`.command` is the command (``run(opts, log)``), above both.
"""
