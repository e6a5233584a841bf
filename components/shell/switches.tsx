"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { environmentCookie, propertyCookie, type Environment } from "@/server/staff/environment";

function remember(name: string, value: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${60 * 60 * 24 * 365}; SameSite=Lax`;
}

/** Live or sandbox: remembered in a cookie; the server re-renders the page for the chosen data set. */
export function EnvironmentSwitch({ environment }: { environment: Environment }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const choose = (next: Environment) => {
    if (next === environment) return;
    remember(environmentCookie, next);
    startTransition(() => router.refresh());
  };
  const option = (value: Environment, label: string) => {
    const on = environment === value;
    const tone = value === "sandbox" ? "bg-amber-400 text-amber-950" : "bg-teal-700 text-white";
    return (
      <button
        type="button"
        role="radio"
        aria-checked={on}
        onClick={() => choose(value)}
        disabled={pending}
        className={`rounded px-3 py-1 text-xs font-semibold transition ${on ? `${tone} shadow-sm` : "text-stone-600 hover:text-stone-900"}`}
      >
        {label}
      </button>
    );
  };
  return (
    <div role="radiogroup" aria-label="Data set" className="inline-flex rounded-md bg-stone-100 p-0.5 ring-1 ring-stone-200">
      {option("live", "Live")}
      {option("sandbox", "Sandbox")}
    </div>
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
      className="rounded-md border border-stone-300 bg-white py-1 pl-2 pr-7 text-sm font-medium text-stone-800"
    >
      {properties.map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </select>
  );
}
