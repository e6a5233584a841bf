<?php

declare(strict_types=1);

namespace Innkeep;

use Innkeep\Generated\Operations;
use Innkeep\Generated\Services;

/**
 * The Innkeep API client.
 *
 *     $client = new \Innkeep\InnkeepClient(['api_key' => getenv('INNKEEP_API_KEY'), 'environment' => 'sandbox']);
 *     $stay = $client->reservations->create([...]);
 *     foreach ($client->reservations->list(['status' => 'confirmed']) as $reservation) { ... }
 *
 * Options: `api_key` (`hk_…`) or `access_token` (`hat_…`, OAuth) with `refresh_token` (a callable
 * answering a fresh access token when the server says it expired); `base_url` (`<origin>` or
 * `<origin>/v1`, default http://localhost:3000/v1); `environment` (`live` or `sandbox`, sent as
 * `Service-Environment`); `version` (a `Service-Version` pin); `max_retries` (default 2);
 * `timeout` (seconds per attempt, default 60); `http_client` (an HttpClient; default curl).
 *
 * Every method takes, last, the per-call options (RequestOptions): `idempotency_key`,
 * `max_retries`, `timeout`, `environment`, `version`, `headers`.
 *
 * @phpstan-type RequestOptions array{idempotency_key?: string, max_retries?: int, timeout?: float|int, environment?: 'live'|'sandbox', version?: string, headers?: array<string, string>}
 */
final class InnkeepClient
{
    use Services;

    public const VERSION = '0.1.0';
    public const DEFAULT_BASE_URL = 'http://localhost:3000/v1';
    /** The refusal of a client without credentials: the same words in the four clients. */
    public const MISSING_KEY = "No API key: give `api_key` (a secret key, hk_…) or `access_token` (an OAuth token, hat_…). Reading it from the environment? INNKEEP_API_KEY is not set";
    private const OPTIONS = ['api_key', 'access_token', 'refresh_token', 'base_url', 'environment', 'version', 'max_retries', 'timeout', 'http_client'];

    /** Status, request id, idempotency key and rate-limit headers of the latest answer. */
    public ?ResponseInfo $lastResponse = null;

    /** @internal the transport of every call; tests replace its sleep */
    public readonly Requestor $requestor;

    private ?string $token;

    /**
     * @param array{api_key?: string|false, access_token?: string|false, refresh_token?: callable(): string, base_url?: string, environment?: 'live'|'sandbox', version?: string, max_retries?: int, timeout?: float|int, http_client?: HttpClient}|string|false|null $options
     *   the options, or just an API key (`false`, what getenv() answers for an unset variable, is
     *   refused as a missing key)
     * @throws \InvalidArgumentException without a key or token, before any request
     */
    public function __construct(array|string|false|null $options = [])
    {
        $options = is_array($options) ? $options : ['api_key' => $options];
        $unknown = array_diff(array_keys($options), self::OPTIONS);
        if ($unknown !== []) {
            throw new \InvalidArgumentException(sprintf('Unknown option %s; known: %s.', implode(', ', $unknown), implode(', ', self::OPTIONS)));
        }
        if (isset($options['api_key'], $options['access_token'])) {
            throw new \InvalidArgumentException('Give `api_key` or `access_token`, not both.');
        }
        $environment = $options['environment'] ?? null;
        if ($environment !== null && !in_array($environment, ['live', 'sandbox'], true)) {
            throw new \InvalidArgumentException("`environment` is 'live' or 'sandbox'.");
        }
        $token = $options['api_key'] ?? $options['access_token'] ?? null;
        if (!is_string($token) || trim($token) === '') {
            $got = match (true) {
                $token === null => 'none was given',
                $token === false => 'got false, what getenv() answers for an unset variable',
                is_string($token) => 'got an empty string',
                default => 'got ' . get_debug_type($token),
            };
            throw new \InvalidArgumentException(self::MISSING_KEY . " ($got).");
        }
        $this->token = $token;
        $refresh = null;
        if (isset($options['refresh_token'])) {
            $hook = $options['refresh_token'];
            $refresh = function () use ($hook): string {
                $this->token = (string) $hook();
                return $this->token;
            };
        }
        $this->requestor = new Requestor(
            $options['http_client'] ?? new CurlHttpClient(),
            self::baseUrl($options['base_url'] ?? null),
            fn (): ?string => $this->token,
            $refresh,
            $environment,
            $options['version'] ?? null,
            $options['max_retries'] ?? Requestor::DEFAULT_MAX_RETRIES,
            (float) ($options['timeout'] ?? Requestor::DEFAULT_TIMEOUT),
            function (ResponseInfo $info): void {
                $this->lastResponse = $info;
            },
        );
        $this->initServices();
    }

