<?php

declare(strict_types=1);

namespace Innkeep;

use Innkeep\Exception\SignatureVerificationException;

/**
 * Webhook signature verification: `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `"<t>." . <raw body>` with the endpoint's secret; several `v1` during a secret rotation.
 *
 * @phpstan-import-type Event from \Innkeep\Generated\Types
 */
final class Webhook
{
    public const DEFAULT_TOLERANCE = 300;

    /**
     * Verifies a delivery and answers its event (an array). `$payload` is the exact body received
     * (`file_get_contents('php://input')`, before any JSON decoding), `$header` the
     * `Service-Signature` header, `$secret` the endpoint's `whsec_…`; `$tolerance` seconds of age
     * (0 turns the age check off).
     *
     * The event is read leniently: an event type newer than this client is still an event. A
     * verified body that is not an event (not JSON, no `id` or `type`) throws \UnexpectedValueException.
     *
     * @return Event|array{id: string, type: string}
     * @throws SignatureVerificationException
     */
    public static function constructEvent(string $payload, ?string $header, string $secret, int $tolerance = self::DEFAULT_TOLERANCE, ?int $now = null): array
    {
        self::verifyHeader($payload, $header, $secret, $tolerance, $now);
        try {
            $event = json_decode($payload, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException $invalid) {
            throw new \UnexpectedValueException('The verified body is not JSON: ' . $invalid->getMessage(), 0, $invalid);
        }
        if (!is_array($event) || !is_string($event['id'] ?? null) || !is_string($event['type'] ?? null)) {
            throw new \UnexpectedValueException('The verified body is not an event (a JSON object with id and type).');
        }
        /** @var Event $event */
        return $event;
    }

    /**
     * Throws unless a `v1` of `$header` signs `$payload` with `$secret` and its `t` is within
     * `$tolerance` seconds of now.
     *
     * @throws SignatureVerificationException
     */
    public static function verifyHeader(string $payload, ?string $header, string $secret, int $tolerance = self::DEFAULT_TOLERANCE, ?int $now = null): void
    {
        if ($header === null || $header === '') {
            throw new SignatureVerificationException('missing_header', 'No Service-Signature header: is this request from Innkeep?');
        }
        $timestamp = null;
        $signatures = [];
        foreach (explode(',', $header) as $part) {
            [$key, $value] = array_pad(explode('=', trim($part), 2), 2, '');
            if ($key === 't' && preg_match('/^[0-9]+$/D', $value) === 1) {
                $timestamp = (int) $value;
            } elseif ($key === 'v1' && preg_match('/^[0-9a-fA-F]{64}$/D', $value) === 1) {
                $signatures[] = strtolower($value);
            }
        }
        if ($timestamp === null) {
            throw new SignatureVerificationException('missing_timestamp', 'The Service-Signature header has no timestamp (t=).');
        }
        if ($signatures === []) {
            throw new SignatureVerificationException('missing_signature', 'The Service-Signature header has no v1 signature.');
        }
        $current = $now ?? time();
        if ($tolerance > 0 && abs($current - $timestamp) > $tolerance) {
            throw new SignatureVerificationException('timestamp_outside_tolerance', "The signature's timestamp is more than $tolerance seconds from now: a replayed or delayed delivery.");
        }
        $expected = self::sign($secret, $timestamp, $payload);
        $matched = false;
        foreach ($signatures as $signature) {
            // Every v1 is compared (one per secret during a rotation), each in constant time.
            $matched = hash_equals($expected, $signature) || $matched;
        }
        if (!$matched) {
            throw new SignatureVerificationException('no_matching_signature', 'No v1 signature matches this body and secret: wrong secret, or the body was changed (verify the raw bytes, before any JSON decoding).');
        }
    }

    /**
     * A `Service-Signature` header as Innkeep would sign `$payload`, to test a receiver. Several
     * secrets give one `v1` each, as during a rotation.
     *
     * @param string|list<string> $secret
     */
    public static function generateTestHeader(string $payload, string|array $secret, ?int $timestamp = null): string
    {
        $t = $timestamp ?? time();
        $parts = ["t=$t"];
        foreach ((array) $secret as $s) {
            $parts[] = 'v1=' . self::sign($s, $t, $payload);
        }
        return implode(',', $parts);
    }

    private static function sign(string $secret, int $timestamp, string $payload): string
    {
        return hash_hmac('sha256', "$timestamp.$payload", $secret);
    }
}
