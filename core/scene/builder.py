"""build_envelope: the one function that assembles what an agent call in a scene receives.

Every director, character and world call goes through it, so every agent gets the same shape
(envelope.py). What the recipient changes:

- memories: a character recalls its own past; the director and the world agent get every
  active character's (distinct per character, retrieved eagerly for each);
- character guidance: a character gets the director's guidance for itself (directive, entry,
  exit); the others get none (the director rebuilds its guidance every pass);
- director guidance: the director's guidance for everyone, for characters and the world, not
  for the director itself.

History: while the scene holds at most `summarize_after_messages` messages, every round is
sent word for word. Past that, the round being played and the last `history_window_rounds`
finished rounds are sent word for word, and older rounds as bullets (written once by the
summariser and kept in the record). Memories come from the rounds not sent word for word.

Then each section's share of the budget is resolved (an empty section's share goes to the
others) and the section is fitted to it: history keeps its newest messages, the rest their
most important pieces first, cut at sentence or word boundaries and marked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from agentui.core.protocol.director_payloads import CharacterGuidance
from agentui.core.scene.budget import resolve_budgets
from agentui.core.scene.envelope import (
    AgentContextEnvelope,
    Persona,
    Recipient,
    RoundHistory,
    RoundMeta,
    RoundSummary,
)
from agentui.core.scene.errors import SceneError
from agentui.core.scene.guidance import DirectorGuidance
from agentui.core.scene.lore import LoreEntry
from agentui.core.scene.memory import Memory, limit_memories
from agentui.core.scene.notes import LevelNotes, NoteLevel, SceneNotes
from agentui.core.scene.overrides import EnvelopeOverrides
from agentui.core.scene.record import RoundRecord, SceneMessage, SceneRecord, SceneRequest
from agentui.core.scene.render import (
    bullets_of,
    guidance_parts,
    guidance_piece,
    lore_piece,
    memory_piece,
    message_piece,
    note_piece,
    summary_piece,
)
from agentui.core.scene.services import EnvelopeServices
from agentui.core.scene.settings import SceneSettings, Section
from agentui.core.scene.states import CharacterState
from agentui.core.scene.summary import summarise_rounds
from agentui.core.scene.tokens import TokenCounter
from agentui.core.scene.truncation import Fitted, Piece, fit_pieces

T = TypeVar("T")


async def build_envelope(
    scene: SceneRecord,
    *,
    for_agent: Recipient,
    request: SceneRequest,
    services: EnvelopeServices | None = None,
    persona: Persona | None = None,
    overrides: EnvelopeOverrides | None = None,
) -> AgentContextEnvelope:
    """The envelope for one call of `for_agent` in `scene`, answering `request`.

    Raises SceneError when `for_agent` names a character the scene does not have.
    """
    services = services if services is not None else EnvelopeServices()
    given = overrides if overrides is not None else EnvelopeOverrides()
    characters = given.characters if given.characters is not None else scene.characters
    _check_recipient(scene, for_agent, characters)
    content = await _gather(scene, for_agent, request, services, given, characters)
    budgets = resolve_budgets(services.settings, content.present())
    fitter = _Fitter(budgets, services.counter)
    fit = fitter.fit

    history = fit(
        "history", content.history, lambda i: message_piece(i[1]), _retext_message, keep="last"
    )
    summaries = fit("summaries", content.summary_items(), _summary_piece, _retext_summary)
    lore = fit(
        "lore", content.lore, lore_piece, lambda e, body: e.model_copy(update={"text": body})
    )
    memories = fit(
        "memories",
        content.memory_items(),
        memory_piece,
        lambda m, body: m.model_copy(update={"text": body}),
    )
    notes = fit(
        "notes", content.notes, lambda i: note_piece(*i), lambda i, body: (i[0], i[1], body)
    )
    overall = fit(
        "director_guidance",
        [content.overall] if content.overall else [],
        lambda t: Piece("", t),
        _retext,
    )
    guidance = fit(
        "character_guidance",
        content.guidance,
        lambda i: guidance_piece(*i),
        lambda i, body: (i[0], i[1], body),
    )
    envelope = AgentContextEnvelope(
        scene_id=scene.scene_id,
        title=scene.title,
        recipient=for_agent,
        request=request,
        round=_round_meta(scene, characters),
        persona=persona,
        history=_rounds_of(history),
        running_summary=next((s for s in summaries if isinstance(s, str)), ""),
        round_summaries=sorted(
            (s for s in summaries if isinstance(s, RoundSummary)), key=lambda s: s.number
        ),
        lore=lore,
        memories=_by_character(memories, content.memories),
        notes=_notes_of(notes),
        director_guidance=overall[0] if overall else "",
        character_guidance=_guidance_of(guidance),
        world=given.world if given.world is not None else scene.world,
        characters=list(characters),
        budgets=budgets,
        used=fitter.used,
        left_out=fitter.left_out,
    )
    return envelope


def _check_recipient(
    scene: SceneRecord, recipient: Recipient, characters: Sequence[CharacterState]
) -> None:
    if recipient.character is None or any(c.name == recipient.character for c in characters):
        return
    known = ", ".join(c.name for c in characters) or "none"
    raise SceneError(
        f"scene {scene.scene_id!r} has no character named {recipient.character!r} "
        f"(its characters: {known})"
    )


NoteItem = tuple[NoteLevel, str, str]  # level, field, text
GuidanceItem = tuple[str, str, str]  # character, part, text


@dataclass(slots=True)
class _Content:
    """Every budgeted section's content for one call, before fitting."""

    history: list[tuple[int, SceneMessage]]
    running_summary: str
    round_summaries: list[RoundSummary]
    lore: list[LoreEntry]
    memories: dict[str, list[Memory]]
    notes: list[NoteItem]
    overall: str
    guidance: list[GuidanceItem]

    def summary_items(self) -> list[str | RoundSummary]:
        """The running summary first (it covers everything), then the newest rounds first."""
        running: list[str | RoundSummary] = [self.running_summary] if self.running_summary else []
        return running + self.round_summaries[::-1]

    def memory_items(self) -> list[Memory]:
        """Every character's best memory, then every character's second...: a short budget
        is shared fairly rather than spent on the first character."""
        deepest = max((len(found) for found in self.memories.values()), default=0)
        return [
            found[rank]
            for rank in range(deepest)
            for found in self.memories.values()
            if rank < len(found)
        ]

    def present(self) -> list[Section]:
        has: dict[Section, bool] = {
            "history": bool(self.history),
            "summaries": bool(self.running_summary or self.round_summaries),
            "lore": bool(self.lore),
            "memories": any(self.memories.values()),
            "notes": bool(self.notes),
            "director_guidance": bool(self.overall),
            "character_guidance": bool(self.guidance),
        }
        return [section for section, present in has.items() if present]


