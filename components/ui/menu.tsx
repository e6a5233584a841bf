"use client";

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";
import { cx } from "./index";

export type MenuItem = { label: string; onSelect: () => void; danger?: boolean; disabled?: boolean };

/** A drop-down menu of actions (Radix): arrow keys, Enter and Escape work as expected. */
export function Menu({ trigger, items, label }: { trigger: ReactNode; items: MenuItem[]; label?: string }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild aria-label={label}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className="z-50 min-w-44 rounded-md bg-white p-1 shadow-lg ring-1 ring-stone-200">
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.label}
              disabled={item.disabled}
              onSelect={item.onSelect}
              className={cx(
                "cursor-pointer select-none rounded px-2.5 py-1.5 text-sm outline-none data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 data-[highlighted]:bg-stone-100",
                item.danger ? "text-red-700" : "text-stone-800",
              )}
            >
              {item.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
