"use client";

import { useEffect, useState } from "react";

/**
 * False until React has attached its handlers. A form submitted before that would be sent by the
 * browser itself (a GET with every field in the URL, a password included), so submit buttons
 * stay disabled until this turns true.
 */
export function useHydrated(): boolean {
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return isHydrated;
}
