"""Attacks on setting up a match of the other mode, on the real App under CPython (its flash a
temporary directory): the match set up before leaves RAM first (the heap has no room for both
engines), so whatever fails after that (a bad option the engine refuses, no memory for the
settings file's buffer or for the engine's module) must leave the game clock working: refused or
answered `internal`, never a clock that runs with no event queue."""

import builtins

import pytest
from apprig import Rig


def _game_clock_works(rig):
    st = rig.ok("state")
    assert "mode" not in st and st["state"] == "setup", st  # the game clock took the match's place
    rig.ok("new", tc="300", first="left")
    rig.ok("start")
    rig.at(rig.ms + 1000)
    rig.ok("pause")
    st = rig.ok("state")
    assert st["state"] == "paused" and st["left"]["ms"] == 299000, st
    rig.ok("resume")
    rig.at(rig.ms + 500)
    assert rig.ok("state")["left"]["ms"] == 298500


def test_no_memory_for_the_other_mode_s_engine_is_internal_and_the_game_clock_runs(tmp_path, monkeypatch):
    rig = Rig(tmp_path)
    rig.ok("new", mode="kokboru", lead=8)
    real = builtins.__import__

    def no_room(name, *a, **k):
        if name == "sagatfw.engine.kilithattu":
            raise MemoryError("memory allocation failed, allocating 464 bytes")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_room)
    r = rig.call("new", mode="kilithattu", first="left")
    monkeypatch.undo()
    assert r["ok"] is False and r["error"]["code"] == "internal", r
    _game_clock_works(rig)
    assert rig.srv.internal_errors == 1


def test_no_memory_for_the_settings_file_is_internal_and_the_game_clock_runs(tmp_path, monkeypatch):
    rig = Rig(tmp_path)
    rig.ok("new", mode="kilithattu", first="right")
    store = rig.app.store
    store.saved = False  # (as after a change: the match's setup writes the file)

    def no_buffer():
        raise MemoryError("memory allocation failed, allocating 1232 bytes")

    monkeypatch.setattr(store, "save", no_buffer)
    r = rig.call("new", mode="kokboru", lead=3)
    monkeypatch.undo()
    assert r["ok"] is False and r["error"]["code"] == "internal", r
    _game_clock_works(rig)


@pytest.mark.parametrize("mode,opts", [("kilithattu", {"changeover_ms": 0}), ("kokboru", {"lead": 100})])
def test_a_bad_option_for_the_other_mode_changes_nothing(tmp_path, mode, opts):
    rig = Rig(tmp_path)
    other = "kokboru" if mode == "kilithattu" else "kilithattu"
    rig.ok("new", mode=other)
    r = rig.call("new", mode=mode, **opts)
    assert r["ok"] is False and r["error"]["code"] == "bad_arg", r  # the table's range: before anything
    assert rig.ok("state")["mode"] == other
