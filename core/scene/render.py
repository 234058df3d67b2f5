"""An envelope as the text an agent receives: titled sections, plain text throughout.

The builder measures each piece of a section by the same functions that write it here, so
what was counted is what is sent. Sections with nothing in them are not written. Model and
file text is copied as it is: this text goes to a model, never to a terminal.
"""

from __future__ import annotations

from collections.abc import Iterator

from agentui.core.protocol.director_payloads import STATE_FIELDS, CharacterGuidance
from agentui.core.scene.envelope import AgentContextEnvelope, RoundSummary
from agentui.core.scene.lore import LoreEntry
from agentui.core.scene.memory import Memory
from agentui.core.scene.notes import LevelNotes, NoteLevel
from agentui.core.scene.record import SceneMessage, SceneRequest
from agentui.core.scene.settings import Section
from agentui.core.scene.states import CharacterState
from agentui.core.scene.truncation import Piece

PERSON = "The person"
BULLET = "- "
NOTE_FIELDS = {"scenario": "scenario", "author_note": "author's note"}
GUIDANCE_PARTS = {"directive": "now", "entry": "entering", "exit": "leaving"}


# -- pieces: what the builder measures and fits ---------------------------------------------------


def message_piece(message: SceneMessage) -> Piece:
    speaker = PERSON if message.role == "person" else message.speaker
    return Piece(f"{speaker}: ", message.text)


def lore_piece(entry: LoreEntry) -> Piece:
    return Piece(f"{entry.title}: ", entry.text)


def memory_piece(memory: Memory) -> Piece:
    return Piece(f"(round {memory.round_number}) ", memory.text)


def summary_piece(summary: RoundSummary) -> Piece:
    return Piece(f"Round {summary.number}:\n", "\n".join(BULLET + b for b in summary.bullets))


def bullets_of(body: str) -> list[str]:
    """summary_piece's body back as bullets."""
    return [line.removeprefix(BULLET) for line in body.splitlines()]


def note_piece(level: NoteLevel, field: str, text: str) -> Piece:
    return Piece(f"{level.capitalize()} {NOTE_FIELDS[field]}: ", text)


def guidance_piece(name: str, part: str, text: str) -> Piece:
    return Piece(f"{name}, {GUIDANCE_PARTS[part]}: ", text)


# -- the whole envelope ---------------------------------------------------------------------------


def render_envelope(envelope: AgentContextEnvelope) -> str:
    """The envelope as one text: the scene and round first, then context from the broadest
    (notes, world) to the most immediate (recent rounds, guidance)."""
    blocks = [_heading(envelope)]
    blocks += [
        "\n".join(block)
        for block in (
            _persona(envelope),
            _notes(envelope),
            _world(envelope),
            _characters(envelope),
            _lore(envelope),
            _summaries(envelope),
            _memories(envelope),
            _history(envelope),
            _director_guidance(envelope),
            _character_guidance(envelope),
        )
        if block
    ]
    return "\n\n".join(blocks) + "\n"


def _heading(envelope: AgentContextEnvelope) -> str:
    meta = envelope.round
    lines = [
        f"# Scene: {envelope.title or envelope.scene_id}",
        f"You are: {_recipient(envelope)}",
        f"Round {meta.number} ({meta.finished_rounds} finished before it)",
        f"Request: {_request(envelope.request)}",
        f"Active characters: {_names(meta.active_characters)}",
    ]
    if meta.available_characters:
        lines.append(f"Available to bring in: {_names(meta.available_characters)}")
    if meta.acted_this_round:
        lines.append(f"Acted this round: {_names(meta.acted_this_round)}")
    return "\n".join(lines)


def _recipient(envelope: AgentContextEnvelope) -> str:
    recipient = envelope.recipient
    # The envelope's validator gives a character recipient its name.
    return recipient.character if recipient.character is not None else f"the {recipient.kind}"


def _request(request: SceneRequest) -> str:
    if request.kind == "continuation":
        return f"{PERSON} typed nothing: continue the scene."
    return f"{PERSON} says: {request.text}"


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else "none"


