import type { z } from "zod";

type Issue = z.core.$ZodRawIssue;

const kinds: Record<string, string> = {
  number: "a number",
  int: "an integer",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  date: "a date",
  null: "null",
};

const formats: Record<string, string> = {
  email: "an e-mail address",
  url: "a URL",
  datetime: "a date-time in RFC 3339 form, e.g. 2026-01-01T09:30:00Z or 2026-01-01T10:30:00+01:00",
  date: "a date as YYYY-MM-DD",
  uuid: "a UUID",
};

function bound(issue: Extract<Issue, { code: "too_small" | "too_big" }>, word: "least" | "most"): string {
  const limit = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
  const exact = issue.exact ? "exactly" : issue.inclusive === false ? (word === "least" ? "more than" : "less than") : `at ${word}`;
  if (issue.origin === "string") return `must be ${exact} ${limit} character${limit === 1 ? "" : "s"} long`;
  if (issue.origin === "array" || issue.origin === "set") return `must have ${exact} ${limit} item${limit === 1 ? "" : "s"}`;
  return `must be ${exact} ${limit}`;
}

/**
 * The contract's own words for the validator's common faults ("must be an integer", "must be at
 * least 1"), so no message shows the validator's wording (`NaN`, `received`, `Invalid input`).
 * A message a schema sets itself wins over these; undefined keeps the validator's default.
 */
export function plainWords(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${kinds[issue.expected] ?? issue.expected}`;
    case "too_small":
      return bound(issue, "least");
    case "too_big":
      return bound(issue, "most");
    case "invalid_format":
      if (issue.format === "regex" && "pattern" in issue && issue.pattern) return `must match the pattern ${String(issue.pattern)}`;
      return `must be ${formats[issue.format] ?? `in ${issue.format} format`}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map((v) => String(v)).join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return "does not match any of the allowed forms";
    case "invalid_key":
      return "has a key that is not allowed";
    case "invalid_element":
      return "holds a value that is not allowed";
    default:
      return undefined;
  }
}
