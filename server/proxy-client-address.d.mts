export const CLIENT_ADDRESS_HEADER: string;
export const MAX_TRUSTED_PROXIES: number;
export function parseTrustProxy(raw: string | undefined): number;
export function resolveClientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, hops: number): string;
export function rateLimitKey(address: string): string;
