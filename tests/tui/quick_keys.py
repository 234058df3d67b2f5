"""Keys pressed as a person's burst of typing reaches the app: one key event after another,
each handled before the next is sent, without Textual's idle waits between them.

Textual's `Pilot.press` sleeps through two idle waits per key (at least two slices of the
clock): a typed sentence spent most of its test asleep. Here each key is sent, then the loop is
let run until nothing is ready to run (every message pump has emptied its queue, so the key and
all it started were handled); after the last key the pilot waits for the screen and a whole
idle slice as before, so what a test reads next is as settled as it was."""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Any

from textual import events
from textual._wait import wait_for_idle
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot

# A bound on the turns one key may take, against a handler that re-schedules itself for ever
# (a spinner): past it the next key goes anyway, as Textual's idle wait would let it.
MOST_TURNS_PER_KEY = 200


def key_event(key: str) -> events.Key:
    """The event Textual's pilot makes for `key` (a name such as "enter", or one character)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(
            _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
        )
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def until_nothing_is_ready() -> None:
    """Yield to the loop until no callback waits to run but this one."""
    loop = asyncio.get_running_loop()
    ready = loop._ready  # type: ignore[attr-defined]
    for _ in range(MOST_TURNS_PER_KEY):
        await asyncio.sleep(0)
        if not ready:
            return


async def press_quickly(pilot: Pilot[Any], *keys: str) -> None:
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        if key.startswith("wait:"):
            await asyncio.sleep(float(key.removeprefix("wait:")) / 1000)
            continue
        event = key_event(key)
        event.set_sender(app)
        driver.send_message(event)
        await until_nothing_is_ready()
    if keys:
        await pilot._wait_for_screen()
    await wait_for_idle(0)
