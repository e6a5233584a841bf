-- A charge after check-out reopens nothing (issue 35, point 5): it is posted on the current
-- business date and billed on a supplementary invoice that follows the folio's invoice, with its
-- own number. Each folio line records the invoice that bills it; a folio keeps one invoice it
-- closed into, and any number of supplementary ones.
DROP INDEX "invoices_folio_key";--> statement-breakpoint
ALTER TABLE "folio_charges" ADD COLUMN "invoice_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "supplements_invoice_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_folio_key" ON "invoices" USING btree ("folio_id") WHERE supplements_invoice_id is null;--> statement-breakpoint
-- Lines already invoiced: every line of an invoiced folio but credit notes' own.
UPDATE "folio_charges" c SET "invoice_id" = i."id" FROM "invoices" i WHERE i."folio_id" = c."folio_id" AND c."credit_note_id" IS NULL;
