import { GalleryListPreload } from '@/components/gallery/gallery-list-preload';
import { GalleryView } from '@/components/gallery/gallery-view';
import { PageIntro } from '@/components/ui/page-intro';
import { galleryPage } from '@/content/gallery';
import { pageMetadata } from '@/lib/page-metadata';
import { crmBaseUrl } from '@/lib/public-env';

export const metadata = pageMetadata('gallery');

export default function GalleryPage() {
  return (
    <>
      <GalleryListPreload crmBase={crmBaseUrl} />
      <PageIntro title={galleryPage.title} eyebrow={galleryPage.eyebrow}>
        <p>{galleryPage.intro}</p>
      </PageIntro>
      <section aria-label={galleryPage.regionLabel} className="mx-auto max-w-6xl px-4 py-10 md:py-14">
        <GalleryView />
      </section>
    </>
  );
}
