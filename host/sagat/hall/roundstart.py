"""The round's start and the hall-wide actions: Set up all (a game, or a match, on every board not
in a game), Start round (every set-up game at one instant, armed on each board's own ticks after a
sync of its link, TK-C5), the measure of its spread, and Pause all (which also cancels a start being
armed: the arming window) and Resume all (TK-C15, TK-C18)."""

from __future__ import annotations

import time

from sagatfw.core import presets, tcparse
from sagatfw.core.ticks import ticks_diff

from .. import client
from ..i18n import LANGUAGES
from ..round.pairings import clean_name
from . import jobs
from .boards import BoardLink, host_ms
from .jobs import BUSY, NOT_CONNECTED, STRANGER, HallBusy, HallError, Jobs, one_at_a_time
from .said import said, state, with_msg

LEAD_MS = 1500  # the round starts this long after the arming begins: time for every link's signed arm
FIRST = said("err_first", "first must be left or right")
# a board armed for the round's instant still to come: `new` would drop its start (it would stay in setup
# while the round runs), so what would set it up again leaves it alone and says why (TK-C5)
ARMED = said("skip_armed", "armed to start with the round in a moment: left alone (Pause all cancels the start)")


def A_MATCH(mode) -> str:  # noqa: N802 - (a sentence, as STRANGER is)
    return said("skip_match", "a {mode} match", mode=mode)


class RoundStart(Jobs):
    """The Hall's actions on every board at once (core.Hall)."""

    @one_at_a_time
    def set_up(self, tc: str, first: str = "left", mode: str | None = None, lang: str | None = None) -> dict:
        """A new game on every board whose clock is not in a game (setup or finished): `new`,
        signed. Boards with a game in progress are left alone (pause is not an end: TK-C18).
        With `mode` (kokboru, kilithattu): a match instead, `tc` unused, each board's pairing's names
        given to its clock (logged after the match's setup, docs/match.md "Names"). `lang` (kk, ru, ky,
        en): the faces' language each clock is given with its board number (_set_board), or None: kept."""
        if lang is not None and lang not in LANGUAGES:  # (web.py gives one of them, or None)
            raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}")
        if mode:
            return self._set_up_matches(mode, first, lang)
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
            self._set_board(b, clock, lang)
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
    def _set_board(b, clock, lang: str | None = None) -> None:
        """The clock keeps its board number: it shows it at setup and with the result code, so the
        arbiter at the table sees which board a clock is. And its faces speak the hall's language
        (`lang`, the `lang` setting; None: the clock's own kept): BOARD 1 is ТАҚТА 1 under a Kazakh hall.
        One settings.set, signed, with what differs. A clock with a match set up takes no settings.set:
        its number and language are kept as they are."""
        with b.lock:
            matched = bool((b.state or {}).get("mode"))
        have = b.settings or {}
        values = {}
        if have.get("board", 0) != b.number and "board" in have:
            values["board"] = b.number
        if lang is not None and "lang" in have and have.get("lang") != lang:  # (a firmware without it: none)
            values["lang"] = lang
        if values and not matched:
            clock.request("settings.set", auth=True, values=values)

    def _set_up_matches(self, mode: str, first: str, lang: str | None = None) -> dict:
        """Set up all for a match round: `new` with the mode on every board in setup or finished,
        with its pairing's names (left, right) and, for a mode that takes it (kilithattu), the team
        that enters first. Its referee starts it at the table (Start round starts games only)."""
        import sagatfw
        from sagatfw.log import matchrecords as matchlog

        i = matchlog.mode_index(mode) if isinstance(mode, str) else -1
        if i < 0:
            raise HallError(said("err_mode", "mode must be {modes}", modes=", ".join(
                matchlog.mode_name(k) for k in range(len(sagatfw.MODES)))))
        if first not in ("left", "right"):
            raise HallError(FIRST)
        takes_first = "first" in sagatfw.MODES[i][2]
        skipped: dict = {}
        which = self._idle_boards(skipped, lambda st: said("skip_game_or_match_on", "a game or match is {state}: "
                                                           "left alone", state=state(st)))

        def job(b, clock):
            self._set_board(b, clock, lang)
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
        if not self.acting.acquire(timeout=2 * jobs.JOB_S + 5):
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

    @one_at_a_time
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

    @one_at_a_time
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

    @staticmethod
    def measure_wait_s(start: dict) -> float:
        """Seconds until a start's measure is due (measure_round, by the page's server): just after
        its instant, when every board it armed runs its game."""
        return max(0.0, (start["target"] - host_ms()) / 1000) + 0.4

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
