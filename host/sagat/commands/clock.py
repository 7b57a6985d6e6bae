"""The clock's own commands: `sagat ports`, `info`, `state`, `watch` and `settings`; and the faces'
text (a game's or a match's) that the referee's commands (game.py) print too."""

from __future__ import annotations

import argparse
import json
import sys

from ..cliutil import UserError, adder, call, duration, link_args, out, value
from ..i18n import N_, _, decimal

# the clock's states as a person reads them (the protocol's words: engine/clock.py and matchwords.py STATE_NAMES)
STATE_WORDS = {"setup": N_("setup"), "running": N_("running"), "paused": N_("paused"), "flagged": N_("flagged"),
               "adjourned": N_("adjourned"), "finished": N_("finished"), "ready": N_("ready"),
               "stopped": N_("stopped"), "break": N_("break"), "lot": N_("lot"), "over": N_("over")}
SIDE_WORDS = {"left": N_("left"), "right": N_("right")}


def state_word(state) -> str:
    """A state (or a side) from the protocol in the user's language; one this sagat does not know as it is."""
    word = STATE_WORDS.get(state) or SIDE_WORDS.get(state) if isinstance(state, str) else None
    return _(word) if word else str(state)


def cmd_ports(args: argparse.Namespace) -> int:
    from .. import client

    ports = client.find_ports()
    if args.json:
        for p in ports:
            print(json.dumps({"port": p.device, "board": p.description, "serial": p.serial_number}))
        return 0
    if not ports:
        print(_("no clock found on USB"), file=sys.stderr)
        return 1
    for p in ports:
        print(f"{p.device}  {p.description}  {p.serial_number or ''}".rstrip())
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from .. import client

    def run(clock):
        ident = clock.request("identify")
        try:
            game = clock.request("state")
        except client.LinkError:
            game = None
        return ident, game

    ans, game = call(args, run)
    for d in (ans, game or {}):
        d.pop("id", None)
        d.pop("ok", None)
    if args.json:  # identify's fields as the clock gives them (protocol.md), the game's state in "game"
        print(json.dumps(dict(ans, game=game)))
        return 0
    print(info_text(ans, game))
    return 0


def _bytes(n) -> str:
    return _("{kb} KB").format(kb=decimal(n / 1024, 1)) if isinstance(n, int) else _("not measured")


def info_text(ans: dict, game: dict | None) -> str:
    """identify (and state) as an ordered summary: firmware, board, id, battery, heap, game."""
    rows = []
    fw = _("sagat {firmware}, protocol {protocol}").format(firmware=ans.get("firmware", "?"),
                                                            protocol=ans.get("protocol", "?"))
    rows.append((_("firmware"), fw))
    rows.append((_("board"), str(ans.get("board", "?"))))
    ident = str(ans.get("uid", "?"))
    if ans.get("number") is not None:
        ident += _(", number {number} in the hall").format(number=ans["number"])
    rows.append((_("id"), ident))
    bat = ans.get("battery")
    battery = f"{bat} %" if isinstance(bat, int) else _("not measured")
    mv = ans.get("battery_mv")
    if isinstance(bat, int) and isinstance(mv, int):
        battery += _(" ({volts} V)").format(volts=decimal(mv / 1000, 2))
    if ans.get("low_battery"):
        battery += _(" LOW: charge it or change the cells")
    rows.append((_("battery"), battery))
    used, free = ans.get("heap_used"), ans.get("heap_free")
    heap = _("{used} used, {free} free").format(used=_bytes(used), free=_bytes(free)) \
        if used is not None or free is not None else _("not measured")
    rows.append((_("heap"), heap))
    if game:
        from ..log import show

        sides = []
        for side in ("left", "right"):
            f = game.get(side) or {}
            text = f"{state_word(side)} {show.stamp_text(f.get('ms', 0))}"
            if f.get("flag"):
                text += " FLAG"
            if game.get("running") == side:
                text += " " + _("(running)")
            sides.append(text)
        moves = _("moves {left}-{right}").format(left=(game.get("left") or {}).get("moves"),
                                                 right=(game.get("right") or {}).get("moves"))
        code = f", {_code_text(game)}" if game.get("result_code") else ""
        rows.append((_("game"), f"{state_word(game.get('state'))}: {', '.join(sides)}, {moves}{code}"))
        if game.get("mode"):
            rows[-1] = (_("match"), match_text(game))
    uptime = ans.get("uptime_ms")
    if isinstance(uptime, int):
        gap = ans.get("loop_max_ms")
        rows.append((_("uptime"), duration(uptime) + (_(", longest loop gap {ms} ms").format(ms=gap)
                                                       if isinstance(gap, int) else "")))
    key = _("set: changes need --key or --key-file") if ans.get("key_set") else _("not set (`sagat key`)")
    if ans.get("repl_open"):
        key += _("; REPL open (maintenance) until the board restarts")
    rows.append((_("arbiter key"), key))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


