"use client";

import { useBusinessDate } from "@/components/shell/business-date";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useState } from "react";
import { AuditTrail } from "@/components/audit/audit-trail";
import { addDays } from "@/lib/dates";
import { usePropertyFormat } from "@/components/ui/property-format";
import { pricingWords } from "@/components/setup/format";

import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, FilterField, Input, PageHeader, Select } from "@/components/ui";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { RateGrid, type Selection } from "./rate-grid";
import { SetRatesDialog } from "./set-rates-dialog";
import { SetupLink } from "@/components/setup/needs-property";
import { plural } from "@/lib/words";

export type RateProperty = { id: string; name: string; currency: string; timezone: string };

const spanDays = 14;

/** The rates grid of the property on screen: one rate plan's room types × 14 nights, and range edits. */
export function RatesView({ property }: { property: RateProperty }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const today = useBusinessDate();
  const [start, setStart] = useState(today);
  const [planId, setPlanId] = useState<string | undefined>();
  const [selection, setSelection] = useState<Selection | null>(null);
  // Touch has no Shift: in range mode a tap stretches the selection from its first night.
  const [rangeMode, setRangeMode] = useState(false);
  const [dialog, setDialog] = useState<Selection | "blank" | null>(null);

  const setup = useQuery(trpc.rates.setup.queryOptions({ property_id: property.id }));
  const plans = setup.data?.rate_plans ?? [];
  const plan = plans.find((p) => p.id === planId) ?? plans[0];
  // A derived plan's rates follow its parent's: shown, never set here.
  const parent = plan?.derived_from ? plans.find((p) => p.id === plan.derived_from!.rate_plan_id) : undefined;
  const roomTypes = (setup.data?.room_types ?? []).filter((t) => plan?.room_type_ids.includes(t.id));
  const end = addDays(start, spanDays);
  const calendar = useQuery({
    ...trpc.rates.calendar.queryOptions({ rate_plan_id: plan?.id ?? "", from: start, to: end }),
    enabled: !!plan,
    placeholderData: keepPreviousData,
  });

  const move = (days: number) => {
    setStart((s) => addDays(s, days));
    setSelection(null);
  };

  if (setup.error) return <ErrorState message={callError(setup.error).message} onRetry={() => setup.refetch()} />;
  const header = <PageHeader title="Rates" description={`Nightly prices and restrictions at ${property.name}, per rate plan and room type.`} />;
  if (!setup.data) {
    return (
      <>
        {header}
        <LoadingState rows={6} label="Loading rate plans…" />
      </>
    );
  }
  if (!plan) {
    return (
      <>
        {header}
        <EmptyState
          title="No rate plans yet"
          action={
<SetupLink href="/settings/rate-plans">Add a rate plan</SetupLink>
          }
        >
          Add a rate plan under Settings; its nightly rates are then set here.
        </EmptyState>
      </>
    );
  }

  return (
    <>
      {header}
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <div className="w-full sm:w-64">
          <FilterField label="Rate plan" htmlFor="rate-plan">
            <Select
              id="rate-plan"
              value={plan.id}
              onChange={(e) => {
                setPlanId(e.target.value);
                setSelection(null);
              }}
            >
              {plans.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.code} · {p.name}
                  {p.active ? "" : " (inactive)"}
                </option>
              ))}
            </Select>
          </FilterField>
        </div>
        <div className="w-40">
          <FilterField label="First night shown" htmlFor="grid-start">
            <Input
              id="grid-start"
              type="date"
              value={start}
              onChange={(e) => {
                if (e.target.value) {
                  setStart(e.target.value);
                  setSelection(null);
                }
              }}
            />
          </FilterField>
        </div>
        <div className="flex gap-1">
          <Button variant="secondary" aria-label="Previous two weeks" onClick={() => move(-spanDays)}>
            <ChevronLeft className="h-4 w-4" aria-hidden />
          </Button>
          <Button variant="secondary" onClick={() => setStart(today)} disabled={start === today}>
            Today
          </Button>
          <Button variant="secondary" aria-label="Next two weeks" onClick={() => move(spanDays)}>
            <ChevronRight className="h-4 w-4" aria-hidden />
          </Button>
        </div>
        <div className="sm:ml-auto">
          <Button onClick={() => setDialog("blank")} disabled={!!parent}>
            Set rates…
          </Button>
        </div>
      </div>

      <p className="mb-2 text-xs text-stone-500">
        {plan.refundable ? `Refundable, free cancellation until ${plan.cancellation_deadline_hours} h before arrival.` : "Non-refundable."}{" "}
        {parent ? (
          <span data-testid="derived-plan-note">
            Its prices follow {parent.name} ({pricingWords(plan, () => parent.name, property.currency)}) and change when that plan&apos;s do; set them there.
          </span>
        ) : (
          "Select a night, then another with Select a range on (or Shift-click, Shift+Enter) to select a range across nights and room types."
        )}
      </p>
      {roomTypes.length === 0 ? (
        <EmptyState title="This rate plan covers no room type of this property" />
      ) : calendar.error && !calendar.data ? (
        <ErrorState message={callError(calendar.error).message} onRetry={() => calendar.refetch()} />
      ) : !calendar.data || calendar.data.rate_plan_id !== plan.id ? (
        <LoadingState rows={roomTypes.length + 1} label="Loading rates…" />
      ) : (
        <RateGrid
          currency={property.currency}
          roomTypes={roomTypes}
          from={start}
          days={spanDays}
          today={today}
          nights={calendar.data.data}
          selection={selection}
          onSelect={setSelection}
          extend={rangeMode}
          busy={calendar.isFetching}
        />
      )}

      <div className="mt-3 flex flex-wrap items-center gap-3 rounded-lg border border-stone-200 bg-white px-4 py-3 text-sm" aria-live="polite">
        {parent ? null : (
          <Button variant="secondary" aria-pressed={rangeMode} onClick={() => setRangeMode((on) => !on)} className={rangeMode ? "border-teal-600 bg-teal-50 text-teal-900" : undefined}>
            Select a range
          </Button>
        )}
        {selection ? (
          <>
            <span className="text-stone-700" data-testid="selection-summary">
              <span className="font-medium">
                {roomTypes
                  .filter((t) => selection.roomTypeIds.includes(t.id))
                  .map((t) => t.code)
                  .join(", ")}
              </span>
              {" · "}
              {fmt.day(selection.from)} – {fmt.day(addDays(selection.to, -1))} ({plural(selection.nights, "night")})
            </span>
            <div className="ml-auto flex gap-2">
              <Button variant="ghost" onClick={() => setSelection(null)}>
                Clear
              </Button>
              <Button onClick={() => setDialog(selection)} disabled={!!parent}>
                Set rates for selection…
              </Button>
            </div>
          </>
        ) : (
          <span className="text-stone-500">No nights selected.</span>
        )}
      </div>
      <Legend />

      <SetRatesDialog
        key={dialog === null ? "closed" : dialog === "blank" ? "blank" : `${dialog.from}-${dialog.to}-${dialog.roomTypeIds.join()}`}
        open={dialog !== null}
        onOpenChange={(open) => !open && setDialog(null)}
        plan={plan}
        roomTypes={roomTypes}
        currency={property.currency}
        initial={dialog && dialog !== "blank" ? dialog : { roomTypeIds: roomTypes.map((t) => t.id), from: start, to: end, nights: spanDays }}
        onDone={() => {
          setDialog(null);
          setSelection(null);
        }}
      />

      <div className="mt-6">
        <AuditTrail objectType="rate_plan" objectId={plan.id} title={`History of ${plan.code}`} />
      </div>
    </>
  );
}

function Legend() {
  return (
    <div className="mt-3 flex flex-wrap gap-x-4 gap-y-2 text-xs text-stone-600" aria-label="Legend">
      <span>Each night shows its price, the rooms of the type still to sell (&ldquo;2 left&rdquo;, &ldquo;Sold out&rdquo;) and its restrictions.</span>
      <span className="flex items-center gap-1.5">
        <Badge tone="red">Stop-sell</Badge> not bookable on this plan
      </span>
      <span className="flex items-center gap-1.5">
        <span className="font-mono text-stone-500">—</span> no rate loaded
      </span>
    </div>
  );
}
