import { isDeepStrictEqual } from "node:util";

/**
 * The fields of `proposed` whose values differ from `current`'s (deeply: arrays, JSON, dates),
 * or null when none does. A PATCH that sends nothing, or only what is already there, changes
 * nothing: no write, no `updated_at`, no event, no audit entry; it answers the object as it is.
 */
export function changesFrom<T extends object>(current: T, proposed: Partial<T>): Partial<T> | null {
  const changes: Partial<T> = {};
  let any = false;
  for (const key of Object.keys(proposed) as (keyof T)[]) {
    if (proposed[key] === undefined || isDeepStrictEqual(proposed[key], current[key])) continue;
    changes[key] = proposed[key];
    any = true;
  }
  return any ? changes : null;
}
