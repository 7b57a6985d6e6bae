# The settings store knows whether its file holds its values as they are (`saved`): a match set up
# writes the file only when it does not (app/setup.py: the 1.2 KB file buffer is the match heap's
# tightest moment). Wrong either way is a fault: a stale file after a change, or a write for
# nothing. A temporary directory: runs under CPython (pytest) and MicroPython (tests/mprun.py).
import os

from sagatfw.log import settings as ST


def _dir(name):
    import random
    import time

    path = "/tmp/sagat_saved_%s_%d_%d" % (name, int(time.time()), random.getrandbits(30))
    os.mkdir(path)
    return path + "/"


def test_saved_follows_what_the_file_holds():
    root = _dir("store")
    st = ST.Store(root + "settings.json")
    assert st.saved is False  # nothing read yet
    st.load()  # no file: the defaults, not on the flash
    assert st.saved is False
    st.save()
    assert st.saved is True
    st.set("sound", False)  # changed in memory only
    assert st.saved is False
    st.save()
    st2 = ST.Store(root + "settings.json")
    st2.load()  # the whole file, good: it holds the values
    assert st2.saved is True and st2.values["sound"] is False
    st2.set_preset(0, "blitz", "180+2")
    assert st2.saved is False
    st2.save()
    st2.reset_game_defaults("refused")
    assert st2.saved is False
    with open(root + "settings.json", "w") as f:
        f.write("{not json")
    st3 = ST.Store(root + "settings.json")
    st3.load()  # corrupt: the defaults, which the file does not hold
    assert st3.saved is False


def test_a_save_that_fails_leaves_saved_false_even_after_a_direct_change():
    root = _dir("fail")
    st = ST.Store(root + "settings.json")
    st.save()
    assert st.saved is True
    st.values["tc"] = "600"  # as App.new_game changes it, then saves
    st.path = root + "no/such/dir/settings.json"
    try:
        st.save()
    except OSError:
        pass
    else:
        raise AssertionError("a save into a missing directory must fail")
    assert st.saved is False  # the next match's setup writes the file again
