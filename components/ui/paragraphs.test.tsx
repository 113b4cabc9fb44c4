import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Paragraphs } from '@/components/ui/paragraphs';

describe('Paragraphs', () => {
  it('puts each paragraph in its own <p>, in order, in one spaced block', () => {
    expect(renderToStaticMarkup(<Paragraphs paragraphs={['One.', 'Two.']} className="mt-4" />)).toBe(
      '<div class="mt-4 space-y-4 leading-relaxed text-slate-700"><p>One.</p><p>Two.</p></div>',
    );
  });

  it('sets a lead larger, and needs no class of its own', () => {
    expect(renderToStaticMarkup(<Paragraphs paragraphs={['One.']} lead />)).toBe(
      '<div class="space-y-4 text-lg leading-relaxed text-slate-700"><p>One.</p></div>',
    );
  });

  it('keeps what follows the paragraphs inside the block, after them', () => {
    expect(
      renderToStaticMarkup(
        <Paragraphs paragraphs={['One.']}>
          <ul>
            <li>Item</li>
          </ul>
        </Paragraphs>,
      ),
    ).toBe('<div class="space-y-4 leading-relaxed text-slate-700"><p>One.</p><ul><li>Item</li></ul></div>');
  });
});
