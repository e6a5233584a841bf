import { z } from "zod";
import { staffRoles } from "@/lib/access";

export const staffInviteSchema = z.strictObject({
  email: z.email("Enter an e-mail address.").trim().max(254),
  name: z.string().trim().max(100).optional(),
  role: z.enum(staffRoles),
  password: z.string().min(8, "At least 8 characters.").max(200),
});

export const staffRoleChangeSchema = z.strictObject({ id: z.string().min(1).max(64), role: z.enum(staffRoles) });

export type StaffInvite = z.output<typeof staffInviteSchema>;
