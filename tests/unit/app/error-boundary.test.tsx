import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorBoundary } from "#src/app/error-boundary.tsx";

afterEach(cleanup);

function Flaky({ failures }: { failures: { left: number } }) {
  if (failures.left > 0) {
    failures.left -= 1;
    throw new Error("render failed");
  }
  return <p>Recovered content</p>;
}

function quietly<T>(run: () => T): T {
  // React reports errors caught by a boundary through console.error in tests; the boundary's
  // own report (onError) is what the app uses.
  const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    return run();
  } finally {
    spy.mockRestore();
  }
}

describe("ErrorBoundary", () => {
  it("shows 'Something went wrong' and recovers with Try Again", () => {
    const failures = { left: 2 }; // React renders twice before giving up on a component
    const onError = vi.fn();
    quietly(() =>
      render(
        <ErrorBoundary onError={onError}>
          <Flaky failures={failures} />
        </ErrorBoundary>,
      ),
    );
    expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Refresh Page" })).toBeTruthy();
    expect(onError).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole("button", { name: "Try Again" }));
    expect(screen.getByText("Recovered content")).toBeTruthy();
  });

  it("shows the router error screen when a page's code cannot load", () => {
    function Missing(): never {
      throw new TypeError("Failed to fetch dynamically imported module: /assets/gallery-page.js");
    }
    quietly(() =>
      render(
        <ErrorBoundary>
          <Missing />
        </ErrorBoundary>,
      ),
    );
    expect(screen.getByRole("heading", { name: "Unexpected Application Error!" })).toBeTruthy();
    expect(screen.getByText(/gallery-page\.js/)).toBeTruthy();
  });

  it("clears the error when the route changes", () => {
    function Harness() {
      const [key, setKey] = useState("/a");
      return (
        <>
          <button onClick={() => setKey("/b")}>go</button>
          <ErrorBoundary resetKey={key}>
            {key === "/a" ? <Flaky failures={{ left: 99 }} /> : <p>Page B</p>}
          </ErrorBoundary>
        </>
      );
    }
    quietly(() => render(<Harness />));
    expect(screen.getByText("Something went wrong")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "go" }));
    expect(screen.getByText("Page B")).toBeTruthy();
  });
});
