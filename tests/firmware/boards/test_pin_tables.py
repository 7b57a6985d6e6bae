"""The wiring tables a maker solders from (hardware/pico.md, hardware/esp32.md) against the pins the
board modules drive (`PINS` in firmware/sagatfw/boards/pico.py and esp32.py):
every row names the board's pins, every pin the firmware drives or reads (the cell's divider, the
Pico's VBUS sense) has its row, and no pin it uses is called free."""

import os
import re

import pytest
from boardpins import ESP32, PICO

from conftest import ROOT


def _rows(doc):
    """{first column: [pin numbers of the second column]} of the doc's first table."""
    rows = {}
    with open(os.path.join(ROOT, "hardware", doc), encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("| ") or line.startswith("| function") or "---" in line:
                if rows:
                    break
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            # the pin numbers before any "= ADC0" or "(...)": "GP26 = ADC0" -> [26], "none" -> []
            pins = re.sub(r"\(.*?\)", "", cells[1].split("=")[0])
            rows[cells[0]] = [int(n) for n in re.findall(r"(?:GP)?(\d+)", pins)]
    return rows


def _pico():
    p = PICO
    b, (tl, tr), leds = p["buttons"], p["tm1637"], p["leds"]
    return {
        "left lever": [b[0]], "right lever": [b[1]], "start / pause": [b[2]], "menu / arbiter": [b[3]],
        "plus": [b[4]], "minus": [b[5]],
        "left TM1637 CLK / DIO": list(tl), "right TM1637 CLK / DIO": list(tr),
        "OLED I2C0 SDA / SCL (instead of TM1637)": list(p["i2c"]),
        "left running LED / left flag LED": [leds[0][0], leds[0][1]],
        "right running LED / right flag LED": [leds[1][0], leds[1][1]],
        "left low-time LED / left mark LED": [leds[0][2], leds[0][3]],
        "right low-time LED / right mark LED": [leds[1][2], leds[1][3]],
        "buzzer (PWM)": [p["buzzer"]],
        "battery (the cell)": [p["battery"][0]],
        "USB power sense (VBUS)": [p["vbus"]],
    }


def _esp32():
    p = ESP32
    b, (tl, tr), leds = p["buttons"], p["tm1637"], p["leds"]
    return {
        "left lever / right lever": [b[0], b[1]], "start / pause": [b[2]], "menu / arbiter": [b[3]],
        "plus / minus": [b[4], b[5]],
        "left TM1637 CLK / DIO": list(tl), "right TM1637 CLK / DIO": list(tr),
        "OLED I2C SDA / SCL (instead of TM1637)": list(p["i2c"]),
        "left running LED / left flag LED": [leds[0][0], leds[0][1]],
        "right running LED / right flag LED": [leds[1][0], leds[1][1]],
        "left / right low-time-or-mark LED": [leds[0][2], leds[1][2]],
        "buzzer (PWM)": [p["buzzer"]],
        "battery (the cell)": [p["battery"][0]],
        "USB power sense": [] if p.get("vbus") is None else [p["vbus"]],
    }


def _driven(pins):
    """Every pin the board module drives or reads: buttons, buzzer, faces, LEDs, the cell's divider
    and the VBUS sense."""
    out = set(pins["buttons"]) | {pins["buzzer"]} | set(pins["i2c"]) | {pins["battery"][0]}
    if pins.get("vbus") is not None:
        out.add(pins["vbus"])
    for face in pins["tm1637"] + pins["leds"]:
        out |= set(face)
    return out


@pytest.mark.parametrize("doc,want,pins", [("pico.md", _pico(), PICO), ("esp32.md", _esp32(), ESP32)])
def test_the_wiring_table_is_the_boards_pins(doc, want, pins):
    rows = _rows(doc)
    for label, numbers in want.items():
        assert label in rows, (doc, label, sorted(rows))
        assert rows[label] == numbers, (doc, label, rows[label], numbers)
    documented = {n for label in want for n in rows[label]}
    assert _driven(pins) <= documented, (doc, sorted(_driven(pins) - documented))  # every pin has its row


def test_no_pin_the_firmware_drives_is_called_free():
    with open(os.path.join(ROOT, "hardware", "pico.md"), encoding="utf-8") as fh:
        text = fh.read()
    line = next(x for x in text.splitlines() if "Unused pins" in x)
    free = set()
    for a, b in re.findall(r"GP(\d+)(?:–GP(\d+))?", line.split("are free")[0]):
        free |= set(range(int(a), int(b or a) + 1))
    assert free and not free & _driven(PICO), sorted(free & _driven(PICO))


def test_the_battery_rows_say_how_to_wire_the_divider():
    """The battery row of each table is the divider the firmware reads: 100k/100k
    from the cell, 100 nF on the ADC pin; the Pico's VBUS row says it is sensed on the board."""
    for doc, pins in (("pico.md", PICO), ("esp32.md", ESP32)):
        with open(os.path.join(ROOT, "hardware", doc), encoding="utf-8") as fh:
            row = next(x for x in fh if x.startswith("| battery"))
        assert "100k/100k" in row and "100 nF" in row and "cell" in row, (doc, row)
        assert pins["battery"][1] == 2000, "a 100k/100k divider is a ratio of 2000; change the docs with it"
    with open(os.path.join(ROOT, "hardware", "pico.md"), encoding="utf-8") as fh:
        row = next(x for x in fh if x.startswith("| USB power sense"))
    assert "GP%d" % PICO["vbus"] in row and "internal" in row, row
