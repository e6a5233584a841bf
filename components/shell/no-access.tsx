import { Card } from "@/components/ui";

/** Shown instead of a page the signed-in role cannot use (the server refuses its calls too). */
export function NoAccess() {
  return (
    <Card>
      <p className="text-sm text-stone-600">This page is not available for your role. Ask an owner or manager if you need it.</p>
    </Card>
  );
}
