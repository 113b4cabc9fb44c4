'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { CloseIcon, MenuIcon } from '@/components/ui/icons';
import { navigationLabels, primaryNav } from '@/content/navigation';

function isCurrent(pathname: string, href: string) {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

/** Desktop links plus the small-screen menu toggle and panel. */
export function SiteNav() {
  const pathname = usePathname() ?? '/';
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // Any navigation (a link, the browser's back button) closes the menu: adjusted while rendering the
  // new path, not in an effect, so the open menu never paints on the new page.
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  const linkClass = (href: string) =>
    isCurrent(pathname, href)
      ? 'text-brand-900 underline decoration-accent-500 decoration-4 underline-offset-8'
      : 'text-slate-700 hover:text-brand-900 hover:underline decoration-2 underline-offset-8';

  return (
    <nav aria-label={navigationLabels.main} className="flex items-center">
      <ul className="hidden items-center gap-8 text-lg font-semibold md:flex">
        {primaryNav.map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={isCurrent(pathname, link.href) ? 'page' : undefined} className={linkClass(link.href)}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
      <button
        ref={toggleRef}
        type="button"
        className="inline-flex h-12 w-12 items-center justify-center rounded-md border-2 border-brand-900 text-brand-900 md:hidden"
        aria-expanded={menuOpen}
        aria-controls={menuId}
        onClick={() => setMenuOpen((open) => !open)}
      >
        <span className="sr-only">{menuOpen ? navigationLabels.closeMenu : navigationLabels.openMenu}</span>
        {menuOpen ? <CloseIcon /> : <MenuIcon />}
      </button>
      <div id={menuId} hidden={!menuOpen} className="absolute inset-x-0 top-full border-b border-slate-200 bg-white shadow-lg md:hidden">
        <ul className="mx-auto flex max-w-6xl flex-col px-4 py-2 text-lg font-semibold">
          {primaryNav.map((link) => (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={isCurrent(pathname, link.href) ? 'page' : undefined}
                className={`block py-3 ${linkClass(link.href)}`}
                onClick={() => setMenuOpen(false)}
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
