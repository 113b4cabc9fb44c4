// A server's clock for the browser tests that book against a calendar day: loaded with
// `NODE_OPTIONS=--import=<this file>` and `TEST_CLOCK_START=<ISO instant>`, the process's Date starts at
// that instant when it loads and runs on from there (Date.now() and `new Date()` alike; dates given
// explicitly are untouched). Test code only: the site has no hook for its clock.
const start = Date.parse(process.env.TEST_CLOCK_START ?? '');
if (Number.isFinite(start)) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  const offset = start - realNow();
  RealDate.now = () => realNow() + offset;
  // A proxy rather than a subclass: every static (parse, UTC) and the prototype stay Date's own, for
  // code that copies Date's own properties into another context.
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [target.now()] : args, newTarget),
    apply: (target) => new target(target.now()).toString(),
  });
}
