"""A game's or a match's commands: `sagat new`, start, pause, resume, stoppage, undo, score, card,
result, and sync-time; each signed with the arbiter key once one is set."""

from __future__ import annotations

import argparse

import sagatfw
from sagatfw.engine.rules import RESULT_NAMES
from sagatfw.link import wire as W
from sagatfw.log import matchrecords as LM
from sagatfw.log import names as N

from ..client import LinkError, kept_names
from ..cliutil import UserError, adder, call, link_args, out
from ..i18n import _, ngettext
from .clock import faces_text, match_text, state_word
from .tc import time_control

METHODS = ("sudden", "lot", "draw", "referee")


# `sagat new`'s flags for a match's options (which mode takes which: sagatfw.MODES), and how a
# flag's value becomes the protocol's (a value out of range: the message)
_FLAGS = {"lead": "lead", "first": "first", "changeover": "changeover_ms", "method": "method"}


def _option(flag: str, v):
    if flag == "lead" and not 0 <= v <= 99:
        raise UserError(_("--lead must be 0..99 (the lead that wins at once; 0: none)"))
    if flag == "changeover":
        if not 1 <= v <= 60:
            raise UserError(_("--changeover must be 1..60 seconds (KT-4.4: at most 1:00)"))
        return v * 1000
    return v


def _match_options(args: argparse.Namespace) -> dict:
    """`sagat new --mode ...`: the protocol's arguments for the match (docs/protocol.md, Matches)."""
    if args.control is not None:
        raise UserError(_("new --mode {mode} takes no time control ({control!r}): a match's periods are "
                          "the game's rules").format(mode=args.mode, control=args.control))
    mine = sagatfw.MODES[LM.mode_index(args.mode)][2]
    opts: dict = {"mode": args.mode}
    for flag, name in _FLAGS.items():
        v = getattr(args, flag)
        if v is None:
            continue
        if name not in mine:
            others = _(" or ").join(LM.mode_name(i) for i, e in enumerate(sagatfw.MODES) if name in e[2])
            takes = ", ".join("--" + f for f, n in _FLAGS.items() if n in mine) or _("no options")
            raise UserError(_("--{flag} is for {others}, not {mode} ({mode} takes {takes})").format(
                flag=flag, others=others, mode=args.mode, takes=takes))
        opts[name] = _option(flag, v)
    if args.names is not None:  # kept in the clock's log after the setup (docs/match.md, "Names")
        try:
            kept = kept_names(*args.names)  # as the clock keeps them (sagatfw.log.names.fit_names)
        except UnicodeError:  # (what the terminal gave was not UTF-8)
            raise UserError(_("--names: a name is not UTF-8 text")) from None
        except ValueError:
            raise UserError(_("--names: a name is text, without control characters")) from None
        if kept != list(args.names):
            import sys

            n = N.NAMES_SIZE - 1
            print("sagat: " + ngettext("the names take more than the clock's {n} byte of UTF-8: it keeps the "
                                       "start of each (`sagat state` shows what it kept)",
                                       "the names take more than the clock's {n} bytes of UTF-8: it keeps "
                                       "the start of each (`sagat state` shows what it kept)", n).format(n=n),
                  file=sys.stderr)
        opts["names"] = kept
    return opts


def _modes() -> tuple:
    """The match modes' names (sagatfw.MODES)."""
    return tuple(LM.mode_name(i) for i in range(len(sagatfw.MODES)))


def cmd_new(args: argparse.Namespace) -> int:
    if args.mode:
        opts = _match_options(args)
        ans = call(args, lambda c: c.request("new", auth=True, **opts))
        names = ans.get("names") if isinstance(ans.get("names"), dict) else None
        who = f" ({names.get('left') or '-'} - {names.get('right') or '-'})" if names else ""
        return out(args, ans, _("next match: ") + match_text(ans) + who)
    if args.names is not None:
        raise UserError(_("--names is a match's (the teams or riders): give --mode {modes}").format(
            modes=_(" or --mode ").join(_modes())))
    for flag in ("lead", "changeover", "method"):
        if getattr(args, flag) is not None:
            takes = [LM.mode_name(i) for i, e in enumerate(sagatfw.MODES) if _FLAGS[flag] in e[2]]
            raise UserError(_("--{flag} is a match's option: give --mode {modes}").format(
                flag=flag, modes=_(" or --mode ").join(takes)))
    if args.control is None:
        raise UserError(_("new needs a time control (e.g. sagat new 420) or --mode {modes}").format(
            modes="|".join(_modes())))
    args.first = args.first or "left"
    text = time_control(args.control)
    ans = call(args, lambda c: c.request("new", auth=True, tc=text, first=args.first))
    first = _("first player on the left") if args.first == "left" else _("first player on the right")
    return out(args, ans, _("next game: {tc}, {first}").format(tc=text, first=first))


def _referee(args: argparse.Namespace, cmd: str, **values) -> int:
    """A referee's command (a match's, or start, resume and result for a game too): the answer
    is the state after it."""
    return _answer(args, call(args, lambda c: c.request(cmd, auth=True, **values)))


