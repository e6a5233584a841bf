<?php

// A TCP proxy for the live suite that loses the next answers: `php drop-proxy.php <host:port>
// <control-file>` prints its port, then forwards every connection to <host:port>. While the
// control file holds a number n > 0, the first bytes of an answer close both sides instead
// (the request reached the server whole and was committed; the client never sees the answer),
// and n goes down by one.

declare(strict_types=1);

[$target, $control] = [$argv[1], $argv[2]];
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $error) ?: throw new RuntimeException($error);
echo parse_url('tcp://' . stream_socket_get_name($server, false), PHP_URL_PORT), "\n";
fflush(STDOUT);

/** @var array<int, array{0: resource, 1: resource, 2: bool}> socket id => [source, sink, carries answers] */
$pipes = [];
for (;;) {
    $read = [$server, ...array_map(fn ($p) => $p[0], $pipes)];
    $write = $except = null;
    if (stream_select($read, $write, $except, 1) === false) {
        break;
    }
    foreach ($read as $socket) {
        if ($socket === $server) {
            $client = stream_socket_accept($server);
            $upstream = $client ? stream_socket_client("tcp://$target") : false;
            if ($client && $upstream) {
                $pipes[(int) $client] = [$client, $upstream, false];
                $pipes[(int) $upstream] = [$upstream, $client, true];
            }
            continue;
        }
        [$source, $sink, $answers] = $pipes[(int) $socket];
        $chunk = fread($source, 65536);
        $drops = $answers ? (int) @file_get_contents($control) : 0;
        if ($chunk === '' || $chunk === false || $drops > 0) {
            if ($drops > 0 && $chunk !== '' && $chunk !== false) {
                file_put_contents($control, (string) ($drops - 1));
            }
            unset($pipes[(int) $source], $pipes[(int) $sink]);
            fclose($source);
            fclose($sink);
            continue;
        }
        fwrite($sink, $chunk);
    }
}
