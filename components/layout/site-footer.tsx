import { business } from '@/content/business';
import { PhoneLink } from '@/components/ui/call-button';
import { footerNav, navigationLabels } from '@/content/navigation';
import { AccreditationBadge } from '@/components/layout/accreditation-badge';
import { LinkList } from '@/components/ui/link-list';
import { PostalAddress } from '@/components/ui/postal-address';
import { ExternalLink } from '@/components/ui/external-link';
import { EmailLink } from '@/components/ui/email-link';

export function SiteFooter() {
  return (
    <footer className="bg-brand-950 text-slate-100">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 md:grid-cols-3">
        <div>
          <p className="text-lg font-bold text-white">{business.legalName}</p>
          <PostalAddress className="mt-3" />
          <p className="mt-3">
            <PhoneLink phone={business.phone} className="footer-link" />
          </p>
          <p>
            <EmailLink address={business.email} className="footer-link" />
          </p>
        </div>
        <nav aria-label={navigationLabels.policies}>
          <LinkList links={footerNav} className="space-y-2" linkClassName="footer-link" />
        </nav>
        <div>
          <AccreditationBadge />
        </div>
      </div>
      <div className="border-t border-white/15">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-sm sm:flex-row sm:justify-between">
          <p>
            &copy; {business.copyrightYear} {business.legalName}. All rights reserved.
          </p>
          <p>
            Website by{' '}
            <ExternalLink href={business.builderCredit.url} className="footer-link">
              {business.builderCredit.name}
            </ExternalLink>
          </p>
        </div>
      </div>
    </footer>
  );
}