def _answer(args: argparse.Namespace, ans: dict) -> int:
    """A referee's command's answer: the state after it."""
    ans.pop("id", None)
    ans.pop("ok", None)
    return out(args, ans, faces_text(ans) if ans.get("mode") else _brief(ans))


def _brief(ans: dict) -> str:
    from ..log import show

    run = _(", {side} running").format(side=state_word(ans["running"])) if ans.get("running") else ""
    return _("{state}: left {left}, right {right}").format(
        state=state_word(ans.get("state")), left=show.stamp_text(ans.get("left_ms") or 0),
        right=show.stamp_text(ans.get("right_ms") or 0)) + run


def cmd_referee(args: argparse.Namespace) -> int:
    return _referee(args, args.command)


def cmd_pause(args: argparse.Namespace) -> int:
    """The arbiter pauses a running game (TK-C15, logged `by arbiter`); a match's time stops with a stoppage."""
    match = []  # the clock refused, and a match is set up on it (its state says so, not the refusal's words)

    def pause(clock):
        try:
            return clock.request("pause", auth=True, by="arbiter")
        except LinkError as e:
            if e.code == W.REFUSED and clock.request("state").get("mode"):
                match.append(True)
            raise

    try:
        return _answer(args, call(args, pause))
    except UserError as e:
        if match:
            raise UserError(f"{e}" + _("; a match's time stops with `sagat stoppage`")) from None
        raise


def cmd_score(args: argparse.Namespace) -> int:
    return _referee(args, "score", side=args.side, points=args.points)


def cmd_toss(args: argparse.Namespace) -> int:
    return _referee(args, "toss", side=args.side)


def face_ms(text: str) -> int:
    """A period clock's face as the referee reads it, "3:20" or "1:03:20" (or seconds, "200"), in ms."""
    parts = text.strip().split(":")
    try:
        nums = [int(p) for p in parts]
    except ValueError:
        nums = []
    if not 1 <= len(nums) <= 3 or any(n < 0 for n in nums) or any(n > 59 for n in nums[1:]):
        raise argparse.ArgumentTypeError(_("{text!r} is not a time: M:SS, H:MM:SS or seconds").format(text=text))
    secs = 0
    for n in nums:
        secs = secs * 60 + n
    return secs * 1000


def cmd_match_time(args: argparse.Namespace) -> int:
    return _referee(args, "adjust", ms=args.time)


def cmd_card(args: argparse.Namespace) -> int:
    return _referee(args, "card", side=args.side, kind=args.kind)


RESULTS = RESULT_NAMES  # left-right, as the pairings: 1-0 the left player won; -/- both absent (TK-R4)


def kazans(text: str) -> tuple[int, int]:
    """`--kazans 82-79`: the final kazan counts, left's then right's (TK-R7), each 0..162 and both together at most
    162 (TK-R1); the clock checks the rest with the result (who won, a flag: engine/kazans.py). UserError if not."""
    parts = text.strip().split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise UserError(_("--kazans {text!r}: two counts, left's then right's, e.g. 82-79").format(text=text))
    left, right = int(parts[0]), int(parts[1])
    if left > 162 or right > 162 or left + right > 162:
        raise UserError(_("--kazans {text!r}: the board has 162 kumalaks in all (TK-R1): each 0..162, "
                          "at most 162 together").format(text=text))
    return left, right


def cmd_result(args: argparse.Namespace) -> int:
    if args.outcome in ("left", "right", "none"):
        if args.kazans is not None:
            raise UserError(_("--kazans go with a game's result (1-0, 0-1, 1/2-1/2), not a match's winner"))
        return _referee(args, "result", winner=args.outcome)
    if args.outcome in RESULTS:
        extra = {}
        if args.kazans is not None:
            extra["left_kazan"], extra["right_kazan"] = kazans(args.kazans)

        def run(clock):
            ans = clock.request("result", auth=True, result=args.outcome, **extra)
            return ans, clock.request("state")

        ans, state = call(args, run)
        for k in ("id", "ok"):
            ans.pop(k, None)
        code = state.get("result_code")
        if code:
            ans["result_code"], ans["game"] = code, state.get("game")
        # the code to copy onto the scoresheet (TK-P1's proof): the clock shows it once the result
        # record is on its flash
        line = _("result code {code} (game {game})").format(code=code, game=state.get("game")) if code else \
            _("no result code yet: the clock shows it once the result is on its flash (`sagat state`)")
        if state.get("kazans"):
            ans["kazans"] = state["kazans"]
            line += _(", kazans {left}-{right}").format(left=state["kazans"][0], right=state["kazans"][1])
        return out(args, ans, _brief(ans) + "\n" + line)
    raise UserError(_("result {outcome!r}: a match's winner is left, right or none; a game's result is "
                      "{results}").format(outcome=args.outcome, results=", ".join(RESULTS)))


def cmd_sync_time(args: argparse.Namespace) -> int:
    import time

    def run(clock):
        return clock.request("time.sync", auth=True, wall_ms=int(time.time() * 1000))

    ans = call(args, run)
    return out(args, ans, _("clock time synced: events now carry wall time"))


