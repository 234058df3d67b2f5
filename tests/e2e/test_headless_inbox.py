"""`agentui run` as a person runs it, with `[attention] stalled_after_s` in the config file: a
running agent that goes silent is said on stderr as the inbox's row (the stall watch runs in
every front end's runtime, from assemble)."""

from __future__ import annotations

import json
import re
import signal
import sys
from pathlib import Path

import anyio
import pytest

from .cli_runs import TIMEOUT_S, child_env

pytestmark = pytest.mark.anyio


async def test_a_silent_agent_is_said_stalled(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text("[attention]\nstalled_after_s = 0.2\n")
    script = tmp_path / "script.json"
    script.write_text(
        json.dumps({"agents": {"main": [{"text": "working", "hang_after_chunks": 1}]}})
    )
    command = [sys.executable, "-m", "agentui.tui.cli.main", "run", "--script", str(script), "dig"]
    said = b""
    async with await anyio.open_process(
        command, env=child_env(tmp_path), cwd=tmp_path, stdin=None
    ) as process:
        assert process.stderr is not None
        try:
            with anyio.fail_after(TIMEOUT_S):  # a safety net: the line comes after 0.2 s
                async for chunk in process.stderr:
                    said += chunk
                    if b"inbox: stalled" in said:
                        break
        except TimeoutError:
            process.kill()  # else leaving the block waits for it for ever
            with anyio.move_on_after(TIMEOUT_S):
                said += b"".join([chunk async for chunk in process.stderr])
                await process.wait()
            pytest.fail(f"no stall said in {TIMEOUT_S} s; it said: {said.decode()!r}")
        process.send_signal(signal.SIGINT)
        with anyio.fail_after(TIMEOUT_S):
            said += b"".join([chunk async for chunk in process.stderr])
            await process.wait()
    text = said.decode()
    # Said within a second or so of the stall (a loaded machine's loop may be a second late).
    assert re.search(r"\ninbox: stalled · main · no word from it since \d+ s ago\n", text)
    assert text.count("inbox: stalled") == 1


async def test_a_bad_stall_setting_is_one_clear_message(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('[attention]\nstalled_after_s = "5m"\n')
    with anyio.fail_after(TIMEOUT_S):
        done = await anyio.run_process(
            [sys.executable, "-m", "agentui.tui.cli.main", "config", "show"],
            env=child_env(tmp_path),
            cwd=tmp_path,
            check=False,
        )
    assert done.returncode != 0
    [line] = done.stderr.decode().splitlines()
    assert line.endswith(
        "attention.stalled_after_s: must be a number of seconds from 0 (off) to 86400 (got '5m')"
    )
