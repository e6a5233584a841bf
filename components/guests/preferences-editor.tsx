"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type KeyboardEvent } from "react";
import { z } from "zod";
import { MomentText } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Card, Input, Select, Textarea } from "@/components/ui";
import { Form, FormError, FormField, FormFieldset, showServerError, useZodForm } from "@/components/ui/form";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { LoadingState } from "@/components/ui/states";

type Preferences = inferRouterOutputs<AppRouter>["guests"]["preferences"]["get"];

const yesNoChoice = z.enum(["", "yes", "no"]);
/** The form: every field as text, so "not set" is simply empty; named as the API names them. */
const preferencesForm = z.object({
  allergies: z.array(z.string()),
  room: z.object({ bed: z.string(), floor: z.enum(["", "high", "low"]), smoking: yesNoChoice, quiet: yesNoChoice, accessible: yesNoChoice, notes: z.string() }),
  loyalty: z.object({
    program: z.string(),
    tier: z.string(),
    number: z.string(),
    // A whole number or nothing: "abc" or "1.5" would reach the API as no number at all.
    points: z.string().refine((v) => /^\s*\d*\s*$/.test(v), "Points are a whole number, such as 1200; leave empty for none."),
  }),
});
type Draft = z.output<typeof preferencesForm>;

const yesNo = (value: boolean | undefined) => (value === undefined ? "" : value ? "yes" : "no");
const fromYesNo = (value: Draft["room"]["smoking"]) => (value === "" ? undefined : value === "yes");
const text = (value: string) => value.trim() || undefined;

function toDraft(p: Preferences): Draft {
  return {
    allergies: p.allergies,
    room: {
      bed: p.room.bed ?? "",
      floor: p.room.floor ?? "",
      smoking: yesNo(p.room.smoking),
      quiet: yesNo(p.room.quiet),
      accessible: yesNo(p.room.accessible),
      notes: p.room.notes ?? "",
    },
    loyalty: { program: p.loyalty.program ?? "", tier: p.loyalty.tier ?? "", number: p.loyalty.number ?? "", points: p.loyalty.points === undefined ? "" : String(p.loyalty.points) },
  };
}

/** The whole record, for a replace: fields left empty are simply not set. */
function fromDraft({ allergies, room, loyalty }: Draft) {
  return {
    allergies,
    room: {
      bed: text(room.bed),
      floor: room.floor || undefined,
      smoking: fromYesNo(room.smoking),
      quiet: fromYesNo(room.quiet),
      accessible: fromYesNo(room.accessible),
      notes: text(room.notes),
    },
    loyalty: { program: text(loyalty.program), tier: text(loyalty.tier), number: text(loyalty.number), points: loyalty.points.trim() === "" ? undefined : Number(loyalty.points) },
  };
}

/** A guest's allergies, room wishes and loyalty membership (API v1.8 preferences). */
export function PreferencesEditor({ guestId }: { guestId: string }) {
  const trpc = useTRPC();
  const prefs = useQuery(trpc.guests.preferences.get.queryOptions({ guest_id: guestId }));
  if (prefs.error) {
    return (
      <Card title="Preferences">
        <Alert>{callError(prefs.error).message}</Alert>
      </Card>
    );
  }
  if (!prefs.data) {
    return (
      <Card title="Preferences">
        <LoadingState />
      </Card>
    );
  }
  return <PreferencesForm key={guestId} guestId={guestId} saved={prefs.data} />;
}

