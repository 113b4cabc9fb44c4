import { CloseIcon } from '@/components/ui/icons';

/** The X button in the corner of a dialog. */
export function CloseButton({ onClick, label = 'Close' }: { onClick: () => void; label?: string }) {
  return (
    <button type="button" onClick={onClick} className="modal-close" aria-label={label}>
      <CloseIcon />
    </button>
  );
}