_WHY = {"points": N_("more points"), "lead": N_("a winning lead"), "golden_score": N_("golden score"),
        "removal": N_("removal"), "lot": N_("lot"), "draw": N_("a draw by the method set"),
        "referee": N_("the referee's result"), "sudden": N_("sudden score")}


def _sec(ms, up: bool = False) -> str:
    """A match's time as M:SS, rounded as the faces round it (matchfaces.clock_text: a time counting
    up rounded down, one counting down rounded up), so the PC never reads 0:09 where the faces say 0:08."""
    from sagatfw.faces import matchfaces as matchfaces

    return matchfaces.clock_text(ms if isinstance(ms, int) and not isinstance(ms, bool) else 0, up)


def match_text(st: dict) -> str:
    """A match's `state` as one line for a referee's table: mode, period, time, score, cards,
    stoppage, and the result once there is one."""

    from ..log.show import sheet_word as word  # the modes', periods' and sides' names, as the score sheet's

    def sheet_word(name) -> str:
        return word(name) if name else str(name)

    def side(name: str) -> str:
        f = st.get(name) or {}
        cards = " W" * (f.get("warnings") or 0) + " RED" * (f.get("reds") or 0)  # (the faces' marks)
        return f"{sheet_word(name)} {f.get('score', 0)}{cards}"

    state = st.get("state")
    clock = _sec(st.get("match_ms"), bool(st.get("counts_up"))) + (_(" (counting up)") if st.get("counts_up") else "")
    parts = [f"{sheet_word(st.get('mode'))} {sheet_word(st.get('period_name'))} {clock}",
             f"{side('left')} - {side('right')}", state_word(state)]
    if state == "stopped":
        parts[-1] += f" {_sec(st.get('stoppage_ms'), True)}"
    if st.get("stopped_ms"):
        parts.append(_("stopped {time} this period").format(time=_sec(st.get("stopped_ms"), True)))
    if state == "break":
        parts.append(_("break {time} left").format(time=_sec(st.get("break_ms"))))
    if st.get("entering"):
        parts.append(_("{side} enters").format(side=sheet_word(st["entering"])))
    if st.get("lot_due"):
        parts.append(_("lot due"))
    if st.get("winner"):
        why = _(_WHY[st.get("why")]) if st.get("why") in _WHY else st.get("why")
        if st["winner"] == "none":
            parts.append(_("draw ({why})").format(why=why))
        else:
            parts.append(_("winner {side} ({why})").format(side=sheet_word(st["winner"]), why=why))
    if st.get("message"):
        parts.append(str(st["message"]))
    return "  |  ".join(parts)


def _code_text(st: dict) -> str:
    """The result code as the state gives it: a finished game's own, or, at setup (after a reboot
    the faces show the last result's code again), the game's whose code it is, never the next one's."""
    if st.get("state") == "finished":
        return _("result code {code}").format(code=st["result_code"])
    return _("game {game}'s result code {code}").format(game=st.get("game"), code=st["result_code"])


