"""The layers: core/ imports no front end; a lower layer never imports a higher one (providers
and the event vocabulary import neither the workflow nor the monologue)."""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path

from ..import_statements import named_modules

# -- a lower layer never imports a higher one ---------------------------------------------------

CORE = Path(__file__).resolve().parents[2] / "core"
HIGHER = ("agentui.core.workflow", "agentui.core.monologue")


def _module_name(path: Path) -> str:
    parts = path.relative_to(CORE.parent).with_suffix("").parts
    parts = ("agentui", "core", *parts[1:])
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module `path` names in an import statement (also under TYPE_CHECKING or inside a
    function), relative imports resolved, `from x import y` counted as x and x.y."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    return named_modules(ast.walk(ast.parse(path.read_text(encoding="utf-8"))), package)


def _higher(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == h or n.startswith(h + ".") for h in HIGHER))


MODULES = {_module_name(path): path for path in CORE.rglob("*.py")}


@functools.cache
def _all_imports() -> dict[str, set[str]]:
    """Read when a test asks, not as the module is collected (every test process collects it;
    parsing the whole package took 0.7 s of each one's start)."""
    return {name: _imports(path) for name, path in MODULES.items()}


def _loaded_with(roots: list[str]) -> set[str]:
    """The core modules importing `roots` can load: every import statement followed, those
    inside functions and under TYPE_CHECKING too, and the packages above each module."""
    loaded: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in loaded:
            continue
        loaded.add(name)
        for imported in _all_imports().get(name, ()):
            parts = imported.split(".")
            todo.extend(
                package
                for package in (".".join(parts[:end]) for end in range(2, len(parts) + 1))
                if package in MODULES and package not in loaded
            )
    return loaded


def test_the_import_reader_sees_relative_and_absolute_imports() -> None:
    sample = CORE / "providers" / "scripted" / "demo.py"
    names = _imports(sample)
    assert "agentui.core.protocol.conversation" in names and "agentui.core.providers.base" in names
    assert _higher({"agentui.core.workflow.prompts", "agentui.core.protocol.workflow_notes"}) == [
        "agentui.core.workflow.prompts"
    ]


def test_no_provider_module_imports_the_workflow_or_the_monologue() -> None:
    modules = sorted((CORE / "providers").rglob("*.py"))
    assert len(modules) > 10  # every backend's subpackage, not just the top
    found = {str(m.relative_to(CORE)): _higher(_imports(m)) for m in modules}
    assert {m: names for m, names in found.items() if names} == {}


def test_the_event_vocabulary_imports_neither_the_workflow_nor_the_monologue() -> None:
    assert _higher(_imports(CORE / "protocol" / "events.py")) == []


# Nor through what they import: loading every provider module and the events loads no module of
# the workflow or the monologue.
def test_providers_and_events_load_nothing_of_the_workflow_or_the_monologue() -> None:
    roots = [name for name in MODULES if name.startswith("agentui.core.providers")]
    loaded = _loaded_with([*roots, "agentui.core.protocol.events"])
    assert "agentui.core.providers.scripted.demo" in loaded and "agentui.core" in loaded
    assert _higher(loaded) == []


def test_no_core_module_imports_textual_or_tui() -> None:
    assert len(MODULES) > 50  # the walk found the whole package, subpackages included
    front = {
        name: sorted(
            n for n in names if n.split(".")[0] == "textual" or n.startswith("agentui.tui")
        )
        for name, names in _all_imports().items()
    }
    assert {name: found for name, found in front.items() if found} == {}


# The state sits below core/scene: it folds a scene with the fold scene_state.py registers, and
# keeps what it met before that module was loaded (a replayed log) until it is.
FOLD_A_SCENE_BEFORE_CORE_SCENE = """
import json, sys
from agentui.core.protocol.events import parse_event
from agentui.core.state import RunState
state = RunState()
for line in sys.stdin:
    state.apply(parse_event(line))
loaded_before = sorted(m for m in sys.modules if m.startswith("agentui.core.scene"))
before = {"roots": state.scene_roots, "scenes": len(state.scenes), "loaded": loaded_before}
import agentui.core.scene.scene_state
scene = state.scenes["a1"]
after = {"title": scene.file.title, "rounds": [r.number for r in scene.rounds]}
print(json.dumps([before, after]))
"""


def test_the_state_folds_a_scene_with_the_fold_core_scene_registers() -> None:
    events = [
        {"type": "agent:spawned", "agent_id": "a1", "parent_id": None, "name": "harbour",
         "task": "Harbour", "driver": "scene"},
        {"type": "scene:start", "agent_id": "a1", "source": "harbour.toml",
         "scene": {"title": "Harbour", "characters": [{"name": "Mara"}]}},
        {"type": "agent:spawned", "agent_id": "a2", "parent_id": "a1", "name": "round 1",
         "task": "Round 1", "driver": "round"},
        {"type": "round:start", "agent_id": "a2", "round": 1, "request": "continuation"},
    ]  # fmt: skip
    lines = "".join(
        json.dumps({**event, "seq": seq, "ts": 0.0}) + "\n" for seq, event in enumerate(events, 1)
    )
    done = subprocess.run(
        [sys.executable, "-c", FOLD_A_SCENE_BEFORE_CORE_SCENE],
        input=lines,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    before, after = json.loads(done.stdout)
    assert before == {"roots": ["a1"], "scenes": 0, "loaded": []}
    assert after == {"title": "Harbour", "rounds": [1]}
