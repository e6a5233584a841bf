<?php

declare(strict_types=1);

namespace Innkeep\Tests;

use Innkeep\Exception;
use Innkeep\Exception\InnkeepException;
use Innkeep\Exception\SignatureVerificationException;
use Innkeep\Requestor;
use Innkeep\Webhook;
use PHPUnit\Framework\TestCase;

/** The shared test vectors of clients/testdata, which the TypeScript, Python and Go clients pass too. */
final class VectorsTest extends TestCase
{
    /** The vectors name the TypeScript classes; these are their PHP names. */
    private const CLASSES = [
        'InnkeepError' => Exception\InnkeepException::class,
        'InvalidRequestError' => Exception\InvalidRequestException::class,
        'NotFoundError' => Exception\NotFoundException::class,
        'AuthenticationError' => Exception\AuthenticationException::class,
        'PermissionError' => Exception\PermissionException::class,
        'ConflictError' => Exception\ConflictException::class,
        'IdempotencyError' => Exception\IdempotencyException::class,
        'CardError' => Exception\CardException::class,
        'RateLimitError' => Exception\RateLimitException::class,
        'ApiError' => Exception\ApiException::class,
        'ConnectionError' => Exception\ApiConnectionException::class,
        'TimeoutError' => Exception\ApiTimeoutException::class,
    ];

    /** @return array<string, array{0: array<string, mixed>}> */
    private static function named(array $cases): array
    {
        $named = [];
        foreach ($cases as $case) {
            $named[$case['name']] = [$case];
        }
        return $named;
    }

    public static function signatures(): array
    {
        return self::named(Scripted::vectors('webhook-signatures.json')['cases']);
    }

    public static function decisions(): array
    {
        return self::named(Scripted::vectors('retries.json')['decisions']);
    }

    public static function sequences(): array
    {
        return self::named(Scripted::vectors('retries.json')['sequences']);
    }

    public static function errors(): array
    {
        return self::named(Scripted::vectors('errors.json')['cases']);
    }

    public static function walks(): array
    {
        return self::named(Scripted::vectors('pagination.json')['walks']);
    }

    /** @dataProvider signatures */
    public function testWebhookSignature(array $case): void
    {
        $header = $case['header'];
        if ($case['expected']['valid']) {
            $event = Webhook::constructEvent($case['payload'], $header, $case['secret'], $case['tolerance'], $case['now']);
            self::assertSame($case['expected']['event_id'], $event['id']);
            return;
        }
        try {
            Webhook::constructEvent($case['payload'], $header, $case['secret'], $case['tolerance'], $case['now']);
            self::fail('verified a delivery that must be refused');
        } catch (SignatureVerificationException $refused) {
            self::assertSame($case['expected']['reason'], $refused->reason);
        }
    }

    public function testGenerateTestHeaderSignsAsTheVectors(): void
    {
        $valid = self::signatures()['valid'][0];
        $t = (int) substr(explode(',', $valid['header'])[0], 2);
        self::assertSame($valid['header'], Webhook::generateTestHeader($valid['payload'], $valid['secret'], $t));
    }

    public function testBackoffBounds(): void
    {
        $retries = Scripted::vectors('retries.json');
        self::assertSame([$retries['backoff']['base_ms'], $retries['backoff']['cap_ms']], [(int) (Requestor::BASE_DELAY * 1000), (int) (Requestor::MAX_DELAY * 1000)]);
        foreach ($retries['backoff']['bounds'] as $bound) {
            $high = (new Scripted([]))->client([], 0.999999)->requestor->backoff($bound['attempt']) * 1000;
            self::assertGreaterThan($bound['max_ms'] * 0.999, $high);
            self::assertLessThan($bound['max_ms'], $high);
            self::assertSame(0.0, (new Scripted([]))->client([], 0.0)->requestor->backoff($bound['attempt']));
        }
        $default = new \ReflectionProperty(Requestor::class, 'maxRetries');
        self::assertSame($retries['default_max_retries'], $default->getValue((new Scripted([]))->client()->requestor));
    }

