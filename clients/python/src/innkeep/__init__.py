"""The Innkeep API client for Python.

    from innkeep import Innkeep
    client = Innkeep(api_key="hk_…", environment="sandbox")
    for reservation in client.reservations.list(status="confirmed"):
        print(reservation.id, reservation.check_in)
"""

from . import models
from ._client import AsyncInnkeep, Innkeep
from ._errors import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    AuthenticationError,
    CardError,
    ConflictError,
    IdempotencyError,
    InnkeepError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
)
from ._pagination import AsyncPage, AsyncPager, SyncPage
from ._transport import RateLimit, RequestOptions, ResponseInfo
from ._version import __version__
from ._webhook import SignatureVerificationError, Webhook

__all__ = [
    "ApiConnectionError",
    "ApiError",
    "ApiTimeoutError",
    "AsyncInnkeep",
    "AsyncPage",
    "AsyncPager",
    "AuthenticationError",
    "CardError",
    "ConflictError",
    "IdempotencyError",
    "Innkeep",
    "InnkeepError",
    "InvalidRequestError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimit",
    "RateLimitError",
    "RequestOptions",
    "ResponseInfo",
    "SignatureVerificationError",
    "SyncPage",
    "Webhook",
    "__version__",
    "models",
]
