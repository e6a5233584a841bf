"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { NavItem } from "./nav-items";

const matches = (pathname: string, href: string) => (href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`));

export function Nav({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  // The deepest item that contains the page is the current one (/settings/rooms is Rooms, not Settings).
  const current = items.filter((i) => matches(pathname, i.href)).sort((a, b) => b.href.length - a.href.length)[0]?.href;
  const sections = [...new Set(items.map((i) => i.section ?? ""))];
  return (
    <nav aria-label="Main" className="space-y-6">
      {sections.map((section) => (
        <div key={section}>
          {section ? <p className="mb-2 px-3 text-xs font-medium uppercase tracking-wide text-stone-500">{section}</p> : null}
          <ul className="space-y-0.5">
            {items
              .filter((i) => (i.section ?? "") === section)
              .map((item) => {
                const active = item.href === current;
                return (
                  <li key={item.href}>
                    <Link
                      href={item.href}
                      aria-current={active ? "page" : undefined}
                      className={`block rounded-md px-3 py-1.5 text-sm ${active ? "bg-white font-medium text-teal-800 shadow-sm ring-1 ring-stone-200" : "text-stone-600 hover:bg-stone-100 hover:text-stone-900"}`}
                    >
                      {item.label}
                    </Link>
                  </li>
                );
              })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
