"use client";

import { signIn } from "next-auth/react";
import { z } from "zod";
import { Button, Input } from "@/components/ui";
import { Form, FormError, FormField, useZodForm } from "@/components/ui/form";

// Checked by the credentials provider alone: a refusal never says which of the two was wrong.
const signInForm = z.object({ email: z.string(), password: z.string() });
type SignInFields = z.input<typeof signInForm>;

/** E-mail and password against next-auth's credentials provider; no page reload on failure. */
export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const form = useZodForm(signInForm, { defaultValues: { email: "", password: "" } });
  const { isSubmitting, isSubmitSuccessful } = form.formState;

  async function submit({ email, password }: SignInFields) {
    const result = await signIn("credentials", { email, password, redirect: false });
    if (result?.ok && !result.error) {
      // A full page load, not a client-side navigation: the page signed in to (the OAuth consent
      // page, say) must get its own document and Content-Security-Policy, not this page's.
      window.location.assign(callbackUrl);
      return;
    }
    // next-auth passes a refusal's own words (wait, locked) as the error; its codes are one word.
    const refusal = result?.error && /\s/.test(result.error) ? result.error : null;
    form.setError("root.server", { message: result?.error === "CredentialsSignin" ? "Wrong e-mail or password." : (refusal ?? "Sign-in failed. Try again in a moment.") });
  }

  // Signed in: the button stays busy until the next page has loaded.
  const pending = isSubmitting || isSubmitSuccessful;
  return (
    <Form form={form} onSubmit={submit} className="space-y-4">
      <FormError />
      <FormField<SignInFields> name="email" label="E-mail">
        {(control) => <Input {...control} type="email" autoComplete="username" required autoFocus />}
      </FormField>
      <FormField<SignInFields> name="password" label="Password">
        {(control) => <Input {...control} type="password" autoComplete="current-password" required />}
      </FormField>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </Form>
  );
}
