// The backend calls of the person's custom styles (decision 152): the outbox's upsert and delete, and the
// catch-up's read of the whole list. The server refuses a save below the premium tier (the table's insert
// and update policies): that is a `rejected` failure, which the drain lists as a conflict.
import { CUSTOM_STYLE_COLUMNS, type CustomStyleRow } from "#shared/vocabulary/custom-styles.ts";
import type { CustomStyleRecord } from "../db/schema";
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";
import { writeFailure, type WriteFailure } from "./library";

/** The refusal's words when the tier does not allow saving (RLS says only "violates row-level security"). */
const STYLES_NEED_PREMIUM = "Custom styles are part of the Pro plan: yours stay, but saving needs Pro.";

/** Writes the style as the device holds it (insert or update by id; a resend writes the same values). */
export async function upsertCustomStyle(style: CustomStyleRecord): Promise<Result<null, WriteFailure>> {
  try {
    const { error, status } = await supabase().from("custom_styles").upsert(
      {
        id: style.id,
        user_id: style.userId,
        name: style.name,
        prompt: style.prompt,
        negative_prompt: style.negativePrompt,
        base_style: style.baseStyle,
        quality: style.quality,
        aspect_ratio: style.aspectRatio,
        preview: style.preview,
      },
      { onConflict: "id" },
    );
    if (!error) return ok(null);
    const failure = writeFailure(status, error);
    if (failure.kind === "rejected" && (error as { code?: string }).code === "42501") {
      failure.error = { ...failure.error, message: STYLES_NEED_PREMIUM };
    }
    return err(failure);
  } catch (e) {
    return err(writeFailure(0, e));
  }
}

/** Deletes the style; one already gone is success (the intent holds). */
export async function deleteCustomStyleRow(id: string): Promise<Result<null, WriteFailure>> {
  try {
    const { error, status } = await supabase().from("custom_styles").delete().eq("id", id);
    return error ? err(writeFailure(status, error)) : ok(null);
  } catch (e) {
    return err(writeFailure(0, e));
  }
}

/** Every style of the person's (a few dozen at most), for the catch-up. */
export async function fetchCustomStyles(userId: string): Promise<Result<CustomStyleRow[], AppError>> {
  try {
    const { data, error } = await supabase()
      .from("custom_styles")
      .select(CUSTOM_STYLE_COLUMNS)
      .eq("user_id", userId)
      .order("name", { ascending: true })
      .limit(1000);
    return error ? err(toAppError(error)) : ok((data ?? []) as unknown as CustomStyleRow[]);
  } catch (e) {
    return err(toAppError(e));
  }
}