function PreferencesForm({ guestId, saved }: { guestId: string; saved: Preferences }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The record the form was filled from; the form shows it until the clerk edits it.
  const [base, setBase] = useState(saved);
  const form = useZodForm(preferencesForm, { defaultValues: toDraft(base), values: toDraft(base) });
  const [allergy, setAllergy] = useState("");
  const allergies = form.watch("allergies");
  // Saved elsewhere meanwhile (the API, another desk): an untouched form shows the new record at
  // once; a form being edited keeps the clerk's edits and says what is on file now.
  const changedElsewhere = saved.updated_at !== base.updated_at;
  const edited = form.formState.isDirty;
  if (changedElsewhere && !edited) setBase(saved);
  const replace = useMutation(
    trpc.guests.preferences.replace.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.guests.preferences.get.queryKey({ guest_id: guestId }), next);
        setBase(next);
        form.reset(toDraft(next));
      },
      // "allergies.2" is shown under the allergies; the other fields are named after the API's.
      onError: (e) => showServerError<Draft>(form, e, { allergies: "allergies" }),
    }),
  );
  const setAllergies = (list: string[]) => form.setValue("allergies", list, { shouldDirty: true });
  const addAllergy = () => {
    const value = allergy.trim();
    if (value && !allergies.includes(value)) setAllergies([...allergies, value]);
    setAllergy("");
  };
  const onAllergyKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      addAllergy();
    }
  };

  const tri = (key: "smoking" | "quiet" | "accessible", label: string) => (
    <FormField<Draft> name={`room.${key}`} label={label}>
      {(control) => (
        <Select {...control}>
          <option value="">No preference</option>
          <option value="yes">Yes</option>
          <option value="no">No</option>
        </Select>
      )}
    </FormField>
  );

  return (
    <Card
      title="Preferences"
      actions={
        saved.updated_at ? (
          <span className="text-xs text-stone-500">
            Saved <MomentText at={saved.updated_at} />
          </span>
        ) : null
      }
    >
      <Form form={form} onSubmit={(v) => replace.mutate({ guest_id: guestId, ...fromDraft(v) })} className="space-y-6" aria-label="Preferences">
        <FormError />
        {changedElsewhere && edited && !replace.isPending ? (
          <Alert>
            <p>
              These preferences were changed elsewhere while you were editing (saved <MomentText at={saved.updated_at!} />). Allergies on file now:{" "}
              {saved.allergies.length ? saved.allergies.join(", ") : "none"}. Saving replaces them with yours.
            </p>
            <Button type="button" variant="secondary" className="mt-2" onClick={() => (setBase(saved), form.reset(toDraft(saved)))}>
              Discard my changes and show the saved preferences
            </Button>
          </Alert>
        ) : null}
        <FormFieldset<Draft> name="allergies" className="space-y-2" legend="Allergies" legendClassName="text-xs font-semibold uppercase tracking-wide text-stone-500">
          <ul className="flex flex-wrap gap-1.5" aria-label="Allergies">
            {allergies.map((a) => (
              <li
                key={a}
                className="inline-flex items-center gap-1 rounded-full bg-rose-50 py-0.5 pl-2.5 pr-1 text-xs font-medium text-rose-800 ring-1 ring-rose-200"
              >
                {a}
                <button
                  type="button"
                  aria-label={`Remove ${a}`}
                  className="rounded-full px-1 text-rose-500 hover:bg-rose-100 hover:text-rose-800"
                  onClick={() => setAllergies(allergies.filter((x) => x !== a))}
                >
                  ×
                </button>
              </li>
            ))}
            {allergies.length === 0 ? <li className="text-xs text-stone-500">None recorded</li> : null}
          </ul>
          <div className="flex max-w-sm gap-2">
            {/* The allergy being typed, added to the list by Add or Enter; the list is what is saved. */}
            <Input
              aria-label="Add an allergy"
              placeholder="e.g. peanuts"
              value={allergy}
              onChange={(e) => setAllergy(e.target.value)}
              onKeyDown={onAllergyKey}
              invalid={!!form.formState.errors.allergies}
            />
            <Button type="button" variant="secondary" onClick={addAllergy}>
              Add
            </Button>
          </div>
        </FormFieldset>

        <fieldset className="space-y-3">
          <legend className="text-xs font-semibold uppercase tracking-wide text-stone-500">Room</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField<Draft> name="room.bed" label="Bed">
              {(control) => <Input {...control} placeholder="e.g. king" />}
            </FormField>
            <FormField<Draft> name="room.floor" label="Floor">
              {(control) => (
                <Select {...control}>
                  <option value="">No preference</option>
                  <option value="high">High</option>
                  <option value="low">Low</option>
                </Select>
              )}
            </FormField>
            {tri("quiet", "Quiet room")}
            {tri("accessible", "Accessible room")}
            {tri("smoking", "Smoking")}
          </div>
          <FormField<Draft> name="room.notes" label="Notes">
            {(control) => <Textarea {...control} rows={2} />}
          </FormField>
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="text-xs font-semibold uppercase tracking-wide text-stone-500">Loyalty</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField<Draft> name="loyalty.program" label="Program">
              {(control) => <Input {...control} />}
            </FormField>
            <FormField<Draft> name="loyalty.tier" label="Tier">
              {(control) => <Input {...control} />}
            </FormField>
            <FormField<Draft> name="loyalty.number" label="Member number">
              {(control) => <Input {...control} />}
            </FormField>
            <FormField<Draft> name="loyalty.points" label="Points">
              {(control) => <Input {...control} inputMode="numeric" />}
            </FormField>
          </div>
        </fieldset>

        <div className="flex items-center gap-3">
          <Button type="submit" disabled={replace.isPending}>
            {replace.isPending ? "Saving…" : "Save preferences"}
          </Button>
          {replace.isSuccess ? (
            <span className="text-sm text-teal-700" role="status">
              Saved
            </span>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}
