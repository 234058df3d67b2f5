"""BM25Retriever: the default memory retriever, lexical BM25 over a character's past messages.

Scoring is rank-bm25's BM25L: its idf stays positive in a corpus of two or three messages
(Okapi's is zero or negative there, so a young scene would rank nothing), and a message that
shares no word with the query scores exactly 0 and is never returned. Ties go to the newer
message. Text is split into lower-case words; the library is given those word lists (given a
tokenizer instead, it would start a process pool).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agentui.core.scene.memory import Memory

_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class BM25Retriever:
    async def retrieve(self, query: str, candidates: Sequence[Memory], top_k: int) -> list[Memory]:
        wanted = words(query)
        documents = [(m, words(m.text)) for m in candidates]
        documents = [(m, tokens) for m, tokens in documents if tokens]
        if not wanted or not documents or top_k <= 0:
            return []
        # Loaded here: numpy is slow to import, and only a scene that recalls memories needs it.
        from rank_bm25 import BM25L

        scores = BM25L([tokens for _, tokens in documents]).get_scores(wanted)
        ranked = sorted(
            (
                (float(score), position, memory)
                for position, ((memory, _), score) in enumerate(zip(documents, scores, strict=True))
                if score > 0
            ),
            key=lambda row: (-row[0], -row[1]),  # best first; of equals, the newer
        )
        return [memory.model_copy(update={"score": score}) for score, _, memory in ranked[:top_k]]
