import { isOriginPath } from "@/server/http/openapi-origin";
import { errorCodes } from "@/server/errors";
import { clientGuides, headingsOf } from "./clients";
import { Markdown } from "./markdown";
import { Field, Prose, SchemaTable, TypeLabel, refName, schemaAnchor } from "./schema";
import { DocsSearch, type SearchEntry } from "./search";
import { jsonOf, type OpenApiDoc, type Operation } from "./openapi-doc";
import { Method, OperationCard } from "./operation-card";

/** The documents the page renders beside the generated reference. */
export type Guides = { quickstart: string; conventions: string };

/** Links between the rendered documents: file name → the section that shows it. */
const guideLinks = { "api-conventions.md": "conventions", "quickstart.md": "quickstart" };
const tagAnchor = (tag: string) => `tag-${tag.toLowerCase().replace(/\W+/g, "-")}`;

/** Operations grouped by their first tag, in document order. */
function byTag(doc: OpenApiDoc) {
  const groups = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    // The OAuth endpoints live at the origin (their own `servers`): the OAuth section shows them.
    if (isOriginPath(methods)) continue;
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? "Other";
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, op }]);
    }
  }
  return [...groups];
}

/** The OAuth endpoints, at the server's origin (not under `/v1`), from the document's oauth2 scheme. */
function OAuthEndpoints({ doc, origin }: { doc: OpenApiDoc; origin: string }) {
  const scheme = doc.components?.securitySchemes?.oauth2;
  if (!scheme) return null;
  const flow = scheme.flows.authorizationCode;
  const endpoints = [
    { method: "get", path: flow.authorizationUrl, what: "The consent page: `response_type=code`, `client_id`, `redirect_uri`, `scope`, `state`, `code_challenge` and `code_challenge_method=S256`. Redirects back with `code` and `state`, or `error`." },
    { method: "post", path: flow.tokenUrl, what: "Form-encoded. `grant_type=authorization_code` (`code`, `redirect_uri`, `code_verifier`) or `grant_type=refresh_token` (`refresh_token`, optional narrower `scope`); client credentials by HTTP Basic or in the form. Answers `access_token`, `refresh_token`, `expires_in`, `token_type`, `scope`; errors as RFC 6749 §5.2." },
    { method: "post", path: "/oauth/revoke", what: "Form-encoded `token` (RFC 7009): revokes an access or refresh token (a refresh token takes its access tokens with it)." },
    { method: "get", path: "/.well-known/oauth-authorization-server", what: "Authorization server metadata (RFC 8414), which OAuth libraries read to find the endpoints above." },
  ];
  return (
    <section id="oauth-endpoints" className="scroll-mt-20 space-y-3">
      <h2 className="text-lg font-semibold">OAuth endpoints</h2>
      <div className="text-sm">
        <Markdown source={scheme.description ?? ""} />
      </div>
      <ul className="space-y-3">
        {endpoints.map((e) => (
          <li key={e.path} className="rounded-lg border border-stone-200 bg-white px-4 py-3 shadow-sm">
            <div className="flex flex-wrap items-center gap-2">
              <Method method={e.method} />
              <code className="font-mono text-sm break-all text-stone-900">
                {origin}
                {e.path}
              </code>
            </div>
            <p className="mt-1 text-sm text-stone-700">
              <Prose text={e.what} />
            </p>
          </li>
        ))}
      </ul>
      <h3 className="pt-2 font-semibold">Scopes</h3>
      <ul className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white px-4">
        {Object.entries(flow.scopes).map(([scope, words]) => (
          <Field key={scope} name={scope} type={null} description={words} />
        ))}
      </ul>
    </section>
  );
}

