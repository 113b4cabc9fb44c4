import type { NextConfig } from 'next';

// The test build (tests/e2e/test-env.ts) and only it carries the faults the browser tests trigger.
const e2eFaults = process.env.NEXT_PUBLIC_E2E_FAULTS === '1';

const nextConfig: NextConfig = {
  // The browser tests build into their own folder so they never replace the build `npm start` serves.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ['@libsql/client', 'libsql'],
  images: { formats: ['image/avif', 'image/webp'] },
  // Always inlined (Next leaves an unset NEXT_PUBLIC_* as a runtime lookup), so outside the test build
  // the test-only faults in components/testing/e2e-faults.tsx are dead code and removed.
  env: { NEXT_PUBLIC_E2E_FAULTS: e2eFaults ? '1' : '' },
  // Test-only routes are named `route.e2e.ts`: routes in the test build, ignored files in any other.
  pageExtensions: e2eFaults ? ['e2e.ts', 'tsx', 'ts', 'jsx', 'js'] : ['tsx', 'ts', 'jsx', 'js'],
  // Outside the test build the faults component is swapped for one that renders nothing.
  turbopack: e2eFaults ? {} : { resolveAlias: { '@/components/testing/e2e-faults': './components/testing/e2e-faults-off.tsx' } },
};

export default nextConfig;
