import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The browser tests build into their own folder so they never replace the build `npm start` serves.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ['@libsql/client', 'libsql'],
  images: { formats: ['image/avif', 'image/webp'] },
  // Always inlined (Next leaves an unset NEXT_PUBLIC_* as a runtime lookup), so outside the test build
  // the test-only faults in components/testing/e2e-faults.tsx are dead code and removed.
  env: { NEXT_PUBLIC_E2E_FAULTS: process.env.NEXT_PUBLIC_E2E_FAULTS === '1' ? '1' : '' },
};

export default nextConfig;