async def _gather(
    scene: SceneRecord,
    recipient: Recipient,
    request: SceneRequest,
    services: EnvelopeServices,
    given: EnvelopeOverrides,
    characters: Sequence[CharacterState],
) -> _Content:
    settings = services.settings
    word_for_word, older = _split_history(scene, settings)
    await summarise_rounds(older, services.summariser)
    current = scene.current_round
    round_guidance = current.guidance if current is not None else None
    if given.director_guidance is not None:
        overall = given.director_guidance
    elif round_guidance is not None and recipient.kind != "director":
        overall = round_guidance.overall
    else:
        overall = ""
    if given.character_guidance is not None:
        per_character = given.character_guidance
    else:
        per_character = _own_guidance(recipient, round_guidance)
    if given.memories is not None:
        recalled = given.memories
    else:
        query = _memory_query(request, word_for_word, overall, per_character)
        recalled = await _recall(recipient, characters, older, query, services)
    return _Content(
        history=_history_items(word_for_word, current),
        running_summary=(
            given.running_summary if given.running_summary is not None else scene.running_summary
        ),
        round_summaries=[RoundSummary(number=r.number, bullets=r.summary or []) for r in older],
        lore=given.lore if given.lore is not None else scene.lore,
        memories={
            name: limit_memories(found, settings.memory_top_k, settings.memory_max_chars)
            for name, found in recalled.items()
        },
        notes=_note_items(given.notes if given.notes is not None else scene.notes),
        overall=overall,
        guidance=[
            (name, part, text)
            for name, one in per_character.items()
            for part, text in guidance_parts(one)
        ],
    )


class _Fitter:
    """Fits each section to its budget and keeps what each used and left out."""

    def __init__(self, budgets: dict[Section, int], counter: TokenCounter) -> None:
        self.budgets = budgets
        self.counter = counter
        self.used: dict[Section, int] = {}
        self.left_out: dict[Section, int] = {}

    def fit(
        self,
        section: Section,
        items: Sequence[T],
        piece: Callable[[T], Piece],
        retext: Callable[[T, str], T],
        *,
        keep: Literal["first", "last"] = "first",
    ) -> list[T]:
        """The items that fit, in their own order; an item cut short rebuilt by `retext`."""
        pieces = [piece(item) for item in items]
        fitted: Fitted = fit_pieces(pieces, self.budgets[section], self.counter, keep=keep)
        self.used[section] = fitted.used
        self.left_out[section] = fitted.left_out
        return [
            items[i] if body == pieces[i].body else retext(items[i], body)
            for i, body in fitted.kept
        ]


def _split_history(
    scene: SceneRecord, settings: SceneSettings
) -> tuple[list[RoundRecord], list[RoundRecord]]:
    """(rounds sent word for word, older rounds sent as bullets), each oldest first."""
    if sum(r.message_count for r in scene.rounds) <= settings.summarize_after_messages:
        return list(scene.rounds), []
    finished = scene.finished_rounds
    first_shown = max(len(finished) - settings.history_window_rounds, 0)
    current = [scene.current_round] if scene.current_round is not None else []
    return finished[first_shown:] + current, finished[:first_shown]


