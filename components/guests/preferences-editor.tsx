"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { MomentText } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Card, Field, Input, Select, Textarea } from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { LoadingState } from "@/components/ui/states";

type Preferences = inferRouterOutputs<AppRouter>["guests"]["preferences"]["get"];

/** The form's state: every field as text, so "not set" is simply empty. */
type Draft = {
  allergies: string[];
  bed: string;
  floor: "" | "high" | "low";
  smoking: "" | "yes" | "no";
  quiet: "" | "yes" | "no";
  accessible: "" | "yes" | "no";
  notes: string;
  program: string;
  tier: string;
  number: string;
  points: string;
};

const yesNo = (value: boolean | undefined) => (value === undefined ? "" : value ? "yes" : "no");
const fromYesNo = (value: Draft["smoking"]) => (value === "" ? undefined : value === "yes");
const text = (value: string) => value.trim() || undefined;

function toDraft(p: Preferences): Draft {
  return {
    allergies: p.allergies,
    bed: p.room.bed ?? "",
    floor: p.room.floor ?? "",
    smoking: yesNo(p.room.smoking),
    quiet: yesNo(p.room.quiet),
    accessible: yesNo(p.room.accessible),
    notes: p.room.notes ?? "",
    program: p.loyalty.program ?? "",
    tier: p.loyalty.tier ?? "",
    number: p.loyalty.number ?? "",
    points: p.loyalty.points === undefined ? "" : String(p.loyalty.points),
  };
}

