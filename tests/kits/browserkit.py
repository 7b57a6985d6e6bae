"""The hall in a real browser, for the browser tests (test_hall_browser.py and
test_hall_round_browser.py in tests/host/hall/): Debian's Chromium, headless, driven by Selenium
through Debian's chromedriver, against `sagat hall` as a user starts it. Without Chromium or
chromedriver a test skips, saying what to install; under CI (CI=1) it fails."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 30  # s: a poll's bound (it returns as soon as the page shows what it waits for)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CARDS = "Array.from(document.querySelectorAll('article.board'))"


def need_browser():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(p)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip install -e '.[dev]')")
    if missing:
        why = "the hall's browser test needs " + ", ".join(missing) + \
              " (apt-get install chromium chromium-driver; .ci/run installs them)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=WAIT) as r:
        return json.load(r)


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=WAIT) as r:
        return json.load(r)


def start_hall(args: list[str], n: int, cwd: str | None = None, prelude: str | None = None):
    """`sagat hall --no-usb --no-browser` with args on a free port: (the process, the page's address,
    the seconds until every one of its n clocks was up with the hall's key). `prelude`: Python the
    hall's process runs first (a test's change to what the hall imports, e.g. the firmware's table)."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]))
    sagat = ["-m", "sagat"] if prelude is None else \
        ["-c", prelude + "\nimport sys\nfrom sagat.entry import run\nsys.exit(run())"]
    proc = subprocess.Popen([sys.executable, *sagat, "hall", "--no-usb", "--no-browser", "--http-port",
                             str(port), *args], stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    try:
        url, t0 = started(proc, n)
    except BaseException:
        proc.terminate()  # the hall's simulators go with it
        proc.wait(timeout=20)
        raise
    return proc, url, t0


def stop_hall(proc, n: int) -> None:
    """SIGTERM, as a service manager stops it: the hall stops its n simulators too."""
    sims = children(proc.pid)
    assert len(sims) == n
    proc.terminate()
    assert proc.wait(timeout=60) == 0
    # the hall has stopped its simulators: each one's exit may take a moment on a loaded machine
    deadline = time.monotonic() + WAIT
    while [p for p in sims if os.path.exists(f"/proc/{p}")] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in sims if os.path.exists(f"/proc/{p}")] == []


def children(pid: int) -> list[int]:
    out = []
    for p in os.listdir("/proc"):
        try:
            with open(f"/proc/{p}/stat") as fh:
                if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(p))
        except (OSError, ValueError, IndexError):
            pass
    return out


def started(proc, n: int) -> tuple[str, float]:
    """The page's address once `sagat hall` serves it and every clock is up with the hall's key."""
    url = None
    t0 = time.monotonic()
    while time.monotonic() - t0 < 90:
        line = proc.stderr.readline()
        if not line:
            break
        if "http://" in line:
            url = line.split()[2]
            break
    assert url, f"sagat hall did not start: {proc.stderr.read() if proc.poll() is not None else ''}"
    # the arbiter's key on every simulated clock, as `sagat key` sets it before the event
    deadline = time.monotonic() + 60
    while True:
        boards = get(url + "api/state")["boards"]
        if len(boards) == n and all(b["link"] == "up" for b in boards):
            break
        assert time.monotonic() < deadline, boards
        time.sleep(0.2)
    # the hall gave its arbiter key to each simulated clock (an event's clocks have one)
    deadline = time.monotonic() + WAIT
    while not all(b["key_set"] for b in boards):
        assert time.monotonic() < deadline, boards
        time.sleep(0.2)
        boards = get(url + "api/state")["boards"]
    return url, time.monotonic() - t0


def chromium(width: int = 1680, height: int = 1050):
    """A headless Chromium driven by Selenium (a generator: the driver, then it quits)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              f"--window-size={width},{height}"):
        opts.add_argument(a)
    profile = tempfile.mkdtemp(prefix="sagat-hall-chromium-")
    opts.add_argument("--user-data-dir=" + profile)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


# The page's own modules, as the page has them (an ES module is one a page: an import here gets the page's
# instance, its state too), for a test that draws what it gives the page or reads the page's state.
_MODULES = ("view", "stream", "alerts")


def in_page(driver, script: str, *args):
    """Run `script` (a function's body, `arguments` its args) in the page with its modules at hand by
    name (view.render(...), stream.source, alerts.setMuted(...)); what it returns."""
    names = ", ".join(_MODULES)
    return driver.execute_script(
        f"return Promise.all({list(_MODULES)!r}.map((m) => import(`/static/${{m}}.js`)))"
        f".then(([{names}]) => {{ {script}\n}});", *args)


def until(driver, js: str, timeout: float, what: str):
    """Poll a JS expression in the page until it is truthy; returns its value."""
    end = time.monotonic() + timeout
    while True:
        v = driver.execute_script("return " + js)
        if v:
            return v
        if time.monotonic() >= end:
            said = driver.execute_script("const a = document.getElementById('action');"
                                         "return a ? a.textContent : null")
            raise AssertionError(f"{what}: not within {timeout} s (the action line: {said!r})")
        time.sleep(0.05)


# A press as a finger or a mouse makes it, found and made in one script: the element at its centre must be
# it (shown, not covered, as WebDriver's click requires), then pointerdown, pointerup and click on it.
_PRESS = """
const e = document.querySelector(arguments[0]);
if (!e || e.disabled) return false;
const r = e.getBoundingClientRect();
if (!r.width || !r.height) return false;
const x = r.left + r.width / 2, y = r.top + r.height / 2;
const at = document.elementFromPoint(x, y);
if (!at || !(at === e || e.contains(at))) { e.scrollIntoView({block: "center"}); return false; }
const o = {bubbles: true, cancelable: true, clientX: x, clientY: y, pointerType: "mouse", isPrimary: true};
at.dispatchEvent(new PointerEvent("pointerdown", o));
at.dispatchEvent(new PointerEvent("pointerup", o));
at.click();
return true;
"""


def press(d, css: str) -> None:
    """A press on an element of a card (the page acts on pointerdown: a card may be drawn again before
    the release), found and pressed in one script. Cards are drawn again as their clocks change: a
    find and a click in two WebDriver calls fell on either side of a redraw every time for 30 s on a
    loaded machine (three CI runs at once)."""
    end = time.monotonic() + WAIT
    while not d.execute_script(_PRESS, css):
        if time.monotonic() >= end:
            raise AssertionError(f"{css}: not shown, or covered, for {WAIT} s")
        time.sleep(0.05)


def answer(d, button_id: str, *answers: bool) -> list[str]:
    """Click the button `button_id`, which asks first (window.confirm), and answer its questions in turn
    (True: OK); the questions' texts."""
    from selenium.common.exceptions import NoAlertPresentException

    d.find_element("id", button_id).click()
    asked = []
    for yes in answers:
        end = time.monotonic() + WAIT
        while True:
            try:
                a = d.switch_to.alert
                text = a.text
                break
            except NoAlertPresentException:
                assert time.monotonic() < end, f"{button_id}: no question {len(asked) + 1} (asked: {asked})"
                time.sleep(0.05)
        asked.append(text)
        if yes:
            a.accept()
        else:
            a.dismiss()
    return asked


def text_of(d, css: str):
    """The text an element shows (its innerText, as WebElement.text), read in one script: a card drawn again
    between finding it and reading it cannot go stale (as `press` finds one again to click it)."""
    return d.execute_script("const e = document.querySelector(arguments[0]); return e ? e.innerText : null", css)
