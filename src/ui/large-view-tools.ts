// What the large view of a generation shows beside its own actions, handed in by the app (features never
// import each other; decision 35): each tool is a component given the generation's id and recipe, its
// picture (bytes when they are here, and the address it is shown from), and a way to open another
// generation in the same view.
import { createContext, createElement, useContext, type ComponentType, type ReactNode } from "react";
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";

export type LargeViewToolProps = {
  generationId: string;
  recipe: ImageRecipe;
  image: Blob | undefined;
  src: string | undefined;
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
