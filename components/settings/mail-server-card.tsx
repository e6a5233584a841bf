"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, Input } from "@/components/ui";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { MomentText } from "@/components/ui/property-format";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";

const email = z.string().trim().email("Give an e-mail address, such as desk@yourhotel.com.");
const mailForm = z.object({
  host: z.string().trim().min(1, "Give the mail server's host name, such as smtp.yourhotel.com."),
  port: z
    .string()
    .trim()
    .regex(/^\d{1,5}$/, "Give the port as a number: 587 (most servers), 465 or 25."),
  username: z.string().trim(),
  password: z.string(),
  from_address: email,
  from_name: z.string().trim(),
  reply_to: z.union([z.literal(""), email]),
});
type MailForm = z.input<typeof mailForm>;
const testForm = z.object({ to: email });
type TestForm = z.input<typeof testForm>;

/**
 * The hotel's own mail server (owners): host, port, user and password (kept encrypted, never shown
 * again), the sender's address and name, and where replies go. Guest e-mails and notices go through
 * it; "Send test e-mail" says at once whether the server took a mail, or why not.
 */
export function MailServerCard() {
  const trpc = useTRPC();
  const current = useQuery(trpc.mail.settings.queryOptions());
  return (
    <Card
      title="Mail server"
      actions={current.data ? current.data.settings ? <Badge tone="teal">Set up</Badge> : <Badge tone="amber">Not set up</Badge> : null}
    >
      <p className="mb-4 text-sm text-stone-600">
        Guest e-mails (confirmations, changes, cancellations) and notices go out through this server, from your hotel&apos;s address.
        {current.data && !current.data.settings
          ? current.data.process_server
            ? " Until one is set, they go through the server Innkeep was started with."
            : " Until one is set, every e-mail is held in the outbox."
          : ""}
      </p>
      {current.error ? (
        <ErrorState message={callError(current.error).message} onRetry={() => current.refetch()} />
      ) : !current.data ? (
        <LoadingState rows={3} label="Loading the mail server…" />
      ) : (
        <>
          <MailSettingsForm key={`form-${current.data.settings?.updated_at ?? "none"}`} saved={current.data.settings} />
          {/* A new save starts the test afresh: its last answer was about the server as it was. */}
          {current.data.settings ? <TestMail key={`test-${current.data.settings.updated_at}`} /> : null}
        </>
      )}
    </Card>
  );
}

type Saved = { host: string; port: number; username: string | null; password_set: boolean; from_address: string; from_name: string | null; reply_to: string | null; updated_at: string } | null;

function MailSettingsForm({ saved }: { saved: Saved }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(mailForm, {
    defaultValues: {
      host: saved?.host ?? "",
      port: String(saved?.port ?? 587),
      username: saved?.username ?? "",
      password: "",
      from_address: saved?.from_address ?? "",
      from_name: saved?.from_name ?? "",
      reply_to: saved?.reply_to ?? "",
    },
  });
  const save = useMutation(
    trpc.mail.saveSettings.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.mail.settings.queryFilter()),
          queryClient.invalidateQueries(trpc.mail.status.queryFilter()),
          queryClient.invalidateQueries(trpc.audit.list.queryFilter()),
        ]);
        toast.success("Mail server saved. The password is stored encrypted and will not be shown again.");
      },
      onError: (error) => showServerError(form, error),
    }),
  );
  return (
    <Form
      form={form}
      aria-label="Mail server settings"
      className="space-y-3"
      onSubmit={(v) =>
        save.mutate({
          host: v.host,
          port: Number(v.port),
          ...(v.username ? { username: v.username } : {}),
          ...(v.password ? { password: v.password } : {}),
          from_address: v.from_address,
          ...(v.from_name ? { from_name: v.from_name } : {}),
          ...(v.reply_to ? { reply_to: v.reply_to } : {}),
        })
      }
    >
      <div className="grid gap-3 md:grid-cols-2">
        <FormField<MailForm> name="host" label="Server (SMTP host)">
          {(control) => <Input {...control} autoComplete="off" spellCheck={false} placeholder="smtp.yourhotel.com" />}
        </FormField>
        <FormField<MailForm> name="port" label="Port" hint="587 for most servers; 465 for TLS from the start.">
          {(control) => <Input {...control} inputMode="numeric" autoComplete="off" />}
        </FormField>
        <FormField<MailForm> name="username" label="User name" hint="Leave empty if the server takes mail without signing in.">
          {(control) => <Input {...control} autoComplete="off" spellCheck={false} />}
        </FormField>
        <FormField<MailForm> name="password" label="Password" hint={saved?.password_set ? "A password is saved: leave empty to keep it." : "Stored encrypted; never shown again."}>
          {(control) => <Input {...control} type="password" autoComplete="new-password" />}
        </FormField>
        <FormField<MailForm> name="from_address" label="Sender's address" hint="Guests see mail from this address.">
          {(control) => <Input {...control} type="email" autoComplete="off" placeholder="reservations@yourhotel.com" />}
        </FormField>
        <FormField<MailForm> name="from_name" label="Sender's name">
          {(control) => <Input {...control} autoComplete="off" placeholder="Harbour Hotel" />}
        </FormField>
        <FormField<MailForm> name="reply_to" label="Replies go to (optional)" hint="The front desk's address, if not the sender's.">
          {(control) => <Input {...control} type="email" autoComplete="off" />}
        </FormField>
      </div>
      <FormError />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save mail server"}
        </Button>
        {saved ? (
          <span className="text-xs text-stone-500">
            Saved <MomentText at={saved.updated_at} />
          </span>
        ) : null}
      </div>
    </Form>
  );
}

function TestMail() {
  const trpc = useTRPC();
  const form = useZodForm(testForm, { defaultValues: { to: "" } });
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const send = useMutation(
    trpc.mail.sendTest.mutationOptions({
      onSuccess: (answer) => setResult(answer.sent ? { ok: true, text: `The test e-mail was sent to ${answer.to}. Check that it arrived.` } : { ok: false, text: answer.reason }),
      onError: (error) => setResult({ ok: false, text: callError(error).message }),
    }),
  );
  return (
    <Form
      form={form}
      aria-label="Send a test e-mail"
      className="mt-4 space-y-3 border-t border-stone-100 pt-4"
      onSubmit={(v) => {
        setResult(null);
        send.mutate({ to: v.to });
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <FormField<TestForm> name="to" label="Send a test to" className="min-w-0 flex-1">
          {(control) => <Input {...control} type="email" autoComplete="email" placeholder="you@yourhotel.com" />}
        </FormField>
        <Button type="submit" variant="secondary" disabled={send.isPending}>
          {send.isPending ? "Sending…" : "Send test e-mail"}
        </Button>
      </div>
      {result ? (
        <p role="status" data-testid="test-mail-result" className={result.ok ? "rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900" : "rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"}>
          {result.text}
        </p>
      ) : null}
    </Form>
  );
}
