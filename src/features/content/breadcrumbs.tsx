// The visible breadcrumb trail of a content page: Home, its section, then the page itself (the same
// trail the BreadcrumbList structured data states for search engines).
import { Link } from "wouter";

export function Breadcrumbs({ section, current }: { section: { label: string; to: string }; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs mb-4 text-sm">
      <ul>
        <li>
          <Link to="/">Home</Link>
        </li>
        <li>
          <Link to={section.to}>{section.label}</Link>
        </li>
        <li>
          <span aria-current="page">{current}</span>
        </li>
      </ul>
    </nav>
  );
}
