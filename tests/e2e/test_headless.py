"""`agentui run` end to end: the real command in a child process, on the offline scripted model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from agentui.core import __version__
from agentui.core.protocol.events import Event, parse_event

from .preloaded_cli import completed

TIMEOUT_S = 60  # a safety net against a hung child, never a measurement
TASK = "Plan a trip to Lisbon"


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env.update(PYTHONUNBUFFERED="1", NO_COLOR="1", **extra)
    return env


def agentui(
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `agentui ARGS` as a child process; stdin is empty (at EOF) unless given."""
    return completed(
        list(args), env=env if env is not None else child_env(), cwd=cwd, stdin=stdin or ""
    )


def json_events(stdout: str) -> list[Event]:
    assert stdout.endswith("\n"), "every JSON line is terminated"
    lines = stdout.splitlines()
    assert lines, "no events were printed"
    events = []
    for line in lines:
        data = json.loads(line)  # each line is one complete JSON object
        assert isinstance(data, dict)
        events.append(parse_event(line))
    return events


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


def root_result(events: list[Event]) -> str:
    root = events[0].agent_id
    (completed,) = [e for e in of_type(events, "execution:complete") if e.agent_id == root]
    return completed.result  # type: ignore[attr-defined]


# -- --json ----------------------------------------------------------------------------------


def test_json_prints_one_valid_event_per_line(tmp_path: Path) -> None:
    run = agentui("run", "--json", "--answer", "keep it cheap", TASK, cwd=tmp_path)

    assert run.returncode == 0, run.stderr
    events = json_events(run.stdout)
    seqs = [e.seq for e in events]
    assert all(a < b for a, b in pairwise(seqs)), "seq strictly increases"
    first = events[0]
    assert first.type == "agent:spawned"
    assert first.parent_id is None  # type: ignore[attr-defined]
    assert first.task == TASK  # type: ignore[attr-defined]
    root = first.agent_id
    statuses = [e for e in of_type(events, "agent:status") if e.agent_id == root]
    assert statuses[-1].new == "completed"  # type: ignore[attr-defined]
    assert [e.type for e in events if e.agent_id == root].count("execution:complete") == 1
    assert of_type(events, "text:delta"), "text streams as deltas"
    assert of_type(events, "tool:start")[0].call.name == "ask_user"  # type: ignore[attr-defined]
    assert "Traceback" not in run.stderr


def test_json_output_round_trips_through_parse_event(tmp_path: Path) -> None:
    run = agentui("run", "--json", "--answer", "museums", TASK, cwd=tmp_path)

    assert run.returncode == 0, run.stderr
    for line in run.stdout.splitlines():
        event = parse_event(line)
        assert type(event) is not Event, "each line parses to its specific event class"
        assert json.loads(event.model_dump_json()) == json.loads(line)


# -- answering the demo's question -------------------------------------------------------------


def questions(events: list[Event]) -> list[Event]:
    """The demo's question (its python call raises an approval query too)."""
    return [e for e in of_type(events, "query:raised") if e.kind == "question"]  # type: ignore[attr-defined]


def test_answer_option_answers_the_question(tmp_path: Path) -> None:
    answer = "only vegetarian restaurants"
    run = agentui("run", "--json", "--answer", answer, "--answer", "yes", TASK, cwd=tmp_path)

    assert run.returncode == 0, run.stderr
    events = json_events(run.stdout)
    (raised,) = questions(events)
    answered, approved = of_type(events, "query:answered")
    assert answered.query_id == raised.query_id  # type: ignore[attr-defined]
    assert answered.answer == answer  # type: ignore[attr-defined]
    assert approved.answer == "allowed once"  # type: ignore[attr-defined]
    (ran,) = [e for e in of_type(events, "tool:complete") if e.name == "python"]  # type: ignore[attr-defined]
    assert "words; the longest is" in ran.result  # type: ignore[attr-defined]
    assert not of_type(events, "query:declined")
    assert answer in root_result(events)


def test_answer_option_in_text_mode_shows_in_the_final_text(tmp_path: Path) -> None:
    answer = "travel by train"
    run = agentui("run", "--answer", answer, TASK, cwd=tmp_path)

    assert run.returncode == 0, run.stderr
    assert answer in run.stdout, "the answer streamed to stdout mentions the person's focus"
    assert "question:" in run.stderr, "the question is shown on stderr"
    assert not run.stdout.lstrip().startswith("{"), "plain text, not JSON"


def test_answers_come_from_stdin_without_answer_option(tmp_path: Path) -> None:
    answer = "late night food"
    run = agentui("run", "--json", TASK, stdin=answer + "\n", cwd=tmp_path)

    assert run.returncode == 0, run.stderr
    events = json_events(run.stdout)
    answered = of_type(events, "query:answered")[0]
    assert answered.answer == answer  # type: ignore[attr-defined]
    assert answer in root_result(events)


def test_stdin_at_eof_declines_and_still_completes(tmp_path: Path) -> None:
    run = agentui("run", "--json", TASK, stdin="", cwd=tmp_path)

    assert run.returncode == 0, run.stderr
    events = json_events(run.stdout)
    (raised,) = questions(events)
    declined, rejected = of_type(events, "query:declined")
    assert declined.query_id == raised.query_id  # type: ignore[attr-defined]
    assert rejected.reason == "rejected: no answer was given"  # type: ignore[attr-defined]
    assert not of_type(events, "query:answered")
    assert "left the focus to me" in root_result(events)
    statuses = [e for e in of_type(events, "agent:status") if e.agent_id == events[0].agent_id]
    assert statuses[-1].new == "completed"  # type: ignore[attr-defined]


