import type { Metadata } from 'next';
import Link from 'next/link';
import { business, telHref } from '@/content/business';

export const metadata: Metadata = {
  title: 'Page not found',
  description: 'The page you asked for is not on our website. Find your way to our services, contact details or home page.',
};

const helpfulLinks = [
  { href: '/', label: 'Home page', text: 'Start again from our home page.' },
  { href: '/services', label: 'Our services', text: 'Water, storm, fire, vandalism and impact damage repairs.' },
  { href: '/contact', label: 'Contact us', text: 'Send us a message about your repair.' },
] as const;

export default function NotFound() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 md:py-24">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent-600">Error 404</p>
      <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-brand-900 md:text-5xl">Sorry, we can&apos;t find that page</h1>
      <p className="mt-4 text-lg leading-relaxed text-slate-700">
        The page may have moved, or the address may have been mistyped. These links will help you find what you need:
      </p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-3">
        {helpfulLinks.map((link) => (
          <li key={link.href}>
            <Link href={link.href} className="block h-full rounded-xl border border-slate-200 p-5 shadow-sm hover:border-brand-700">
              <span className="block font-bold text-brand-900 underline underline-offset-4">{link.label}</span>
              <span className="mt-1 block text-sm text-slate-700">{link.text}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-10 text-lg text-slate-700">
        Need help with damage to your home now? Call us on{' '}
        <a href={telHref} className="prose-link">
          {business.phone.display}
        </a>{' '}
        ({business.openingHours.label}).
      </p>
    </div>
  );
}
