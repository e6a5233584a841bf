import type { ReactNode } from "react";

/** The parts of a JSON Schema (OpenAPI 3.1) the reference shows. */
export type JsonSchema = {
  $ref?: string;
  title?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
  default?: unknown;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  additionalProperties?: boolean | JsonSchema;
};

export const refName = (ref: string) => ref.split("/").pop()!;
export const schemaAnchor = (name: string) => `schema-${name}`;

/** `code` spans in short descriptions written with backticks. */
export function Prose({ text }: { text?: string }): ReactNode {
  if (!text) return null;
  return text.split(/(`[^`]+`)/g).map((part, i) =>
    part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
      <code key={i} className="rounded bg-stone-100 px-1 py-0.5 font-mono text-[0.85em] break-words text-stone-900">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}

/** A short type: `string (date-time)`, `Guest[]`, `"high" | "low" | null`. */
export function TypeLabel({ schema }: { schema: JsonSchema }): ReactNode {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return (
      <a href={`#${schemaAnchor(name)}`} className="font-mono text-teal-800 underline decoration-teal-800/30 underline-offset-2 hover:decoration-teal-800">
        {name}
      </a>
    );
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return join(union.map((s, i) => <TypeLabel key={i} schema={s} />));
  if (schema.enum) return <span className="font-mono break-words">{schema.enum.map((v) => JSON.stringify(v)).join(" | ")}</span>;
  if (schema.const !== undefined) return <span className="font-mono">{JSON.stringify(schema.const)}</span>;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes("array") && schema.items) {
    return (
      <>
        <TypeLabel schema={schema.items} />
        <span className="font-mono">[]</span>
        {types.includes("null") ? <span className="font-mono"> | null</span> : null}
      </>
    );
  }
  const label = types.length ? types.join(" | ") : schema.title ?? "any";
  return <span className="font-mono">{schema.format ? `${label} (${schema.format})` : label}</span>;
}

function join(parts: ReactNode[]): ReactNode {
  return parts.flatMap((p, i) => (i ? [<span key={`sep${i}`} className="font-mono"> | </span>, p] : [p]));
}

function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.example !== undefined && !schema.$ref && typeof schema.example !== "object") out.push(`e.g. ${JSON.stringify(schema.example)}`);
  return out;
}

const objectOf = (schema: JsonSchema) => (schema.properties ? schema : schema.items?.properties ? schema.items : undefined);

type Row = { path: string[]; name: string; schema: JsonSchema; required: boolean };

/** Properties as rows, nested objects (not $refs) flattened under their parent. */
function rows(schema: JsonSchema, path: string[] = []): Row[] {
  const obj = objectOf(schema);
  if (!obj?.properties) return [];
  return Object.entries(obj.properties).flatMap(([name, prop]) => [
    { path, name, schema: prop, required: obj.required?.includes(name) ?? false },
    ...(prop.$ref ? [] : rows(prop, [...path, name])),
  ]);
}

/** One field: its name, type and badges on a line that wraps, its description and constraints beneath. */
export function Field({ name, prefix, type, required, description, note, depth = 0 }: { name: string; prefix?: string; type: ReactNode; required?: boolean; description?: ReactNode; note?: string; depth?: number }) {
  return (
    <li className="py-2" style={depth ? { paddingLeft: `${Math.min(depth, 3) * 0.75}rem` } : undefined}>
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 text-sm">
        <span className="font-mono break-all text-stone-900">
          {prefix ? <span className="text-stone-600">{prefix}</span> : null}
          {name}
        </span>
        <span className="text-stone-700">{type}</span>
        {required ? <span className="text-xs font-medium uppercase text-rose-800">required</span> : null}
      </div>
      {description ? <div className="mt-0.5 text-sm text-stone-700">{description}</div> : null}
      {note ? <div className="text-xs text-stone-600">{note}</div> : null}
    </li>
  );
}

/** A schema as a list of its properties; a bare $ref or scalar as one line. */
export function SchemaTable({ schema }: { schema: JsonSchema }) {
  const list = rows(schema);
  if (!list.length) {
    return (
      <p className="text-sm">
        <TypeLabel schema={schema} />
      </p>
    );
  }
  return (
    <ul className="divide-y divide-stone-100">
      {list.map((row) => (
        <Field
          key={[...row.path, row.name].join(".")}
          name={row.name}
          prefix={row.path.length ? `${row.path.join(".")}.` : undefined}
          depth={row.path.length}
          type={<TypeLabel schema={row.schema} />}
          required={row.required}
          description={row.schema.description ? <Prose text={row.schema.description} /> : undefined}
          note={constraints(row.schema).join(" · ") || undefined}
        />
      ))}
    </ul>
  );
}
