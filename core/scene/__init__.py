"""Scenes: the context envelope every agent call in a scene receives, and the
Director -> Characters -> Director rounds that play a scene.

    settings.py       SceneSettings: the context budget, its split and caps, history and memory
    record.py         SceneRecord: the scene so far (rounds, messages, summaries, states, notes)
    states.py         CharacterState and WorldState
    notes.py          scenario and author notes at world, campaign, arc and scene level
    lore.py           LoreEntry
    guidance.py       the director's guidance as the envelope carries it, global and per character
    envelope.py       AgentContextEnvelope: what one agent call receives, and its parts
    builder.py        build_envelope: the one function that assembles an envelope
    services.py       EnvelopeServices: the pluggable parts a builder uses (counter, retriever...)
    overrides.py      EnvelopeOverrides: content injected instead of the record's
    tokens.py         TokenCounter: the one way tokens are counted
    budget.py         percentages of the context budget -> token counts per section
    truncation.py     cutting text and lists of pieces to a budget, at natural boundaries
    usage.py          SectionUsageLog: the rolling per-section token usage (last 500 calls)
    memory.py         Memory, the MemoryRetriever protocol, and the retrieval limits
    bm25_retriever.py the default retriever: BM25 over a character's own past messages
    summary.py        summarising rounds that left the history window into bullets
    render.py         an envelope as the text an agent receives
    errors.py         SceneError, SceneFileError

Director rounds:

    scene_file.py       SceneFile: what a scene file declares (pydantic; no profile machinery)
    scene_loading.py    a shipped scene (scenes/*.toml) or a file, its profiles resolved
    director_schema.py  the director's schema narrowed to a scene's cast (enums of names)
    vetting.py          a decision held to the scene: turns in order, entries, exits, updates
    ordering.py         the acting order: priority, then name
    inference.py        state changes read from a character's turn (heuristics)
    reconciliation.py   which inferred changes apply (the director's fields win)
    scene_state.py      SceneState: a scene folded from its events (RunState keeps one per scene)
    rounds.py           RoundRunner: one round, as a driven agent
    deletions.py        PersonDeletes: deleting a character's agent takes the character out
    scene_run.py        SceneDriver: the scene's root, asking for each round; start, resume
    cue.py              the SceneCue a call's request carries for the scripted model
    round_prompts.py    what the round says to its agents and to the person
    round_question.py   QUESTION_KIND: the kind of the question asked before each round
    running_summary.py  the running scene summary, a line per closed round
    scene_text.py       the scene as played (the root's result)
    timeline.py         the per-round timeline (export --format rounds)

The director's answer (DirectorDecision) and the turns it plans (PlannedTurn, CharacterGuidance)
are what scene events carry: they live in core/protocol/director_payloads.py, beside the events.

Import names from their modules; the package loads nothing on its own.
"""
