"""The arbiter's corrections at one board (host/sagat/hall/acts.py): the clock's own table of actions
(sagatfw/ui/actions.py), less what the hall does with its own buttons, with the arguments the clock
takes and the page has a field for; served to the page (/api/actions), whose scripts hold no copy of
it; and the page's scripts, ES modules, served as JavaScript."""

from __future__ import annotations

import importlib
import inspect
import json
import re
from pathlib import Path

import pytest
from webkit import asgi_get

from sagat.hall import acts, web
from sagatfw.engine.matchbase import Match
from sagatfw.ui import actions as fw_actions

STATIC = Path(web.__file__).parent / "static"


def _serves(name: str, kind: str) -> bool:
    return fw_actions.ACTIONS[name][1] in (kind, "both")


def test_each_action_of_the_clocks_table_is_offered_unless_a_button_of_the_halls_does_it():
    for kind, offered in (("game", acts.GAME_ACTS), ("match", acts.MATCH_ACTS)):
        for name, (_method, _serves_what, _auth, spec) in fw_actions.ACTIONS.items():
            if not _serves(name, kind):
                assert name not in offered, (kind, name)
                continue
            needs_more = any(s[2] and s[0] not in acts.FIELDS for s in spec)  # (arm's ticks, the settings)
            assert (name in offered) == (name not in acts.NOT_IN_DIALOG[kind] and not needs_more), (kind, name)
        # in the table's order, and nothing the table does not have but the hall's own `first`
        names = [n for n in offered if n != "first"]
        assert names == [n for n in fw_actions.ACTIONS if n in offered], kind
    assert "first" in acts.GAME_ACTS and "first" not in acts.MATCH_ACTS
    assert {"new", "arm", "settings.set"}.isdisjoint(acts.GAME_ACTS) and "new" not in acts.MATCH_ACTS


def test_an_action_takes_the_arguments_the_clock_takes_that_the_page_can_fill():
    for kind, offered in (("game", acts.GAME_ACTS), ("match", acts.MATCH_ACTS)):
        for name, args in offered.items():
            if name == "first":
                continue
            method, _what, _auth, spec = fw_actions.ACTIONS[name]
            table = [s[0] for s in spec]
            assert list(args) == [a for a in table if a in args] and set(args) <= set(acts.FIELDS), (kind, name)
            if kind == "match":  # what the match engine's method takes (actions.do passes it no more)
                takes = set(inspect.signature(getattr(Match, method)).parameters) - {"self", "now"}
                assert takes <= set(table), (name, takes)  # (its names are the table's: none dropped unseen)
                assert set(args) == takes & set(acts.FIELDS), (name, args)
            else:
                assert set(args) == set(table) & set(acts.FIELDS), (name, args)
    # what the rule gives today: a match's adjust is its period's clock, its result the winner; a pause's
    # `by` is the hall's, a resumed adjournment's times the clock's own
    assert acts.MATCH_ACTS["adjust"] == ("ms",) and acts.MATCH_ACTS["result"] == ("winner",)
    assert acts.GAME_ACTS["adjust"] == ("side", "ms", "moves", "stage") and acts.GAME_ACTS["pause"] == ()
    assert acts.GAME_ACTS["resume_adjourned"] == ()


def test_the_page_has_a_field_for_each_argument_and_no_other():
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    fields = re.search(r'<p id="act-fields">(.*?)</p>', html, re.S).group(1)
    assert set(re.findall(r'data-for="([a-z_]+)"', fields)) == set(acts.FIELDS)


@pytest.fixture
def a_new_action(monkeypatch):
    """The clock's table with two actions more, a game's and a match's, as a new firmware brings them;
    acts.py derived again from it, and again from the clock's own after the test."""
    # the table module acts.py's reload imports: the one in sys.modules now (a test before may have
    # imported the firmware afresh, leaving this file's own import an older module object)
    current = importlib.import_module("sagatfw.ui.actions")
    table = dict(current.ACTIONS)
    table["bell"] = ("bell", "game", 1, (("side", "side", 1, None, None), ("ticks", "int", 0, 0, 9)))
    table["swap"] = ("restart", "match", 1, (("side", "side", 0, None, None),))  # (its engine takes no side)
    monkeypatch.setattr(current, "ACTIONS", table)
    yield importlib.reload(acts)
    monkeypatch.undo()
    importlib.reload(acts)