    /** @dataProvider decisions */
    public function testRetryDecision(array $case): void
    {
        $script = new Scripted([$case['answer'], ['status' => 200, 'body' => ['ok' => true]]]);
        $client = $script->client(['max_retries' => 1]);
        try {
            $outcome = $client->request('POST', '/guests', ['first_name' => 'A']);
        } catch (InnkeepException $error) {
            $outcome = $error;
        }
        if (!$case['retry']) {
            self::assertInstanceOf(InnkeepException::class, $outcome);
            self::assertCount(1, $script->seen);
            self::assertSame([], $script->sleeps);
            return;
        }
        self::assertSame(['ok' => true], $outcome);
        self::assertCount(2, $script->seen);
        // With random() fixed at 0.5, backoff for attempt 0 is half of base_ms.
        $wait = $case['wait'];
        self::assertEqualsWithDelta([isset($wait['seconds']) ? (float) $wait['seconds'] : 0.25], $script->sleeps, 1e-9);
        self::assertSame($script->seen[0]['headers']['idempotency-key'], $script->seen[1]['headers']['idempotency-key']);
    }

    /** @dataProvider sequences */
    public function testRetrySequence(array $case): void
    {
        $script = new Scripted($case['answers']);
        $client = $script->client($case['max_retries'] === null ? [] : ['max_retries' => $case['max_retries']]);
        $post = $case['method'] === 'POST';
        try {
            $outcome = $client->request($case['method'], '/guests', $post ? ['first_name' => 'A'] : []);
        } catch (InnkeepException $error) {
            $outcome = $error;
        }
        $expected = $case['expected'];
        self::assertCount($expected['attempts'], $script->seen);
        if ($post) {
            self::assertCount(1, array_unique(array_map(fn ($r) => $r['headers']['idempotency-key'], $script->seen)));
            self::assertSame(['{"first_name":"A"}'], array_values(array_unique(array_map(fn ($r) => $r['body'], $script->seen))));
        }
        if (array_key_exists('result', $expected)) {
            self::assertSame($expected['result'], $outcome);
            return;
        }
        $error = $expected['error'];
        self::assertSame(self::CLASSES[$error['class']], $outcome::class);
        self::assertSame($error['status'], $outcome->status);
        if (isset($error['code'])) {
            self::assertSame($error['code'], $outcome->code);
        }
        if (isset($error['request_id'])) {
            self::assertSame($error['request_id'], $outcome->requestId);
        }
    }

    /** @dataProvider errors */
    public function testErrorMapping(array $case): void
    {
        $client = (new Scripted([$case]))->client(['max_retries' => 0]);
        try {
            $client->reservations->retrieve('res_x');
            self::fail('no exception');
        } catch (InnkeepException $error) {
        }
        $expected = $case['expected'];
        self::assertSame(self::CLASSES[$expected['class']], $error::class);
        foreach ($expected['is_a'] as $parent) {
            self::assertInstanceOf(self::CLASSES[$parent], $error);
        }
        self::assertSame(
            [$case['status'], $expected['type'], $expected['code'], $expected['param'], $expected['request_id']],
            [$error->status, $error->type, $error->code, $error->param, $error->requestId],
        );
        self::assertSame($expected['code'], $error->getCode());
        if (isset($expected['message'])) {
            self::assertSame($expected['message'], $error->getMessage());
        }
        if (isset($expected['retry_after'])) {
            self::assertInstanceOf(Exception\RateLimitException::class, $error);
            self::assertEquals($expected['retry_after'], $error->retryAfter());
        }
        if (isset($expected['payment_id'])) {
            self::assertInstanceOf(Exception\CardException::class, $error);
            self::assertSame($expected['payment_id'], $error->paymentId());
        }
        // Money errors' amount and currency as fields; null for every other error.
        self::assertSame([$expected['amount'] ?? null, $expected['currency'] ?? null], [$error->amount, $error->currency]);
    }

    /** @dataProvider walks */
    public function testPaginationWalk(array $case): void
    {
        $script = new Scripted(array_map(fn ($p) => ['status' => 200, 'body' => $p['answer']], $case['pages']));
        $ids = [];
        foreach ($script->client()->reservations->list($case['params']) as $reservation) {
            $ids[] = $reservation['id'];
        }
        self::assertSame($case['expected_ids'], $ids);
        $seen = array_map(static function (array $request): array {
            $url = parse_url($request['url']);
            parse_str($url['query'] ?? '', $query);
            return [$url['path'], $query];
        }, $script->seen);
        $expected = array_map(fn ($p) => ['/v1' . $case['path'], $p['expected_query']], $case['pages']);
        self::assertSame($expected, $seen);
    }
}
