/**
 * The guest field a refused booking names (`guest.email`, or a group room's `rooms.1.guest.email`),
 * with the message as the desk reads it beside that field: without the field's own name (the
 * label says it) and without the API's words (`guest.email`, `source 'walk_in'`, string lengths).
 * `failure` is the call's error in staff words (components/trpc/errors.ts `callError`).
 */
export function guestFieldError(failure: { message: string; param: string | null } | null, prefix: string): { field: string; message: string } | null {
  if (!failure?.param?.startsWith(prefix)) return null;
  const field = failure.param.slice(prefix.length);
  const message = failure.message
    // The first fault is shown at its field; once it is put right, the next one is.
    .replace(/ (?:One more parameter is|\d+ more parameters are) at fault: see `errors`\.$/, "")
    .replace(/^(?:rooms\.\d+\.)?guest\.email is required; only a walk-in \(source 'walk_in'\) may come without one, where the property allows it\.?$/i, "Required: only a walk-in may come without an e-mail, where the hotel allows it.")
    .replace(/^(?:rooms\.\d+\.)?guest\.email is required: property '[^']*' does not allow walk-ins without an e-mail\.?$/i, "Required: this hotel takes no walk-in without an e-mail.")
    .replace(/^(?:rooms\.\d+\.)?guest\.\w+ is required/i, "Required")
    .replace(/^(?:First name|Last name|Email|Phone)\s+/i, "")
    .replace(/^Too small: expected string to have >=\s?1 characters?\.?$/i, "Required.")
    .replace(/^Too small: expected string to have >=\s?(\d+) characters?\.?$/i, "At least $1 characters.")
    .replace(/^Too big: expected string to have <=\s?(\d+) characters?\.?$/i, "At most $1 characters.")
    .replace(/^Invalid email address/i, "Not an e-mail address");
  return { field, message: message.charAt(0).toUpperCase() + message.slice(1) };
}
