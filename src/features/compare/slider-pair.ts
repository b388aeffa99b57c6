// Which two of the compared images the slider shows: the first two to begin with; either side can be
// changed to any other image, and choosing the image the other side shows swaps the two.

export type Pair = readonly [left: number, right: number];

/** The pair as it stands for `count` images: both sides valid and different (the first two otherwise). */
export function validPair(pair: Pair, count: number): Pair {
  const [left, right] = pair;
  const inRange = (i: number) => Number.isInteger(i) && i >= 0 && i < count;
  if (count < 2) return [0, 0];
  if (inRange(left) && inRange(right) && left !== right) return pair;
  return [0, 1];
}

/** The pair after one side is set to image `index`. */
export function choosePair(pair: Pair, side: "left" | "right", index: number): Pair {
  const [left, right] = pair;
  if (side === "left") return index === right ? [right, left] : [index, right];
  return index === left ? [right, left] : [left, index];
}
