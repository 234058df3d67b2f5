"""RecordingRuntime: a Runtime that writes its session log from the moment it runs.

For front ends that enter the runtime themselves (`async with runtime:` inside the app): the
writer is attached as soon as the runtime's task group exists, with nothing to wire in the
front end. Code that holds the runtime itself can equally call `SessionWriter.attach(runtime)`.
"""

from __future__ import annotations

from typing import Any

from agentui.core.providers.base import Provider
from agentui.core.runtime import Runtime
from agentui.core.session.writer import SessionWriter


class RecordingRuntime(Runtime):
    def __init__(self, provider: Provider, *, session: SessionWriter, **options: Any) -> None:
        super().__init__(provider, **options)
        self.session = session

    async def __aenter__(self) -> RecordingRuntime:
        await super().__aenter__()
        try:
            self.session.attach(self)
        except BaseException:
            await self.aclose()
            raise
        return self
