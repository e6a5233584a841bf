// Global setup of the integration projects: Stripe's API as the tests meet it. stripe-mock (Stripe's
// own mock of its API, pinned in scripts/stripe-mock.sh) validates every request Innkeep makes;
// in front of it a small relay (stripe-states.ts) plays what stripe-mock, being stateless, cannot:
// the state a PaymentIntent reaches, Stripe's idempotent replays and its documented declines.
//
// stripe-mock is used where STRIPE_MOCK_URL (default http://127.0.0.1:12111) answers as one, and
// otherwise started from the pinned binary (installed by `go install` when missing) on a free
// port, stopped afterwards. The app reaches the relay through STRIPE_API_URL, which this sets for
// the test workers and the servers they start.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { cameUp, ended, freePort } from "./child-processes";
import { startStripeStates } from "./stripe-states";

const defaultMockUrl = "http://127.0.0.1:12111";

type Shared = { ready: Promise<{ stop: () => Promise<void> }>; users: number };
const key = Symbol.for("innkeep.tests.stripe");
const holder = globalThis as unknown as Record<symbol, Shared | undefined>;

/** Both integration projects call this; the first starts everything, the last to finish stops it. */
export default async function setup(): Promise<() => Promise<void>> {
  const shared = (holder[key] ??= { ready: start(), users: 0 });
  shared.users++;
  const { stop } = await shared.ready;
  return async () => {
    if (--shared.users === 0) {
      holder[key] = undefined;
      await stop();
    }
  };
}

/**
 * stripe-mock (the running one, else one of the run's own) and the relay in front of it, on
 * `relayPort` (0: any free port). Also what the browser tests' server is pointed at (e2e/support/stripe-relay.ts).
 */
export async function startStripe(relayPort = 0): Promise<{ mockUrl: string; relayUrl: string; stop: () => Promise<void> }> {
  const configured = process.env.STRIPE_MOCK_URL ?? defaultMockUrl;
  let child: ChildProcess | undefined;
  let mockUrl = configured;
  if (!(await stripeMockAnswers(configured))) {
    if (process.env.STRIPE_MOCK_URL) throw new Error(`Nothing answers as stripe-mock at STRIPE_MOCK_URL (${configured}).`);
    const binary = (await promisify(execFile)("bash", [path.resolve("scripts/stripe-mock.sh")], { timeout: 300_000 })).stdout.trim();
    const port = await freePort();
    mockUrl = `http://127.0.0.1:${port}`;
    child = spawn(binary, ["-http-addr", `127.0.0.1:${port}`, "-https-addr", "127.0.0.1:"], { stdio: "ignore" });
    if (!(await cameUp(child, () => stripeMockAnswers(mockUrl), 90_000))) {
      child.kill();
      throw new Error(`stripe-mock (${binary}) did not start on port ${port}.`);
    }
  }
  const relay = await startStripeStates(mockUrl, relayPort);
  return {
    mockUrl,
    relayUrl: relay.url,
    async stop() {
      await relay.close();
      if (child) await ended(child, "SIGTERM");
    },
  };
}

async function start(): Promise<{ stop: () => Promise<void> }> {
  const started = await startStripe();
  process.env.STRIPE_MOCK_URL = started.mockUrl;
  process.env.STRIPE_API_URL = started.relayUrl;
  return started;
}

/** stripe-mock answers any test key's GET /v1/account with an account fixture. */
async function stripeMockAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/v1/account`, { headers: { authorization: "Bearer sk_test_innkeep" }, signal: AbortSignal.timeout(2_000) });
    return res.ok && ((await res.json()) as { object?: string }).object === "account";
  } catch {
    return false;
  }
}
