"""Benchmarks run by ``pushpush bench`` (see :mod:`pushpush.bench.fairness`)."""