# -- script files and errors -------------------------------------------------------------------

FAILING_SCRIPT = """
[[agents."*"]]
text = "Working on it, one moment"
error = { message = "scripted outage: the model is down", retryable = false, after_chunks = 2 }
"""


def test_non_retryable_failure_exits_1_with_the_reason(tmp_path: Path) -> None:
    script = tmp_path / "failing.toml"
    script.write_text(FAILING_SCRIPT, encoding="utf-8")
    run = agentui("run", "--json", "--script", str(script), TASK, cwd=tmp_path)

    assert run.returncode == 1
    assert "scripted outage: the model is down" in run.stderr
    assert "did not complete" in run.stderr
    assert "Traceback" not in run.stderr
    events = json_events(run.stdout)
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.retryable is False  # type: ignore[attr-defined]
    (failed,) = of_type(events, "execution:error")
    assert failed.kind == "provider"  # type: ignore[attr-defined]
    assert "scripted outage" in failed.error  # type: ignore[attr-defined]
    statuses = [e for e in of_type(events, "agent:status") if e.agent_id == events[0].agent_id]
    assert statuses[-1].new == "error"  # type: ignore[attr-defined]


def test_script_file_plays_its_turns(tmp_path: Path) -> None:
    script = tmp_path / "hello.json"
    script.write_text(json.dumps({"agents": {"main": [{"text": "Hello from the script."}]}}))
    run = agentui("run", "--script", str(script), TASK, cwd=tmp_path)

    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "Hello from the script."


def test_missing_script_file_exits_2_with_a_clear_message(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-script.toml"
    run = agentui("run", "--script", str(missing), TASK, cwd=tmp_path)

    assert run.returncode == 2
    assert run.stderr.startswith("agentui: ")
    assert "cannot read script" in run.stderr
    assert str(missing) in run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout == "", "nothing runs when the script cannot be read"


def test_malformed_script_file_exits_2_without_a_traceback(tmp_path: Path) -> None:
    script = tmp_path / "broken.toml"
    script.write_text('[[agents."*"]]\ntext = "unterminated\n', encoding="utf-8")
    run = agentui("run", "--script", str(script), TASK, cwd=tmp_path)

    assert run.returncode == 2
    assert "is not valid toml" in run.stderr
    assert "Traceback" not in run.stderr


# -- the command itself --------------------------------------------------------------------------


def test_version(tmp_path: Path) -> None:
    run = agentui("--version", cwd=tmp_path)

    assert run.returncode == 0
    assert run.stdout.strip() == f"agentui {__version__}"


def test_console_script_runs_headless(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("agentui")
    if not script.exists():
        pytest.skip("the agentui console script is not installed next to this interpreter")
    run = subprocess.run(
        [str(script), "run", "--json", "--answer", "beaches", TASK],
        input="",
        capture_output=True,
        text=True,
        env=child_env(),
        cwd=tmp_path,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "beaches" in root_result(json_events(run.stdout))


def test_api_key_never_appears_in_the_output(tmp_path: Path) -> None:
    secret = "sk-test-SECRET123"
    run = agentui(
        "run",
        "--provider",
        "scripted",  # a key alone would choose Claude; this checks the offline path's output
        "--json",
        "--answer",
        "anything",
        TASK,
        env=child_env(ANTHROPIC_API_KEY=secret),
        cwd=tmp_path,
    )

    assert run.returncode == 0, run.stderr
    json_events(run.stdout)
    assert "SECRET123" not in run.stdout
    assert "SECRET123" not in run.stderr


def test_reader_going_away_exits_141_without_a_traceback(tmp_path: Path) -> None:
    # Far more output than a pipe buffer holds, so the child must still be writing when the
    # reader closes its end: it then sees EPIPE at a deterministic point.
    script = tmp_path / "long.json"
    script.write_text(json.dumps({"agents": {"*": [{"text": "word " * 100_000}]}}))
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agentui.tui.cli.main",
            "run",
            "--json",
            "--script",
            str(script),
            TASK,
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
        cwd=tmp_path,
    )
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    child.stdout.close()
    stderr = child.stderr.read().decode()
    returncode = child.wait(timeout=TIMEOUT_S)

    assert parse_event(first).type == "agent:spawned"
    assert returncode == 141
    assert "Traceback" not in stderr


def test_the_default_six_step_workflow_runs_offline_end_to_end(tmp_path: Path) -> None:
    env = child_env()
    env.pop("AGENTUI_WORKFLOW", None)  # the command's own default
    run = agentui("run", "--json", "--yes", "--answer", "cake", TASK, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    events = json_events(run.stdout)
    steps = [e.step for e in events if e.type == "workflow:step"]  # type: ignore[attr-defined]
    assert steps[:1] == [1] and 6 in steps
    assert any(e.type == "workflow:result" for e in events)


def test_the_run_ends_saying_its_session_and_how_to_open_it(tmp_path: Path) -> None:
    run = agentui("run", "--answer", "museums", "--yes", TASK, cwd=tmp_path)

    assert run.returncode == 0, run.stderr
    said = [line for line in run.stderr.splitlines() if line.startswith("agentui: session ")]
    assert len(said) == 1, run.stderr
    session_id = said[0].split()[2]
    assert (
        said[0]
        == f"agentui: session {session_id} saved; `agentui --resume {session_id}` reopens it"
    )
    listed = agentui("sessions", "--json")
    assert session_id in [json.loads(line)["id"] for line in listed.stdout.splitlines()]
