import Link from "next/link";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui";
import { EmptyState } from "@/components/ui/states";

/** The way to the setup step an empty page needs, as a button-like link. */
export function SetupLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      className="inline-flex items-center rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-teal-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 focus-visible:ring-offset-1"
    >
      {children}
    </Link>
  );
}

/** A setup page that needs room types first (rooms, rate plans): the way to add them, and why. */
export function NeedsRoomTypes({ children }: { children: ReactNode }) {
  return (
    <EmptyState title="No room types yet" action={<SetupLink href="/settings/room-types">Add a room type</SetupLink>}>
      {children}
    </EmptyState>
  );
}

/** A setup page before the data set has a property: the way to make one. */
export function NeedsProperty({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState
        title="No property yet"
        action={
          <SetupLink href="/settings/property">Create the property</SetupLink>
        }
      >
        Start with the property: its name, address, time zone and currency. Room types, rooms and rate plans belong to it.
      </EmptyState>
    </>
  );
}
