"""`agentui run --budget`: a budget stop is said on stderr with what can be done, read like an
answer (`raise ...`, `continue`, `cancel`), and the end of stdin cancels rather than waits."""

from __future__ import annotations

from pathlib import Path

import pytest

from .cli_runs import agentui, child_env, events

pytestmark = pytest.mark.anyio

TASK = "Plan a trip to Lisbon"


async def test_a_budget_stop_is_said_and_the_end_of_stdin_cancels(tmp_path: Path) -> None:
    code, stdout, stderr = await agentui(
        "run", "--budget", "tokens=100", "--no-session", TASK, env=child_env(tmp_path),
        cwd=tmp_path,
    )  # fmt: skip
    assert code == 1
    assert "[main] budget: 100 tok" in stderr
    assert "[main] budget reached:" in stderr
    assert "main is paused: raise the budget, continue once, or cancel" in stderr
    assert "(raise tokens=N,usd=N,... to raise it, continue" in stderr
    assert "[main] cancelled at its budget stop (stdin has ended)" in stderr
    assert stdout == ""


async def test_an_answer_raises_the_budget_and_the_run_completes(tmp_path: Path) -> None:
    # The first answer is the agent's question's, the second the budget stop's.
    code, stdout, stderr = await agentui(
        "run", "--budget", "tokens=100", "--answer", "the sights",
        "--answer", "raise tokens=100000", "--no-session", TASK, env=child_env(tmp_path),
        cwd=tmp_path,
    )  # fmt: skip
    assert code == 0, stderr
    assert "[main] budget raised to 100k tok" in stderr
    assert stdout.strip()


async def test_json_output_carries_the_stop_as_an_event(tmp_path: Path) -> None:
    code, stdout, _ = await agentui(
        "run", "--json", "--budget", "model_calls=1", "--no-session", TASK,
        env=child_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    assert code == 1
    stops = [e for e in events(stdout) if e["type"] == "budget:stop"]
    assert [(s["measure"], s["limit"], s["spent"]) for s in stops] == [("model_calls", 1, 1)]


async def test_a_bad_budget_is_refused_before_anything_runs(tmp_path: Path) -> None:
    code, _, stderr = await agentui(
        "run", "--budget", "dollars=2", TASK, env=child_env(tmp_path), cwd=tmp_path
    )
    assert code == 2
    assert "argument --budget: budget 'dollars' is not one of tokens, usd" in stderr


async def test_a_line_not_understood_at_a_stop_is_said_and_the_next_one_is_read(
    tmp_path: Path,
) -> None:
    code, stdout, stderr = await agentui(
        "run", "--budget", "tokens=100", "--answer", "the sights", "--answer", "more please",
        "--answer", "raise tokens=100k", "--no-session", TASK, env=child_env(tmp_path),
        cwd=tmp_path,
    )  # fmt: skip
    assert code == 0, stderr
    assert "still paused" in stderr and "cancelled" not in stderr
    assert "[main] budget raised to 100k tok" in stderr  # the labels' own form, typed back
    assert stdout.strip()
    # The next line is asked for with a prompt again, and its echo follows it.
    assert (
        "still paused (raise tokens=N,usd=N,... to raise it, continue for one more step "
        "past it, or cancel)\n> raise tokens=100k\n" in stderr
    )


async def test_continue_is_said_once(tmp_path: Path) -> None:
    code, _, stderr = await agentui(
        "run", "--budget", "model_calls=1", "--answer", "the sights", "--answer", "continue",
        "--no-session", TASK, env=child_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    assert stderr.count("goes on for one more step past its budget") == 1, stderr
    # One step, then the next stop, which the end of stdin cancels.
    assert code == 1 and "cancelled at its budget stop (stdin has ended)" in stderr
