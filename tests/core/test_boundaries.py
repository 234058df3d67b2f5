"""Boundaries between core's modules, checked from their source (no import is run):

- no import cycle among core's modules, counting every import statement, those under
  `if TYPE_CHECKING:` and inside functions too, and the package `__init__` that importing a
  submodule runs;
- the workflow knows the agent it runs for (its AgentRun), never the Runtime;
- the event vocabulary (core.protocol.events) depends on no feature package (core.scene,
  core.workflow, ...): only on core.protocol and core.support, so every front end can read
  events without them;
- a provider backend (core.providers.anthropic, .openai, .google) imports no other backend:
  what they share lives beside them in core.providers;
- nothing reaches into another object's private attributes: `x._name` where x is not `self` or
  `cls` only inside the class that defines `_name` (`other._x` in its own `__eq__`), and in the
  few places listed in ALLOWED_PRIVATE, each with its reason;
- core is in layers (LAYERS, lowest first): a module imports its own layer and those below,
  never one above, but for the imports listed in UPWARD, each with why and what would end it;
- the theme modules of the app are in no import cycle.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # core/ and tui/ are agentui.core and agentui.tui

# (module, expression) -> why it may read a private name of something else.
ALLOWED_PRIVATE: dict[tuple[str, str], str] = {
    ("core.support.termination", "os._exit"): "the standard library's exit without cleanup",
    ("core.tools.sandbox_child", "os._exit"): "the standard library's exit without cleanup",
    # EventBus and Subscription are one mechanism in one module: the bus fills a
    # subscription's queue, a closing subscription takes itself off the bus. Neither door is
    # for anyone else, so neither is public.
    ("core.bus", "subscription._push"): "the bus delivers into its own subscription",
    ("core.bus", "self._bus._unsubscribe"): "a subscription leaves the bus that made it",
    ("core.bus", "self._bus._recount"): "a subscription tells its bus whether it joins deltas",
    ("core.bus", "subscription._joinable"): "the bus asks its subscription if a delta joins",
    ("core.bus", "subscription._join"): "the bus joins a delta into its subscription's",
    ("core.bus", "subscriptions[0]._newest"): "the bus reads its own subscription's newest",
    # The module's factory finishes what it built before handing it out.
    # mcp 2.3 (pinned <3) has no public request without its all-or-nothing check of the answer,
    # nor a way to give its session a listing read otherwise; tests/mcp fail if these go.
    ("core.tools.mcp.unchecked", "session._stamp"): "mcp's header stamping for a raw request",
    ("core.tools.mcp.unchecked", "session._dispatcher"): "mcp's request without its check",
    ("core.tools.mcp.unchecked", "session._absorb_tool_listing"): "mcp's kept output schemas",
}


def module_name(path: Path) -> str:
    """core/agent/loop.py -> core.agent.loop (agentui.core.agent.loop, without `agentui.`)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules(top: str = "core") -> dict[str, ast.Module]:
    """Every module of core/ (or tui/), parsed."""
    return {
        module_name(path): ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted((ROOT / top).rglob("*.py"))
    }


def is_package(name: str) -> bool:
    return (ROOT.joinpath(*name.split(".")) / "__init__.py").exists()


