<?php

// A webhook receiver in plain PHP. Run it with PHP's built-in server:
//   INNKEEP_WEBHOOK_SECRET=whsec_… php -S 127.0.0.1:4242 examples/webhook-receiver.php
// and register http://127.0.0.1:4242/ as an endpoint (the server must allow private addresses).

declare(strict_types=1);

require __DIR__ . '/../autoload.php';

use Innkeep\Exception\SignatureVerificationException;
use Innkeep\Webhook;

$payload = file_get_contents('php://input'); // the raw bytes: never json_decode before verifying
try {
    $event = Webhook::constructEvent($payload, $_SERVER['HTTP_SERVICE_SIGNATURE'] ?? null, getenv('INNKEEP_WEBHOOK_SECRET'));
} catch (SignatureVerificationException $refused) {
    http_response_code(401);
    echo $refused->reason;
    return;
}

switch ($event['type']) {
    case 'reservation.created':
        error_log("new booking {$event['data']['object']['id']}");
        break;
    case 'ping':
        error_log('ping from Innkeep');
        break;
}
http_response_code(204);
