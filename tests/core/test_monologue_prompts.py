"""The narrator's config, prompts and answer reading: validation, presets, custom prompts,
truncation, the wait signal."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from agentui.core.monologue.action import MAX_DETAIL_CHARS, Action, ActionKind
from agentui.core.monologue.config import MonologueConfig, MonologueConfigError
from agentui.core.monologue.narrator import NarrationAsk, Narrator, extract_text
from agentui.core.monologue.prompts import (
    DEFAULT_PROMPT,
    FORCED_NOTE,
    MAX_PROMPT_ACTIONS,
    RESULT_CHARS,
    TERSE_PROMPT,
    VERBOSE_PROMPT,
    WAIT_SIGNAL,
    describe,
    format_actions,
    system_prompt,
    truncate,
    user_prompt,
)

from .test_monologue_fakes import FakeNarrator, call, result, text, thought

NOON = 1_767_268_800.0  # 2026-01-01T12:00:00Z

# -- config ----------------------------------------------------------------------------------


def test_config_defaults_follow_the_seed() -> None:
    config = MonologueConfig()
    assert (config.min_buffer, config.max_buffer, config.history_size) == (1, 10, 5)
    assert config.model == "haiku" and config.resolved_model == "claude-haiku-4-5"
    assert config.system_prompt is None and config.preset == "default"
    assert config.enabled


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"min_buffer": 0}, "min_buffer"),
        ({"min_buffer": 4, "max_buffer": 3}, "max_buffer"),
        ({"history_size": -1}, "history_size"),
        ({"model": ""}, "model"),
        ({"preset": "chatty"}, "preset"),
        ({"timeout_s": 0}, "timeout_s"),
        ({"buffer": 3}, "buffer"),
    ],
)
def test_invalid_config_names_the_field(settings: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        MonologueConfig.model_validate(settings)
    assert [e["loc"] for e in caught.value.errors()] == [(field,)]
    with pytest.raises(MonologueConfigError, match=rf"monologue\.{field}: "):
        MonologueConfig.from_mapping(settings)


def test_max_below_min_says_both_numbers() -> None:
    with pytest.raises(
        ValidationError, match=r"max_buffer \(2\) must be at least min_buffer \(5\)"
    ):
        MonologueConfig(min_buffer=5, max_buffer=2)


def test_model_aliases_resolve_and_ids_pass_through() -> None:
    assert MonologueConfig(model="opus").resolved_model == "claude-opus-4-8"
    assert MonologueConfig(model="claude-haiku-4-5-20251001").resolved_model == (
        "claude-haiku-4-5-20251001"
    )
    custom = MonologueConfig(model="cheap", model_aliases={"cheap": "my-model-1"})
    assert custom.resolved_model == "my-model-1"


# -- prompts ---------------------------------------------------------------------------------


def test_truncate_keeps_one_line_within_the_limit() -> None:
    assert truncate("short", 10) == "short"
    assert truncate("a  b\n\nc", 10) == "a b c"
    cut = truncate("x" * 50, 10)
    assert cut == "x" * 9 + "…" and len(cut) == 10


def test_actions_render_with_times_and_results_truncated() -> None:
    long_result = "line " * 100
    actions = [
        Action(ActionKind.THINKING, NOON, "Where is the port set?"),
        Action(ActionKind.TOOL_CALL, NOON + 1, '{"path": "app.toml"}', "read_file"),
        Action(ActionKind.TOOL_RESULT, NOON + 2, long_result, "read_file"),
        Action(ActionKind.TOOL_RESULT, NOON + 3, "no such file", "stat", is_error=True),
        Action(ActionKind.TEXT, NOON + 4, "The port\nis 8080."),
    ]
    lines = format_actions(actions).splitlines()
    assert lines[0] == "[12:00:00] thought: Where is the port set?"
    assert lines[1] == '[12:00:01] called read_file {"path": "app.toml"}'
    assert lines[2].startswith("[12:00:02] read_file returned: line line")
    assert lines[2].endswith("…")
    assert len(describe(actions[2])) == len("read_file returned: ") + RESULT_CHARS
    assert lines[3] == "[12:00:03] stat failed: no such file"
    assert lines[4] == "[12:00:04] wrote: The port is 8080."


def test_details_are_capped_when_buffered() -> None:
    assert len(result(detail="y" * 10_000).detail) == MAX_DETAIL_CHARS


def test_a_long_buffer_shows_only_the_newest_actions() -> None:
    actions = [thought(f"step {n}") for n in range(MAX_PROMPT_ACTIONS + 5)]
    lines = format_actions(actions).splitlines()
    assert lines[0] == "(5 earlier actions not shown)"
    assert lines[1].endswith("step 5") and lines[-1].endswith(f"step {MAX_PROMPT_ACTIONS + 4}")


def test_user_prompt_has_history_then_actions_then_the_ask() -> None:
    prompt = user_prompt([call(), result()], ["I opened the config.", "I found the port."])
    assert prompt == (
        "What you said before, oldest first:\n"
        "1. I opened the config.\n"
        "2. I found the port.\n"
        "\n"
        "What you did since (times UTC):\n"
        '[00:00:00] called lookup {"query": "port"}\n'
        "[00:00:00] lookup returned: found: 8080\n"
        "\n"
        f"Your next line, or only {WAIT_SIGNAL} if there is nothing worth saying yet:"
    )


def test_user_prompt_without_history_and_when_forced_or_final() -> None:
    first = user_prompt([thought()], [])
    assert first.startswith("What you did (times UTC):\n") and "said before" not in first
    forced = user_prompt([thought()], [], forced=True)
    assert forced.endswith("Your next line; you cannot wait this time:")
    final = user_prompt([thought()], [], final_status="cancelled")
    assert final.endswith("the run has ended (cancelled) and you cannot wait:")


@pytest.mark.parametrize(
    ("preset", "template"),
    [("default", DEFAULT_PROMPT), ("terse", TERSE_PROMPT), ("verbose", VERBOSE_PROMPT)],
)
def test_presets_name_the_agent_and_offer_the_wait_signal(preset: str, template: str) -> None:
    config = MonologueConfig.model_validate({"preset": preset})
    prompt = system_prompt(config, agent_name="coder", actions=[], history=[])
    assert prompt == template.replace("{{agentName}}", "coder")
    assert "coder" in prompt and "{{" not in prompt
    assert f"exactly {WAIT_SIGNAL}" in prompt


def test_a_custom_prompt_fills_agent_name_events_and_history() -> None:
    config = MonologueConfig(
        system_prompt="You are {{agentName}} {curly}.\nDone so far:\n{{events}}\nSaid:\n{{history}}"
    )
    prompt = system_prompt(
        config,
        agent_name="reviewer",
        actions=[Action(ActionKind.TOOL_CALL, NOON, "{}", "diff")],
        history=["I read the diff."],
    )
    assert prompt == (
        "You are reviewer {curly}.\nDone so far:\n[12:00:00] called diff {}\nSaid:\n"
        "1. I read the diff."
    )
    empty = system_prompt(config, agent_name="r", actions=[], history=[])
    assert empty.endswith("Said:\n(nothing yet)")


def test_forced_and_final_notes_are_added_to_any_prompt() -> None:
    config = MonologueConfig(system_prompt="Be {{agentName}}.")
    forced = system_prompt(config, agent_name="coder", actions=[], history=[], forced=True)
    assert forced == f"Be coder.\n\n{FORCED_NOTE}"
    final = system_prompt(config, agent_name="coder", actions=[], history=[], final_status="error")
    assert final.startswith("Be coder.\n\ncoder has stopped working (error).")
    assert final.endswith("You may not wait.")


def test_the_narrator_request() -> None:
    narrator = Narrator(FakeNarrator(), MonologueConfig(max_tokens=120, model="sonnet"))
    ask = NarrationAsk("a7", "coder", [call(), result(), text()], ["I began."])
    request = narrator.build_request(ask)
    assert request.purpose == "narrator"
    assert (request.agent_id, request.agent_name) == ("a7", "coder")
    assert request.model == "claude-sonnet-4-6" and request.max_tokens == 120
    assert request.thinking_budget == 0, "a summary needs no thinking, whatever agents get"
    assert request.tools == [] and len(request.messages) == 1
    assert request.messages[0].role == "user"
    assert request.messages[0].text == user_prompt(ask.actions, ask.history)
    assert request.instructions.startswith("You are the inner voice of coder")


# -- reading the answer ----------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["...", "", "   ", "\n...\n", "…", '"..."', "'…'"])
def test_the_wait_signal_and_empty_answers_mean_wait(raw: str) -> None:
    assert extract_text(raw) is None


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("I found the port.", "I found the port."),
        ("  I found\n the port.  ", "I found the port."),
        ('"I found the port."', "I found the port."),
        ("“I found it.”", "I found it."),
        ("... and then I found it.", "... and then I found it."),
    ],
)
def test_answers_are_trimmed_and_unquoted(raw: str, text: str) -> None:
    assert extract_text(raw) == text
