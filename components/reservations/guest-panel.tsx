"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Badge } from "@/components/ui";

type RoomWishes = { bed?: string; floor?: "high" | "low"; smoking?: boolean; quiet?: boolean; accessible?: boolean; notes?: string };

/** A guest's room preferences as words a clerk reads aloud ("High floor", "Non-smoking"). */
function roomWishes(room: RoomWishes): string[] {
  const words: string[] = [];
  if (room.bed) words.push(`${room.bed} bed`);
  if (room.floor) words.push(room.floor === "high" ? "High floor" : "Low floor");
  if (room.smoking !== undefined) words.push(room.smoking ? "Smoking" : "Non-smoking");
  if (room.quiet) words.push("Quiet room");
  if (room.accessible) words.push("Accessible room");
  return words;
}

/**
 * What the front desk must know about the guest before handing over a key: phone, allergies
 * (in red, first), room preferences and loyalty. The reservation page's guest card and the
 * check-in dialog show it; both read the guest and their preferences as the guests page does.
 */
export function GuestPanel({ guestId, compact = false }: { guestId: string; compact?: boolean }) {
  const trpc = useTRPC();
  const guest = useQuery(trpc.guests.get.queryOptions({ id: guestId }));
  const prefs = useQuery(trpc.guests.preferences.get.queryOptions({ guest_id: guestId }));
  if (guest.error || prefs.error) return <Alert>{callError((guest.error ?? prefs.error)!).message}</Alert>;
  if (!guest.data || !prefs.data) return <p className="text-sm text-stone-500">Loading the guest…</p>;
  const g = guest.data;
  const p = prefs.data;
  const wishes = roomWishes(p.room);
  const loyalty = [p.loyalty.program, p.loyalty.tier].filter(Boolean).join(" · ");
  return (
    <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-y-2 text-sm" data-testid="guest-panel">
      {compact ? null : (
        <>
          <dt className="text-stone-500">Name</dt>
          <dd>
            {g.first_name} {g.last_name}
          </dd>
          <dt className="text-stone-500">E-mail</dt>
          <dd className="break-all">{g.email ?? <span className="text-stone-500">{g.erased_at ? "Erased on request" : "None given"}</span>}</dd>
        </>
      )}
      <dt className="text-stone-500">Phone</dt>
      <dd>{g.phone ? <a href={`tel:${g.phone.replace(/[^+0-9]/g, "")}`} className="text-teal-800 hover:underline">{g.phone}</a> : <span className="text-stone-500">{g.erased_at ? "Erased on request" : "None given"}</span>}</dd>
      <dt className="text-stone-500">Allergies</dt>
      <dd data-testid="guest-allergies">
        {p.allergies.length ? (
          <span className="flex flex-wrap gap-1">
            {p.allergies.map((a) => (
              <Badge key={a} tone="red">
                {a}
              </Badge>
            ))}
          </span>
        ) : (
          <span className="text-stone-500">None recorded</span>
        )}
      </dd>
      <dt className="text-stone-500">Preferences</dt>
      <dd data-testid="guest-preferences">
        {wishes.length || p.room.notes ? (
          <>
            {wishes.join(", ")}
            {p.room.notes ? <span className="block whitespace-pre-wrap break-words text-stone-600">{p.room.notes}</span> : null}
          </>
        ) : (
          <span className="text-stone-500">None recorded</span>
        )}
      </dd>
      <dt className="text-stone-500">Loyalty</dt>
      <dd data-testid="guest-loyalty">
        {loyalty || p.loyalty.number ? (
          <>
            {loyalty}
            {p.loyalty.number ? <span className="text-stone-500"> · member {p.loyalty.number}</span> : null}
            {p.loyalty.points !== undefined ? <span className="text-stone-500"> · {p.loyalty.points.toLocaleString()} points</span> : null}
          </>
        ) : (
          <span className="text-stone-500">Not a member</span>
        )}
      </dd>
    </dl>
  );
}
