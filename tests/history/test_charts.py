"""The running-total chart: valid SVG, one line per player, labels and an accessible description."""

import xml.etree.ElementTree as ET

from scorekeeper.history.charts import nice_step, running_totals_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg):
    return ET.fromstring(str(svg))


def test_one_polyline_per_player_with_a_point_per_deal_and_start():
    totals = [{"Ann": 100, "Ben": -20}, {"Ann": 150, "Ben": 200}, {"Ann": 400, "Ben": 180}]
    root = parse(running_totals_svg(["Ann", "Ben"], totals, target=1000))
    lines = root.findall(f".//{NS}polyline")
    assert len(lines) == 2
    assert all(len(pl.get("points").split()) == 4 for pl in lines)
    assert {pl.get("class") for pl in lines} == {"series s0", "series s1"}
    text = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "Ann 400" in text and "Ben 180" in text and "target 1,000" in text
    assert root.get("role") == "img"
    desc = root.find(f"{NS}desc").text
    assert "Totals after 3 deals: Ann 400, Ben 180" in desc


def test_y_goes_up_for_higher_totals_and_negatives_fit():
    root = parse(running_totals_svg(["A", "B"], [{"A": -300, "B": 500}]))
    pa, pb = [pl.get("points").split()[-1] for pl in root.findall(f".//{NS}polyline")]
    ya, yb = float(pa.split(",")[1]), float(pb.split(",")[1])
    assert yb < ya  # SVG y grows downward: the higher total is drawn higher
    assert all(
        0 <= float(p.split(",")[1]) <= 300 for pl in root.findall(f".//{NS}polyline") for p in pl.get("points").split()
    )


def test_no_inline_style_and_names_escaped():
    svg = str(running_totals_svg(["<b>x</b>", "Ben"], [{"<b>x</b>": 5, "Ben": 1}]))
    assert "style=" not in svg and "<b>" not in svg and "&lt;b&gt;" in svg
    parse(svg)


def test_many_deals_and_empty_game():
    totals = [{"A": i * 10, "B": i * 7} for i in range(1, 31)]
    root = parse(running_totals_svg(["A", "B"], totals, target=150))
    assert len(root.findall(f".//{NS}polyline")) == 2
    parse(running_totals_svg(["A", "B"], []))


def test_end_labels_do_not_overlap():
    root = parse(running_totals_svg(["A", "B", "C"], [{"A": 100, "B": 101, "C": 99}]))
    ys = sorted(float(t.get("y")) for t in root.iter(f"{NS}text") if "end-label" in (t.get("class") or ""))
    assert all(b - a >= 13.9 for a, b in zip(ys, ys[1:], strict=False))


def test_nice_step():
    assert nice_step(1000) == 200 and nice_step(100) == 20 and nice_step(7) == 2 and nice_step(0) == 1
