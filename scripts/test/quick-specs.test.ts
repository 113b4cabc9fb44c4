import { describe, expect, it } from 'vitest';
import { buildsFor, featureWords, specsCovering } from './quick-specs.mjs';

const specs = [
  { name: 'claim-links.spec.ts', text: "import { sentEnquiry } from './support/claims';" },
  { name: 'drying-documents.spec.ts', text: '' },
  { name: 'gallery.spec.ts', text: "import { staffPage } from '@/content/staff-page';" },
  { name: 'pages.spec.ts', text: '' },
];

describe('the browser specs the quick loop runs for a change', () => {
  it('takes the words of a path that may name a feature, not route groups, extensions or generic folders', () => {
    expect(featureWords('app/(claims)/claim/[token]/page.tsx')).toEqual(['claims', 'claim']);
    expect(featureWords('server/claims/drying/documents.test.ts')).toEqual(['claims', 'claim', 'drying', 'documents', 'document']);
  });

  it('runs a changed spec, a spec importing a changed file, and the specs named for the changed feature', () => {
    expect(specsCovering(['tests/e2e/pages.spec.ts'], specs)).toEqual(['tests/e2e/pages.spec.ts']);
    expect(specsCovering(['content/staff-page.ts'], specs)).toEqual(['tests/e2e/gallery.spec.ts']);
    expect(specsCovering(['server/claims/drying/documents.ts'], specs)).toEqual([
      'tests/e2e/claim-links.spec.ts',
      'tests/e2e/drying-documents.spec.ts',
    ]);
  });

  it('runs none for a change no spec covers', () => {
    expect(specsCovering(['docs/testing.md', 'server/base/db.ts'], specs)).toEqual([]);
  });

  it('builds what the chosen specs run against, and no more', () => {
    expect(buildsFor(['tests/e2e/claim-links.spec.ts'])).toEqual(['test']);
    expect(buildsFor(['tests/e2e/contact-engines.spec.ts', 'tests/e2e/pages.spec.ts'])).toEqual(['production']);
    expect(buildsFor(['tests/e2e/js-budget.spec.ts'])).toEqual(['test', 'production']);
    expect(buildsFor([])).toEqual([]);
  });
});
