import type { IncomingMessage, ServerResponse } from 'node:http';

export type CspManifest = {
  version: 1;
  /** Route path → sha256 sources ('sha256-…') of the page's inline scripts. */
  pages: Record<string, string[]>;
  /** Origin of NEXT_PUBLIC_CRM_URL at build time, or ''. */
  crmOrigin: string;
  /** Origin of NEXT_PUBLIC_API_URL at build time, or ''. */
  apiOrigin: string;
  /** Whether NEXT_PUBLIC_RECAPTCHA_SITE_KEY was set at build time. */
  recaptcha: boolean;
  /** The build-time settings the build was made with (server/build-settings.mjs); absent in older builds. */
  builtWith?: Record<string, string>;
  /** Set for `npm run dev`: no hashes, inline scripts and eval allowed (developmentManifest). */
  development?: boolean;
};

type PublicSettings = {
  NEXT_PUBLIC_CRM_URL: string;
  NEXT_PUBLIC_API_URL: string;
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: string;
};

export const CSP_MANIFEST_FILE: string;
export const PERMISSIONS_POLICY: string;
export const HSTS: string;
export const HTML_CACHE_CONTROL: string;
export const IMMUTABLE_CACHE_CONTROL: string;
export const PUBLIC_FILE_CACHE_CONTROL: string;
export const API_CACHE_CONTROL: string;
export function loadCspManifest(distDir: string): CspManifest;
export function contentSecurityPolicy(manifest: CspManifest, options: { hashes: string[]; https: boolean }): string;
export function allHashes(manifest: CspManifest): string[];
export function normalisePath(pathname: string): string;
export function cameOverHttps(request: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxy: boolean): boolean;
export function responseHeaders(input: {
  manifest: CspManifest;
  pathname: string;
  status: number;
  contentType: string;
  existingCacheControl: string;
  https: boolean;
}): Record<string, string>;
export function buildOrigins(publicSettings: PublicSettings): Pick<CspManifest, 'crmOrigin' | 'apiOrigin' | 'recaptcha'>;
export function developmentManifest(publicSettings: PublicSettings): CspManifest;
export function responseClassWithSiteHeaders(options: { manifest: CspManifest; trustProxy: boolean }): typeof ServerResponse;
