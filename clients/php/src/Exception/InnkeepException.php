<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/**
 * Base of every exception the client throws for an answer of the API (or for no answer): one
 * subclass per `error.type` of the API's error envelope.
 *
 * `$code` is the API's `error.code` (a string such as `parameter_missing`; `getCode()` answers it too).
 */
class InnkeepException extends \RuntimeException
{
    /** @var string `error.code` of the body, e.g. `parameter_missing`, or the client's own (`connection_failed`, `timeout`, `unexpected_response`). */
    public $code;

    /** HTTP status of the answer (0 when there was none: network failure, timeout). */
    public readonly int $status;

    /** `error.type` of the body, e.g. `invalid_request_error`. */
    public readonly string $type;

    /** Dotted path of the parameter at fault (`guest.email`), when one is. */
    public readonly ?string $param;

    /** Money errors (`balance_outstanding`, `amount_exceeds_refundable`, `amount_exceeds_balance`): the amount the message states, in minor units of `$currency` (a balance is negative when the hotel owes it). */
    public readonly ?int $amount;

    /** Money errors: the ISO 4217 currency of `$amount`. */
    public readonly ?string $currency;

    /** `Service-Request-Id` of the answer: quote it to support. */
    public readonly ?string $requestId;

    /** @var array<string, string> headers of the answer, names in lower case */
    public readonly array $headers;

    /** @var array<string, mixed>|null the error envelope as received, when there was one */
    public readonly ?array $body;

    /**
     * @param array<string, mixed>|null $body
     * @param array<string, string> $headers
     */
    public function __construct(
        string $message,
        int $status = 0,
        ?array $body = null,
        array $headers = [],
        string $type = 'api_error',
        string $code = 'unknown',
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
        $error = is_array($body['error'] ?? null) ? $body['error'] : [];
        $this->status = $status;
        $this->type = is_string($error['type'] ?? null) ? $error['type'] : $type;
        $this->code = is_string($error['code'] ?? null) ? $error['code'] : $code;
        $this->param = is_string($error['param'] ?? null) ? $error['param'] : null;
        $this->amount = is_int($error['amount'] ?? null) ? $error['amount'] : null;
        $this->currency = is_string($error['currency'] ?? null) ? $error['currency'] : null;
        $fromBody = is_string($error['request_id'] ?? null) ? $error['request_id'] : null;
        $this->requestId = $fromBody ?? ($headers['service-request-id'] ?? null);
        $this->headers = $headers;
        $this->body = $body;
    }

    public function __toString(): string
    {
        return sprintf('%s(status=%d, code=%s, request_id=%s): %s', static::class, $this->status, $this->code, $this->requestId ?? 'none', $this->getMessage());
    }
}
