"""A TCP proxy on 127.0.0.1 whose connections a test can cut: the network between an attached
screen and its server failing, while the server and its agents run on.

    async with CuttableProxy(server_port) as proxy:
        url = proxy.url            # give this to the client instead of the server's
        proxy.cut()                # every open connection drops; new ones are refused
        proxy.restore()            # connections get through again
        proxy.retarget(other_port) # new connections go to another server (a restarted one)
"""

from __future__ import annotations

from typing import Any

import anyio
from anyio.abc import ByteStream, SocketStream, TaskGroup


class CuttableProxy:
    def __init__(self, target_port: int) -> None:
        self._target_port = target_port
        self._group: TaskGroup | None = None
        self._open: list[anyio.CancelScope] = []
        self.is_cut = False
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def __aenter__(self) -> CuttableProxy:
        listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
        self.port = listener.extra(anyio.abc.SocketAttribute.local_port)
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        self._group.start_soon(listener.serve, self._relay)
        return self

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        assert self._group is not None
        self._group.cancel_scope.cancel()
        return await self._group.__aexit__(*exc_info)

    def cut(self) -> None:
        self.is_cut = True
        for scope in self._open:
            scope.cancel()
        self._open.clear()

    def restore(self) -> None:
        self.is_cut = False

    def retarget(self, port: int) -> None:
        self._target_port = port

    async def _relay(self, downstream: SocketStream) -> None:
        async with downstream:
            if self.is_cut:
                return  # refused: the connection closes at once
            try:
                upstream = await anyio.connect_tcp("127.0.0.1", self._target_port)
            except OSError:
                return  # the server is down: so is this connection, as it would be directly
            async with upstream:
                with anyio.CancelScope() as scope:
                    self._open.append(scope)
                    async with anyio.create_task_group() as pumps:
                        pumps.start_soon(_pump, downstream, upstream, pumps)
                        pumps.start_soon(_pump, upstream, downstream, pumps)


async def _pump(source: ByteStream, sink: ByteStream, pumps: TaskGroup) -> None:
    try:
        async for chunk in source:
            await sink.send(chunk)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
        pass
    pumps.cancel_scope.cancel()  # one side closed: the connection is over
