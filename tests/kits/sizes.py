"""The size rule's one counter: a module's CODE lines, which the size guide limits (docs/design.md,
"Layers": no module over about MAX_CODE_LINES of them, host and firmware).

A code line is a line of the source with at least one token of code on it. Comments, blank lines
and docstrings (the string that opens a module, a class or a function) are not counted: a module
with one job and long explanations is fine, and a reason cut to meet the rule is a loss. A string
or a bracket spread over several lines counts each line it spans (it is code)."""

import ast
import io
import os
import tokenize

MAX_CODE_LINES = 450

_NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
             tokenize.ENCODING, tokenize.ENDMARKER}


def _docstring_lines(tree):
    """The lines of every docstring in the module (its own, its classes' and its functions')."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def code_lines(text):
    """The number of code lines of a module's source `text` (see the module's docstring)."""
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type not in _NOT_CODE:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return len(lines - _docstring_lines(ast.parse(text)))


def file_code_lines(path):
    with open(path, encoding="utf-8") as fh:
        return code_lines(fh.read())


def modules(root, package):
    """{module name: path} of every .py file under `root`, the package `package` (a dotted name)."""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
                out[package if rel == "__init__" else package + "." + rel.removesuffix(".__init__")] = path
    return out


def over(paths, limit=MAX_CODE_LINES):
    """{module: its code lines} of the modules in `paths` ({module: path}) over `limit`."""
    out = {}
    for mod, path in paths.items():
        n = file_code_lines(path)
        if n > limit:
            out[mod] = n
    return out
