import type { Business } from '@/content/business';
import { callLabel } from '@/content/home';

type PhoneLine = Business['phone'];

// The line is a prop, not read from content/business.ts here, so a client component (the contact
// form) can use these without the whole business object reaching the browser (decision 0023).
const telHref = (phone: PhoneLine) => `tel:${phone.e164}`;

/** A call to one of the company's lines as a button: "Call 0141 …" unless `label` words it otherwise. */
export function CallButton({
  phone,
  variant,
  label = callLabel,
}: {
  phone: PhoneLine;
  variant: 'primary' | 'secondary' | 'accent' | 'outline-light';
  label?: (display: string) => string;
}) {
  return (
    <a href={telHref(phone)} className={`btn-${variant}`}>
      {label(phone.display)}
    </a>
  );
}

/** A line's number as a link in running text, the footer or a list of details. */
export function PhoneLink({ phone, className = 'prose-link' }: { phone: PhoneLine; className?: string }) {
  return (
    <a href={telHref(phone)} className={className}>
      {phone.display}
    </a>
  );
}
