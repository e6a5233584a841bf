<?php

declare(strict_types=1);

namespace Innkeep\Tests;

use Innkeep\Exception\ApiConnectionException;
use Innkeep\Exception\ApiTimeoutException;
use Innkeep\HttpClient;
use Innkeep\HttpResponse;
use Innkeep\InnkeepClient;

/** Answers given answers in turn (the vectors' form: status/body/text/headers, network_error, timeout) and records requests. */
final class Scripted implements HttpClient
{
    /** @var list<array{method: string, url: string, headers: array<string, string>, body: ?string, timeout: float}> */
    public array $seen = [];

    /** @var list<float> */
    public array $sleeps = [];

    /** @param list<array<string, mixed>> $answers */
    public function __construct(private array $answers)
    {
    }

    public function request(string $method, string $url, array $headers, ?string $body, float $timeout): HttpResponse
    {
        $this->seen[] = compact('method', 'url', 'headers', 'body', 'timeout');
        $answer = array_shift($this->answers) ?? ['status' => 200, 'body' => new \stdClass()];
        if ($answer['network_error'] ?? false) {
            throw new ApiConnectionException('connection refused');
        }
        if ($answer['timeout'] ?? false) {
            throw new ApiTimeoutException('timed out');
        }
        $headers = array_change_key_case($answer['headers'] ?? [], CASE_LOWER);
        if (array_key_exists('body', $answer)) {
            $headers['content-type'] ??= 'application/json';
            $text = json_encode($answer['body'], JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE);
        } else {
            $text = $answer['text'] ?? '';
        }
        return new HttpResponse($answer['status'], $headers, $text);
    }

    /** @param array<string, mixed> $options */
    public function client(array $options = [], float $random = 0.5): InnkeepClient
    {
        $client = new InnkeepClient(['api_key' => 'hk_test', 'base_url' => 'http://innkeep.test', 'http_client' => $this, ...$options]);
        $client->requestor->sleep = function (float $seconds): void {
            $this->sleeps[] = $seconds;
        };
        $client->requestor->random = static fn (): float => $random;
        return $client;
    }

    /** A file of the shared test vectors (clients/testdata), which every client's tests read. */
    public static function vectors(string $name): mixed
    {
        return json_decode((string) file_get_contents(__DIR__ . '/../../testdata/' . $name), true, 512, JSON_THROW_ON_ERROR);
    }
}
