// A page rendered inside a wouter Router whose location (path and query) lives in memory.
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";

/** Renders `page` at `path`, query included; answers the render and the location (which records its history). */
export function renderAt(path: string, page: ReactNode) {
  const [pathname, search = ""] = path.split("?");
  const location = memoryLocation({ path: pathname, searchPath: search, record: true } as Parameters<
    typeof memoryLocation
  >[0]);
  const view = render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      {page}
    </Router>,
  );
  return { ...view, location };
}
