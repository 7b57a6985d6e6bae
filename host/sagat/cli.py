"""The `sagat` command.

Errors are one line on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from sagatfw import presets
from sagatfw import timecontrol as tcm

from . import __version__, client
from .cliutil import (
    Parser,
    UserError,
    arbiter_keys,
    call,
    current_key,
    duration,
    link_args,
    out,
    value,
)

_MODES = {tcm.SUDDEN: "sudden death", tcm.FISCHER: "Fischer", tcm.DELAY: "delay", tcm.BRONSTEIN: "Bronstein"}


def describe(tc: tcm.TimeControl) -> list[str]:
    """Plain-language lines for one side's control."""
    if tc.kind == tcm.COUNTUP:
        return ["no limit: the faces count up"]
    if tc.kind == tcm.HOURGLASS:
        return [f"hourglass {duration(tc.stages[0].time_ms)}: time one side uses goes to the other"]
    lines = []
    for i, st in enumerate(tc.stages, 1):
        moves = f"{st.moves} moves" if st.moves else "rest of the game"
        text = f"stage {i}: {duration(st.time_ms)} for the {moves}" if not st.moves else (
            f"stage {i}: {moves} in {duration(st.time_ms)}"
        )
        if st.mode != tcm.SUDDEN:
            text += f", {_MODES[st.mode]} {st.bonus_ms // 1000} s"
        if st.moves and i == len(tc.stages):
            text += " (repeats)"
        lines.append(text)
    if tc.byo == tcm.BYO_JAPANESE:
        lines.append(f"then Japanese byo-yomi: {tc.byo_count} periods of {tc.byo_ms // 1000} s")
    elif tc.byo == tcm.BYO_CANADIAN:
        lines.append(f"then Canadian byo-yomi: {tc.byo_count} moves per {duration(tc.byo_ms)}")
    return lines


def cmd_presets(args: argparse.Namespace) -> int:
    if args.action == "push":
        if len(args.rest) != 3:
            raise UserError("presets push SLOT NAME TC (e.g. presets push 0 club 600+5)")
        slot, name, text = args.rest
        if not slot.isdigit():
            raise UserError(f"presets push: slot {slot!r} is not a number")
        text = _control(text)
        call(args, lambda c: c.request("presets.set", auth=True, slot=int(slot), name=name, tc=text))
        return out(args, {"slot": int(slot), "name": name, "tc": text}, f"slot {slot}: {name} = {text}")
    if args.rest:
        raise UserError("presets [list|push SLOT NAME TC]")
    rows = [(name, text, desc) for name, text, desc in presets.PRESETS]
    if args.port:  # the clock's own user slots too
        ans = call(args, lambda c: c.request("presets.list"))
        rows += [(f"slot {p['slot']}: {p['name']}", p["tc"], "user preset on the clock") for p in ans.get("user", [])]
    if args.json:
        for name, text, desc in rows:
            print(json.dumps({"name": name, "tc": text, "description": desc}))
        return 0
    width = max(len(r[0]) for r in rows)
    tcw = max(len(r[1]) for r in rows)
    for name, text, desc in rows:
        print(f"{name:<{width}}  {text:<{tcw}}  {desc}")
    return 0


def _control(given: str) -> str:
    """A time control given on the command line: a built-in preset's name or a TimeControl string,
    checked (UserError). A word that is neither is an unknown preset, with the nearest names."""
    text = presets.preset(given) or given
    try:
        tcm.parse_sides(text)
    except ValueError as e:
        # preset-shaped: a word of letters, digits and - + . (a TimeControl never starts with a letter)
        if given[:1].isalpha() and all(ch.isalnum() or ch in "-+." for ch in given):
            import difflib

            near = difflib.get_close_matches(given.lower(), [p[0] for p in presets.PRESETS], n=3, cutoff=0.6)
            hint = f"did you mean {' or '.join(near)}? " if near else ""
            raise UserError(f"unknown preset {given!r}: {hint}sagat presets lists them") from None
        raise UserError(str(e)) from None
    return text


def cmd_tc(args: argparse.Namespace) -> int:
    text = _control(args.control)
    left, right = tcm.parse_sides(text)
    canonical = tcm.format_sides(left, right)
    if args.json:
        print(json.dumps({"tc": canonical, "left": tcm.format(left), "right": tcm.format(right)}))
        return 0
    print(canonical)
    for label, tc in (("both sides", left),) if left == right else (("left", left), ("right", right)):
        print(f"{label}:")
        for line in describe(tc):
            print(f"  {line}")
    return 0


def _read_log(args: argparse.Namespace, replay: bool = True):
    from . import logs

    try:
        if args.records:  # what `sagat logs pull` saved
            try:
                with open(args.records, "rb") as fh:
                    data = fh.read()
            except OSError as e:
                raise UserError(f"cannot read {args.records}: {e.strerror or e}") from None
            if not data:
                raise UserError(f"{args.records} is empty")
            return logs.read_segments([(os.path.basename(args.records), data)], arbiter_keys(args), replay)
        if not args.image:
            raise UserError("give --image FILE (a flash image) or --records FILE (from `sagat logs pull`)")
        return logs.read_segments(logs.read_image(args.image, args.block_size), arbiter_keys(args), replay)
    except logs.LogError as e:
        raise UserError(str(e)) from None


def _damage(log) -> int:
    """show/export: report damage to the records themselves (CRC, missing, order, torn) on stderr;
    whether the chain links is `sagat logs verify`'s question (it needs the arbiter key)."""
    from sagatfw import records

    damage = [p for p in log.problems if p[0] not in (records.P_CHAIN, records.P_KEY)]
    for kind, _seq, detail in damage:
        print(f"sagat: log damage: {kind}: {detail}", file=sys.stderr)
    return 1 if damage else 0


def _readable(args: argparse.Namespace, log) -> None:
    """show/export: a file none of whose records is a sagat record, or a --game the log does not
    hold, is one line (exit 2), not a page of damage or nothing at all."""
    where = args.records or args.image
    if log.records and not log.good:
        raise UserError(f"{where} is not a sagat log: none of its {log.records} records is a sagat record")
    if args.game is not None and args.game not in log.games():
        held = ", ".join(map(str, log.games())) or "none"
        raise UserError(f"no game {args.game} in {where} (its games: {held})")


def cmd_logs_show(args: argparse.Namespace) -> int:
    from . import logs

    log = _read_log(args, replay=False)
    _readable(args, log)
    events = log.shown(args.checkpoints, args.game)
    if args.json:
        sys.stdout.write(logs.to_json_lines(events))
    else:
        sys.stdout.write(logs.table(log, args.checkpoints, args.game))
    return _damage(log)


