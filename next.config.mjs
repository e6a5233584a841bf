import createNextIntlPlugin from "next-intl/plugin";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships wasm and data files that must be loaded from node_modules, not bundled; so does
  // pdfkit (its standard fonts' metrics), which renders invoices; stripe-node is loaded as Node loads it.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "prom-client", "ioredis", "rate-limiter-flexible", "pdfkit", "stripe"],
  // The dev server blocks /_next resources for pages opened at 127.0.0.1 otherwise.
  allowedDevOrigins: ["127.0.0.1"],
  poweredByHeader: false,
  // `npm run typecheck` checks every file the build's own check does, and more (tests, scripts):
  // .ci/run sets INNKEEP_TYPECHECKED=1 once it has passed, so the build does not check them again.
  typescript: { ignoreBuildErrors: process.env.INNKEEP_TYPECHECKED === "1" },
  // Every page and route refuses to be framed (refunds and deletions are one click) and to be
  // MIME-sniffed, and sends no URL of ours to other sites; proxy.ts adds the nonce-based
  // Content-Security-Policy (with frame-ancestors 'none') and HSTS over https.
  async headers() {
    const pageHeaders = [
      { key: "X-Frame-Options", value: "DENY" },
      { key: "X-Content-Type-Options", value: "nosniff" },
      { key: "Referrer-Policy", value: "same-origin" },
    ];
    return [{ source: "/:path*", headers: pageHeaders }];
  },
};
// next-intl reads the guest pages' language and catalogue from i18n/request.ts (messages/<lang>.json).
const withNextIntl = createNextIntlPlugin("./i18n/request.ts");
export default withNextIntl(nextConfig);
