# sagat board: Raspberry Pi Pico, Pico W, Pico 2. The pin map, in one place (hardware/pico.md has
# the table and the wiring). Buttons and levers switch to GND (internal pull-ups).
from sagatfw.boards.hw import HwBoard

PINS = {
    # LEVER_LEFT, LEVER_RIGHT, START, MENU, PLUS, MINUS (the order of buttons.py)
    "buttons": (14, 15, 16, 17, 18, 19),
    "display": "tm1637",  # or "ssd1306": two 128x64 OLEDs on I2C0 at 0x3C (left) and 0x3D (right)
    "tm1637": ((2, 3), (4, 5)),  # (CLK, DIO) of the left face, of the right face
    "i2c": (0, 1),  # SDA, SCL (I2C0) for the OLEDs
    "i2c_id": 0,
    # LEDs of the left face, of the right face: running, flag, low time, mark (stage / default)
    "leds": ((6, 8, 10, 11), (7, 9, 12, 13)),
    "buzzer": 22,
    # The cell (not VSYS: no diode drop) through a 100k/100k divider, 100 nF from the pin to GND, on
    # GP26 = ADC0: (pin, the divider's ratio x 1000). Calibrate the ratio against a multimeter
    # (hardware/bringup.md): the ADC's reference is the 3.3 V rail, about 1 % off.
    "battery": (26, 2000),
    "vbus": 24,  # the Pico's VBUS sense (high on USB power): no cut-off sleep then; none on a Pico W
    "cell": "lipo",  # chemistry: the charge curve and the thresholds (hw.CELLS): "lipo" or "aa3"
    # "low_battery_mv": 3820, "cutoff_mv": 3500,  # to override the cell's (hardware/power.md)
}


class Board(HwBoard):
    name = "pico"
    PINS = PINS
    LINK_WRITE = LINK_STEP = 4096  # USB CDC (the Pico's serial): a log pull at the link's speed
    lever_stamps = "irq"  # "pio": the levers' edges are stamped by PIO + DMA (rp2levers.py)

    def attach(self, buttons):
        """The pin IRQs (hw.py), then the levers' stamps moved to PIO + DMA, which no flash
        operation delays (rp2levers.py): their pin IRQs are switched off once those run. Where
        that cannot be set up (no rp2.DMA, the unix port's tests) the pin IRQs stay."""
        super().attach(buttons)
        try:
            import sys

            from sagatfw.boards.rp2levers import LeverStamps

            pins = self._irq_pins
            self.stamps = LeverStamps(buttons, pins, sys.implementation._machine)  # type: ignore[attr-defined]
        except Exception as e:  # noqa: BLE001 - no rp2.DMA, a state machine taken, no room: the pin IRQs stay
            self.note("lever stamps: pin IRQs (%s)" % (e,))
            return
        self.lever_stamps = "pio"
        for pin in pins[:2]:
            pin.irq(None)

    def vbus_pin(self):
        import sys

        m = sys.implementation._machine  # type: ignore[attr-defined]  # "Raspberry Pi Pico 2 W with RP2350"
        if "Pico W" in m or "Pico 2 W" in m:  # GP24 is the radio's there
            return None
        return super().vbus_pin()
