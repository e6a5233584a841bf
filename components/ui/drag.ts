import { rectIntersection, type CollisionDetection, type KeyboardCoordinateGetter, type UniqueIdentifier } from "@dnd-kit/core";

/**
 * dnd-kit's keyboard movement from drop target to drop target, in reading order (top to bottom,
 * then left to right): a `forward` key goes to the target after the one the item is over (the
 * first when over none), a `back` key to the one before; the item's corner lands just inside it.
 * Other keys go to `otherwise` (for instance left and right by a night on a chart).
 *
 * Where things are is read from the page at each key press (the item and the targets as drawn
 * now), and the item is moved by the distance between it and the target: the rectangles dnd-kit
 * measured when the drag began go stale when the page changes under a drag (a list above grows,
 * the page scrolls), and going to a stale target's corner put the room on the housekeeper after
 * the one chosen.
 */
export function targetStepper({
  forward,
  back,
  otherwise,
}: {
  forward: string[];
  back: string[];
  otherwise?: KeyboardCoordinateGetter;
}): { coordinates: KeyboardCoordinateGetter; collision: CollisionDetection; reset: () => void } {
  // The target the arrows last chose for this drag: while the page scrolls to it, dnd-kit may
  // not yet know the item is over it, and the next key must go on from there, not from the start.
  let last: { active: UniqueIdentifier; target: UniqueIdentifier } | undefined;
  const coordinates: KeyboardCoordinateGetter = (event, args) => {
    const { active, context, currentCoordinates } = args;
    const isForward = forward.includes(event.code);
    if (!isForward && !back.includes(event.code)) return otherwise?.(event, args);
    const item = context.activeNode?.getBoundingClientRect();
    if (!item) return undefined;
    const order = (r: DOMRect) => Math.round(r.top) * 100_000 + Math.round(r.left);
    const targets = context.droppableContainers
      .getEnabled()
      .flatMap((c) => {
        const rect = c.node.current?.getBoundingClientRect();
        return rect ? [{ id: c.id, rect }] : [];
      })
      .sort((a, b) => order(a.rect) - order(b.rect));
    const current = context.over?.id ?? (last?.active === active ? last.target : undefined);
    const at = current === undefined ? -1 : targets.findIndex((t) => t.id === current);
    const next = isForward ? targets[at + 1] : at === -1 ? targets[targets.length - 1] : targets[at - 1];
    if (!next) return undefined;
    last = { active, target: next.id };
    return {
      x: currentCoordinates.x + next.rect.left + 4 - item.left,
      y: currentCoordinates.y + next.rect.top + 2 - item.top,
    };
  };
  /**
   * For a drag by the keyboard (no pointer), the item is over the target the arrows chose, not
   * wherever dnd-kit computes the item to be: the rectangle it measured at pick-up goes stale
   * when the page changes under the drag (a list refreshed live above it), and the room was then
   * announced over the housekeeper after the one chosen. Pointer drags collide as usual.
   */
  const collision: CollisionDetection = (args) => {
    if (!args.pointerCoordinates && last && last.active === args.active.id && args.droppableContainers.some((c) => c.id === last!.target)) {
      return [{ id: last.target }];
    }
    return rectIntersection(args);
  };
  return { coordinates, collision, reset: () => (last = undefined) };
}

/**
 * A keyboard sensor's coordinate getter whose arrow keys never also scroll the page: where
 * dnd-kit's keyboard sensor only scrolls the page to the new position, it returns before
 * cancelling the key's default, and the browser then scrolled one arrow's step (40 px) more,
 * onto the target after the one chosen. The sensor listens only while an item is held.
 */
export function holdingArrows(getter: KeyboardCoordinateGetter): KeyboardCoordinateGetter {
  return (event, args) => {
    if (event.code.startsWith("Arrow")) event.preventDefault();
    return getter(event, args);
  };
}
