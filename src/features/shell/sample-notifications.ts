// The notifications menu shows fixed sample items (docs/spec.md §2: hard-coded; there is no notification
// service behind it yet). So that nobody is told of an event that never happened, each item is a
// true statement about the product, and its `time` says what kind of note it is rather than
// inventing an age ("2 hours ago"). Read state is kept in the ui store for this visit.
import { TIER_DAILY_QUOTA } from "#shared/vocabulary/tiers.ts";

export type NotificationItem = { id: string; title: string; time: string; read: boolean };

export const SAMPLE_NOTIFICATIONS: readonly NotificationItem[] = [
  {
    id: "welcome",
    title: `Welcome to PromptCanvas: every account gets ${TIER_DAILY_QUOTA.free} free images a day`,
    time: "Getting started",
    read: false,
  },
  {
    id: "defaults",
    title: "Set your default style, quality and aspect ratio in Settings",
    time: "Tip",
    read: false,
  },
  { id: "offline", title: "Prompts you queue offline are sent when you reconnect", time: "Tip", read: true },
];