/** The whole record, for a replace: fields left empty are simply not set. */
function fromDraft(d: Draft) {
  return {
    allergies: d.allergies,
    room: {
      bed: text(d.bed),
      floor: d.floor || undefined,
      smoking: fromYesNo(d.smoking),
      quiet: fromYesNo(d.quiet),
      accessible: fromYesNo(d.accessible),
      notes: text(d.notes),
    },
    loyalty: { program: text(d.program), tier: text(d.tier), number: text(d.number), points: d.points.trim() === "" ? undefined : Number(d.points) },
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

const sameDraft = (a: Draft, b: Draft) => JSON.stringify(a) === JSON.stringify(b);

function PreferencesForm({ guestId, saved }: { guestId: string; saved: Preferences }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The record the form was filled from, and the form as the clerk has it now.
  const [base, setBase] = useState(saved);
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const [allergy, setAllergy] = useState("");
  const show = (record: Preferences) => {
    setBase(record);
    setDraft(toDraft(record));
  };
  // Saved elsewhere meanwhile (the API, another desk): an untouched form shows the new record at
  // once; a form being edited keeps the clerk's edits and says what is on file now.
  const changedElsewhere = saved.updated_at !== base.updated_at;
  const edited = !sameDraft(draft, toDraft(base));
  if (changedElsewhere && !edited) show(saved);
  const replace = useMutation(
    trpc.guests.preferences.replace.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.guests.preferences.get.queryKey({ guest_id: guestId }), next);
        show(next);
      },
    }),
  );
  const failure = replace.error ? callError(replace.error) : null;
  // "allergies.2" → "allergies", "loyalty.points" stays: the form's fields are named after the API's.
  const faultAt = failure?.param?.replace(/^allergies\.\d+$/, "allergies") ?? null;
  const errorFor = (param: string) => (faultAt === param ? failure!.message.replace(/^Invalid parameter '[^']*': /, "") : null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const addAllergy = () => {
    const value = allergy.trim();
    if (value && !draft.allergies.includes(value)) set("allergies", [...draft.allergies, value]);
    setAllergy("");
  };
  const onAllergyKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      addAllergy();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    replace.mutate({ guest_id: guestId, ...fromDraft(draft) });
  };

  const tri = (key: "smoking" | "quiet" | "accessible", label: string) => (
    <Field label={label} htmlFor={`pref-room-${key}`} error={errorFor(`room.${key}`)}>
      <Select id={`pref-room-${key}`} value={draft[key]} onChange={(e) => set(key, e.target.value as Draft[typeof key])}>
        <option value="">No preference</option>
        <option value="yes">Yes</option>
        <option value="no">No</option>
      </Select>
    </Field>
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
      <form onSubmit={submit} className="space-y-6" noValidate aria-label="Preferences">
        {failure && !faultAt ? <Alert>{failure.message}</Alert> : null}
        {changedElsewhere && edited && !replace.isPending ? (
          <Alert>
            <p>
              These preferences were changed elsewhere while you were editing (saved <MomentText at={saved.updated_at!} />). Allergies on file now:{" "}
              {saved.allergies.length ? saved.allergies.join(", ") : "none"}. Saving replaces them with yours.
            </p>
            <Button type="button" variant="secondary" className="mt-2" onClick={() => show(saved)}>
              Discard my changes and show the saved preferences
            </Button>
          </Alert>
        ) : null}
        <fieldset className="space-y-2">
          <legend className="text-xs font-semibold uppercase tracking-wide text-stone-500">Allergies</legend>
          <ul className="flex flex-wrap gap-1.5" aria-label="Allergies">
            {draft.allergies.map((a) => (
              <li
                key={a}
                className="inline-flex items-center gap-1 rounded-full bg-rose-50 py-0.5 pl-2.5 pr-1 text-xs font-medium text-rose-800 ring-1 ring-rose-200"
              >
                {a}
                <button
                  type="button"
                  aria-label={`Remove ${a}`}
                  className="rounded-full px-1 text-rose-500 hover:bg-rose-100 hover:text-rose-800"
                  onClick={() =>
                    set(
                      "allergies",
                      draft.allergies.filter((x) => x !== a),
                    )
                  }
                >
                  ×
                </button>
              </li>
            ))}
            {draft.allergies.length === 0 ? <li className="text-xs text-stone-500">None recorded</li> : null}
          </ul>
          <div className="flex max-w-sm gap-2">
            <Input
              id="pref-allergy"
              aria-label="Add an allergy"
              placeholder="e.g. peanuts"
              value={allergy}
              onChange={(e) => setAllergy(e.target.value)}
              onKeyDown={onAllergyKey}
              invalid={faultAt === "allergies"}
            />
            <Button type="button" variant="secondary" onClick={addAllergy}>
              Add
            </Button>
          </div>
          {errorFor("allergies") ? <p className="text-xs text-red-700">{errorFor("allergies")}</p> : null}
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="text-xs font-semibold uppercase tracking-wide text-stone-500">Room</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Bed" htmlFor="pref-room-bed" error={errorFor("room.bed")}>
              <Input id="pref-room-bed" placeholder="e.g. king" value={draft.bed} onChange={(e) => set("bed", e.target.value)} />
            </Field>
            <Field label="Floor" htmlFor="pref-room-floor" error={errorFor("room.floor")}>
              <Select id="pref-room-floor" value={draft.floor} onChange={(e) => set("floor", e.target.value as Draft["floor"])}>
                <option value="">No preference</option>
                <option value="high">High</option>
                <option value="low">Low</option>
              </Select>
            </Field>
            {tri("quiet", "Quiet room")}
            {tri("accessible", "Accessible room")}
            {tri("smoking", "Smoking")}
          </div>
          <Field label="Notes" htmlFor="pref-room-notes" error={errorFor("room.notes")}>
            <Textarea id="pref-room-notes" rows={2} value={draft.notes} onChange={(e) => set("notes", e.target.value)} />
          </Field>
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="text-xs font-semibold uppercase tracking-wide text-stone-500">Loyalty</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Program" htmlFor="pref-loyalty-program" error={errorFor("loyalty.program")}>
              <Input id="pref-loyalty-program" value={draft.program} onChange={(e) => set("program", e.target.value)} />
            </Field>
            <Field label="Tier" htmlFor="pref-loyalty-tier" error={errorFor("loyalty.tier")}>
              <Input id="pref-loyalty-tier" value={draft.tier} onChange={(e) => set("tier", e.target.value)} />
            </Field>
            <Field label="Member number" htmlFor="pref-loyalty-number" error={errorFor("loyalty.number")}>
              <Input id="pref-loyalty-number" value={draft.number} onChange={(e) => set("number", e.target.value)} />
            </Field>
            <Field label="Points" htmlFor="pref-loyalty-points" error={errorFor("loyalty.points")}>
              <Input
                id="pref-loyalty-points"
                inputMode="numeric"
                value={draft.points}
                invalid={faultAt === "loyalty.points"}
                onChange={(e) => set("points", e.target.value)}
              />
            </Field>
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
      </form>
    </Card>
  );
}
