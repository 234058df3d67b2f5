"""A Gemini stream that fails after it began, as `agentui run` shows it: one line saying what
went wrong, never a Python traceback from closing the SDK's stream (the real CLI in a child
process against the stub server on 127.0.0.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .cli_runs import agentui, child_env
from .gemini_api import chunk, response, stream_error, text, usage
from .stub_server import Drop, StubServer, sse_reply

pytestmark = pytest.mark.anyio

TASK = "What port does the service use?"


@pytest.mark.parametrize(
    ("failure", "said"),
    [
        (stream_error(), "the API failed mid-response (503 UNAVAILABLE: The model is overloaded.)"),
        (Drop(), "the connection to the API dropped mid-response"),
    ],
    ids=["error-chunk", "dropped"],
)
async def test_a_mid_stream_failure_is_said_in_one_line_and_prints_no_traceback(
    failure: object, said: str, tmp_path: Path
) -> None:
    async with StubServer() as stub:
        stub.reply(
            sse_reply([chunk(text("Half an ans"), tokens=usage(12, 2)), failure]),
            sse_reply(response(text("A whole answer."))),
        )
        env = child_env(tmp_path, GEMINI_API_KEY="test-key", GOOGLE_GEMINI_BASE_URL=stub.url)
        code, stdout, stderr = await agentui("run", TASK, env=env, cwd=tmp_path)

    assert code == 0, stderr
    assert stdout.endswith("A whole answer.\n"), stdout
    assert f"[main] model: {said}" in stderr, stderr
    assert "Traceback" not in stderr and "aclose()" not in stderr, stderr
