<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** 403: a scope, IP allow-list entry or property grant is missing. */
class PermissionException extends InnkeepException
{
}
