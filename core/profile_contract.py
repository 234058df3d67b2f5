"""Holding a JSON agent's final answer to its profile's contract.

The answer is parsed and validated; each check is an `answer:validated` event. An answer that
does not hold goes back to the model with what is wrong (each problem with its JSON path), and
the model answers again, at most `json_retries` times. After the last failed check the agent
ends failed with the errors (ContractError): there is no fallback value. A valid answer's
payload is the agent's result, as JSON text. A schema with patterns is checked in a worker
process, within `[profiles] check_timeout_s` (core/profiles/timed_check.py).
"""

from __future__ import annotations

import json
from typing import Any

from agentui.core.agent.loop import AgenticLoop, LoopHost, LoopResult
from agentui.core.profiles.config import ProfilesConfig
from agentui.core.profiles.contract import JsonContract
from agentui.core.profiles.prompt import invalid_answer_note
from agentui.core.profiles.timed_check import check_in_time
from agentui.core.protocol.conversation import user_text
from agentui.core.protocol.events import AnswerValidated
from agentui.core.support.errors import ContractError


async def hold_to_contract(
    host: LoopHost,
    loop: AgenticLoop,
    contract: JsonContract,
    answer: LoopResult,
    settings: ProfilesConfig,
) -> tuple[LoopResult, Any]:
    """The answer (its text the payload as JSON) and the payload, once an answer holds;
    raises ContractError when none did."""
    attempts = settings.json_retries + 1
    attempt = 1
    while True:
        check = await check_in_time(contract, answer.text, settings.check_timeout_s)
        await host.emit(
            AnswerValidated,
            profile=contract.profile,
            attempt=attempt,
            attempts=attempts,
            ok=check.ok,
            errors=list(check.errors),
            payload=check.payload if check.ok and settings.log_payloads else None,
        )
        if check.ok:
            text = json.dumps(check.payload, ensure_ascii=False)
            return LoopResult(text, answer.iterations, answer.stop_reason), check.payload
        if attempt == attempts:
            raise ContractError(contract.profile, attempts, check.errors)
        loop.conversation.append(user_text(invalid_answer_note(check.errors)))
        again = await loop.iterate()
        answer = LoopResult(await loop.finish(again.text), again.iterations, again.stop_reason)
        attempt += 1
