import Link from "next/link";
import { PageHeader } from "@/components/ui";
import { EmptyState } from "@/components/ui/states";

/** A setup page before the data set has a property: the way to make one. */
export function NeedsProperty({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState
        title="No property yet"
        action={
          <Link href="/settings/property" className="inline-flex items-center rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-teal-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 focus-visible:ring-offset-1">
            Create the property
          </Link>
        }
      >
        Start with the property: its name, address, time zone and currency. Room types, rooms and rate plans belong to it.
      </EmptyState>
    </>
  );
}
