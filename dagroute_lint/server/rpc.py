"""pygls's protocol, less the future it keeps for every notification an editor ever sent."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import Any

from pygls.protocol import LanguageServerProtocol


class Protocol(LanguageServerProtocol):
    """pygls 2.1's ``LanguageServerProtocol``, which forgets a handler's future once it is done.

    pygls files the future of each handler it runs under the message's id in
    ``_request_futures``, where ``$/cancelRequest`` and ``shutdown`` find what is still running.
    Answering a request removes the entry; nothing removes the entries of notifications (filed
    under a fresh uuid4, as a notification has no id) or of the steps of pygls's built-in
    generator handlers, and ``didOpen``, ``didChange``, ``didSave`` and ``didClose`` are all
    built-in generators. So a session kept a future, its condition lock and a uuid string for
    every keystroke: 1.9 kB each by ``tracemalloc``, and in resident memory 1.8 MB per 1,000
    edits of a small DAG file and 12 MB per 1,000 of a 300-task one (the small objects left
    behind pinned the pages each lint allocated and freed around them).

    Once a handler is done nothing can cancel it, so dropping its entry then changes nothing
    else; the entry is dropped only if it is still that future's, never a later message's.
    """

    def _execute_handler(
        self,
        msg_id: str | int,
        handler: Callable[..., Any],
        callback: Callable[[Future[Any]], None],
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(partial(self._forget, msg_id))

    def _forget(self, msg_id: str | int, future: Future[Any]) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]
