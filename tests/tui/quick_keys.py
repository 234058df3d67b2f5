"""Keys pressed one after another, each handled, and the screen it changed redrawn, before the
next is sent, without Textual's idle waits between them.

Textual's `Pilot.press` sleeps through two idle waits per key (at least two slices of the
clock): a typed sentence spent most of its test asleep. Here each key is sent, what it made
ready is run, and the screen's refresh is done at once rather than on its 1/60 s timer, so what
waits for it (`call_after_refresh`: a window focusing its box) has happened before the next
key, however busy the machine. What waits on a timer, a thread or a child process has not, as
with a person's quick typing; a burst of keys in the app's queue at once is tested apart
(test_burst_keys_from_a_text_box.py). After the last key the app is let settle (settled.py)."""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Any

from textual import events
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot

from .settled import handled, settled


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
    await settled(pilot)
