import { errorCodes } from "@/server/errors";
import { Prose, SchemaTable, TypeLabel, refName, schemaAnchor, type JsonSchema } from "./schema";

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema: JsonSchema };
type Content = { content?: Record<string, { schema: JsonSchema }>; description?: string };
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: Content & { required?: boolean };
  responses: Record<string, Content>;
};
export type OpenApiDoc = {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

const methodTone: Record<string, string> = {
  get: "bg-sky-50 text-sky-800 ring-sky-600/20",
  post: "bg-teal-50 text-teal-800 ring-teal-600/20",
  put: "bg-amber-50 text-amber-800 ring-amber-600/20",
  patch: "bg-violet-50 text-violet-800 ring-violet-600/20",
  delete: "bg-rose-50 text-rose-800 ring-rose-600/20",
};

const jsonSchemaOf = (c?: Content) => c?.content?.["application/json"]?.schema;

/** Operations grouped by their first tag, in document order. */
function byTag(doc: OpenApiDoc) {
  const groups = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? "Other";
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, op }]);
    }
  }
  return [...groups];
}

function Method({ method }: { method: string }) {
  return (
    <span className={`inline-block w-16 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold uppercase ring-1 ${methodTone[method] ?? "bg-stone-100 text-stone-700 ring-stone-300"}`}>
      {method}
    </span>
  );
}

/** A body or response schema: a named schema is linked and its properties shown in place. */
function BodySchema({ schema, schemas }: { schema: JsonSchema; schemas: Record<string, JsonSchema> }) {
  const resolved = schema.$ref ? schemas[refName(schema.$ref)] : schema;
  return (
    <>
      {schema.$ref ? (
        <p className="mb-1 text-sm">
          <TypeLabel schema={schema} />
        </p>
      ) : null}
      {resolved ? <SchemaTable schema={resolved} /> : null}
    </>
  );
}

