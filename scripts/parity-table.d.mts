import type { ParityRow } from "../tests/backend/parity.ts";

export const DOC: string;
export const BACKEND_TESTS: string;
export const BEGIN: string;
export const END: string;
export type Outcome = "passed" | "failed" | "skipped";
export function reportOutcomes(report: {
  testResults?: { name?: string; assertionResults?: { title: string; status: string }[] }[];
}): Map<string, Outcome>;
export function renderBlock(rows: ParityRow[], run?: { outcomes: Map<string, Outcome>; source: string } | null): string;
export function formatBlock(block: string): Promise<string>;
export function findBlock(doc: string): string | null;
export function tableCells(block: string, keep?: (column: string) => boolean): string[][];
export function missingTests(rows: ParityRow[], readSource?: (file: string) => string): string[];
