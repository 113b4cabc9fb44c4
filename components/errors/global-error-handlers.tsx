'use client';

import { useEffect } from 'react';
import { installGlobalErrorHandlers } from '@/lib/global-error-handlers';
import { logger } from '@/lib/logger';

/** Mounted once in the root layout; renders nothing. */
export function GlobalErrorHandlers() {
  useEffect(() => installGlobalErrorHandlers(window, logger), []);
  return null;
}
