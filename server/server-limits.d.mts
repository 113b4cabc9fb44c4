import type { Server, ServerOptions } from 'node:http';

export type ServerLimits = {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  connectionsCheckingIntervalMs: number;
  keepAliveTimeoutMs: number;
  socketIdleTimeoutMs: number;
  maxConnections: number;
  maxHeadersCount: number;
  maxHeaderSize: number;
  maxRequestsPerSocket: number;
};
export const SERVER_LIMITS: Readonly<ServerLimits>;
export const SHUTDOWN_GRACE_MS: number;
export function serverOptions(limits?: ServerLimits): ServerOptions;
export function applyServerLimits<T extends Server>(server: T, limits?: ServerLimits): T;
export const PAGE_METHODS: readonly string[];
export function isMethodNotAllowed(method: string | undefined, url: string | undefined): boolean;
