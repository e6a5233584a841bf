<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** 404 `resource_missing` or `route_not_found`. */
class NotFoundException extends InvalidRequestException
{
}
