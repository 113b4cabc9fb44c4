// The site's small inline icons, each drawn once. Decorative: the control around them carries the name.

/** A 24-unit stroked line icon: the shape of every control icon on the site. */
function StrokeIcon({ size = 24, path }: { size?: number; path: string }) {
  return (
    <svg
      aria-hidden="true"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}

export const CloseIcon = ({ size }: { size?: number }) => <StrokeIcon size={size} path="M6 6l12 12M18 6L6 18" />;
export const MenuIcon = () => <StrokeIcon path="M4 7h16M4 12h16M4 17h16" />;
export const PreviousIcon = () => <StrokeIcon path="M15 5l-7 7 7 7" />;
export const NextIcon = () => <StrokeIcon path="M9 5l7 7-7 7" />;

/** A crossed-out picture: an item with no image or video. */
export function NoMediaIcon({ size }: { size: number }) {
  return (
    <svg aria-hidden="true" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5">
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M3 16l5-5 4 4 3-3 6 6M4 4l16 16" strokeLinecap="round" />
    </svg>
  );
}
