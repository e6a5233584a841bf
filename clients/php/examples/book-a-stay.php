<?php

// Finds a free King room for two nights in the sandbox, books it and pays in cash.
//   INNKEEP_API_KEY=hk_… INNKEEP_BASE_URL=http://localhost:3000 php examples/book-a-stay.php

declare(strict_types=1);

require __DIR__ . '/../autoload.php'; // or Composer's vendor/autoload.php

use Innkeep\Exception\ConflictException;
use Innkeep\InnkeepClient;

$client = new InnkeepClient([
    'api_key' => getenv('INNKEEP_API_KEY'),
    'base_url' => getenv('INNKEEP_BASE_URL') ?: 'http://localhost:3000',
    'environment' => 'sandbox',
]);

$property = $client->properties->list()->data[0];
$checkIn = (new DateTimeImmutable('+30 days'))->format('Y-m-d');
$checkOut = (new DateTimeImmutable('+32 days'))->format('Y-m-d');
$availability = $client->availability->retrieve(['property_id' => $property['id'], 'check_in' => $checkIn, 'check_out' => $checkOut, 'adults' => 2]);
$offer = null;
foreach ($availability['data'] as $roomType) {
    foreach ($roomType['quotes'] as $quote) {
        if ($roomType['available'] > 0 && $quote['bookable']) {
            $offer = ['room_type_id' => $roomType['room_type_id'], 'rate_plan_id' => $quote['rate_plan_id']];
            break 2;
        }
    }
}
$offer ?? exit("Nothing free from $checkIn to $checkOut.\n");

try {
    $stay = $client->reservations->create([
        'property_id' => $property['id'],
        'guest' => ['first_name' => 'Ada', 'last_name' => 'Lovelace', 'email' => 'ada@example.com'],
        'check_in' => $checkIn,
        'check_out' => $checkOut,
        ...$offer,
        'adults' => 2,
    ]);
} catch (ConflictException $soldOut) {
    exit("Not booked: {$soldOut->getMessage()}\n");
}
$payment = $client->payments->create(['reservation_id' => $stay['id'], 'payment_method' => ['type' => 'cash']]);
printf("Booked %s (%d nights, %d %s), payment %s\n", $stay['id'], $stay['nights'], $stay['total']['amount'], $stay['total']['currency'], $payment['status']);
