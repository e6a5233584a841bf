import { PDFParse } from "pdf-parse";
import { expect } from "vitest";
import type { Harness } from "./harness";
import type { Caller } from "./hotel";

/** A PDF of the API (an invoice's, a credit note's) as bytes, checked to be one: 200, application/pdf. */
export async function pdfBytes(h: Harness, path: string, caller: Caller): Promise<Uint8Array> {
  const res = await fetch(`${h.baseUrl}${path}`, { headers: { authorization: `Bearer ${caller.token}`, ...(caller.sandbox ? { "service-environment": "sandbox" } : {}) } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  return new Uint8Array(await res.arrayBuffer());
}

/** The text a PDF's pages show, as pdf-parse reads it (the bytes are copied: the parser takes them over). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: bytes.slice() });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
