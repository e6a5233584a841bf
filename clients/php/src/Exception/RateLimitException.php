<?php

declare(strict_types=1);

namespace Innkeep\Exception;

use Innkeep\Requestor;

/** 429: over the rate limit; `retryAfter()` is the server's `Retry-After`, in seconds. */
class RateLimitException extends InnkeepException
{
    public function retryAfter(): ?float
    {
        return Requestor::retryAfterSeconds($this->headers);
    }
}
