"use client";

import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Alert, Button, Field, Input } from "@/components/ui";

/** E-mail and password against next-auth's credentials provider; no page reload on failure. */
export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", { email: String(form.get("email")), password: String(form.get("password")), redirect: false });
    if (result?.ok && !result.error) {
      // A full page load, not a client-side navigation: the page signed in to (the OAuth consent
      // page, say) must get its own document and Content-Security-Policy, not this page's.
      window.location.assign(callbackUrl);
      return;
    }
    setPending(false);
    // next-auth passes a refusal's own words (wait, locked) as the error; its codes are one word.
    const refusal = result?.error && /\s/.test(result.error) ? result.error : null;
    setError(result?.error === "CredentialsSignin" ? "Wrong e-mail or password." : (refusal ?? "Sign-in failed. Try again in a moment."));
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {error ? <Alert>{error}</Alert> : null}
      <Field label="E-mail" htmlFor="email">
        <Input id="email" name="email" type="email" autoComplete="username" required autoFocus />
      </Field>
      <Field label="Password" htmlFor="password">
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
