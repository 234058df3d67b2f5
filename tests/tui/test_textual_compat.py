"""Textual's private parts are reached only from tui/app/textual_compat.py.

Elsewhere in tui/: no import of a private Textual module (`textual._xterm_parser`,
`textual.widgets._footer`), and no `._name` reach on an object when `_name` is private in
Textual and not agentui's own (an attribute or method agentui's code defines on itself).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import textual

import agentui.tui

TUI = Path(next(iter(agentui.tui.__path__)))
COMPAT = TUI / "app" / "textual_compat.py"

# (file relative to tui/, receiver, name): reaches that are Textual's documented way.
DOCUMENTED = {
    # Textual's TextArea guide customises key handling by overriding `_on_key` and calling
    # the TextArea's own for the keys it does not take.
    ("app/widgets/composer.py", "super()", "_on_key"),
    # textual-serve's Server (not Textual): GuardedServer wraps its message loop to know the
    # open sockets; web.py says why.
    ("cli/web.py", "super()", "_process_messages"),
}


def _private_names_defined(root: Path) -> frozenset[str]:
    """`_name`s the code under `root` defines: methods, attributes set on self, class names."""
    names: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)  # class-level attributes (reactives, caches)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__"))


@cache
def _textual_private() -> frozenset[str]:
    return _private_names_defined(Path(next(iter(textual.__path__))))


@cache
def _agentui_own() -> frozenset[str]:
    return _private_names_defined(TUI)


def _reaches(source: str, where: str) -> list[str]:
    """Each private reach into Textual in `source` (the file `where`, relative to tui/)."""
    found: list[tuple[int, str]] = []
    tree = ast.parse(source)
    # Modules other than Textual's (`os._exit` is not a reach into Textual).
    other_modules = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if not alias.name.startswith("textual")
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom | ast.Import):
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            modules += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            for module in modules:
                parts = module.split(".")
                if parts[0] == "textual" and any(p.startswith("_") for p in parts):
                    found.append((node.lineno, f"imports {module}"))
        elif isinstance(node, ast.Attribute):
            name = node.attr
            if not name.startswith("_") or name.startswith("__") or name not in _textual_private():
                continue
            receiver = ast.unparse(node.value)
            if (where, receiver, name) in DOCUMENTED or receiver in other_modules:
                continue
            if receiver in ("self", "cls") and name in _agentui_own():
                continue  # agentui's own attribute or method, on itself
            found.append((node.lineno, f"{receiver}.{name}"))
    return [f"{where}:{line}: {reach}" for line, reach in sorted(found)]


def test_only_textual_compat_reaches_into_textual_s_privates() -> None:
    found = [
        reach
        for path in sorted(TUI.rglob("*.py"))
        if path != COMPAT
        for reach in _reaches(path.read_text("utf-8"), path.relative_to(TUI).as_posix())
    ]
    assert found == []


def test_the_check_sees_each_kind_of_reach() -> None:
    code = (
        "from textual.widgets._footer import FooterKey\n"
        "def f(self, node, footer):\n"
        "    node._updates += 1\n"
        "    footer.app._unnotify(None)\n"
        "    self._refresh_notifications()\n"
    )
    assert [reach.split(": ", 1)[1] for reach in _reaches(code, "app/sample.py")] == [
        "imports textual.widgets._footer",
        "node._updates",
        "footer.app._unnotify",
        "self._refresh_notifications",
    ]
