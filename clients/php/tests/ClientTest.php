<?php

declare(strict_types=1);

namespace Innkeep\Tests;

use Innkeep\Exception\AuthenticationException;
use Innkeep\InnkeepClient;
use PHPUnit\Framework\TestCase;

final class ClientTest extends TestCase
{
    public function testAPostCarriesCredentialsEnvironmentVersionAndAKeyOfItsOwn(): void
    {
        $script = new Scripted([['status' => 201, 'body' => ['id' => 'res_1']], ['status' => 201, 'body' => ['id' => 'res_2']]]);
        $client = $script->client(['environment' => 'sandbox', 'version' => '2026-01-01']);
        self::assertSame(['id' => 'res_1'], $client->reservations->create(['property_id' => 'prop_1', 'guest' => ['first_name' => 'Zoë']]));
        $client->reservations->create(['property_id' => 'prop_1'], ['idempotency_key' => 'mine', 'environment' => 'live', 'headers' => ['X-Trace' => 't1']]);
        [$first, $second] = $script->seen;
        self::assertSame(['POST', 'http://innkeep.test/v1/reservations'], [$first['method'], $first['url']]);
        self::assertSame('{"property_id":"prop_1","guest":{"first_name":"Zoë"}}', $first['body']);
        self::assertSame('Bearer hk_test', $first['headers']['authorization']);
        self::assertSame(['sandbox', '2026-01-01', 'application/json'], [$first['headers']['service-environment'], $first['headers']['service-version'], $first['headers']['content-type']]);
        self::assertMatchesRegularExpression('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $first['headers']['idempotency-key']);
        self::assertSame(['mine', 'live', 't1'], [$second['headers']['idempotency-key'], $second['headers']['service-environment'], $second['headers']['x-trace']]);
        self::assertSame(201, $client->lastResponse?->status);
        self::assertSame('mine', $client->lastResponse->idempotencyKey);
    }

    public function testPathParametersAreEncodedAndAGetSendsItsParamsAsTheQuery(): void
    {
        $script = new Scripted([['status' => 200, 'body' => ['id' => 'a/b']], ['status' => 200, 'body' => []]]);
        $client = $script->client();
        $client->webhookEndpoints->retrieveBackfill('we 1', 'a/b');
        $client->reports->occupancy(['property_id' => 'prop_1', 'from' => '2026-01-01', 'group' => ['a', 'b'], 'flag' => true, 'none' => null]);
        self::assertSame('http://innkeep.test/v1/webhook_endpoints/we%201/backfills/a%2Fb', $script->seen[0]['url']);
        self::assertNull($script->seen[0]['body']);
        self::assertArrayNotHasKey('idempotency-key', $script->seen[0]['headers']);
        self::assertSame('http://innkeep.test/v1/reports/occupancy?property_id=prop_1&from=2026-01-01&group=a&group=b&flag=true', $script->seen[1]['url']);
    }

    public function testAPostWithoutParamsSendsAnEmptyObject(): void
    {
        $script = new Scripted([['status' => 200, 'body' => ['id' => 'res_1', 'status' => 'cancelled']]]);
        $script->client()->reservations->cancel('res_1');
        self::assertSame('{}', $script->seen[0]['body']);
    }

    public function testPerCallRetriesAndTimeoutOverrideTheClients(): void
    {
        $script = new Scripted([['status' => 500, 'body' => ['error' => ['type' => 'api_error', 'code' => 'internal_error', 'message' => 'x']]]]);
        $client = $script->client(['max_retries' => 5, 'timeout' => 30]);
        try {
            $client->guests->list([], ['max_retries' => 0, 'timeout' => 1.5]);
            self::fail('no exception');
        } catch (\Innkeep\Exception\ApiException $error) {
            self::assertSame(500, $error->status);
        }
        self::assertCount(1, $script->seen);
        self::assertSame(1.5, $script->seen[0]['timeout']);
    }

    public function testACsvReportIsAnsweredAsText(): void
    {
        $script = new Scripted([['status' => 200, 'headers' => ['Content-Type' => 'text/csv'], 'text' => "date,rooms\n2026-01-01,3\n"]]);
        self::assertSame("date,rooms\n2026-01-01,3\n", $script->client()->reports->occupancy(['format' => 'csv']));
    }

    /** The start of a PDF: binary, not UTF-8, so that a client reading it as text would change it. */
    private const PDF = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n";

    public function testAnInvoicePdfIsItsBytesExactlyAndItsErrorsAreTyped(): void
    {
        $script = new Scripted([
            ['status' => 200, 'headers' => ['Content-Type' => 'application/pdf', 'Content-Disposition' => 'attachment; filename="Harbor-1.pdf"'], 'text' => self::PDF],
            ['status' => 404, 'body' => ['error' => ['type' => 'invalid_request_error', 'code' => 'resource_missing', 'message' => "No such invoice: 'inv_x'", 'param' => 'id']]],
            ['status' => 200, 'body' => ['object' => 'invoice']],
        ]);
        $client = $script->client();
        self::assertSame(self::PDF, $client->invoices->retrievePdf('inv_1'));
        self::assertSame(['GET', 'http://innkeep.test/v1/invoices/inv_1/pdf'], [$script->seen[0]['method'], $script->seen[0]['url']]);
        try {
            $client->invoices->retrievePdf('inv_x');
            self::fail('no 404');
        } catch (\Innkeep\Exception\NotFoundException $missing) {
            self::assertSame([404, 'resource_missing', 'id'], [$missing->status, $missing->code, $missing->param]);
        }
        try {
            $client->invoices->retrievePdf('inv_1');
            self::fail('JSON instead of a PDF');
        } catch (\Innkeep\Exception\ApiException $unexpected) {
            self::assertSame('unexpected_response', $unexpected->code);
        }
    }

    public function testAnExpiredAccessTokenIsRefreshedOnce(): void
    {
        $expired = ['status' => 401, 'body' => ['error' => ['type' => 'authentication_error', 'code' => 'token_expired', 'message' => 'Expired.']]];
        $script = new Scripted([$expired, ['status' => 200, 'body' => ['id' => 'gst_1']], $expired, $expired]);
        $client = new InnkeepClient(['access_token' => 'hat_old', 'refresh_token' => fn () => 'hat_new', 'base_url' => 'http://innkeep.test', 'http_client' => $script]);
        self::assertSame(['id' => 'gst_1'], $client->guests->retrieve('gst_1'));
        self::assertSame(['Bearer hat_old', 'Bearer hat_new'], array_map(fn ($r) => $r['headers']['authorization'], $script->seen));
        $this->expectException(AuthenticationException::class);
        $client->guests->retrieve('gst_1');
    }

    public function testToArrayNeedsALimitAndStopsThere(): void
    {
        $page = fn (array $ids, ?string $next) => ['status' => 200, 'body' => ['object' => 'list', 'data' => array_map(fn ($id) => ['id' => $id], $ids), 'has_more' => $next !== null, 'next_cursor' => $next]];
        $script = new Scripted([$page(['g1', 'g2'], 'c2'), $page(['g3', 'g4'], 'c4'), $page(['g5'], null)]);
        $list = $script->client()->guests->list(['limit' => 2]);
        self::assertSame(['g1', 'g2'], array_column($list->data, 'id'));
        self::assertSame(['g1', 'g2', 'g3'], array_column($list->toArray(3), 'id'));
        self::assertCount(2, $script->seen);
        // Each walk fetches the later pages again (nothing is cached): pages 2 and 3 once more.
        $script2 = new Scripted([$page(['g1', 'g2'], 'c2'), $page(['g3', 'g4'], 'c4'), $page(['g5'], null)]);
        self::assertSame([['g1', 'g2'], ['g3', 'g4'], ['g5']], array_map(fn ($p) => array_column($p->data, 'id'), iterator_to_array($script2->client()->guests->list(['limit' => 2])->pages(), false)));
    }

    public function testMisspeltOptionsAndMissingIdsAreRefusedBeforeAnyRequest(): void
    {
        $script = new Scripted([]);
        $client = $script->client();
        foreach ([
            fn () => new InnkeepClient(['apikey' => 'hk_x']),
            fn () => new InnkeepClient(['api_key' => 'hk_x', 'access_token' => 'hat_x']),
            fn () => new InnkeepClient(['environment' => 'test']),
            fn () => $client->guests->list([], ['idempotencyKey' => 'x']),
            fn () => $client->guests->retrieve(''),
        ] as $refused) {
            try {
                $refused();
                self::fail('accepted');
            } catch (\InvalidArgumentException) {
            }
        }
        self::assertSame([], $script->seen);
    }

    /** Issue 40, point 4: no key is said at construction (getenv() answers false when unset), not a TypeError. */
    public function testAMissingKeyIsRefusedAtConstructionAndNamesTheVariable(): void
    {
        foreach ([[], ['api_key' => false], ['api_key' => ''], ['access_token' => ' '], false, null, ''] as $options) {
            try {
                new InnkeepClient($options);
                self::fail('accepted ' . var_export($options, true));
            } catch (\InvalidArgumentException $refused) {
                self::assertStringContainsString('No API key', $refused->getMessage());
                self::assertStringContainsString('INNKEEP_API_KEY', $refused->getMessage());
            }
        }
        self::assertInstanceOf(InnkeepClient::class, new InnkeepClient(['access_token' => 'hat_x']));
    }

    public function testEveryResourceOfTheTableIsAPropertyOfTheClient(): void
    {
        $client = new InnkeepClient('hk_x');
        $table = require __DIR__ . '/../scripts/resources.php';
        foreach ($table as $resource => $methods) {
            foreach (array_keys($methods) as $method) {
                self::assertTrue(method_exists($client->$resource, $method), "$resource->$method");
            }
        }
    }

    public function testTheTableIsTheTypeScriptClientsWithDeleteSpelledOut(): void
    {
        $source = (string) file_get_contents(__DIR__ . '/../../typescript/src/resources.ts');
        $body = substr($source, strpos($source, 'export const resourceTable = {'));
        preg_match_all('/^  (\w+): \{(.*?)\},?$/ms', substr($body, 0, strpos($body, '} as const')), $resources, PREG_SET_ORDER);
        $typescript = [];
        foreach ($resources as [, $resource, $methods]) {
            preg_match_all('/(\w+): "(\w+)"/', $methods, $pairs, PREG_SET_ORDER);
            foreach ($pairs as [, $method, $operation]) {
                $typescript[$resource][$method === 'del' ? 'delete' : $method] = $operation;
            }
        }
        self::assertGreaterThan(15, count($typescript));
        self::assertSame($typescript, require __DIR__ . '/../scripts/resources.php');
    }
}
