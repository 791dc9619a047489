"""config.stream_asgi._Watch: a stream's pending receive() without a task of its own, for every shape of
receive() an ASGI server may give (a coroutine waiting on a future, as uvicorn's and asgiref's; any other
awaitable; a coroutine that yields to the loop first; one that answers at once): the client's next message
cancels the stream while it is sent, never once it stopped watching, and the receive() is closed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from config.stream_asgi import _Watch


async def _sleeper() -> None:
    await asyncio.sleep(60)


def _scenario(make_receive: Any, *, tasks_added: int) -> None:
    async def main() -> None:
        queue: asyncio.Queue[dict[str, str]] = asyncio.Queue()
        stream = asyncio.ensure_future(_sleeper())
        await asyncio.sleep(0)
        before = len(asyncio.all_tasks())
        watch = _Watch(stream, lambda: make_receive(queue))
        assert len(asyncio.all_tasks()) - before == tasks_added
        await asyncio.sleep(0.01)
        assert not watch.gone and not stream.done()
        queue.put_nowait({"type": "http.disconnect"})
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(stream, 5)
        assert watch.gone
        watch.stop()
        await asyncio.sleep(0)
        assert len(queue._getters) == 0  # type: ignore[attr-defined]  # the receive() let go of the queue

    asyncio.run(main())


def test_a_receive_waiting_on_a_future_runs_without_a_task() -> None:
    _scenario(lambda queue: queue.get(), tasks_added=0)


def test_a_receive_that_yields_to_the_loop_first_runs_in_a_task() -> None:
    async def receive(queue: asyncio.Queue[Any]) -> Any:
        await asyncio.sleep(0)
        return await queue.get()

    _scenario(receive, tasks_added=1)


def test_a_receive_giving_another_awaitable_runs_in_a_task() -> None:
    _scenario(lambda queue: asyncio.ensure_future(queue.get()), tasks_added=1)


def test_a_message_at_once_or_a_failed_receive_means_the_client_is_gone() -> None:
    async def at_once() -> dict[str, str]:
        return {"type": "http.disconnect"}

    async def failing() -> dict[str, str]:
        raise OSError("connection reset")

    async def main() -> None:
        for receive in (at_once, failing):
            stream = asyncio.ensure_future(_sleeper())
            watch = _Watch(stream, receive)
            assert watch.gone
            with pytest.raises(asyncio.CancelledError):
                await stream
            watch.stop()

    asyncio.run(main())


def test_no_cancel_once_the_stream_stopped_watching() -> None:
    async def main() -> None:
        queue: asyncio.Queue[dict[str, str]] = asyncio.Queue()
        stream = asyncio.ensure_future(_sleeper())
        watch = _Watch(stream, queue.get)
        watch.stop()
        queue.put_nowait({"type": "http.disconnect"})
        await asyncio.sleep(0.01)
        assert not stream.done()
        stream.cancel()

    asyncio.run(main())
