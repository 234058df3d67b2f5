"""agentui under a real third-party ACP client: acpx (npm), which ends the agent's process
after every turn and comes back with `session/load`. The issue's repro: a session made with
`sessions new` (never prompted), a prompt whose question the person answers in their next
prompt (acpx's --approve-all picks "Answer it in your next prompt"), and that next prompt, in a
new agentui process, answering it.

acpx comes from npm, installed before the suite (tests/third_party.py); without it the test is
skipped and says how to install it."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..forks import FORKS
from ..third_party import program
from .acp_client import TIMEOUT_S, child_env, sessions_dir
from .test_acp_reconnect import AFTER_THE_ANSWER, ASKING, Agents

# The queue owner acpx keeps between prompts stops this long after its turn, ending the agent
# (the shortest acpx takes; its default keeps it five minutes).
IDLE_S = "0.1"


@pytest.fixture(scope="module")
def acpx() -> Path:
    return program("acpx")


@pytest.fixture
def acpx_home() -> Iterator[Path]:
    """acpx's own state: a short path, since its queue's Unix socket lives under it (a socket's
    path holds at most 107 bytes, and pytest's temporary paths are long)."""
    home = Path(tempfile.mkdtemp(prefix="acpx-"))
    try:
        yield home
    finally:
        shutil.rmtree(home, ignore_errors=True)


class Acpx:
    """acpx in home/work, its own state in `acpx_home`, running `agentui acp` on a script
    this test rewrites before each process of agentui starts."""

    def __init__(self, binary: Path, home: Path, acpx_home: Path) -> None:
        self.binary, self.acpx_home = binary, acpx_home
        self.work = home / "work"
        self.work.mkdir(parents=True)
        self.script = home / "script.json"
        self.env = child_env(home) | {"HOME": str(acpx_home)}
        agent = FORKS.command("module", "agentui.tui.cli.main", "acp", "--workflow", "plain")
        self.agent = " ".join([*agent, "--script", str(self.script)])

    def plays(self, agents: Agents) -> None:
        self.script.write_text(json.dumps({"agents": agents}), "utf-8")

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            [str(self.binary), "--ttl", IDLE_S, "--agent", self.agent, *args],
            cwd=self.work,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return f"{done.stdout}\n{done.stderr}"  # acpx says some on each

    def wait_for_the_agent_to_end(self, record_id: str) -> None:
        """Until the agentui process acpx last started for the session and acpx's queue owner
        have exited (acpx ends both once idle): the next prompt then starts a new agentui,
        which loads the session, and nothing of the test outlives it."""
        acpx_state = self.acpx_home / ".acpx"
        record = acpx_state / "sessions" / f"{record_id}.json"
        pids = [json.loads(record.read_text("utf-8")).get("pid")]
        for lock in (acpx_state / "queues").glob("*.lock"):
            try:
                pids.append(json.loads(lock.read_text("utf-8")).get("pid"))
            except (OSError, ValueError):
                continue  # released meanwhile
        for pid in pids:
            if isinstance(pid, int):
                _until_ended(pid)


def _until_ended(pid: int) -> None:
    """Wait for the process's end (not a child of this test: its pidfd says when), failing
    after TIMEOUT_S."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return  # ended already
    try:
        ended, _, _ = select.select([handle], [], [], TIMEOUT_S)
    finally:
        os.close(handle)
    assert ended, "acpx's agent process did not end"


def test_acpx_answers_a_question_in_the_next_prompt_across_processes(
    acpx: Path, acpx_home: Path, tmp_path: Path
) -> None:
    run = Acpx(acpx, tmp_path, acpx_home)
    run.plays(ASKING)
    (created,) = set(re.findall(r"\d{8}T\d{6}Z-[0-9a-f]{4}", run("sessions", "new")))
    first = run("--approve-all", "prompt", "Plan a small team offsite")
    assert "**main asks:** Where, and what budget?" in first
    assert "[done] end_turn" in first
    run.wait_for_the_agent_to_end(created)

    run.plays(AFTER_THE_ANSWER)
    second = run("--approve-all", "prompt", "Budget under 2000 EUR, Lisbon")
    run.wait_for_the_agent_to_end(created)
    assert "Your prompt answers main's open question." in second
    assert "Booked the offsite." in second
    assert "asks:**" not in second, "the question was answered, not asked again"
    # The session acpx created is the one both prompts went to: it loaded, never prompted.
    assert [p.name for p in sessions_dir(tmp_path).glob("*.jsonl")] == [f"{created}.jsonl"]
