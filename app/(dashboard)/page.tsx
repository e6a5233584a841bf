import Link from "next/link";
import { MyRooms } from "@/components/housekeeping/my-rooms";
import { OwnerHome } from "@/components/reports/owner-home";
import { FrontDeskHome } from "@/components/reservations/front-desk-home";
import { navItems } from "@/components/shell/nav-items";
import { Badge, Card, PageHeader } from "@/components/ui";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

// /: each role's home at the property on screen: the front desk's day, a housekeeper's rooms,
// the owner's figures; without a property, the data set's properties and where to go next
export default async function HomePage() {
  const { user, environment } = await requireStaff();
  const { properties, current } = await dashboardProperties();
  const title = `Welcome, ${user.name ?? user.email}`;
  if (current) {
    if (user.role === "housekeeping") return <MyRooms title={title} propertyId={current.id} />;
    if (user.role === "front_desk") return <FrontDeskHome title={title} propertyId={current.id} propertyName={current.name} />;
    if (can(user.role, "reports")) return <OwnerHome title={title} propertyId={current.id} propertyName={current.name} currency={current.currency}/>;
  }
  const shortcuts = navItems.filter((item) => item.href !== "/" && can(user.role, item.area));
  return (
    <>
      <PageHeader
        title={title}
        description={environment === "sandbox" ? "You are in the sandbox: try anything, it is all test data." : "Your live properties at a glance."}
      />
      <div className="grid gap-4 md:grid-cols-2">
        {properties.map((p) => (
          <Card key={p.id} title={p.name} actions={<Badge tone={p.livemode ? "teal" : "amber"}>{p.livemode ? "Live" : "Sandbox"}</Badge>}>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
              <dt className="text-stone-500">Rooms</dt>
              <dd className="text-stone-900">{p.room_count}</dd>
              <dt className="text-stone-500">Time zone</dt>
              <dd className="text-stone-900">{p.timezone}</dd>
              <dt className="text-stone-500">Currency</dt>
              <dd className="text-stone-900">{p.currency}</dd>
              <dt className="text-stone-500">Address</dt>
              <dd className="text-stone-900">{[p.address.line1, p.address.city, p.address.country].filter(Boolean).join(", ") || "—"}</dd>
            </dl>
          </Card>
        ))}
        {properties.length === 0 ? (
          <Card>
            <p className="text-sm text-stone-600">
              There is no property in this data set yet.{" "}
              {can(user.role, "setup") ? (
                <Link href="/settings/property" className="font-medium text-teal-800 underline">
                  Set it up
                </Link>
              ) : (
                "An owner or manager sets it up."
              )}
            </p>
          </Card>
        ) : null}
      </div>
      {shortcuts.length ? (
        <div className="mt-8">
          <h2 className="mb-3 text-sm font-semibold text-stone-700">Go to</h2>
          <div className="flex flex-wrap gap-2">
            {shortcuts.map((item) => (
              <Link key={item.href} href={item.href} className="rounded-md border border-stone-200 bg-white px-3 py-2 text-sm text-stone-700 shadow-sm hover:border-teal-600 hover:text-teal-800">
                {item.label}
              </Link>
            ))}
          </div>
        </div>
      ) : null}
    </>
  );
}
