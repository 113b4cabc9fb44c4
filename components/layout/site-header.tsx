import Link from 'next/link';
import { business } from '@/content/business';
import { SiteNav } from '@/components/layout/site-nav';

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95">
      <div className="relative mx-auto flex h-32 max-w-6xl items-center justify-between px-4 md:h-48" data-testid="nav-bar">
        <Link href="/" className="flex items-center gap-3" aria-label={`${business.name} home`}>
          <img src="/brand/logo-placeholder.svg" alt="" width={96} height={96} className="h-20 w-20 md:h-28 md:w-28" />
          <span className="text-xl font-bold leading-tight text-brand-900 md:text-2xl">{business.name}</span>
        </Link>
        <SiteNav />
      </div>
    </header>
  );
}
