"""The hall: every clock of a round (USB, found again and again so a clock plugged in later
appears; any --port; simulators), numbered, and the arbiter's actions on all of them at once:
set up, start the round at one instant (armed on each board's own ticks after a sync of its link,
TK-C5), pause all and resume all (TK-C15, TK-C18), each signed with the arbiter key."""

from __future__ import annotations

import functools
import json
import os
import re
import threading
import time
from concurrent.futures import Future, wait
from concurrent.futures import TimeoutError as FutureTimeout

from sagatfw.core import presets, tcparse
from sagatfw.core.ticks import ticks_diff

from .. import client
from . import NAME_RE
from .acts import GAME_ACTS, MATCH_ACTS
from .boards import BoardLink, alert, folder_uid, host_ms, sample
from .pairings import clean_name
from .said import joined, said, side, state, text_of, with_msg

DISCOVER_S = 2.0
LEAD_MS = 1500  # the round starts this long after the arming begins: time for every link's signed arm
JOB_S = 10.0


STRANGER = said("skip_stranger", "another clock on its port: assign it to the board first")
NOT_CONNECTED = said("skip_not_connected", "not connected")
BUSY = said("err_busy", "busy: another action is still running; try again when it is done")
FIRST = said("err_first", "first must be left or right")
# a board armed for the round's instant still to come: `new` would drop its start (it would stay in setup
# while the round runs), so what would set it up again leaves it alone and says why (TK-C5)
ARMED = said("skip_armed", "armed to start with the round in a moment: left alone (Pause all cancels the start)")


def A_MATCH(mode) -> str:  # noqa: N802 - (a sentence, as STRANGER is)
    return said("skip_match", "a {mode} match", mode=mode)

# One board's corrections from the arbiter's seat (Hall.act): GAME_ACTS, MATCH_ACTS (acts.py, from the
# firmware's table of actions), the action and the arguments it takes
MAX_ARG = 2 ** 31 - 1  # a correction's numbers: the clock checks its own ranges (ms at most 100 h)
# each action's name as the page says it in its report ("board 3: adjust")
CMDS = {"pause": said("cmd_pause", "pause"), "resume": said("cmd_resume", "resume"),
        "adjust": said("cmd_adjust", "adjust"), "extend": said("cmd_extend", "extend"),
        "late_install": said("cmd_late_install", "late_install"), "adjourn": said("cmd_adjourn", "adjourn"),
        "resume_adjourned": said("cmd_resume_adjourned", "resume_adjourned"), "start": said("cmd_start", "start"),
        "score": said("cmd_score", "score"), "card": said("cmd_card", "card"),
        "stoppage": said("cmd_stoppage", "stoppage"), "undo": said("cmd_undo", "undo"),
        "result": said("cmd_result", "result"), "restart": said("cmd_restart", "restart"),
        "toss": said("cmd_toss", "toss")}


class HallError(Exception):
    """One line for the user (status: the page's HTTP status for it); raised with a Said, its code
    for the page too (said.text_of)."""

    status = 400


class HallBusy(HallError):
    """Another action is still running: this one was not done."""

    status = 409


def _one_at_a_time(action):
    """The arbiter's actions never overlap (two "start round" at once would arm the boards twice)."""

    @functools.wraps(action)
    def run(self, *args, **kwargs):
        if not self.acting.acquire(blocking=False):
            raise HallBusy(BUSY)
        try:
            return action(self, *args, **kwargs)
        finally:
            self.acting.release()

    return run


def _result(fut: Future, timeout: float = JOB_S):
    """(value, None) or (None, error text) of a job."""
    try:
        return fut.result(timeout), None
    except client.LinkError as e:
        return None, text_of(e)  # (the clock's refusal: its own words, as the clock said them)
    except (TimeoutError, FutureTimeout):
        return None, said("err_no_answer", "no answer in time")
    except Exception as e:  # noqa: BLE001 - a job's failure is reported on its board
        return None, f"{type(e).__name__}: {e}"


def _then_state(b: BoardLink, clock, value):
    """After an action: the board's state read again at once, so the page (and the caller) see it."""
    b._took(*sample(clock))
    return value


