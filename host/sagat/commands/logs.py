"""`sagat logs`: pull a clock's log over serial, show, verify and export it (from a pull's records.bin
or a flash image), erase what a pull saved."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..cliutil import Parser, UserError, adder, arbiter_keys, call, link_args, out
from ..i18n import _, english, ngettext


def _pulled(args: argparse.Namespace, with_head: bool = False):
    """The log the options name: --records (what `sagat logs pull` saved, with the head beside it or
    --head, unless `with_head` is off) or --image (a flash image)."""
    from ..log import pulled
    from ..log.decode import LogError

    try:
        if args.records:  # what `sagat logs pull` saved
            return pulled.read_records(args.records, head=args.head if with_head else None, with_head=with_head,
                                       empty_ok=False)
        if not args.image:
            raise UserError(_("give --image FILE (a flash image) or --records FILE (from `sagat logs pull`)"))
        return pulled.read_flash(args.image, args.block_size, head=args.head if with_head else None)
    except LogError as e:
        raise UserError(e.text()) from None


def _read_log(args: argparse.Namespace):
    """show/export: the log's records decoded (no replay: that is verify's)."""
    from ..log.decode import read_segments

    keys = arbiter_keys(args)  # (a bad key is said before the log is read)
    return read_segments(_pulled(args).segments, keys, replay=False)


def _damage(log) -> int:
    """show/export: report damage to the records themselves (CRC, missing, order, torn) on stderr;
    whether the chain links is `sagat logs verify`'s question (it needs the arbiter key)."""
    from sagatfw.log import records

    damage = [p for p in log.problems if p[0] not in (records.P_CHAIN, records.P_KEY)]
    for kind, _seq, detail in damage:
        print("sagat: " + _("log damage: {kind}: {detail}").format(kind=kind, detail=detail), file=sys.stderr)
    return 1 if damage else 0


def _readable(args: argparse.Namespace, log) -> None:
    """show/export: a file none of whose records is a sagat record, or a --game the log does not
    hold, is one line (exit 2), not a page of damage or nothing at all."""
    where = args.records or args.image
    if log.records and not log.good:
        raise UserError(ngettext("{file} is not a sagat log: its {n} record is not a sagat record",
                                 "{file} is not a sagat log: none of its {n} records is a sagat record",
                                 log.records).format(file=where, n=log.records))
    if args.game is not None and args.game not in log.games():
        held = ", ".join(map(str, log.games())) or _("none")
        raise UserError(_("no game {game} in {file} (its games: {games})").format(game=args.game, file=where,
                                                                                  games=held))


def cmd_logs_show(args: argparse.Namespace) -> int:
    from ..log import export, show

    log = _read_log(args)
    _readable(args, log)
    events = log.shown(args.checkpoints, args.game)
    if args.json:
        sys.stdout.write(export.to_json_lines(events))
    else:
        sys.stdout.write(show.table(log, args.checkpoints, args.game))
    return _damage(log)


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
    why = _("the arbiter key set at seq {seq}").format(seq=set_at[-1]) if set_at else \
        _("an arbiter key (or, if this clock never had one, its records were changed)")
    raise UserError(_("this log is sealed from seq {seq} on with {why}: give the key with --key KEY or "
                      "--key-file FILE to verify it").format(seq=at, why=why))


def cmd_logs_verify(args: argparse.Namespace) -> int:
    if args.json:  # machine output: its "checks" and "notes" are English in every language
        with english():
            return _verify(args)
    return _verify(args)


def _verify(args: argparse.Namespace) -> int:
    from ..log import problem as problem
    from ..log.code import code_problem
    from ..log.verify import verify

    if (args.code is None) != (args.game is None):
        raise UserError(_("--code and --game go together: the result code copied from game N's scoresheet"))
    if args.code is not None and code_problem(args.code):
        raise UserError("--code: " + code_problem(args.code))
    keys = [k for k in arbiter_keys(args) if k]  # (a bad key is said before the log is read)
    source = _pulled(args, with_head=not args.no_head)
    v = verify(source, keys, game=args.game, code=args.code, uid=args.clock or source.uid, unkeyed_ok=True,
               need_head=bool(args.records) and not args.no_head, translate=not args.json)
    if not keys:
        _needs_key(v.log)
    if source.head_error is not None:
        e = source.head_error
        raise UserError(_("cannot read the head {file}: {error}").format(
            file=source.head_path, error=getattr(e, "strerror", None) or e)) from None
    if source.head is None and args.clock and not v.log.records and not v.part(problem.HEAD):
        raise UserError(_("--clock needs a head: the clock id is in the head.json of a pull"))
    lines = v.lines + (v.notes if v.ok else [])
    if args.json:
        checks = [p.line for p in v.problems if p.part in (problem.HEAD, problem.CODE)]
        print(json.dumps({"ok": v.ok, "records": v.log.records, "first_seq": v.log.start_seq,
                          "last_seq": v.log.last_seq, "problems": [list(p) for p in v.log.problems],
                          "replay": v.log.replay_problems, "checks": checks, "notes": v.notes}))
    else:
        print("\n".join(lines))
    return 0 if v.ok else 1


