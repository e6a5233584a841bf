<?php

declare(strict_types=1);

namespace Innkeep;

/** What the latest answer said besides its body (`$client->lastResponse`). */
final class ResponseInfo
{
    /**
     * @param array{limit: ?int, remaining: ?int, reset: ?int} $rateLimit
     * @param array<string, string> $headers
     */
    public function __construct(
        public readonly int $status,
        public readonly ?string $requestId,
        /** The `Idempotency-Key` sent, for a POST. */
        public readonly ?string $idempotencyKey,
        /** True when the server answered a retried POST from its idempotency store. */
        public readonly bool $idempotentReplayed,
        public readonly array $rateLimit,
        /** 1 for a first-time success; more when retries were needed. */
        public readonly int $attempts,
        public readonly array $headers,
    ) {
    }
}
