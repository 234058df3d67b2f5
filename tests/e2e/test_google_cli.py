"""`agentui run` on Gemini, as a person runs it: a child process, the stub server as the API.

The child finds the stub through GOOGLE_GEMINI_BASE_URL, as a person points it at another
endpoint; the test's event loop serves it while the child runs (`anyio.run_process`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .cli_runs import agentui, child_env, events, without_timing
from .gemini_api import MODEL, MinimalGemini, call, error_reply, response, text, thought
from .stub_server import StubServer, sse_reply

SECRET = "AIzaSy-test-SECRET-cli"
TASK = "Plan a trip to Lisbon"


def gemini_env(stub: StubServer, home: Path, key: str = "GEMINI_API_KEY") -> dict[str, str]:
    return child_env(home, **{key: SECRET, "GOOGLE_GEMINI_BASE_URL": stub.url})


@pytest.mark.anyio
@pytest.mark.parametrize("key", ["GEMINI_API_KEY", "GOOGLE_API_KEY"])
async def test_a_gemini_key_in_the_environment_runs_on_gemini(key: str, tmp_path: Path) -> None:
    async with StubServer(MinimalGemini()) as stub:
        stub.reply(
            sse_reply(response(thought("Lisbon in May."), text("Hello "), text("from Gemini.")))
        )
        code, stdout, stderr = await agentui(
            "run", "--json", TASK, env=gemini_env(stub, tmp_path, key), cwd=tmp_path
        )

    assert code == 0, stderr
    run = events(stdout)
    (request, *_) = [e for e in run if e["type"] == "llm:request"]
    assert request["model"] == MODEL
    assert [e["delta"] for e in run if e["type"] == "text:delta"] == ["Hello ", "from Gemini."]
    assert [e["delta"] for e in run if e["type"] == "thinking:delta"] == ["Lisbon in May."]
    first = stub.requests[0]
    assert first.path == f"/v1/models/{MODEL}:streamGenerateContent?alt=sse"
    assert first.headers["x-goog-api-key"] == SECRET
    assert first.json()["generationConfig"]["thinkingConfig"] == {
        "include_thoughts": True,
        "thinking_budget": 2048,
    }, "the command line's default thinking budget"
    assert SECRET not in stdout + stderr


@pytest.mark.anyio
async def test_record_then_replay_offline_gives_the_same_events(tmp_path: Path) -> None:
    recording = tmp_path / "recording"
    async with StubServer() as stub:
        stub.reply(
            sse_reply(response(call("ask_user", {"question": "Which month?"}, call_id="c-1"))),
            sse_reply(response(text("Go in May."))),
        )
        code, recorded, stderr = await agentui(
            "run", "--json", "--answer", "May", "--record", str(recording), TASK,
            env=gemini_env(stub, tmp_path), cwd=tmp_path,
        )  # fmt: skip
    assert code == 0, stderr
    assert sorted(p.name for p in recording.iterdir()) == ["main-0000.json", "main-0001.json"]
    assert SECRET not in "".join(p.read_text() for p in recording.iterdir())
    answer = stub.requests[1].json()["contents"][-1]
    assert answer["parts"][0]["functionResponse"]["name"] == "ask_user"

    # No key, no server: the replay is offline.
    code, replayed, stderr = await agentui(
        "run", "--json", "--answer", "May", "--provider", f"replay:{recording}", TASK,
        env=child_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip

    assert code == 0, stderr
    assert [without_timing(e) for e in events(replayed)] == [
        without_timing(e) for e in events(recorded)
    ]


@pytest.mark.anyio
async def test_a_rejected_key_is_one_clear_line_without_a_traceback(tmp_path: Path) -> None:
    async with StubServer() as stub:
        stub.reply(
            error_reply(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.")
        )
        code, stdout, stderr = await agentui(
            "run", TASK, env=gemini_env(stub, tmp_path), cwd=tmp_path
        )

    assert code == 1
    assert (
        "agentui: main did not complete: the API key was rejected "
        "(check GOOGLE_API_KEY or GEMINI_API_KEY)"
    ) in stderr
    assert "Traceback" not in stderr
    assert SECRET not in stdout + stderr


@pytest.mark.anyio
async def test_asking_for_gemini_without_a_key_exits_2_with_a_clear_message(
    tmp_path: Path,
) -> None:
    code, stdout, stderr = await agentui(
        "run", "--provider", "google", TASK, env=child_env(tmp_path), cwd=tmp_path
    )

    assert code == 2
    assert stderr.startswith("agentui: GOOGLE_API_KEY or GEMINI_API_KEY is not set")
    assert "Traceback" not in stderr
    assert stdout == ""