def _head_file(args: argparse.Namespace) -> str | None:
    """The head a pull saved: --head, else head.json beside --records (None if there is none)."""
    from . import pull

    if args.head:
        return args.head
    if args.records:
        path = os.path.join(os.path.dirname(os.path.abspath(args.records)), pull.HEAD_FILE)
        if os.path.exists(path):
            return path
    return None


def _pulled_uid(args: argparse.Namespace) -> str | None:
    """The clock id `sagat logs pull` wrote in clock.json beside --records, if any."""
    if not args.records:
        return None
    path = os.path.join(os.path.dirname(os.path.abspath(args.records)), "clock.json")
    try:
        with open(path, encoding="utf-8") as fh:
            uid = client.load(fh).get("uid")
    except (OSError, ValueError, AttributeError):
        return None
    return uid if isinstance(uid, str) else None


def _needs_key(log) -> None:
    """A log sealed with an arbiter key, verified without one: a usage error that names the options
    (what verify can say without the key is nothing), unless the log shows damage of its own."""
    from sagatfw import records

    sealed = [p for p in log.problems if p[0] == records.P_KEY]
    if not sealed or len(sealed) != len(log.problems) or log.replay_problems or log.last_key is not None:
        return
    at = sealed[0][1]
    set_at = [e["seq"] for e in log.events if e["type"] == "settings" and e.get("origin") == "key_set"
              and at is not None and e["seq"] < at]
    why = f"the arbiter key set at seq {set_at[-1]}" if set_at else \
        "an arbiter key (or, if this clock never had one, its records were changed)"
    raise UserError(f"this log is sealed from seq {at} on with {why}: give the key with --key KEY or "
                    f"--key-file FILE to verify it")


def cmd_logs_verify(args: argparse.Namespace) -> int:
    from . import logs

    if (args.code is None) != (args.game is None):
        raise UserError("--code and --game go together: the result code copied from game N's scoresheet")
    if args.code is not None and logs.code_problem(args.code):
        raise UserError(f"--code: {logs.code_problem(args.code)}")
    log = _read_log(args)
    extra: list[str] = []
    notes: list[str] = []
    head_path = None if args.no_head else _head_file(args)
    keys = [k for k in arbiter_keys(args) if k]
    if not keys:
        _needs_key(log)
    if head_path:
        try:
            with open(head_path, encoding="utf-8") as fh:
                head = client.load(fh)
        except (OSError, ValueError) as e:
            raise UserError(f"cannot read the head {head_path}: {getattr(e, 'strerror', None) or e}") from None
        found = logs.check_head(log, head, keys)
        uid = head.get("uid") if isinstance(head, dict) else None
        want = args.clock or _pulled_uid(args)
        if want is not None and uid != want:
            found.append(f"head: it is clock {uid}'s, not clock {want}'s")
        extra += found
        if not found:
            signed = "signed with the key, " if head.get("mac") else ""
            notes.append(f"head: clock {uid}: the log reaches its last record (seq {head.get('seq')}), {signed}"
                         f"as the clock gave it at the pull: nothing was cut off its end")
    elif args.records and keys and not args.no_head:
        extra.append("head: none beside the records: a keyed pull's end is proven only by the head.json it saved "
                     "(--head FILE; --no-head checks the records alone, which cannot show records cut off the end)")
    elif log.records:
        notes.append("head: not checked (a pull's head.json proves that nothing was cut off the end; an image or "
                     "records alone cannot: see docs/log-format.md)")
    elif args.clock:
        raise UserError("--clock needs a head: the clock id is in the head.json of a pull")
    if args.code is not None:
        ok_code, line = logs.check_code(log, args.game, args.code, keys, unkeyed_ok=True)
        (notes if ok_code else extra).append(line)
    ok, lines = logs.verify_report(log, extra=extra)
    if ok:
        lines += notes
    if args.json:
        print(json.dumps({"ok": ok, "records": log.records, "first_seq": log.start_seq, "last_seq": log.last_seq,
                          "problems": [list(p) for p in log.problems], "replay": log.replay_problems,
                          "checks": extra, "notes": notes}))
    else:
        print("\n".join(lines))
    return 0 if ok else 1


