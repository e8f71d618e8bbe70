"""Benchmarks: `make bench` runs `python -m scorekeeper.bench` and prints medians over repeated runs."""
