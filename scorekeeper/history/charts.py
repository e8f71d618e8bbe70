"""A line chart of each player's running total per deal, drawn on the server as SVG.

Plain Python, no chart framework, no inline styles (CSP: style-src 'self'): every colour comes
from classes styled in static/history.css, so the chart follows dark mode and prints in black.
Series differ by colour, dash pattern and marker shape, and each line is labelled with the
player's name at its end, so colour is never the only cue. The SVG carries a title and a
description for screen readers; pages show the same numbers in a table beside it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext

from scorekeeper.table.text import value_text

MARKERS = ("circle", "square", "triangle", "diamond", "cross")
WIDTH, HEIGHT = 420, 300
LEFT, RIGHT, TOP, BOTTOM = 46, 124, 16, 38  # the right margin holds the end labels: "Annabel… -1,060"
LABEL_GAP = 14


def nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2, 5 × 10^k) giving about ``ticks`` intervals over ``span``."""
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return max(1, int(m * power))
    return max(1, int(10 * power))


def _fmt(n: float) -> str:
    return f"{n:.1f}".rstrip("0").rstrip(".")


def _marker(shape: str, x: float, y: float, cls: str, r: float = 4.0) -> str:
    if shape == "circle":
        return f'<circle class="marker {cls}" cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r)}"/>'
    if shape == "square":
        return (
            f'<rect class="marker {cls}" x="{_fmt(x - r)}" y="{_fmt(y - r)}" '
            f'width="{_fmt(2 * r)}" height="{_fmt(2 * r)}"/>'
        )
    if shape == "triangle":
        pts = f"{_fmt(x)},{_fmt(y - r - 1)} {_fmt(x + r + 1)},{_fmt(y + r)} {_fmt(x - r - 1)},{_fmt(y + r)}"
        return f'<polygon class="marker {cls}" points="{pts}"/>'
    if shape == "diamond":
        pts = (
            f"{_fmt(x)},{_fmt(y - r - 1)} {_fmt(x + r + 1)},{_fmt(y)} "
            f"{_fmt(x)},{_fmt(y + r + 1)} {_fmt(x - r - 1)},{_fmt(y)}"
        )
        return f'<polygon class="marker {cls}" points="{pts}"/>'
    return (
        f'<path class="marker {cls}" d="M{_fmt(x - r)} {_fmt(y - r)}L{_fmt(x + r)} {_fmt(y + r)}'
        f'M{_fmt(x - r)} {_fmt(y + r)}L{_fmt(x + r)} {_fmt(y - r)}"/>'
    )


def _spread_labels(ys: list[float], lo: float, hi: float, gap: float = LABEL_GAP) -> list[float]:
    """Move end labels apart vertically (keeping their order) so no two overlap."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0.0] * len(ys)
    last = -math.inf
    for i in order:
        y = max(ys[i], last + gap)
        placed[i] = y
        last = y
    overflow = last - hi
    if overflow > 0:
        for i in order:
            placed[i] = max(lo, placed[i] - overflow)
        # re-space from the top after shifting
        last = -math.inf
        for i in order:
            placed[i] = max(placed[i], last + gap)
            last = placed[i]
    return placed


def running_totals_svg(
    players: Sequence[str],
    totals: Sequence[Mapping[str, int]],
    *,
    target: int | None = None,
    title: str = "",
    penalty: bool = False,
    chart_id: str = "chart",
    numbers: Sequence[int] | None = None,
) -> SafeString:
    """An SVG line chart: x = deal number (0 = the start), y = each player's total after that deal.

    ``totals`` holds one mapping per deal (the totals after it); ``numbers``, when given, the deal
    each is after (a long game is drawn at some of its deals, its last among them: ``sampled``).
    ``target`` draws a dashed line. ``penalty`` only changes the description (lowest total is best).
    Every word and number is in the request's language (the review caches the chart per language).
    """
    title = title or gettext("Running totals")
    players = list(players)
    xs = [0, *(numbers if numbers is not None else range(1, len(totals) + 1))]
    n = xs[-1]
    series = {p: [0] + [int(t.get(p, 0)) for t in totals] for p in players}
    values = [v for s in series.values() for v in s] or [0]
    plot = _Plot.of(n, min(0, min(values)), max(values + ([target] if target else [])))
    desc = _describe(players, series, n, target, penalty)
    tid, did = f"{chart_id}-title", f"{chart_id}-desc"
    out = [
        f'<svg class="chart" id="{escape(chart_id)}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{tid} {did}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{tid}">{escape(title)}</title><desc id="{did}">{escape(desc)}</desc>',
        *_axes(plot),
        *(_target_line(plot, target) if target else ()),
        *_lines(plot, players, series, xs),
        "</svg>",
    ]
    return mark_safe("".join(out))


@dataclass(frozen=True)
class _Plot:
    """Where the chart draws: ``n`` deals across, totals from ``low`` to ``high`` (round values, a
    gridline every ``step``) up the plot area."""

    n: int
    low: int
    high: int
    step: int

    @classmethod
    def of(cls, n: int, lo: int, hi: int) -> _Plot:
        if hi == lo:
            hi = lo + 10
        step = nice_step(hi - lo)
        return cls(n, math.floor(lo / step) * step, math.ceil(hi / step) * step, step)

    @property
    def width(self) -> int:
        return WIDTH - LEFT - RIGHT

    @property
    def height(self) -> int:
        return HEIGHT - TOP - BOTTOM

    def x(self, i: int) -> float:
        return LEFT + (self.width * i / self.n if self.n else 0)

    def y(self, v: float) -> float:
        return TOP + self.height * (self.high - v) / (self.high - self.low)


def _axes(plot: _Plot) -> list[str]:
    """The y gridlines and their values, the axes, the x ticks (every deal when few, else a round
    step) and the x axis's name."""
    out = []
    pw, ph = plot.width, plot.height
    v = plot.low
    while v <= plot.high:
        y = plot.y(v)
        out.append(f'<line class="grid" x1="{LEFT}" x2="{LEFT + pw}" y1="{_fmt(y)}" y2="{_fmt(y)}"/>')
        out.append(f'<text x="{LEFT - 6}" y="{_fmt(y + 4)}" text-anchor="end">{value_text(v)}</text>')
        v += plot.step
    out.append(f'<line class="axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{TOP + ph}"/>')
    out.append(f'<line class="axis" x1="{LEFT}" x2="{LEFT + pw}" y1="{_fmt(plot.y(0))}" y2="{_fmt(plot.y(0))}"/>')
    xstep = 1 if plot.n <= 15 else nice_step(plot.n, 6)
    for i in range(0, plot.n + 1, xstep):
        x = plot.x(i)
        out.append(f'<line class="tick" x1="{_fmt(x)}" x2="{_fmt(x)}" y1="{TOP + ph}" y2="{TOP + ph + 4}"/>')
        out.append(f'<text x="{_fmt(x)}" y="{TOP + ph + 17}" text-anchor="middle">{i}</text>')
    axis = escape(pgettext("the chart's axis", "deal"))
    out.append(f'<text x="{LEFT + pw / 2:.0f}" y="{HEIGHT - 4}" text-anchor="middle">{axis}</text>')
    return out


