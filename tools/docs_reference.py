"""The manual's reference pages, made from the code that defines them (never written twice).

mkdocs-gen-files runs this file at every `mkdocs build` (mkdocs.yml's gen-files plugin) and it
writes docs/reference/*.md into the build only: the settings from the config models' field
descriptions (core/config/settings.py), the keys from the keymap (tui/app/keymap.py), the HTTP
API from the server's OpenAPI document (core/remote/server.py), the events from their classes'
docstrings (core/protocol/events.py), the commands from their argument parsers (tui/cli) and
the Runtime API from the Google-style docstrings (`Args:`, `Returns:`, `Raises:`) of the port
(core/protocol/commands.py) and of Runtime (core/runtime.py), read with `inspect`.

Each source also lists its entries with their descriptions (`settings()`, `keys()`,
`endpoints()`, `event_types()`, `commands()`, `runtime_api()`): tests/core/test_docs_reference.py
fails when one has none, and when a Runtime or port method's docstring leaves out an argument
or what it returns (`ApiMember.undescribed`).
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

# -- entries -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One documented thing: its name and its description ("" when the code gives none)."""

    name: str
    description: str


# -- settings ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SettingRow:
    key: str  # dotted, as `agentui config show` names it; MODEL / NAME stand for a table's keys
    kind: str
    default: str
    description: str
    variable: str


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _kind(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """A short type for a JSON Schema: `int`, `"ask" | "yes"`, `list of str`, `number | none`."""
    schema = _resolve(schema, defs)
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if "anyOf" in schema:
        return " | ".join(dict.fromkeys(_kind(part, defs) for part in schema["anyOf"]))
    kind = str(schema.get("type", "any"))
    if kind == "array":
        return f"list of {_kind(schema.get('items', {}), defs)}"
    if kind == "object" and "properties" not in schema:
        return f"table of {_kind(schema.get('additionalProperties', {}), defs)}"
    return {"integer": "int", "number": "number", "string": "str", "boolean": "bool"}.get(
        kind, kind
    )


def _table_of_models(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any] | None:
    """The model a table's values are (`[prices.MODEL]`, `[mcp.servers.NAME]`), if they are."""
    values = _resolve(schema, defs).get("additionalProperties")
    if not isinstance(values, dict):
        return None
    model = _resolve(values, defs)
    return model if "properties" in model else None


def _setting_rows(
    model: dict[str, Any], defs: dict[str, Any], prefix: str, variables: dict[str, str]
) -> Iterator[SettingRow]:
    for name, field in model["properties"].items():
        key = f"{prefix}{name}"
        target = _resolve(field, defs)
        placeholder = {"prices": "MODEL", "servers": "NAME", "tools": "TOOL"}.get(name, "KEY")
        values = _table_of_models(field, defs)
        if "properties" in target:  # a table of settings of its own: [limits], [attention]
            yield from _setting_rows(target, defs, f"{key}.", variables)
        elif values is not None:
            yield SettingRow(key, "table", "{}", field.get("description", ""), "")
            yield from _setting_rows(values, defs, f"{key}.{placeholder}.", variables)
        else:
            if "default" in field:
                default = json.dumps(field["default"])
            elif name in model.get("required", ()):
                default = "required"
            else:  # made by a default_factory, which the schema does not show
                default = json.dumps(_made_default(key, target))
            yield SettingRow(
                key,
                _kind(field, defs),
                default,
                field.get("description", ""),
                variables.get(key, ""),
            )


def _made_default(key: str, schema: dict[str, Any]) -> Any:
    """A key's default as a Config made with no settings holds it; under a table's NAME, which
    no such Config has, an empty list or table."""
    from agentui.core.config.settings import Config

    value: Any = Config().model_dump(mode="json")
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return [] if schema.get("type") == "array" else {}
        value = value[part]
    return value


def setting_rows() -> list[SettingRow]:
    """Every key of config.toml, in the models' order."""
    from agentui.core.config.settings import ENV_VARIABLES, Config

    schema = Config.model_json_schema()
    return list(_setting_rows(schema, schema.get("$defs", {}), "", ENV_VARIABLES))


def settings() -> list[Entry]:
    return [Entry(row.key, row.description) for row in setting_rows()]


def config_page() -> str:
    lines = [
        "# Config keys",
        "",
        "Every key of `config.toml`, made from the settings models' field descriptions",
        "(`core/config/settings.py` and the models it gathers). How the file, the variables and",
        "the flags combine: [Config](../guide/config.md). `MODEL`, `NAME` and `TOOL` stand for a",
        'table\'s own keys (`[prices."claude-sonnet-4-6"]`, `[mcp.servers.files]`).',
        "",
        "| key | type | default | variable | description |",
        "|---|---|---|---|---|",
    ]
    for row in setting_rows():
        variable = f"`{row.variable}`" if row.variable else ""
        lines.append(
            f"| `{row.key}` | {_cell(row.kind)} | `{_cell(row.default)}` | {variable} "
            f"| {_cell(row.description)} |"
        )
    return "\n".join(lines) + "\n"


# -- keys ----------------------------------------------------------------------------------


def key_rows() -> list[tuple[str, str, str]]:
    """(keys, where, does) as the help screen lists them."""
    from agentui.tui.app.keymap import DEFAULT_KEY_MAP

    return DEFAULT_KEY_MAP.help_rows()


def key_ids() -> list[Entry]:
    """The ids config.toml's [keys] table may give other keys, with their descriptions."""
    from agentui.tui.app.keymap import KEYS

    return [Entry(key.id, key.description) for key in KEYS]


def keys() -> list[Entry]:
    return [Entry(f"{key} ({where})", does) for key, where, does in key_rows()] + key_ids()


def keys_page() -> str:
    from agentui.tui.app.keymap import KEYS, display_key

    lines = [
        "# Keys",
        "",
        "Every key, where it works and what it does: the help screen's list (`?`), made from",
        "the app's keymap (`tui/app/keymap.py`). How typing and keys share the screen:",
        "[Keys](../guide/keys.md).",
        "",
        "| key | where | does |",
        "|---|---|---|",
    ]
    lines += [f"| `{_cell(k)}` | {where} | {_cell(does)} |" for k, where, does in key_rows()]
    lines += [
        "",
        "## Ids for `[keys]`",
        "",
        "config.toml's `[keys]` table gives an id other keys, comma separated",
        '(`cancel = "c,k"`).',
        "",
        "| id | built in | where | does |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| `{key.id}` | `{_cell(', '.join(display_key(k) for k in key.key.split(',')))}` "
        f"| {key.scope} | {_cell(key.description)} |"
        for key in KEYS
    ]
    return "\n".join(lines) + "\n"


# -- the HTTP API --------------------------------------------------------------------------


def openapi_document() -> dict[str, Any]:
    """The document `GET /openapi.json` answers, from a server that is never started."""
    from agentui.core.providers.scripted.provider import ScriptedProvider
    from agentui.core.remote.event_log import EventLog
    from agentui.core.remote.server import ServerOptions, create_app
    from agentui.core.runtime import Runtime

    app: Any = create_app(Runtime(ScriptedProvider()), EventLog(), ServerOptions(token="docs"))
    while not hasattr(app, "openapi"):  # under its middleware (auth.Guard)
        app = app.app
    document: dict[str, Any] = app.openapi()
    return document


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            yield method.upper(), path, operation


def _given_summary(operation: dict[str, Any]) -> str:
    """The summary the route was given: FastAPI makes one of the function's name otherwise."""
    summary: str = operation.get("summary", "")
    made_up = operation.get("operationId", "").replace("_", " ").title()
    return "" if summary == made_up else summary


def endpoints() -> list[Entry]:
    return [
        Entry(f"{method} {path}", _given_summary(op) or op.get("description", ""))
        for method, path, op in _operations(openapi_document())
    ]


def api_page() -> str:
    document = openapi_document()
    lines = [
        "# HTTP API",
        "",
        "Made from the OpenAPI document `agentui serve` answers at `GET /openapi.json`",
        "(`core/remote/server.py`). How to serve, attach and call it:",
        "[Serve, attach and web](../guide/serve.md). Every call needs the bearer token.",
        "",
    ]
    for method, path, op in _operations(document):
        lines += [f"## `{method} {path}`", "", _given_summary(op) or op.get("summary", ""), ""]
        if op.get("description"):
            lines += [op["description"], ""]
        parameters = op.get("parameters", [])
        if parameters:
            lines += ["| parameter | in | required |", "|---|---|---|"]
            lines += [
                f"| `{p['name']}` | {p['in']} | {'yes' if p.get('required') else 'no'} |"
                for p in parameters
            ]
            lines.append("")
        body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        if body:
            lines += [f"Body: `{_schema_name(body.get('schema', {}))}`", ""]
        lines += ["| status | answer |", "|---|---|"]
        lines += [
            f"| {status} | {_cell(response.get('description', ''))} |"
            for status, response in op.get("responses", {}).items()
        ]
        lines.append("")
    lines += ["## The document", "", "```json", json.dumps(document, indent=2), "```", ""]
    return "\n".join(lines)


def _schema_name(schema: dict[str, Any]) -> str:
    return str(schema.get("$ref", "").rsplit("/", 1)[-1] or schema.get("type", "object"))


# -- events --------------------------------------------------------------------------------


def _event_classes() -> list[type[Any]]:
    """Every event, in the order of the vocabulary's union (some are defined in modules of
    their own, which the fold loads without the rest)."""
    import typing

    from agentui.core.protocol import events

    (members, _discriminator) = typing.get_args(events.AnyEvent)
    return list(typing.get_args(members))


def _own_docstring(cls: type[Any]) -> str:
    """The class's own docstring (pydantic's BaseModel and Event's base one are not its own)."""
    doc = cls.__dict__.get("__doc__") or ""
    return " ".join(doc.split())


def event_types() -> list[Entry]:
    return [
        Entry(cls.model_fields["type"].default, _own_docstring(cls)) for cls in _event_classes()
    ]


def events_page() -> str:
    lines = [
        "# Events",
        "",
        "The typed event vocabulary (`core/protocol/events.py`): every change of state in the",
        "runtime is one of these. Each also has `seq` (one more per event within a runtime), `ts`",
        "(wall-clock seconds) and `agent_id`. The session log, `agentui run --json`, the HTTP",
        "API's streams and the app all carry them.",
        "",
    ]
    for cls in _event_classes():
        lines += [f"## `{cls.model_fields['type'].default}`", "", _own_docstring(cls), ""]
        fields = [
            name for name in cls.model_fields if name not in ("type", "seq", "ts", "agent_id")
        ]
        if fields:
            lines += ["Fields: " + ", ".join(f"`{name}`" for name in fields), ""]
    return "\n".join(lines)


# -- the command line ----------------------------------------------------------------------


class _Parsed(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser


@contextlib.contextmanager
def _parsers_caught() -> Iterator[None]:
    """Each command builds its parser and parses: the first parse raises _Parsed, with it."""

    def caught(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> Any:
        raise _Parsed(self)

    saved = argparse.ArgumentParser.parse_known_args
    argparse.ArgumentParser.parse_known_args = caught  # type: ignore[method-assign]
    try:
        yield
    finally:
        argparse.ArgumentParser.parse_known_args = saved  # type: ignore[method-assign]


def _parser_of(command: Callable[..., int], *args: Any) -> argparse.ArgumentParser:
    with _parsers_caught():
        try:
            command(*args)
        except _Parsed as parsed:
            return parsed.parser
    raise RuntimeError(f"{command!r} parsed no arguments")


def parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """`agentui` (the app) and each of its commands, with the parser that reads its options."""
    from agentui.tui.cli.app_command import main as app
    from agentui.tui.cli.main import COMMANDS

    found = [("agentui", _parser_of(app, [], list(COMMANDS)))]
    found += [(f"agentui {name}", _parser_of(command, [])) for name, command in COMMANDS.items()]
    return found


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action._choices_actions


def commands() -> list[Entry]:
    """Each command, subcommand and option, with its help text."""
    found: list[Entry] = []
    for name, parser in parsers():
        found.append(Entry(name, parser.description or ""))
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if isinstance(action, argparse._SubParsersAction):
                found += [
                    Entry(f"{name} {sub.dest}", sub.help or "") for sub in action._choices_actions
                ]
                continue
            label = "/".join(action.option_strings) or action.dest
            found.append(Entry(f"{name} {label}", action.help or ""))
    return found


def cli_page() -> str:
    lines = [
        "# Command line",
        "",
        "Each command's `--help`, made from its argument parser (`tui/cli`).",
        "",
    ]
    for name, parser in parsers():
        lines += [f"## `{name}`", "", "```", _help_text(parser), "```", ""]
    return "\n".join(lines)


def _help_text(parser: argparse.ArgumentParser) -> str:
    """`--help` as a 100-column terminal shows it, wherever the manual is built."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps to this
    try:
        return parser.format_help().rstrip()
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


# -- the runtime's API ---------------------------------------------------------------------

_SECTION = re.compile(r"^(Args|Returns|Raises):\s*$")
_ENTRY = re.compile(r"^(\*{0,2}\w+)(?: \([^)]*\))?:(?: (.*))?$")


@dataclass(frozen=True, slots=True)
class Docstring:
    """A Google-style docstring: its text, then its `Args:`, `Returns:` and `Raises:`."""

    summary: str
    args: dict[str, str]  # parameter name (without its stars) -> what it is
    returns: str
    raises: dict[str, str]  # exception class -> when


def _entries(lines: Sequence[str]) -> dict[str, str]:
    """`name: text` entries, a line each, continued by the lines indented under them."""
    entries: dict[str, str] = {}
    name, indent = "", None
    for line in lines:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        entry = _ENTRY.match(line.strip())
        if entry is not None and (indent is None or depth == indent):
            indent, name = depth, entry.group(1).lstrip("*")
            entries[name] = entry.group(2) or ""
        elif name:
            entries[name] += " " + line.strip()
    return entries


def parse_docstring(doc: str | None) -> Docstring:
    sections: dict[str, list[str]] = {}
    summary: list[str] = []
    current = summary
    for line in inspect.cleandoc(doc or "").splitlines():
        section = _SECTION.match(line)
        if section is not None:
            current = sections.setdefault(section.group(1), [])
        else:
            current.append(line)
    return Docstring(
        "\n".join(summary).strip(),
        _entries(sections.get("Args", [])),
        " ".join(" ".join(sections.get("Returns", [])).split()),
        _entries(sections.get("Raises", [])),
    )


@dataclass(frozen=True, slots=True)
class ApiMember:
    """A public method or property of the runtime or of the port, with its docstring."""

    owner: str
    name: str
    signature: str  # as Python declares it: `def start(task: str, ...) -> str`
    parameters: tuple[str, ...]  # what its `Args:` must describe (without stars)
    returns_something: bool  # so its `Returns:` must say what
    doc: Docstring

    @property
    def undescribed(self) -> list[str]:
        """What its docstring leaves out: a parameter without its `Args:` entry, a value
        returned without `Returns:`."""
        missing = [f"Args: {name}" for name in self.parameters if name not in self.doc.args]
        if self.returns_something and not self.doc.returns:
            missing.append("Returns")
        return missing


def _api_classes() -> list[tuple[type[Any], str]]:
    """The port's protocols (what front ends drive) and the local Runtime, with where each is."""
    from agentui.core.protocol import commands
    from agentui.core.runtime import Runtime

    port = "core/protocol/commands.py"
    return [
        (commands.RuntimePort, port),
        (commands.AttachedPort, port),
        (commands.EventStream, port),
        (commands.ProviderLabel, port),
        (commands.ProfileProblems, port),
        (Runtime, "core/runtime.py"),
    ]


_SPECIAL = ("__init__", "__aenter__", "__aexit__")


def _default(value: Any, module: Any) -> str:
    """A default as the code names it: a long constant by its name, `...` as itself."""
    if value is Ellipsis:
        return "..."
    if isinstance(value, str) and len(value) > 40:
        for name, known in vars(module).items():
            if name.isupper() and known is value:
                return name
    return repr(value)


def _signature(cls: type[Any], name: str, function: Callable[..., Any]) -> tuple[str, list[str]]:
    """The declaration (`async def name(...) -> T`, one parameter a line when long) and the
    names of the parameters its docstring must describe."""
    module = inspect.getmodule(cls)
    signature = inspect.signature(function)
    parts: list[str] = []
    described: list[str] = []
    marked = False
    bound = not isinstance(inspect.getattr_static(cls, name), staticmethod)
    for parameter in list(signature.parameters.values())[bound:]:  # after self
        if parameter.kind is parameter.KEYWORD_ONLY and not marked:
            parts.append("*")
        marked = marked or parameter.kind in (parameter.KEYWORD_ONLY, parameter.VAR_POSITIONAL)
        stars = {parameter.VAR_POSITIONAL: "*", parameter.VAR_KEYWORD: "**"}
        text = stars.get(parameter.kind, "") + parameter.name
        if parameter.annotation is not parameter.empty:
            text += f": {parameter.annotation}"
        if parameter.default is not parameter.empty:
            text += f" = {_default(parameter.default, module)}"
        parts.append(text)
        described.append(parameter.name)
    returned = signature.return_annotation
    if name == "__init__":  # as it is called: `Runtime(provider, ...)`
        head, title, tail = "", cls.__name__, ""
    else:
        head = "async def " if inspect.iscoroutinefunction(function) else "def "
        title = name
        tail = f" -> {returned}" if returned is not signature.empty else ""
    line = f"{head}{title}({', '.join(parts)}){tail}"
    if len(line) > 90:
        inner = "".join(f"\n    {part}," for part in parts)
        line = f"{head}{title}({inner}\n){tail}"
    return line, described


def _defined_in(function: Callable[..., Any], cls: type[Any]) -> bool:
    """Written in the class itself (a Protocol gets an `__init__` of typing's own)."""
    return function.__qualname__.startswith(f"{cls.__name__}.")


def api_members() -> list[ApiMember]:
    """Every public method and property the port's protocols and Runtime define themselves
    (an inherited one is its own class's), in the order they are defined."""
    found = []
    for cls, _ in _api_classes():
        for name, value in vars(cls).items():
            if name.startswith("_") and name not in _SPECIAL:
                continue
            if isinstance(value, property) and value.fget is not None:
                returned = inspect.signature(value.fget).return_annotation
                signature = f"{name}: {returned}  # read-only"
                found.append(ApiMember(cls.__name__, name, signature, (), False,
                                       parse_docstring(value.__doc__)))  # fmt: skip
                continue
            function = value.__func__ if isinstance(value, staticmethod) else value
            if not inspect.isfunction(function) or not _defined_in(function, cls):
                continue
            signature, parameters = _signature(cls, name, function)
            returned = inspect.signature(function).return_annotation
            returns = name != "__init__" and returned not in ("None", None, inspect.Signature.empty)
            found.append(ApiMember(cls.__name__, name, signature, tuple(parameters), returns,
                                   parse_docstring(function.__doc__)))  # fmt: skip
    return found


def runtime_api() -> list[Entry]:
    return [Entry(f"{m.owner}.{m.name}", m.doc.summary) for m in api_members()]


def _member_lines(member: ApiMember) -> list[str]:
    doc = member.doc
    title = f"{member.owner}(...)" if member.name == "__init__" else f"{member.owner}.{member.name}"
    lines = [f"### `{title}`", "", "```python", member.signature, "```", ""]
    lines += [doc.summary, ""]
    if doc.args:
        lines += ["**Args**", ""]
        lines += [f"- `{name}`: {text}" for name, text in doc.args.items()]
        lines.append("")
    if doc.returns:
        lines += ["**Returns**", "", doc.returns, ""]
    if doc.raises:
        lines += ["**Raises**", ""]
        lines += [f"- `{name}`: {text}" for name, text in doc.raises.items()]
        lines.append("")
    return lines


def runtime_page() -> str:
    lines = [
        "# Runtime API",
        "",
        "What a front end drives, made from the docstrings of the port",
        "(`core/protocol/commands.py`: `RuntimePort`, which a local `Runtime` and an attached",
        "`RemoteRuntime` both are) and of `Runtime` itself (`core/runtime.py`), which also",
        "offers what code that embeds agentui needs: waiting, reading the tree, services.",
        "Which command applies to an agent now is one table, `allowed`; every change is an",
        "[event](events.md). How the pieces fit: [Architecture](../architecture.md).",
        "",
    ]
    members = api_members()
    for cls, where in _api_classes():
        lines += [f"## `{cls.__name__}`", "", f"Defined in `{where}`.", ""]
        lines += [inspect.cleandoc(cls.__dict__.get("__doc__") or ""), ""]
        for member in members:
            if member.owner == cls.__name__:
                lines += _member_lines(member)
    return "\n".join(lines)


# -- the pages -----------------------------------------------------------------------------

PAGES: dict[str, Callable[[], str]] = {
    "reference/config.md": config_page,
    "reference/keys.md": keys_page,
    "reference/http-api.md": api_page,
    "reference/events.md": events_page,
    "reference/cli.md": cli_page,
    "reference/runtime.md": runtime_page,
}


def _cell(text: str) -> str:
    """Text for a Markdown table's cell: one line, its pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def write_pages(names: Sequence[str] = tuple(PAGES)) -> None:
    import mkdocs_gen_files

    for name in names:
        with mkdocs_gen_files.open(name, "w") as page:
            page.write(PAGES[name]())


if __name__ in ("__main__", "<run_path>"):  # run by mkdocs-gen-files
    write_pages()