def _history_items(
    rounds: Sequence[RoundRecord], current: RoundRecord | None
) -> list[tuple[int, SceneMessage]]:
    """Every message of `rounds` with its round number; a finished round's input comes first
    (the round being played has its input in the envelope's request)."""
    items: list[tuple[int, SceneMessage]] = []
    for round_record in rounds:
        request = round_record.request
        if round_record is not current and request.kind == "user_input":
            person = SceneMessage(speaker="person", role="person", text=request.text)
            items.append((round_record.number, person))
        items += [(round_record.number, message) for message in round_record.messages]
    return items


def _retext_message(item: tuple[int, SceneMessage], body: str) -> tuple[int, SceneMessage]:
    return item[0], item[1].model_copy(update={"text": body})


def _rounds_of(items: Sequence[tuple[int, SceneMessage]]) -> list[RoundHistory]:
    rounds: list[RoundHistory] = []
    for number, message in items:
        if not rounds or rounds[-1].number != number:
            rounds.append(RoundHistory(number=number))
        rounds[-1].messages.append(message)
    return rounds


def _summary_piece(item: str | RoundSummary) -> Piece:
    return Piece("", item) if isinstance(item, str) else summary_piece(item)


def _retext_summary(item: str | RoundSummary, body: str) -> str | RoundSummary:
    if isinstance(item, str):
        return body
    return item.model_copy(update={"bullets": bullets_of(body)})


def _retext(_: str, body: str) -> str:
    return body


def _own_guidance(
    recipient: Recipient, guidance: DirectorGuidance | None
) -> dict[str, CharacterGuidance]:
    if recipient.character is None or guidance is None:
        return {}
    own = guidance.per_character.get(recipient.character)
    return {recipient.character: own} if own is not None and not own.is_empty() else {}


def _memory_query(
    request: SceneRequest,
    recent: Sequence[RoundRecord],
    overall: str,
    per_character: dict[str, CharacterGuidance],
) -> str:
    """What memories should relate to: the request, the guidance, and the recent rounds."""
    parts = [request.text, overall]
    parts += [text for one in per_character.values() for _, text in guidance_parts(one)]
    parts += [m.text for r in recent for m in r.messages]
    return "\n".join(p for p in parts if p)


async def _recall(
    recipient: Recipient,
    characters: Sequence[CharacterState],
    older: Sequence[RoundRecord],
    query: str,
    services: EnvelopeServices,
) -> dict[str, list[Memory]]:
    """Each recalling character's own past messages, ranked by the retriever."""
    if recipient.character is not None:
        names = [recipient.character]
    else:
        names = [c.name for c in characters if c.active]
    recalled: dict[str, list[Memory]] = {}
    for name in names:
        candidates = [
            Memory(character=name, round_number=r.number, text=m.text)
            for r in older
            for m in r.messages
            if m.role == "character" and m.speaker == name and m.text.strip()
        ]
        if candidates:
            top_k = services.settings.memory_top_k
            recalled[name] = await services.retriever.retrieve(query, candidates, top_k)
    return recalled


def _by_character(
    kept: Sequence[Memory], recalled: dict[str, list[Memory]]
) -> dict[str, list[Memory]]:
    out: dict[str, list[Memory]] = {name: [] for name in recalled}
    for memory in kept:
        out.setdefault(memory.character, []).append(memory)
    return {name: found for name, found in out.items() if found}


def _note_items(notes: SceneNotes) -> list[NoteItem]:
    """Every non-empty note, narrowest level first (the scene's notes matter most now), each
    level's author's note before its scenario."""
    items: list[NoteItem] = []
    for level, one in reversed(list(notes.levels())):
        items += [(level, field, getattr(one, field)) for field in ("author_note", "scenario")]
    return [item for item in items if item[2]]


def _notes_of(items: Sequence[NoteItem]) -> SceneNotes:
    levels: dict[str, dict[str, str]] = {}
    for level, field, text in items:
        levels.setdefault(level, {})[field] = text
    return SceneNotes(**{level: LevelNotes(**fields) for level, fields in levels.items()})


def _guidance_of(items: Sequence[GuidanceItem]) -> dict[str, CharacterGuidance]:
    parts: dict[str, dict[str, str]] = {}
    for name, part, text in items:
        parts.setdefault(name, {})[part] = text
    return {name: CharacterGuidance(**fields) for name, fields in parts.items()}


def _round_meta(scene: SceneRecord, characters: Sequence[CharacterState]) -> RoundMeta:
    current = scene.current_round
    acted: list[str] = []
    for message in current.messages if current is not None else []:
        if message.role == "character" and message.speaker not in acted:
            acted.append(message.speaker)
    return RoundMeta(
        number=current.number if current is not None else len(scene.rounds) + 1,
        finished_rounds=len(scene.finished_rounds),
        active_characters=[c.name for c in characters if c.active],
        available_characters=[c.name for c in characters if not c.active],
        acted_this_round=acted,
    )
