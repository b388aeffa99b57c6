// What a selection of the person's own generations offers beside its own actions (Saved's selection bar,
// History's selection, a collection's), handed in by the app as the large view's tools are (features never
// import each other; decision 35): each tool is a component given the ids selected.
import { createContext, createElement, useContext, type ComponentType, type ReactNode } from "react";

export type SelectionToolProps = { generationIds: readonly string[] };

export type SelectionTool = ComponentType<SelectionToolProps>;

const SelectionToolsContext = createContext<readonly SelectionTool[]>([]);

export function SelectionToolsProvider({ tools, children }: { tools: readonly SelectionTool[]; children: ReactNode }) {
  return createElement(SelectionToolsContext.Provider, { value: tools }, children);
}

export function useSelectionTools(): readonly SelectionTool[] {
  return useContext(SelectionToolsContext);
}
