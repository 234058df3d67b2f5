"""Text that can always be written as UTF-8, for files and pipes.

A Python string may hold lone surrogates (U+D800-U+DFFF): a JSON `"\\ud83d"` escape without its
pair, or bytes decoded with `surrogateescape`. UTF-8 cannot encode them, so writing one raises
and pydantic refuses to serialise it: a model's or a tool's text could stop a session being
saved. Here each becomes U+FFFD; text without them is returned as it is, at the cost of one
search.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def encodable(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD."""
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(REPLACEMENT, text)


def model_json(model: BaseModel) -> str:
    """`model.model_dump_json()`, or the same JSON text with lone surrogates replaced when
    pydantic cannot write them."""
    try:
        return model.model_dump_json()
    except PydanticSerializationError:
        # The same compact form pydantic writes, built from the plain-data dump (which keeps
        # the surrogates as they are) and then made encodable.
        data = model.model_dump(mode="json")
        return encodable(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def json_text(data: Any, **options: Any) -> str:
    """`json.dumps(data, ensure_ascii=False, **options)`, encodable as UTF-8."""
    return encodable(json.dumps(data, ensure_ascii=False, **options))
