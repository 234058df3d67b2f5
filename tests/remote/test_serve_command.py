"""`agentui serve` as a person runs it: a signal stops it in order; killed (SIGKILL) and
started again with `--resume`, it keeps the seqs and `/events?since=N` goes on; no provider
key in any answer; anything but loopback needs `--allow-remote`."""

from __future__ import annotations

import signal
from pathlib import Path

import anyio
import httpx2
import pytest

from agentui.core.protocol.events import Event
from agentui.core.remote.client import RemoteClient
from agentui.core.session.reader import read_session
from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.serve import _refusal_in
from tests.e2e.cli_runs import agentui, child_env

from .event_reader import EventReader, of_type, status
from .serve_process import serve_process

pytestmark = pytest.mark.anyio

ASKS = """
[[agents."*"]]
text = "Let me ask first."
tool_calls = [{ name = "ask_user", arguments = { question = "Which city?" } }]

[[agents."*"]]
text = "Lyon it is."
"""
SECRET = "sk-ant-secret-do-not-show-0123456789"
POLL_S = 0.02  # the session file is flushed by a thread: looked at until it holds a line


def script(home: Path) -> Path:
    path = home / "asks.toml"
    path.write_text(ASKS)
    return path


async def saved_up_to(served_home: Path, seq: int) -> None:
    """Wait until the session file holds the event `seq` (the writer flushes on its own)."""
    marker = f'"seq":{seq},'.encode()
    with anyio.fail_after(30):
        while True:
            files = sorted((served_home / "data" / "sessions").glob("*.jsonl"))
            if files and marker in files[0].read_bytes():
                return
            await anyio.sleep(POLL_S)


async def test_sigterm_stops_the_agents_then_the_server(tmp_path: Path) -> None:
    async with serve_process(tmp_path, "--script", str(script(tmp_path))) as served:
        async with RemoteClient(served.url, served.token) as client:
            agent_id = await client.start("plan a trip")
            reader = EventReader(client)
            await reader.until(status(agent_id, "awaiting_user"))
            code, errors = await served.stop(signal.SIGTERM)
            rest = await reader.rest()  # the stream ends with the agent's end
        assert code == 0, errors
        assert "session" in errors and "--resume" in errors
        assert any(status(agent_id, "cancelled")(e) for e in rest)
        (session,) = served.session_files()
        ended = [e for e in read_session(session).events if status(agent_id, "cancelled")(e)]
        assert ended and ended[-1].reason == "the runtime shut down"  # type: ignore[attr-defined]


async def test_a_killed_server_resumed_keeps_the_seqs(tmp_path: Path) -> None:
    toml = str(script(tmp_path))
    async with (
        serve_process(tmp_path, "--script", toml) as first,
        RemoteClient(first.url, first.token) as client,
    ):
        agent_id = await client.start("plan a trip")
        reader = EventReader(client)
        waiting = await reader.until(status(agent_id, "awaiting_user"))
        await saved_up_to(tmp_path, waiting[0].seq)
        before: list[Event] = list(reader.events)
        first.process.kill()  # SIGKILL: no orderly end
        with anyio.fail_after(60):
            await first.process.wait()
    (raised,) = [e for e in before if of_type("query:raised", agent_id)(e)]
    saved = {e.seq: e.type for e in before if e.seq <= waiting[0].seq and "delta" not in e.type}
    async with serve_process(tmp_path, "--script", toml, "--resume") as second:
        async with RemoteClient(second.url, second.token) as client:
            info = await client.info()
            # run:resumed, and the agent's run taken up again (its execution:start), emitted
            # when the server started
            assert info.last_seq > waiting[0].seq
            history = EventReader(client)
            await history.until(lambda e: e.seq == info.last_seq)
            replayed = {e.seq: e.type for e in history.events if e.seq in saved}
            assert replayed == saved  # the same events under the same seqs
            # It waits on its question again, still open under its id (a kill closed nothing).
            waits_again = (await client.tree())[agent_id]
            assert waits_again["status"] == "awaiting_user"
            (row,) = await client.inbox()
            assert (row.kind, row.query_ids) == ("question", [raised.query_id])  # type: ignore[attr-defined]
            # A client that had seen up to `mark` gets only what came after it.
            mark = waiting[0].seq
            later = EventReader(client, since=mark)
            await later.until(lambda e: e.seq == info.last_seq)
            assert [e.seq for e in later.events] == [e.seq for e in history.events if e.seq > mark]
            # New work goes on numbering from there.
            await client.answer(raised.query_id, "Lyon")  # type: ignore[attr-defined]
            answered = await later.until(of_type("query:answered", agent_id))
            assert answered[-1].seq > info.last_seq
            await history.aclose()
            await later.aclose()
        code, errors = await second.stop()
        assert code == 0, errors
        # Which one, and what waits for the person in it.
        assert "agentui serve: resuming session " in errors
        assert ", 1 waiting for you (GET /inbox)\n" in errors


