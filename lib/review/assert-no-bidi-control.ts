import { AppError } from "../errors";
import { findBidiControl } from "../memdir/find-bidi-control";

/** Free text shown on the dashboard (a rejection reason, a revision note) refuses them, naming the field. */
export function assertNoBidiControl(text: string, field: string): void {
  const found = findBidiControl(text);
  if (found) throw new AppError("INVALID_INPUT", `${field}: holds a bidirectional control character (${found.codePoint}), which would show the words around it in another order; remove it.`, { details: { field } });
}
