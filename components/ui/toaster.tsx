"use client";

import type { CSSProperties } from "react";
import { Toaster as Sonner } from "sonner";

/**
 * Sonner's rich colours, darkened until each text reads at WCAG AA (≥ 4.5:1) on its own
 * background: its success green (#008a2e on #ecfdf3) was 4.26:1, its red, blue and amber 4.35,
 * 4.35 and 3.08. Set on the toaster, they override the stylesheet's light theme.
 */
const readableColours = {
  "--success-text": "#006b24", // 6.4:1 on #ecfdf3
  "--error-text": "#b30000", // 6.5:1 on #fff0f0
  "--info-text": "#0862bd", // 5.6:1 on #f0f8ff
  "--warning-text": "#a35700", // 5.2:1 on #fffcf0
} as CSSProperties;

/** Where confirmations and failures of actions appear (sonner; announced to screen readers). */
export function Toaster() {
  return <Sonner position="bottom-right" richColors closeButton toastOptions={{ duration: 5000 }} style={readableColours} />;
}

export { toast } from "sonner";
