'use client';

import { useEffect } from 'react';
import { recordLanding } from '@/lib/visit-landing';

/** Mounted once in the root layout: notes the page the visit landed on (lib/visit-landing.ts). Renders nothing. */
export function LandingRecorder() {
  useEffect(() => recordLanding(window.location.href, document.referrer), []);
  return null;
}
