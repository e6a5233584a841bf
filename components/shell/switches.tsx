"use client";

import * as RadioGroup from "@radix-ui/react-radio-group";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useTransition } from "react";
import { environmentCookie, propertyCookie, type Environment } from "@/server/staff/data-set";

function remember(name: string, value: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${60 * 60 * 24 * 365}; SameSite=Lax`;
}

/**
 * Whether the switch had focus when a data set was chosen. The dashboard's layout keys its client
 * cache by data set, so the switch is drawn afresh once the page comes back; it then takes focus
 * back, so a keyboard user stays on it instead of being sent to the top of the page.
 */
let refocus = false;

/**
 * Live or sandbox: remembered in a cookie; the server re-renders the page for the chosen data set.
 * A radio group (Radix): Tab reaches the checked option, the arrow keys move between them.
 */
export function EnvironmentSwitch({ environment }: { environment: Environment }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const root = useRef<HTMLDivElement>(null);
  const checked = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!refocus) return;
    refocus = false;
    checked.current?.focus();
  }, []);
  const choose = (next: string) => {
    if (next === environment || (next !== "live" && next !== "sandbox")) return;
    refocus = !!root.current?.contains(document.activeElement);
    remember(environmentCookie, next);
    startTransition(() => router.refresh());
  };
  const option = (value: Environment, label: string) => {
    const tone = value === "sandbox" ? "data-[state=checked]:bg-amber-400 data-[state=checked]:text-amber-950" : "data-[state=checked]:bg-teal-700 data-[state=checked]:text-white";
    return (
      <RadioGroup.Item
        ref={value === environment ? checked : undefined}
        value={value}
        className={`rounded px-2.5 py-1 text-xs sm:px-3 font-semibold text-stone-700 transition hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 focus-visible:ring-offset-1 data-[state=checked]:shadow-sm ${tone}`}
      >
        {label}
      </RadioGroup.Item>
    );
  };
  return (
    <RadioGroup.Root
      ref={root}
      value={environment}
      onValueChange={choose}
      orientation="horizontal"
      aria-label="Data set"
      aria-busy={pending || undefined}
      className="inline-flex rounded-md bg-stone-100 p-0.5 ring-1 ring-stone-200"
    >
      {option("live", "Live")}
      {option("sandbox", "Sandbox")}
    </RadioGroup.Root>
  );
}

/** Which property the header (and the pages that need one) shows, when the account has several. */
export function PropertySwitch({ properties, current }: { properties: { id: string; name: string }[]; current: string }) {
  const router = useRouter();
  return (
    <select
      aria-label="Property"
      value={current}
      onChange={(e) => {
        remember(propertyCookie, e.target.value);
        router.refresh();
      }}
      className="min-w-0 flex-1 truncate rounded-md border border-stone-300 bg-white py-1 pl-2 pr-7 text-sm font-medium text-stone-800 sm:flex-none"
    >
      {properties.map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </select>
  );
}
