import type { ReactNode } from "react";
import { addDays, type IsoDate } from "@/lib/dates";

/** The guest pages' own input and button looks (plain elements: the pages work before any script loads). */
export const guestInput =
  "block w-full min-w-0 rounded-md border border-stone-300 bg-white px-2.5 py-2 text-sm text-stone-900 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600";
export const guestButton = {
  primary:
    "inline-flex items-center justify-center rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-teal-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 focus-visible:ring-offset-1",
  secondary:
    "inline-flex items-center justify-center rounded-md border border-teal-700 bg-white px-4 py-2 text-sm font-medium text-teal-800 hover:bg-teal-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 focus-visible:ring-offset-1",
  danger:
    "inline-flex items-center justify-center rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-red-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:ring-offset-1",
};

/** A labelled field of a guest page's form. */
export function GuestField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-stone-700">
        {label}
      </label>
      {children}
    </div>
  );
}

type StayValues = { check_in?: string; check_out?: string; adults?: string | number; children?: string | number };
type StayLabels = { checkIn: string; checkOut: string; adults: string; children: string };

/**
 * The stay's dates and party, as the search and the manage page's change both ask them (arrival
 * from the hotel's today, 1–8 adults, 0–6 children), with the form's button in the last column.
 */
export function StayFields({ today, values, labels, button }: { today: IsoDate; values: StayValues; labels: StayLabels; button: ReactNode }) {
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-5 sm:items-end">
      <GuestField id="check_in" label={labels.checkIn}>
        <input id="check_in" name="check_in" type="date" required min={today} defaultValue={values.check_in} className={guestInput} />
      </GuestField>
      <GuestField id="check_out" label={labels.checkOut}>
        <input id="check_out" name="check_out" type="date" required min={addDays(today, 1)} defaultValue={values.check_out} className={guestInput} />
      </GuestField>
      <GuestField id="adults" label={labels.adults}>
        <select id="adults" name="adults" defaultValue={values.adults} className={guestInput}>
          {Array.from({ length: 8 }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </GuestField>
      <GuestField id="children" label={labels.children}>
        <select id="children" name="children" defaultValue={values.children} className={guestInput}>
          {Array.from({ length: 7 }, (_, i) => i).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </GuestField>
      {button}
    </div>
  );
}
