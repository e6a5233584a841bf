<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** 409: no availability, a state that forbids the change, a restriction, a balance outstanding. */
class ConflictException extends InnkeepException
{
}
