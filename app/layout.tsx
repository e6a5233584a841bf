import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Innkeep", template: "%s · Innkeep" },
  description: "Hotel property management",
};

// Every page renders per request: its scripts carry that request's CSP nonce (proxy.ts), which a page built ahead of time could not.
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
