"""The maker's hardware docs against the board modules' `PINS`: both wiring
diagrams draw every LED the firmware drives with its resistor, the cell's divider with its
capacitor and the polyfuse; the parts list counts what the pin maps need; no doc gives an
instruction the firmware dropped; every link into hardware/ lands on a heading.

The SVGs mark what these tests look for: `<g class="led">` holds one LED, its "330 Ω" resistor and
its pin label (`GP6`, `GPIO4`); `<g id="battery-sense">` the divider and `<g id="polyfuse">` the
fuse. A diagram redrawn by hand keeps those groups."""

import os
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest
from boardpins import ESP32, PICO

from conftest import ROOT

SVG_NS = "{http://www.w3.org/2000/svg}"
HW = os.path.join(ROOT, "hardware")
# board, its diagram, its pin map, how the diagram labels a GPIO, the parts list's section
BOARDS = [("pico", "wiring.svg", PICO, "GP%d", "Build A"), ("esp32", "wiring-esp32.svg", ESP32, "GPIO%d", "Build D")]


def _svg(name):
    return ET.parse(os.path.join(HW, name)).getroot()  # also: the file is well-formed XML


def _texts(el):
    return ["".join(t.itertext()).strip() for t in el.iter(SVG_NS + "text")]


def _led_pins(pins):
    return sorted(n for face in pins["leds"] for n in face)


@pytest.mark.parametrize("board,svg,pins,label,section", BOARDS)
def test_every_led_pin_is_drawn_with_its_resistor(board, svg, pins, label, section):
    root = _svg(svg)
    pat = re.compile("^" + label.replace("%d", r"(\d+)") + "$")
    drawn = []
    for g in root.iter(SVG_NS + "g"):
        if g.get("class") != "led":
            continue
        texts = _texts(g)
        gp = [int(m.group(1)) for m in map(pat.match, texts) if m]
        assert len(gp) == 1, (svg, g.get("id"), texts)  # one pin label per LED
        assert "330 Ω" in texts, (svg, g.get("id"), texts)  # its resistor
        assert list(g.iter(SVG_NS + "polygon")), (svg, g.get("id"))  # the LED's symbol
        drawn.append(gp[0])
    assert sorted(drawn) == _led_pins(pins), (svg, sorted(drawn), _led_pins(pins))
    # and each of those pins is labelled on the board's outline too (the pad the wire goes to)
    board_labels = " ".join(_texts(root))
    for n in _led_pins(pins):
        assert re.search(r"\b%s\b" % (label % n), board_labels), (svg, n)


@pytest.mark.parametrize("board,svg,pins,label,section", BOARDS)
def test_the_cell_divider_and_the_polyfuse_are_drawn(board, svg, pins, label, section):
    root = _svg(svg)
    groups = {g.get("id"): _texts(g) for g in root.iter(SVG_NS + "g") if g.get("id")}
    sense = groups.get("battery-sense")
    assert sense, (svg, "no battery-sense group")
    pin = label % pins["battery"][0]
    assert any(re.search(r"\b%s\b" % pin, t) for t in sense), (svg, pin, sense)
    assert sense.count("100 kΩ") == 2 and sense.count("100 nF") == 1, (svg, sense)
    assert any("polyfuse" in t for t in groups.get("polyfuse", [])), (svg, "no polyfuse")


def test_the_pico_diagram_names_the_vbus_sense():
    texts = _texts(_svg("wiring.svg"))
    assert any("GP%d" % PICO["vbus"] in t and "VBUS" in t for t in texts), "GP24 VBUS sense not in wiring.svg"


def _parts(section):
    """{part (second column): quantity} of the table under the parts list's `## <section>`."""
    with open(os.path.join(HW, "parts.md"), encoding="utf-8") as fh:
        text = fh.read()
    body = text.split("\n## " + section, 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0].isdigit():
            out[cells[1]] = out.get(cells[1], 0) + int(cells[0])
    return out


def _count(parts, start):
    return sum(q for part, q in parts.items() if part.startswith(start))


@pytest.mark.parametrize("board,svg,pins,label,section", BOARDS)
def test_the_parts_list_counts_what_the_pin_map_needs(board, svg, pins, label, section):
    parts = _parts(section)
    leds = len(_led_pins(pins))
    assert _count(parts, "5 mm LED") == leds, (section, parts)  # 8 on the Pico, 6 on the ESP32
    assert _count(parts, "resistor 330 Ω") == leds, (section, parts)  # one per LED
    assert _count(parts, "resistor 100 kΩ") == 2, (section, parts)  # the divider
    assert _count(parts, "capacitor 100 nF") == 1, (section, parts)  # on the ADC pin
    assert _count(parts, "polyfuse") == 1, (section, parts)


def _tracked_md():
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True)
    files = out.stdout.split() if out.returncode == 0 else []
    if not files:  # not a git clone
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = [x for x in dirs if not x.startswith(".") and x != "node_modules"]
            files += [os.path.relpath(os.path.join(d, n), ROOT) for n in names if n.endswith(".md")]
    return [f for f in files if not f.startswith("docs/rules/original/")]


def test_no_doc_gives_a_dropped_instruction():
    """The warning is set in volts now (PINS "low_battery_mv"), and the OLED faces use sagat's own
    driver: no doc may still tell a maker to set low_battery_pct or to mip-install ssd1306."""
    bad = []
    for f in _tracked_md():
        with open(os.path.join(ROOT, f), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if "low_battery_pct" in line or re.search(r"\bmip\b.*\bssd1306\b|\bssd1306\b.*\bmip\b", line):
                    bad.append("%s:%d: %s" % (f, n, line.strip()))
    assert not bad, "\n".join(bad)


def _slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path):
    with open(path, encoding="utf-8") as fh:
        text = re.sub(r"```.*?```", "", fh.read(), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def test_every_link_into_hardware_lands_on_a_heading():
    """Every link with an anchor that points into hardware/ (from any doc) names a heading that is
    there (hardware/'s sections have been renumbered and renamed before)."""
    bad = []
    seen = 0
    for f in _tracked_md():
        here = os.path.dirname(os.path.join(ROOT, f))
        with open(os.path.join(ROOT, f), encoding="utf-8") as fh:
            text = fh.read()
        for m in re.finditer(r"\]\(([^)#\s]*)#([^)\s]+)\)", text):
            target = os.path.normpath(os.path.join(here, m.group(1))) if m.group(1) else os.path.join(ROOT, f)
            if os.path.dirname(target) != HW or not target.endswith(".md"):
                continue
            seen += 1
            if m.group(2) not in _anchors(target):
                bad.append("%s: %s#%s" % (f, os.path.relpath(target, ROOT), m.group(2)))
    assert seen > 20, seen  # the links were found at all
    assert not bad, "\n".join(bad)
