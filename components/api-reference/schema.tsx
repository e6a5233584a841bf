import type { ReactNode } from "react";

/** The parts of a JSON Schema (OpenAPI 3.1) the reference shows. */
export type JsonSchema = {
  $ref?: string;
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

/** `code` spans in descriptions written with backticks. */
export function Prose({ text }: { text?: string }): ReactNode {
  if (!text) return null;
  return text.split(/(`[^`]+`)/g).map((part, i) =>
    part.startsWith("`") && part.endsWith("`") ? (
      <code key={i} className="rounded bg-stone-100 px-1 py-0.5 font-mono text-[0.8em] text-stone-800">
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
      <a href={`#${schemaAnchor(name)}`} className="font-mono text-teal-800 hover:underline">
        {name}
      </a>
    );
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return join(union.map((s, i) => <TypeLabel key={i} schema={s} />));
  if (schema.enum) return <span className="font-mono">{schema.enum.map((v) => JSON.stringify(v)).join(" | ")}</span>;
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
  const label = types.length ? types.join(" | ") : "any";
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
  if (schema.example !== undefined && !schema.$ref) out.push(`e.g. ${JSON.stringify(schema.example)}`);
  return out;
}

const objectOf = (schema: JsonSchema) => (schema.properties ? schema : schema.items?.properties ? schema.items : undefined);

type Row = { path: string[]; name: string; schema: JsonSchema; required: boolean };

/** Properties as rows, nested objects (not $refs) flattened under their parent with indentation. */
function rows(schema: JsonSchema, path: string[] = []): Row[] {
  const obj = objectOf(schema);
  if (!obj?.properties) return [];
  return Object.entries(obj.properties).flatMap(([name, prop]) => [
    { path, name, schema: prop, required: obj.required?.includes(name) ?? false },
    ...(prop.$ref ? [] : rows(prop, [...path, name])),
  ]);
}

/** A schema as a table of its properties; a bare $ref or scalar as one line. */
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
    <table className="w-full text-left text-sm">
      <tbody className="divide-y divide-stone-100">
        {list.map((row) => (
          <tr key={[...row.path, row.name].join(".")} className="align-top">
            <td className="w-56 py-2 pr-4" style={{ paddingLeft: `${row.path.length * 1.25}rem` }}>
              <span className="font-mono text-stone-900">{row.path.length ? <span className="text-stone-400">{row.path.join(".")}.</span> : null}{row.name}</span>
              {row.required ? <span className="ml-1.5 text-[0.7rem] font-medium uppercase text-rose-700">required</span> : null}
            </td>
            <td className="py-2 pr-4 text-stone-700">
              <TypeLabel schema={row.schema} />
            </td>
            <td className="py-2 text-stone-600">
              <Prose text={row.schema.description} />
              {constraints(row.schema).length ? <span className="block text-xs text-stone-400">{constraints(row.schema).join(" · ")}</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
