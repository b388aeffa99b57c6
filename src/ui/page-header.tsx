import type { ReactNode } from "react";

export function PageHeader({ title, lead, eyebrow }: { title: string; lead?: ReactNode; eyebrow?: ReactNode }) {
  return (
    <header className="mb-8 max-w-3xl">
      {eyebrow && <div className="mb-3">{eyebrow}</div>}
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {lead && <p className="mt-3 text-base leading-relaxed text-base-content/80 sm:text-lg">{lead}</p>}
    </header>
  );
}