    /**
     * Any call by method and path (under /v1), for what the resources do not cover. GET and
     * DELETE send `$params` as the query, the others as the JSON body.
     *
     * @param array<string, mixed> $params
     * @param RequestOptions $options
     */
    public function request(string $method, string $path, array $params = [], array $options = []): mixed
    {
        $reads = in_array(strtoupper($method), ['GET', 'DELETE'], true);
        return $this->requestor->send($method, $path, $reads ? $params : [], $reads || $params === [] ? null : $params, $options);
    }

    /**
     * One operation of the generated table, by its operationId.
     *
     * @internal resources call it
     * @param list<string> $ids path parameters, in order
     * @param array<string, mixed> $params
     * @param RequestOptions $options
     */
    public function call(string $operation, array $ids, array $params, array $options): mixed
    {
        [$method, $path] = self::operation($operation, $ids);
        return $this->request($method, $path, $params, $options);
    }

    /**
     * An operation that answers a file (an invoice's PDF): its bytes, as they came. Its errors are
     * JSON, thrown as the typed exceptions.
     *
     * @internal resources call it
     * @param list<string> $ids path parameters, in order
     * @param array<string, mixed> $params
     * @param RequestOptions $options
     */
    public function callBytes(string $operation, array $ids, array $params, array $options): string
    {
        [$method, $path] = self::operation($operation, $ids);
        $answer = $this->request($method, $path, $params, $options);
        if (!is_string($answer)) {
            throw new Exception\ApiException("$method $path answered " . get_debug_type($answer) . " instead of the file's bytes.", 200, null, [], 'api_error', 'unexpected_response');
        }
        return $answer;
    }

    /**
     * @internal resources call it
     * @param list<string> $ids
     * @param array<string, mixed> $params
     * @param RequestOptions $options
     * @return Collection<mixed>
     */
    public function callList(string $operation, array $ids, array $params, array $options): Collection
    {
        [, $path] = self::operation($operation, $ids);
        $fetch = function (?string $cursor) use ($path, $params, $options): array {
            $answer = $this->requestor->send('GET', $path, $cursor === null ? $params : [...$params, 'cursor' => $cursor], null, $options);
            if (!is_array($answer)) {
                throw new Exception\ApiException("GET $path answered something that is not a list.", 200, null, [], 'api_error', 'unexpected_response');
            }
            return $answer;
        };
        return new Collection($fetch(null), $fetch);
    }

    /**
     * @param list<string> $ids
     * @return array{0: string, 1: string} method and path
     */
    private static function operation(string $operation, array $ids): array
    {
        [$method, $template, $names] = Operations::ALL[$operation] ?? throw new \InvalidArgumentException("No operation $operation.");
        $path = $template;
        foreach ($names as $i => $name) {
            $value = $ids[$i] ?? null;
            if (!is_string($value) || $value === '') {
                throw new \InvalidArgumentException("$operation: `$name` must be a non-empty string.");
            }
            $path = str_replace('{' . $name . '}', rawurlencode($value), $path);
        }
        return [$method, $path];
    }

    private static function baseUrl(?string $baseUrl): string
    {
        $base = rtrim($baseUrl ?? self::DEFAULT_BASE_URL, '/');
        return str_ends_with($base, '/v1') ? $base : $base . '/v1';
    }
}
