"use client";

import { signOut } from "next-auth/react";
import { Button } from "@/components/ui";

export function SignOutButton() {
  return (
    <Button
      variant="ghost"
      onClick={async () => {
        await signOut({ redirect: false });
        window.location.assign("/signin");
      }}
    >
      Sign out
    </Button>
  );
}
