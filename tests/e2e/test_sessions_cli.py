"""Sessions and config through the real `agentui` command, in child processes.

The kill test is the point of the log: a headless run killed with SIGKILL in the middle of a
stream has everything up to its last flush on disk, and comes back with the killed agent
interrupted. Nothing waits for time to pass: loops wait on the child's own output, and a
watchdog only bounds a hung child.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.protocol.events import Event, LLMResponded, parse_event
from agentui.core.session.errors import SessionError
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import SessionLog, read_session
from agentui.core.session.resume import plan_resume
from agentui.core.state import INTERRUPTED
from agentui.tui.cli.app_command import app_parser, build_app
from agentui.tui.cli.replay import build_replay, replay_parser

from ..core.session_story import assert_same_story, blocks, others
from ..tui.helpers import settle
from .cli_runs import child_env
from .messages_api import response, text, thinking
from .preloaded_cli import completed
from .stub_server import StubServer, sse_reply

TIMEOUT_S = 60  # a safety net against a hung child, never a measurement
TASK = "Plan a trip to Lisbon"
SECRET = "sk-ant-test-SESSION-SECRET-0123456789"
ANSWER_ITERATION = 3  # the plain demo asks, then runs python, then answers


def agentui(*args: str, home: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return completed(list(args), env=child_env(home, **extra), cwd=home)


def session_files(home: Path) -> list[Path]:
    folder = home / "data" / "sessions"
    return sorted(folder.glob("*.jsonl")) if folder.exists() else []


def only_session(home: Path) -> SessionLog:
    (path,) = session_files(home)
    return read_session(path)


def use_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """Point this process (for the in-process app tests) at a child's directories."""
    for name, value in child_env(home).items():
        if name.startswith("AGENTUI_"):
            monkeypatch.setenv(name, value)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


# -- a run is a session --------------------------------------------------------------------------


def test_a_run_records_a_session_that_is_listed(tmp_path: Path) -> None:
    run = agentui("run", "--json", "--answer", "museums", TASK, home=tmp_path)
    assert run.returncode == 0, run.stderr

    log = only_session(tmp_path)
    printed = [parse_event(line) for line in run.stdout.splitlines()]
    assert_same_story(log.events, printed)  # what --json printed, each block's deltas merged
    assert log.header.task == TASK
    assert log.warnings == []

    listed = agentui("sessions", home=tmp_path)
    assert listed.returncode == 0, listed.stderr
    header, row = listed.stdout.splitlines()
    assert header.split() == ["ID", "STARTED", "STATUS", "AGENTS", "TOKENS", "TASK"]
    tokens = fold_session(log).tokens
    assert row.split()[0] == log.id
    assert row.split()[3:7] == ["completed", "1", f"{tokens:,}", "Plan"]
    assert row.endswith(TASK)

    as_json = agentui("sessions", "--json", home=tmp_path)
    (entry,) = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert (entry["id"], entry["status"], entry["agents"], entry["tokens"]) == (
        log.id,
        "completed",
        1,
        tokens,
    )


def test_no_session_records_nothing(tmp_path: Path) -> None:
    run = agentui("run", "--no-session", "--answer", "x", TASK, home=tmp_path)
    assert run.returncode == 0, run.stderr
    assert session_files(tmp_path) == []
    listed = agentui("sessions", home=tmp_path)
    assert listed.stdout.startswith("No sessions yet")


# -- SIGKILL in the middle of a stream ---------------------------------------------------------


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Event], int]:
    """A headless run killed with SIGKILL while its final answer streams.

    Returns its home directory, the events it printed, and the seq it was killed after
    (everything up to it was flushed to the session file before the kill).
    """
    home = tmp_path_factory.mktemp("killed")
    stderr = (home / "stderr.txt").open("w")
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agentui.tui.cli.main",
            "run",
            "--json",
            "--pace",
            "0.02",
            "--answer",
            "museums",
            TASK,
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env=child_env(home),
        cwd=home,
    )
    watchdog = threading.Timer(TIMEOUT_S, child.kill)
    watchdog.start()
    printed: list[Event] = []
    flushed_past = 0
    try:
        assert child.stdout is not None
        target: int | None = None
        for line in child.stdout:  # each read waits on the child's own output
            event = parse_event(line)
            printed.append(event)
            if (
                target is None
                and event.type == "text:delta"
                and event.iteration == ANSWER_ITERATION
            ):  # type: ignore[attr-defined]
                target = event.seq  # the final answer has begun streaming
            if target is not None:
                flushed_past = _flushed(home)
                if flushed_past >= target:
                    os.kill(child.pid, signal.SIGKILL)
                    break
        else:
            pytest.fail("the run ended before its session caught up with it")
    finally:
        watchdog.cancel()
        child.kill()
        child.wait(TIMEOUT_S)
        stderr.close()
    assert child.returncode == -signal.SIGKILL
    return home, printed, flushed_past


