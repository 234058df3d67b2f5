"""Scenes: the context envelope every agent call in a scene receives (seed 003, phases 2-3).

    settings.py       SceneSettings: the context budget, its split and caps, history and memory
    record.py         SceneRecord: the scene so far (rounds, messages, summaries, states, notes)
    states.py         CharacterState and WorldState
    notes.py          scenario and author notes at world, campaign, arc and scene level
    lore.py           LoreEntry
    guidance.py       the director's guidance, global and per character
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
    errors.py         SceneError

Import names from their modules; the package loads nothing on its own.
"""
