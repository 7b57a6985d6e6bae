"""The log's layer and the pull below it, by their imports (those inside functions too): the pull
writes a pulled folder and imports no reader or verifier of it (sagat.log, nor the old sagat.logs);
sagat/log imports only the link below it (client, i18n, pull) and the firmware's pure modules, never
the hall, the report or the commands above it."""

from __future__ import annotations

import ast
from pathlib import Path

import sagat

HOST = Path(sagat.__file__).parent
BELOW_LOG = {"sagat.client", "sagat.i18n", "sagat.pull", "sagat.image",  # (image: littlefs images)
             "sagat.reasons"}  # (the clock's reason codes in words: the link's, client.py says them)


def _imports(path: Path) -> set:
    """Every module `path` imports, by its full name (relative imports resolved; `from X import y`
    gives X.y when that is a module of the host)."""
    rel = path.relative_to(HOST.parent).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    out = set()
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, ast.Import):
            out.update(a.name for a in n.names)
        elif isinstance(n, ast.ImportFrom):
            base = ".".join(package[: len(package) - n.level + 1] + ([n.module] if n.module else [])) if n.level \
                else n.module
            for a in n.names:
                full = f"{base}.{a.name}"
                known = (HOST.parent / full.replace(".", "/")).with_suffix(".py").exists() or \
                    (HOST.parent / full.replace(".", "/") / "__init__.py").exists()
                out.add(full if known else base)
    return out


def test_the_pull_imports_no_reader_nor_verifier_of_its_folder():
    got = _imports(HOST / "pull.py")
    assert not {m for m in got if m == "sagat.logs" or m.startswith("sagat.log.") or m == "sagat.log"}, got


def test_the_log_layer_imports_only_what_is_below_it():
    found = []
    for path in sorted((HOST / "log").glob("*.py")):
        for m in _imports(path):
            if m.startswith("sagat") and not m.startswith("sagatfw") and not m.startswith("sagat.log") \
                    and m not in BELOW_LOG:
                found.append(f"{path.name}: {m}")
    assert found == [], found
    assert _imports(HOST / "log" / "verify.py") & {"sagat.log.pulled", "sagat.log.head", "sagat.log.code"}
