"""The round package (host/sagat/round) sits below the hall: it imports nothing of the hall's, nor of
the command line's, directly or through another module of the host, and no import circle runs through
it. Every import is walked, those inside functions too (the report imports its plots' matplotlib
late; a late import is still an edge of the graph)."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

HOST = Path(ROOT) / "host"
ABOVE = ("sagat.hall", "sagat.commands", "sagat.cli", "sagat.cliutil")  # the hall, the command line


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(HOST).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _file_of(name: str) -> Path | None:
    base = HOST.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imports(name: str) -> set[str]:
    """The sagat modules module `name` imports anywhere in it (a package's `from . import x`: module x)."""
    path = _file_of(name)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names if _file_of(f"{base}.{a.name}")}
    return {m for m in found if m.split(".")[0] == "sagat" and _file_of(m)}


def _above(name: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in ABOVE)


def _graph(start: list[str]) -> dict[str, set[str]]:
    """Each module the start reaches: the modules it imports (those above the round not walked on)."""
    graph: dict[str, set[str]] = {}
    todo = list(start)
    while todo:
        name = todo.pop()
        if name not in graph and not _above(name):
            graph[name] = _imports(name)
            todo += graph[name]
    return graph




ROUND = sorted(_module_of(p) for p in (HOST / "sagat" / "round").rglob("*.py"))


def test_the_round_package_has_its_modules():
    assert {"sagat.round.folder", "sagat.round.report", "sagat.round.pgn", "sagat.round.trf",
            "sagat.round.pairings", "sagat.round.timeuse"} <= set(ROUND)


def test_the_round_package_reaches_nothing_of_the_hall_nor_the_command_line():
    graph = _graph(ROUND)
    above = sorted((m, n) for m, names in graph.items() for n in names if _above(n))
    assert not above, f"below the hall, yet importing above it: {above}"
    assert "sagat.log.verify" in graph["sagat.round.report"]  # (the walk sees the report's imports)


def test_no_import_circle_runs_through_the_round_package():
    graph = _graph(ROUND)
    for name in ROUND:
        seen, todo = set(), list(graph[name])
        while todo:  # every module name reaches: it never reaches name again
            m = todo.pop()
            assert m != name, f"{name} imports itself back (a circle)"
            if m not in seen:
                seen.add(m)
                todo += graph.get(m, ())
