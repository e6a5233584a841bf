// The layers of the code, bottom first, and the rule that keeps them: a module may import its own
// layer and the layers below it, never one above, and no import goes round in a circle. README's
// "Layers" section draws the same list; `npm run lint` runs this (`depcruise`) after eslint, so CI
// fails on an upward import or a cycle.

/** A folder of `server/` (every file under it). */
const dir = (name) => `^server/${name}/`;
/** A file of `server/` by name, without `.ts`. */
const file = (name) => `^server/${name}\\.ts$`;

/**
 * Bottom first. Each capability is a layer of its own, so two capabilities never import each
 * other both ways; a new capability goes just above the highest one it needs.
 */
const layers = [
  // Shared with the browser: money, dates and words. Imports nothing of ours.
  { name: "shared", paths: ["^lib/"] },
  // The schema, the migrations, and the database driver: the only code that reaches into
  // drizzle's or postgres.js's internals.
  { name: "db", paths: ["^db/"] },
  // The kernel: configuration, errors, ids, tenancy, keyset pages, transactions, the events outbox's
  // writer, logs and metrics.
  {
    name: "kernel",
    paths: [
      ...["config", "errors", "ids", "tenancy", "pagination", "schemas", "side-by-side", "date-ranges", "changes", "plans", "proxy-trust", "secret-keys", "sealed-secrets"].map(file),
      dir("observability"),
      dir("events"),
      dir("jobs"),
      file("url-guard"),
      file("local-secret"),
    ],
  },
  // Who did it: the audit trail every change writes, and the credentials that name who asks.
  { name: "audit", paths: [dir("audit")] },
  { name: "auth", paths: [dir("auth")] },
  // The operation kit every capability's `/v1` operations are written with (defineOperation, the
  // steps, list envelopes, idempotency, rate limits).
  { name: "http-kit", paths: [dir("http")] },
  // The capabilities, lowest first.
  { name: "staff", paths: [dir("staff")] },
  { name: "oauth", paths: [dir("oauth")] },
  // Card processors (Stripe): a hotel's connected account and the calls made to it (a booking's
  // card on file, payments). Imports only the kernel.
  { name: "processors", paths: [dir("processors")] },
  { name: "properties", paths: [dir("properties")] },
  { name: "rates", paths: [dir("rates")] },
  { name: "taxes", paths: [dir("taxes")] },
  { name: "folios", paths: [dir("folios")] },
  { name: "inventory", paths: [dir("inventory")] },
  { name: "rooms", paths: [dir("rooms")] },
  { name: "housekeeping", paths: [dir("housekeeping")] },
  { name: "reports", paths: [dir("reports")] },
  { name: "guest-mail", paths: [dir("guest-mail")] },
  { name: "guests", paths: [dir("guests")] },
  { name: "invoices", paths: [dir("invoices")] },
  { name: "reservations", paths: [dir("reservations")] },
  // The direct booking engine (issue 38): its settings, and a guest's search, hold and booking on
  // the public page, through availability, holds and the reservations service.
  { name: "booking-engine", paths: [dir("booking-engine")] },
  // What the account holds about one guest, exported or erased on request: reads their stays and folios.
  { name: "guest-data", paths: [dir("guest-data")] },
  { name: "payments", paths: [dir("payments")] },
  // A booking with what its rate plan asks at booking (the card on file, the deposit taken from
  // it): reservations and payments together.
  { name: "bookings", paths: [dir("bookings")] },
  // Open balances of ended stays (reads folios, invoices, reservations; refunds through payments).
  { name: "receivables", paths: [dir("receivables")] },
  { name: "groups", paths: [dir("groups")] },
  { name: "night-audit", paths: [dir("night-audit")] },
  { name: "sandbox", paths: [dir("sandbox")] },
  { name: "accounts", paths: [dir("accounts")] },
  // The delivery engine above them all: the outbox's fan-out, the one claim (leases) of the
  // dispatcher and Inngest alike, attempts and their records, the breaker, the sending of mail,
  // backfills' steps, the Inngest functions. It imports no capability.
  { name: "delivery", paths: [dir("webhooks")] },
  // Webhook endpoints, the capability on the engine: their CRUD and secrets, deliveries and their
  // log, replays, backfills asked for, test events (with a sample object of every capability).
  { name: "webhook-endpoints", paths: [dir("webhook-endpoints")] },
  // The surfaces, which assemble everything, in four steps: the processes' plumbing (the
  // listener's routing, the lock and control socket, the counters shared across processes),
  // the process-wide runtime, the apps (the `/v1` app and its document, tRPC, next-auth, the CLI),
  // and the processes that start them.
  { name: "process-plumbing", paths: [file("listener"), dir("process-plumbing")] },
  { name: "runtime", paths: [file("runtime")] },
  { name: "apps", paths: [dir("api"), dir("trpc"), dir("next-auth"), dir("cli")] },
  { name: "processes", paths: [dir("process"), file("main")] },
];

/**
 * Known upward imports, each named, to be moved away one by one: this list only shrinks. A
 * `from` file may import the `to` files although they sit above it.
 */
const known = [
];

const anyOf = (paths) => `(${paths.join("|")})`;
const inLayer = (path) => layers.findIndex((l) => l.paths.some((p) => new RegExp(p).test(path)));

const upward = layers.slice(0, -1).flatMap((layer, i) => {
  const above = layers.slice(i + 1).flatMap((l) => l.paths);
  const exceptions = known.filter((k) => inLayer(k.from) === i);
  return [
    {
      name: `layer-${layer.name}`,
      comment: `${layer.name} imports only itself and the layers below it`,
      severity: "error",
      from: { path: anyOf(layer.paths), ...(exceptions.length ? { pathNot: anyOf(exceptions.map((k) => `^${k.from}$`)) } : {}) },
      to: { path: anyOf(above) },
    },
    ...exceptions.map((k) => ({
      name: `layer-${layer.name}`,
      comment: `known: ${k.why}`,
      severity: "error",
      from: { path: `^${k.from}$` },
      to: { path: anyOf(above), pathNot: anyOf(k.to.map((t) => `^${t}$`)) },
    })),
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "no module imports itself through others",
      severity: "error",
      from: { path: "^(server|lib|db)/" },
      to: { circular: true },
    },
    {
      name: "shared-stays-shared",
      comment: "lib/ is also bundled for the browser: nothing of the server's",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(server|db|app|components)/" },
    },
    {
      name: "driver-in-db",
      comment: "only db/ talks to postgres.js or PGlite, and only it uses drizzle's pg-core classes (types are fine)",
      severity: "error",
      from: { path: "^(server|lib)/" },
      to: { path: "^node_modules/(postgres|@electric-sql/pglite)/" },
    },
    {
      name: "driver-in-db",
      comment: "only db/ talks to postgres.js or PGlite, and only it uses drizzle's pg-core classes (types are fine)",
      severity: "error",
      from: { path: "^(server|lib)/" },
      to: { path: "^node_modules/drizzle-orm/pg-core/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "every-module-in-a-layer",
      comment: "a new folder or file of server/ is given its place in the layers above before it imports anything",
      severity: "error",
      from: { path: "^server/", pathNot: anyOf(layers.flatMap((l) => l.paths)) },
      to: {},
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(\\.next|dist|clients/typescript/dist)/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports count: they tie the layers together as much as any other.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
  },
};
