"use client";

import { usePropertyFormat } from "@/components/ui/property-format";
import type { Money } from "@/lib/money";

/** A stay's price as the API states it (server/folios/folios.ts, StayPrice). */
export type StayPrice = { net: Money; tax: Money; gross: Money; taxes: { tax_id: string; name: string; amount: Money; inclusive: boolean }[] };

/** "VAT 25.83 (included), City tax 22.50": each tax's share of a stay, in words. */
export function useTaxWords() {
  const fmt = usePropertyFormat();
  return (price: StayPrice) => price.taxes.map((t) => `${t.name} ${fmt.money(t.amount)}${t.inclusive ? " (included)" : ""}`).join(", ");
}

/**
 * The net and the taxes under a stay's price, for a quote or a reservation: nothing when the
 * property charges no tax (the price is then the rates).
 */
export function StayPriceBreakdown({ price, className }: { price: StayPrice; className?: string }) {
  const fmt = usePropertyFormat();
  const taxWords = useTaxWords();
  if (price.tax.amount === 0) return null;
  return (
    <p className={className ?? "text-xs text-stone-600"} data-testid="stay-price">
      Net {fmt.money(price.net)} · taxes {fmt.money(price.tax)} ({taxWords(price)})
    </p>
  );
}
