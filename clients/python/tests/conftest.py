from collections.abc import Iterator

import pytest


@pytest.fixture
def fixed_random(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Full jitter picks the middle of its range: backoff(attempt) = 0.5 * bound."""
    monkeypatch.setattr("innkeep._transport.random.random", lambda: 0.5)
    yield
