import { GalleryView } from '@/components/gallery/gallery-view';
import { PageIntro } from '@/components/ui/page-intro';
import { pageMetadata } from '@/lib/page-metadata';

export const metadata = pageMetadata('gallery');

export default function GalleryPage() {
  return (
    <>
      <PageIntro title="Gallery" eyebrow="Our work">
        <p>
          Photographs and short videos of repairs our own tradesmen have carried out for homeowners and insurers across Glasgow and the
          central belt. Choose a category, then select any item to see it full screen.
        </p>
      </PageIntro>
      <section aria-label="Gallery" className="mx-auto max-w-6xl px-4 py-10 md:py-14">
        <GalleryView />
      </section>
    </>
  );
}
