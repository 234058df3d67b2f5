"""[attention] stalled_after_s: the stall watch's silence (core/config/attention.py), 300 s
unless set, 0 for none, any other value refused with one message; `config show` lists it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.config.attention import AttentionSettings
from agentui.core.config.settings import format_settings, load_config
from agentui.core.config.sources import ConfigError


def settings_file(tmp_path: Path, value: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f"[attention]\nstalled_after_s = {value}\n", encoding="utf-8")
    return path


def test_five_minutes_unless_set_and_zero_is_off() -> None:
    assert AttentionSettings().stalled_after_s == 300
    assert AttentionSettings().stall_watch_on
    assert not AttentionSettings(stalled_after_s=0).stall_watch_on


@pytest.mark.parametrize("value", ["-1", '"5m"', "nan", "inf", "1e9", "true"])
def test_a_value_that_is_no_silence_is_one_message(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config(environ={}, path=settings_file(tmp_path, value))
    message = str(refused.value)
    assert "attention.stalled_after_s: must be a number of seconds from 0 (off) to 86400" in message
    assert "\n" not in message


def test_config_show_lists_it_with_its_source(tmp_path: Path) -> None:
    shown = format_settings(load_config(environ={}, path=settings_file(tmp_path, "90")), {})
    [line] = [line for line in shown.splitlines() if "stalled_after_s" in line]
    assert line.startswith("attention.stalled_after_s = 90")
    assert line.endswith("# file")
