"""Benchmarks: `make bench` runs `python -m benchmarks` and prints medians over repeated runs."""
