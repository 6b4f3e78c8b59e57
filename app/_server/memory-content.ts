import { z } from "zod";
import { CONTENT_TOO_LARGE, fitsContentLimit } from "@/lib/review/validate-proposal-input";

/**
 * A memory file's whole text in a request body: the store's limit is in bytes, so a character
 * count (`z.string().max`) would let a 100,001-byte file through to a generic "Too big" and
 * multi-byte text past the limit. One rule, the same message as submit and revise.
 */
export const MemoryContent = z.string().refine(fitsContentLimit, { error: CONTENT_TOO_LARGE });
