import type { KeyboardCoordinateGetter } from "@dnd-kit/core";

/**
 * dnd-kit's keyboard movement from drop target to drop target, in reading order (top to bottom,
 * then left to right): a `forward` key goes to the target after the one the item is over (the
 * first when over none), a `back` key to the one before; the item's corner lands just inside it.
 * Other keys go to `otherwise` (for instance left and right by a night on a chart).
 */
export function targetStepper({
  forward,
  back,
  otherwise,
}: {
  forward: string[];
  back: string[];
  otherwise?: KeyboardCoordinateGetter;
}): KeyboardCoordinateGetter {
  return (event, args) => {
    const { context, currentCoordinates } = args;
    const isForward = forward.includes(event.code);
    if (!isForward && !back.includes(event.code)) return otherwise?.(event, args);
    const order = (r: { top: number; left: number }) => Math.round(r.top) * 100_000 + Math.round(r.left);
    const targets = [...context.droppableRects.entries()].sort(([, a], [, b]) => order(a) - order(b));
    const at = context.over ? targets.findIndex(([id]) => id === context.over?.id) : -1;
    const next = isForward ? targets[at + 1] : at === -1 ? targets[targets.length - 1] : targets[at - 1];
    if (!next) return undefined;
    return { ...currentCoordinates, x: next[1].left + 4, y: next[1].top + 2 };
  };
}
