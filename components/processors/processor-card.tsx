"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import {
  stripeKeyMessage,
  stripeKeyMode,
  stripeKeyPattern,
  stripePublishableKeyMessage,
  stripePublishableKeyPattern,
  stripeWebhookSecretMessage,
  stripeWebhookSecretPattern,
} from "@/lib/stripe-keys";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, Input, Select } from "@/components/ui";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { MomentText } from "@/components/ui/property-format";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";

const everyProperty = "all";
const connectForm = z
  .object({
    property: z.string(),
    secret_key: z.string().trim().regex(stripeKeyPattern, stripeKeyMessage),
    publishable_key: z.union([z.literal(""), z.string().trim().regex(stripePublishableKeyPattern, stripePublishableKeyMessage)]),
    webhook_secret: z.union([z.literal(""), z.string().trim().regex(stripeWebhookSecretPattern, stripeWebhookSecretMessage)]),
  })
  // The server checks it too; said here at the field, before Stripe is asked.
  .refine((v) => !v.publishable_key || !stripeKeyPattern.test(v.secret_key) || stripeKeyMode(v.publishable_key) === stripeKeyMode(v.secret_key), {
    path: ["publishable_key"],
    message: "Give the publishable key of the same mode as the secret key (both test, or both live).",
  });
type ConnectForm = z.input<typeof connectForm>;

/**
 * The hotel's Stripe account (owners): connected for every property or for one, the key checked
 * with Stripe as it is saved and never shown again, only its hint.
 */
export function ProcessorCard() {
  const trpc = useTRPC();
  const processors = useQuery(trpc.processors.list.queryOptions());
  const properties = useQuery(trpc.properties.list.queryOptions());
  const names = new Map((properties.data?.data ?? []).map((p) => [p.id, p.name]));
  const scopeName = (propertyId: string | null) => (propertyId ? (names.get(propertyId) ?? "One property") : "Every property");
  return (
    <Card title="Card payments with Stripe">
      <p className="mb-4 text-sm text-stone-600">
        Cards go from the guest to Stripe; Innkeep keeps only the card&apos;s brand and last four digits. In live mode, card payments need a connected Stripe account.
      </p>
      {processors.error ? (
        <ErrorState message={callError(processors.error).message} onRetry={() => processors.refetch()} />
      ) : !processors.data ? (
        <LoadingState rows={2} label="Loading Stripe accounts…" />
      ) : processors.data.length === 0 ? (
        <EmptyState title="No Stripe account connected">Until one is, live card payments are refused; cash and bank transfers still work.</EmptyState>
      ) : (
        <ul className="divide-y divide-stone-100 rounded-md border border-stone-200" aria-label="Connected Stripe accounts">
          {processors.data.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="min-w-0 space-y-1 text-sm">
                <p className="flex flex-wrap items-center gap-2 font-medium text-stone-900">
                  {scopeName(p.property_id)}
                  <Badge tone={p.mode === "live" ? "teal" : "neutral"}>{p.mode === "live" ? "Live payments" : "Stripe test mode"}</Badge>
                </p>
                <p className="break-all text-stone-600">
                  Key <span className="font-mono">{p.secret_key_hint}</span>
                  {" · "}
                  {p.webhook_secret_hint ? (
                    <>
                      webhook secret <span className="font-mono">{p.webhook_secret_hint}</span>
                    </>
                  ) : (
                    "no webhook secret"
                  )}
                </p>
                <p className="break-all text-stone-600">
                  {p.publishable_key ? (
                    <>
                      Publishable key <span className="font-mono">{p.publishable_key}</span>: the desk takes new cards in Stripe&apos;s card form
                    </>
                  ) : (
                    "No publishable key: the desk cannot take a new card or put one on file until it is added"
                  )}
                </p>
                <p className="text-xs text-stone-500">
                  Connected <MomentText at={p.updated_at} />
                </p>
              </div>
              <RemoveProcessor id={p.id} scope={scopeName(p.property_id)} />
            </li>
          ))}
        </ul>
      )}
      <ConnectProcessor properties={properties.data?.data ?? []} />
    </Card>
  );
}

function ConnectProcessor({ properties }: { properties: { id: string; name: string }[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(connectForm, { defaultValues: { property: everyProperty, secret_key: "", publishable_key: "", webhook_secret: "" } });
  const connect = useMutation(
    trpc.processors.connect.mutationOptions({
      onSuccess: async (connected) => {
        form.reset({ property: everyProperty, secret_key: "", publishable_key: "", webhook_secret: "" });
        await Promise.all([queryClient.invalidateQueries(trpc.processors.list.queryFilter()), queryClient.invalidateQueries(trpc.audit.list.queryFilter())]);
        toast.success(`Stripe connected (${connected.mode === "live" ? "live payments" : "test mode"}). The key is stored encrypted and will not be shown again.`);
      },
      onError: (error) => showServerError(form, error),
    }),
  );
  return (
    <Form
      form={form}
      aria-label="Connect Stripe"
      className="mt-4 space-y-3 border-t border-stone-100 pt-4"
      onSubmit={(v) =>
        connect.mutate({
          type: "stripe",
          secret_key: v.secret_key,
          ...(v.publishable_key ? { publishable_key: v.publishable_key } : {}),
          ...(v.webhook_secret ? { webhook_secret: v.webhook_secret } : {}),
          ...(v.property !== everyProperty ? { property_id: v.property } : {}),
        })
      }
    >
      <div className="grid gap-3 md:grid-cols-2">
        <FormField<ConnectForm> name="secret_key" label="Secret or restricted key" hint="From Stripe's Developers › API keys. Checked with Stripe before it is saved.">
          {(control) => <Input {...control} type="password" autoComplete="off" spellCheck={false} placeholder="rk_live_… or sk_test_…" />}
        </FormField>
        <FormField<ConnectForm> name="publishable_key" label="Publishable key" hint="pk_test_… or pk_live_…, of the same mode: the desk's card form (Stripe.js) starts with it. Public by design.">
          {(control) => <Input {...control} autoComplete="off" spellCheck={false} placeholder="pk_live_… or pk_test_…" />}
        </FormField>
        <FormField<ConnectForm> name="webhook_secret" label="Webhook signing secret (optional)" hint="Of the Stripe webhook endpoint that sends Innkeep its events.">
          {(control) => <Input {...control} type="password" autoComplete="off" spellCheck={false} placeholder="whsec_…" />}
        </FormField>
        <FormField<ConnectForm> name="property" label="Takes payments for">
          {(control) => (
            <Select {...control}>
              <option value={everyProperty}>Every property without its own account</option>
              {properties.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Select>
          )}
        </FormField>
      </div>
      <FormError />
      <Button type="submit" disabled={connect.isPending}>
        {connect.isPending ? "Checking with Stripe…" : "Connect Stripe"}
      </Button>
    </Form>
  );
}

function RemoveProcessor({ id, scope }: { id: string; scope: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation(
    trpc.processors.remove.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await Promise.all([queryClient.invalidateQueries(trpc.processors.list.queryFilter()), queryClient.invalidateQueries(trpc.audit.list.queryFilter())]);
        toast.success("Stripe disconnected; its keys are deleted.");
      },
    }),
  );
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) remove.reset();
      }}
      trigger={<Button variant="secondary">Disconnect…</Button>}
      title={`Disconnect Stripe: ${scope}?`}
      description="Its keys are deleted. Live card payments are refused until another account is connected; payments already taken stay as they are."
      confirmLabel="Disconnect"
      danger
      pending={remove.isPending}
      error={remove.error ? callError(remove.error).message : null}
      onConfirm={() => remove.mutate({ id })}
    />
  );
}
