// What a selection of the person's own generations offers beside its own actions (Saved's selection bar,
// History's selection, a collection's), handed in by the app as the large view's tools are (features never
// import each other; decision 35): each tool is a component given the ids selected.
import { createContext, createElement, useContext, type ComponentType, type ReactNode } from "react";

/** A selection bar over a list of the person's generations (the library's, handed to collections' pages). */
export type SelectionBarProps<Item extends { id: string }> = {
  userId: string | undefined;
  items: readonly Item[];
  selected: ReadonlySet<string>;
  /** Sets what is chosen: every item (Select all) or none (Clear selection, and after a delete). */
  onChoose: (ids: ReadonlySet<string>) => void;
  /** What the zip is named after ("saved" unless given: a collection's name). */
  zipName?: string;
  /** False leaves out Delete (a collection's page removes from the collection instead). */
  deletable?: boolean;
  /** The page's own actions on the selection, shown before the app's tools. */
  children?: ReactNode;
};

export type SelectionToolProps = { generationIds: readonly string[] };

export type SelectionTool = ComponentType<SelectionToolProps>;

const SelectionToolsContext = createContext<readonly SelectionTool[]>([]);

export function SelectionToolsProvider({ tools, children }: { tools: readonly SelectionTool[]; children: ReactNode }) {
  return createElement(SelectionToolsContext.Provider, { value: tools }, children);
}

export function useSelectionTools(): readonly SelectionTool[] {
  return useContext(SelectionToolsContext);
}
