import type { Metadata } from "next";
import { RegistrationCard } from "@/components/reservations/registration-card";
import { NoAccess } from "@/components/shell/no-access";
import { Alert } from "@/components/ui";
import { ApiError } from "@/server/errors";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Registration card" };
export const dynamic = "force-dynamic";

// /reservations/{id}/registration-card: the card a guest signs at check-in, made for printing (no dashboard chrome)
export default async function RegistrationCardPage({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { user, caller }] = await Promise.all([params, requireStaff()]);
  if (!can(user.role, "reservations")) return <NoAccess />;
  const card = await caller.reservations.registrationCard({ id }).catch((error: unknown) => {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof ApiError && cause.code === "resource_missing") return null;
    throw error;
  });
  if (!card) {
    return (
      <main className="mx-auto max-w-2xl p-6">
        <Alert>There is no such reservation in this data set.</Alert>
      </main>
    );
  }
  return (
    <main className="bg-stone-100 py-6 print:bg-white print:py-0">
      <RegistrationCard card={card} />
    </main>
  );
}
