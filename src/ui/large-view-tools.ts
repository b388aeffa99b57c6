// What the large view of a generation shows beside its own actions, handed in by the app (features never
// import each other; decision 35): each tool is a component given the generation's id, its picture's bytes
// when they are here, and a way to open another generation in the same view.
import { createContext, createElement, useContext, type ComponentType, type ReactNode } from "react";

export type LargeViewToolProps = {
  generationId: string;
  image: Blob | undefined;
  open: (generationId: string) => void;
};

export type LargeViewTool = ComponentType<LargeViewToolProps>;

const LargeViewToolsContext = createContext<readonly LargeViewTool[]>([]);

export function LargeViewToolsProvider({ tools, children }: { tools: readonly LargeViewTool[]; children: ReactNode }) {
  return createElement(LargeViewToolsContext.Provider, { value: tools }, children);
}

export function useLargeViewTools(): readonly LargeViewTool[] {
  return useContext(LargeViewToolsContext);
}