def _left_out(envelope: AgentContextEnvelope, section: Section, what: str) -> list[str]:
    count = envelope.left_out.get(section, 0)
    return [f"({count} {what} left out to fit the budget)"] if count else []


def _persona(envelope: AgentContextEnvelope) -> list[str]:
    persona = envelope.persona
    if persona is None:
        return []
    line = f"{persona.name}: {persona.description}" if persona.description else persona.name
    return ["## Persona", line]


def _notes(envelope: AgentContextEnvelope) -> list[str]:
    lines = [
        note_piece(level, field, text).text
        for level, notes in envelope.notes.levels()
        for field, text in _note_fields(notes)
    ]
    if not lines:
        return []
    return ["## Scenario and author's notes", *lines, *_left_out(envelope, "notes", "notes")]


def _note_fields(notes: LevelNotes) -> Iterator[tuple[str, str]]:
    for field in NOTE_FIELDS:
        text: str = getattr(notes, field)
        if text:
            yield field, text


def _world(envelope: AgentContextEnvelope) -> list[str]:
    facts = envelope.world.facts
    if not facts:
        return []
    return ["## World", *(f"{BULLET}{name}: {value}" for name, value in facts.items())]


def _characters(envelope: AgentContextEnvelope) -> list[str]:
    if not envelope.characters:
        return []
    return ["## Characters", *(_character_line(c) for c in envelope.characters)]


def _character_line(state: CharacterState) -> str:
    known = [f"{name} {getattr(state, name)}" for name in STATE_FIELDS if getattr(state, name)]
    presence = "active" if state.active else "not in the scene"
    return f"{BULLET}{state.name} ({presence})" + (f": {'; '.join(known)}" if known else "")


def _lore(envelope: AgentContextEnvelope) -> list[str]:
    if not envelope.lore:
        return []
    lines = [lore_piece(entry).text for entry in envelope.lore]
    return ["## Lore", *lines, *_left_out(envelope, "lore", "lore entries")]


def _summaries(envelope: AgentContextEnvelope) -> list[str]:
    if not (envelope.running_summary or envelope.round_summaries):
        return []
    lines = ["## The story so far"]
    if envelope.running_summary:
        lines.append(envelope.running_summary)
    lines += _left_out(envelope, "summaries", "summaries of earlier rounds")
    lines += [summary_piece(summary).text for summary in envelope.round_summaries]
    return lines


def _memories(envelope: AgentContextEnvelope) -> list[str]:
    if not any(envelope.memories.values()):
        return []
    lines = ["## Memories"]
    for name, memories in envelope.memories.items():
        if memories:
            lines.append(f"### {name}")
            lines += [memory_piece(memory).text for memory in memories]
    return [*lines, *_left_out(envelope, "memories", "memories")]


def _history(envelope: AgentContextEnvelope) -> list[str]:
    if not envelope.history:
        return []
    lines = ["## Recent rounds, word for word"]
    lines += _left_out(envelope, "history", "earlier messages")
    for round_history in envelope.history:
        lines.append(f"### Round {round_history.number}")
        lines += [message_piece(message).text for message in round_history.messages]
    return lines


def _director_guidance(envelope: AgentContextEnvelope) -> list[str]:
    if not envelope.director_guidance:
        return []
    return ["## The director's guidance", envelope.director_guidance]


def _character_guidance(envelope: AgentContextEnvelope) -> list[str]:
    lines = [
        guidance_piece(name, part, text).text
        for name, guidance in envelope.character_guidance.items()
        for part, text in guidance_parts(guidance)
    ]
    if not lines:
        return []
    whom = "you" if envelope.recipient.kind == "character" else "each character"
    return [f"## The director's guidance for {whom}", *lines]


def guidance_parts(guidance: CharacterGuidance) -> Iterator[tuple[str, str]]:
    for part in GUIDANCE_PARTS:
        text: str = getattr(guidance, part)
        if text:
            yield part, text
