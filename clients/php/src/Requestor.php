<?php

declare(strict_types=1);

namespace Innkeep;

use Innkeep\Exception\ApiConnectionException;
use Innkeep\Exception\ApiException;
use Innkeep\Exception\AuthenticationException;
use Innkeep\Exception\CardException;
use Innkeep\Exception\ConflictException;
use Innkeep\Exception\IdempotencyException;
use Innkeep\Exception\InnkeepException;
use Innkeep\Exception\InvalidRequestException;
use Innkeep\Exception\NotFoundException;
use Innkeep\Exception\PermissionException;
use Innkeep\Exception\RateLimitException;

/**
 * One API call: build it, send it, retry what is safe to retry, answer the body or throw.
 *
 * A POST carries one `Idempotency-Key` for all of its attempts, so a retry can never book twice.
 * The rules (what retries, how long to wait) are the shared test vectors' (clients/testdata).
 *
 * @internal
 */
final class Requestor
{
    public const BASE_DELAY = 0.5;
    public const MAX_DELAY = 8.0;
    public const DEFAULT_MAX_RETRIES = 2;
    public const DEFAULT_TIMEOUT = 60.0;
    public const OPTIONS = ['idempotency_key', 'max_retries', 'timeout', 'environment', 'version', 'headers'];

    private const BY_TYPE = [
        'invalid_request_error' => InvalidRequestException::class,
        'authentication_error' => AuthenticationException::class,
        'permission_error' => PermissionException::class,
        'conflict_error' => ConflictException::class,
        'idempotency_error' => IdempotencyException::class,
        'card_error' => CardException::class,
        'rate_limit_exceeded' => RateLimitException::class,
        'api_error' => ApiException::class,
    ];

    /** @var \Closure(float): void sleeps between attempts (seconds); replaceable in tests */
    public \Closure $sleep;

    /** @var \Closure(): float a uniform random number in [0, 1); replaceable in tests */
    public \Closure $random;

    /**
     * @param \Closure(): ?string $token
     * @param (\Closure(): string)|null $refresh answers a fresh OAuth access token
     * @param \Closure(ResponseInfo): void $onResponse
     */
    public function __construct(
        private readonly HttpClient $http,
        private readonly string $baseUrl,
        private readonly \Closure $token,
        private readonly ?\Closure $refresh,
        private readonly ?string $environment,
        private readonly ?string $version,
        private readonly int $maxRetries,
        private readonly float $timeout,
        private readonly \Closure $onResponse,
    ) {
        $this->sleep = static function (float $seconds): void {
            usleep((int) round($seconds * 1_000_000));
        };
        $this->random = static fn (): float => mt_rand() / (mt_getrandmax() + 1);
    }

    /** Exponential backoff with full jitter: a uniform wait in [0, min(cap, base * 2^attempt)) seconds. */
    public function backoff(int $attempt): float
    {
        return ($this->random)() * min(self::MAX_DELAY, self::BASE_DELAY * 2 ** $attempt);
    }

    /** Whether trying again can help: no answer, 408, 409 `idempotency_key_in_use`, 429, 5xx. */
    public static function retryable(InnkeepException $error): bool
    {
        return $error instanceof ApiConnectionException
            || in_array($error->status, [408, 429], true)
            || $error->status >= 500
            || $error->code === 'idempotency_key_in_use';
    }

