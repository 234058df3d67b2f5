"""The manual's reference pages, made from the code that defines them (never written twice).

mkdocs-gen-files runs this file at every `mkdocs build` (mkdocs.yml's gen-files plugin) and it
writes docs/reference/*.md into the build only: the settings from the config models' field
descriptions (core/config/settings.py), the keys from the keymap (tui/app/keymap.py), the HTTP
API from the server's OpenAPI document (core/remote/server.py), the events from their classes'
docstrings (core/protocol/events.py) and the commands from their argument parsers (tui/cli).

Each source also lists its entries with their descriptions (`settings()`, `keys()`,
`endpoints()`, `event_types()`, `commands()`): tests/core/test_docs_reference.py fails when one
has none.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
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
    from agentui.core.protocol import events

    found = []
    for value in vars(events).values():
        if isinstance(value, type) and issubclass(value, events.Event):
            field = value.model_fields.get("type")
            if field is not None and isinstance(field.default, str) and field.default:
                found.append(value)
    return found


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


# -- the pages -----------------------------------------------------------------------------

PAGES: dict[str, Callable[[], str]] = {
    "reference/config.md": config_page,
    "reference/keys.md": keys_page,
    "reference/http-api.md": api_page,
    "reference/events.md": events_page,
    "reference/cli.md": cli_page,
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
