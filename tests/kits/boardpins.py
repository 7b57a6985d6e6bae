# The board modules' pin maps (`PINS` of firmware/sagatfw/boards/pico.py and esp32.py), read from
# their sources, since the modules import `machine`. CPython only (ast): the wiring tables' test
# (tests/firmware/boards/test_pin_tables.py) and the hardware docs' (tests/test_hw_docs.py).
import ast
import os

from conftest import FIRMWARE


def board_pins(name):
    """PINS of sagatfw/boards/NAME.py, read from its source (the module imports `machine`)."""
    with open(os.path.join(FIRMWARE, "sagatfw", "boards", name + ".py"), encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "PINS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("no PINS in " + name)


PICO = board_pins("pico")
ESP32 = board_pins("esp32")
