<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** No answer within the timeout (code `timeout`). */
class ApiTimeoutException extends ApiConnectionException
{
    public function __construct(string $message, ?\Throwable $previous = null)
    {
        parent::__construct($message, 'timeout', $previous);
    }
}
