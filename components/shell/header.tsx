import Link from "next/link";
import { Badge } from "@/components/ui";
import { roleLabels } from "@/server/staff/access";
import type { Environment } from "@/server/staff/environment";
import type { StaffUser } from "@/server/staff/session";
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
        <div role="status" data-testid="sandbox-banner" className="bg-amber-400 px-4 py-1.5 text-center text-sm text-amber-950">
          <strong className="font-semibold tracking-wide">SANDBOX</strong> · You are looking at test data. Nothing here touches live guests,
          bookings or payments.
        </div>
      ) : null}
      <header className={`border-b bg-white ${sandbox ? "border-amber-400" : "border-stone-200"}`}>
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2.5 sm:px-6 lg:h-14 lg:py-0">
          <MobileNav items={navItems} />
          <Link href="/" className="text-lg font-semibold tracking-tight text-teal-800">
            Innkeep
          </Link>
          <span className="hidden h-5 w-px bg-stone-200 sm:block" aria-hidden />
          <div className="flex min-w-0 items-center gap-2">
            {properties.length > 1 && property ? (
              <PropertySwitch properties={properties} current={property.id} />
            ) : (
              <span className="truncate text-sm font-medium text-stone-800" data-testid="property-name">
                {property?.name ?? "No property yet"}
              </span>
            )}
            {sandbox ? <Badge tone="amber">Sandbox data</Badge> : <Badge tone="teal">Live data</Badge>}
          </div>
          <div className="ml-auto flex items-center gap-3 sm:gap-4">
            <EnvironmentSwitch environment={environment} />
            <div className="hidden text-right leading-tight sm:block">
              <p className="text-sm font-medium text-stone-800">{user.name ?? user.email}</p>
              <p className="text-xs text-stone-500" data-testid="user-role">
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
