"""tools/i18n.py as a module (`tool`), and a copy of the catalogues and the page's tables to change in a test
(`copied_words`): the tool, and sagat.i18n's look-ups, pointed at the copy."""

from __future__ import annotations

import importlib.util
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load():
    spec = importlib.util.spec_from_file_location("sagat_i18n_tool", os.path.join(ROOT, "tools", "i18n.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


tool = _load()


def copied_words(tmp_path, monkeypatch):
    """A copy of host/sagat/locale and host/sagat/hall/static/lang under tmp_path, the tool's LOCALE and
    STATIC_LANG and sagat.i18n's LOCALE_DIR set to it: (the locale folder, the tables' folder)."""
    from sagat import i18n

    locale = tmp_path / "locale"
    tables = tmp_path / "lang"
    shutil.copytree(tool.LOCALE, locale)
    shutil.copytree(tool.STATIC_LANG, tables)
    monkeypatch.setattr(tool, "LOCALE", str(locale))
    monkeypatch.setattr(tool, "STATIC_LANG", str(tables))
    monkeypatch.setattr(i18n, "LOCALE_DIR", str(locale))
    return locale, tables
