<?php

declare(strict_types=1);

namespace Innkeep;

use Innkeep\Exception\ApiConnectionException;
use Innkeep\Exception\ApiTimeoutException;

/**
 * Sends one HTTP request. The client's default is CurlHttpClient; pass your own as the client's
 * `http_client` option (a proxy, tracing, tests).
 */
interface HttpClient
{
    /**
     * @param array<string, string> $headers
     * @throws ApiTimeoutException when no answer came within `$timeout` seconds
     * @throws ApiConnectionException when no answer came at all
     */
    public function request(string $method, string $url, array $headers, ?string $body, float $timeout): HttpResponse;
}
