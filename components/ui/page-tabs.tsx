"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui";

/**
 * Sibling pages as tabs: one link each, the current one marked `aria-current="page"`; the row
 * wraps on a phone rather than scrolling sideways. (Tabs within one page are `Tabs`.)
 */
export function PageTabs({ label, pages, className }: { label: string; pages: readonly { href: string; label: string }[]; className?: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className={cx("border-b border-stone-200", className)}>
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {pages.map((page) => {
          const active = pathname === page.href;
          return (
            <li key={page.href}>
              <Link
                href={page.href}
                aria-current={active ? "page" : undefined}
                className={cx(
                  "inline-block border-b-2 px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600",
                  active ? "border-teal-700 font-medium text-teal-800" : "border-transparent text-stone-600 hover:border-stone-300 hover:text-stone-900",
                )}
              >
                {page.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
