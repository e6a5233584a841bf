import type { inferRouterOutputs } from "@trpc/server";
import type { StayChange } from "@/server/reservations/tape-chart";
import type { AppRouter } from "@/server/trpc/routers/_app";

// The room chart's data and geometry, shared by the chart, its rows and its dialogs.

export type Chart = inferRouterOutputs<AppRouter>["tapeChart"]["window"];
export type Stay = Chart["stays"][number];
export type Row = { kind: "room"; id: string; typeId: string; label: string } | { kind: "unassigned"; id: string; typeId: string; label: string };

/** Width of one night, in pixels: the keyboard moves by it. */
export const NIGHT = 56;
/** The sticky first column: narrower on a phone, where nights need the room. */
export const roomColumn = "sticky left-0 w-20 shrink-0 border-r border-stone-200 px-2 sm:w-28";

/** A change of a stay made on the chart, waiting for its price to be confirmed. */
export type Pending = { stay: Stay; change: StayChange; what: string };
