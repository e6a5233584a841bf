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
  // The target this drag was last sent to: while the page scrolls to it, dnd-kit may not yet
  // know the item is over it, and the next key must go on from there, not from the start.
  let last: { active: unknown; target: unknown } | undefined;
  return (event, args) => {
    const { active, context, currentCoordinates } = args;
    const isForward = forward.includes(event.code);
    if (!isForward && !back.includes(event.code)) return otherwise?.(event, args);
    const order = (r: { top: number; left: number }) => Math.round(r.top) * 100_000 + Math.round(r.left);
    const targets = [...context.droppableRects.entries()].sort(([, a], [, b]) => order(a) - order(b));
    const current = context.over?.id ?? (last?.active === active ? last.target : undefined);
    const at = current === undefined ? -1 : targets.findIndex(([id]) => id === current);
    const next = isForward ? targets[at + 1] : at === -1 ? targets[targets.length - 1] : targets[at - 1];
    if (!next) return undefined;
    last = { active, target: next[0] };
    return { ...currentCoordinates, x: next[1].left + 4, y: next[1].top + 2 };
  };
}
