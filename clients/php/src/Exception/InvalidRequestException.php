<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** 400, 405, 413, 415, 422, 431: the request is wrong; `param` names the field. */
class InvalidRequestException extends InnkeepException
{
}
