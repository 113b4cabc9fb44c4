const LAYOUTS = {
  /** Each term and its detail on a card of its own, two to a row from medium screens. */
  cards: {
    list: 'mt-8 grid gap-6 md:grid-cols-2',
    item: 'rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200',
    term: 'text-xl font-bold text-brand-900',
    detail: 'mt-2 leading-relaxed text-slate-700',
  },
  /** One bordered table of rows, the term on the left and its detail on the right. */
  rows: {
    list: 'mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200',
    item: 'flex flex-wrap justify-between gap-2 p-4',
    term: 'font-semibold text-brand-900',
    detail: 'text-slate-700',
  },
} as const;

/** Terms and their details as a `<dl>`, each pair in its own `<div>`, in one of the site's layouts. */
export function DescriptionList({ items, layout }: { items: readonly { term: string; detail: string }[]; layout: keyof typeof LAYOUTS }) {
  const classes = LAYOUTS[layout];
  return (
    <dl className={classes.list}>
      {items.map((item) => (
        <div key={item.term} className={classes.item}>
          <dt className={classes.term}>{item.term}</dt>
          <dd className={classes.detail}>{item.detail}</dd>
        </div>
      ))}
    </dl>
  );
}
