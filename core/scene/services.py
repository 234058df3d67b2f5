"""EnvelopeServices: the settings and pluggable parts one scene's builder calls share.

The round workflow makes one per scene run and passes it to every build_envelope call, so a
provider's exact counter or a model summariser is swapped in at one place. (The rolling
per-section usage record is the scene's fold's: SceneState.context_usage.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentui.core.scene.bm25_retriever import BM25Retriever
from agentui.core.scene.memory import MemoryRetriever
from agentui.core.scene.settings import SceneSettings
from agentui.core.scene.summary import Summariser, summarise_offline
from agentui.core.scene.tokens import EstimatedTokenCounter, TokenCounter


@dataclass(slots=True)
class EnvelopeServices:
    settings: SceneSettings = field(default_factory=SceneSettings)
    counter: TokenCounter = field(default_factory=EstimatedTokenCounter)
    retriever: MemoryRetriever = field(default_factory=BM25Retriever)
    summariser: Summariser = summarise_offline
