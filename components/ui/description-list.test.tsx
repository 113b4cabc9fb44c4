import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DescriptionList } from '@/components/ui/description-list';

const items = [
  { term: 'Survey visit', detail: 'Within 2 working days' },
  { term: 'Photo reports', detail: 'Dated photographs.' },
];

describe('DescriptionList', () => {
  it('pairs each term with its detail, in order, one <div> a pair', () => {
    const html = renderToStaticMarkup(<DescriptionList items={items} layout="rows" />);
    expect(html).toBe(
      '<dl class="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200">' +
        '<div class="flex flex-wrap justify-between gap-2 p-4"><dt class="font-semibold text-brand-900">Survey visit</dt><dd class="text-slate-700">Within 2 working days</dd></div>' +
        '<div class="flex flex-wrap justify-between gap-2 p-4"><dt class="font-semibold text-brand-900">Photo reports</dt><dd class="text-slate-700">Dated photographs.</dd></div>' +
        '</dl>',
    );
  });

  it('lays the pairs out as cards', () => {
    const html = renderToStaticMarkup(<DescriptionList items={items.slice(0, 1)} layout="cards" />);
    expect(html).toBe(
      '<dl class="mt-8 grid gap-6 md:grid-cols-2"><div class="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">' +
        '<dt class="text-xl font-bold text-brand-900">Survey visit</dt><dd class="mt-2 leading-relaxed text-slate-700">Within 2 working days</dd></div></dl>',
    );
  });
});
