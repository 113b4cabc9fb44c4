'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
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

/** False on the server and while hydrating, true once React has taken the page over. */
function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * Whether the menu panel is open: the popover's own state, or React's where the browser has no
 * popovers (`setFallbackOpen`); `closeMenu` closes it either way.
 */
function useMenuOpen(menuId: string) {
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

  const closeMenu = useCallback(() => {
    hidePanel(menuId);
    setFallbackOpen(false);
  }, [menuId]);

  return { menuOpen: popoverOpen || fallbackOpen, setFallbackOpen, closeMenu };
}

/** Any navigation (a link, the browser's back button) closes the menu, before the new page paints. */
function useCloseMenuOnNavigation(pathname: string, menuId: string, setFallbackOpen: (open: boolean) => void) {
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
}

/** Escape closes an open menu and puts focus back on its toggle. */
function useEscapeClosesMenu(menuOpen: boolean, closeMenu: () => void, toggleRef: RefObject<HTMLButtonElement | null>) {
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
  }, [menuOpen, closeMenu, toggleRef]);
}

function linkClass(pathname: string, href: string) {
  return isCurrent(pathname, href)
    ? 'text-brand-900 underline decoration-accent-500 decoration-4 underline-offset-8'
    : 'text-slate-700 hover:text-brand-900 hover:underline decoration-2 underline-offset-8';
}

/** The links in the bar, on wide screens. */
function DesktopLinks({ pathname }: { pathname: string }) {
  return (
    <ul className="hidden items-center gap-8 text-lg font-semibold md:flex">
      {primaryNav.map((link) => (
        <li key={link.href}>
          <Link
            href={link.href}
            aria-current={isCurrent(pathname, link.href) ? 'page' : undefined}
            className={linkClass(pathname, link.href)}
          >
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

type MenuPanelProps = { menuId: string; menuOpen: boolean; pathname: string; onNavigate: () => void };

/** The small-screen menu: a popover under the bar holding the same links. */
function MenuPanel({ menuId, menuOpen, pathname, onNavigate }: MenuPanelProps) {
  return (
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
              className={`block py-3 ${linkClass(pathname, link.href)}`}
              onClick={onNavigate}
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

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
  const hydrated = useHydrated();
  const { menuOpen, setFallbackOpen, closeMenu } = useMenuOpen(menuId);
  useCloseMenuOnNavigation(pathname, menuId, setFallbackOpen);
  useEscapeClosesMenu(menuOpen, closeMenu, toggleRef);

  return (
    <nav aria-label={navigationLabels.main} className="flex items-center">
      <DesktopLinks pathname={pathname} />
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
      <MenuPanel menuId={menuId} menuOpen={menuOpen} pathname={pathname} onNavigate={closeMenu} />
    </nav>
  );
}
