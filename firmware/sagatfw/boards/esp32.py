# sagat board: ESP32 DevKit v1 (classic ESP32-WROOM-32). The pin map, in one place (hardware/esp32.md
# has the table and the wiring). Buttons and levers switch to GND (internal pull-ups); no strapping
# pins are used for inputs.
from machine import ADC, Pin

from sagatfw.boards.hw import HwBoard

PINS = {
    # LEVER_LEFT, LEVER_RIGHT, START, MENU, PLUS, MINUS (the order of ui/buttons.py)
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
    # The cell through a 100k/100k divider, 100 nF from the pin to GND, on GPIO34 (ADC1, input
    # only): (pin, the divider's ratio x 1000), read with ADC.read_uv() (eFuse-calibrated) at
    # ATTN_11DB; hardware/esp32.md gives the error at the cell.
    "battery": (34, 2000),
    "vbus": None,  # a DevKit cannot tell USB power from the cell's: hardware/esp32.md
    "cell": "lipo",
}


class Board(HwBoard):
    name = "esp32"
    PINS = PINS
    HARD_IRQ = False  # ports/esp32/machine_pin.c: Pin.irq(handler, trigger, wake), scheduled handlers

    def battery_adc(self, pin):
        adc = ADC(Pin(pin))
        adc.atten(ADC.ATTN_11DB)  # 150..2450 mV linear (ESP-IDF): the divided cell is 1.5..2.1 V
        return adc

    def pin_uv(self):
        adc = self.adc
        total = 0
        for _ in range(8):
            total += adc.read_uv()  # the port's calibrated reading (esp_adc_cal / adc_cali)
        return total // 8
