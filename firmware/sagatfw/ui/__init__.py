# The clock's own controls: the buttons' debounce and press kinds, the one table of actions every
# caller goes through (buttons, menu, host, scripts) and the on-clock menu. Above faces/ and log/.
