# sagat board: Raspberry Pi Pico, Pico W, Pico 2. The pin map, in one place (hardware/pico.md has
# the table and the wiring). Buttons and levers switch to GND (internal pull-ups).
from machine import ADC, Pin

from sagatfw.boards.hw import HwBoard, read_adc_mv

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
    "cell": "lipo",  # battery chemistry for the charge curve: "lipo" or "aa3"
    "low_battery_pct": 40,  # the warning leaves >= 10 h of play (FIDE): see hardware/power.md
}


class Board(HwBoard):
    name = "pico"
    PINS = PINS

    def battery_adc(self):
        # VSYS through the Pico's own 200k/100k divider on GP29 = ADC3. On a Pico W, GP29 is also
        # the wireless chip's clock: GP25 high selects the ADC for the reading. On a Pico GP25 is
        # the on-board LED, so it is high only while the ADC is read (issue 13 point 4: lit all game
        # it shone through the case) and an input (LED off) otherwise.
        self._vsys_sel = Pin(25, Pin.IN)
        return ADC(3)

    def battery_mv(self):
        sel = self._vsys_sel
        sel.init(Pin.OUT, value=1)
        mv = read_adc_mv(self.adc, 3, 1)
        sel.init(Pin.IN)
        return mv
