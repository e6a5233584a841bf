import { z } from "zod";
import { plans } from "@/server/plans";

/** The developer contact: where circuit-breaker notices go; null stores them in the outbox only. */
export const accountSettingsUpdateSchema = z.strictObject({
  developer_contact: z.email("Enter an e-mail address.").trim().max(254).nullable(),
});

export const planChangeSchema = z.strictObject({ plan: z.enum(plans) });

export type AccountSettingsUpdate = z.output<typeof accountSettingsUpdateSchema>;
