"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "./index";
import { toast } from "./toaster";

/** Copies text to the clipboard and says so. */
export function CopyButton({ text, label = "Copy", variant = "secondary" }: { text: string; label?: string; variant?: "secondary" | "ghost" }) {
  const [done, setDone] = useState(false);
  return (
    <Button
      type="button"
      variant={variant}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setDone(true);
          setTimeout(() => setDone(false), 1500);
          toast.success("Copied to the clipboard");
        } catch {
          toast.error("The browser refused the clipboard; select the text and copy it by hand.");
        }
      }}
    >
      {done ? <Check className="h-3.5 w-3.5" aria-hidden /> : <Copy className="h-3.5 w-3.5" aria-hidden />}
      {label}
    </Button>
  );
}
