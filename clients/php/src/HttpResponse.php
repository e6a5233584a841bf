<?php

declare(strict_types=1);

namespace Innkeep;

/** One HTTP answer as an HttpClient gives it. */
final class HttpResponse
{
    /** @param array<string, string> $headers names in lower case */
    public function __construct(
        public readonly int $status,
        public readonly array $headers,
        public readonly string $body,
    ) {
    }
}
