"""Reproducible performance runs of docgen: `make bench` (benchmarks/run.py) writes benchmarks/RESULTS.md."""
