import type { taxes } from "@/db/schema";
import { isoTime } from "@/lib/dates";

export const presentTax = (t: typeof taxes.$inferSelect, currency: string) => ({
  id: t.id,
  object: "tax" as const,
  livemode: t.livemode,
  property_id: t.propertyId,
  name: t.name,
  kind: t.kind,
  percentage: t.percentThousandths === null ? null : t.percentThousandths / 1000,
  amount: t.amount === null ? null : { amount: t.amount, currency },
  inclusive: t.inclusive,
  applies_to: t.appliesTo,
  active: t.active,
  created_at: isoTime(t.createdAt),
  updated_at: isoTime(t.updatedAt),
});

export type PresentedTax = ReturnType<typeof presentTax>;
