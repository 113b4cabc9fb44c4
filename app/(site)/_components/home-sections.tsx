import Link from 'next/link';
import { business } from '@/content/business';
import { CallButton } from '@/components/ui/call-button';
import { PageSection } from '@/components/ui/page-section';
import { fleetImage, hero, highlights, homePage } from '@/content/home';
import { services } from '@/content/services';
import { testimonials } from '@/content/testimonials';
import { imageSrc } from '@/server/base/inline-image';

/** The headline, its call to action and the phone number beside the picture of a company van. */
export function HomeHero() {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 md:grid-cols-2 md:py-20">
        <div>
          <h1 className="text-4xl font-extrabold tracking-tight text-brand-900 sm:text-5xl">
            {hero.headline} <span className="block text-accent-600">{hero.subline}</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-700">{hero.intro}</p>
          <div className="mt-8 flex flex-wrap gap-4">
            <Link href={hero.cta.href} className="btn-primary">
              {hero.cta.label}
              <span className="sr-only">{homePage.heroCtaContext}</span>
            </Link>
            <CallButton phone={business.phone} variant="secondary" />
          </div>
        </div>
        <img
          src={imageSrc(fleetImage.src)}
          alt={fleetImage.alt}
          width={fleetImage.width}
          height={fleetImage.height}
          fetchPriority="high"
          decoding="async"
          className="h-auto w-full rounded-xl shadow-xl ring-1 ring-slate-900/10"
        />
      </div>
    </section>
  );
}

const highlightIcons = [
  // calendar, shield with tick, target
  <path key="a" d="M7 3v3M17 3v3M4 9h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Z" />,
  <path key="b" d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6l-8-3Zm-3.5 9 2.5 2.5 4.5-5" />,
  <path key="c" d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm0-4a5 5 0 1 0 0-10 5 5 0 0 0 0 10Zm0-4a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z" />,
];

/** The three reasons to choose the company, each with its icon. */
export function HomeHighlights() {
  return (
    <PageSection id="highlights" title={homePage.highlightsHeading} heading="hidden">
      <ul className="grid gap-6 md:grid-cols-3">
        {highlights.map((highlight, index) => (
          <li key={highlight.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <svg
              aria-hidden="true"
              width="40"
              height="40"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
              className="text-accent-600"
            >
              {highlightIcons[index]}
            </svg>
            <h3 className="mt-4 text-2xl font-bold text-brand-900">{highlight.title}</h3>
            <p className="mt-2 leading-relaxed text-slate-700">{highlight.text}</p>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}

/** A link to each service's page. */
export function HomeServices() {
  return (
    <PageSection id="services" title={homePage.servicesHeading} layout="band">
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {services.map((service) => (
          <li key={service.id}>
            <Link
              href={service.page.path}
              className="flex h-full items-center justify-between gap-4 rounded-lg bg-white p-5 font-semibold text-brand-900 shadow-sm ring-1 ring-slate-200 hover:ring-brand-700"
            >
              {service.title}
              <span aria-hidden="true" className="text-accent-600">
                &rarr;
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}

/** What customers said. */
export function HomeTestimonials() {
  return (
    <PageSection id="testimonials" title={homePage.testimonialsHeading}>
      <ul className="mt-8 grid gap-6 md:grid-cols-3">
        {testimonials.map((testimonial) => (
          <li key={testimonial.customerName}>
            <figure className="flex h-full flex-col rounded-xl bg-brand-50 p-6">
              <blockquote className="flex-1 leading-relaxed text-slate-800">
                <p>&ldquo;{testimonial.quote}&rdquo;</p>
              </blockquote>
              <figcaption className="mt-4 border-t border-brand-100 pt-4">
                <span className="block font-bold text-brand-900">{testimonial.customerName}</span>
                <span className="block text-sm text-slate-700">{testimonial.town}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}
