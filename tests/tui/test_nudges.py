"""[attention]: the person is called back when an agent starts waiting: the bell, or a desktop
notification through the terminal while it is not focused, again after `after_s`, and their
own command with what waits as JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from agentui.core.config.attention import AttentionSettings
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.nudges import BELL, Waiting, notification

from ..core.helpers import deploy_tool
from .helpers import make_app, settle, toasts

pytestmark = pytest.mark.anyio

ASKS = Script.for_all(
    Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"})]),
    Turn(text="thanks"),
)
DEPLOYS = Script.for_all(
    Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": "prod"})]),
    Turn(text="shipped"),
)


def nudged_app(
    settings: AttentionSettings, script: Script = ASKS, **options: object
) -> tuple[AgentUIApp, list[str]]:
    """The app, set before it starts: what it writes to the terminal is listed instead."""
    app = make_app("Plan a trip", script, **options)  # type: ignore[arg-type]
    written: list[str] = []
    app.nudges.settings = settings
    app.nudges.write = written.append
    return app, written


async def test_an_unfocused_terminal_gets_a_notification_naming_the_agent_and_question() -> None:
    app, written = nudged_app(AttentionSettings(nudge="notify"))
    async with app.run_test() as pilot:
        app.app_focus = False  # the runtime starts after the first frame: before any question
        await settle(pilot, lambda: bool(written))
        assert written == ["\x1b]9;agentui: main asks: Which city?\x1b\\"]


async def test_an_approval_s_notification_names_the_tool() -> None:
    runs: list[str] = []
    app, written = nudged_app(
        AttentionSettings(nudge="notify"), script=DEPLOYS, tools=[deploy_tool(runs)]
    )
    async with app.run_test() as pilot:
        app.app_focus = False
        await settle(pilot, lambda: bool(written))
        assert written == ["\x1b]9;agentui: main wants to run deploy\x1b\\"]


async def test_a_focused_terminal_gets_the_bell_and_off_gets_nothing() -> None:
    app, written = nudged_app(AttentionSettings(nudge="notify"))
    async with app.run_test() as pilot:
        await settle(pilot, lambda: bool(written))
        assert written == [BELL]
    app, written = nudged_app(AttentionSettings(nudge="off"))
    async with app.run_test() as pilot:
        app.app_focus = False  # the runtime starts after the first frame: before any question
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        await pilot.pause()
        assert written == []


async def test_a_question_still_waiting_after_after_s_is_notified_even_when_focused() -> None:
    app, written = nudged_app(AttentionSettings(nudge="notify", after_s=0.01))
    async with app.run_test() as pilot:
        await settle(pilot, lambda: len(written) == 2)
        assert written[0] == BELL
        assert written[1].startswith("\x1b]9;agentui: main asks: Which city?")


async def test_the_person_s_command_gets_what_waits_and_a_failing_one_is_said_once(
    tmp_path: Path,
) -> None:
    out = tmp_path / "waiting.json"
    record = f"import sys; open({str(out)!r}, 'w').write(sys.stdin.read())"
    app, _ = nudged_app(AttentionSettings(command=[sys.executable, "-c", record]))
    async with app.run_test() as pilot:
        await settle(pilot, lambda: out.exists() and bool(out.read_text()))
        said = json.loads(out.read_text())
        assert said == {"waiting": [{"agent": "main", "kind": "question", "text": "Which city?"}]}
    missing = str(tmp_path / "no-such-program")
    app, _ = nudged_app(AttentionSettings(command=[missing]))
    async with app.run_test() as pilot:
        await settle(pilot, lambda: any("[attention] command" in t for t in toasts(app)))
        (said,) = [t for t in toasts(app) if "[attention] command" in t]
        assert "no-such-program" in said and "failed" in said


def test_words_from_a_model_cannot_end_the_sequence_early() -> None:
    hostile = Waiting("q1", "evil\x1b]0;pwned\a", "question", "a\x1b\\b\x9c\nc")
    sequence = notification([hostile], "xterm-256color")
    body = sequence.removeprefix("\x1b]9;").removesuffix("\x1b\\")
    assert "\x1b" not in body and "\a" not in body and "\x9c" not in body
    assert notification([hostile], "foot").startswith("\x1b]777;notify;agentui;")
