/** An e-mail address as a link that writes to it, in running text, the footer or a list of details. */
export function EmailLink({ address, className = 'prose-link' }: { address: string; className?: string }) {
  return (
    <a href={`mailto:${address}`} className={className}>
      {address}
    </a>
  );
}
