// The notifications menu shows fixed sample items (spec §2: hard-coded; there is no notification
// service behind it yet). Read state is kept in the ui store for this visit.

export type NotificationItem = { id: string; title: string; time: string; read: boolean };

export const SAMPLE_NOTIFICATIONS: readonly NotificationItem[] = [
  {
    id: "welcome",
    title: "Welcome to PromptCanvas: your first five images today are free",
    time: "Just now",
    read: false,
  },
  { id: "styles", title: "New style added: Nano Banana", time: "2 hours ago", read: false },
  { id: "offline", title: "Prompts you queue offline are sent when you reconnect", time: "Yesterday", read: true },
];
