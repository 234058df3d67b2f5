"""An agent's transcript as a person saw it: blocks of text, thinking, tools and questions.

Built from events alone, with the same blocks the app's transcript pane shows, so an export
reads like the screen did. (The conversation sent to the model is a different thing: it lives
in the conversation records, see records.py.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .. import events as ev

# What stands for thinking the API sent encrypted (the block itself goes back to the model).
# The app's transcript says the same (tui/view_model.py).
REDACTED_THINKING = "encrypted by the API; it goes back to the model unread"

ItemKind = Literal["task", "text", "thinking", "tool", "question", "notice", "error"]


@dataclass(slots=True)
class TranscriptItem:
    """One block. Mutable while folding: text grows, a tool gets its result."""

    kind: ItemKind
    text: str
    ts: float
    title: str = ""  # tool name, question kind, "error", ...
    key: str = ""  # tool call id or query id
    iteration: int = 0
    detail: str = ""  # a tool's result, a question's answer
    failed: bool = False
    open: bool = False  # a question still waiting for its answer
    interrupted: bool = False  # text cut short (cancel, a failed attempt, a crash)


class TranscriptBuilder:
    """Folds one agent's events into its transcript items, in order."""

    def __init__(self) -> None:
        self.items: list[TranscriptItem] = []
        self._by_key: dict[str, TranscriptItem] = {}

    def _add(self, item: TranscriptItem) -> None:
        self.items.append(item)
        if item.key:
            self._by_key[item.key] = item

    def _stream(self, kind: ItemKind, event: ev.TextDelta | ev.ThinkingDelta) -> None:
        last = self.items[-1] if self.items else None
        if (
            last is not None
            and last.kind == kind
            and last.iteration == event.iteration
            and not last.interrupted
            and not last.title  # a placeholder (redacted thinking) is never extended
        ):
            last.text += event.delta
        else:
            self._add(TranscriptItem(kind, event.delta, event.ts, iteration=event.iteration))

    def interrupt_stream(self, iteration: int | None = None) -> None:
        """Mark the text or thinking being streamed as cut short: what comes next starts an
        item of its own, never merged into the cut one. With `iteration`, only a stream of
        that iteration (an earlier, finished response is left alone)."""
        last = self.items[-1] if self.items else None
        if (
            last is not None
            and last.kind in ("text", "thinking")
            and not last.interrupted
            and (iteration is None or last.iteration == iteration)
        ):
            last.interrupted = True

    def apply(self, event: ev.Event) -> None:
        match event:
            case ev.AgentSpawned(task=task):
                self._add(TranscriptItem("task", task, event.ts, title="task"))
            case ev.ExecutionStarted(run=run, task=task) if run > 1:
                # A continued run: the person's message starts a new part, as on screen.
                self._add(TranscriptItem("task", task, event.ts, title="follow-up"))
            case ev.TextDelta():
                self._stream("text", event)
            case ev.ThinkingDelta():
                self._stream("thinking", event)
            case ev.ThinkingRedacted(iteration=iteration):
                self._add(
                    TranscriptItem(
                        "thinking", REDACTED_THINKING, event.ts, "redacted", iteration=iteration
                    )
                )
            case ev.ToolStarted(call=call):
                self._add(
                    TranscriptItem(
                        "tool", format_arguments(call.arguments), event.ts, call.name, call.id
                    )
                )
            case ev.ToolCompleted(call_id=call_id, result=result):
                self._finish(call_id, result, failed=False)
            case ev.ToolFailed(call_id=call_id, error=error, name=name):
                if not self._finish(call_id, error, failed=True):
                    # rejected before it started: there is no tool block yet
                    self._add(
                        TranscriptItem(
                            "tool", "not run", event.ts, name, call_id, detail=error, failed=True
                        )
                    )
            case ev.QueryRaised(query_id=query_id, prompt=prompt, kind=kind):
                self._add(TranscriptItem("question", prompt, event.ts, kind, query_id, open=True))
            case ev.QueryAnswered(query_id=query_id, answer=answer):
                self._close(query_id, answer)
            case ev.QueryDeclined(query_id=query_id, reason=reason):
                self._close(query_id, f"(declined: {reason})")
            case ev.StatusChanged(new=new, reason=reason) if new in (
                "cancelled",
                "deleted",
                "modified",
            ):
                self._add(TranscriptItem("notice", f"{new}: {reason}", event.ts))
            case ev.ExecutionFailed(error=error):
                self._add(TranscriptItem("error", error, event.ts, "error", failed=True))
            case ev.LLMFailed(error=error, retryable=retryable, streamed=streamed):
                if streamed:
                    self.interrupt_stream(event.iteration)
                note = "retrying" if retryable else "giving up"
                self._add(
                    TranscriptItem(
                        "error", f"{error} ({note})", event.ts, "model error", failed=True
                    )
                )
            case ev.LLMAbandoned(reason=reason, iteration=iteration):
                self.interrupt_stream(iteration)
                self._add(
                    TranscriptItem("notice", f"{reason}; asking the model again", event.ts, "cut")
                )
            case ev.ExecutionCancelled(partial_text=partial) if partial:
                self.interrupt_stream()
            case ev.NoteQueued(text=text):
                self._add(TranscriptItem("notice", text, event.ts, "note"))
            case _:
                pass

    def _finish(self, call_id: str, result: str, *, failed: bool) -> bool:
        item = self._by_key.get(call_id)
        if item is None:
            return False
        item.detail, item.failed = result, failed
        return True

    def _close(self, query_id: str, answer: str) -> None:
        item = self._by_key.get(query_id)
        if item is not None:
            item.detail, item.open = answer, False


def format_arguments(arguments: dict[str, object]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in arguments.items())
