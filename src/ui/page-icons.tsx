// Line icons that only pages loaded on demand draw (a tick, copy, a lock, a flame, a back arrow), after the
// Lucide set (ISC licence) as icons.tsx: kept apart from the shell's icons, which every first load carries.
import type { ReactNode } from "react";
import { IconFrame } from "./icons";

const PATHS = {
  arrowLeft: <path d="m12 19-7-7 7-7M19 12H5" />,
  lock: (
    <>
      <rect width="18" height="11" x="3" y="11" rx="2" />
      <path d="M7 11V7a5 5 0 0 1 10 0v4" />
    </>
  ),
  check: <path d="M20 6 9 17l-5-5" />,
  copy: (
    <>
      <rect width="14" height="14" x="8" y="8" rx="2" />
      <path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2" />
    </>
  ),
  flame: (
    <path d="M8.5 14.5A2.5 2.5 0 0 0 11 12c0-1.38-.5-2-1-3-1.072-2.143-.224-4.054 2-6 .5 2.5 2 4.9 4 6.5 2 1.6 3 3.5 3 5.5a7 7 0 1 1-14 0c0-1.153.433-2.294 1-3a2.5 2.5 0 0 0 2.5 2.5z" />
  ),
} satisfies Record<string, ReactNode>;

export type PageIconName = keyof typeof PATHS;

export function PageIcon({ name, className = "size-5" }: { name: PageIconName; className?: string }) {
  return <IconFrame className={className}>{PATHS[name]}</IconFrame>;
}
