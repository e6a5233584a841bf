-- A card on file as a stay's guarantee (issue 37, point 3): the processor's customer and payment
-- method a no-show fee or a pre-authorisation is charged to, never the card's number.
ALTER TABLE "reservations" ADD COLUMN "guarantee" jsonb;
