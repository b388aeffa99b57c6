// Any path that is not in docs/spec.md §2: say which path, and offer Go Home, Browse Gallery and Go Back.
import { Link, useLocation, useSearch } from "wouter";
import { Icon } from "../../ui/icons";
import { PageIcon } from "../../ui/page-icons";

export default function NotFoundPage() {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const badPath = location + (search ? `?${search}` : "");
  const goBack = () => {
    // With nothing to go back to (a link opened in a new tab), Home is the sensible "back".
    if (window.history.length > 1) window.history.back();
    else navigate("/");
  };
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center py-10 text-center sm:py-16">
      <p className="text-7xl font-black tracking-tight text-primary sm:text-8xl" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">Page not found</h1>
      <p className="mt-3 text-base-content/80">
        There is no page at{" "}
        <code className="rounded bg-base-200 px-1.5 py-0.5 font-mono text-sm break-all">{badPath}</code>.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className="btn btn-primary">
          <Icon name="home" className="size-4" />
          Go Home
        </Link>
        <Link to="/gallery" className="btn btn-outline">
          <Icon name="image" className="size-4" />
          Browse Gallery
        </Link>
        <button type="button" className="btn btn-ghost" onClick={goBack}>
          <PageIcon name="arrowLeft" className="size-4" />
          Go Back
        </button>
      </div>
    </div>
  );
}
