import 'server-only';
import type { Client } from '@libsql/client';
import { config } from '@/server/base/config.mjs';
import { getDb } from '@/server/base/db';
import { createRateLimiter, type RateLimiter } from '@/server/base/rate-limiter';
import { FAILED_LOOK_UPS, lookUpByForm, sessionFor } from '@/server/claims/pages/look-up';
import { staffClaim, statusBySession } from '@/server/claims/pages/opened-pages';
import type { ClaimPageContext } from '@/server/claims/pages/page-context';
import { saveStaffUpdate } from '@/server/claims/pages/staff-save';
import { recordStaffVisit } from '@/server/claims/pages/staff-visit';
import { surveyBySession, surveyFormByPage, surveyInviteBySession } from '@/server/claims/pages/survey-page';
import { staffSurveyByPage, staffSurveyForm } from '@/server/claims/pages/staff-survey';
import type { ClaimLinkPurpose } from '@/server/claims/claim-links';

export { FAILED_LOOK_UPS } from '@/server/claims/pages/look-up';
export { newFormToken } from '@/server/claims/pages/page-context';

export type ClaimPageDeps = {
  db?: () => Promise<Client>;
  failedLookUps?: RateLimiter;
  now?: () => number;
  /** Whether a change saved here is told to the company's CRM (default: when CRM_WEBHOOK_URL is set). */
  tellCrm?: boolean;
};

/**
 * The claim pages' server side: the look-up and the session it starts (pages/look-up.ts), the status
 * and staff pages opened by their cookie (pages/opened-pages.ts), the staff page's Save
 * (pages/staff-save.ts), its "Record a visit" (pages/staff-visit.ts) and its survey visits
 * (pages/staff-survey.ts), and the status page's "Book your survey" (pages/survey-page.ts).
 */
export function createClaimPages(deps: ClaimPageDeps = {}) {
  const now = deps.now ?? Date.now;
  const ctx: ClaimPageContext = { db: deps.db ?? getDb, now, tellCrm: () => deps.tellCrm ?? config().enquiries.tellCrm };
  const failedLookUps = deps.failedLookUps ?? createRateLimiter({ ...FAILED_LOOK_UPS, now });
  type Session = string | undefined;
  return {
    lookUp: (form: FormData, headers: Headers) => lookUpByForm(ctx, failedLookUps, form, headers),
    sessionFor: (purpose: ClaimLinkPurpose, reference: string) => sessionFor(ctx, purpose, reference),
    statusBySession: (reference: string, session: Session) => statusBySession(ctx, reference, session),
    staffClaim: (reference: string, session: Session) => staffClaim(ctx, reference, session),
    saveUpdate: (reference: string, session: Session, form: FormData) => saveStaffUpdate(ctx, reference, session, form),
    recordVisit: (reference: string, session: Session, form: FormData) => recordStaffVisit(ctx, reference, session, form),
    surveyBySession: (reference: string, session: Session) => surveyBySession(ctx, reference, session),
    surveyForm: (reference: string, session: Session, form: FormData) => surveyFormByPage(ctx, reference, session, form),
    surveyInvite: (reference: string, session: Session) => surveyInviteBySession(ctx, reference, session),
    staffSurvey: (reference: string, session: Session) => staffSurveyByPage(ctx, reference, session),
    staffSurveyForm: (reference: string, session: Session, form: FormData) => staffSurveyForm(ctx, reference, session, form),
  };
}

let shared: ReturnType<typeof createClaimPages> | undefined;

/** The process's claim pages (one budget of failed look-ups), made on first use. */
export function claimPages() {
  shared ??= createClaimPages();
  return shared;
}
