import type { JsonSchema } from "./schema";

// The parts of the OpenAPI document the reference renders.

export type Parameter = { name: string; in: string; required?: boolean; description?: string; schema: JsonSchema; $ref?: string };
export type Content = { content?: Record<string, { schema: JsonSchema; example?: unknown }>; description?: string; headers?: Record<string, { $ref?: string }> };
export type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: Content & { required?: boolean };
  responses: Record<string, Content>;
};
type Flow = { authorizationUrl: string; tokenUrl: string; refreshUrl?: string; scopes: Record<string, string> };
export type OpenApiDoc = {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post: Operation }>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    parameters?: Record<string, Parameter>;
    securitySchemes?: { oauth2?: { description?: string; flows: { authorizationCode: Flow } } };
  };
};
export const jsonOf = (c?: Content) => c?.content?.["application/json"];
