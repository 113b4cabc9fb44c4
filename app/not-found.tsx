import type { Metadata } from 'next';
import Link from 'next/link';
import { business } from '@/content/business';
import { PhoneLink } from '@/components/ui/call-button';
import { notFoundPage } from '@/content/not-found';

export const metadata: Metadata = { title: notFoundPage.title, description: notFoundPage.description };

export default function NotFound() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 md:py-24">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent-600">{notFoundPage.eyebrow}</p>
      <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-brand-900 md:text-5xl">{notFoundPage.heading}</h1>
      <p className="mt-4 text-lg leading-relaxed text-slate-700">{notFoundPage.intro}</p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-3">
        {notFoundPage.links.map((link) => (
          <li key={link.href}>
            <Link href={link.href} className="block h-full rounded-xl border border-slate-200 p-5 shadow-sm hover:border-brand-700">
              <span className="block font-bold text-brand-900 underline underline-offset-4">{link.label}</span>
              <span className="mt-1 block text-sm text-slate-700">{link.text}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-10 text-lg text-slate-700">
        {notFoundPage.callPrompt} <PhoneLink phone={business.phone} /> ({business.openingHours.label}).
      </p>
    </div>
  );
}
