"""Time from ``didChange`` to ``publishDiagnostics`` of the real ``dagroute-lint server``.

``server_latency.py ROOT FILE [--edits N]`` starts the server in ROOT, opens FILE, then sends N
whole-text changes one at a time (each appends a comment line) and waits for the diagnostics of
each version; prints the first lint and the median, minimum and maximum of the changes.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path


async def measure(root: Path, file: Path, edits: int) -> tuple[float, list[float]]:
    client = LanguageClient("latency", "1")
    published: dict[int, float] = {}
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: types.PublishDiagnosticsParams) -> None:
        if params.version is not None:
            published[params.version] = time.perf_counter()
            arrived.set()

    async def answered(version: int) -> None:
        while version not in published:
            arrived.clear()
            await arrived.wait()

    await client.start_io(sys.executable, "-m", "dagroute_lint", "server", cwd=str(root))
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(root))
        )
    )
    client.initialized(types.InitializedParams())
    uri = from_fs_path(str(file.resolve())) or ""
    text = file.read_text(encoding="utf-8")
    started = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, text))
    )
    await answered(1)
    first = published[1] - started
    changes = []
    for version in range(2, edits + 2):
        text += "# edited\n"
        sent = time.perf_counter()
        identifier = types.VersionedTextDocumentIdentifier(uri=uri, version=version)
        change = types.TextDocumentContentChangeWholeDocument(text=text)
        client.text_document_did_change(types.DidChangeTextDocumentParams(identifier, [change]))
        await answered(version)
        changes.append(published[version] - sent)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return first, changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("file", type=Path)
    parser.add_argument("--edits", type=int, default=20)
    arguments = parser.parse_args()
    first, changes = asyncio.run(measure(arguments.root, arguments.file, arguments.edits))
    print(f"first lint after didOpen: {first * 1000:.0f} ms")
    print(
        f"didChange -> publishDiagnostics over {len(changes)} edits: median "
        f"{statistics.median(changes) * 1000:.1f} ms, min {min(changes) * 1000:.1f} ms, "
        f"max {max(changes) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
