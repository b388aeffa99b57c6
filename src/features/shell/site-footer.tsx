import { Link } from "wouter";

const LINKS = [
  { label: "Pricing", to: "/pricing" },
  { label: "FAQ", to: "/faq" },
  { label: "Blog", to: "/blog" },
  { label: "Privacy", to: "/privacy" },
  { label: "Terms", to: "/terms" },
  { label: "Content Policy", to: "/content-policy" },
  { label: "Status", to: "/status" },
  { label: "Site map", to: "/site-map" },
];

export function SiteFooter() {
  return (
    <footer className="border-t border-base-300 px-4 py-6 text-sm text-base-content/80 sm:px-6 sm:pr-20">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p>© {new Date().getFullYear()} PromptCanvas</p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            {LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="link link-hover">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
