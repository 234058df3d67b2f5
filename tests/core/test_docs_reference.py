"""The manual's reference (tools/docs_reference.py, run by `mkdocs build`) is made from the code:
each setting, key, endpoint, event type, command and Runtime/port method it lists must say what
it is, so a new one without a description fails here rather than showing as a blank row."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "docs_reference", ROOT / "tools" / "docs_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


reference = _reference()


@pytest.mark.parametrize(
    "source",
    [
        reference.settings,
        reference.keys,
        reference.endpoints,
        reference.event_types,
        reference.commands,
        reference.runtime_api,
    ],
    ids=["settings", "keys", "endpoints", "events", "commands", "runtime"],
)
def test_every_entry_has_a_description(source: object) -> None:
    entries = source()  # type: ignore[operator]
    assert len(entries) > 10, "the reference found its entries"
    missing = {entry.name for entry in entries if not entry.description.strip()}
    assert missing == set(), "give these a description"


def test_every_runtime_and_port_argument_and_result_is_described() -> None:
    """The Runtime API page shows each method's `Args:` and `Returns:` (Google style): a
    parameter or a returned value the docstring leaves out would be missing there."""
    missing = {
        f"{member.owner}.{member.name}": member.undescribed
        for member in reference.api_members()
        if member.undescribed
    }
    assert missing == {}, "describe these in the method's docstring"


def test_a_google_docstring_is_read_into_its_sections() -> None:
    doc = reference.parse_docstring(
        """Start it.

        More words.

        Args:
            task: The task,
                on two lines.
            *exc_info: Variadic.

        Returns:
            Its id.

        Raises:
            AgentUIError: Not running.
        """
    )
    assert doc.summary == "Start it.\n\nMore words."
    assert doc.args == {"task": "The task, on two lines.", "exc_info": "Variadic."}
    assert doc.returns == "Its id."
    assert doc.raises == {"AgentUIError": "Not running."}


def test_the_reference_covers_what_the_code_defines() -> None:
    """Spot checks that each page is made from its source, not from a copy."""
    from agentui.core.config.settings import ENV_VARIABLES
    from agentui.tui.app.keymap import KEYS

    assert {row.key for row in reference.setting_rows()} >= set(ENV_VARIABLES)
    assert {entry.name for entry in reference.key_ids()} == {key.id for key in KEYS}
    assert "POST /agent/{agent_id}/steer" in {entry.name for entry in reference.endpoints()}
    assert "agent:spawned" in {entry.name for entry in reference.event_types()}
    assert "agentui serve --port" in {entry.name for entry in reference.commands()}
    api = {entry.name for entry in reference.runtime_api()}
    port_methods = {f"RuntimePort.{name}" for name in ("start", "steer", "subscribe", "__aexit__")}
    assert {"Runtime.start", "Runtime.wait", "Runtime.__init__"} | port_methods <= api


def test_every_page_is_made() -> None:
    for name, page in reference.PAGES.items():
        text = page()
        assert text.startswith("# "), name
