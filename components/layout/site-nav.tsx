'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { CloseIcon, MenuIcon } from '@/components/ui/icons';
import { navigationLabels, primaryNav } from '@/content/navigation';

function isCurrent(pathname: string, href: string) {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

/** Whether this browser has the Popover API (Safari before 17 does not). */
const popoverSupported = () => typeof HTMLElement !== 'undefined' && 'popover' in HTMLElement.prototype;

const isShowing = (menu: HTMLElement | null) => Boolean(menu && popoverSupported() && menu.matches(':popover-open'));

function hidePanel(id: string) {
  const menu = document.getElementById(id);
  if (menu && isShowing(menu)) menu.hidePopover();
}

const noSubscription = () => () => {};

/**
 * Desktop links plus the small-screen menu toggle and panel. The panel is a popover the toggle opens
 * by itself, so the menu works before the page's JavaScript has run (and without it): the browser opens
 * and closes it, closes it on Escape or a tap outside, and tells assistive technology whether it is
 * open. Once hydrated, React follows it to switch the toggle's label and icon, and closes it on any
 * navigation. Where the browser has no popovers, React opens and closes it instead.
 */
export function SiteNav() {
  const pathname = usePathname() ?? '/';
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  const followMenu = useCallback(
    (onChange: () => void) => {
      const menu = document.getElementById(menuId);
      menu?.addEventListener('toggle', onChange);
      return () => menu?.removeEventListener('toggle', onChange);
    },
    [menuId],
  );
  // Read from the page, so a menu opened before hydration shows as open once React takes over.
  const popoverOpen = useSyncExternalStore(
    followMenu,
    () => isShowing(document.getElementById(menuId)),
    () => false,
  );
  const [fallbackOpen, setFallbackOpen] = useState(false);
  const menuOpen = popoverOpen || fallbackOpen;

  const closeMenu = useCallback(() => {
    hidePanel(menuId);
    setFallbackOpen(false);
  }, [menuId]);

  // Any navigation (a link, the browser's back button) closes the menu, before the new page paints.
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setFallbackOpen(false);
  }
  const shownPath = useRef(pathname);
  useLayoutEffect(() => {
    if (shownPath.current === pathname) return; // on hydration: a menu opened before it stays open
    shownPath.current = pathname;
    hidePanel(menuId);
  }, [pathname, menuId]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        closeMenu();
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen, closeMenu]);

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
        popoverTarget={menuId}
        // Before hydration the browser reports the popover's state itself; a fixed value would be wrong.
        aria-expanded={hydrated ? menuOpen : undefined}
        aria-controls={menuId}
        onClick={() => {
          if (!popoverSupported()) setFallbackOpen((open) => !open);
        }}
      >
        <span className="sr-only">{menuOpen ? navigationLabels.closeMenu : navigationLabels.openMenu}</span>
        {menuOpen ? <CloseIcon /> : <MenuIcon />}
      </button>
      <div
        id={menuId}
        popover="auto"
        data-open={menuOpen || undefined}
        className="site-menu fixed inset-x-0 top-32 bottom-auto m-0 h-auto w-auto max-w-none border-x-0 border-t-0 border-b border-slate-200 bg-white p-0 text-inherit shadow-lg md:hidden"
      >
        <ul className="mx-auto flex max-w-6xl flex-col px-4 py-2 text-lg font-semibold">
          {primaryNav.map((link) => (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={isCurrent(pathname, link.href) ? 'page' : undefined}
                className={`block py-3 ${linkClass(link.href)}`}
                onClick={closeMenu}
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
