"""The modules a list of import statements names, as the static import checks read them
(tests/core/test_layers.py, tests/core/test_collection_imports.py)."""

from __future__ import annotations

import ast
from collections.abc import Iterable


def named_modules(statements: Iterable[ast.AST], package: list[str]) -> set[str]:
    """Every module the import statements among `statements` name, relative imports resolved
    against `package` (the importing module's package, as parts), `from x import y` counted as
    x and x.y (y may be a submodule)."""
    names: set[str] = set()
    for node in statements:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names
