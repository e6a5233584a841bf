<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** 409 `idempotency_key_in_use` or 422 `idempotency_key_reused`. */
class IdempotencyException extends InnkeepException
{
}