/** The document's webhooks: what each event's `data.object` is. */
function WebhookEvents({ doc }: { doc: OpenApiDoc }) {
  const schemas = doc.components?.schemas ?? {};
  return (
    <section id="webhook-events" className="scroll-mt-20 space-y-3">
      <h2 className="text-lg font-semibold">Webhook events</h2>
      <p className="text-sm text-stone-700">
        Each delivery is a signed <code className="font-mono">POST</code> of the event envelope to your endpoint (see{" "}
        <a href="#conventions-7-webhooks" className="text-teal-800 underline">Webhooks</a> for the signature and how to verify it). Its{" "}
        <code className="font-mono">data.object</code> is, by <code className="font-mono">type</code>:
      </p>
      <ul className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white px-4 shadow-sm">
        {Object.entries(doc.webhooks ?? {}).map(([type, item]) => {
          const envelope = jsonOf(item.post.requestBody)?.schema;
          const object = envelope?.$ref ? schemas[refName(envelope.$ref)]?.properties?.data?.properties?.object : undefined;
          return (
            <li key={type} id={`event-${type}`} className="scroll-mt-20 py-3">
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <code className="font-mono text-sm font-semibold text-stone-900">{type}</code>
                {object ? <span className="text-sm text-stone-700"><TypeLabel schema={object} /></span> : null}
                {envelope?.$ref ? <a href={`#${schemaAnchor(refName(envelope.$ref))}`} className="text-xs text-teal-800 underline">envelope</a> : null}
              </div>
              <div className="text-sm [&_p]:my-1">
                <Markdown source={item.post.description ?? ""} />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Every code of the one error table, grouped by status. */
function ErrorTable() {
  const entries = Object.entries(errorCodes).sort(([, a], [, b]) => a.status - b.status);
  return (
    <div tabIndex={0} role="region" aria-label="Error codes" className="overflow-x-auto rounded-lg border border-stone-200 bg-white px-4 py-2 shadow-sm focus:outline-2 focus:outline-teal-700">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-stone-200 text-xs uppercase tracking-wide text-stone-600">
          <tr>
            <th className="py-2 pr-4 font-medium">Status</th>
            <th className="py-2 pr-4 font-medium">Type</th>
            <th className="py-2 font-medium">Code</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {entries.map(([code, { status, type }]) => (
            <tr key={code}>
              <td className="py-1.5 pr-4 font-mono text-stone-800">{code === "parameter_invalid" ? "422 / 400" : status}</td>
              <td className="py-1.5 pr-4 font-mono text-stone-700">{type}</td>
              <td className="py-1.5 font-mono text-stone-900">{code}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The API reference: the guides, then every operation, event and schema of the generated OpenAPI document. */
export function ApiReference({ doc, origin, guides }: { doc: OpenApiDoc; origin: string; guides: Guides }) {
  const base = doc.servers?.[0]?.url ?? "";
  const groups = byTag(doc);
  const schemas = Object.entries(doc.components?.schemas ?? {});
  const conventions = headingsOf(guides.conventions, "conventions-");
  const entries: SearchEntry[] = [
    ...groups.flatMap(([tag, ops]) => ops.map(({ method, path, op }) => ({ href: `#${op.operationId}`, title: op.summary ?? op.operationId, detail: `${method.toUpperCase()} ${base}${path} ${op.operationId}`, group: tag }))),
    ...Object.keys(doc.webhooks ?? {}).map((type) => ({ href: `#event-${type}`, title: type, detail: "webhook event", group: "Events" })),
    ...conventions.map((c) => ({ href: c.href, title: c.title, detail: "conventions", group: "Guide" })),
    { href: "#quickstart", title: "Quickstart: OAuth with openid-client or oauth4webapi", detail: "integrators", group: "Guide" },
    { href: "#oauth-endpoints", title: "OAuth endpoints", detail: "/oauth/authorize /oauth/token /oauth/revoke", group: "Guide" },
    ...clientGuides.map((c) => ({ href: `/docs/clients/${c.slug}`, title: `${c.language} client`, detail: `${c.name} client library`, group: "Clients" })),
    ...schemas.map(([name]) => ({ href: `#${schemaAnchor(name)}`, title: name, detail: "schema", group: "Schemas" })),
  ];
  const contents = (
    <>
      <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-stone-600">Guide</p>
      <a href="#overview" className="block py-1 text-stone-700 hover:text-stone-950">Overview</a>
      <a href="#quickstart" className="block py-1 text-stone-700 hover:text-stone-950">Quickstart</a>
      {conventions.map((c) => (
        <a key={c.href} href={c.href} className="block truncate py-1 text-stone-700 hover:text-stone-950">{c.title}</a>
      ))}
      <a href="#oauth-endpoints" className="block py-1 text-stone-700 hover:text-stone-950">OAuth endpoints</a>
      <a href="#webhook-events" className="block py-1 text-stone-700 hover:text-stone-950">Webhook events</a>
      <p className="mt-4 mb-1 text-xs font-semibold uppercase tracking-wide text-stone-600">Client libraries</p>
      {clientGuides.map((c) => (
        <a key={c.slug} href={`/docs/clients/${c.slug}`} className="block py-1 text-stone-700 hover:text-stone-950">{c.language}</a>
      ))}
      {groups.map(([tag, ops]) => (
        <div key={tag} className="mt-4">
          <a href={`#${tagAnchor(tag)}`} className="block py-1 text-xs font-semibold uppercase tracking-wide text-stone-600">{tag}</a>
          {ops.map(({ op }) => (
            <a key={op.operationId} href={`#${op.operationId}`} className="block truncate py-0.5 pl-2 text-stone-700 hover:text-stone-950">
              {op.summary ?? op.operationId}
            </a>
          ))}
        </div>
      ))}
      <a href="#errors" className="mt-4 block py-1 text-xs font-semibold uppercase tracking-wide text-stone-600">Errors</a>
      <a href="#schemas" className="block py-1 text-xs font-semibold uppercase tracking-wide text-stone-600">Schemas</a>
    </>
  );
  return (
    <div className="mx-auto flex max-w-7xl gap-10 px-4 py-6 sm:px-6 sm:py-8">
      <nav aria-label="Reference" className="sticky top-6 hidden max-h-[calc(100vh-3rem)] w-60 shrink-0 self-start overflow-y-auto text-sm lg:block">
        <div className="mb-4">
          <DocsSearch entries={entries} />
        </div>
        {contents}
      </nav>
      <main className="min-w-0 flex-1 space-y-12">
        <div className="space-y-3 lg:hidden">
          <DocsSearch entries={entries} />
          <details className="rounded-md border border-stone-200 bg-white px-3 py-2 text-sm">
            <summary className="cursor-pointer font-medium text-stone-800">Contents</summary>
            <nav aria-label="Contents" className="mt-2 max-h-96 overflow-y-auto">{contents}</nav>
          </details>
        </div>
        <section id="overview" className="scroll-mt-20 space-y-3">
          <h1 className="text-2xl font-semibold tracking-tight">{doc.info.title}</h1>
          <div className="text-sm">
            <Markdown source={doc.info.description ?? ""} />
          </div>
          <dl className="grid max-w-2xl grid-cols-1 gap-y-1 text-sm sm:grid-cols-[10rem_1fr] sm:gap-y-2">
            <dt className="text-stone-600">Base URL</dt>
            <dd className="font-mono break-all">{origin}{base}</dd>
            <dt className="text-stone-600">Latest version</dt>
            <dd className="font-mono">{doc.info.version}</dd>
            <dt className="text-stone-600">Authentication</dt>
            <dd><code className="font-mono">Authorization: Bearer hk_…</code> (API key) or an OAuth access token (<code className="font-mono">hat_…</code>)</dd>
            <dt className="text-stone-600">Environment</dt>
            <dd><code className="font-mono">Service-Environment: live | sandbox</code> (absent: live)</dd>
            <dt className="text-stone-600">Version pin</dt>
            <dd><code className="font-mono">Service-Version: YYYY-MM-DD</code></dd>
            <dt className="text-stone-600">Retries</dt>
            <dd><code className="font-mono">Idempotency-Key: &lt;unique&gt;</code> on every POST</dd>
            <dt className="text-stone-600">Machine-readable</dt>
            <dd>
              <a href="/v1/openapi.json" className="text-teal-800 underline">/v1/openapi.json</a> (OpenAPI 3.1)
            </dd>
          </dl>
        </section>
        <section id="quickstart" className="scroll-mt-20">
          <Markdown source={guides.quickstart} idPrefix="quickstart-" links={guideLinks} />
        </section>
        <section id="conventions" className="scroll-mt-20">
          <Markdown source={guides.conventions} idPrefix="conventions-" links={guideLinks} />
        </section>
        <OAuthEndpoints doc={doc} origin={origin} />
        <WebhookEvents doc={doc} />
        {groups.map(([tag, ops]) => (
          <section key={tag} id={tagAnchor(tag)} className="scroll-mt-20 space-y-4">
            <h2 className="text-lg font-semibold">{tag}</h2>
            {ops.map(({ method, path, op }) => (
              <OperationCard key={op.operationId} method={method} path={path} op={op} doc={doc} origin={origin} />
            ))}
          </section>
        ))}
        <section id="errors" className="scroll-mt-20 space-y-3">
          <h2 className="text-lg font-semibold">Errors</h2>
          <p className="text-sm text-stone-700">
            Every error answers <code className="font-mono">{"{ \"error\": { type, code, message, param?, request_id } }"}</code>; <code className="font-mono">param</code> is the
            dotted path of the field at fault. <code className="font-mono">parameter_invalid</code> is 400 for headers and query parameters, 422 in a body. Each operation lists the codes it can answer.
          </p>
          <ErrorTable />
        </section>
        <section id="schemas" className="scroll-mt-20 space-y-4">
          <h2 className="text-lg font-semibold">Schemas</h2>
          {schemas.map(([name, schema]) => (
            <article key={name} id={schemaAnchor(name)} className="scroll-mt-20 rounded-lg border border-stone-200 bg-white px-4 py-3 shadow-sm sm:px-5">
              <h3 className="mb-1 font-mono text-sm font-semibold break-all">{name}</h3>
              {schema.description ? <p className="mb-2 text-sm text-stone-700"><Prose text={schema.description} /></p> : null}
              {schema.oneOf ? (
                <p className="text-sm text-stone-700">
                  One of: <TypeLabel schema={schema} />
                </p>
              ) : (
                <SchemaTable schema={schema} />
              )}
            </article>
          ))}
        </section>
      </main>
    </div>
  );
}
