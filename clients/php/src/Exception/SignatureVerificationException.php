<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/**
 * A webhook delivery that does not verify. `reason` is stable (`missing_header`,
 * `missing_timestamp`, `missing_signature`, `timestamp_outside_tolerance`,
 * `no_matching_signature`); the message says it in words.
 */
class SignatureVerificationException extends \UnexpectedValueException
{
    public function __construct(public readonly string $reason, string $message)
    {
        parent::__construct($message);
    }
}
