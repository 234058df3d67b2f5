"""The workflow's notes: written for the model, read back from a conversation as the same values."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentui.core.protocol.conversation import Conversation, Message, TextBlock, user_text
from agentui.core.protocol.workflow_notes import (
    ANSWERED,
    DECLINED,
    PersonAnswer,
    StartedSubagent,
    SubagentResult,
    WorkflowNotes,
    answer_note,
    read_notes,
    results_note,
    started_note,
)


def conversation_with(*notes: str) -> list[Message]:
    conversation = Conversation()
    conversation.append(user_text("Plan a party"))
    for note in notes:
        conversation.add_user_note(note)
    return conversation.messages


def test_each_kind_reads_back_as_written() -> None:
    answered = PersonAnswer("Which city?", "Lisbon")
    declined = PersonAnswer("What budget?", None)
    started = [StartedSubagent("main.1", "Find a venue"), StartedSubagent("main.2", "Catering")]
    results = [
        SubagentResult("main.1", "completed", "The hall.\n\n### Not a heading\n\nBy the river."),
        SubagentResult("main.2", "error", "the model failed"),
    ]
    messages = conversation_with(
        answer_note(answered), answer_note(declined), started_note(started)
    )
    messages.append(Message(role="assistant", content=[TextBlock(text=answer_note(answered))]))
    messages.append(user_text(results_note(results)))
    # What the assistant said is not a note; the person's side's notes are, in order.
    assert read_notes(messages) == WorkflowNotes([answered, declined], started, results)


def test_the_model_reads_the_answer_and_the_decline_in_words() -> None:
    assert answer_note(PersonAnswer("Which city?", "Lisbon")).endswith(f"\n{ANSWERED}Lisbon")
    assert answer_note(PersonAnswer("Which city?", None)).endswith(f"\n{DECLINED}")


def test_the_task_and_other_text_are_no_notes() -> None:
    assert read_notes(conversation_with("A comment from the person.")) == WorkflowNotes()


text = st.text(st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=40)


@given(question=text, answer=st.none() | text)
def test_any_answer_reads_back(question: str, answer: str | None) -> None:
    note = answer_note(PersonAnswer(question, answer))
    (read,) = read_notes([user_text(note)]).answers
    assert read == PersonAnswer(question, answer)
