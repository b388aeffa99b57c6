// How views reach the queue process without importing src/app: the app publishes the runtime of the
// signed-in user here (publishGenerationRuntime) and mounts GenerationProvider; hooks read it with
// useGenerationRuntime. Only types of the queue runner are imported, so this module costs the first page
// load nothing but React.
import { createContext, createElement, useContext, useSyncExternalStore, type ReactNode } from "react";
import type { PromptEntry } from "../../db/prompt-history";
import type { TaskPlan } from "../../db/tasks";
import type { QueueRuns } from "../../sync/queue/queue-runner";

export type GenerationRuntime = {
  userId: string;
  /** The queue's runs (their progress) when this tab runs the queue; null while another tab or the worker does. */
  queue: QueueRuns | null;
  /**
   * New tasks were written: wake the runner in this tab at once, rather than on Dexie's next live-query
   * round (or, offline, ask for a Background Sync). The runner reads the tasks from Dexie.
   */
  enqueued(taskIds: string[]): void;
  /**
   * Writes new tasks (and the prompt to remember) in one transaction, which also reads the limits a
   * plan picks its tasks by; when this tab runs the queue, what may go at once is claimed in that
   * transaction and sent as it commits. Answers the task ids (none when the plan picked none).
   */
  enqueue(plan: TaskPlan, prompt: PromptEntry | null): Promise<string[]>;
  setConcurrency(value: number): void;
};

let current: GenerationRuntime | null = null;
const listeners = new Set<() => void>();

export function publishGenerationRuntime(runtime: GenerationRuntime | null): void {
  if (runtime === current) return;
  current = runtime;
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The published runtime, for the provider (app) to pass down. */
export function usePublishedGenerationRuntime(): GenerationRuntime | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

const GenerationContext = createContext<GenerationRuntime | null>(null);

export function GenerationProvider({ runtime, children }: { runtime: GenerationRuntime | null; children: ReactNode }) {
  return createElement(GenerationContext.Provider, { value: runtime }, children);
}

export function useGenerationRuntime(): GenerationRuntime | null {
  return useContext(GenerationContext);
}
