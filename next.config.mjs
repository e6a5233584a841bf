/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships wasm and data files that must be loaded from node_modules, not bundled; so does
  // pdfkit (its standard fonts' metrics), which renders invoices.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "prom-client", "ioredis", "rate-limiter-flexible", "pdfkit"],
  // The dev server blocks /_next resources for pages opened at 127.0.0.1 otherwise.
  allowedDevOrigins: ["127.0.0.1"],
  poweredByHeader: false,
  // The OAuth consent page must never be framed (clickjacking an Approve button).
  async headers() {
    const noFraming = [
      { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
      { key: "X-Frame-Options", value: "DENY" },
    ];
    return [
      { source: "/oauth/authorize", headers: noFraming },
      { source: "/oauth/authorize/:path*", headers: noFraming },
    ];
  },
};
export default nextConfig;
