import type { NextConfig } from 'next';
import { crmImagePattern, crmIsOnPrivateNetwork } from './server/crm/gallery-image-pattern';
import { GALLERY_IMAGE_QUALITY, GALLERY_IMAGE_WIDTHS } from './lib/gallery/image-widths';
import { config } from './server/base/config.mjs';
import { LARGEST_BODY_BYTES } from './lib/enquiry-rules.mjs';

// The settings, checked (a bad value stops the build with the variable named): server/base/config.mjs.
const settings = config();
const crmUrl = settings.public.NEXT_PUBLIC_CRM_URL;
const crmPattern = crmImagePattern(crmUrl);

const nextConfig: NextConfig = {
  // NEXT_DIST_DIR: the browser tests build into their own folders so they never replace the build `npm start` serves.
  distDir: settings.distDir,
  poweredByHeader: false,
  // NEXT_BUILD_TYPECHECK=off: one type check per test run is enough (scripts/test/build-for-tests.ts).
  typescript: { ignoreBuildErrors: !settings.buildTypecheck },
  reactStrictMode: true,
  // The stylesheet (about 8 KB gzipped, Tailwind) goes into each page's <head> as a <style>: the first
  // paint needs the document alone, not one more round trip (562 ms on the bench's throttled phone).
  // The CSP already allows inline styles; only scripts are held to hashes.
  // proxyClientMaxBodySize: the proxy (proxy.ts) never reads a body and runs for GET /gallery only, so
  // the copy of a body Next buffers for it is held to its least, 1 byte (the default is 10 MB). A proxy
  // that matched a path taking a body would see that body cut to 1 byte.
  // serverActions: the contact form posted without JavaScript (app/(site)/contact/actions.ts) carries its photos
  // as they were taken, up to LARGEST_BODY_BYTES of lib/enquiry-rules.mjs (60,098,304). Given as a number
  // Next takes it as bytes, unrounded (a string such as '58mb' it would read as 58 MiB, 60,817,408), so
  // Next and server.mjs, which refuses a larger declared body before Next reads it, draw the same line;
  // next-config.test.ts reads it as Next does.
  experimental: { inlineCss: true, proxyClientMaxBodySize: 1, serverActions: { bodySizeLimit: LARGEST_BODY_BYTES } },
  serverExternalPackages: ['@libsql/client', 'libsql'],
  // The image optimiser resizes the CRM's gallery photos (decision 0009): the CRM's origin only, the
  // gallery's widths and its two qualities (tile, viewer) only, WebP (AVIF costs several times the CPU per image).
  images: {
    imageSizes: GALLERY_IMAGE_WIDTHS.filter((width) => width < 640),
    deviceSizes: GALLERY_IMAGE_WIDTHS.filter((width) => width >= 640),
    qualities: Object.values(GALLERY_IMAGE_QUALITY),
    formats: ['image/webp'],
    remotePatterns: crmPattern ? [crmPattern] : [],
    // No same-origin image goes through it (the built-in gallery stores its sizes).
    localPatterns: [],
    // A photo the CRM stops serving (a customer asked for it to be taken down) stops being served from
    // here within GALLERY_REFRESH_SECONDS (a minute by default).
    minimumCacheTTL: settings.galleryRefreshSeconds,
    maximumDiskCacheSize: 512 * 1024 * 1024,
    // A phone photo is 3-6 MB; nothing a CRM should send is larger.
    maximumResponseBody: 25 * 1024 * 1024,
    maximumRedirects: 0,
    // Only when the operator configured a CRM on a private address (tests, an internal network).
    dangerouslyAllowLocalIP: crmIsOnPrivateNetwork(crmUrl),
  },
  // The one test-only entry point, the test build's `*.e2e.ts(x)` files (NEXT_PUBLIC_E2E_FAULTS=1; docs/testing.md):
  // under app/ they are routes and templates, and an import finds `x.e2e.tsx` before `x.tsx`. Any other
  // build ignores them, so none carries the faults the browser tests trigger.
  pageExtensions: settings.e2eBuild ? ['e2e.tsx', 'e2e.ts', 'tsx', 'ts', 'jsx', 'js'] : ['tsx', 'ts', 'jsx', 'js'],
  turbopack: settings.e2eBuild ? { resolveExtensions: ['.e2e.tsx', '.e2e.ts', '.tsx', '.ts', '.jsx', '.js', '.mjs', '.json'] } : {},
};

export default nextConfig;
