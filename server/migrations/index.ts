import 'server-only';
import { errorLogsMigration } from '@/server/migrations/0001-error-logs';
import { enquiriesMigration } from '@/server/migrations/0002-enquiries';
import { errorLogReporterMigration } from '@/server/migrations/0003-error-log-reporter';
import { claimsReferencesAcknowledgementsMigration } from '@/server/migrations/0004-claims-references-acknowledgements';
import { enquiryPhotosMigration } from '@/server/migrations/0005-enquiry-photos';
import { enquiryAbuseLimitsMigration } from '@/server/migrations/0006-enquiry-abuse-limits';
import { enquiryAttributionMigration } from '@/server/migrations/0007-enquiry-attribution';
import { digestsMigration } from '@/server/migrations/0008-digests';
import { errorLogGroupsMigration } from '@/server/migrations/0009-error-log-groups';
import { photosFollowUpMigration } from '@/server/migrations/0010-photos-follow-up';
import { urgencyAndInstructionsMigration } from '@/server/migrations/0011-urgency-and-instructions';
import { enquiryKeysMigration } from '@/server/migrations/0012-enquiry-keys';
import { claimStagesMigration } from '@/server/migrations/0013-claim-stages';
import { stageEmailsMigration } from '@/server/migrations/0014-stage-emails';
import { supportNeedsMigration } from '@/server/migrations/0015-support-needs';
import { laterPhotosAndLinkUsesMigration } from '@/server/migrations/0016-later-photos-and-link-uses';
import { crmWebhooksMigration } from '@/server/migrations/0017-crm-webhooks';
import { claimLinkKeysMigration } from '@/server/migrations/0018-claim-link-keys';
import { staffLinkRenewalMigration } from '@/server/migrations/0019-staff-link-renewal';
import { editedResendsMigration } from '@/server/migrations/0020-edited-resends';
import { dryingRecordMigration } from '@/server/migrations/0021-drying-record';
import { dryingWebhooksMigration } from '@/server/migrations/0022-drying-webhooks';
import { driedConfirmedByMigration } from '@/server/migrations/0023-dried-confirmed-by';
import { crmOwedReceivedMigration } from '@/server/migrations/0024-crm-owed-received';
import { dryingDocumentsMigration } from '@/server/migrations/0025-drying-documents';

import type { Transaction } from '@libsql/client';

/** Statements, then (optionally) work SQL alone cannot do, in the same transaction. */
export type Migration = { id: string; statements: readonly string[]; after?: (tx: Transaction) => Promise<void> };

/** Applied in order, each once, inside a transaction; never edit one that has shipped: add a new one. */
export const migrations: readonly Migration[] = [
  errorLogsMigration,
  enquiriesMigration,
  errorLogReporterMigration,
  claimsReferencesAcknowledgementsMigration,
  enquiryPhotosMigration,
  enquiryAbuseLimitsMigration,
  enquiryAttributionMigration,
  digestsMigration,
  errorLogGroupsMigration,
  photosFollowUpMigration,
  urgencyAndInstructionsMigration,
  enquiryKeysMigration,
  claimStagesMigration,
  stageEmailsMigration,
  supportNeedsMigration,
  laterPhotosAndLinkUsesMigration,
  crmWebhooksMigration,
  claimLinkKeysMigration,
  staffLinkRenewalMigration,
  editedResendsMigration,
  dryingRecordMigration,
  dryingWebhooksMigration,
  driedConfirmedByMigration,
  crmOwedReceivedMigration,
  dryingDocumentsMigration,
];
