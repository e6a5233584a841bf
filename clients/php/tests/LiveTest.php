<?php

declare(strict_types=1);

namespace Innkeep\Tests;

use Innkeep\Exception\AuthenticationException;
use Innkeep\Exception\ConflictException;
use Innkeep\Exception\InvalidRequestException;
use Innkeep\Exception\NotFoundException;
use Innkeep\Exception\PermissionException;
use Innkeep\Exception\RateLimitException;
use Innkeep\Exception\SignatureVerificationException;
use Innkeep\InnkeepClient;
use Innkeep\Webhook;
use PHPUnit\Framework\TestCase;

/**
 * The client against a real, running Innkeep server (clients/live-tests.sh starts one).
 *
 * Skipped unless INNKEEP_LIVE_URL is set; also needs INNKEEP_LIVE_API_KEY (every scope),
 * INNKEEP_LIVE_LIMITED_KEY (`rooms:read` only) and INNKEEP_LIVE_SLOW_KEY (one request a second),
 * and a server that may deliver webhooks to 127.0.0.1.
 */
final class LiveTest extends TestCase
{
    private static string $run;
    private static int $night = 200; // nights of its own, after the Python suite's and before the Go suite's

    /** @var array{property_id: string, room_type_id: string, rate_plan_id: string}|null */
    private static ?array $hotel = null;

    protected function setUp(): void
    {
        if (!getenv('INNKEEP_LIVE_URL')) {
            self::markTestSkipped('INNKEEP_LIVE_URL is not set');
        }
        self::$run ??= bin2hex(random_bytes(4));
    }

    private static function client(array $options = []): InnkeepClient
    {
        return new InnkeepClient(['api_key' => getenv('INNKEEP_LIVE_API_KEY'), 'base_url' => getenv('INNKEEP_LIVE_URL'), ...$options]);
    }

    private static function sandbox(): InnkeepClient
    {
        return self::client(['environment' => 'sandbox']);
    }

    /** The account's sandbox hotel (every account has one), its King rooms at the BAR rate. */
    private static function hotel(): array
    {
        if (self::$hotel === null) {
            $client = self::sandbox();
            $property = $client->properties->list()->data[0];
            $find = function (iterable $items, string $code): array {
                foreach ($items as $item) {
                    if ($item['code'] === $code) {
                        return $item;
                    }
                }
                throw new \RuntimeException("no $code");
            };
            self::$hotel = [
                'property_id' => $property['id'],
                'room_type_id' => $find($client->roomTypes->list(['property_id' => $property['id'], 'limit' => 100]), 'KING')['id'],
                'rate_plan_id' => $find($client->ratePlans->list(['property_id' => $property['id'], 'limit' => 100]), 'BAR')['id'],
            ];
        }
        return self::$hotel;
    }

    /** A stay with only the required fields, on a night of its own. */
    private static function booking(): array
    {
        $start = (new \DateTimeImmutable('today', new \DateTimeZone('UTC')))->modify('+' . self::$night++ . ' days');
        return [
            ...self::hotel(),
            'guest' => ['first_name' => 'Ada', 'last_name' => 'Lovelace', 'email' => 'ada-' . self::$run . '-' . bin2hex(random_bytes(3)) . '@example.com'],
            'check_in' => $start->format('Y-m-d'),
            'check_out' => $start->modify('+1 day')->format('Y-m-d'),
            'adults' => 1,
        ];
    }

    /** @return list<string> the ids of the reservations of the guest with this e-mail */
    private static function reservationsOf(InnkeepClient $client, string $email): array
    {
        $ids = [];
        foreach ($client->guests->list(['email' => $email])->data as $guest) {
            foreach ($client->reservations->list(['guest_id' => $guest['id'], 'limit' => 100]) as $reservation) {
                $ids[] = $reservation['id'];
            }
        }
        return $ids;
    }

    private static function newGuest(InnkeepClient $client, string $label): array
    {
        return $client->guests->create(['first_name' => 'Walk', 'last_name' => $label, 'email' => "walk-" . self::$run . "-$label-" . bin2hex(random_bytes(3)) . '@example.com']);
    }