    /**
     * @param array<string, mixed> $query
     * @param array<string, mixed> $options a call's RequestOptions
     */
    public function send(string $method, string $path, array $query = [], mixed $body = null, array $options = []): mixed
    {
        $unknown = array_diff(array_keys($options), self::OPTIONS);
        if ($unknown !== []) {
            throw new \InvalidArgumentException(sprintf('Unknown request option %s; known: %s.', implode(', ', $unknown), implode(', ', self::OPTIONS)));
        }
        $method = strtoupper($method);
        $url = $this->baseUrl . $path . self::queryString($query);
        $content = $body !== null ? json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR | JSON_PRESERVE_ZERO_FRACTION) : ($method === 'POST' ? '{}' : null);
        $idempotencyKey = $method === 'POST' ? (string) ($options['idempotency_key'] ?? self::uuid4()) : null;
        $maxRetries = (int) ($options['max_retries'] ?? $this->maxRetries);
        $timeout = (float) ($options['timeout'] ?? $this->timeout);
        $refreshed = false;
        for ($attempt = 0; ; ) {
            try {
                $response = $this->http->request($method, $url, $this->headers($options, $content !== null, $idempotencyKey), $content, $timeout);
            } catch (ApiConnectionException $unreached) {
                if ($attempt < $maxRetries) {
                    ($this->sleep)($this->backoff($attempt));
                    $attempt++;
                    continue;
                }
                throw $unreached;
            }
            $parsed = self::parse($response);
            ($this->onResponse)(self::info($response, $idempotencyKey, $attempt + 1));
            if ($response->status >= 200 && $response->status < 300) {
                return $parsed;
            }
            $failure = self::errorFromResponse($response->status, $parsed, $response->headers, $url);
            if ($this->refresh !== null && !$refreshed && $failure instanceof AuthenticationException && in_array($failure->code, ['token_expired', 'invalid_token'], true)) {
                // An expired OAuth access token: refresh once, at no cost to the retry budget.
                $refreshed = true;
                ($this->refresh)();
                continue;
            }
            if ($attempt < $maxRetries && self::retryable($failure)) {
                ($this->sleep)(self::retryAfterSeconds($failure->headers) ?? $this->backoff($attempt));
                $attempt++;
                continue;
            }
            throw $failure;
        }
    }

    /**
     * @param array<string, mixed> $options
     * @return array<string, string>
     */
    private function headers(array $options, bool $hasBody, ?string $idempotencyKey): array
    {
        $headers = ['accept' => 'application/json', 'user-agent' => 'innkeep-php/' . InnkeepClient::VERSION . ' php/' . PHP_VERSION];
        $token = ($this->token)();
        if ($token !== null && $token !== '') {
            $headers['authorization'] = "Bearer $token";
        }
        if ($hasBody) {
            $headers['content-type'] = 'application/json';
        }
        $environment = $options['environment'] ?? $this->environment;
        if ($environment !== null) {
            $headers['service-environment'] = (string) $environment;
        }
        $version = $options['version'] ?? $this->version;
        if ($version !== null) {
            $headers['service-version'] = (string) $version;
        }
        if ($idempotencyKey !== null) {
            $headers['idempotency-key'] = $idempotencyKey;
        }
        foreach ((array) ($options['headers'] ?? []) as $name => $value) {
            $headers[strtolower((string) $name)] = (string) $value;
        }
        return $headers;
    }

    /**
     * `?a=1&b=x&b=y`: a list repeats its name (as the API reads `?status=a&status=b`), booleans are
     * `true`/`false`, dates as ISO 8601 (a date alone when the time is midnight UTC is not guessed:
     * pass `Y-m-d` strings for dates), null values are left out.
     *
     * @param array<string, mixed> $query
     */
    public static function queryString(array $query): string
    {
        $pairs = [];
        foreach ($query as $name => $value) {
            foreach (is_array($value) ? $value : [$value] as $v) {
                if ($v === null) {
                    continue;
                }
                $text = match (true) {
                    is_bool($v) => $v ? 'true' : 'false',
                    $v instanceof \DateTimeInterface => $v->format(\DateTimeInterface::RFC3339_EXTENDED),
                    default => (string) $v,
                };
                $pairs[] = rawurlencode((string) $name) . '=' . rawurlencode($text);
            }
        }
        return $pairs === [] ? '' : '?' . implode('&', $pairs);
    }

    /** JSON when the answer says so (or looks like it); the text otherwise (CSV reports). */
    private static function parse(HttpResponse $response): mixed
    {
        if ($response->body === '') {
            return null;
        }
        $type = $response->headers['content-type'] ?? null;
        if ($type !== null && stripos($type, 'json') === false) {
            return $response->body;
        }
        try {
            return json_decode($response->body, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            return $response->body;
        }
    }

    private static function info(HttpResponse $response, ?string $idempotencyKey, int $attempts): ResponseInfo
    {
        $h = $response->headers;
        $number = static fn (string $name): ?int => isset($h[$name]) && is_numeric($h[$name]) ? (int) $h[$name] : null;
        return new ResponseInfo(
            $response->status,
            $h['service-request-id'] ?? null,
            $idempotencyKey,
            ($h['idempotent-replayed'] ?? null) === 'true',
            ['limit' => $number('x-ratelimit-limit'), 'remaining' => $number('x-ratelimit-remaining'), 'reset' => $number('x-ratelimit-reset')],
            $attempts,
            $h,
        );
    }

    /**
     * The typed exception of an error answer, chosen by its `error.type` (any 404 is
     * NotFoundException). An answer that is not the API's error JSON (a proxy's page, another
     * server's 404: usually a wrong `base_url`) is an ApiException (RateLimitException for a 429,
     * so that it is retried) with code `unexpected_response`, whose message says what came instead.
     *
     * @param array<string, string> $headers
     */
    public static function errorFromResponse(int $status, mixed $body, array $headers, ?string $url = null): InnkeepException
    {
        $error = is_array($body) && is_array($body['error'] ?? null) ? $body['error'] : null;
        if ($error === null || !is_string($error['type'] ?? null) || !is_string($error['code'] ?? null)) {
            $class = $status === 429 ? RateLimitException::class : ApiException::class;
            return new $class(self::unexpected($status, $body, $headers, $url), $status, null, $headers, 'api_error', 'unexpected_response');
        }
        $class = match (true) {
            $status === 404 => NotFoundException::class,
            isset(self::BY_TYPE[$error['type']]) => self::BY_TYPE[$error['type']],
            $status === 429 => RateLimitException::class,
            default => ApiException::class,
        };
        $message = is_string($error['message'] ?? null) ? $error['message'] : "HTTP $status";
        /** @var array<string, mixed> $body */
        return new $class($message, $status, $body, $headers);
    }

    /** @param array<string, string> $headers */
    private static function unexpected(int $status, mixed $body, array $headers, ?string $url): string
    {
        $type = trim(explode(';', $headers['content-type'] ?? '')[0]);
        $type = $type === '' ? 'no content type' : $type;
        $text = is_string($body) ? trim((string) preg_replace('/\s+/', ' ', $body)) : '';
        $start = $text === '' ? '' : (mb_strlen($text) > 60 ? sprintf(", starting '%s…'", mb_substr($text, 0, 60)) : ", starting '$text'");
        $where = $url !== null ? explode('?', $url, 2)[0] : 'the server';
        $hint = match (true) {
            $status === 404 || stripos($type, 'html') !== false => ' Is `base_url` right? It must be the Innkeep server\'s origin (or `<origin>/v1`), and nothing in between may answer for it.',
            $status >= 500 => ' A proxy or load balancer in front of Innkeep may have answered; retry later.',
            default => '',
        };
        return "$where answered HTTP $status with $type$start: not an Innkeep API answer.$hint";
    }

    /**
     * `Retry-After` in seconds: a number of seconds, or an HTTP date from now.
     *
     * @param array<string, string> $headers
     */
    public static function retryAfterSeconds(array $headers): ?float
    {
        $value = trim($headers['retry-after'] ?? '');
        if ($value === '') {
            return null;
        }
        if (is_numeric($value)) {
            return max(0.0, (float) $value);
        }
        $when = \DateTimeImmutable::createFromFormat(\DateTimeInterface::RFC7231, $value);
        return $when === false ? null : max(0.0, (float) ($when->getTimestamp() - time()));
    }

    /** A random UUID v4, the default `Idempotency-Key` of a POST. */
    public static function uuid4(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
