<?php

// A webhook receiver for the live suite, run by PHP's built-in server (`php -S`): keeps every
// delivery's raw body and Service-Signature header as a file in INNKEEP_RECEIVER_DIR, answers 204.

declare(strict_types=1);

$dir = (string) getenv('INNKEEP_RECEIVER_DIR');
$body = (string) file_get_contents('php://input');
$delivery = ['path' => $_SERVER['REQUEST_URI'] ?? '/', 'signature' => $_SERVER['HTTP_SERVICE_SIGNATURE'] ?? null, 'body' => base64_encode($body)];
file_put_contents($dir . '/' . hrtime(true) . '-' . bin2hex(random_bytes(3)) . '.json', json_encode($delivery));
http_response_code(204);
