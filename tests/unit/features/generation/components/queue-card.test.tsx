import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { TaskRecord } from "#src/db/schema.ts";
import { QueueCard, type QueueCardProps } from "#src/features/generation/components/queue-card.tsx";
import { newTask } from "../../../../support/records.ts";

function task(n: number, patch: Partial<TaskRecord> = {}): TaskRecord {
  const at = new Date(Date.UTC(2026, 10, 22, 10, 0, n)).toISOString();
  return {
    ...newTask(`task-${n}`, "u1", { prompt: `prompt ${n}` }),
    status: "queued",
    attempts: 0,
    createdAt: at,
    updatedAt: at,
    ...patch,
  };
}

function renderCard(props: Partial<QueueCardProps>) {
  const handlers = {
    onConcurrency: vi.fn(),
    onClear: vi.fn(),
    onRemove: vi.fn(),
    onRetry: vi.fn(),
  };
  render(<QueueCard tasks={[]} concurrency={2} {...handlers} {...props} />);
  return handlers;
}

function counter(name: string): string {
  const list = screen.getByLabelText("Queue counters");
  const term = within(list).getByText(name, { selector: "dt" });
  return term.parentElement!.querySelector("dd")!.textContent!;
}

describe("Generation Queue card", () => {
  it("is hidden when there are no tasks", () => {
    renderCard({ tasks: [] });
    expect(screen.queryByRole("heading", { name: "Generation Queue" })).toBeNull();
  });

  it("counts queued, running, done and failed tasks", () => {
    renderCard({
      tasks: [
        task(1, { status: "done" }),
        task(2, { status: "running" }),
        task(3),
        task(4),
        task(5, { status: "error" }),
      ],
    });
    expect(counter("Queued")).toBe("2");
    expect(counter("Running")).toBe("1");
    expect(counter("Done")).toBe("1");
    expect(counter("Failed")).toBe("1");
  });

  it("lists the first 10 tasks and says how many more there are", () => {
    renderCard({ tasks: Array.from({ length: 13 }, (_, i) => task(i + 1)) });
    expect(within(screen.getByRole("list", { name: "Queued tasks" })).getAllByRole("listitem")).toHaveLength(10);
    expect(screen.getByText("... and 3 more tasks")).toBeTruthy();
  });

  it("shows each task's badge, style and why it waits", () => {
    renderCard({
      tasks: [task(1, { status: "running" }), task(2, { status: "done" }), task(3, { wait: { reason: "offline" } })],
    });
    const rows = within(screen.getByRole("list", { name: "Queued tasks" })).getAllByRole("listitem");
    expect(rows[0].textContent).toContain("Generating...");
    expect(rows[0].textContent).toContain("Anime");
    expect(rows[1].textContent).toContain("Complete");
    expect(rows[2].textContent).toContain("Queued");
    expect(rows[2].textContent).toContain("Waiting for connection");
  });

  it("disables − at 1 and + at 4", () => {
    const one = renderCard({ tasks: [task(1)], concurrency: 1 });
    expect((screen.getByRole("button", { name: "Decrease concurrency" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Increase concurrency" }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByLabelText("Concurrency").textContent).toBe("1");
    expect(one.onConcurrency).not.toHaveBeenCalled();
  });

  it("changes concurrency, removes, retries and clears through its handlers", async () => {
    const h = renderCard({
      tasks: [
        task(1, {
          status: "error",
          error: {
            code: "server_error",
            message: "Our servers are experiencing issues. Please try again in a moment.",
          },
        }),
      ],
      concurrency: 4,
    });
    expect((screen.getByRole("button", { name: "Increase concurrency" }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole("button", { name: "Decrease concurrency" }));
    expect(h.onConcurrency).toHaveBeenCalledWith(3);
    expect(screen.getByText("Our servers are experiencing issues. Please try again in a moment.")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(h.onRetry).toHaveBeenCalledWith("task-1");
    await userEvent.click(screen.getByRole("button", { name: "Remove task: prompt 1" }));
    expect(h.onRemove).toHaveBeenCalledWith("task-1");
    await userEvent.click(screen.getByRole("button", { name: "Clear all" }));
    expect(h.onClear).toHaveBeenCalledTimes(1);
  });
});
