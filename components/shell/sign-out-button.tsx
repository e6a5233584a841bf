"use client";

import { signOut } from "next-auth/react";
import { Button } from "@/components/ui";

export function SignOutButton() {
  return (
    <Button
      variant="ghost"
      className="px-2 sm:px-3"
      onClick={async () => {
        await signOut({ redirect: false });
        window.location.assign("/signin");
      }}
    >
      Sign out
    </Button>
  );
}
