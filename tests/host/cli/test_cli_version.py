"""`sagat --version`: the installed package's version and the firmware's it carries, in one line, in
the user's language."""

from importlib import metadata

import pytest

import sagatfw
from sagat.cli import main


def _version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    out, err = capsys.readouterr()
    assert exc.value.code == 0 and err == "", err
    return out


def test_version_names_the_package_and_the_firmware(capsys):
    assert _version(capsys) == f"sagat {metadata.version('sagat')}, firmware {sagatfw.VERSION}\n"


def test_version_speaks_the_users_language(capsys, lang):
    lang("kk_KZ.UTF-8")
    assert _version(capsys) == f"sagat {metadata.version('sagat')}, микробағдарлама {sagatfw.VERSION}\n"


def test_version_from_a_tree_never_installed_says_so(capsys, monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert _version(capsys) == f"sagat (not installed), firmware {sagatfw.VERSION}\n"
