import type { ReactNode } from "react";
import { BusinessDateProvider } from "@/components/shell/business-date";
import { Header } from "@/components/shell/header";
import { Nav } from "@/components/shell/nav";
import { navItems } from "@/components/shell/nav-items";
import { TRPCReactProvider } from "@/components/trpc/client";
import { PropertyFormatProvider } from "@/components/ui/property-format";
import { Toaster } from "@/components/ui/toaster";
import { propertyLocale } from "@/lib/money";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { user, environment } = await requireStaff();
  const { properties, current } = await dashboardProperties();
  const items = navItems.filter((item) => can(user.role, item.area));
  const format = current ? { currency: current.currency, timezone: current.timezone, locale: propertyLocale(current.address?.country) } : null;
  return (
    // Keyed by data set: switching remounts the client cache, so no live row lingers in sandbox.
    <TRPCReactProvider key={environment} environment={environment}>
      <PropertyFormatProvider value={format}>
        <BusinessDateProvider propertyId={current?.id ?? null} initial={current?.business_date ?? null}>
          <div className="flex min-h-screen flex-col">
            <Header user={user} environment={environment} properties={properties} property={current} navItems={items} />
            <div className="mx-auto flex w-full max-w-7xl flex-1 gap-8 px-4 py-6 sm:px-6 lg:py-8">
              <aside className="hidden w-48 shrink-0 lg:block">
                <Nav items={items} />
              </aside>
              <main className="min-w-0 flex-1">{children}</main>
            </div>
          </div>
        </BusinessDateProvider>
        <Toaster />
      </PropertyFormatProvider>
    </TRPCReactProvider>
  );
}
