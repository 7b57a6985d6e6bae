"""The hall package's face (host/sagat/hall/__init__.py): it defines nothing of its own, only
re-exports what `sagat hall` needs (run, StartError, wants_browser from serve.py), so no module of
the hall imports its own package back for a constant or a function (the import circle it was)."""

from __future__ import annotations

import ast
from pathlib import Path

import sagat.hall as hall
from sagat.hall import serve


def _defined(tree: ast.Module) -> set[str]:
    """The names a module's own top-level statements define (imports, its docstring and __all__ aside)."""
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        else:
            out.add(f"<{type(node).__name__} at line {node.lineno}>")  # (code run at import: not a face's)
    return out


def test_the_hall_package_defines_nothing_but_what_it_re_exports():
    tree = ast.parse(Path(hall.__file__).read_text(encoding="utf-8"))
    assert not _defined(tree), _defined(tree)
    assert set(hall.__all__) == {"run", "StartError", "wants_browser"}  # (what commands/hall.py uses)
    for name in hall.__all__:
        assert getattr(hall, name) is getattr(serve, name), name  # serve.py's own, not a copy


def test_no_hall_module_imports_its_package_for_a_name_of_the_face():
    # `from . import NAME` in a module of the hall names a module of it, never a name the face holds
    # (NAME_RE was the face's, imported back by core.py and mqtt.py)
    here = Path(hall.__file__).parent
    modules = {p.stem for p in here.glob("*.py")} | {p.name for p in here.iterdir() if (p / "__init__.py").exists()}
    back = []
    for path in sorted(here.glob("*.py")):
        if path.name == "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
                back += [(path.name, a.name) for a in node.names if a.name not in modules]
    assert back == []