    public function testBooksAStayReadsItPaysAndCancels(): void
    {
        $client = self::sandbox();
        $stay = $client->reservations->create(self::booking());
        self::assertSame(['confirmed', 0, 'api', 1], [$stay['status'], $stay['children'], $stay['source'], $stay['nights']]);
        $info = $client->lastResponse;
        self::assertSame([201, 1, false], [$info->status, $info->attempts, $info->idempotentReplayed]);
        self::assertMatchesRegularExpression('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $info->idempotencyKey);
        self::assertStringStartsWith('req_', $info->requestId);
        self::assertGreaterThan(0, $info->rateLimit['limit']);

        self::assertSame($stay['id'], $client->reservations->retrieve($stay['id'])['id']);
        $listed = array_column($client->reservations->list(['status' => 'confirmed', 'guest_id' => $stay['guest']['id']])->toArray(100), 'id');
        self::assertSame([$stay['id']], $listed);
        $payment = $client->payments->create(['reservation_id' => $stay['id'], 'payment_method' => ['type' => 'cash']]);
        self::assertSame(['payment', 'succeeded'], [$payment['object'], $payment['status']]);
        self::assertSame('cancelled', $client->reservations->cancel($stay['id'])['status']);
    }

    public function testIssuesAnInvoiceForACancelledStayAndDownloadsItsPdf(): void
    {
        $client = self::sandbox();
        $stay = $client->reservations->create(self::booking());
        // A free cancellation leaves the folio empty, and an empty folio is not invoiced (409): with a
        // charge on it, the cancellation closes the folio into its invoice.
        $client->folios->createCharge($stay['folio_id'], ['description' => 'Minibar', 'amount' => 1500]);
        self::assertSame('cancelled', $client->reservations->cancel($stay['id'])['status']);
        $folio = $client->reservations->retrieveFolio($stay['id']);
        self::assertIsString($folio['invoice_id']);
        $invoice = $client->invoices->retrieve($folio['invoice_id']);
        self::assertSame(['invoice', $folio['id']], [$invoice['object'], $invoice['folio_id']]);
        $listed = array_column($client->invoices->list(['property_id' => self::hotel()['property_id']])->toArray(1000), 'id');
        self::assertContains($invoice['id'], $listed);
        $document = $client->invoices->retrievePdf($invoice['id']);
        self::assertStringStartsWith('%PDF-', $document);
        self::assertStringStartsWith('application/pdf', $client->lastResponse->headers['content-type'] ?? '');
        try {
            $client->invoices->retrievePdf('inv_doesnotexist');
            self::fail('no 404');
        } catch (NotFoundException $missing) {
            self::assertSame([404, 'resource_missing'], [$missing->status, $missing->code]);
        }
        try {
            $client->folios->createInvoice($folio['id']);
            self::fail('no 409');
        } catch (ConflictException $again) {
            self::assertSame([409, 'invalid_state_transition'], [$again->status, $again->code]);
        }
    }

    public function testGroupsTaxesUpgradesAndAGuestsExportAndErasure(): void
    {
        $client = self::sandbox();
        $stay = self::booking();
        $room = ['room_type_id' => $stay['room_type_id'], 'rate_plan_id' => $stay['rate_plan_id'], 'adults' => 1];
        $group = $client->groups->create([
            'property_id' => $stay['property_id'], 'guest' => $stay['guest'], 'check_in' => $stay['check_in'], 'check_out' => $stay['check_out'], 'rooms' => [$room, $room],
        ]);
        self::assertSame(['group', 2, $stay['check_in']], [$group['object'], count($group['reservations']), $group['check_in']]);
        self::assertSame($group['name'], $client->groups->retrieve($group['id'])['name']);
        self::assertSame($group['id'], $client->groups->cancel($group['id'], ['reason' => 'Plans changed'])['id']);

        $tax = $client->taxes->create(['property_id' => $stay['property_id'], 'name' => 'PHP ' . self::$run, 'kind' => 'percentage', 'percentage' => 7.5, 'inclusive' => true]);
        self::assertSame(['percentage', 7.5, true, true], [$tax['kind'], $tax['percentage'], $tax['inclusive'], $tax['active']]);
        // Inactive again at once: the sandbox hotel's prices stay those of the other suites.
        self::assertFalse($client->taxes->update($tax['id'], ['active' => false])['active']);

        $other = null;
        foreach ($client->roomTypes->list(['property_id' => $stay['property_id'], 'limit' => 100]) as $type) {
            if ($type['id'] !== $stay['room_type_id'] && $type['room_count'] > 0) {
                $other = $type;
                break;
            }
        }
        self::assertNotNull($other);
        $reservation = $client->reservations->create(self::booking());
        $upgraded = $client->reservations->upgrade($reservation['id'], ['room_type_id' => $other['id'], 'charge' => 'none']);
        self::assertSame([$other['id'], $reservation['total']], [$upgraded['room_type_id'], $upgraded['total']]);

        $export = $client->guests->export($reservation['guest']['id']);
        self::assertSame(['guest_export', $reservation['guest']['id']], [$export['object'], $export['guest']['id']]);
        self::assertSame([$reservation['id']], array_column($export['reservations'], 'id'));
        $erased = $client->guests->erase($reservation['guest']['id'], ['confirm' => true]);
        self::assertNotNull($erased['erased_at']);
        self::assertNull($erased['email']);
    }

    public function testACallersIdempotencyKeyIsReplayedFromTheStore(): void
    {
        $client = self::sandbox();
        $body = self::booking();
        $key = 'php-' . self::$run . '-replay';
        $first = $client->reservations->create($body, ['idempotency_key' => $key]);
        $second = $client->reservations->create($body, ['idempotency_key' => $key]);
        self::assertSame($first['id'], $second['id']);
        self::assertSame([$key, true], [$client->lastResponse->idempotencyKey, $client->lastResponse->idempotentReplayed]);
        self::assertSame([$first['id']], self::reservationsOf($client, $body['guest']['email']));
    }

    public function testWalksMoreThanThreePagesWhileRowsAreInserted(): void
    {
        $client = self::client();
        for ($i = 0; $i < 11; $i++) {
            self::newGuest($client, "before$i");
        }
        $before = array_column($client->guests->list(['limit' => 100])->toArray(1_000_000), 'id');
        $seen = [];
        $inserted = 0;
        foreach ($client->guests->list(['limit' => 3]) as $guest) {
            $seen[] = $guest['id'];
            // A new row after every item: newer than every cursor, so the walk never meets it.
            self::newGuest($client, 'during' . $inserted++);
        }
        self::assertSame(count($seen), count(array_unique($seen)), 'a duplicate');
        self::assertSame($before, $seen, 'a gap or a row out of order');
        self::assertGreaterThan(3, iterator_count($client->guests->list(['limit' => 3])->pages()));
        self::assertCount(5, $client->guests->list(['limit' => 2])->toArray(5));
    }

    public function testARealTooManyRequestsIsRetriedAfterRetryAfter(): void
    {
        $slow = new InnkeepClient(['api_key' => getenv('INNKEEP_LIVE_SLOW_KEY'), 'base_url' => getenv('INNKEEP_LIVE_URL')]);
        usleep(1_100_000);
        $slow->guests->list(['limit' => 1]);
        $started = microtime(true);
        $slow->guests->list(['limit' => 1]); // the second in the same second: 429, then after Retry-After 200
        self::assertSame([200, 2], [$slow->lastResponse->status, $slow->lastResponse->attempts]);
        self::assertGreaterThanOrEqual(0.9, microtime(true) - $started);
        try {
            $slow->guests->list(['limit' => 1], ['max_retries' => 0]);
            self::fail('no 429');
        } catch (RateLimitException $limited) {
            self::assertSame([429, 'too_many_requests'], [$limited->status, $limited->code]);
            self::assertGreaterThanOrEqual(1, $limited->retryAfter());
        }
    }

    public function testAConnectionDroppedAfterCommitBooksExactlyOnce(): void
    {
        $control = tempnam(sys_get_temp_dir(), 'innkeep-drop-');
        file_put_contents($control, '0');
        $target = (string) parse_url((string) getenv('INNKEEP_LIVE_URL'), PHP_URL_HOST) . ':' . parse_url((string) getenv('INNKEEP_LIVE_URL'), PHP_URL_PORT);
        $proxy = proc_open([PHP_BINARY, __DIR__ . '/live/drop-proxy.php', $target, $control], [1 => ['pipe', 'w']], $pipes);
        try {
            $port = (int) fgets($pipes[1]);
            $proxied = self::client(['environment' => 'sandbox', 'base_url' => "http://127.0.0.1:$port"]);
            $body = self::booking();
            file_put_contents($control, '1');
            $stay = $proxied->reservations->create($body);
            self::assertSame('0', file_get_contents($control), 'the proxy dropped no answer');
            self::assertSame([2, true], [$proxied->lastResponse->attempts, $proxied->lastResponse->idempotentReplayed]);
            self::assertSame([$stay['id']], self::reservationsOf(self::sandbox(), $body['guest']['email']));
        } finally {
            proc_terminate($proxy);
            proc_close($proxy);
            unlink($control);
        }
    }

    public function testTypedErrorsFromTheServer(): void
    {
        try {
            (new InnkeepClient(['api_key' => 'hk_not_a_real_key', 'base_url' => getenv('INNKEEP_LIVE_URL')]))->guests->list();
            self::fail('no 401');
        } catch (AuthenticationException $unauthenticated) {
            self::assertSame(401, $unauthenticated->status);
            self::assertStringStartsWith('req_', $unauthenticated->requestId);
        }
        try {
            (new InnkeepClient(['api_key' => getenv('INNKEEP_LIVE_LIMITED_KEY'), 'base_url' => getenv('INNKEEP_LIVE_URL'), 'environment' => 'sandbox']))->reservations->create(self::booking());
            self::fail('no 403');
        } catch (PermissionException $forbidden) {
            self::assertSame([403, 'insufficient_scope'], [$forbidden->status, $forbidden->code]);
        }
        try {
            self::sandbox()->reservations->retrieve('res_doesnotexist000000000000');
            self::fail('no 404');
        } catch (NotFoundException $missing) {
            self::assertSame([404, 'resource_missing'], [$missing->status, $missing->code]);
            self::assertInstanceOf(InvalidRequestException::class, $missing);
        }
        $wrong = self::booking();
        unset($wrong['guest']['email']);
        try {
            self::sandbox()->reservations->create($wrong);
            self::fail('no 422');
        } catch (InvalidRequestException $invalid) {
            self::assertSame([422, 'parameter_missing', 'guest.email'], [$invalid->status, $invalid->code, $invalid->param]);
            self::assertStringStartsWith('req_', $invalid->requestId);
        }
    }

    public function testVerifiesRealWebhookDeliveriesAndRotation(): void
    {
        $dir = sys_get_temp_dir() . '/innkeep-php-receiver-' . self::$run;
        @mkdir($dir);
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) parse_url('tcp://' . stream_socket_get_name($probe, false), PHP_URL_PORT);
        fclose($probe);
        $receiver = proc_open([PHP_BINARY, '-S', "127.0.0.1:$port", __DIR__ . '/live/receiver.php'], [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, null, ['INNKEEP_RECEIVER_DIR' => $dir]);
        $client = self::client();
        $endpoint = null;
        try {
            $endpoint = $client->webhookEndpoints->create(['url' => "http://127.0.0.1:$port/php-" . self::$run, 'enabled_events' => ['guest.created']]);
            $secret = $endpoint['secret'];
            $guest = self::newGuest($client, 'hooked');
            $delivery = self::waitFor($dir, $guest['id']);
            $event = Webhook::constructEvent($delivery['body'], $delivery['signature'], $secret);
            self::assertSame(['guest.created', $guest['id']], [$event['type'], $event['data']['object']['id']]);
            foreach ([[str_replace('hooked', 'hacked', $delivery['body']), $secret], [$delivery['body'], 'whsec_not_the_secret']] as [$body, $key]) {
                try {
                    Webhook::constructEvent($body, $delivery['signature'], $key);
                    self::fail('verified a tampered body or a wrong secret');
                } catch (SignatureVerificationException $refused) {
                    self::assertSame('no_matching_signature', $refused->reason);
                }
            }

            $rotated = $client->webhookEndpoints->rotateSecret($endpoint['id'], ['expires_in_seconds' => 3600]);
            self::assertNotSame($secret, $rotated['secret']);
            $later = self::newGuest($client, 'rotated');
            $during = self::waitFor($dir, $later['id']);
            self::assertSame(2, substr_count($during['signature'], 'v1='));
            foreach ([$secret, $rotated['secret']] as $valid) {
                self::assertSame($later['id'], Webhook::constructEvent($during['body'], $during['signature'], $valid)['data']['object']['id']);
            }
        } finally {
            if ($endpoint !== null) {
                $client->webhookEndpoints->delete($endpoint['id']);
            }
            proc_terminate($receiver);
            proc_close($receiver);
            array_map('unlink', glob("$dir/*.json") ?: []);
            @rmdir($dir);
        }
    }

    /** @return array{body: string, signature: ?string} the first delivery whose body names `$needle` */
    private static function waitFor(string $dir, string $needle): array
    {
        $deadline = microtime(true) + 30;
        while (microtime(true) < $deadline) {
            foreach (glob("$dir/*.json") ?: [] as $file) {
                $delivery = json_decode((string) file_get_contents($file), true);
                $body = is_array($delivery) ? base64_decode($delivery['body']) : '';
                if (str_contains($body, $needle)) {
                    return ['body' => $body, 'signature' => $delivery['signature']];
                }
            }
            usleep(100_000);
        }
        self::fail("no delivery for $needle arrived");
    }
}
