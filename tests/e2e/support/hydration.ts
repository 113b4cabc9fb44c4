/**
 * In the page: true once React has hydrated it, or when nothing will (a page Next did not render, such
 * as a JSON answer). Next hydrates the whole `document`; React keeps its root under a
 * `__reactContainer$…` key there, and the root's state says whether it is still dehydrated. A Suspense
 * boundary inside it (a page under a loading state, a lazy part) hydrates later, on its own: until each
 * one's fiber has no dehydrated content left, a link in it is a plain link and a button does nothing.
 */
export const HYDRATED = `(() => {
  if (!('__next_f' in self)) return true;
  const key = Object.keys(document).find((name) => name.startsWith('__reactContainer$'));
  const root = key ? document[key]?.stateNode : undefined;
  if (root?.current?.memoizedState?.isDehydrated !== false) return false;
  const fibers = [root.current];
  while (fibers.length > 0) {
    const fiber = fibers.pop();
    if (fiber.memoizedState && typeof fiber.memoizedState === 'object' && fiber.memoizedState.dehydrated) return false;
    if (fiber.child) fibers.push(fiber.child);
    if (fiber.sibling) fibers.push(fiber.sibling);
  }
  return true;
})()`;
