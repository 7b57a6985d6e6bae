"""The `sagat` command in a language, for the host's language tests (tests/host/i18n/): LANG set as an
arbiter sets it, for a process of its own (`sagat_in`) or for main() in this one (the `lang` fixture),
the other locale variables cleared so that LANG decides."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT

LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def env_for(lang: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env["LANG"] = lang
    return env


def sagat_in(lang: str, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`sagat ARGV` as an arbiter runs it, in a process of its own with LANG=lang."""
    return subprocess.run([sys.executable, "-m", "sagat", *argv], env=env_for(lang), cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def lang(monkeypatch):
    """Set the language for main() in this process: lang("ru_RU.UTF-8")."""
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)

    def set_lang(value: str) -> None:
        monkeypatch.setenv("LANG", value)

    return set_lang
