<?php

declare(strict_types=1);

namespace Innkeep\Exception;

/** 402: a card was declined; `paymentId()` names the failed payment, which is recorded. */
class CardException extends InnkeepException
{
    public function paymentId(): ?string
    {
        $id = $this->body['error']['payment_id'] ?? null;
        return is_string($id) ? $id : null;
    }
}
