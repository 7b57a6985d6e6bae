"""`sagat logs`: pull a clock's log over serial, show, verify and export it (from a pull's records.bin
or a flash image), erase what a pull saved."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .. import client
from ..cliutil import Parser, UserError, adder, arbiter_keys, call, link_args, out


def _read_log(args: argparse.Namespace, replay: bool = True):
    from .. import logs

    keys = arbiter_keys(args)  # (a bad key is said before the log is read)
    try:
        if args.records:  # what `sagat logs pull` saved
            try:
                with open(args.records, "rb") as fh:
                    data = fh.read()
            except OSError as e:
                raise UserError(f"cannot read {args.records}: {e.strerror or e}") from None
            if not data:
                raise UserError(f"{args.records} is empty")
            return logs.read_segments([(os.path.basename(args.records), data)], keys, replay)
        if not args.image:
            raise UserError("give --image FILE (a flash image) or --records FILE (from `sagat logs pull`)")
        return logs.read_segments(logs.read_image(args.image, args.block_size), keys, replay)
    except logs.LogError as e:
        raise UserError(str(e)) from None


def _damage(log) -> int:
    """show/export: report damage to the records themselves (CRC, missing, order, torn) on stderr;
    whether the chain links is `sagat logs verify`'s question (it needs the arbiter key)."""
    from sagatfw.log import records

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
    from .. import logs

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
    from .. import pull

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
    from sagatfw.log import records

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
    from .. import logs

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
    from .. import logs

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
    from .. import pull

    _out_dir(args.out)
    figures = call(args, lambda c: pull.pull(c, args.out))
    return out(
        args,
        figures,
        _pulled_text(figures) + f", {figures['events']} events in {os.path.join(args.out, 'events.jsonl')}",
    )


def cmd_logs_erase(args: argparse.Namespace) -> int:
    """Erase finished games from the clock, but only what a pull saved and verifies."""
    from .. import logs

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


def add(subparsers) -> None:
    """Adds `sagat logs` and its actions: show, pull, erase, verify, export."""
    cmd = adder(subparsers)
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
