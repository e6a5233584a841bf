<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** 500 and 503, and any answer the client cannot read (code `unexpected_response`). */
class ApiException extends InnkeepException
{
}