async def test_no_provider_key_in_any_answer(tmp_path: Path) -> None:
    toml = str(script(tmp_path))
    options = ("--script", toml, "--provider", "scripted")
    async with serve_process(tmp_path, *options, ANTHROPIC_API_KEY=SECRET) as served:
        headers = {"Authorization": f"Bearer {served.token}"}
        async with httpx2.AsyncClient(base_url=served.url, headers=headers) as http:
            started = await http.post("/tasks", json={"task": "plan a trip"})
            agent_id = started.json()["agent_id"]
            bodies = [started.text]
            async with RemoteClient(served.url, served.token) as client:
                reader = EventReader(client)
                last = await reader.until(status(agent_id, "awaiting_user"))
                await reader.aclose()
            for path in ("/info", "/agent/tree", f"/agent/{agent_id}", "/snapshot", "/sessions"):
                response = await http.get(path)
                assert response.status_code == 200, path
                bodies.append(response.text)
            bodies.append((await http.get("/openapi.json")).text)
            bodies.append((await http.post("/agent/nope/pause")).text)
            async with http.stream("GET", "/events") as stream:
                async for line in stream.aiter_lines():
                    bodies.append(line)
                    if f'"seq":{last[0].seq},' in line:
                        break
        assert all(SECRET not in body and "sk-ant" not in body for body in bodies)


async def test_anything_but_loopback_needs_allow_remote(tmp_path: Path) -> None:
    env = child_env(tmp_path)
    code, _, errors = await agentui("serve", "--host", "0.0.0.0", env=env, cwd=tmp_path)
    assert code == 2
    assert "--allow-remote" in errors and "not loopback" in errors
    assert not (tmp_path / "state" / "serve" / "token").exists()
    # With the flag it warns, naming the token file (192.0.2.1 is nowhere: it cannot bind).
    code, _, errors = await agentui(
        "serve", "--host", "192.0.2.1", "--allow-remote", "--port", "0", env=env, cwd=tmp_path
    )
    token_file = tmp_path / "state" / "serve" / "token"
    assert "warning: serving on 192.0.2.1" in errors and str(token_file) in errors
    assert code == 2 and "cannot listen on 192.0.2.1" in errors


def test_a_refusal_inside_the_run_is_one_message() -> None:
    refusal = AgentUIError("cannot open the session file")
    assert _refusal_in(ExceptionGroup("run", [ExceptionGroup("served", [refusal])])) is refusal
    assert _refusal_in(ExceptionGroup("run", [refusal, ValueError("a bug")])) is None
    assert _refusal_in(ValueError("a bug")) is None


async def test_a_restart_reuses_the_token_and_new_token_makes_another(tmp_path: Path) -> None:
    async with serve_process(tmp_path) as first:
        token = first.token
        code, errors = await first.stop()
    assert code == 0 and "reusing" not in errors
    async with serve_process(tmp_path) as second:
        assert (second.token_file, second.token) == (first.token_file, token)
        code, errors = await second.stop()
    assert f"agentui serve: reusing the token in {first.token_file}" in errors
    async with serve_process(tmp_path, "--new-token") as third:
        assert third.token != token
        await third.stop()


async def test_a_second_server_that_cannot_listen_leaves_the_token_alone(tmp_path: Path) -> None:
    async with serve_process(tmp_path, "--new-token") as served:
        token = served.token
        port = served.url.rsplit(":", 1)[1]
        env = child_env(tmp_path)
        for extra in ((), ("--new-token",)):
            code, _, errors = await agentui("serve", "--port", port, *extra, env=env, cwd=tmp_path)
            assert code == 2 and f"cannot listen on 127.0.0.1:{port}" in errors
            assert served.token == token
        async with RemoteClient(served.url, token) as client:
            assert (await client.info()).last_seq == 0  # the first server still takes it
        await served.stop()


async def test_a_token_file_others_may_read_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared-token"
    shared.write_text("a-token-of-at-least-sixteen-characters\n")
    shared.chmod(0o644)
    code, out, errors = await agentui(
        "serve", "--token-file", str(shared), "--port", "0", env=child_env(tmp_path), cwd=tmp_path
    )
    assert code == 2 and not out
    assert f"cannot use the token file {shared}: others may read it" in errors
    assert f"chmod 600 {shared}" in errors


async def test_a_server_whose_session_cannot_be_written_says_so_when_it_stops(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the sessions folder would go\n")
    unmakeable = str(blocker / "data")  # fails for root too: a file is in the way
    options = ("--script", str(script(tmp_path)))
    async with (
        serve_process(tmp_path, *options, AGENTUI_DATA_DIR=unmakeable) as served,
        RemoteClient(served.url, served.token) as client,
    ):
        agent_id = await client.start("plan a trip")
        await EventReader(client).until(status(agent_id, "awaiting_user"))
        code, errors = await served.stop(signal.SIGTERM)
    assert code == 0, errors
    assert "this session was not saved" in errors, errors
    assert "--resume" not in errors, "no session that does not exist is offered"
