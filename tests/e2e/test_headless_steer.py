"""Steering from `agentui run`: a --steer flag, or a '/steer NAME MESSAGE' line on stdin."""

from __future__ import annotations

from .test_headless import TASK, agentui, json_events, of_type


def test_a_steer_flag_reaches_the_named_agent_s_next_model_call() -> None:
    done = agentui("run", "--json", "--answer", "Lisbon", "--steer", "main: Prefer trains.", TASK)
    assert done.returncode == 0, done.stderr
    events = json_events(done.stdout)
    (steer,) = [e for e in of_type(events, "intervention:applied") if e.kind == "steer"]  # type: ignore[attr-defined]
    assert steer.detail == "Prefer trains."  # type: ignore[attr-defined]
    (queued,) = [e for e in of_type(events, "note:queued") if e.from_person]  # type: ignore[attr-defined]
    delivered = [e for e in of_type(events, "note:delivered") if queued.note_id in e.note_ids]  # type: ignore[attr-defined]
    assert delivered, "the model read it with its next call"
    assert "[you → main] Prefer trains." in done.stderr


def test_a_steer_line_on_stdin_is_not_taken_as_an_answer() -> None:
    done = agentui("run", TASK, stdin="/steer main Mind the budget.\nLisbon\n")
    assert done.returncode == 0, done.stderr
    assert "[you → main] Mind the budget." in done.stderr
    assert "Lisbon" in done.stdout, "the next plain line answered the question"
    assert "focus on: *Mind the budget" not in done.stdout, "the steer was not the answer"


def test_a_steer_for_an_agent_that_never_starts_says_so() -> None:
    done = agentui("run", "--answer", "Lisbon", "--steer", "main.9: hello", TASK)
    assert done.returncode == 0, done.stderr
    assert "not steered: no agent named main.9 started" in done.stderr


def test_a_malformed_steer_flag_is_refused() -> None:
    done = agentui("run", "--steer", "no colon here", TASK)
    assert done.returncode == 2
    assert "a steer is 'AGENT: MESSAGE'" in done.stderr


def test_a_question_left_unanswered_at_the_end_of_stdin_says_so() -> None:
    done = agentui("run", TASK)  # stdin is empty: the question is declined
    assert "(no answer: stdin has ended, so it is declined)" in done.stderr
