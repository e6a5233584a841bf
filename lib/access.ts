export const staffRoles = ["owner", "manager", "front_desk", "housekeeping"] as const;
export type StaffRole = (typeof staffRoles)[number];

/**
 * What each staff role may use (contract §9). The dashboard's navigation and the tRPC role
 * middleware both read this one table, so a hidden page is also a refused procedure.
 */
export const access = {
  /** Property names, the header, the home page. */
  dashboard: ["owner", "manager", "front_desk", "housekeeping"],
  reservations: ["owner", "manager", "front_desk"],
  guests: ["owner", "manager", "front_desk"],
  /** Erasing a guest's data on request, and exporting it. */
  guestData: ["owner", "manager"],
  payments: ["owner", "manager", "front_desk"],
  availability: ["owner", "manager", "front_desk"],
  rates: ["owner", "manager"],
  housekeepingRead: ["owner", "manager", "front_desk", "housekeeping"],
  housekeepingWrite: ["owner", "manager", "housekeeping"],
  /** Creating, reassigning and deleting housekeeping assignments (a housekeeper works their own). */
  housekeepingAssign: ["owner", "manager"],
  reports: ["owner", "manager"],
  /** Accounts receivable: open balances of ended stays, and paying them back or taking them (`/receivables`). */
  receivables: ["owner", "manager"],
  /** Running the night audit by hand (the reports page's night-audit tab). */
  nightAudit: ["owner", "manager"],
  /** Webhooks, events, API keys, OAuth apps, the mail outbox. */
  developers: ["owner", "manager"],
  settings: ["owner", "manager"],
  /** The hotel itself: property, room types, rooms, rate plans (`/settings/…`). */
  setup: ["owner", "manager"],
  users: ["owner"],
  plan: ["owner"],
  /** Connecting the hotel's card processor (Stripe): where its card money goes. */
  paymentProcessor: ["owner"],
  /** The hotel's own mail server (Settings → Mail): its password sends mail in the hotel's name. */
  mailServer: ["owner"],
} as const satisfies Record<string, readonly StaffRole[]>;

export type Area = keyof typeof access;

export function can(role: StaffRole, area: Area): boolean {
  return (access[area] as readonly StaffRole[]).includes(role);
}

export const roleLabels: Record<StaffRole, string> = {
  owner: "Owner",
  manager: "Manager",
  front_desk: "Front desk",
  housekeeping: "Housekeeping",
};
