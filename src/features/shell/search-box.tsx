// The desktop gallery search: a non-empty query goes to /gallery?q=<text>.
import { useState, type FormEvent } from "react";
import { useLocation, useSearch } from "wouter";
import { Icon } from "../../ui/icons";

export function gallerySearchPath(text: string): string | null {
  const q = text.trim();
  return q ? `/gallery?q=${encodeURIComponent(q)}` : null;
}

export function SearchBox() {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const current = location === "/gallery" ? (new URLSearchParams(search).get("q") ?? "") : "";
  const [text, setText] = useState(current);
  const [lastCurrent, setLastCurrent] = useState(current);
  if (current !== lastCurrent) {
    // Follow the address when it changes from elsewhere (back button, a link).
    setLastCurrent(current);
    setText(current);
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const path = gallerySearchPath(text);
    if (path) navigate(path);
  };

  return (
    <form role="search" onSubmit={submit} className="hidden w-full max-w-md md:block">
      <label className="input input-sm w-full bg-base-200">
        <Icon name="search" className="size-4 opacity-70" />
        <span className="sr-only">Search the gallery</span>
        <input
          type="search"
          name="q"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Search the gallery…"
          autoComplete="off"
          enterKeyHint="search"
        />
      </label>
    </form>
  );
}
