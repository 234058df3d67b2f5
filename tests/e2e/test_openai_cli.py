"""`agentui` on OpenAI and on a local OpenAI-compatible server, as a person runs it: a child
process, the stub server as the API (found through OPENAI_BASE_URL or --base-url). The key
never shows: not in output, config show, session files, exports, recordings or logs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .chat_completions_api import completion, content, error_reply, tool_call
from .cli_runs import agentui, child_env, events
from .stub_server import StubServer, sse_reply

pytestmark = pytest.mark.anyio

SECRET = "sk-test-SECRET-openai-cli"
TASK = "Plan a trip to Lisbon"


def holding_the_key(home: Path) -> list[Path]:
    return [p for p in home.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]


async def test_an_openai_key_picks_openai_and_never_shows_anywhere(tmp_path: Path) -> None:
    """OPENAI_BASE_URL points at the stub, which is not OpenAI's API: the model is named."""
    async with StubServer() as stub:
        stub.reply(
            sse_reply(
                completion(
                    tool_call(0, "call_1", "ask_user", '{"question": ', '"Which month?"}'),
                    finish="tool_calls",
                )
            ),
            sse_reply(completion(content("Go in ", "May."))),
        )
        env = child_env(tmp_path, OPENAI_API_KEY=SECRET, OPENAI_BASE_URL=f"{stub.url}/v1")
        code, stdout, stderr = await agentui(
            "run", "--json", "--answer", "May", "--model", "gpt-5.4", "--record",
            str(tmp_path / "rec"), TASK,
            env=env, cwd=tmp_path,
        )  # fmt: skip
        shown = await agentui("config", "show", env=env, cwd=tmp_path)
        exported = await agentui("export", "last", "--format", "json", env=env, cwd=tmp_path)

    assert code == 0, stderr
    run = events(stdout)
    (first, _) = [e for e in run if e["type"] == "llm:request"]
    assert first["model"] == "gpt-5.4"
    assert [e["delta"] for e in run if e["type"] == "text:delta"] == ["Go in ", "May."]
    assert all(r.headers["authorization"] == f"Bearer {SECRET}" for r in stub.requests)
    second = stub.requests[1].json()
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": "May"}
    assert 'provider = "openai"' in shown[1] and "(OPENAI_API_KEY is set)" in shown[1]
    assert "#   OPENAI_API_KEY: set (openai)" in shown[1]
    assert exported[0] == 0, exported[2]
    assert not [out for out in (stdout, stderr, *shown[1:], *exported[1:]) if SECRET in out]
    assert holding_the_key(tmp_path) == [], "sessions, summaries, recordings hold no key"


async def test_a_local_server_runs_with_base_url_and_model_and_no_key(tmp_path: Path) -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply(completion(content("Local ", "answer."), usage=False)))
        code, stdout, stderr = await agentui(
            "run", "--provider", "openai", "--base-url", f"{stub.url}/v1", "--model", "qwen3:8b",
            TASK, env=child_env(tmp_path), cwd=tmp_path,
        )  # fmt: skip

    assert code == 0, stderr
    assert stdout == "Local answer.\n"
    body = stub.requests[0].json()
    assert body["model"] == "qwen3:8b"
    assert body["messages"][0]["role"] == "system"
    assert body["max_tokens"] == 4096


async def test_a_local_server_without_a_model_is_one_clear_message(tmp_path: Path) -> None:
    code, stdout, stderr = await agentui(
        "run", "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", TASK,
        env=child_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip

    assert code == 2
    assert stderr == (
        "agentui: name the model the server at http://127.0.0.1:9/v1 runs: --model NAME "
        "(as the server calls it, e.g. qwen3:8b on Ollama)\n"
    )
    assert stdout == ""


async def test_openai_without_a_key_is_one_clear_message(tmp_path: Path) -> None:
    code, _, stderr = await agentui(
        "run", "--provider", "openai", TASK, env=child_env(tmp_path), cwd=tmp_path
    )
    assert code == 2
    assert stderr.startswith("agentui: OPENAI_API_KEY is not set")
    assert "Traceback" not in stderr


async def test_nothing_listening_at_the_base_url_is_one_line_without_a_traceback(
    tmp_path: Path,
) -> None:
    async with StubServer() as stub:
        url = f"{stub.url}/v1"  # closed when the block ends: nothing listens there any more
    code, _, stderr = await agentui(
        "run", "--provider", "openai", "--base-url", url, "--model", "llama3.1", TASK,
        env=child_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip

    assert code == 1
    assert f"main did not complete: cannot reach {url} (is the server running?)" in stderr
    assert "Traceback" not in stderr


async def test_a_rejected_key_names_the_variable(tmp_path: Path) -> None:
    async with StubServer() as stub:
        stub.reply(error_reply(401, "Incorrect API key provided: sk-test-***-cli"))
        env = child_env(tmp_path, OPENAI_API_KEY=SECRET, OPENAI_BASE_URL=f"{stub.url}/v1")
        code, stdout, stderr = await agentui(
            "run", "--model", "gpt-5.4", TASK, env=env, cwd=tmp_path
        )

    assert code == 1
    assert "(check OPENAI_API_KEY)" in stderr
    assert SECRET not in stdout + stderr


@pytest.mark.parametrize(
    ("environ", "config", "provider", "narrator", "notice"),
    [
        ({}, "", "scripted", None, "offline scripted model (no API key)"),
        ({"OPENAI_API_KEY": "o"}, "", "openai", "gpt-5.4-nano", "picked by OPENAI_API_KEY"),
        (
            {"GOOGLE_API_KEY": "g"},
            "",
            "google",
            "gemini-3.1-flash-lite",
            "picked by GOOGLE_API_KEY",
        ),
        (
            {"OPENAI_API_KEY": "o", "GEMINI_API_KEY": "g", "ANTHROPIC_API_KEY": "a"},
            "",
            "anthropic",
            "claude-haiku-4-5",
            "picked by ANTHROPIC_API_KEY",
        ),
        (
            {"OPENAI_API_KEY": "o"},
            'base_url = "http://127.0.0.1:11434/v1"\nmodel = "qwen3:8b"\n',
            "openai",
            "qwen3:8b",
            "picked by OPENAI_API_KEY",
        ),
        ({"OPENAI_API_KEY": "o"}, 'provider = "scripted"\n', "scripted", None, ""),
        (
            {"GEMINI_API_KEY": "g"},
            'narrator_model = "flash"\n',
            "google",
            "gemini-3.8-flash",
            "picked by GEMINI_API_KEY",
        ),
    ],
    ids=[
        "no key",
        "openai",
        "google",
        "anthropic first",
        "local server",
        "named provider",
        "gemini alias",
    ],
)
def test_provider_choice_by_key_with_its_narrator_and_notice(
    tmp_path: Path,
    environ: dict[str, str],
    config: str,
    provider: str,
    narrator: str | None,
    notice: str,
) -> None:
    from agentui.core.config.settings import load_config
    from agentui.tui.cli.assemble import RunOptions, settle, status_notice

    path = tmp_path / "config.toml"
    path.write_text(config)
    assembly = settle(load_config(environ={}, path=path), RunOptions(), environ)

    assert (assembly.provider, assembly.narrator_model) == (provider, narrator)
    assert status_notice(assembly) == notice
