// The sidebar's two groups, in the order docs/spec.md §2 lists them, without Audio: PromptCanvas makes no
// sound, so /generate-audio is reached from More Tools, not offered beside what works
// (docs/decisions/132-audio-leaves-the-sidebar-and-the-style-grid-shows-all-on-request.md).
import type { IconName } from "../../ui/icons";

export type NavItem = { label: string; to: string; icon: IconName };
export type NavGroup = { label: string; items: NavItem[] };

export const NAV_GROUPS: NavGroup[] = [
  {
    label: "Create",
    items: [
      { label: "Home", to: "/", icon: "home" },
      { label: "Generate", to: "/generate", icon: "sparkles" },
      { label: "Prompts", to: "/prompts", icon: "prompts" },
      { label: "Templates", to: "/templates", icon: "templates" },
      { label: "Styles", to: "/styles", icon: "palette" },
      { label: "Advanced", to: "/advanced", icon: "sliders" },
      { label: "Text Effects", to: "/text-effects", icon: "type" },
      { label: "More Tools", to: "/more", icon: "grid" },
    ],
  },
  {
    label: "Mine",
    items: [
      { label: "Gallery", to: "/gallery", icon: "image" },
      { label: "Saved", to: "/my-generations", icon: "bookmark" },
      { label: "History", to: "/history", icon: "history" },
      { label: "Collections", to: "/collections", icon: "folder" },
      { label: "Settings", to: "/account", icon: "settings" },
      { label: "Upgrade", to: "/pricing", icon: "crown" },
    ],
  },
];

/** Home is active only on "/", every other item on its path and below it. */
export function isActive(itemPath: string, currentPath: string): boolean {
  if (itemPath === "/") return currentPath === "/";
  return currentPath === itemPath || currentPath.startsWith(`${itemPath}/`);
}
