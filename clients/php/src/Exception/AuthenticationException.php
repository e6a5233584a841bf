<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** 401: missing, invalid, expired or revoked credential. */
class AuthenticationException extends InnkeepException
{
}
