"""Collecting the suite imports no model or protocol SDK: every pytest-xdist worker collects every
test module, so an SDK a test module imports at module level (directly, or through an agentui or
test helper module that imports it at module level) costs every worker its import time, also the
workers that never run those tests. The tests that need an SDK import it in their body or
fixture. Read statically (ast), without starting an interpreter that collects the suite."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from ..import_statements import named_modules

ROOT = Path(__file__).resolve().parents[2]
# The folders setuptools maps to the package (pyproject's package-dir), and the tests.
PACKAGES = {"agentui.core": ROOT / "core", "agentui.tui": ROOT / "tui", "tests": ROOT / "tests"}
SDKS = frozenset(
    {"anthropic", "openai", "acp", "google", "mcp", "mcp_types", "aiohttp", "fastapi",
     "openapi_python_client"}
)  # fmt: skip
# Test helpers that still import FastAPI (agentui.core.remote.server) at module level, and the
# test modules that import it directly: not followed until they import the server where they
# use it (then remove them here, so the check covers them too).
NOT_YET_LAZY = frozenset(
    {
        "tests.remote.server_fixture",
        "tests.remote.answering_server",
        "tests.remote.test_event_stream",
        "tests.remote.test_openapi_document",
        "tests.remote.test_stalled_clients",
    }
)


def _module_name(package: str, folder: Path, path: Path) -> str:
    parts = (*package.split("."), *path.relative_to(folder).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_time_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that run when the module is imported: not function bodies (they run when
    called), not `if TYPE_CHECKING:` blocks; class bodies, try and other if blocks do run."""
    found: list[ast.stmt] = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                found += _import_time_statements(node.body)
            found += _import_time_statements(node.orelse)
        elif isinstance(node, ast.ClassDef):
            found += _import_time_statements(node.body)
        elif isinstance(node, (ast.Try, ast.TryStar)):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse):
                found += _import_time_statements(block)
            found += _import_time_statements(node.finalbody)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            found += _import_time_statements(node.body)
        else:
            found.append(node)
    return found


def _module_level_imports(name: str, path: Path) -> set[str]:
    """Every module `path` imports when it is imported, relative imports resolved, `from x
    import y` counted as x and x.y (y may be a submodule)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return named_modules(_import_time_statements(tree.body), package)


@cache
def _modules() -> dict[str, Path]:
    """Every module of the project by name (read when a test asks: at collection, every
    worker would parse the whole tree)."""
    return {
        _module_name(package, folder, path): path
        for package, folder in PACKAGES.items()
        for path in folder.rglob("*.py")
        if "__pycache__" not in path.parts
    }


@cache
def _imports() -> dict[str, set[str]]:
    return {name: _module_level_imports(name, path) for name, path in _modules().items()}


def _sdks_loaded_by(root: str) -> dict[str, str]:
    """Each SDK importing `root` loads, with the chain of project modules that loads it (the
    packages above every module imported count: Python runs their __init__ first)."""
    sdks: dict[str, str] = {}
    loaded_by: dict[str, str | None] = {root: None}
    todo = [root]
    while todo:
        name = todo.pop()
        if name in NOT_YET_LAZY:
            continue
        for imported in sorted(_imports().get(name, ())):
            parts = imported.split(".")
            if parts[0] in SDKS and parts[0] not in sdks:
                chain = [name]
                while (parent := loaded_by[chain[-1]]) is not None:
                    chain.append(parent)
                sdks[parts[0]] = " <- ".join(chain)
            for package in (".".join(parts[:end]) for end in range(1, len(parts) + 1)):
                if package in _modules() and package not in loaded_by:
                    loaded_by[package] = name
                    todo.append(package)
    return sdks


def _collected(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return last.startswith("test_") or last.endswith("_test") or last == "conftest"


def test_the_reader_sees_imports_that_run_at_import_time_only() -> None:
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "import json\n"
        "if TYPE_CHECKING:\n    import anthropic\n"
        "try:\n    import aiohttp\nexcept ImportError:\n    pass\n"
        "class Holder:\n    from . import sibling\n"
        "def later() -> None:\n    import openai\n"
    )
    path = ROOT / "tests" / "core" / "reader_sample.py"
    tree = ast.parse(source)
    names = {
        getattr(alias, "name", "")
        for node in _import_time_statements(tree.body)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert names == {"annotations", "TYPE_CHECKING", "json", "aiohttp", "sibling"}
    assert _module_name("tests", ROOT / "tests", path) == "tests.core.reader_sample"


def test_the_walk_follows_agentui_modules_to_the_sdks_they_import() -> None:
    assert "agentui.core.providers.openai" in _modules() and "tests.conftest" in _modules()
    # a provider imports its SDK at module level: reaching it through the package is seen
    assert "openai" in _sdks_loaded_by("agentui.core.providers.openai.provider")


def test_collecting_a_test_module_imports_no_sdk() -> None:
    collected = sorted(name for name in _modules() if _collected(name))
    assert len(collected) > 100  # the walk found the whole suite, subfolders included
    found = {name: _sdks_loaded_by(name) for name in collected}
    offenders = {name: sdks for name, sdks in found.items() if sdks}
    assert offenders == {}, "\n".join(f"{n}: {s}" for n, s in offenders.items())
