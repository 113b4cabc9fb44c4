'use client';

import { useEffect, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

type DialogProps = {
  open: boolean;
  onClose: () => void;
  /** id of the element that names the dialog (usually its heading). */
  labelledBy: string;
  describedBy?: string;
  className?: string;
  children: ReactNode;
  /** Extra key handling while open (the gallery viewer uses it for arrow keys). */
  onKeyDown?: (event: React.KeyboardEvent<HTMLDialogElement>) => void;
  /**
   * Where focus goes when the dialog closes. Defaults to the element focused when it opened; pass
   * the opener when a click may not focus it (Safari does not focus buttons on click).
   */
  returnFocusRef?: RefObject<HTMLElement | null>;
};

/**
 * Opens the <dialog> as a modal when `open` turns true (remembering what had focus, and locking page
 * scrolling) and closes it when `open` turns false.
 */
function useModalWhileOpen(dialogRef: RefObject<HTMLDialogElement | null>, openerRef: RefObject<HTMLElement | null>, open: boolean) {
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      document.documentElement.classList.add('scroll-locked');
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [dialogRef, openerRef, open]);
}

/**
 * However the dialog closes: unlocks page scrolling and returns focus to `returnFocusRef` or else
 * to what had focus when it opened. Closes a dialog still open on unmount.
 */
function useRestoreOnClose(
  dialogRef: RefObject<HTMLDialogElement | null>,
  openerRef: RefObject<HTMLElement | null>,
  returnFocusRefRef: RefObject<RefObject<HTMLElement | null> | undefined>,
) {
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const handleClose = () => {
      document.documentElement.classList.remove('scroll-locked');
      const opener = returnFocusRefRef.current?.current ?? openerRef.current;
      openerRef.current = null;
      if (opener && opener.isConnected) opener.focus();
    };
    dialog.addEventListener('close', handleClose);
    return () => {
      dialog.removeEventListener('close', handleClose);
      if (dialog.open) {
        dialog.close();
      }
    };
  }, [dialogRef, openerRef, returnFocusRefRef]);
}

/** Keeps Tab and Shift+Tab inside the dialog: from the last focusable element to the first and back. */
function keepTabInside(event: React.KeyboardEvent<HTMLDialogElement>) {
  const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => element.getClientRects().length > 0,
  );
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * The one modal dialog of the site, on the native <dialog> element opened with showModal():
 * the browser makes the rest of the page inert and moves focus in. On top of that we keep Tab
 * inside the dialog, close on Escape and on a click on the backdrop, lock page scrolling
 * without a layout jump, and return focus to whatever opened the dialog.
 */
export function Dialog({ open, onClose, labelledBy, describedBy, className, children, onKeyDown, returnFocusRef }: DialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const onCloseRef = useRef(onClose);
  const returnFocusRefRef = useRef(returnFocusRef);
  // The latest callbacks for the listeners below, updated after each render (never during it).
  useLayoutEffect(() => {
    onCloseRef.current = onClose;
    returnFocusRefRef.current = returnFocusRef;
  });
  useModalWhileOpen(dialogRef, openerRef, open);
  useRestoreOnClose(dialogRef, openerRef, returnFocusRefRef);

  const handleKeyDown = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    onKeyDown?.(event);
    if (event.defaultPrevented) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      onCloseRef.current();
      return;
    }
    if (event.key === 'Tab') keepTabInside(event);
  };

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className={className}
      onKeyDown={handleKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        onCloseRef.current();
      }}
      onClick={(event) => {
        // A click whose target is the <dialog> itself landed on the backdrop (content sits in a child).
        if (event.target === event.currentTarget) onCloseRef.current();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}
