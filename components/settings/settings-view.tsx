"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { AuditTrail } from "@/components/audit/audit-trail";
import { MomentText } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, Input, PageHeader, Select } from "@/components/ui";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { ProcessorCard } from "@/components/processors/processor-card";
import { MailServerCard } from "./mail-server-card";
import { UsersCard } from "./users-card";

const plans = ["starter", "growth", "scale", "enterprise"] as const;
const planLabel = (p: string) => p.charAt(0).toUpperCase() + p.slice(1);
const count = (n: number | null) => (n === null ? "No cap" : n.toLocaleString("en-US"));

/** The account's settings: developer contact, plan and limits, API usage, and (owners) staff users. */
export function SettingsView({
  canUsers,
  canPlan,
  canProcessor = false,
  canMailServer = false,
  currentUserId,
}: {
  canUsers: boolean;
  canPlan: boolean;
  canProcessor?: boolean;
  canMailServer?: boolean;
  currentUserId: string;
}) {
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.get.queryOptions());
  if (settings.error) return <ErrorState message={callError(settings.error).message} onRetry={() => settings.refetch()} />;
  const account = settings.data;
  return (
    <>
      <PageHeader title="Settings" description={account ? account.name : "Your account."} />
      {!account ? (
        <LoadingState rows={6} label="Loading settings…" />
      ) : (
        <div className="space-y-6">
          <div className="grid gap-6 lg:grid-cols-2">
            <ContactCard key={account.developer_contact ?? ""} contact={account.developer_contact} />
            <PlanCard account={account} canPlan={canPlan} />
          </div>
          <UsageCard />
          {canMailServer ? <MailServerCard /> : null}
          {canProcessor ? <ProcessorCard /> : null}
          {canUsers ? <UsersCard currentUserId={currentUserId} /> : null}
          <AuditTrail objectType="account" objectId={account.id} title="Account history" />
        </div>
      )}
    </>
  );
}

const contactForm = z.object({ email: z.string().trim() });
type ContactForm = z.input<typeof contactForm>;

function ContactCard({ contact }: { contact: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(contactForm, { defaultValues: { email: contact ?? "" } });
  const email = form.watch("email");
  const update = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: async (account) => {
        queryClient.setQueryData(trpc.settings.get.queryKey(), account);
        await queryClient.invalidateQueries(trpc.audit.list.queryFilter());
        toast.success(account.developer_contact ? `Breaker notices now go to ${account.developer_contact}.` : "Developer contact removed: notices stay in the outbox.");
      },
      onError: (e) => showServerError<ContactForm>(form, e, { developer_contact: "email" }),
    }),
  );
  return (
    <Card title="Developer contact">
      <Form form={form} onSubmit={(v) => update.mutate({ developer_contact: v.email || null })} aria-label="Developer contact" className="space-y-3">
        <FormError />
        <FormField<ContactForm> name="email" label="E-mail" hint="When a webhook endpoint's circuit breaker opens, the notice goes here. Empty: notices are only kept in the outbox.">
          {(control) => <Input {...control} type="email" autoComplete="off" />}
        </FormField>
        <Button type="submit" disabled={update.isPending || email.trim() === (contact ?? "")}>
          {update.isPending ? "Saving…" : "Save contact"}
        </Button>
      </Form>
    </Card>
  );
}

type Account = {
  plan: string;
  custom_limits: boolean;
  rate_limits: { per_second: number | null; per_minute: number | null; per_day: number | null };
};

const planForm = z.object({ plan: z.enum(plans) });
type PlanForm = z.input<typeof planForm>;

