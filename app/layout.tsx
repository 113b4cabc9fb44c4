import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import './globals.css';
import { business } from '@/content/business';
import { navigationLabels } from '@/content/navigation';
import { config } from '@/server/base/config.mjs';
import { SiteHeader } from '@/components/layout/site-header';
import { SiteFooter } from '@/components/layout/site-footer';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { GlobalErrorHandlers } from '@/components/errors/global-error-handlers';
import { LandingRecorder } from '@/components/layout/landing-recorder';
import { KeptClaimNotices } from '@/components/offline/kept-claim-notices';
import { LayoutFault } from '@/components/testing/layout-fault';

export const metadata: Metadata = {
  metadataBase: new URL(config().siteUrl),
  title: { default: business.name, template: `%s | ${business.name}` },
  applicationName: business.name,
  formatDetection: { telephone: false },
};

export const viewport: Viewport = {
  themeColor: '#0a2c47',
  width: 'device-width',
  initialScale: 1,
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en-GB">
      <body className="flex min-h-dvh flex-col">
        <a href="#main" className="skip-link">
          {navigationLabels.skipLink}
        </a>
        <GlobalErrorHandlers />
        <LandingRecorder />
        {/* Nothing, except in the test build (components/testing/layout-fault.e2e.tsx). */}
        <LayoutFault />
        <SiteHeader />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          <KeptClaimNotices />
          <ErrorBoundary>{children}</ErrorBoundary>
        </main>
        <SiteFooter />
      </body>
    </html>
  );
}
