/**
 * In the page: true once React has hydrated it, or when nothing will (a page Next did not render, such
 * as a JSON answer). Next hydrates the whole `document`; React keeps its root under a
 * `__reactContainer$…` key there, and the root's state says whether it is still dehydrated.
 */
export const HYDRATED = `(() => {
  if (!('__next_f' in self)) return true;
  const key = Object.keys(document).find((name) => name.startsWith('__reactContainer$'));
  const root = key ? document[key]?.stateNode : undefined;
  return root?.current?.memoizedState?.isDehydrated === false;
})()`;