def add(subparsers) -> None:
    """Adds `sagat new`, start, pause, resume, stoppage, undo, score, card, result, sync-time."""
    cmd = adder(subparsers)
    sp = cmd("new", _("configure the next game (a TimeControl string or preset name) or match (--mode)"),
             _("Set up the next game (a TimeControl string or preset name) or, with --mode, a match of "
               "kok-boru or kilithattu (docs/match.md), which waits for the referee's start."))
    link_args(sp)
    sp.add_argument("control", nargs="?", help=_('a TimeControl string in seconds ("420", "40/5400+30:1800+30", '
                                                 '"300+2|180+2") or a preset name (tk-blitz, tk-rapid); none with '
                                                 '--mode'))
    sp.add_argument("--first", choices=("left", "right"),
                    help=_("a game: the first player's face (TK-C5; default: left); kilithattu: the team "
                           "that enters first (KT-4.4; default: left)"))
    sp.add_argument("--mode", choices=_modes(), help=_("set up a match of this game instead"))
    sp.add_argument("--lead", type=int, metavar="N",
                    help=_("kokboru: a lead of more than N points wins at once (KB-14; default 8, 0: never)"))
    sp.add_argument("--changeover", type=int, metavar="SECONDS",
                    help=_("kilithattu: the changeover between innings, 1..60 seconds (KT-4.4; default 60)"))
    sp.add_argument("--method", choices=METHODS,
                    help=_("kilithattu: how a tie after the extra time is broken (KT-4.6; default lot): "
                           "sudden (first score wins), lot, draw, referee"))
    sp.add_argument("--names", nargs=2, metavar=("LEFT", "RIGHT"),
                    help=_("a match: the left and the right team's or rider's names, kept in the clock's log "
                           "(UTF-8, 39 bytes for both: longer ones are cut) and shown by `sagat state`, "
                           "`sagat logs show` and the hall"))
    sp.set_defaults(func=cmd_new)
    for name, text in (("start", _("start: a game set up, a match's waiting period (or end a changeover "
                                   "early)")),
                       ("pause", _("pause: a running game, logged as paused by the arbiter (a match: "
                                   "`sagat stoppage`)")),
                       ("resume", _("resume: a paused game, or a match after a stoppage")),
                       ("stoppage", _("a match's stoppage: the match time stops until `sagat resume` (KB-16, "
                                      "KT-4.5)")),
                       ("undo", _("a match: take back the last score or card of the period (logged as an "
                                  "undo)")),
                       ("restart", _("a match: the period on back to 0:00, waiting for `sagat start` (KB-3's "
                                     "false start; only before the period's first score, logged)"))):
        sp = cmd(name, text)
        link_args(sp)
        sp.set_defaults(func=cmd_pause if name == "pause" else cmd_referee)
    sp = cmd("score", _("a match: points for a side (kokboru 4, 2 or 1; kilithattu 1)"))
    link_args(sp)
    sp.add_argument("side", choices=("left", "right"), help=_("the side (face) that scored"))
    sp.add_argument("points", type=int, help=_("the points: kokboru 4, 2 or 1 (KB-7..10), kilithattu 1 "
                                               "(KT-5.5)"))
    sp.set_defaults(func=cmd_score)
    sp = cmd("toss", _("a match (kilithattu): the toss's winner, in place of the clock's lot (KT-4.6)"))
    link_args(sp)
    sp.add_argument("side", choices=("left", "right"),
                    help=_("lot 1: the team entering first in the extra time; lot 2: the team that wins"))
    sp.set_defaults(func=cmd_toss)
    sp = cmd("match-time", _("a match: set the period's clock in a stoppage, as the referee's watch reads it"))
    link_args(sp)
    sp.add_argument("time", type=face_ms, metavar="TIME",
                    help=_("what the period's face shows: the time left (counting up: elapsed), e.g. 3:20"))
    sp.set_defaults(func=cmd_match_time)
    sp = cmd("card", _("a match (kokboru): a warning or a red card for a side (KB-11, KB-12)"))
    link_args(sp)
    sp.add_argument("side", choices=("left", "right"), help=_("the side (face) carded"))
    sp.add_argument("kind", choices=("warning", "red"), help=_("warning (a second removes the rider) or red"))
    sp.set_defaults(func=cmd_card)
    sp = cmd("result", _("enter the result: a match's winner (left, right, none) or a game's (1-0, 0-1, ...)"))
    link_args(sp)
    sp.add_argument("outcome", metavar="RESULT",
                    help=_("a match: left, right or none (a draw); a game (left-right): 1-0, 0-1, 1/2-1/2, "
                           "+/-, -/+ or -/- (both absent)"))
    sp.add_argument("--kazans", metavar="L-R",
                    help=_("a game played: the final kazan counts, left's then right's (e.g. 82-79), kept in "
                           "the result's record; required after a flag fall for a draw or for the win of the "
                           "player whose flag fell (TK-R7, TK-C12), not for the opponent's win"))
    sp.set_defaults(func=cmd_result)
    sp = cmd("sync-time", _("set the clock's wall time from this PC, so events carry `wall`"))
    link_args(sp)
    sp.set_defaults(func=cmd_sync_time)
