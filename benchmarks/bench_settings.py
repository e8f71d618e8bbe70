"""The app's settings for the web benchmarks, with the benchmark's own URLs (a bare view beside the
app's pages: the baseline of the throughput ratio). Never used by the app."""

from scorekeeper.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.bench_urls"
