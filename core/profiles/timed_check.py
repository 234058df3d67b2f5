"""Checking an answer against a contract whose schema has regular expressions, with a time limit.

jsonschema checks `pattern` with Python's `re`, which backtracks without bound (`^(a+)+$` takes
twice as long with each more character of the answer) and holds the GIL while it does: on the
event loop it would freeze the app, and a thread would freeze it all the same. Such a
check runs in a worker process (anyio's process pool), which is killed when the time limit
passes; the answer then fails its check with one message saying so, and the app never waits
longer than the limit. A schema without a pattern runs no regular expression: its answers are
checked at once, in this process.

The limit counts the check alone. A worker is first made ready, untimed by it: started (a new
Python, which imports agentui's modules and jsonschema: slow on a loaded machine) and given
the contract, built there once. Only then is the answer sent, with the limit running; it meets
a ready worker (the pool takes the most recently used one, and only these checks use it).
Getting a worker ready has its own, generous limit (START_LIMIT_S), said apart when passed.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import anyio
import anyio.to_process
from anyio import BrokenWorkerProcess

from agentui.core.profiles.contract import AnswerCheck, JsonContract, uses_patterns

# How long a worker may take to start and build the contract: a loaded machine's worst.
START_LIMIT_S = 60.0


async def check_in_time(contract: JsonContract, text: str, timeout_s: float) -> AnswerCheck:
    """`contract.check(text)`, given up after `timeout_s` when the schema has patterns."""
    if not uses_patterns(contract.schema):
        return contract.check(text)
    schema_text = json.dumps(contract.schema, sort_keys=True)
    not_started = not_checked("the checking process did not start in time")
    try:
        with anyio.move_on_after(START_LIMIT_S) as starting:
            await anyio.to_process.run_sync(
                _ready_worker, contract.profile, schema_text, cancellable=True
            )
        if starting.cancelled_caught:
            return AnswerCheck(errors=(not_started,))
        with anyio.move_on_after(timeout_s):
            return await anyio.to_process.run_sync(
                _check_in_worker, contract.profile, schema_text, text, cancellable=True
            )
    except BrokenWorkerProcess:  # the worker died (out of memory, killed from outside)
        return AnswerCheck(errors=(not_checked("the checking process failed"),))
    except TimeoutError:  # anyio's own: a new worker did not say it was ready within 20 s
        return AnswerCheck(errors=(not_started,))
    return AnswerCheck(errors=(too_slow(timeout_s),))


def not_checked(why: str) -> str:
    return f"$: the answer could not be checked: {why}"


def too_slow(timeout_s: float) -> str:
    return (
        f"$: the answer could not be checked within {timeout_s:g} s: a pattern in the profile's "
        "schema takes too long on it (a pattern that backtracks, such as ^(a+)+$), so it is not "
        "accepted"
    )


def _ready_worker(profile: str, schema_text: str) -> None:
    """In the worker: what a check needs, made before its time limit runs."""
    _contract(profile, schema_text)


def _check_in_worker(profile: str, schema_text: str, text: str) -> AnswerCheck:
    return _contract(profile, schema_text).check(text)


@functools.lru_cache(maxsize=16)
def _contract(profile: str, schema_text: str) -> JsonContract:
    """A worker keeps the contracts it built: a validator is built once per schema."""
    schema: Any = json.loads(schema_text)
    return JsonContract(profile, schema)
