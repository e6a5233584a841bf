import Link from "next/link";
import { Badge } from "@/components/ui";
import { BusinessDateBadge } from "./business-date";
import { roleLabels } from "@/lib/access";
import type { Environment } from "@/server/staff/data-set";
import type { StaffUser } from "@/server/next-auth/session";
import { MobileNav } from "./mobile-nav";
import type { NavItem } from "./nav-items";
import { SignOutButton } from "./sign-out-button";
import { EnvironmentSwitch, PropertySwitch } from "./switches";

type Props = {
  user: StaffUser;
  environment: Environment;
  properties: { id: string; name: string }[];
  property: { id: string; name: string } | null;
  navItems: NavItem[];
};

export function Header({ user, environment, properties, property, navItems }: Props) {
  const sandbox = environment === "sandbox";
  return (
    <>
      {sandbox ? (
        // One line on a phone: the long sentence only where there is room for it.
        <div role="status" data-testid="sandbox-banner" className="bg-amber-400 px-4 py-1 text-center text-xs text-amber-950 sm:py-1.5 sm:text-sm">
          <strong className="font-semibold tracking-wide">SANDBOX</strong>
          <span className="sm:hidden"> · test data, nothing live</span>
          <span className="hidden sm:inline">
            {" "}
            · You are looking at test data. Nothing here touches live guests, bookings or payments.
          </span>
        </div>
      ) : null}
      <header className={`border-b bg-white ${sandbox ? "border-amber-400" : "border-stone-200"}`} data-testid="app-header">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-2 gap-y-1 px-4 py-2 sm:gap-x-4 sm:px-6 lg:h-14 lg:py-0">
          <MobileNav items={navItems} />
          <Link href="/" className="text-lg font-semibold tracking-tight text-teal-800">
            Innkeep
          </Link>
          <span className="hidden h-5 w-px bg-stone-200 sm:block" aria-hidden />
          {/* On a phone the property takes the second line, so the first holds every control. */}
          <div className="order-last flex w-full min-w-0 items-center gap-2 sm:order-none sm:w-auto">
            {properties.length > 1 && property ? (
              <PropertySwitch properties={properties} current={property.id} />
            ) : (
              <span className="truncate text-sm font-medium text-stone-800" data-testid="property-name">
                {property?.name ?? "No property yet"}
              </span>
            )}
            {property ? <BusinessDateBadge /> : null}
            <span className="hidden sm:inline-flex">{sandbox ? <Badge tone="amber">Sandbox data</Badge> : <Badge tone="teal">Live data</Badge>}</span>
          </div>
          <div className="ml-auto flex items-center gap-2 sm:gap-4">
            <EnvironmentSwitch environment={environment} />
            <div className="hidden text-right leading-tight sm:block">
              <p className="text-sm font-medium text-stone-800">{user.name ?? user.email}</p>
              <p className="text-xs text-stone-600" data-testid="user-role">
                {roleLabels[user.role]}
              </p>
            </div>
            <SignOutButton />
          </div>
        </div>
      </header>
    </>
  );
}
