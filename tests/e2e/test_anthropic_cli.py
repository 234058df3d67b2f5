"""`agentui run` on Claude, as a person runs it: a child process, the stub server as the API.

The child finds the stub through ANTHROPIC_BASE_URL; the test's event loop serves it while the
child runs (`anyio.run_process`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentui.tui.cli.options import assembly_from
from agentui.tui.cli.run import run_parser

from .cli_runs import agentui, events, without_timing
from .messages_api import MODEL, response, text, tool_use
from .stub_server import StubServer, error_reply, sse_reply

SECRET = "sk-test-SECRET-cli"
TASK = "Plan a trip to Lisbon"


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env.update(PYTHONUNBUFFERED="1", NO_COLOR="1", **extra)
    return env


def claude_env(stub: StubServer) -> dict[str, str]:
    return child_env(ANTHROPIC_API_KEY=SECRET, ANTHROPIC_BASE_URL=stub.url)


@pytest.mark.anyio
async def test_a_key_in_the_environment_runs_on_claude_by_default(tmp_path: Path) -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply(response(text("Hello ", "from Claude."))))
        code, stdout, stderr = await agentui(
            "run", "--json", TASK, env=claude_env(stub), cwd=tmp_path
        )

    assert code == 0, stderr
    run = events(stdout)
    (request,) = [e for e in run if e["type"] == "llm:request"]
    assert request["model"] == MODEL
    assert [e["delta"] for e in run if e["type"] == "text:delta"] == ["Hello ", "from Claude."]
    body = stub.requests[0].json()
    assert body["thinking"] == {"type": "adaptive"}, "thinking is on by default"
    assert body["max_tokens"] == 4096 + 2048
    assert "scripted" not in stderr
    assert SECRET not in stdout + stderr


@pytest.mark.anyio
async def test_model_alias_and_thinking_budget_options(tmp_path: Path) -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply(response(text("Hi."))))
        code, _, stderr = await agentui(
            "run",
            "--model",
            "haiku",
            "--thinking-budget",
            "0",
            TASK,
            env=claude_env(stub),
            cwd=tmp_path,
        )

    assert code == 0, stderr
    body = stub.requests[0].json()
    assert body["model"] == "claude-haiku-4-5"
    assert "thinking" not in body


@pytest.mark.anyio
async def test_a_model_before_4_6_gets_the_thinking_budget_as_its_budget(tmp_path: Path) -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply(response(text("Hi."))))
        code, _, stderr = await agentui(
            "run", "--model", "claude-sonnet-4-5", "--thinking-budget", "3000", TASK,
            env=claude_env(stub), cwd=tmp_path,
        )  # fmt: skip

    assert code == 0, stderr
    assert stub.requests[0].json()["thinking"] == {"type": "enabled", "budget_tokens": 3000}


@pytest.mark.anyio
async def test_record_then_replay_offline_gives_the_same_events(tmp_path: Path) -> None:
    recording = tmp_path / "recording"
    async with StubServer() as stub:
        stub.reply(
            sse_reply(
                response(
                    tool_use("toolu_1", "ask_user", '{"question": "Which month?"}'),
                    stop_reason="tool_use",
                )
            ),
            sse_reply(response(text("Go in May."))),
        )
        code, recorded, stderr = await agentui(
            "run", "--json", "--answer", "May", "--record", str(recording), TASK,
            env=claude_env(stub), cwd=tmp_path,
        )  # fmt: skip
    assert code == 0, stderr
    assert sorted(p.name for p in recording.iterdir()) == ["main-0000.json", "main-0001.json"]
    assert SECRET not in "".join(p.read_text() for p in recording.iterdir())

    # No key, no server: the replay is offline.
    code, replayed, stderr = await agentui(
        "run", "--json", "--answer", "May", "--provider", f"replay:{recording}", TASK,
        env=child_env(), cwd=tmp_path,
    )  # fmt: skip

    assert code == 0, stderr
    assert [without_timing(e) for e in events(replayed)] == [
        without_timing(e) for e in events(recorded)
    ]


@pytest.mark.anyio
async def test_a_rejected_key_is_one_clear_line_without_a_traceback(tmp_path: Path) -> None:
    async with StubServer() as stub:
        stub.reply(error_reply(401, "authentication_error", "invalid x-api-key"))
        code, stdout, stderr = await agentui("run", TASK, env=claude_env(stub), cwd=tmp_path)

    assert code == 1
    assert (
        "agentui: main did not complete: the API key was rejected (check ANTHROPIC_API_KEY)"
        in stderr
    )
    assert "Traceback" not in stderr
    assert SECRET not in stdout + stderr


@pytest.mark.anyio
async def test_without_a_key_the_offline_model_runs_with_a_notice(tmp_path: Path) -> None:
    code, stdout, stderr = await agentui(
        "run", "--json", "--answer", "beaches", TASK, env=child_env(), cwd=tmp_path
    )

    assert code == 0, stderr
    assert "no API key is set (ANTHROPIC_API_KEY, OPENAI_API_KEY" in stderr
    assert "running on the offline scripted model" in stderr
    (request, *_) = [e for e in events(stdout) if e["type"] == "llm:request"]
    assert request["model"] == "scripted-1"


@pytest.mark.anyio
async def test_asking_for_claude_without_a_key_exits_2_with_a_clear_message(tmp_path: Path) -> None:
    code, stdout, stderr = await agentui(
        "run", "--provider", "anthropic", TASK, env=child_env(), cwd=tmp_path
    )

    assert code == 2
    assert stderr.startswith("agentui: ANTHROPIC_API_KEY is not set")
    assert "Traceback" not in stderr
    assert stdout == ""


@pytest.mark.parametrize(
    ("argv", "environ", "provider", "narrator"),
    [
        (["task"], {"ANTHROPIC_API_KEY": "k"}, "anthropic", "claude-haiku-4-5"),
        (
            ["--narrator-model", "sonnet", "task"],
            {"ANTHROPIC_API_KEY": "k"},
            "anthropic",
            "claude-sonnet-4-6",
        ),
        (["task"], {}, "scripted", None),
        (["--script", "s.toml", "task"], {"ANTHROPIC_API_KEY": "k"}, "scripted", None),
        (
            # A replay reads the name as its recording did, when the narrator asks.
            ["--provider", "replay:rec", "--narrator-model", "opus", "task"],
            {},
            "replay:rec",
            "opus",
        ),
    ],
)
def test_the_provider_and_narrator_model_are_settled_on_the_arguments(
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    environ: dict[str, str],
    provider: str,
    narrator: str | None,
) -> None:
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    args = run_parser().parse_args(argv)

    assembly = assembly_from(args)

    assert (assembly.provider, assembly.narrator_model) == (provider, narrator)
