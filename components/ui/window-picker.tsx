"use client";

import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button, FilterField, Input } from "@/components/ui";
import { usePropertyFormat } from "@/components/ui/property-format";
import { addDays } from "@/lib/dates";

/**
 * Which window of days a calendar shows: previous, today and next by a whole window, a date to
 * start from, and the window in the hotel's words. `unit` names what a column is ("days", "nights").
 */
export function WindowPicker({ id, from, today, span, unit, onChange }: { id: string; from: string; today: string; span: number; unit: string; onChange: (from: string) => void }) {
  const fmt = usePropertyFormat();
  return (
    <div className="mb-4 flex flex-wrap items-end gap-2">
      <Button variant="secondary" onClick={() => onChange(addDays(from, -span))} aria-label={`Previous ${span} ${unit}`}>
        <ChevronLeft className="h-4 w-4" aria-hidden />
        <span className="hidden sm:inline">Previous</span>
      </Button>
      <Button variant="secondary" onClick={() => onChange(today)} disabled={from === today}>
        Today
      </Button>
      <Button variant="secondary" onClick={() => onChange(addDays(from, span))} aria-label={`Next ${span} ${unit}`}>
        <span className="hidden sm:inline">Next</span>
        <ChevronRight className="h-4 w-4" aria-hidden />
      </Button>
      <FilterField label="From" htmlFor={id}>
        <Input id={id} type="date" value={from} onChange={(e) => e.target.value && onChange(e.target.value)} className="w-40" />
      </FilterField>
      <p className="pb-2 text-sm text-stone-600" aria-live="polite">
        {fmt.day(from, "weekday")} – {fmt.day(addDays(from, span - 1))}
      </p>
    </div>
  );
}
