"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { usePropertyFormat } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Card, Select } from "@/components/ui";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Form, FormField, useZodForm } from "@/components/ui/form";
import { toast } from "@/components/ui/toaster";
import { CopyButton, When } from "./common";

const overlaps = [
  { seconds: 0, label: "Retire the old secret now" },
  { seconds: 3_600, label: "1 hour" },
  { seconds: 86_400, label: "24 hours (default)" },
  { seconds: 3 * 86_400, label: "3 days" },
  { seconds: 7 * 86_400, label: "7 days" },
];

const rotateForm = z.object({ expires_in_seconds: z.number().int().min(0) });
type RotateForm = z.infer<typeof rotateForm>;

type Secret = { secret: string; created_at: string; expires_at: string | null };

/** The signing secret: hidden until revealed (each reveal is audited), copy, and rotation with an overlap window. */
export function SecretCard({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const queryClient = useQueryClient();
  const [secrets, setSecrets] = useState<Secret[] | null>(null);
  const [rotating, setRotating] = useState(false);
  const form = useZodForm(rotateForm, { defaultValues: { expires_in_seconds: 86_400 } });
  const reveal = useMutation(
    trpc.developers.webhooks.revealSecret.mutationOptions({
      onSuccess: async (s) => {
        setSecrets(s);
        await queryClient.invalidateQueries(trpc.audit.list.queryFilter());
      },
    }),
  );
  const rotate = useMutation(
    trpc.developers.webhooks.rotateSecret.mutationOptions({
      onSuccess: async (r, { expires_in_seconds }) => {
        setRotating(false);
        toast.success(
          expires_in_seconds
            ? `New secret issued. The old one stays valid until ${fmt.moment(r.previous_secrets_expire_at)}.`
            : "New secret issued; the old one no longer signs.",
        );
        reveal.mutate({ id: endpointId });
      },
    }),
  );
  const rotateNow = (v: RotateForm) => rotate.mutate({ id: endpointId, ...v });
  return (
    <Card title="Signing secret">
      <p className="mb-3 text-xs text-stone-500">
        Verify each delivery&apos;s <code className="font-mono">Service-Signature</code> with this secret (HMAC-SHA256, the whole{" "}
        <code className="font-mono">whsec_…</code> string is the key).
      </p>
      {secrets ? (
        <ul className="space-y-2" aria-label="Valid secrets">
          {secrets.map((s, i) => (
            <li key={s.secret} className="rounded-md border border-stone-200 p-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <code className="min-w-0 break-all font-mono text-xs text-stone-900" data-testid={i === 0 ? "current-secret" : "old-secret"}>
                  {s.secret}
                </code>
                <CopyButton text={s.secret} />
              </div>
              <p className="mt-1 text-[11px] text-stone-500">
                {s.expires_at ? (
                  <span data-testid="secret-expiry">
                    Previous secret, still signing until <When at={s.expires_at} />
                  </span>
                ) : (
                  <>
                    Current secret, issued <When at={s.created_at} />
                  </>
                )}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <div className="flex items-center justify-between gap-2 rounded-md border border-stone-200 p-2">
          <code className="font-mono text-xs text-stone-500" aria-label="Hidden secret">
            whsec_••••••••••••••••••••
          </code>
          <Button variant="secondary" onClick={() => reveal.mutate({ id: endpointId })} disabled={reveal.isPending}>
            {reveal.isPending ? "Revealing…" : "Reveal"}
          </Button>
        </div>
      )}
      {reveal.error ? (
        <div className="mt-2">
          <Alert>{callError(reveal.error).message}</Alert>
        </div>
      ) : null}
      <div className="mt-3 flex flex-wrap justify-between gap-2">
        {secrets ? (
          <Button variant="ghost" onClick={() => setSecrets(null)}>
            Hide
          </Button>
        ) : (
          <span />
        )}
        <ConfirmDialog
          open={rotating}
          onOpenChange={(open) => {
            rotate.reset();
            setRotating(open);
          }}
          trigger={<Button variant="secondary">Rotate secret…</Button>}
          title="Rotate the signing secret?"
          description="A new secret signs every delivery from now on. During the overlap, each delivery carries one signature per valid secret, so your receiver can switch over at its own pace."
          confirmLabel="Rotate"
          pending={rotate.isPending}
          error={rotate.error ? callError(rotate.error).message : null}
          onConfirm={form.handleSubmit(rotateNow)}
        >
          <Form form={form} onSubmit={rotateNow}>
            <FormField<RotateForm> name="expires_in_seconds" label="Keep the old secret valid for" options={{ valueAsNumber: true }}>
              {(control) => (
                <Select {...control}>
                  {overlaps.map((o) => (
                    <option key={o.seconds} value={o.seconds}>
                      {o.label}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
          </Form>
        </ConfirmDialog>
      </div>
    </Card>
  );
}
