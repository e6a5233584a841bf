"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { FilterField, Input } from "@/components/ui";
import { FormField } from "@/components/ui/form";
import { useDebounced } from "@/components/ui/use-debounced";

/** A booking's guest as the desk types it: matched on file by e-mail (a walk-in's by phone and name), else created, by the server. */
export const guestDraft = z.object({ first_name: z.string(), last_name: z.string(), email: z.string(), phone: z.string() });
export type GuestDraft = z.infer<typeof guestDraft>;
export const emptyGuest: GuestDraft = { first_name: "", last_name: "", email: "", phone: "" };

const fields: { name: keyof GuestDraft; label: string; type: string }[] = [
  { name: "first_name", label: "First name", type: "text" },
  { name: "last_name", label: "Last name", type: "text" },
  { name: "email", label: "E-mail", type: "email" },
  { name: "phone", label: "Phone (optional)", type: "tel" },
];

/** The guest as the booking sends it: an empty e-mail or phone is left out (the server says when the e-mail may not be). */
export const guestBody = (g: GuestDraft) => ({
  first_name: g.first_name,
  last_name: g.last_name,
  ...(g.email.trim() ? { email: g.email.trim() } : {}),
  ...(g.phone.trim() ? { phone: g.phone.trim() } : {}),
});

/** First and last name, e-mail and phone of one guest: the enclosing form's fields under `prefix` (`guest`, `rooms.1.guest`). */
export function GuestFields({ prefix, emailOptional = false }: { prefix: string; emailOptional?: boolean }) {
  return (
    <>
      {fields.map((f) => (
        <FormField key={f.name} name={`${prefix}.${f.name}`} label={f.name === "email" && emailOptional ? "E-mail (optional for a walk-in)" : f.label}>
          {(control) => <Input {...control} type={f.type} autoComplete="off" />}
        </FormField>
      ))}
    </>
  );
}

/**
 * Finds a guest on file by name, e-mail or phone (the guests page's search) and fills the fields
 * with them; the booking then matches them by e-mail, as the API does.
 */
export function GuestSearch({ id, label, onPick }: { id: string; label: string; onPick: (g: GuestDraft) => void }) {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const term = useDebounced(search.trim());
  const found = useQuery({ ...trpc.guests.list.queryOptions({ search: term, limit: 5 }), enabled: term.length >= 2 });
  return (
    <div className="sm:col-span-2">
      <FilterField label={label} htmlFor={id}>
        <Input id={id} type="search" autoComplete="off" placeholder="Name, e-mail or phone" value={search} onChange={(e) => setSearch(e.target.value)} />
      </FilterField>
      {term.length < 2 ? null : found.error ? (
        <p className="mt-1 text-sm text-red-700">The guests could not be searched just now. Type the guest below.</p>
      ) : !found.data ? (
        <p className="mt-1 text-sm text-stone-500">Searching…</p>
      ) : found.data.data.length === 0 ? (
        <p className="mt-1 text-sm text-stone-500">No guest on file matches. Type the new guest below.</p>
      ) : (
        <ul className="mt-1 divide-y divide-stone-100 rounded-md border border-stone-200" aria-label={`Guests matching ${term}`}>
          {found.data.data.map((g) => (
            <li key={g.id}>
              <button
                type="button"
                className="w-full px-3 py-2 text-left text-sm hover:bg-stone-50 focus-visible:bg-stone-50"
                onClick={() => {
                  onPick({ first_name: g.first_name, last_name: g.last_name, email: g.email ?? "", phone: g.phone ?? "" });
                  setSearch("");
                }}
              >
                <span className="font-medium text-stone-800">
                  {g.first_name} {g.last_name}
                </span>{" "}
                <span className="text-stone-500">{[g.email, g.phone].filter(Boolean).join(" · ")}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
