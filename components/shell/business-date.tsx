"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useRef, type ReactNode } from "react";
import { useTRPC } from "@/components/trpc/client";
import { usePropertyFormat } from "@/components/ui/property-format";
import type { IsoDate } from "@/lib/dates";

type Place = { propertyId: string | null; initial: IsoDate | null };
const Context = createContext<Place>({ propertyId: null, initial: null });

/**
 * The property's business date for every page of the dashboard: what the server says "today" is
 * (server/properties/business-date.ts `businessToday`: the calendar date, or the date the night
 * audit or the sandbox's advance_day moved it on to). Rendered with the layout's value, then kept
 * fresh: asked again every minute and when the window regains focus, and at once when the night
 * audit runs here or a live page hears it ran elsewhere. When the date moves, every query of the
 * page is refetched, so no list keeps the closed day.
 */
export function BusinessDateProvider({ propertyId, initial, children }: Place & { children: ReactNode }) {
  return (
    <Context.Provider value={{ propertyId, initial }}>
      {propertyId ? <RefreshOnNewDay /> : null}
      {children}
    </Context.Provider>
  );
}

function useBusinessDateQuery() {
  const trpc = useTRPC();
  const { propertyId, initial } = useContext(Context);
  return useQuery({
    ...trpc.properties.businessDate.queryOptions({ id: propertyId ?? "" }),
    enabled: Boolean(propertyId),
    initialData: initial ? { business_date: initial } : undefined,
    // The layout's value is fresh for a moment; after that the server is asked again.
    initialDataUpdatedAt: () => Date.now(),
    staleTime: 0,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });
}

/** The property's business date ("today" at the desk), as `YYYY-MM-DD`. */
export function useBusinessDate(): IsoDate {
  const { initial } = useContext(Context);
  const query = useBusinessDateQuery();
  return query.data?.business_date ?? initial ?? "";
}

/** When the business date moves (an audit closed the day), everything on the page is asked again. */
function RefreshOnNewDay() {
  const queryClient = useQueryClient();
  const date = useBusinessDateQuery().data?.business_date;
  const seen = useRef(date);
  useEffect(() => {
    if (date && seen.current && date !== seen.current) void queryClient.invalidateQueries();
    seen.current = date;
  }, [date, queryClient]);
  return null;
}

/** The header's statement of the business date: "Business day Sat 28 Nov". */
export function BusinessDateBadge() {
  const fmt = usePropertyFormat();
  const date = useBusinessDate();
  if (!date) return null;
  return (
    <span className="shrink-0 whitespace-nowrap rounded-md bg-teal-50 px-2 py-0.5 text-xs font-medium text-teal-900 ring-1 ring-teal-200 sm:text-sm" data-testid="business-date">
      Business day {fmt.day(date, { weekday: "short", day: "numeric", month: "short" })}
    </span>
  );
}
