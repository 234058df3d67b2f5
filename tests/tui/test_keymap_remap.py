"""config.toml's [keys] table: each key id takes the keys given, checked with one clear message,
and the app's bindings, footer and help screen follow."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.config.sources import ConfigError
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.scene.scene_run import start_scene
from agentui.tui.app.keymap import DEFAULT_KEY_MAP, KEYS, key_map_for
from agentui.tui.app.screens.help import HelpScreen, keys_table
from agentui.tui.app.screens.scene_state import SceneStateScreen
from agentui.tui.app.textual_compat import FooterKey
from agentui.tui.app.widgets.query_blocks import AnswerInput
from agentui.tui.cli.app_keys import key_map_from

from ..core.scene_helpers import harbour
from ..core.session_helpers import gate_tool
from .helpers import a1_is, app_when, has_status, kinds, make_app, settle, toasts, write

GATED = Script.for_all(
    Turn(tool_calls=[ScriptedToolCall(name="gate")]), Turn(text="after the gate")
)
HOLD = Script.for_all(Turn(text="one two three four five six seven", hang_after_chunks=2))
ASKS = Script.for_all(
    Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})]),
    Turn(text="thanks"),
)
WHERE = "config file /home/me/.config/agentui/config.toml"


def test_every_key_has_its_own_id() -> None:
    ids = [k.id for k in KEYS]
    assert len(ids) == len(set(ids))


def test_a_table_gives_the_ids_its_keys_as_people_write_them() -> None:
    key_map = key_map_for({"pause": "P", "cancel": "c,x", "folds": "z", "help": "?"}, WHERE)
    # Only what changed goes to Textual's keymap; `?` is Textual's question_mark.
    assert key_map.textual_keymap() == {"pause": "P", "cancel": "c,x", "folds": "z"}
    rows = {what: keys for keys, _, what in key_map.help_rows()}
    assert rows["Cancel the selected agent and its subagents"] == "c,x"
    assert rows["Show every key"] == "?"


def test_no_table_is_the_built_in_keys() -> None:
    assert key_map_from(None, WHERE) == DEFAULT_KEY_MAP
    assert DEFAULT_KEY_MAP.textual_keymap() == {}


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ({"pauze": "p"}, "keys.pauze: not a key agentui has; the ids are: help, quit, pause,"),
        ({"pause": "ctrl+blah"}, "keys.pause: 'ctrl+blah' is not a key name"),
        ({"pause": " "}, "keys.pause: give one or more keys, comma separated"),
        ({"pause": "c"}, "keys.pause: c is cancel's key too (give that one another key)"),
        ({"pause": "tab"}, "keys.pause: tab is for choosing where keys go"),
        ({"steer": "ctrl+j"}, "keys.steer: ctrl+j is for a new line in a text box"),
        # Typing is sacred: a key that works in a text box too must not be one that types.
        ({"next_question": "w"}, "keys.next_question: w types a character: a key that works"),
        ({"new_task_anywhere": "space"}, "keys.new_task_anywhere: space types a character"),
        # Nor one a text box takes for itself: there the box would act on the words instead.
        (
            {"next_question": "ctrl+w"},
            "keys.next_question: ctrl+w is a text box's own key (delete left to start of word)",
        ),
        ({"scene": "f7"}, "keys.scene: f7 is a text box's own key (select all)"),
        ({"interrupt": "i"}, "keys.interrupt: esc twice interrupts"),
    ],
)
def test_a_bad_table_is_one_message_naming_the_file_and_the_id(
    table: dict[str, str], said: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        key_map_for(table, WHERE)
    assert str(raised.value).startswith(f"{WHERE}: {said}"), str(raised.value)


def test_swapped_keys_do_not_collide() -> None:
    key_map = key_map_for({"pause": "c", "cancel": "p"}, WHERE)
    assert key_map.textual_keymap() == {"pause": "c", "cancel": "p"}


def test_a_table_that_is_not_a_table_is_said() -> None:
    with pytest.raises(ConfigError, match="keys: must be a table of key ids"):
        key_map_from("p", WHERE)


def test_a_key_that_works_everywhere_may_take_a_modifier_or_a_function_key() -> None:
    key_map = key_map_for({"next_question": "ctrl+g", "scene": "F5"}, WHERE)
    assert key_map.textual_keymap() == {"next_question": "ctrl+g", "scene": "f5"}
    assert "next_question" not in key_map.typed_actions


def test_the_help_screen_lists_the_remapped_keys() -> None:
    key_map = key_map_for({"pause": "ctrl+x"}, WHERE)
    table = keys_table(key_map)
    assert "ctrl+x" in list(table.columns[0].cells)
    assert "ctrl+x" not in list(keys_table().columns[0].cells)


@pytest.mark.anyio
async def test_a_remapped_key_acts_the_old_one_does_not_and_the_footer_shows_it() -> None:
    release = anyio.Event()
    async with app_when(
        lambda app: "tool" in kinds(app, "a1"),
        "gated",
        GATED,
        tools=[gate_tool(release)],
        key_map=key_map_for({"pause": "ctrl+x", "resume": "u"}, WHERE),
    ) as (app, pilot):
        await pilot.pause()
        # Shown, not cut: at 80 columns the last keys do not fit, and Textual lists a remapped
        # binding last.
        footer_keys = {key.key for key in app.screen.query(FooterKey) if key.display}
        assert "ctrl+x" in footer_keys and "p" not in footer_keys
        await pilot.press("p")
        await pilot.pause()
        assert app.main.model.agents["a1"].status is S.RUNNING
        await pilot.press("ctrl+x")
        await settle(pilot, has_status(app, "a1", S.PAUSED))
        await pilot.press("u")
        release.set()
        await settle(pilot, has_status(app, "a1", S.COMPLETED))


@pytest.mark.anyio
async def test_a_key_a_text_box_does_not_use_acts_from_a_prompt_holding_words() -> None:
    key_map = key_map_for({"next_question": "ctrl+g"}, WHERE)
    async with app_when(
        lambda app: bool(app.main.model.open_queries), "ask", ASKS, key_map=key_map
    ) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.pause()
        await write(pilot, "half a thought")
        assert app.focused is app.main.prompt_view
        await pilot.press("ctrl+g")
        await settle(pilot, lambda: isinstance(app.focused, AnswerInput))
        assert app.main.prompt_view.value == "half a thought", "the words are all still there"


@pytest.mark.anyio
async def test_the_text_boxes_keys_that_work_everywhere_follow_a_remap() -> None:
    key_map = key_map_for({"help_anywhere": "f3", "scene": "f1"}, WHERE)
    async with app_when(a1_is(S.RUNNING), "hold", HOLD, key_map=key_map) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.pause()
        await pilot.press("f1")
        await settle(pilot, lambda: any("No directed scene" in t for t in toasts(app)))
        assert not isinstance(app.screen, HelpScreen), "f1 is the scene's key now"
        await pilot.press("f3")
        await settle(pilot, lambda: isinstance(app.screen, HelpScreen))


@pytest.mark.anyio
async def test_the_scene_s_remapped_key_closes_its_view_and_f2_does_not() -> None:
    app = make_app(
        start_with=lambda runtime: start_scene(runtime, harbour()),
        key_map=key_map_for({"scene": "f5"}, WHERE),
    )
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        await pilot.press("f5")
        await settle(pilot, lambda: isinstance(app.screen, SceneStateScreen))
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SceneStateScreen), "f2 is no longer the scene's key"
        await pilot.press("f5")
        await settle(pilot, lambda: not isinstance(app.screen, SceneStateScreen))


def test_the_manual_s_key_tables_are_valid() -> None:
    """A person copies the manual's [keys] examples first (docs/guide/keys.md, config.md):
    each must be accepted as written."""
    import re
    import tomllib
    from pathlib import Path

    guide = Path(__file__).resolve().parents[2] / "docs" / "guide"
    tables = [
        (page.name, tomllib.loads(block)["keys"])
        for page in sorted(guide.glob("*.md"))
        for block in re.findall(r"```toml\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)
        if "[keys]" in block
    ]
    assert {name for name, _ in tables} >= {"keys.md", "config.md"}, "the guide shows [keys]"
    for name, table in tables:
        key_map_for(table, name)
