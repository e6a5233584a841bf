"use client";

import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ReactNode } from "react";

/** Tabs (Radix): arrow keys move between tabs; each tab's panel is rendered when chosen. */
export function Tabs({
  value,
  onValueChange,
  defaultValue,
  label,
  tabs,
}: {
  value?: string;
  onValueChange?: (value: string) => void;
  defaultValue?: string;
  /** What the tab list is for, for screen readers. */
  label: string;
  tabs: { value: string; label: ReactNode; content: ReactNode }[];
}) {
  return (
    <TabsPrimitive.Root value={value} onValueChange={onValueChange} defaultValue={defaultValue ?? tabs[0]?.value}>
      <TabsPrimitive.List aria-label={label} className="mb-4 flex gap-1 overflow-x-auto border-b border-stone-200">
        {tabs.map((tab) => (
          <TabsPrimitive.Trigger
            key={tab.value}
            value={tab.value}
            className="-mb-px whitespace-nowrap border-b-2 border-transparent px-3 py-2 text-sm font-medium text-stone-500 hover:text-stone-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 data-[state=active]:border-teal-700 data-[state=active]:text-teal-800"
          >
            {tab.label}
          </TabsPrimitive.Trigger>
        ))}
      </TabsPrimitive.List>
      {tabs.map((tab) => (
        <TabsPrimitive.Content key={tab.value} value={tab.value} className="focus-visible:outline-none">
          {tab.content}
        </TabsPrimitive.Content>
      ))}
    </TabsPrimitive.Root>
  );
}
