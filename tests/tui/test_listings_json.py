"""`agentui scenes --json` and `agentui profiles --json`: one JSON document with what the text
listing shows, every string exact, and nothing in it a terminal would obey."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agentui.core.scene.scene_loading import shipped_scenes
from agentui.core.support.terminal_json import terminal_json
from agentui.tui.cli.main import main

HOSTILE = "red \x9b31m, turned \u202egnp.exe\u202c, \x7f, \x1b[2J, zero\u200bwidth and é"
# What a terminal obeys or cannot carry: none may reach it raw.
RAW_CONTROLS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\u200b\U000e0000-\U000e007f]"
)


def test_terminal_json_escapes_controls_and_keeps_strings_exact() -> None:
    data = {
        "text": HOSTILE + " \U0001f600",
        "lone": "\ud800",
        "family": "\U0001f468\u200d\U0001f469",
        "tags": "\U000e0068id",
    }
    text = terminal_json(data)
    assert RAW_CONTROLS.search(text) is None
    assert json.loads(text) == data
    assert "and é \U0001f600" in text  # readable text stays readable


def test_terminal_json_escapes_every_invisible_character_wherever_it_stands() -> None:
    hidden = {
        "selectors after an emoji": "\U0001f600\U000e0100\U000e0101",
        "presentation": "\u2764\ufe0f",
        "joiners in CJK": "\u4e00\u200d\u4e01\u200c\u4e02",
        "fillers": "\u115f\u1160\u3164\uffa0\u034f",
        "formats": "\u180e\u206a\ufff9\U0001d173",
    }
    text = terminal_json(hidden)

    assert json.loads(text) == hidden
    for escape in ("\\udb40\\udd00", "\\ufe0f", "\\u200d", "\\u3164", "\\u034f", "\\u180e"):
        assert escape in text, escape
    assert not any(
        ord(char) > 0x7F for char in text if char not in "\U0001f600\u2764\u4e00\u4e01\u4e02"
    )


def test_scenes_json_is_the_listing_as_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenes", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    scenes = shipped_scenes()
    assert [scene["name"] for scene in document["scenes"]] == list(scenes)
    for listed in document["scenes"]:
        scene = scenes[listed["name"]]
        assert listed["title"] == scene.title
        assert listed["characters"] == [
            {"name": c.name, "waiting": not c.active} for c in scene.characters
        ]
    assert {c["waiting"] for s in document["scenes"] for c in s["characters"]} == {True, False}


@pytest.fixture
def agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "config" / "agents"
    folder.mkdir(parents=True)
    described = json.dumps(HOSTILE)  # a TOML basic string takes JSON's escapes
    (folder / "odd.toml").write_text(f"description = {described}\ninstructions = 'x'\n", "utf-8")
    (folder / "broken.toml").write_text("instructions = \n", "utf-8")
    return folder


def test_profiles_json_is_the_listing_as_data(
    agents: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profiles", "--json"]) == 0
    out = capsys.readouterr().out
    assert RAW_CONTROLS.search(out.replace("\n", "")) is None
    document = json.loads(out)
    rows = {row["name"]: row for row in document["profiles"]}
    assert rows["odd"] == {
        "name": "odd",
        "kind": "text",
        "from": f"user {agents / 'odd.toml'}",
        "description": HOSTILE,
    }
    assert rows["critic"]["from"] == "built-in"
    assert document["directory"] == str(agents)
    assert len(document["problems"]) == 1 and "broken.toml" in document["problems"][0]
