<?php

declare(strict_types=1);

namespace Innkeep\Service;

use Innkeep\InnkeepClient;

/** The base of every resource: each generated method is one operation of the table. */
abstract class AbstractService
{
    public function __construct(protected readonly InnkeepClient $client)
    {
    }
}
