// Preferences (docs/spec.md §3, §4): default style, quality and aspect ratio (the generator starts from
// them), notifications, whether new generations are published to the gallery, and the time zone.
// Saving applies on this device at once and reaches the server through the outbox, offline too. Until
// the person's row is on this device (the first pull brings it, or creates the default one) the form
// waits: docs/spec.md §5, an update requires loaded preferences, so defaults never overwrite saved ones.
import { useLiveQuery } from "dexie-react-hooks";
import { useId, useState, type FormEvent } from "react";
import { PREFERENCE_DEFAULTS } from "#shared/vocabulary/generation.ts";
import { updatePreferences } from "../../db/library";
import { getPreferences } from "../../db/queries";
import type { PreferencesPatch, PreferencesRecord } from "../../db/schema";
import { ASPECT_RATIO_OPTIONS, QUALITY_OPTIONS, STYLE_OPTIONS } from "../../lib/generation-recipe";
import { showToast } from "../../state/toasts";
import { SelectField } from "../../ui/labelled-field";
import { Spinner } from "../../ui/spinner";
import { deviceTimezone } from "../../lib/time-zone";

export const PREFERENCES_SAVED = "Preferences updated successfully";
export const PREFERENCES_FAILED = "Failed to update preferences";
export const PREFERENCES_SIGN_IN = "Please sign in to update preferences";

type Values = Required<PreferencesPatch>;

const browserTimeZone = (): string => deviceTimezone() ?? "UTC";

function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([current, "UTC", ...all])].sort();
}

export function valuesOf(record: PreferencesRecord | undefined): Values {
  return {
    defaultStyle: record?.defaultStyle ?? PREFERENCE_DEFAULTS.style,
    defaultQuality: record?.defaultQuality ?? PREFERENCE_DEFAULTS.quality,
    defaultAspectRatio: record?.defaultAspectRatio ?? PREFERENCE_DEFAULTS.aspectRatio,
    notificationsEnabled: record?.notificationsEnabled ?? PREFERENCE_DEFAULTS.notificationsEnabled,
    publicGalleryOptIn: record?.publicGalleryOptIn ?? PREFERENCE_DEFAULTS.publicGalleryOptIn,
    timezone: record?.timezone ?? browserTimeZone(),
  };
}

function ToggleRow(props: { label: string; description: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="flex cursor-pointer items-start gap-3">
      <input
        type="checkbox"
        className="toggle toggle-primary mt-0.5"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <span>
        <span className="block font-medium">{props.label}</span>
        <span className="block text-sm text-base-content/80">{props.description}</span>
      </span>
    </label>
  );
}

export function PreferencesForm({ userId }: { userId: string | undefined }) {
  // Wrapped, so "read, no row yet" differs from "not read yet".
  const read = useLiveQuery(
    async (): Promise<{ record: PreferencesRecord | undefined } | null> =>
      userId ? { record: await getPreferences(userId) } : null,
    [userId],
  );
  const record = read?.record;
  const loaded = Boolean(record);
  // Only the fields changed here are kept; the rest follow the record (another tab may change it).
  const [edits, setEdits] = useState<PreferencesPatch>({});
  const [saving, setSaving] = useState(false);
  const id = useId();
  const values: Values = { ...valuesOf(record), ...edits } as Values;
  const dirty = Object.keys(edits).length > 0;
  const edit = <K extends keyof Values>(key: K, value: Values[K]) => setEdits((e) => ({ ...e, [key]: value }));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!userId || !loaded) {
      showToast({ tone: "error", title: PREFERENCES_SIGN_IN });
      return;
    }
    setSaving(true);
    try {
      await updatePreferences(userId, edits);
      setEdits({});
      showToast({ tone: "success", title: PREFERENCES_SAVED });
    } catch (error) {
      showToast({
        tone: "error",
        title: PREFERENCES_FAILED,
        message: error instanceof Error ? error.message : undefined,
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void save(e)} className="flex flex-col gap-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title text-lg">
        Preferences
      </h2>
      <p className="-mt-2 text-sm text-base-content/80">The generator starts from these settings.</p>
      {userId && !loaded && (
        <p role="status" className="flex items-center gap-2 text-sm">
          <Spinner size="xs" />
          Loading your preferences…
        </p>
      )}
      <fieldset disabled={Boolean(userId) && !loaded} className="contents">
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField
            label="Default style"
            value={values.defaultStyle}
            options={STYLE_OPTIONS}
            onChange={(v) => edit("defaultStyle", v)}
          />
          <SelectField
            label="Default quality"
            value={values.defaultQuality}
            options={QUALITY_OPTIONS}
            onChange={(v) => edit("defaultQuality", v)}
          />
          <SelectField
            label="Default aspect ratio"
            value={values.defaultAspectRatio}
            options={ASPECT_RATIO_OPTIONS}
            onChange={(v) => edit("defaultAspectRatio", v)}
          />
        </div>
        <ToggleRow
          label="Notifications"
          description="When a batch or a queued image finishes while this app is in the background: a count on the tab and app icon, and a system notification if you allow it."
          checked={values.notificationsEnabled}
          onChange={(on) => {
            edit("notificationsEnabled", on);
            // Turned on: ask now, while the person is here to answer (a system notification needs it).
            if (on && typeof Notification !== "undefined" && Notification.permission === "default") {
              void Notification.requestPermission().catch(() => undefined);
            }
          }}
        />
        <ToggleRow
          label="Publish new images to the gallery"
          description="Off: new images stay private until you publish one yourself."
          checked={values.publicGalleryOptIn}
          onChange={(on) => edit("publicGalleryOptIn", on)}
        />
        <label className="flex flex-col gap-1 sm:max-w-sm">
          <span className="text-sm font-medium">Time zone</span>
          <select className="select w-full" value={values.timezone} onChange={(e) => edit("timezone", e.target.value)}>
            {timeZones(values.timezone).map((z) => (
              <option key={z} value={z}>
                {z.replace(/_/g, " ")}
              </option>
            ))}
          </select>
          <span className="text-xs text-base-content/70">Your daily limit resets at midnight in this zone.</span>
        </label>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary" disabled={saving || (Boolean(userId) && (!loaded || !dirty))}>
          {saving && <Spinner size="xs" />}
          Save preferences
        </button>
        {dirty && (
          <button type="button" className="btn btn-ghost" onClick={() => setEdits({})} disabled={saving}>
            Discard changes
          </button>
        )}
      </div>
    </form>
  );
}
