import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

/** Joins class names, skipping the falsy ones. */
export const cx = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(" ");

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "secondary" | "ghost" | "danger" };

export function Button({ variant = "primary", className, ...props }: ButtonProps) {
  return (
    <button
      {...props}
      className={cx(
        "inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium transition disabled:cursor-not-allowed disabled:opacity-50",
        variant === "primary" && "bg-teal-700 text-white shadow-sm hover:bg-teal-800",
        variant === "secondary" && "border border-stone-300 bg-white text-stone-800 shadow-sm hover:bg-stone-50",
        variant === "ghost" && "text-stone-600 hover:bg-stone-100 hover:text-stone-900",
        variant === "danger" && "bg-red-700 text-white shadow-sm hover:bg-red-800",
        "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 focus-visible:ring-offset-1",
        className,
      )}
    />
  );
}

const control =
  "block w-full rounded-md border bg-white px-2.5 py-1.5 text-sm text-stone-900 shadow-sm placeholder:text-stone-400 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/20";

/** Invalid by the `invalid` flag or by an `aria-invalid` already wired (the Form primitive's fields). */
const isInvalid = (invalid: boolean | undefined, aria: InputHTMLAttributes<HTMLInputElement>["aria-invalid"]) => !!invalid || aria === true || aria === "true";

export function Input({ invalid, className, ...props }: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }) {
  const bad = isInvalid(invalid, props["aria-invalid"]);
  return <input {...props} aria-invalid={bad || undefined} className={cx(control, bad ? "border-red-400" : "border-stone-300", className)} />;
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...props} className={cx(control, isInvalid(false, props["aria-invalid"]) ? "border-red-400" : "border-stone-300", className)} />;
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...props} className={cx(control, isInvalid(false, props["aria-invalid"]) ? "border-red-400" : "border-stone-300", className)} />;
}

/**
 * A labelled filter control (a search box, a date window, a list's "Show"): it narrows what the
 * page shows and sends nothing to be saved, so it is a controlled input with no error of its own.
 * A form's fields are `FormField`s (components/ui/form.tsx), checked by the form's schema.
 */
export function FilterField({ label, htmlFor, children }: { label: string; htmlFor: string; children: ReactNode }) {
  return (
    // min-w-0: a select's longest option must not widen a grid or flex row past a phone's width.
    <div className="min-w-0 space-y-1">
      <label htmlFor={htmlFor} className="block text-xs font-medium text-stone-600">
        {label}
      </label>
      {children}
    </div>
  );
}

export function Card({ title, actions, children, className }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={cx("rounded-lg border border-stone-200 bg-white shadow-sm", className)}>
      {title || actions ? (
        <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b border-stone-100 px-5 py-3">
          <h2 className="min-w-0 break-words text-sm font-semibold text-stone-800 [overflow-wrap:anywhere]">{title}</h2>
          {actions}
        </header>
      ) : null}
      <div className="px-5 py-4">{children}</div>
    </section>
  );
}

export type BadgeTone = "neutral" | "teal" | "amber" | "red" | "blue" | "violet";

export function Badge({ tone = "neutral", children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={cx(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium",
        tone === "neutral" && "bg-stone-100 text-stone-700",
        tone === "teal" && "bg-teal-50 text-teal-800 ring-1 ring-teal-600/20",
        tone === "amber" && "bg-amber-100 text-amber-900 ring-1 ring-amber-500/30",
        tone === "red" && "bg-red-50 text-red-800 ring-1 ring-red-600/20",
        tone === "blue" && "bg-sky-50 text-sky-800 ring-1 ring-sky-600/20",
        tone === "violet" && "bg-violet-50 text-violet-800 ring-1 ring-violet-600/20",
      )}
    >
      {children}
    </span>
  );
}

export function Alert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {children}
    </div>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0 max-w-full">
        {/* A long name (a staff member known only by e-mail) wraps instead of widening a phone's page. */}
        <h1 className="text-xl font-semibold tracking-tight text-stone-900 [overflow-wrap:anywhere]">{title}</h1>
        {description ? <p className="mt-1 text-sm text-stone-500">{description}</p> : null}
      </div>
      {actions}
    </div>
  );
}