def imported(name: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules of its own top package (core or tui) that an import statement of module
    `name` loads (by name, not by running)."""
    top = name.split(".")[0]
    package_name = f"agentui.{top}"
    known = modules(top)
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        if node.level:
            package = name.split(".") if is_package(name) else name.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, *([node.module] if node.module else [])])
        elif node.module is not None and node.module.startswith(package_name):
            base = top + node.module[len(package_name) :]
        else:
            return []
        # `from package import module` loads the module; `from module import name` the module.
        targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    out: list[str] = []
    for target in targets:
        if target.startswith(package_name):
            target = top + target[len(package_name) :]
        if target not in known:
            continue
        # Importing a.b.c runs a/__init__ and a/b/__init__ first.
        parts = target.split(".")
        out.extend(".".join(parts[:n]) for n in range(2, len(parts) + 1))
    return [t for t in out if t != name and not name.startswith(t + ".")]


@cache
def import_graph(top: str = "core") -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in modules(top)}
    for name, tree in modules(top).items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph[name].update(imported(name, node))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_graph_sees_core_whole() -> None:
    graph = import_graph()
    assert len(graph) > 50
    assert "core.agent.agent_run" in graph["core.runtime"]
    assert "core.protocol.events" in graph["core.agent.agent_run"]
    # `from . import prompts` is an edge to the module; importing a submodule runs its package.
    assert "core.workflow.prompts" in graph["core.workflow.six_step"]
    assert {"core.providers", "core.providers.base"} <= graph["core.agent.agent_run"]


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle_in_core() -> None:
    assert cycles(import_graph()) == []


def test_the_workflow_does_not_import_the_runtime() -> None:
    graph = import_graph()
    for name, targets in graph.items():
        if name.startswith("core.workflow"):
            assert "core.runtime" not in targets, name


def test_the_event_vocabulary_depends_on_no_feature_package() -> None:
    beneath = ("core.protocol", "core.support")
    packages = {
        target
        for target in import_graph()["core.protocol.events"]
        if not any(target == b or target.startswith(b + ".") for b in beneath)
    }
    assert packages == set(), "events.py imports modules above the protocol and support"


# -- layers ------------------------------------------------------------------------------------

# core's layers, lowest first: each may import its own and the ones below it. The order is the
# one the code has; where it differs from DESIGN.md's listing, the comment says why.
LAYERS: tuple[tuple[str, ...], ...] = (
    # The vocabulary (events, payloads) and small helpers anyone may use. support's pricing
    # reads protocol's Usage, so the two are one layer.
    ("core.protocol", "core.support"),
    ("core.bus",),  # carries events; knows nothing else
    ("core.providers",),  # a model behind one interface
    ("core.tools",),  # what a model may call: a tool's spec is the providers' ToolSpec
    ("core.profiles",),  # what an agent is set up as (its prompt, tools, answer contract)
    # One agent's life. Above providers, tools, profiles and the bus, not below them as
    # DESIGN.md lists it: its loop streams from the Provider, runs tools from the registry,
    # emits on the bus, and its run reads its profile.
    ("core.agent",),
    ("core.workflow",),  # drives an agent's run (six steps, structured decisions)
    # One run of one agent (and its answer held to its profile's contract); the facade that
    # starts them.
    ("core.execution", "core.profile_contract", "core.runtime"),
    ("core.state",),  # the one fold of events
    # Features that drive or watch a runtime, so above it (DESIGN.md lists them beside
    # providers): a scene's rounds start agents on the Runtime and read the fold; the monologue
    # attaches to the Runtime's bus; the stall watch folds its events.
    ("core.scene", "core.monologue", "core.attention"),
    # Settings, validated: they gather each feature's own section (agent limits, provider keys,
    # MCP servers, profiles, monologue, scenes), so they sit above the features (DESIGN.md
    # lists config low); nothing in core imports them.
    ("core.config",),
    ("core.session", "core.remote", "core.acp"),  # the runtime saved, served, spoken to
    ("core",),  # the package itself (its version)
)

# (importer, imported) -> why an import runs upward, and what would end it. The import of a
# module counts its packages' __init__ too.
UPWARD: dict[tuple[str, str], str] = {
    # A profile's budget is the agents' Budget value (pure pydantic, imports only support):
    # moving Budget and its parsing from core/agent/budget.py to core/protocol ends it.
    ("core.profiles.profile", "core.agent.budget"): "a profile's budget is the Budget value",
}


def layer_of(name: str) -> int:
    """The index in LAYERS of the deepest entry that is `name` or a package of it."""
    found = [
        (len(entry), index)
        for index, layer in enumerate(LAYERS)
        for entry in layer
        if name == entry or name.startswith(entry + ".")
    ]
    assert found, f"{name} is in no layer: add its package to LAYERS"
    return max(found)[1]


def upward_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every (importer, imported) where the imported module is in a higher layer."""
    return {
        (name, target)
        for name, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(name)
    }


def excused(found: tuple[str, str], listed: dict[tuple[str, str], str] = UPWARD) -> bool:
    """An upward import listed in UPWARD (or the package __init__ such an import runs)."""
    name, target = found
    return any(
        name == importer and (target == imported or imported.startswith(target + "."))
        for importer, imported in listed
    )


def test_every_core_module_is_in_one_layer() -> None:
    entries = [entry for layer in LAYERS for entry in layer]
    assert len(entries) == len(set(entries))
    for name in import_graph():
        layer_of(name)  # raises, naming the module, if it has none
    assert layer_of("core.agent.loop") > layer_of("core.providers.base") > layer_of("core.bus")


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = {
        "core.bus": {"core.protocol.events"},
        "core.providers.base": {"core.runtime", "core.support.clock"},
        "core.state.run_state": {"core.scene", "core.scene.scene_state", "core.agent.tree"},
    }
    assert upward_imports(graph) == {
        ("core.providers.base", "core.runtime"),
        ("core.state.run_state", "core.scene"),
        ("core.state.run_state", "core.scene.scene_state"),
    }
    listed = {("core.providers.base", "core.runtime.thing"): "an example"}
    assert excused(("core.providers.base", "core.runtime"), listed)  # a listed import's package
    assert not excused(("core.providers.base", "core.runtime.other"), listed)


def test_no_core_module_imports_a_higher_layer() -> None:
    found = upward_imports(import_graph())
    assert sorted(f for f in found if not excused(f)) == []


def test_every_listed_upward_import_is_still_there() -> None:
    found = upward_imports(import_graph())
    assert sorted(pair for pair in UPWARD if pair not in found) == [], "take it off UPWARD"


def test_the_theme_modules_are_in_no_import_cycle() -> None:
    graph = import_graph("tui")
    assert "tui.app.theme_check" in graph["tui.app.theme_files"]  # it checks a person's files
    assert "tui.app.theme_variables" in graph["tui.app.theme_check"]
    themes = ("tui.app.theme_files", "tui.app.theme_check", "tui.app.theme_variables")
    assert [c for c in cycles(graph) if set(themes) & set(c)] == []


BACKENDS = ("core.providers.anthropic", "core.providers.openai", "core.providers.google")


def test_no_provider_backend_imports_another() -> None:
    for name, targets in import_graph().items():
        own = next((b for b in BACKENDS if name == b or name.startswith(b + ".")), None)
        if own is None:
            continue
        others = {t for t in targets for b in BACKENDS if b != own and t.startswith(b)}
        assert others == set(), f"{name} imports another backend's modules"


def private_names(cls: ast.ClassDef) -> set[str]:
    """Private names a class defines: methods, class attributes, `self._x = ...`."""
    names: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            names.add(node.attr)
    return {name for name in names if name.startswith("_")}


def private_reaches(name: str, tree: ast.Module) -> list[str]:
    """Every `x._name` in the module where x is not self/cls, outside a class that defines
    `_name` itself (its methods may use another instance's: `other._x` in `__eq__`)."""
    found: list[str] = []

    def visit(node: ast.AST, own: set[str]) -> None:
        if isinstance(node, ast.ClassDef):
            own = private_names(node)
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            dunder = node.attr.startswith("__") and node.attr.endswith("__")
            on_self = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            expression = ast.unparse(node)
            if not (dunder or on_self or node.attr in own or (name, expression) in ALLOWED_PRIVATE):
                found.append(f"{name}:{node.lineno}: {expression}")
        for child in ast.iter_child_nodes(node):
            visit(child, own)

    visit(tree, set())
    return found


def test_no_module_reaches_into_another_s_privates() -> None:
    found = [reach for name, tree in modules().items() for reach in private_reaches(name, tree)]
    assert found == []


def test_the_privacy_check_catches_a_reach() -> None:
    source = """
class Mine:
    def __init__(self):
        self._mine = 1

    def same(self, other):
        return other._mine == self._mine

class Host:
    def emit(self):
        self._runtime._bus.emit()

def use(mine):
    return mine._mine
"""
    assert private_reaches("core.example", ast.parse(source)) == [
        "core.example:11: self._runtime._bus",
        "core.example:14: mine._mine",
    ]
