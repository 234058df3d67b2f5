"""Keys pressed one after another, each handled, and the screen it changed redrawn, before the
next is sent, without Textual's idle waits between them.

Textual's `Pilot.press` sleeps through two idle waits per key (at least two slices of the
clock): a typed sentence spent most of its test asleep. Here each key is sent, what it made
ready is run, and the screen's refresh is done at once rather than on its 1/60 s timer, so what
waits for it (`call_after_refresh`: a window focusing its box) has happened before the next
key, however busy the machine. What waits on a timer, a thread or a child process has not, as
with a person's quick typing; a burst of keys in the app's queue at once is tested apart
(test_burst_keys_from_a_text_box.py). After the last key the pilot waits for the screen and a
whole idle slice as before, so what a test reads next is as settled as it was."""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Any

from textual import events
from textual._wait import wait_for_idle
from textual.app import App
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot

from .ready_work import until_nothing_is_ready

# Refreshes in a row after one key (one refresh's callbacks may ask for another).
MOST_REFRESHES_PER_KEY = 5


def key_event(key: str) -> events.Key:
    """The event Textual's pilot makes for `key` (a name such as "enter", or one character)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        name = _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
        char: str | None = unicodedata.lookup(name)
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def handled(app: App[Any]) -> None:
    """What the last key made ready has run, and the screen's refresh with what waited on it
    (Pilot.pause refreshes the same way)."""
    await until_nothing_is_ready()
    for _ in range(MOST_REFRESHES_PER_KEY):
        app.screen._on_timer_update()
        await until_nothing_is_ready()
        if not app.screen._callbacks:
            return


async def press_quickly(pilot: Pilot[Any], *keys: str) -> None:
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        if key.startswith("wait:"):
            await asyncio.sleep(float(key.removeprefix("wait:")) / 1000)
            await app._animator.wait_until_complete()
            continue
        event = key_event(key)
        event.set_sender(app)
        driver.send_message(event)
        await handled(app)
    if keys:
        await pilot._wait_for_screen()
    await wait_for_idle(0)
