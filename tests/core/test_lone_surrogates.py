"""A lone surrogate in a model's text (a JSON `\\ud83d` escape without its pair) cannot be
written as UTF-8. It must not stop a session being saved, exported or printed: it is stored as
U+FFFD and shown on a terminal as `<U+D83D>`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from agentui.core.protocol.events import TextDelta
from agentui.core.providers.scripted.script import Turn
from agentui.core.session.export import export_session
from agentui.core.session.reader import read_session
from agentui.core.state import RunState
from agentui.core.support.terminal_text import visible_controls
from agentui.core.support.utf8 import REPLACEMENT, encodable, model_json

from .session_helpers import recorded_runtime

pytestmark = pytest.mark.anyio

HALF_AN_EMOJI = "\ud83d"
TEXT = f"Done {HALF_AN_EMOJI} and more"


def test_text_without_surrogates_is_left_as_it_is() -> None:
    text = "plain, accents é and an emoji 😀"
    assert encodable(text) is text
    event = TextDelta(seq=1, ts=0.0, agent_id="a1", iteration=1, delta=text)
    assert model_json(event) == event.model_dump_json()


def test_a_lone_surrogate_becomes_the_replacement_character() -> None:
    event = TextDelta(seq=1, ts=0.0, agent_id="a1", iteration=1, delta=TEXT)
    line = model_json(event)
    line.encode("utf-8")  # does not raise
    assert json.loads(line)["delta"] == f"Done {REPLACEMENT} and more"
    assert (
        line
        == TextDelta(
            seq=1, ts=0.0, agent_id="a1", iteration=1, delta=f"Done {REPLACEMENT} and more"
        ).model_dump_json()
    ), "the same compact form as pydantic's"


def test_a_terminal_is_shown_a_visible_stand_in() -> None:
    assert visible_controls(TEXT) == "Done <U+D83D> and more"


async def test_a_session_with_one_is_saved_read_and_exported(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text=TEXT))
    async with runtime:
        await runtime.wait(runtime.start(f"Say {HALF_AN_EMOJI}"))
    assert runtime.session.error is None
    assert runtime.session.path is not None
    log = read_session(runtime.session.path)
    assert log.warnings == []
    state = RunState()
    state.apply_all(log.events)
    (agent,) = state.agents.values()
    assert agent.task == f"Say {REPLACEMENT}"
    assert agent.result == f"Done {REPLACEMENT} and more"
    for fmt in ("md", "json"):
        exported = export_session(log, fmt)  # type: ignore[arg-type]
        exported.encode("utf-8")
        assert f"Done {REPLACEMENT} and more" in (
            exported if fmt == "md" else json.dumps(json.loads(exported), ensure_ascii=False)
        )


async def test_headless_json_output_prints_it(tmp_path: Path) -> None:
    from agentui.tui.headless.run import run_headless

    out, err = io.StringIO(), io.StringIO()
    code = await run_headless(
        lambda: recorded_runtime(tmp_path, Turn(text=TEXT)),
        "Say it",
        json_output=True,
        answers=[],
        steers=[],
        monologue=None,
        stdin=io.StringIO(),
        stdout=out,
        stderr=err,
    )
    assert code == 0, err.getvalue()
    out.getvalue().encode("utf-8")
    assert REPLACEMENT in out.getvalue()
