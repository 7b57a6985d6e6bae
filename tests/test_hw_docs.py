"""The maker's hardware docs against the board modules' `PINS`: both wiring
diagrams draw every LED the firmware drives with its resistor, the cell's divider with its
capacitor and the polyfuse; the parts list counts what the pin maps need; no doc gives an
instruction the firmware dropped; every link into hardware/ lands on a heading; and the Russian
versions in hardware/ru/ name every pin, part, command, figure and link of the English ones.

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
    """Every link with an anchor that points into hardware/ or hardware/ru/ (from any doc) names a
    heading that is there (hardware/'s sections have been renumbered and renamed before)."""
    bad = []
    seen = 0
    for f in _tracked_md():
        here = os.path.dirname(os.path.join(ROOT, f))
        with open(os.path.join(ROOT, f), encoding="utf-8") as fh:
            text = fh.read()
        for m in re.finditer(r"\]\(([^)#\s]*)#([^)\s]+)\)", text):
            target = os.path.normpath(os.path.join(here, m.group(1))) if m.group(1) else os.path.join(ROOT, f)
            if os.path.dirname(target) not in (HW, os.path.join(HW, "ru")) or not target.endswith(".md"):
                continue
            seen += 1
            if m.group(2) not in _anchors(target):
                bad.append("%s: %s#%s" % (f, os.path.relpath(target, ROOT), m.group(2)))
    assert seen > 20, seen  # the links were found at all
    assert not bad, "\n".join(bad)


# --- the Russian hardware docs (hardware/ru/) held to the English ones -----------------------------

RU = os.path.join(HW, "ru")
EN_DOCS = sorted(n for n in os.listdir(HW) if n.endswith(".md"))
FENCE = re.compile(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```", re.M | re.S)  # also indented, in a list
CODE = re.compile(r"`([^`]+)`")
LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")
# a part number, a pin or a module: a word with a capital letter and a digit (1N5817, MF-RX075/72,
# GPIO34, 0x3C, 3V3, TK-C18); an English suffix (KCD1-type, B32-series, TM1637s) is not part of it
PART = re.compile(r"(?<![\w/-])[A-Za-z0-9_]+(?:[-/][A-Za-z0-9_]+)*")
SUFFIX = re.compile(r"(?:-[a-z]{3,})+$|(?<=\d)s$")
# a figure: 3820, 0.42, 1.5, 0.1.0 (the Russian text writes 0,42: its decimal commas are read as points)
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)*(?!\w)")
PIN_WORD = re.compile(r"\bpins? (\d+)\b")  # "pin 39", the Pico's pad: «вывод 39» in Russian


def _read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def _code_spans(text):
    prose = FENCE.sub("", text)
    return {re.sub(r"\n\s*", " ", m.group(1)) for m in CODE.finditer(prose)}


def _fenced(text, lang):
    return [m.group(2) for m in FENCE.finditer(text) if m.group(1) == lang]


def _parts_in(text):
    out = set()
    for m in PART.finditer(text):
        word = SUFFIX.sub("", m.group(0))
        if re.search(r"[A-Z]", word) and re.search(r"\d", word):
            out.add(word)
    return out


def _numbers(text, russian=False):
    if russian:
        text = re.sub(r"(?<=\d),(?=\d)", ".", text)
    return {m.group(0) for m in NUMBER.finditer(text)}


def _counterpart(path):
    """The English document a resolved link target stands for: a Russian one, its English original."""
    path = os.path.normpath(path)
    return os.path.join(HW, os.path.basename(path)) if os.path.dirname(path) == RU else path


def _relative_links(text, here):
    out = set()
    for m in LINK_TARGET.finditer(FENCE.sub("", text)):
        target = m.group(1).split("#")[0]
        if target and not re.match(r"[a-z]+:", target):
            out.add(os.path.relpath(_counterpart(os.path.join(here, target)), ROOT))
    return out


def test_every_hardware_doc_has_its_russian_version():
    """The makers of the region read Russian first: each maker's document of hardware/ is in hardware/ru/."""
    missing = [n for n in EN_DOCS if not os.path.isfile(os.path.join(RU, n))]
    assert not missing, missing
    extra = sorted(set(n for n in os.listdir(RU) if n.endswith(".md")) - set(EN_DOCS))
    assert not extra, extra  # a Russian document without its English original


@pytest.mark.parametrize("name", EN_DOCS)
def test_the_russian_hardware_doc_keeps_every_pin_part_command_figure_and_link(name):
    """Whatever the English document names, the Russian one names too: every code span (commands,
    PINS values, face texts) and every `sh` block word for word, every pin (GP26, GPIO34, «вывод 39»
    for "pin 39"), part number, figure and relative link. When the English changes and the Russian
    is not updated, this fails, naming what is missing."""
    ru_path = os.path.join(RU, name)
    if not os.path.isfile(ru_path):
        pytest.fail("no Russian version: hardware/ru/" + name)
    en, ru = _read(os.path.join(HW, name)), _read(ru_path)
    missing = {
        "code": sorted(_code_spans(en) - _code_spans(ru)),
        "sh blocks": [b for b in _fenced(en, "sh") if b not in _fenced(ru, "sh")],
        "pins": sorted("вывод " + n for n in set(PIN_WORD.findall(FENCE.sub("", en)))
                       if not re.search(r"\bвывод\w* %s\b" % n, ru)),
        "parts": sorted(_parts_in(en) - _parts_in(ru)),
        "figures": sorted(_numbers(en) - _numbers(ru, russian=True)),
        "links": sorted(_relative_links(en, HW) - _relative_links(ru, RU)),
    }
    missing = {k: v for k, v in missing.items() if v}
    assert not missing, "hardware/ru/%s lacks what hardware/%s has: %s" % (name, name, missing)


@pytest.mark.parametrize("name", EN_DOCS)
def test_the_russian_hardware_doc_has_the_english_ones_sections(name):
    """The same headings, level by level, in the same order (a section added to the English is one
    the Russian lacks)."""
    def levels(path):
        text = re.sub(r"```.*?```", "", _read(path), flags=re.S)
        return [len(m.group(1)) for m in re.finditer(r"^(#{1,6}) ", text, re.M)]
    assert levels(os.path.join(RU, name)) == levels(os.path.join(HW, name)), name


@pytest.mark.parametrize("name", EN_DOCS)
def test_each_hardware_doc_links_its_russian_version_and_back(name):
    en, ru = _read(os.path.join(HW, name)), _read(os.path.join(RU, name))
    assert "](ru/%s)" % name in en, "hardware/%s does not link ru/%s" % (name, name)
    assert "](../%s)" % name in ru, "hardware/ru/%s does not link ../%s" % (name, name)


def test_the_russian_guides_send_their_reader_to_the_russian_hardware_docs():
    """docs/ru/'s guides link hardware/ru/, and none of their links into hardware/ is to an English
    document that has its Russian version."""
    guides = sorted(n for n in os.listdir(os.path.join(ROOT, "docs", "ru")) if n.endswith(".md"))
    assert guides
    for guide in guides:
        text = _read(os.path.join(ROOT, "docs", "ru", guide))
        here = os.path.join(ROOT, "docs", "ru")
        targets = [os.path.normpath(os.path.join(here, m.group(1).split("#")[0]))
                   for m in LINK_TARGET.finditer(text) if not re.match(r"[a-z]+:", m.group(1))]
        assert any(os.path.dirname(t) == RU for t in targets), "docs/ru/%s links no hardware/ru/ doc" % guide
        english = [os.path.relpath(t, ROOT) for t in targets
                   if os.path.dirname(t) == HW and os.path.isfile(os.path.join(RU, os.path.basename(t)))]
        assert not english, "docs/ru/%s links English hardware docs: %s" % (guide, english)