function PlanCard({ account, canPlan }: { account: Account; canPlan: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(planForm, { defaultValues: { plan: account.plan as PlanForm["plan"] } });
  const plan = form.watch("plan");
  const [confirming, setConfirming] = useState(false);
  const change = useMutation(
    trpc.settings.changePlan.mutationOptions({
      onSuccess: async (updated) => {
        queryClient.setQueryData(trpc.settings.get.queryKey(), updated);
        setConfirming(false);
        await Promise.all([queryClient.invalidateQueries(trpc.audit.list.queryFilter()), queryClient.invalidateQueries(trpc.settings.usage.queryFilter())]);
        toast.success(`The account is on the ${planLabel(updated.plan)} plan.`);
      },
    }),
  );
  return (
    <Card title="Plan and rate limits" actions={<Badge tone="teal">{planLabel(account.plan)}</Badge>}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" aria-label="Rate limits">
        <dt className="text-stone-500">Burst</dt>
        <dd className="tabular-nums">{count(account.rate_limits.per_second)} requests / second</dd>
        <dt className="text-stone-500">Sustained</dt>
        <dd className="tabular-nums">{count(account.rate_limits.per_minute)} requests / minute</dd>
        <dt className="text-stone-500">Daily cap</dt>
        <dd className="tabular-nums">{count(account.rate_limits.per_day)} requests / UTC day</dd>
      </dl>
      <p className="mt-3 text-xs text-stone-500">
        Counted per environment: live and sandbox each have these limits.
        {account.custom_limits ? " This account has limits of its own, which stay when the plan changes." : ""}
      </p>
      {canPlan ? (
        // The plan is chosen here and changed once confirmed.
        <Form form={form} onSubmit={() => setConfirming(true)} className="mt-4 flex flex-wrap items-end gap-2 border-t border-stone-100 pt-4">
          <FormField<PlanForm> name="plan" label="Change plan" className="w-44">
            {(control) => (
              <Select {...control}>
                {plans.map((p) => (
                  <option key={p} value={p}>
                    {planLabel(p)}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          <Button type="submit" variant="secondary" disabled={plan === account.plan}>
            Change plan…
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={(open) => {
              setConfirming(open);
              if (!open) change.reset();
            }}
            title={`Move to the ${planLabel(plan)} plan?`}
            description="The API's rate limits change at once for live and sandbox."
            confirmLabel="Change plan"
            pending={change.isPending}
            error={change.error ? callError(change.error).message : null}
            onConfirm={() => change.mutate({ plan })}
          />
        </Form>
      ) : null}
    </Card>
  );
}

function Meter({ label, used, limit, resetsAt }: { label: string; used: number; limit: number | null; resetsAt: string | null }) {
  const share = limit ? Math.min(1, used / limit) : 0;
  return (
    <div>
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="text-stone-600">{label}</span>
        <span className="tabular-nums text-stone-900" data-testid={`usage-${label.toLowerCase().replace(/\W+/g, "-")}`}>
          {used.toLocaleString("en-US")} / {count(limit)}
        </span>
      </div>
      <div
        className="mt-1.5 h-2 overflow-hidden rounded-full bg-stone-100"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit ?? undefined}
        aria-valuenow={used}
      >
        <div
          className={`h-full rounded-full ${share > 0.9 ? "bg-red-600" : share > 0.7 ? "bg-amber-500" : "bg-teal-600"}`}
          style={{ width: `${share * 100}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-stone-500">
        {resetsAt ? (
          <>
            Resets <MomentText at={resetsAt} />
          </>
        ) : (
          "No requests in this window yet."
        )}
      </p>
    </div>
  );
}

function UsageCard() {
  const trpc = useTRPC();
  // Counters move with every API call: re-read every 10 s while the page is open.
  const usage = useQuery({ ...trpc.settings.usage.queryOptions(), refetchInterval: 10_000, staleTime: 0 });
  return (
    <Card
      title={`API usage${usage.data ? ` · ${usage.data.livemode ? "live" : "sandbox"}` : ""}`}
      actions={
        <Button variant="ghost" onClick={() => usage.refetch()} disabled={usage.isFetching}>
          {usage.isFetching ? "Refreshing…" : "Refresh"}
        </Button>
      }
    >
      {usage.error && !usage.data ? (
        <ErrorState message={callError(usage.error).message} onRetry={() => usage.refetch()} />
      ) : !usage.data ? (
        <LoadingState rows={2} label="Loading usage…" />
      ) : (
        <div className="grid gap-6 md:grid-cols-2" aria-label="API usage">
          <Meter label="This minute" used={usage.data.minute.used} limit={usage.data.minute.limit} resetsAt={usage.data.minute.resets_at} />
          <Meter label="Today (UTC)" used={usage.data.day.used} limit={usage.data.day.limit} resetsAt={usage.data.day.resets_at} />
        </div>
      )}
    </Card>
  );
}
