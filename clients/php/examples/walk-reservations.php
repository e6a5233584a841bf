<?php

// Prints every confirmed reservation, page after page (100 a request).
//   INNKEEP_API_KEY=hk_… php examples/walk-reservations.php

declare(strict_types=1);

require __DIR__ . '/../autoload.php';

$client = new Innkeep\InnkeepClient(['api_key' => getenv('INNKEEP_API_KEY'), 'base_url' => getenv('INNKEEP_BASE_URL') ?: 'http://localhost:3000']);

$count = 0;
foreach ($client->reservations->list(['status' => 'confirmed', 'limit' => 100]) as $reservation) {
    printf("%s  %s → %s  %s %s\n", $reservation['id'], $reservation['check_in'], $reservation['check_out'], $reservation['guest']['first_name'], $reservation['guest']['last_name']);
    $count++;
}
echo "$count confirmed reservations\n";
