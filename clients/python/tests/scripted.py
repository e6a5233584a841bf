"""Scripted HTTP for the unit tests: an httpx MockTransport that answers given answers in turn."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import innkeep

TESTDATA = Path(__file__).resolve().parents[2] / "testdata"


def vectors(name: str) -> Any:
    """A file of the shared test vectors (clients/testdata), which every client's tests read."""
    return json.loads((TESTDATA / name).read_text())


@dataclass
class Script:
    """Answers in turn (vector form: status/body/text/headers, or bytes, network_error, timeout) and records requests."""

    answers: list[dict[str, Any]]
    seen: list[httpx.Request] = field(default_factory=list)

    def handler(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.seen.append(request)
        answer: dict[str, Any] = self.answers.pop(0) if self.answers else {"status": 200, "body": {}}
        if answer.get("network_error"):
            raise httpx.ConnectError("connection refused", request=request)
        if answer.get("timeout"):
            raise httpx.ReadTimeout("timed out", request=request)
        headers = dict(answer.get("headers", {}))
        if "body" in answer:
            headers.setdefault("Content-Type", "application/json")
            content = json.dumps(answer["body"]).encode()
        elif "bytes" in answer:
            content = answer["bytes"]
        else:
            content = answer.get("text", "").encode()
        return httpx.Response(answer["status"], headers=headers, content=content)


def sync_client(script: Script, sleeps: list[float] | None = None, **options: Any) -> innkeep.Innkeep:
    client = innkeep.Innkeep(
        api_key="hk_test", base_url="http://innkeep.test", http_client=httpx.Client(transport=httpx.MockTransport(script.handler)), **options
    )
    record = sleeps if sleeps is not None else []
    client._transport.sleep = record.append
    return client


def async_client(script: Script, sleeps: list[float] | None = None, **options: Any) -> innkeep.AsyncInnkeep:
    client = innkeep.AsyncInnkeep(
        api_key="hk_test",
        base_url="http://innkeep.test",
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(script.handler)),
        **options,
    )
    record = sleeps if sleeps is not None else []

    async def sleep(seconds: float) -> None:
        record.append(seconds)

    client._transport.sleep = sleep
    return client
