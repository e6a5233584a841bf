import type { ReactNode } from "react";
import { clientExample, curlExample, resolveParameter } from "./examples";
import { Markdown } from "./markdown";
import { Field, Prose, SchemaTable, TypeLabel, refName, type JsonSchema } from "./schema";
import { jsonOf, type Content, type OpenApiDoc, type Operation, type Parameter } from "./openapi-doc";

// One operation of the reference: its method and path, parameters, body, responses and examples.

const methodTone: Record<string, string> = {
  get: "bg-sky-50 text-sky-900 ring-sky-700/30",
  post: "bg-teal-50 text-teal-900 ring-teal-700/30",
  put: "bg-amber-50 text-amber-900 ring-amber-700/30",
  patch: "bg-violet-50 text-violet-900 ring-violet-700/30",
  delete: "bg-rose-50 text-rose-900 ring-rose-700/30",
};

export function Method({ method }: { method: string }) {
  return (
    <span className={`inline-block min-w-14 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold uppercase ring-1 ${methodTone[method] ?? "bg-stone-100 text-stone-800 ring-stone-400"}`}>
      {method}
    </span>
  );
}

function Heading({ children }: { children: ReactNode }) {
  return <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-stone-600">{children}</h4>;
}

/** A code sample that scrolls inside itself on a narrow screen (focusable, so keyboards can scroll it). */
function Code({ label, children }: { label: string; children: string }) {
  return (
    <div>
      <p className="mb-1 text-xs font-medium text-stone-600">{label}</p>
      <pre tabIndex={0} aria-label={label} className="overflow-x-auto rounded-md bg-stone-900 p-3 font-mono text-[0.78rem] leading-relaxed text-stone-100 focus:outline-2 focus:outline-teal-700">
        <code>{children}</code>
      </pre>
    </div>
  );
}

/** A body or response schema: a named schema is linked and its properties shown in place. */
function BodySchema({ schema, schemas }: { schema: JsonSchema; schemas: Record<string, JsonSchema> }) {
  const resolved = schema.$ref ? schemas[refName(schema.$ref)] : schema;
  return (
    <>
      {schema.$ref || schema.title ? (
        <p className="mb-1 text-sm">
          <TypeLabel schema={schema.$ref ? schema : { type: "object", title: schema.title }} />
        </p>
      ) : null}
      {resolved ? <SchemaTable schema={resolved} /> : null}
    </>
  );
}

/**
 * What an operation answers. A named schema is linked, not spelled out again: most operations of a
 * resource answer the same object, whose fields the Schemas section lists once (as Stripe's
 * reference says "Returns the customer object"); an answer of the operation's own is shown in place.
 */
function ResponseBody({ response, schemas }: { response: Content; schemas: Record<string, JsonSchema> }) {
  const schema = jsonOf(response)?.schema;
  if (!schema) return <p className="text-sm text-stone-700">{response.description}</p>;
  if (!schema.$ref) return <BodySchema schema={schema} schemas={schemas} />;
  const description = schemas[refName(schema.$ref)]?.description;
  return (
    <div className="text-sm text-stone-700">
      <p>
        Returns <TypeLabel schema={schema} />, whose fields are listed under Schemas.
      </p>
      {description ? <p className="mt-1"><Prose text={description} /></p> : null}
    </div>
  );
}

export function OperationCard({ method, path, op, doc, origin }: { method: string; path: string; op: Operation; doc: OpenApiDoc; origin: string }) {
  const schemas = doc.components?.schemas ?? {};
  const base = doc.servers?.[0]?.url ?? "";
  const body = jsonOf(op.requestBody)?.schema;
  const [success, ...errors] = Object.entries(op.responses);
  const params = (op.parameters ?? []).map((p) => resolveParameter(doc, p) as Parameter);
  const scope = op.security?.[0] ? Object.values(op.security[0])[0]?.[0] : undefined;
  const client = clientExample(doc, { ...op, operationId: op.operationId }, origin);
  return (
    <article id={op.operationId} className="scroll-mt-20 rounded-lg border border-stone-200 bg-white shadow-sm">
      <header className="border-b border-stone-100 px-4 py-3 sm:px-5">
        <div className="flex flex-wrap items-center gap-2">
          <Method method={method} />
          <code className="font-mono text-sm break-all text-stone-900">
            {base}
            {path}
          </code>
        </div>
        <h3 className="mt-2 font-semibold text-stone-900">{op.summary}</h3>
        {op.description ? <div className="text-sm [&_p]:my-1">{<Markdown source={op.description} />}</div> : null}
        <p className="mt-1 text-xs text-stone-600">
          {path === "/openapi.json" ? "Public: no credential." : scope ? <>Scope <code className="font-mono text-stone-900">{scope}</code> (API key or OAuth token)</> : "Any valid credential."}
        </p>
      </header>
      <div className="space-y-5 px-4 py-4 sm:px-5">
        {params.length ? (
          <section>
            <Heading>Parameters</Heading>
            <ul className="divide-y divide-stone-100">
              {params.map((p) => (
                <Field
                  key={`${p.in}:${p.name}`}
                  name={p.name}
                  type={
                    <>
                      <span className="mr-2 text-xs text-stone-600">{p.in}</span>
                      <TypeLabel schema={p.schema} />
                    </>
                  }
                  required={p.required}
                  description={p.description ? <Prose text={p.description} /> : undefined}
                />
              ))}
            </ul>
          </section>
        ) : null}
        {body ? (
          <section>
            <Heading>Request body (application/json)</Heading>
            <BodySchema schema={body} schemas={schemas} />
          </section>
        ) : null}
        {success ? (
          <section>
            <Heading>Response {success[0]}</Heading>
            <ResponseBody response={success[1]} schemas={schemas} />
            {success[1].headers ? (
              <p className="mt-2 text-xs text-stone-600">
                Headers: {Object.keys(success[1].headers).map((h, i) => <span key={h}>{i ? ", " : ""}<code className="font-mono text-stone-800">{h}</code></span>)}
              </p>
            ) : null}
          </section>
        ) : null}
        {path !== "/openapi.json" ? (
          <section className="space-y-3">
            <Heading>Example request</Heading>
            <Code label="curl">{curlExample(doc, method, path, op, origin)}</Code>
            {client ? <Code label="TypeScript (@innkeep/node)">{client}</Code> : null}
          </section>
        ) : null}
        {errors.length ? (
          <details className="text-sm">
            <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-stone-600">
              Errors <span className="font-normal normal-case tracking-normal">({errors.map(([status]) => status).join(", ")})</span>
            </summary>
            <ul className="mt-2 space-y-1 text-stone-700">
              {errors.map(([status, response]) => (
                <li key={status}>
                  <span className="mr-2 font-mono text-stone-900">{status}</span>
                  <Prose text={response.description} />
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xs text-stone-600">
              Each with the <a href="#errors" className="text-teal-800 underline">error object</a>.
            </p>
          </details>
        ) : null}
      </div>
    </article>
  );
}
