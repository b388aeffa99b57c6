// The library's pieces a collection's pages draw with (its grid, selection bar, large view and recipe
// filter fields), handed in by the app (src/app/routes.tsx), since features never import each other
// (decision 35). The shapes are the library's own props.
import type { ComponentType } from "react";
import type { SelectionBarProps } from "../../ui/selection-tools";
import type { GenerationRecord } from "../../db/schema";
import type { SmartFilterForm } from "./smart-filter";

type RecipeFilterValue = Omit<SmartFilterForm, "engine" | "withinDays">;

export type LibraryParts = {
  Grid: ComponentType<{
    items: readonly GenerationRecord[];
    /** How many the whole list holds, when `items` is its first screen. */
    total?: number;
    label: string;
    onOpen: (id: string) => void;
    selection?: { selected: ReadonlySet<string>; toggle: (id: string) => void };
  }>;
  SelectionBar: ComponentType<SelectionBarProps<GenerationRecord>>;
  OpenGeneration: ComponentType<{ id: string; userId: string | undefined; onClose: () => void }>;
  FilterFields: ComponentType<{ value: RecipeFilterValue; onChange: (next: RecipeFilterValue) => void }>;
};