def _flushed(home: Path) -> int:
    """The newest seq in the session file so far (0 before it exists)."""
    files = session_files(home)
    if not files:
        return 0
    try:
        return read_session(files[0]).last_seq
    except SessionError:
        return 0  # the header itself is still on its way


def test_everything_up_to_the_last_flush_is_back(killed: tuple[Path, list[Event], int]) -> None:
    home, printed, flushed = killed
    log = only_session(home)

    seqs = [e.seq for e in log.events]
    assert seqs == sorted(set(seqs)), "in order, none repeated"
    assert log.last_seq >= flushed
    kept = others(log.events)
    assert kept == others(printed)[: len(kept)], "no event is missing or changed"
    printed_text = blocks(printed)
    for block, streamed in blocks(log.events).items():
        assert printed_text[block].startswith(streamed), "merged deltas lose no text"
    state = fold_session(log)
    assert state.status == "interrupted"
    (root,) = state.roots()
    assert root.status is S.RUNNING
    question = next(i for i in state.transcripts[root.id] if i.kind == "question")
    assert question.detail == "museums"
    streamed = "".join(
        e.delta  # type: ignore[attr-defined]
        for e in log.events
        if e.type == "text:delta" and e.iteration == ANSWER_ITERATION  # type: ignore[attr-defined]
    )
    assert streamed and state.streaming[root.id] == streamed


def test_a_killed_session_lists_as_interrupted(killed: tuple[Path, list[Event], int]) -> None:
    home, _, _ = killed
    listed = agentui("sessions", "--json", home=home)
    (entry,) = [json.loads(line) for line in listed.stdout.splitlines()]
    assert entry["status"] == "interrupted"
    exported = agentui("export", "last", "--format", "md", home=home)
    assert exported.returncode == 0, exported.stderr
    assert "**main** · running, interrupted when the session ended ·" in exported.stdout


def test_a_killed_session_resumes_with_its_agent_interrupted(
    killed: tuple[Path, list[Event], int],
) -> None:
    home, _, _ = killed
    plan = plan_resume(only_session(home))

    (root,) = plan.interrupted
    node = plan.state.agents[root]
    assert (node.status, node.error) == (S.CANCELLED, INTERRUPTED)
    cancelled = plan.closing[0]
    assert cancelled.type == "execution:cancelled"
    last = node.conversation.messages[-1]
    assert last.interrupted and last.text == cancelled.partial_text  # type: ignore[attr-defined]
    assert node.conversation.messages[0].text == TASK


