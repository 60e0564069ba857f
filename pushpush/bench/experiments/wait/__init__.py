"""``pushpush bench wait``: how fast a waiting handler wakes, per wait mode: the Python rows
and the command (:mod:`.wait`), the C rows (:mod:`.wait_c`) and what both measure with
(:mod:`.measure`)."""
