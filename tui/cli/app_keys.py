"""The app's keys as config.toml's [keys] table remaps them, checked before the screen opens
(a bad table is one message and exit status 2, as any bad setting)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agentui.core.config.sources import ConfigError

if TYPE_CHECKING:
    from agentui.tui.app.keymap import KeyMap


def key_map_from(table: Any, where: str) -> KeyMap:
    """The key map `table` (the [keys] table as given) makes; raises ConfigError."""
    from agentui.tui.app.keymap import key_map_for

    if table is None:
        table = {}
    if not isinstance(table, Mapping):
        raise ConfigError(f'{where}: keys: must be a table of key ids, e.g. [keys] pause = "p"')
    return key_map_for(table, where)