class Hall:
    def __init__(self, key: bytes = b"", keys: list[bytes] | None = None, pairings: dict | None = None,
                 out_dir: str | None = None, discover: bool = True, find_ports=None, timeout: float = 2.0,
                 event: dict | None = None):
        self.key = key
        self.event = {k: v for k, v in (event or {}).items() if v}  # name, round, date, site
        self.tc: str | None = None  # the control of the last Set up all
        self.keys = keys if keys is not None else ([key] if key else [])
        self.pairings = pairings or {}
        self.out_dir = out_dir
        self.timeout = timeout
        self.boards: list[BoardLink] = []
        self.lock = threading.Lock()
        self.acting = threading.Lock()  # held by the action running (_one_at_a_time)
        self.cancel_start = threading.Event()  # Pause all during a Start round's arming: arm no more
        self.discover = discover
        self.find_ports = find_ports or client.find_ports
        self.stop = threading.Event()
        self.round: dict | None = None
        self._armed: list[BoardLink] = []  # the boards the round armed
        self.last_start: dict | None = None  # the last Start round's: the round's, or a late start's
        self._starting: list[BoardLink] = []  # the boards it armed (measure_round)
        self.last_action: dict | None = None
        self.discover_error: str | None = None
        self.publisher = None  # mqtt.Publisher: this hall's boards to a broker
        self.subscriber = None  # mqtt.Subscriber: other halls' boards from it
        self._disc = threading.Thread(target=self._discover, name="sagat-hall-discover", daemon=True)

    # ------------------------------------------------------------------ boards

    def add(self, port: str, source: str, number: int | None = None) -> BoardLink:
        """The clock on `port` as a board (the one there already if any); `number`: the board's
        number if no other board has it (a simulator's), until its clock names its own."""
        with self.lock:
            for b in self.boards:
                if b.port == port:
                    return b
            b = BoardLink(0, port, self.key, self.out_dir, source, self.keys, self.timeout)
            b.wanted = number
            b.seq = self.added = getattr(self, "added", 0) + 1
            b.on_ident = self.renumber
            self.boards.append(b)
            self._number()
        b.start()
        return b

    def renumber(self) -> None:
        """A board's clock answered identify: its own number (if any) counts now."""
        with self.lock:
            self._number()

    def _number(self) -> None:
        """Every board's number (under self.lock): a clock's own number (`identify`'s, set on the
        clock: the pairings' board 5 is the clock labelled 5, whatever its port); two clocks with one
        number: the first found has it, the other a free one, both with an alert (never a silent
        overwrite); the others the numbers left free: the number they were added with if it is (a
        simulator's), else the lowest, in the order found. The same boards always get the same numbers."""
        order = sorted(self.boards, key=lambda x: x.seq)
        holders: dict[int, BoardLink] = {}
        for b in order:
            if b.own is not None and b.own not in holders:
                holders[b.own] = b
        used = set(holders)
        rest = [b for b in order if holders.get(b.own) is not b]
        numbers = {id(b): n for n, b in holders.items()}
        for b in rest:
            if b.wanted is not None and b.wanted not in used:
                numbers[id(b)] = b.wanted
                used.add(b.wanted)
        free = 1
        for b in rest:
            if id(b) not in numbers:
                while free in used:
                    free += 1
                numbers[id(b)] = free
                used.add(free)
        for b in order:
            b.number = numbers[id(b)]
        for b in order:
            if b.own is None:
                b.clash = None
            elif holders[b.own] is b:
                others = [x for x in rest if x.own == b.own]
                b.clash = (said("clash_also", "number {n} is also the clock's on {ports}", n=b.own, ports=joined(
                    [said("clash_port", "{port} (shown as board {board})", port=x.port, board=x.number)
                     for x in others], ", ")), False) if others else None
            else:
                h = holders[b.own]
                b.clash = (said("clash_shown_as", "this clock's number is {n}, as is the clock's on {port} (board "
                                "{board}): shown as board {shown}", n=b.own, port=h.port, board=h.number,
                                shown=b.number), True)
        self.boards.sort(key=lambda x: x.number)

    def start(self) -> None:
        if self.pairings or self.event.get("name") or self.event.get("round"):  # (else at the first Set up all)
            self.save_round()
        if self.discover:
            self._disc.start()

    def save_round(self) -> None:
        """round.json beside the pulled logs: the event, the round, its date, the control set up and
        the pairings, so `sagat report` of the folder never has them typed twice (report.round_info).
        Written whole and then renamed: a cut write never leaves half a file."""
        if not self.out_dir:
            return
        from .report import ROUND_FILE, TRF_COPY

        info = {"event": self.event.get("name"), "round": self.event.get("round"), "date": self.event.get("date"),
                "site": self.event.get("site"), "tc": self.tc,
                "pairings": {str(b): list(p) for b, p in sorted(self.pairings.items())},
                # each board's clock (as its folder names it): the report takes that clock's games, not a
                # stranger's nor another clock's that was on the board before
                "clocks": {str(b.number): folder_uid(b.clock_uid) for b in sorted(self.boards, key=lambda x: x.number)
                           if b.clock_uid and not (b.clash and b.clash[1])}}
        path = os.path.join(self.out_dir, ROUND_FILE)
        try:
            os.makedirs(self.out_dir, exist_ok=True)
            if self.event.get("trf"):  # the pairing program's TRF the pairings came from, as it was
                import shutil

                shutil.copyfile(self.event["trf"], os.path.join(self.out_dir, TRF_COPY))
                info["trf"] = TRF_COPY
            with open(path + ".new", "w", encoding="utf-8") as fh:
                json.dump(info, fh, ensure_ascii=False, indent=1)
            os.replace(path + ".new", path)
        except OSError as e:
            self.discover_error = said("note_cannot_write", "cannot write {path}: {why}", path=path,
                                       why=e.strerror or e)

    def close(self) -> None:
        self.stop.set()
        for bridge in (self.publisher, self.subscriber):
            if bridge is not None:
                bridge.close()
        for b in self.boards:
            b.stop.set()

    def _discover(self) -> None:
        """USB clocks by their vendor and product ids, again every 2 s: one plugged in later appears
        (a clock unplugged stays on the page, its link lost, and comes back on the same port)."""
        while not self.stop.is_set():
            try:
                for p in self.find_ports():
                    self.add(p.device, "usb")
                self.discover_error = None
            except Exception as e:  # noqa: BLE001 - no USB listing on this system: say so, go on
                self.discover_error = said("note_no_usb_list", "cannot list USB ports: {why}", why=e)
            self.stop.wait(DISCOVER_S)

    def board(self, number: int) -> BoardLink | None:
        for b in self.boards:
            if b.number == number:
                return b
        return None

    def view(self, remote: bool = True) -> dict:
        """The hall as the page shows it; `remote`: with the boards other halls publish (mqtt.py)."""
        now = host_ms()
        boards = [self._view(b, now) for b in list(self.boards)]
        notes = [self.discover_error] if self.discover_error else []
        for bridge in ((self.subscriber,) if remote else ()) + (self.publisher,):
            if bridge is None:
                continue
            if bridge is self.subscriber:
                boards += bridge.views()
            if bridge.error:
                notes.append(said("note_mqtt", "MQTT {host}:{port}: {why}", host=bridge.host, port=bridge.port,
                                  why=bridge.error))
        # the status line's notes: one text (English, as the API gave it) and its code for the page
        return with_msg({
            "boards": boards, "round": self.round, "action": self.last_action, "key": bool(self.key),
            "event": self.event, "tc": self.tc, "time": time.time(),
        }, "discover_error", joined(notes) or None)

    def _view(self, b: BoardLink, now: float) -> dict:
        """One board's view; a bug in it (what a clock answered?) breaks that board alone."""
        clash = b.clash
        # a clock shown under another number than its own: not that board's players (whose are they?)
        pairing = None if clash and clash[1] else self.pairings.get(b.number)
        try:
            v = b.view(pairing, now)
            if clash:
                v["alerts"].append(alert("number", clash[0] if len(clash[0]) <= 200 else clash[0][:200]))
            return v
        except Exception as e:  # noqa: BLE001 - the other boards stay on the page
            why = said("err_board_view", "this board cannot be shown ({why})", why=type(e).__name__)
            return {"number": b.number, "port": b.port, "source": b.source,
                    "players": list(pairing) if pairing else None, "link": "error", "error": why,
                    "error_msg": why.msg,
                    "state": None, "game": None, "mode": "game", "battery": None, "rtt_ms": None,
                    "pull": {"state": "idle", "message": ""}, "start": None, "protest_ms": None,
                    "alerts": [alert("link", said("link_error", "error"))]}

    # ----------------------------------------------------------------- actions

    def _each(self, fn, which=None) -> dict[int, tuple]:
        """fn(board, clock) on every board (or those `which` picks), in parallel, each in its own
        board's thread; {number: (value, error)}."""
        futs = {}
        for b in list(self.boards):
            if which is not None and not which(b):
                continue
            futs[b.number] = b.submit(lambda clock, b=b: _then_state(b, clock, fn(b, clock)))
        wait(list(futs.values()), timeout=JOB_S)
        return {n: _result(f, 0.01 if f.done() else 0) for n, f in futs.items()}

    def _none_here(self, done: str) -> str:
        """Why an action on all boards did nothing anywhere: this hall has no clocks (other halls'
        boards are acted on in their own hall, which holds their clocks and the key that signs);
        `done`: set up, started, paused, resumed."""
        halls = sorted({v.get("hall") for v in self.subscriber.views() if v.get("hall")}) \
            if self.subscriber is not None else []
        if not halls:
            return said("note_no_clocks", "no clocks: none is connected to this hall")
        there = {  # (a sentence each: "are {done}" would not be one in every language)
            "set up": lambda h: said("note_set_up_there", "hall {hall}'s boards are set up in hall {hall}", hall=h),
            "started": lambda h: said("note_started_there", "hall {hall}'s boards are started in hall {hall}",
                                      hall=h),
            "paused": lambda h: said("note_paused_there", "hall {hall}'s boards are paused in hall {hall}", hall=h),
            "resumed": lambda h: said("note_resumed_there", "hall {hall}'s boards are resumed in hall {hall}",
                                      hall=h),
        }.get(done, lambda h: f"hall {h}'s boards are {done} in hall {h}")
        return said("note_other_halls", "this hall has no clocks of its own: {halls}",
                    halls=joined([there(h) for h in halls], ", "))

    def _report(self, what: str, results: dict[int, tuple], skipped: dict[int, str], done_word: str = "") -> dict:
        """The action's report (the page shows it): what it was, how many boards did it, failed, were
        skipped, each board's text (and its code for the page, msg, when it has one)."""
        boards = {}
        for n, (val, err) in results.items():
            boards[n] = with_msg({"ok": err is None}, "text", err or (val if isinstance(val, str) else "done"), "msg")
        for n, why in skipped.items():
            boards[n] = with_msg({"ok": None}, "text", why, "msg")
        done = sum(1 for v in boards.values() if v["ok"])
        failed = sum(1 for v in boards.values() if v["ok"] is False)
        self.last_action = with_msg({}, "what", what)
        self.last_action.update({"done": done, "failed": failed, "skipped": len(skipped), "boards": boards,
                                 "at": time.time()})
        if done_word and not boards:
            with_msg(self.last_action, "note", self._none_here(done_word))
        return self.last_action

    def _state_of(self, b: BoardLink) -> str | None:
        with b.lock:
            return (b.state or {}).get("state") if b.link == "up" else None

    @staticmethod
    def _armed_now(b: BoardLink) -> bool:
        """The board's clock is armed for an instant still to come (a Start round's arming window):
        in setup, waiting for its start (`state`'s armed; the Start round read it again at once)."""
        with b.lock:
            st = b.state or {}
            return st.get("state") == "setup" and st.get("armed") is not None

    @_one_at_a_time
    def set_up(self, tc: str, first: str = "left", mode: str | None = None) -> dict:
        """A new game on every board whose clock is not in a game (setup or finished): `new`,
        signed. Boards with a game in progress are left alone (pause is not an end: TK-C18).
        With `mode` (kokboru, kilithattu): a match instead, `tc` unused, each board's pairing's names
        given to its clock (logged after the match's setup, docs/match.md "Names")."""
        if mode:
            return self._set_up_matches(mode, first)
        text = presets.preset(tc) or tc
        try:
            tcparse.parse_sides(text)
        except ValueError as e:  # (the control's parser's words, in English: the page says what was wrong)
            raise HallError(said("err_bad_tc", "{why}", why=e)) from None
        if first not in ("left", "right"):
            raise HallError(FIRST)
        skipped: dict = {}
        which = self._idle_boards(skipped, lambda st: said("skip_game_on", "a game is {state}: left alone",
                                                           state=state(st)))

        def job(b, clock):
            self._set_board_number(b, clock)
            ans = clock.request("new", auth=True, tc=text, first=first)
            b.settings = clock.request("settings.get").get("values") or b.settings
            with b.lock:
                b.start_report = None
                b.hall_tc = ans.get("tc") or text  # start round starts what this hall set up, nothing else
            return f"set up {text}"

        report = self._report(said("what_set_up", "set up {what}", what=text), self._each(job, which), skipped,
                              "set up")
        if report["done"]:
            self.tc = text  # the round's control: on the page after a reload, in round.json for the report
            self.save_round()
        return report

    def _idle_boards(self, skipped: dict, busy):
        """Set up all's choice of boards: the clocks in setup or finished, not a stranger; each
        other board goes into `skipped` with why (busy(state): "a game is running: left alone")."""
        def which(b):
            st = self._state_of(b)
            if b.stranger:
                skipped[b.number] = STRANGER
                return False
            if st == "setup" and self._armed_now(b):
                skipped[b.number] = ARMED
                return False
            if st in ("setup", "finished"):
                return True
            skipped[b.number] = NOT_CONNECTED if st is None else busy(st)
            return False

        return which

    @staticmethod
    def _set_board_number(b, clock) -> None:
        """The clock keeps its board number: it shows it at setup and with the result code, so the
        arbiter at the table sees which board a clock is. A clock with a match set up takes no
        settings.set: its number is kept as it is."""
        with b.lock:
            matched = bool((b.state or {}).get("mode"))
        if not matched and (b.settings or {}).get("board", 0) != b.number and "board" in (b.settings or {}):
            clock.request("settings.set", auth=True, values={"board": b.number})

    def _set_up_matches(self, mode: str, first: str) -> dict:
        """Set up all for a match round: `new` with the mode on every board in setup or finished,
        with its pairing's names (left, right) and, for a mode that takes it (kilithattu), the team
        that enters first. Its referee starts it at the table (Start round starts games only)."""
        import sagatfw
        from sagatfw.log import match as matchlog

        i = matchlog.mode_index(mode) if isinstance(mode, str) else -1
        if i < 0:
            raise HallError(said("err_mode", "mode must be {modes}", modes=" or ".join(
                matchlog.mode_name(k) for k in range(len(sagatfw.MODES)))))
        if first not in ("left", "right"):
            raise HallError(FIRST)
        takes_first = "first" in sagatfw.MODES[i][2]
        skipped: dict = {}
        which = self._idle_boards(skipped, lambda st: said("skip_game_or_match_on", "a game or match is {state}: "
                                                           "left alone", state=state(st)))

        def job(b, clock):
            self._set_board_number(b, clock)
            args: dict = {"mode": mode}
            if takes_first:
                args["first"] = first
            clash = b.clash
            pairing = None if clash and clash[1] else self.pairings.get(b.number)
            if pairing:
                args["names"] = [clean_name(str(pairing[0])), clean_name(str(pairing[1]))]  # (the link cuts them)
            ans = clock.request("new", auth=True, **args)
            with b.lock:
                b.start_report = None
                b.hall_tc = None  # (Start round starts the games this hall set up: a match is its referee's)
            names = ans.get("names") if isinstance(ans.get("names"), dict) else None
            return f"set up {mode}" + (f": {names.get('left')} - {names.get('right')}" if names else "")

        return self._report(said("what_set_up", "set up {what}", what=mode), self._each(job, which), skipped,
                            "set up")

    def pause_all(self) -> dict:
        """TK-C15, TK-C18: the arbiter stops every running clock (an incident in the hall); logged as
        the host's pause, apart from a player's and from START at the table. It also cancels the
        round's start while it is being armed: a Start round still arming stops before its next board
        (never busy), and every board armed for an instant still to come is disarmed."""
        self.cancel_start.set()
        if not self.acting.acquire(timeout=2 * JOB_S + 5):
            raise HallBusy(BUSY)
        try:
            self.cancel_start.clear()
            report = self._all("pause", {"by": "host"}, ("running",))
            armed = [b for b in list(self.boards) if self._state_of(b) == "setup" and self._armed_now(b)
                     and not b.stranger]
            if not armed:
                return report

            def disarm(b, clock):
                clock.request("disarm", auth=True)
                with b.lock:
                    b.armed_for = None
                    b.start_report = {"armed": False, "dev_ms": None, "err_ms": None, "cancelled": True}
                return "start cancelled"

            done = self._each(disarm, lambda b: any(b is x for x in armed))
            for n, (val, err) in done.items():
                report["boards"][n] = with_msg({"ok": err is None}, "text", err or val, "msg")
            report["done"] = sum(1 for v in report["boards"].values() if v["ok"])
            report["failed"] = sum(1 for v in report["boards"].values() if v["ok"] is False)
            report["skipped"] = sum(1 for v in report["boards"].values() if v["ok"] is None)
            if self.last_start is not None and not self.last_start["measured"]:
                self.last_start["cancelled"] = sorted(n for n, (_v, err) in done.items() if err is None)
            return report
        finally:
            self.acting.release()

    @_one_at_a_time
    def resume_all(self, restored: bool = False) -> dict:
        """Every paused game runs again; a board whose clock restored its game after a power cut only
        with `restored` (the page asks first: its times are the arbiter's to check, TK-C18)."""
        return self._all("resume", {}, ("paused",), restored)

    def _all(self, cmd: str, args: dict, states: tuple, restored: bool = True) -> dict:
        skipped = {}

        def which(b):
            st = self._state_of(b)
            with b.lock:
                mode = (b.state or {}).get("mode")
            if b.stranger:
                skipped[b.number] = STRANGER
                return False
            if st in states and not mode and b.restored and not restored:
                skipped[b.number] = said("skip_restored", "restored after a power cut: resume it after checking its "
                                         "times")
                return False
            if st in states and not mode:
                return True
            skipped[b.number] = NOT_CONNECTED if st is None else (A_MATCH(mode) if mode else state(st))
            return False

        def job(b, clock):
            ans = clock.request(cmd, auth=True, **args)
            return ans.get("state")

        what = said("what_pause_all", "pause all") if cmd == "pause" else said("what_resume_all", "resume all") \
            if cmd == "resume" else f"{cmd} all"
        return self._report(what, self._each(job, which), skipped, cmd + "d")

    @_one_at_a_time
    def start_round(self, lead_ms: int = LEAD_MS) -> dict:
        """Every set-up game starts at one instant (TK-C5): each link is synced (a burst of `state`
        round trips: the board's ticks against this PC's clock, the shortest round trip kept; and
        the wall time, signed, so the logs carry it), then each board is armed for the same
        instant on its own ticks. The achieved spread is measured afterwards (measure_round)."""
        skipped = {}

        def which(b):
            st = self._state_of(b)
            with b.lock:
                mode = (b.state or {}).get("mode")
                tc = (b.state or {}).get("tc")
                mine = b.hall_tc
            if st == "setup" and not mode and mine is not None and tc == mine and not b.stranger:
                return True
            if b.stranger:
                skipped[b.number] = STRANGER
            elif st is None:
                skipped[b.number] = NOT_CONNECTED
            elif mode:
                skipped[b.number] = A_MATCH(mode)
            elif st != "setup":
                skipped[b.number] = said("skip_not_set_up", "not set up (the clock is {state})", state=state(st))
            elif mine is None:  # a clock in setup this hall never set up (its own default, a new clock)
                skipped[b.number] = said("skip_not_by_this_hall", "not set up by this hall: Set up all first")
            else:
                skipped[b.number] = said("skip_set_up_at_table", "set up at the table since ({tc}, not {mine}): Set "
                                         "up all first", tc=tc, mine=mine)
            return False

        def sync(b, clock):
            clock.request("time.sync", auth=True, wall_ms=int(time.time() * 1000))
            b.synced = True  # (after a power cut the board synced again: BoardLink._poll)
            s = b.burst(clock)
            if s is None:
                raise client.LinkError(said("err_no_ticks", "this clock's firmware has no `ticks` in state: update it "
                                            "(sagat deploy)"))
            return s

        synced = self._each(sync, which)
        target = host_ms() + lead_ms
        armed: dict[int, int] = {}
        links: list[BoardLink] = []  # (measured by board, not number: a board may take its clock's own meanwhile)
        syncs = {}
        for n, (s, err) in synced.items():
            if err is None:
                syncs[n] = s

        def arm(b, clock):
            if self.cancel_start.is_set():  # Pause all was pressed: this board is not armed
                raise client.LinkError(said("err_start_cancelled", "not armed: Pause all cancelled the start"))
            s = syncs[b.number]
            at = s.to_ticks(target)
            clock.request("arm", auth=True, ticks=at)
            with b.lock:
                b.armed_for = at
                b.start_report = {"armed": True, "dev_ms": None, "err_ms": round(s.err, 1)}
                b.hall_tc = None  # the round took it: the next round needs Set up all again
            armed[b.number] = at
            links.append(b)
            return f"armed (link {s.rtt:.1f} ms)"

        results = self._each(arm, lambda b: b.number in syncs)
        for n, (_s, err) in synced.items():
            if err is not None:
                results[n] = (None, err)
        report = self._report(said("what_start_round", "start round"), results, skipped, "started")
        start = {"target": target, "armed": len(armed), "spread_ms": None, "err_ms": None,
                 "measured": False, "started_wall": time.time() + lead_ms / 1000, "boards": armed,
                 "lead_ms": lead_ms}
        playing = ("running", "paused", "flagged", "adjourned")
        if self.round is not None and any(self._state_of(b) in playing for b in self._armed):
            # the round is on: boards started now (set up late) are its late starts; its own instant
            # and spread stay what they were
            if armed:
                self.round.setdefault("late", []).append(start)
                self.last_start, self._starting = start, links
            return report
        self.round = self.last_start = start
        self._armed = self._starting = links
        return report

    def measure_round(self) -> dict | None:
        """After the instant: each armed board's own start tick (`ticks - t` while its game runs,
        t counts pauses too: exact while no power cut intervened), converted to this PC's clock through
        a fresh sync of its link; the spread is max - min, within the links' uncertainty."""
        rnd = self.last_start  # the round's start, or a late start's
        if not rnd or rnd["measured"]:
            return rnd
        target = rnd["target"]

        def measure(b, clock):
            s = b.burst(clock, 4)
            st = b.state or {}
            if st.get("state") in ("setup", None) or not isinstance(st.get("t"), int):
                raise client.LinkError(f"not started (the clock is {st.get('state')})")
            start_ticks = (st["ticks"] - st["t"]) & 0x3FFFFFFF
            host = s.to_host(start_ticks, target)
            with b.lock:
                b.start_report = {"armed": True, "dev_ms": round(host - target, 1), "err_ms": round(s.err, 1),
                                  "exact": ticks_diff(start_ticks, b.armed_for) == 0 if b.armed_for is not None
                                  else None}
            return host, s.err

        links = self._starting
        res = self._each(measure, lambda b: any(b is x for x in links))
        starts = [v for v, err in res.values() if err is None]
        if starts:
            hosts = [h for h, _e in starts]
            rnd["spread_ms"] = round(max(hosts) - min(hosts), 1)
            rnd["err_ms"] = round(2 * max(e for _h, e in starts), 1)
        rnd["started"] = len(starts)
        rnd["failed"] = {n: err for n, (v, err) in res.items() if err is not None}
        rnd["measured"] = True
        return rnd

    @_one_at_a_time
    def result(self, number: int | str, result: str, kazans: str | None = None) -> dict:
        """The arbiter's result for one board's game (left-right: 1-0, 0-1, 1/2-1/2, +/-, -/+, -/-),
        signed; its log is then pulled and verified. A forfeit may be entered before the start (TK-R4),
        and a wrong entry replaced after it (the last one counts, as on the clock; the log keeps both
        and is pulled again). `number`: the board's, or the page's text of it (ASCII digits). `kazans`:
        the final kazan counts, "82-79" (left's first; TK-R7: a draw or a win against a fallen flag
        needs them), which the clock checks with the result."""
        from sagatfw.engine.clock import RESULT_NAMES

        b = self.board_of(number, said("there_result", "enter its result there"))
        number = b.number
        if result not in RESULT_NAMES:
            raise HallError(said("err_result", "result must be one of {results}", results=", ".join(RESULT_NAMES)))
        counts = {}
        if kazans not in (None, ""):
            m = re.fullmatch(r"\s*([0-9]{1,3})\s*-\s*([0-9]{1,3})\s*", str(kazans))
            if m is None:
                raise HallError(said("err_kazans", "kazans are two counts, left's then right's, e.g. 82-79 (TK-R7)"))
            counts = {"left_kazan": int(m.group(1)), "right_kazan": int(m.group(2))}
        self._own_clock(b)
        with b.lock:
            st = b.state or {}
            mode, now = st.get("mode"), st.get("state")
        if mode or now not in ("setup", "running", "paused", "flagged", "adjourned", "finished"):
            why = said("now_a_match", "a match") if mode else said(
                "now_the_clock_is", "the clock is {state}", state=state(now) if now else NOT_CONNECTED)
            raise HallError(said("err_no_game", "board {n}: no game to enter a result for ({now})", n=number, now=why))
        res = {number: _result(b.submit(lambda clock: _then_state(b, clock, clock.request(
            "result", auth=True, result=result, **counts).get("state"))))}
        what = said("what_result_kazans", "board {n}: result {result} kazans {kazans}", n=number, result=result,
                    kazans=f"{counts['left_kazan']}-{counts['right_kazan']}") if counts else \
            said("what_result", "board {n}: result {result}", n=number, result=result)
        return self._report(what, res, {})

    @staticmethod
    def _own_clock(b: BoardLink) -> None:
        """HallError unless the clock on the board is the board's own: not a stranger on its port, nor a
        clock whose own number is another board's (shown here under a free number: whose players?)."""
        if b.stranger:
            raise HallError(said("err_board", "board {n}: {why}", n=b.number, why=STRANGER))
        if b.clash and b.clash[1]:
            raise HallError(said("err_clash", "board {n}: {why}: give the clock its board's number (Set up all) or "
                                 "take the other clock away first", n=b.number, why=b.clash[0]))

    def board_of(self, number: int | str, there: str = "") -> BoardLink:
        """This hall's board by its number, or the page's text of it (ASCII digits); HallError (another
        hall's board: what to do `there`)."""
        if isinstance(number, str):
            other = re.fullmatch(f"({NAME_RE}):[0-9]{{1,3}}", number)
            if other:  # another hall's board (mqtt.py): its clock is there
                raise HallError(said("err_other_hall", "board {board} belongs to hall {hall}: {there}", board=number,
                                     hall=other.group(1), there=there or said("there_act", "act on it there")))
            if not re.fullmatch(r"[0-9]{1,3}", number):  # not １ nor ١: the page's own numbers only
                raise HallError(said("err_no_board", "no board {n}", n=number[:8]))
            number = int(number)
        b = self.board(number)
        if b is None:
            raise HallError(said("err_no_board", "no board {n}", n=number))
        return b

    @_one_at_a_time
    def assign(self, number: int | str) -> dict:
        """The clock now on a board's port becomes the board's clock (the arbiter checked it is)."""
        b = self.board_of(number)
        text = b.assign()
        self.save_round()  # (the report takes this clock's games for the board now)
        return self._report(said("what_assign", "board {n}: assign", n=b.number), {b.number: (text, None)}, {})

    @_one_at_a_time
    def act(self, number: int | str, cmd: str, args: dict | None = None) -> dict:
        """One board's correction from the arbiter's seat, signed and logged by its clock: a game's
        pause and resume (TK-C13, TK-C15; the hall's pause is logged as the host's, apart from a
        player's and from START at the table), adjust (time, moves, stage: TK-C13), the extension
        (TK-C14), late installation (TK-C11), adjourn and resume (TK-A), who moves first (in setup:
        the game set up again with the other side first); a match's start, score, card, stoppage,
        resume, undo and result. The clock checks every value and says what it refuses."""
        b = self.board_of(number)
        self._own_clock(b)
        args = dict(args or {})
        with b.lock:
            st = dict(b.state or {})
        match = bool(st.get("mode"))
        allowed = MATCH_ACTS if match else GAME_ACTS
        if cmd not in allowed:
            acts = ", ".join(sorted(allowed))
            raise HallError(said("err_not_a_match_action", "board {n}: {cmd} is not an action for a match here (one "
                                 "of {acts})", n=b.number, cmd=repr(cmd), acts=acts) if match else
                            said("err_not_a_game_action", "board {n}: {cmd} is not an action for a game here (one "
                                 "of {acts})", n=b.number, cmd=repr(cmd), acts=acts))
        names = allowed[cmd]
        extra = sorted(set(args) - set(names))
        if extra:
            raise HallError(said("err_takes", "board {n}: {cmd} takes {names}, not {extra}", n=b.number, cmd=cmd,
                                 names=", ".join(names), extra=", ".join(extra)) if names else
                            said("err_takes_nothing", "board {n}: {cmd} takes nothing, not {extra}", n=b.number,
                                 cmd=cmd, extra=", ".join(extra)))
        for k, v in args.items():
            if not isinstance(v, (int, str)) or isinstance(v, bool) or (isinstance(v, str) and len(v) > 16):
                raise HallError(said("err_arg_word", "board {n}: {cmd}'s {arg} must be a number or a short word",
                                     n=b.number, cmd=cmd, arg=k))
            if isinstance(v, int) and not 0 <= v <= MAX_ARG:  # (a 600-digit number is no line a clock reads)
                raise HallError(said("err_arg_range", "board {n}: {cmd}'s {arg} must be a whole number 0..{top}",
                                     n=b.number, cmd=cmd, arg=k, top=MAX_ARG))
        if "side" in names and args.get("side") not in ("left", "right"):
            raise HallError(said("err_side", "board {n}: {cmd} needs side: left or right", n=b.number, cmd=cmd))
        if cmd == "pause":
            args["by"] = "host"  # the hall's pause, kept apart from a player's and the clock's START
        if cmd == "first":  # who moves first: the game set up again as it is, the other side first (TK-C5)
            if st.get("state") != "setup":
                raise HallError(said("err_first_before_start", "board {n}: who moves first is set before the start "
                                     "(the clock is {state})", n=b.number, state=state(st.get("state"))))
            if self._armed_now(b):  # (`new` would drop its start: the round would run without it)
                raise HallError(said("err_first_armed", "board {n}: armed to start with the round in a moment: who "
                                     "moves first is set before Start round (Pause all cancels the start)",
                                     n=b.number))
            tc = st.get("tc")
            if isinstance(tc, dict):
                tc = f"{tc.get('left')}|{tc.get('right')}"
            if not isinstance(tc, str):
                raise HallError(said("err_tc_unknown", "board {n}: its control is unknown: Set up all first",
                                     n=b.number))
            cmd, args = "new", {"tc": tc, "first": args.get("side")}

        def job(clock):
            ans = clock.request(cmd, auth=True, **args)
            if cmd == "new" and b.hall_tc is not None:
                with b.lock:
                    b.hall_tc = ans.get("tc") or b.hall_tc  # still this hall's set-up, the other side first
            return _then_state(b, clock, ans.get("state") or "done")

        what = said("what_first", "board {n}: first {side}", n=b.number, side=side(args.get("first"))) \
            if cmd == "new" else said("what_act", "board {n}: {cmd}", n=b.number, cmd=CMDS.get(cmd, cmd))
        return self._report(what, {b.number: _result(b.submit(job))}, {})

    def locate(self, number: int | str) -> dict:
        """The board's clock blinks its faces and beeps for a few seconds: the arbiter finds it in the
        hall. It changes nothing and logs nothing (unsigned), so it never waits for another action."""
        b = self.board_of(number)
        self._own_clock(b)  # (a stranger: the hall does nothing with it)

        def job(clock):
            ms = clock.request("locate").get("locate_ms")
            return f"blinking for {ms // 1000} s" if isinstance(ms, int) else "blinking"

        what = said("what_identify", "board {n}: identify", n=b.number)
        return self._report(what, {b.number: _result(b.submit(job))}, {})
