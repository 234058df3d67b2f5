"""`agentui rerun` and `agentui diff` as a person runs them (offline, the scripted model): a
run steered and answered, run again with the same steer at the same step and the same answer
without being given it, then the two compared; and a third run answered otherwise. Four child
processes in all: the rest runs in this process."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from agentui.core.protocol.events import QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.rerun_plan import rerun_plan
from agentui.core.session.run_diff import diff_runs
from agentui.core.session.run_outline import AgentOutline, RunOutline, StepContent, ToolCallMade
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.tui.cli import diff as diff_command
from agentui.tui.cli.diff_json import diff_document
from agentui.tui.cli.diff_text import diff_lines
from agentui.tui.cli.rerun_run import run_rerun

from .cli_runs import agentui, child_env, events

pytestmark = pytest.mark.anyio

TASK = "Plan a launch party"


async def test_rerun_replays_the_steer_and_answer_and_diff_finds_no_divergence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env = child_env(tmp_path)
    code, _, err = await agentui("run", "--answer", "Lisbon", "--steer", "main: be brief", TASK,
                                 env=env, cwd=tmp_path)  # fmt: skip
    assert code == 0, err
    (first,) = [p.stem for p in (tmp_path / "data" / "sessions").glob("*.jsonl")]

    code, out, err = await agentui("rerun", first, "--json", env=env, cwd=tmp_path)
    assert code == 0, err
    seen = events(out)
    assert [e["answer"] for e in seen if e["type"] == "query:answered"][:1] == ["Lisbon"], (
        "the recorded answer, with no --answer given"
    )
    steered = [e for e in seen if e["type"] == "note:queued" and e["from_person"]]
    assert [e["text"] for e in steered] == ["be brief"]
    assert "agentui: rerun: steer 'be brief' after main@0: given at main's model call after " \
           "step 0" in err  # fmt: skip
    (second,) = [p.stem for p in (tmp_path / "data" / "sessions").glob("*.jsonl")
                 if p.stem != first]  # fmt: skip
    assert f"re-ran session {first} as {second}" in err

    code, out, err = await agentui("diff", first, second, env=env, cwd=tmp_path)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:3] == [f"A  {first}", f"B  {second}", "The same work: no step differs."]
    assert "main: the same work" in lines
    assert all(len(line) <= 80 for line in lines)

    # One agent against another, for machines, in this process.
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path / "data"))
    assert diff_command.main([first, f"{second}:main", "--json"]) == 2
    assert "both of them" in capsys.readouterr().err
    # (its main freezes the collector's heap, which a test process keeps for other tests)
    document = diff_document(diff_command.compare(f"{first}:main", f"{second}:main"))
    assert document["diverged"] is False and document["first_divergence"] is None
    (main,) = document["agents"]
    assert main["answers"] == [["Lisbon"], ["Lisbon"]]
    kinds = [(s["a"]["kind"], s["same"]) for s in main["steps"]]
    assert kinds[:3] == [("task", True), ("steer", True), ("model", True)]
    asked = main["steps"][2]["a"]["calls"][0]
    assert asked["name"] == "ask_user" and TASK in asked["arguments"]["question"]

    # A run answered otherwise parts from the first at the answer, marked in the text.
    code, _, err = await agentui("run", "--answer", "Porto", "--steer", "main: be brief", TASK,
                                 env=env, cwd=tmp_path)  # fmt: skip
    assert code == 0, err
    (third,) = [p.stem for p in (tmp_path / "data" / "sessions").glob("*.jsonl")
                if p.stem not in (first, second)]  # fmt: skip
    result = diff_command.compare(first, third)
    assert result.diverged
    lines = list(diff_lines(result))
    assert "First divergence: main@3 and main@3 differ" in lines
    (marked,) = [i for i, line in enumerate(lines) if line.startswith("  ▶ A ")]
    assert lines[marked] == "  ▶ A main@3 answer ask_user → Lisbon"
    assert lines[marked + 1] == "    B main@3 answer ask_user → Porto"
    assert all(len(line) <= 80 for line in lines)


ASKING = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])


async def test_a_question_the_old_run_never_answered_takes_an_answer_or_is_declined_under_json() -> (
    None
):
    script = Script.for_all(ASKING, Turn(text="Done."))

    def make_runtime() -> Runtime:
        return Runtime(ScriptedProvider(script), tools=ToolRegistry([ASK_USER]))

    # The old run: its question was answered; the plan forgets the answer.
    async with make_runtime() as runtime:
        subscription = runtime.subscribe(maxsize=None)
        root = runtime.start("choose")
        recorded = []
        async for event in subscription:
            recorded.append(event)
            if isinstance(event, QueryRaised):
                runtime.answer(event.query_id, "this one")
                break
        await runtime.wait(root)
    plan = rerun_plan([*recorded, *subscription.drain()], "old")
    assert [a.text for a in plan.answers] == ["this one"]
    plan.answers.clear()

    stdout, stderr = io.StringIO(), io.StringIO()
    code = await run_rerun(make_runtime, plan, instructions=None, json_output=True, answers=[],
                           stdin=io.StringIO(""), stdout=stdout, stderr=stderr)  # fmt: skip
    assert code == 0, stderr.getvalue()
    assert "agentui: main asked 'Which?', which the recorded run never answered: declined " \
           "(--json asks nothing" in stderr.getvalue()  # fmt: skip
    seen = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [e["reason"] for e in seen if e["type"] == "query:declined"] == [
        "declined by the person"
    ]

    # An --answer value is used before anything is declined.
    stdout, stderr = io.StringIO(), io.StringIO()
    code = await run_rerun(make_runtime, plan, instructions=None, json_output=True,
                           answers=["that one"], stdin=io.StringIO(""), stdout=stdout,
                           stderr=stderr)  # fmt: skip
    assert code == 0 and "declined" not in stderr.getvalue()
    seen = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [e["answer"] for e in seen if e["type"] == "query:answered"] == ["that one"]


def test_diff_text_shows_a_model_s_control_characters_and_keeps_to_80_columns() -> None:
    hostile = "\x1b[2J\x1b]0;owned\x07 cleared your screen " + "word " * 40

    def run(session: str, said: str) -> RunOutline:
        agent = AgentOutline("a1", "main", None, "task", status="completed")
        agent.steps = [StepContent(0, "task", "task", "task"),
                       StepContent(1, "model", said, said,
                                   calls=(ToolCallMade("echo", json.dumps({"text": said})),))]  # fmt: skip
        return RunOutline(session, agents={"main": agent})

    lines = list(diff_lines(diff_runs(run("A", hostile), run("B", "fine"))))
    assert all(len(line) <= 80 for line in lines)
    assert not any("\x1b" in line or "\x07" in line for line in lines)
    (marked,) = [line for line in lines if line.startswith("  ▶ A ")]
    assert "␛[2J" in marked
