# sagat sim: the sim board's own words (its header's state, LOCATE, the running bar, the keys'
# legend) in the PC's language, loaded only when `sagat sim` gives --words (a JSON file of the
# host's gettext: sagat/sim/board.py SIM_WORDS). boards/sim.py draws them in English and stays as
# it is: this writer stands between it and the terminal and says its words over, so the sim's
# frozen heap (the 64 KB budget's probes run boards/sim.py) pays nothing when none are given.
# The faces' own texts are not touched: they speak the clock's `lang`.

_HEAD = "sagat sim  "
_BAR = "###### running ######"  # (sim.py's _face_lines: the run row's bar, 21 columns)
_KEYS = "keys: a/z left lever"  # (the start of sim.py's legend)


def install(board, path):
    """The board's text goes through Out with the words of the JSON file at `path`."""
    import json

    with open(path) as fh:
        board.out = Out(board.out, json.load(fh))


class Out:
    """A text stream (write) that passes everything to `out`, the sim's rows said in `words`."""

    def __init__(self, out, words):
        self.out = out
        self.words = words
        running = words.get("running", "running")
        n = 19 - len(running)
        self.bar = "#" * (n // 2) + " " + running + " " + "#" * (n - n // 2) if n >= 2 else _BAR

    def write(self, text):
        if _HEAD in text or _BAR in text or _KEYS in text:
            text = "\x1b[K\r\n".join([self._row(r) for r in text.split("\x1b[K\r\n")])
        return self.out.write(text)

    def flush(self):
        f = getattr(self.out, "flush", None)
        if f is not None:
            f()

    def _row(self, row):
        w = self.words
        i = row.find(_HEAD)
        if i >= 0:  # "sagat sim  kokboru finished  LOCATE": word by word
            head = row[: i + len(_HEAD)]
            return head + " ".join([w.get(x, x) for x in row[i + len(_HEAD):].split(" ")])
        if _BAR in row:
            return row.replace(_BAR, self.bar)
        if row.startswith(_KEYS) and "keys" in w:
            return w["keys"]
        return row
