import type { Metadata } from "next";
import { GuestDataDocument } from "@/components/guests/guest-data-document";
import { NoAccess } from "@/components/shell/no-access";
import { Alert } from "@/components/ui";
import { ApiError } from "@/server/errors";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Guest's data" };
export const dynamic = "force-dynamic";

// /guests/{id}/data: the guest's data export for a person to read and print (the JSON download's twin)
export default async function GuestDataPage({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { user, caller }] = await Promise.all([params, requireStaff()]);
  if (!can(user.role, "guestData")) return <NoAccess />;
  const readable = await caller.guests.exportForReading({ id }).catch((error: unknown) => {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof ApiError && cause.code === "resource_missing") return null;
    throw error;
  });
  if (!readable) {
    return (
      <main className="mx-auto max-w-2xl p-6">
        <Alert>There is no such guest in this data set.</Alert>
      </main>
    );
  }
  return (
    <main className="bg-stone-100 py-6 print:bg-white print:py-0">
      <GuestDataDocument readable={readable} />
    </main>
  );
}
