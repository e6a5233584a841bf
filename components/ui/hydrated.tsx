"use client";

import { useEffect } from "react";

/**
 * Marks the document once React has taken the page over (`<html data-hydrated>`): before that a
 * button drawn by the server does nothing when pressed. The browser tests wait for the mark
 * after a full page load instead of guessing how long hydration takes on a busy machine.
 */
export function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}
