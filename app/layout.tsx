import type { Metadata } from "next";
import { connection } from "next/server";
import { getLocale } from "next-intl/server";
import localFont from "next/font/local";
import type { ReactNode } from "react";
import { HydratedMark } from "@/components/ui/hydrated";
import "./globals.css";

// The dashboard's face, served with the app (no font network, no system lottery): every browser,
// and every test machine's screenshots, draw the same letters. Inter, SIL Open Font License.
const inter = localFont({
  src: [{ path: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2", weight: "100 900", style: "normal" }],
  variable: "--font-inter",
  display: "swap",
});

export const metadata: Metadata = {
  title: { default: "Innkeep", template: "%s · Innkeep" },
  description: "Hotel property management",
};

// Every page renders per request: its scripts carry that request's CSP nonce (proxy.ts), which a page built ahead of time could not.
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  // English, except on the guest pages, which speak the guest's language (i18n/request.ts).
  const locale = await getLocale();
  return (
    <html lang={locale} className={inter.variable}>
      <body className="min-h-screen font-sans">
        {children}
        <HydratedMark />
      </body>
    </html>
  );
}