def _target_line(plot: _Plot, target: int) -> list[str]:
    y = plot.y(target)
    label = escape(gettext("target {target}").format(target=value_text(target)))
    return [
        f'<line class="target" x1="{LEFT}" x2="{LEFT + plot.width}" y1="{_fmt(y)}" y2="{_fmt(y)}"/>',
        f'<text class="target-label" x="{LEFT + 4}" y="{_fmt(y - 4)}">{label}</text>',
    ]


def _lines(plot: _Plot, players: list[str], series: dict[str, list[int]], xs: list[int]) -> list[str]:
    """Each player's line with its markers (each deal when few, else the last), then the names at
    the lines' ends, spread so that they do not overlap. ``xs``: the deal of each point."""
    out = []
    ends = []
    n = plot.n
    for k, p in enumerate(players):
        cls = f"s{k % 5}"
        pts = " ".join(f"{_fmt(plot.x(x))},{_fmt(plot.y(val))}" for x, val in zip(xs, series[p], strict=True))
        out.append(f'<g class="player"><title>{escape(p)}: {value_text(series[p][-1])}</title>')
        out.append(f'<polyline class="series {cls}" points="{pts}"/>')
        shape = MARKERS[k % len(MARKERS)]
        for i in range(len(xs)) if n <= 15 else (len(xs) - 1,):
            out.append(_marker(shape, plot.x(xs[i]), plot.y(series[p][i]), cls))
        out.append("</g>")
        ends.append(plot.y(series[p][-1]))
    for k, (p, y) in enumerate(zip(players, _spread_labels(ends, TOP + 6, TOP + plot.height), strict=True)):
        name = p if len(p) <= 8 else p[:7] + "…"
        out.append(
            f'<text class="s{k % 5} end-label" x="{_fmt(plot.x(n) + 8)}" y="{_fmt(y + 4)}">'
            f"{escape(name)} {value_text(series[p][-1])}</text>"
        )
    return out


def sampled(count: int, points: int) -> list[int]:
    """The deals a chart of a game of ``count`` deals is drawn at: every one when they are at most
    ``points``, else every k-th and the last (the plot is 250 units wide: more points would not show)."""
    step = max(1, math.ceil(count / points))
    numbers = list(range(step, count + 1, step))
    return numbers if numbers and numbers[-1] == count else [*numbers, count] if count else []


def _describe(players: list[str], series: dict[str, list[int]], n: int, target: int | None, penalty: bool) -> str:
    if not players:
        return gettext("No players.")
    finals = sorted(players, key=lambda p: series[p][-1], reverse=not penalty)
    parts = ", ".join(f"{p} {value_text(series[p][-1])}" for p in finals)
    text = ngettext("Totals after {n} deal: {parts}.", "Totals after {n} deals: {parts}.", n).format(n=n, parts=parts)
    if target:
        text += " " + gettext("Target {target}.").format(target=value_text(target))
    if penalty:
        text += " " + gettext("Penalty points: the lowest total is best.")
    return text
