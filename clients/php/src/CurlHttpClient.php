<?php

declare(strict_types=1);

namespace Innkeep;

use Innkeep\Exception\ApiConnectionException;
use Innkeep\Exception\ApiTimeoutException;

/** The default HttpClient, over ext-curl; one handle, so connections are kept alive between calls. */
final class CurlHttpClient implements HttpClient
{
    private ?\CurlHandle $handle = null;

    public function request(string $method, string $url, array $headers, ?string $body, float $timeout): HttpResponse
    {
        $this->handle ??= curl_init();
        $handle = $this->handle;
        curl_reset($handle);
        $received = [];
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = "$name: $value";
        }
        $lines[] = 'Expect:'; // no 100-continue round trip for larger bodies
        curl_setopt_array($handle, [
            CURLOPT_URL => $url,
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => (int) ceil($timeout * 1000),
            CURLOPT_CONNECTTIMEOUT_MS => (int) ceil(min($timeout, 30.0) * 1000),
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_HEADERFUNCTION => static function ($h, string $line) use (&$received): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $received[strtolower(trim($parts[0]))] = trim($parts[1]);
                } elseif (str_starts_with($line, 'HTTP/')) {
                    $received = []; // a new status line (after 100 Continue): only the last answer's headers count
                }
                return strlen($line);
            },
        ]);
        if ($body !== null) {
            curl_setopt($handle, CURLOPT_POSTFIELDS, $body);
        } elseif ($method === 'HEAD') {
            curl_setopt($handle, CURLOPT_NOBODY, true);
        }
        $text = curl_exec($handle);
        if ($text === false) {
            $errno = curl_errno($handle);
            $error = curl_error($handle);
            if ($errno === CURLE_OPERATION_TIMEDOUT) {
                throw new ApiTimeoutException(sprintf('No answer within %s s: %s %s', $timeout, $method, $url));
            }
            throw new ApiConnectionException(sprintf('Could not reach Innkeep at %s (%s %s): %s', self::origin($url), $method, parse_url($url, PHP_URL_PATH) ?? '/', self::describe($errno, $error)));
        }
        return new HttpResponse(curl_getinfo($handle, CURLINFO_RESPONSE_CODE), $received, (string) $text);
    }

    private static function origin(string $url): string
    {
        $p = parse_url($url);
        return ($p['scheme'] ?? 'http') . '://' . ($p['host'] ?? '') . (isset($p['port']) ? ':' . $p['port'] : '');
    }

    /** The cause in words, as @innkeep/node names it, with curl's own message. */
    private static function describe(int $errno, string $error): string
    {
        $words = match ($errno) {
            CURLE_COULDNT_CONNECT => 'the connection was refused: is the server running, and is `base_url` right?',
            CURLE_COULDNT_RESOLVE_HOST => 'the host name does not resolve: is `base_url` right?',
            CURLE_SSL_CONNECT_ERROR, CURLE_SSL_PEER_CERTIFICATE, CURLE_SSL_CACERT_BADFILE => 'the TLS handshake failed (certificate)',
            CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR => 'the connection was closed before an answer',
            default => null,
        };
        return $words === null ? $error : "$words [$error]";
    }
}