function OperationCard({ method, path, op, base, schemas }: { method: string; path: string; op: Operation; base: string; schemas: Record<string, JsonSchema> }) {
  const body = jsonSchemaOf(op.requestBody);
  const [success, ...errors] = Object.entries(op.responses);
  const params = op.parameters ?? [];
  return (
    <article id={op.operationId} className="scroll-mt-6 rounded-lg border border-stone-200 bg-white shadow-sm">
      <header className="border-b border-stone-100 px-5 py-3">
        <div className="flex flex-wrap items-center gap-3">
          <Method method={method} />
          <code className="font-mono text-sm text-stone-900">
            {base}
            {path}
          </code>
        </div>
        <h3 className="mt-2 text-sm font-semibold text-stone-800">{op.summary}</h3>
        {op.description ? (
          <p className="mt-0.5 text-sm text-stone-600">
            <Prose text={op.description} />
          </p>
        ) : null}
      </header>
      <div className="space-y-5 px-5 py-4">
        {params.length ? (
          <section>
            <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-stone-500">Parameters</h4>
            <table className="w-full text-left text-sm">
              <tbody className="divide-y divide-stone-100">
                {params.map((p) => (
                  <tr key={`${p.in}:${p.name}`} className="align-top">
                    <td className="w-56 py-2 pr-4">
                      <span className="font-mono text-stone-900">{p.name}</span>
                      {p.required ? <span className="ml-1.5 text-[0.7rem] font-medium uppercase text-rose-700">required</span> : null}
                    </td>
                    <td className="w-20 py-2 pr-4 text-xs text-stone-500">{p.in}</td>
                    <td className="py-2 pr-4 text-stone-700">
                      <TypeLabel schema={p.schema} />
                    </td>
                    <td className="py-2 text-stone-600">
                      <Prose text={p.description} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ) : null}
        {body ? (
          <section>
            <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-stone-500">Request body (application/json)</h4>
            <BodySchema schema={body} schemas={schemas} />
          </section>
        ) : null}
        {success ? (
          <section>
            <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-stone-500">Response {success[0]}</h4>
            {jsonSchemaOf(success[1]) ? <BodySchema schema={jsonSchemaOf(success[1])!} schemas={schemas} /> : <p className="text-sm text-stone-600">{success[1].description}</p>}
          </section>
        ) : null}
        {errors.length ? (
          <details className="text-sm">
            <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-stone-500">
              Errors <span className="font-normal normal-case tracking-normal">({errors.map(([status]) => status).join(", ")})</span>
            </summary>
            <ul className="mt-2 space-y-1 text-stone-600">
              {errors.map(([status, response]) => (
                <li key={status}>
                  <span className="mr-2 font-mono text-stone-800">{status}</span>
                  <Prose text={response.description} />
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xs text-stone-500">
              Each with the <a href="#errors" className="text-teal-800 hover:underline">error object</a>.
            </p>
          </details>
        ) : null}
      </div>
    </article>
  );
}

/** Every code of the one error table, grouped by status. */
function ErrorTable() {
  const entries = Object.entries(errorCodes).sort(([, a], [, b]) => a.status - b.status);
  return (
    <table className="w-full text-left text-sm">
      <thead className="border-b border-stone-200 text-xs uppercase tracking-wide text-stone-500">
        <tr>
          <th className="py-2 pr-4 font-medium">Status</th>
          <th className="py-2 pr-4 font-medium">Type</th>
          <th className="py-2 font-medium">Code</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-stone-100">
        {entries.map(([code, { status, type }]) => (
          <tr key={code}>
            <td className="py-1.5 pr-4 font-mono text-stone-700">{code === "parameter_invalid" ? "422 / 400" : status}</td>
            <td className="py-1.5 pr-4 font-mono text-stone-600">{type}</td>
            <td className="py-1.5 font-mono text-stone-900">{code}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The API reference, rendered from the generated OpenAPI document. */
export function ApiReference({ doc }: { doc: OpenApiDoc }) {
  const base = doc.servers?.[0]?.url ?? "";
  const groups = byTag(doc);
  const components = doc.components?.schemas ?? {};
  const schemas = Object.entries(components);
  return (
    <div className="mx-auto flex max-w-7xl gap-10 px-6 py-8">
      <nav aria-label="Reference" className="sticky top-6 hidden max-h-[calc(100vh-3rem)] w-56 shrink-0 self-start overflow-y-auto text-sm lg:block">
        <a href="#overview" className="block py-1 text-stone-600 hover:text-stone-900">Overview</a>
        {groups.map(([tag, ops]) => (
          <div key={tag} className="mt-4">
            <a href={`#tag-${tag}`} className="block py-1 text-xs font-semibold uppercase tracking-wide text-stone-500">{tag}</a>
            {ops.map(({ op }) => (
              <a key={op.operationId} href={`#${op.operationId}`} className="block truncate py-0.5 pl-2 text-stone-600 hover:text-stone-900">
                {op.summary ?? op.operationId}
              </a>
            ))}
          </div>
        ))}
        <a href="#errors" className="mt-4 block py-1 text-xs font-semibold uppercase tracking-wide text-stone-500">Errors</a>
        <a href="#schemas" className="block py-1 text-xs font-semibold uppercase tracking-wide text-stone-500">Schemas</a>
      </nav>
      <div className="min-w-0 flex-1 space-y-12">
        <section id="overview" className="space-y-3">
          <h1 className="text-2xl font-semibold tracking-tight">{doc.info.title}</h1>
          <p className="text-stone-600">{doc.info.description}</p>
          <dl className="grid max-w-2xl grid-cols-[10rem_1fr] gap-y-2 text-sm">
            <dt className="text-stone-500">Base URL</dt>
            <dd className="font-mono">{base}</dd>
            <dt className="text-stone-500">Latest version</dt>
            <dd className="font-mono">{doc.info.version}</dd>
            <dt className="text-stone-500">Authentication</dt>
            <dd><code className="font-mono">Authorization: Bearer hk_…</code> (API key) or an OAuth access token</dd>
            <dt className="text-stone-500">Environment</dt>
            <dd><code className="font-mono">Service-Environment: live | sandbox</code> (absent: live)</dd>
            <dt className="text-stone-500">Version pin</dt>
            <dd><code className="font-mono">Service-Version: YYYY-MM-DD</code></dd>
            <dt className="text-stone-500">Machine-readable</dt>
            <dd>
              <a href="/v1/openapi.json" className="text-teal-800 hover:underline">/v1/openapi.json</a> (OpenAPI 3.1)
            </dd>
          </dl>
        </section>
        {groups.map(([tag, ops]) => (
          <section key={tag} id={`tag-${tag}`} className="scroll-mt-6 space-y-4">
            <h2 className="text-lg font-semibold">{tag}</h2>
            {ops.map(({ method, path, op }) => (
              <OperationCard key={op.operationId} method={method} path={path} op={op} base={base} schemas={components} />
            ))}
          </section>
        ))}
        <section id="errors" className="scroll-mt-6 space-y-3">
          <h2 className="text-lg font-semibold">Errors</h2>
          <p className="text-sm text-stone-600">
            Every error answers <code className="font-mono">{"{ \"error\": { type, code, message, param?, request_id } }"}</code>; <code className="font-mono">param</code> is the
            dotted path of the field at fault. <code className="font-mono">parameter_invalid</code> is 400 for headers and query parameters, 422 in a body.
          </p>
          <div className="rounded-lg border border-stone-200 bg-white px-5 py-3 shadow-sm">
            <ErrorTable />
          </div>
        </section>
        <section id="schemas" className="scroll-mt-6 space-y-4">
          <h2 className="text-lg font-semibold">Schemas</h2>
          {schemas.map(([name, schema]) => (
            <article key={name} id={schemaAnchor(name)} className="scroll-mt-6 rounded-lg border border-stone-200 bg-white px-5 py-3 shadow-sm">
              <h3 className="mb-1 font-mono text-sm font-semibold">{name}</h3>
              {schema.description ? <p className="mb-2 text-sm text-stone-600"><Prose text={schema.description} /></p> : null}
              <SchemaTable schema={schema} />
            </article>
          ))}
        </section>
      </div>
    </div>
  );
}