def cmd_logs_export(args: argparse.Namespace) -> int:
    from ..log import export

    log = _read_log(args)
    _readable(args, log)
    events = log.shown(args.checkpoints, args.game)
    text = export.to_csv(events) if args.format == "csv" else export.to_json_lines(events)
    if args.output and args.output != "-":
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as e:
            raise UserError(_("cannot write {file}: {error}").format(file=args.output, error=e.strerror or e)) \
                from None
        n = len(events)
        print(ngettext("{n} event written to {file}", "{n} events written to {file}", n).format(n=n, file=args.output),
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return _damage(log)


def _out_dir(path: str) -> None:
    """A pull's --out: a folder that exists or can be made, checked before the clock is asked anything."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise UserError(_("--out {dir}: not a folder (a pull writes records.bin, head.json and events.jsonl "
                          "in it)").format(dir=path))
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UserError(_("--out {dir}: cannot make the folder: {error}").format(dir=path, error=e.strerror or e)) \
            from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UserError(_("--out {dir}: the folder is not writable").format(dir=path))


def _pulled_text(figures: dict) -> str:
    """`N new records (seq a..b) + K segment anchors`, a..b the seqs this pull added (a second pull's
    start after the first's end): each log segment opens with an anchor record (its chain's start,
    docs/log-format.md) that has no seq of its own, so a pull of seq 0..34 may bring 36 records."""
    n, k = figures.get("records", figures["pulled"]), figures.get("anchors", 0)
    if n == 0 and k == 0:
        return _("no new records (the folder holds the whole log)")
    if figures.get("new_first") is None:  # segment anchors alone
        return ngettext("{k} segment anchor, no new record", "{k} segment anchors, no new record", k).format(k=k)
    text = ngettext("{n} new record (seq {first}..{last})", "{n} new records (seq {first}..{last})", n).format(
        n=n, first=figures["new_first"], last=figures["new_last"])
    return text + (ngettext(" + {k} segment anchor", " + {k} segment anchors", k).format(k=k) if k else "")


def cmd_logs_pull(args: argparse.Namespace) -> int:
    from .. import pull
    from ..log import pulled

    _out_dir(args.out)
    figures = call(args, lambda c: pull.pull(c, args.out))
    uid = figures.pop("uid")  # (the events' count before the clock's id, as the output always had it)
    figures["events"] = pulled.write_events(args.out)
    figures["uid"] = uid
    return out(
        args,
        figures,
        _pulled_text(figures) + ngettext(", {n} event in {file}", ", {n} events in {file}", figures["events"]).format(
            n=figures["events"], file=os.path.join(args.out, "events.jsonl")),
    )


def cmd_logs_erase(args: argparse.Namespace) -> int:
    """Erase finished games from the clock, but only what a pull saved and verifies."""
    from ..log import pulled
    from ..log.verify import verify

    try:
        source = pulled.read_folder(args.pulled, with_head=False)
    except pulled.Unreadable as e:
        raise UserError(_("erase needs a pull to keep: cannot read {file}: {error}").format(
            file=e.file, error=e.error)) from None
    v = verify(source, arbiter_keys(args))
    if not v.ok:
        raise UserError(_("the pulled copy in {dir} does not verify ({why}): nothing erased").format(
            dir=args.pulled, why=v.lines[0]))
    log = v.log
    upto = log.last_seq
    finished = sorted({e["game"] for e in log.events if e["type"] == "result"})
    if not finished:
        raise UserError(_("the pulled copy has no finished game: nothing to erase"))
    game = finished[-1]
    total = 0

    pulled_uid = source.uid

    def run(clock):
        nonlocal total
        uid = clock.request("identify").get("uid")
        if pulled_uid is None or pulled_uid != uid:
            raise UserError(_("{dir} was not pulled from this clock ({uid}): nothing erased").format(
                dir=args.pulled, uid=uid))
        while True:
            ans = clock.request("log.erase", auth=True, upto_seq=upto, game=game)
            total += ans.get("erased", 0)
            if not ans.get("more"):
                return ans

    ans = call(args, run)
    if not total:
        return out(args, {"erased_segments": 0, "first": ans.get("first"), "stopped": ans.get("stopped")},
                    _("nothing erased: no segment holds only games up to {game} (pulled and verified up to "
                      "seq {upto}); the clock's log starts at seq {first}").format(game=game, upto=upto,
                                                                               first=ans.get("first")))
    return out(args, {"erased_segments": total, "first": ans.get("first"), "stopped": ans.get("stopped")},
                ngettext("{n} segment of games up to {game} erased (pulled and verified up to seq {upto}); "
                         "the clock's log now starts at seq {first}",
                         "{n} segments of games up to {game} erased (pulled and verified up to seq {upto}); "
                         "the clock's log now starts at seq {first}", total).format(n=total, game=game, upto=upto,
                                                                                    first=ans.get("first")))


def _log_source(sp: argparse.ArgumentParser) -> None:
    source = sp.add_mutually_exclusive_group()  # one log at a time: both would leave one unread
    source.add_argument("--image", metavar="FILE",
                        help=_("a littlefs image: the simulator's flash or a board's dump"))
    source.add_argument("--records", metavar="FILE", help=_("the records.bin that `sagat logs pull` saved"))
    sp.add_argument("--block-size", type=int, default=None, metavar="BYTES",
                    help=_("the image's block size in bytes (default: detected; 4096 for a Pico's or the "
                           "sim's)"))
    sp.add_argument("--key", action="append", metavar="KEY",
                    help=_("the arbiter key the log's chain is keyed with, to check the chain (repeat it for "
                           "keys used before)"))
    sp.add_argument("--key-file", metavar="FILE", help=_("read the arbiter key from FILE (instead of --key)"))


def add(subparsers) -> None:
    """Adds `sagat logs` and its actions: show, pull, erase, verify, export."""
    cmd = adder(subparsers)
    lp = cmd("logs", _("read, verify and export a clock's log"),
             _("A clock's log: pull it over serial, show, verify and export it (from a pull's records.bin or "
               "a flash image), erase what a pull saved. See docs/arbiter-guide.md."))
    lsub = lp.add_subparsers(dest="logs_command", metavar="ACTION", parser_class=Parser, required=True)
    sp = cmd("show", _("every event, as a table per game or JSON lines"), parent=lsub)
    _log_source(sp)
    sp.add_argument("--json", action="store_true",
                    help=_("one JSON object per event (fields: docs/design.md, contract 3)"))
    sp.add_argument("--game", type=int, metavar="N", help=_("only game N (games count from 1)"))
    sp.add_argument("--checkpoints", action="store_true", help=_("also the checkpoint records"))
    sp.set_defaults(func=cmd_logs_show)
    sp = cmd("pull", _("copy the clock's log over serial (resumes an interrupted pull)"),
             _("Copy the clock's log over serial into DIR: records.bin, events.jsonl and head.json (the "
               "clock's signed last record: with a key set, --key is needed for it). A second pull adds only "
               "what is new."),
             parent=lsub)
    link_args(sp)
    sp.add_argument("--out", default="sagat-log", metavar="DIR",
                    help=_("the folder for records.bin, events.jsonl and head.json (default: sagat-log)"))
    sp.set_defaults(func=cmd_logs_pull)
    sp = cmd("erase", _("erase finished games on the clock that a pull saved and verifies"), parent=lsub)
    link_args(sp)
    sp.add_argument("--pulled", default="sagat-log", metavar="DIR",
                    help=_("the folder `sagat logs pull` wrote (default: sagat-log)"))
    sp.set_defaults(func=cmd_logs_erase)
    sp = cmd("verify", _("check every CRC and chain link and replay every game; exit 1 if broken"),
             _("Check a log: every record's CRC, the sequence, the chain (with --key), a replay of every "
               "game, and a pull's head. Prints OK, or BROKEN at seq N and exits 1."), parent=lsub)
    sp.add_argument("--head", metavar="FILE", help=_("the head a pull saved (default: head.json beside "
                                                     "--records)"))
    sp.add_argument("--no-head", action="store_true", help=_("check the records alone (a cut end goes unseen)"))
    sp.add_argument("--clock", metavar="UID",
                    help=_("the clock the log must be from (its id, as `sagat info` shows)"))
    sp.add_argument("--game", type=int, metavar="N", help=_("with --code: the game whose scoresheet has the "
                                                            "code"))
    sp.add_argument("--code", metavar="CODE", help=_("the result code the faces showed for --game (six "
                                                     "digits)"))
    _log_source(sp)
    sp.add_argument("--json", action="store_true", help=_("the verdict and every problem as one JSON object"))
    sp.set_defaults(func=cmd_logs_verify)
    sp = cmd("export", _("write the events as CSV or JSON lines"), parent=lsub)
    _log_source(sp)
    sp.add_argument("--format", choices=("csv", "json"), default="csv",
                    help=_("csv (default: one row per event) or json (contract 3 JSON lines)"))
    sp.add_argument("-o", "--output", metavar="FILE", help=_("write here instead of standard output"))
    sp.add_argument("--game", type=int, metavar="N", help=_("only game N (games count from 1)"))
    sp.add_argument("--checkpoints", action="store_true", help=_("also the checkpoint records"))
    sp.set_defaults(func=cmd_logs_export)
