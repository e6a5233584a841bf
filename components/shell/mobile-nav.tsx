"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { Menu as MenuIcon, X } from "lucide-react";
import { useState } from "react";
import { Nav } from "./nav";
import type { NavItem } from "./nav-items";

/** Below 1024 px the side navigation folds into a drawer behind a Menu button. */
export function MobileNav({ items }: { items: NavItem[] }) {
  const [open, setOpen] = useState(false);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger className="inline-flex items-center gap-1.5 rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm font-medium text-stone-700 shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 lg:hidden">
        <MenuIcon className="h-4 w-4" aria-hidden />
        {/* The word where there is room; a screen reader hears it either way. */}
        <span className="sr-only sm:not-sr-only">Menu</span>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-stone-900/40" />
        <DialogPrimitive.Content aria-describedby={undefined} className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] overflow-y-auto bg-stone-50 p-4 shadow-xl focus:outline-none">
          <div className="mb-4 flex items-center justify-between">
            <DialogPrimitive.Title className="text-lg font-semibold text-teal-800">Innkeep</DialogPrimitive.Title>
            <DialogPrimitive.Close aria-label="Close menu" className="rounded p-1 text-stone-500 hover:bg-stone-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600">
              <X className="h-5 w-5" aria-hidden />
            </DialogPrimitive.Close>
          </div>
          {/* Following a link closes the drawer. */}
          <div onClickCapture={(event) => (event.target as HTMLElement).closest("a") && setOpen(false)}>
            <Nav items={items} />
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
