<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** The request never got an answer: unknown host, refused or reset connection, TLS failure (code `connection_failed`). */
class ApiConnectionException extends InnkeepException
{
    public function __construct(string $message, string $code = 'connection_failed', ?\Throwable $previous = null)
    {
        parent::__construct($message, 0, null, [], 'connection_error', $code, $previous);
    }
}