def cmd_logs_export(args: argparse.Namespace) -> int:
    from . import logs

    log = _read_log(args, replay=False)
    _readable(args, log)
    events = log.shown(args.checkpoints, args.game)
    text = logs.to_csv(events) if args.format == "csv" else logs.to_json_lines(events)
    if args.output and args.output != "-":
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as e:
            raise UserError(f"cannot write {args.output}: {e.strerror or e}") from None
        print(f"{len(events)} events written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return _damage(log)


def cmd_ports(args: argparse.Namespace) -> int:
    from . import client

    ports = client.find_ports()
    if args.json:
        for p in ports:
            print(json.dumps({"port": p.device, "board": p.description, "serial": p.serial_number}))
        return 0
    if not ports:
        print("no clock found on USB", file=sys.stderr)
        return 1
    for p in ports:
        print(f"{p.device}  {p.description}  {p.serial_number or ''}".rstrip())
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from . import client

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
    return f"{n / 1024:.1f} KB" if isinstance(n, int) else "not measured"


def info_text(ans: dict, game: dict | None) -> str:
    """identify (and state) as an ordered summary: firmware, board, id, battery, heap, game."""
    rows = []
    fw = f"sagat {ans.get('firmware', '?')}, protocol {ans.get('protocol', '?')}"
    rows.append(("firmware", fw))
    rows.append(("board", str(ans.get("board", "?"))))
    ident = str(ans.get("uid", "?"))
    if ans.get("number") is not None:
        ident += f", number {ans['number']} in the hall"
    rows.append(("id", ident))
    bat = ans.get("battery")
    battery = f"{bat} %" if isinstance(bat, int) else "not measured"
    mv = ans.get("battery_mv")
    if isinstance(bat, int) and isinstance(mv, int):
        battery += f" ({mv / 1000:.2f} V)"
    if ans.get("low_battery"):
        battery += " LOW: charge it or change the cells"
    rows.append(("battery", battery))
    used, free = ans.get("heap_used"), ans.get("heap_free")
    heap = f"{_bytes(used)} used, {_bytes(free)} free" if used is not None or free is not None else "not measured"
    rows.append(("heap", heap))
    if game:
        from . import logs

        sides = []
        for side in ("left", "right"):
            f = game.get(side) or {}
            text = f"{side} {logs.clock_text(f.get('ms', 0))}"
            if f.get("flag"):
                text += " FLAG"
            if game.get("running") == side:
                text += " (running)"
            sides.append(text)
        moves = f"moves {(game.get('left') or {}).get('moves')}-{(game.get('right') or {}).get('moves')}"
        code = f", {_code_text(game)}" if game.get("result_code") else ""
        rows.append(("game", f"{game.get('state')}: {', '.join(sides)}, {moves}{code}"))
        if game.get("mode"):
            rows[-1] = ("match", match_text(game))
    uptime = ans.get("uptime_ms")
    if isinstance(uptime, int):
        rows.append(("uptime", duration(uptime) + (f", longest loop gap {ans['loop_max_ms']} ms"
                                                        if isinstance(ans.get("loop_max_ms"), int) else "")))
    key = "set: changes need --key or --key-file" if ans.get("key_set") else "not set (`sagat key`)"
    if ans.get("repl_open"):
        key += "; REPL open (maintenance) until the board restarts"
    rows.append(("arbiter key", key))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


_WHY = {"points": "more points", "lead": "a winning lead", "golden_score": "golden score", "removal": "removal",
        "lot": "lot", "draw": "a draw by the method set", "referee": "the referee's result", "sudden": "sudden score"}


def _sec(ms, up: bool = False) -> str:
    """A match's time as M:SS, rounded as the faces round it (matchfaces.clock_text: a time counting
    up rounded down, one counting down rounded up), so the PC never reads 0:09 where the faces say 0:08."""
    from sagatfw import matchfaces

    return matchfaces.clock_text(ms if isinstance(ms, int) and not isinstance(ms, bool) else 0, up)


def match_text(st: dict) -> str:
    """A match's `state` as one line for a referee's table: mode, period, time, score, cards,
    stoppage, and the result once there is one."""

    def side(name: str) -> str:
        f = st.get(name) or {}
        cards = " W" * (f.get("warnings") or 0) + " RED" * (f.get("reds") or 0)
        return f"{name} {f.get('score', 0)}{cards}"

    state = st.get("state")
    clock = _sec(st.get("match_ms"), bool(st.get("counts_up"))) + (" (counting up)" if st.get("counts_up") else "")
    parts = [f"{st.get('mode')} {st.get('period_name')} {clock}", f"{side('left')} - {side('right')}", str(state)]
    if state == "stopped":
        parts[-1] += f" {_sec(st.get('stoppage_ms'), True)}"
    if st.get("stopped_ms"):
        parts.append(f"stopped {_sec(st.get('stopped_ms'), True)} this period")
    if state == "break":
        parts.append(f"break {_sec(st.get('break_ms'))} left")
    if st.get("entering"):
        parts.append(f"{st['entering']} enters")
    if st.get("lot_due"):
        parts.append("lot due")
    if st.get("winner"):
        who = "draw" if st["winner"] == "none" else f"winner {st['winner']}"
        parts.append(f"{who} ({_WHY.get(st.get('why'), st.get('why'))})")
    if st.get("message"):
        parts.append(str(st["message"]))
    return "  |  ".join(parts)


def _faces(st: dict) -> str:
    from . import logs

    if st.get("mode"):
        return match_text(st)

    def face(side: str) -> str:
        f = st.get(side) or {}
        text = logs.clock_text(f.get("ms", 0))
        if f.get("flag"):
            text += " FLAG" + (" 1ST" if st.get("first_flag") == side else "")
        return text

    run = st.get("running")
    a = face("left") + (" <" if run == "left" else "")
    b = ("> " if run == "right" else "") + face("right")
    moves = f"{(st.get('left') or {}).get('moves')}-{(st.get('right') or {}).get('moves')}"
    code = f"  {_code_text(st)}" if st.get("result_code") else ""
    return f"{a:>22} | {b:<22}  moves {moves}  {st.get('state')}{code}"


def cmd_state(args: argparse.Namespace) -> int:
    ans = call(args, lambda c: c.request("state"))
    return out(args, ans, _faces(ans))


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
                print("\r" + _faces(st) + "\x1b[K", end="", flush=True)
                drawn[0] = True
            else:
                print(_faces(st), flush=True)
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


def _assignments(items: list[str], what: str) -> dict:
    """KEY=VALUE arguments as a dict; values are JSON where they parse (numbers, true, null), else text."""
    values = {}
    for item in items:
        key, eq, val = item.partition("=")
        if not eq or not key:
            raise UserError(f"{what}: {item!r} is not KEY=VALUE")
        values[key] = value(val)
    return values


FREEZE_WORDS = {"auto": None, "null": None, "on": True, "true": True, "off": False, "false": False}
BOOL_WORDS = {"on": True, "true": True, "off": False, "false": False}


def _setting(key: str, text: str):
    """A `sagat settings KEY=VALUE`'s value as the setting's kind wants it (settings.SCHEMA): a time
    control stays text (`tc=420`), freeze takes the menu's AUTO/ON/OFF, a switch on/off or true/false."""
    from sagatfw import settings

    spec = settings.SCHEMA.get(key)
    if spec is None:  # a clock with other firmware may know it: the clock says whether it does
        return value(text)
    kind, low, high = spec[1], spec[2], spec[3]
    word = text.strip().lower()
    if kind == "t":
        return text.strip()
    if kind == "c":
        if word not in low:
            raise UserError(f"settings: {key} is one of " + ", ".join(low) + f", not {text!r}")
        return word
    if kind == "n":
        if word not in FREEZE_WORDS:
            raise UserError(f"settings: freeze is auto, on or off, not {text!r}")
        return FREEZE_WORDS[word]
    if kind == "b":
        if word not in BOOL_WORDS:
            raise UserError(f"settings: {key} is on or off, not {text!r}")
        return BOOL_WORDS[word]
    try:
        number = int(word)
    except ValueError:
        raise UserError(f"settings: {key} is a whole number {low}..{high}, not {text!r}") from None
    if not low <= number <= high:
        raise UserError(f"settings: {key} is {low}..{high}, not {number}")
    return number


def _settings_text(values: dict) -> str:
    """The settings in the menu's order (SETTINGS), then the rest in settings.SCHEMA's; freeze as
    the menu shows it (AUTO, ON, OFF)."""
    from sagatfw import menu, settings

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
            raise UserError(f"settings: {item!r} is not KEY=VALUE")
        changes[key] = _setting(key, val)

    def run(clock):
        if changes:
            clock.request("settings.set", auth=True, values=changes)
        return clock.request("settings.get")

    ans = call(args, run)
    values = ans.get("values", {})
    return out(args, values, _settings_text(values))


METHODS = ("sudden", "lot", "draw", "referee")


def _match_options(args: argparse.Namespace) -> dict:
    """`sagat new --mode ...`: the protocol's arguments for the match (docs/protocol.md, Matches)."""
    if args.control is not None:
        raise UserError(f"new --mode {args.mode} takes no time control ({args.control!r}): a match's periods are "
                        f"the game's rules")
    opts: dict = {"mode": args.mode}
    if args.mode == "kokboru":
        for name in ("first", "changeover", "method"):
            if getattr(args, name) is not None:
                raise UserError(f"--{name} is for kilithattu, not kokboru (kokboru takes --lead)")
        if args.lead is not None:
            if not 0 <= args.lead <= 99:
                raise UserError("--lead must be 0..99 (the lead that wins at once; 0: none)")
            opts["lead"] = args.lead
        return opts
    if args.lead is not None:
        raise UserError("--lead is for kokboru, not kilithattu")
    if args.first is not None:
        opts["first"] = args.first
    if args.changeover is not None:
        if not 1 <= args.changeover <= 60:
            raise UserError("--changeover must be 1..60 seconds (KT-4.4: at most 1:00)")
        opts["changeover_ms"] = args.changeover * 1000
    if args.method is not None:
        opts["method"] = args.method
    return opts


def cmd_new(args: argparse.Namespace) -> int:
    if args.mode:
        opts = _match_options(args)
        ans = call(args, lambda c: c.request("new", auth=True, **opts))
        return out(args, ans, "next match: " + match_text(ans))
    for name in ("lead", "changeover", "method"):
        if getattr(args, name) is not None:
            raise UserError(f"--{name} is a match's option: give --mode kokboru or --mode kilithattu")
    if args.control is None:
        raise UserError("new needs a time control (e.g. sagat new 420) or --mode kokboru|kilithattu")
    args.first = args.first or "left"
    text = _control(args.control)
    ans = call(args, lambda c: c.request("new", auth=True, tc=text, first=args.first))
    return out(args, ans, f"next game: {text}, first player on the {args.first}")


def _referee(args: argparse.Namespace, cmd: str, **values) -> int:
    """A referee's command (a match's, or start, resume and result for a game too): the answer
    is the state after it."""
    ans = call(args, lambda c: c.request(cmd, auth=True, **values))
    ans.pop("id", None)
    ans.pop("ok", None)
    return out(args, ans, _faces(ans) if ans.get("mode") else _brief(ans))


def _code_text(st: dict) -> str:
    """The result code as the state gives it: a finished game's own, or, at setup (after a reboot
    the faces show the last result's code again), the game's whose code it is, never the next one's."""
    if st.get("state") == "finished":
        return f"result code {st['result_code']}"
    return f"game {st.get('game')}'s result code {st['result_code']}"


def _brief(ans: dict) -> str:
    from . import logs

    run = f", {ans['running']} running" if ans.get("running") else ""
    return (f"{ans.get('state')}: left {logs.clock_text(ans.get('left_ms') or 0)}, "
            f"right {logs.clock_text(ans.get('right_ms') or 0)}{run}")


def cmd_referee(args: argparse.Namespace) -> int:
    return _referee(args, args.command)


def cmd_pause(args: argparse.Namespace) -> int:
    """The arbiter pauses a running game (TK-C15, logged `by arbiter`); a match's time stops with a stoppage."""
    try:
        return _referee(args, "pause", by="arbiter")
    except UserError as e:
        if "match is set up" in str(e):
            raise UserError(f"{e}; a match's time stops with `sagat stoppage`") from None
        raise


def cmd_score(args: argparse.Namespace) -> int:
    return _referee(args, "score", side=args.side, points=args.points)


def cmd_card(args: argparse.Namespace) -> int:
    return _referee(args, "card", side=args.side, kind=args.kind)


RESULTS = ("1-0", "0-1", "1/2-1/2", "+/-", "-/+")


def cmd_result(args: argparse.Namespace) -> int:
    if args.outcome in ("left", "right", "none"):
        return _referee(args, "result", winner=args.outcome)
    if args.outcome in RESULTS:
        def run(clock):
            ans = clock.request("result", auth=True, result=args.outcome)
            return ans, clock.request("state")

        ans, state = call(args, run)
        for k in ("id", "ok"):
            ans.pop(k, None)
        code = state.get("result_code")
        if code:
            ans["result_code"], ans["game"] = code, state.get("game")
        # the code to copy onto the scoresheet (TK-P1's proof): the clock shows it once the result
        # record is on its flash
        line = f"result code {code} (game {state.get('game')})" if code else \
            "no result code yet: the clock shows it once the result is on its flash (`sagat state`)"
        return out(args, ans, _brief(ans) + "\n" + line)
    raise UserError(f"result {args.outcome!r}: a match's winner is left, right or none; a game's result is "
                    + ", ".join(RESULTS))


def cmd_sync_time(args: argparse.Namespace) -> int:
    import time

    def run(clock):
        return clock.request("time.sync", auth=True, wall_ms=int(time.time() * 1000))

    ans = call(args, run)
    return out(args, ans, "clock time synced: events now carry wall time")


def _out_dir(path: str) -> None:
    """A pull's --out: a folder that exists or can be made, checked before the clock is asked anything."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise UserError(f"--out {path}: not a folder (a pull writes records.bin, head.json and events.jsonl in it)")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UserError(f"--out {path}: cannot make the folder: {e.strerror or e}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UserError(f"--out {path}: the folder is not writable")


def _out_file(option: str, path: str) -> None:
    """A file the command will write at its end: its folder must exist and be writable before it starts."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UserError(f"{option} {path}: is a folder, not a file")
    if not os.path.isdir(folder):
        raise UserError(f"{option} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"{option} {path}: the folder {folder} is not writable")


def _pulled_text(figures: dict) -> str:
    """`N new records (seq a..b) + K segment anchors`: each log segment opens with an anchor record
    (its chain's start, docs/log-format.md) that has no seq of its own, so a pull of seq 0..34 may
    bring 36 records."""
    n, k = figures.get("records", figures["pulled"]), figures.get("anchors", 0)
    if n == 0 and k == 0:
        return "no new records (the folder holds the whole log)"
    text = f"{n} new record{'' if n == 1 else 's'} (seq {figures['first']}..{figures['last']})"
    return text + (f" + {k} segment anchor{'' if k == 1 else 's'}" if k else "")


def cmd_logs_pull(args: argparse.Namespace) -> int:
    from . import pull

    _out_dir(args.out)
    figures = call(args, lambda c: pull.pull(c, args.out))
    return out(
        args,
        figures,
        _pulled_text(figures) + f", {figures['events']} events in {os.path.join(args.out, 'events.jsonl')}",
    )


def cmd_logs_erase(args: argparse.Namespace) -> int:
    """Erase finished games from the clock, but only what a pull saved and verifies."""
    from . import logs

    raw = os.path.join(args.pulled, "records.bin")
    try:
        with open(raw, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise UserError(f"erase needs a pull to keep: cannot read {raw}: {e.strerror or e}") from None
    log = logs.read_segments([("records.bin", data)], arbiter_keys(args), replay=True)
    ok, lines = logs.verify_report(log)
    if not ok:
        raise UserError(f"the pulled copy in {args.pulled} does not verify ({lines[0]}): nothing erased")
    upto = log.last_seq
    finished = sorted({e["game"] for e in log.events if e["type"] == "result"})
    if not finished:
        raise UserError("the pulled copy has no finished game: nothing to erase")
    game = finished[-1]
    total = 0

    try:
        with open(os.path.join(args.pulled, "clock.json"), encoding="utf-8") as fh:
            pulled_uid = client.load(fh).get("uid")
    except (OSError, ValueError):
        pulled_uid = None

    def run(clock):
        nonlocal total
        uid = clock.request("identify").get("uid")
        if pulled_uid is None or pulled_uid != uid:
            raise UserError(f"{args.pulled} was not pulled from this clock ({uid}): nothing erased")
        while True:
            ans = clock.request("log.erase", auth=True, upto_seq=upto, game=game)
            total += ans.get("erased", 0)
            if not ans.get("more"):
                return ans

    ans = call(args, run)
    if not total:
        return out(args, {"erased_segments": 0, "first": ans.get("first"), "stopped": ans.get("stopped")},
                    f"nothing erased: no segment holds only games up to {game} (pulled and verified up to seq "
                    f"{upto}); the clock's log starts at seq {ans.get('first')}")
    return out(args, {"erased_segments": total, "first": ans.get("first"), "stopped": ans.get("stopped")},
                f"{total} segment(s) of games up to {game} erased (pulled and verified up to seq {upto}); "
                f"the clock's log now starts at seq {ans.get('first')}")


def cmd_key(args: argparse.Namespace) -> int:
    """Set (or clear) the arbiter key, between games. --key gives the current key if one is set."""
    new = args.new_key.encode()
    if len(new) > 64:
        raise UserError("the arbiter key is at most 64 bytes")
    ans = call(args, lambda c: c.request("key.set", auth=True, key=new.hex()))
    text = "arbiter key set: keep it secret; `sagat logs verify --key ...` needs it" if new else "arbiter key cleared"
    if ans.get("durable") is False:
        text += "\nwarning: the clock could not write the change to its log yet (its faces say LOG ERROR)"
    return out(args, ans, text)


def cmd_call(args: argparse.Namespace) -> int:
    """Any protocol command (docs/protocol.md), e.g. `sagat call pause by=arbiter`."""
    values = _assignments(args.args, "call")
    ans = call(args, lambda c: c.request(args.cmd, auth=True, **values))
    ans.pop("id", None)
    return out(args, ans, json.dumps(ans, indent=2))


def cmd_deploy(args: argparse.Namespace) -> int:
    import sagatfw

    from . import client
    from . import deploy as D

    try:
        port = client.pick_port(args.port)
        ask_state, identify, open_repl = D.serial_protocol(port, args.timeout, args.boot_timeout, key=current_key(args))
        report = D.deploy(
            D.MpremoteTransport(port, repl_s=max(10.0, args.boot_timeout / 2)),
            args.board,
            D.default_firmware_dir(),
            D.find_mpy_cross(),
            sagatfw.VERSION,
            ask_state=ask_state,
            identify=identify,
            log=(lambda *a, **k: None) if args.json else print,
            open_repl=open_repl,
        )
    except (D.DeployError, client.LinkError) as e:
        raise UserError(str(e)) from None
    if args.json:
        print(json.dumps(report.__dict__ if hasattr(report, "__dict__") else str(report), default=str))
    return 0


def _log_source(sp: argparse.ArgumentParser) -> None:
    source = sp.add_mutually_exclusive_group()  # one log at a time: both would leave one unread
    source.add_argument("--image", metavar="FILE", help="a littlefs image: the simulator's flash or a board's dump")
    source.add_argument("--records", metavar="FILE", help="the records.bin that `sagat logs pull` saved")
    sp.add_argument("--block-size", type=int, default=None, metavar="BYTES",
                    help="the image's block size in bytes (default: detected; 4096 for a Pico's or the sim's)")
    sp.add_argument("--key", action="append", metavar="KEY",
                    help="the arbiter key the log's chain is keyed with, to check the chain (repeat it for keys "
                         "used before)")
    sp.add_argument("--key-file", metavar="FILE", help="read the arbiter key from FILE (instead of --key)")


def cmd_hall(args: argparse.Namespace) -> int:
    """The arbiter's hall: every clock on one live page (docs/hall.md)."""
    from . import hall

    try:
        return hall.run(args.port or [], args.sim, current_key(args), [k for k in arbiter_keys(args) if k],
                        args.pairings, args.host, args.http_port, args.out, not args.no_usb,
                        hall.wants_browser() and not args.no_browser, args.timeout, args.publish, args.subscribe,
                        args.name)
    except hall.StartError as e:
        raise UserError(str(e)) from None


def cmd_report(args: argparse.Namespace) -> int:
    """A page per game from pulled logs, and the round's index (docs/hall.md)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UserError("sagat report draws its plots with matplotlib: pip install 'sagat[report]'") from None
    from .hall import pairings as P
    from .hall import report

    pairs = {}
    keys = [k for k in arbiter_keys(args) if k]
    try:
        if args.pairings:
            pairs = P.read(args.pairings)
        figures = report.build(args.sources, args.out, keys, pairs)
    except (report.ReportError, P.PairingsError) as e:
        raise UserError(str(e)) from None
    # an intact chain without a key proves no authorship: never counted as verified (docs/hall.md)
    text = f"{figures['games']} game(s): {figures['verified']} verified"
    if figures["unkeyed"]:
        text += f", {figures['unkeyed']} chain intact without a key (authorship unproven)"
    if figures["sealed"]:  # a keyed clock's log without its key: not checked (neither broken nor unkeyed)
        text += f", {figures['sealed']} sealed with an arbiter key, not checked (give --key-file or --key)"
    if figures["failed"]:
        text += f", {figures['failed']} NOT verified"
    out(args, figures, f"{text}: {figures['index']}")
    return 1 if figures["failed"] else 0  # as `sagat logs verify` (the pages are written all the same)


def _has_terminal() -> bool:
    """A controlling terminal the sim board can read its keys from (it opens /dev/tty)."""
    try:
        os.close(os.open("/dev/tty", os.O_RDWR))
    except OSError:
        return False
    return True


def cmd_sim(args: argparse.Namespace) -> int:
    from . import sim

    if args.log_json:  # checked before the script runs, not after it
        _out_file("--log-json", args.log_json)
    fresh = None
    if args.script and not args.flash:  # never the interactive simulator's saved game
        import tempfile

        fresh = tempfile.mkdtemp(prefix="sagat-script-")
        flash = os.path.join(fresh, "flash.img")
    else:
        flash = args.flash or sim.default_flash()
    try:
        if args.oled and args.script and not args.serial:
            raise UserError("--oled draws the faces in real time: use it without --script, or with --serial")
        if args.serial and args.script:
            return sim.run_serial(flash, args.headless, script=args.script, oled=args.oled)
        if args.script:
            figures = sim.run_script(args.script, flash, args.virtual, args.log_json, args.heap)
            where = "a fresh flash (--flash IMAGE keeps it)" if fresh else f"flash {flash}"
            msg = f"script done: {figures['boots']} boot(s) on {where}"
            if args.log_json:
                msg += f", {figures['events']} events in {args.log_json}"
            print(msg, file=sys.stderr)
            return 0
        if args.virtual or args.log_json:
            raise UserError("--virtual and --log-json need --script")
        if args.serial or args.headless:
            return sim.run_serial(flash, args.headless, oled=args.oled)
        if not _has_terminal():
            raise UserError("the interactive simulator needs a terminal (its faces and keys): without one, use "
                            "--serial --headless (the serial link only) or --script FILE")
        return sim.run_interactive(flash, args.oled)
    except sim.SimError as e:
        raise UserError(str(e)) from None
    finally:
        if fresh is not None:
            import shutil

            shutil.rmtree(fresh, ignore_errors=True)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="sagat", description="The toguz kumalak tournament clock's host command: configure a clock "
                "over USB serial, pull and verify its log, run the simulator, put the firmware on a board.")
    p.add_argument("--version", action="version", version=f"sagat {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    def cmd(name: str, text: str, description: str | None = None, parent=sub):
        return parent.add_parser(name, help=text, description=description or (text[0].upper() + text[1:] + "."))

    sp = cmd("presets", "list the presets (built-in, and the clock's with --port); push one to a slot",
             "The built-in time controls (toguz kumalak's first), and with --port the clock's user presets. "
             "`sagat presets push SLOT NAME TC` writes a user preset to the clock.")
    sp.add_argument("action", nargs="?", choices=("list", "push"), default="list",
                    help="list (default) or push")
    sp.add_argument("rest", nargs="*", metavar="SLOT NAME TC",
                    help="for push: the slot (a number), the preset's name and its TimeControl string")
    sp.add_argument("--port", metavar="PORT",
                    help="also the user presets on the clock at this serial port (push: the clock to write to)")
    sp.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                    help="seconds to wait for each answer (default: 3)")
    sp.add_argument("--key", action="append", metavar="KEY",
                    help="push: the arbiter key, once one is set on the clock (it signs the change)")
    sp.add_argument("--key-file", metavar="FILE", help="read the arbiter key from FILE (instead of --key)")
    sp.add_argument("--json", action="store_true", help="one JSON object per line")
    sp.set_defaults(func=cmd_presets)
    sp = cmd("tc", "check and explain a TimeControl string or preset name",
             "Check a TimeControl string (docs/timecontrol.md) or a preset name and explain it; no clock needed.")
    sp.add_argument("control", help='a TimeControl string in seconds, e.g. 420, "40/5400+30:1800+30", '
                                    '"300+2|180+2", or a preset name, e.g. tk-blitz')
    sp.add_argument("--json", action="store_true", help="the canonical string and each side's, as JSON")
    sp.set_defaults(func=cmd_tc)

    lp = cmd("logs", "read, verify and export a clock's log",
             "A clock's log: pull it over serial, show, verify and export it (from a pull's records.bin or a "
             "flash image), erase what a pull saved. See docs/arbiter-guide.md.")
    lsub = lp.add_subparsers(dest="logs_command", metavar="ACTION", parser_class=Parser, required=True)
    sp = cmd("show", "every event, as a table per game or JSON lines", parent=lsub)
    _log_source(sp)
    sp.add_argument("--json", action="store_true",
                    help="one JSON object per event (fields: docs/design.md, contract 3)")
    sp.add_argument("--game", type=int, metavar="N", help="only game N (games count from 1)")
    sp.add_argument("--checkpoints", action="store_true", help="also the checkpoint records")
    sp.set_defaults(func=cmd_logs_show)
    sp = cmd("pull", "copy the clock's log over serial (resumes an interrupted pull)",
             "Copy the clock's log over serial into DIR: records.bin, events.jsonl and head.json (the clock's "
             "signed last record: with a key set, --key is needed for it). A second pull adds only what is new.",
             parent=lsub)
    link_args(sp)
    sp.add_argument("--out", default="sagat-log", metavar="DIR",
                    help="the folder for records.bin, events.jsonl and head.json (default: sagat-log)")
    sp.set_defaults(func=cmd_logs_pull)
    sp = cmd("erase", "erase finished games on the clock that a pull saved and verifies", parent=lsub)
    link_args(sp)
    sp.add_argument("--pulled", default="sagat-log", metavar="DIR",
                    help="the folder `sagat logs pull` wrote (default: sagat-log)")
    sp.set_defaults(func=cmd_logs_erase)
    sp = cmd("verify", "check every CRC and chain link and replay every game; exit 1 if broken",
             "Check a log: every record's CRC, the sequence, the chain (with --key), a replay of every game, and "
             "a pull's head. Prints OK, or BROKEN at seq N and exits 1.", parent=lsub)
    sp.add_argument("--head", metavar="FILE", help="the head a pull saved (default: head.json beside --records)")
    sp.add_argument("--no-head", action="store_true", help="check the records alone (a cut end goes unseen)")
    sp.add_argument("--clock", metavar="UID", help="the clock the log must be from (its id, as `sagat info` shows)")
    sp.add_argument("--game", type=int, metavar="N", help="with --code: the game whose scoresheet has the code")
    sp.add_argument("--code", metavar="CODE", help="the result code the faces showed for --game (six digits)")
    _log_source(sp)
    sp.add_argument("--json", action="store_true", help="the verdict and every problem as one JSON object")
    sp.set_defaults(func=cmd_logs_verify)
    sp = cmd("export", "write the events as CSV or JSON lines", parent=lsub)
    _log_source(sp)
    sp.add_argument("--format", choices=("csv", "json"), default="csv",
                    help="csv (default: one row per event) or json (contract 3 JSON lines)")
    sp.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    sp.add_argument("--game", type=int, metavar="N", help="only game N (games count from 1)")
    sp.add_argument("--checkpoints", action="store_true", help="also the checkpoint records")
    sp.set_defaults(func=cmd_logs_export)

    sp = cmd("ports", "find clocks on USB by vendor and product id",
             "List the serial ports whose USB id is a sagat board's (Raspberry Pi, Espressif, CP210x, CH340).")
    sp.add_argument("--json", action="store_true", help="one JSON object per port")
    sp.set_defaults(func=cmd_ports)
    sp = cmd("info", "identify the clock: firmware, board, id, battery, heap, game",
             "What the clock says about itself: firmware and protocol, board, id, battery, heap, the game's "
             "state, uptime, whether an arbiter key is set. Reading needs no key.")
    link_args(sp, key=False)
    sp.set_defaults(func=cmd_info)
    sp = cmd("state", "both faces, once", "Both faces once: times, moves, flags, the clock's state.")
    link_args(sp, key=False)
    sp.set_defaults(func=cmd_state)
    sp = cmd("watch", "both faces, live", "Both faces, read again and again until Ctrl-C (or --count).")
    link_args(sp, key=False)
    sp.add_argument("--interval", type=float, default=0.2, metavar="SECONDS",
                    help="seconds between readings (default: 0.2)")
    sp.add_argument("--count", type=int, metavar="N", help="stop after N readings")
    sp.set_defaults(func=cmd_watch)
    sp = cmd("settings", "show the clock's settings, or set some: KEY=VALUE ...",
             "Show the clock's settings; with KEY=VALUE arguments, change them (between games; with a key set, "
             "--key signs the change), shown in the menu's order. docs/user-guide.md lists the keys and their units "
             "(ms, a count, on/off; freeze auto, on or off; tc a TimeControl string).")
    link_args(sp)
    sp.add_argument("assign", nargs="*", metavar="KEY=VALUE",
                    help="a setting to change, e.g. low_time_ms=60000 (ms), sound=off, freeze=auto or tc=420")
    sp.set_defaults(func=cmd_settings)
    sp = cmd("new", "configure the next game (a TimeControl string or preset name) or match (--mode)",
             "Set up the next game (a TimeControl string or preset name) or, with --mode, a match of kok-boru or "
             "kilithattu (docs/match.md), which waits for the referee's start.")
    link_args(sp)
    sp.add_argument("control", nargs="?", help='a TimeControl string in seconds ("420", "40/5400+30:1800+30", '
                    '"300+2|180+2") or a preset name (tk-blitz, tk-rapid); none with --mode')
    sp.add_argument("--first", choices=("left", "right"),
                    help="a game: the first player's face (TK-C5; default: left); kilithattu: the team that "
                         "enters first (KT-4.4; default: left)")
    sp.add_argument("--mode", choices=("kokboru", "kilithattu"), help="set up a match of this game instead")
    sp.add_argument("--lead", type=int, metavar="N",
                    help="kokboru: a lead of more than N points wins at once (KB-14; default 8, 0: never)")
    sp.add_argument("--changeover", type=int, metavar="SECONDS",
                    help="kilithattu: the changeover between innings, 1..60 seconds (KT-4.4; default 60)")
    sp.add_argument("--method", choices=METHODS,
                    help="kilithattu: how a tie after the extra time is broken (KT-4.6; default lot): sudden "
                         "(first score wins), lot, draw, referee")
    sp.set_defaults(func=cmd_new)
    for name, text in (("start", "start: a game set up, a match's waiting period (or end a changeover early)"),
                       ("pause", "pause: a running game, logged as paused by the arbiter (a match: `sagat stoppage`)"),
                       ("resume", "resume: a paused game, or a match after a stoppage"),
                       ("stoppage", "a match's stoppage: the match time stops until `sagat resume` (KB-16, KT-4.5)"),
                       ("undo", "a match: take back the last score or card of the period (logged as an undo)")):
        sp = cmd(name, text)
        link_args(sp)
        sp.set_defaults(func=cmd_pause if name == "pause" else cmd_referee)
    sp = cmd("score", "a match: points for a side (kokboru 4, 2 or 1; kilithattu 1)")
    link_args(sp)
    sp.add_argument("side", choices=("left", "right"), help="the side (face) that scored")
    sp.add_argument("points", type=int, help="the points: kokboru 4, 2 or 1 (KB-7..10), kilithattu 1 (KT-5.5)")
    sp.set_defaults(func=cmd_score)
    sp = cmd("card", "a match (kokboru): a warning or a red card for a side (KB-11, KB-12)")
    link_args(sp)
    sp.add_argument("side", choices=("left", "right"), help="the side (face) carded")
    sp.add_argument("kind", choices=("warning", "red"), help="warning (a second removes the rider) or red")
    sp.set_defaults(func=cmd_card)
    sp = cmd("result", "enter the result: a match's winner (left, right, none) or a game's (1-0, 0-1, ...)")
    link_args(sp)
    sp.add_argument("outcome", metavar="RESULT",
                    help="a match: left, right or none (a draw); a game: 1-0, 0-1, 1/2-1/2, +/- or -/+")
    sp.set_defaults(func=cmd_result)
    sp = cmd("sync-time", "set the clock's wall time from this PC, so events carry `wall`")
    link_args(sp)
    sp.set_defaults(func=cmd_sync_time)

    sp = cmd("deploy", "flash the firmware to a Pico or ESP32 (keeps its settings and log)",
             "Put sagat on a board running MicroPython, or upgrade it, over its USB serial (mpremote's raw REPL): "
             "compiles the firmware with mpy-cross and writes only what changed. Settings, key and log stay. "
             "Refused while a game is in progress.")
    sp.add_argument("--port", metavar="PORT", help="the board's serial port (default: the one found by its USB id)")
    sp.add_argument("--board", choices=("pico", "esp32"), help="the board (default: what its MicroPython reports)")
    sp.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                    help="seconds to wait for each of sagat's answers (default: 3)")
    sp.add_argument("--boot-timeout", type=float, default=60.0, metavar="SECONDS",
                    help="seconds the restarted board may take to answer identify; it is asked every 0.5 s and "
                         "deploy goes on at its first answer (default: 60; entering its REPL may take half of it, "
                         "at least 10)")
    sp.add_argument("--key", action="append", metavar="KEY",
                    help="the arbiter key, if the clock has one (it opens the clock's REPL: `maintenance`)")
    sp.add_argument("--key-file", metavar="FILE", help="read the arbiter key from FILE (instead of --key)")
    sp.add_argument("--json", action="store_true", help="print what was done as JSON")
    sp.set_defaults(func=cmd_deploy)

    sp = cmd("key", "set the arbiter key between games ('' clears it); --key: the current one",
             "Set the arbiter key (between games). Once one is set, every change needs it, and the log's chain is "
             "keyed with it. A change or '' (clear) needs the current key as --key or --key-file.")
    link_args(sp)
    sp.add_argument("new_key", metavar="NEW_KEY", help="the new key, 1 to 64 bytes ('' clears it)")
    sp.set_defaults(func=cmd_key)
    sp = cmd("call", "send any protocol command, e.g. `sagat call pause by=arbiter`",
             "Send any protocol command (docs/protocol.md) and print its answer; signed with --key when one is set.")
    link_args(sp)
    sp.add_argument("cmd", metavar="COMMAND", help="start, pause, resume, adjust, extend, result, ... (protocol.md)")
    sp.add_argument("args", nargs="*", metavar="KEY=VALUE",
                    help="the command's arguments, e.g. side=left ms=60000 (times in ms); values are JSON where "
                         "they parse, else text")
    sp.set_defaults(func=cmd_call)

    sp = cmd("hall", "the arbiter's hall: every clock on one live web page; start the round on all at once",
             "A local web page with every clock of the round, live: USB clocks (a clock plugged in later "
             "appears), --port, and --sim N simulated clocks. Set up every board, start the round on all "
             "boards at one instant (armed on each clock's own ticks), pause all, resume all (signed with "
             "--key); each finished game's log is pulled and verified. See docs/hall.md.")
    sp.add_argument("--sim", type=int, metavar="N", help="also start N simulated clocks (boards 1..N)")
    sp.add_argument("--port", action="append", metavar="PORT",
                    help="a clock's serial port besides those found on USB (repeat for more)")
    sp.add_argument("--no-usb", action="store_true", help="do not look for clocks on USB")
    sp.add_argument("--pairings", metavar="FILE", help="a CSV file: board, left player, right player")
    sp.add_argument("--key", action="append", metavar="KEY",
                    help="the arbiter key (signs set up, start, pause, resume, results; verifies the pulled logs; "
                         "docs/arbiter-guide.md, Make a key)")
    sp.add_argument("--key-file", metavar="FILE", help="read the arbiter key from FILE (instead of --key)")
    sp.add_argument("--out", default="sagat-hall", metavar="DIR",
                    help="where finished games' logs are pulled, a folder per board (default: sagat-hall)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="the address the page is served on (default: 127.0.0.1, this PC only; 0.0.0.0: the "
                         "network, its buttons with the access token in the address it prints, by this PC's name and "
                         "by each of its IP addresses)")
    sp.add_argument("--http-port", type=int, default=8716, metavar="N", help="the page's port (default: 8716)")
    sp.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    sp.add_argument("--timeout", type=float, default=2.0, metavar="SECONDS",
                    help="seconds to wait for each clock's answer (default: 2)")
    sp.add_argument("--publish", metavar="mqtt://HOST[:PORT]",
                    help="publish this hall's clocks to an MQTT broker, for a hall on another PC (--subscribe); "
                         "a broker user: mqtt://USER@HOST, its password in SAGAT_MQTT_PASSWORD")
    sp.add_argument("--subscribe", metavar="mqtt://HOST[:PORT]",
                    help="also show the clocks other halls publish to this MQTT broker (a broker user: as "
                         "--publish)")
    sp.add_argument("--name", help="this hall's name on the broker, 1 to 32 letters, digits, _ or - "
                    "(default: this PC's host name)")
    sp.set_defaults(func=cmd_hall)

    sp = cmd("report", "a page per game from pulled logs (time-use plot, flag-fall certificate), and the round's",
             "From what `sagat logs pull` or `sagat hall` saved: a page per game with the time-use plot of both "
             "sides, the flag-fall certificate and the events, and index.html listing the round. Exit code 1 "
             "when a log does NOT verify (under the key given, or damaged where no key is needed to see it; the "
             "pages are written all the same), else 0. See docs/hall.md.")
    sp.add_argument("sources", nargs="+", metavar="DIR",
                    help="a pulled log's folder (records.bin, head.json), or a folder of them (sagat hall --out)")
    sp.add_argument("--out", default="sagat-report", metavar="DIR", help="where the pages go (default: sagat-report)")
    sp.add_argument("--pairings", metavar="FILE", help="a CSV file: board, left player, right player")
    sp.add_argument("--key", action="append", metavar="KEY", help="the arbiter key the logs are chained with")
    sp.add_argument("--key-file", metavar="FILE", help="read the arbiter key from FILE (instead of --key)")
    sp.add_argument("--json", action="store_true", help="the figures as JSON")
    sp.set_defaults(func=cmd_report)

    from .sim import actions_help

    sp = sub.add_parser(
        "sim", help="run the clock in the simulator (interactive, or a script)",
        description="The clock's firmware on the MicroPython unix port: its faces in this terminal and "
                    "its keys (space start/pause, a or z left lever, l or / right lever, m menu, +/-, q off), "
                    "or a script of timed actions. Its flash (settings, log) persists in "
                    "~/.local/share/sagat/sim-flash.img; a script without --flash plays on a fresh flash.",
        epilog=actions_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument(
        "--flash", metavar="IMAGE",
        help="the sim board's flash, a littlefs image (default: ~/.local/share/sagat/sim-flash.img; with --script: "
             "a fresh one)"
    )
    sp.add_argument("--script", metavar="FILE", help="play a JSON-lines script of timed actions, then exit")
    sp.add_argument("--virtual", action="store_true", help="in virtual time: a 5-hour game takes seconds")
    sp.add_argument("--log-json", metavar="FILE",
                    help="with --script: write the games played to FILE, one JSON event a line (docs/design.md, "
                         "contract 3)")
    sp.add_argument("--heap", metavar="SIZE", help=argparse.SUPPRESS)  # e.g. 64k: the memory budget test
    sp.add_argument("--serial", action="store_true",
                    help="answer the protocol on a pseudo-terminal (its path is printed), like a board's USB serial")
    sp.add_argument("--headless", action="store_true", help="with --serial: no faces, no keys")
    sp.add_argument("--oled", choices=("diff", "full"),
                    help="also drive two OLED faces as a board does, on a modelled 400 kHz I2C bus, so the loop's "
                         "measured gap (sagat info) includes their bus time: diff sends only what changed (the "
                         "firmware's way), full both whole frames at every refresh")
    sp.set_defaults(func=cmd_sim)
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        # (a Ctrl-C while the parser is built is an interrupt like any other: one line)
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return args.func(args)
    except UserError as e:
        print(f"sagat: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sagat: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `sagat logs show ... | head`: the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout at exit
        return 141
    except Exception as e:  # noqa: BLE001 - never a traceback: one line, and a code that says "bug"
        print(f"sagat: internal error ({type(e).__name__}: {e}); please report it", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
