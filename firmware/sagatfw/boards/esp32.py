# sagat board: ESP32 DevKit v1 (classic ESP32-WROOM-32). The pin map, in one place (hardware/esp32.md
# has the table and the wiring). Buttons and levers switch to GND (internal pull-ups); no strapping
# pins are used for inputs.
from machine import ADC, Pin

from sagatfw.boards.hw import HwBoard, read_adc_mv

PINS = {
    # LEVER_LEFT, LEVER_RIGHT, START, MENU, PLUS, MINUS (the order of buttons.py)
    "buttons": (32, 33, 25, 26, 27, 14),
    "display": "tm1637",  # or "ssd1306": two 128x64 OLEDs on I2C at 0x3C (left) and 0x3D (right)
    "tm1637": ((18, 19), (16, 17)),  # (CLK, DIO) of the left face, of the right face
    "i2c": (21, 22),  # SDA, SCL
    "i2c_id": 0,
    # LEDs of the left face, of the right face: running, flag, and low time or a mark (stage /
    # default). GPIO12 and GPIO2 are strapping pins that must be low at boot: an LED with its
    # resistor to GND keeps them low.
    "leds": ((4, 13, 12), (5, 23, 2)),
    "buzzer": 15,
    "cell": "lipo",
    "low_battery_pct": 40,  # the warning leaves >= 10 h of play (FIDE): see hardware/power.md
}


class Board(HwBoard):
    name = "esp32"
    PINS = PINS
    HARD_IRQ = False  # ports/esp32/machine_pin.c: Pin.irq(handler, trigger, wake), scheduled handlers

    def battery_adc(self):
        # The battery through a 100k/100k divider on GPIO34 (ADC1, input only), full scale ~3.3 V.
        adc = ADC(Pin(34))
        adc.atten(ADC.ATTN_11DB)
        return adc

    def battery_mv(self):
        return read_adc_mv(self.adc, 2, 1)
