"""One module, or one package when it has several, per ``pushpush bench`` experiment.

The registry (:mod:`pushpush.bench.registry`) names each experiment's ``run(opts, log)``:

- :mod:`.suite`: ``all`` and ``summary`` (the PushPush paper's evaluation, one folder);
- :mod:`.calls`: ``calls`` (Table II/III: every caller -> callee kind, with the C, RISC-V and
  Cortex-A9 rows); :mod:`.scaling`: ``scaling`` (Fig. 3); :mod:`.area`: ``area`` (Fig. 4, with
  the interconnect alone and the soft core); :mod:`.args`: ``args`` (Fig. 5/6);
- :mod:`.fairness`: ``fairness`` (the ABE paper); :mod:`.wait`: ``wait`` (wake-up latency,
  Python and C); :mod:`.dma`, :mod:`.channels`: bulk transfers; :mod:`.simboard`,
  :mod:`.simspeed`: the simulated board's and the simulator's speed; :mod:`.callpath`: the
  Python runtime's CPU time per call.

An experiment imports the shared parts above it (:mod:`pushpush.bench`), never another
experiment's command; ``simspeed`` reuses the scaling system and ``simboard``'s CPU clock,
``suite`` runs calls, scaling, area and args.
"""
