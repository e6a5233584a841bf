import type { ReactNode } from "react";
import { Badge, Button } from "@/components/ui";
import { scopeDescriptions, type Scope } from "@/server/auth/scopes";

/** The narrow, centred frame of the consent and refusal pages (no dashboard shell around them). */
export function ConsentFrame({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-md">
        <p className="mb-6 text-center text-2xl font-semibold tracking-tight text-teal-800">Innkeep</p>
        <div className="rounded-lg border border-stone-200 bg-white p-6 shadow-sm">{children}</div>
      </div>
    </main>
  );
}

/** A page that explains why nothing happens: unknown app, unregistered address, wrong role. */
export function ConsentProblem({ title, message, action }: { title: string; message: string; action?: ReactNode }) {
  return (
    <ConsentFrame>
      <h1 className="text-lg font-semibold text-stone-900">{title}</h1>
      <p className="mt-2 text-sm text-stone-600">{message}</p>
      {action ? <div className="mt-4">{action}</div> : null}
    </ConsentFrame>
  );
}

type ConsentFormProps = {
  appName: string;
  publicApp: boolean;
  redirectHost: string;
  scopes: Scope[];
  properties: { id: string; name: string; livemode: boolean }[];
  hidden: Record<string, string>;
  userEmail: string;
};

/**
 * The consent form: the app, what it asks for in words, the properties to grant (all checked,
 * each can be unchecked), Approve and Deny. A plain form POST, so it works without JavaScript.
 */
export function ConsentForm({ appName, publicApp, redirectHost, scopes, properties, hidden, userEmail }: ConsentFormProps) {
  return (
    <ConsentFrame>
      <form method="post" action="/oauth/authorize/decision" className="space-y-5">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div>
          <h1 className="text-lg font-semibold text-stone-900">
            Connect <span className="text-teal-800">{appName}</span> to your account?
          </h1>
          <p className="mt-1 text-sm text-stone-500">
            Signed in as {userEmail}. After you decide you go back to <span className="font-medium break-all text-stone-700">{redirectHost}</span>.
            {publicApp ? " This app runs on a device or in a browser and has no secret of its own." : null}
          </p>
        </div>
        <section aria-labelledby="consent-scopes">
          <h2 id="consent-scopes" className="text-sm font-semibold text-stone-800">
            {appName} will be able to
          </h2>
          <ul className="mt-2 space-y-1.5">
            {scopes.map((scope) => (
              <li key={scope} className="flex items-start gap-2 text-sm text-stone-700">
                <span aria-hidden className="mt-1.5 h-1.5 w-1.5 shrink-0 rounded-full bg-teal-700" />
                <span>
                  {scopeDescriptions[scope]} <span className="text-xs text-stone-500">({scope})</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
        <fieldset>
          <legend className="text-sm font-semibold text-stone-800">For these properties</legend>
          {properties.length === 0 ? (
            <p className="mt-2 text-sm text-stone-500">Your account has no properties yet, so there is nothing to grant.</p>
          ) : (
            <ul className="mt-2 space-y-1.5">
              {properties.map((p) => (
                <li key={p.id}>
                  <label className="flex items-center gap-2 rounded-md px-1 py-1 text-sm text-stone-800 hover:bg-stone-50">
                    <input
                      type="checkbox"
                      name="property_id"
                      value={p.id}
                      defaultChecked
                      className="h-4 w-4 rounded border-stone-300 text-teal-700 focus-visible:ring-2 focus-visible:ring-teal-600"
                    />
                    <span className="min-w-0 flex-1 truncate">{p.name}</span>
                    {p.livemode ? null : <Badge tone="amber">Sandbox</Badge>}
                  </label>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-2 text-xs text-stone-500">The app sees nothing of the properties you leave unchecked.</p>
        </fieldset>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="submit" name="decision" value="deny" variant="secondary">
            Deny
          </Button>
          <Button type="submit" name="decision" value="approve" disabled={properties.length === 0}>
            Approve
          </Button>
        </div>
        <p className="text-xs text-stone-500">You can revoke this app at any time under Developers → Installed apps.</p>
      </form>
    </ConsentFrame>
  );
}
