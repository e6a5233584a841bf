"use client";

import { Printer } from "lucide-react";
import { Button } from "@/components/ui";

/** Opens the browser's print dialog for the page. */
export function PrintButton() {
  return (
    <Button onClick={() => window.print()} className="inline-flex items-center gap-2">
      <Printer className="h-4 w-4" aria-hidden /> Print
    </Button>
  );
}
