"""What a profile's agent is told: the one place its instructions are put together.

`profile_instructions` makes an agent's instructions from its profile (instructions, persona,
return template); `return_template` renders the JSON return template (object mode: the
example; schema mode: the schema), and is None for a profile that does not expect JSON, which
then gets nothing added. `invalid_answer_note` is what an answer that broke the contract is
sent back with.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from agentui.core.profiles.profile import AgentProfile

PERSONA = "Your persona:\n{persona}"

OBJECT_TEMPLATE = (
    "Your final answer is one JSON object and nothing else: no prose before or after it. "
    "Shape it like this example, with your own values:\n{example}"
)

SCHEMA_TEMPLATE = (
    "Your final answer is one JSON value and nothing else: no prose before or after it. It "
    "must be valid for this JSON Schema (Draft-07):\n{schema}"
)

INVALID_ANSWER = (
    "Your answer does not hold to the required JSON format:\n{errors}\n"
    "Answer again with only the corrected JSON."
)


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def return_template(profile: AgentProfile) -> str | None:
    """The JSON return template for the profile's instructions; None when it expects none."""
    if not profile.expects_json:
        return None
    if profile.json_mode == "object":
        return OBJECT_TEMPLATE.format(example=_json(profile.json_example))
    return SCHEMA_TEMPLATE.format(schema=_json(profile.json_schema))


def profile_instructions(profile: AgentProfile) -> str:
    """The instructions an agent with this profile runs under."""
    parts = [profile.instructions.strip()]
    if profile.persona and profile.persona.strip():
        parts.append(PERSONA.format(persona=profile.persona.strip()))
    template = return_template(profile)
    if template is not None:
        parts.append(template)
    return "\n\n".join(parts)


def invalid_answer_note(errors: Sequence[str]) -> str:
    return INVALID_ANSWER.format(errors="\n".join(f"- {error}" for error in errors))
