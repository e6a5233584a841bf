"use client";

import { Toaster as Sonner } from "sonner";

/** Where confirmations and failures of actions appear (sonner; announced to screen readers). */
export function Toaster() {
  return <Sonner position="bottom-right" richColors closeButton toastOptions={{ duration: 5000 }} />;
}

export { toast } from "sonner";
