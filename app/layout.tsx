import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import './globals.css';
import { business } from '@/content/business';
import { navigationLabels } from '@/content/navigation';
import { config } from '@/server/config.mjs';
import { SiteHeader } from '@/components/layout/site-header';
import { SiteFooter } from '@/components/layout/site-footer';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { GlobalErrorHandlers } from '@/components/errors/global-error-handlers';
import { LandingRecorder } from '@/components/layout/landing-recorder';

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

// `e2e`: the test build's slot for a fault of the root layout itself (app/@e2e); empty in any other build.
export default function RootLayout({ children, e2e }: { children: ReactNode; e2e: ReactNode }) {
  return (
    <html lang="en-GB">
      <body className="flex min-h-dvh flex-col">
        <a href="#main" className="skip-link">
          {navigationLabels.skipLink}
        </a>
        <GlobalErrorHandlers />
        <LandingRecorder />
        {e2e}
        <SiteHeader />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          <ErrorBoundary>{children}</ErrorBoundary>
        </main>
        <SiteFooter />
      </body>
    </html>
  );
}
