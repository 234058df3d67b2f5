"""How a Gemini response ended: a stop reason the loop reads, or a failure that says why.

A response that ends normally (STOP, MAX_TOKENS) gives the loop its stop reason. One that
Gemini cut off or refused (safety, recitation, a blocked prompt, ...) fails the attempt with a
message naming the reason; only the ones a new attempt may fix (a malformed call or response)
are retryable: the same request would be blocked the same way.
"""

from __future__ import annotations

from google.genai import types

from agentui.core.support.errors import ProviderError

_F = types.FinishReason

# Cut off for what the answer held: retrying would only be blocked again.
_BLOCKED: dict[str, str] = {
    _F.SAFETY: "it may break the safety policies",
    _F.RECITATION: "it may recite a source",
    _F.LANGUAGE: "its language is not supported",
    _F.BLOCKLIST: "it holds a blocked term",
    _F.PROHIBITED_CONTENT: "it may hold prohibited content",
    _F.SPII: "it may hold sensitive personal information",
    _F.IMAGE_SAFETY: "an image may break the safety policies",
    _F.IMAGE_PROHIBITED_CONTENT: "an image may hold prohibited content",
    _F.IMAGE_RECITATION: "an image may recite a source",
    _F.IMAGE_OTHER: "of an image",
    _F.MODEL_ARMOR: "Model Armor blocked it",
    _F.ESCALATION: "an escalation rule filtered it",
    _F.PUP_LIMITED_DISABLED: "the account is limited for breaking the use policy",
}

# The model slipped: another attempt may well go through.
_SLIPS: dict[str, str] = {
    _F.MALFORMED_FUNCTION_CALL: "the model sent a malformed function call",
    _F.UNEXPECTED_TOOL_CALL: "the model called a function it was not given",
    _F.MALFORMED_RESPONSE: "the model sent a malformed response",
}

# Neither: the request itself is at fault, or Gemini does not say.
_OTHERS: dict[str, str] = {
    _F.TOO_MANY_TOOL_CALLS: "the model made too many tool calls in one response",
    _F.MISSING_THOUGHT_SIGNATURE: "a thought signature Gemini needs is missing from the conversation",
    _F.NO_IMAGE: "the model made no image where one was expected",
}

_PROMPT_BLOCKED: dict[str, str] = {
    types.BlockedReason.SAFETY: "it may break the safety policies",
    types.BlockedReason.BLOCKLIST: "it holds a blocked term",
    types.BlockedReason.PROHIBITED_CONTENT: "it may hold prohibited content",
    types.BlockedReason.IMAGE_SAFETY: "an image may break the safety policies",
    types.BlockedReason.MODEL_ARMOR: "Model Armor blocked it",
    types.BlockedReason.JAILBREAK: "it looks like a jailbreak",
}


def _said(message: str | None) -> str:
    return f": {message}" if message else ""


def stop_reason(
    finish: types.FinishReason | None, message: str | None, *, called_functions: bool
) -> str:
    """The loop's stop reason for a response that ended with `finish`; a ProviderError for
    one Gemini cut off, and for one without an end (the stream stopped short)."""
    match finish:
        case _F.STOP:
            return "tool_use" if called_functions else "end_turn"
        case _F.MAX_TOKENS | _F.CONTINUATION:  # CONTINUATION: the SDK did not continue it
            return "max_tokens"
        case None | _F.FINISH_REASON_UNSPECIFIED:
            raise ProviderError("the response ended before it was complete", retryable=True)
    if finish in _BLOCKED:
        raise ProviderError(
            f"Gemini stopped the answer: {_BLOCKED[finish]} ({finish.value}){_said(message)}"
        )
    if finish in _SLIPS:
        raise ProviderError(f"{_SLIPS[finish]} ({finish.value}){_said(message)}", retryable=True)
    reason = _OTHERS.get(finish, "for a reason it does not say")
    raise ProviderError(f"Gemini stopped the answer: {reason} ({finish.value}){_said(message)}")


def prompt_blocked(reason: types.BlockedReason, message: str | None) -> ProviderError:
    """The failure for a prompt Gemini refused to answer at all."""
    why = _PROMPT_BLOCKED.get(reason, "for a reason it does not say")
    return ProviderError(f"Gemini refused the prompt: {why} ({reason.value}){_said(message)}")