def test_an_action_added_to_the_clocks_table_is_offered_with_its_arguments(a_new_action):
    assert a_new_action.GAME_ACTS["bell"] == ("side",)  # (ticks: no field on the page)
    assert a_new_action.MATCH_ACTS["swap"] == ()
    page = a_new_action.page()
    assert {"cmd": "bell", "args": ["side"], "label": "act_bell"} in page["game"]
    assert {"cmd": "swap", "args": [], "label": "mact_swap"} in page["match"]
    assert "bell" not in a_new_action.MATCH_ACTS and "swap" not in a_new_action.GAME_ACTS


def _get(app, path: str) -> tuple[int, dict, bytes]:
    return asgi_get(app, path)


class _Hall:
    def view(self):
        return {"boards": []}


def test_the_hall_serves_the_page_its_actions():
    status, _headers, body = _get(web.make_app(_Hall()), "/api/actions")
    assert status == 200 and json.loads(body) == acts.page()
    page = json.loads(body)
    assert [a["cmd"] for a in page["game"]] == list(acts.GAME_ACTS)
    assert [a["cmd"] for a in page["match"]] == list(acts.MATCH_ACTS)
    assert all(a["label"] == "act_" + a["cmd"] for a in page["game"])
    assert all(a["label"] == "mact_" + a["cmd"] for a in page["match"])


def _scripts() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(STATIC.glob("*.js"))}


def test_the_pages_scripts_hold_no_copy_of_the_action_table():
    scripts = _scripts()
    assert "hall.js" in scripts
    # the words of an action come with the hall's table: no script spells one
    labels = {a["label"] for table in acts.page().values() for a in table}
    for name, js in scripts.items():
        assert not labels & set(re.findall(r'"([a-z_]+)"', js)), name
    # and no line names two of the actions the dialog offers, as a table of them would
    names = (set(acts.GAME_ACTS) | set(acts.MATCH_ACTS)) - {"first"}
    one = re.compile(r"(?<![\w.$-])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")(?![\w-])")
    for name, js in scripts.items():
        for n, line in enumerate(js.splitlines(), 1):
            found = set(one.findall(line.split("//")[0]))
            assert len(found) < 2, (name, n, found, line)


def test_the_page_is_es_modules_served_as_javascript():
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script\b[^>]*>", html) == ['<script type="module" src="/static/hall.js">']
    app = web.make_app(_Hall())
    scripts = _scripts()
    for name, js in scripts.items():
        status, headers, body = _get(app, f"/static/{name}")
        # a module script of another type the browser refuses to run (Chromium: "Strict MIME type checking")
        assert status == 200 and headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript")
        assert body.decode("utf-8") == js
        for imported in re.findall(r'^import [^;]* from "\./([a-z]+\.js)";$', js, re.M):
            assert imported in scripts, (name, imported)
        assert len([x for x in js.splitlines() if x.strip() and not x.strip().startswith("//")]) <= 450, name
    # every module is loaded by the page: imported by another (hall.js, the one the page names, first)
    imported = {m for js in scripts.values() for m in re.findall(r' from "\./([a-z]+\.js)";', js)}
    assert imported | {"hall.js"} == set(scripts)


def test_the_pages_modules_are_checked_again_on_each_load():
    # a browser that kept yesterday's modules would mix them with today's after an upgrade (one module's
    # import of a name the other no longer has): each is asked again (ETag: an unchanged file is a 304)
    app = web.make_app(_Hall())
    for name in [*_scripts(), "hall.css", "lang/kk.json"]:
        status, headers, _body = _get(app, f"/static/{name}")
        assert status == 200 and headers.get("cache-control") == "no-cache", (name, headers)