def faces_text(st: dict) -> str:
    from ..log import show

    if st.get("mode"):
        return match_text(st)

    def face(side: str) -> str:
        f = st.get(side) or {}
        text = show.stamp_text(f.get("ms", 0))
        if f.get("flag"):
            text += " FLAG" + (" 1ST" if st.get("first_flag") == side else "")
        return text

    run = st.get("running")
    a = face("left") + (" <" if run == "left" else "")
    b = ("> " if run == "right" else "") + face("right")
    moves = f"{(st.get('left') or {}).get('moves')}-{(st.get('right') or {}).get('moves')}"
    code = f"  {_code_text(st)}" if st.get("result_code") else ""
    if st.get("result") and st.get("kazans"):  # the final kazans entered with the result (TK-R7)
        code += "  " + _("{result} kazans {left}-{right}").format(result=st["result"], left=st["kazans"][0],
                                                                  right=st["kazans"][1])
    if isinstance(st.get("protest_ms"), int):  # TK-P1, TK-P9: by the clock's wall time
        p = st["protest_ms"]
        code += "  " + (_("protest {time} left").format(time=f"{p // 60000}:{p // 1000 % 60:02d}") if p
                        else _("protest time over"))
    if st.get("state") == "adjourned":  # TK-A3: the envelope's times used (resume_adjourned takes them back)
        used = [(st.get(s) or {}).get("used_ms") for s in ("left", "right")]
        code += "  " + _("used {times}").format(times=" | ".join("-" if u is None else show.stamp_text(u)
                                                                  for u in used))
    return f"{a:>22} | {b:<22}  " + _("moves {moves}").format(moves=moves) + f"  {state_word(st.get('state'))}{code}"


def cmd_state(args: argparse.Namespace) -> int:
    ans = call(args, lambda c: c.request("state"))
    return out(args, ans, faces_text(ans))


def cmd_watch(args: argparse.Namespace) -> int:
    import time

    # on a terminal the faces' line is drawn again in place: \r, then an erase to the line's end so
    # a shorter line leaves nothing of the one before ("paused" after "running" read "pausedg");
    # piped, one line per state
    tty = sys.stdout.isatty()
    drawn = [False]  # a line in place is on screen: it ends before anything else is said

    def loop(clock):
        n = 0
        while args.count is None or n < args.count:
            st = clock.request("state")
            if args.json:
                print(json.dumps(st), flush=True)
            elif tty:
                print("\r" + faces_text(st) + "\x1b[K", end="", flush=True)
                drawn[0] = True
            else:
                print(faces_text(st), flush=True)
            n += 1
            time.sleep(args.interval)
        return 0

    try:
        return call(args, loop)
    except KeyboardInterrupt:
        return 0
    finally:
        if drawn[0]:
            print(flush=True)  # (a link error then goes on a line of its own)


FREEZE_WORDS = {"auto": None, "null": None, "on": True, "true": True, "off": False, "false": False}
BOOL_WORDS = {"on": True, "true": True, "off": False, "false": False}


def _setting(key: str, text: str):
    """A `sagat settings KEY=VALUE`'s value as the setting's kind wants it (settings.SCHEMA): a time
    control stays text (`tc=420`), freeze takes the menu's AUTO/ON/OFF, a switch on/off or true/false."""
    from sagatfw.log import settings

    spec = settings.SCHEMA.get(key)
    if spec is None:  # a clock with other firmware may know it: the clock says whether it does
        return value(text)
    kind, low, high = spec[1], spec[2], spec[3]
    word = text.strip().lower()
    if kind == "t":
        return text.strip()
    if kind == "c":
        if word not in low:
            raise UserError(_("settings: {key} is one of {values}, not {text}").format(
                key=key, values=", ".join(low), text=repr(text)))
        return word
    if kind == "n":
        if word not in FREEZE_WORDS:
            raise UserError(_("settings: freeze is auto, on or off, not {text}").format(text=repr(text)))
        return FREEZE_WORDS[word]
    if kind == "b":
        if word not in BOOL_WORDS:
            raise UserError(_("settings: {key} is on or off, not {text}").format(key=key, text=repr(text)))
        return BOOL_WORDS[word]
    try:
        number = int(word)
    except ValueError:
        raise UserError(_("settings: {key} is a whole number {low}..{high}, not {text}").format(
            key=key, low=low, high=high, text=repr(text))) from None
    if not low <= number <= high:
        raise UserError(_("settings: {key} is {low}..{high}, not {number}").format(key=key, low=low, high=high,
                                                                                  number=number))
    return number