@pytest.mark.anyio
async def test_resume_opens_the_app_with_history_and_continues_the_agent(
    killed: tuple[Path, list[Event], int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, _, _ = killed
    shutil.copytree(source / "data", tmp_path / "data")  # this test appends to its own copy
    use_home(monkeypatch, tmp_path)
    before = only_session(tmp_path)

    app = build_app(app_parser().parse_args(["--resume", "last", "--no-monologue", "--pace", "0"]))
    with anyio.fail_after(TIMEOUT_S):
        async with app.run_test() as pilot:
            # The runtime starts after the first frame, its modules loaded in a thread.
            await settle(pilot, lambda: "a1" in app.main.model.agents and app.host.started)
            shown = app.main.model.agents["a1"]
            assert shown.status is S.CANCELLED
            assert any(e.kind == "notice" and INTERRUPTED in e.text for e in shown.entries)
            assert any(e.kind == "text" and e.interrupted for e in shown.entries)
            assert "resumed" in app.host.notice and "1 interrupted agent" in app.host.notice
            assert app.host.provider_notice == "offline scripted model (no API key)", "kept apart"
            assert app.host.runtime is not None
            app.host.runtime.send("a1", "Please finish the plan.")
            await settle(pilot, lambda: app.main.model.agents["a1"].status is S.COMPLETED)
            # As the Quit does: the runtime stopped and its session written whole, then the exit.
            await app.stop_runtime_and_exit()

    after = only_session(tmp_path)
    assert after.header == before.header
    seqs = [e.seq for e in after.events]
    assert seqs == sorted(set(seqs)), "the resumed run carries on the numbering"
    assert after.last_seq > before.last_seq
    state = fold_session(after)
    assert (state.status, state.agents["a1"].runs) == ("completed", 2)


@pytest.mark.anyio
async def test_the_provider_built_to_fail_fast_is_the_runtime_s_and_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_home(monkeypatch, tmp_path)
    from agentui.core.providers.scripted.provider import ScriptedProvider
    from agentui.tui.cli import assemble

    built: list[ScriptedProvider] = []
    closed: list[ScriptedProvider] = []
    make = assemble.build_provider

    def counted(assembly: assemble.Assembly) -> ScriptedProvider:
        provider = make(assembly)
        assert isinstance(provider, ScriptedProvider)
        built.append(provider)
        original = provider.aclose

        async def aclose() -> None:
            closed.append(provider)
            await original()

        provider.aclose = aclose  # type: ignore[method-assign]
        return provider

    monkeypatch.setattr(assemble, "build_provider", counted)
    app = build_app(app_parser().parse_args(["--no-monologue", "--pace", "0"]))
    with anyio.fail_after(TIMEOUT_S):
        async with app.run_test() as pilot:
            await settle(pilot, lambda: app.host.runtime is not None)
            await pilot.press("ctrl+q")
    assert len(built) == 1 and closed == built, "one provider, closed when the app ends"


# -- replay and export ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("finished")
    run = agentui("run", "--monologue", "--answer", "museums", TASK, home=home)
    assert run.returncode == 0, run.stderr
    return home


@pytest.mark.anyio
async def test_replay_plays_the_session_back_read_only(
    finished: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_home(monkeypatch, finished)
    log = only_session(finished)
    app = build_replay(replay_parser().parse_args([log.id[:12], "--speed", "1000"]))
    with anyio.fail_after(TIMEOUT_S):
        async with app.run_test() as pilot:
            await settle(pilot, lambda: app.host.done)
            app.main.flush_events()
            root = app.main.model.agents["a1"]
            assert root.status is S.COMPLETED
            answer = next(
                e
                for e in log.events
                if isinstance(e, LLMResponded) and e.iteration == ANSWER_ITERATION
            )
            assert root.entries[-1].text == answer.text
            assert app.main.model.narratives, "the monologue plays back too"
            assert app.check_action("pause", ()) is False  # never offered in a replay


def test_export_markdown_read_back_holds_every_agent_s_text(finished: Path) -> None:
    out = finished / "session.md"
    export = agentui("export", "last", "--format", "md", "-o", str(out), home=finished)
    assert export.returncode == 0, export.stderr
    assert export.stdout == ""

    markdown = out.read_text("utf-8")
    log = only_session(finished)
    said = [e.text for e in log.events if isinstance(e, LLMResponded) and e.text]
    assert said
    for words in said:
        assert words in markdown
    assert markdown.startswith(f"# Session {log.id}\n")
    assert "## Monologue" in markdown


def test_export_json_to_stdout(finished: Path) -> None:
    export = agentui("export", "--format", "json", home=finished)
    assert export.returncode == 0, export.stderr
    document = json.loads(export.stdout)
    assert document["status"] == "completed"
    assert document["agents"]["a1"]["transcript"][0] == {
        **document["agents"]["a1"]["transcript"][0],
        "kind": "task",
        "text": TASK,
    }


def test_an_unknown_session_is_one_clear_line(tmp_path: Path) -> None:
    for command in (["export", "nope"], ["replay", "nope"], ["--resume", "nope"]):
        run = agentui(*command, home=tmp_path)
        assert run.returncode == 2
        assert run.stderr.startswith("agentui: there are no sessions yet"), run.stderr
        assert "Traceback" not in run.stderr


@pytest.mark.anyio
async def test_a_damaged_session_is_listed_exported_and_replayed_without_the_line(
    finished: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(finished / "data", tmp_path / "data")
    (path,) = session_files(tmp_path)
    lines = path.read_bytes().split(b"\n")
    # (not a conversation change: losing one is a warning of its own, tested in core)
    first = next(i for i in range(2, len(lines)) if b"conversation:changed" not in lines[i])
    second = next(
        i for i in range(first + 2, len(lines)) if b"conversation:changed" not in lines[i]
    )
    lines[first] = b"garbage"
    lines[second] = b'{"type": "text:delta", "seq": 6, "delta": "\xff"}'
    path.write_bytes(b"\n".join(lines))
    warnings = [
        f"agentui: warning: {path}:{first + 1}: skipped a damaged line: not valid JSON",
        f"agentui: warning: {path}:{second + 1}: skipped a damaged line: not UTF-8 text",
    ]

    listed = agentui("sessions", home=tmp_path)
    assert listed.returncode == 0, listed.stderr
    _, row = listed.stdout.splitlines()
    assert "  damaged (2 lines skipped)  " in row and TASK[:15] in row

    export = agentui("export", "last", "--format", "md", home=tmp_path)
    assert export.returncode == 0, export.stderr
    stderr = export.stderr.splitlines()
    assert len(stderr) == 2 and all(a.startswith(b) for a, b in zip(stderr, warnings, strict=True))
    log = only_session(tmp_path)
    said = [e.text for e in log.events if isinstance(e, LLMResponded) and e.text]
    assert said and all(words in export.stdout for words in said)
    assert "Traceback" not in export.stderr

    use_home(monkeypatch, tmp_path)
    app = build_replay(replay_parser().parse_args(["last", "--speed", "1000"]))
    with anyio.fail_after(TIMEOUT_S):
        async with app.run_test() as pilot:
            await settle(pilot, lambda: app.host.done)
            app.main.flush_events()
            assert app.main.model.agents["a1"].status is S.COMPLETED


# -- config ------------------------------------------------------------------------------------


def write_config(home: Path, text: str) -> Path:
    path = home / "config" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def shown(run: subprocess.CompletedProcess[str], key: str) -> tuple[str, str]:
    """(value, source) of one line of `config show`."""
    line = next(x for x in run.stdout.splitlines() if x.startswith(f"{key} ="))
    value, source = line.split("#", 1)
    return value.split("=", 1)[1].strip(), source.strip()


def test_config_path_and_show_say_where_each_value_came_from(tmp_path: Path) -> None:
    path = write_config(tmp_path, 'model = "file-model"\n[limits]\nmax_iterations = 11\n')
    assert agentui("config", "path", home=tmp_path).stdout == f"{path}\n"

    file_only = agentui("config", "show", home=tmp_path)
    assert file_only.returncode == 0, file_only.stderr
    assert file_only.stdout.startswith(f"# config file: {path}\n")
    assert shown(file_only, "model") == ('"file-model"', "file")
    assert shown(file_only, "limits.max_iterations") == ("11", "file")
    assert shown(file_only, "limits.max_tool_calls") == ("200", "default")

    env = agentui("config", "show", home=tmp_path, AGENTUI_MODEL="env-model")
    assert shown(env, "model") == ('"env-model"', "env AGENTUI_MODEL")

    flag = agentui(
        "config",
        "show",
        "--model",
        "flag-model",
        "--max-iterations",
        "3",
        home=tmp_path,
        AGENTUI_MODEL="env-model",
        AGENTUI_MAX_ITERATIONS="7",
    )
    assert shown(flag, "model") == ('"flag-model"', "flag --model")
    assert shown(flag, "limits.max_iterations") == ("3", "flag --max-iterations")


def test_config_limits_reach_the_run_and_flags_win(tmp_path: Path) -> None:
    # The demo needs three model calls (a question, python, the answer): one is too few.
    write_config(tmp_path, "[limits]\nmax_iterations = 1\n")
    limited = agentui("run", "--answer", "x", TASK, home=tmp_path)
    assert limited.returncode == 1
    assert "limit of 1 iterations" in limited.stderr

    env = agentui("run", "--answer", "x", TASK, home=tmp_path, AGENTUI_MAX_ITERATIONS="5")
    assert env.returncode == 0, env.stderr

    flag = agentui(
        "run",
        "--max-iterations",
        "5",
        "--answer",
        "x",
        TASK,
        home=tmp_path,
        AGENTUI_MAX_ITERATIONS="1",
    )
    assert flag.returncode == 0, flag.stderr


@pytest.mark.parametrize("command", [["run", TASK], [TASK], ["config", "show"], ["replay"]])
def test_an_invalid_config_is_one_message_and_exit_2(tmp_path: Path, command: list[str]) -> None:
    path = write_config(tmp_path, "[limits]\nmax_iterations = 0\n")
    run = agentui(*command, home=tmp_path)
    assert run.returncode == 2
    message = (
        f"agentui: config file {path}: limits.max_iterations: "
        "Input should be greater than or equal to 1 (got 0)\n"
    )
    if command == [TASK]:
        # The app checks what its first frame does not show after drawing it (on stderr,
        # Textual's); the message comes once the screen is given back, and nothing ran.
        assert run.stderr.endswith(message) and run.stderr.count("agentui: ") == 1
        assert session_files(tmp_path) == []
    else:
        assert run.stderr == message
    assert run.stdout == ""


def test_a_bad_environment_variable_is_named(tmp_path: Path) -> None:
    run = agentui("run", TASK, home=tmp_path, AGENTUI_PROVIDER="gpt")
    assert run.returncode == 2
    assert run.stderr.startswith("agentui: environment variable AGENTUI_PROVIDER: provider: ")


@pytest.mark.parametrize(
    ("options", "environment", "message"),
    [
        (
            ["--pace", "-1"],
            {},
            "argument --pace: Input should be greater than or equal to 0 (got '-1')",
        ),
        (["--pace", "nan"], {}, "argument --pace: Input should be a finite number (got 'nan')"),
        (
            ["--tool-timeout", "inf"],
            {},
            "argument --tool-timeout: Input should be a finite number (got 'inf')",
        ),
        (
            ["--timeout=-inf"],
            {},
            "argument --timeout: Input should be a finite number (got '-inf')",
        ),
        (
            ["--thinking-budget", "-5"],
            {},
            "argument --thinking-budget: at least 1024 tokens, or 0 for no thinking (got -5)",
        ),
        (
            [],
            {"AGENTUI_TOOL_TIMEOUT": "inf"},
            "agentui: environment variable AGENTUI_TOOL_TIMEOUT: limits.tool_timeout_s: "
            "Input should be a finite number (got 'inf')",
        ),
        (
            [],
            {"AGENTUI_PROVIDER": "mistral"},
            "agentui: environment variable AGENTUI_PROVIDER: provider: "
            "must be scripted, anthropic, openai, google or replay:DIR (got 'mistral')",
        ),
    ],
)
def test_a_bad_number_or_name_is_one_message_naming_it_once_and_exit_2(
    tmp_path: Path, options: list[str], environment: dict[str, str], message: str
) -> None:
    run = agentui("run", *options, TASK, home=tmp_path, **environment)
    assert run.returncode == 2
    last = run.stderr.splitlines()[-1]
    assert last.endswith(message), run.stderr
    assert run.stderr.count("(got ") == 1 and "Traceback" not in run.stderr
    assert run.stdout == "" and session_files(tmp_path) == []


def test_infinity_in_the_config_file_is_refused(tmp_path: Path) -> None:
    path = write_config(tmp_path, "[limits]\nmax_duration_s = inf\n")
    run = agentui("run", TASK, home=tmp_path)
    assert run.returncode == 2
    assert run.stderr == (
        f"agentui: config file {path}: limits.max_duration_s: Input should be a finite number (got inf)\n"
    )


# -- secrets -----------------------------------------------------------------------------------


def _scan(home: Path) -> Iterator[Path]:
    for path in home.rglob("*"):
        if path.is_file() and SECRET.encode() in path.read_bytes():
            yield path


@pytest.mark.anyio
async def test_the_api_key_never_reaches_the_session_log(tmp_path: Path) -> None:
    async with StubServer() as stub:
        stub.reply(
            sse_reply(response(thinking("Let me think.", signature="sig-1"), text("Hello.")))
        )
        with anyio.fail_after(TIMEOUT_S):
            done = await anyio.run_process(
                [sys.executable, "-m", "agentui.tui.cli.main", "run", "--json", TASK],
                input=b"",
                env=child_env(tmp_path, ANTHROPIC_API_KEY=SECRET, ANTHROPIC_BASE_URL=stub.url),
                cwd=tmp_path,
                check=False,
            )
    assert done.returncode == 0, done.stderr.decode()
    assert SECRET in json.dumps(stub.requests[0].headers), "the key was in use"
    log = only_session(tmp_path)
    assert (log.header.provider, log.header.model) == ("anthropic", "claude-sonnet-4-6")
    assert fold_session(log).agents["a1"].result == "Hello."
    assert list(_scan(tmp_path)) == [], "no file under the session's home holds the key"
    assert SECRET not in (done.stdout + done.stderr).decode()


def test_the_key_in_the_environment_stays_out_of_an_offline_session(tmp_path: Path) -> None:
    run = agentui(
        "run",
        "--provider",
        "scripted",
        "--answer",
        "x",
        TASK,
        home=tmp_path,
        ANTHROPIC_API_KEY=SECRET,
    )
    assert run.returncode == 0, run.stderr
    assert session_files(tmp_path)
    assert list(_scan(tmp_path)) == []
    show = agentui("config", "show", home=tmp_path, ANTHROPIC_API_KEY=SECRET)
    assert SECRET not in show.stdout
