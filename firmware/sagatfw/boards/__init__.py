# Board modules (pico, esp32, sim): pins, drivers and streams, no game logic.
