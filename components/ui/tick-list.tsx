/** A list whose items each start with a tick (what a service includes). */
export function TickList({ items, className }: { items: readonly string[]; className?: string }) {
  return (
    <ul className={`space-y-2 text-slate-700 ${className ?? ''}`}>
      {items.map((item) => (
        <li key={item} className="flex gap-2">
          <svg
            aria-hidden="true"
            width="20"
            height="20"
            viewBox="0 0 20 20"
            className="mt-0.5 shrink-0 text-accent-600"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="m4 10 4 4 8-8" />
          </svg>
          {item}
        </li>
      ))}
    </ul>
  );
}