def _settings_text(values: dict) -> str:
    """The settings in the menu's order (SETTINGS), then the rest in settings.SCHEMA's; freeze as
    the menu shows it (AUTO, ON, OFF)."""
    from sagatfw.log import settings
    from sagatfw.ui import menu

    order = [row[2] for row in menu.SETTINGS] + [k for k in settings.SCHEMA]
    keys = [k for k in dict.fromkeys(order) if k in values] + [k for k in values if k not in order]
    lines = []
    for k in keys:
        v = values[k]
        shown = {None: "AUTO", True: "ON", False: "OFF"}[v] if k == "freeze" and v in (None, True, False) else \
            json.dumps(v)
        lines.append(f"{k} = {shown}")
    return "\n".join(lines)


def cmd_settings(args: argparse.Namespace) -> int:
    changes = {}
    for item in args.assign:
        key, eq, val = item.partition("=")
        if not eq or not key:
            raise UserError(_("settings: {item} is not KEY=VALUE").format(item=repr(item)))
        changes[key] = _setting(key, val)

    def run(clock):
        if changes:
            clock.request("settings.set", auth=True, values=changes)
        return clock.request("settings.get")

    ans = call(args, run)
    values = ans.get("values", {})
    return out(args, values, _settings_text(values))


def add(subparsers) -> None:
    """Adds `sagat ports`, `info`, `state`, `watch`, `settings`."""
    cmd = adder(subparsers)
    sp = cmd("ports", _("find clocks on USB by vendor and product id"),
             _("List the serial ports whose USB id is a sagat board's (Raspberry Pi, Espressif, CP210x, "
               "CH340)."))
    sp.add_argument("--json", action="store_true", help=_("one JSON object per port"))
    sp.set_defaults(func=cmd_ports)
    sp = cmd("info", _("identify the clock: firmware, board, id, battery, heap, game"),
             _("What the clock says about itself: firmware and protocol, board, id, battery, heap, the "
               "game's state, uptime, whether an arbiter key is set. Reading needs no key."))
    link_args(sp, key=False)
    sp.set_defaults(func=cmd_info)
    sp = cmd("state", _("both faces, once"), _("Both faces once: times, moves, flags, the clock's state."))
    link_args(sp, key=False)
    sp.set_defaults(func=cmd_state)
    sp = cmd("watch", _("both faces, live"), _("Both faces, read again and again until Ctrl-C (or --count)."))
    link_args(sp, key=False)
    sp.add_argument("--interval", type=float, default=0.2, metavar="SECONDS",
                    help=_("seconds between readings (default: 0.2)"))
    sp.add_argument("--count", type=int, metavar="N", help=_("stop after N readings"))
    sp.set_defaults(func=cmd_watch)
    sp = cmd("settings", _("show the clock's settings, or set some: KEY=VALUE ..."),
             _("Show the clock's settings; with KEY=VALUE arguments, change them (between games; with a key "
               "set, --key signs the change), shown in the menu's order. docs/user-guide.md lists the keys "
               "and their units (ms, a count, on/off; freeze auto, on or off; tc a TimeControl string)."))
    link_args(sp)
    sp.add_argument("assign", nargs="*", metavar="KEY=VALUE",
                    help=_("a setting to change, e.g. low_time_ms=60000 (ms), sound=off, freeze=auto or "
                           "tc=420"))
    sp.set_defaults(func=cmd_settings)
